/* SPDX-License-Identifier: ISC */
/*
 * test_compare_scores.c - the compare view's panes with their own
 * attention scheme: each pane's score at distance delta equals
 * --export scores (f64) at row delta, column 0 for the same settings,
 * to 1e-9; the profile's points are those scores; a pane with the other
 * --rope-layout gives the scores the export gives with that layout; the
 * header names the scheme; :scheme, :rope-layout and c act on the
 * active pane only.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "app.h"
#include "cli.h"
#include "export.h"
#include "frame.h"
#include "view.h"
#include "views/compare.h"
#include "views/compare_view.h"

#define MAXARGS 32

/* Parse the words of line (space-separated) as the command line. */
static int parse_line(struct cli *c, const char *line)
{
    static char buf[1024];
    char *argv[MAXARGS];
    int argc = 0;
    snprintf(buf, sizeof buf, "peviz %s", line);
    for (char *t = strtok(buf, " "); t && argc < MAXARGS - 1;
         t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    int r = cli_parse(c, argc, argv);
    return r ? r : cli_set_late(c);
}

/* Column 0 of --export scores --format f64 for settings (n rows) into
 * col[n]; -1 when it failed. */
static int export_col0(const char *settings, int64_t n, double *col)
{
    static struct cli c;
    char line[512];
    snprintf(line, sizeof line, "--export scores --format f64 %s", settings);
    if (parse_line(&c, line))
        return -1;
    FILE *f = tmpfile();
    if (!f)
        return -1;
    int r = export_run(&c, f);
    rewind(f);
    for (int64_t i = 0; r == 0 && i < n; i++) {
        double row0 = NAN;
        if (fseek(f, (long)(i * n * 8), SEEK_SET) ||
            fread(&row0, sizeof row0, 1, f) != 1)
            r = -1;
        col[i] = row0;
    }
    fclose(f);
    return r ? -1 : 0;
}

/* Pane B of the compare view set up by pane (its --scheme-b ...) and
 * settings; its scores at every distance against the export of the
 * same scheme with the global settings that equal pane B's. */
static void check_pane_vs_export(const char *scheme, const char *settings,
                                 const char *pane_b, const char *exp_b)
{
    static struct cli c;
    char line[512], exp[512];
    double col[64], fill[64];
    snprintf(line, sizeof line, "--view compare -n 64 %s --scheme-b %s %s",
             settings, scheme, pane_b);
    CHECK(parse_line(&c, line) == 0);
    struct cmp_frame f;
    memset(&f, 0, sizeof f);
    cmp_resolve(&c.app, &f, 0);
    CHECK(f.rp[1].scheme == scheme_parse(scheme));
    snprintf(exp, sizeof exp, "-n 64 -b 500000 %s --scheme %s %s", settings,
             scheme, exp_b);
    CHECK(export_col0(exp, 64, col) == 0);
    struct axis xm;
    cmp_xmap_init(&xm, 64, 0, 0, 64, 0);    /* a column per distance */
    CHECK(xm.k == 1 && xm.used == 64);
    CHECK(cmp_scores_fill(&f, &f.rp[1], &xm, fill) == 0);
    int bad = 0;
    for (int64_t dl = 0; dl < 64; dl++) {
        double v = cmp_score_at(&f, &f.rp[1], dl);
        if (!(fabs(v - col[dl]) <= 1e-9 * (1 + fabs(col[dl]))) ||
            !(fabs(fill[dl] - col[dl]) <= 1e-9 * (1 + fabs(col[dl])))) {
            if (!bad++)
                fprintf(stderr, "%s %s: distance %lld: pane %.17g, profile "
                        "%.17g, export %.17g\n", scheme, settings,
                        (long long)dl, v, fill[dl], col[dl]);
        }
    }
    CHECK(bad == 0);
}

static void test_schemes_vs_export(void)
{
    static const char *const SCHEMES_[] = {
        "sinusoidal", "rope", "alibi", "nope", "t5", "kerple-log",
        "kerple-power", "sandwich", "xpos", "learned"
    };
    for (size_t i = 0; i < sizeof SCHEMES_ / sizeof SCHEMES_[0]; i++)
        check_pane_vs_export(SCHEMES_[i], "-d 16 --q random --seed 7 "
                             "--heads 4 --head 2 --r1 0.7 --r2 0.3", "", "");
    /* the toggles the pane takes from the attention view */
    check_pane_vs_export("rope", "-d 16 --temperature --q random", "", "");
    check_pane_vs_export("nope", "-d 16 --scheme nope --content "
                         "--temperature-tuning "
                         "--floor-scale 8 --attn-scale 0.5", "", "");
    check_pane_vs_export("sinusoidal", "-d 16 --content", "", "");
    check_pane_vs_export("t5", "-d 16 --buckets 8 --max-distance 20 "
                         "--bidirectional", "", "");
    check_pane_vs_export("xpos", "-d 16 --q random --xpos-scale-base 40",
                         "", "");
    /* the pane's own q/k pairs and its own model's RoPE scaling */
    check_pane_vs_export("rope", "-d 16 --q random", "--rope-layout-b half",
                         "--rope-layout half");
    check_pane_vs_export("rope", "--q random", "--model-b llama3.1-8b",
                         "--model llama3.1-8b");
}

/* The header row of the view at w x h. */
static void header(const struct app *a, int w, char *row, size_t len)
{
    canvas c;
    char hint[256];
    row[0] = 0;
    if (canvas_init(&c, w, 24))
        return;
    view_frame(a, VIEW_COMPARE, &c, 1, hint, sizeof hint);
    canvas_row_utf8(&c, 0, row, len);
    canvas_free(&c);
}

/* --schemes: six panes, one scheme each, on one screen; panes D, E, F
 * at pane A's base and scaling. */
static void test_six_schemes(void)
{
    static struct cli c;
    static const char *const NAMES[6] = { "t5", "alibi", "kerple-log",
                                          "xpos", "rope", "nope" };
    double col[64];
    CHECK(parse_line(&c, "--view compare -d 16 -n 64 -b 20000 --q random "
                     "--schemes t5,alibi,kerple-log,xpos,rope,nope") == 0);
    CHECK(c.app.cmp.npanes == 6);
    struct cmp_frame f;
    memset(&f, 0, sizeof f);
    cmp_resolve(&c.app, &f, 0);
    CHECK(f.np == 6);
    for (int k = 0; k < 6; k++) {
        char exp[256];
        CHECK(f.rp[k].scheme == scheme_parse(NAMES[k]));
        CHECK(k == 1 || k == 2 || f.rp[k].base == 20000);
        snprintf(exp, sizeof exp, "-d 16 -n 64 --q random -b %.17g --scheme %s",
                 f.rp[k].base, NAMES[k]);
        CHECK(export_col0(exp, 64, col) == 0);
        CHECK_NEAR(cmp_score_at(&f, &f.rp[k], 37), col[37], 1e-9);
    }
    CHECK(parse_line(&c, "--view compare --schemes t5,alibi,rope,nope,xpos,"
                     "sandwich,kerple-log") == 2);
    CHECK(parse_line(&c, "--view compare --schemes t5,bogus") == 2);
    /* every header names its scheme at 160 columns */
    char row[1024];
    CHECK(parse_line(&c, "--view compare -d 16 -n 64 --schemes t5,alibi,"
                     "kerple-log,xpos,rope,nope") == 0);
    header(&c.app, 160, row, sizeof row);
    for (int k = 0; k < 6; k++) {
        char want[32];
        snprintf(want, sizeof want, "%c %s", 'A' + k, NAMES[k]);
        CHECK(strstr(row, want) != NULL);
    }
}

/* Row y of pane k's header at w x h (the text between its separators). */
static void pane_row(const struct app *a, int w, int h, int y, int k,
                     char *out, size_t len)
{
    canvas c;
    char hint[256], row[2048];
    out[0] = 0;
    if (canvas_init(&c, w, h))
        return;
    view_frame(a, VIEW_COMPARE, &c, 1, hint, sizeof hint);
    canvas_row_utf8(&c, y, row, sizeof row);
    canvas_free(&c);
    char *p = row;
    for (int i = 0; i < k && p; i++)
        if ((p = strstr(p, "\u2502")))
            p += strlen("\u2502");
    if (!p)
        return;
    char *e = strstr(p, "\u2502");
    snprintf(out, len, "%.*s", e ? (int)(e - p) : (int)strlen(p), p);
}

/* Whether some body row of pane k at 120x40 holds text. */
static int pane_says(const struct app *a, int k, const char *text)
{
    char fact[2048];
    for (int y = 3; y < 40; y++) {
        pane_row(a, 120, 40, y, k, fact, sizeof fact);
        if (strstr(fact, text))
            return 1;
    }
    return 0;
}

/* What each scheme's row has is what its pane's header says, and no
 * band words where it has no bands: every scheme of the table, at the
 * classroom sizes. */
static void test_headers_from_rows(void)
{
    static const char *const WORD[SCHEME_HAS_COUNT] = {
        [SCHEME_HAS_NOTHING] = "no position", [SCHEME_HAS_BANDS] = "crit",
        [SCHEME_HAS_BUCKETS] = "32 buckets", [SCHEME_HAS_SLOPES] = "slope",
        [SCHEME_HAS_KERNEL] = "r1", [SCHEME_HAS_ROWS] = "L",
    };
    static const int SIZE[3][2] = { { 80, 24 }, { 120, 40 }, { 160, 48 } };
    static struct cli c;
    char line[256], fact[512], form[512];
    for (int i = 0; i < scheme_count(); i++) {
        const struct scheme_info *si = scheme_info(i);
        snprintf(line, sizeof line, "--view compare -d 16 -n 64 --schemes "
                 "%s,rope", si->name);
        CHECK(parse_line(&c, line) == 0);
        CHECK(c.app.cmp.mode == PANE_PROFILE);  /* shows the schemes */
        for (int z = 0; z < 3; z++) {
            pane_row(&c.app, SIZE[z][0], SIZE[z][1], 1, 0, fact, sizeof fact);
            pane_row(&c.app, SIZE[z][0], SIZE[z][1], 2, 0, form, sizeof form);
            if (!strstr(fact, WORD[si->has]))
                printf("  %s at %dx%d: '%s' lacks '%s'\n", si->name,
                       SIZE[z][0], SIZE[z][1], fact, WORD[si->has]);
            CHECK(strstr(fact, WORD[si->has]) != NULL);
            if (si->has != SCHEME_HAS_BANDS)
                CHECK(!strstr(fact, "crit") && !strstr(form, "turn"));
        }
    }
    /* the status line says what the panes compare */
    CHECK(strcmp(VIEW_COMPARE_DEF.status_title(&c.app), "compare schemes")
          == 0);
    CHECK(parse_line(&c, "--view compare -b 500") == 0);
    CHECK(strcmp(VIEW_COMPARE_DEF.status_title(&c.app), "compare bases")
          == 0);
    /* ALiBi's slope of head 1 of 8 is 2^-1 */
    CHECK(parse_line(&c, "--view compare --schemes alibi,rope") == 0);
    pane_row(&c.app, 160, 48, 1, 0, fact, sizeof fact);
    CHECK(strstr(fact, "slope m = 0.5: head 1 of 8") != NULL);
    /* --pane-mode before or after --schemes is kept */
    CHECK(parse_line(&c, "--view compare --pane-mode heatmap --schemes "
                     "t5,rope") == 0 && c.app.cmp.mode == PANE_HEATMAP);
    CHECK(parse_line(&c, "--view compare --schemes t5,rope --pane-mode "
                     "matrix") == 0 && c.app.cmp.mode == PANE_MATRIX);
    /* the heatmap has no PE table for T5: it says so */
    CHECK(parse_line(&c, "--view compare --pane-mode heatmap --schemes "
                     "t5,rope") == 0);
    CHECK(pane_says(&c.app, 0, "t5 has buckets, no bands"));
    /* nor does the spectrum mode draw bands for it */
    CHECK(parse_line(&c, "--view compare --pane-mode spectrum --schemes "
                     "t5,rope") == 0);
    CHECK(pane_says(&c.app, 0, "t5 has buckets, no bands"));
    /* the diff mode's cards: T5's buckets in A, B's own bands beside an
     * A without any (tests/compare_cards.sh checks their numbers) */
    CHECK(parse_line(&c, "--view compare --pane-mode diff --schemes "
                     "t5,rope") == 0);
    CHECK(pane_says(&c.app, 0, "32 buckets, causal"));
    CHECK(pane_says(&c.app, 1, "A's t5 has no bands"));
    /* the ratio mode says why it does not compare */
    CHECK(parse_line(&c, "--view compare --pane-mode ratio --schemes "
                     "t5,rope") == 0);
    CHECK(pane_says(&c.app, 0, "B/A not compared: A's t5 has no bands"));
    /* a Llama 4 NoPE layer has no critical band */
    CHECK(parse_line(&c, "--view compare --model llama4-scout --model-b "
                     "llama4-scout --layer-a 2 --layer-b 3 --pane-mode "
                     "profile") == 0);
    for (int z = 0; z < 3; z++) {
        pane_row(&c.app, SIZE[z][0], SIZE[z][1], 1, 1, fact, sizeof fact);
        CHECK(strstr(fact, "no position") && !strstr(fact, "crit"));
        pane_row(&c.app, SIZE[z][0], SIZE[z][1], 1, 0, fact, sizeof fact);
        CHECK(strstr(fact, "crit") != NULL);
    }
}

/* NoPE's matrix is all zeros: "constant 0", not the top glyph. */
static void test_matrix_constant(void)
{
    static struct cli c;
    char row[512];
    CHECK(parse_line(&c, "--view compare --pane-mode matrix --schemes "
                     "rope,nope") == 0);
    struct cmp_frame f;
    memset(&f, 0, sizeof f);
    cmp_resolve(&c.app, &f, 0);
    f.w = 80;
    f.h = 24;
    CMP_MATRIX.layout(&c.app, &f);
    int at = 0, constant = 0;
    for (int y = 0; y < 24; y++) {
        pane_row(&c.app, 80, 24, y, 1, row, sizeof row);
        at += strchr(row, '@') != NULL;
        constant |= strstr(row, "constant 0") != NULL;
    }
    CHECK(at == 0 && constant);
}

/* The matrix mode at d_model 65536: a slice of VIEW_WORK_SLICE units
 * does part of the cells and leaves the rest for the next frames, and
 * the next slice goes on where it stopped. */
static void test_matrix_sliced(void)
{
    static struct cli c;
    CHECK(parse_line(&c, "--view compare -d 65536 -n 128 "
                     "--pane-mode matrix") == 0);
    struct cmp_frame f;
    memset(&f, 0, sizeof f);
    cmp_resolve(&c.app, &f, 0);
    f.w = 80;
    f.h = 24;
    CMP_MATRIX.layout(&c.app, &f);
    struct cmp_values v = { 0 };
    CMP_MATRIX.work(&f, &v);
    CHECK(v.v != NULL && v.total > 0);
    CHECK(CMP_MATRIX.more(&f, &v, VIEW_WORK_SLICE) == 1);
    CHECK(v.done > 0 && v.done < v.total);
    int64_t first = v.done;
    CHECK(isfinite(v.v[0]));            /* S over the first block */
    CHECK(CMP_MATRIX.more(&f, &v, VIEW_WORK_SLICE) == 1);
    CHECK(v.done > first && v.done < v.total);      /* the next slice */
    free(v.v);
}

/* The matrix mode: with a cell per position each cell is S(i, j) of
 * --export scores; each pane's scale is its own. */
static void test_matrix(void)
{
    static struct cli c;
    double col[16 * 16];
    CHECK(parse_line(&c, "--view compare -d 16 -n 16 --q random "
                     "--pane-mode matrix --schemes xpos,kerple-power") == 0);
    struct cmp_frame f;
    memset(&f, 0, sizeof f);
    cmp_resolve(&c.app, &f, 0);
    f.w = 80;
    f.h = 40;
    CMP_MATRIX.layout(&c.app, &f);
    struct cmp_values v = { 0 };
    CMP_MATRIX.work(&f, &v);
    while (CMP_MATRIX.more(&f, &v, VIEW_WORK_SLICE))
        ;
    CHECK(v.v != NULL && f.g.body_h >= 16 && f.g.pw > 16);
    static const char *const EXP[2] = { "--scheme xpos -b 10000",
                                        "--scheme kerple-power -b 500000" };
    for (int k = 0; v.v && k < 2; k++) {
        char exp[256];
        snprintf(exp, sizeof exp, "-d 16 -n 16 --q random %s", EXP[k]);
        FILE *fp = NULL;
        static struct cli e;
        char line[512];
        snprintf(line, sizeof line, "--export scores --format f64 %s", exp);
        CHECK(parse_line(&e, line) == 0 && (fp = tmpfile()) != NULL);
        if (!fp)
            return;
        CHECK(export_run(&e, fp) == 0);
        rewind(fp);
        CHECK(fread(col, sizeof col[0], 256, fp) == 256);
        fclose(fp);
        const double *cells = v.v + (size_t)f.g.body_h * (size_t)f.g.pw * k;
        int bad = 0;
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 16; j++)
                bad += !(fabs(cells[i * f.g.pw + j] - col[i * 16 + j]) <=
                         1e-9 * (1 + fabs(col[i * 16 + j])));
        CHECK(bad == 0);
    }
    free(v.v);
}

