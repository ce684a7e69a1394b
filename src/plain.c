/* SPDX-License-Identifier: ISC */
/*
 * plain.c - the frame as lines of words and numbers (plain.h).
 */
#include "plain.h"

#include <stdlib.h>

int plain_is_drawing(const cell *k)
{
    uint32_t ch = k->ch;

    if (k->kind == CELL_HALF || k->kind == CELL_BRAILLE ||
        k->kind == CELL_BOX || k->kind == CELL_IMAGE)
        return 1;
    return (ch >= 0x2500 && ch <= 0x25FF) ||     /* box, blocks, shapes */
           (ch >= 0x2800 && ch <= 0x28FF);       /* braille */
}

static int is_blank(const cell *k)
{
    return k->kind == CELL_TEXT && k->ch == ' ';
}

/* A cell that reads as part of a word or number. */
static int is_word(const cell *k)
{
    uint32_t ch = k->ch;

    if (k->kind != CELL_TEXT || plain_is_drawing(k))
        return 0;
    return (ch >= '0' && ch <= '9') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= 'a' && ch <= 'z') || ch >= 0x80;
}

static const cell BLANK = { ' ', RGB_DEFAULT, RGB_DEFAULT, 0, CELL_TEXT,
                            LEVEL_NONE, LEVEL_NONE };

static void blank_row(cell *out, int w)
{
    for (int x = 0; x < w; x++)
        out[x] = BLANK;
}

/* Row y of c as plain cells into out (c->w of them, blank-filled);
 * returns 1 when it holds a letter or digit. */
static int plain_row(const canvas *c, int y, cell *out)
{
    int n = 0, blanks = 0, words = 0;

    blank_row(out, c->w);
    for (int x = 0; x < c->w; x++) {
        cell k = *canvas_at(c, x, y);

        if (plain_is_drawing(&k))
            k = BLANK;
        if (k.kind != CELL_WIDE_TAIL && is_blank(&k)) {
            k = BLANK;          /* a blank's background is drawing too */
            if (n == 0 || ++blanks > 2)
                continue;
        } else if (k.kind != CELL_WIDE_TAIL) {
            blanks = 0;
            words |= is_word(&k);
        }
        out[n++] = k;
    }
    return words;
}

void plain_rewrite(canvas *c)
{
    if (c->w < 1 || c->h < 2)
        return;
    cell *rows = calloc((size_t)c->w * (size_t)c->h, sizeof *rows);
    int kept = 0;

    if (!rows)
        return;
    for (int y = 0; y < c->h - 1; y++)
        if (plain_row(c, y, rows + (size_t)kept * (size_t)c->w))
            kept++;
    for (int y = kept; y < c->h - 1; y++)
        blank_row(rows + (size_t)y * (size_t)c->w, c->w);
    int marked = 0;
    for (int y = 0; y < c->h - 1; y++)
        for (int x = 0; x < c->w; x++) {
            cell *k = canvas_at(c, x, y);
            *k = rows[(size_t)y * (size_t)c->w + x];
            marked |= k->attr & ATTR_CURSOR;
        }
    if (!marked)        /* the inspected cell was a drawing: the first line */
        canvas_cursor(c, 0, 0);
    free(rows);
}
