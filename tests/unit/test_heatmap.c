/* SPDX-License-Identifier: ISC */
/*
 * test_heatmap.c - the heatmap view and the frame around it, checked
 * against the formula: what a cell shows is the brute-force mean of PE
 * over the positions its column holds, the inspector prints PE(pos, dim)
 * computed here independently, the keys reach every dimension, and the
 * frame copes with any size.  A table built here in memory (--pe-file)
 * is checked the same way: brute-force column means, its own colour
 * range, and an inspector that reads the table.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frames.h"
#include "harness.h"
#include "app.h"
#include "frame.h"
#include "peviz/tables.h"
#include "views/heatmap.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---- helpers ----------------------------------------------------------- */

static void app_with(struct app *a, int d, double base, int64_t n,
                     int64_t pos)
{
    app_init(a);
    a->p.d = d;
    a->p.base = base;
    a->p.n = n;
    a->p.pos = pos;
    a->screen_w = 80;
    a->screen_h = 24;
}

/* ---- the inspector prints the formula's numbers ------------------------- */

static void test_inspector(void)
{
    struct app a;
    char want[128];

    app_with(&a, 8, 10000, 16, 0);
    CHECK(frame_has(&a, 80, 24,
                    "PE(0, 0) = sin(0 \xc3\x97 10000^(-0/8)) = sin(0) = 0"));

    /* PE(37, 6) at d 64: sin(37 * 10000^(-6/64)), computed here */
    app_with(&a, 64, 10000, 128, 37);
    a.heat.dim = 6;
    double w = pow(10000.0, -6.0 / 64.0);
    snprintf(want, sizeof want, "= sin(%.2f) = %.4f", 37 * w, sin(37 * w));
    CHECK_STR(want, "= sin(15.60) = 0.1050");   /* 37 x 0.4217 = 15.60 */
    CHECK(frame_has(&a, 80, 24, "PE(37, 6) = sin(37 \xc3\x97 10000^(-6/64))"));
    CHECK(frame_has(&a, 80, 24, want));
    snprintf(want, sizeof want, "omega=%.4f rad/pos", w);
    CHECK(frame_has(&a, 80, 24, want));
    snprintf(want, sizeof want, "wavelength=%.2f pos", 2 * M_PI / w);
    CHECK(frame_has(&a, 80, 24, want));
    CHECK(frame_has(&a, 80, 24, "band i=3"));

    /* an odd dimension is the pair's cosine, with i = dim / 2 */
    a.heat.dim = 7;
    snprintf(want, sizeof want, "PE(37, 7) = cos(37 \xc3\x97 10000^(-6/64)) "
             "= cos(%.2f) = %.4f", 37 * w, cos(37 * w));
    CHECK(frame_has(&a, 120, 40, want));

    /* base printed as typed back: 500000, never 5e+05 */
    app_with(&a, 64, 5e5, 128, 3);
    CHECK(frame_has(&a, 80, 24, "500000^(-0/64)"));
    CHECK(frame_has(&a, 80, 24, "base=500000"));
}

/* ---- every cell is the exact mean of its column's positions ------------ */

static double brute_mean(int64_t p0, int64_t p1, int dim, int d, double base)
{
    double s = 0;
    for (int64_t p = p0; p < p1; p++)
        s += dim % 2 ? cos((double)p * pow(base, -(double)(dim - 1) / d))
                     : sin((double)p * pow(base, -(double)dim / d));
    return s / (double)(p1 - p0);
}

/* Columns tile the visible positions without gap or overlap; the first
 * column starts at x0 (a whole-sequence view starts at 0, ends at n-1). */
static void check_columns(const struct app *a, int ncols, int npix,
                          int whole)
{
    int64_t p0, p1, prev0 = -1, prev1 = -1, last = -1;
    int used = 0, gaps = 0;
    for (int col = 0; col < ncols; col++) {
        if (heatmap_col_range(a, col, ncols, npix, &p0, &p1))
            continue;
        CHECK(p0 < p1);
        /* the next run of positions, or the same one drawn wide */
        if (used && p0 != prev1 && !(p0 == prev0 && p1 == prev1))
            gaps++;
        if (used == 0 && whole)
            CHECK(p0 == 0);
        prev0 = p0;
        prev1 = p1;
        last = p1 - 1;
        used++;
    }
    CHECK(used > 0);
    CHECK(gaps == 0);
    if (whole)
        CHECK(last == a->p.n - 1);
}

static void check_cells(const struct app *a, int ncols, int npix)
{
    int64_t p0, p1;
    int bad = 0, cells = 0;
    for (int col = 0; col < ncols; col++) {
        if (heatmap_col_range(a, col, ncols, npix, &p0, &p1))
            continue;
        for (int py = 0; py < npix; py++) {
            int dim = heatmap_pixel_dim(a, py, ncols, npix);
            if (dim < 0)
                continue;
            double got = heatmap_cell_value(a, col, py, ncols, npix);
            double want = brute_mean(p0, p1, dim, a->p.d, a->p.base);
            if (fabs(got - want) > 1e-9 && bad++ < 3)
                fprintf(stderr, "cell (%d,%d) dim %d pos %lld..%lld: %.12g "
                        "want %.12g\n", col, py, dim, (long long)p0,
                        (long long)p1, got, want);
            cells++;
        }
    }
    CHECK(cells > 0);
    CHECK(bad == 0);
}

