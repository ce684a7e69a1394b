/* SPDX-License-Identifier: ISC */
/*
 * tables_io.h - (library-internal) what the per-format table readers
 * share, below them: the load in progress, notes, the shape and value
 * rules, reading a stored matrix by offset and choosing a tensor by name.
 */
#ifndef PEVIZ_TABLES_IO_H
#define PEVIZ_TABLES_IO_H

#include "filesrc.h"
#include "peviz/pe_table.h"

struct tload {
    struct filesrc *src;
    struct pe_table_opts o;
    struct pe_table_info *info;     /* never NULL */
    const char *path;               /* the file's path; NULL for memory */
};

/* Append a sentence to info->note ("; " between sentences). */
void tables_note(struct tload *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The fewest columns a table may have (1 with any_columns). */
int tables_d_min(const struct tload *l);

/* The rules on the loaded shape (after the offset). */
int tables_check_shape(struct tload *l, int64_t n, int64_t d);

/* One value against the rules; where names it ("row 3, column 5"). */
int tables_check_value(struct tload *l, double v, const char *where);

/* The row offset: opts, else known (from the tensor's name), said in the
 * note when applied; checked against file_rows. */
int tables_offset(struct tload *l, int64_t file_rows, int64_t known,
                  int64_t *offset);

/* The offset a model's table is known to start at, from its name. */
int64_t tables_known_offset(const char *tensor_name);

/*
 * A stored file_rows x d matrix of elements e at byte data_off (C order,
 * or Fortran order: column by column): apply the row offset (known from
 * the tensor name, or 0), check the shape, allocate t and read only the
 * rows kept; every value checked and named by file row and column.
 */
int tables_read_matrix(struct tload *l, uint64_t data_off, int64_t file_rows,
                       int64_t d, enum filesrc_elem e, int big_endian,
                       int fortran, int64_t known_offset, struct pe_table *t);

/* Names and dimension counts of a file's tensors, for tables_pick. */
struct tables_list {
    size_t count;
    const char *(*name)(const void *ctx, size_t i);
    int (*ndims)(const void *ctx, size_t i);
    const void *ctx;
};

/* l->o.tensor if given (it must exist and be 2-D), else the one 2-D
 * tensor whose name contains "wpe", "pos" or "position"; a refusal lists
 * the candidates.  0 with *chosen, or -1. */
int tables_pick(struct tload *l, const struct tables_list *ls,
                size_t *chosen);

#endif
