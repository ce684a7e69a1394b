/* SPDX-License-Identifier: ISC */
/*
 * test_att_schemes.c - the attention inspector of the distance schemes
 * and RoPE pairs, read off the drawn frame: the T5 bucket of (i, j), its
 * distances and the bucket map against the edges listed for 32/128, the
 * KERPLE and xPos chains against values computed here, and the score the
 * inspector shows against the library's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "frames.h"
#include "harness.h"
#include "keys.h"
#include "view.h"

static void app_scheme(struct app *a, enum scheme sc, int d, int64_t n)
{
    app_init(a);
    a->p.d = d;
    a->p.n = n;
    a->view = VIEW_ATTENTION;
    a->att.o.scheme = sc;
    a->ascii = 1;
    a->color = COLOR_NONE;
    a->screen_w = 160;
    a->screen_h = 48;
}

/* The number right after the first occurrence of key in f (NAN: none). */
static double after(const char *f, const char *key)
{
    const char *p = f ? strstr(f, key) : NULL;
    double v;
    if (!p || sscanf(p + strlen(key), "%lf", &v) != 1)
        return NAN;
    return v;
}

static int has(const char *f, const char *needle)
{
    int ok = f && strstr(f, needle);
    if (!ok)
        fprintf(stderr, "missing: %s\n", needle);
    return ok;
}

static void test_t5(void)
{
    struct app a;
    app_scheme(&a, SCHEME_T5, 8, 200);
    a.att.ci = 50;
    a.att.cj = 3;
    char *f = frame_text(&a, 160, 48);
    /* distance 47: the causal bucket 24 holds 46..51 (46->24, 52->25) */
    CHECK(has(f, "j-i = -47: bucket 24 = past distances 46..51"));
    CHECK_NEAR(after(f, "W[24, head 1] = "), -0.5 * 46, 1e-9);
    CHECK(has(f, "stand-in"));
    free(f);
    a.att.bucket_map = 1;
    f = frame_text(&a, 160, 48);
    /* causal 32/128: distances 0..15 a bucket each, then the log buckets,
     * each from its first distance (T5's formula, evaluated here) */
    CHECK(has(f, "  0..15: one distance each (bucket = distance)"));
    for (int b = 16; b < 32; b++) {
        long long d = 16;
        while ((int)(16 + log(d / 16.0) / log(128 / 16.0) * 16) < b)
            d++;
        char want[32];
        snprintf(want, sizeof want, " %d:%lld", b, d);
        CHECK(has(f, want));
    }
    free(f);
    /* at 80x24 (tour step 15's screen: the cursor at 0, 0) the exact
     * buckets, which its caption explains first */
    app_scheme(&a, SCHEME_T5, 64, 128);
    a.att.bucket_map = 1;
    f = frame_text(&a, 80, 15);             /* the rows its caption leaves */
    CHECK(has(f, "0..15: one distance each"));
    free(f);
    a.att.bucket_map = 0;
    a.att.o.bidirectional = 1;
    a.att.ci = 3;
    a.att.cj = 50;
    f = frame_text(&a, 160, 48);
    CHECK(has(f, "j-i = 47: bucket 29 = future distances 46..63"));
    CHECK_NEAR(after(f, "W[29, head 1] = "), -0.5 * 46, 1e-9);
    free(f);
}

static void test_kerple_xpos(void)
{
    struct app a;
    app_scheme(&a, SCHEME_KERPLE_LOG, 8, 64);
    a.att.o.r1 = 1.5;
    a.att.o.r2 = 0.25;
    a.att.ci = 40;
    a.att.cj = 2;
    char *f = frame_text(&a, 160, 48);
    double want = -1.5 * log(1 + 0.25 * 38);
    CHECK_NEAR(after(f, "ln(1 + 0.25 x 38) = "), want, 5e-4 * fabs(want));
    free(f);
    app_scheme(&a, SCHEME_XPOS, 16, 64);
    a.att.ci = 30;
    a.att.cj = 10;
    f = frame_text(&a, 160, 48);
    double z0 = 0.4 / 1.4, z7 = (14 + 6.4) / 22.4;
    CHECK_NEAR(after(f, "band 0: zeta = "), z0, 5e-4);
    CHECK_NEAR(after(f, "band 0: zeta = 0.2857, decay "), pow(z0, 20 / 512.0),
               5e-4);
    CHECK_NEAR(after(f, "band 7: zeta = 0.9107, decay "), pow(z7, 20 / 512.0),
               5e-4);
    double s = 0;
    for (int k = 0; k < 8; k++)
        s += 2 * pow((2.0 * k + 6.4) / 22.4, 20 / 512.0)
             * cos(20 * pow(10000, -2.0 * k / 16));
    CHECK_NEAR(after(f, "all 8 bands: S = "), s, 5e-4 * fabs(s));
    free(f);
}

/* Half pairs with a random q and k: the inspector's other-layout score
 * is the interleaved context's. */
static void test_pairs(void)
{
    struct app a;
    app_scheme(&a, SCHEME_ROPE, 8, 64);
    a.att.o.q_random = 1;
    a.att.o.qk_pairs = QK_HALF;
    a.att.ci = 9;
    a.att.cj = 2;
    char *f = frame_text(&a, 160, 48);
    a.att.o.qk_pairs = QK_INTERLEAVED;
    struct score_ctx *s = app_scores_new(&a);
    double other = scores_at(s, 9, 2);
    scores_free(s);
    CHECK(has(f, "pairs half: dims (k, k+R/2), R = 8 of 8"));
    CHECK_NEAR(after(f, "as interleaved pairs (a wrong port): S = "), other,
               5e-4 * (1 + fabs(other)));
    free(f);
}

/* { }'s help names the schemes whose rows say they have heads, in the
 * table's order, and { refuses to move the head with any other. */
static void test_head_keys(void)
{
    const struct view *v = VIEWS[VIEW_ATTENTION];
    const struct keybind *k = keys_find(v->keys, '{');
    char want[256] = "(", got[256];
    for (int sc = 0; sc < scheme_count(); sc++)
        if (scheme_info(sc)->heads)
            snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s",
                     want[1] ? ", " : "", scheme_name((enum scheme)sc));
    strcat(want, ")");
    CHECK(k && strlen(want) > 2);
    if (!k)
        return;
    const char *h = view_key_help(v, k, got, sizeof got);
    CHECK(strlen(h) > strlen(want) &&
          strcmp(h + strlen(h) - strlen(want), want) == 0);
    for (int sc = 0; sc < scheme_count(); sc++) {
        struct app a;
        app_init(&a);
        a.view = VIEW_ATTENTION;
        a.att.o.scheme = (enum scheme)sc;
        a.att.o.heads = 8;
        app_key(&a, '}');
        CHECK((a.att.o.head == 1) == scheme_info(sc)->heads);
    }
}

int main(void)
{
    test_head_keys();
    test_t5();
    test_kerple_xpos();
    test_pairs();
    TEST_END("test_att_schemes");
}
