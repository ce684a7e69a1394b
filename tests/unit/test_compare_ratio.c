/* SPDX-License-Identifier: ISC */
/*
 * test_compare_ratio.c - the compare view's ratio mode: the ratio
 * omega_B,i / omega_A,i its readout shows for every band, against the
 * formulas of ROPE.md evaluated here (llama3's band rule, YaRN's ramp
 * with and without truncation), the rules it names, and panes with
 * another number of bands, which it refuses.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "app.h"
#include "frames.h"
#include "rope_ref.h"


/* ---- the view ------------------------------------------------------------ */

/* The readout row (the one starting "band ") of the w x h frame into
 * row; the whole frame, status line and all, into all (may be NULL). */
static void frame_rows(const struct app *a, int w, int h, char *row,
                       size_t len, char *all, size_t alen)
{
    char *t = frame_text(a, w, h), *r;
    row[0] = 0;
    if (all)
        snprintf(all, alen, "%s", t ? t : "");
    for (r = t; r && *r; r = strchr(r, '\n') ? strchr(r, '\n') + 1 : NULL)
        if (strncmp(r, "band ", 5) == 0) {
            size_t n = strcspn(r, "\n");
            snprintf(row, len, "%.*s", (int)(n < len ? n : len - 1), r);
        }
    free(t);
}

/* The number after "X/A " in the readout row, NAN when absent. */
static double readout_ratio(const char *row, char pane)
{
    char key[8];
    snprintf(key, sizeof key, "%c/A ", pane);
    const char *s = strstr(row, key);
    return s ? strtod(s + strlen(key), NULL) : NAN;
}

/* The rule the readout names for pane X ("A kept ..."). */
static int readout_rule(const char *row, char pane, const char *rule)
{
    char key[48];
    snprintf(key, sizeof key, " %c %s ", pane, rule);
    return strstr(row, key) != NULL;
}

static void setup(struct app *a, const char *model_a, const char *model_b)
{
    char err[256];
    app_init(a);
    a->view = VIEW_COMPARE;
    a->cmp.mode = PANE_RATIO;
    a->p.n = 131072;
    CHECK(params_set_model(&a->p, model_a, err, sizeof err) == 0);
    a->cmp.active = 1;
    CHECK(view_command(a, "model", model_b) == 1 && !a->msg_error);
}

static int close_rel(double got, double want)
{
    return fabs(got - want) <= 1e-9 * fabs(want);
}

/* llama3.1-8b (A) against llama3-8b (B): B/A = theta_i / llama3(theta_i),
 * 1 in the kept bands 0-28, 8 from band 35 on, between in 29-34. */
static void test_llama31_vs_llama3(void)
{
    struct app a;
    char row[2048], all[16384];
    setup(&a, "llama3.1-8b", "llama3-8b");
    int bad = 0;
    for (int i = 0; i < 64; i++) {
        a.cmp.band = i;
        frame_rows(&a, 200, 40, row, sizeof row, NULL, 0);
        double want = ref_theta(i, 128, 5e5) /
                      ref_llama3(i, 128, 5e5, 8, 8192, 1, 4);
        double got = readout_ratio(row, 'B');
        if (!close_rel(got, want)) {
            bad++;
            fprintf(stderr, "  band %d: B/A %.12g, want %.12g\n  %s\n", i,
                    got, want, row);
        }
        const char *rule = i <= 28 ? "kept" : i <= 34 ? "blended" : "interpolated";
        if (!readout_rule(row, 'A', rule) || !readout_rule(row, 'B', "unscaled")) {
            bad++;
            fprintf(stderr, "  band %d: want A %s, B unscaled\n  %s\n", i,
                    rule, row);
        }
    }
    CHECK(bad == 0);
    /* band 29's omegas as ROPE.md computes them */
    a.cmp.band = 29;
    frame_rows(&a, 200, 40, row, sizeof row, all, sizeof all);
    CHECK(strstr(row, "0.002166570764") != NULL);    /* A: 2.16657076[35]e-03 */
    CHECK(strstr(row, "0.002616099253") != NULL);    /* B: 2.6160992529e-03 */
    CHECK(strstr(all, "B/A: 29 of 64 bands equal") != NULL);
    CHECK(strstr(all, "L=8192") != NULL && strstr(all, "n=131072") != NULL);
    CHECK(strstr(all, "y = \u03C9_X,i / \u03C9_A,i (log)") != NULL);
}

/* qwen2.5-7b-yarn in both panes, then :truncate off in B: the ramp's
 * bounds 23.5959 / 39.6509 instead of 23 / 40. */
static void test_yarn_truncate(void)
{
    struct app a;
    char row[2048], all[16384];
    setup(&a, "qwen2.5-7b-yarn", "qwen2.5-7b-yarn");
    frame_rows(&a, 200, 40, row, sizeof row, all, sizeof all);
    CHECK(strstr(all, "B/A = 1 in all 64 bands") != NULL);
    CHECK(view_command(&a, "truncate", "off") == 1 && !a.msg_error);
    CHECK(a.cmp.panes[1].rope.truncate == 0 && a.p.rope.truncate == 1);
    int bad = 0, differ = 0;
    for (int i = 0; i < 64; i++) {
        a.cmp.band = i;
        frame_rows(&a, 200, 40, row, sizeof row, NULL, 0);
        double want = ref_yarn(i, 128, 1e6, 4, 32768, 32, 1, 0) /
                      ref_yarn(i, 128, 1e6, 4, 32768, 32, 1, 1);
        double got = readout_ratio(row, 'B');
        differ += want != 1;
        if (!close_rel(got, want)) {
            bad++;
            fprintf(stderr, "  band %d: B/A %.12g, want %.12g\n  %s\n", i,
                    got, want, row);
        }
    }
    CHECK(bad == 0);
    CHECK(differ == 16);        /* bands 24..39 lie inside one ramp only */
}

