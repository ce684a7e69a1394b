/* SPDX-License-Identifier: ISC */
/*
 * test_pe.c - checks the math library against the formulas, evaluated here
 * plainly (own loops over sin, cos, pow), the seed article's worked
 * examples, and the identities the README promises.
 */
#include "peviz/pe.h"
#include "harness.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>

#define PI 3.14159265358979323846
#define TOL 1e-9

/* ---- plain references --------------------------------------------------- */

static double ref_omega(int i, int d, double base)
{
    return pow(base, -2.0 * i / d);
}

static double ref_pe(double pos, int dim, int d, double base)
{
    double a = pos * ref_omega(dim / 2, d, base);
    return dim % 2 == 0 ? sin(a) : cos(a);
}

static double ref_dot(double a, double b, int d, double base)
{
    double s = 0.0;
    for (int dim = 0; dim < d; dim++)
        s += ref_pe(a, dim, d, base) * ref_pe(b, dim, d, base);
    return s;
}

/* xorshift64*: test inputs only, independent of pe_hash64. */
static uint64_t rng_u64(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

static double rng_unit(uint64_t *s)
{
    return (double)(rng_u64(s) >> 11) * 0x1p-53;
}

static int64_t rng_int(uint64_t *s, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rng_u64(s) % (uint64_t)(hi - lo));
}

static const int DS[] = {2, 4, 6, 8, 10, 64, 510, 512, 4096};
static const double BASES[] = {2.0, 10.0, 1e4, 5e5, 1e6, 1e300};
static const double POSS[] = {0.0, 1.0, 3.0, 7.5, 100.0, 12345.0, 65535.0,
                              1e6, -42.0};
#define N_DS (int)(sizeof DS / sizeof DS[0])
#define N_BASES (int)(sizeof BASES / sizeof BASES[0])
#define N_POSS (int)(sizeof POSS / sizeof POSS[0])

/* ---- the seed article's worked examples ------------------------------- */

static void test_seed_d4(void)
{
    /* d_model = 4, base 10000: omega = 1 and 0.01; values from python's
     * math module, to 15 digits. */
    static const double want[4][4] = {
        {0.0, 1.0, 0.0, 1.0},
        {0.841470984807897, 0.540302305868140, 0.009999833334167, 0.999950000416665},
        {0.909297426825682, -0.416146836547142, 0.019998666693333, 0.999800006666578},
        {0.141120008059867, -0.989992496600445, 0.029995500202496, 0.999550033748988},
    };
    double row[4];
    CHECK_NEAR(pe_omega(0, 4, 1e4), 1.0, 1e-15);
    CHECK_NEAR(pe_omega(1, 4, 1e4), 0.01, 1e-15);
    for (int p = 0; p < 4; p++) {
        pe_row(p, 4, 1e4, row);
        for (int c = 0; c < 4; c++) {
            CHECK_NEAR(row[c], want[p][c], TOL);
            CHECK_NEAR(pe_value(p, c, 4, 1e4), want[p][c], TOL);
        }
        /* every row has norm sqrt(d/2) = sqrt(2) */
        CHECK_NEAR(hypot(hypot(row[0], row[1]), hypot(row[2], row[3])), sqrt(2.0), 1e-15);
    }
}

static void test_seed_d8(void)
{
    /* d_model = 8: omega = 1, 0.1, 0.01, 0.001; score(delta) = sum cos(delta w).
     * The article prints 1.965 at distance 3 and 3.161 at 5 (a rounding
     * slip: it is 3.15998...). */
    static const double want[8] = {
        4.0, 3.535255971562873, 2.563717747961344, 1.964889526277523,
        2.266609479810918, 3.159982507774607, 3.783688441549248, 3.516270941981114,
    };
    static const double w[4] = {1.0, 0.1, 0.01, 0.001};
    for (int i = 0; i < 4; i++)
        CHECK_NEAR(pe_omega(i, 8, 1e4), w[i], 1e-15);
    for (int k = 0; k < 8; k++) {
        CHECK_NEAR(pe_score(k, 8, 1e4), want[k], TOL);
        CHECK_NEAR(pe_score(-k, 8, 1e4), want[k], TOL);
        CHECK_NEAR(pe_score_w(k, w, 4), want[k], TOL);
    }
    /* The rebound: the score falls to its minimum at distance 3, then rises
     * at 4 and again at 5 as the fastest band wraps around. */
    CHECK(pe_score(3, 8, 1e4) < pe_score(2, 8, 1e4));
    CHECK(pe_score(4, 8, 1e4) > pe_score(3, 8, 1e4));
    CHECK(pe_score(5, 8, 1e4) > pe_score(4, 8, 1e4));
    CHECK_NEAR(pe_score(3, 8, 1e4), 1.965, 5e-4);
}

/* ---- frequencies, values, rows ---------------------------------------- */

static void test_omegas(void)
{
    double om[4096 / 2];
    for (int a = 0; a < N_DS; a++) {
        int d = DS[a];
        for (int b = 0; b < N_BASES; b++) {
            double base = BASES[b], worst = 0.0, worst_rel = 0.0;
            pe_omegas(d, base, om);
            for (int i = 0; i < d / 2; i++) {
                /* independent route: exp(-(2i/d) ln base) */
                double alt = exp(-(2.0 * i / d) * log(base));
                worst = fmax(worst, fabs(om[i] - ref_omega(i, d, base)));
                worst = fmax(worst, fabs(pe_omega(i, d, base) - om[i]));
                worst_rel = fmax(worst_rel, fabs(om[i] - alt) / alt);
                double wl = pe_wavelength(i, d, base);
                worst_rel = fmax(worst_rel, fabs(wl * om[i] - 2.0 * PI) / (2.0 * PI));
            }
            CHECK(worst == 0.0);
            CHECK_NEAR(worst_rel, 0.0, 1e-12);
            CHECK(om[0] == 1.0);
            int falling = 1;
            for (int i = 1; i < d / 2; i++)
                falling &= om[i] < om[i - 1];
            CHECK(falling);
        }
    }
    CHECK_NEAR(pe_wavelength(0, 64, 1e4), 2.0 * PI, 1e-12);
    CHECK_NEAR(pe_wavelength(1, 4, 1e4), 200.0 * PI, 1e-9);
}

