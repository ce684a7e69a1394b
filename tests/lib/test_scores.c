/* SPDX-License-Identifier: ISC */
/*
 * test_scores.c - libpeviz's attention scores against direct evaluations
 * of the definitions (plain loops over sin, cos and the seeded draws),
 * block and distance means against brute force, softmax rows, and the
 * scheme table.  Links only build/libpeviz.a.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "peviz/scores.h"
#include "scores_ref.h"

static double omega(int k, int d, double base)
{
    return pow(base, -2.0 * k / d);
}

/* PE(i).PE(j) from the rows themselves. */
static double direct_sin(int d, double base, double i, double j)
{
    double s = 0;
    for (int k = 0; k < d / 2; k++)
        s += sin(i * omega(k, d, base)) * sin(j * omega(k, d, base))
             + cos(i * omega(k, d, base)) * cos(j * omega(k, d, base));
    return s;
}

/* (R(i)q).(R(j)k), rotating each pair counter-clockwise by p w. */
static double direct_rope(int d, double base, const double *q,
                          const double *k, double i, double j)
{
    double s = 0;
    for (int b = 0; b < d / 2; b++) {
        double ti = i * omega(b, d, base), tj = j * omega(b, d, base);
        double qx = q[2 * b] * cos(ti) - q[2 * b + 1] * sin(ti);
        double qy = q[2 * b] * sin(ti) + q[2 * b + 1] * cos(ti);
        double kx = k[2 * b] * cos(tj) - k[2 * b + 1] * sin(tj);
        double ky = k[2 * b] * sin(tj) + k[2 * b + 1] * cos(tj);
        s += qx * kx + qy * ky;
    }
    return s;
}

static void test_sinusoidal(void)
{
    int ds[] = { 2, 8, 64, 512 };
    double bases[] = { 10000, 500000, 100 };
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 3; b++) {
            struct dims p = P(ds[a], bases[b], 200000);
            struct score_opts o = O(SCHEME_SINUSOIDAL);
            struct score_ctx *s = NEW(&p, &o, NULL);
            int64_t pairs[][2] = { {0, 0}, {3, 0}, {0, 3}, {37, 5},
                                   {199999, 0}, {123456, 123000} };
            for (int t = 0; t < 6; t++)
                CHECK_NEAR(scores_at(s, pairs[t][0], pairs[t][1]),
                           direct_sin(ds[a], bases[b], (double)pairs[t][0],
                                      (double)pairs[t][1]), 1e-9);
            CHECK(s->toeplitz);
            scores_free(s);
        }
    /* the seed article's d_model = 8 rebound: falls to 1.965 at 3, rises */
    struct dims p = P(8, 10000, 16);
    struct score_opts o = O(SCHEME_SINUSOIDAL);
    struct score_ctx *s = NEW(&p, &o, NULL);
    CHECK_NEAR(scores_at(s, 0, 0), 4.0, 1e-12);
    /* 1.965 as the article rounds it; the value from Python's math.cos */
    CHECK_NEAR(scores_at(s, 3, 0), 1.964889526277523, 1e-12);
    CHECK(scores_at(s, 3, 0) < scores_at(s, 2, 0));
    CHECK(scores_at(s, 4, 0) > scores_at(s, 3, 0));
    CHECK(scores_at(s, 5, 0) > scores_at(s, 4, 0));
    scores_free(s);
}

static void test_rope(void)
{
    int ds[] = { 2, 8, 64 };
    for (int a = 0; a < 3; a++) {
        int d = ds[a];
        struct dims p = P(d, 10000, 5000);
        struct score_opts o = O(SCHEME_ROPE);
        struct score_ctx *ones = NEW(&p, &o, NULL);
        o.q_random = 1;
        struct score_ctx *rnd = NEW(&p, &o, NULL);
        o = O(SCHEME_SINUSOIDAL);
        struct score_ctx *sin_ = NEW(&p, &o, NULL);
        double *q = malloc(2 * (size_t)d * sizeof *q), *k = q + d;
        for (int i = 0; i < d; i++) {
            q[i] = pe_gauss(SCORES_SEED_Q, (uint64_t)i);
            k[i] = pe_gauss(SCORES_SEED_K, (uint64_t)i);
        }
        int64_t pairs[][2] = { {0, 0}, {5, 2}, {2, 5}, {4999, 17}, {300, 301} };
        for (int t = 0; t < 5; t++) {
            int64_t i = pairs[t][0], j = pairs[t][1];
            CHECK_NEAR(scores_at(rnd, i, j),
                       direct_rope(d, 10000, q, k, (double)i, (double)j), 1e-9);
            /* q = k = ones: per band a = 1*1 + 1*1 = 2 and b = 1*1 - 1*1 = 0,
             * so the score is 2 sum cos((i-j) w): twice the sinusoidal one */
            CHECK_NEAR(scores_at(ones, i, j), 2.0 * scores_at(sin_, i, j), 1e-9);
        }
        free(q);
        scores_free(ones);
        scores_free(rnd);
        scores_free(sin_);
    }
}

