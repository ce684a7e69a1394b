/* SPDX-License-Identifier: ISC */
/*
 * pe.c - the positional-encoding math library (see include/peviz/pe.h).
 *
 * Everything is double precision and allocation-free.  Closed forms replace
 * loops over positions wherever a view needs an average over many cells, so
 * a frame costs O(cells * bands), never O(positions).
 */
#include "peviz/pe.h"

#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "peviz/pi.h"

/* pi split for Cody-Waite reduction: PI_1 and PI_2 carry at most 33
 * significant bits each, so k * PI_1 and k * PI_2 are exact for |k| < 2^20. */
#define PE_PI_1 0x1.921fb544p+1
#define PE_PI_2 0x1.0b4611a6p-33
#define PE_PI_3 0x1.3198a2e037073p-68

/* ---- frequencies ------------------------------------------------------ */

double pe_omega(int i, int d, double base)
{
    return pow(base, -2.0 * i / d);
}

void pe_omegas(int d, double base, double *out)
{
    for (int i = 0; i < d / 2; i++)
        out[i] = pe_omega(i, d, base);
}

double pe_wavelength(int i, int d, double base)
{
    return 2.0 * PEVIZ_PI / pe_omega(i, d, base);
}

/* ---- exact angles ------------------------------------------------------ */

/*
 * pos * omega_i reduced modulo 2*pi, for sin and cos.  In double both
 * omega (pow rounds it: 6e-17 relative) and the product (half an ulp:
 * 9e-10 at 1.3e7 radians) are off by up to ~1e-9 at positions near
 * 2^24, so the exported and shown values were not within 1e-9 of the
 * formula there.  Here omega, the product and the reduction are done in
 * long double (64-bit significand on x86: 2^-64 relative), the product
 * of a double position (exact while pos < 2^53) and omega loses at most
 * 2^-64 of it (1e-12 radians at 2^24), and remainderl() is exact, so
 * the reduced angle is within ~1e-12 of the true one; its sin and cos
 * are then taken in double.  (2 * PEVIZ_PI_L) carries 2*pi to 2^-64 relative:
 * k * (its error) is below 1e-12 for the 2.7e6 turns of 2^24 positions.
 */

static long double omega_l(int i, int d, double base)
{
    return powl((long double)base, -2.0L * (long double)i / (long double)d);
}

/* (x * w) mod 2*pi, in [-pi, pi]. */
static double angle_l(long double x, long double w)
{
    return (double)remainderl(x * w, (2 * PEVIZ_PI_L));
}

/* ---- single values and rows ------------------------------------------ */

double pe_value(double pos, int dim, int d, double base)
{
    double a = angle_l(pos, omega_l(dim / 2, d, base));
    return (dim % 2 == 0) ? sin(a) : cos(a);
}

void pe_row(double pos, int d, double base, double *out)
{
    for (int i = 0; 2 * i < d; i++) {
        double a = angle_l(pos, omega_l(i, d, base));
        out[2 * i] = sin(a);
        if (2 * i + 1 < d)
            out[2 * i + 1] = cos(a);
    }
}

/* ---- closed-form sums over a range of positions ---------------------- */

/* sin(y) / y with its limit 1 at 0. */
static double sinc(double y)
{
    return y == 0.0 ? 1.0 : sin(y) / y;
}

/*
 * x - k*pi for the integer-valued k nearest x/pi.  Cody-Waite keeps the
 * result accurate near multiples of pi, where sin(x) cancels; beyond
 * |k| = 2^20 the angle itself is too coarse for that to matter.
 */
static double reduce_pi(double x, double k)
{
    if (fabs(k) < 0x1p20)
        return ((x - k * PE_PI_1) - k * PE_PI_2) - k * PE_PI_3;
    return x - k * PEVIZ_PI;
}

