/* SPDX-License-Identifier: ISC */
/*
 * bytes.h - build binary files byte by byte in the library tests: a
 * growing buffer with little- and big-endian integers, floats and
 * GGUF/safetensors-style strings, and temporary files from it.
 */
#ifndef PEVIZ_TEST_BYTES_H
#define PEVIZ_TEST_BYTES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>    /* getpid: define _POSIX_C_SOURCE first */

struct bytes {
    unsigned char *b;
    size_t n, cap;
};

static inline void b_put(struct bytes *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n)
            cap *= 2;
        b->b = realloc(b->b, cap);
        if (!b->b)
            abort();
        b->cap = cap;
    }
    if (n)
        memcpy(b->b + b->n, p, n);
    b->n += n;
}

/* n bytes of v, least significant first (le) or last. */
static inline void b_int(struct bytes *b, uint64_t v, int n, int big)
{
    unsigned char c[8];
    for (int i = 0; i < n; i++)
        c[big ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
    b_put(b, c, (size_t)n);
}

static inline void b_u8(struct bytes *b, unsigned v) { b_int(b, v, 1, 0); }
static inline void b_u16(struct bytes *b, unsigned v) { b_int(b, v, 2, 0); }
static inline void b_u32(struct bytes *b, uint32_t v) { b_int(b, v, 4, 0); }
static inline void b_u64(struct bytes *b, uint64_t v) { b_int(b, v, 8, 0); }

static inline uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline uint64_t f64_bits(double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    return u;
}

static inline void b_f32(struct bytes *b, float f) { b_u32(b, f32_bits(f)); }
static inline void b_f64(struct bytes *b, double v) { b_u64(b, f64_bits(v)); }

static inline void b_text(struct bytes *b, const char *s) { b_put(b, s, strlen(s)); }

/* u64 length + bytes (GGUF strings). */
static inline void b_str64(struct bytes *b, const char *s)
{
    b_u64(b, strlen(s));
    b_text(b, s);
}

static inline void b_pad(struct bytes *b, size_t align, unsigned char fill)
{
    while (b->n % align)
        b_put(b, &fill, 1);
}

static inline void b_free(struct bytes *b)
{
    free(b->b);
    memset(b, 0, sizeof *b);
}

/* Write b to a new temporary file; its path goes to path (>= 64 bytes). */
static inline int b_tempfile(const struct bytes *b, char *path, const char *suffix)
{
    static int seq;
    snprintf(path, 64, "/tmp/peviz-test-%ld-%d%s", (long)getpid(), seq++,
             suffix);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = b->n ? fwrite(b->b, 1, b->n, f) : 0;
    return (fclose(f) || w != b->n) ? -1 : 0;
}

#endif
