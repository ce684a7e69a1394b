/* SPDX-License-Identifier: ISC */
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

#endif
