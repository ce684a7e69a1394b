/* SPDX-License-Identifier: ISC */
/*
 * peviz/pe_table.h - a loaded position table (one row per position, one
 * column per dimension, as doubles), the options of a load, what a load
 * found, and the limits every table keeps (peviz/tables.h loads them).
 */
#ifndef PEVIZ_PE_TABLE_H
#define PEVIZ_PE_TABLE_H

#include <stddef.h>
#include <stdint.h>

#define PE_TABLE_MAX_VALUES (INT64_C(1) << 22)   /* 32 MiB as doubles */
#define PE_TABLE_D_MIN      2
#define PE_TABLE_D_MAX      65536
#define PE_TABLE_N_MAX      (INT64_C(1) << 24)
#define PE_TABLE_VALUE_MAX  1e150
#define PE_TABLE_CSV_MAX_BYTES (INT64_C(256) << 20) /* refused unread */

struct pe_table {
    int64_t n;          /* rows: positions */
    int d;              /* columns: dimensions */
    double *v;          /* v[p * d + dim] */
};

struct pe_table_opts {
    const char *tensor;     /* a tensor name, or NULL: pick by name */
    int64_t row_offset;     /* rows to skip, or -1: the known offset */
    int any_columns;        /* 1: any column count 1..PE_TABLE_D_MAX, odd
                               ones too (a T5 bias table's heads); 0:
                               an even d_model */
    const volatile int *cancel; /* non-NULL: once *cancel is set (by
                               another thread) the load stops within a
                               read of 64 KiB, refused "cancelled" */
};

/* What was loaded, for messages; every string NUL-terminated. */
struct pe_table_info {
    const char *format;     /* "npy", "csv", "safetensors", "gguf" */
    char tensor[160];       /* the tensor's name ("" for npy and csv) */
    char file[1024];        /* the file read (a shard for an index) */
    int64_t file_rows;      /* rows in the file, before the offset */
    int64_t row_offset;     /* rows skipped */
    char note[320];         /* what was done on the user's behalf, or "" */
};

/* Defaults: pick the tensor, apply known offsets. */
void pe_table_opts_init(struct pe_table_opts *o);

/* Free what t holds (t itself is the caller's). */
void pe_table_free(struct pe_table *t);

#endif
