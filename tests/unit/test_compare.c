/*
 * test_compare.c - the compare view and its pure helpers (layout.c):
 * the critical band, the turning bands and the slowest band's turns
 * against a direct computation; the three layouts as permutations of one
 * PE row; lower-precision PE against rounding done here with C floats;
 * exact column means; the keys and ':' commands acting on the active
 * pane only; and drawing at every size without a crash.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "app.h"
#include "layout.h"
#include "peviz/pe.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---- direct computations ------------------------------------------------ */

static double direct_wavelength(int i, int d, double base)
{
    return 2 * M_PI * pow(base, 2.0 * i / d);
}

static int direct_critical(int d, double base, int64_t n)
{
    for (int i = 0; i < d / 2; i++)
        if (direct_wavelength(i, d, base) > (double)n)
            return i;
    return d / 2;
}

static int direct_turning(int d, double base, int64_t n)
{
    int count = 0;
    for (int i = 0; i < d / 2; i++)
        count += (double)n * pow(base, -2.0 * i / d) >= 2 * M_PI;
    return count;
}

static void test_spectrum(void)
{
    const double bases[] = { 1.5, 100, 10000, 500000, 1e6, 1e8 };
    const int ds[] = { 2, 4, 8, 64, 128, 512, 4096 };
    const int64_t ns[] = { 1, 6, 7, 100, 4096, 8192, 131072, 1 << 24 };
    for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++)
        for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++)
            for (size_t m = 0; m < sizeof ns / sizeof ns[0]; m++) {
                int d = ds[k];
                double base = bases[b];
                int64_t n = ns[m];
                CHECK(spectrum_critical_band(d, base, n) ==
                      direct_critical(d, base, n));
                CHECK(spectrum_turning_bands(d, base, n) ==
                      direct_turning(d, base, n));
                double slow = (double)n / direct_wavelength(d / 2 - 1, d, base);
                CHECK_NEAR(spectrum_slowest_turns(d, base, n), slow,
                           1e-9 * fmax(1, slow));
            }
    /* the teacher's case: 10000 against 500000 at n = 4096, d = 64 */
    CHECK(spectrum_critical_band(64, 10000, 4096) == 23);
    CHECK(spectrum_critical_band(64, 500000, 4096) == 16);
    CHECK_NEAR(spectrum_slowest_wavelength(64, 10000),
               2 * M_PI * pow(10000, 62.0 / 64), 1e-9 * 5e4);
    CHECK_NEAR(spectrum_wavelength_limit(500000), 2 * M_PI * 500000, 1e-6);
    /* the slowest band never reaches the 2*pi*base limit */
    CHECK(spectrum_slowest_wavelength(64, 10000) < spectrum_wavelength_limit(10000));
    /* a wavelength exactly n completes its turn: band 0 has wavelength 2pi,
     * so with n = 6 band 0 has not turned and with n = 7 it has */
    CHECK(spectrum_turning_bands(8, 10000, 6) == 0);
    CHECK(spectrum_turning_bands(8, 10000, 7) == 1);
}

