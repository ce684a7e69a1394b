/* SPDX-License-Identifier: ISC */
/*
 * axis.c - items of an axis onto cells: zoom, cell ranges, the window,
 * key steps and the caption (axis.h).
 */
#include <stdio.h>

#include "axis.h"

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

static int64_t floor_div(int64_t a, int64_t b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* ---- AXIS_FILL: the span S over the planned cells C ------------------ */

static int64_t plan_cells(const struct axis *ax)
{
    int64_t c = ax->cells / ax->unit;
    return c > 0 ? c : 1;
}

/* Items [*q0, *q1) of planned cell c, relative to x0 (c may lie past
 * either end of the window). */
static void fill_range(const struct axis *ax, int64_t c, int64_t *q0,
                       int64_t *q1)
{
    int64_t C = plan_cells(ax), S = ax->span > 0 ? ax->span : 1;
    *q0 = floor_div(c * S, C);
    *q1 = floor_div((c + 1) * S, C);
    if (*q1 <= *q0)
        *q1 = *q0 + 1;
}

/* The first planned cell showing relative item q: the cell holding it
 * (S >= C), or the first whose floor(c S / C) is q (S < C). */
static int64_t fill_cell(const struct axis *ax, int64_t q)
{
    int64_t C = plan_cells(ax), S = ax->span > 0 ? ax->span : 1;
    if (S >= C)
        return floor_div((q + 1) * C - 1, S);
    return -floor_div(-q * C, S);               /* ceil(q C / S) */
}

/* One past the last planned cell showing relative item q. */
static int64_t fill_cell_end(const struct axis *ax, int64_t q)
{
    return ax->span >= plan_cells(ax) ? fill_cell(ax, q) + 1
                                      : fill_cell(ax, q + 1);
}

int64_t axis_span(int64_t n, int zoom, int64_t min_span)
{
    int64_t least = n < min_span ? n : min_span;
    int64_t s = zoom <= 0 ? n
              : ceil_div(n, INT64_C(1) << (zoom < AXIS_ZOOM_MAX ? zoom
                                                                : AXIS_ZOOM_MAX));
    return s > least ? s : least;
}

int axis_zoom_max(int64_t n, int64_t min_span)
{
    int z = 0;
    int64_t least = axis_span(n, AXIS_ZOOM_MAX, min_span);
    while (z < AXIS_ZOOM_MAX && axis_span(n, z, min_span) > least)
        z++;
    return z;
}

/* Cells drawn for the window at x0: its whole cells, cut at n. */
static void axis_used(struct axis *ax)
{
    int64_t left = ax->n - ax->x0 < ax->vis ? ax->n - ax->x0 : ax->vis;
    if (ax->fill)
        ax->used = left <= 0 ? 0
                 : (int)(fill_cell_end(ax, left - 1) * ax->unit);
    else
        ax->used = left <= 0 ? 0 : (int)(ceil_div(left, ax->k) * ax->m);
}

void axis_init(struct axis *ax, int64_t n, int zoom, int64_t min_span,
               int cells, int flags)
{
    int zmax = axis_zoom_max(n, min_span);
    zoom = zoom < 0 ? 0 : zoom > zmax ? zmax : zoom;
    axis_init_span(ax, n, axis_span(n > 0 ? n : 0, zoom, min_span), cells,
                   flags);
    ax->zoom = zoom;
}

void axis_init_span(struct axis *ax, int64_t n, int64_t span, int cells,
                    int flags)
{
    ax->n = n > 0 ? n : 0;
    ax->zoom = 0;
    ax->span = span < ax->n ? span : ax->n;
    ax->cells = cells > 0 ? cells : 0;
    ax->fill = (flags & AXIS_FILL) != 0;
    ax->unit = 1;
    int64_t c = ax->cells > 0 ? ax->cells : 1;
    if (ax->fill)
        flags &= ~AXIS_EVEN;        /* widths differ anyway */
    if (ax->span > c || ax->span < 1) {
        ax->k = ax->span > c ? ceil_div(ax->span, c) : 1;
        ax->m = 1;
    } else {
        ax->k = 1;
        ax->m = (int)(c / ax->span);
        if ((flags & AXIS_EVEN) && ax->m > 1)
            ax->m &= ~1;
    }
    ax->vis = ceil_div(ax->span > 0 ? ax->span : 1, ax->k) * ax->k;
    if (ax->fill)
        ax->vis = ax->span > 0 ? ax->span : 1;
    ax->x0 = 0;
    axis_used(ax);
}

/* The last first item a window may have: its last cell holds n - 1. */
static int64_t x0_max(const struct axis *ax)
{
    int64_t last = ax->fill ? ax->n - ax->vis
                            : ceil_div(ax->n, ax->k) * ax->k - ax->vis;
    return last > 0 ? last : 0;
}

/* What a window's first item is a multiple of. */
static int64_t grain(const struct axis *ax)
{
    return ax->fill ? 1 : ax->k;
}

void axis_page(struct axis *ax, int64_t stored, int64_t cur)
{
    int64_t max = x0_max(ax);
    int64_t x0 = clamp64(stored, 0, max) / grain(ax) * grain(ax);
    if (cur < x0 || cur >= x0 + ax->vis)
        x0 += floor_div(cur - x0, ax->vis) * ax->vis;
    ax->x0 = clamp64(x0, 0, max);
    axis_used(ax);
}

void axis_scroll(struct axis *ax, int64_t hint, int64_t cur)
{
    int64_t gr = grain(ax);
    int64_t x0 = clamp64(hint, 0, x0_max(ax)) / gr * gr;
    cur = clamp64(cur, 0, ax->n - 1);
    if (cur < x0)
        x0 = cur / gr * gr;
    if (cur >= x0 + ax->vis)
        x0 = (cur / gr + 1) * gr - ax->vis;
    ax->x0 = clamp64(x0, 0, x0_max(ax));
    axis_used(ax);
}

void axis_widen(struct axis *ax, int f)
{
    if (f <= 1)
        return;
    ax->m *= f;
    ax->cells *= f;
    ax->used *= f;
    ax->unit *= f;
}

int axis_range(const struct axis *ax, int c, int64_t *p0, int64_t *p1)
{
    if (c < 0 || c >= ax->used)
        return -1;
    if (ax->fill) {
        int64_t q0, q1;
        fill_range(ax, c / ax->unit, &q0, &q1);
        *p0 = ax->x0 + q0;
        *p1 = ax->x0 + q1 < ax->n ? ax->x0 + q1 : ax->n;
        return *p0 < *p1 ? 0 : -1;
    }
    *p0 = ax->x0 + (int64_t)(c / ax->m) * ax->k;
    *p1 = *p0 + ax->k < ax->n ? *p0 + ax->k : ax->n;
    return *p0 < *p1 ? 0 : -1;
}

int axis_cell(const struct axis *ax, int64_t p)
{
    if (p < ax->x0 || p >= ax->n || p >= ax->x0 + ax->vis)
        return -1;
    if (ax->fill)
        return (int)(fill_cell(ax, p - ax->x0) * ax->unit);
    return (int)((p - ax->x0) / ax->k * ax->m);
}

int axis_cell_end(const struct axis *ax, int64_t p)
{
    int c = axis_cell(ax, p);
    if (c < 0)
        return -1;
    if (ax->fill)
        return (int)(fill_cell_end(ax, p - ax->x0) * ax->unit);
    return c + ax->m;
}

int axis_cell_mid(const struct axis *ax, int64_t p)
{
    int c = axis_cell(ax, p);
    return c < 0 ? -1 : c + (axis_cell_end(ax, p) - c) / 2;
}

/* Items ncells cells stand for on average, rounded, at least one. */
static int64_t fill_items(const struct axis *ax, int64_t ncells)
{
    int64_t C = plan_cells(ax) * ax->unit, a = ncells < 0 ? -ncells : ncells;
    int64_t items = (2 * a * ax->span + C) / (2 * C);
    items = items < 1 ? 1 : items;
    return ncells < 0 ? -items : items;
}

int64_t axis_move(const struct axis *ax, int64_t cur, int64_t ncells)
{
    if (!ax->fill || ax->span < plan_cells(ax))
        return cur + axis_step(ax, ncells);
    int64_t pc = ncells / ax->unit, q0, q1;
    if (pc == 0)
        pc = ncells < 0 ? -1 : 1;
    fill_range(ax, fill_cell(ax, cur - ax->x0) + pc, &q0, &q1);
    return ax->x0 + q0;
}

int64_t axis_step(const struct axis *ax, int64_t ncells)
{
    if (ax->fill)
        return fill_items(ax, ncells);
    int64_t items = ncells / ax->m * ax->k;
    if (items == 0)
        return ncells < 0 ? -ax->k : ax->k;
    return items;
}

int64_t axis_shown(const struct axis *ax)
{
    if (ax->fill) {
        int64_t q0, q1;
        if (ax->used <= 0)
            return 0;
        fill_range(ax, (ax->used - 1) / ax->unit, &q0, &q1);
        return ax->x0 + q1 < ax->n ? q1 : ax->n - ax->x0;
    }
    return ax->used / ax->m * ax->k < ax->n - ax->x0
           ? ax->used / ax->m * ax->k : ax->n - ax->x0;
}

/* Whether cells (ax->span >= cells) or items (fewer) come in two sizes:
 * the least count is then *lo, the largest *lo + 1. */
static int two_sizes(const struct axis *ax, int64_t *lo)
{
    int64_t C = plan_cells(ax), S = ax->span;
    if (!ax->fill || S < 1 || (S >= C ? S % C : C % S) == 0)
        return 0;
    *lo = S >= C ? S / C : C / S * ax->unit;
    return 1;
}

void axis_caption(const struct axis *ax, const char *cell, const char *cells,
                  const char *item, char *buf, size_t len)
{
    int64_t lo;
    if (two_sizes(ax, &lo) && ax->span >= plan_cells(ax))
        snprintf(buf, len, "1 %s = %lld-%lld %s", cell, (long long)lo,
                 (long long)(lo + 1), item);
    else if (two_sizes(ax, &lo))
        snprintf(buf, len, "1 %s = %lld-%lld %s", item, (long long)lo,
                 (long long)(lo + ax->unit), cells);
    else if (ax->m > 1)
        snprintf(buf, len, "1 %s = %d %s", item, ax->m, cells);
    else
        snprintf(buf, len, "1 %s = %lld %s", cell, (long long)ax->k, item);
}

void axis_caption_square(const struct axis *ax, const char *cell,
                         const char *item, char *buf, size_t len)
{
    if (ax->k > 1)
        snprintf(buf, len, "1 %s = %lldx%lld %s", cell, (long long)ax->k,
                 (long long)ax->k, item);
    else
        snprintf(buf, len, "1 %s = %dx%d %s", item, ax->m, ax->m, cell);
}

void axis_caption_short(const struct axis *ax, const char *cell,
                        const char *item, char *buf, size_t len)
{
    int64_t lo;
    if (two_sizes(ax, &lo) && ax->span >= plan_cells(ax))
        snprintf(buf, len, "%lld-%lld %s/%s", (long long)lo,
                 (long long)(lo + 1), item, cell);
    else if (two_sizes(ax, &lo))
        snprintf(buf, len, "%lld-%lld %s/%s", (long long)lo,
                 (long long)(lo + ax->unit), cell, item);
    else if (ax->m > 1)
        snprintf(buf, len, "%d %s/%s", ax->m, cell, item);
    else
        snprintf(buf, len, "%lld %s/%s", (long long)ax->k, item, cell);
}
