/*
 * peload.h - load a position-embedding table (--pe-file): one row per
 * position, one column per dimension.
 *
 * Two formats, told apart by the first bytes:
 *   .npy  NumPy's format, version 1, 2 or 3: the magic "\x93NUMPY", the
 *         version, a little-endian header length, then a Python dict
 *         literal {'descr': '<f4', 'fortran_order': False,
 *         'shape': (n, d), } and the raw data.  Accepted: 2-D, C order,
 *         little-endian float32 ('<f4') or float64 ('<f8').
 *   CSV   one position per line, values separated by commas (blanks
 *         around them allowed), every line the same count; blank lines
 *         are skipped; '.' is the decimal point whatever the locale.
 * Both: d (columns) even and 2 .. 65536, n (rows) >= 1, n*d at most
 * PELOAD_MAX_VALUES, every value finite.  A file that breaks a rule gets
 * "FILE: what is wrong" in err and -1, never a crash.
 */
#ifndef PEVIZ_PELOAD_H
#define PEVIZ_PELOAD_H

#include <stddef.h>
#include <stdint.h>

/* At most 2^22 values (32 MiB as doubles): GPT-2's 1024 x 768 table fits
 * five times over.  Files larger than PELOAD_MAX_BYTES are refused unread. */
#define PELOAD_MAX_VALUES (INT64_C(1) << 22)
#define PELOAD_MAX_BYTES  (INT64_C(256) << 20)

struct pe_table {
    int64_t n;          /* rows: positions */
    int d;              /* columns: dimensions */
    double *v;          /* v[p * d + dim] */
};

/* Load path into t (t->v owned by the caller afterwards: peload_free). */
int peload_file(const char *path, struct pe_table *t, char *err,
                size_t errlen);

/* The same from memory; name is used in messages (fuzzing uses this). */
int peload_buffer(const char *name, const unsigned char *buf, size_t len,
                  struct pe_table *t, char *err, size_t errlen);

void peload_free(struct pe_table *t);

#endif
