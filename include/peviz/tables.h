/* SPDX-License-Identifier: ISC */
/*
 * peviz/tables.h - load a position-embedding table: one row per position,
 * one column per dimension, as doubles, from the files models and numpy
 * write.  The format is told by the first bytes, not the name:
 *
 *   .npy         "\x93NUMPY", versions 1, 2 and 3; descr '<f2' '<f4' '<f8'
 *                '>f2' '>f4' '>f8'; C or Fortran order; exactly 2-D.
 *   safetensors  u64 header length, JSON header, data; F32, F16, BF16 or
 *                F64; one 2-D tensor (opts.tensor, or the one whose name
 *                contains "wpe", "pos" or "position").  A sharded
 *                checkpoint's model.safetensors.index.json is followed to
 *                the shard holding the tensor.
 *   GGUF         "GGUF" (see gguf.h); F32, F16, BF16 or F64; the same pick
 *                (GPT-2: pos_embd.weight, dims stored innermost first).
 *   CSV          one position per line; values separated by commas, tabs
 *                or semicolons (the first data line decides; said in the
 *                note); '.' decimals whatever the locale; a UTF-8 byte
 *                order mark and one non-numeric header line are skipped
 *                and said; blank lines skipped; hex floats, nan and inf
 *                refused.
 *
 * Rules for every format: the table after the row offset has n >= 1 rows
 * and d columns, d even and 2 .. 65536 (any 1 .. 65536 with
 * opts.any_columns), n <= 2^24, n*d <= 2^22 values;
 * every value finite with |v| <= PE_TABLE_VALUE_MAX, so that every sum of
 * products of two rows (scores, norms, covariances) stays finite.  Files
 * must be regular files (a FIFO, a device or a directory is refused
 * before a byte is read).  Binary formats are decided from fstat and the
 * header, then only the chosen tensor's rows are read (by offset); CSV is
 * read in blocks, its memory bounded by the table itself.
 *
 * Row offsets: RoBERTa ("roberta" + "position_embeddings") and OPT
 * ("embed_positions") tables start at row 2 (rows 0 and 1 are padding);
 * without opts.row_offset that offset is applied and said in the note.
 *
 * Errors: one line "FILE: what is wrong" in err, -1, nothing allocated.
 */
#ifndef PEVIZ_TABLES_H
#define PEVIZ_TABLES_H

#include <stddef.h>
#include <stdint.h>

#include "peviz/pe_table.h"


/* Load path into t (free with pe_table_free).  o and info may be NULL. */
int tables_load(const char *path, const struct pe_table_opts *o,
                struct pe_table *t, struct pe_table_info *info, char *err,
                size_t errlen);

/* The same from memory (name in messages; a sharded index cannot be
 * followed from memory).  For fuzzing and tests. */
int tables_load_buffer(const char *name, const unsigned char *buf,
                       size_t len, const struct pe_table_opts *o,
                       struct pe_table *t, struct pe_table_info *info,
                       char *err, size_t errlen);

/* The same from fd, a regular file opened by the caller (not closed
 * here), named name in messages.  A sharded index is refused: its
 * shards would be looked up by path. */
int tables_load_fd(int fd, const char *name, const struct pe_table_opts *o,
                   struct pe_table *t, struct pe_table_info *info,
                   char *err, size_t errlen);

/*
 * Open path read-only without blocking (a FIFO with no writer returns at
 * once) and refuse anything but a regular file, before a byte is read.
 * Returns the descriptor (blocking mode restored), or -1 with why set to
 * e.g. "a FIFO (pipe), not a regular file" or "cannot open: ...".
 */
int tables_open_regular(const char *path, char *why, size_t len);

#endif