static void test_cells_are_means(void)
{
    static const struct { int d; double base; int64_t n, pos; int cols, pix; }
    T[] = {
        { 64, 10000, 128, 0, 66, 34 },      /* 2 positions per column */
        { 8, 10000, 16, 5, 66, 34 },        /* positions drawn wide */
        { 512, 5e5, 4096, 1000, 106, 64 },  /* 39 per column */
        { 64, 10000, 100000, 77777, 70, 30 },
        { 2, 10000, 7, 6, 50, 10 },
        { 4, 1e6, 1000, 999, 13, 4 },
    };
    struct app a;
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        app_with(&a, T[i].d, T[i].base, T[i].n, T[i].pos);
        check_columns(&a, T[i].cols, T[i].pix, 1);
        check_cells(&a, T[i].cols, T[i].pix);
    }
    /* a column of 2 positions at 80x24 is their mean, not one of them:
     * 128 over 66 columns, column 3 holds [3 * 128 / 66, 4 * 128 / 66) */
    app_with(&a, 64, 10000, 128, 0);
    int64_t p0, p1;
    CHECK(heatmap_col_range(&a, 3, 66, 34, &p0, &p1) == 0);
    CHECK(p0 == 5 && p1 == 7);
    CHECK_NEAR(heatmap_cell_value(&a, 3, 0, 66, 34),
               (sin(5.0) + sin(6.0)) / 2, 1e-12);
    CHECK(heatmap_col_range(&a, 0, 66, 34, &p0, &p1) == 0);
    CHECK(p0 == 0 && p1 == 1);              /* 0.., the first holds one */
    CHECK(heatmap_col_range(&a, 65, 66, 34, &p0, &p1) == 0);
    CHECK(p0 == 126 && p1 == 128);          /* the last column: n - 1 */
}

/* The picture itself: each half-block pixel has the colour of its value
 * (all but the cursor's cell, which is marked). */
static void test_picture(void)
{
    static const struct { int d; int64_t n; int w, h; } T[] = {
        { 64, 128, 80, 24 }, { 8, 16, 80, 24 }, { 512, 4096, 120, 40 },
    };
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        struct app a;
        canvas c;
        int mx, my, cols, rows, bad = 0, seen = 0;
        app_with(&a, T[i].d, 10000, T[i].n, 3);
        CHECK(canvas_init(&c, T[i].w, T[i].h) == 0);
        frame_draw(&a, &c);
        heatmap_map_rect(&a, T[i].w, T[i].h - 1, &mx, &my, &cols, &rows);
        for (int col = 0; col < cols; col++)
            for (int py = 0; py < 2 * rows; py++) {
                double v = heatmap_cell_value(&a, col, py, cols, 2 * rows);
                const cell *k = canvas_at(&c, mx + col, my + py / 2);
                if (isnan(v) || k->kind != CELL_HALF)
                    continue;
                rgb got = py % 2 ? k->bg : k->fg;
                bad += got != cmap_diverging(a.palette, v);
                seen++;
            }
        CHECK(seen >= cols * rows);         /* the whole map, bar the cursor */
        CHECK(bad == 0);
        canvas_free(&c);
    }
}

/* Rows: the first and last dimension always shown; sin over cos. */
static void test_rows(void)
{
    struct app a;
    app_with(&a, 512, 10000, 128, 0);
    int npix = 34, last = -1;
    CHECK(heatmap_pixel_dim(&a, 0, 66, npix) == 0);
    CHECK(heatmap_pixel_dim(&a, 1, 66, npix) == 1);
    for (int py = 0; py < npix; py++)
        if (heatmap_pixel_dim(&a, py, 66, npix) >= 0)
            last = heatmap_pixel_dim(&a, py, 66, npix);
    CHECK(last == 511);
    /* few dims: each takes several pixel rows, in order */
    app_with(&a, 4, 10000, 128, 0);
    int prev = 0, rows_of[4] = { 0 };
    CHECK(heatmap_pixel_dim(&a, 0, 66, 34) == 0);
    for (int py = 0; py < 34; py++) {
        int dim = heatmap_pixel_dim(&a, py, 66, 34);
        if (dim < 0)
            continue;
        CHECK(dim == prev || dim == prev + 1);
        rows_of[dim]++;
        prev = dim;
    }
    CHECK(prev == 3);
    /* 17 rows shared out: bands of 8 and 9 rows, every pixel row used */
    CHECK(rows_of[0] == 9 && rows_of[1] == 9);
    CHECK(rows_of[2] == 8 && rows_of[3] == 8);
}

/*
 * Height: with more bands than rows every pixel row of the map holds a
 * dimension, the bands are the first, the last and evenly spread between
 * (steps round((half-1)/(nb-1)) up or down), and the status line counts
 * the bands the rows show.
 */
static void check_fill_height(int d, int w, int h, int ascii)
{
    struct app a;
    canvas c;
    char row[1024], want[64];
    int mx, my, cols, rows, empty = 0, nb = 0, prev = -1, lo = 1 << 30, hi = 0;
    app_with(&a, d, 10000, 128, 0);
    a.screen_w = w;
    a.screen_h = h;
    a.ascii = ascii;
    CHECK(canvas_init(&c, w, h) == 0);
    frame_draw(&a, &c);
    heatmap_map_rect(&a, w, h - 1, &mx, &my, &cols, &rows);
    for (int py = 0; py < 2 * rows; py++) {
        int dim = heatmap_pixel_dim(&a, py, cols, 2 * rows);
        empty += dim < 0;
        if (dim < 0 || dim / 2 == prev)
            continue;
        if (prev >= 0) {
            lo = dim / 2 - prev < lo ? dim / 2 - prev : lo;
            hi = dim / 2 - prev > hi ? dim / 2 - prev : hi;
        }
        prev = dim / 2;
        nb++;
    }
    CHECK(empty < (ascii ? 4 : 1));  /* an odd row of whole rows stays */
    CHECK(heatmap_pixel_dim(&a, 0, cols, 2 * rows) == 0);
    CHECK(prev == d / 2 - 1);
    double step = (double)(d / 2 - 1) / (nb - 1);
    CHECK(lo == (int)floor(step) && hi == (int)ceil(step));
    canvas_row_utf8(&c, h - 1, row, sizeof row);
    snprintf(want, sizeof want, "%d of %d bands", nb, d / 2);
    if (fabs(step - floor(step)) > 0)
        CHECK(strstr(row, want) != NULL);
    canvas_free(&c);
}

