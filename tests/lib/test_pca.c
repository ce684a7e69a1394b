/* SPDX-License-Identifier: ISC */
/*
 * test_pca.c - principal components (peviz/pca.h) against what they must
 * satisfy, computed here independently: the covariance built by plain
 * loops, C v = lambda v for every direction, unit and orthogonal
 * directions, the sign rule, the ratios summing to one; a circle in a
 * random plane (two components explain 100%, projections keep each
 * row's distance to the mean); a helix (circle plus drift: three); the
 * Gram path (n < d) agreeing with the covariance path; sliced work
 * agreeing with the one-shot computation.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "peviz/pca.h"

#define PI 3.14159265358979323846

static uint64_t rng = 88172645463325252ULL;

static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static double *random_table(int64_t n, int d)
{
    double *v = malloc((size_t)n * (size_t)d * sizeof *v);
    for (int64_t i = 0; i < n * d; i++)
        v[i] = 2 * urand() - 1;
    return v;
}

/* The covariance by plain loops: mean, then (1/n) sum of outer products. */
static double *covariance(const double *v, int64_t n, int d, double *mean)
{
    double *c = calloc((size_t)d * (size_t)d, sizeof *c);
    for (int j = 0; j < d; j++) {
        mean[j] = 0;
        for (int64_t p = 0; p < n; p++)
            mean[j] += v[p * d + j];
        mean[j] /= (double)n;
    }
    for (int a = 0; a < d; a++)
        for (int b = 0; b < d; b++) {
            double s = 0;
            for (int64_t p = 0; p < n; p++)
                s += (v[p * d + a] - mean[a]) * (v[p * d + b] - mean[b]);
            c[a * d + b] = s / (double)n;
        }
    return c;
}

/* Every property a PCA result must have, against the covariance. */
static void check_result(const double *v, int64_t n, int d,
                         const struct pe_pca *p, double tol)
{
    double *mean = malloc((size_t)d * sizeof *mean);
    double *c = covariance(v, n, d, mean);
    double trace = 0, worst = 0, orth = 0, signs = 1;
    for (int j = 0; j < d; j++) {
        trace += c[j * d + j];
        worst = fmax(worst, fabs(mean[j] - p->mean[j]));
    }
    CHECK(worst < 1e-12);
    CHECK_NEAR(p->total, trace, 1e-12 * fmax(1, trace));
    CHECK(p->rank >= 0 && p->rank <= p->k);
    for (int k = p->rank; k < p->k; k++) {     /* beyond the rank: zero */
        int zero = p->var[k] == 0;
        for (int a = 0; a < d; a++)
            zero &= p->dir[(size_t)k * d + a] == 0;
        CHECK(zero);
    }
    for (int k = 0; k < p->rank; k++) {
        const double *u = p->dir + (size_t)k * d;
        double res = 0, big = 0;
        int at = 0;
        for (int a = 0; a < d; a++) {
            double cu = 0;
            for (int b = 0; b < d; b++)
                cu += c[a * d + b] * u[b];
            res = fmax(res, fabs(cu - p->var[k] * u[a]));
            if (fabs(u[a]) > big + 1e-12) {
                big = fabs(u[a]);
                at = a;
            }
        }
        CHECK(res < tol);
        signs *= u[at] > 0;
        for (int l = 0; l <= k; l++) {
            const double *w = p->dir + (size_t)l * d;
            double dot = 0;
            for (int a = 0; a < d; a++)
                dot += u[a] * w[a];
            orth = fmax(orth, fabs(dot - (l == k)));
        }
        if (k)
            CHECK(p->var[k] <= p->var[k - 1] + 1e-12);
    }
    CHECK(orth < 1e-10);
    CHECK(signs == 1);
    free(c);
    free(mean);
}

