/* SPDX-License-Identifier: ISC */
/*
 * nufft.c - a radix-2 FFT and the sums of cosines at non-uniform
 * frequencies (see include/peviz/nufft.h).
 */
#include "nufft_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GRID_MAX ((size_t)1 << 17)  /* complex points per phase, at most */
#define GRID_MIN 256            /* small grids wrap the kernel: less exact */
/* Work units, about a nanosecond each on the reference machine. */
#define COST_BFLY 3             /* one butterfly */
#define COST_SOURCE 300         /* one source spread, with its mirror */
#define COST_ENTRY 3            /* one grid entry cleared, permuted, read */
#define TW_EXACT 32             /* twiddles between exact sin/cos */

/* ---- the FFT ------------------------------------------------------------- */

/*
 * Twiddles of every stage side by side: stage len (2, 4, ..., n) keeps
 * e^{sign 2 pi i j / len} for j < len/2 at tw[2 (len/2 - 1 + j)].  Each
 * run of TW_EXACT starts from an exact sin/cos and rotates from there.
 */
static void twiddles(double *tw, size_t n, int sign)
{
    for (size_t len = 2; len <= n; len <<= 1) {
        double *t = tw + 2 * (len / 2 - 1);
        double step = sign * 2.0 * PEVIZ_PI / (double)len;
        double cs = cos(step), sn = sin(step);
        for (size_t j = 0; j < len / 2; j++) {
            if (j % TW_EXACT == 0) {
                t[2 * j] = cos(step * (double)j);
                t[2 * j + 1] = sin(step * (double)j);
            } else {
                double re = t[2 * j - 2], im = t[2 * j - 1];
                t[2 * j] = re * cs - im * sn;
                t[2 * j + 1] = re * sn + im * cs;
            }
        }
    }
}

/* Bit-reversal permutation of entries [i0, i1); *j is the reverse of i0
 * and is left at the reverse of i1. */
static void bitrev(double *z, size_t n, size_t i0, size_t i1, size_t *jp)
{
    size_t j = *jp;
    for (size_t i = i0; i < i1; i++) {
        if (i < j) {
            double re = z[2 * i], im = z[2 * i + 1];
            z[2 * i] = z[2 * j];
            z[2 * i + 1] = z[2 * j + 1];
            z[2 * j] = re;
            z[2 * j + 1] = im;
        }
        size_t bit = n >> 1;
        while (bit && (j & bit)) {
            j ^= bit;
            bit >>= 1;
        }
        j |= bit;
    }
    *jp = j;
}

/* Decimation in frequency: natural order in, bit-reversed order out.
 * Butterflies of stage len over blocks [b0, b1) (each len points):
 * x + y, and (x - y) times the stage's twiddle. */
static void stage(double *restrict z, const double *restrict tw, size_t len,
                  size_t b0, size_t b1)
{
    size_t h = len / 2;
    const double *t = tw + 2 * (h - 1);
    for (size_t b = b0; b < b1; b++) {
        double *x = z + 2 * b * len, *y = x + 2 * h;
        for (size_t j = 0; j < h; j++) {
            double wr = t[2 * j], wi = t[2 * j + 1];
            double xr = x[2 * j], xi = x[2 * j + 1];
            double dr = xr - y[2 * j], di = xi - y[2 * j + 1];
            x[2 * j] = xr + y[2 * j];
            x[2 * j + 1] = xi + y[2 * j + 1];
            y[2 * j] = dr * wr - di * wi;
            y[2 * j + 1] = dr * wi + di * wr;
        }
    }
}

/* The last two stages at once (twiddles 1 and sign i) over n points. */
static void radix4_last(double *z, size_t n, int sign)
{
    for (size_t i = 0; i + 4 <= n; i += 4) {
        double *p = z + 2 * i;
        double ar = p[0] + p[4], ai = p[1] + p[5];     /* stage 4 */
        double br = p[2] + p[6], bi = p[3] + p[7];
        double cr = p[0] - p[4], ci = p[1] - p[5];
        double dr = p[2] - p[6], di = p[3] - p[7];
        double er = -sign * di, ei = sign * dr;        /* d times sign i */
        p[0] = ar + br; p[1] = ai + bi;                 /* stage 2 */
        p[2] = ar - br; p[3] = ai - bi;
        p[4] = cr + er; p[5] = ci + ei;
        p[6] = cr - er; p[7] = ci - ei;
    }
}

