/* SPDX-License-Identifier: ISC */
/*
 * kerple.c - KERPLE's kernelised biases (chijames/KERPLE, NeMo
 * kerple_relative_position_embedding.py): log -r1 ln(1 + r2 |i - j|) and
 * power -r1 |i - j|^r2, r1, r2 > 0 (power: r2 <= 2); learned per head in
 * the model, given here by --r1 and --r2.  Their sums over runs of
 * distances (block means, triangle sums, range means) come from
 * Euler-Maclaurin in O(1) each.
 */
#include "peviz/scores.h"
#include "schemes_impl.h"

#include <math.h>

void kerple_setup(struct score_ctx *s)
{
    int power = s->o.scheme == SCHEME_KERPLE_POWER;
    s->r1 = isfinite(s->o.r1) && s->o.r1 > 0 ? s->o.r1 : 1.0;
    s->r2 = isfinite(s->o.r2) && s->o.r2 > 0 && (!power || s->o.r2 <= 2)
            ? s->o.r2 : 0.5;
}

static double dist(int64_t delta)
{
    return (double)(delta < 0 ? -delta : delta);
}

static double log_at(const struct score_ctx *s, int64_t delta)
{
    return -s->r1 * log1p(s->r2 * dist(delta));
}

static double power_at(const struct score_ctx *s, int64_t delta)
{
    return delta == 0 ? 0.0 : -s->r1 * pow(dist(delta), s->r2);
}

/* ---- sums over runs of distances ------------------------------------------- */

/*
 * Both kernels are smooth for x >= 1, so their sums over a run of
 * distances come from Euler-Maclaurin: for g(x) = w(x) h(x), w = 1 or
 * the linear weight of a block's distances, sg (x - x0),
 *   sum_{x=a}^{b-1} g(x) = I + (g(a) - g(b)) / 2
 *                          + sum_k B_2k / (2k)! (g^(2k-1)(b) - g^(2k-1)(a))
 * to B_6, I the integral over [a, b].  From x >= EM_FROM the first
 * left-out term, B_8 / 8! g^(7), is below 1e-16 of g for every r2
 * allowed; nearer 0, and over short runs, the values are added one by
 * one.  I comes from the antiderivatives when the run reaches near 0
 * (no cancellation worth a digit), else from Gauss-Legendre (the run is
 * then narrow beside its distance from the kernel's singular point at
 * or below 0: 12 nodes are exact to rounding).  h is without -r1.
 * The sums of h and of the weighted h share their points.
 */
#define EM_FROM 64
#define EM_DIRECT 256
#define GL_NODES 12

/* h and its derivatives 1..5 at x, and the antiderivatives of h and
 * x h. */
struct em_point { double h[6], H0, H1; };

typedef void (*em_fn)(const struct score_ctx *s, double x,
                      struct em_point *p);

/* log: h = ln u, u = 1 + r x; h^(k) = (-1)^(k-1) (k-1)! r^k / u^k. */
static void log_point(const struct score_ctx *s, double x,
                      struct em_point *p)
{
    double r = s->r2, u = 1 + r * x, lu = log1p(r * x), q = r / u;
    double c = 1;
    p->h[0] = lu;
    for (int k = 1; k < 6; k++) {
        c *= (k > 1 ? -(double)(k - 1) : 1.0) * q;
        p->h[k] = c;
    }
    p->H0 = (u * lu - u) / r;
    p->H1 = ((0.5 * u * u * lu - 0.25 * u * u) - (u * lu - u)) / (r * r);
}

/* power: h = x^p; h^(k) = p (p-1) ... (p-k+1) x^(p-k). */
static void power_point(const struct score_ctx *s, double x,
                        struct em_point *p)
{
    double q = s->r2, c = 1, xq = pow(x, q), xk = xq;
    for (int k = 0; k < 6; k++) {
        p->h[k] = c * xk;
        c *= q - k;
        xk /= x;
    }
    p->H0 = xq * x / (q + 1);
    p->H1 = xq * x * x / (q + 2);
}

/* The 12-point Gauss-Legendre rule on [-1, 1]: nodes +-X[i], weights
 * W[i]. */
static const double GL_X[GL_NODES / 2] = {
    0.98156063424671924356, 0.90411725637047490878, 0.76990267419430469253,
    0.58731795428661748293, 0.36783149899818018414, 0.12523340851146891328
};
static const double GL_W[GL_NODES / 2] = {
    0.047175336386511827758, 0.10693932599531842664, 0.16007832854334622108,
    0.20316742672306592477, 0.23349253653835480571, 0.24914704581340277323
};