static void test_fills_height(void)
{
    check_fill_height(64, 160, 48, 1);
    check_fill_height(128, 160, 48, 0);
    check_fill_height(64, 160, 48, 0);      /* 32 bands on 42 rows */
    check_fill_height(40, 80, 24, 0);
    check_fill_height(64, 120, 40, 1);
    check_fill_height(512, 80, 24, 0);
    check_fill_height(512, 160, 48, 1);
}

/* ---- keys --------------------------------------------------------------- */

static void test_keys(void)
{
    struct app a;
    app_with(&a, 64, 10000, 128, 10);

    /* 128 over 66 columns: 10 is in column 5, [9, 11); a key goes to
     * the first position of the next column, [11, 13), and back */
    CHECK(view_key(&a, PK_RIGHT) == 1);
    CHECK(a.p.pos == 11);
    CHECK(view_key(&a, PK_RIGHT) == 1 && a.p.pos == 13);    /* [13, 15) */
    CHECK(view_key(&a, 'h') == 1 && a.p.pos == 11);
    CHECK(view_key(&a, 'h') == 1 && a.p.pos == 9);
    CHECK(view_key(&a, PK_END) == 1 && a.p.pos == 127);
    CHECK(view_key(&a, PK_HOME) == 1 && a.p.pos == 0);
    CHECK(view_key(&a, 'd') == 0);        /* left to the global table */
    CHECK(view_key(&a, ' ') == 0);

    /* zooming in halves the span around the cursor: 1 position a column */
    a.p.pos = 100;
    CHECK(view_key(&a, '+') == 1 && a.heat.zoom == 1);
    CHECK(view_key(&a, 'l') == 1 && a.p.pos == 101);
    int64_t p0, p1, col;
    for (col = 0; col < 66; col++)
        if (heatmap_col_range(&a, (int)col, 66, 34, &p0, &p1) == 0 &&
            p0 <= a.p.pos && a.p.pos < p1)
            break;
    CHECK(col < 66);                    /* the cursor stays in view */
    CHECK(view_key(&a, '-') == 1 && a.heat.zoom == 0);
    CHECK(view_key(&a, '-') == 1 && a.heat.zoom == 0 && a.msg[0]);
}

/* Zoomed all the way in, Down visits every dimension one by one. */
static void test_every_dim_reachable(void)
{
    struct app a;

    app_with(&a, 512, 10000, 4096, 0);
    for (int i = 0; i < 40; i++)
        view_key(&a, '+');
    int ok = 1;
    for (int dim = 1; dim < 512 && ok; dim++) {
        view_key(&a, 'j');
        ok = a.heat.dim == dim;
        int seen = 0;
        for (int py = 0; py < 34 && !seen; py++)
            seen = heatmap_pixel_dim(&a, py, 66, 34) == dim;
        ok = ok && seen;
        if (!ok)
            fprintf(stderr, "dimension %d not reached or not shown\n", dim);
    }
    CHECK(ok);
    CHECK(view_key(&a, 'j') == 1 && a.heat.dim == 511);   /* stays at the end */
    CHECK(view_key(&a, 'K') == 1 && a.heat.dim < 511);
}

/* The sweep moves pos past the window: the window pages along with it. */
static void test_sweep_follows(void)
{
    struct app a;
    app_with(&a, 64, 10000, 4096, 0);

    for (int i = 0; i < 4; i++)
        view_key(&a, '+');
    int ok = 1;
    for (int64_t pos = 0; pos < 4096 && ok; pos += 37) {
        int64_t p0, p1;
        int col, seen = 0;
        a.p.pos = pos;
        for (col = 0; col < 66 && !seen; col++)
            seen = heatmap_col_range(&a, col, 66, 34, &p0, &p1) == 0 &&
                   p0 <= pos && pos < p1;
        ok = seen;
    }
    CHECK(ok);
}

/* ---- the frame ---------------------------------------------------------- */

static void test_status_line(void)
{
    struct app a;
    char row[1024];
    canvas c;
    app_with(&a, 64, 10000, 128, 0);
    CHECK(canvas_init(&c, 80, 24) == 0);
    frame_draw(&a, &c);
    canvas_row_utf8(&c, 23, row, sizeof row);
    CHECK(strstr(row, "PE heatmap") != NULL);
    CHECK(strstr(row, "d_model=64 base=10000 n=128 pos=0") != NULL);
    CHECK(strstr(row, "1 col = 1-2 pos") != NULL);   /* 128 on 66 */
    CHECK(strstr(row, "17 of 32 bands") != NULL);  /* 17 band rows */
    /* an error message shows; parts that no longer fit go whole */
    app_msg(&a, 1, "base 1: must be a finite number > 1");
    frame_draw(&a, &c);
    canvas_row_utf8(&c, 23, row, sizeof row);
    CHECK(strstr(row, "base 1: must be a finite number > 1") != NULL);
    CHECK(strstr(row, "d_model=64") != NULL);
    CHECK(strstr(row, "1 col = 2") == NULL || strstr(row, "2 pos") != NULL);
    canvas_free(&c);
    /* narrow: never a word cut in half */
    CHECK(canvas_init(&c, 30, 10) == 0);
    frame_draw(&a, &c);
    canvas_row_utf8(&c, 9, row, sizeof row);
    CHECK(strstr(row, "d_model=64 base=10000") != NULL);
    CHECK(strstr(row, "pos=0") == NULL || strstr(row, "n=128 pos=0") != NULL);
    canvas_free(&c);
}