double pe_dirichlet(int64_t n, double w)
{
    if (n <= 0)
        return 0.0;     /* empty range: no mean; 0 keeps sums at 0 */
    if (n == 1 || w == 0.0)
        return 1.0;
    /*
     * sin(n x) / (n sin x), x = w/2.  Writing x = k pi + e with |e| <= pi/2
     * turns it into (-1)^(k(n-1)) sinc(n e) / sinc(e): no 0/0 as w -> 0
     * (tiny w, even subnormal) nor as w -> 2 pi m, and sinc(e) >= 2/pi.
     */
    double x = 0.5 * w;
    double k = nearbyint(x / PEVIZ_PI);
    double e = reduce_pi(x, k);
    double flip = (n % 2 == 0 && fmod(k, 2.0) != 0.0) ? -1.0 : 1.0;
    return flip * sinc((double)n * e) / sinc(e);
}

/* Centre (p0 + p1 - 1) / 2 of [p0, p1), exact while p < 2^52. */
static double range_centre(int64_t p0, int64_t p1)
{
    return (double)p0 + 0.5 * (double)(p1 - p0 - 1);
}

/* The mean with omega in long double: the phase angle exactly reduced. */
static void range_mean_l(long double w, int64_t p0, int64_t p1,
                         double *mean_sin, double *mean_cos)
{
    double dn = pe_dirichlet(p1 - p0, (double)w);
    double a = angle_l(range_centre(p0, p1), w);
    if (mean_sin)
        *mean_sin = sin(a) * dn;
    if (mean_cos)
        *mean_cos = cos(a) * dn;
}

void pe_range_mean(double w, int64_t p0, int64_t p1,
                   double *mean_sin, double *mean_cos)
{
    range_mean_l(w, p0, p1, mean_sin, mean_cos);
}

void pe_range_sum(double w, int64_t p0, int64_t p1,
                  double *sum_sin, double *sum_cos)
{
    double n = p1 > p0 ? (double)(p1 - p0) : 0.0;
    double ms, mc;
    pe_range_mean(w, p0, p1, &ms, &mc);
    if (sum_sin)
        *sum_sin = n * ms;
    if (sum_cos)
        *sum_cos = n * mc;
}

double pe_value_mean(int64_t p0, int64_t p1, int dim, int d, double base)
{
    double ms, mc;
    range_mean_l(omega_l(dim / 2, d, base), p0, p1, &ms, &mc);
    return (dim % 2 == 0) ? ms : mc;
}

#define MEANS_ANCHOR 16   /* values between exact angles (pe_value_means,
                             pe_values_step) */

void pe_values_step(int64_t p0, int64_t step, int count, int dim, int d,
                    double base, double *out)
{
    long double w = omega_l(dim / 2, d, base);
    double b = angle_l((double)step, w), rs = sin(b), rc = cos(b);
    double sn = 0.0, cs = 1.0;
    for (int i = 0; i < count; i++) {
        if (i % MEANS_ANCHOR == 0) {
            double a = angle_l((double)(p0 + (int64_t)i * step), w);
            sn = sin(a);
            cs = cos(a);
        } else {
            double t = sn * rc + cs * rs;
            cs = cs * rc - sn * rs;
            sn = t;
        }
        out[i] = (dim % 2 == 0) ? sn : cs;
    }
}

void pe_value_means(const int64_t *p0, const int64_t *p1, int cols, int dim,
                    int d, double base, double *out)
{
    long double w = omega_l(dim / 2, d, base);
    int64_t len = -1;
    double dn = 0.0, sn = 0.0, cs = 1.0, rs = 0.0, rc = 1.0, step = 0.0;
    for (int c = 0; c < cols; c++) {
        if (p1[c] - p0[c] != len) {     /* ranges mostly share a length */
            len = p1[c] - p0[c];
            dn = pe_dirichlet(len, (double)w);
        }
        double ctr = range_centre(p0[c], p1[c]);
        if (c % MEANS_ANCHOR == 0 || ctr - range_centre(p0[c - 1], p1[c - 1])
                                     != step) {
            double a = angle_l(ctr, w);     /* exact, as pe_value_mean */
            sn = sin(a);
            cs = cos(a);
            if (c + 1 < cols) {             /* the step to the next centre */
                step = range_centre(p0[c + 1], p1[c + 1]) - ctr;
                double b = angle_l(step, w);
                rs = sin(b);
                rc = cos(b);
            }
        } else {                            /* rotate on by step */
            double t = sn * rc + cs * rs;
            cs = cs * rc - sn * rs;
            sn = t;
        }
        out[c] = ((dim % 2 == 0) ? sn : cs) * dn;
    }
}

