/* SPDX-License-Identifier: ISC */
/*
 * bigdigits.c - numbers in a 3x5 block font (bigdigits.h).
 */
#include <string.h>

#include "views/bigdigits.h"

/* Five rows of three bits each (bit 2 = left), per character. */
static const struct { char ch; unsigned char w, rows[5]; } FONT[] = {
    { '0', 3, { 7, 5, 5, 5, 7 } }, { '1', 3, { 2, 6, 2, 2, 7 } },
    { '2', 3, { 7, 1, 7, 4, 7 } }, { '3', 3, { 7, 1, 7, 1, 7 } },
    { '4', 3, { 5, 5, 7, 1, 1 } }, { '5', 3, { 7, 4, 7, 1, 7 } },
    { '6', 3, { 7, 4, 7, 5, 7 } }, { '7', 3, { 7, 1, 1, 1, 1 } },
    { '8', 3, { 7, 5, 7, 5, 7 } }, { '9', 3, { 7, 5, 7, 1, 7 } },
    { '-', 3, { 0, 0, 7, 0, 0 } }, { '+', 3, { 0, 2, 7, 2, 0 } },
    { 'e', 3, { 0, 7, 6, 4, 7 } }, { '.', 1, { 0, 0, 0, 0, 4 } },
};

static int glyph_of(char ch)
{
    for (size_t i = 0; i < sizeof FONT / sizeof FONT[0]; i++)
        if (FONT[i].ch == ch)
            return (int)i;
    return -1;
}

int big_rows(int halves)
{
    return halves ? 3 : 5;
}

int big_width(const char *text)
{
    int w = 0;
    for (const char *p = text; *p; p++) {
        int g = glyph_of(*p);
        w += (g < 0 ? 3 : FONT[g].w) + (p[1] ? 1 : 0);
    }
    return w;
}

/* Whether pixel row `row` (0..4; beyond: off) of glyph g has column bit. */
static int lit(int g, int row, int bit)
{
    return row < 5 && (FONT[g].rows[row] & (4 >> bit));
}

/*
 * Column bit of glyph g from cell x, cell row cy: with half blocks a cell
 * holds two pixel rows, drawn as the glyph for the pair in colour col
 * (a character, so the terminal's own text colour shows too), else one
 * pixel as a full block.
 */
static void cell_of(canvas *c, int x, int y, int g, int bit, int cy, rgb col,
                    int halves, int ascii)
{
    static const unsigned PAIR[4] = { 0, 0x2584, 0x2580, 0x2588 };
    if (!halves) {
        if (lit(g, cy, bit))
            canvas_put(c, x, y + cy, ascii ? '#' : 0x2588, col, RGB_DEFAULT, 0);
        return;
    }
    int k = 2 * lit(g, 2 * cy, bit) + lit(g, 2 * cy + 1, bit);
    if (k)
        canvas_put(c, x, y + cy, PAIR[k], col, RGB_DEFAULT, 0);
}

int big_draw(canvas *c, int x, int y, int w, const char *text, rgb col,
             int halves, int ascii)
{
    int width = big_width(text), cx = x;
    if (width > w || width < 1)
        return 0;
    for (const char *p = text; *p; p++) {
        int g = glyph_of(*p);
        int gw = g < 0 ? 3 : FONT[g].w;
        for (int cy = 0; g >= 0 && cy < big_rows(halves); cy++)
            for (int bit = 0; bit < gw; bit++)
                cell_of(c, cx + bit, y, g, bit, cy, col, halves, ascii);
        cx += gw + 1;
    }
    return width;
}