/* A pane whose points would sum millions of learned rows or embeddings
 * is left blank and named in the hint, at once; zoomed in, it is drawn. */
static void test_costly(void)
{
    static struct cli c;
    CHECK(parse_line(&c, "--view compare -n 4194304 --pane-mode profile "
                     "--schemes rope,learned") == 0);
    struct cmp_frame f;
    memset(&f, 0, sizeof f);
    cmp_resolve(&c.app, &f, 0);
    f.w = 160;
    f.h = 48;
    CMP_PROFILE.layout(&c.app, &f);
    double *v = malloc(sizeof(double) * (size_t)f.xm.used);
    char hint[256] = "";
    CHECK(v && cmp_scores_fill(&f, &f.rp[1], &f.xm, v) == -2);
    CHECK(v && cmp_scores_fill(&f, &f.rp[0], &f.xm, v) == 0);
    CHECK(cmp_scores_refused(&f, &f.xm, hint, sizeof hint) == 1);
    CHECK(strstr(hint, "pane B: too many positions to sum learned rows"));
    free(v);
    c.app.cmp.zoom = 12;            /* 1024 distances */
    CMP_PROFILE.layout(&c.app, &f);
    CHECK(cmp_scores_refused(&f, &f.xm, hint, sizeof hint) == 0);
    v = malloc(sizeof(double) * (size_t)f.xm.used);
    CHECK(v && cmp_scores_fill(&f, &f.rp[1], &f.xm, v) == 0);
    CHECK(v && isfinite(v[0]));
    free(v);
}

