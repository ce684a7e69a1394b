/* SPDX-License-Identifier: ISC */
/*
 * peviz/pca.h - principal components of a table's rows (positions).
 *
 * With X the n x d table and mu the mean row, the centred rows
 * x_p - mu have the covariance C = (1/n) sum_p (x_p - mu)^T (x_p - mu).
 * Its eigenvectors with the K largest eigenvalues lambda_1 >= ... are the
 * principal directions v_1 .. v_K; each is a unit vector whose
 * largest-magnitude entry is positive (the first such entry on a tie).
 *   projection  y_k(p) = (x_p - mu) . v_k
 *   explained   r_k = lambda_k / trace(C)    (sum over all k of r_k = 1)
 * A component whose eigenvalue is within rounding of 0 (m ulp of the
 * largest: beyond the table's rank, e.g. a 5 x 6 table of rank 1 has one)
 * gets lambda_k = 0 and v_k = 0, not a direction made of rounding noise;
 * rank counts the others.
 * The eigenproblem is solved on the smaller of the d x d covariance and
 * the n x n Gram matrix (the same nonzero eigenvalues), by Householder
 * tridiagonalisation and the implicit QL method: every eigenpair to
 * rounding, O(m^3) for m = min(n, d), m <= 2048 when n*d <= 2^22.
 *
 * The work can be done in slices (pca_begin / pca_step) so that a
 * program stays responsive; pca_compute does it at once.
 */
#ifndef PEVIZ_PCA_H
#define PEVIZ_PCA_H

#include <stddef.h>
#include <stdint.h>

struct pe_pca {
    int64_t n;
    int d, k;
    double *mean;           /* [d]; dir and var follow it in one block
                               (pca_free frees it) */
    double *dir;            /* [k * d]: v_1, v_2, ... */
    double *var;            /* [k]: lambda_k, the variance along v_k */
    double total;           /* trace(C): the total variance */
    int rank;               /* components 1..rank have variance; those
                               beyond the table's rank have var 0 and a
                               zero direction, so they project to 0 */
};

struct pe_pca_work;

/* Start on the n x d table v (kept by pointer until done): k in
 * 1..min(d, n-1) (n centred rows span at most n-1 directions).  NULL
 * when k is out of range or memory is short. */
struct pe_pca_work *pca_begin(const double *v, int64_t n, int d, int k);

/* About budget multiply-adds of work: 1 while unfinished, 0 when done,
 * -1 if the eigenvalue iteration failed to converge. */
int pca_step(struct pe_pca_work *w, int64_t budget);

/* Fraction done, 0..1. */
double pca_progress(const struct pe_pca_work *w);

/* After pca_step returned 0: move the result into out (0), or -1. */
int pca_take(struct pe_pca_work *w, struct pe_pca *out);

void pca_work_free(struct pe_pca_work *w);         /* NULL is fine */

/* All at once: 0, or -1 (k out of range, memory, no convergence). */
int pca_compute(const double *v, int64_t n, int d, int k,
                struct pe_pca *out);

/* y_1 .. y_k of one row (d values) into out[0..k-1]. */
void pca_project(const struct pe_pca *p, const double *row, double *out);

/* r_i = lambda_i / trace(C), 0 when the table is constant. */
double pca_ratio(const struct pe_pca *p, int i);

void pca_free(struct pe_pca *p);                   /* NULL is fine */

#endif