static void test_alibi(void)
{
    /* published slopes (the ALiBi reference get_slopes) */
    static const double H8[8] = { 0.5, 0.25, 0.125, 0.0625, 0.03125,
                                  0.015625, 0.0078125, 0.00390625 };
    static const double H12[12] = {
        0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625,
        0.7071067811865476, 0.35355339059327373, 0.17677669529663687,
        0.08838834764831843 };
    struct dims p = P(8, 10000, 64);
    struct score_opts o = O(SCHEME_ALIBI);
    for (int h = 0; h < 12; h++) {
        o.heads = 12;
        o.head = h;
        struct score_ctx *s = NEW(&p, &o, NULL);
        CHECK_NEAR(s->slope, H12[h], 1e-15);
        CHECK_NEAR(scores_at(s, 10, 3), -H12[h] * 7, 1e-15);
        CHECK_NEAR(scores_at(s, 3, 10), -H12[h] * 7, 1e-15);
        scores_free(s);
        if (h < 8) {
            o.heads = 8;
            s = NEW(&p, &o, NULL);
            CHECK_NEAR(s->slope, H8[h], 1e-15);
            scores_free(s);
        }
    }
    o.heads = 8;
    o.head = 0;
    o.causal = 1;
    struct score_ctx *s = NEW(&p, &o, NULL);
    CHECK_NEAR(scores_at(s, 10, 3), -0.5 * 7, 1e-15);
    CHECK(isinf(scores_at(s, 3, 10)) && scores_at(s, 3, 10) < 0);
    scores_free(s);
}

static void test_learned_nope(void)
{
    struct dims p = P(16, 10000, 40);
    struct score_opts o = O(SCHEME_LEARNED);
    struct score_ctx *s = NEW(&p, &o, NULL);
    CHECK(s->train_len == 20);
    pe_learned t = { 16, 10000, 20, SCORES_SEED_LEARNED };
    int64_t pairs[][2] = { {0, 0}, {3, 4}, {19, 25}, {30, 31}, {39, 0} };
    for (int q = 0; q < 5; q++) {
        double d = 0;
        for (int k = 0; k < 16; k++)
            d += pe_learned_value(&t, pairs[q][0], k)
                 * pe_learned_value(&t, pairs[q][1], k);
        CHECK_NEAR(scores_at(s, pairs[q][0], pairs[q][1]), d, 1e-12);
    }
    scores_free(s);
    o.train_len = 7;
    s = NEW(&p, &o, NULL);
    CHECK(s->train_len == 7);
    scores_free(s);

    /* a loaded table replaces the stand-in when d matches and rows suffice */
    double v[40 * 16];
    for (int i = 0; i < 40 * 16; i++)
        v[i] = (i % 7) * 0.25 - 0.5;
    struct score_table tab = { v, 40, 16 };
    o = O(SCHEME_LEARNED);
    s = NEW(&p, &o, &tab);
    CHECK(scores_table_used(s));
    double d = 0;
    for (int k = 0; k < 16; k++)
        d += v[5 * 16 + k] * v[9 * 16 + k];
    CHECK_NEAR(scores_at(s, 5, 9), d, 1e-12);
    scores_free(s);
    struct score_table narrow = { v, 40, 8 };      /* d differs */
    s = NEW(&p, &o, &narrow);
    CHECK(!scores_table_used(s) && s->rows == 40);
    scores_free(s);

    o = O(SCHEME_NOPE);
    s = NEW(&p, &o, NULL);
    CHECK(scores_at(s, 5, 3) == 0.0);
    double row[40];
    o.causal = 1;
    scores_free(s);
    s = NEW(&p, &o, NULL);
    CHECK(scores_row(s, 9, 1, row) == 0);
    for (int j = 0; j < 40; j++)
        CHECK(j <= 9 ? fabs(row[j] - 0.1) < 1e-15 : row[j] == 0.0);
    scores_free(s);
}

/* Row i of a short table: the values the test wrote (R = 10 rows). */
#define SHORT_R 10
static double short_v(int64_t p, int k)
{
    return sin(0.3 * (double)p + 0.7 * k) + 0.1 * (double)k;
}

/* e_p as documented: N(0, 1/d) draws, times sqrt(d) when scaled. */
static double emb(int64_t p, int k, int d)
{
    return pe_gauss(SCORES_SEED_EMB, (uint64_t)(p * d + k));
}

/* x_i . x_j with x = e + P (content) or P alone, by plain loops. */
static double short_dot(int64_t i, int64_t j, int d, int content)
{
    double sum = 0;
    for (int k = 0; k < d; k++)
        sum += (short_v(i, k) + (content ? emb(i, k, d) : 0))
               * (short_v(j, k) + (content ? emb(j, k, d) : 0));
    return sum;
}

