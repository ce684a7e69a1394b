/* SPDX-License-Identifier: ISC */
/*
 * plain.h - the frame as lines of words and numbers, for screen readers
 * (--plain).  Pure: works on a drawn canvas, knows no view.
 */
#ifndef PEVIZ_PLAIN_H
#define PEVIZ_PLAIN_H

#include "canvas.h"

/*
 * Rewrite a drawn frame in place: every glyph that draws rather than
 * reads (braille, blocks, box lines, geometric shapes, images, the
 * heatmap's half-blocks) becomes a blank, a run of blanks shrinks to
 * two, rows with no letter or digit left go, and the rows that remain
 * stand at the top in the order they had, each from column 0.  The last
 * row (the status line or the prompt) stays where it is.  Text keeps its
 * colours and attributes; when the inspected cell (ATTR_CURSOR) was a
 * drawing, the first line's first cell is marked instead.
 */
void plain_rewrite(canvas *c);

/* Whether cell k draws rather than reads (what plain_rewrite blanks). */
int plain_is_drawing(const cell *k);

#endif
