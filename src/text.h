/* SPDX-License-Identifier: ISC */
/*
 * text.h - the text layer, below the canvas: UTF-8 decoding and encoding,
 * the width of code points and strings in terminal cells, making text
 * safe for a terminal, word wrap, and small helpers shared by the
 * command line, the frame and the views (lists of names, the first text
 * that fits).  Widths are terminal cells (text_width), never bytes.
 */
#ifndef PEVIZ_TEXT_H
#define PEVIZ_TEXT_H

#include <stddef.h>
#include <stdint.h>

#define CP_REPLACEMENT 0xFFFDu

/* ---- code points and UTF-8 ------------------------------------------- */

/*
 * Decode the code point at s[0 .. n): its length in *len.  Returns -1 for
 * a malformed sequence (stray continuation, truncation, overlong form,
 * surrogate, beyond U+10FFFF).  The one decoder: utf8_next is built on it.
 */
long utf8_decode(const unsigned char *s, size_t n, int *len);

/* Encode one code point as UTF-8 into buf (>= 5 bytes); returns length. */
int utf8_encode(uint32_t cp, char *buf);

/* Decode the code point at *s and advance past it; malformed input
 * gives U+FFFD and advances one byte. */
uint32_t utf8_next(const char **s);

/* A no-break space: text wraps never break there, and a cell shows it
 * as a plain space (":pos" TEXT_GLUE "P" stays on one line). */
#define CP_GLUE 0x00A0
#define TEXT_GLUE "\xc2\xa0"

/* s with each TEXT_GLUE made a plain space, in place (for text that goes
 * to a file or a pipe, not through a cell). */
void text_unglue(char *s);

/* The code point a cell may hold in place of cp: a space for CP_GLUE,
 * U+FFFD for a control character, a surrogate or a zero-width code
 * point. */
uint32_t cp_sanitize(uint32_t cp);

/*
 * Make text safe to print on a terminal, in place: every byte a terminal
 * may act on becomes '?' (C0 controls, DEL, C1 controls both as UTF-8
 * and as raw bytes 0x80..0x9F such as the 8-bit CSI 0x9B, and any byte
 * of malformed UTF-8).  With utf8 = 0 (a terminal that is not UTF-8,
 * where every byte from 0x80 up may be a C1 control) all bytes from 0x80
 * up become '?'.  The text never grows.
 */
void text_scrub(char *s, int utf8);

/* Width in cells of UTF-8 text (as canvas_text would draw it). */
int text_width(const char *s);

/* Width in cells of one code point: 0, 1 or 2. */
int cp_width(uint32_t cp);

/* ---- helpers ---------------------------------------------------------- */

/* "a, b or c" from n words (truncated to len).  Returns buf. */
const char *words_join(const char *const *words, int n, char *buf,
                       size_t len);
/* The same with last between the last two ("a, b, c" for ", "). */
const char *words_join_last(const char *const *words, int n,
                            const char *last, char *buf, size_t len);

/*
 * The first text that fits: the index of the first of n candidates (the
 * longest wording first) at most w cells wide, NULL ones skipped; -1
 * when none fits.
 */
int text_first_fit(const char *const *cand, int n, int w);

/* The same over a char [n][stride] array of candidates. */
int text_first_fit_rows(const char *rows, size_t stride, int n, int w);


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

/* The code point at s (U+FFFD for a malformed byte), its bytes in *len. */
uint32_t utf8_at(const char *s, int *len);

/* The code point s ends with (s non-empty, valid UTF-8). */
uint32_t utf8_last(const char *s);

/* Whether two text lines ending in a and starting with b join with a
 * blank: not inside Chinese text (wide characters, their quotes, after
 * full-width punctuation), as in English otherwise. */
int text_join_blank(uint32_t a, uint32_t b);

/* One wrapped line: bytes [off, off + len) of the text, cells wide. */
struct text_line {
    int off, len, cells;
};

/*
 * Wrap text (lines separated by '\n', each wrapped on its own; an empty
 * one gives a blank line) to width cells: Latin words break at blanks,
 * and a line may also break between two double-width (CJK) characters,
 * but never before closing punctuation such as ，。） nor after opening
 * punctuation such as （“.  A word wider than the line is cut between
 * characters.  No line is wider than width.  Fills at most max lines;
 * returns how many lines the whole text needs (0 when width < 2).
 */
int text_wrap_lines(const char *text, int width, struct text_line *out,
                    int max);

/* The Chinese for one of the program's English texts (the status line's
 * words, the tour's own messages), or en itself when it has none.  A
 * printf format's Chinese takes the same conversions in the same order. */
const char *text_zh(const char *en) __attribute__((format_arg(1)));

/* A view's status hint ("1 col = 1-2 pos, every 2nd band") in Chinese
 * into out: each part between ", ", "; " and double spaces that has a
 * Chinese form is replaced, its numbers kept; others stay as they are.
 * Never ends in half a character. */
void text_zh_hint(const char *en, char *out, size_t len);

#endif