/*
 * A loaded table shorter than n: positions past its R rows have no
 * row, so every score involving one is NAN (masked or not), rows and
 * softmax weights are over the keys below R, block means over the part
 * of the block below R.  The references are loops over the values
 * written here.
 */
static void test_short_table(void)
{
    enum { D = 16, N = 40 };
    double v[SHORT_R * D];
    for (int p = 0; p < SHORT_R; p++)
        for (int k = 0; k < D; k++)
            v[p * D + k] = short_v(p, k);
    struct score_table tab = { v, SHORT_R, D };
    struct dims p = P(D, 10000, N);
    for (int content = 0; content < 2; content++)
        for (int causal = 0; causal < 2; causal++) {
            struct score_opts o = O(SCHEME_LEARNED);
            o.content = content;
            o.causal = causal;
            struct score_ctx *s = NEW(&p, &o, &tab);
            CHECK(scores_table_used(s) && s->rows == SHORT_R && s->n == N);
            CHECK_NEAR(scores_at(s, 7, 3), short_dot(7, 3, D, content), 1e-12);
            CHECK_NEAR(scores_at(s, 9, 9), short_dot(9, 9, D, content), 1e-12);
            CHECK(isnan(scores_at(s, 10, 3)) && isnan(scores_at(s, 3, 10)));
            CHECK(isnan(scores_at(s, 39, 39)) && isnan(scores_at(s, 0, 25)));
            for (int t = 0; t < s->nterms; t++)
                CHECK(isnan(scores_term_at(s, t, 2, 12))
                      && isfinite(scores_term_at(s, t, 2, 9)));
            double pl[D];
            scores_vec(s, SK_PL, 12, 0, D, pl);
            CHECK(isnan(pl[0]) && isnan(pl[D - 1]));
            scores_vec(s, SK_PL, 9, 0, D, pl);
            CHECK(pl[3] == v[9 * D + 3]);

            double row[N];
            CHECK(scores_row(s, 6, 0, row) == 0);
            for (int j = 0; j < N; j++) {
                if (j >= SHORT_R)
                    CHECK(isnan(row[j]));
                else if (causal && j > 6)
                    CHECK(isinf(row[j]) && row[j] < 0);
                else
                    CHECK_NEAR(row[j], short_dot(6, j, D, content), 1e-12);
            }
            /* softmax over the keys that exist: j < R (and j <= i) */
            CHECK(scores_row(s, 6, 1, row) == 0);
            int lim = causal ? 7 : SHORT_R;
            double mx = -INFINITY, z = 0, sum = 0;
            for (int j = 0; j < lim; j++)
                mx = fmax(mx, short_dot(6, j, D, content));
            for (int j = 0; j < lim; j++)
                z += exp(short_dot(6, j, D, content) - mx);
            for (int j = 0; j < N; j++) {
                if (j >= SHORT_R) {
                    CHECK(isnan(row[j]));
                    continue;
                }
                double want = j < lim ? exp(short_dot(6, j, D, content) - mx)
                                        / z : 0.0;
                CHECK_NEAR(row[j], want, 1e-12);
                sum += row[j];
            }
            CHECK_NEAR(sum, 1.0, 1e-12);
            CHECK(scores_row(s, 15, 1, row) == 0);  /* a missing query */
            for (int j = 0; j < N; j++)
                CHECK(isnan(row[j]));

            /* block means: over [5, 10) x [8, 10) of [5, 20) x [8, 30) */
            double want = 0;
            for (int i = 5; i < SHORT_R; i++)
                for (int j = 8; j < SHORT_R; j++)
                    want += short_dot(i, j, D, content);
            want /= 5.0 * 2.0;
            CHECK_NEAR(scores_block_mean(s, 5, 20, 8, 30), want, 1e-12);
            double terms = 0;
            for (int t = 0; t < s->nterms; t++)
                terms += scores_term_block_mean(s, t, 5, 20, 8, 30);
            CHECK_NEAR(terms, want, 1e-12);
            CHECK(isnan(scores_block_mean(s, 10, 20, 0, 5)));
            CHECK(isnan(scores_block_mean(s, 0, 5, 12, 40)));
            CHECK(isnan(scores_term_block_mean(s, 0, 30, 40, 30, 40)));
            CHECK(scores_block_mean(s, 3, 3, 0, 5) == 0.0);   /* empty */
            scores_free(s);
        }
    /* other schemes never read the table: every position is there */
    struct score_opts o = O(SCHEME_SINUSOIDAL);
    struct score_ctx *s = NEW(&p, &o, &tab);
    CHECK(s->rows == N && isfinite(scores_at(s, 30, 39)));
    scores_free(s);
    /* n within the table: nothing missing */
    struct dims small = P(D, 10000, 8);
    o = O(SCHEME_LEARNED);
    s = NEW(&small, &o, &tab);
    CHECK(s->rows == 8 && scores_table_used(s));
    CHECK_NEAR(scores_at(s, 7, 2), short_dot(7, 2, D, 0), 1e-12);
    scores_free(s);
}