/* Values computed here, not by the library: KERPLE's log kernel and
 * ALiBi's slope, so the pane cannot agree with a wrong export. */
static void test_independent(void)
{
    static struct cli c;
    CHECK(parse_line(&c, "--view compare -n 64 -d 16 --r1 0.7 --r2 0.3 "
                     "--heads 4 --head 2 --scheme-b kerple-log "
                     "--scheme-c alibi") == 0);
    struct cmp_frame f;
    memset(&f, 0, sizeof f);
    cmp_resolve(&c.app, &f, 0);
    CHECK(f.np == 3);
    for (int dl = 0; dl < 64; dl += 9) {
        CHECK_NEAR(cmp_score_at(&f, &f.rp[1], dl), -0.7 * log(1 + 0.3 * dl),
                   1e-12);
        /* 4 heads: m_h = 2^(-8h/4), head 2 (shown 1-based) is h = 2 */
        CHECK_NEAR(cmp_score_at(&f, &f.rp[2], dl), -pow(2, -4) * dl, 1e-12);
    }
    /* pane A without a scheme: PE.PE = sum_k cos(dl w_k) */
    double s = 0;
    for (int k = 0; k < 8; k++)
        s += cos(5 * pow(10000, -2.0 * k / 16));
    CHECK(f.rp[0].scheme < 0);
    CHECK_NEAR(cmp_score_at(&f, &f.rp[0], 5), s, 1e-12);
}