/* ---- layouts ------------------------------------------------------------- */

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static void test_layouts(void)
{
    const int ds[] = { 2, 4, 8, 10, 64, 512 };
    for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++) {
        int d = ds[k];
        double *row = malloc(sizeof(double) * (size_t)d);
        double *got = malloc(sizeof(double) * (size_t)d);
        for (int l = 0; l < LAYOUT_COUNT; l++) {
            /* a bijection of dims onto (band, sin/cos) */
            int ok = 1;
            char *seen = calloc((size_t)d, 1);
            for (int j = 0; j < d; j++) {
                int band, is_cos;
                layout_map((enum layout)l, d, j, &band, &is_cos);
                ok &= band >= 0 && band < d / 2 && (is_cos == 0 || is_cos == 1);
                ok &= layout_dim((enum layout)l, d, band, is_cos) == j;
                int slot = 2 * band + is_cos;
                ok &= !seen[slot];
                seen[slot] = 1;
            }
            free(seen);
            CHECK(ok);
            /* the same values in another order */
            for (int pos = 0; pos < 300; pos += 37) {
                pe_row(pos, d, 10000, row);
                for (int j = 0; j < d; j++)
                    got[j] = layout_value(d, 10000, (enum layout)l, PREC_F64,
                                          pos, j);
                qsort(row, (size_t)d, sizeof *row, cmp_double);
                qsort(got, (size_t)d, sizeof *got, cmp_double);
                int same = 1;
                for (int j = 0; j < d; j++)
                    same &= got[j] == row[j];
                CHECK(same);
            }
        }
        free(row);
        free(got);
    }
    /* where each layout puts band 1 of d = 8 */
    CHECK(layout_dim(LAYOUT_INTERLEAVED, 8, 1, 0) == 2);
    CHECK(layout_dim(LAYOUT_INTERLEAVED, 8, 1, 1) == 3);
    CHECK(layout_dim(LAYOUT_CONCAT, 8, 1, 0) == 1);
    CHECK(layout_dim(LAYOUT_CONCAT, 8, 1, 1) == 5);
    CHECK(layout_dim(LAYOUT_HALF, 8, 1, 1) == 1);
    CHECK(layout_dim(LAYOUT_HALF, 8, 1, 0) == 5);
    /* values at those dims */
    CHECK_NEAR(layout_value(8, 10000, LAYOUT_CONCAT, PREC_F64, 37, 5),
               cos(37 * pow(10000, -2.0 / 8)), 1e-12);
    CHECK_NEAR(layout_value(8, 10000, LAYOUT_HALF, PREC_F64, 37, 5),
               sin(37 * pow(10000, -2.0 / 8)), 1e-12);
    CHECK(layout_parse("half") == LAYOUT_HALF);
    CHECK(layout_parse("Half") < 0);
    CHECK(layout_parse("") < 0);
    CHECK_STR(layout_name(LAYOUT_CONCAT), "concat");
    CHECK(precision_parse("bf16") == PREC_BF16);
    CHECK(precision_parse("f8") < 0);
    CHECK(pane_mode_parse("diff") == PANE_DIFF);
    CHECK_STR(pane_mode_name(PANE_SPECTRUM), "spectrum");
}

/* ---- precision ------------------------------------------------------------ */

static void test_precision(void)
{
    const int d = 64;
    const double base = 10000;
    /* f32 against C float arithmetic: the product of two floats is exact
     * in double, so one rounding equals the float multiply */
    int same = 1;
    for (int64_t pos = 0; pos < 70000; pos += 997)
        for (int j = 0; j < d; j += 3) {
            int band = j / 2;
            float w = (float)pe_omega(band, d, base);
            float ang = (float)pos * w;
            float v = (float)(j % 2 ? cos((double)ang) : sin((double)ang));
            same &= layout_value(d, base, LAYOUT_INTERLEAVED, PREC_F32, pos, j)
                    == (double)v;
        }
    CHECK(same);
    /* f64 is the exact formula */
    CHECK(layout_value(d, base, LAYOUT_INTERLEAVED, PREC_F64, 37, 6) ==
          pe_value(37, 6, d, base));
    /* bf16 holds 8 significant bits: 4097 becomes 4096 */
    CHECK(layout_value(d, base, LAYOUT_INTERLEAVED, PREC_BF16, 4097, 0) ==
          layout_value(d, base, LAYOUT_INTERLEAVED, PREC_BF16, 4096, 0));
    CHECK(prec_round(PREC_BF16, 257) != 257 && prec_round(PREC_BF16, 256) == 256);
    CHECK(prec_round(PREC_F16, 2049) != 2049 && prec_round(PREC_F16, 2048) == 2048);
    CHECK(prec_round(PREC_F32, 16777217.0) != 16777217.0);
    CHECK(prec_exact_limit(PREC_BF16) == 256 && prec_exact_limit(PREC_F16) == 2048);
    /* and its error at long context is large (the article's warning) */
    double err = fabs(layout_value(d, base, LAYOUT_INTERLEAVED, PREC_BF16, 30001, 0)
                      - sin(30001.0));
    CHECK(err > 0.05);
    /* f16 cannot hold position 70000: the value is NaN, never made up */
    CHECK(isnan(layout_value(d, base, LAYOUT_INTERLEAVED, PREC_F16, 70000, 0)));
    CHECK(!isnan(layout_value(d, base, LAYOUT_INTERLEAVED, PREC_F16, 60000, 0)));
}

