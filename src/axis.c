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
    int64_t c = ax->cells > 0 ? ax->cells : 1;
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
    ax->x0 = 0;
    axis_used(ax);
}

/* The last first item a window may have: its last cell holds n - 1. */
static int64_t x0_max(const struct axis *ax)
{
    int64_t last = ceil_div(ax->n, ax->k) * ax->k - ax->vis;
    return last > 0 ? last : 0;
}

void axis_page(struct axis *ax, int64_t stored, int64_t cur)
{
    int64_t max = x0_max(ax);
    int64_t x0 = clamp64(stored, 0, max) / ax->k * ax->k;
    if (cur < x0 || cur >= x0 + ax->vis)
        x0 += floor_div(cur - x0, ax->vis) * ax->vis;
    ax->x0 = clamp64(x0, 0, max);
    axis_used(ax);
}

void axis_scroll(struct axis *ax, int64_t hint, int64_t cur)
{
    int64_t x0 = clamp64(hint, 0, x0_max(ax)) / ax->k * ax->k;
    cur = clamp64(cur, 0, ax->n - 1);
    if (cur < x0)
        x0 = cur / ax->k * ax->k;
    if (cur >= x0 + ax->vis)
        x0 = (cur / ax->k + 1) * ax->k - ax->vis;
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
}

int axis_range(const struct axis *ax, int c, int64_t *p0, int64_t *p1)
{
    if (c < 0 || c >= ax->used)
        return -1;
    *p0 = ax->x0 + (int64_t)(c / ax->m) * ax->k;
    *p1 = *p0 + ax->k < ax->n ? *p0 + ax->k : ax->n;
    return *p0 < *p1 ? 0 : -1;
}

int axis_cell(const struct axis *ax, int64_t p)
{
    if (p < ax->x0 || p >= ax->n || p >= ax->x0 + ax->vis)
        return -1;
    return (int)((p - ax->x0) / ax->k * ax->m);
}

int64_t axis_step(const struct axis *ax, int64_t ncells)
{
    int64_t items = ncells / ax->m * ax->k;
    if (items == 0)
        return ncells < 0 ? -ax->k : ax->k;
    return items;
}

int64_t axis_shown(const struct axis *ax)
{
    return ax->used / ax->m * ax->k < ax->n - ax->x0
           ? ax->used / ax->m * ax->k : ax->n - ax->x0;
}

void axis_caption(const struct axis *ax, const char *cell, const char *cells,
                  const char *item, char *buf, size_t len)
{
    if (ax->m > 1)
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
    if (ax->m > 1)
        snprintf(buf, len, "%d %s/%s", ax->m, cell, item);
    else
        snprintf(buf, len, "%lld %s/%s", (long long)ax->k, item, cell);
}