static void test_values_rows(void)
{
    static double row[4096];
    for (int a = 0; a < N_DS; a++)
        for (int b = 0; b < N_BASES; b++)
            for (int c = 0; c < N_POSS; c++) {
                int d = DS[a];
                double base = BASES[b], pos = POSS[c], worst = 0.0, norm2 = 0.0;
                pe_row(pos, d, base, row);
                for (int dim = 0; dim < d; dim++) {
                    double r = ref_pe(pos, dim, d, base);
                    worst = fmax(worst, fabs(row[dim] - r));
                    worst = fmax(worst, fabs(pe_value(pos, dim, d, base) - r));
                    norm2 += row[dim] * row[dim];
                }
                CHECK_NEAR(worst, 0.0, TOL);
                /* |PE(pos)| = sqrt(d/2): each (sin, cos) pair has length 1 */
                CHECK_NEAR(sqrt(norm2), sqrt(d / 2.0), 1e-12 * d);
            }
}

/* ---- scores and shifts ------------------------------------------------- */

static void test_scores(void)
{
    static double om[2048];
    for (int a = 0; a < N_DS; a++)
        for (int b = 0; b < N_BASES; b++)
            for (int c = 0; c < N_POSS; c++) {
                int d = DS[a];
                double base = BASES[b], pa = POSS[c], pb = POSS[(c + 3) % N_POSS];
                double sc = pe_score(pa - pb, d, base);
                pe_omegas(d, base, om);
                CHECK_NEAR(pe_score_w(pa - pb, om, d / 2), sc, 1e-12 * d);
                /* PE(a).PE(b) = sum_i cos((a-b) w_i); rounding of pos * w in
                 * the two rows allows ~|pos| * 2^-53 per band. */
                double tol = TOL + (fabs(pa) + fabs(pb)) * d * 2e-16;
                CHECK_NEAR(ref_dot(pa, pb, d, base), sc, tol);
                /* depends only on a - b */
                CHECK_NEAR(ref_dot(pa + 17.0, pb + 17.0, d, base), sc, tol);
                double plain = 0.0;
                for (int i = 0; i < d / 2; i++)
                    plain += cos((pa - pb) * ref_omega(i, d, base));
                CHECK_NEAR(sc, plain, 1e-12 * d);
            }
    /* score(0) = d/2, and the score is even in delta */
    CHECK_NEAR(pe_score(0, 512, 1e4), 256.0, 1e-12);
    CHECK_NEAR(pe_score(37.0, 512, 5e5), pe_score(-37.0, 512, 5e5), 1e-12);
}

static void test_shift(void)
{
    static double row[4096], out[4096];
    static const double ks[] = {0.0, 1.0, -1.0, 5.0, 1000.0, 123456.0};
    for (int a = 0; a < N_DS; a++)
        for (int b = 0; b < N_BASES; b++)
            for (int c = 0; c < 4; c++)
                for (int e = 0; e < 6; e++) {
                    int d = DS[a];
                    double base = BASES[b], p = POSS[c], k = ks[e], worst = 0.0;
                    pe_row(p, d, base, row);
                    pe_shift(row, d, base, k, out);
                    for (int dim = 0; dim < d; dim++)
                        worst = fmax(worst, fabs(out[dim] - ref_pe(p + k, dim, d, base)));
                    CHECK_NEAR(worst, 0.0, TOL);
                    /* in place gives the same result */
                    pe_shift(row, d, base, k, row);
                    CHECK(memcmp(row, out, (size_t)d * sizeof *row) == 0);
                }
}

/* ---- closed-form range sums ------------------------------------------- */

static void brute_range(double w, int64_t p0, int64_t p1, double *ss, double *sc)
{
    *ss = *sc = 0.0;
    for (int64_t p = p0; p < p1; p++) {
        *ss += sin((double)p * w);
        *sc += cos((double)p * w);
    }
}

static void check_range(double w, int64_t p0, int64_t p1)
{
    double bs, bc, s, c, ms, mc, n = (double)(p1 - p0);
    brute_range(w, p0, p1, &bs, &bc);
    pe_range_sum(w, p0, p1, &s, &c);
    pe_range_mean(w, p0, p1, &ms, &mc);
    /* each brute term rounds p*w: ~|p w| 2^-53 per term */
    double pmax = fmax(fabs((double)p0), fabs((double)p1));
    double tol = TOL * n + n * pmax * fabs(w) * 2.3e-16;
    CHECK_NEAR(s, bs, tol);
    CHECK_NEAR(c, bc, tol);
    CHECK_NEAR(ms, bs / n, tol / n);
    CHECK_NEAR(mc, bc / n, tol / n);
}