/* x = e + p with e drawn as documented, S = x_i . x_j. */
static void test_content(void)
{
    int d = 8;
    struct dims p = P(d, 10000, 30);
    enum scheme sc[] = { SCHEME_SINUSOIDAL, SCHEME_LEARNED, SCHEME_NOPE,
                         SCHEME_ALIBI, SCHEME_ROPE };
    pe_learned t = { d, 10000, 15, SCORES_SEED_LEARNED };
    for (int m = 0; m < 5; m++)
        for (int scaled = 0; scaled < 2; scaled++) {
            struct score_opts o = O(sc[m]);
            o.content = 1;
            o.scale_emb = scaled;
            struct score_ctx *s = NEW(&p, &o, NULL);
            double mul = scaled ? 1.0 : 1.0 / sqrt(d);
            int64_t i = 7, j = 22;
            double xi[8], xj[8], sum = 0;
            for (int k = 0; k < d; k++) {
                xi[k] = mul * pe_gauss(SCORES_SEED_EMB, (uint64_t)(i * d + k));
                xj[k] = mul * pe_gauss(SCORES_SEED_EMB, (uint64_t)(j * d + k));
            }
            if (sc[m] == SCHEME_ROPE)
                for (int b = 0; b < d / 2; b++) {
                    double ti = (double)i * omega(b, d, 10000);
                    double tj = (double)j * omega(b, d, 10000);
                    double x = xi[2 * b], y = xi[2 * b + 1];
                    xi[2 * b] = x * cos(ti) - y * sin(ti);
                    xi[2 * b + 1] = x * sin(ti) + y * cos(ti);
                    x = xj[2 * b];
                    y = xj[2 * b + 1];
                    xj[2 * b] = x * cos(tj) - y * sin(tj);
                    xj[2 * b + 1] = x * sin(tj) + y * cos(tj);
                }
            for (int k = 0; k < d; k++) {
                if (sc[m] == SCHEME_SINUSOIDAL) {
                    xi[k] += k % 2 ? cos((double)i * omega(k / 2, d, 10000))
                                   : sin((double)i * omega(k / 2, d, 10000));
                    xj[k] += k % 2 ? cos((double)j * omega(k / 2, d, 10000))
                                   : sin((double)j * omega(k / 2, d, 10000));
                } else if (sc[m] == SCHEME_LEARNED) {
                    xi[k] += pe_learned_value(&t, i, k);
                    xj[k] += pe_learned_value(&t, j, k);
                }
            }
            for (int k = 0; k < d; k++)
                sum += xi[k] * xj[k];
            if (sc[m] == SCHEME_ALIBI)
                sum += -0.5 * 15;
            CHECK_NEAR(scores_at(s, i, j), sum, 1e-9);
            CHECK(!s->toeplitz);
            CHECK(s->split_ok == (sc[m] == SCHEME_SINUSOIDAL
                                  || sc[m] == SCHEME_LEARNED));
            scores_free(s);
        }
}

static void test_toeplitz_and_temperature(void)
{
    struct dims p = P(32, 10000, 3000);
    enum scheme sc[] = { SCHEME_SINUSOIDAL, SCHEME_ROPE };
    for (int m = 0; m < 2; m++) {
        struct score_opts o = O(sc[m]);
        o.q_random = 1;
        struct score_ctx *s = NEW(&p, &o, NULL);
        for (int64_t i = 0; i < 3000; i += 397)
            for (int64_t j = 0; j < 3000; j += 451) {
                int64_t t = 2999 - (i > j ? i : j);
                CHECK_NEAR(scores_at(s, i, j), scores_at(s, i + t, j + t),
                           1e-9);
            }
        o.temperature = 1;
        struct score_ctx *st = NEW(&p, &o, NULL);
        CHECK_NEAR(scores_at(st, 40, 7), scores_at(s, 40, 7) / sqrt(32.0),
                   1e-12);
        scores_free(st);
        scores_free(s);
    }
}

static void test_rows(void)
{
    struct dims p = P(16, 10000, 50);
    double row[50];
    for (int m = 0; m < scheme_count(); m++)   /* every scheme in the table */
        for (int causal = 0; causal < 2; causal++)
            for (int content = 0; content < 2; content++) {
                struct score_opts o = O((enum scheme)m);
                o.causal = causal;
                o.content = content;
                struct score_ctx *s = NEW(&p, &o, NULL);
                for (int64_t i = 0; i < 50; i += 7) {
                    CHECK(scores_row(s, i, 0, row) == 0);
                    int ok = 1;
                    for (int64_t j = 0; j < 50; j++) {
                        double want = scores_at(s, i, j);
                        ok &= isinf(want) ? isinf(row[j]) && row[j] < 0
                                          : fabs(row[j] - want) < 1e-9;
                    }
                    CHECK(ok);
                    CHECK(scores_row(s, i, 1, row) == 0);
                    double sum = 0;
                    int masked_zero = 1;
                    for (int64_t j = 0; j < 50; j++) {
                        sum += row[j];
                        if (causal && j > i)
                            masked_zero &= row[j] == 0.0;
                    }
                    CHECK_NEAR(sum, 1.0, 1e-12);
                    CHECK(masked_zero);
                }
                scores_free(s);
            }
}