static void test_too_small(void)
{
    struct app a;
    app_with(&a, 64, 10000, 128, 0);
    CHECK(frame_has(&a, 10, 3, "too small"));
    CHECK(frame_has(&a, 10, 3, "need 20x5"));
    CHECK(frame_has(&a, 40, 4, "40x4, need 20x5"));
    static const int S[][2] = { {1, 1}, {2, 2}, {10, 3}, {19, 5}, {20, 5},
                                {21, 6}, {300, 100}, {1, 50}, {200, 1} };
    for (size_t i = 0; i < sizeof S / sizeof S[0]; i++) {
        char *t = frame_text(&a, S[i][0], S[i][1]);
        CHECK(t != NULL);
        free(t);
    }
}

static void test_help_and_prompt(void)
{
    struct app a;
    app_with(&a, 64, 10000, 128, 0);
    a.help = 1;
    CHECK(frame_has(&a, 80, 24, "help: PE heatmap"));
    CHECK(frame_has(&a, 80, 24, "any key closes this card"));
    CHECK(frame_has(&a, 80, 24, "guided tour"));        /* the last key */
    CHECK(frame_has(&a, 160, 48, "exact mean"));        /* the about text */
    char *t = frame_text(&a, 80, 24);
    CHECK(t && !strstr(t, "taller screen"));
    free(t);
    for (int w = 12; w < 90; w += 7)                    /* cut, no crash */
        for (int h = 5; h < 30; h += 6)
            free(frame_text(&a, w, h));

    /* prompt text from the user never carries control codes */
    app_with(&a, 64, 10000, 128, 0);
    a.prompt_open = 1;
    snprintf(a.prompt, sizeof a.prompt, "base \033]0;pwned\007\r\b\033[2J");
    a.prompt_len = (int)strlen(a.prompt);
    t = frame_text(&a, 80, 24);
    CHECK(t && strstr(t, ":base ") && !strchr(t, '\033') && !strchr(t, '\a')
          && !strchr(t, '\r') && !strchr(t, '\b'));
    free(t);
}

/* Cells that differ between two frames: in the inspector rows and the
 * status line (moved), and everywhere else (other). */
static void count_changes(const canvas *c1, const canvas *c2, int *moved,
                          int *other)
{
    *moved = *other = 0;
    for (int y = 0; y < c1->h; y++)
        for (int x = 0; x < c1->w; x++) {
            const cell *p = canvas_at(c1, x, y), *q = canvas_at(c2, x, y);
            if (memcmp(p, q, sizeof *p) == 0)
                continue;
            if (y <= 1 || y == c1->h - 1)
                ++*moved;
            else
                ++*other;
        }
}

/* Moving pos by step (one column) at w x h changes the inspector and
 * status rows, and in the map only the column mark and cursor cell. */
static void check_sweep_step(struct app *a, int w, int h, int64_t step)
{
    canvas c1, c2;
    int moved, other;
    CHECK(canvas_init(&c1, w, h) == 0 && canvas_init(&c2, w, h) == 0);
    frame_draw(a, &c1);
    a->p.pos += step;
    frame_draw(a, &c2);
    count_changes(&c1, &c2, &moved, &other);
    CHECK(moved > 0);
    CHECK(other > 0 && other <= 6);
    canvas_free(&c1);
    canvas_free(&c2);
}

/* A sweep step redraws only what moves: the cursor marks, the inspector
 * and the status line, never the map (bytes on a classroom link). */
static void test_sweep_changes_little(void)
{
    struct app a;
    app_with(&a, 64, 10000, 4096, 1000);
    check_sweep_step(&a, 80, 24, 63);   /* the next column: 63 per column */
}

/* With --ascii every cell comes out as 7-bit ASCII. */
static void test_ascii(void)
{
    struct app a;
    canvas c;
    int bad = 0;
    app_with(&a, 64, 10000, 128, 5);
    a.ascii = 1;
    a.playing = 1;
    CHECK(canvas_init(&c, 120, 40) == 0);
    for (int help = 0; help <= 1; help++) {
        a.help = help;
        frame_draw(&a, &c);
        for (int y = 0; y < c.h; y++)
            for (int x = 0; x < c.w; x++) {
                cell r = canvas_resolve(canvas_at(&c, x, y), 1, COLOR_256);
                bad += r.ch >= 0x80 || r.ch < 0x20;
            }
    }
    CHECK(bad == 0);
    canvas_free(&c);
}

/* The largest parameters draw (O(visible cells), no table of d x n). */
static void test_large(void)
{
    struct app a;
    app_with(&a, 65536, 1e6, (int64_t)1 << 24, ((int64_t)1 << 24) - 1);
    a.heat.dim = 65535;
    CHECK(frame_has(&a, 200, 60, "PE(16777215, 65535) = cos("));
    check_columns(&a, 180, 100, 1);
    CHECK(heatmap_pixel_dim(&a, 99, 180, 100) == 65535);
}

/* ---- a table loaded by --pe-file ---------------------------------------- */

/* A small table built here: table[p, dim] = p * 0.1 - dim, so values run
 * from -5 (p 0, dim 5) to 3.9 (p 39, dim 0): not in [-1, 1], and lopsided,
 * so a scale of +-max|v| (5) differs from [min, max]. */
#define TAB_N 40
#define TAB_D 6
static double tab_v[TAB_N * TAB_D];
static struct pe_table tab = { TAB_N, TAB_D, tab_v };

static void table_make(void)
{
    for (int p = 0; p < TAB_N; p++)
        for (int dim = 0; dim < TAB_D; dim++)
            tab_v[p * TAB_D + dim] = p * 0.1 - dim;
}

static void app_table(struct app *a, const struct pe_table *t, int64_t pos)
{
    app_with(a, t->d, 10000, t->n, pos);
    a->pe_table = t;
    a->pe_file_name = "models/mem-table.csv";
}

