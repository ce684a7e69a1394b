/*
 * font.h - a 5 x 7 bitmap font for printable ASCII, drawn for peviz's
 * pixel output (PNG frames): row r of a glyph is 5 bits, bit 4 leftmost.
 */
#ifndef PEVIZ_FONT_H
#define PEVIZ_FONT_H

#include <stdint.h>

#define FONT_W 5
#define FONT_H 7

/* Rows of ch's glyph into rows[FONT_H]: 1, or 0 when ch is not in
 * 0x20..0x7E (rows left untouched). */
int font_glyph(uint32_t ch, uint8_t rows[FONT_H]);

#endif
