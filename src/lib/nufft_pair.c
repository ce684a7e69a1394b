/* SPDX-License-Identifier: ISC */
/*
 * nufft_pair.c - two spans of the cosine sums from one transform, for
 * work that makes many (see pv_cos_pair in include/peviz/nufft.h).
 *
 * What depends only on the plan is made once: each source's Gaussian
 * weights and first grid point, the twiddles of every stage.  Per pair:
 * the phases e^{i c w_k} (turned by a fixed rotation when the centres
 * move by the same step as last time), the spread onto a grid held as
 * its real and imaginary parts apart, and a radix-4 Stockham transform
 * (no bit reversal: each pass reads and writes in order, two points a
 * vector) whose last pass computes only the modes kept and writes them,
 * deconvolved, into the spans.
 */
#include "nufft_impl.h"
#include "bigmem_impl.h"
#include "cpu_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ROT_EXACT 16            /* rotated phases, then exact again */

static v2d ld2(const double *p)
{
    v2d v;
    memcpy(&v, p, sizeof v);
    return v;
}

static void st2(double *p, v2d v)
{
    memcpy(p, &v, sizeof v);
}

static v2d bc(double x)
{
    v2d v = { x, x };
    return v;
}

/* ---- the tables --------------------------------------------------------- */

/* Doubles of the radix-4 twiddles: six runs of n/4 for each stage of
 * n = N, N/4, .. down to 8 (the last pass, n = 4 or 2, has none). */
static size_t t4_size(size_t grid)
{
    size_t t = 0;
    for (size_t n = grid; n >= 8; n /= 4)
        t += 6 * (n / 4);
    return t;
}

/* Stage n's twiddles w^(kp), w = e^{2 pi i / n}, k = 1, 2, 3, p < n/4:
 * real parts then imaginary, k by k.  The first stage's w^p are the
 * quarter circle e^{2 pi i t / N}, t < N/4, from cos and sin; every
 * other is one of them turned by a multiple of i (exact). */
static void t4_fill(double *t4, size_t grid)
{
    size_t q = grid / 4;
    const double *cr = t4, *ci = t4 + q;
    for (size_t t = 0; t < q; t++) {
        double a = 2.0 * PEVIZ_PI * (double)t / (double)grid;
        t4[t] = cos(a);
        t4[q + t] = sin(a);
    }
    double *w = t4;
    for (size_t n = grid; n >= 8; n /= 4) {
        size_t m = n / 4, r = grid / n;
        for (size_t k = (n == grid ? 2 : 1); k <= 3; k++)
            for (size_t p = 0; p < m; p++) {
                size_t t = k * p * r, rem = t % q, quad = t / q;
                double re = cr[rem], im = ci[rem];
                for (size_t j = 0; j < quad; j++) {     /* times i */
                    double x = re;
                    re = -im;
                    im = x;
                }
                w[2 * (k - 1) * m + p] = re;
                w[(2 * k - 1) * m + p] = im;
            }
        w += 6 * m;
    }
}

/* The buffers and twiddles (by the grid), once per plan. */
static int pair_buffers(pv_cos_plan *p)
{
    if (p->xs)
        return 0;
    size_t len = p->grid + 2 * SPREAD;
    p->xs = pv_big_alloc((4 * len + t4_size(p->grid) + 2 * (size_t)p->q)
                         * sizeof *p->xs);
    if (!p->xs)
        return -1;
    p->t4 = p->xs + 4 * len;
    t4_fill(p->t4, p->grid);
    p->avx2 = pv_cpu_avx2();
    double *dcf = p->t4 + t4_size(p->grid);    /* by the span's index */
    for (int64_t i = 0; i < 2 * p->q; i++)
        dcf[i] = p->deconv[i < p->q ? p->q - i : i - p->q];
    return 0;
}

/* Every source's weights and place (by the coefficients), once. */
int pv_nu_pair_tables(pv_cos_plan *p)
{
    if (pair_buffers(p))
        return -1;
    if (p->sg)
        return 0;
    size_t m2 = (size_t)(2 * p->m > 0 ? 2 * p->m : 1);
    p->sg = pv_big_alloc(m2 * 2 * SPREAD * sizeof *p->sg);
    p->sl = malloc(m2 * sizeof *p->sl);
    p->ph = malloc(4 * m2 * sizeof *p->ph);
    if (!p->sg || !p->sl || !p->ph) {
        pv_nu_pair_reset(p);
        return -1;
    }
    p->rot = p->ph + 2 * m2;
    p->pn[0] = p->pn[1] = -1;
    for (int k = 0; k < 2 * p->m; k++) {
        long double u = (long double)p->w[k / 2] * (long double)p->grid
                        / (2.0L * PEVIZ_PI_L);
        p->sl[k] = pv_nu_weights(p, k % 2 ? -u : u,
                                 p->sg + (size_t)k * 2 * SPREAD);
    }
    return 0;
}