/* The mismatch demo: the same random q and k, pane B the other layout;
 * each pane's scores are the export's with that layout, and they
 * differ. */
static void test_layout_mismatch(void)
{
    static struct cli c;
    CHECK(parse_line(&c, "--view compare -n 64 -d 16 --q random --base-b "
                     "10000 --scheme-a rope --scheme-b rope "
                     "--rope-layout-b half") == 0);
    struct cmp_frame f;
    memset(&f, 0, sizeof f);
    cmp_resolve(&c.app, &f, 0);
    double ci[64], ch[64], drift = 0;
    CHECK(export_col0("-n 64 -d 16 --q random --scheme rope", 64, ci) == 0);
    CHECK(export_col0("-n 64 -d 16 --q random --scheme rope --rope-layout "
                      "half", 64, ch) == 0);
    for (int dl = 0; dl < 64; dl++) {
        CHECK_NEAR(cmp_score_at(&f, &f.rp[0], dl), ci[dl], 1e-9);
        CHECK_NEAR(cmp_score_at(&f, &f.rp[1], dl), ch[dl], 1e-9);
        drift = fmax(drift, fabs(ch[dl] - ci[dl]));
    }
    CHECK(drift > 0.1);
}

/* Llama 4's hybrid layers side by side: layer 2 has RoPE (interleaved
 * pairs), layer 3 none and its queries scaled by the temperature
 * tuning; each pane's scores are the export's for that scheme. */
