/*
 * nufft.c - a radix-2 FFT and the sums of cosines at non-uniform
 * frequencies (see include/peviz/nufft.h).
 */
#include "peviz/nufft.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NU_PI 3.14159265358979323846
#define NU_PI_L 3.141592653589793238462643383279502884L
#define SPREAD 16               /* grid points each side of a source */
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
        double step = sign * 2.0 * NU_PI / (double)len;
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

/* Butterflies of stage len over blocks [b0, b1) (each len points). */
static void stage(double *restrict z, const double *restrict tw, size_t len,
                  size_t b0, size_t b1)
{
    size_t h = len / 2;
    const double *t = tw + 2 * (h - 1);
    for (size_t b = b0; b < b1; b++) {
        double *x = z + 2 * b * len, *y = x + 2 * h;
        for (size_t j = 0; j < h; j++) {
            double wr = t[2 * j], wi = t[2 * j + 1];
            double yr = y[2 * j] * wr - y[2 * j + 1] * wi;
            double yi = y[2 * j] * wi + y[2 * j + 1] * wr;
            double xr = x[2 * j], xi = x[2 * j + 1];
            x[2 * j] = xr + yr;
            x[2 * j + 1] = xi + yi;
            y[2 * j] = xr - yr;
            y[2 * j + 1] = xi - yi;
        }
    }
}

/* The first two stages at once (twiddles 1 and +-i). */
static void radix4_first(double *z, size_t n, int sign)
{
    for (size_t i = 0; i + 4 <= n; i += 4) {
        double *p = z + 2 * i;
        double ar = p[0] + p[2], ai = p[1] + p[3];
        double br = p[0] - p[2], bi = p[1] - p[3];
        double cr = p[4] + p[6], ci = p[5] + p[7];
        double dr = p[4] - p[6], di = p[5] - p[7];
        /* d times e^{sign i pi / 2} = sign i */
        double er = -sign * di, ei = sign * dr;
        p[0] = ar + cr; p[1] = ai + ci;
        p[4] = ar - cr; p[5] = ai - ci;
        p[2] = br + er; p[3] = bi + ei;
        p[6] = br - er; p[7] = bi - ei;
    }
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
    size_t j = 0;
    bitrev(z, n, 0, n, &j);
    size_t len = 2;
    if (n >= 4) {
        radix4_first(z, n, sign);
        len = 8;
    }
    for (; len <= n; len <<= 1)
        stage(z, tw, len, 0, n / len);
    free(tw);
    return 0;
}

/* ---- the cosine sums ------------------------------------------------------ */

enum { ST_SPREAD = 0, ST_BITREV, ST_FFT, ST_OUT, ST_DONE };

struct pv_cos_plan {
    int m;
    int64_t n;
    int s, r;                   /* phases; the current one */
    int64_t q;                  /* modes -q .. q per phase */
    size_t grid;                /* N: complex points */
    double tau, h;              /* Gaussian exp(-x^2 / 4 tau); spacing */
    double *w, *a, *b;          /* [m] each */
    double *z, *tw;             /* [2N] each */
    double *e3;                 /* [2 SPREAD]: exp(-(j h)^2 / 4 tau) */
    double *deconv;             /* [q + 1] */
    int stage;
    size_t len, pos, rev;       /* FFT stage, block or entry, bit reverse */
};

void pv_cos_free(pv_cos_plan *p)
{
    if (!p)
        return;
    free(p->w);
    free(p->z);
    free(p->tw);
    free(p->e3);
    free(p->deconv);
    free(p);
}

/* Phases and grid: N = 2^p >= 2 (2q + 1), N <= GRID_MAX where n allows. */
static void plan_size(pv_cos_plan *p)
{
    int s = 2;                  /* phases go in pairs */
    for (;;) {
        int64_t q = (p->n + s - 2) / s;
        size_t grid = GRID_MIN;
        while (grid < 2 * (size_t)(2 * q + 1))
            grid <<= 1;
        if (grid <= GRID_MAX || q < 2 * SPREAD) {
            p->s = s;
            p->q = q;
            p->grid = grid;
            return;
        }
        s *= 2;
    }
}

/* Gaussian width for oversampling R = N / M (Greengard and Lee), the
 * spread table and the deconvolution factors h / phi^(q). */
static void plan_kernel(pv_cos_plan *p)
{
    double big_m = (double)(2 * p->q + 1), r = (double)p->grid / big_m;
    p->tau = NU_PI * SPREAD / (big_m * big_m * r * (r - 0.5));
    p->h = 2.0 * NU_PI / (double)p->grid;
    for (int j = -SPREAD + 1; j <= SPREAD; j++) {
        double x = j * p->h;
        p->e3[j + SPREAD - 1] = exp(-x * x / (4.0 * p->tau));
    }
    double c = p->h / sqrt(4.0 * NU_PI * p->tau);
    for (int64_t q = 0; q <= p->q; q++)
        p->deconv[q] = c * exp((double)q * (double)q * p->tau);
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
    p->z = malloc(2 * p->grid * sizeof *p->z);
    p->tw = malloc(2 * p->grid * sizeof *p->tw);
    p->e3 = malloc(2 * SPREAD * sizeof *p->e3);
    p->deconv = malloc((size_t)(p->q + 1) * sizeof *p->deconv);
    if (!p->z || !p->tw || !p->e3 || !p->deconv
        || plan_coeffs(p, w, a, b, m)) {
        pv_cos_free(p);
        return NULL;
    }
    twiddles(p->tw, p->grid, 1);
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
    int64_t per = spread_cost(p) + COST_ENTRY * (int64_t)p->grid
                  + COST_BFLY * (int64_t)p->grid / 2 * lg
                  + COST_ENTRY * (2 * p->q + 1);
    return per * (p->s / 2);
}

