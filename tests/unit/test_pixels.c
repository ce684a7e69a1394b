/* SPDX-License-Identifier: ISC */
/*
 * test_pixels.c - frames as pixels: the PNG of a heatmap frame decoded
 * here (png_decode.h) and its data area compared, at sampled pixels,
 * with the colour map of PE means computed here by brute force over the
 * positions each pixel column holds; and the shapes drawn for text,
 * half blocks, braille and box drawing checked pixel by pixel.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "face_check.h"
#include "png_decode.h"
#include "app.h"
#include "colormap.h"
#include "areas.h"
#include "font.h"
#include "frame.h"
#include "frame_image.h"
#include "png_out.h"
#include "views/clocks.h"
#include "views/heatmap.h"

#define CW 8
#define CH 16

static void app_with(struct app *a, int d, double base, int64_t n,
                     int W, int H)
{
    app_init(a);
    a->p.d = d;
    a->p.base = base;
    a->p.n = n;
    a->p.pos = n / 3;
    a->color = COLOR_TRUE;
    a->screen_w = W;
    a->screen_h = H;
}

/* Frame of a as a PNG, decoded: 0 with *px (RGB, free it), or -1. */
static int frame_png(const struct app *a, canvas *cv, int W, int H,
                     uint8_t **px, int *w, int *h)
{
    struct image im;
    uint8_t *buf;
    size_t len;
    if (canvas_init(cv, W, H))
        return -1;
    frame_draw_finished(a, cv);
    if (frame_image(a, cv, CW, CH, 1, &im))
        return -1;
    int r = png_encode(&im, &buf, &len);
    image_free(&im);
    if (r)
        return -1;
    r = png_decode(buf, len, w, h, px);
    free(buf);
    return r;
}

static int color_close(const uint8_t *p, rgb want)
{
    return abs(p[0] - (int)(want >> 16 & 0xFF)) <= 2 &&
           abs(p[1] - (int)(want >> 8 & 0xFF)) <= 2 &&
           abs(p[2] - (int)(want & 0xFF)) <= 2;
}

/* PE(q, dim) averaged over q in [q0, q1), one term at a time. */
static double brute_mean(int64_t q0, int64_t q1, int dim, int d, double base)
{
    double w = pow(base, -(double)(dim / 2 * 2) / d), s = 0;
    for (int64_t q = q0; q < q1; q++)
        s += dim % 2 ? cos((double)q * w) : sin((double)q * w);
    return s / (double)(q1 - q0);
}

/*
 * Every 3rd pixel column and 5th pixel row of the map: the colour of the
 * brute-force mean over the pixel's share of its column's positions
 * (split evenly over the cell's CW pixels).  Returns pixels checked;
 * *distinct counts horizontally adjacent sampled pairs that differ.
 */
static int check_map_rows(const struct app *a, int W, int H, int ystep,
                          int *distinct, int *rows_of)
{
    canvas cv;
    uint8_t *px;
    int w, h, vw, vh, mx, my, cols, rows, checked = 0, bad = 0;
    if (frame_png(a, &cv, W, H, &px, &w, &h)) {
        CHECK(!"frame as PNG");
        return 0;
    }
    CHECK(w == W * CW && h == H * CH);
    areas_view_size(a, W, H, &vw, &vh);
    heatmap_map_rect(a, vw, vh, &mx, &my, &cols, &rows);
    *distinct = 0;
    for (int y = my * CH; y < (my + rows) * CH; y += ystep) {
        int dim = heatmap_image_dim(a, y - my * CH, CH, cols, 2 * rows);
        if (rows_of && dim >= 0 && dim < a->p.d)
            rows_of[dim]++;
        for (int x = mx * CW; x < (mx + cols) * CW; x += 3) {
            int col = x / CW - mx;
            int64_t p0, p1;
            const cell *k = canvas_at(&cv, x / CW, y / CH);
            if (k->kind != CELL_HALF || dim < 0 ||
                heatmap_col_range(a, col, cols, 2 * rows, &p0, &p1))
                continue;
            int i = x % CW;
            int64_t q0 = p0 + (p1 - p0) * i / CW, q1 = p0 + (p1 - p0) * (i + 1) / CW;
            if (q1 <= q0)
                q1 = q0 + 1;
            double v = brute_mean(q0, q1, dim, a->p.d, a->p.base);
            const uint8_t *p = px + ((size_t)y * (size_t)w + (size_t)x) * 3;
            if (!color_close(p, cmap_diverging(a->palette, v)) && bad++ < 3)
                fprintf(stderr, "pixel (%d, %d) dim %d pos %lld..%lld: "
                        "%02x%02x%02x, want %06x\n", x, y, dim, (long long)q0,
                        (long long)q1, p[0], p[1], p[2],
                        (unsigned)cmap_diverging(a->palette, v));
            if (x + 3 < (mx + cols) * CW && memcmp(p, p + 9, 3))
                (*distinct)++;
            checked++;
        }
    }
    CHECK(bad == 0);
    free(px);
    canvas_free(&cv);
    return checked;
}

