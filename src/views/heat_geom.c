/* SPDX-License-Identifier: ISC */
/*
 * heat_geom.c - the heatmap's geometry: positions across (AXIS_FILL,
 * paged so the cursor is inside), the band grid down (every s-th band
 * and the last), and the mapping between pixel rows and dimensions.
 */
#include <string.h>

#include "app.h"
#include "axis.h"
#include "canvas.h"
#include "views/heat_geom.h"

#define MIN_SPAN 8          /* zooming in stops at this many positions */

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* Band index of grid entry j: round(j (half - 1) / (nb - 1)), so entry 0
 * is the first band, entry nb - 1 the last, and steps differ by at most
 * one band. */
int heat_geom_band(const struct heat_geom *g, int j)
{
    if (g->nb <= 1 || j <= 0)
        return 0;
    if (j >= g->nb - 1)
        return g->half - 1;
    int64_t den = g->nb - 1;
    return (int)(((int64_t)j * (g->half - 1) * 2 + den) / (2 * den));
}

/* The grid entry nearest to band i. */
int heat_geom_index(const struct heat_geom *g, int i)
{
    if (g->nb <= 1 || i <= 0)
        return 0;
    int j = (int)((int64_t)i * (g->nb - 1) / (g->half - 1));
    if (j >= g->nb - 1)
        return g->nb - 1;
    return heat_geom_band(g, j + 1) - i < i - heat_geom_band(g, j) ? j + 1 : j;
}

/* Band step of the overview that fits every band row into rows. */
int heat_geom_step0(int half, int rows)
{
    if (half <= rows)
        return 1;
    if (rows <= 1)
        return half > 1 ? half - 1 : 1;
    return (int)ceil_div(half - 1, rows - 1);
}

/* Zoom levels: until the span reaches MIN_SPAN and the band step 1. */
int heat_geom_zoom_max(int64_t n, int s0)
{
    int zp = axis_zoom_max(n, MIN_SPAN), zb = axis_zoom_max(s0, 1);
    return zp > zb ? zp : zb;
}

/* Positions across: the window is paged so the cursor is inside (a
 * pure function: a sweep turns whole pages).  The window's positions
 * are shared out over every column (AXIS_FILL): the map fills its
 * width, each column the exact mean of its own run. */
static void geom_cols(struct heat_geom *g, const struct app *a)
{
    axis_init(&g->ax, a->p.n, g->zoom, MIN_SPAN, g->cols, AXIS_FILL);
    axis_page(&g->ax, a->heat.x0, a->p.pos);
    g->k = g->ax.k;
    g->m = g->ax.m;
    g->vis = g->ax.vis;
    g->x0 = g->ax.x0;
    g->ucols = g->ax.used;
}

/* Rows the band grid is planned for: without half blocks a band needs
 * two (its sine row and its cosine row). */
static int band_rows(const struct heat_geom *g)
{
    int rows = g->rows > 0 ? g->rows : 1;
    return g->whole && rows > 1 ? rows / 2 : rows;
}

/* Bands in the grid: every band at step 1, else the overview's one per
 * row (at least the first and the last), doubled per zoom step. */
static int geom_grid_bands(int half, int brows, int s, int zoom)
{
    if (s <= 1 || half <= 2)
        return half;
    int64_t nb0 = brows < 2 ? 2 : brows < half ? brows : half;
    int64_t nb = zoom >= 30 ? half : ((nb0 - 1) << zoom) + 1;
    return nb < half ? (int)nb : half;
}

static void geom_rows(struct heat_geom *g, const struct app *a)
{
    int rows = g->rows > 0 ? g->rows : 1;
    int br = band_rows(g), s0 = heat_geom_step0(g->half, br);
    g->s = (int)axis_span(s0, g->zoom, 1);      /* zoom halves the step */
    g->nb = geom_grid_bands(g->half, br, g->s, g->zoom);
    /* without half blocks the grid is laid out in pairs of rows, so a
     * band's sine and cosine get whole rows each (bh even) */
    int unit = g->whole && rows > 1 ? 2 : 1, urows = rows / unit;
    /* grid entries down the rows, one per row or bh rows each, paged */
    axis_init_span(&g->ay, g->nb, g->nb < urows ? g->nb : urows, urows,
                   AXIS_FILL);
    axis_page(&g->ay, heat_geom_index(g, a->heat.dim0 / 2),
              heat_geom_index(g, a->heat.dim / 2));
    g->unit = unit;
    g->bh = g->ay.m * unit;
    g->shown = (int)axis_shown(&g->ay);
    g->j0 = (int)g->ay.x0;
}

void heat_geom_make(struct heat_geom *g, const struct app *a, int cols,
                    int rows)
{
    memset(g, 0, sizeof *g);
    g->cols = cols;
    g->rows = rows;
    g->half = a->p.d / 2;
    g->whole = !canvas_has_halves(a->ascii, a->color);
    int zmax = heat_geom_zoom_max(a->p.n, heat_geom_step0(g->half, band_rows(g)));
    g->zoom = a->heat.zoom < 0 ? 0 : a->heat.zoom > zmax ? zmax : a->heat.zoom;
    geom_cols(g, a);
    geom_rows(g, a);
}

/* The first cell row of grid slot slot (slot == shown: the rows used). */
int heat_geom_slot_row(const struct heat_geom *g, int slot)
{
    if (slot <= 0)
        return 0;
    if (slot >= g->shown)
        return g->unit * axis_cell_end(&g->ay, g->j0 + g->shown - 1);
    return g->unit * axis_cell(&g->ay, g->j0 + slot);
}

/* Cell rows of grid slot slot: its sine's pixel rows, and its cosine's. */
int heat_geom_slot_rows(const struct heat_geom *g, int slot)
{
    return heat_geom_slot_row(g, slot + 1) - heat_geom_slot_row(g, slot);
}

/* The grid slot drawn on cell row r, or -1 below the grid. */
int heat_geom_row_slot(const struct heat_geom *g, int r)
{
    int64_t p0, p1;
    if (r < 0 || axis_range(&g->ay, r / g->unit, &p0, &p1))
        return -1;
    return (int)(p0 - g->j0);
}

/* Positions of column col; 0, or -1 when the column is empty. */
int heat_geom_col_range(const struct heat_geom *g, int64_t n, int col,
                        int64_t *p0, int64_t *p1)
{
    (void)n;
    return axis_range(&g->ax, col, p0, p1);
}

/* Dimension of pixel row py, or -1. */
int heat_geom_pixel_dim(const struct heat_geom *g, int py)
{
    int slot = py < 0 ? -1 : heat_geom_row_slot(g, py / 2);
    if (slot < 0 || slot >= g->shown)
        return -1;
    int h = heat_geom_slot_rows(g, slot), off = py - 2 * heat_geom_slot_row(g, slot);
    return 2 * heat_geom_band(g, g->j0 + slot) + (off >= h);
}

/* First pixel row of dimension dim as shown (snapped to the grid). */
int heat_geom_dim_pixel(const struct heat_geom *g, int dim)
{
    int slot = heat_geom_index(g, dim / 2) - g->j0;
    return 2 * heat_geom_slot_row(g, slot) + (dim % 2) * heat_geom_slot_rows(g, slot);
}

/* The column marking position pos (the middle one of a wide position),
 * or -1 off the window. */
int heat_geom_cursor_col(const struct heat_geom *g, int64_t pos)
{
    return axis_cell_mid(&g->ax, pos);
}