/* Exact column means: closed form for f64, full sums for other formats. */
static void test_means(void)
{
    const int d = 16;
    const double base = 500000;
    for (int l = 0; l < LAYOUT_COUNT; l++)
        for (int p = 0; p < PREC_COUNT; p++)
            for (int j = 0; j < d; j += 5) {
                int64_t p0 = 1000, p1 = 1377;
                double sum = 0;
                for (int64_t q = p0; q < p1; q++)
                    sum += layout_value(d, base, (enum layout)l,
                                        (enum precision)p, q, j);
                CHECK_NEAR(layout_value_mean(d, base, (enum layout)l,
                                             (enum precision)p, p0, p1, j, 1),
                           sum / (double)(p1 - p0), 1e-12);
            }
    /* a coarse stride stays within the size of the rounding error */
    double exact = layout_value_mean(d, base, LAYOUT_INTERLEAVED, PREC_BF16,
                                     0, 100000, 0, 1);
    double sampled = layout_value_mean(d, base, LAYOUT_INTERLEAVED, PREC_BF16,
                                       0, 100000, 0, 97);
    CHECK(fabs(exact - sampled) < 0.2);
}

/* ---- the view ----------------------------------------------------------- */

/* The view drawn at w x h; header rows 0..2 into head (3 x 1024). */
static void draw_view(const struct app *a, int w, int h, char head[3][1024])
{
    canvas c;
    char hint[256];
    if (canvas_init(&c, w, h))
        return;
    VIEW_COMPARE_DEF.draw(a, &c, hint, sizeof hint);
    for (int y = 0; y < 3 && y < h; y++)
        canvas_row_utf8(&c, y, head[y], 1024);
    canvas_free(&c);
}

/* Text of pane k in a header row (split at the pane separator). */
static void pane_part(const char *row, int k, char *out, size_t len)
{
    const char *s = row;
    for (int i = 0; i < k && s; i++) {
        s = strstr(s, "\u2502");
        if (s)
            s += strlen("\u2502");
    }
    if (!s) {
        out[0] = 0;
        return;
    }
    const char *e = strstr(s, "\u2502");
    size_t n = e ? (size_t)(e - s) : strlen(s);
    if (n >= len)
        n = len - 1;
    memcpy(out, s, n);
    out[n] = 0;
}

static void setup(struct app *a)
{
    app_init(a);
    a->view = VIEW_COMPARE;
    a->p.n = 4096;
}

static void test_headers(void)
{
    struct app a;
    char h0[3][1024], h1[3][1024], pa[512], pb[512], qa[512], qb[512];
    setup(&a);
    draw_view(&a, 80, 23, h0);
    CHECK(strstr(h0[0], "A base=10000 d_model=64 n=4096") != NULL);
    CHECK(strstr(h0[0], "B base=500000 d_model=64 n=4096") != NULL);
    CHECK(strstr(h0[1], "critical band 23") != NULL);
    CHECK(strstr(h0[1], "critical band 16") != NULL);
    CHECK(strstr(h0[2], "0.08693 turns") != NULL);
    CHECK(strstr(h0[2], "0.001965 turns") != NULL);
    /* ']' then 'B': only pane B's header changes */
    CHECK(app_key(&a, ']') == ACT_VIEW_KEY);
    CHECK(a.cmp.active == 1);
    CHECK(app_key(&a, 'B') == ACT_VIEW_KEY);
    CHECK(a.cmp.panes[1].base == 5e6 && a.cmp.panes[0].base == 10000);
    CHECK(a.p.base == 10000);       /* the global base is not the pane's */
    draw_view(&a, 80, 23, h1);
    for (int y = 0; y < 3; y++) {
        pane_part(h0[y], 0, pa, sizeof pa);
        pane_part(h1[y], 0, qa, sizeof qa);
        pane_part(h0[y], 1, pb, sizeof pb);
        pane_part(h1[y], 1, qb, sizeof qb);
        if (y == 0) {       /* only the active-pane mark moved */
            CHECK(strstr(pa, "\u25B6A base=10000 d_model=64 n=4096") != NULL);
            CHECK(strstr(qa, " A base=10000 d_model=64 n=4096") != NULL);
            CHECK(strstr(qa, "\u25B6") == NULL);
            CHECK(strstr(qb, "\u25B6B base=5000000") != NULL);
        } else {
            CHECK_STR(qa, pa);
            CHECK(strcmp(pb, qb) != 0);
        }
    }
    CHECK(strstr(h1[0], "B base=5000000") != NULL);
    CHECK(strstr(h1[1], "critical band 14") != NULL);
    /* 'd' halves pane B's d_model only */
    CHECK(app_key(&a, 'd') == ACT_VIEW_KEY);
    CHECK(a.cmp.panes[1].d == 32 && a.cmp.panes[0].d <= 0 && a.p.d == 64);
}