static void test_block_means(void)
{
    struct dims p = P(8, 10000, 60);
    for (int m = 0; m < scheme_count(); m++)   /* every scheme in the table */
        for (int content = 0; content < 2; content++) {
            struct score_opts o = O((enum scheme)m);
            o.content = content;
            o.q_random = 1;
            struct score_ctx *s = NEW(&p, &o, NULL);
            int64_t b[][4] = { {0, 7, 0, 7}, {3, 20, 11, 13}, {40, 60, 0, 25},
                               {5, 6, 50, 60} };
            for (int t = 0; t < 4; t++)
                CHECK_NEAR(scores_block_mean(s, b[t][0], b[t][1], b[t][2],
                                             b[t][3]),
                           brute_block(s, b[t][0], b[t][1], b[t][2], b[t][3],
                                       0), 1e-9);
            scores_free(s);
        }
}

/* T5's bucket of rel = j - i (causal, 32 buckets, max distance 128),
 * the reference's steps in float32. */
static int ref_t5_bucket(long rel)
{
    long r = rel < 0 ? -rel : 0;
    if (r < 16)
        return (int)r;
    float x = (float)r / 16.0f, l = logf(x);
    float q = l / (float)log(128.0 / 16.0), v = q * 16.0f;
    long b = 16 + (long)v;
    return b > 31 ? 31 : (int)b;
}

/* The T5 stand-in at delta: -m times the first distance of the bucket
 * (m = 1/2, head 0 of 8). */
static double ref_t5_standin(double delta)
{
    int b = ref_t5_bucket((long)-delta);
    long first = 0;
    while (ref_t5_bucket(-first) != b)
        first++;
    return -0.5 * (double)first;
}

/* Sandwich, head 1 of 8: sum_{k=1..d/2} cos(delta base^(-2k/d)) - d/2. */
static double ref_sandwich(int d, double base, double delta)
{
    double s = 0;
    for (int k = 1; k <= d / 2; k++)
        s += cos(delta * pow(base, -2.0 * k / d));
    return (s - d / 2.0) / 1.0;
}

/* xPos with q = k = ones: 2 sum_k zeta_k^(delta/512) cos(delta w_k). */
static double ref_xpos(int d, double base, double delta)
{
    double s = 0;
    for (int k = 0; k < d / 2; k++)
        s += 2 * pow((2.0 * k + 0.4 * d) / (1.4 * d), delta / 512.0)
             * cos(delta * omega(k, d, base));
    return s;
}

/* The direct score at distance delta: sinusoid, RoPE with q = k = ones
 * (2 sum cos), ALiBi head 0 of 8 (m = 1/2), NoPE, and the distance
 * schemes at their defaults (r1 = 1, r2 = 1/2, gamma = 512). */
static double direct_at(enum scheme sc, int d, double base, double delta)
{
    switch (sc) {
    case SCHEME_SINUSOIDAL: return direct_sin(d, base, delta, 0);
    case SCHEME_ROPE: return 2 * direct_sin(d, base, delta, 0);
    case SCHEME_ALIBI: return -0.5 * fabs(delta);
    case SCHEME_T5: return ref_t5_standin(delta);
    case SCHEME_KERPLE_LOG: return -log(1 + 0.5 * fabs(delta));
    case SCHEME_KERPLE_POWER: return -sqrt(fabs(delta));
    case SCHEME_SANDWICH: return ref_sandwich(d, base, delta);
    case SCHEME_XPOS: return ref_xpos(d, base, delta);
    case SCHEME_LEARNED: case SCHEME_NOPE: return 0;
    default: return NAN;    /* a row this test has no formula for */
    }
}

/* tau T(delta) as the formula gives it, or for a scheme added to the
 * table without one here, as the context's single scores do (its range
 * means then still have to agree with its values). */
static double want_at(const struct score_ctx *s, int m, double tau,
                      int64_t delta)
{
    double v = direct_at((enum scheme)m, 16, 500, (double)delta);
    return isnan(v) ? scores_at(s, delta, 0) : tau * v;
}