/* ---- sinusoidal scores ------------------------------------------------ */

double pe_score(double delta, int d, double base)
{
    double sum = 0.0;
    for (int i = 0; i < d / 2; i++)
        sum += cos(delta * pe_omega(i, d, base));
    return sum;
}

double pe_score_w(double delta, const double *omega, int half)
{
    double sum = 0.0;
    for (int i = 0; i < half; i++)
        sum += cos(delta * omega[i]);
    return sum;
}

/* c_I - c_J for two ranges, exact (one int64 sum, then a halving). */
static double centre_gap(int64_t i0, int64_t i1, int64_t j0, int64_t j1)
{
    return 0.5 * (double)((i0 - j0) + (i1 - j1));
}

/* Mean over the block I x J of sum_k a_k cos((i-j)w_k) + b_k sin((i-j)w_k):
 * the mean of e^{i(i-j)w} over the block is e^{i(cI-cJ)w} D_|I| D_|J|, its
 * real part averages the cos term, its imaginary part the sin.  a NULL
 * means every a_k is 1, b NULL every b_k 0 (the sinusoidal score). */
static double block_mean(int64_t i0, int64_t i1, int64_t j0, int64_t j1,
                         const double *a, const double *b,
                         const double *omega, int half)
{
    if (i1 <= i0 || j1 <= j0)
        return 0.0;
    double gap = centre_gap(i0, i1, j0, j1);
    double sum = 0.0;
    for (int k = 0; k < half; k++) {
        double w = omega[k], t = gap * w;
        double dd = pe_dirichlet(i1 - i0, w) * pe_dirichlet(j1 - j0, w);
        double term = (a ? a[k] : 1.0) * cos(t);
        if (b)
            term += b[k] * sin(t);
        sum += dd * term;
    }
    return sum;
}

double pe_score_block_mean(int64_t i0, int64_t i1, int64_t j0, int64_t j1,
                           const double *omega, int half)
{
    return block_mean(i0, i1, j0, j1, NULL, NULL, omega, half);
}

/* ---- relative positions: M_k ----------------------------------------- */

void pe_shift(const double *row, int d, double base, double k, double *out)
{
    for (int i = 0; i < d / 2; i++) {
        double a = k * pe_omega(i, d, base);
        double ca = cos(a), sa = sin(a);
        double s = row[2 * i], c = row[2 * i + 1];  /* read before out may alias */
        out[2 * i] = s * ca + c * sa;
        out[2 * i + 1] = c * ca - s * sa;
    }
}

/* ---- RoPE ------------------------------------------------------------- */

void pe_rope_coeffs(const double *q, const double *k, int d,
                    double *a, double *b)
{
    for (int i = 0; i < d / 2; i++) {
        a[i] = q[2 * i] * k[2 * i] + q[2 * i + 1] * k[2 * i + 1];
        b[i] = q[2 * i] * k[2 * i + 1] - q[2 * i + 1] * k[2 * i];
    }
}

double pe_rope_score(const double *q, const double *k, int d, double base,
                     double m, double n)
{
    /* Only m - n matters: R(m)^T R(n) = R(n - m).  Integer-valued doubles
     * below 2^53 subtract exactly. */
    double delta = m - n, sum = 0.0;
    for (int i = 0; i < d / 2; i++) {
        double a = q[2 * i] * k[2 * i] + q[2 * i + 1] * k[2 * i + 1];
        double b = q[2 * i] * k[2 * i + 1] - q[2 * i + 1] * k[2 * i];
        double t = delta * pe_omega(i, d, base);
        sum += a * cos(t) + b * sin(t);
    }
    return sum;
}

