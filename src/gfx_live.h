/* SPDX-License-Identifier: ISC */
/*
 * gfx_live.h - the data areas as images on the terminal the program
 * runs on: the mode chosen once at start (gfx_probe.h), an image of each
 * of the current view's data areas (heatmap, attention matrix, compare's
 * heatmap and diff panes: view.h's raster parts) sent only when its
 * pixels change, the cells drawn over it.
 *
 * kitty: the covered cells are blanked and the image lies under the
 * text (z=-1), so the cursor and marks drawn as cells show on top, and a
 * cursor move costs no image bytes.  Sixel and iTerm2 images cover the
 * cells; they are written after doupdate(), and a cell curses repaints
 * later (the cursor moving) shows its half block over the image.  When
 * an image goes away its cells are overwritten with spaces before curses
 * repaints the screen.  kitty inside tmux: the image goes through tmux's
 * passthrough with a virtual placement, and its cells are drawn as
 * Unicode placeholders (CELL_IMAGE), text that tmux keeps in its pane.
 * Data flows down: the loop calls in, nothing here calls the loop.
 */
#ifndef PEVIZ_GFX_LIVE_H
#define PEVIZ_GFX_LIVE_H

#include "canvas.h"
#include "gfx.h"

struct app;

/* After term_open: choose the mode (want: --graphics), say it once in
 * the status line (an image mode, or any mode --graphics named). */
void gfx_live_start(struct app *a, enum gfx_mode want);

/* The graphics probe's answers came late (term_graphics_late): images
 * start now if they show what cells showed for want of an answer, or
 * take the cell size now known; the status line says so, once.  1 when
 * the screen must be drawn again. */
int gfx_live_late(struct app *a);

/* The frame cv is drawn, not yet shown: find the image, blank what it
 * covers (kitty), queue its bytes if its pixels changed.  Returns 1 when
 * it turned images off and said so: draw the frame again. */
int gfx_live_before(struct app *a, canvas *cv);

/* After term_draw: write the queued image bytes. */
void gfx_live_after(void);

/* Take the image off now (Ctrl-Z: the shell gets a clean screen); the
 * next frame sends it again. */
void gfx_live_hide(void);

/* The screen was cleared and repainted, or resized: send the image
 * again; with sixel and iTerm2 every cell is overwritten with a space
 * before the next frame, so that no pixel of an old image stays. */
void gfx_live_forget(void);

/* At exit: take the image off (kitty deletes it). */
void gfx_live_stop(void);

enum gfx_mode gfx_live_mode(void);

/* Image bytes written so far. */
long long gfx_live_bytes(void);

/* An image bigger than this turns images off in low-bandwidth mode
 * (the pacing allows about 1500 bytes a second, two seconds at most);
 * so do the images of one frame together.  While the sweep plays, a
 * frame's images over it give way to cells until the sweep stops (the
 * clock faces turning), said once. */
#define GFX_LOWBW_IMAGE 3000

#endif
