/* SPDX-License-Identifier: ISC */
/*
 * test_nufft.c - the FFT against a direct DFT, the cosine sums against
 * direct long-double sums, and the softmax row normalisers of every
 * Toeplitz scheme against direct long-double sums over the row computed
 * here from the definitions.  Links only build/libpeviz.a.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "peviz/nufft.h"
#include "peviz/scores.h"
#include "toeplitz_ref.h"

#define PI_L 3.141592653589793238462643383279502884L

static uint64_t rng = 0x9e3779b97f4a7c15u;

static double urand(void) { return xs_urand(&rng); }   /* in [-1, 1) */

/* ---- the FFT ------------------------------------------------------------- */

static void test_fft(void)
{
    size_t sizes[] = { 1, 2, 4, 8, 16, 64, 512 };
    for (int si = 0; si < 7; si++)
        for (int sign = -1; sign <= 1; sign += 2) {
            size_t n = sizes[si];
            double *z = malloc(2 * n * sizeof *z), *x = malloc(2 * n * sizeof *x);
            for (size_t i = 0; i < 2 * n; i++)
                x[i] = z[i] = urand();
            CHECK(pv_fft(z, n, sign) == 0);
            double worst = 0;
            for (size_t k = 0; k < n; k++) {
                long double re = 0, im = 0;
                for (size_t j = 0; j < n; j++) {
                    long double a = sign * 2 * PI_L * (long double)((j * k) % n)
                                    / (long double)n;
                    re += x[2 * j] * cosl(a) - x[2 * j + 1] * sinl(a);
                    im += x[2 * j] * sinl(a) + x[2 * j + 1] * cosl(a);
                }
                double e = fmax(fabs((double)(re - z[2 * k])),
                                fabs((double)(im - z[2 * k + 1])));
                worst = fmax(worst, e);
            }
            CHECK_NEAR(worst, 0, 1e-14 * (double)n);
            free(z);
            free(x);
        }
    double z[6] = { 0 };
    CHECK(pv_fft(z, 3, 1) == -1);           /* not a power of two */
}

/* ---- cosine sums ----------------------------------------------------------- */

static long double direct_cos(const double *w, const double *a,
                              const double *b, int m, int64_t dl)
{
    long double s = 0;
    for (int k = 0; k < m; k++) {
        long double x = (long double)dl * w[k];
        s += a[k] * cosl(x) + (b ? b[k] * sinl(x) : 0);
    }
    return s;
}

/* Every delta for small n, sampled ones (ends included) for large n. */
static void check_sums(const double *w, const double *a, const double *b,
                       int m, int64_t n, double tol)
{
    double *f = malloc((size_t)(2 * n - 1) * sizeof *f);
    CHECK(pv_cos_sums(w, a, b, m, n, f) == 0);
    double worst = 0;
    int64_t step = n < 300 ? 1 : (2 * n) / 300;
    for (int64_t dl = -(n - 1); dl < n; dl += step) {
        double e = fabs((double)(direct_cos(w, a, b, m, dl) - f[dl + n - 1]));
        worst = fmax(worst, e);
    }
    for (int64_t dl = n - 3; dl < n; dl++)
        if (dl > -n)
            worst = fmax(worst, fabs((double)(direct_cos(w, a, b, m, dl)
                                              - f[dl + n - 1])));
    CHECK_NEAR(worst, 0, tol);
    free(f);
}

static void test_cos_sums(void)
{
    int64_t ns[] = { 1, 2, 3, 5, 17, 1000, 70001 };
    for (int t = 0; t < 7; t++) {
        int m = 257;
        double w[257], a[257], b[257], sum = 0;
        for (int k = 0; k < m; k++) {
            w[k] = pow(10000.0, -2.0 * k / 514);
            a[k] = urand();
            b[k] = urand();
            sum += fabs(a[k]) + fabs(b[k]);
        }
        check_sums(w, a, b, m, ns[t], 1e-13 * sum);
        check_sums(w, a, NULL, m, ns[t], 1e-13 * sum);
    }
    /* one band alone: the largest and the smallest frequency, and ones
     * past pi and below zero (any real w) */
    double ws[] = { 1.0, pow(500000.0, -4094.0 / 4096), 3.0, 7.5, -0.25 };
    for (int t = 0; t < 5; t++) {
        double a = 1.0, b = 0.5;
        check_sums(&ws[t], &a, &b, 1, 40000, 1e-13);
    }
}

