/* SPDX-License-Identifier: ISC */
/*
 * test_axis.c - the axis engine (axis.c) against values worked out by
 * hand here: zoom spans and limits, what each cell covers, the window by
 * pages and by scrolling, key steps and the captions; then, over many
 * sizes, that the cells tile the window exactly.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "axis.h"

static void test_span(void)
{
    /* n halved per level, rounded up, never below min(n, min_span) */
    CHECK(axis_span(4096, 0, 8) == 4096);
    CHECK(axis_span(4096, 1, 8) == 2048);
    CHECK(axis_span(4096, 3, 8) == 512);
    CHECK(axis_span(100, 1, 8) == 50);
    CHECK(axis_span(100, 2, 8) == 25);
    CHECK(axis_span(100, 3, 8) == 13);      /* 100 / 8 = 12.5 */
    CHECK(axis_span(100, 4, 8) == 8);       /* 6.25, held at 8 */
    CHECK(axis_span(5, 3, 8) == 5);         /* fewer than min_span */
    CHECK(axis_span(3, 1, 2) == 2);
    CHECK(axis_zoom_max(4096, 8) == 9);     /* 4096 / 2^9 = 8 */
    CHECK(axis_zoom_max(4096, 2) == 11);
    CHECK(axis_zoom_max(100, 8) == 4);      /* 13 > 8, then 8 */
    CHECK(axis_zoom_max(1, 2) == 0);
    CHECK(axis_zoom_max(5, 8) == 0);
    CHECK(axis_zoom_max(INT64_C(1) << 40, 2) == 39);
}

static void test_cells(void)
{
    struct axis ax;
    int64_t p0, p1;
    /* 128 positions on 36 columns: ceil(128/36) = 4 a column, 32 used */
    axis_init(&ax, 128, 0, 8, 36, 0);
    CHECK(ax.k == 4 && ax.m == 1 && ax.vis == 128 && ax.used == 32);
    CHECK(axis_range(&ax, 0, &p0, &p1) == 0 && p0 == 0 && p1 == 4);
    CHECK(axis_range(&ax, 31, &p0, &p1) == 0 && p0 == 124 && p1 == 128);
    CHECK(axis_range(&ax, 32, &p0, &p1) == -1);
    CHECK(axis_cell(&ax, 127) == 31 && axis_cell(&ax, 128) == -1);
    /* 16 positions on 66 columns: one position 4 columns wide */
    axis_init(&ax, 16, 0, 8, 66, 0);
    CHECK(ax.k == 1 && ax.m == 4 && ax.used == 64);
    CHECK(axis_range(&ax, 5, &p0, &p1) == 0 && p0 == 1 && p1 == 2);
    CHECK(axis_cell(&ax, 3) == 12);
    /* square pixels: an even count of pixels a position */
    axis_init(&ax, 16, 0, 2, 40, AXIS_EVEN);
    CHECK(ax.m == 2);
    axis_init(&ax, 13, 0, 2, 40, AXIS_EVEN);
    CHECK(ax.m == 2);                       /* 40 / 13 = 3, made even */
    axis_init(&ax, 40, 0, 2, 40, AXIS_EVEN);
    CHECK(ax.m == 1 && ax.k == 1);          /* 1 stays 1 */
    /* the last cell is cut at n: 10 on 3 cells of 4 */
    axis_init(&ax, 10, 0, 8, 3, 0);
    CHECK(ax.k == 4 && ax.vis == 12 && ax.used == 3);
    CHECK(axis_range(&ax, 2, &p0, &p1) == 0 && p0 == 8 && p1 == 10);
    CHECK(axis_shown(&ax) == 10);
    /* attention at n = 4096 on 28 pixels: 147 positions a pixel */
    axis_init(&ax, 4096, 0, 2, 28, AXIS_EVEN);
    CHECK(ax.k == 147 && ax.vis == 28 * 147 && ax.used == 28);
    /* a zoom deeper than the limit is clamped to it */
    axis_init(&ax, 4096, 40, 8, 80, 0);
    CHECK(ax.zoom == 9 && ax.span == 8 && ax.m == 10);
    /* a caller's span: 7 grid entries on 20 rows, 2 rows each */
    axis_init_span(&ax, 7, 7, 20, 0);
    CHECK(ax.k == 1 && ax.m == 2 && ax.used == 14);
}