static void test_random(void)
{
    static const int SHAPES[][2] = { { 50, 6 }, { 200, 16 }, { 9, 40 },
                                     { 2, 4 }, { 3, 3 }, { 64, 64 } };
    for (size_t s = 0; s < sizeof SHAPES / sizeof SHAPES[0]; s++) {
        int64_t n = SHAPES[s][0];
        int d = SHAPES[s][1];
        int k = (int)(n - 1 < d ? n - 1 : d);
        double *v = random_table(n, d);
        struct pe_pca p;
        CHECK(pca_compute(v, n, d, k, &p) == 0);
        if (p.k == k) {
            check_result(v, n, d, &p, 1e-12);
            double sum = 0;
            for (int i = 0; i < k; i++)
                sum += pca_ratio(&p, i);
            /* all components: the ratios sum to one */
            CHECK_NEAR(sum, 1.0, 1e-12);
        }
        pca_free(&p);
        free(v);
    }
    struct pe_pca p;
    double one[4] = { 1, 2, 3, 4 };
    CHECK(pca_compute(one, 1, 4, 1, &p) == -1);    /* one row */
    CHECK(pca_compute(one, 2, 2, 2, &p) == -1);    /* k > n - 1 */
    CHECK(pca_compute(one, 2, 2, 0, &p) == -1);
}

/* A circle of radius R in the plane of two random orthonormal vectors,
 * plus (helix) a drift along a third. */
static double *curve(int64_t n, int d, double w, double drift)
{
    double *a = random_table(3, d), *v = calloc((size_t)n * d, sizeof *v);
    for (int r = 0; r < 3; r++) {               /* Gram-Schmidt */
        double *x = a + r * d;
        for (int q = 0; q < r; q++) {
            double dot = 0;
            for (int j = 0; j < d; j++)
                dot += x[j] * a[q * d + j];
            for (int j = 0; j < d; j++)
                x[j] -= dot * a[q * d + j];
        }
        double norm = 0;
        for (int j = 0; j < d; j++)
            norm += x[j] * x[j];
        for (int j = 0; j < d; j++)
            x[j] /= sqrt(norm);
    }
    for (int64_t p = 0; p < n; p++)
        for (int j = 0; j < d; j++)
            v[p * d + j] = 3 * cos(p * w) * a[j] + 3 * sin(p * w) * a[d + j]
                           + drift * (double)p * a[2 * d + j] + 0.5;
    free(a);
    return v;
}

static void test_circle_and_helix(void)
{
    int64_t n = 240;
    int d = 32;
    double *v = curve(n, d, 2 * PI / 48, 0);       /* 5 full turns */
    struct pe_pca p;
    CHECK(pca_compute(v, n, d, 3, &p) == 0);
    CHECK_NEAR(pca_ratio(&p, 0) + pca_ratio(&p, 1), 1.0, 1e-12);
    CHECK(pca_ratio(&p, 2) < 1e-12);
    CHECK_NEAR(pca_ratio(&p, 0), 0.5, 1e-12);   /* full turns: equal */
    double worst = 0, y[3];
    for (int64_t i = 0; i < n; i++) {
        pca_project(&p, v + i * d, y);
        worst = fmax(worst, fabs(y[0] * y[0] + y[1] * y[1] - 9.0));
    }
    CHECK(worst < 1e-10);                          /* the circle, radius 3 */
    check_result(v, n, d, &p, 1e-12);
    pca_free(&p);
    free(v);
    v = curve(n, d, 2 * PI / 48, 0.05);
    CHECK(pca_compute(v, n, d, 4, &p) == 0);
    double three = pca_ratio(&p, 0) + pca_ratio(&p, 1)
                   + pca_ratio(&p, 2);
    CHECK_NEAR(three, 1.0, 1e-12);
    CHECK(pca_ratio(&p, 3) < 1e-12);
    check_result(v, n, d, &p, 1e-11);
    pca_free(&p);
    free(v);
}