static void test_range_sums(void)
{
    static const double ws[] = {1.0, 0.5, 0.1, 0.01, 1e-4, 1e-8, 1e-300, 5e-324,
                                0.0, 2.0 * PI, 2.0 * PI + 1e-9, 4.0 * PI - 1e-7,
                                PI, 3.0, -0.7, 6.0, 13.0};
    static const int64_t p0s[] = {0, 1, 5, -50, 999999, 1000000 - 77};
    static const int64_t ns[] = {1, 2, 3, 10, 64, 1001, 100000};
    for (int a = 0; a < (int)(sizeof ws / sizeof ws[0]); a++)
        for (int b = 0; b < 6; b++)
            for (int c = 0; c < 7; c++)
                check_range(ws[a], p0s[b], p0s[b] + ns[c]);
    /* the omegas of real tables, base 1e4 .. 1e6, d up to 4096 */
    static const double bases[] = {1e4, 5e5, 1e6};
    for (int b = 0; b < 3; b++)
        for (int i = 0; i < 2048; i += 97)
            check_range(ref_omega(i, 4096, bases[b]), 1000000, 1000000 + 12345);
    /* dyadic w keeps p*w exact, so positions near 2^40 can be checked */
    int64_t big = INT64_C(1) << 40;
    check_range(0.5, big, big + 1000);
    check_range(0.25, big - 333, big + 333);
    /* NULL outputs are allowed; empty range sums to 0 */
    double s = 1.0, c = 1.0;
    pe_range_sum(0.3, 0, 10, NULL, &c);
    pe_range_sum(0.3, 0, 10, &s, NULL);
    pe_range_mean(0.3, 0, 10, NULL, NULL);
    CHECK_NEAR(s, sin(4.5 * 0.3) * sin(1.5) / sin(0.15), 1e-12);
    pe_range_sum(0.3, 7, 7, &s, &c);
    CHECK(s == 0.0 && c == 0.0);
}

static double brute_dirichlet(int64_t n, double w)
{
    double sum = 0.0, c = 0.5 * (double)(n - 1);
    for (int64_t k = 0; k < n; k++)
        sum += cos(((double)k - c) * w);
    return sum / (double)n;
}

static void test_dirichlet(void)
{
    static const double ws[] = {0.0, 5e-324, 1e-310, 1e-300, 1e-12, 1e-6, 0.3,
                                1.0, PI - 1e-9, PI, 2.0 * PI, 2.0 * PI + 1e-12,
                                2.0 * PI - 3e-8, 4.0 * PI, 6.0 * PI + 1e-7,
                                -2.0 * PI, -1.0, 10.0, 100.0, 1e4};
    static const int64_t ns[] = {1, 2, 3, 4, 7, 64, 1000, 4097};
    for (int a = 0; a < (int)(sizeof ws / sizeof ws[0]); a++)
        for (int b = 0; b < 8; b++) {
            double w = ws[a];
            int64_t n = ns[b];
            double dn = pe_dirichlet(n, w);
            CHECK_NEAR(dn, brute_dirichlet(n, w), TOL + n * fabs(w) * n * 1.2e-16);
            CHECK(fabs(dn) <= 1.0 + 1e-15);
        }
    /* the limits: D_n(0) = 1, D_1 = 1, D_n(2 pi m) = (+-1)^... */
    CHECK(pe_dirichlet(12345, 0.0) == 1.0);
    CHECK(pe_dirichlet(1, 2.5) == 1.0);
    CHECK_NEAR(pe_dirichlet(1000000, 1e-300), 1.0, 1e-15);
    CHECK_NEAR(pe_dirichlet(4, 2.0 * PI), -1.0, 1e-12);  /* e^{ikw}, k = -1.5..1.5 */
    CHECK_NEAR(pe_dirichlet(5, 2.0 * PI), 1.0, 1e-12);
    CHECK_NEAR(pe_dirichlet(4, 4.0 * PI), 1.0, 1e-12);
    CHECK(pe_dirichlet(0, 1.0) == 0.0);
    /* sin(n w/2) / (n sin(w/2)) directly where that is well conditioned */
    CHECK_NEAR(pe_dirichlet(10, 0.3), sin(1.5) / (10.0 * sin(0.15)), 1e-15);
}

static void test_value_mean(void)
{
    static const int64_t p0s[] = {0, 3, 1000000};
    static const int64_t ns[] = {1, 7, 500};
    for (int b = 0; b < N_BASES; b++)
        for (int e = 0; e < 3; e++)
            for (int f = 0; f < 3; f++) {
                int d = 64;
                double base = BASES[b], worst = 0.0;
                int64_t p0 = p0s[e], p1 = p0 + ns[f];
                for (int dim = 0; dim < d; dim++) {
                    double sum = 0.0;
                    for (int64_t p = p0; p < p1; p++)
                        sum += ref_pe((double)p, dim, d, base);
                    worst = fmax(worst, fabs(pe_value_mean(p0, p1, dim, d, base)
                                             - sum / (double)(p1 - p0)));
                }
                CHECK_NEAR(worst, 0.0, TOL);
            }
}

/* ---- block means ------------------------------------------------------ */

static void test_score_block_mean(void)
{
    static double om[256];
    uint64_t rs = 12345;
    static const int ds[] = {2, 8, 64, 512};
    static const double bases[] = {1e4, 5e5, 1e6};
    for (int t = 0; t < 60; t++) {
        int d = ds[t % 4];
        double base = bases[t % 3];
        int64_t off = (t % 5 == 0) ? 1000000 : 0;
        int64_t i0 = off + rng_int(&rs, 0, 200), i1 = i0 + rng_int(&rs, 1, 40);
        int64_t j0 = off + rng_int(&rs, 0, 200), j1 = j0 + rng_int(&rs, 1, 40);
        pe_omegas(d, base, om);
        double sum = 0.0;
        for (int64_t i = i0; i < i1; i++)
            for (int64_t j = j0; j < j1; j++)
                for (int k = 0; k < d / 2; k++)
                    sum += cos((double)(i - j) * ref_omega(k, d, base));
        double brute = sum / ((double)(i1 - i0) * (double)(j1 - j0));
        CHECK_NEAR(pe_score_block_mean(i0, i1, j0, j1, om, d / 2), brute, TOL);
    }
    /* a 1x1 block is the plain score */
    pe_omegas(64, 1e4, om);
    CHECK_NEAR(pe_score_block_mean(10, 11, 3, 4, om, 32), pe_score(7, 64, 1e4), 1e-12);
}

