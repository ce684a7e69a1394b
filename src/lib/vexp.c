/* SPDX-License-Identifier: ISC */
/*
 * vexp.c - exp over an array, two at a time (see vexp_impl.h).
 *
 * exp(x) = 2^k exp(r), k = x / ln 2 rounded, r = x - k ln 2 in two
 * parts (ln 2's high part has trailing zeros, so k times it is exact),
 * |r| <= ln 2 / 2 (a hair more where the rounding of k is off by one);
 * exp(r) by its Taylor series to r^13 (the rest under 1e-17 relative),
 * summed by Estrin's scheme (powers of r^2, r^4, r^8: few steps in a
 * row, so two pairs at once keep the multipliers busy);
 * 2^k made in the exponent bits.  Arguments outside [-708, 709], where
 * 2^k would not be a normal number, take exp itself.  Four at a time
 * where the processor has AVX2 (pv_cpu_avx2).
 */
#include "vexp_impl.h"
#include "cpu_impl.h"

#include <math.h>
#include <string.h>

#define LOG2E 1.4426950408889634074
#define LN2_HI 6.93147180369123816490e-01   /* 0x3fe62e42fee00000 */
#define LN2_LO 1.90821492927058770002e-10
#define ROUNDER 6755399441055744.0          /* 1.5 2^52 */

typedef double v2d __attribute__((vector_size(16)));
typedef long long v2l __attribute__((vector_size(16)));

static v2d ld2(const double *p)
{
    v2d v;
    memcpy(&v, p, sizeof v);
    return v;
}

static v2d bc(double x)
{
    v2d v = { x, x };
    return v;
}

/* The constants, in the order the enum below names them; each table
 * holds them in every lane (loaded whole: a broadcast made from a
 * scalar costs two instructions more each time). */
#define VEXP_CONSTANTS(X)                                                  \
    X(LOG2E) X(ROUNDER) X(LN2_HI) X(LN2_LO) X(-708.0) X(709.0) X(1.0)      \
    X(1.0) X(1.0 / 2) X(1.0 / 6) X(1.0 / 24) X(1.0 / 120) X(1.0 / 720)    \
    X(1.0 / 5040) X(1.0 / 40320) X(1.0 / 362880) X(1.0 / 3628800)         \
    X(1.0 / 39916800) X(1.0 / 479001600) X(1.0 / 6227020800.0)
#define PAIR(x) { (x), (x) },
static const v2d K[] = { VEXP_CONSTANTS(PAIR) };
enum { K_LOG2E, K_ROUND, K_HI, K_LO, K_MIN, K_MAX, K_C0 };  /* 1/j! */
#define C(j) K[K_C0 + (j)]

/* exp of two arguments in [-708, 709]. */
static inline v2d exp2v(v2d x)
{
    v2d t = x * K[K_LOG2E] + K[K_ROUND];
    v2d k = t - K[K_ROUND];
    v2d r = x - k * K[K_HI];
    r = r - k * K[K_LO];
    v2d r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;  /* Estrin: a short chain */
    v2d p01 = C(0) + r, p23 = C(2) + r * C(3), p45 = C(4) + r * C(5);
    v2d p67 = C(6) + r * C(7), p89 = C(8) + r * C(9);
    v2d pab = C(10) + r * C(11), pcd = C(12) + r * C(13);
    v2d q0 = p01 + r2 * p23, q1 = p45 + r2 * p67, q2 = p89 + r2 * pab;
    v2d p = (q0 + r4 * q1) + r8 * (q2 + r4 * pcd);
    v2l tl, kl;                 /* k from the low bits of t */
    memcpy(&tl, &t, sizeof tl);
    memcpy(&kl, &K[K_ROUND], sizeof kl);
    v2l bits = (tl - kl + 1023) << 52;
    v2d scale;
    memcpy(&scale, &bits, sizeof scale);
    return p * scale;
}

static double exp1(double x, double under)
{
    return x < under ? 0.0 : exp(x);
}

/* Whether all four of x and y are in [-708, 709]. */
static int normal(v2d x, v2d y)
{
    v2l in = (x >= K[K_MIN]) & (x <= K[K_MAX]) & (y >= K[K_MIN])
             & (y <= K[K_MAX]);
    return (in[0] & in[1]) != 0;
}

