/* SPDX-License-Identifier: ISC */
/*
 * heat_geom.h - what the heatmap shows where: the positions of each
 * column, the frequency band of each row, paged and zoomed around the
 * cursor.
 */
#ifndef PEVIZ_VIEWS_HEAT_GEOM_H
#define PEVIZ_VIEWS_HEAT_GEOM_H

#include <stdint.h>

#include "app.h"
#include "axis.h"

/* What the map shows where (see heatmap.h). */
struct heat_geom {
    struct axis ax;         /* positions across (axis.h) */
    struct axis ay;         /* band grid entries down */
    int cols, rows;         /* map size in cells */
    int zoom;               /* a->heat.zoom, clamped */
    /* from the axis: */
    int64_t k;              /* positions per column, at most */
    int m;                  /* columns per position, at least (> 1 only
                               if k == 1) */
    int64_t vis, x0;        /* positions a window holds, the first shown */
    int ucols;              /* columns in use */
    int half;               /* bands */
    int s;                  /* nominal band step of the zoom (1: all) */
    int nb;                 /* bands in the grid, evenly spread over all */
    int j0, shown;          /* first grid index shown, how many */
    int bh;                 /* least cell rows per band (> 1 when bands are
                               few); bands share the rows out, so heights
                               differ by one unit at most (slot_rows) */
    int unit;               /* cell rows a grid entry is counted in */
    int whole;              /* no half blocks: each dimension whole rows
                               (bh even, sin rows above cos rows) */
};

/* Band index of grid entry j: round(j (half - 1) / (nb - 1)), so entry 0
 * is the first band, entry nb - 1 the last, and steps differ by at most
 * one band. */
int heat_geom_band(const struct heat_geom *g, int j);

/* The grid entry nearest to band i. */
int heat_geom_index(const struct heat_geom *g, int i);

/* Band step of the overview that fits every band row into rows. */
int heat_geom_step0(int half, int rows);

/* Zoom levels: until the span reaches MIN_SPAN and the band step 1. */
int heat_geom_zoom_max(int64_t n, int s0);

/* The geometry of a cols x rows map for a's parameters and the view's
 * zoom and window (the zoom clamped to what the map allows). */
void heat_geom_make(struct heat_geom *g, const struct app *a, int cols,
                    int rows);

/* The first cell row of grid slot slot (slot == shown: the rows used). */
int heat_geom_slot_row(const struct heat_geom *g, int slot);

/* Cell rows of grid slot slot: its sine's pixel rows, and its cosine's. */
int heat_geom_slot_rows(const struct heat_geom *g, int slot);

/* The grid slot drawn on cell row r, or -1 below the grid. */
int heat_geom_row_slot(const struct heat_geom *g, int r);

/* Positions of column col; 0, or -1 when the column is empty. */
int heat_geom_col_range(const struct heat_geom *g, int64_t n, int col,
                        int64_t *p0, int64_t *p1);

/* Dimension of pixel row py, or -1. */
int heat_geom_pixel_dim(const struct heat_geom *g, int py);

/* First pixel row of dimension dim as shown (snapped to the grid). */
int heat_geom_dim_pixel(const struct heat_geom *g, int dim);

/* The column marking position pos (the middle one of a wide position),
 * or -1 off the window. */
int heat_geom_cursor_col(const struct heat_geom *g, int64_t pos);

#endif
