/* SPDX-License-Identifier: ISC */
/*
 * test_bound.c - the base bound (peviz/bound.h) against a brute force
 * written again here: B(m) with plain cos at every distance, for random
 * sets of frequencies with and without dead pairs, sums that sit on
 * zero, the lowest base's grid claims, and the refusals.
 */
#include "peviz/bound.h"
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define PI 3.14159265358979323846

/* The first m < limit with sum cos(m w_i) < 0, by plain cos; -1: none. */
static int64_t ref_horizon(const double *w, int half, int64_t limit)
{
    for (int64_t m = 0; m < limit; m++) {
        double b = 0;
        for (int i = 0; i < half; i++)
            b += cos((double)m * w[i]);
        if (b < 0)
            return m;
    }
    return -1;
}

static double ref_omega(int i, int d, double base)
{
    return pow(base, -2.0 * i / d);
}

static int ref_passes(int d, int64_t L, double base)
{
    double w[64];
    for (int i = 0; i < d / 2; i++)
        w[i] = ref_omega(i, d, base);
    return ref_horizon(w, d / 2, L) < 0;
}

/* Random frequencies in (0, 1], a few of them dead: the horizon is the
 * brute force's, across block boundaries and far into a block. */
static void test_random_sets(void)
{
    unsigned s = 12345;
    double w[40];
    for (int trial = 0; trial < 60; trial++) {
        int half = 2 + trial % 37;
        for (int i = 0; i < half; i++) {
            s = s * 1103515245u + 12345u;
            w[i] = ((s >> 8) % 1000000 + 1) / 1e6;
            if (i > 0 && (s >> 4) % 7 == 0)
                w[i] = 0.0;
        }
        w[0] = 1.0;
        int64_t limit = 3000 + 37 * trial;
        CHECK(bound_horizon(w, half, limit) == ref_horizon(w, half, limit));
    }
}

/* The published anchor and the unscaled sinusoid at other dims. */
static void test_anchor(void)
{
    double w[64];
    for (int i = 0; i < 64; i++)
        w[i] = ref_omega(i, 128, 1e4);
    CHECK(bound_horizon(w, 64, 1 << 20) == 1707);
    CHECK(bound_horizon(w, 64, 1707) == -1);   /* none below the limit */
    for (int d = 16; d <= 96; d += 16) {
        for (int i = 0; i < d / 2; i++)
            w[i] = ref_omega(i, d, 2e3);
        CHECK(bound_horizon(w, d / 2, 50000) == ref_horizon(w, d / 2, 50000));
    }
}

/* B(m) = 1 + cos(m pi) is 0 at every odd m and never below: sums that
 * the one-step turns leave a rounding error away from zero. */
static void test_zero_sums(void)
{
    double w[2] = { PI, 0.0 };
    CHECK(bound_horizon(w, 2, 100000) == -1);
    CHECK(fabs(bound_sum(w, 2, 99999)) < 1e-15);
    double v[2] = { PI, PI };       /* -2 at m = 1 */
    CHECK(bound_horizon(v, 2, 10) == 1);
}

static void test_dead_pairs(void)
{
    double w[8] = { 1, 0.5, 0.1, 0.01, 0, 0, 0, 0 };
    CHECK(bound_dead_pairs(w, 8) == 4 && bound_trivial(w, 8));
    CHECK(bound_dead_pairs(w, 7) == 3 && !bound_trivial(w, 7));
    CHECK(bound_horizon(w, 8, 100000) == -1);
    CHECK(bound_horizon(w, 7, 100000) == ref_horizon(w, 7, 100000));
}

/* The lowest base passes, the fine point below fails, and so does every
 * coarse point below; it is the grid point it names. */
static void test_lowest(void)
{
    static const int D[] = { 16, 32, 64 };
    static const int64_t L[] = { 200, 700 };
    double w[32];
    const int64_t step = BOUND_FINE_PER_DECADE / BOUND_COARSE_PER_DECADE;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 2; b++) {
            struct bound_base r;
            CHECK(bound_lowest_base(D[a], L[b], w, &r) == 0);
            CHECK(r.base == bound_grid_base(r.j) &&
                  r.below == bound_grid_base(r.j - 1));
            CHECK_NEAR(r.base / pow(10, (double)r.j / BOUND_FINE_PER_DECADE),
                       1, 1e-14);
            CHECK(ref_passes(D[a], L[b], r.base));
            CHECK(!ref_passes(D[a], L[b], r.below));
            for (int64_t k = step; k < r.j; k += step)
                CHECK(!ref_passes(D[a], L[b], bound_grid_base(k)));
        }
}

static void test_refusals(void)
{
    double w[4];
    struct bound_base r = { 0, 0, 0 };
    CHECK(bound_lowest_base(2, 3, w, &r) == -1);    /* cos m alone */
    CHECK(bound_lowest_base(7, 100, w, &r) == -1);
    CHECK(bound_lowest_base(8, 0, w, &r) == -1);
    CHECK(r.j == 0);                                 /* untouched */
    CHECK(bound_lowest_base(2, 2, w, &r) == 0 && r.j == 1);  /* any base:
                                                 the first fine point */
}

int main(void)
{
    test_random_sets();
    test_anchor();
    test_zero_sums();
    test_dead_pairs();
    test_lowest();
    test_refusals();
    TEST_END("test_bound");
}
