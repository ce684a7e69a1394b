/* SPDX-License-Identifier: ISC */
/*
 * slides.h - a tour as slides: every step drawn without a terminal and
 * written as SVG and as text, with an index.html that pages through them
 * with the arrow keys (its script is inline: nothing is fetched).
 */
#ifndef PEVIZ_SLIDES_H
#define PEVIZ_SLIDES_H

#include <stddef.h>

#include "app.h"

/*
 * Write the steps of a->tour (loaded) into dir, created if missing (one
 * level): step-01.svg, step-01.txt, ... and index.html, each through a
 * temporary file in dir renamed into place, so a reader never sees half
 * a file.  Nothing is written outside dir.  The SVG is drawn in colour
 * mode svg_mode, the text without colour, both w x h cells.  Returns the
 * number of steps written, or -1 with the reason in err.
 */
int slides_write(struct app *a, const char *dir, int w, int h,
                 enum color_mode svg_mode, char *err, size_t errlen);

#endif
