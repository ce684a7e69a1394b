/* SPDX-License-Identifier: ISC */
/*
 * bound.c - the base bound of RoPE (include/peviz/bound.h): B(m), the
 * horizon and the lowest base for a length.
 */
#include "peviz/bound.h"
#include "peviz/pe.h"

#include <math.h>

double bound_sum(const double *omega, int half, int64_t m)
{
    long double b = 0;
    for (int i = 0; i < half; i++)
        b += cosl((long double)m * omega[i]);
    return (double)b;
}

int bound_dead_pairs(const double *omega, int half)
{
    int dead = 0;
    for (int i = 0; i < half; i++)
        dead += omega[i] == 0.0;
    return dead;
}

int bound_trivial(const double *omega, int half)
{
    return 2 * bound_dead_pairs(omega, half) >= half;
}

#define BOUND_GROUP 8     /* pairs turned side by side: independent
                             chains the processor overlaps */
#define BOUND_TWO_PI_HI 6.28318530717958623200      /* 2 pi = HI + LO */
#define BOUND_TWO_PI_LO 2.44929359829470635445e-16

/* cos and sin of m omega, the angle formed and reduced by 2 pi with its
 * rounding error kept (fma), to about 1e-16 of the angle's size. */
static void bound_anchor(int64_t m, double w, double *c, double *s)
{
    double hi = (double)m * w, lo = fma((double)m, w, -hi);
    double k = nearbyint(hi / BOUND_TWO_PI_HI);
    double r = fma(-k, BOUND_TWO_PI_HI, hi);
    r = fma(-k, BOUND_TWO_PI_LO, r) + lo;
    *c = cos(r);
    *s = sin(r);
}

/* Pairs i .. i+g-1 (g <= BOUND_GROUP) anchored at m0 and turned by one
 * position per step, their cosines added into b[0 .. len-1]. */
static void bound_group(const double *omega, int i, int g, int64_t m0,
                        int len, double *b)
{
    double c[BOUND_GROUP], s[BOUND_GROUP], cw[BOUND_GROUP], sw[BOUND_GROUP];
    for (int k = 0; k < BOUND_GROUP; k++) {
        double w = k < g ? omega[i + k] : 0.0;
        bound_anchor(m0, w, &c[k], &s[k]);
        if (k >= g)
            c[k] = 0.0;             /* a missing pair adds 0 */
        cw[k] = cos(w);
        sw[k] = sin(w);
    }
    for (int t = 0; t < len; t++) {
        double sum = 0;
        for (int k = 0; k < BOUND_GROUP; k++)
            sum += c[k];
        b[t] += sum;
        for (int k = 0; k < BOUND_GROUP; k++) {
            double c1 = c[k] * cw[k] - s[k] * sw[k];
            s[k] = s[k] * cw[k] + c[k] * sw[k];
            c[k] = c1;
        }
    }
}

/* B(m0 + t) for t < len into b. */
static void bound_block(const double *omega, int half, int64_t m0, int len,
                        double *b)
{
    for (int t = 0; t < len; t++)
        b[t] = 0;
    for (int i = 0; i < half; i += BOUND_GROUP)
        bound_group(omega, i, half - i < BOUND_GROUP ? half - i : BOUND_GROUP,
                    m0, len, b);
}

int64_t bound_horizon(const double *omega, int half, int64_t limit)
{
    double b[BOUND_BLOCK];
    double tol = BOUND_SIGN_TOL * half;
    for (int64_t m0 = 0; m0 < limit; m0 += BOUND_BLOCK) {
        int len = limit - m0 < BOUND_BLOCK ? (int)(limit - m0) : BOUND_BLOCK;
        bound_block(omega, half, m0, len, b);
        for (int t = 0; t < len; t++)
            if (b[t] < tol && (b[t] < -tol ||
                               bound_sum(omega, half, m0 + t) < 0))
                return m0 + t;
    }
    return -1;
}

double bound_grid_base(int64_t j)
{
    return pow(10.0, (double)j / BOUND_FINE_PER_DECADE);
}

/* Whether base b keeps B(m) >= 0 for every m < L at head dim d. */
static int bound_passes(int d, int64_t L, double b, double *omega)
{
    pe_omegas(d, b, omega);
    return bound_horizon(omega, d / 2, L) < 0;
}

int bound_lowest_base(int d, int64_t L, double *omega,
                      struct bound_base *out)
{
    const int64_t step = BOUND_FINE_PER_DECADE / BOUND_COARSE_PER_DECADE;
    int64_t jmax = (int64_t)(log10(BOUND_BASE_MAX) * BOUND_FINE_PER_DECADE);
    int64_t j = step;
    if (d < 2 || d % 2 || L < 1)
        return -1;
    while (j <= jmax && !bound_passes(d, L, bound_grid_base(j), omega))
        j += step;
    if (j > jmax)
        return -1;
    for (int64_t f = j - step + 1; f < j; f++)
        if (f > 0 && bound_passes(d, L, bound_grid_base(f), omega)) {
            j = f;
            break;
        }
    out->j = j;
    out->base = bound_grid_base(j);
    out->below = bound_grid_base(j - 1);
    return 0;
}
