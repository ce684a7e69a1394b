/*
 * test_heatmap.c - the heatmap view and the frame around it, checked
 * against the formula: what a cell shows is the brute-force mean of PE
 * over the positions its column holds, the inspector prints PE(pos, dim)
 * computed here independently, the keys reach every dimension, and the
 * frame copes with any size.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "app.h"
#include "views/heatmap.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---- helpers ----------------------------------------------------------- */

/* Row y of the canvas as UTF-8 (cells as written). */
static void row_text(const canvas *c, int y, char *buf, size_t len)
{
    size_t n = 0;
    for (int x = 0; x < c->w; x++) {
        const cell *k = canvas_at(c, x, y);
        char u[8];
        if (k->kind == CELL_WIDE_TAIL)
            continue;
        int l = utf8_encode(k->ch, u);
        if (n + (size_t)l + 1 >= len)
            break;
        memcpy(buf + n, u, (size_t)l);
        n += (size_t)l;
    }
    buf[n] = 0;
}

/* The whole frame of a at w x h as text, rows joined by '\n'. */
static char *frame_text(const struct app *a, int w, int h)
{
    canvas c;
    if (canvas_init(&c, w, h))
        return NULL;
    frame_draw(a, &c);
    size_t len = (size_t)h * ((size_t)w * 4 + 1) + 1, n = 0;
    char *out = malloc(len), *row = malloc((size_t)w * 4 + 1);
    for (int y = 0; y < h && out && row; y++) {
        row_text(&c, y, row, (size_t)w * 4 + 1);
        n += (size_t)snprintf(out + n, len - n, "%s\n", row);
    }
    free(row);
    canvas_free(&c);
    return out;
}

static int frame_has(const struct app *a, int w, int h, const char *needle)
{
    char *t = frame_text(a, w, h);
    int found = t && strstr(t, needle) != NULL;
    if (!found)
        fprintf(stderr, "frame %dx%d lacks \"%s\":\n%s", w, h, needle,
                t ? t : "(null)");
    free(t);
    return found;
}

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
    /* a column of 2 positions at 80x24 is their mean, not one of them */
    app_with(&a, 64, 10000, 128, 0);
    int64_t p0, p1;
    CHECK(heatmap_col_range(&a, 3, 66, 34, &p0, &p1) == 0);
    CHECK(p0 == 6 && p1 == 8);
    CHECK_NEAR(heatmap_cell_value(&a, 3, 0, 66, 34),
               (sin(6.0) + sin(7.0)) / 2, 1e-12);
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
    CHECK(rows_of[0] == 8 && rows_of[3] == 8);  /* 17 rows: 8 pixels each */
}

/* ---- keys --------------------------------------------------------------- */

static void test_keys(void)
{
    struct app a;
    app_with(&a, 64, 10000, 128, 10);
    const struct view *v = VIEWS[VIEW_HEATMAP];
    CHECK(v->key(&a, PK_RIGHT) == 1);
    CHECK(a.p.pos == 12);               /* one column = 2 positions */
    CHECK(v->key(&a, 'h') == 1 && a.p.pos == 10);
    CHECK(v->key(&a, PK_END) == 1 && a.p.pos == 127);
    CHECK(v->key(&a, PK_HOME) == 1 && a.p.pos == 0);
    CHECK(v->key(&a, 'd') == 0);        /* left to the global table */
    CHECK(v->key(&a, ' ') == 0);

    /* zooming in halves the span around the cursor: 1 position a column */
    a.p.pos = 100;
    CHECK(v->key(&a, '+') == 1 && a.heat.zoom == 1);
    CHECK(v->key(&a, 'l') == 1 && a.p.pos == 101);
    int64_t p0, p1, col;
    for (col = 0; col < 66; col++)
        if (heatmap_col_range(&a, (int)col, 66, 34, &p0, &p1) == 0 &&
            p0 <= a.p.pos && a.p.pos < p1)
            break;
    CHECK(col < 66);                    /* the cursor stays in view */
    CHECK(v->key(&a, '-') == 1 && a.heat.zoom == 0);
    CHECK(v->key(&a, '-') == 1 && a.heat.zoom == 0 && a.msg[0]);
}