static double table_brute(const struct pe_table *t, int64_t p0, int64_t p1,
                          int dim)
{
    double s = 0;
    for (int64_t p = p0; p < p1; p++)
        s += t->v[p * t->d + dim];
    return s / (double)(p1 - p0);
}

/* Every cell against the brute-force column mean; returns how many cells
 * cover several positions (so a test knows it saw real averaging). */
static int check_table_cells(const struct app *a, int ncols, int npix)
{
    int64_t p0, p1;
    int bad = 0, cells = 0, multi = 0;
    for (int col = 0; col < ncols; col++) {
        if (heatmap_col_range(a, col, ncols, npix, &p0, &p1))
            continue;
        for (int py = 0; py < npix; py++) {
            int dim = heatmap_pixel_dim(a, py, ncols, npix);
            if (dim < 0)
                continue;
            double got = heatmap_cell_value(a, col, py, ncols, npix);
            double want = table_brute(a->pe_table, p0, p1, dim);
            if (!(fabs(got - want) <= 1e-12 * (1 + fabs(want))) &&
                bad++ < 3)
                fprintf(stderr, "table cell (%d,%d) dim %d pos %lld..%lld: "
                        "%.15g want %.15g\n", col, py, dim, (long long)p0,
                        (long long)p1, got, want);
            cells++;
            multi += p1 - p0 > 1;
        }
    }
    CHECK(cells > 0);
    CHECK(bad == 0);
    return multi;
}

static void test_table_cells(void)
{
    static const struct { int cols, pix, zoom; int64_t pos; } G[] = {
        { 66, 34, 0, 0 },       /* one position a column, drawn wide */
        { 13, 6, 0, 37 },       /* 4 positions a column */
        { 7, 4, 0, 20 },        /* 6 a column; rows skip dims */
        { 30, 12, 0, 39 },      /* 2 a column, the last one short */
        { 9, 10, 1, 25 },       /* zoomed: 20 positions in 9 columns */
        { 100, 2, 2, 11 },      /* one band row, zoomed twice */
    };
    struct app a;
    int multi = 0;
    table_make();
    for (size_t i = 0; i < sizeof G / sizeof G[0]; i++) {
        app_table(&a, &tab, G[i].pos);
        a.heat.zoom = G[i].zoom;
        check_columns(&a, G[i].cols, G[i].pix, G[i].zoom == 0);
        multi += check_table_cells(&a, G[i].cols, G[i].pix);
    }
    CHECK(multi > 0);
    /* by hand: 40 rows over 13 columns, column c holds [40 c / 13,
     * 40 (c + 1) / 13); column 0, dim 0 is the mean of 0, 0.1, 0.2,
     * column 2, [6, 9), dim 1 that of 0.6 .. 0.8 minus 1, and column 12,
     * [36, 40), dim 0 that of 3.6 .. 3.9 */
    app_table(&a, &tab, 0);
    int64_t p0, p1;
    CHECK(heatmap_col_range(&a, 0, 13, 12, &p0, &p1) == 0);
    CHECK(p0 == 0 && p1 == 3);
    CHECK(heatmap_pixel_dim(&a, 0, 13, 12) == 0);
    CHECK_NEAR(heatmap_cell_value(&a, 0, 0, 13, 12), 0.1, 1e-12);
    CHECK(heatmap_col_range(&a, 2, 13, 12, &p0, &p1) == 0);
    CHECK(p0 == 6 && p1 == 9);
    CHECK(heatmap_pixel_dim(&a, 2, 13, 12) == 1);
    CHECK_NEAR(heatmap_cell_value(&a, 2, 2, 13, 12), 0.7 - 1, 1e-12);
    CHECK(heatmap_col_range(&a, 12, 13, 12, &p0, &p1) == 0);
    CHECK(p0 == 36 && p1 == 40);
    CHECK_NEAR(heatmap_cell_value(&a, 12, 0, 13, 12), 3.75, 1e-12);

    /* two geometries in turn: a result kept from one never leaks into
     * the other */
    int bad = 0;
    for (int col = 0; col < 13; col++)
        for (int py = 0; py < 12; py++) {
            int64_t q0, q1, r0, r1;
            if (heatmap_col_range(&a, col, 13, 12, &q0, &q1) ||
                heatmap_col_range(&a, col, 30, 12, &r0, &r1))
                continue;
            int d13 = heatmap_pixel_dim(&a, py, 13, 12);
            int d30 = heatmap_pixel_dim(&a, py, 30, 12);
            bad += fabs(heatmap_cell_value(&a, col, py, 13, 12) -
                        table_brute(&tab, q0, q1, d13)) > 1e-12;
            bad += fabs(heatmap_cell_value(&a, col, py, 30, 12) -
                        table_brute(&tab, r0, r1, d30)) > 1e-12;
        }
    CHECK(bad == 0);
    /* zoomed in, 20 columns hold 1 position each instead of 2: the same
     * window start and column count, only the positions per column differ */
    bad = 0;
    a.p.pos = 5;
    for (int col = 0; col < 20; col++)
        for (int zoom = 0; zoom <= 1; zoom++) {
            int64_t q0, q1;
            a.heat.zoom = zoom;
            CHECK(heatmap_col_range(&a, col, 20, 6, &q0, &q1) == 0);
            CHECK(q1 - q0 == 2 - zoom);
            bad += fabs(heatmap_cell_value(&a, col, 0, 20, 6) -
                        table_brute(&tab, q0, q1, 0)) > 1e-12;
        }
    CHECK(bad == 0);
}