static void fill_random(uint64_t *rs, double *v, int n)
{
    for (int i = 0; i < n; i++)
        v[i] = 2.0 * rng_unit(rs) - 1.0;
}

/* Plain RoPE: rotate each pair of q by m w_i and of k by n w_i, then dot. */
static double ref_rope(const double *q, const double *k, int d, double base,
                       double m, double n)
{
    double sum = 0.0;
    for (int i = 0; i < d / 2; i++) {
        double w = ref_omega(i, d, base), am = m * w, an = n * w;
        double q0 = q[2 * i] * cos(am) - q[2 * i + 1] * sin(am);
        double q1 = q[2 * i] * sin(am) + q[2 * i + 1] * cos(am);
        double k0 = k[2 * i] * cos(an) - k[2 * i + 1] * sin(an);
        double k1 = k[2 * i] * sin(an) + k[2 * i + 1] * cos(an);
        sum += q0 * k0 + q1 * k1;
    }
    return sum;
}

static void test_rope(void)
{
    static double q[4096], k[4096], a[2048], b[2048], om[2048], ones[4096];
    static const double ms[][2] = {{0, 0}, {5, 2}, {2, 5}, {100, 37},
                                   {1000000, 999990}, {12, 1000000}};
    uint64_t rs = 777;
    for (int i = 0; i < 4096; i++)
        ones[i] = 1.0;
    for (int x = 0; x < N_DS; x++)
        for (int y = 2; y < 5; y++) {
            int d = DS[x], half = d / 2;
            double base = BASES[y];
            fill_random(&rs, q, d);
            fill_random(&rs, k, d);
            pe_rope_coeffs(q, k, d, a, b);
            pe_omegas(d, base, om);
            for (int i = 0; i < half; i++) {
                CHECK_NEAR(a[i], q[2*i] * k[2*i] + q[2*i+1] * k[2*i+1], 1e-15);
                CHECK_NEAR(b[i], q[2*i] * k[2*i+1] - q[2*i+1] * k[2*i], 1e-15);
            }
            for (int e = 0; e < 6; e++) {
                double m = ms[e][0], n = ms[e][1];
                double r = pe_rope_score(q, k, d, base, m, n);
                /* the reference rotates by m w and n w separately: each
                 * angle rounds by ~|pos| 2^-53 */
                double tol = TOL + (m + n) * half * 2.3e-16;
                CHECK_NEAR(r, ref_rope(q, k, d, base, m, n), tol);
                CHECK_NEAR(pe_rope_score_ab(m - n, a, b, om, half), r, 1e-12 * d);
                /* Toeplitz: only m - n matters, in the plain rotation too */
                CHECK_NEAR(pe_rope_score(q, k, d, base, m + 1000, n + 1000), r, 1e-12 * d);
                CHECK_NEAR(ref_rope(q, k, d, base, m + 1000, n + 1000), r, tol + 2000 * half * 2.3e-16);
                /* With q = k = ones every a_i = 1 + 1 = 2 and b_i = 1 - 1 = 0,
                 * so the score is 2 sum cos(delta w_i): twice sinusoidal. */
                CHECK_NEAR(pe_rope_score(ones, ones, d, base, m, n),
                           2.0 * pe_score(m - n, d, base), 1e-12 * d);
            }
        }
    /* block means against brute force */
    for (int t = 0; t < 40; t++) {
        int d = (t % 2) ? 64 : 8, half = d / 2;
        double base = BASES[2 + t % 3];
        int64_t off = (t % 4 == 0) ? 1000000 : 0;
        int64_t i0 = off + rng_int(&rs, 0, 100), i1 = i0 + rng_int(&rs, 1, 30);
        int64_t j0 = off + rng_int(&rs, 0, 100), j1 = j0 + rng_int(&rs, 1, 30);
        fill_random(&rs, q, d);
        fill_random(&rs, k, d);
        pe_rope_coeffs(q, k, d, a, b);
        pe_omegas(d, base, om);
        double sum = 0.0;
        for (int64_t i = i0; i < i1; i++)
            for (int64_t j = j0; j < j1; j++)
                sum += ref_rope(q, k, d, base, (double)i, (double)j);
        double brute = sum / ((double)(i1 - i0) * (double)(j1 - j0));
        double tol = TOL + (double)off * 2 * half * 2.3e-16;
        CHECK_NEAR(pe_rope_block_mean(i0, i1, j0, j1, a, b, om, half), brute, tol);
    }
}

/* ---- ALiBi -------------------------------------------------------------- */

/* The paper's get_slopes, written out recursively. */
static void ref_slopes(int h, double *out)
{
    int p = 1;
    while (2 * p <= h)
        p *= 2;
    for (int i = 0; i < p; i++)
        out[i] = pow(pow(2.0, -8.0 / p), i + 1);
    if (p == h)
        return;
    double twice[256];
    ref_slopes(2 * p, twice);
    for (int i = 0; p + i < h; i++)
        out[p + i] = twice[2 * i];
}

