/* SPDX-License-Identifier: ISC */
/*
 * xpos.c - xPos (torchscale xpos_relative_position.py): RoPE whose band k
 * is also scaled, the query at m by zeta_k^(m/gamma) and the key at n by
 * zeta_k^(-n/gamma), zeta_k = (2k + 0.4 d) / (1.4 d), gamma the scale
 * base (512).  Each band's term of the score is multiplied by
 * zeta_k^((m - n)/gamma), so S depends on i - j alone:
 *   S = sum_k zeta_k^((i-j)/gamma) (a_k cos((i-j) w_k) + b_k sin(..)),
 * a_k, b_k RoPE's coefficients of q and k (q = k = ones: a_k = 2).
 * zeta < 1: the past decays; the future (j > i) grows, which is why
 * xPos is meant for causal attention.
 *
 * Per band the term is Re[(a_k - i b_k) z^(i-j)], z = e^L, L = ln(zeta_k)
 * / gamma + i w_k: a geometric series in i - j.  A block's sum factors as
 * z^(i0 - j1 + 1) S_A S_B with S_N = sum_{t<N} z^t = expm1(N L)/expm1(L),
 * the triangle's as (m - z S_m)/(1 - z), a range's as z^d0 S_len: every
 * mean is exact in O(d) whatever the block's size.
 */
#include "peviz/scores.h"
#include "schemes_impl.h"

#include <math.h>

void xpos_setup(struct score_ctx *s)
{
    s->xpos_gamma = isfinite(s->o.xpos_base) && s->o.xpos_base > 0
                    ? s->o.xpos_base : 512.0;
    double r = s->rotary;       /* partial rotary: the rest do not decay */
    for (int k = 0; k < s->half; k++)
        s->dband[k] = k < s->rotary / 2 ? (2.0 * k + 0.4 * r) / (1.4 * r)
                                        : 1.0;
}

static double xpos_at(const struct score_ctx *s, int64_t delta)
{
    double sum = 0.0, dl = (double)delta, e = dl / s->xpos_gamma;
    for (int k = 0; k < s->half; k++) {
        double t = dl * s->omega[k];
        sum += pow(s->dband[k], e) * (s->ra[k] * cos(t) + s->rb[k] * sin(t));
    }
    return sum;
}

/* expm1 of x + iy without cancellation near 0. */
static void cexpm1(double x, double y, double *re, double *im)
{
    double s = sin(0.5 * y);
    *re = expm1(x) * cos(y) - 2.0 * s * s;
    *im = exp(x) * sin(y);
}

/* S_N(z) = sum_{t<N} z^t for band k, z = exp(lam + i w). */
static void geo(double lam, double w, int64_t n, double *re, double *im)
{
    double nr, ni, dr, di;
    if (lam == 0.0 && w == 0.0) {       /* z = 1 */
        *re = (double)n;
        *im = 0.0;
        return;
    }
    cexpm1((double)n * lam, (double)n * w, &nr, &ni);
    cexpm1(lam, w, &dr, &di);
    double den = dr * dr + di * di;
    *re = (nr * dr + ni * di) / den;
    *im = (ni * dr - nr * di) / den;
}

/* Re[(a - ib) c] for band k's coefficients and a complex c. */
static double band_re(const struct score_ctx *s, int k, double cr, double ci)
{
    return s->ra[k] * cr + s->rb[k] * ci;
}

/* z^p for band k: its modulus and angle. */
static void zpow(double lam, double w, double p, double *re, double *im)
{
    double m = exp(p * lam);
    *re = m * cos(p * w);
    *im = m * sin(p * w);
}

static double xpos_block_mean(const struct score_ctx *s, int64_t i0,
                              int64_t i1, int64_t j0, int64_t j1)
{
    double sum = 0.0;
    for (int k = 0; k < s->half; k++) {
        double lam = log(s->dband[k]) / s->xpos_gamma, w = s->omega[k];
        double ar, ai, br, bi, zr, zi;
        geo(lam, w, i1 - i0, &ar, &ai);
        geo(lam, w, j1 - j0, &br, &bi);
        zpow(lam, w, (double)(i0 - j1 + 1), &zr, &zi);
        double pr = ar * br - ai * bi, pi = ar * bi + ai * br;
        sum += band_re(s, k, zr * pr - zi * pi, zr * pi + zi * pr);
    }
    return sum / ((double)(i1 - i0) * (double)(j1 - j0));
}

/* sum_{d<m} (m - d) z^d = (m - z S_m) / (1 - z) per band. */
static double xpos_tri_sum(const struct score_ctx *s, int64_t m)
{
    double sum = 0.0;
    for (int k = 0; k < s->half; k++) {
        double lam = log(s->dband[k]) / s->xpos_gamma, w = s->omega[k];
        if (lam == 0.0 && w == 0.0) {
            sum += band_re(s, k, 0.5 * (double)m * (double)(m + 1), 0.0);
            continue;
        }
        double gr, gi, zr, zi, er, ei;
        geo(lam, w, m, &gr, &gi);
        zpow(lam, w, 1.0, &zr, &zi);
        double nr = (double)m - (zr * gr - zi * gi), ni = -(zr * gi + zi * gr);
        cexpm1(lam, w, &er, &ei);       /* 1 - z = -expm1(L) */
        double dr = -er, di = -ei, den = dr * dr + di * di;
        sum += band_re(s, k, (nr * dr + ni * di) / den,
                       (ni * dr - nr * di) / den);
    }
    return sum;
}

static double xpos_range_mean(const struct score_ctx *s, int64_t d0,
                              int64_t d1)
{
    double sum = 0.0;
    for (int k = 0; k < s->half; k++) {
        double lam = log(s->dband[k]) / s->xpos_gamma, w = s->omega[k];
        double gr, gi, zr, zi;
        geo(lam, w, d1 - d0, &gr, &gi);
        zpow(lam, w, (double)d0, &zr, &zi);
        sum += band_re(s, k, zr * gr - zi * gi, zr * gi + zi * gr);
    }
    return sum / (double)(d1 - d0);
}

const struct dist_ops DIST_XPOS = {
    xpos_at, NULL, xpos_block_mean, xpos_tri_sum, xpos_range_mean, NULL
};
