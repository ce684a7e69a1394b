/* SPDX-License-Identifier: ISC */
/*
 * registry_impl.h - inside libpeviz: a table of rows that are built in
 * (an array) and, after them, rows registered at run time (pointers to
 * the caller's rows, not copied).  The schemes (schemes.c) and the RoPE
 * methods (rope.c) keep theirs in one; each checks a new row's name
 * itself before registry_add.
 */
#ifndef PEVIZ_REGISTRY_IMPL_H
#define PEVIZ_REGISTRY_IMPL_H

#include <stddef.h>

struct registry {
    const void *builtin;        /* nbuiltin rows of size bytes each */
    size_t size;
    int nbuiltin;
    const void **extra;         /* room for max - nbuiltin pointers */
    int max;                    /* rows in all, at the most */
    int nextra;
};

/* Rows in all: the built-in ones and those registered. */
int registry_count(const struct registry *r);

/* Row i (built-in first, then registered), or NULL out of range. */
const void *registry_row(const struct registry *r, int i);

/* Append row (which must outlive its use): its number, or -1 when the
 * table holds max rows. */
int registry_add(struct registry *r, const void *row);

#endif