static void test_alibi_slopes(void)
{
    static const double want8[8] = {0.5, 0.25, 0.125, 0.0625, 0.03125,
                                    0.015625, 0.0078125, 0.00390625};
    static const double want12_tail[4] = {0.7071067811865476, 0.3535533905932738,
                                          0.1767766952966369, 0.08838834764831845};
    double s[128], r[128];
    pe_alibi_slopes(8, s);
    for (int i = 0; i < 8; i++)
        CHECK(s[i] == want8[i]);
    pe_alibi_slopes(12, s);
    for (int i = 0; i < 8; i++)
        CHECK(s[i] == want8[i]);
    for (int i = 0; i < 4; i++)
        CHECK_NEAR(s[8 + i], want12_tail[i], 1e-15);
    pe_alibi_slopes(1, s);
    CHECK(s[0] == 0.00390625);
    for (int h = 1; h <= 100; h++) {
        pe_alibi_slopes(h, s);
        ref_slopes(h, r);
        double worst = 0.0;
        for (int i = 0; i < h; i++)
            worst = fmax(worst, fabs(s[i] - r[i]));
        CHECK_NEAR(worst, 0.0, 1e-14);
    }
    s[5] = -1.0;
    pe_alibi_slopes(5, s);
    CHECK(s[4] == 0.5);             /* 5 heads: 4 from P = 4, then 2^(-0.5*2) */
}

static void check_alibi_block(int64_t i0, int64_t i1, int64_t j0, int64_t j1)
{
    int64_t sum = 0;
    for (int64_t i = i0; i < i1; i++)
        for (int64_t j = j0; j < j1; j++)
            sum += i > j ? i - j : j - i;
    double mean = (double)sum / ((double)(i1 - i0) * (double)(j1 - j0));
    double tol = 1e-13 * fmax(1.0, mean);
    CHECK_NEAR(pe_alibi_block_mean(1.0, i0, i1, j0, j1), -mean, tol);
    CHECK_NEAR(pe_alibi_block_mean(0.25, i0, i1, j0, j1), -0.25 * mean, tol);
}

static void test_alibi(void)
{
    CHECK(pe_alibi_bias(0.5, 10, 4, 0) == -3.0);
    CHECK(pe_alibi_bias(0.5, 4, 10, 0) == -3.0);
    CHECK(pe_alibi_bias(0.5, 10, 4, 1) == -3.0);
    CHECK(pe_alibi_bias(0.5, 4, 10, 1) == 3.0);
    CHECK(pe_alibi_bias(0.25, 7, 7, 0) == 0.0);
    /* disjoint, touching, overlapping, nested, identical */
    check_alibi_block(0, 10, 20, 30);
    check_alibi_block(20, 30, 0, 10);
    check_alibi_block(0, 10, 10, 20);
    check_alibi_block(0, 15, 10, 20);
    check_alibi_block(10, 20, 0, 15);
    check_alibi_block(0, 100, 30, 40);
    check_alibi_block(30, 40, 0, 100);
    check_alibi_block(5, 50, 5, 50);
    check_alibi_block(5, 6, 5, 6);
    check_alibi_block(0, 1, 0, 1000);
    check_alibi_block(-40, 17, -3, 90);
    int64_t big = INT64_C(1) << 40;
    check_alibi_block(big, big + 50, big + 20, big + 90);
    check_alibi_block(0, 30, big, big + 30);
    uint64_t rs = 4242;
    for (int t = 0; t < 2000; t++) {
        int64_t i0 = rng_int(&rs, -60, 200), i1 = i0 + rng_int(&rs, 1, 80);
        int64_t j0 = rng_int(&rs, -60, 200), j1 = j0 + rng_int(&rs, 1, 80);
        check_alibi_block(i0, i1, j0, j1);
    }
    CHECK(pe_alibi_block_mean(1.0, 5, 5, 0, 3) == 0.0);
}

/* ---- learned table ------------------------------------------------------ */

static void test_learned(void)
{
    pe_learned t = {64, 1e4, 100, 99};
    static double row[4096], row2[4096];
    /* a pure function of (seed, p, dim) */
    pe_learned_row(&t, 5, row);
    for (int dim = 0; dim < 64; dim++) {
        CHECK(row[dim] == pe_learned_value(&t, 5, dim));
        CHECK(pe_learned_value(&t, 5, dim) == pe_learned_value(&t, 5, dim));
    }
    /* trained rows: the sinusoid scaled to norm 0.02 sqrt(d), plus sd 0.002 */
    double scale = PE_LEARNED_INIT_SD * sqrt(64.0) / sqrt(32.0);
    double worst = 0.0, noise2 = 0.0;
    int cnt = 0;
    for (int64_t p = 0; p < 100; p++)
        for (int dim = 0; dim < 64; dim++) {
            double dev = pe_learned_value(&t, p, dim) - scale * ref_pe((double)p, dim, 64, 1e4);
            worst = fmax(worst, fabs(dev));
            noise2 += dev * dev;
            cnt++;
        }
    CHECK(worst < 10 * PE_LEARNED_TRAINED_NOISE_SD);
    CHECK_NEAR(sqrt(noise2 / cnt), PE_LEARNED_TRAINED_NOISE_SD, 0.1 * PE_LEARNED_TRAINED_NOISE_SD);
    /* rows past train_len: initial noise, sd 0.02, mean 0 */
    double sum = 0.0, sum2 = 0.0;
    cnt = 0;
    for (int64_t p = 100; p < 1100; p++)
        for (int dim = 0; dim < 64; dim++) {
            double v = pe_learned_value(&t, p, dim);
            sum += v;
            sum2 += v * v;
            cnt++;
        }
    CHECK_NEAR(sum / cnt, 0.0, 0.001);
    CHECK_NEAR(sqrt(sum2 / cnt), PE_LEARNED_INIT_SD, 0.02 * PE_LEARNED_INIT_SD);
    /* trained noise and init noise of the same cell are different draws */
    pe_learned u = t;
    u.train_len = 0;
    int same = 0;
    for (int dim = 0; dim < 64; dim++) {
        double trained = (pe_learned_value(&t, 3, dim) - scale * ref_pe(3.0, dim, 64, 1e4))
                         / PE_LEARNED_TRAINED_NOISE_SD;
        double init = pe_learned_value(&u, 3, dim) / PE_LEARNED_INIT_SD;
        same += fabs(trained - init) < 1e-9;
    }
    CHECK(same == 0);
    /* neighbours nearly parallel, untrained rows nearly orthogonal */
    pe_learned_row(&t, 50, row);
    pe_learned_row(&t, 51, row2);
    double dot = 0.0, n1 = 0.0, n2 = 0.0;
    for (int dim = 0; dim < 64; dim++) {
        dot += row[dim] * row2[dim];
        n1 += row[dim] * row[dim];
        n2 += row2[dim] * row2[dim];
    }
    CHECK(dot / sqrt(n1 * n2) > 0.8);
    CHECK_NEAR(sqrt(n1), PE_LEARNED_INIT_SD * sqrt(64.0), 0.1 * PE_LEARNED_INIT_SD * 8);
    pe_learned big = {4096, 1e4, 0, 7};
    pe_learned_row(&big, 1000, row);
    pe_learned_row(&big, 1001, row2);
    dot = n1 = n2 = 0.0;
    for (int dim = 0; dim < 4096; dim++) {
        dot += row[dim] * row2[dim];
        n1 += row[dim] * row[dim];
        n2 += row2[dim] * row2[dim];
    }
    CHECK(fabs(dot / sqrt(n1 * n2)) < 0.1);
    CHECK_NEAR(sqrt(n1), PE_LEARNED_INIT_SD * 64.0, 0.05 * PE_LEARNED_INIT_SD * 64.0);
    /* another seed gives another table */
    pe_learned other = t;
    other.seed = 100;
    CHECK(pe_learned_value(&other, 500, 3) != pe_learned_value(&t, 500, 3));
}