/*
 * Two stages at once (len and len/2) over blocks [0, n/len): with q =
 * len/4 and w = e^{sign 2 pi i / len}, the points a, b, c, d at j, j+q,
 * j+2q, j+3q become a+b+c+d, (a+c-b-d) w^2j, (a-c + sign i (b-d)) w^j
 * and (a-c - sign i (b-d)) w^3j: what two radix-2 stages leave there,
 * in half the passes over the data and three rotations instead of four.
 */
static void stage4(double *restrict z, const double *restrict tw, size_t n,
                   size_t len, int sign)
{
    size_t q = len / 4, h = len / 2;
    const double *t = tw + 2 * (h - 1);
    for (size_t b0 = 0; b0 < n; b0 += len) {
        double *pa = z + 2 * b0, *pb = pa + 2 * q, *pc = pb + 2 * q,
               *pd = pc + 2 * q;
        for (size_t j = 0; j < q; j++) {
            double s1r = pa[2 * j] + pc[2 * j], s1i = pa[2 * j + 1]
                                                    + pc[2 * j + 1];
            double s2r = pb[2 * j] + pd[2 * j], s2i = pb[2 * j + 1]
                                                    + pd[2 * j + 1];
            double t1r = pa[2 * j] - pc[2 * j], t1i = pa[2 * j + 1]
                                                    - pc[2 * j + 1];
            double ur = pb[2 * j] - pd[2 * j], ui = pb[2 * j + 1]
                                                  - pd[2 * j + 1];
            double t2r = -sign * ui, t2i = sign * ur;   /* times sign i */
            double w1r = t[2 * j], w1i = t[2 * j + 1];
            double w2r = t[4 * j], w2i = t[4 * j + 1];
            size_t j3 = 3 * j;
            double w3r = j3 < h ? t[2 * j3] : -t[2 * (j3 - h)];
            double w3i = j3 < h ? t[2 * j3 + 1] : -t[2 * (j3 - h) + 1];
            double xr = s1r - s2r, xi = s1i - s2i;
            double yr = t1r + t2r, yi = t1i + t2i;
            double vr = t1r - t2r, vi = t1i - t2i;
            pa[2 * j] = s1r + s2r;
            pa[2 * j + 1] = s1i + s2i;
            pb[2 * j] = xr * w2r - xi * w2i;
            pb[2 * j + 1] = xr * w2i + xi * w2r;
            pc[2 * j] = yr * w1r - yi * w1i;
            pc[2 * j + 1] = yr * w1i + yi * w1r;
            pd[2 * j] = vr * w3r - vi * w3i;
            pd[2 * j + 1] = vr * w3i + vi * w3r;
        }
    }
}

/* The whole transform of the plan's grid (sign +1), bit-reversed order
 * out, as the stages of fft_step leave it. */
static void fft_whole(double *z, const double *tw, size_t n)
{
    size_t len = n;
    for (; len >= 16; len >>= 2)
        stage4(z, tw, n, len, 1);
    if (len == 8)
        stage(z, tw, 8, 0, n / 8);
    radix4_last(z, n, 1);
}

/* The reverse of the lg-bit number i. */
static size_t rev_bits(size_t i, size_t n)
{
    size_t r = 0;
    for (size_t b = 1; b < n; b <<= 1, i >>= 1)
        r = (r << 1) | (i & 1);
    return r;
}

/* The bit-reversed counter r (of n = 2^p) moved on by one. */
static size_t rev_next(size_t r, size_t n)
{
    size_t bit = n >> 1;
    while (bit && (r & bit)) {
        r ^= bit;
        bit >>= 1;
    }
    return r | bit;
}

static int pow2(size_t n)
{
    return n && !(n & (n - 1));
}

int pv_fft(double *z, size_t n, int sign)
{
    if (!pow2(n))
        return -1;
    if (n == 1)
        return 0;
    double *tw = malloc(2 * n * sizeof *tw);
    if (!tw)
        return -1;
    twiddles(tw, n, sign);
    size_t len = n;
    for (; len >= 8; len >>= 1)
        stage(z, tw, len, 0, n / len);
    if (n >= 4)
        radix4_last(z, n, sign);
    else
        stage(z, tw, 2, 0, 1);
    size_t j = 0;
    bitrev(z, n, 0, n, &j);             /* into natural order */
    free(tw);
    return 0;
}

