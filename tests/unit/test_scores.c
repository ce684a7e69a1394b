/*
 * test_scores.c - attention scores against direct evaluations of the
 * definitions (plain loops over sin, cos and the seeded draws), block
 * means and the cached grid against brute force, softmax rows.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "scores.h"

static params P(int d, double base, int64_t n)
{
    params p;
    params_default(&p);
    p.d = d;
    p.base = base;
    p.n = n;
    return p;
}

static struct attention_state O(enum scheme sc)
{
    struct attention_state o;
    scores_defaults(&o);
    o.scheme = sc;
    return o;
}

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
            params p = P(ds[a], bases[b], 200000);
            struct attention_state o = O(SCHEME_SINUSOIDAL);
            struct score_ctx *s = scores_new_from(&p, &o, NULL);
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
    params p = P(8, 10000, 16);
    struct attention_state o = O(SCHEME_SINUSOIDAL);
    struct score_ctx *s = scores_new_from(&p, &o, NULL);
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
        params p = P(d, 10000, 5000);
        struct attention_state o = O(SCHEME_ROPE);
        struct score_ctx *ones = scores_new_from(&p, &o, NULL);
        o.q_random = 1;
        struct score_ctx *rnd = scores_new_from(&p, &o, NULL);
        o = O(SCHEME_SINUSOIDAL);
        struct score_ctx *sin_ = scores_new_from(&p, &o, NULL);
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
    params p = P(8, 10000, 64);
    struct attention_state o = O(SCHEME_ALIBI);
    for (int h = 0; h < 12; h++) {
        o.heads = 12;
        o.head = h;
        struct score_ctx *s = scores_new_from(&p, &o, NULL);
        CHECK_NEAR(s->slope, H12[h], 1e-15);
        CHECK_NEAR(scores_at(s, 10, 3), -H12[h] * 7, 1e-15);
        CHECK_NEAR(scores_at(s, 3, 10), -H12[h] * 7, 1e-15);
        scores_free(s);
        if (h < 8) {
            o.heads = 8;
            s = scores_new_from(&p, &o, NULL);
            CHECK_NEAR(s->slope, H8[h], 1e-15);
            scores_free(s);
        }
    }
    o.heads = 8;
    o.head = 0;
    o.causal = 1;
    struct score_ctx *s = scores_new_from(&p, &o, NULL);
    CHECK_NEAR(scores_at(s, 10, 3), -0.5 * 7, 1e-15);
    CHECK(isinf(scores_at(s, 3, 10)) && scores_at(s, 3, 10) < 0);
    scores_free(s);
}

static void test_learned_nope(void)
{
    params p = P(16, 10000, 40);
    struct attention_state o = O(SCHEME_LEARNED);
    struct score_ctx *s = scores_new_from(&p, &o, NULL);
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
    s = scores_new_from(&p, &o, NULL);
    CHECK(s->train_len == 7);
    scores_free(s);

    /* a loaded table replaces the stand-in when d matches and rows suffice */
    double v[40 * 16];
    for (int i = 0; i < 40 * 16; i++)
        v[i] = (i % 7) * 0.25 - 0.5;
    struct pe_table tab = { 40, 16, v };
    o = O(SCHEME_LEARNED);
    s = scores_new_from(&p, &o, &tab);
    CHECK(scores_table_used(s));
    double d = 0;
    for (int k = 0; k < 16; k++)
        d += v[5 * 16 + k] * v[9 * 16 + k];
    CHECK_NEAR(scores_at(s, 5, 9), d, 1e-12);
    scores_free(s);
    struct pe_table small = { 10, 16, v };
    s = scores_new_from(&p, &o, &small);
    CHECK(!scores_table_used(s));
    scores_free(s);

    o = O(SCHEME_NOPE);
    s = scores_new_from(&p, &o, NULL);
    CHECK(scores_at(s, 5, 3) == 0.0);
    double row[40];
    o.causal = 1;
    scores_free(s);
    s = scores_new_from(&p, &o, NULL);
    CHECK(scores_row(s, 9, 1, row) == 0);
    for (int j = 0; j < 40; j++)
        CHECK(j <= 9 ? fabs(row[j] - 0.1) < 1e-15 : row[j] == 0.0);
    scores_free(s);
}

