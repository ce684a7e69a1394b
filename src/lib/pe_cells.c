/* SPDX-License-Identifier: ISC */
/*
 * pe_cells.c - kernels that compute exactly what a screen of cells shows
 * (see include/peviz/pe.h, "visible-cell kernels").
 *
 * Both lean on one fact: the mean of e^{ipw} over k consecutive positions
 * is e^{icw} D_k(w), c the range's centre.  Ranges laid side by side have
 * centres k apart, so their phases form a geometric sequence: one
 * rotation per range instead of a sin and a cos.  Rotations drift by an
 * ulp or so per step; every ANCHOR steps the phase is recomputed from its
 * exact angle (an integer or half-integer times w, exact in double while
 * positions stay below 2^51), which keeps the error near 1e-14.
 */
#include <math.h>
#include <stddef.h>

#include "peviz/pe.h"

#define ANCHOR 64
#include "peviz/pi.h"

/* ---- columns of the PE heatmap ---------------------------------------- */

void pe_range_means_step(double w, int64_t p0, int64_t k, int count,
                         int64_t n, double *mean_sin, double *mean_cos)
{
    double dk = pe_dirichlet(k, w), cs = cos((double)k * w),
           sn = sin((double)k * w), c = 0, s = 0;

    for (int j = 0; j < count; j++) {
        int64_t a = p0 + (int64_t)j * k, b = a + k < n ? a + k : n;
        double ms = 0, mc = 0;

        if (j % ANCHOR == 0) {              /* exact phase of range j */
            double t = ((double)a + 0.5 * (double)(k - 1)) * w;
            c = cos(t);
            s = sin(t);
        }
        if (b - a == k) {
            ms = s * dk;
            mc = c * dk;
        } else if (b > a) {                 /* the short last range */
            pe_range_mean(w, a, b, &ms, &mc);
        }
        if (mean_sin)
            mean_sin[j] = ms;
        if (mean_cos)
            mean_cos[j] = mc;
        double c2 = c * cs - s * sn;        /* turn by k w: the next range */
        s = s * cs + c * sn;
        c = c2;
    }
}

/* A turn by h half-steps of w, from a cache of the last few step sizes
 * (columns whose sizes differ by one have two or three steps). */
struct turns {
    int64_t h[4];
    double c[4], s[4];
    int n, next;
};

static void turn_of(struct turns *t, int64_t h, double w, double *c,
                    double *s)
{
    for (int i = 0; i < t->n; i++)
        if (t->h[i] == h) {
            *c = t->c[i];
            *s = t->s[i];
            return;
        }
    int i = t->n < 4 ? t->n++ : (t->next++ & 3);
    t->h[i] = h;
    t->c[i] = *c = cos(0.5 * (double)h * w);
    t->s[i] = *s = sin(0.5 * (double)h * w);
}

void pe_range_means_runs(double w, const int64_t *p0, const int64_t *p1,
                         int count, double *mean_sin, double *mean_cos)
{
    struct turns t = { { 0 }, { 0 }, { 0 }, 0, 0 };
    int64_t len[2] = { -1, -1 };
    double dn[2] = { 0, 0 }, c = 1, s = 0;

    for (int j = 0; j < count; j++) {
        int64_t a = p0[j], b = p1[j], twice = a + b - 1;    /* 2 x centre */
        double ms = 0, mc = 0;

        if (j % ANCHOR == 0) {  /* exact phase of range j, reduced as in
                                   pe_range_mean */
            double ang = (double)remainderl(0.5L * (long double)twice * w,
                                            (2 * PEVIZ_PI_L));
            c = cos(ang);
            s = sin(ang);
        } else {                            /* turned on from range j-1 */
            double tc, ts, c2;
            turn_of(&t, twice - (p0[j - 1] + p1[j - 1] - 1), w, &tc, &ts);
            c2 = c * tc - s * ts;
            s = s * tc + c * ts;
            c = c2;
        }
        if (b > a) {
            int k = len[0] == b - a ? 0 : len[1] == b - a ? 1 : -1;
            if (k < 0) {                    /* a size not seen lately */
                k = j % 2;
                len[k] = b - a;
                dn[k] = pe_dirichlet(b - a, w);
            }
            ms = s * dn[k];
            mc = c * dn[k];
        }
        if (mean_sin)
            mean_sin[j] = ms;
        if (mean_cos)
            mean_cos[j] = mc;
    }
}