static void test_nope_layers(void)
{
    static struct cli c;
    const char *set = "-n 64 --model llama4-scout --content --q random";
    const char *tt = "--temperature-tuning --floor-scale 8 --attn-scale 0.5";
    char line[512], exp[512];
    double cr[64], cn[64];
    snprintf(line, sizeof line, "%s %s --scheme nope --view compare "
             "--model-b llama4-scout --layer-a 2 --layer-b 3", set, tt);
    CHECK(parse_line(&c, line) == 0);
    struct cmp_frame f;
    memset(&f, 0, sizeof f);
    cmp_resolve(&c.app, &f, 0);
    CHECK(f.rp[0].scheme == SCHEME_ROPE && f.rp[0].layer == 2);
    CHECK(f.rp[1].scheme == SCHEME_NOPE && f.rp[1].layer == 3);
    CHECK(f.rp[0].so.qk_pairs == QK_INTERLEAVED && !f.rp[0].so.temp_tuning);
    CHECK(f.rp[1].so.temp_tuning);
    /* the RoPE layer keeps the model's chunk, the NoPE layer has none */
    CHECK(f.rp[0].so.chunk == rope_preset_find("llama4-scout")->chunk &&
          f.rp[0].so.chunk > 0);
    CHECK(f.rp[1].so.chunk == 0 && f.rp[1].so.window == 0);
    snprintf(exp, sizeof exp, "%s --scheme rope", set);
    CHECK(export_col0(exp, 64, cr) == 0);
    snprintf(exp, sizeof exp, "%s --scheme nope %s", set, tt);
    CHECK(export_col0(exp, 64, cn) == 0);
    for (int dl = 0; dl < 64; dl += 7) {
        CHECK_NEAR(cmp_score_at(&f, &f.rp[0], dl), cr[dl], 1e-9);
        CHECK_NEAR(cmp_score_at(&f, &f.rp[1], dl), cn[dl], 1e-9);
    }
    /* the query scale against plain NoPE: g(6) = 1, g(15) = 0.5 ln 3 + 1
     * (floor(16 / 8) = 2) */
    double plain[64];
    snprintf(exp, sizeof exp, "%s --scheme nope", set);
    CHECK(export_col0(exp, 64, plain) == 0);
    CHECK_NEAR(cmp_score_at(&f, &f.rp[1], 6), plain[6], 1e-12);
    CHECK_NEAR(cmp_score_at(&f, &f.rp[1], 15),
               plain[15] * (1 + 0.5 * log(3)), 1e-12);
    /* layers 0, 1, 2 have RoPE, 3 none, 7 none */
    const struct rope_preset *m = rope_preset_find("llama4-scout");
    CHECK(m && !rope_preset_nope_layer(m, 0) && !rope_preset_nope_layer(m, 2)
          && rope_preset_nope_layer(m, 3) && rope_preset_nope_layer(m, 7));
    CHECK(parse_line(&c, "--view compare --layer-b 3") == 2);
}

