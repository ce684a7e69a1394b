/* SPDX-License-Identifier: ISC */
/*
 * test_grid.c - the grid view: keys move the query by a token or by a
 * row of its image, HJKL the key, x swaps them, c switches to 1-D RoPE
 * (whose inspector then shows the token index on every axis); the
 * inspector's score is the one evaluated here from the ids; r keeps the
 * sequence and its n.
 */
#include <math.h>

#include "app.h"
#include "follow_proto.h"
#include "frames.h"
#include "harness.h"
#include "peviz/mpos.h"

static void setup(struct app *a, const char *spec, int d)
{
    char err[256];
    app_init(a);
    a->p.d = d;
    CHECK(mpos_parse_sequence(&a->mp, spec, err, sizeof err) == 0);
    a->p.n = mpos_count(&a->mp);
    a->mp_start = a->mp;                /* as the command line leaves it */
    a->view = VIEW_GRID;
    a->screen_w = 80;
    a->screen_h = 24;
}

static void test_keys(void)
{
    struct app a;
    /* text:3, a 4x6 image (2x3 tokens at 3..8), text:2 */
    setup(&a, "text:3,image:4x6,text:2", 16);
    a.p.pos = 4;                        /* row 0, column 1 */
    app_key(&a, 'j');
    CHECK(a.p.pos == 7);                /* one row down: + 3 */
    app_key(&a, 'k');
    CHECK(a.p.pos == 4);
    app_key(&a, 'l');
    CHECK(a.p.pos == 5);
    a.p.pos = 1;                        /* text: down is one token */
    app_key(&a, 'j');
    CHECK(a.p.pos == 2);
    app_key(&a, 'L');
    app_key(&a, 'L');
    CHECK(a.grid.key == 2 && a.p.pos == 2);
    app_key(&a, 'J');                   /* text: one token */
    CHECK(a.grid.key == 3);
    app_key(&a, 'J');                   /* image: a row */
    CHECK(a.grid.key == 6);
    app_key(&a, 'x');
    CHECK(a.p.pos == 6 && a.grid.key == 2);
}

static void test_inspector(void)
{
    struct app a;
    struct mpos_tok q, k;
    char want[64];
    setup(&a, "text:3,image:4x6,text:2", 16);
    a.p.pos = 7;
    a.grid.key = 9;
    CHECK(frame_has(&a, 80, 24, "Q 7 image t3 h4 w4"));
    CHECK(frame_has(&a, 80, 24, "k 9 text t6 h6 w6"));
    /* S = sum over 8 slots (sections 2,3,3) of 2 cos(delta omega) */
    mpos_token(&a.mp, 7, &q);
    mpos_token(&a.mp, 9, &k);
    static const int AX[8] = { 0, 0, 1, 1, 1, 2, 2, 2 };
    double s = 0;
    for (int i = 0; i < 8; i++)
        s += 2 * cos((double)(q.id[AX[i]] - k.id[AX[i]]) *
                     pow(10000, -2.0 * i / 16));
    snprintf(want, sizeof want, "S(Q,k) = %.4g of 16", s);
    CHECK(frame_has(&a, 80, 24, want));
    /* the strip (a token a cell here) prints its own shading range: the
     * lowest and highest S from Q over every token, by the same sum */
    double slo = INFINITY, shi = -INFINITY;
    for (int64_t j = 0; j < a.p.n; j++) {
        struct mpos_tok t;
        double sj = 0;
        mpos_token(&a.mp, j, &t);
        for (int i = 0; i < 8; i++)
            sj += 2 * cos((double)(q.id[AX[i]] - t.id[AX[i]]) *
                          pow(10000, -2.0 * i / 16));
        slo = fmin(slo, sj);
        shi = fmax(shi, sj);
    }
    snprintf(want, sizeof want, "/cell, shade S %.5g..%.5g", slo, shi);
    CHECK(frame_has(&a, 80, 24, want));
    CHECK(frame_has(&a, 80, 24, "tthhhwww"));
    app_key(&a, 'c');                   /* first: side by side */
    CHECK(a.grid.one_d == 2);
    CHECK(frame_has(&a, 80, 24, "M-RoPE | 1-D (c)"));
    CHECK(frame_has(&a, 80, 24, "─ 1-D ─"));
    CHECK(frame_has(&a, 80, 24, "─ M-RoPE ─"));
    CHECK(frame_has(&a, 80, 24, want));  /* the panel stays M-RoPE's */
    /* under each grid its own range (the image's tokens, 3..8, scored
     * from Q as M-RoPE and as 1-D RoPE), a blank between the two */
    {
        double r[2][2] = { { INFINITY, -INFINITY }, { INFINITY, -INFINITY } };
        for (int64_t j = 3; j <= 8; j++) {
            struct mpos_tok t;
            double sm = 0, s1 = 0;
            mpos_token(&a.mp, j, &t);
            for (int i = 0; i < 8; i++) {
                double om = pow(10000, -2.0 * i / 16);
                sm += 2 * cos((double)(q.id[AX[i]] - t.id[AX[i]]) * om);
                s1 += 2 * cos((double)(7 - j) * om);
            }
            r[0][0] = fmin(r[0][0], sm);
            r[0][1] = fmax(r[0][1], sm);
            r[1][0] = fmin(r[1][0], s1);
            r[1][1] = fmax(r[1][1], s1);
        }
        char both[96];
        snprintf(both, sizeof both, "%.5g..%.5g", r[0][0], r[0][1]);
        size_t l0 = strlen(both);
        snprintf(both + l0, sizeof both - l0, " ");
        char *f = frame_text(&a, 80, 24), *p0 = f ? strstr(f, both) : NULL;
        snprintf(both, sizeof both, "%.5g..%.5g", r[1][0], r[1][1]);
        char *p1 = p0 ? strstr(p0 + l0, both) : NULL;
        CHECK(p0 && p1 && !memchr(p0, '\n', (size_t)(p1 - p0)));
        free(f);
    }
    app_key(&a, 'c');                   /* then 1-D alone */
    CHECK(a.grid.one_d == 1);
    CHECK(frame_has(&a, 80, 24, "1-D RoPE (c)"));
    s = 0;
    for (int i = 0; i < 8; i++)
        s += 2 * cos(-2.0 * pow(10000, -2.0 * i / 16));
    snprintf(want, sizeof want, "S(Q,k) = %.4g of 16", s);
    CHECK(frame_has(&a, 80, 24, want));
    app_key(&a, 'c');
    CHECK(a.grid.one_d == 0);
}

