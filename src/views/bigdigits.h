/* SPDX-License-Identifier: ISC */
/*
 * bigdigits.h - numbers in a large block font, for a screen read from
 * the back of a room: each character 3 pixels wide and 5 high (a '.'
 * one wide), drawn with half-block characters in the text's colour
 * (3 rows) where the terminal shows them, else one cell per pixel (5
 * rows).
 */
#ifndef PEVIZ_BIGDIGITS_H
#define PEVIZ_BIGDIGITS_H

#include "canvas.h"

/* Rows the font takes: 3 with half-block characters, 5 without. */
int big_rows(int halves);

/* Cells text takes across (digits, '.', '-', '+', 'e'; others blank). */
int big_width(const char *text);

/*
 * Draw text at (x, y) in colour col, at most w cells wide (nothing when
 * it does not fit whole).  Returns the cells drawn (0: none).
 */
int big_draw(canvas *c, int x, int y, int w, const char *text, rgb col,
             int halves, int ascii);

#endif