static void test_commands(void)
{
    static struct app a;
    char row[1024];
    app_init(&a);
    CHECK(app_command(&a, "layer 3") < 0);      /* the compare view's */
    CHECK(strstr(a.msg, ":layer: compare only") != NULL);
    app_command(&a, "view compare");
    a.cmp.active = 1;
    CHECK(app_command(&a, "scheme kerple-log") == 0);
    CHECK(a.cmp.panes[1].scheme == 1 + SCHEME_KERPLE_LOG);
    CHECK(a.cmp.panes[0].scheme == 0);
    CHECK(app_command(&a, "scheme bogus") < 0);
    CHECK(a.cmp.panes[1].scheme == 1 + SCHEME_KERPLE_LOG);
    CHECK(app_command(&a, "rope-layout half") == 0);
    CHECK(a.cmp.panes[1].pairs == 1 + QK_HALF);
    CHECK(a.att.o.qk_pairs == QK_INTERLEAVED);  /* the global one stays */
    CHECK(app_command(&a, "rope-layout sideways") < 0);
    header(&a, 160, row, sizeof row);
    CHECK(strstr(row, "B kerple-log d_model") != NULL);  /* no pairs, no
                                                            base: no bands */
    CHECK(app_command(&a, "scheme rope") == 0);
    header(&a, 160, row, sizeof row);
    CHECK(strstr(row, "B rope half base") != NULL);
    /* a layer needs a model with NoPE layers */
    CHECK(app_command(&a, "layer 3") < 0);
    CHECK(a.cmp.panes[1].layer == 0);
    CHECK(app_command(&a, "model llama4-scout") == 0);
    CHECK(app_command(&a, "layer 3") == 0);
    CHECK(a.cmp.panes[1].layer == 4);
    header(&a, 160, row, sizeof row);
    CHECK(strstr(row, "B layer 3 nope llama4-scout") != NULL);
    CHECK(app_command(&a, "layer 1000") < 0);
    CHECK(app_command(&a, "layer none") == 0);
    CHECK(a.cmp.panes[1].layer == 0);
    CHECK(app_command(&a, "scheme pe") == 0);
    CHECK(a.cmp.panes[1].scheme == 0);
    header(&a, 160, row, sizeof row);
    CHECK(strstr(row, "kerple") == NULL);
    /* c cycles the active pane's scheme: none, every scheme, none */
    app_key(&a, 'c');
    CHECK(a.cmp.panes[1].scheme == 1 + SCHEME_SINUSOIDAL);
    for (int i = 0; i < scheme_count(); i++)
        app_key(&a, 'c');
    CHECK(a.cmp.panes[1].scheme == 0);
}

int main(void)
{
    test_schemes_vs_export();
    test_independent();
    test_layout_mismatch();
    test_nope_layers();
    test_six_schemes();
    test_headers_from_rows();
    test_matrix_constant();
    test_matrix();
    test_matrix_sliced();
    test_costly();
    test_commands();
    TEST_END("test_compare_scores");
}