static void test_reset_keeps(void)
{
    struct app a;
    setup(&a, "text:2,image:4x4", 16);
    a.p.n = 99;                         /* changed behind the view's back */
    CHECK(frame_has(&a, 80, 24, "r resets"));
    app_reset(&a);
    CHECK(a.p.n == 6 && a.mp.mode == MPOS_MROPE);
}

/* Every size down to 1x1 draws (under the sanitizers: without an
 * overflow in the block search when no room is left for the grid). */
static void test_sizes(void)
{
    struct app a;
    setup(&a, "text:4,image:16x24,text:3", 64);
    a.p.pos = 30;
    for (int w = 1; w <= 44; w += 3)
        for (int h = 1; h <= 12; h++) {
            char *t = frame_text(&a, w, h);
            CHECK(t != NULL);
            free(t);
        }
    CHECK(frame_has(&a, 20, 5, "too small"));
}

/* Follow mode: a follower gets the sequence, its rules and sections,
 * the grid view's key and 1-D switch exactly; a bad mpos line or one
 * whose sections do not fit d is refused and changes nothing. */
static void test_follow(void)
{
    struct app t, f, before;
    char body[FP_BODY_MAX], err[256];
    setup(&t, "text:3,image:4x6,video:3x2x4,text:2", 24);
    t.mp.rules.tokens_per_second = 2;
    t.mp.rules.second_per_grid = 0.7;
    t.mp.section[0] = 6; t.mp.section[1] = 3; t.mp.section[2] = 3;
    t.mp.interleaved = 1;
    t.grid.key = 7;
    t.grid.one_d = 2;
    int len = fp_body(&t, body, sizeof body);
    CHECK(len > 0);
    CHECK(strstr(body, "\nmpos mrope text:3,image:4x6,video:3x2x4,text:2 "
                       "merge=2 tps=2 spg=0.69999999999999996 split=0 "
                       "sec=6,3,3 inter=1\n") != NULL);
    app_init(&f);
    CHECK(fp_apply(&f, body, (size_t)len, err, sizeof err) == 0);
    CHECK(memcmp(&f.mp, &t.mp, sizeof f.mp) == 0);
    CHECK(f.grid.key == 7 && f.grid.one_d == 2 && f.p.n == t.p.n);
    setup(&t, "text:1", 16);
    t.mp.mode = MPOS_AXIAL;
    t.mp.grid_w = 5;
    t.mp.grid_h = 3;
    t.p.n = 15;
    len = fp_body(&t, body, sizeof body);
    CHECK(strstr(body, "\nmpos axial 5x3\n") != NULL);
    CHECK(fp_apply(&f, body, (size_t)len, err, sizeof err) == 0);
    CHECK(f.mp.mode == MPOS_AXIAL && f.mp.grid_w == 5 && f.mp.grid_h == 3);
    static const char *const BAD[] = {
        "mpos mrope text:0 merge=2 tps=0 spg=1 split=0 sec=0,0,0 inter=0\n",
        "mpos mrope image:5x4 merge=2 tps=0 spg=1 split=0 sec=0,0,0 inter=0\n",
        "mpos mrope text:3 merge=2 tps=0 spg=0 split=0 sec=0,0,0 inter=0\n",
        "mpos mrope text:3 merge=2\n",
        "mpos axial 0x3\n",
        "mpos sideways\n",
        "mpos mrope text:3 merge=2 tps=0 spg=1 split=0 sec=9,9,9 inter=0\n",
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        before = f;
        CHECK(fp_apply(&f, BAD[i], strlen(BAD[i]), err, sizeof err) == -1);
        CHECK(strstr(err, "mpos") != NULL);
        CHECK(memcmp(&f, &before, sizeof f) == 0);
    }
}