/* Two arguments, where exp2v cannot take both: one by one. */
static void exp_pair(double *e, v2d x, double under)
{
    if (normal(x, x)) {
        x = exp2v(x);
        memcpy(e, &x, sizeof x);
    } else {
        e[0] = exp1(x[0], under);
        e[1] = exp1(x[1], under);
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
/* The same four doubles a vector where the processor has AVX2: the
 * steps of exp2v in lanes of four, eight arguments a turn. */
typedef double v4d __attribute__((vector_size(32)));
typedef long long v4l __attribute__((vector_size(32)));
#define QUAD(x) { (x), (x), (x), (x) },
static const v4d K4[] = { VEXP_CONSTANTS(QUAD) };
#define C4(j) K4[K_C0 + (j)]

/* exp of e[0..4) - sh into e, or 0 when one is outside [-708, 709]. */
__attribute__((target("avx2")))
static int exp4(double *e, double shift)
{
    v4d x, sh = { shift, shift, shift, shift };
    memcpy(&x, e, sizeof x);
    x -= sh;
    v4l in = (x >= K4[K_MIN]) & (x <= K4[K_MAX]);
    if (!(in[0] & in[1] & in[2] & in[3]))
        return 0;
    v4d t = x * K4[K_LOG2E] + K4[K_ROUND];
    v4d k = t - K4[K_ROUND];
    v4d r = x - k * K4[K_HI];
    r = r - k * K4[K_LO];
    v4d r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
    v4d p01 = C4(0) + r, p23 = C4(2) + r * C4(3), p45 = C4(4) + r * C4(5);
    v4d p67 = C4(6) + r * C4(7), p89 = C4(8) + r * C4(9);
    v4d pab = C4(10) + r * C4(11), pcd = C4(12) + r * C4(13);
    v4d q0 = p01 + r2 * p23, q1 = p45 + r2 * p67, q2 = p89 + r2 * pab;
    v4d p = (q0 + r4 * q1) + r8 * (q2 + r4 * pcd);
    v4l tl, kl;
    memcpy(&tl, &t, sizeof tl);
    memcpy(&kl, &K4[K_ROUND], sizeof kl);
    v4l bits = (tl - kl + 1023) << 52;
    v4d scale;
    memcpy(&scale, &bits, sizeof scale);
    p *= scale;
    memcpy(e, &p, sizeof p);
    return 1;
}

/* e's quads through exp4 up to the first it cannot take; the number of
 * doubles done. */
__attribute__((target("avx2")))
static size_t exp_avx2(double *e, size_t n, double shift)
{
    size_t i = 0;
    while (i + 4 <= n && exp4(e + i, shift))
        i += 4;
    return i;
}
#else
static size_t exp_avx2(double *e, size_t n, double shift)
{
    (void)e;
    (void)n;
    (void)shift;
    return 0;
}
#endif

void pv_exp_shift(double *e, size_t n, double shift, double under)
{
    v2d sh = bc(shift);
    size_t i = 0;
    int quads = pv_cpu_avx2();
    while (quads && i + 4 <= n) {           /* quads while they can */
        i += exp_avx2(e + i, n - i, shift);
        if (i + 4 > n)
            break;
        for (size_t j = i; j < i + 4; j++)  /* the quad it could not */
            e[j] = exp1(e[j] - shift, under);
        i += 4;
    }
    for (; i + 4 <= n; i += 4) {            /* two pairs at once */
        v2d x = ld2(e + i) - sh, y = ld2(e + i + 2) - sh;
        if (normal(x, y)) {
            x = exp2v(x);
            y = exp2v(y);
            memcpy(e + i, &x, sizeof x);
            memcpy(e + i + 2, &y, sizeof y);
        } else {
            exp_pair(e + i, x, under);
            exp_pair(e + i + 2, y, under);
        }
    }
    for (; i + 2 <= n; i += 2)
        exp_pair(e + i, ld2(e + i) - sh, under);
    if (i < n)
        e[i] = exp1(e[i] - shift, under);
}