static void test_window(void)
{
    struct axis ax;
    /* 1000 positions at zoom 2: a span of 250 on 50 cells of 5 */
    axis_init(&ax, 1000, 2, 8, 50, 0);
    CHECK(ax.span == 250 && ax.k == 5 && ax.vis == 250);
    axis_page(&ax, 0, 600);                 /* the page holding 600 */
    CHECK(ax.x0 == 500 && ax.used == 50);
    axis_page(&ax, 500, 999);               /* the last page ends at n */
    CHECK(ax.x0 == 750);
    axis_page(&ax, 500, 260);               /* one page back */
    CHECK(ax.x0 == 250);
    axis_page(&ax, 123, 130);               /* stored kept, on a cell */
    CHECK(ax.x0 == 120);
    axis_scroll(&ax, 0, 260);               /* just far enough: 265 - 250 */
    CHECK(ax.x0 == 15);
    axis_scroll(&ax, 15, 10);               /* back to the cell of 10 */
    CHECK(ax.x0 == 10);
    axis_scroll(&ax, 900, 990);             /* held at the end */
    CHECK(ax.x0 == 750);
    /* a window cut at n draws fewer cells: 1003 on cells of 5 */
    axis_init(&ax, 1003, 2, 8, 51, 0);
    CHECK(ax.k == 5 && ax.vis == 255);
    axis_page(&ax, 0, 1002);
    CHECK(ax.x0 == 750 && ax.used == 51 && axis_shown(&ax) == 253);
}

static void test_steps_captions(void)
{
    struct axis ax;
    char buf[64];
    axis_init(&ax, 4096, 0, 2, 28, AXIS_EVEN);
    CHECK(axis_step(&ax, 1) == 147 && axis_step(&ax, -1) == -147);
    CHECK(axis_step(&ax, 8) == 1176);
    axis_caption_square(&ax, "px", "pos", buf, sizeof buf);
    CHECK(strcmp(buf, "1 px = 147x147 pos") == 0);
    axis_init(&ax, 128, 0, 8, 36, 0);
    axis_caption(&ax, "col", "cols", "pos", buf, sizeof buf);
    CHECK(strcmp(buf, "1 col = 4 pos") == 0);
    axis_caption_short(&ax, "col", "pos", buf, sizeof buf);
    CHECK(strcmp(buf, "4 pos/col") == 0);
    axis_init(&ax, 16, 0, 8, 66, 0);        /* 4 cells a position */
    CHECK(axis_step(&ax, 1) == 1 && axis_step(&ax, 8) == 2);
    CHECK(axis_step(&ax, -8) == -2 && axis_step(&ax, 0) == 1);
    axis_caption(&ax, "col", "cols", "pos", buf, sizeof buf);
    CHECK(strcmp(buf, "1 pos = 4 cols") == 0);
    axis_init(&ax, 16, 0, 2, 40, AXIS_EVEN);
    axis_caption_square(&ax, "px", "pos", buf, sizeof buf);
    CHECK(strcmp(buf, "1 pos = 2x2 px") == 0);
    axis_init(&ax, 36, 0, 8, 36, 0);
    axis_caption(&ax, "col", "cols", "pos", buf, sizeof buf);
    CHECK(strcmp(buf, "1 col = 1 pos") == 0);
}

/*
 * Over many sizes, zooms and cursors: the window holds the cursor, its
 * cells tile [x0, x0 + shown) in order, k positions each (the last cut
 * at n), m cells a position, and every position's cell holds it.
 */
static void test_tiling(void)
{
    static const int64_t NS[] = { 1, 2, 3, 7, 16, 100, 128, 1000, 4096,
                                  65537 };
    static const int CELLS[] = { 1, 3, 13, 36, 40, 80, 147 };
    int bad = 0, runs = 0;
    for (size_t i = 0; i < sizeof NS / sizeof NS[0]; i++)
        for (size_t j = 0; j < sizeof CELLS / sizeof CELLS[0]; j++)
            for (int z = 0; z < 18; z += 3)
                for (int64_t cur = 0; cur < NS[i]; cur += NS[i] / 5 + 1) {
                    struct axis ax;
                    int64_t n = NS[i], next, p0, p1;
                    axis_init(&ax, n, z, 8, CELLS[j], j % 2 ? AXIS_EVEN : 0);
                    if (cur % 2)
                        axis_page(&ax, n / 3, cur);
                    else
                        axis_scroll(&ax, n / 3, cur);
                    runs++;
                    bad += ax.k < 1 || ax.m < 1 || ax.used > ax.cells;
                    bad += cur < ax.x0 || cur >= ax.x0 + axis_shown(&ax);
                    next = ax.x0;
                    for (int c = 0; c < ax.used; c++) {
                        if (axis_range(&ax, c, &p0, &p1)) {
                            bad++;
                            break;
                        }
                        if (c % ax.m == 0) {
                            bad += p0 != next;
                            next = p1;
                        }
                        bad += p1 - p0 != (p1 < n ? ax.k : n - p0);
                        bad += axis_cell(&ax, p0) != c / ax.m * ax.m;
                        bad += axis_cell(&ax, p1 - 1) != c / ax.m * ax.m;
                    }
                    bad += next != ax.x0 + axis_shown(&ax);
                    bad += axis_range(&ax, ax.used, &p0, &p1) != -1;
                }
    CHECK(runs > 1000);
    CHECK(bad == 0);
    if (bad)
        fprintf(stderr, "  %d violations in %d layouts\n", bad, runs);
}

