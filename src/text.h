/*
 * text.h - small text helpers shared by the command line, the frame and
 * the views: lists of names, the first text that fits, word wrap.
 * Widths are terminal cells (text_width), never bytes.
 */
#ifndef PEVIZ_TEXT_H
#define PEVIZ_TEXT_H

#include <stddef.h>

#include "canvas.h"

/* "a, b or c" from n words (truncated to len).  Returns buf. */
const char *words_join(const char *const *words, int n, char *buf,
                       size_t len);

/*
 * The first text that fits: the index of the first of n candidates (the
 * longest wording first) at most w cells wide, NULL ones skipped; -1
 * when none fits.
 */
int text_first_fit(const char *const *cand, int n, int w);

/* The same over a char [n][stride] array of candidates. */
int text_first_fit_rows(const char *rows, size_t stride, int n, int w);

/*
 * Draw at (x, y) the first candidate that fits in w cells, else as many
 * whole words of the last one as fit, less a trailing "=" or ":" whose
 * value is cut off (nothing when its first word is wider: never half a word or a
 * number).  Returns the candidate's index.
 */
int canvas_text_fit(canvas *c, int x, int y, int w, const char *const *cand,
                    int n, rgb fg, int attr);

/*
 * Where a label tw cells wide goes in the cells [l, r) of a row that
 * holds a one-cell mark at column mark (e.g. an axis's cursor): centred,
 * else centred on the wider side of the mark, a blank cell from it.
 * The label's x, or -1 when it fits nowhere clear of the mark.
 */
int text_place_clear(int l, int r, int tw, int mark);

/*
 * Word wrap, one line at a time: copy into out the longest run of whole
 * words of s that is at most width cells wide; a first word wider than
 * width is cut (nothing else can be shown).  Returns the bytes of s
 * consumed, blanks after the line included (0 at the end of s).
 */
size_t text_wrap_line(const char *s, int width, char *out, size_t outlen);

#endif
