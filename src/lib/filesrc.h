/* SPDX-License-Identifier: ISC */
/*
 * filesrc.h - (library-internal) bytes of a file or a memory buffer read
 * by offset, for the table and GGUF parsers.
 *
 * A file is opened without blocking (a FIFO with no writer cannot hang
 * the open), and anything that is not a regular file is refused before a
 * byte is read.  Reads are by offset (pread), so a parser reads the
 * header and the bytes it needs and nothing else: a 500 MB checkpoint
 * costs what its one tensor costs.
 *
 * Errors are one line "NAME: what is wrong" in err (at most errlen bytes,
 * control characters and non-ASCII shown as '?').
 */
#ifndef PEVIZ_FILESRC_H
#define PEVIZ_FILESRC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct filesrc {
    const char *name;           /* for messages */
    int fd;                     /* -1 for a buffer */
    const unsigned char *buf;   /* the buffer, or NULL for a file */
    uint64_t size;              /* bytes in the file or buffer */
    char *err;
    size_t errlen;
    const volatile int *cancel; /* set: every read fails "cancelled" */
};

/*
 * Open path read-only without blocking (a FIFO with no writer returns at
 * once) and refuse anything but a regular file, before a byte is read.
 * Returns the descriptor (blocking mode restored), or -1 with why set to
 * e.g. "a FIFO (pipe), not a regular file" or "cannot open: ..."
 * (peviz/tables.h: tables_open_regular).
 */
int filesrc_open_regular(const char *path, char *why, size_t len);

/* Open path (regular files only).  0, or -1 with the message in err. */
int filesrc_open(struct filesrc *s, const char *path, char *err,
                 size_t errlen);

/* A source over fd, opened by the caller (regular files only; not
 * closed by filesrc_close).  0, or -1 with the message in err. */
int filesrc_adopt(struct filesrc *s, int fd, const char *name, char *err,
                  size_t errlen);

/* A source over len bytes of memory (not copied). */
void filesrc_buffer(struct filesrc *s, const char *name,
                    const unsigned char *buf, size_t len, char *err,
                    size_t errlen);

void filesrc_close(struct filesrc *s);

/* Exactly len bytes at off into dst: 0, or -1 with "truncated" or the
 * read error in err. */
int filesrc_read(const struct filesrc *s, uint64_t off, void *dst,
                 size_t len);

/* Write "NAME: message" into s->err; returns -1. */
int filesrc_fail(const struct filesrc *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int filesrc_vfail(const struct filesrc *s, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* Up to 24 bytes of file text made printable ('?' for controls and
 * non-ASCII, "..." when cut) into out. */
void filesrc_shown(const char *text, size_t len, char *out, size_t outlen);

/* Exact conversions of stored numbers to double. */
double filesrc_f16(uint16_t h);             /* IEEE binary16 */
double filesrc_bf16(uint16_t h);            /* upper half of a binary32 */
double filesrc_f32(uint32_t bits);
double filesrc_f64(uint64_t bits);

/* Stored floating-point element kinds, and one element as a double. */
enum filesrc_elem { FS_F16 = 0, FS_BF16, FS_F32, FS_F64 };
int filesrc_elem_size(enum filesrc_elem e);
double filesrc_elem(enum filesrc_elem e, int big_endian, const unsigned char *b);

/*
 * count elements at off into out[0], out[stride], out[2*stride], ...,
 * read in blocks of at most 64 KiB.  0, or -1 with err.
 */
int filesrc_read_elems(const struct filesrc *s, uint64_t off, uint64_t count,
                       enum filesrc_elem e, int big_endian, double *out,
                       size_t stride);

/* Little-endian and big-endian integers from bytes. */
uint64_t filesrc_le(const unsigned char *b, int nbytes);
uint64_t filesrc_be(const unsigned char *b, int nbytes);

#endif