/* A large table (2^21 values): still the plain mean of every column. */
static void test_table_large(void)
{
    struct pe_table big = { 4096, 512, NULL };
    big.v = malloc((size_t)big.n * (size_t)big.d * sizeof *big.v);
    CHECK(big.v != NULL);
    if (!big.v)
        return;
    for (int64_t i = 0; i < big.n * big.d; i++)
        big.v[i] = sin((double)i * 0.37) * 3 + (double)(i % 7) * 0.01;
    struct app a;
    app_table(&a, &big, 1000);
    CHECK(check_table_cells(&a, 106, 64) > 0);     /* 39 positions a column */
    a.heat.zoom = 3;
    a.heat.dim = 300;
    CHECK(check_table_cells(&a, 70, 30) > 0);
    /* zoomed in fully, 5 band rows or 8: only the rows shown differ */
    a.heat.zoom = 9;
    a.heat.dim = 0;
    int bad = 0, seen = 0;
    for (int col = 0; col < 70; col += 3)
        for (int py = 0; py < 16; py++)
            for (int npix = 10; npix <= 16; npix += 6) {
                int64_t p0, p1;
                int dim = heatmap_pixel_dim(&a, py, 70, npix);
                if (dim < 0 || heatmap_col_range(&a, col, 70, npix, &p0, &p1))
                    continue;
                bad += fabs(heatmap_cell_value(&a, col, py, 70, npix) -
                            table_brute(&big, p0, p1, dim)) > 1e-12;
                seen++;
            }
    CHECK(seen > 100);
    CHECK(bad == 0);
    free(big.v);
}

/* The colour scale is +-max|v| of the table, and the legend says so. */
static void test_table_scale(void)
{
    struct app a;
    table_make();
    app_table(&a, &tab, 0);
    CHECK_NEAR(heatmap_scale(&a), 5.0, 0);
    CHECK(frame_has(&a, 80, 24, "-5.000 "));
    CHECK(frame_has(&a, 80, 24, " +5.000 value in mem-table.csv"));
    char *t = frame_text(&a, 80, 24);
    CHECK(t && !strstr(t, "sin/cos") && !strstr(t, " +1 ") &&
          !strstr(t, "-1 "));
    free(t);

    /* a positive-only table: the scale still centres 0 */
    static double pos_v[3 * 2] = { 0.5, 1.0, 2.0, 4.25, 3.0, 1.5 };
    struct pe_table pos_tab = { 3, 2, pos_v };
    app_table(&a, &pos_tab, 0);
    CHECK_NEAR(heatmap_scale(&a), 4.25, 0);
    CHECK(frame_has(&a, 80, 24, "-4.250 "));
    CHECK(frame_has(&a, 80, 24, " +4.250 value in mem-table.csv"));
    /* all zeros: a scale of 1, no division by 0 */
    static double zero_v[4] = { 0, 0, 0, 0 };
    struct pe_table zero_tab = { 2, 2, zero_v };
    app_table(&a, &zero_tab, 0);
    CHECK_NEAR(heatmap_scale(&a), 1.0, 0);
    CHECK(frame_has(&a, 80, 24, " +1.000 "));
    /* sinusoids keep their fixed [-1, 1] */
    app_with(&a, 64, 10000, 128, 0);
    CHECK_NEAR(heatmap_scale(&a), 1.0, 0);

    /* each pixel has the colour of its mean over the scale */
    static const int S[][2] = { { 80, 24 }, { 40, 12 }, { 160, 48 } };
    for (size_t i = 0; i < sizeof S / sizeof S[0]; i++) {
        canvas c;
        int mx, my, cols, rows, bad = 0, seen = 0;
        app_table(&a, &tab, 37);
        CHECK(canvas_init(&c, S[i][0], S[i][1]) == 0);
        frame_draw(&a, &c);
        heatmap_map_rect(&a, S[i][0], S[i][1] - 1, &mx, &my, &cols, &rows);
        for (int col = 0; col < cols; col++)
            for (int py = 0; py < 2 * rows; py++) {
                double v = heatmap_cell_value(&a, col, py, cols, 2 * rows);
                const cell *k = canvas_at(&c, mx + col, my + py / 2);
                if (isnan(v) || k->kind != CELL_HALF)
                    continue;
                rgb got = py % 2 ? k->bg : k->fg;
                bad += got != cmap_diverging(a.palette, v / 5.0);
                seen++;
            }
        CHECK(seen > 0);
        CHECK(bad == 0);
        canvas_free(&c);
    }
}

/* The inspector reads the table: no formula, no band, no wavelength. */
static void test_table_inspector(void)
{
    struct app a;
    char want[96];
    table_make();
    app_table(&a, &tab, 37);
    a.heat.dim = 5;
    CHECK(frame_has(&a, 80, 24, "table[37, 5] = -1.300"));
    snprintf(want, sizeof want, "table[37, 5] = %.3f", tab_v[37 * 6 + 5]);
    CHECK_STR(want, "table[37, 5] = -1.300");
    a.heat.dim = 0;
    snprintf(want, sizeof want, "table[37, 0] = %.3f", tab_v[37 * 6]);
    CHECK(frame_has(&a, 80, 24, want));
    char *t = frame_text(&a, 160, 48);
    CHECK(t && !strstr(t, "PE(") && !strstr(t, "sin(") &&
          !strstr(t, "band i=") && !strstr(t, "omega") &&
          !strstr(t, "wavelength") && !strstr(t, "\xce\xbb") &&
          !strstr(t, "column pos"));      /* 1 position a column here */
    CHECK(t && strstr(t, "\nd0 ") && strstr(t, "\nd5 "));  /* bare labels */
    free(t);

    /* 40 columns wide: 40 rows over a map of 36 columns, column c
     * holding [40 c / 36, 40 (c + 1) / 36); 37 alone in column 34, and
     * 29 in column 26, [28, 30), with the column's mean */
    a.heat.dim = 5;
    CHECK(frame_has(&a, 40, 12, "table[37, 5] = -1.300"));
    t = frame_text(&a, 40, 12);
    CHECK(t && !strstr(t, "column pos"));
    free(t);
    a.p.pos = 29;
    snprintf(want, sizeof want, "column pos 28-29: mean %.3f",
             table_brute(&tab, 28, 30, 5));
    CHECK_STR(want, "column pos 28-29: mean -2.150");
    CHECK(frame_has(&a, 40, 12, "table[29, 5] = -2.100"));
    CHECK(frame_has(&a, 40, 12, want));
    a.heat.dim = 0;
    snprintf(want, sizeof want, "column pos 28-29: mean %.3f",
             table_brute(&tab, 28, 30, 0));
    CHECK(frame_has(&a, 40, 12, want));     /* 2.850: 4 significant digits */
    CHECK(frame_has(&a, 40, 12, "table[29, 0] = 2.900"));
}