/* AXIS_FILL by hand: 128 positions on 106 columns (the heatmap at
 * 120x30), 64 dims stretched over 80 pixel rows, and a window. */
static void test_fill_cells(void)
{
    struct axis ax;
    int64_t p0, p1;
    char buf[64];
    axis_init(&ax, 128, 0, 8, 106, AXIS_FILL);
    CHECK(ax.used == 106 && ax.k == 2 && ax.m == 1 && ax.vis == 128);
    /* column c: [floor(128 c / 106), floor(128 (c + 1) / 106)) */
    CHECK(axis_range(&ax, 0, &p0, &p1) == 0 && p0 == 0 && p1 == 1);
    CHECK(axis_range(&ax, 4, &p0, &p1) == 0 && p0 == 4 && p1 == 6);
    CHECK(axis_range(&ax, 105, &p0, &p1) == 0 && p0 == 126 && p1 == 128);
    CHECK(axis_range(&ax, 106, &p0, &p1) == -1);
    CHECK(axis_cell(&ax, 5) == 4 && axis_cell_end(&ax, 5) == 5);
    CHECK(axis_cell(&ax, 127) == 105 && axis_cell(&ax, 128) == -1);
    CHECK(axis_shown(&ax) == 128);
    axis_caption(&ax, "col", "cols", "pos", buf, sizeof buf);
    CHECK_STR(buf, "1 col = 1-2 pos");
    axis_caption_short(&ax, "col", "pos", buf, sizeof buf);
    CHECK_STR(buf, "1-2 pos/col");
    /* a key moves to the first position of the next column */
    CHECK(axis_move(&ax, 4, 1) == 6 && axis_move(&ax, 5, -1) == 3);
    CHECK(axis_move(&ax, 0, 13) == 15);     /* floor(13 * 128 / 106) */
    /* 24 dims stretched over 40 slots of 2 pixels: dim d on the slots
     * [ceil(40 d / 24), ceil(40 (d + 1) / 24)), one or two each */
    axis_init_span(&ax, 24, 24, 40, AXIS_FILL);
    axis_page(&ax, 0, 3);
    axis_widen(&ax, 2);
    CHECK(ax.used == 80 && ax.cells == 80 && ax.m == 2);
    CHECK(axis_range(&ax, 0, &p0, &p1) == 0 && p0 == 0 && p1 == 1);
    CHECK(axis_range(&ax, 3, &p0, &p1) == 0 && p0 == 0);
    CHECK(axis_range(&ax, 4, &p0, &p1) == 0 && p0 == 1);
    CHECK(axis_range(&ax, 79, &p0, &p1) == 0 && p0 == 23 && p1 == 24);
    CHECK(axis_cell(&ax, 1) == 4 && axis_cell_end(&ax, 1) == 8);
    CHECK(axis_cell(&ax, 2) == 8 && axis_cell_end(&ax, 2) == 10);
    CHECK(axis_cell(&ax, 23) == 78 && axis_cell_end(&ax, 23) == 80);
    /* 16 positions on 66 columns: 4 or 5 columns each */
    axis_init(&ax, 16, 0, 8, 66, AXIS_FILL);
    CHECK(ax.k == 1 && ax.m == 4 && ax.used == 66);
    CHECK(axis_cell(&ax, 0) == 0 && axis_cell_end(&ax, 0) == 5);
    CHECK(axis_cell_mid(&ax, 0) == 2);
    CHECK(axis_cell(&ax, 15) == 62 && axis_cell_end(&ax, 15) == 66);
    axis_caption(&ax, "col", "cols", "pos", buf, sizeof buf);
    CHECK_STR(buf, "1 pos = 4-5 cols");
    CHECK(axis_move(&ax, 3, 1) == 4 && axis_move(&ax, 3, 8) == 5);
    /* a zoomed window of 250 of 1000 on 60 columns, by pages: the last
     * page ends at n and every window starts where it is put */
    axis_init(&ax, 1000, 2, 8, 60, AXIS_FILL);
    CHECK(ax.span == 250 && ax.vis == 250);
    axis_page(&ax, 0, 600);
    CHECK(ax.x0 == 500 && ax.used == 60 && axis_shown(&ax) == 250);
    axis_page(&ax, 500, 999);
    CHECK(ax.x0 == 750);
    axis_page(&ax, 123, 130);
    CHECK(ax.x0 == 123);
    CHECK(axis_range(&ax, 0, &p0, &p1) == 0 && p0 == 123 && p1 == 127);
    /* moving past the window's end lands where the next page starts */
    axis_page(&ax, 0, 0);
    CHECK(axis_move(&ax, 247, 1) == 250);
    /* an even division keeps the plain caption */
    axis_init(&ax, 128, 0, 8, 64, AXIS_FILL);
    axis_caption(&ax, "col", "cols", "pos", buf, sizeof buf);
    CHECK_STR(buf, "1 col = 2 pos");
}