/* Distance means against the mean of direct scores over the range. */
static void test_distance_means(void)
{
    struct dims p = P(16, 500, 300);
    int64_t r[][2] = { {0, 1}, {0, 7}, {5, 6}, {13, 40}, {100, 299} };
    for (int m = 0; m < scheme_count(); m++)
        for (int temp = 0; temp < 2; temp++) {
            struct score_opts o = O((enum scheme)m);
            o.temperature = temp;
            struct score_ctx *s = NEW(&p, &o, NULL);
            double tau = temp ? 1 / sqrt(16.0) : 1;
            for (int t = 0; t < 5; t++) {
                double sum = 0;
                for (int64_t dl = r[t][0]; dl < r[t][1]; dl++)
                    sum += want_at(s, m, tau, dl);
                double want = scheme_info(m)->toeplitz
                              ? sum / (double)(r[t][1] - r[t][0]) : 0;
                CHECK_NEAR(scores_distance_mean(s, r[t][0], r[t][1]), want,
                           1e-9);
            }
            /* 37 ranges of 8 side by side, the last one short (296..299) */
            double v[38];
            scores_distance_means(s, 299, 8, 38, v);
            int ok = 1;
            for (int t = 0; t < 38; t++) {
                int64_t d0 = 8 * t, d1 = d0 + 8 < 299 ? d0 + 8 : 299;
                double sum = 0;
                for (int64_t dl = d0; dl < d1; dl++)
                    sum += want_at(s, m, tau, dl);
                double want = scheme_info(m)->toeplitz
                              ? sum / (double)(d1 - d0) : 0;
                ok &= fabs(v[t] - want) <= 1e-9;
            }
            CHECK(ok);
            scores_free(s);
        }
}

/* The table: names round-trip, formulas exist in both spellings, and its
 * Toeplitz and split flags say what the contexts really do. */
static void test_scheme_table(void)
{
    char list[512], want[512] = "";
    /* every row by name, ", " between and " or " before the last; the
     * built-in ones first, in enum scheme's order */
    for (int m = 0; m < scheme_count(); m++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s",
                 m == 0 ? "" : m == scheme_count() - 1 ? " or " : ", ",
                 scheme_info(m)->name);
    CHECK_STR(scheme_list(list, sizeof list), want);
    CHECK(strncmp(list, "sinusoidal, rope, alibi, learned, nope, t5, "
                  "kerple-log, kerple-power, sandwich", 78) == 0);
    CHECK(scheme_parse("Rope") < 0 && scheme_parse("") < 0
          && scheme_parse(NULL) < 0);
    CHECK_STR(scheme_name((enum scheme)scheme_count()), "?");
    CHECK(scheme_info(-1) == NULL && scheme_info(scheme_count()) == NULL);
    /* every term type has its whole operations row: the readers call
     * each hook without testing for it */
    for (int t = 0; t < TERM_TYPE_COUNT; t++)
        CHECK(TERM_OPS[t].at && TERM_OPS[t].block_mean && TERM_OPS[t].tri_sum
              && TERM_OPS[t].range_mean && TERM_OPS[t].bias);
    CHECK(TERM_OPS[TERM_DOT].vectors && !TERM_OPS[TERM_DIST].vectors);
    struct dims p = P(8, 10000, 24);
    for (int m = 0; m < scheme_count(); m++) {
        const struct scheme_info *si = scheme_info(m);
        CHECK(scheme_parse(si->name) == m);
        CHECK_STR(scheme_name((enum scheme)m), si->name);
        const char *f[] = { si->formula, si->formula_ascii,
                            si->formula_content, si->formula_content_ascii };
        for (int k = 0; k < 4; k++) {
            int ascii = 1;
            for (const char *c = f[k]; c && *c; c++)
                ascii &= (unsigned char)*c < 0x80;
            CHECK(f[k] && f[k][0] && (k % 2 == 0 || ascii));
        }
        for (int content = 0; content < 2; content++) {
            struct score_opts o = O((enum scheme)m);
            o.content = content;
            struct score_ctx *s = NEW(&p, &o, NULL);
            CHECK_STR(schemes_formula(s, 1), content ? si->formula_content_ascii
                                                    : si->formula_ascii);
            /* shifting both positions keeps S exactly when Toeplitz */
            int shift_same = 1;
            for (int64_t i = 0; i < 12; i++)
                for (int64_t j = 0; j < 12; j++)
                    shift_same &= fabs(scores_at(s, i, j)
                                       - scores_at(s, i + 9, j + 9)) < 1e-9;
            CHECK(s->toeplitz == (si->toeplitz && !content));
            if (s->toeplitz)
                CHECK(shift_same);
            if (m == SCHEME_LEARNED || content)
                CHECK(!shift_same);
            CHECK(s->split_ok == (si->split && content));
            CHECK(!s->split_ok || s->nterms == 4);
            scores_free(s);
        }
    }
}