static int check_map(const struct app *a, int W, int H, int *distinct)
{
    return check_map_rows(a, W, H, 5, distinct, NULL);
}

/*
 * Pixel rows per dimension: where the image's rows hold them all, every
 * dimension gets rows of its own, in order, each row's colours those of
 * its dimension (d 40 at 80x24: the cells show 17 of 20 bands, the 272
 * pixel rows all 40 dimensions); the first row of each cell row's band
 * is the dimension its cell row shows.
 */
static void test_heatmap_png_dims(void)
{
    static const struct { int d; int64_t n; int w, h; } T[] = {
        { 40, 257, 80, 24 }, { 64, 128, 80, 24 }, { 128, 1000, 120, 40 },
    };
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        struct app a;
        int distinct, rows_of[128] = { 0 }, none = 0, vw, vh, mx, my, cols;
        int rows, prev = -1, order = 1, cells_agree = 1;
        app_with(&a, T[i].d, 10000, T[i].n, T[i].w, T[i].h);
        a.p.pos = 0;
        CHECK(check_map_rows(&a, T[i].w, T[i].h, 1, &distinct, rows_of) > 0);
        for (int dim = 0; dim < T[i].d; dim++)
            none += rows_of[dim] == 0;
        CHECK(none == 0);
        areas_view_size(&a, T[i].w, T[i].h, &vw, &vh);
        heatmap_map_rect(&a, vw, vh, &mx, &my, &cols, &rows);
        for (int y = 0; y < rows * CH; y++) {
            int dim = heatmap_image_dim(&a, y, CH, cols, 2 * rows);
            order &= dim >= prev;
            prev = dim;
        }
        for (int r = 0; r < rows; r++) {
            int cd = heatmap_pixel_dim(&a, 2 * r, cols, 2 * rows);
            int up = heatmap_pixel_dim(&a, 2 * r - 1, cols, 2 * rows);
            if (cd >= 0 && cd % 2 == 0 && cd != up)   /* a band starts */
                cells_agree &= heatmap_image_dim(&a, r * CH, CH, cols,
                                                 2 * rows) == cd;
        }
        CHECK(order && cells_agree);
    }
}

static void test_heatmap_png(void)
{
    struct app a;
    int distinct;
    /* 1024 positions over about 130 columns: one position per pixel */
    app_with(&a, 64, 10000, 1024, 160, 48);
    CHECK(check_map(&a, 160, 48, &distinct) > 2000);
    CHECK(distinct > 1000);
    /* 40000: each pixel is the exact mean of several positions */
    app_with(&a, 128, 10000, 40000, 160, 48);
    CHECK(check_map(&a, 160, 48, &distinct) > 2000);
    /* fewer positions than pixels: one position spans several */
    app_with(&a, 16, 100, 50, 120, 30);
    CHECK(check_map(&a, 120, 30, &distinct) > 500);
    /* zoomed in, in another palette */
    app_with(&a, 64, 500000, 100000, 100, 40);
    a.heat.zoom = 3;
    a.palette = PAL_CONTRAST;
    CHECK(check_map(&a, 100, 40, &distinct) > 500);
}

/* ---- shapes of one cell -------------------------------------------------- */

static rgb cell_px(const cell *k, int x, int y)
{
    struct image im;
    if (image_init(&im, CW, CH))
        return 0xFFFFFFFF;
    raster_cell(&im, 0, 0, CW, CH, k);
    rgb v = image_get(&im, x, y);
    image_free(&im);
    return v;
}