/*
 * AXIS_FILL over many sizes, zooms, windows and widenings: the window's
 * cells are all used and tile [x0, x0 + shown) in order, every position
 * in exactly one cell run; run sizes (and, for fewer positions than
 * cells, a position's cell counts) differ by one at most and match
 * floor(c S / C); position -> cell -> position round trips.
 */
static void test_fill_tiling(void)
{
    static const int64_t NS[] = { 1, 2, 3, 7, 16, 64, 100, 128, 1000, 4096,
                                  65537 };
    static const int CELLS[] = { 1, 3, 13, 36, 40, 66, 80, 106, 147 };
    int bad = 0, runs = 0;
    for (size_t i = 0; i < sizeof NS / sizeof NS[0]; i++)
        for (size_t j = 0; j < sizeof CELLS / sizeof CELLS[0]; j++)
            for (int z = 0; z < 18; z += 3)
                for (int f = 1; f <= 2; f++)
                    for (int64_t cur = 0; cur < NS[i]; cur += NS[i] / 4 + 1) {
                        struct axis ax;
                        int64_t n = NS[i], next, p0, p1, lo = INT64_MAX,
                                hi = 0, S, C = CELLS[j];
                        axis_init(&ax, n, z, 8, CELLS[j], AXIS_FILL);
                        axis_page(&ax, n / 3, cur);
                        axis_widen(&ax, f);
                        runs++;
                        S = ax.span;
                        bad += cur < ax.x0 || cur >= ax.x0 + axis_shown(&ax);
                        bad += ax.used != f * CELLS[j];
                        bad += axis_shown(&ax) != S;
                        next = ax.x0;
                        int64_t seen = 0, run0 = -1;
                        for (int c = 0; c < ax.used; c++) {
                            if (axis_range(&ax, c, &p0, &p1)) {
                                bad++;
                                break;
                            }
                            int64_t pc = c / f, w0 = pc * S / C;
                            int64_t w1 = S >= C ? (pc + 1) * S / C : w0 + 1;
                            bad += p0 - ax.x0 != w0 || p1 - ax.x0 != w1;
                            if (p0 == next) {           /* the next run */
                                seen += p1 - p0;
                                run0 = p0;
                                next = p1;
                            } else {    /* or the same drawn wide */
                                bad += p0 != run0 || p1 != next;
                                bad += S >= C && c % f == 0;
                            }
                            lo = p1 - p0 < lo ? p1 - p0 : lo;
                            hi = p1 - p0 > hi ? p1 - p0 : hi;
                            int c0 = axis_cell(&ax, p0);
                            int c1 = axis_cell_end(&ax, p0);
                            bad += c < c0 || c >= c1;
                            bad += S >= C && c1 - c0 != f;
                        }
                        bad += seen != S || next != ax.x0 + S;
                        bad += hi - lo > 1;
                        if (S < C) {    /* cells a position: two counts */
                            int wl = 1 << 30, wh = 0;
                            for (int64_t p = ax.x0; p < ax.x0 + S; p++) {
                                int wd = axis_cell_end(&ax, p) - axis_cell(&ax, p);
                                wl = wd < wl ? wd : wl;
                                wh = wd > wh ? wd : wh;
                            }
                            bad += wh - wl > f || wl < ax.m;
                        }
                        bad += axis_range(&ax, ax.used, &p0, &p1) != -1;
                    }
    CHECK(runs > 2000);
    CHECK(bad == 0);
    if (bad)
        fprintf(stderr, "  %d violations in %d fill layouts\n", bad, runs);
}

int main(void)
{
    test_span();
    test_cells();
    test_window();
    test_steps_captions();
    test_tiling();
    test_fill_cells();
    test_fill_tiling();
    TEST_END("test_axis");
}
