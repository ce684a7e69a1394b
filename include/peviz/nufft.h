/* SPDX-License-Identifier: ISC */
/*
 * peviz/nufft.h - a complex FFT and sums of cosines at non-uniform
 * frequencies over a uniform range of integers (a type-1 non-uniform
 * FFT): f(delta) = sum_k a_k cos(delta w_k) + b_k sin(delta w_k) for every
 * delta in [-(n-1), n-1] in O(n log n + m w) instead of O(n m).
 * Part of libpeviz: libc and libm only, no state outside the plan.
 *
 * Method: f(delta) = Re sum_k c_k e^{i delta w_k}, c_k = a_k - i b_k.
 * The distances are cut into segments of M; each segment is a type-1
 * transform over its modes t = delta - (its centre) with sources at w_k
 * and weights c_k e^{i centre w_k}, two segments packed into one complex
 * FFT (each source mirrored with the conjugate weight, so each segment's
 * transform is real: the real part is one segment, the imaginary part
 * the other).  Each source is spread onto a grid of N = 2M points with a
 * Gaussian of 2 x SPREAD points, the grid is transformed, and every mode
 * is divided by the Gaussian's Fourier transform (Greengard and Lee's
 * width for oversampling 2).  The error is near 1e-15 of
 * sum_k |a_k| + |b_k| per distance (1e-12 absolute for d = 4096).
 */
#ifndef PEVIZ_NUFFT_H
#define PEVIZ_NUFFT_H

#include <stddef.h>
#include <stdint.h>

/*
 * In-place FFT of n = 2^p complex points, z[2j] + i z[2j+1]:
 * Z_k = sum_j z_j e^{sign 2 pi i j k / n}, sign = -1 or +1, unscaled.
 * Returns 0, or -1 when n is not a power of two or out of memory.
 */
int pv_fft(double *z, size_t n, int sign);

typedef struct pv_cos_plan pv_cos_plan;

/*
 * A plan for f over [-(n-1), n-1] (n >= 1) from m frequencies w (any
 * real numbers), a and b (b may be NULL: all zero); the arrays are
 * copied.  NULL when out of memory or n < 1.
 */
pv_cos_plan *pv_cos_new(const double *w, const double *a, const double *b,
                        int m, int64_t n);
void pv_cos_free(pv_cos_plan *p);        /* NULL is fine */

/*
 * The same for new frequencies and coefficients, keeping old's buffers,
 * twiddles and kernel tables when n is unchanged (no fresh pages to
 * fault in); otherwise old is freed and a new plan made.  old may be
 * NULL.  NULL when out of memory (old is then freed).
 */
pv_cos_plan *pv_cos_renew(pv_cos_plan *old, const double *w, const double *a,
                          const double *b, int m, int64_t n);

/* The whole work of the plan in units of about one butterfly. */
int64_t pv_cos_work(const pv_cos_plan *p);

/*
 * Advance by about *budget units (taken off *budget), writing
 * f[delta + n - 1] as the phases finish.  Returns 1 while unfinished,
 * 0 when all of f is written.  f holds 2n - 1 doubles.
 */
int pv_cos_step(pv_cos_plan *p, double *f, int64_t *budget);

/*
 * Two spans of pv_cos_span(p) distances centred anywhere, one transform:
 * f(c_h + t) for t in [-span/2, span/2) into f_h[t + span/2], h = 0, 1
 * (f1 may be NULL).  The plan's span is half its grid: a plan made for
 * n = 2^p (p <= 16) has spans of 2^p.  A whole-range pass in progress
 * starts over.
 */
int64_t pv_cos_span(const pv_cos_plan *p);
/* The tables and buffers pv_cos_pair keeps (each source's weights, the
 * twiddles), made now rather than at the first pair: 0, or -1 when out
 * of memory (pv_cos_pair then makes its spans the slower way). */
int pv_cos_pair_prepare(pv_cos_plan *p);
void pv_cos_pair(pv_cos_plan *p, int64_t c0, int64_t c1, double *f0,
                 double *f1);

/* All at once.  Returns 0, or -1 when out of memory. */
int pv_cos_sums(const double *w, const double *a, const double *b, int m,
                int64_t n, double *f);

#endif
