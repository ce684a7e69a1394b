/* SPDX-License-Identifier: ISC */
/*
 * test_pe_cells.c - the visible-cell kernels against the closed forms
 * they stand in for (pe_range_mean, pe_score_block_mean,
 * pe_rope_block_mean), to 1e-9, at long ranges and with short last
 * blocks, and the block means against brute-force sums on small cases.
 */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "peviz/pe.h"

#define MAXC 300

static void check_columns(double w, int64_t p0, int64_t k, int count,
                          int64_t n)
{
    double ms[MAXC], mc[MAXC], worst = 0;
    pe_range_means_step(w, p0, k, count, n, ms, mc);
    for (int j = 0; j < count; j++) {
        int64_t a = p0 + j * k, b = a + k < n ? a + k : n;
        double es = 0, ec = 0;
        if (b > a)
            pe_range_mean(w, a, b, &es, &ec);
        worst = fmax(worst, fmax(fabs(es - ms[j]), fabs(ec - mc[j])));
    }
    CHECK_NEAR(worst, 0.0, 1e-9);
}

/* Runs of a span S shared out over C columns, column j holding
 * [x0 + floor(j S / C), x0 + floor((j + 1) S / C)) (or, S < C, the
 * position floor(j S / C) alone), and ranges of any sizes: each against
 * pe_range_mean. */
static void check_runs(double w, int64_t x0, int64_t S, int C)
{
    int64_t p0[MAXC] = { 0 }, p1[MAXC] = { 0 };
    C = C < MAXC ? C : MAXC;
    double ms[MAXC], mc[MAXC], worst = 0;
    for (int j = 0; j < C; j++) {
        p0[j] = x0 + j * S / C;
        p1[j] = S >= C ? x0 + (j + 1) * S / C : p0[j] + 1;
    }
    pe_range_means_runs(w, p0, p1, C, ms, mc);
    for (int j = 0; j < C; j++) {
        double es, ec;
        pe_range_mean(w, p0[j], p1[j], &es, &ec);
        worst = fmax(worst, fmax(fabs(es - ms[j]), fabs(ec - mc[j])));
    }
    CHECK_NEAR(worst, 0.0, 1e-9);
}

static void check_runs_any(double w)
{
    int64_t p0[MAXC], p1[MAXC];
    double ms[MAXC], mc[MAXC], worst = 0;
    uint64_t r = 12345;
    for (int j = 0; j < MAXC; j++) {        /* sizes 0..40, gaps, overlaps */
        r = r * 6364136223846793005u + 1442695040888963407u;
        p0[j] = (int64_t)(r >> 40) % 100000;
        p1[j] = p0[j] + (int64_t)(r >> 20) % 41;
    }
    pe_range_means_runs(w, p0, p1, MAXC, ms, mc);
    for (int j = 0; j < MAXC; j++) {
        double es = 0, ec = 0;
        if (p1[j] > p0[j])
            pe_range_mean(w, p0[j], p1[j], &es, &ec);
        worst = fmax(worst, fmax(fabs(es - ms[j]), fabs(ec - mc[j])));
    }
    CHECK_NEAR(worst, 0.0, 1e-9);
}

/* Grid means against pe_score_block_mean / pe_rope_block_mean. */
static void check_grid(int d, double base, int64_t n, int64_t k,
                       int64_t rb0, int rows, int64_t cb0, int cols,
                       int rope)
{
    int half = d / 2;
    double *om = malloc(sizeof(double) * (size_t)half);
    double *A = malloc(sizeof(double) * (size_t)half);
    double *B = malloc(sizeof(double) * (size_t)half);
    double *q = malloc(sizeof(double) * (size_t)d);
    double *kv = malloc(sizeof(double) * (size_t)d);
    double *out = malloc(sizeof(double) * (size_t)rows * (size_t)cols);
    double *work = malloc(sizeof(double) *
                          (size_t)(2 * (rows + cols) + 2 * half));
    double worst = 0;
    int nan_ok = 1;
    pe_omegas(d, base, om);
    for (int i = 0; i < d; i++) {
        q[i] = pe_gauss(1, (uint64_t)i);
        kv[i] = pe_gauss(2, (uint64_t)i);
    }
    pe_rope_coeffs(q, kv, d, A, B);
    pe_toeplitz_cells(om, rope ? A : NULL, rope ? B : NULL, half, n, k, rb0,
                      rows, cb0, cols, out, work);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int64_t i0 = (rb0 + r) * k, i1 = i0 + k < n ? i0 + k : n;
            int64_t j0 = (cb0 + c) * k, j1 = j0 + k < n ? j0 + k : n;
            double v = out[r * cols + c], e;
            if (i0 >= n || j0 >= n) {
                nan_ok &= isnan(v);
                continue;
            }
            e = rope ? pe_rope_block_mean(i0, i1, j0, j1, A, B, om, half)
                     : pe_score_block_mean(i0, i1, j0, j1, om, half);
            worst = fmax(worst, fabs(v - e));
        }
    CHECK(nan_ok);
    CHECK_NEAR(worst, 0.0, 1e-9);
    free(om); free(A); free(B); free(q); free(kv); free(out); free(work);
}

/* Brute force on a small case: means of cos((i-j) w) sums directly. */
static void check_brute(void)
{
    int d = 8, half = 4;
    int64_t n = 29, k = 4;
    double om[4], out[8 * 8], work[64], worst = 0;
    pe_omegas(d, 10000, om);
    pe_toeplitz_cells(om, NULL, NULL, half, n, k, 0, 8, 0, 8, out, work);
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++) {
            double sum = 0;
            int cnt = 0;
            for (int64_t i = r * k; i < (r + 1) * k && i < n; i++)
                for (int64_t j = c * k; j < (c + 1) * k && j < n; j++) {
                    sum += pe_score((double)(i - j), d, 10000);
                    cnt++;
                }
            worst = fmax(worst, fabs(out[r * 8 + c] - sum / cnt));
        }
    CHECK_NEAR(worst, 0.0, 1e-12);
}

int main(void)
{
    static const double bases[] = { 10000, 500000, 1e6, 2.5 };
    for (int b = 0; b < 4; b++)
        for (int i = 0; i < 64; i += 7) {
            double w = pe_omega(i, 64, bases[b]);
            check_columns(w, 0, 1, 200, 128);
            check_columns(w, 0, 5243, 200, (int64_t)1 << 20);
            check_columns(w, 1000001, 3, 250, 1000600);
            check_columns(w, 7, 64, 17, 1000);
            check_runs(w, 0, 128, 106);
            check_runs(w, 0, 4096, 106);
            check_runs(w, 999000, 1000, 296);
            check_runs(w, 12, 40, 146);
            check_runs(w, (int64_t)1 << 23, (int64_t)1 << 23, 157);
            check_runs_any(w);
        }
    check_brute();
    for (int rope = 0; rope < 2; rope++) {
        check_grid(64, 10000, 128, 1, 0, 56, 0, 120, rope);
        check_grid(64, 10000, 128, 2, 3, 40, 0, 64, rope);
        check_grid(4096, 10000, (int64_t)1 << 20, 18725, 0, 56, 0, 57,
                   rope);
        check_grid(512, 500000, 1000003, 9001, 20, 40, 50, 62, rope);
        check_grid(256, 1e6, 65536, 300, 200, 30, 180, 40, rope);
        check_grid(16, 10000, 100, 7, 0, 20, 0, 20, rope);   /* rows beyond n */
    }
    TEST_END("test_pe_cells");
}