static void test_keys(void)
{
    struct app a;
    setup(&a);
    CHECK(a.cmp.npanes == 2 && a.cmp.active == 0);
    app_key(&a, '+');
    CHECK(a.cmp.npanes == 3 && a.cmp.active == 2 && a.cmp.panes[2].base == 1e6);
    app_key(&a, '+');
    CHECK(a.cmp.npanes == 3);
    app_key(&a, ']');
    CHECK(a.cmp.active == 0);
    app_key(&a, '[');
    CHECK(a.cmp.active == 2);
    app_key(&a, '_');
    CHECK(a.cmp.npanes == 2 && a.cmp.active == 1);
    app_key(&a, '_');
    CHECK(a.cmp.npanes == 2);
    /* presets cycle and come back */
    const double want[4][2] = { { 10000, 1e6 }, { 500000, 1e6 }, { 100, 10000 },
                                { 10000, 500000 } };
    for (int i = 0; i < 4; i++) {
        app_key(&a, 'p');
        CHECK(a.cmp.panes[0].base == want[i][0] && a.cmp.panes[1].base == want[i][1]);
    }
    for (int i = 0; i < PANE_MODE_COUNT; i++) {
        CHECK(a.cmp.mode == (enum pane_mode)i);
        app_key(&a, 'v');
    }
    CHECK(a.cmp.mode == PANE_HEATMAP);
    /* the base clamps like the global keys do, with a message */
    a.cmp.active = 0;
    for (int i = 0; i < 10; i++)
        app_key(&a, 'b');
    CHECK(a.p.base == 2 && a.msg[0] != 0);     /* the keys stop at 2 */
    CHECK(a.cmp.panes[1].base == 500000);
    /* pane A is the global parameters: its d_model is a->p.d, and the
     * other panes keep theirs */
    app_key(&a, 'D');
    CHECK(a.p.d == 128 && a.cmp.panes[1].d == 64);
    /* the dimension cursor stays inside the widest pane */
    for (int i = 0; i < 200; i++)
        app_key(&a, 'j');
    CHECK(a.cmp.dim == 127);
    app_key(&a, PK_PGUP);
    CHECK(a.cmp.dim < 127);
    /* zoom: = in, - out, never below 8 positions */
    for (int i = 0; i < 20; i++)
        app_key(&a, '=');
    CHECK(a.cmp.zoom > 0 && (4096 >> a.cmp.zoom) >= 8);
    for (int i = 0; i < 20; i++)
        app_key(&a, '-');
    CHECK(a.cmp.zoom == 0);
    /* layouts and formats for the active pane only */
    app_key(&a, 'o');
    CHECK(a.cmp.panes[0].layout == LAYOUT_CONCAT && a.cmp.panes[1].layout == 0);
    app_key(&a, 'f');
    CHECK(a.cmp.panes[0].prec == PREC_F32 && a.cmp.panes[1].prec == PREC_F64);
}

