/* SPDX-License-Identifier: ISC */
/*
 * peviz/layout.h - dimension layouts, lower-precision PE and the
 * wavelength spectrum numbers used by the compare view.  Part of
 * libpeviz: pure functions of libc and libm, no state.
 *
 * Layouts (all use the paper's frequencies omega_i = base^(-2i/d), so
 * the three are permutations of the same d values; h = d/2):
 *   interleaved  dim 2i = sin band i, dim 2i+1 = cos band i (the paper);
 *   concat       dim i = sin band i, dim h+i = cos band i: the [sin | cos]
 *                order of tensor2tensor's get_timing_signal_1d.  That code
 *                also spaces its frequencies differently (exponent
 *                i/(h-1) instead of 2i/d), which is NOT reproduced here;
 *   half         dims i and h+i form band i's pair, as rotate_half RoPE
 *                code (GPT-NeoX, Llama) pairs them.  Shown as that
 *                rotation applied to a unit vector in the first half:
 *                dim i = cos band i, dim h+i = sin band i.  The pairing
 *                is concat's; only the halves are swapped.
 *
 * Precision pipelines (each names where rounding happens; f64 is the
 * exact reference):
 *   f64        nothing rounded;
 *   f32        position, omega, the angle pos*omega and the value each
 *              rounded to float32;
 *   bf16, f16  "f32-angle", what current Llama/transformers code does:
 *              position, omega and the angle in float32, cos/sin computed
 *              there (rounded to float32), then the value cast to the
 *              format;
 *   all-bf16, all-f16   position, omega, the angle and the value each
 *              rounded to the format: a cached table built in that type,
 *              the old all-bf16 bug (GPT-NeoX issue 1003).
 */
#ifndef PEVIZ_LAYOUT_H
#define PEVIZ_LAYOUT_H

#include <stdint.h>

enum layout { LAYOUT_INTERLEAVED = 0, LAYOUT_CONCAT, LAYOUT_HALF,
              LAYOUT_COUNT };
enum precision { PREC_F64 = 0, PREC_F32, PREC_BF16, PREC_F16,
                 PREC_ALL_BF16, PREC_ALL_F16, PREC_COUNT };

const char *layout_name(enum layout l);        /* "interleaved", ... */
int layout_parse(const char *s);               /* -1 if unknown */
const char *precision_name(enum precision p);  /* "f64", "bf16", "all-bf16" */
/* The name, or "f32-angle-bf16" / "f32-angle-f16" for bf16 / f16; -1 if unknown. */
int precision_parse(const char *s);
/* Where the pipeline rounds, in words: "f32 angle, bf16 value". */
const char *precision_pipeline(enum precision p);

/* The format positions, omega and angles are held in, and the format of
 * the value (PREC_F64, PREC_F32, PREC_BF16 or PREC_F16). */
enum precision prec_angle_format(enum precision p);
enum precision prec_value_format(enum precision p);

/*
 * The displayed dimension j (0 <= j < d) of layout l holds band *band,
 * and the cosine when *is_cos, else the sine.
 */
void layout_map(enum layout l, int d, int j, int *band, int *is_cos);

/* The inverse: the displayed dimension holding (band, is_cos). */
int layout_dim(enum layout l, int d, int band, int is_cos);

/* x rounded to the value format of p (f64: x itself). */
double prec_round(enum precision p, double x);

/* Largest position the pipeline's angle format holds exactly as an
 * integer step (2^53, 2^24, 2^8, 2^11): beyond it neighbouring positions
 * merge. */
double prec_exact_limit(enum precision p);

/*
 * PE value at position pos, displayed dimension j, as the pipeline
 * computes it (see above).  f64 gives pe_value exactly.  NaN when the
 * format overflows (all-f16 cannot hold positions or angles of 65520 and
 * beyond).
 */
double layout_value(int d, double base, enum layout l, enum precision p,
                    int64_t pos, int j);

/*
 * Mean of layout_value over the positions [p0, p1).  f64: the closed
 * form (exact, O(1)).  Other formats have no closed form: the result is
 * the exact f64 mean plus the mean rounding error over every stride-th
 * position (stride 1: exact; a larger stride bounds the work, and any
 * sampling error is then at most the size of the rounding error).
 */
double layout_value_mean(int d, double base, enum layout l,
                         enum precision p, int64_t p0, int64_t p1, int j,
                         int64_t stride);

/* The same for cols ranges [p0[c], p1[c]) of one slot j (p1[c] > p0[c]),
 * into out[c]: the frequency is formed once for the row. */
void layout_value_means(int d, double base, enum layout l, enum precision p,
                        const int64_t *p0, const int64_t *p1, int cols, int j,
                        int64_t stride, double *out);

/* ---- the wavelength spectrum ----------------------------------------- */
/*
 * wavelength_i = 2*pi / omega_i = 2*pi * base^(2i/d) grows with i.  A band
 * completes at least one turn within n positions when wavelength_i <= n
 * (n * omega_i >= 2*pi); its turns within n are n / wavelength_i.
 */

/* First band whose wavelength exceeds n; d/2 when every band turns. */
int spectrum_critical_band(int d, double base, int64_t n);

/* Number of bands completing at least one turn within n (= the critical
 * band's index, as wavelengths grow with the band). */
int spectrum_turning_bands(int d, double base, int64_t n);

/* Wavelength of the slowest band d/2-1: 2*pi * base^((d-2)/d). */
double spectrum_slowest_wavelength(int d, double base);

/* Turns the slowest band makes within n: n / its wavelength. */
double spectrum_slowest_turns(int d, double base, int64_t n);

/* 2*pi*base: the limit the slowest wavelength approaches as d grows,
 * never reached by any band. */
double spectrum_wavelength_limit(double base);

#endif