/* Where the values come from, and back to sinusoids when the parameters
 * leave the table's shape. */
static void test_table_hint(void)
{
    struct app a;
    char row[1024];
    canvas c;
    table_make();
    app_table(&a, &tab, 37);
    CHECK(canvas_init(&c, 160, 48) == 0);
    frame_draw(&a, &c);
    canvas_row_utf8(&c, 47, row, sizeof row);
    CHECK(strstr(row, "table 40x6 from mem-table.csv, 1 pos = 3-4 cols") !=
          NULL);                            /* 40 rows on 146 columns */
    canvas_free(&c);
    /* 80 wide: the column count stays; the legend names the file */
    CHECK(canvas_init(&c, 80, 24) == 0);
    frame_draw(&a, &c);
    canvas_row_utf8(&c, 23, row, sizeof row);
    CHECK(strstr(row, "1 pos = 1-2 cols") != NULL);  /* 40 on 66 */
    CHECK(frame_has(&a, 80, 24, "value in mem-table.csv"));
    canvas_free(&c);
    /* a file name is text from outside: no control code reaches a cell */
    a.pe_file_name = "dir/ev\033]0;pwned\007\r\bil.csv";
    for (int w = 80; w <= 200; w += 120) {
        char *t = frame_text(&a, w, 24);
        CHECK(t && strstr(t, "il.csv") && !strchr(t, '\033') &&
              !strchr(t, '\a') && !strchr(t, '\r') && !strchr(t, '\b'));
        free(t);
    }
    /* no file name known: the table is still named as such */
    a.pe_file_name = NULL;
    CHECK(frame_has(&a, 160, 48, "table 40x6 from --pe-file"));
    CHECK(frame_has(&a, 80, 24, " +5.000 table value"));

    /* D: d_model 12, not the table's 6: sinusoids, and the hint says why */
    app_table(&a, &tab, 37);
    CHECK(app_key(&a, 'D') != ACT_NONE && a.p.d == 12);
    CHECK(frame_has(&a, 160, 48, "table 40x6 not shown: needs d_model=6"));
    CHECK(frame_has(&a, 160, 48, "PE(37, 0) = sin("));
    CHECK(frame_has(&a, 160, 48, " +1 sin/cos value"));
    CHECK_NEAR(heatmap_scale(&a), 1.0, 0);
    check_cells(&a, 66, 34);                 /* brute-force sinusoid means */
    CHECK(app_key(&a, 'd') != ACT_NONE && a.p.d == 6);
    CHECK(frame_has(&a, 160, 48, "table[37, 0] = 3.700"));
    /* N: more positions than the table has rows: those are missing,
     * blank cells and an inspector that says so, never invented values */
    CHECK(app_key(&a, 'N') != ACT_NONE && a.p.n == 80);
    CHECK(frame_has(&a, 160, 48, "table 40x6 from mem-table.csv, "
                    "\xe2\x95\xb1 no row from 40"));
    CHECK(frame_has(&a, 160, 48, "\xe2\x95\xb1 no row\n"));  /* legend */
    a.ascii = 1;        /* the mark fills the missing columns, no colour */
    enum color_mode was = a.color;
    a.color = COLOR_NONE;
    char *fm = frame_text(&a, 160, 48);
    CHECK(fm && strstr(fm, "//////////") && strstr(fm, "/ no row from 40"));
    free(fm);
    a.ascii = 0;
    a.color = was;
    CHECK(isnan(heatmap_cell_value(&a, 150, 0, 160, 68)));
    CHECK_NEAR(heatmap_cell_value(&a, 0, 0, 160, 68), tab_v[0], 1e-12);
    a.p.pos = 60;
    CHECK(frame_has(&a, 160, 48, "table[60, 0]: missing, the table has rows "
                    "0..39 only"));
    char *ft = frame_text(&a, 160, 48);
    CHECK(ft && !strstr(ft, "nan") && !strstr(ft, "inf"));
    free(ft);
    a.p.pos = 37;
    CHECK(app_key(&a, 'n') != ACT_NONE && a.p.n == 40);
    check_table_cells(&a, 66, 34);
    /* n below the table's rows: its first n rows */
    CHECK(app_key(&a, 'n') != ACT_NONE && a.p.n == 20);
    CHECK(frame_has(&a, 160, 48, "table 40x6 from mem-table.csv"));
    check_table_cells(&a, 13, 12);
}

/* A sweep step over a table redraws the marks, never the map. */
static void test_table_sweep(void)
{
    struct app a;
    canvas c1;
    table_make();
    app_table(&a, &tab, 10);
    check_sweep_step(&a, 40, 12, 2);    /* the next column: 2 per column */
    /* ASCII: still 7-bit only */
    app_table(&a, &tab, 10);
    a.ascii = 1;
    CHECK(canvas_init(&c1, 120, 40) == 0);
    frame_draw(&a, &c1);
    int bad = 0;
    for (int y = 0; y < c1.h; y++)
        for (int x = 0; x < c1.w; x++) {
            cell r = canvas_resolve(canvas_at(&c1, x, y), 1, COLOR_256);
            bad += r.ch >= 0x80 || r.ch < 0x20;
        }
    CHECK(bad == 0);
    CHECK(frame_has(&a, 120, 40, "(even row above odd row)"));
    canvas_free(&c1);
}