/* ---- the phases --------------------------------------------------------- */

/* e^{i c w_k} for every k into out (cos, sin pairs), exactly: the angle
 * reduced in long double. */
static void phases_exact(const pv_cos_plan *p, int64_t c, double *out)
{
    for (int k = 0; k < p->m; k++) {
        double t = (double)remainderl((long double)c * p->w[k],
                                      2.0L * PEVIZ_PI_L);
        out[2 * k] = cos(t);
        out[2 * k + 1] = sin(t);
    }
}

/*
 * Slot h's phases for centre c.  A slot whose centres move by the same
 * step as last time (spans k apart, chunk after chunk) turns its phases
 * by that step's rotation, exact again every ROT_EXACT calls (each
 * rotation adds an error near 2 eps).
 */
static void pair_phases(pv_cos_plan *p, int h, int64_t c)
{
    double *ph = p->ph + (size_t)h * 2 * p->m, *rot = p->rot + (size_t)h * 2
                                                            * p->m;
    int64_t d = c - p->pc[h];
    if (p->pn[h] >= 0 && d == p->pd[h] && p->pn[h] < ROT_EXACT) {
        if (!p->rot_ok[h]) {
            phases_exact(p, d, rot);
            p->rot_ok[h] = 1;
        }
        for (int k = 0; k < p->m; k++) {
            double cr = ph[2 * k], ci = ph[2 * k + 1];
            ph[2 * k] = cr * rot[2 * k] - ci * rot[2 * k + 1];
            ph[2 * k + 1] = cr * rot[2 * k + 1] + ci * rot[2 * k];
        }
        p->pn[h]++;
    } else {
        phases_exact(p, c, ph);
        if (p->pn[h] < 0 || d != p->pd[h])
            p->rot_ok[h] = 0;
        p->pd[h] = d;
        p->pn[h] = 0;
    }
    p->pc[h] = c;
}

/* ---- the spread --------------------------------------------------------- */

