/* SPDX-License-Identifier: ISC */
/*
 * frame_image.h - a whole frame as pixels: its cells drawn by raster.h,
 * and the current view's data area at full resolution on top of its
 * half-block cells (the view's raster hook), so text stays text and
 * the cursor and marks stay drawn over the data.
 */
#ifndef PEVIZ_FRAME_IMAGE_H
#define PEVIZ_FRAME_IMAGE_H

#include "canvas.h"
#include "raster.h"

struct app;

/* Default pixels per cell of a PNG frame at --scale 1. */
#define FRAME_IMAGE_CW 8
#define FRAME_IMAGE_CH 16

/*
 * Frame c, as frame_draw drew it for a, into a new image of
 * (c->w * cw) x (c->h * ch) pixels; with finish set the view's work is
 * all done first, else a view still computing gives its cells.  0, or -1
 * when out of memory.
 */
int frame_image(const struct app *a, const canvas *c, int cw, int ch,
                int finish, struct image *out);

#endif
