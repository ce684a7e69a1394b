/* SPDX-License-Identifier: ISC */
/*
 * geom.h - the frame's sizes that depend on nothing but the number of
 * cells: the smallest frame drawn and when a split's two views fit.
 */
#ifndef PEVIZ_GEOM_H
#define PEVIZ_GEOM_H

/* The smallest frame drawn; a smaller one gets a "too small" card. */
#define FRAME_MIN_W 20
#define FRAME_MIN_H 5

/* :split: two views side by side from this many columns (each half at
 * least 60, as much as most views need), else stacked when the view area
 * has this many rows. */
#define FRAME_SPLIT_SIDE_W 120
#define FRAME_SPLIT_STACK_H 21

/* How a split fits a W x H frame: 1 side by side, 2 stacked, 0 not. */
int geom_split_fits(int W, int H);

#endif
