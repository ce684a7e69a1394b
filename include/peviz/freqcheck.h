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
 * Known variants, tried in this order when the file differs: yarn with
 * truncation toggled, yarn with beta_fast and beta_slow swapped, yarn
 * with its ramp's top clamped at d/2-1 instead of d-1, no scaling at
 * all, llama3's rule applied as plain linear scaling, a wrong base (the
 * one band 1 implies, and the usual bases), and inv_freq computed by
 * float32 pow (when every value is a float32 number to the file's
 * precision; held to 8 float32 ulp), alone or with one of the others
 * (", and inv_freq by float32 pow").
 */
#ifndef PEVIZ_FREQCHECK_H
#define PEVIZ_FREQCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "peviz/rope.h"

#define FREQ_FILE_MAX ROPE_FACTORS_MAX      /* d/2 <= 256 */

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
    char variant[160];          /* "yarn with truncate off", or "" */
};

/*
 * Compare f with the settings (sc, d, base, at sequence length n):
 * 0 all bands within f->tol, 1 some differ (then out->variant names the
 * known variant that reproduces every band, if one does), -1 when the
 * settings cannot be evaluated or the file does not have d/2 values
 * (err says which).
 */
int freq_check(const struct freq_file *f, const rope_scaling *sc, int d,
               double base, int64_t n, struct freq_check *out, char *err,
               size_t errlen);

#endif