/* ---- the cosine sums ------------------------------------------------------ */

void pv_nu_pair_reset(pv_cos_plan *p)
{
    free(p->sg);
    free(p->sl);
    free(p->ph);
    p->sg = NULL;
    p->sl = NULL;
    p->ph = p->rot = NULL;
}

void pv_cos_free(pv_cos_plan *p)
{
    if (!p)
        return;
    free(p->w);
    free(p->z);                 /* tw, e3 and deconv with it */
    pv_nu_pair_reset(p);
    free(p->xs);                /* t4 with it */
    free(p);
}

/* Grid and segments: a pair of segments of M = N/2 distances each per
 * transform, N = 2^p in [GRID_MIN, GRID_MAX], as small as covers all
 * 2n - 1 distances with one pair where it can. */
static void plan_size(pv_cos_plan *p)
{
    int64_t want = 2 * p->n - 1;
    size_t grid = GRID_MIN;
    while (grid < GRID_MAX && (int64_t)grid < want)
        grid <<= 1;
    int64_t m = (int64_t)grid / 2, seg = (want + m - 1) / m;
    p->grid = grid;
    p->q = m / 2;
    p->s = (int)(seg + (seg & 1));
}

/* Gaussian width for oversampling R = N / M (Greengard and Lee), the
 * spread table and the deconvolution factors h / phi^(t). */
static void plan_kernel(pv_cos_plan *p)
{
    double big_m = (double)(2 * p->q), r = (double)p->grid / big_m;
    p->tau = PEVIZ_PI * SPREAD / (big_m * big_m * r * (r - 0.5));
    p->h = 2.0 * PEVIZ_PI / (double)p->grid;
    for (int j = -SPREAD + 1; j <= SPREAD; j++) {
        double x = j * p->h;
        p->e3[j + SPREAD - 1] = exp(-x * x / (4.0 * p->tau));
    }
    double c = p->h / sqrt(4.0 * PEVIZ_PI * p->tau);
    for (int64_t q = 0; q <= p->q; q++)
        p->deconv[q] = c * exp((double)q * (double)q * p->tau);
}

/* The in-place transform's twiddles, made when it is first used (two
 * spans with the pair mode's tables have their own). */
static void plan_twiddles(pv_cos_plan *p)
{
    if (!p->tw_ok)
        twiddles(p->tw, p->grid, 1);
    p->tw_ok = 1;
}

/* Copy the frequencies and coefficients; 0, or -1 when out of memory. */
static int plan_coeffs(pv_cos_plan *p, const double *w, const double *a,
                       const double *b, int m)
{
    if (!p->w || p->m != m) {
        free(p->w);
        p->w = malloc(3 * (size_t)(m > 0 ? m : 1) * sizeof *p->w);
        if (!p->w)
            return -1;
    }
    p->m = m;
    p->a = p->w + m;
    p->b = p->a + m;
    for (int k = 0; k < m; k++) {
        p->w[k] = w[k];
        p->a[k] = a[k];
        p->b[k] = b ? b[k] : 0.0;
    }
    p->r = 0;
    p->stage = ST_SPREAD;
    pv_nu_pair_reset(p);
    return 0;
}

pv_cos_plan *pv_cos_renew(pv_cos_plan *old, const double *w, const double *a,
                          const double *b, int m, int64_t n)
{
    if (old && old->n == n && n >= 1 && m >= 0) {
        if (plan_coeffs(old, w, a, b, m) == 0)
            return old;
    }
    pv_cos_free(old);
    if (n < 1 || m < 0)
        return NULL;
    pv_cos_plan *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->n = n;
    plan_size(p);
    size_t grid2 = 2 * p->grid;
    p->z = malloc((2 * grid2 + 2 * SPREAD + (size_t)(p->q + 1))
                  * sizeof *p->z);
    if (p->z) {
        p->tw = p->z + grid2;
        p->e3 = p->tw + grid2;
        p->deconv = p->e3 + 2 * SPREAD;
    }
    if (!p->z || plan_coeffs(p, w, a, b, m)) {
        pv_cos_free(p);
        return NULL;
    }
    plan_kernel(p);
    return p;
}