static cell mk(uint32_t ch, int kind)
{
    cell k = { ch, RGB(255, 0, 0), RGB(0, 0, 255), 0, (uint8_t)kind,
               LEVEL_NONE, LEVEL_NONE };
    return k;
}

static void test_shapes(void)
{
    const rgb FG = RGB(255, 0, 0), BG = RGB(0, 0, 255);
    cell k = mk(0x2580, CELL_HALF);          /* upper half: fg over bg */
    CHECK(cell_px(&k, 3, 0) == FG && cell_px(&k, 3, CH / 2 - 1) == FG);
    CHECK(cell_px(&k, 3, CH / 2) == BG && cell_px(&k, 7, CH - 1) == BG);
    k = mk(0x2584, CELL_TEXT);               /* lower half */
    CHECK(cell_px(&k, 0, 0) == BG && cell_px(&k, 0, CH - 1) == FG);
    k = mk(0x2801, CELL_BRAILLE);            /* dot 1 only: upper left */
    int top_left = 0, elsewhere = 0;
    for (int y = 0; y < CH; y++)
        for (int x = 0; x < CW; x++)
            if (cell_px(&k, x, y) == FG) {
                if (x < CW / 2 && y < CH / 4)
                    top_left++;
                else
                    elsewhere++;
            }
    CHECK(top_left > 0 && elsewhere == 0);
    k = mk(0x2500, CELL_BOX);                /* ─: across the middle */
    CHECK(cell_px(&k, 0, CH / 2) == FG && cell_px(&k, CW - 1, CH / 2) == FG);
    CHECK(cell_px(&k, CW / 2, 0) == BG && cell_px(&k, CW / 2, CH - 1) == BG);
    k = mk(0x250C, CELL_BOX);                /* ┌: right and down only */
    CHECK(cell_px(&k, CW - 1, CH / 2) == FG && cell_px(&k, CW / 2, CH - 1) == FG);
    CHECK(cell_px(&k, 0, CH / 2) == BG && cell_px(&k, CW / 2, 0) == BG);
    /* 'I' of the font: a bar in the middle column, serifs top and bottom */
    k = mk('I', CELL_TEXT);
    int ink = 0;
    for (int y = 0; y < CH; y++)
        ink += cell_px(&k, (CW - 5) / 2 + 2, y) == FG;  /* font column 2 */
    CHECK(ink >= 12);
    CHECK(cell_px(&k, 0, CH / 2) == BG && cell_px(&k, CW - 1, CH / 2) == BG);
    k = mk(' ', CELL_TEXT);
    CHECK(cell_px(&k, CW / 2, CH / 2) == BG);
    k = mk(0x4E2D, CELL_TEXT);               /* any other glyph: a box */
    ink = 0;
    for (int y = 0; y < CH; y++)
        for (int x = 0; x < CW; x++)
            ink += cell_px(&k, x, y) == FG;
    CHECK(ink > 10);
    /* the letters and signs the screens use draw as themselves, not as
     * the box: omega, lambda, pi, middle dot, degree, times, Sigma,
     * delta, theta, tau, ellipsis, subscript k, arrows, square root */
    static const uint32_t SIGNS[] = { 0x3C9, 0x3BB, 0x3C0, 0xB7, 0xB0, 0xD7,
                                      0x3A3, 0x3B4, 0x3B8, 0x3C4, 0x2026,
                                      0x2096, 0x2192, 0x2193, 0x21BA, 0x221A };
    cell box = mk(0x4E2D, CELL_TEXT);
    for (size_t i = 0; i < sizeof SIGNS / sizeof SIGNS[0]; i++) {
        k = mk(SIGNS[i], CELL_TEXT);
        int differ = 0, lit = 0;
        for (int y = 0; y < CH; y++)
            for (int x = 0; x < CW; x++) {
                differ += cell_px(&k, x, y) != cell_px(&box, x, y);
                lit += cell_px(&k, x, y) == FG;
            }
        if (!differ || !lit)
            fprintf(stderr, "U+%04X drawn as the stand-in box\n", (unsigned)SIGNS[i]);
        CHECK(differ > 0 && lit > 0);
    }
    k = mk('x', CELL_TEXT);                  /* default colours: the theme */
    k.bg = RGB_DEFAULT;
    CHECK(cell_px(&k, 0, 0) == RASTER_BG);
}