/* n < d takes the Gram path: the same components as the covariance. */
static void test_gram_path(void)
{
    int64_t n = 12;
    int d = 30;
    double *v = random_table(n, d);
    struct pe_pca p;
    CHECK(pca_compute(v, n, d, 5, &p) == 0);
    check_result(v, n, d, &p, 1e-12);
    pca_free(&p);
    free(v);
}

/* Rows x_p = c_p u + b: rank 1.  PC1 is +-u/|u| with variance
 * var(c) |u|^2 and projections +-(c_p - mean c)|u|; every other component
 * has variance 0, no direction and projections exactly 0 (the Gram path,
 * n < d, used to normalise rounding noise into a direction). */
static void check_rank_one(int64_t n, int d, int k)
{
    double *v = malloc((size_t)n * d * sizeof *v), *u = random_table(1, d);
    double *c = malloc((size_t)n * sizeof *c), cbar = 0, cvar = 0, uu = 0;
    for (int64_t p = 0; p < n; p++)
        cbar += (c[p] = 4 * urand() - 2) / (double)n;
    for (int64_t p = 0; p < n; p++)
        cvar += (c[p] - cbar) * (c[p] - cbar) / (double)n;
    for (int j = 0; j < d; j++)
        uu += u[j] * u[j];
    for (int64_t p = 0; p < n; p++)
        for (int j = 0; j < d; j++)
            v[p * d + j] = c[p] * u[j] + 0.25 * j;
    struct pe_pca pc;
    CHECK(pca_compute(v, n, d, k, &pc) == 0);
    CHECK(pc.rank == 1);
    CHECK_NEAR(pc.var[0], cvar * uu, 1e-12 * cvar * uu);
    CHECK_NEAR(pca_ratio(&pc, 0), 1.0, 1e-12);
    double y[8], worst = 0, beyond = 0;
    for (int64_t p = 0; p < n; p++) {
        pca_project(&pc, v + p * d, y);
        worst = fmax(worst, fabs(fabs(y[0]) - fabs(c[p] - cbar) * sqrt(uu)));
        for (int i = 1; i < k; i++)
            beyond = fmax(beyond, fabs(y[i]));
    }
    CHECK(worst < 1e-12);
    CHECK(beyond == 0);
    for (int i = 1; i < k; i++)
        CHECK(pc.var[i] == 0 && pca_ratio(&pc, i) == 0);
    check_result(v, n, d, &pc, 1e-12);
    pca_free(&pc);
    free(v);
    free(u);
    free(c);
}

static void test_rank_deficient(void)
{
    check_rank_one(5, 6, 3);        /* the Gram path: fewer rows than columns */
    check_rank_one(5, 6, 4);
    check_rank_one(4, 9, 3);
    check_rank_one(30, 6, 4);       /* the covariance path */
}

/* Sliced work gives bit-identical results to the one-shot computation. */
static void test_slices(void)
{
    int64_t n = 300;
    int d = 24;
    double *v = random_table(n, d);
    struct pe_pca one, sliced;
    CHECK(pca_compute(v, n, d, 3, &one) == 0);
    struct pe_pca_work *w = pca_begin(v, n, d, 3);
    int r, steps = 0;
    double last = 0, mono = 1;
    while ((r = pca_step(w, 500)) == 1) {
        double f = pca_progress(w);
        mono *= f >= last && f < 1;
        last = f;
        steps++;
    }
    CHECK(r == 0 && steps > 100 && mono == 1);
    CHECK(pca_progress(w) == 1.0);
    CHECK(pca_take(w, &sliced) == 0);
    pca_work_free(w);
    CHECK(memcmp(one.dir, sliced.dir, 3 * (size_t)d * sizeof(double)) == 0);
    CHECK(memcmp(one.var, sliced.var, 3 * sizeof(double)) == 0);
    pca_free(&one);
    pca_free(&sliced);
    free(v);
}

int main(void)
{
    test_random();
    test_circle_and_helix();
    test_gram_path();
    test_rank_deficient();
    test_slices();
    TEST_END("test_pca");
}
