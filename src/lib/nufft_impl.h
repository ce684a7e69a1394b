/* SPDX-License-Identifier: ISC */
/*
 * nufft_impl.h - inside libpeviz: the plan of the cosine sums, shared by
 * the whole-range pass (nufft.c) and the two-span transform
 * (nufft_pair.c).
 */
#ifndef PEVIZ_NUFFT_IMPL_H
#define PEVIZ_NUFFT_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "peviz/nufft.h"

#include "peviz/pi.h"
#define SPREAD 16               /* grid points each side of a source */

/* Two doubles at a time (GCC and Clang vector extensions; SSE2 on
 * x86-64, whatever the target has elsewhere). */
typedef double v2d __attribute__((vector_size(16)));

enum { ST_SPREAD = 0, ST_FFT, ST_OUT, ST_DONE };   /* pv_cos_step's */

struct pv_cos_plan {
    int m;
    int64_t n;
    int s, r;                   /* segments (even); the next one */
    int64_t q;                  /* modes -q .. q-1 per segment */
    size_t grid;                /* N: complex points */
    double tau, h;              /* Gaussian exp(-x^2 / 4 tau); spacing */
    double *w, *a, *b;          /* [m] each */
    double *z, *tw;             /* [2N] each; z's block holds tw, e3 and
                                   deconv too */
    int tw_ok;                  /* tw made */
    double *e3;                 /* [2 SPREAD]: exp(-(j h)^2 / 4 tau) */
    double *sg;                 /* pair mode: [2m][2 SPREAD] source weights */
    size_t *sl;                 /* [2m]: each source's first grid point */
    double *ph, *rot;           /* [2][2m]: e^{i c w_k} per slot, its step */
    int64_t pc[2], pd[2];       /* each slot's last centre and step */
    int pn[2];                  /* rotations since exact; -1: none yet */
    int rot_ok[2];              /* rot holds e^{i pd w_k} */
    double *xs;                 /* pair mode: [4][N + 2 SPREAD]: the grid's
                                   real and imaginary parts, and the
                                   transform's other two; then t4 */
    double *t4;                 /* radix-4 stages' twiddles, deconvolution */
    int avx2;                   /* the processor has AVX2 */
    double *deconv;             /* [q + 1] */
    int stage;
    size_t len, pos;            /* FFT stage, block */
};

/* The Gaussian weights of source u (grid units) into g[2 SPREAD], and
 * its first grid point (in [0, N)). */
size_t pv_nu_weights(const pv_cos_plan *p, long double u, double *g);

/* The pair mode's tables and buffers, once per plan (nufft_pair.c):
 * 0, or -1 when out of memory. */
int pv_nu_pair_tables(pv_cos_plan *p);

/* The pair mode's tables that depend on the coefficients, freed (the
 * buffers and twiddles kept; nufft.c, which frees and resets plans). */
void pv_nu_pair_reset(pv_cos_plan *p);

/* pv_cos_pair without the pair mode's tables (nufft.c): each source's
 * weights and phase made as it is spread, an in-place transform. */
void pv_nu_pair_slow(pv_cos_plan *p, int64_t c0, int64_t c1, double *f0,
                     double *f1);

#endif
