/* SPDX-License-Identifier: ISC */
/*
 * docgen.h - what the documentation generator's files share (docgen.c:
 * the lists; docgen_fill.c: the marked blocks of a file;
 * docgen_complete.c: the shell completions; docgen_main.c: the command
 * line over them).
 */
#ifndef PEVIZ_DOCGEN_H
#define PEVIZ_DOCGEN_H

#include <stdio.h>

/* s as roff text (backslashes, minus signs, non-ASCII escaped). */
void docgen_roff(FILE *out, const char *s);

/* Print list name in md (man 0) or roff (man 1); -1 if there is none. */
int docgen_list(FILE *out, const char *name, int man);
/* Print the names of the lists, one a line. */
void docgen_names(FILE *out);

/* Print the file at path with each marked block filled: 0, or 2 after
 * one line on stderr. */
int docgen_fill(FILE *out, const char *path);

/* Print the completion script for shell: 0, or 2 for an unknown shell. */
int docgen_complete(FILE *out, const char *shell);

#endif