/* v times weights g into the 2 SPREAD points from xr, xi. */
static void put(double *xr, double *xi, const double *g, double vr,
                double vi)
{
    v2d a = bc(vr), b = bc(vi);
    for (int j = 0; j < 2 * SPREAD; j += 2) {
        v2d gj = ld2(g + j);
        st2(xr + j, ld2(xr + j) + a * gj);
        st2(xi + j, ld2(xi + j) + b * gj);
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
typedef double v4d __attribute__((vector_size(32)));
#define LD4(v, p) memcpy(&(v), (p), sizeof(v4d))
#define ST4(p, v) memcpy((p), &(v), sizeof(v4d))
#define BC4(x) { (x), (x), (x), (x) }

/* The same four doubles a vector, where the processor has AVX2. */
__attribute__((target("avx2")))
static void put_avx2(double *xr, double *xi, const double *g, double vr,
                     double vi)
{
    v4d a = BC4(vr), b = BC4(vi);
    for (int j = 0; j < 2 * SPREAD; j += 4) {
        v4d gj, x, y;
        LD4(gj, g + j);
        LD4(x, xr + j);
        LD4(y, xi + j);
        x += a * gj;
        y += b * gj;
        ST4(xr + j, x);
        ST4(xi + j, y);
    }
}
#else
#define put_avx2 put
#endif

/*
 * Both segments into one grid (see spread_at in nufft.c): source k at
 * w_k takes v0 + i v1 and its mirror at -w_k conj(v0) + i conj(v1),
 * v_h = (a_k - i b_k) e^{i c_h w_k} / 2.  Each source's points are one
 * run, past the grid's end into a margin then added at its start.
 */
static void pair_spread(const pv_cos_plan *p, double *xr, double *xi)
{
    size_t grid = p->grid, len = grid + 2 * SPREAD;
    const double *ph0 = p->ph, *ph1 = p->ph + 2 * p->m;
    memset(xr, 0, 2 * len * sizeof *xr);        /* xi follows xr */
    for (int k = 0; k < p->m; k++) {
        double a = 0.5 * p->a[k], b = 0.5 * p->b[k];
        double v0r = a * ph0[2 * k] + b * ph0[2 * k + 1];
        double v0i = a * ph0[2 * k + 1] - b * ph0[2 * k];
        double v1r = a * ph1[2 * k] + b * ph1[2 * k + 1];
        double v1i = a * ph1[2 * k + 1] - b * ph1[2 * k];
        size_t l = p->sl[2 * k], l1 = p->sl[2 * k + 1];
        const double *g = p->sg + (size_t)2 * k * 2 * SPREAD;
        (p->avx2 ? put_avx2 : put)(xr + l, xi + l, g, v0r - v1i, v0i + v1r);
        (p->avx2 ? put_avx2 : put)(xr + l1, xi + l1, g + 2 * SPREAD,
                                   v0r + v1i, v1r - v0i);
    }
    for (int j = 0; j < 2 * SPREAD; j++) {
        xr[j] += xr[grid + j];
        xi[j] += xi[grid + j];
    }
}

/* ---- the transform ------------------------------------------------------ */

/* One radix-4 butterfly, e^{+2 pi i/4} = i: from a, b, c, d the sum
 * y0 and, before their twiddles, y1, y2, y3 (in place of b, c, d). */
static void bfly4(v2d *ar, v2d *ai, v2d *br, v2d *bi, v2d *cr, v2d *ci,
                  v2d *dr, v2d *di)
{
    v2d s1r = *ar + *cr, s1i = *ai + *ci, t1r = *ar - *cr, t1i = *ai - *ci;
    v2d s2r = *br + *dr, s2i = *bi + *di, ur = *br - *dr, ui = *bi - *di;
    *ar = s1r + s2r;
    *ai = s1i + s2i;
    *br = t1r - ui;             /* t1 + i u */
    *bi = t1i + ur;
    *cr = s1r - s2r;
    *ci = s1i - s2i;
    *dr = t1r + ui;             /* t1 - i u */
    *di = t1i - ur;
}

static void cmul(v2d *xr, v2d *xi, v2d wr, v2d wi)
{
    v2d r = *xr * wr - *xi * wi;
    *xi = *xr * wi + *xi * wr;
    *xr = r;
}

/*
 * A Stockham pass of radix 4: s transforms of n points side by side,
 * element j of transform q at x[q + s j], into s 4 sub-transforms of
 * n/4 at y[q + s (4 p + t)].  s >= 2 (two transforms a vector).
 */
static void stock4(const double *restrict xr, const double *restrict xi,
                   double *restrict yr, double *restrict yi, size_t n,
                   size_t s, const double *restrict w)
{
    size_t m = n / 4, sm = s * m;
    for (size_t p = 0; p < m; p++) {
        v2d w1r = bc(w[p]), w1i = bc(w[m + p]), w2r = bc(w[2 * m + p]),
            w2i = bc(w[3 * m + p]), w3r = bc(w[4 * m + p]),
            w3i = bc(w[5 * m + p]);
        const double *xr0 = xr + s * p, *xi0 = xi + s * p;
        double *yr0 = yr + 4 * s * p, *yi0 = yi + 4 * s * p;
        for (size_t q = 0; q < s; q += 2) {
            v2d ar = ld2(xr0 + q), ai = ld2(xi0 + q);
            v2d br = ld2(xr0 + sm + q), bi = ld2(xi0 + sm + q);
            v2d cr = ld2(xr0 + 2 * sm + q), ci = ld2(xi0 + 2 * sm + q);
            v2d dr = ld2(xr0 + 3 * sm + q), di = ld2(xi0 + 3 * sm + q);
            bfly4(&ar, &ai, &br, &bi, &cr, &ci, &dr, &di);
            cmul(&br, &bi, w1r, w1i);
            cmul(&cr, &ci, w2r, w2i);
            cmul(&dr, &di, w3r, w3i);
            st2(yr0 + q, ar);
            st2(yi0 + q, ai);
            st2(yr0 + s + q, br);
            st2(yi0 + s + q, bi);
            st2(yr0 + 2 * s + q, cr);
            st2(yi0 + 2 * s + q, ci);
            st2(yr0 + 3 * s + q, dr);
            st2(yi0 + 3 * s + q, di);
        }
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
/* The same pass four doubles a vector where the processor has AVX2
 * (s >= 4; the plan chooses it once).  No vector of four crosses a
 * function's edge, so the body is written out here. */

__attribute__((target("avx2")))
static void stock4_avx2(const double *restrict xr, const double *restrict xi,
                        double *restrict yr, double *restrict yi, size_t n,
                        size_t s, const double *restrict w)
{
    size_t m = n / 4, sm = s * m;
    for (size_t p = 0; p < m; p++) {
        v4d w1r = BC4(w[p]), w1i = BC4(w[m + p]), w2r = BC4(w[2 * m + p]),
            w2i = BC4(w[3 * m + p]), w3r = BC4(w[4 * m + p]),
            w3i = BC4(w[5 * m + p]);
        const double *xr0 = xr + s * p, *xi0 = xi + s * p;
        double *yr0 = yr + 4 * s * p, *yi0 = yi + 4 * s * p;
        for (size_t q = 0; q < s; q += 4) {
            v4d ar, ai, br, bi, cr, ci, dr, di;
            LD4(ar, xr0 + q);
            LD4(ai, xi0 + q);
            LD4(br, xr0 + sm + q);
            LD4(bi, xi0 + sm + q);
            LD4(cr, xr0 + 2 * sm + q);
            LD4(ci, xi0 + 2 * sm + q);
            LD4(dr, xr0 + 3 * sm + q);
            LD4(di, xi0 + 3 * sm + q);
            v4d s1r = ar + cr, s1i = ai + ci, t1r = ar - cr, t1i = ai - ci;
            v4d s2r = br + dr, s2i = bi + di, ur = br - dr, ui = bi - di;
            v4d y0r = s1r + s2r, y0i = s1i + s2i;
            v4d x1r = t1r - ui, x1i = t1i + ur;     /* t1 + i u */
            v4d x2r = s1r - s2r, x2i = s1i - s2i;
            v4d x3r = t1r + ui, x3i = t1i - ur;     /* t1 - i u */
            v4d y1r = x1r * w1r - x1i * w1i, y1i = x1r * w1i + x1i * w1r;
            v4d y2r = x2r * w2r - x2i * w2i, y2i = x2r * w2i + x2i * w2r;
            v4d y3r = x3r * w3r - x3i * w3i, y3i = x3r * w3i + x3i * w3r;
            ST4(yr0 + q, y0r);
            ST4(yi0 + q, y0i);
            ST4(yr0 + s + q, y1r);
            ST4(yi0 + s + q, y1i);
            ST4(yr0 + 2 * s + q, y2r);
            ST4(yi0 + 2 * s + q, y2i);
            ST4(yr0 + 3 * s + q, y3r);
            ST4(yi0 + 3 * s + q, y3i);
        }
    }
}

#else
#define stock4_avx2 stock4
#endif

/* (a0, b0) and (a1, b1) of two vectors: y[0..3] = a0 b0 a1 b1 of
 * (a, b) laid out by element. */
static void st_pairs(double *y, v2d a, v2d b)
{
    st2(y, __builtin_shufflevector(a, b, 0, 2));
    st2(y + 4, __builtin_shufflevector(a, b, 1, 3));
}

/* The first pass (s = 1, n = N): two butterflies a vector, p and p + 1,
 * their outputs 4 p + t and 4 p + 4 + t laid out by element. */
static void stock4_first(const double *restrict xr, const double *restrict xi,
                         double *restrict yr, double *restrict yi, size_t n,
                         const double *restrict w)
{
    size_t m = n / 4;
    for (size_t p = 0; p < m; p += 2) {
        v2d ar = ld2(xr + p), ai = ld2(xi + p);
        v2d br = ld2(xr + m + p), bi = ld2(xi + m + p);
        v2d cr = ld2(xr + 2 * m + p), ci = ld2(xi + 2 * m + p);
        v2d dr = ld2(xr + 3 * m + p), di = ld2(xi + 3 * m + p);
        bfly4(&ar, &ai, &br, &bi, &cr, &ci, &dr, &di);
        cmul(&br, &bi, ld2(w + p), ld2(w + m + p));
        cmul(&cr, &ci, ld2(w + 2 * m + p), ld2(w + 3 * m + p));
        cmul(&dr, &di, ld2(w + 4 * m + p), ld2(w + 5 * m + p));
        st_pairs(yr + 4 * p, ar, br);
        st_pairs(yr + 4 * p + 2, cr, dr);
        st_pairs(yi + 4 * p, ai, bi);
        st_pairs(yi + 4 * p + 2, ci, di);
    }
}

/*
 * The last pass, radix 4 (n = 4, s = N/4, no twiddles), straight into
 * the spans: mode l < N/4 is y0[l], mode l - N for l >= 3N/4 is
 * y3[l - 3N/4]; modes -N/4 .. N/4 - 1 at index mode + N/4, deconvolved
 * (dcf by index).  f1 NULL: the imaginary parts are not written.
 */
static void last4(const double *xr, const double *xi, size_t s,
                  const double *dcf, double *f0, double *f1)
{
    for (size_t q = 0; q < s; q += 2) {
        v2d ar = ld2(xr + q), ai = ld2(xi + q);
        v2d br = ld2(xr + s + q), bi = ld2(xi + s + q);
        v2d cr = ld2(xr + 2 * s + q), ci = ld2(xi + 2 * s + q);
        v2d dr = ld2(xr + 3 * s + q), di = ld2(xi + 3 * s + q);
        v2d s1r = ar + cr, t1r = ar - cr, s2r = br + dr, ui = bi - di;
        v2d lo = ld2(dcf + q), hi = ld2(dcf + s + q);
        st2(f0 + s + q, (s1r + s2r) * hi);
        st2(f0 + q, (t1r + ui) * lo);
        if (f1) {
            v2d s1i = ai + ci, t1i = ai - ci, s2i = bi + di, ur = br - dr;
            st2(f1 + s + q, (s1i + s2i) * hi);
            st2(f1 + q, (t1i - ur) * lo);
        }
    }
}

/* The last pass, radix 2 (n = 2, s = N/2), the same way: mode l < N/4
 * is x[l] + x[l + N/2], mode l - N for l >= 3N/4 is x[l'] - x[l' + N/2]
 * with l' = l - N/2. */
static void last2(const double *xr, const double *xi, size_t s,
                  const double *dcf, double *f0, double *f1)
{
    size_t h = s / 2;
    for (size_t q = 0; q < h; q += 2) {
        v2d lo = ld2(dcf + q), hi = ld2(dcf + h + q);
        st2(f0 + h + q, (ld2(xr + q) + ld2(xr + s + q)) * hi);
        st2(f0 + q, (ld2(xr + h + q) - ld2(xr + s + h + q)) * lo);
        if (f1) {
            st2(f1 + h + q, (ld2(xi + q) + ld2(xi + s + q)) * hi);
            st2(f1 + q, (ld2(xi + h + q) - ld2(xi + s + h + q)) * lo);
        }
    }
}

/* The transform of the spread grid and the kept modes into the spans. */
static void pair_fft(pv_cos_plan *p, double *f0, double *f1)
{
    size_t grid = p->grid, len = grid + 2 * SPREAD, s = 4, n = grid / 4;
    double *xr = p->xs, *xi = xr + len, *yr = xi + len, *yi = yr + len;
    const double *w = p->t4;
    stock4_first(xr, xi, yr, yi, grid, w);
    w += 6 * (grid / 4);
    for (; n >= 8; n /= 4, s *= 4) {
        (p->avx2 ? stock4_avx2 : stock4)(yr, yi, xr, xi, n, s, w);
        w += 6 * (n / 4);
        double *t = xr;         /* the result in y again */
        xr = yr;
        yr = t;
        t = xi;
        xi = yi;
        yi = t;
    }
    const double *dcf = p->t4 + t4_size(grid);
    if (n == 4)
        last4(yr, yi, s, dcf, f0, f1);
    else
        last2(yr, yi, s, dcf, f0, f1);
}

/* ---- two spans ---------------------------------------------------------- */

int64_t pv_cos_span(const pv_cos_plan *p)
{
    return 2 * p->q;
}

int pv_cos_pair_prepare(pv_cos_plan *p)
{
    return pv_nu_pair_tables(p);
}

void pv_cos_pair(pv_cos_plan *p, int64_t c0, int64_t c1, double *f0,
                 double *f1)
{
    if (pv_nu_pair_tables(p)) {     /* out of memory: the slower way */
        pv_nu_pair_slow(p, c0, c1, f0, f1);
        return;
    }
    pair_phases(p, 0, c0);
    if (f1)
        pair_phases(p, 1, c1);
    else {                          /* no second span: nothing spread */
        memset(p->ph + 2 * p->m, 0, 2 * (size_t)p->m * sizeof *p->ph);
        p->pn[1] = -1;
    }
    size_t len = p->grid + 2 * SPREAD;
    pair_spread(p, p->xs, p->xs + len);
    pair_fft(p, f0, f1);
    p->stage = ST_SPREAD;           /* a whole-range pass starts over */
    p->r = 0;
}