/* Zoomed all the way in, Down visits every dimension one by one. */
static void test_every_dim_reachable(void)
{
    struct app a;
    const struct view *v = VIEWS[VIEW_HEATMAP];
    app_with(&a, 512, 10000, 4096, 0);
    for (int i = 0; i < 40; i++)
        v->key(&a, '+');
    int ok = 1;
    for (int dim = 1; dim < 512 && ok; dim++) {
        v->key(&a, 'j');
        ok = a.heat.dim == dim;
        int seen = 0;
        for (int py = 0; py < 34 && !seen; py++)
            seen = heatmap_pixel_dim(&a, py, 66, 34) == dim;
        ok = ok && seen;
        if (!ok)
            fprintf(stderr, "dimension %d not reached or not shown\n", dim);
    }
    CHECK(ok);
    CHECK(v->key(&a, 'j') == 1 && a.heat.dim == 511);   /* stays at the end */
    CHECK(v->key(&a, 'K') == 1 && a.heat.dim < 511);
}

/* The sweep moves pos past the window: the window pages along with it. */
static void test_sweep_follows(void)
{
    struct app a;
    app_with(&a, 64, 10000, 4096, 0);
    const struct view *v = VIEWS[VIEW_HEATMAP];
    for (int i = 0; i < 4; i++)
        v->key(&a, '+');
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
    row_text(&c, 23, row, sizeof row);
    CHECK(strstr(row, "PE heatmap") != NULL);
    CHECK(strstr(row, "d_model=64 base=10000 n=128 pos=0") != NULL);
    CHECK(strstr(row, "1 col = 2 pos") != NULL);
    CHECK(strstr(row, "every 2nd band") != NULL);
    /* an error message shows; parts that no longer fit go whole */
    app_msg(&a, 1, "base 1: must be a finite number > 1");
    frame_draw(&a, &c);
    row_text(&c, 23, row, sizeof row);
    CHECK(strstr(row, "base 1: must be a finite number > 1") != NULL);
    CHECK(strstr(row, "d_model=64") != NULL);
    CHECK(strstr(row, "1 col = 2") == NULL || strstr(row, "2 pos") != NULL);
    canvas_free(&c);
    /* narrow: never a word cut in half */
    CHECK(canvas_init(&c, 30, 10) == 0);
    frame_draw(&a, &c);
    row_text(&c, 9, row, sizeof row);
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

/* A sweep step redraws only what moves: the cursor marks, the inspector
 * and the status line, never the map (bytes on a classroom link). */
static void test_sweep_changes_little(void)
{
    struct app a;
    canvas c1, c2;
    app_with(&a, 64, 10000, 4096, 1000);
    CHECK(canvas_init(&c1, 80, 24) == 0 && canvas_init(&c2, 80, 24) == 0);
    frame_draw(&a, &c1);
    a.p.pos += 63;                      /* the next column: 63 per column */
    frame_draw(&a, &c2);
    int moved = 0, other = 0;
    for (int y = 0; y < 24; y++)
        for (int x = 0; x < 80; x++) {
            const cell *p = canvas_at(&c1, x, y), *q = canvas_at(&c2, x, y);
            if (memcmp(p, q, sizeof *p) == 0)
                continue;
            if (y <= 1 || y == 23)      /* inspector and status line */
                moved++;
            else
                other++;
        }
    CHECK(moved > 0);
    CHECK(other > 0 && other <= 6);     /* column mark and cursor cell */
    canvas_free(&c1);
    canvas_free(&c2);
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

int main(void)
{
    test_inspector();
    test_cells_are_means();
    test_rows();
    test_picture();
    test_keys();
    test_every_dim_reachable();
    test_sweep_follows();
    test_status_line();
    test_too_small();
    test_help_and_prompt();
    test_sweep_changes_little();
    test_ascii();
    test_large();
    TEST_END("test_heatmap");
}
