/* SPDX-License-Identifier: ISC */
/*
 * pca.c - principal components of a table (peviz/pca.h).
 *
 * Phases, each done in slices: the mean row; the covariance (or Gram)
 * matrix, one table row at a time; Householder reduction to tridiagonal
 * form (one column per step, accumulating the transform); the implicit
 * QL iteration (one eigenvalue per step); then sorting, directions and
 * signs.  The reduction and QL are the classic symmetric algorithms
 * (Householder 1958; the QL method with implicit shifts of Bowdler,
 * Martin, Reinsch and Wilkinson, 1968).
 */
#include "peviz/pca.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define QL_MAX_ITER 64

enum phase { PH_MEAN, PH_MATRIX, PH_REDUCE, PH_ACCUMULATE, PH_QL, PH_DONE };

struct pe_pca_work {
    const double *v;
    int64_t n;
    int d, k, m;
    int gram;                   /* eigen of the n x n Gram matrix */
    enum phase ph;
    int64_t idx;                /* the row, column or eigenvalue next */
    double *a;                  /* m x m, row-major; then in the same
                                   block: */
    double *diag, *off;         /* [m] */
    double *row;                /* [d] scratch: a centred row */
    double done, total_work;
    int failed;
    struct pe_pca out;
};

static double *at(const struct pe_pca_work *w, int64_t i, int64_t j)
{
    return &w->a[i * w->m + j];
}

void pca_free(struct pe_pca *p)
{
    if (!p)
        return;
    free(p->mean);              /* dir and var with it */
    memset(p, 0, sizeof *p);
}

void pca_work_free(struct pe_pca_work *w)
{
    if (!w)
        return;
    free(w->a);                 /* diag, off and row with it */
    pca_free(&w->out);
    free(w);
}

/* The matrix and its scratch in one block (a, diag, off, row), the
 * result's arrays in another (mean, dir, var): 0, or -1. */
static int alloc_arrays(struct pe_pca_work *w)
{
    size_t m = (size_t)w->m, d = (size_t)w->d, k = (size_t)w->k;
    w->a = calloc(m * m + 2 * m + d, sizeof *w->a);
    w->out.mean = calloc(d + k * d + k, sizeof *w->out.mean);
    if (!w->a || !w->out.mean)
        return -1;
    w->diag = w->a + m * m;
    w->off = w->diag + m;
    w->row = w->off + m;
    w->out.dir = w->out.mean + d;
    w->out.var = w->out.dir + k * d;
    return 0;
}

struct pe_pca_work *pca_begin(const double *v, int64_t n, int d, int k)
{
    if (!v || n < 2 || d < 1 || k < 1 || k > d || k > n - 1)
        return NULL;
    struct pe_pca_work *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->v = v;
    w->n = n;
    w->d = d;
    w->k = k;
    w->gram = n < d;
    w->m = w->gram ? (int)n : d;
    if (alloc_arrays(w)) {
        pca_work_free(w);
        return NULL;
    }
    double dm = (double)w->m, mat = w->gram ? (double)n * (double)n * d / 2
                                            : (double)n * (double)d * d / 2;
    w->total_work = (double)n * d + mat + 4.0 * dm * dm * dm;
    return w;
}

/* ---- the matrix ---------------------------------------------------------- */

static void centred(const struct pe_pca_work *w, int64_t p, double *out)
{
    const double *x = w->v + p * w->d;
    for (int j = 0; j < w->d; j++)
        out[j] = x[j] - w->out.mean[j];
}

static double mean_step(struct pe_pca_work *w)
{
    const double *x = w->v + w->idx * w->d;
    for (int j = 0; j < w->d; j++)
        w->out.mean[j] += x[j];
    if (++w->idx == w->n) {
        for (int j = 0; j < w->d; j++)
            w->out.mean[j] /= (double)w->n;
        w->ph = PH_MATRIX;
        w->idx = 0;
    }
    return w->d;
}

