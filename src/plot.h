/* SPDX-License-Identifier: ISC */
/*
 * plot.h - plotting helpers any view may use: a colour legend with the
 * real minimum and maximum, axis tick labels that never overlap or get
 * cut, and a braille line plot with axes and labelled local extremes.
 *
 * Text drawn here is ASCII (box lines and braille resolve to ASCII in
 * canvas_resolve), so every helper works with --ascii unchanged.
 */
#ifndef PEVIZ_PLOT_H
#define PEVIZ_PLOT_H

#include "canvas.h"
#include "colormap.h"

/* ---- legend ------------------------------------------------------------ */

struct plot_legend {
    const char *caption;    /* "score", "P(j|i)"; NULL: none */
    const char *brief;      /* a shorter caption, for when the caption
                               leaves no room ("S" for "S mean of 7x7") */
    double lo, hi;          /* the real min and max of what is shown */
    int diverging;          /* strip from cmap_diverging(lo..hi), else
                               cmap_sequential(0..1) */
    int sig;                /* significant digits of the labels (0: 4) */
};

/*
 * One row at (x, y), at most w cells: "caption lo [strip] hi".  The strip
 * is half-block pixels with density levels 1..9 (0, blank, is left for
 * "nothing here", e.g. masked cells), so it reads without colour.  When
 * lo == hi: a swatch and "all = v".
 * Drops the caption, then shortens the strip, to fit.  Returns the cells
 * used (0 if nothing fits).
 */
int plot_legend_draw(canvas *c, int x, int y, int w, enum palette pal,
                     const struct plot_legend *lg);

/* ---- axis tick labels ------------------------------------------------- */

/*
 * A linear axis: cell u covers the values [v0 + u*per_cell, +per_cell);
 * the value v is labelled at cell floor((v - v0) / per_cell + bias)
 * (bias 0: the cell holding v; 0.25 matches a braille dot rounded to
 * the nearest of a cell's two dots).
 */
struct plot_axis {
    double v0, per_cell, bias;
    double vmin, vmax;      /* the values that may be labelled */
    int integer;            /* label integers only, written in full */
};

/* Round step (1, 2, 5 x 10^k) at least min_step; integer: at least 1. */
double plot_nice_step(double min_step, int integer);

/*
 * Labels along row y, cells [x, x + w): vmin and vmax first when they fit,
 * then round values (1, 2, 5 x 10^k steps) between, each centred on its
 * cell, shifted inside the row rather than cut, never closer than one
 * blank to another.  Returns the number of labels.
 */
int plot_xticks(canvas *c, int x, int y, int w, const struct plot_axis *ax,
                rgb fg);

/* The same down a column: labels right-aligned to end at x + lw - 1,
 * rows [y, y + h), at least one blank row apart. */
int plot_yticks(canvas *c, int x, int y, int lw, int h,
                const struct plot_axis *ax, rgb fg);

/* ---- line plot --------------------------------------------------------- */

struct plot_series {
    const double *y;        /* n values; NAN leaves a gap */
    int n;
    rgb col;
    char mark;              /* a letter set on the curve at intervals, so
                               curves read apart without colour (0: none) */
    int style;              /* enum plot_style: curves that cross stay
                               apart without colour */
};

/* How a curve's line is drawn: every dot, every other dot, one in three. */
enum plot_style { PLOT_SOLID = 0, PLOT_DOTTED, PLOT_SPARSE, PLOT_STYLES };

/* A short sample of each style for a legend ("⠤⠤", "⠄⠄", "⠄⠀⠄"): the
 * same dots a horizontal stretch of the curve shows. */
const char *plot_style_sample(int style, int ascii);

struct plot_spec {
    const char *title;      /* first row (NULL: no title row) */
    const char *xlabel;     /* right end of the tick row, if it fits */
    double x0, dx;          /* x of point t is x0 + t * dx */
    double xmin, xmax;      /* range the x ticks label (xmax <= xmin:
                               the first and last point's x) */
    int x_integer;          /* x values are integers */
    int label_extremes;     /* write the value at local maxima / minima */
    int label_x;            /* ... followed by " (x)" */
    int zero_line;          /* dotted y = 0 when 0 is inside the range */
    double mark_x;          /* dashed vertical marker (NAN: none) */
    const char *mark_label; /* written beside the marker's top */
    int sig;                /* significant digits of labels (0: 4) */
};

/*
 * Series over a shared x range and a shared y range (the min and max of
 * all values, labelled on the left axis), in the box (x, y, w, h): title
 * row, plot rows, an axis row and a tick row.  Points are spread evenly
 * over the braille dots and joined by lines.  Needs w >= 12, h >= 4;
 * smaller boxes are left blank.
 */
void plot_lines(canvas *c, int x, int y, int w, int h,
                const struct plot_spec *sp, const struct plot_series *s,
                int ns, enum palette pal);

/* The min and max of the finite values of v[n]; 0 when there are none. */
int plot_range(const double *v, int n, double *lo, double *hi);

#endif
