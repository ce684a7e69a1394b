/* SPDX-License-Identifier: ISC */
/*
 * toeplitz_ref.h - what test_nufft and test_soft_stream both compare
 * with: a seeded uniform draw, and the score of every offset of a
 * Toeplitz scheme evaluated from its definition in long double.
 */
#ifndef PEVIZ_TEST_TOEPLITZ_REF_H
#define PEVIZ_TEST_TOEPLITZ_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "peviz/scores.h"

/* xorshift64 on *state, scaled to [-1, 1) */
static inline double xs_urand(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return (double)(*state >> 11) * 0x1p-52 - 1.0;
}

/* tau T(delta) from the definitions, long double, into tab[delta + n - 1]
 * for delta in -(n-1) .. n-1 (sinusoidal, RoPE with s's q and k, ALiBi;
 * 0 for none).  cos and sin are taken once per |delta| and band: cos is
 * even in delta, sin odd. */
static inline void toeplitz_ref_table(const struct score_ctx *s,
                                      long double *tab)
{
    int d = s->d;
    long double tau = s->o.temperature ? 1.0L / sqrtl(d) : 1.0L;
    double *w = malloc((size_t)(d / 2) * sizeof *w);
    for (int k = 0; k < d / 2; k++)
        w[k] = pow(s->base, -2.0 * k / d);
    for (int64_t dl = 0; dl < s->n; dl++) {
        long double vp = 0, vm = 0;     /* at +dl and at -dl */
        for (int k = 0; k < d / 2 && s->o.scheme != SCHEME_ALIBI; k++) {
            long double th = (long double)dl * w[k];
            long double c = cosl(th), sn = sinl(th);
            if (s->o.scheme == SCHEME_SINUSOIDAL) {
                vp += c;            /* sin.sin + cos.cos at i, j = i - dl */
                vm += c;
            } else if (s->o.scheme == SCHEME_ROPE) {
                /* (R(dl) q) . k for the pair (2k, 2k+1) */
                long double q0 = s->q[2 * k], q1 = s->q[2 * k + 1];
                long double k0 = s->k[2 * k], k1 = s->k[2 * k + 1];
                vp += (q0 * c - q1 * sn) * k0 + (q0 * sn + q1 * c) * k1;
                vm += (q0 * c + q1 * sn) * k0 + (q1 * c - q0 * sn) * k1;
            }
        }
        if (s->o.scheme == SCHEME_ALIBI)
            vp = vm = -(long double)s->slope * (long double)dl;
        tab[dl + s->n - 1] = tau * vp;
        tab[-dl + s->n - 1] = tau * vm;
    }
    free(w);
}

#endif
