/* SPDX-License-Identifier: ISC */
/*
 * peviz/names.h - the words of an enum, kept in a table of names
 * indexed by its values: a word to its value and back, one way for
 * every table.  Part of libpeviz: libc only.
 */
#ifndef PEVIZ_NAMES_H
#define PEVIZ_NAMES_H

/* The words of a table of names given whole (not a pointer). */
#define NAMES_COUNT(names) ((int)(sizeof(names) / sizeof((names)[0])))

/* The index of word s among names[0 .. count-1]; -1 for NULL or a word
 * that is not there. */
int names_find(const char *const *names, int count, const char *s);

/* names[i], or none when i is outside 0 .. count-1. */
const char *names_at(const char *const *names, int count, int i,
                     const char *none);

#endif