/* Lower triangle: covariance row sums, or Gram row p against q <= p. */
static double matrix_step(struct pe_pca_work *w)
{
    int64_t p = w->idx;
    double cost;
    centred(w, p, w->row);
    if (!w->gram) {
        for (int j = 0; j < w->d; j++)
            for (int c = 0; c <= j; c++)
                *at(w, j, c) += w->row[j] * w->row[c];
        cost = (double)w->d * w->d / 2;
    } else {
        for (int64_t q = 0; q <= p; q++) {
            const double *y = w->v + q * w->d;
            double s = 0;
            for (int j = 0; j < w->d; j++)
                s += w->row[j] * (y[j] - w->out.mean[j]);
            *at(w, p, q) = s;
        }
        cost = (double)(p + 1) * w->d;
    }
    if (++w->idx == w->n) {
        for (int i = 0; i < w->m; i++) {
            for (int j = 0; j <= i; j++)
                *at(w, j, i) = *at(w, i, j) /= (double)w->n;
            w->out.total += *at(w, i, i);
        }
        w->ph = PH_REDUCE;
        w->idx = w->m - 1;
    }
    return cost;
}

/* Eigenvectors from columns to rows, so rotations run along rows. */
static void transpose(struct pe_pca_work *w)
{
    for (int i = 0; i < w->m; i++)
        for (int j = 0; j < i; j++) {
            double t = *at(w, i, j);
            *at(w, i, j) = *at(w, j, i);
            *at(w, j, i) = t;
        }
}

/* ---- Householder reduction (one column i, from the last) ------------------ */

/* The rank-2 update of the leading (l+1) x (l+1) block, kept symmetric
 * and full so that every loop runs along rows. */
static void reduce_apply(struct pe_pca_work *w, int64_t i, double h)
{
    double *e = w->off, f = 0;
    const double *u = at(w, i, 0);
    int64_t l = i - 1;
    for (int64_t j = 0; j <= l; j++) {
        *at(w, j, i) = u[j] / h;
        const double *r = at(w, j, 0);
        double g = 0;
        for (int64_t c = 0; c <= l; c++)
            g += r[c] * u[c];
        e[j] = g / h;
        f += e[j] * u[j];
    }
    double hh = f / (h + h);
    for (int64_t j = 0; j <= l; j++)
        e[j] -= hh * u[j];
    for (int64_t j = 0; j <= l; j++) {
        double *r = at(w, j, 0), fj = u[j], gj = e[j];
        for (int64_t c = 0; c <= l; c++)
            r[c] -= fj * e[c] + gj * u[c];
    }
}

static double reduce_step(struct pe_pca_work *w)
{
    int64_t i = w->idx, l = i - 1;
    double h = 0, scale = 0;
    if (l > 0) {
        for (int64_t c = 0; c <= l; c++)
            scale += fabs(*at(w, i, c));
        if (scale == 0) {
            w->off[i] = *at(w, i, l);
        } else {
            for (int64_t c = 0; c <= l; c++) {
                *at(w, i, c) /= scale;
                h += *at(w, i, c) * *at(w, i, c);
            }
            double f = *at(w, i, l), g = f >= 0 ? -sqrt(h) : sqrt(h);
            w->off[i] = scale * g;
            h -= f * g;
            *at(w, i, l) = f - g;
            reduce_apply(w, i, h);
        }
    } else {
        w->off[i] = *at(w, i, l);
    }
    w->diag[i] = h;
    if (--w->idx == 0) {
        w->diag[0] = 0;
        w->off[0] = 0;
        w->ph = PH_ACCUMULATE;
    }
    return (double)i * i;
}

/* The transform accumulated into a, row i: with Z the leading block, u
 * row i and q column i, Z -= q (Z^T u)^T, by rows. */
