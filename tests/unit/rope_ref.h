/* SPDX-License-Identifier: ISC */
/*
 * rope_ref.h - RoPE's frequencies written out again from ROPE.md (plain
 * math, nothing from the library), shared by test_rope (the library) and
 * test_compare_ratio (the compare view's ratio mode).
 */
#ifndef PEVIZ_TEST_ROPE_REF_H
#define PEVIZ_TEST_ROPE_REF_H

#include <math.h>

#define REF_PI 3.14159265358979323846

/* The unscaled frequency of band i: base^(-2i/d). */
static inline double ref_theta(int i, int d, double base)
{
    return 1.0 / pow(base, 2.0 * i / d);
}

/* YaRN as HF writes it: corr dims, floor/ceil, clamps. */
static inline void ref_yarn_bounds(int d, double base, double L, double bf,
                                   double bs, int truncate, double *lo,
                                   double *hi)
{
    double a = d * log(L / (bf * 2 * REF_PI)) / (2 * log(base));
    double b = d * log(L / (bs * 2 * REF_PI)) / (2 * log(base));
    if (truncate) {
        a = floor(a);
        b = ceil(b);
    }
    *lo = a > 0 ? a : 0;
    *hi = b < d - 1 ? b : d - 1;
    if (*lo == *hi)
        *hi += 0.001;
}

/* YaRN's frequency of band i: a linear ramp between the bounds. */
static inline double ref_yarn(int i, int d, double base, double s, double L,
                              double bf, double bs, int truncate)
{
    double lo, hi;
    ref_yarn_bounds(d, base, L, bf, bs, truncate, &lo, &hi);
    double ramp = (i - lo) / (hi - lo);
    if (ramp < 0)
        ramp = 0;
    if (ramp > 1)
        ramp = 1;
    double extrap = 1 - ramp;
    double pos = pow(base, 2.0 * i / d);
    return (1 / (s * pos)) * (1 - extrap) + (1 / pos) * extrap;
}

/* Meta's apply_scaling (llama3). */
static inline double ref_llama3(int i, int d, double base, double s, double L,
                                double lf, double hf)
{
    double inv = ref_theta(i, d, base), w = 2 * REF_PI / inv;
    if (w < L / hf)
        return inv;
    if (w > L / lf)
        return inv / s;
    double sm = (L / w - lf) / (hf - lf);
    return (1 - sm) * inv / s + sm * inv;
}

#endif
