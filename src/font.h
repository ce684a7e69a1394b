/* SPDX-License-Identifier: ISC */
/*
 * font.h - a 5 x 7 bitmap font for printable ASCII and a few signs,
 * drawn for peviz's pixel output (PNG frames): row r of a glyph is 5
 * bits, bit 4 leftmost.
 */
#ifndef PEVIZ_FONT_H
#define PEVIZ_FONT_H

#include <stdint.h>

#define FONT_W 5
#define FONT_H 7

/* Rows of ch's glyph into rows[FONT_H]: 1, or 0 when the font has no
 * glyph for ch (rows left untouched).  It has printable ASCII and the
 * letters and signs of peviz's text: ° · × Σ δ θ λ π τ ω … ₖ → ↓ ↺ √. */
int font_glyph(uint32_t ch, uint8_t rows[FONT_H]);

#endif
