/* SPDX-License-Identifier: ISC */
/*
 * peviz/freqcheck.h - check an implementation's dumped inv_freq against
 * the RoPE settings it claims (peviz/rope.h), band by band, and name the
 * known port bug that reproduces it.
 *
 * A dump is read from:
 *   .npy          1-D (or one row / one column), '<f2' '<f4' '<f8' and
 *                 the big-endian forms
 *   safetensors   one tensor (by name, else the only one, else the one
 *                 named "inv_freq"), F16, BF16, F32 or F64, 1-D or with
 *                 one dimension > 1
 *   GGUF          the tensor rope_freqs.weight (or the one named): d/2
 *                 divisors f_i, so the frequencies are theta_i / f_i
 *   CSV / text    numbers separated by commas, blanks, tabs,
 *                 semicolons or brackets, one header line skipped;
 *                 lines "band,omega[,...]" (peviz --export freqs) give
 *                 omega; a printed list, numpy array or torch tensor
 *                ("tensor([1.0000e+00, ...], dtype=torch.float64)")
 *                 reads as its numbers
 *
 * Tolerance: what the file's type can hold, a relative error of
 *   f64 1e-12, f32 2^-22 (4 ulp), f16 2^-9, bf16 2^-6; text: each
 *   number's own, one unit of its last printed digit relative to it (at
 *   least 1e-12; "%.9g" gives 1e-8 at most, "%.6f" what its decimals
 *   hold), an integer such as "1" held to the file's finest.
 *
 * When the file differs, the check is a search: a port's deviation is a
 * few independent choices, each a row of the variant table (axes method,
 * dims, base, yarn, arithmetic, shape; freq_variant_at lists them).  Every
 * combination of at most two changes among method, dims, base and yarn,
 * each in float64, in float32 as transformers computes it (every
 * operation rounded; only for a file of float32 numbers) and in bf16
 * (only for a file of bf16 numbers), is evaluated; each that reproduces
 * every band within the tolerance is a match, unless fewer of its
 * changes already match.  A file of 2 x d/2 values that holds each value
 * twice (cat(inv, inv), or interleaved) is read as its d/2 values.
 * float32 arithmetic alone is the reference's own: a match (0).  The
 * search keeps its state in static storage: one check at a time.
 *
 * A band is within its tolerance when |found - want| <= tol |want|, or
 * (f16: subnormals, and values that underflow to 0) <= 2^-25.
 */
#ifndef PEVIZ_FREQCHECK_H
#define PEVIZ_FREQCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "peviz/rope.h"

#define FREQ_BANDS_MAX ROPE_FACTORS_MAX     /* d/2 <= 256 */
#define FREQ_FILE_MAX (2 * FREQ_BANDS_MAX)  /* each value twice */

enum freq_dtype { FD_F64 = 0, FD_F32, FD_F16, FD_BF16, FD_TEXT };

struct freq_file {
    int n;                      /* values read */
    double v[FREQ_FILE_MAX];
    enum freq_dtype dtype;
    int divisors;               /* GGUF rope_freqs.weight: v are f_i */
    double tol;                 /* the relative tolerance its type fits
                                   (text: the largest of tolv) */
    double tolv[FREQ_FILE_MAX]; /* each value's own (text: one unit of its
                                   last printed digit) */
    char what[96];              /* "npy <f4", "gguf rope_freqs.weight F32" */
};

/* Read path (tensor: a name, or NULL).  0, or -1 with one line
 * "FILE: what is wrong" in err. */
int freq_file_load(const char *path, const char *tensor, struct freq_file *f,
                   char *err, size_t errlen);

/* The same from memory (name in messages). */
int freq_file_load_buffer(const char *name, const unsigned char *buf,
                          size_t len, const char *tensor, struct freq_file *f,
                          char *err, size_t errlen);

/* The relative tolerance of a type (FD_TEXT: 1e-12; see above). */
double freq_dtype_tol(enum freq_dtype t);
const char *freq_dtype_name(enum freq_dtype t);

/* The variant table: one row per independent choice a port can get
 * wrong.  An axis's first choice, as configured, is no row. */
enum freq_axis { FA_METHOD = 0, FA_DIMS, FA_BASE, FA_YARN, FA_ARITH,
                 FA_SHAPE, FA_COUNT };
enum freq_shape { FS_PLAIN = 0, FS_CAT, FS_TWICE };

struct freq_variant {
    enum freq_axis axis;
    const char *name;           /* "the rotary fraction ignored" */
    const char *help;           /* one sentence: what the port did */
};

int freq_variant_count(void);
const struct freq_variant *freq_variant_at(int i);      /* NULL: none */
const char *freq_axis_name(enum freq_axis a);           /* "method" */

/* What the search knows of the model besides the settings. */
struct freq_setup {
    const rope_scaling *sc;
    int d;                      /* rotary dimensions */
    double base;
    int64_t n;
    int head_dim;               /* 0: not known (then 2d, 4d and 2.5d,
                                   rotary fractions 0.5, 0.25 and 0.4, are
                                   tried) */
    int64_t max_pos;            /* max_position_embeddings (0: n) */
};

/* One combination that reproduces the file (equivalent ones in one). */
#define FREQ_MATCH_MAX 24
struct freq_match {
    char name[400];             /* "rotary dims ignored in the exponent
                                   (head_dim 96), equivalently base 10
                                   instead of 10000" */
    int changes;                /* choices that differ from the config */
    double residual;            /* the largest relative error left */
    int nb;                     /* bands of the combination */
    double omega[FREQ_BANDS_MAX];   /* its frequencies */
};

/* One compared band. */
struct freq_band {
    int band;
    double expected, found, rel;    /* rel = |found - expected| / expected */
};

struct freq_check {
    int nbands;                 /* d/2 */
    int ndiff;                  /* bands beyond the tolerance */
    double worst;               /* the largest relative error */
    struct freq_band band[FREQ_FILE_MAX];   /* the first ndiff differing */
    char variant[400];          /* the first match's name, or "" */
    int f32_only;               /* 0 because float32 arithmetic alone
                                   reproduces every band */
    double f32_residual;        /* its residual */
    int shape;                  /* how the file was read: enum freq_shape */
    int nfound;                 /* values after reading the shape */
    int nmatch;
    struct freq_match match[FREQ_MATCH_MAX];   /* fewest changes first */
};

/*
 * Compare f with the settings (sc, d, base, at sequence length n):
 * 0 all bands within f->tol, 1 some differ (then out->variant names the
 * known variant that reproduces every band, if one does), -1 when the
 * settings cannot be evaluated or the file does not have d/2 values
 * (err says which) and no variant of another band count matches it.
 */
int freq_check(const struct freq_file *f, const rope_scaling *sc, int d,
               double base, int64_t n, struct freq_check *out, char *err,
               size_t errlen);

/* The same with what else is known of the model (head_dim, ...). */
int freq_check_setup(const struct freq_file *f, const struct freq_setup *s,
                     struct freq_check *out, char *err, size_t errlen);

#endif
