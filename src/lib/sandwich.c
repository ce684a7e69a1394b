/* SPDX-License-Identifier: ISC */
/*
 * sandwich.c - Sandwich (NeMo sandwich_relative_position_embedding.py):
 * the sinusoids' dot product used as a bias,
 *   bias = sum_{k=1..d/2} cos((i - j) base^(-2k/d)),
 * then per head h = 1..H: (bias - d/2) / (8 h / H): 0 at distance 0 and
 * <= 0 elsewhere.  The reference's base is 10000 (here -b, default too).
 */
#include "peviz/scores.h"
#include "schemes_impl.h"

#include <math.h>

void sandwich_setup(struct score_ctx *s)
{
    for (int k = 0; k < s->half; k++)
        s->dband[k] = pow(s->base, -2.0 * (k + 1) / s->d);
}

/* 8 h / H for head h = head + 1. */
static double scale(const struct score_ctx *s)
{
    return 8.0 * (s->head + 1) / s->heads;
}

static double sandwich_at(const struct score_ctx *s, int64_t delta)
{
    double sum = pe_score_w((double)delta, s->dband, s->half);
    return (sum - 0.5 * s->d) / scale(s);
}

/* The cosines' block mean has a closed form (pe_score_block_mean). */
static double sandwich_block_mean(const struct score_ctx *s, int64_t i0,
                                  int64_t i1, int64_t j0, int64_t j1)
{
    double m = pe_score_block_mean(i0, i1, j0, j1, s->dband, s->half);
    return (m - 0.5 * s->d) / scale(s);
}

static double sandwich_range_mean(const struct score_ctx *s, int64_t d0,
                                  int64_t d1)
{
    double sum = 0.0;
    for (int k = 0; k < s->half; k++) {
        double mc;
        pe_range_mean(s->dband[k], d0, d1, NULL, &mc);
        sum += mc;
    }
    return (sum - 0.5 * s->d) / scale(s);
}

const struct dist_ops DIST_SANDWICH = {
    sandwich_at, NULL, sandwich_block_mean, NULL, sandwich_range_mean, NULL
};
