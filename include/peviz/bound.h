/* SPDX-License-Identifier: ISC */
/*
 * peviz/bound.h - the base bound of RoPE (Men et al., "Base of RoPE
 * Bounds Context Length", 2024).
 *
 * For the frequencies omega_i of one head's pairs, i = 0 .. half-1,
 *   B(m) = sum_i cos(m omega_i)
 * is the score of q = k = ones at distance m.  A model tells near from
 * far while B(m) >= 0:
 *   horizon       the first integer m >= 0 with B(m) < 0;
 *   lowest base   for a length L at head dim d, the smallest base b whose
 *                 unscaled frequencies omega_i = b^(-2i/d) keep B(m) >= 0
 *                 for every m < L.
 * A dead pair (omega = 0: dims that do not rotate, partial or
 * proportional RoPE) adds cos 0 = 1 to every B(m); with at least as many
 * dead pairs as live ones B(m) >= 0 for every m, so the bound holds
 * trivially.
 *
 * B is evaluated block by block: each pair's angle is anchored every
 * BOUND_BLOCK positions with exact cos and sin (the angle m omega formed
 * with its rounding error kept and reduced by 2 pi in two parts) and
 * turned one position at a time between anchors;
 * a sum within BOUND_SIGN_TOL x half of zero is formed again exactly, so
 * its sign is that of the formula.
 *
 * The lowest base: B(m) >= 0 is not monotone in the base (windows of
 * passing bases open and close below the last one), so bisection would
 * answer wrongly.  The search scans the coarse grid 10^(k/C), C =
 * BOUND_COARSE_PER_DECADE, upwards from 10^(1/C) to the first base that
 * passes, then the fine grid 10^(j/F), F = BOUND_FINE_PER_DECADE, upwards
 * from the coarse point below it: the answer is the first fine point that
 * passes.  So it passes, the fine point below it fails, and so does every
 * coarse point below it; its precision is one fine step, a factor
 * 10^(1/F).  A window of passing bases narrower than a coarse step, below
 * the answer, may be missed.
 *
 * No allocation: the caller owns every buffer.
 */
#ifndef PEVIZ_BOUND_H
#define PEVIZ_BOUND_H

#include <stdint.h>

#define BOUND_BLOCK 256             /* positions between exact anchors */
#define BOUND_SIGN_TOL 1e-10        /* per pair: a sum this near 0 is
                                       formed again exactly */
#define BOUND_COARSE_PER_DECADE 100
#define BOUND_FINE_PER_DECADE 10000
#define BOUND_BASE_MAX 1e30         /* the search gives up past it */

/* B(m) at one distance, each cosine exact (the angle in long double). */
double bound_sum(const double *omega, int half, int64_t m);

/* Pairs with omega_i = 0. */
int bound_dead_pairs(const double *omega, int half);

/* Whether the bound holds trivially: dead pairs >= live pairs. */
int bound_trivial(const double *omega, int half);

/* The horizon: the first m in [0, limit) with B(m) < 0, or -1 when
 * B(m) >= 0 for every m < limit. */
int64_t bound_horizon(const double *omega, int half, int64_t limit);

/* Fine grid point j: 10^(j / BOUND_FINE_PER_DECADE). */
double bound_grid_base(int64_t j);

/* The result of a lowest-base search. */
struct bound_base {
    double base;        /* the first fine point that passes */
    double below;       /* the fine point below it (fails) */
    int64_t j;          /* base = bound_grid_base(j) */
};

/*
 * The lowest base for length L >= 1 at head dim d (even, >= 2): the
 * search above.  omega: room for d/2 doubles (the caller's).  Returns 0,
 * or -1 when no base up to BOUND_BASE_MAX passes (d = 2 and L > 2:
 * cos m alone goes negative at m = 2) or d is not even and >= 2.
 */
int bound_lowest_base(int d, int64_t L, double *omega,
                      struct bound_base *out);

#endif /* PEVIZ_BOUND_H */
