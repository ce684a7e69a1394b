/* SPDX-License-Identifier: ISC */
/*
 * test_mpos.c - multi-axis positions: slot-to-axis maps against the
 * layouts written out by hand (Qwen2-VL's 16,24,24 blocks, Qwen3-VL's
 * interleave with its t tail), ids of a small sequence worked out on
 * paper, the axial frequencies and one score evaluated here.
 */
#include "peviz/mpos.h"
#include "harness.h"

#include <stdint.h>
#include <string.h>

static void test_axes(void)
{
    struct mpos_conf c;
    unsigned char ax[64];
    char err[256];
    mpos_conf_default(&c);
    c.mode = MPOS_MROPE;
    CHECK(mpos_axes(&c, 64, ax, err, sizeof err) == 0);
    for (int k = 0; k < 64; k++)
        CHECK(ax[k] == (k < 16 ? MPOS_T : k < 40 ? MPOS_H : MPOS_W));
    c.section[0] = 24; c.section[1] = 20; c.section[2] = 20;
    c.interleaved = 1;
    CHECK(mpos_axes(&c, 64, ax, err, sizeof err) == 0);
    /* t: 0,3,...,57 and the tail 60..63; h: 1,4,...,58; w: 2,5,...,59 */
    for (int k = 0; k < 60; k++)
        CHECK(ax[k] == k % 3);
    for (int k = 60; k < 64; k++)
        CHECK(ax[k] == MPOS_T);
    c.section[0] = 16; c.section[1] = 24; c.section[2] = 20;
    CHECK(mpos_axes(&c, 64, ax, err, sizeof err) == -1);
    int sec[3];
    mpos_default_section(64, sec);
    CHECK(sec[0] == 16 && sec[1] == 24 && sec[2] == 24);
    mpos_default_section(32, sec);
    CHECK(sec[0] == 8 && sec[1] == 12 && sec[2] == 12);
    /* the interleaved default is Qwen3-VL's and always fits */
    mpos_default_section_interleaved(64, sec);
    CHECK(sec[0] == 24 && sec[1] == 20 && sec[2] == 20);
    for (int slots = 1; slots <= 64; slots++) {
        int fit[3], got[3] = { 0, 0, 0 };
        mpos_default_section_interleaved(slots, sec);
        CHECK(mpos_interleave_fit(sec, slots, fit) == 1);
        /* a refused section's suggestion is one the layout gives */
        int bad[3] = { 0, slots / 2, slots - slots / 2 };
        mpos_interleave_fit(bad, slots, fit);
        memcpy(c.section, fit, sizeof fit);
        CHECK(mpos_axes(&c, slots, ax, err, sizeof err) == 0);
        for (int k = 0; k < slots; k++)
            got[ax[k]]++;
        CHECK(got[0] == fit[0] && got[1] == fit[1] && got[2] == fit[2]);
    }
}

static void test_ids(void)
{
    struct mpos_conf c;
    struct mpos_tok t[16];
    char err[256];
    mpos_conf_default(&c);
    /* 2 text, a 4x4 image (2x2 tokens), a 2x2x4 video (2 frames of
     * 1x2), 1 text: worked out by hand */
    CHECK(mpos_parse_sequence(&c, "text:2,image:4x4,video:2x2x4,text:1",
                              err, sizeof err) == 0);
    CHECK(mpos_check(&c, err, sizeof err) == 0);
    CHECK(mpos_count(&c) == 2 + 4 + 4 + 1);
    static const int64_t want[11][3] = {
        {0,0,0}, {1,1,1},
        {2,2,2}, {2,2,3}, {2,3,2}, {2,3,3},
        {4,4,4}, {4,4,5}, {5,4,4}, {5,4,5},
        {6,6,6},
    };
    CHECK(mpos_fill(&c, 0, 11, t) == 0);
    for (int i = 0; i < 11; i++)
        for (int a = 0; a < 3; a++)
            CHECK(t[i].id[a] == want[i][a]);
    CHECK(t[8].frame == 1 && t[8].row == 0 && t[8].col == 0);
    CHECK(t[5].row == 1 && t[5].col == 1 && t[5].kind == MPOS_IMAGE);
    /* one at a time agrees with the block */
    struct mpos_tok one;
    CHECK(mpos_token(&c, 9, &one) == 0 && one.id[0] == 5 && one.id[2] == 5);
    CHECK(mpos_token(&c, 11, &one) == -1);
    /* Qwen3-VL split frames: frame 2 starts after frame 1's largest id */
    c.rules.split_frames = 1;
    CHECK(mpos_fill(&c, 6, 5, t) == 0);
    CHECK(t[0].id[0] == 4 && t[1].id[2] == 5 && t[2].id[0] == 6
          && t[3].id[2] == 7 && t[4].id[0] == 8);
}

static void test_axial(void)
{
    struct mpos_conf c;
    double om[8];
    unsigned char ax[8];
    char err[128];
    mpos_conf_default(&c);
    c.mode = MPOS_AXIAL;
    c.grid_w = 5;
    c.grid_h = 3;
    mpos_axial_freqs(8, 100, om);
    for (int k = 0; k < 4; k++) {
        CHECK_NEAR(om[k], pow(100, -4.0 * k / 16), 1e-15);
        CHECK(om[4 + k] == om[k]);
    }
    CHECK(mpos_axes(&c, 8, ax, err, sizeof err) == 0);
    struct mpos_tok p, q;
    CHECK(mpos_token(&c, 7, &p) == 0 && p.id[MPOS_W] == 2 && p.id[MPOS_H] == 1);
    CHECK(mpos_token(&c, 13, &q) == 0 && q.id[MPOS_W] == 3 && q.id[MPOS_H] == 2);
    double want = 0;
    for (int k = 0; k < 4; k++)
        want += 2 * cos(-1.0 * om[k]) + 2 * cos(-1.0 * om[k]);
    CHECK_NEAR(mpos_score(om, ax, 8, p.id, q.id), want, 1e-12);
    CHECK(mpos_axes(&c, 7, ax, err, sizeof err) == -1);
}

int main(void)
{
    test_axes();
    test_ids();
    test_axial();
    TEST_END("test_mpos");
}