static double accumulate_step(struct pe_pca_work *w)
{
    int64_t i = w->idx, l = i - 1;
    double *g = w->row;
    if (w->diag[i] != 0) {
        const double *u = at(w, i, 0);
        memset(g, 0, (size_t)(l + 1) * sizeof *g);
        for (int64_t c = 0; c <= l; c++) {
            const double *r = at(w, c, 0);
            for (int64_t j = 0; j <= l; j++)
                g[j] += u[c] * r[j];
        }
        for (int64_t c = 0; c <= l; c++) {
            double *r = at(w, c, 0), qc = *at(w, c, i);
            for (int64_t j = 0; j <= l; j++)
                r[j] -= qc * g[j];
        }
    }
    w->diag[i] = *at(w, i, i);
    *at(w, i, i) = 1;
    for (int64_t j = 0; j <= l; j++)
        *at(w, j, i) = *at(w, i, j) = 0;
    if (++w->idx == w->m) {
        for (int j = 1; j < w->m; j++)
            w->off[j - 1] = w->off[j];
        w->off[w->m - 1] = 0;
        transpose(w);
        w->ph = PH_QL;
        w->idx = 0;
    }
    return 2.0 * (double)i * i;
}

/* ---- implicit QL (eigenvalue l) -------------------------------------------- */

/* Rotate eigenvectors col and col+1 (rows of a after the transpose). */
static void ql_rotate(struct pe_pca_work *w, int64_t col, double s, double c)
{
    double *x = at(w, col, 0), *y = at(w, col + 1, 0);
    for (int64_t r = 0; r < w->m; r++) {
        double f = y[r];
        y[r] = s * x[r] + c * f;
        x[r] = c * x[r] - s * f;
    }
}

/* One sweep from m down to l; 1 when a zero rotation ended it early. */
static int ql_sweep(struct pe_pca_work *w, int64_t l, int64_t mm)
{
    double *d = w->diag, *e = w->off;
    double g = (d[l + 1] - d[l]) / (2 * e[l]), r = hypot(g, 1.0);
    double s = 1, c = 1, p = 0;
    g = d[mm] - d[l] + e[l] / (g + (g >= 0 ? fabs(r) : -fabs(r)));
    for (int64_t i = mm - 1; i >= l; i--) {
        double f = s * e[i], b = c * e[i];
        e[i + 1] = r = hypot(f, g);
        if (r == 0) {
            d[i + 1] -= p;
            e[mm] = 0;
            return 1;
        }
        s = f / r;
        c = g / r;
        g = d[i + 1] - p;
        r = (d[i] - g) * s + 2 * c * b;
        d[i + 1] = g + (p = s * r);
        g = c * r - b;
        ql_rotate(w, i, s, c);
    }
    d[l] -= p;
    e[l] = g;
    e[mm] = 0;
    return 0;
}

static double ql_step(struct pe_pca_work *w)
{
    int64_t l = w->idx, mm;
    double cost = 0;
    for (int iter = 0;; iter++) {
        for (mm = l; mm < w->m - 1; mm++) {
            double dd = fabs(w->diag[mm]) + fabs(w->diag[mm + 1]);
            if (fabs(w->off[mm]) <= 0x1p-53 * dd)
                break;
        }
        if (mm == l)
            break;
        if (iter == QL_MAX_ITER) {
            w->failed = 1;
            return cost;
        }
        ql_sweep(w, l, mm);
        cost += 6.0 * (double)(mm - l) * w->m;
    }
    if (++w->idx == w->m)
        w->ph = PH_DONE;
    return cost + w->m;
}

/* ---- the result ------------------------------------------------------------ */

/* Direction of eigenvector column c of a, in table space, normalised. */
static void direction(struct pe_pca_work *w, int c, double *v)
{
    if (!w->gram) {
        memcpy(v, at(w, c, 0), (size_t)w->d * sizeof *v);
    } else {
        memset(v, 0, (size_t)w->d * sizeof *v);
        for (int64_t p = 0; p < w->n; p++) {
            centred(w, p, w->row);
            double u = *at(w, c, p);
            for (int j = 0; j < w->d; j++)
                v[j] += u * w->row[j];
        }
    }
    double norm = 0, big = 0;
    int where = 0;
    for (int j = 0; j < w->d; j++) {
        norm += v[j] * v[j];
        if (fabs(v[j]) > big) {
            big = fabs(v[j]);
            where = j;
        }
    }
    double scale = norm > 0 ? (v[where] < 0 ? -1 : 1) / sqrt(norm) : 0;
    for (int j = 0; j < w->d; j++)
        v[j] *= scale;
}