/* Options compare with memcmp: no padding, equal fields, equal bytes. */
static void test_opts_memcmp(void)
{
    CHECK(sizeof(enum scheme) == sizeof(int));
    CHECK(sizeof(struct score_opts) == 18 * sizeof(int) + 4 * sizeof(int64_t)
                                        + 7 * sizeof(double));
    struct score_opts a, b;
    memset(&a, 0xa5, sizeof a);
    memset(&b, 0x5a, sizeof b);
    scores_defaults(&a);
    scores_defaults(&b);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    CHECK(a.scheme == SCHEME_SINUSOIDAL && a.heads == 8 && a.scale_emb == 1
          && a.train_len == -1 && !a.softmax && !a.causal && !a.content);
    b.head = 3;
    CHECK(memcmp(&a, &b, sizeof a) != 0);
}

/* (R(i)q).(R(j)k) with half pairs (b, b + R/2) over the first R dims,
 * band b at base^(-2b/R), the rest unrotated. */
static double direct_half(int d, int R, double base, const double *q,
                          const double *k, double i, double j)
{
    double s = 0;
    for (int b = 0; b < R / 2; b++) {
        double w = pow(base, -2.0 * b / R), ti = i * w, tj = j * w;
        double q0 = q[b], q1 = q[b + R / 2], k0 = k[b], k1 = k[b + R / 2];
        double qx = q0 * cos(ti) - q1 * sin(ti), qy = q0 * sin(ti) + q1 * cos(ti);
        double kx = k0 * cos(tj) - k1 * sin(tj), ky = k0 * sin(tj) + k1 * cos(tj);
        s += qx * kx + qy * ky;
    }
    for (int x = R; x < d; x++)
        s += q[x] * k[x];
    return s;
}

/* Half pairs and partial rotary with given q and k: single scores against
 * the rotation done directly, block and distance means against brute
 * force; q = k = ones gives the same scores in both layouts. */
static void test_pairs_partial(void)
{
    double q[16], k[16];
    for (int x = 0; x < 16; x++) {
        q[x] = sin(1.7 * x + 0.3);
        k[x] = cos(0.9 * x * x - 1.1);
    }
    struct dims p = P(16, 500, 300);
    for (int R = 6; R <= 16; R += 10) {
        struct score_opts o = O(SCHEME_ROPE);
        o.qk_pairs = QK_HALF;
        o.rotary_dims = R;
        struct score_ctx *s = NEW(&p, &o, NULL);
        scores_set_qk(s, q, k);
        int64_t pr[][2] = { {0, 0}, {5, 2}, {2, 5}, {299, 3}, {77, 150} };
        for (int t = 0; t < 5; t++)
            CHECK_NEAR(scores_at(s, pr[t][0], pr[t][1]),
                       direct_half(16, R, 500, q, k, (double)pr[t][0],
                                   (double)pr[t][1]), 1e-9);
        int64_t b[][4] = { {0, 7, 0, 7}, {3, 20, 11, 13}, {40, 60, 0, 25} };
        for (int t = 0; t < 3; t++)
            CHECK_NEAR(scores_block_mean(s, b[t][0], b[t][1], b[t][2], b[t][3]),
                       brute_block(s, b[t][0], b[t][1], b[t][2], b[t][3], 0),
                       1e-9);
        double sum = 0;
        for (int64_t dl = 13; dl < 40; dl++)
            sum += scores_at(s, dl, 0);
        CHECK_NEAR(scores_distance_mean(s, 13, 40), sum / 27, 1e-9);
        scores_free(s);
    }
    struct score_opts a = O(SCHEME_ROPE), h = O(SCHEME_ROPE);
    h.qk_pairs = QK_HALF;
    struct score_ctx *sa = NEW(&p, &a, NULL), *sh = NEW(&p, &h, NULL);
    CHECK_NEAR(scores_at(sa, 40, 3), scores_at(sh, 40, 3), 1e-12);
    scores_free(sa);
    scores_free(sh);
}

/* xPos's closed forms against the sum over distances (its value alone)
 * on large blocks, triangles and ranges, causal-style blocks below the
 * diagonal and straddling it. */
static void test_xpos_closed(void)
{
    struct dims p = P(32, 10000, 5000);
    for (int rnd = 0; rnd < 2; rnd++) {
        struct score_opts o = O(SCHEME_XPOS);
        o.q_random = rnd;
        o.xpos_base = rnd ? 97 : 512;
        struct score_ctx *s = NEW(&p, &o, NULL);
        struct dist_ops gen = { DIST_XPOS.at, NULL, NULL, NULL, NULL, NULL };
        int64_t b[][4] = { {100, 3000, 0, 2000}, {4000, 4999, 3990, 4001},
                           {7, 8, 3, 4}, {2500, 2600, 0, 40} };
        for (int t = 0; t < 4; t++) {
            double want = dist_block_mean(s, &gen, b[t][0], b[t][1], b[t][2],
                                          b[t][3]);
            CHECK_NEAR(dist_block_mean(s, &DIST_XPOS, b[t][0], b[t][1],
                                       b[t][2], b[t][3]), want,
                       1e-9 * (1 + fabs(want)));
        }
        int64_t ms[] = { 1, 2, 17, 1000, 4999 };
        for (int t = 0; t < 5; t++) {
            double want = dist_tri_sum(s, &gen, ms[t]);
            CHECK_NEAR(dist_tri_sum(s, &DIST_XPOS, ms[t]), want,
                       1e-9 * (1 + fabs(want)));
        }
        double want = dist_range_mean(s, &gen, 13, 4000);
        CHECK_NEAR(dist_range_mean(s, &DIST_XPOS, 13, 4000), want,
                   1e-9 * (1 + fabs(want)));
        scores_free(s);
    }
}