static void test_commands(void)
{
    struct app a;
    const struct view *v = &VIEW_COMPARE_DEF;
    setup(&a);
    a.cmp.active = 1;
    CHECK(v->command(&a, "layout", "half") == 1 && !a.msg_error);
    CHECK(a.cmp.panes[1].layout == LAYOUT_HALF && a.cmp.panes[0].layout == 0);
    CHECK(v->command(&a, "layout", "diagonal") == 1 && a.msg_error);
    CHECK(a.cmp.panes[1].layout == LAYOUT_HALF);
    a.msg_error = 0;
    CHECK(v->command(&a, "precision", "bf16") == 1 && !a.msg_error);
    CHECK(a.cmp.panes[1].prec == PREC_BF16);
    CHECK(v->command(&a, "precision", "nan") == 1 && a.msg_error);
    CHECK(a.cmp.panes[1].prec == PREC_BF16);
    a.msg_error = 0;
    CHECK(v->command(&a, "base", "1e6") == 1 && !a.msg_error);
    CHECK(a.cmp.panes[1].base == 1e6 && a.p.base == 10000);
    const char *bad_base[] = { "1", "0", "-5", "nan", "inf", "1e400", "12abc", "" };
    for (size_t i = 0; i < sizeof bad_base / sizeof bad_base[0]; i++) {
        a.msg_error = 0;
        CHECK(v->command(&a, "base", bad_base[i]) == 1 && a.msg_error);
        CHECK(a.cmp.panes[1].base == 1e6);
    }
    a.msg_error = 0;
    CHECK(v->command(&a, "d", "128") == 1 && !a.msg_error);
    CHECK(a.cmp.panes[1].d == 128 && a.p.d == 64);
    const char *bad_d[] = { "7", "0", "-2", "131072", "x" };
    for (size_t i = 0; i < sizeof bad_d / sizeof bad_d[0]; i++) {
        a.msg_error = 0;
        CHECK(v->command(&a, "d", bad_d[i]) == 1 && a.msg_error);
        CHECK(a.cmp.panes[1].d == 128);
    }
    a.msg_error = 0;
    CHECK(v->command(&a, "mode", "profile") == 1 && a.cmp.mode == PANE_PROFILE);
    CHECK(v->command(&a, "mode", "x") == 1 && a.msg_error);
    CHECK(a.cmp.mode == PANE_PROFILE);
    CHECK(v->command(&a, "heads", "3") == 0);
}

/* A heatmap cell holds the exact mean of its column's positions. */
static void test_cells(void)
{
    struct app a;
    canvas c;
    char hint[256];
    setup(&a);
    if (canvas_init(&c, 80, 23))
        return;
    VIEW_COMPARE_DEF.draw(&a, &c, hint, sizeof hint);
    /* 80 wide, d = 64: 4-cell label gutter, panes of 37 with a 1-cell
     * mark gutter, so pane A has 36 columns from x = 5; 3 header rows */
    int64_t p1 = 4096 / 36;
    double sum0 = 0, sum1 = 0;
    for (int64_t q = 0; q < p1; q++) {
        sum0 += sin((double)q);
        sum1 += cos((double)q);
    }
    const cell *k = canvas_at(&c, 5, 3);
    CHECK(k && k->kind == CELL_HALF);
    CHECK(k && k->fg == cmap_diverging(a.palette, sum0 / (double)p1));
    CHECK(k && k->bg == cmap_diverging(a.palette, sum1 / (double)p1));
    CHECK(strstr(hint, "1 col = 113-114 pos") != NULL);
    canvas_free(&c);
}

