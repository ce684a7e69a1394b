/* SPDX-License-Identifier: ISC */
/*
 * tables_formats.h - (library-internal) the format readers, one file
 * each, above what they share (tables_io.h) and below the one that
 * chooses among them (tables.c).  Each reads l's source into t: 0, or -1
 * with the message in l's source.
 */
#ifndef PEVIZ_TABLES_FORMATS_H
#define PEVIZ_TABLES_FORMATS_H

#include "tables_io.h"

int tables_npy(struct tload *l, struct pe_table *t);
int tables_csv(struct tload *l, struct pe_table *t);
int tables_gguf(struct tload *l, struct pe_table *t);
int tables_safetensors(struct tload *l, struct pe_table *t);
int tables_st_index(struct tload *l, struct pe_table *t);

#endif