/* ---- the map fills its width; ticks name their columns' positions ---- */

/* The number in row y that covers column x, its first column in *x0 and
 * one past its last in *x1; -1 when x is not a digit. */
static long long number_at(const canvas *c, int x, int y, int *x0, int *x1)
{
    uint32_t ch = canvas_at(c, x, y)->ch;
    if (ch < '0' || ch > '9')
        return -1;
    *x0 = x;
    while (*x0 > 0 && canvas_at(c, *x0 - 1, y)->ch >= '0' &&
           canvas_at(c, *x0 - 1, y)->ch <= '9')
        --*x0;
    long long v = 0;
    for (*x1 = *x0; *x1 < c->w && canvas_at(c, *x1, y)->ch >= '0' &&
                    canvas_at(c, *x1, y)->ch <= '9'; ++*x1)
        v = v * 10 + (canvas_at(c, *x1, y)->ch - '0');
    return v;
}

static void check_fill(int64_t n, int d, int w, int h, int zoom)
{
    struct app a;
    canvas c;
    int mx, my, cols, rows, ticks = 0, halves = 0, bad = 0, ruler = -1;
    app_with(&a, d, 10000, n, n / 3);
    a.screen_w = w;
    a.screen_h = h;
    a.heat.zoom = zoom;
    CHECK(canvas_init(&c, w, h) == 0);
    frame_draw(&a, &c);
    heatmap_map_rect(&a, w, h - 1, &mx, &my, &cols, &rows);
    /* every column of the map is drawn, to the right edge */
    for (int col = 0; col < cols; col++)
        halves += canvas_at(&c, mx + col, my + 1)->kind == CELL_HALF;
    CHECK(mx + cols == w);
    CHECK(halves == cols);
    for (int y = my + 1; y < h && ruler < 0; y++)     /* below the map */
        for (int x = mx; x < w && ruler < 0; x++)
            if (canvas_at(&c, x, y)->ch == 0x2534)
                ruler = y;
    CHECK(ruler > 0);
    /* each tick's label is whole, inside the map, and its number is a
     * position of the tick's column */
    for (int x = mx; ruler > 0 && x < w; x++) {
        int64_t p0, p1;
        int x0, x1;
        if (canvas_at(&c, x, ruler)->ch != 0x2534)
            continue;
        long long v = number_at(&c, x, ruler + 1, &x0, &x1);
        if (v < 0)      /* the last label ends at its tick */
            v = number_at(&c, x - 1, ruler + 1, &x0, &x1);
        ticks++;
        CHECK(heatmap_col_range(&a, x - mx, cols, 2 * rows, &p0, &p1) == 0);
        if (v < p0 || v >= p1 || x0 < mx || x1 > w) {
            bad++;
            fprintf(stderr, "  %lldx%d %dx%d: tick at col %d labelled %lld, "
                    "holds %lld..%lld\n", (long long)n, d, w, h, x - mx, v,
                    (long long)p0, (long long)(p1 - 1));
        }
    }
    CHECK(ticks >= 3);
    CHECK(bad == 0);
    canvas_free(&c);
}

/* The inspector's column mean at 160x48: the column holding pos (one or
 * two of 256 positions over the map's C columns) and the mean of their
 * exported values, to its four printed digits. */
static void test_column_readout(void)
{
    struct app a;
    int checked = 0, single = 0, mx, my, C, rows;
    for (int64_t pos = 0; pos < 256; pos += 5) {
        app_with(&a, 64, 10000, 256, pos);
        a.heat.dim = 6;
        heatmap_map_rect(&a, 160, 47, &mx, &my, &C, &rows);
        char *t = frame_text(&a, 160, 48);
        const char *m = t ? strstr(t, "column pos ") : NULL;
        long long p0, p1;
        double v;
        /* the cell of pos: the last c with floor(c 128 / C) <= pos */
        int64_t c = ((pos + 1) * C - 1) / 256;
        int64_t w0 = c * 256 / C, w1 = (c + 1) * 256 / C;
        CHECK(w0 <= pos && pos < w1);
        if (w1 - w0 < 2) {                  /* one position: no line */
            CHECK(m == NULL);
            single++;
        } else if (m && sscanf(m, "column pos %lld-%lld: mean %lf", &p0,
                               &p1, &v) == 3) {
            double want = brute_mean(w0, w1, 6, 64, 10000);
            CHECK(p0 == w0 && p1 == w1 - 1);
            CHECK(fabs(v - want) <= 5e-4 * fmax(fabs(want), 1e-3));
            checked++;
        } else {
            CHECK(m != NULL);
        }
        free(t);
    }
    CHECK(C == 146 && checked >= 3 && single >= 3);
}

static void test_fills_width(void)
{
    /* 120x30: 128 positions on all 106 columns (not 64 of them) */
    check_fill(128, 64, 120, 30, 0);
    check_fill(128, 64, 80, 24, 0);
    check_fill(128, 64, 160, 48, 0);
    check_fill(4096, 512, 120, 30, 0);
    check_fill(4096, 512, 120, 30, 3);      /* a page of 512 */
    check_fill(100000, 64, 160, 48, 5);
    check_fill(40, 8, 160, 48, 0);          /* positions drawn wide */
}

int main(void)
{
    test_inspector();
    test_cells_are_means();
    test_rows();
    test_picture();
    test_keys();
    test_fills_width();
    test_fills_height();
    test_column_readout();
    test_every_dim_reachable();
    test_sweep_follows();
    test_status_line();
    test_too_small();
    test_help_and_prompt();
    test_sweep_changes_little();
    test_ascii();
    test_large();
    test_table_cells();
    test_table_large();
    test_table_scale();
    test_table_inspector();
    test_table_hint();
    test_table_sweep();
    TEST_END("test_heatmap");
}