/* x = e + p with e drawn as documented, S = x_i . x_j. */
static void test_content(void)
{
    int d = 8;
    params p = P(d, 10000, 30);
    enum scheme sc[] = { SCHEME_SINUSOIDAL, SCHEME_LEARNED, SCHEME_NOPE,
                         SCHEME_ALIBI, SCHEME_ROPE };
    pe_learned t = { d, 10000, 15, SCORES_SEED_LEARNED };
    for (int m = 0; m < 5; m++)
        for (int scaled = 0; scaled < 2; scaled++) {
            struct attention_state o = O(sc[m]);
            o.content = 1;
            o.scale_emb = scaled;
            struct score_ctx *s = scores_new_from(&p, &o, NULL);
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
    params p = P(32, 10000, 3000);
    enum scheme sc[] = { SCHEME_SINUSOIDAL, SCHEME_ROPE };
    for (int m = 0; m < 2; m++) {
        struct attention_state o = O(sc[m]);
        o.q_random = 1;
        struct score_ctx *s = scores_new_from(&p, &o, NULL);
        for (int64_t i = 0; i < 3000; i += 397)
            for (int64_t j = 0; j < 3000; j += 451) {
                int64_t t = 2999 - (i > j ? i : j);
                CHECK_NEAR(scores_at(s, i, j), scores_at(s, i + t, j + t),
                           1e-9);
            }
        o.temperature = 1;
        struct score_ctx *st = scores_new_from(&p, &o, NULL);
        CHECK_NEAR(scores_at(st, 40, 7), scores_at(s, 40, 7) / sqrt(32.0),
                   1e-12);
        scores_free(st);
        scores_free(s);
    }
}

static void test_rows(void)
{
    enum scheme sc[] = { SCHEME_SINUSOIDAL, SCHEME_ROPE, SCHEME_ALIBI,
                         SCHEME_LEARNED, SCHEME_NOPE };
    params p = P(16, 10000, 50);
    double row[50];
    for (int m = 0; m < 5; m++)
        for (int causal = 0; causal < 2; causal++)
            for (int content = 0; content < 2; content++) {
                struct attention_state o = O(sc[m]);
                o.causal = causal;
                o.content = content;
                struct score_ctx *s = scores_new_from(&p, &o, NULL);
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

/* Brute mean of S (or of the softmax weights) over a block, unmasked
 * entries only for S; NAN when every entry is masked. */
static double brute_block(const struct score_ctx *s, int64_t i0, int64_t i1,
                          int64_t j0, int64_t j1, int softmax)
{
    double sum = 0, *row = malloc((size_t)s->n * sizeof *row);
    long cnt = 0;
    for (int64_t i = i0; i < i1; i++) {
        if (softmax)
            scores_row(s, i, 1, row);
        for (int64_t j = j0; j < j1; j++) {
            double v = softmax ? row[j] : scores_at(s, i, j);
            if (!softmax && isinf(v))
                continue;
            sum += v;
            cnt++;
        }
    }
    free(row);
    if (softmax && s->o.causal && j0 > i1 - 1)
        return NAN;
    return cnt ? sum / (double)cnt : NAN;
}

static void test_block_means(void)
{
    enum scheme sc[] = { SCHEME_SINUSOIDAL, SCHEME_ROPE, SCHEME_ALIBI,
                         SCHEME_LEARNED, SCHEME_NOPE };
    params p = P(8, 10000, 60);
    for (int m = 0; m < 5; m++)
        for (int content = 0; content < 2; content++) {
            struct attention_state o = O(sc[m]);
            o.content = content;
            o.q_random = 1;
            struct score_ctx *s = scores_new_from(&p, &o, NULL);
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

/* Run the grid to completion in slices of budget; returns calls made. */
static int grid_run(struct score_grid *g, const struct score_ctx *s,
                    const struct grid_req *r, int64_t budget,
                    enum grid_status *st)
{
    int calls = 0;
    double prog;
    char why[192];
    do {
        *st = grid_update(g, s, r, budget, &prog, why, sizeof why);
        calls++;
    } while (*st == GRID_BUSY && calls < 1000000);
    return calls;
}

/* Every cell of a grid against brute force. */
static int grid_matches(const struct score_ctx *s, const struct grid_req *r,
                        int64_t budget, double tol)
{
    struct score_grid *g = grid_new();
    enum grid_status st;
    grid_run(g, s, r, budget, &st);
    int ok = st == GRID_DONE;
    for (int row = 0; ok && row < r->rows; row++)
        for (int c = 0; c < r->cols; c++) {
            int64_t i0 = r->i0 + row * r->k, j0 = r->j0 + c * r->k;
            int64_t i1 = i0 + r->k < s->n ? i0 + r->k : s->n;
            int64_t j1 = j0 + r->k < s->n ? j0 + r->k : s->n;
            double want = brute_block(s, i0, i1, j0, j1, s->o.softmax);
            double got = grid_cell(g, row, c);
            if (isnan(want) ? !isnan(got) : !(fabs(got - want) <= tol)) {
                fprintf(stderr, "cell %d,%d: %.17g want %.17g\n", row, c, got,
                        want);
                ok = 0;
                break;
            }
        }
    grid_free(g);
    return ok;
}

static void test_grid(void)
{
    enum scheme sc[] = { SCHEME_SINUSOIDAL, SCHEME_ROPE, SCHEME_ALIBI,
                         SCHEME_LEARNED, SCHEME_NOPE };
    params p = P(8, 10000, 61);
    struct grid_req reqs[] = {
        { 0, 0, 1, 61, 61, 0 },     /* one position per cell */
        { 0, 0, 4, 16, 16, 0 },     /* blocks, last one short */
        { 8, 0, 8, 5, 8, 0 },       /* rows start later: diagonal blocks */
        { 0, 24, 3, 10, 12, 0 },    /* columns start later */
    };
    for (int m = 0; m < 5; m++)
        for (int flags = 0; flags < 8; flags++) {
            struct attention_state o = O(sc[m]);
            o.causal = flags & 1;
            o.content = (flags >> 1) & 1;
            o.softmax = (flags >> 2) & 1;
            o.q_random = 1;
            struct score_ctx *s = scores_new_from(&p, &o, NULL);
            for (size_t r = 0; r < sizeof reqs / sizeof reqs[0]; r++)
                CHECK(grid_matches(s, &reqs[r], GRID_SLICE, 1e-9));
            /* tiny slices give the same numbers */
            CHECK(grid_matches(s, &reqs[1], 50, 1e-9));
            scores_free(s);
        }
}

/* The four terms of the split add up to the cell; e.p is p.e transposed. */
static void test_split(void)
{
    params p = P(8, 10000, 40);
    for (int causal = 0; causal < 2; causal++) {
        struct attention_state o = O(SCHEME_LEARNED);
        o.content = 1;
        o.causal = causal;
        struct score_ctx *s = scores_new_from(&p, &o, NULL);
        struct grid_req r = { 0, 0, 3, 14, 14, 1 };
        struct score_grid *g = grid_new();
        enum grid_status st;
        grid_run(g, s, &r, GRID_SLICE, &st);
        CHECK(st == GRID_DONE && s->nterms == 4);
        int ok = 1, transposed = 1;
        for (int row = 0; row < 14; row++)
            for (int c = 0; c < 14; c++) {
                double sum = 0;
                for (int t = 0; t < 4; t++)
                    sum += grid_term(g, t, row, c);
                double v = grid_cell(g, row, c);
                ok &= isnan(v) ? isnan(sum) : fabs(sum - v) < 1e-9;
                if (!causal)
                    transposed &= fabs(grid_term(g, 1, row, c)
                                       - grid_term(g, 2, c, row)) < 1e-12;
            }
        CHECK(ok);
        CHECK(transposed);
        grid_free(g);
        scores_free(s);
    }
}

static void test_softmax_at(void)
{
    params p = P(16, 10000, 300);
    enum scheme sc[] = { SCHEME_SINUSOIDAL, SCHEME_LEARNED, SCHEME_ALIBI };
    double row[300], cols[30];
    for (int m = 0; m < 3; m++)
        for (int causal = 0; causal < 2; causal++) {
            struct attention_state o = O(sc[m]);
            o.softmax = 1;
            o.causal = causal;
            o.temperature = 1;
            struct score_ctx *s = scores_new_from(&p, &o, NULL);
            struct grid_req r = { 0, 0, 10, 30, 30, 0 };
            struct score_grid *g = grid_new();
            enum grid_status st;
            grid_run(g, s, &r, GRID_SLICE, &st);
            CHECK(st == GRID_DONE);
            int64_t is[] = { 0, 77, 299 };
            for (int t = 0; t < 3; t++) {
                double pij;
                scores_row(s, is[t], 1, row);
                CHECK(grid_softmax_at(g, s, is[t], 150, &pij, cols) == 0);
                CHECK_NEAR(pij, row[150], 1e-12);
                double m0 = 0;
                for (int j = 20; j < 30; j++)
                    m0 += row[j] / 10;
                CHECK_NEAR(cols[2], m0, 1e-12);
            }
            grid_free(g);
            scores_free(s);
        }
}

/*
 * RoPE with random q, k at a large d and no temperature: scores span
 * hundreds, so the prefix-sum table is too ill-conditioned and the grid
 * falls back to rows one by one; the numbers must still match.
 */
static void test_ill_conditioned(void)
{
    params p = P(512, 10000, 64);
    for (int causal = 0; causal < 2; causal++) {
        struct attention_state o = O(SCHEME_ROPE);
        o.q_random = 1;
        o.softmax = 1;
        o.causal = causal;
        struct score_ctx *s = scores_new_from(&p, &o, NULL);
        struct grid_req r = { 0, 0, 4, 16, 16, 0 };
        CHECK(grid_matches(s, &r, GRID_SLICE, 1e-9));
        scores_free(s);
    }
}

static void test_limits(void)
{
    /* far too many learned entries to sum: refused with a reason */
    params p = P(512, 10000, INT64_C(1) << 20);
    struct attention_state o = O(SCHEME_LEARNED);
    struct score_ctx *s = scores_new_from(&p, &o, NULL);
    struct grid_req r = { 0, 0, (INT64_C(1) << 20) / 32, 32, 32, 0 };
    struct score_grid *g = grid_new();
    double prog;
    char why[192] = "";
    CHECK(grid_update(g, s, &r, GRID_SLICE, &prog, why, sizeof why)
          == GRID_REFUSED);
    CHECK(strstr(why, "limit") != NULL);
    grid_free(g);
    scores_free(s);
}

/* The largest case: 2^20 positions, d_model 4096, closed forms only. */
static void test_large(void)
{
    int64_t n = INT64_C(1) << 20;
    params p = P(4096, 10000, n);
    struct attention_state o = O(SCHEME_SINUSOIDAL);
    struct score_ctx *s = scores_new_from(&p, &o, NULL);
    int64_t k = (n + 39) / 40;
    struct grid_req r = { 0, 0, k, 40, 40, 0 };
    struct score_grid *g = grid_new();
    enum grid_status st;
    grid_run(g, s, &r, GRID_SLICE, &st);
    CHECK(st == GRID_DONE);
    int cells[][2] = { {0, 0}, {3, 17}, {39, 39}, {39, 0} };
    for (int t = 0; t < 4; t++) {
        int64_t i0 = cells[t][0] * k, j0 = cells[t][1] * k;
        int64_t i1 = i0 + k < n ? i0 + k : n, j1 = j0 + k < n ? j0 + k : n;
        CHECK_NEAR(grid_cell(g, cells[t][0], cells[t][1]),
                   pe_score_block_mean(i0, i1, j0, j1, s->omega, s->half),
                   1e-9);
    }
    grid_free(g);
    scores_free(s);
}

int main(void)
{
    test_sinusoidal();
    test_rope();
    test_alibi();
    test_learned_nope();
    test_content();
    test_toeplitz_and_temperature();
    test_rows();
    test_block_means();
    test_grid();
    test_split();
    test_softmax_at();
    test_ill_conditioned();
    test_limits();
    test_large();
    TEST_END("test_scores");
}