/* ---- softmax ------------------------------------------------------------ */

static void check_softmax_row(const double *in, size_t n, size_t limit)
{
    double row[64], mx = -INFINITY, z = 0.0, sum = 0.0;
    memcpy(row, in, n * sizeof *row);
    pe_softmax(row, n, limit);
    size_t lim = limit < n ? limit : n;
    for (size_t i = 0; i < lim; i++)
        mx = fmax(mx, in[i]);
    for (size_t i = 0; i < lim; i++)
        z += exp(in[i] - mx);
    for (size_t i = 0; i < lim; i++) {
        CHECK_NEAR(row[i], exp(in[i] - mx) / z, 1e-15);
        CHECK(row[i] >= 0.0);
        sum += row[i];
    }
    for (size_t i = lim; i < n; i++)
        CHECK(row[i] == 0.0);
    if (lim > 0)
        CHECK_NEAR(sum, 1.0, 1e-12);
}

static void test_softmax(void)
{
    static const double big[6] = {1e6, -1e6, 1e6 - 1.0, 0.0, -1e6, 999999.5};
    static const double small[5] = {0.1, -0.3, 2.0, 1.5, -4.0};
    double in[64];
    uint64_t rs = 31337;
    for (size_t lim = 0; lim <= 7; lim++) {
        check_softmax_row(big, 6, lim);
        check_softmax_row(small, 5, lim);
    }
    for (int t = 0; t < 200; t++) {
        size_t n = (size_t)rng_int(&rs, 1, 64);
        double amp = (t % 3 == 0) ? 1e6 : (t % 3 == 1 ? 30.0 : 1.0);
        for (size_t i = 0; i < n; i++)
            in[i] = amp * (2.0 * rng_unit(&rs) - 1.0);
        check_softmax_row(in, n, (size_t)rng_int(&rs, 0, (int64_t)n + 1));
    }
    /* the huge scores: exp would overflow without subtracting the max */
    double row[6];
    memcpy(row, big, sizeof row);
    pe_softmax(row, 6, 6);
    CHECK_NEAR(row[0], 1.0 / (1.0 + exp(-1.0) + exp(-0.5)), 1e-15);
    CHECK(row[1] == 0.0 && row[3] == 0.0);
    /* a causal row i = 2: limit 3; limit 0 leaves a zero row */
    double c[4] = {1.0, 1.0, 1.0, 50.0};
    pe_softmax(c, 4, 3);
    CHECK_NEAR(c[0], 1.0 / 3.0, 1e-15);
    CHECK(c[3] == 0.0);
    double z[3] = {4.0, 5.0, 6.0};
    pe_softmax(z, 3, 0);
    CHECK(z[0] == 0.0 && z[1] == 0.0 && z[2] == 0.0);
    /* infinities stay finite: +inf takes all, all -inf is uniform */
    double inf1[3] = {INFINITY, 1.0, -INFINITY};
    pe_softmax(inf1, 3, 3);
    CHECK(inf1[0] == 1.0 && inf1[1] == 0.0 && inf1[2] == 0.0);
    double inf2[2] = {-INFINITY, -INFINITY};
    pe_softmax(inf2, 2, 2);
    CHECK(inf2[0] == 0.5 && inf2[1] == 0.5);
}

/* ---- precision formats -------------------------------------------------- */

static double next_up(double x)
{
    return nextafter(x, INFINITY);
}

/* r is the nearest point of the format's grid: |x - r| is at most half the
 * spacing there (the spacing of x's binade, never below the subnormal step
 * 2^min_exp). */
static int is_nearest(double x, double r, int frac, int min_exp)
{
    int e;
    frexp(x, &e);
    double ulp = fmax(ldexp(1.0, e - 1 - frac), ldexp(1.0, min_exp));
    return fabs(x - r) <= 0.5 * ulp && fmod(r, ulp) == 0.0;
}

