/* SPDX-License-Identifier: ISC */
/*
 * lineart.h - anti-aliased line drawings in a buffer of pixels: rings,
 * strokes and dashes whose edges are blended with what lies under them
 * by the share of each pixel they cover, so a hand stands at its exact
 * angle at any size.  Pixel (x, y) covers [x, x+1) x [y, y+1); its centre
 * is (x + 0.5, y + 0.5).  Pure: no terminal, no view.
 */
#ifndef PEVIZ_LINEART_H
#define PEVIZ_LINEART_H

#include "canvas.h"

/* w x h concrete colours (no RGB_DEFAULT), row by row. */
struct art {
    rgb *px;
    int w, h;
};

/* Every pixel col. */
void art_fill(struct art *a, rgb col);

/* a over b, a covering share t (0 .. 1) of the pixel. */
rgb art_blend(rgb a, rgb b, double t);

/* A ring of centre (cx, cy), radius r (to the middle of the stroke) and
 * stroke width wid. */
void art_ring(struct art *a, double cx, double cy, double r, double wid,
              rgb col);

/* Distance from (px, py) to the segment (ax, ay)-(bx, by). */
double art_seg_dist(double px, double py, double ax, double ay, double bx,
                    double by);

/* A stroke of width wid from (x0, y0) to (x1, y1), round ends. */
void art_segment(struct art *a, double x0, double y0, double x1, double y1,
                 double wid, rgb col);

/* A dashed stroke: dashes of length on, gaps of length off. */
void art_dashed(struct art *a, double x0, double y0, double x1, double y1,
                double wid, double on, double off, rgb col);

#endif
