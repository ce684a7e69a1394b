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
 * 0 for none). */
static inline void toeplitz_ref_table(const struct score_ctx *s,
                                      long double *tab)
{
    int d = s->d;
    long double tau = s->o.temperature ? 1.0L / sqrtl(d) : 1.0L;
    double *w = malloc((size_t)(d / 2) * sizeof *w);
    for (int k = 0; k < d / 2; k++)
        w[k] = pow(s->base, -2.0 * k / d);
    for (int64_t dl = -(s->n - 1); dl < s->n; dl++) {
        long double v = 0;
        for (int k = 0; k < d / 2 && s->o.scheme != SCHEME_ALIBI; k++) {
            long double th = (long double)dl * w[k];
            if (s->o.scheme == SCHEME_SINUSOIDAL) {
                v += cosl(th);      /* sin.sin + cos.cos at i, j = i - dl */
            } else if (s->o.scheme == SCHEME_ROPE) {
                /* (R(dl) q) . k for the pair (2k, 2k+1) */
                long double q0 = s->q[2 * k], q1 = s->q[2 * k + 1];
                v += (q0 * cosl(th) - q1 * sinl(th)) * s->k[2 * k]
                     + (q0 * sinl(th) + q1 * cosl(th)) * s->k[2 * k + 1];
            }
        }
        if (s->o.scheme == SCHEME_ALIBI)
            v = -(long double)s->slope * (long double)llabs(dl);
        tab[dl + s->n - 1] = tau * v;
    }
    free(w);
}

#endif