/* In slices of any budget: the same numbers as all at once. */
static void test_slices(void)
{
    int m = 100;
    int64_t n = 50000;
    double w[100], a[100], b[100];
    for (int k = 0; k < m; k++) {
        w[k] = pow(500.0, -2.0 * k / 200);
        a[k] = urand();
        b[k] = urand();
    }
    double *f = malloc((size_t)(2 * n - 1) * sizeof *f);
    double *g = malloc((size_t)(2 * n - 1) * sizeof *g);
    pv_cos_sums(w, a, b, m, n, f);
    pv_cos_plan *p = pv_cos_new(w, a, b, m, n);
    int steps = 0;
    for (;;) {
        int64_t budget = 3000;
        steps++;
        if (!pv_cos_step(p, g, &budget))
            break;
    }
    CHECK(steps > 10);
    CHECK(memcmp(f, g, (size_t)(2 * n - 1) * sizeof *f) == 0);
    /* renewed for other coefficients at the same n: the same buffers */
    pv_cos_plan *q = pv_cos_renew(p, w, b, a, m, n);
    CHECK(q == p);
    int64_t budget = INT64_MAX / 2;
    CHECK(pv_cos_step(q, g, &budget) == 0);
    pv_cos_sums(w, b, a, m, n, f);
    CHECK(memcmp(f, g, (size_t)(2 * n - 1) * sizeof *f) == 0);
    pv_cos_free(q);
    free(f);
    free(g);
}

/* ---- normalisers ------------------------------------------------------------- */

static void check_norms(const struct score_opts *o, int d, double base,
                        int64_t n)
{
    struct score_ctx *s = scores_new(d, base, n, o, NULL);
    long double *tab = malloc((size_t)(2 * n - 1) * sizeof *tab);
    double *z = malloc((size_t)n * sizeof *z), shift;
    toeplitz_ref_table(s, tab);
    CHECK(scores_softmax_norms(s, z, &shift) == 0);
    long double mx = -INFINITY;
    for (int64_t x = o->causal ? n - 1 : 0; x < 2 * n - 1; x++)
        mx = tab[x] > mx ? tab[x] : mx;
    CHECK_NEAR(shift, (double)mx, 1e-11 * fmax(1.0, fabs((double)mx)));
    int64_t rows[12] = { 0, 1, 2, n / 3, n / 2, n - 2, n - 1 };
    for (int r = 7; r < 12; r++)
        rows[r] = (int64_t)((urand() + 1) / 2 * (double)(n - 1));
    double worst = 0;
    for (int r = 0; r < 12; r++) {
        int64_t i = rows[r] < 0 ? 0 : rows[r] < n ? rows[r] : n - 1;
        long double sum = 0;
        for (int64_t j = 0; j <= (o->causal ? i : n - 1); j++)
            sum += expl(tab[i - j + n - 1] - (long double)shift);
        worst = fmax(worst, fabs((double)((z[i] - sum) / sum)));
    }
    if (worst > 1e-10)
        fprintf(stderr, "scheme %d d %d n %lld causal %d temp %d q %d\n",
                o->scheme, d, (long long)n, o->causal, o->temperature,
                o->q_random);
    CHECK_NEAR(worst, 0, 1e-10);
    free(tab);
    free(z);
    scores_free(s);
}

static void test_norms(void)
{
    for (int causal = 0; causal <= 1; causal++)
        for (int temp = 0; temp <= 1; temp++) {
            struct score_opts o;
            scores_defaults(&o);
            o.causal = causal;
            o.temperature = temp;
            o.scheme = SCHEME_SINUSOIDAL;
            check_norms(&o, 2048, 10000, 1501);
            check_norms(&o, 8, 10000, 2);
            o.scheme = SCHEME_ROPE;
            check_norms(&o, 512, 500000, 2048);
            o.q_random = 1;
            check_norms(&o, 1024, 10000, 1000);
            o.scheme = SCHEME_ALIBI;
            o.head = 7;
            check_norms(&o, 64, 10000, 5000);
            o.scheme = SCHEME_NOPE;
            check_norms(&o, 64, 10000, 777);
        }
    /* d 4096 (the smallest frequency of base 10000), n 1 and a prime */
    struct score_opts o;
    scores_defaults(&o);
    check_norms(&o, 4096, 10000, 1);
    check_norms(&o, 4096, 10000, 601);
    /* not Toeplitz: refused */
    o.content = 1;
    struct score_ctx *s = scores_new(64, 10000, 100, &o, NULL);
    double z[100], shift;
    CHECK(scores_softmax_norms(s, z, &shift) == -1);
    scores_free(s);
}

int main(void)
{
    test_fft();
    test_cos_sums();
    test_slices();
    test_norms();
    TEST_END("test_nufft");
}
