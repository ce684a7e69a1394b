/* SPDX-License-Identifier: ISC */
/*
 * scores_ref.h - independent evaluations of the score definitions (plain
 * loops over sin, cos and the seeded draws) shared by test_scores (the
 * library) and test_score_grid (the library's cached grid).
 */
#ifndef PEVIZ_TEST_SCORES_REF_H
#define PEVIZ_TEST_SCORES_REF_H

#include <math.h>
#include <stdlib.h>

#include "peviz/scores.h"

/* The parameters a context is built for. */
struct dims {
    int d;
    double base;
    int64_t n;
};

static struct dims P(int d, double base, int64_t n)
{
    return (struct dims){ d, base, n };
}

/* scores_new for p; a loaded table (rows, d) may be NULL. */
static struct score_ctx *NEW(const struct dims *p, const struct score_opts *o,
                             const struct score_table *t)
{
    return scores_new(p->d, p->base, p->n, o, t);
}

static struct score_opts O(enum scheme sc)
{
    struct score_opts o;
    scores_defaults(&o);
    o.scheme = sc;
    return o;
}

/* Brute mean of S (or of the softmax weights) over a block, unmasked
 * entries only for S, present ones only (a short table's missing
 * positions are NAN); NAN when every entry is masked or missing. */
static double brute_block(const struct score_ctx *s, int64_t i0, int64_t i1,
                          int64_t j0, int64_t j1, int softmax)
{
    double sum = 0, *row = malloc((size_t)s->n * sizeof *row);
    long cnt = 0;
    for (int64_t i = i0; i < i1; i++) {
        if (softmax)
            scores_row(s, i, 1, row);
        for (int64_t j = j0; j < j1; j++) {
            double v = softmax ? row[j] : scores_at(s, i, j);
            if (isnan(v) || (!softmax && isinf(v)))
                continue;           /* missing (past a table), masked */
            sum += v;
            cnt++;
        }
    }
    free(row);
    if (softmax && s->o.causal && j0 > i1 - 1)
        return NAN;
    return cnt ? sum / (double)cnt : NAN;
}

#endif