double pe_rope_score_ab(double delta, const double *a, const double *b,
                        const double *omega, int half)
{
    double sum = 0.0;
    for (int i = 0; i < half; i++) {
        double t = delta * omega[i];
        sum += a[i] * cos(t) + b[i] * sin(t);
    }
    return sum;
}

double pe_rope_block_mean(int64_t i0, int64_t i1, int64_t j0, int64_t j1,
                          const double *a, const double *b,
                          const double *omega, int half)
{
    return block_mean(i0, i1, j0, j1, a, b, omega, half);
}

/* ---- ALiBi ------------------------------------------------------------ */

void pe_alibi_slopes(int heads, double *out)
{
    if (heads < 1)
        return;
    int p = 1;                      /* largest power of two <= heads */
    while (p <= heads / 2)
        p *= 2;
    for (int h = 1; h <= p; h++)
        out[h - 1] = exp2(-8.0 * h / p);
    /* The 2P-head list is 2^(-8h/2P); its 1st, 3rd, ... entries are the
     * odd h, which interleave between the P-head slopes. */
    for (int t = 0; p + t < heads; t++)
        out[p + t] = exp2(-8.0 * (2 * t + 1) / (2.0 * p));
}

double pe_alibi_bias(double slope, int64_t i, int64_t j, int causal)
{
    int64_t dist = i - j;
    if (!causal && dist < 0)
        dist = -dist;
    return -slope * (double)dist;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Sum of |a - b| over a in [a0,a1), b in [b0,b1) when one range lies wholly
 * below the other: every pair has the same sign, so it is n_A n_B |c_A - c_B|. */
static double apart_sum(int64_t a0, int64_t a1, int64_t b0, int64_t b1)
{
    if (a1 <= a0 || b1 <= b0)
        return 0.0;
    return (double)(a1 - a0) * (double)(b1 - b0)
           * fabs(centre_gap(a0, a1, b0, b1));
}

double pe_alibi_block_mean(double slope, int64_t i0, int64_t i1,
                           int64_t j0, int64_t j1)
{
    if (i1 <= i0 || j1 <= j0)
        return 0.0;
    /*
     * Split I into the part below J, the part inside J ([b0,b1)) and the part
     * above J; split J likewise around [b0,b1).  Every piece but the square
     * [b0,b1)^2 is a pair of ranges one below the other; the square sums to
     * 2 sum_t t (m - t) = m (m^2 - 1) / 3.  All terms are >= 0: no cancel.
     */
    int64_t b0 = max64(i0, j0), b1 = min64(i1, j1);
    double sum = apart_sum(i0, min64(i1, j0), j0, j1)     /* I below J */
               + apart_sum(max64(i0, j1), i1, j0, j1);    /* I above J */
    if (b1 > b0) {
        double m = (double)(b1 - b0);
        sum += apart_sum(b0, b1, j0, b0) + apart_sum(b0, b1, b1, j1)
             + m * (m * m - 1.0) / 3.0;
    }
    return -slope * (sum / ((double)(i1 - i0) * (double)(j1 - j0)));
}

/* ---- a model of a learned table -------------------------------------- */

double pe_learned_value(const pe_learned *t, int64_t p, int dim)
{
    /* Index spaces: even indices draw the initial noise, odd ones the
     * trained noise, so the two are independent for the same cell. */
    uint64_t cell = (uint64_t)p * (uint64_t)t->d + (uint64_t)dim;
    if (p < t->train_len) {
        /* sqrt(d) / sqrt(d/2) = sqrt(2): the sinusoid row has norm sqrt(d/2),
         * a N(0, sd^2) row of d entries has norm about sd sqrt(d). */
        double scale = PE_LEARNED_INIT_SD * sqrt(2.0);
        return scale * pe_value((double)p, dim, t->d, t->base)
               + PE_LEARNED_TRAINED_NOISE_SD * pe_gauss(t->seed, 2 * cell + 1);
    }
    return PE_LEARNED_INIT_SD * pe_gauss(t->seed, 2 * cell);
}

void pe_learned_row(const pe_learned *t, int64_t p, double *out)
{
    for (int dim = 0; dim < t->d; dim++)
        out[dim] = pe_learned_value(t, p, dim);
}

/* ---- softmax ---------------------------------------------------------- */

void pe_softmax(double *row, size_t n, size_t limit)
{
    if (limit > n)
        limit = n;
    for (size_t i = limit; i < n; i++)
        row[i] = 0.0;
    if (limit == 0)
        return;
    double mx = row[0];
    for (size_t i = 1; i < limit; i++)
        if (row[i] > mx)
            mx = row[i];
    /* The maxima get exactly 1: also right when the max is +-inf, where
     * row[i] - mx would be NaN (all -inf gives a uniform row). */
    double sum = 0.0;
    for (size_t i = 0; i < limit; i++) {
        row[i] = (row[i] == mx) ? 1.0 : exp(row[i] - mx);
        sum += row[i];
    }
    for (size_t i = 0; i < limit; i++)
        row[i] /= sum;
}

void pe_softmax_sink(double *row, size_t n, size_t limit, double sink)
{
    if (!isfinite(sink)) {
        pe_softmax(row, n, limit);
        return;
    }
    if (limit > n)
        limit = n;
    for (size_t i = limit; i < n; i++)
        row[i] = 0.0;
    double mx = sink;
    for (size_t i = 0; i < limit; i++)
        if (row[i] > mx)
            mx = row[i];
    double sum = exp(sink - mx);
    for (size_t i = 0; i < limit; i++) {
        row[i] = exp(row[i] - mx);
        sum += row[i];
    }
    for (size_t i = 0; i < limit; i++)
        row[i] /= sum;
}

/* ---- precision -------------------------------------------------------- */

/*
 * Round x to a binary format with `frac` fraction bits and normal exponents
 * emin..emax, ties to even, working on the bits of the double directly:
 * going through float first would round twice (e.g. bf16 of
 * 1 + 2^-8 + 2^-30 must be 1 + 2^-7, float would make it a tie, then 1).
 */
static double round_format(double x, int frac, int emin, int emax)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    int raw = (int)((u >> 52) & 0x7ff);
    if (raw == 0x7ff || x == 0.0)
        return x;                   /* inf, NaN, signed zero pass through */
    if (raw == 0)
        return copysign(0.0, x);    /* double subnormals: below every format */
    int e = raw - 1023;
    if (e >= emin) {
        /* A normal result: round the bits in place, half to even; a carry
         * runs into the exponent by itself. */
        uint64_t sign = u & (UINT64_C(1) << 63), mask;
        mask = (UINT64_C(1) << (52 - frac)) - 1;
        uint64_t v = (u & ~sign) + (mask >> 1) + ((u >> (52 - frac)) & 1);
        v &= ~mask;
        if ((int)(v >> 52) - 1023 > emax)
            return copysign(INFINITY, x);
        v |= sign;
        memcpy(&x, &v, sizeof x);
        return x;
    }
    uint64_t mant = (u & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
    /* Low bits to drop: more when x falls in the format's subnormal range. */
    int drop = 52 - frac + (e < emin ? emin - e : 0);
    if (drop > 60)
        return copysign(0.0, x);    /* below half the smallest subnormal */
    uint64_t q = mant >> drop, rem = mant & ((UINT64_C(1) << drop) - 1);
    uint64_t halfway = UINT64_C(1) << (drop - 1);
    if (rem > halfway || (rem == halfway && (q & 1)))
        q++;
    double r = ldexp((double)q, e - 52 + drop);
    double max = ldexp(2.0 - ldexp(1.0, -frac), emax);
    return copysign(r > max ? INFINITY : r, x);
}

double pe_round_f32(double x)
{
    /* The hardware's conversion rounds once, to nearest even, into the
     * same normals, subnormals and infinities as round_format(23, -126,
     * 127), and is much faster. */
    return (double)(float)x;
}

double pe_round_bf16(double x)
{
    return round_format(x, 7, -126, 127);
}

double pe_round_f16(double x)
{
    return round_format(x, 10, -14, 15);
}

/* ---- seeded randomness ------------------------------------------------ */

uint64_t pe_hash64(uint64_t x)
{
    uint64_t z = x + UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

double pe_gauss(uint64_t seed, uint64_t index)
{
    /* Counter-based: hashing (seed, index) gives random access to the
     * stream.  For a fixed seed, index -> z is a bijection. */
    uint64_t z = pe_hash64(pe_hash64(seed) ^ index);
    double u1 = (double)((z >> 11) + 1) * 0x1p-53;      /* (0, 1]: log ok */
    double u2 = (double)(pe_hash64(z) >> 11) * 0x1p-53; /* [0, 1) */
    return sqrt(-2.0 * log(u1)) * cos(2.0 * PEVIZ_PI * u2);
}

/* ---- bulk tables ------------------------------------------------------ */

/*
 * Bands are processed in stack chunks of FILL_BANDS, structure of arrays, so
 * the per-row work is a plain loop over bands the compiler can vectorise.
 * Loops run over nv = nb rounded up to FILL_GROUP bands: padding bands have
 * omega 0 and stay at (0, 1); only the nb real bands are stored.
 */
enum { FILL_BANDS = 256, FILL_GROUP = 8, FILL_ANCHOR = 64 };

typedef struct {
    const double *cs, *sn;                  /* one-step rotation */
    const long double *wl;                  /* omega for exact anchors */
    double s[FILL_BANDS], c[FILL_BANDS];    /* current sin, cos */
    int nb, nv;                             /* real, padded band counts */
} fill_chunk;

/* Band i's omega and one-step rotation; a padding band (not real) has
 * omega 0. */
static void fill_band(int i, int real, int d, double base, long double *wl,
                      double *cs, double *sn)
{
    *wl = real ? omega_l(i, d, base) : 0.0L;
    *cs = cos((double)*wl);
    *sn = sin((double)*wl);
}

/* Every band's omega and one-step rotation, padded to FILL_GROUP bands
 * with omega 0 (which stays at (0, 1)): a table of many blocks forms
 * them once, not once per block (a powl per band was most of a block's
 * cost). */
int pe_fill_open(pe_fill *f, int d, double base)
{
    int half = d / 2;
    int nv = (half + FILL_GROUP - 1) / FILL_GROUP * FILL_GROUP;

    memset(f, 0, sizeof *f);
    f->wl = malloc((size_t)nv * sizeof *f->wl);
    f->cs = malloc((size_t)nv * sizeof *f->cs);
    f->sn = malloc((size_t)nv * sizeof *f->sn);
    if (!f->wl || !f->cs || !f->sn) {
        pe_fill_close(f);
        return -1;
    }
    f->d = d;
    for (int b = 0; b < nv; b++)
        fill_band(b, b < half, d, base, f->wl + b, f->cs + b, f->sn + b);
    return 0;
}

void pe_fill_close(pe_fill *f)
{
    free(f->wl);
    free(f->cs);
    free(f->sn);
    memset(f, 0, sizeof *f);
}

/* Bands b0.. of a table with half bands, at (0, 1); the caller points
 * wl, cs and sn at those bands' values. */
static void fill_chunk_init(fill_chunk *ch, int half, int b0)
{
    ch->nb = half - b0 < FILL_BANDS ? half - b0 : FILL_BANDS;
    ch->nv = (ch->nb + FILL_GROUP - 1) / FILL_GROUP * FILL_GROUP;
    for (int b = 0; b < ch->nv; b++) {
        ch->s[b] = 0.0;
        ch->c[b] = 1.0;
    }
}

/* Exact values at pos, the same angle as pe_value: the recurrence then
 * drifts only over FILL_ANCHOR steps (~1e-14). */
static void fill_anchor(fill_chunk *ch, double pos)
{
    for (int b = 0; b < ch->nb; b++) {
        double a = angle_l(pos, ch->wl[b]);
        ch->s[b] = sin(a);
        ch->c[b] = cos(a);
    }
}

/* Advance every band by one position: rotate (s, c) by omega. */
static void fill_step(fill_chunk *ch)
{
    for (int g = 0; g < ch->nv; g += FILL_GROUP) {
        for (int b = g; b < g + FILL_GROUP; b++) {
            double s = ch->s[b], c = ch->c[b];
            ch->s[b] = s * ch->cs[b] + c * ch->sn[b];
            ch->c[b] = c * ch->cs[b] - s * ch->sn[b];
        }
    }
}

static void fill_emit_f32(const fill_chunk *ch, float *dst)
{
    float tmp[2 * FILL_BANDS];
    for (int g = 0; g < ch->nv; g += FILL_GROUP) {
        for (int b = g; b < g + FILL_GROUP; b++) {
            tmp[2 * b] = (float)ch->s[b];
            tmp[2 * b + 1] = (float)ch->c[b];
        }
    }
    memcpy(dst, tmp, (size_t)ch->nb * 2 * sizeof *dst);
}

static void fill_emit_f64(const fill_chunk *ch, double *dst)
{
    double tmp[2 * FILL_BANDS];
    for (int g = 0; g < ch->nv; g += FILL_GROUP) {
        for (int b = g; b < g + FILL_GROUP; b++) {
            tmp[2 * b] = ch->s[b];
            tmp[2 * b + 1] = ch->c[b];
        }
    }
    memcpy(dst, tmp, (size_t)ch->nb * 2 * sizeof *dst);
}

/* The rows of one chunk of bands (b0..): exactly one of o32, o64 is
 * non-NULL. */
static void fill_rows(fill_chunk *ch, int d, int b0, int64_t p0,
                      int64_t rows, float *o32, double *o64)
{
    for (int64_t r = 0; r < rows; r++) {
        if (r % FILL_ANCHOR == 0)
            fill_anchor(ch, (double)(p0 + r));
        size_t off = (size_t)r * (size_t)d + 2 * (size_t)b0;
        if (o32)
            fill_emit_f32(ch, o32 + off);
        else
            fill_emit_f64(ch, o64 + off);
        fill_step(ch);
    }
}

static void fill_table(const pe_fill *f, int64_t p0, int64_t rows,
                       float *o32, double *o64)
{
    fill_chunk ch;
    for (int b0 = 0; b0 < f->d / 2; b0 += FILL_BANDS) {
        fill_chunk_init(&ch, f->d / 2, b0);
        ch.wl = f->wl + b0;
        ch.cs = f->cs + b0;
        ch.sn = f->sn + b0;
        fill_rows(&ch, f->d, b0, p0, rows, o32, o64);
    }
}

void pe_fill_rows_f32(const pe_fill *f, int64_t p0, int64_t rows, float *out)
{
    fill_table(f, p0, rows, out, NULL);
}

void pe_fill_rows_f64(const pe_fill *f, int64_t p0, int64_t rows, double *out)
{
    fill_table(f, p0, rows, NULL, out);
}

/* One block on its own: each chunk's bands formed on the stack. */
static void fill_once(int64_t p0, int64_t rows, int d, double base,
                      float *o32, double *o64)
{
    long double wl[FILL_BANDS];
    double cs[FILL_BANDS], sn[FILL_BANDS];
    fill_chunk ch;

    for (int b0 = 0; b0 < d / 2; b0 += FILL_BANDS) {
        fill_chunk_init(&ch, d / 2, b0);
        for (int b = 0; b < ch.nv; b++)
            fill_band(b0 + b, b < ch.nb, d, base, wl + b, cs + b, sn + b);
        ch.wl = wl;
        ch.cs = cs;
        ch.sn = sn;
        fill_rows(&ch, d, b0, p0, rows, o32, o64);
    }
}

void pe_fill_f32(int64_t p0, int64_t rows, int d, double base, float *out)
{
    fill_once(p0, rows, d, base, out, NULL);
}

void pe_fill_f64(int64_t p0, int64_t rows, int d, double base, double *out)
{
    fill_once(p0, rows, d, base, NULL, out);
}