/* Pane B with d = 64 against A's 128: no ratio, and the status says why. */
static void test_other_d(void)
{
    struct app a;
    char row[2048], all[16384];
    setup(&a, "llama3.1-8b", "llama3.2-1b");
    CHECK(a.cmp.panes[1].d == 64);
    a.cmp.band = 3;
    frame_rows(&a, 200, 40, row, sizeof row, all, sizeof all);
    CHECK(isnan(readout_ratio(row, 'B')));
    CHECK(strstr(all, "pane B has d=64, A d=128") != NULL);
    CHECK(strstr(all, "not compared") != NULL);
    /* a third pane with A's d is still compared */
    CHECK(app_key(&a, '+') == ACT_VIEW_KEY);
    CHECK(view_command(&a, "model", "llama3-8b") == 1 && !a.msg_error);
    frame_rows(&a, 200, 40, row, sizeof row, NULL, 0);
    CHECK(close_rel(readout_ratio(row, 'C'),
                    ref_theta(3, 128, 5e5) / ref_llama3(3, 128, 5e5, 8, 8192, 1, 4)));
}

/* The spectrum counts the bands that turn within n at the omegas a
 * scaled pane uses, beside the unscaled count (the critical band). */
static void test_spectrum_turns(void)
{
    struct app a;
    char row[2048], all[16384], want[96];
    setup(&a, "llama3.1-8b", "llama3-8b");
    a.cmp.mode = PANE_SPECTRUM;
    int t = 0;
    for (int i = 0; i < 64; i++)
        t += 2 * REF_PI / ref_llama3(i, 128, 5e5, 8, 8192, 1, 4) <= 131072;
    CHECK(t == 39);
    snprintf(want, sizeof want, "%d of 64 bands turn \u22651\u00D7 in n (49 "
             "unscaled)", t);
    frame_rows(&a, 200, 40, row, sizeof row, all, sizeof all);
    CHECK(strstr(all, want) != NULL);
    CHECK(strstr(all, "49 of 64 bands turn \u22651\u00D7 within n") != NULL);
}

/* A tick label's power of ten ("1e-50", "1e250"), or 999 if not one. */
static int tick_pow10(const char *t)
{
    int e;
    char rest;
    return sscanf(t, "1e%d%c", &e, &rest) == 1 ? e : 999;
}

/*
 * Bases far apart: the ratio B/A spans hundreds of decades.  The y axis
 * labelled only "1" (every decade's row was next to the last decade's), a
 * label like "1e-100" would lose its "1" at the gutter's edge, and the
 * summary said "1.27093e+285".  Now: labels a round number of decades
 * apart over the ratios of the last band, log10 = (62/64) log10(bA/bB).
 */
static void test_extreme_bases(void)
{
    static const double B[][2] = { { 1e300, 5e5 }, { 10, 1e300 }, { 10, 1e120 } };
    static const int SZ[][2] = { { 80, 24 }, { 160, 48 } };
    struct app a;
    for (int k = 0; k < 3; k++)
        for (int z = 0; z < 2; z++) {
            app_init(&a);
            a.view = VIEW_COMPARE;
            a.cmp.mode = PANE_RATIO;
            a.p.base = B[k][0];
            a.cmp.panes[1].base = B[k][1];
            double last = 62.0 / 64 * (log10(B[k][0]) - log10(B[k][1]));
            double pad = 0.06 * fabs(last) + 1;     /* the scale's margin */
            double lo = fmin(0, last) - pad, hi = fmax(0, last) + pad;
            char *t = frame_text(&a, SZ[z][0], SZ[z][1]);
            int e[64], n = 0, clipped = 0;
            for (char *r = t; r && *r && n < 64;) {
                char tok[16] = "", line[64];
                snprintf(line, sizeof line, "%.*s", (int)strcspn(r, "\n"), r);
                if (sscanf(line, "%15s", tok) == 1 && tick_pow10(tok) != 999)
                    e[n++] = tick_pow10(tok);
                clipped |= tok[0] == 'e' && tok[1] == '-';
                r = strchr(r, '\n');
                r = r ? r + 1 : NULL;
            }
            CHECK(n >= 3 && !clipped);
            for (int i = 0; i < n; i++)
                CHECK(e[i] >= lo && e[i] <= hi && e[i] != 0);
            int even = 1;
            for (int i = 2; i < n; i++)
                even &= e[i - 1] - e[i] == e[0] - e[1];
            if (!even)
                fprintf(stderr, "uneven labels:\n%s", t);
            CHECK(even);
            CHECK(t && !strstr(t, "e+"));
            free(t);
            /* the readout at the last band: B/A to 10 digits, no "e+" */
            char row[512], all[16384];
            a.cmp.band = 31;
            frame_rows(&a, SZ[z][0], SZ[z][1], row, sizeof row, all, sizeof all);
            double want = pow(10, last);        /* (bA/bB)^(62/64) */
            CHECK(close_rel(readout_ratio(row, 'B'), want));
            CHECK(!strstr(all, "e+"));
            a.cmp.mode = PANE_SPECTRUM;
            frame_rows(&a, SZ[z][0], SZ[z][1], row, sizeof row, all, sizeof all);
            CHECK(!strstr(all, "e+"));
        }
}

int main(void)
{
    test_spectrum_turns();
    test_extreme_bases();
    test_llama31_vs_llama3();
    test_yarn_truncate();
    test_other_d();
    TEST_END("test_compare_ratio");
}