static void test_rounding(void)
{
    /* known values */
    CHECK(pe_round_bf16(1.0 / 3.0) == 0.333984375);
    CHECK(pe_round_bf16(PI) == 3.140625);
    CHECK(pe_round_f16(1.0 / 3.0) == 0.333251953125);
    CHECK(pe_round_f16(65519.0) == 65504.0);
    CHECK(pe_round_f16(65520.0) == INFINITY);
    CHECK(pe_round_f16(-65520.0) == -INFINITY);
    CHECK(pe_round_f16(1e-8) == 0.0);
    CHECK(pe_round_f16(6e-8) == 5.960464477539063e-08);
    CHECK(pe_round_f16(6e-8) == ldexp(1.0, -24));
    CHECK(pe_round_f16(PI) == 3.140625);
    CHECK(pe_round_f16(1e5) == INFINITY);
    CHECK(pe_round_f16(1e300) == INFINITY);
    /* bf16 keeps float's exponent range: largest 0x1.fep127; the halfway
     * point to 2^128 rounds to even, i.e. to infinity */
    CHECK(pe_round_bf16(0x1.fep127) == 0x1.fep127);
    CHECK(pe_round_bf16(nextafter(0x1.ffp127, 0.0)) == 0x1.fep127);
    CHECK(pe_round_bf16(0x1.ffp127) == INFINITY);
    CHECK(pe_round_bf16(FLT_MAX) == INFINITY);
    CHECK(pe_round_bf16(-1e39) == -INFINITY);
    CHECK(pe_round_bf16(0x1.2345p-130) == 0x1.2p-130);      /* bf16 subnormal */
    CHECK(pe_round_f32(1e39) == INFINITY);
    CHECK(pe_round_f32(-1e39) == -INFINITY);
    CHECK(pe_round_f32(FLT_MAX) == FLT_MAX);
    CHECK(pe_round_f32(0.1) == (double)0.1f);
    /* ties to even */
    CHECK(pe_round_bf16(1.0 + ldexp(1.0, -8)) == 1.0);
    CHECK(pe_round_bf16(1.0 + 3 * ldexp(1.0, -8)) == 1.0 + ldexp(1.0, -6));
    CHECK(pe_round_f16(1.0 + ldexp(1.0, -11)) == 1.0);
    CHECK(pe_round_f16(1.0 + 3 * ldexp(1.0, -11)) == 1.0 + ldexp(1.0, -9));
    CHECK(pe_round_f16(ldexp(1.0, -25)) == 0.0);            /* tie with 0 */
    CHECK(pe_round_f16(3 * ldexp(1.0, -25)) == ldexp(1.0, -23));
    CHECK(pe_round_f16(next_up(ldexp(1.0, -25))) == ldexp(1.0, -24));
    CHECK(pe_round_f32(1e-45) == ldexp(1.0, -149));
    CHECK(pe_round_f32(ldexp(1.0, -150)) == 0.0);
    /* rounding twice (double -> float -> bf16) would give 1 here */
    CHECK(pe_round_bf16(1.0 + ldexp(1.0, -8) + ldexp(1.0, -30)) == 1.0 + ldexp(1.0, -7));
    /* signs, zeros, NaN, inf */
    CHECK(pe_round_f16(-1.0 / 3.0) == -0.333251953125);
    CHECK(signbit(pe_round_f16(-0.0)) && pe_round_f16(-0.0) == 0.0);
    CHECK(signbit(pe_round_bf16(-1e-300)));
    CHECK(isnan(pe_round_f16(NAN)) && isnan(pe_round_bf16(NAN)) && isnan(pe_round_f32(NAN)));
    CHECK(pe_round_f16(-INFINITY) == -INFINITY);
    CHECK(pe_round_f16(65504.0) == 65504.0);
    CHECK(pe_round_f16(ldexp(1.0, -14)) == ldexp(1.0, -14));    /* least normal */
    /* random values: f32 equals the C conversion; bf16 / f16 are on their
     * grid, the nearest point of it, and idempotent */
    uint64_t rs = 2024;
    int f32_bad = 0, bf_bad = 0, f16_bad = 0;
    for (int t = 0; t < 200000; t++) {
        double x = ldexp(2.0 * rng_unit(&rs) - 1.0, (int)rng_int(&rs, -160, 128));
        if (pe_round_f32(x) != (double)(float)x)
            f32_bad++;
        double b = pe_round_bf16(x);
        float bfl = (float)b;
        uint32_t bits;
        memcpy(&bits, &bfl, sizeof bits);
        if ((double)bfl != b || (bits & 0xffff) != 0 || pe_round_bf16(b) != b)
            bf_bad++;
        double h = pe_round_f16(ldexp(x, -100));   /* scale into f16 range */
        if (h != pe_round_f16(h) || (isinf(h) && fabs(ldexp(x, -100)) < 65520.0))
            f16_bad++;
    }
    CHECK(f32_bad == 0);
    CHECK(bf_bad == 0);
    CHECK(f16_bad == 0);
    int far = 0;
    for (int t = 0; t < 20000; t++) {
        double x = ldexp(2.0 * rng_unit(&rs) - 1.0, (int)rng_int(&rs, -30, 17));
        double h = pe_round_f16(x), b = pe_round_bf16(x);
        if ((isfinite(h) || fabs(x) < 65520.0) && !is_nearest(x, h, 10, -24))
            far++;
        if (!is_nearest(x, b, 7, -133))
            far++;
    }
    CHECK(far == 0);
    /* f16 subnormals: multiples of 2^-24 */
    for (int t = 0; t < 2000; t++) {
        double x = ldexp(rng_unit(&rs), -14);
        double h = pe_round_f16(x), q = ldexp(1.0, -24);
        CHECK(fabs(x - h) <= 0.5 * q && fmod(h, q) == 0.0);
    }
}

/* ---- randomness --------------------------------------------------------- */