pv_cos_plan *pv_cos_new(const double *w, const double *a, const double *b,
                        int m, int64_t n)
{
    return pv_cos_renew(NULL, w, a, b, m, n);
}

static int64_t spread_cost(const pv_cos_plan *p)
{
    return (int64_t)p->m * COST_SOURCE + (int64_t)p->grid;
}

int64_t pv_cos_work(const pv_cos_plan *p)
{
    int lg = 0;
    while (((size_t)1 << lg) < p->grid)
        lg++;
    int64_t per = spread_cost(p) + COST_BFLY * (int64_t)p->grid / 2 * lg
                  + COST_ENTRY * (2 * p->q);
    return per * (p->s / 2);
}

/* The Gaussian weights of source u (grid units) as spread_one forms
 * them, into g[2 SPREAD], and its first grid point. */
size_t pv_nu_weights(const pv_cos_plan *p, long double u, double *g)
{
    size_t grid = p->grid;
    long double fl = floorl(u);
    double xi = (double)(u - fl) * p->h;
    double e2 = exp(xi * p->h / (2.0 * p->tau));
    double e1e2 = exp(-xi * xi / (4.0 * p->tau)
                      + (1 - SPREAD) * xi * p->h / (2.0 * p->tau));
    long double lr = fmodl(fl, (long double)grid);
    size_t l0 = (size_t)(lr < 0 ? lr + (long double)grid : lr);
    for (int j = 0; j < 2 * SPREAD; j++) {
        g[j] = e1e2 * p->e3[j];
        e1e2 *= e2;
    }
    return (l0 + grid + 1 - SPREAD) & (grid - 1);
}

/* Add v (re, im) times the Gaussian around grid position u (in grid
 * units, any real) into z: exp(-(xi - j h)^2 / 4 tau) = E1 E2^j E3(j),
 * xi the offset from grid point l0 (fast Gaussian gridding). */
static void spread_one(pv_cos_plan *p, long double u, double vr, double vi)
{
    double g[2 * SPREAD];
    size_t mask = p->grid - 1, l = pv_nu_weights(p, u, g);
    for (int j = 0; j < 2 * SPREAD; j++, l = (l + 1) & mask) {
        p->z[2 * l] += vr * g[j];
        p->z[2 * l + 1] += vi * g[j];
    }
}

/* The centre of segment j: it holds the distances centre + t, t in
 * [-q, q). */
static int64_t seg_centre(const pv_cos_plan *p, int j)
{
    return -(p->n - 1) + (int64_t)j * 2 * p->q + p->q;
}

/*
 * Spread two segments, centred at c[0] and c[1], into one grid.  Segment
 * j's sources sit at x = w_k with weights v = (a_k - i b_k) e^{i c_j w_k}
 * / 2, each with a mirror conj(v) at -x: that grid is conjugate-
 * symmetric, so its transform is real (and is Re F).  Segment 1 goes in
 * times i, so the real part of the transform is segment 0 and the
 * imaginary part segment 1.  Positions in grid units and the angles
 * c_j w_k are formed in long double: an error e in a position turns
 * mode t by 2 pi t e / N.
 */
static void spread_at(pv_cos_plan *p, const int64_t c[2])
{
    memset(p->z, 0, 2 * p->grid * sizeof *p->z);
    for (int k = 0; k < p->m; k++) {
        double v[2][2];
        for (int h = 0; h < 2; h++) {
            double t = (double)remainderl((long double)c[h] * p->w[k],
                                          2.0L * PEVIZ_PI_L);
            double cr = cos(t), ci = sin(t);
            v[h][0] = 0.5 * (p->a[k] * cr + p->b[k] * ci);
            v[h][1] = 0.5 * (p->a[k] * ci - p->b[k] * cr);
        }
        /* at x: v0 + i v1; at -x: conj(v0) + i conj(v1) */
        long double u = (long double)p->w[k] * (long double)p->grid
                        / (2.0L * PEVIZ_PI_L);
        spread_one(p, u, v[0][0] - v[1][1], v[0][1] + v[1][0]);
        spread_one(p, -u, v[0][0] + v[1][1], -v[0][1] + v[1][0]);
    }
}