/* Add v (re, im) times the Gaussian around grid position u (in grid
 * units, any real) into z: exp(-(xi - j h)^2 / 4 tau) = E1 E2^j E3(j),
 * xi the offset from grid point l0 (fast Gaussian gridding). */
static void spread_one(pv_cos_plan *p, long double u, double vr, double vi)
{
    size_t grid = p->grid;
    long double fl = floorl(u);
    double xi = (double)(u - fl) * p->h;
    double e1 = exp(-xi * xi / (4.0 * p->tau));
    double e2 = exp(xi * p->h / (2.0 * p->tau));
    double e2j = pow(e2, -SPREAD + 1);
    long double lr = fmodl(fl, (long double)grid);
    size_t l0 = (size_t)(lr < 0 ? lr + (long double)grid : lr);
    for (int j = -SPREAD + 1; j <= SPREAD; j++) {
        double gw = e1 * e2j * p->e3[j + SPREAD - 1];
        /* grid is a power of two: the wrap of size_t keeps l right */
        size_t l = (l0 + grid + (size_t)(int64_t)j) & (grid - 1);
        p->z[2 * l] += vr * gw;
        p->z[2 * l + 1] += vi * gw;
        e2j *= e2;
    }
}

/*
 * Spread phases r and r + 1 into one grid.  Phase r's sources sit at
 * x = s w_k with weights v = (a_k - i b_k) e^{i r w_k} / 2, each with a
 * mirror conj(v) at -x: that grid is conjugate-symmetric, so its
 * transform is real (and is Re F).  Phase r + 1 goes in times i, so the
 * real part of the transform is phase r and the imaginary part phase
 * r + 1.  Positions in grid units are formed in long double: an error e
 * there turns mode q by 2 pi q e / N.
 */
static void spread(pv_cos_plan *p)
{
    memset(p->z, 0, 2 * p->grid * sizeof *p->z);
    for (int k = 0; k < p->m; k++) {
        long double u = (long double)p->s * p->w[k] * (long double)p->grid
                        / (2.0L * NU_PI_L);
        double v[2][2];
        for (int h = 0; h < 2; h++) {
            double t = (double)(p->r + h) * p->w[k];
            double cr = cos(t), ci = sin(t);
            v[h][0] = 0.5 * (p->a[k] * cr + p->b[k] * ci);
            v[h][1] = 0.5 * (p->a[k] * ci - p->b[k] * cr);
        }
        /* at x: v0 + i v1; at -x: conj(v0) + i conj(v1) */
        spread_one(p, u, v[0][0] - v[1][1], v[0][1] + v[1][0]);
        spread_one(p, -u, v[0][0] + v[1][1], -v[0][1] + v[1][0]);
    }
}

/* Modes of phases r, r + 1 into f: delta = s q + r (+ 1), f = the real
 * (imaginary) part of G(q) times h / phi^(q). */
static void output(const pv_cos_plan *p, double *f)
{
    int64_t n = p->n;
    for (int64_t q = -p->q; q <= p->q; q++) {
        size_t l = (size_t)(q < 0 ? q + (int64_t)p->grid : q);
        double dc = p->deconv[q < 0 ? -q : q];
        for (int h = 0; h < 2; h++) {
            int64_t dl = (int64_t)p->s * q + p->r + h;
            if (dl > -n && dl < n)
                f[dl + n - 1] = p->z[2 * l + h] * dc;
        }
    }
}

/* One FFT stage (or part of it) within the budget; 1 when it ran out. */
static int fft_step(pv_cos_plan *p, int64_t *budget)
{
    while (p->len <= p->grid) {
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
                radix4_first(p->z + 2 * 4 * p->pos, 4 * take, 1);
            else
                stage(p->z, p->tw, p->len, p->pos, p->pos + take);
            p->pos += take;
            *budget -= COST_BFLY * (int64_t)(take * per * (p->len == 4 ? 2 : 1));
        }
        p->pos = 0;
        p->len <<= 1;
    }
    return 0;
}

static int bitrev_step(pv_cos_plan *p, int64_t *budget)
{
    while (p->pos < p->grid) {
        if (*budget <= 0)
            return 1;
        size_t take = p->grid - p->pos;
        if ((uint64_t)(*budget / COST_ENTRY + 1) < take)
            take = (size_t)(*budget / COST_ENTRY + 1);
        bitrev(p->z, p->grid, p->pos, p->pos + take, &p->rev);
        p->pos += take;
        *budget -= COST_ENTRY * (int64_t)take;
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
            spread(p);
            *budget -= spread_cost(p);
            p->stage = ST_BITREV;
            p->pos = p->rev = 0;
            break;
        case ST_BITREV:
            if (bitrev_step(p, budget))
                return 1;
            p->stage = ST_FFT;
            p->len = 4;         /* stages 2 and 4 as one radix-4 pass */
            p->pos = 0;
            break;
        case ST_FFT:
            if (fft_step(p, budget))
                return 1;
            p->stage = ST_OUT;
            break;
        default:
            output(p, f);
            *budget -= COST_ENTRY * (2 * p->q + 1);
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