/* KERPLE's Euler-Maclaurin sums against the sum over every distance
 * (its value alone): blocks far from, along and across the diagonal, at
 * both signs, up to 4M positions, triangles and ranges, for small and
 * large r2 of both kernels. */
static void check_kerple(struct score_ctx *s, const struct dist_ops *row)
{
    struct dist_ops gen = { row->at, NULL, NULL, NULL, NULL, NULL };
    int64_t b[][4] = { {0, 4194304, 0, 4194304}, {4000000, 4194304, 0, 300},
                       {0, 300, 3000000, 3001000}, {100, 70000, 60000, 90000},
                       {5, 9, 3, 700}, {1000, 1300, 1100, 1400},
                       {2097152, 4194304, 0, 2097152} };
    for (size_t t = 0; t < sizeof b / sizeof b[0]; t++) {
        double want = dist_block_mean(s, &gen, b[t][0], b[t][1], b[t][2],
                                      b[t][3]);
        CHECK_NEAR(dist_block_mean(s, row, b[t][0], b[t][1], b[t][2],
                                   b[t][3]), want, 1e-10 * (1 + fabs(want)));
    }
    int64_t ms[] = { 1, 2, 63, 64, 65, 300, 100000, 4194304 };
    for (size_t t = 0; t < sizeof ms / sizeof ms[0]; t++) {
        double want = dist_tri_sum(s, &gen, ms[t]);
        CHECK_NEAR(dist_tri_sum(s, row, ms[t]), want, 1e-10 * (1 + fabs(want)));
    }
    int64_t r[][2] = { {0, 1}, {13, 4000}, {60, 70}, {4000000, 4194303},
                       {0, 4194304} };
    for (size_t t = 0; t < sizeof r / sizeof r[0]; t++) {
        double want = dist_range_mean(s, &gen, r[t][0], r[t][1]);
        CHECK_NEAR(dist_range_mean(s, row, r[t][0], r[t][1]), want,
                   1e-10 * (1 + fabs(want)));
    }
}

static void test_kerple_sums(void)
{
    struct dims p = P(16, 10000, 4194304);
    static const double LOG_R2[] = { 0.001, 0.5, 7 };
    static const double POW_R2[] = { 0.05, 1, 1.37, 2 };
    for (int i = 0; i < 3; i++) {
        struct score_opts o = O(SCHEME_KERPLE_LOG);
        o.r1 = 1.7;
        o.r2 = LOG_R2[i];
        struct score_ctx *s = NEW(&p, &o, NULL);
        check_kerple(s, &DIST_KERPLE_LOG);
        scores_free(s);
    }
    for (int i = 0; i < 4; i++) {
        struct score_opts o = O(SCHEME_KERPLE_POWER);
        o.r1 = 0.61;
        o.r2 = POW_R2[i];
        struct score_ctx *s = NEW(&p, &o, NULL);
        check_kerple(s, &DIST_KERPLE_POWER);
        scores_free(s);
    }
}

/* A row's heads says whether its scores differ per head: with 8 heads,
 * S(40, 3) of head 0 and of head 3 differ exactly for those schemes. */
static void test_scheme_heads(void)
{
    struct dims p = P(16, 10000, 64);
    int some = 0;
    for (int sc = 0; sc < scheme_count(); sc++) {
        double v[2];
        for (int h = 0; h < 2; h++) {
            struct score_opts o = O((enum scheme)sc);
            o.heads = 8;
            o.head = 3 * h;
            struct score_ctx *s = NEW(&p, &o, NULL);
            v[h] = s ? scores_at(s, 40, 3) : NAN;
            scores_free(s);
        }
        int heads = scheme_info(sc)->heads;
        some += heads;
        CHECK(!isnan(v[0]) && !isnan(v[1]));
        CHECK((v[0] != v[1]) == heads);
    }
    CHECK(some > 0);
}

int main(void)
{
    test_sinusoidal();
    test_rope();
    test_alibi();
    test_learned_nope();
    test_short_table();
    test_content();
    test_toeplitz_and_temperature();
    test_rows();
    test_block_means();
    test_distance_means();
    test_scheme_table();
    test_opts_memcmp();
    test_pairs_partial();
    test_xpos_closed();
    test_kerple_sums();
    test_scheme_heads();
    TEST_END("test_scores");
}
