/* SPDX-License-Identifier: ISC */
/*
 * dist.c - terms that are a function f(i - j) of the distance alone (a
 * bias on the logit): the general block mean, triangle sum and range
 * mean every such scheme gets from its value (see struct dist_ops in
 * peviz/scores.h), and ALiBi's row, whose sums have closed forms.
 *
 * A block I x J holds the distance delta = i - j exactly
 * c(delta) = min(i1, j1 + delta) - max(i0, j0 + delta) times; c is
 * linear between the two corners i0 - j0 and i1 - j1, so the block's sum
 * is at most three runs of sum (c0 + e (delta - a)) f(delta), e in
 * {-1, 0, 1}.  A piecewise-constant f (T5) adds each of its runs in one
 * step: the weights of a run are an arithmetic series; a row with its
 * own sums (KERPLE: Euler-Maclaurin) gives each run's two sums at once.
 */
#include "peviz/scores.h"

#include <math.h>

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* sum over delta in [lo, hi) of (c + e (delta - lo)) f(delta). */
static double weighted(const struct score_ctx *s, const struct dist_ops *o,
                       int64_t lo, int64_t hi, double c, double e)
{
    double sum = 0.0;
    if (o->sums && hi > lo) {   /* the row's own sums: c S0 + e S1 */
        double s0, s1;
        o->sums(s, lo, hi, &s0, &s1);
        return c * s0 + e * s1;
    }
    for (int64_t dl = lo; dl < hi;) {
        int64_t end = dl + 1;
        double f = o->run ? o->run(s, dl, &end) : o->at(s, dl);
        end = min64(max64(end, dl + 1), hi);
        double len = (double)(end - dl);
        /* sum of (delta - lo) over the run: its count times its centre */
        double off = 0.5 * ((double)(dl - lo) + (double)(end - 1 - lo));
        sum += f * (c * len + e * len * off);
        dl = end;
    }
    return sum;
}

/* How often delta occurs in the block. */
static int64_t count_at(int64_t dl, int64_t i0, int64_t i1, int64_t j0,
                        int64_t j1)
{
    return max64(0, min64(i1, j1 + dl) - max64(i0, j0 + dl));
}

double dist_block_mean(const struct score_ctx *s, const struct dist_ops *o,
                       int64_t i0, int64_t i1, int64_t j0, int64_t j1)
{
    if (i1 <= i0 || j1 <= j0)
        return 0.0;
    if (o->block_mean)
        return o->block_mean(s, i0, i1, j0, j1);
    int64_t lo = i0 - j1 + 1, hi = i1 - j0;
    int64_t p1 = min64(i0 - j0, i1 - j1), p2 = max64(i0 - j0, i1 - j1);
    int64_t cut[4] = { lo, max64(lo, min64(p1, hi)), max64(lo, min64(p2, hi)),
                       hi };
    double sum = 0.0;
    for (int p = 0; p < 3; p++) {
        int64_t a = cut[p], b = cut[p + 1];
        if (b <= a)
            continue;
        int64_t c0 = count_at(a, i0, i1, j0, j1);
        int64_t e = b - a > 1 ? count_at(a + 1, i0, i1, j0, j1) - c0 : 0;
        sum += weighted(s, o, a, b, (double)c0, (double)e);
    }
    return sum / ((double)(i1 - i0) * (double)(j1 - j0));
}

double dist_tri_sum(const struct score_ctx *s, const struct dist_ops *o,
                    int64_t m)
{
    if (m <= 0)
        return 0.0;
    if (o->tri_sum)
        return o->tri_sum(s, m);
    return weighted(s, o, 0, m, (double)m, -1.0);   /* m - delta of each */
}

double dist_range_mean(const struct score_ctx *s, const struct dist_ops *o,
                       int64_t d0, int64_t d1)
{
    if (d1 <= d0)
        return 0.0;
    if (o->range_mean)
        return o->range_mean(s, d0, d1);
    return weighted(s, o, d0, d1, 1.0, 0.0) / (double)(d1 - d0);
}

/* ---- ALiBi: -m |i - j| ------------------------------------------------------ */

static double alibi_at(const struct score_ctx *s, int64_t delta)
{
    return pe_alibi_bias(s->slope, delta, 0, 0);
}

static double alibi_block_mean(const struct score_ctx *s, int64_t i0,
                               int64_t i1, int64_t j0, int64_t j1)
{
    return pe_alibi_block_mean(s->slope, i0, i1, j0, j1);
}

/* sum of -m (i - j) over j <= i of an m x m square: -m (m-1) m (m+1) / 6 */
static double alibi_tri_sum(const struct score_ctx *s, int64_t m)
{
    return -s->slope * (double)(m - 1) * (double)m * (double)(m + 1) / 6.0;
}

/* the mean of -m delta over [d0, d1) (d0 >= 0): -m times the centre */
static double alibi_range_mean(const struct score_ctx *s, int64_t d0,
                               int64_t d1)
{
    return -s->slope * ((double)d0 + 0.5 * (double)(d1 - d0 - 1));
}

const struct dist_ops DIST_ALIBI = {
    alibi_at, NULL, alibi_block_mean, alibi_tri_sum, alibi_range_mean, NULL
};