/* :sequence, :grid, :section, :interleaved change the positions and n;
 * bad values say why and change nothing; r goes back to what the
 * command line gave, so a tour step's sequence never leaks on. */
static void test_commands(void)
{
    struct app a, before;
    setup(&a, "text:2", 16);
    CHECK(app_command(&a, "sequence text:3,image:4x6,text:2") == 0);
    CHECK(a.p.n == 11 && a.mp.nseg == 3 && !a.msg_error);
    CHECK(app_command(&a, "section 4,2,2") == 0);
    CHECK(a.mp.section[0] == 4 && a.mp.section[2] == 2 && !a.msg_error);
    CHECK(app_command(&a, "interleaved on") == 0 && a.mp.interleaved == 1);
    before = a;
    app_command(&a, "section 4,4,4");      /* 12 slots, not 8 */
    CHECK(a.msg_error && strstr(a.msg, "sums to 12"));
    CHECK(memcmp(&a.mp, &before.mp, sizeof a.mp) == 0 && a.p.n == 11);
    app_command(&a, "sequence image:3x4");
    CHECK(a.msg_error && strstr(a.msg, "not a multiple"));
    CHECK(memcmp(&a.mp, &before.mp, sizeof a.mp) == 0);
    CHECK(app_command(&a, "grid 5x3") == 0 && a.p.n == 15 && !a.msg_error);
    CHECK(a.mp.mode == MPOS_AXIAL);
    app_reset(&a);
    CHECK(a.mp.mode == MPOS_MROPE && a.mp.nseg == 1 && a.p.n == 2);
}

/* The tour's :interleaved on at d 128 takes Qwen3-VL's sections; a
 * section the layout cannot give is refused with the one to type, and
 * typing it works. */
static void test_interleaved(void)
{
    struct app a;
    int sec[3];
    setup(&a, "text:4,image:16x24,text:3", 128);
    CHECK(app_command(&a, "interleaved on") == 0 && !a.msg_error);
    mpos_section(&a.mp, 64, sec);
    CHECK(sec[0] == 24 && sec[1] == 20 && sec[2] == 20);
    CHECK(app_command(&a, "interleaved off") == 0);
    CHECK(app_command(&a, "section 16,24,24") == 0 && !a.msg_error);
    app_command(&a, "interleaved on");
    CHECK(a.msg_error && strstr(a.msg, "type :section 22,21,21, then "
                                       ":interleaved on") != NULL);
    CHECK(!a.mp.interleaved);
    CHECK(app_command(&a, "section 22,21,21") == 0 && !a.msg_error);
    CHECK(app_command(&a, "interleaved on") == 0 && !a.msg_error &&
          a.mp.interleaved);
}

