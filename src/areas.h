/* SPDX-License-Identifier: ISC */
/*
 * areas.h - where things go in a frame of W x H cells: the status line
 * at the bottom, a long message's rows above it, the tour's caption
 * panel above those, and the view area (one view, or a split's two).
 * Below both the frame, which draws into these areas, and the views,
 * which lay out for the size they get.
 */
#ifndef PEVIZ_AREAS_H
#define PEVIZ_AREAS_H

#include <stddef.h>

#include "geom.h"

struct app;

/* The size w x h the current view gets in a frame of W x H cells: the
 * frame minus the status line, a long message's rows, the tour caption,
 * and the second view of a split. */
void areas_view_size(const struct app *a, int W, int H, int *w, int *h);

/* Where the views go in the view area: the current one at (0, 0) w x h,
 * the split's second at (x2, y2) w2 x h2 behind a rule (second < 0:
 * none). */
struct areas {
    int w, h, second, side, x2, y2, w2, h2;
};

/* The view area vw x vh of a W x H frame and the views' places in it. */
void areas_compute(const struct app *a, int W, int H, int *vw, int *vh,
                 struct areas *r);

/* Rows a long message takes above the status line in a W x H frame
 * (0: it fits on the status line). */
int areas_msg_rows(const struct app *a, int W, int H);

/* The parameters for the status line.  Where the view shows a loaded
 * table's values (the heatmap, learned attention), base plays no part:
 * it is left out. */
void areas_status_params(const struct app *a, char *buf, size_t len);

/* ---- the tour's caption panel ------------------------------------------ */

/* Whether a tour is running (a caption panel is shown). */
int areas_tour_running(const struct app *a);

/* The step shown while a tour runs, else NULL. */
const struct tour_step *areas_shown_step(const struct app *a);

/* The width in cells captions wrap to on a screen w cells wide. */
int areas_text_width(int w);

/*
 * Rows the caption panel needs when a frame w x h (status line excluded)
 * is drawn: a rule with the step and title, the text wrapped to
 * areas_text_width(w) and the key hint, at most half of h.  0 when no tour
 * is running.
 */
int areas_panel_rows(const struct app *a, int w, int h);

#endif