/* The eigenvalues below which a component is rounding, not variance:
 * the solver's error on each is about m ulp of the largest one. */
static double rank_floor(const struct pe_pca_work *w)
{
    double big = 0;
    for (int c = 0; c < w->m; c++)
        big = w->diag[c] > big ? w->diag[c] : big;
    return big * (double)w->m * 0x1p-49;
}

static void finish(struct pe_pca_work *w)
{
    char *used = calloc((size_t)w->m, 1);
    double floor_ = rank_floor(w);
    for (int r = 0; r < w->k; r++) {
        int best = -1;
        for (int c = 0; c < w->m; c++)
            if (!(used && used[c]) && (best < 0 || w->diag[c] > w->diag[best]))
                best = c;
        if (used)
            used[best] = 1;
        double *v = w->out.dir + (size_t)r * (size_t)w->d;
        if (!(w->diag[best] > floor_)) {    /* beyond the rank: no direction
                                               (a Gram eigenvector of 0 maps
                                               to rounding noise), var 0 */
            w->out.var[r] = 0;
            memset(v, 0, (size_t)w->d * sizeof *v);
            continue;
        }
        w->out.var[r] = w->diag[best];
        w->out.rank = r + 1;
        direction(w, best, v);
    }
    free(used);
    w->out.n = w->n;
    w->out.d = w->d;
    w->out.k = w->k;
}

int pca_step(struct pe_pca_work *w, int64_t budget)
{
    double spent = 0;
    while (w->ph != PH_DONE && !w->failed && spent < (double)budget) {
        double c = 0;
        switch (w->ph) {
        case PH_MEAN: c = mean_step(w); break;
        case PH_MATRIX: c = matrix_step(w); break;
        case PH_REDUCE:
            c = w->m > 1 ? reduce_step(w) : (w->ph = PH_ACCUMULATE, 0);
            break;
        case PH_ACCUMULATE: c = accumulate_step(w); break;
        case PH_QL: c = ql_step(w); break;
        case PH_DONE: break;
        }
        spent += c + 1;
        w->done += c;
    }
    if (w->failed)
        return -1;
    if (w->ph != PH_DONE)
        return 1;
    if (w->out.n == 0)
        finish(w);
    return 0;
}

double pca_progress(const struct pe_pca_work *w)
{
    if (w->ph == PH_DONE)
        return 1.0;
    double f = w->done / w->total_work;
    return f < 0.99 ? f : 0.99;
}

int pca_take(struct pe_pca_work *w, struct pe_pca *out)
{
    if (w->ph != PH_DONE || w->failed || w->out.n == 0)
        return -1;
    *out = w->out;
    memset(&w->out, 0, sizeof w->out);
    return 0;
}

int pca_compute(const double *v, int64_t n, int d, int k,
                struct pe_pca *out)
{
    memset(out, 0, sizeof *out);
    struct pe_pca_work *w = pca_begin(v, n, d, k);
    if (!w)
        return -1;
    int r;
    while ((r = pca_step(w, INT64_C(1) << 40)) == 1)
        ;
    r = r == 0 ? pca_take(w, out) : -1;
    pca_work_free(w);
    return r;
}

void pca_project(const struct pe_pca *p, const double *row, double *out)
{
    for (int c = 0; c < p->k; c++) {
        const double *v = p->dir + (size_t)c * (size_t)p->d;
        double s = 0;
        for (int j = 0; j < p->d; j++)
            s += (row[j] - p->mean[j]) * v[j];
        out[c] = s;
    }
}

double pca_ratio(const struct pe_pca *p, int i)
{
    return p->total > 0 ? p->var[i] / p->total : 0;
}
