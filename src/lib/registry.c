/* SPDX-License-Identifier: ISC */
/*
 * registry.c - built-in rows, then rows registered at run time (see
 * registry_impl.h).
 */
#include "registry_impl.h"

int registry_count(const struct registry *r)
{
    return r->nbuiltin + r->nextra;
}

const void *registry_row(const struct registry *r, int i)
{
    if (i >= 0 && i < r->nbuiltin)
        return (const char *)r->builtin + (size_t)i * r->size;
    if (i >= r->nbuiltin && i < registry_count(r))
        return r->extra[i - r->nbuiltin];
    return NULL;
}

int registry_add(struct registry *r, const void *row)
{
    if (registry_count(r) >= r->max)
        return -1;
    r->extra[r->nextra++] = row;
    return registry_count(r) - 1;
}