/* The integrals of h and of sg (x - x0) h over [a, b]. */
static void em_integrals(const struct score_ctx *s, em_fn fn, double x0,
                         double sg, double a, double b,
                         const struct em_point *pa, const struct em_point *pb,
                         double *i0, double *i1)
{
    if (3 * (b - a) > a) {      /* reaches near 0: the antiderivatives */
        *i0 = pb->H0 - pa->H0;
        *i1 = sg * ((pb->H1 - pa->H1) - x0 * *i0);
        return;
    }
    double c = 0.5 * (a + b), hw = 0.5 * (b - a);
    *i0 = *i1 = 0;
    for (int i = 0; i < GL_NODES; i++) {
        struct em_point p;
        double off = hw * (i % 2 ? -GL_X[i / 2] : GL_X[i / 2]);
        fn(s, c + off, &p);
        *i0 += GL_W[i / 2] * p.h[0];
        *i1 += GL_W[i / 2] * ((c - x0) + off) * p.h[0];  /* no cancelling */
    }
    *i0 *= hw;
    *i1 *= sg * hw;
}

/* g^(k) at a point for g = w(x) h, w linear with slope be, w at the point
 * given: w h^(k) + k be h^(k-1). */
static double em_deriv(const struct em_point *p, double w, double be, int k)
{
    return w * p->h[k] + (k ? k * be * p->h[k - 1] : 0.0);
}

/* sum_{x=a}^{b-1} h(x) into *t0 and sum sg (x - x0) h(x) into *t1,
 * EM_FROM <= a < b. */
static void em_sums(const struct score_ctx *s, em_fn fn, double x0,
                    double sg, int64_t a, int64_t b, double *t0, double *t1)
{
    static const double C[6] = { -0.5, 1.0 / 12, 0, -1.0 / 720, 0,
                                 1.0 / 30240 };
    struct em_point pa, pb;
    double xa = (double)a, xb = (double)b;
    double wa = sg * (xa - x0), wb = sg * (xb - x0);    /* whole: exact */
    fn(s, xa, &pa);
    fn(s, xb, &pb);
    em_integrals(s, fn, x0, sg, xa, xb, &pa, &pb, t0, t1);
    for (int k = 0; k < 6; k++) {
        if (C[k] == 0)
            continue;
        *t0 += C[k] * (em_deriv(&pb, 1, 0, k) - em_deriv(&pa, 1, 0, k));
        *t1 += C[k] * (em_deriv(&pb, wb, sg, k) - em_deriv(&pa, wa, sg, k));
    }
}

/* One side of the distances: x in [a, b), 0 <= a < b, with the weight
 * sg (x - x0) >= 0: sum f(x) into *s0 and sum sg (x - x0) f(x) into *s1
 * (f = -r1 h). */
struct side { int64_t a, b; double x0, sg; };

static void side_sums(const struct score_ctx *s, em_fn fn,
                      double (*at)(const struct score_ctx *, int64_t),
                      const struct side *d, double *s0, double *s1)
{
    int64_t cut = d->b - d->a <= EM_DIRECT ? d->b
                : d->a > EM_FROM ? d->a : EM_FROM;
    *s0 = *s1 = 0;
    for (int64_t x = d->a; x < cut && x < d->b; x++) {
        double v = at(s, x);
        *s0 += v;
        *s1 += d->sg * ((double)x - d->x0) * v;
    }
    if (cut < d->b) {
        double t0, t1;
        em_sums(s, fn, d->x0, d->sg, cut, d->b, &t0, &t1);
        *s0 += -s->r1 * t0;
        *s1 += -s->r1 * t1;
    }
}

/* The row's sums over [lo, hi): f is even, so a negative distance delta
 * is x = -delta, its weight delta - lo = -lo - x. */
static void kernel_sums(const struct score_ctx *s, em_fn fn,
                        double (*at)(const struct score_ctx *, int64_t),
                        int64_t lo, int64_t hi, double *s0, double *s1)
{
    double a0 = 0, a1 = 0, b0 = 0, b1 = 0;
    if (lo < 0) {       /* delta in [lo, min(hi, 0)) */
        struct side d = { 1 - (hi < 0 ? hi : 0), 1 - lo, (double)-lo, -1 };
        side_sums(s, fn, at, &d, &a0, &a1);
    }
    if (hi > 0) {
        struct side d = { lo > 0 ? lo : 0, hi, (double)lo, 1 };
        side_sums(s, fn, at, &d, &b0, &b1);
    }
    *s0 = a0 + b0;
    *s1 = a1 + b1;
}

static void log_sums(const struct score_ctx *s, int64_t lo, int64_t hi,
                     double *s0, double *s1)
{
    kernel_sums(s, log_point, log_at, lo, hi, s0, s1);
}

static void power_sums(const struct score_ctx *s, int64_t lo, int64_t hi,
                       double *s0, double *s1)
{
    kernel_sums(s, power_point, power_at, lo, hi, s0, s1);
}

const struct dist_ops DIST_KERPLE_LOG = {
    .at = log_at, .sums = log_sums
};
const struct dist_ops DIST_KERPLE_POWER = {
    .at = power_at, .sums = power_sums
};