/* ---- Toeplitz score grids ---------------------------------------------- */

/*
 * out[t] += sum_b f_b (A_b cos(x_t w_b) + B_b sin(x_t w_b)) for t < count,
 * x_t = x0 + t step (x0 a half-integer, step an integer: exact).
 * Bands outside, positions inside: each band is one rotation sequence.
 */
static void line_add(const double *omega, const double *A, const double *B,
                     const double *f, int half, double x0, int64_t step,
                     int count, double *out)
{
    for (int b = 0; b < half; b++) {
        double w = omega[b], a = A ? A[b] * f[b] : f[b];
        double bb = B ? B[b] * f[b] : 0.0;
        double cs = cos((double)step * w), sn = sin((double)step * w);
        double c = 0, s = 0;

        if (a == 0.0 && bb == 0.0)
            continue;
        for (int t = 0; t < count; t++) {
            if (t % ANCHOR == 0) {
                double x = (x0 + (double)t * (double)step) * w;
                c = cos(x);
                s = sin(x);
            }
            out[t] += a * c + bb * s;
            double c2 = c * cs - s * sn;
            s = s * cs + c * sn;
            c = c2;
        }
    }
}

/* Size and centre of block b of k positions, clipped to n (size 0 if
 * it starts at or beyond n). */
static int64_t block_of(int64_t b, int64_t k, int64_t n, double *centre)
{
    int64_t p0 = b * k, p1 = p0 + k < n ? p0 + k : n;

    if (p0 >= n)
        return 0;
    *centre = (double)p0 + 0.5 * (double)(p1 - p0 - 1);
    return p1 - p0;
}

void pe_toeplitz_cells(const double *omega, const double *A, const double *B,
                       int half, int64_t n, int64_t k, int64_t rb0, int rows,
                       int64_t cb0, int cols, double *out, double *work)
{
    int64_t nb = (n + k - 1) / k, last = nb - 1;  /* the only short block */
    int64_t m = n - last * k;                      /* its size */
    int64_t dmin = rb0 - (cb0 + cols - 1);         /* row block - col block */
    int ndiag = rows + cols - 1;
    double *diag = work, *rline = diag + ndiag, *cline = rline + cols;
    double *fkk = cline + rows, *fkm = fkk + half, cl = 0, cr;

    for (int t = 0; t < ndiag + cols + rows; t++)
        work[t] = 0.0;
    for (int b = 0; b < half; b++) {
        double dk = pe_dirichlet(k, omega[b]);
        fkk[b] = dk * dk;
        fkm[b] = dk * pe_dirichlet(m, omega[b]);
    }
    /* full x full: the centres are (rb - cb) k apart */
    line_add(omega, A, B, fkk, half, (double)dmin * (double)k, k, ndiag,
             diag);
    block_of(last, k, n, &cl);
    int short_row = m < k && last >= rb0 && last < rb0 + rows;
    int short_col = m < k && last >= cb0 && last < cb0 + cols;
    if (short_row) {    /* the short row against each column, full size */
        cr = (double)cb0 * (double)k + 0.5 * (double)(k - 1);
        line_add(omega, A, B, fkm, half, cl - cr, -k, cols, rline);
    }
    if (short_col) {    /* each row, full size, against the short column */
        cr = (double)rb0 * (double)k + 0.5 * (double)(k - 1);
        line_add(omega, A, B, fkm, half, cr - cl, k, rows, cline);
    }
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            int64_t rb = rb0 + r, cb = cb0 + c;
            double *o = &out[(size_t)r * (size_t)cols + (size_t)c];

            if (rb >= nb || cb >= nb)
                *o = NAN;
            else if (rb == last && cb == last && m < k)
                *o = NAN;               /* both short: filled in below */
            else if (rb == last && short_row)
                *o = rline[c];
            else if (cb == last && short_col)
                *o = cline[r];
            else
                *o = diag[rb - cb - dmin];
        }
    if (short_row && short_col) {       /* both short: distance 0 */
        double sum = 0;
        for (int b = 0; b < half; b++) {
            double dm = pe_dirichlet(m, omega[b]);
            sum += dm * dm * (A ? A[b] : 1.0);
        }
        out[(size_t)(last - rb0) * (size_t)cols + (size_t)(last - cb0)] = sum;
    }
}