/* The hand of the face in the PNG's region (x, y, w, h) of cells: at
 * want within tol rad, measured at two radii. */
static void png_hand(const uint8_t *px, int W, int x, int y, int w, int h,
                     double want, double tol, const char *what)
{
    struct face_img f = { px, W * 3, x * CW, y * CH, w * CW, h * CH };
    double s = (f.w < f.h ? f.w : f.h) / 2.0;
    for (double k = 0.3; k < 0.6; k += 0.2) {
        double got = fc_hand_angle(&f, k * s, want, 0.35, RASTER_FG);
        if (isnan(got) || fabs(fc_diff(got, want)) >= tol)
            fprintf(stderr, "%s: hand at %.4f, want %.4f\n", what, got, want);
        CHECK(!isnan(got) && fabs(fc_diff(got, want)) < tol);
    }
}

/*
 * The clocks frame as a PNG: the big face and every small one are line
 * drawings at full resolution, each hand at pos * base^(-2i/d) of its
 * band, computed here.
 */
static void test_clocks_png(void)
{
    static const int SIZES[2][2] = { { 80, 24 }, { 160, 48 } };
    for (int z = 0; z < 2; z++) {
        struct app a;
        struct clocks_layout l;
        canvas cv;
        uint8_t *px = NULL;
        int W = SIZES[z][0], H = SIZES[z][1], w, h, vw, vh;
        char what[64];
        app_with(&a, 64, 10000, 1024, W, H);
        a.view = VIEW_CLOCKS;
        a.p.pos = 613;
        a.clocks.band = 3;
        CHECK(frame_png(&a, &cv, W, H, &px, &w, &h) == 0);
        areas_view_size(&a, W, H, &vw, &vh);
        clocks_layout(vw, vh, 32, 0, 0, &l);
        CHECK(px && l.mode == CLOCKS_BIG && l.tiles >= 8);
        if (!px) {
            canvas_free(&cv);
            continue;
        }
        double om = pow(10000.0, -2.0 * 3 / 64);
        snprintf(what, sizeof what, "%dx%d big face", W, H);
        png_hand(px, w, 0, 1, 2 * l.face_rows, l.face_rows,
                 fmod(613 * om, 2 * FC_PI), 0.02, what);
        for (int t = 0; t < l.tiles; t++) {
            int band = clocks_tile_band(&a.clocks, 32, l.tiles, t);
            int x = 8 + (t % l.cpr) * l.pitch + (l.pitch - 2 * l.fr) / 2;
            int y = l.table_y + t / l.cpr * (l.block_h + 1);
            snprintf(what, sizeof what, "%dx%d tile %d", W, H, t);
            png_hand(px, w, x, y, 2 * l.fr, l.fr,
                     fmod(613 * pow(10000.0, -2.0 * band / 64), 2 * FC_PI),
                     0.06, what);
        }
        free(px);
        canvas_free(&cv);
    }
}

/* Lower-case letters that do not rise stand on the x-height (rows 0 and
 * 1 blank), so 'g' cannot read as '9', which fills the top row; and no
 * two printable ASCII glyphs are the same picture. */
static void test_font_letters(void)
{
    uint8_t g[FONT_H], nine[FONT_H], o[FONT_H];
    CHECK(font_glyph('g', g) && font_glyph('9', nine) && font_glyph('o', o));
    CHECK(g[0] == 0 && g[1] == 0 && o[0] == 0 && o[1] == 0 && nine[0] != 0);
    int same = 0;
    for (int a = 0x21; a < 0x7f; a++)
        for (int b = a + 1; b < 0x7f; b++) {
            uint8_t ra[FONT_H], rb[FONT_H];
            if (font_glyph((uint32_t)a, ra) && font_glyph((uint32_t)b, rb) &&
                memcmp(ra, rb, sizeof ra) == 0)
                same++;
        }
    CHECK(same == 0);
}

int main(void)
{
    test_heatmap_png();
    test_heatmap_png_dims();
    test_shapes();
    test_clocks_png();
    test_font_letters();
    TEST_END("test_pixels");
}
