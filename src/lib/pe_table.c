/* SPDX-License-Identifier: ISC */
/*
 * pe_table.c - a loaded table's defaults and release (peviz/pe_table.h).
 */
#include "peviz/pe_table.h"

#include <stdlib.h>

void pe_table_opts_init(struct pe_table_opts *o)
{
    o->tensor = NULL;
    o->row_offset = -1;
    o->any_columns = 0;
    o->cancel = NULL;
}

void pe_table_free(struct pe_table *t)
{
    if (!t)
        return;
    free(t->v);
    t->v = NULL;
    t->n = 0;
    t->d = 0;
}