/* :point marks the key token's patch, at two sizes. */
static void test_point_mark(void)
{
    struct app a;
    setup(&a, "text:3,image:4x6,text:2", 16);
    a.grid.key = 5;                     /* row 0, column 2 of the image */
    a.point = 1;
    CHECK(frame_has(&a, 80, 24, "\xe2\x96\xb6k\xe2\x97\x80"));    /* ▶k◀ */
    CHECK(frame_has(&a, 120, 40, "\xe2\x96\xb6k\xe2\x97\x80"));
    CHECK(frame_has(&a, 120, 40, "look here: key token k=5"));
}

/* :grid and :sequence from every other view switch to the grid view;
 * refused, they stay where they were and say why.  The empty grid view
 * names the ':' commands, and the help card of every view lists them. */
static void test_from_any_view(void)
{
    for (int v = 0; v < VIEW_COUNT; v++) {
        struct app a;
        if (v == VIEW_GRID)
            continue;
        app_init(&a);
        a.view = (enum view_id)v;
        a.screen_w = 80;
        a.screen_h = 24;
        app_command(&a, "grid 0x3");
        CHECK(a.msg_error && (int)a.view == v && a.mp.mode == MPOS_OFF);
        CHECK(app_command(&a, "grid 5x3") == 0 && !a.msg_error);
        CHECK(a.view == VIEW_GRID && a.p.n == 15 && a.mp.mode == MPOS_AXIAL);
        a.view = (enum view_id)v;
        CHECK(app_command(&a, "sequence text:3,image:4x6,text:2") == 0);
        CHECK(a.view == VIEW_GRID && a.p.n == 11 && a.mp.mode == MPOS_MROPE);
        a.view = (enum view_id)v;
        a.help = 1;
        CHECK(frame_has(&a, 120, 40, ":grid 16x16"));
        CHECK(frame_has(&a, 120, 40, ":sequence"));
    }
    struct app a;
    app_init(&a);
    a.view = VIEW_GRID;
    for (int i = 0; i < 3; i++) {
        static const int W[3] = { 80, 120, 160 }, H[3] = { 24, 40, 48 };
        CHECK(frame_has(&a, W[i], H[i], ":grid 16x16"));
        CHECK(frame_has(&a, W[i], H[i], ":sequence"));
    }
    /* what it names is accepted */
    CHECK(app_command(&a, "grid 16x16") == 0 && !a.msg_error);
    CHECK(app_command(&a, "sequence text:4,image:16x24,text:3") == 0 &&
          !a.msg_error);
}

/* Two grids side by side (c) where their cells are block means and the
 * grids narrow (an image of 16x24 at 80x24): under each, its range
 * whole, "lo..hi", and a blank before the next. */
static void test_side_ranges(void)
{
    struct app a;
    setup(&a, "text:4,image:16x24,text:3", 128);
    a.p.pos = 30;
    app_key(&a, 'c');
    CHECK(a.grid.one_d == 2);
    char *f = frame_text(&a, 80, 24), *line = f ? strstr(f, "\xe2\x94\x94") : NULL;
    line = line ? strchr(line, '\n') : NULL;
    int ranges = 0, bad = 0;
    if (line) {
        char row[256];
        const char *e = strchr(line + 1, '\n');
        size_t len = e ? (size_t)(e - line - 1) : 0;
        snprintf(row, sizeof row, "%.*s", (int)(len < 40 ? len : 40), line + 1);
        for (char *tok = strtok(row, " "); tok; tok = strtok(NULL, " ")) {
            char *dots = strstr(tok, ".."), *end;
            if (!dots)
                continue;       /* a word before the numbers */
            *dots = 0;              /* "127..128": 127 then 128 */
            strtod(tok, &end);
            bad += end == tok || *end != 0;
            strtod(dots + 2, &end);
            bad += *end != 0;
            ranges++;
        }
    }
    CHECK(ranges == 2 && bad == 0);
    /* and a row per patch row (8 after the 2x2 merge): the height holds
     * them though the width halves the columns */
    int rows = 0;
    const char *top = f ? strstr(f, "\xe2\x94\x8c") : NULL;
    for (const char *p = top; p && p < line; p = strchr(p + 1, '\n'))
        rows++;
    CHECK(rows == 8 + 2);           /* the starts of the box's lines */
    free(f);
}

int main(void)
{
    test_point_mark();
    test_from_any_view();
    test_side_ranges();
    test_commands();
    test_interleaved();
    test_follow();
    test_sizes();
    test_keys();
    test_inspector();
    test_reset_keeps();
    TEST_END("test_grid");
}
