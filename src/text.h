/*
 * text.h - small text helpers shared by the command line, the frame and
 * the views: lists of names, the first text that fits, word wrap.
 * Widths are terminal cells (text_width), never bytes.
 */
#ifndef PEVIZ_TEXT_H
#define PEVIZ_TEXT_H

#include <stddef.h>

/* "a, b or c" from n words (truncated to len).  Returns buf. */
const char *words_join(const char *const *words, int n, char *buf,
                       size_t len);

#endif
