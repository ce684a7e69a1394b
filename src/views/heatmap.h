/* SPDX-License-Identifier: ISC */
/*
 * heatmap.h - what the heatmap view shows where, exposed so tests can
 * check the picture against the formula.
 *
 * Its settings (struct heatmap_state) are in heatmap_state.h.
 *
 * The map is ncols x (npix / 2) cells; pixel row py (0 .. npix-1) is one
 * half of a half-block cell.  A column holds a run of positions [p0, p1)
 * (or, when positions are fewer than columns, one position drawn several
 * columns wide); a pixel row holds one dimension.  Both follow the
 * cursor, zoom and scroll in a->heat exactly as the view draws them.
 */
#ifndef PEVIZ_VIEWS_HEATMAP_H
#define PEVIZ_VIEWS_HEATMAP_H

#include <stdint.h>

struct app;

/* Positions [*p0, *p1) shown by map column col; 0, or -1 if it is empty. */
int heatmap_col_range(const struct app *a, int col, int ncols, int npix,
                      int64_t *p0, int64_t *p1);

/* Dimension shown by pixel row py, or -1 if that pixel row is empty. */
int heatmap_pixel_dim(const struct app *a, int py, int ncols, int npix);

/* Dimension shown by pixel row y of the map's image at ch pixel rows a
 * cell, or -1: every dimension from a grid band's sine up to the next
 * grid band a row of its own where the image's rows hold them all, else
 * the cells' dimensions. */
int heatmap_image_dim(const struct app *a, int y, int ch, int ncols,
                      int npix);

/*
 * The value the cell shows: the exact mean of PE(p, dim) over the
 * column's positions (closed form, never a sample), or, while the table
 * a->pe_table is shown (its d is d_model and it has at least n rows), the
 * mean of table[p, dim] over them.  NAN when empty.
 */
double heatmap_cell_value(const struct app *a, int col, int py, int ncols,
                          int npix);

/*
 * The value at the ends of the colour scale: 1 for PE (its values lie in
 * [-1, 1]); for a shown table the largest |value| in the whole table (1
 * if all are 0).  A cell of value v gets the colour of v / scale.
 */
double heatmap_scale(const struct app *a);

/*
 * Where the map lies in a view area of w x h cells (the screen minus the
 * status line): its corner (*x, *y) and size in cells.
 */
void heatmap_map_rect(const struct app *a, int w, int h, int *x, int *y,
                      int *cols, int *rows);

#endif