static void test_random(void)
{
    /* splitmix64's first output from state 0 */
    CHECK(pe_hash64(0) == UINT64_C(0xe220a8397b1dcdaf));
    CHECK(pe_hash64(1) != pe_hash64(2));
    CHECK(pe_gauss(1, 2) == pe_gauss(1, 2));
    CHECK(pe_gauss(1, 2) != pe_gauss(2, 2));
    CHECK(pe_gauss(1, 2) != pe_gauss(1, 3));
    double sum = 0.0, sum2 = 0.0, sum4 = 0.0, worst = 0.0;
    int within1 = 0, n = 400000;
    for (int i = 0; i < n; i++) {
        double z = pe_gauss(5, (uint64_t)i);
        sum += z;
        sum2 += z * z;
        sum4 += z * z * z * z;
        within1 += fabs(z) < 1.0;
        worst = fmax(worst, fabs(z));
    }
    CHECK_NEAR(sum / n, 0.0, 0.01);
    CHECK_NEAR(sum2 / n, 1.0, 0.01);
    CHECK_NEAR(sum4 / n, 3.0, 0.06);
    CHECK_NEAR((double)within1 / n, 0.682689492, 0.004);
    CHECK(worst < 9.0 && worst > 3.5);
}

/* ---- bulk tables -------------------------------------------------------- */

static void check_fill(int64_t p0, int64_t rows, int d, double base)
{
    size_t cells = (size_t)rows * (size_t)d;
    float *f = malloc((cells + 4) * sizeof *f);
    double *g = malloc((cells + 4) * sizeof *g);
    if (!f || !g) {
        CHECK(!"out of memory");
        free(f);
        free(g);
        return;
    }
    for (int i = 0; i < 4; i++) {   /* canaries past the end */
        f[cells + (size_t)i] = 7.0f;
        g[cells + (size_t)i] = 7.0;
    }
    pe_fill_f32(p0, rows, d, base, f);
    pe_fill_f64(p0, rows, d, base, g);
    double e32 = 0.0, e64 = 0.0;
    for (int64_t r = 0; r < rows; r++)
        for (int c = 0; c < d; c++) {
            double want = ref_pe((double)(p0 + r), c, d, base);
            size_t at = (size_t)r * (size_t)d + (size_t)c;
            e32 = fmax(e32, fabs(f[at] - want));
            e64 = fmax(e64, fabs(g[at] - want));
        }
    CHECK_NEAR(e32, 0.0, 1e-5);
    CHECK_NEAR(e64, 0.0, TOL);
    int canary = 1;
    for (int i = 0; i < 4; i++)
        canary &= f[cells + (size_t)i] == 7.0f && g[cells + (size_t)i] == 7.0;
    CHECK(canary);
    free(f);
    free(g);
}

static void test_fill(void)
{
    int64_t near20 = (INT64_C(1) << 20) - 150;
    check_fill(near20, 300, 512, 1e4);
    check_fill(near20, 300, 512, 1e6);
    check_fill(near20, 130, 512, 5e5);
    check_fill(0, 200, 2, 1e4);
    check_fill(0, 65, 6, 10.0);
    check_fill(3, 64, 14, 1e4);
    check_fill(1000, 129, 514, 1e4);     /* one full chunk of bands + 1 */
    check_fill(999990, 70, 4096, 1e6);   /* several chunks */
    check_fill(5, 1, 64, 2.0);
    check_fill(-100, 100, 32, 1e4);
}

/* pe_value_means (one frequency, angles rotated between anchors)
 * against pe_value_mean range by range: equal steps, a shorter last
 * range, uneven steps, far positions, both dims of a band. */
static void test_value_means(void)
{
    int64_t p0[200], p1[200];
    double out[200];
    int64_t ks[] = { 1, 7, 5243, 1 << 20 };
    int dims[] = { 0, 1, 62, 63, 4094, 4095 };
    for (int t = 0; t < 4; t++)
        for (int u = 0; u < 6; u++) {
            int d = dims[u] < 64 ? 64 : 4096, cols = 0;
            for (int64_t p = 12345 * (t % 2); cols < 200; cols++) {
                int64_t k = ks[t] + (cols % 37 == 5 ? 3 : 0);  /* uneven */
                p0[cols] = p;
                p1[cols] = p + (cols == 199 ? (k + 1) / 2 : k);
                p = p1[cols];
            }
            pe_value_means(p0, p1, cols, dims[u], d, 10000, out);
            double worst = 0;
            for (int c = 0; c < cols; c++)
                worst = fmax(worst, fabs(out[c] - pe_value_mean(p0[c], p1[c],
                                                                dims[u], d,
                                                                10000)));
            CHECK_NEAR(worst, 0, 1e-13);
        }
}

/* pe_values_step (angles rotated between exact anchors) against
 * pe_value value by value, near 0 and far out, small and large steps. */
static void test_values_step(void)
{
    int64_t starts[] = { 0, 12345, (int64_t)1 << 30 };
    int64_t steps[] = { 1, 7, 4099 };
    int dims[] = { 0, 1, 510, 511 };
    double out[300];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 4; c++) {
                pe_values_step(starts[a], steps[b], 300, dims[c], 512, 10000,
                               out);
                double worst = 0;
                for (int i = 0; i < 300; i++)
                    worst = fmax(worst, fabs(out[i] - pe_value(
                        (double)(starts[a] + i * steps[b]), dims[c], 512,
                        10000)));
                CHECK_NEAR(worst, 0, 1e-13);
            }
}

int main(void)
{
    test_seed_d4();
    test_seed_d8();
    test_omegas();
    test_values_rows();
    test_scores();
    test_shift();
    test_range_sums();
    test_dirichlet();
    test_value_mean();
    test_value_means();
    test_values_step();
    test_score_block_mean();
    test_rope();
    test_alibi_slopes();
    test_alibi();
    test_learned();
    test_softmax();
    test_rounding();
    test_random();
    test_fill();
    TEST_END("test_pe");
}
