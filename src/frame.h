/*
 * frame.h - one whole frame: the current view, the status line (or the
 * ':' prompt), the help card, or a "too small" notice.  The terminal,
 * --snapshot and the frame export all draw through here, so they show
 * the same thing.
 */
#ifndef PEVIZ_FRAME_H
#define PEVIZ_FRAME_H

#include "canvas.h"

struct app;

/*
 * Draw the whole frame: the current view, the status line, the prompt,
 * the help overlay, or a "too small" card.  Used by the terminal and by
 * --snapshot alike.
 */
void frame_draw(const struct app *a, canvas *c);

/* frame_draw with all the view's work done: for snapshots and exported
 * frames, which must show the finished picture. */
void frame_draw_finished(const struct app *a, canvas *c);

/* The size w x h the current view gets in a frame of W x H cells: the
 * frame minus the status line, a long message's rows, the tour caption,
 * and the second view of a split. */
void frame_view_size(const struct app *a, int W, int H, int *w, int *h);

/* :split: two views side by side from this many columns (each half at
 * least 60, as much as most views need), else stacked when the view area
 * has this many rows. */
#define FRAME_SPLIT_SIDE_W 120
#define FRAME_SPLIT_STACK_H 21

/* How a split fits a W x H frame: 1 side by side, 2 stacked, 0 not. */
int frame_split_fits(int W, int H);

#endif