static void spread(pv_cos_plan *p)
{
    int64_t c[2] = { seg_centre(p, p->r), seg_centre(p, p->r + 1) };
    spread_at(p, c);
}

/* Modes of segments r, r + 1 into f: delta = c + t, f = the real
 * (imaginary) part of G(t) times h / phi^(t).  The transform left mode
 * l (t mod N) at the bit reverse of l. */
static void output(const pv_cos_plan *p, double *f)
{
    int64_t n = p->n;
    size_t grid = p->grid;
    size_t r = rev_bits(grid - (size_t)p->q, grid);
    int64_t c[2] = { seg_centre(p, p->r), seg_centre(p, p->r + 1) };
    for (int64_t t = -p->q; t < p->q; t++) {
        if (t == 0)
            r = 0;
        double dc = p->deconv[t < 0 ? -t : t];
        for (int h = 0; h < 2; h++) {
            int64_t dl = c[h] + t;
            if (dl > -n && dl < n)
                f[dl + n - 1] = p->z[2 * r + h] * dc;
        }
        r = rev_next(r, grid);
    }
}

/* The FFT's stages (or part of one) within the budget, len = N down to
 * 8, then the last two as one pass; 1 when the budget ran out. */
static int fft_step(pv_cos_plan *p, int64_t *budget)
{
    while (p->len >= 4) {
        size_t blocks = p->grid / p->len;
        size_t per = p->len / 2;
        while (p->pos < blocks) {
            if (*budget <= 0)
                return 1;
            size_t take = blocks - p->pos;
            int64_t fit = *budget / (COST_BFLY * (int64_t)per) + 1;
            if ((uint64_t)fit < take)
                take = (size_t)fit;
            if (p->len == 4)
                radix4_last(p->z + 2 * 4 * p->pos, 4 * take, 1);
            else
                stage(p->z, p->tw, p->len, p->pos, p->pos + take);
            p->pos += take;
            *budget -= COST_BFLY * (int64_t)(take * per
                                             * (p->len == 4 ? 2 : 1));
        }
        p->pos = 0;
        p->len >>= 1;
        if (p->len == 2)
            break;
    }
    return 0;
}

int pv_cos_step(pv_cos_plan *p, double *f, int64_t *budget)
{
    while (p->stage != ST_DONE) {
        if (*budget <= 0)
            return 1;
        switch (p->stage) {
        case ST_SPREAD:
            plan_twiddles(p);
            spread(p);
            *budget -= spread_cost(p);
            p->stage = ST_FFT;
            p->len = p->grid;
            p->pos = 0;
            break;
        case ST_FFT:
            if (fft_step(p, budget))
                return 1;
            p->stage = ST_OUT;
            break;
        default:
            output(p, f);
            *budget -= COST_ENTRY * (2 * p->q);
            p->r += 2;
            p->stage = p->r < p->s ? ST_SPREAD : ST_DONE;
        }
    }
    return 0;
}

int pv_cos_sums(const double *w, const double *a, const double *b, int m,
                int64_t n, double *f)
{
    pv_cos_plan *p = pv_cos_new(w, a, b, m, n);
    if (!p)
        return -1;
    int64_t budget = INT64_MAX;
    pv_cos_step(p, f, &budget);
    pv_cos_free(p);
    return 0;
}

void pv_nu_pair_slow(pv_cos_plan *p, int64_t c0, int64_t c1, double *f0,
                     double *f1)
{
    int64_t c[2] = { c0, c1 };
    double *f[2] = { f0, f1 };
    plan_twiddles(p);
    spread_at(p, c);
    fft_whole(p->z, p->tw, p->grid);
    size_t grid = p->grid, r = rev_bits(grid - (size_t)p->q, grid);
    for (int64_t t = -p->q; t < p->q; t++) {
        if (t == 0)
            r = 0;
        double dc = p->deconv[t < 0 ? -t : t];
        for (int h = 0; h < 2; h++)
            if (f[h])
                f[h][t + p->q] = p->z[2 * r + h] * dc;
        r = rev_next(r, grid);
    }
    p->stage = ST_SPREAD;           /* a whole-range pass starts over */
    p->r = 0;
}
