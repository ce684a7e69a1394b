/* SPDX-License-Identifier: ISC */
/*
 * peviz/cachecheck.h - check an implementation's dumped cos/sin cache
 * against the RoPE settings it claims: the bugs inv_freq cannot show
 * (which dimensions pair, the width, an attention factor folded into
 * cos and sin, a position offset).
 *
 * A cache is read from:
 *   .npy          shape (2, n, W): cos, then sin; f2, f4 or f8
 *   safetensors   tensors "cos" and "sin" (or the two names given as
 *                 "COS,SIN"), each (n, W) or (1, n, W), F16, BF16, F32
 *                 or F64
 * Every position is compared, a block of rows at a time (memory does not
 * grow with n).  The variants below are sought on the first
 * CACHE_HEAD_ROWS positions, and one is named only when it holds at
 * every position.
 *
 * Expected, at position p (plus the offset) and column j of width W:
 * a cos(p omega_b), a sin(p omega_b), omega from rope_inv_freq, a the
 * settings' attention factor, b the band the pairing gives j:
 *   interleaved   (2k, 2k+1): b = j / 2
 *   half          (k, k + W/2): b = j mod W/2
 *   wide          (k, k + head_dim/2) across a head wider than the
 *                 rotary dims: b = j mod head_dim/2 when below d/2, else
 *                 the column is not rotated (cos 1, sin 0)
 * A value is within its tolerance when |found - want| <= t + |angle| 2^-22
 * (the angle p omega rounded to float32, as frameworks compute it), t
 * the type's: f64 1e-12, f32 2^-22, f16 2^-10, bf16 2^-7.
 *
 * When the file differs, every combination of up to two of these changes
 * is tried: the pairing (the other ones), the width (the file's, as the
 * rotary dims; or, across a wider head, the exponent over its width:
 * proportional RoPE), the attention factor (1: not folded in; a^2: folded in
 * twice; the one position 0 holds), the position offset (the one the
 * slowest band implies, and 1), and for M-RoPE the slot map (the other
 * layout, chunked or interleaved, and 1-D ids: every slot turning by the
 * token's index).  Each that reproduces every value is named, fewest
 * changes first.  For M-RoPE, when none does, each slot's axis is found
 * alone, and the map is named when every slot follows one axis
 * ("slots t 0-15, h 16-39, w 40-63").  When still none does, the
 * frequencies the cache turns by (its phase unwrapped down the head) go
 * to the frequency check's search (peviz/freqcheck.h), and each match
 * that reproduces the cache, alone or with a factor or an offset, is
 * named "frequencies: ...".
 */
#ifndef PEVIZ_CACHECHECK_H
#define PEVIZ_CACHECHECK_H

#include <stddef.h>
#include <stdint.h>

#include "peviz/freqcheck.h"
#include "peviz/mpos.h"
#include "peviz/rope.h"

#define CACHE_HEAD_ROWS 2048
#define CACHE_WIDTH_MAX 2048

struct cache_src;               /* where the values are (cachefile.c) */

struct cache_file {
    int64_t n;                  /* positions in the file */
    int head;                   /* read at load: min(n, CACHE_HEAD_ROWS) */
    int w;                      /* width W */
    enum freq_dtype dtype;
    double *cos, *sin;          /* the first head rows, head x w */
    struct cache_src *src;      /* the rest, for cache_file_rows */
    char what[160];             /* "npy (2, n, W) f4" */
};

/* Read path (tensor: "COS,SIN" names, or NULL).  0, or -1 with one line
 * "FILE: what is wrong" in err (nothing to free then).  The file stays
 * open until cache_file_free. */
int cache_file_load(const char *path, const char *tensor,
                    struct cache_file *f, char *err, size_t errlen);
/* The same from memory (name in messages; buf is read again by
 * cache_file_rows, so it must outlive f). */
int cache_file_load_buffer(const char *name, const unsigned char *buf,
                           size_t len, const char *tensor,
                           struct cache_file *f, char *err, size_t errlen);
/* Rows from .. from+count-1 (inside 0..n-1) into cos and sin, count x w
 * each: 0, or -1 with "FILE: what is wrong" in err. */
int cache_file_rows(const struct cache_file *f, int64_t from, int count,
                    double *cos, double *sin, char *err, size_t errlen);
void cache_file_free(struct cache_file *f);

enum cache_pairing { CP_INTERLEAVED = 0, CP_HALF, CP_WIDE, CP_COUNT };
const char *cache_pairing_name(int p);      /* "(2k, 2k+1) interleaved" */

struct cache_setup {
    const rope_scaling *sc;
    int d;                      /* rotary dimensions */
    double base;
    int64_t n;
    int head_dim;               /* 0: d */
    int pairing;                /* the settings': enum cache_pairing */
    const struct mpos_conf *mp; /* M-RoPE (mode MPOS_MROPE, with a
                                   --sequence): row p is token p, each
                                   slot turning by its axis's id; else
                                   NULL or off: row p is position p */
};

#define CACHE_MATCH_MAX 16
struct cache_match {
    char name[300];
    int changes;
    double residual;            /* the largest difference left */
};

struct cache_check {
    int64_t rows;               /* compared: the file's, at most the
                                   sequence's tokens */
    int w;
    double worst;               /* as configured: the largest difference */
    int64_t worst_pos;
    int worst_col;
    double want, found;         /* there */
    int nmatch;
    struct cache_match match[CACHE_MATCH_MAX];
};

/* Compare: 0 every value within its tolerance, 1 it differs (then
 * out->match names what reproduces it), -1 the settings cannot be
 * evaluated or the file cannot be read past its head (err says why). */
int cache_check(const struct cache_file *f, const struct cache_setup *s,
                struct cache_check *out, char *err, size_t errlen);

#endif
