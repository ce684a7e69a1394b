/* SPDX-License-Identifier: ISC */
/*
 * axis.h - the one engine that maps items of an axis (positions 0..n-1,
 * or distances) onto screen cells, for every view.
 *
 * A zoom level asks for a span of items; the cells then show either k
 * whole items each (a cell stands for the items [p0, p0 + k), cut at n)
 * or one item m cells wide.  With AXIS_FILL the span is shared out over
 * every cell instead: cell c of C holds the items [floor(c S / C),
 * floor((c + 1) S / C)) of a span S >= C (sizes differ by one at most),
 * and a span S < C stretches each item over the cells c with
 * floor(c S / C) equal to it (widths differ by one at most).  The window [x0, x0 + vis) holds whole
 * cells and keeps the cursor inside it.  Keys move by whole drawn cells
 * (axis_step), and the caption says what a cell is ("1 col = 16 pos").
 * Nothing else decides which items a cell covers.
 */
#ifndef PEVIZ_AXIS_H
#define PEVIZ_AXIS_H

#include <stddef.h>
#include <stdint.h>

#define AXIS_ZOOM_MAX 62

/* axis_init flags */
enum {
    AXIS_EVEN = 1,          /* m rounded down to an even count (> 1) */
    AXIS_FILL = 2           /* the span over all cells, sizes differing */
};

struct axis {
    int64_t n;              /* items: 0 .. n-1 */
    int zoom;               /* the zoom level, clamped to 0..axis_zoom_max */
    int64_t span;           /* items the zoom level asks for */
    int cells;              /* cells available */
    int64_t k;              /* items per cell (>= 1) */
    int m;                  /* cells per item (>= 1; > 1 only when k == 1) */
    int64_t vis;            /* items of a full window: whole cells */
    int64_t x0;             /* first item shown: a multiple of k */
    int used;               /* cells drawn: the window cut at n */
    int fill;               /* AXIS_FILL: k and m are the largest and
                             * the least counts; a window may start at
                             * any item */
    int unit;               /* cells a planned cell became (axis_widen) */
};

/* Items a zoom level asks for: n halved zoom times (rounded up), but at
 * least min_span (or n, when there are fewer). */
int64_t axis_span(int64_t n, int zoom, int64_t min_span);

/* The deepest zoom level: the first whose span is the least. */
int axis_zoom_max(int64_t n, int64_t min_span);

/* Lay n items out over cells at zoom (clamped); the window starts at 0
 * until axis_page or axis_scroll places it. */
void axis_init(struct axis *ax, int64_t n, int zoom, int64_t min_span,
               int cells, int flags);

/* The same for a span chosen by the caller (at most n): e.g. as many
 * items as there are cells, each in a cell of its own. */
void axis_init_span(struct axis *ax, int64_t n, int64_t span, int cells,
                    int flags);

/* Make every cell f cells (f >= 1): a layout planned on cells/f cells,
 * spread over all of them (e.g. whole text rows for pixels in pairs). */
void axis_widen(struct axis *ax, int f);

/* Window by pages: from the stored first item, moved by whole windows
 * until cur is inside (a sweep turns pages, it never scrolls). */
void axis_page(struct axis *ax, int64_t stored, int64_t cur);

/* Window by scrolling: from hint, moved by as few cells as hold cur. */
void axis_scroll(struct axis *ax, int64_t hint, int64_t cur);

/* Items [*p0, *p1) of cell c; 0, or -1 when the cell shows none. */
int axis_range(const struct axis *ax, int c, int64_t *p0, int64_t *p1);

/* The first cell showing item p, or -1 when p is not in the window. */
int axis_cell(const struct axis *ax, int64_t p);

/* One past the last cell showing item p (p in the window). */
int axis_cell_end(const struct axis *ax, int64_t p);

/* The middle cell of item p (of a wide one, the right of two middles),
 * or -1 when p is not in the window. */
int axis_cell_mid(const struct axis *ax, int64_t p);

/* Where a move of ncells drawn cells from item cur lands: the first item
 * of the cell ncells on (the window's layout carried past its ends), or
 * with items wider than a cell cur moved by that many cells' items. */
int64_t axis_move(const struct axis *ax, int64_t cur, int64_t ncells);

/* Items a move of ncells drawn cells covers (at least one item). */
int64_t axis_step(const struct axis *ax, int64_t ncells);

/* Items in the window (up to n): the last shown is x0 + axis_shown - 1. */
int64_t axis_shown(const struct axis *ax);

/*
 * What a cell is, in words: "1 col = 16 pos", "1 pos = 2 cols", with the
 * cell's unit (one, several) and the item's ("col", "cols", "pos");
 * "1 col = 1 pos" at 1:1; cells of two sizes: "1 col = 19-20 pos",
 * "1 pos = 1-2 cols".
 */
void axis_caption(const struct axis *ax, const char *cell, const char *cells,
                  const char *item, char *buf, size_t len);

/* The short form: "16 pos/col", "2 col/pos", "19-20 pos/col". */
void axis_caption_short(const struct axis *ax, const char *cell,
                        const char *item, char *buf, size_t len);

/* The same for a square of cells on two equal axes: "1 px = 147x147
 * pos", "1 pos = 4x4 px". */
void axis_caption_square(const struct axis *ax, const char *cell,
                         const char *item, char *buf, size_t len);

#endif