/* Every mode, every size, with odd panes: no crash, something drawn. */
static void test_sizes(void)
{
    const int sizes[][2] = { { 1, 1 }, { 2, 2 }, { 10, 3 }, { 19, 4 },
                             { 24, 5 }, { 30, 8 }, { 40, 12 }, { 80, 23 },
                             { 160, 47 }, { 300, 99 } };
    struct app a;
    setup(&a);
    a.p.n = 70000;
    a.cmp.npanes = 3;
    a.cmp.panes[1].prec = PREC_F16;         /* overflows past 65504 */
    a.cmp.panes[2].prec = PREC_BF16;
    a.cmp.panes[2].layout = LAYOUT_HALF;
    a.cmp.panes[2].d = 8;
    a.cmp.dim = 40;
    a.p.pos = 69999;
    int drawn = 1;
    for (int m = 0; m < PANE_MODE_COUNT; m++) {
        a.cmp.mode = (enum pane_mode)m;
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            canvas c;
            char hint[256];
            if (canvas_init(&c, sizes[i][0], sizes[i][1]))
                continue;
            VIEW_COMPARE_DEF.draw(&a, &c, hint, sizeof hint);
            char row[2048];
            canvas_row_utf8(&c, 0, row, sizeof row);
            drawn &= strchr(row, 'A') != NULL;    /* pane A named */
            canvas_free(&c);
        }
    }
    CHECK(drawn);
}

/* "10", "100", "1000" or "1eN" as a tick label: N, else -1. */
static int tick_exp(const char *t)
{
    if (!strcmp(t, "10") || !strcmp(t, "100") || !strcmp(t, "1000"))
        return (int)strlen(t) - 1;
    if (t[0] == '1' && t[1] == 'e' && t[2] && strspn(t + 2, "0123456789") ==
        strlen(t + 2))
        return atoi(t + 2);
    return -1;
}

/* The spectrum at base 1e308, d_model 65536: the slowest wavelength
 * (6.1e308) and 2*pi*base overflow a double.  The old code turned -inf
 * into an int (undefined), drew a "0" tick and cut labels to "e291";
 * the text showed inf.  Every tick must be a whole label, rising, and
 * the numbers must match logs computed here in long double. */
static void test_huge_base(void)
{
    struct app a;
    canvas c;
    char hint[256], row[2048], want[64];
    int last = 1 << 30, ticks = 0, bad = 0, found_l = 0, found_t = 0;
    setup(&a);
    a.p.n = 128;
    a.p.base = 1e308;
    a.p.d = 65536;
    a.cmp.mode = PANE_SPECTRUM;
    long double l = log10l(2 * 3.14159265358979323846264338327950288L) +
                    65534.0L / 65536.0L * 308.0L;
    long double e = floorl(l);
    snprintf(want, sizeof want, "%.4Lge%.0Lf", powl(10, l - e), e);
    CHECK_STR(want, "6.149e308");              /* the test's own figure */
    CHECK(canvas_init(&c, 80, 24) == 0);
    VIEW_COMPARE_DEF.draw(&a, &c, hint, sizeof hint);
    for (int y = 0; y < 24; y++) {
        canvas_row_utf8(&c, y, row, sizeof row);
        bad |= strstr(row, "inf") != NULL || strstr(row, "nan") != NULL;
        found_l |= strstr(row, want) != NULL;
        long double turns = log10l(128.0L) - l;
        char tw[32];
        snprintf(tw, sizeof tw, "%.4Lge%.0Lf", powl(10, turns - floorl(turns)),
                 floorl(turns));
        found_t |= strstr(row, tw) != NULL;
        if (y < 3 || y > 17)
            continue;
        char lab[16] = "";
        if (sscanf(row, "%15s", lab) != 1 || strspn(lab, "0123456789e") !=
            strlen(lab))
            continue;                          /* no tick on this row */
        int x = tick_exp(lab);                 /* a whole label, rising */
        ticks++;
        CHECK(x >= 1 && x < last);
        last = x >= 0 ? x : last;
    }
    CHECK(!bad);
    CHECK(found_l);
    CHECK(found_t);                             /* 2.082e-307 turns */
    CHECK(ticks >= 3);
    canvas_free(&c);
}

int main(void)
{
    test_spectrum();
    test_huge_base();
    test_layouts();
    test_precision();
    test_means();
    test_headers();
    test_keys();
    test_commands();
    test_cells();
    test_sizes();
    TEST_END("test_compare");
}
