/* SPDX-License-Identifier: ISC */
/*
 * test_score_grid.c - the library's sliced, cached grid of score cells
 * (src/lib/score_grid.c) against brute force over the library's scores:
 * every cell, the four-term split, softmax rows (streamed past the
 * offset table's limit) and the limits.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "peviz/score_grid.h"
#include "scores_ref.h"
#include "toeplitz_ref.h"

/* Run the grid to completion in slices of budget; returns calls made. */
static int grid_run(struct score_grid *g, const struct score_ctx *s,
                    const struct grid_req *r, int64_t budget,
                    enum grid_status *st)
{
    int calls = 0;
    double prog;
    char why[192];
    do {
        *st = score_grid_update(g, s, r, budget, &prog, why, sizeof why);
        calls++;
    } while (*st == GRID_BUSY && calls < 1000000);
    return calls;
}

/* A new grid of s over r, run to its end. */
static struct score_grid *grid_done(const struct score_ctx *s,
                                    const struct grid_req *r)
{
    struct score_grid *g = score_grid_new();
    enum grid_status st;
    grid_run(g, s, r, GRID_SLICE, &st);
    CHECK(st == GRID_DONE);
    return g;
}

/* The grid of s over r refused, its reason naming word. */
static void grid_refused(const struct score_ctx *s, const struct grid_req *r,
                         const char *word)
{
    struct score_grid *g = score_grid_new();
    double prog;
    char why[192] = "";
    CHECK(score_grid_update(g, s, r, GRID_SLICE, &prog, why, sizeof why)
          == GRID_REFUSED);
    CHECK(strstr(why, word) != NULL);
    score_grid_free(g);
}

/* Every cell of a grid against brute force. */
static int grid_matches(const struct score_ctx *s, const struct grid_req *r,
                        int64_t budget, double tol)
{
    struct score_grid *g = score_grid_new();
    enum grid_status st;
    grid_run(g, s, r, budget, &st);
    int ok = st == GRID_DONE;
    for (int row = 0; ok && row < r->rows; row++)
        for (int c = 0; c < r->cols; c++) {
            int64_t i0 = r->i0 + row * r->k, j0 = r->j0 + c * r->k;
            int64_t i1 = i0 + r->k < s->n ? i0 + r->k : s->n;
            int64_t j1 = j0 + r->k < s->n ? j0 + r->k : s->n;
            double want = brute_block(s, i0, i1, j0, j1, s->o.softmax);
            double got = score_grid_cell(g, row, c);
            if (isnan(want) ? !isnan(got) : !(fabs(got - want) <= tol)) {
                fprintf(stderr, "cell %d,%d: %.17g want %.17g\n", row, c, got,
                        want);
                ok = 0;
                break;
            }
        }
    score_grid_free(g);
    return ok;
}

static void test_grid(void)
{
    struct dims p = P(8, 10000, 61);
    struct grid_req reqs[] = {
        { 0, 0, 1, 61, 61, 0 },     /* one position per cell */
        { 0, 0, 4, 16, 16, 0 },     /* blocks, last one short */
        { 8, 0, 8, 5, 8, 0 },       /* rows start later: diagonal blocks */
        { 0, 24, 3, 10, 12, 0 },    /* columns start later */
    };
    for (int m = 0; m < scheme_count(); m++)   /* every scheme in the table */
        for (int flags = 0; flags < 8; flags++) {
            struct score_opts o = O((enum scheme)m);
            o.causal = flags & 1;
            o.content = (flags >> 1) & 1;
            o.softmax = (flags >> 2) & 1;
            o.q_random = 1;
            struct score_ctx *s = NEW(&p, &o, NULL);
            for (size_t r = 0; r < sizeof reqs / sizeof reqs[0]; r++)
                CHECK(grid_matches(s, &reqs[r], GRID_SLICE, 1e-9));
            /* tiny slices give the same numbers */
            CHECK(grid_matches(s, &reqs[1], 50, 1e-9));
            scores_free(s);
        }
}

/* RoPE with a given q and k in half pairs over 6 rotary dims, and the
 * query scales (Llama 4 on nope with content, Ministral 3 on rope): the
 * grid against brute force in every combination of the toggles. */
static void test_grid_qk_qscale(void)
{
    struct dims p = P(8, 10000, 61);
    struct grid_req reqs[] = { { 0, 0, 1, 61, 61, 0 }, { 0, 0, 4, 16, 16, 0 },
                               { 8, 0, 8, 5, 8, 0 } };
    double q[8], k[8];
    for (int x = 0; x < 8; x++) {
        q[x] = sin(1.3 * x + 0.2);
        k[x] = cos(0.7 * x * x);
    }
    for (int kind = 0; kind < 3; kind++)
        for (int flags = 0; flags < 4; flags++) {
            struct score_opts o = O(kind == 1 ? SCHEME_NOPE : SCHEME_ROPE);
            o.causal = flags & 1;
            o.softmax = (flags >> 1) & 1;
            o.qk_pairs = QK_HALF;
            o.rotary_dims = 6;
            o.content = kind == 1;
            o.temp_tuning = kind == 1;
            o.floor_scale = 4;
            o.beta = kind == 2 ? 0.1 : 0;
            o.beta_len = 5;
            struct score_ctx *s = NEW(&p, &o, NULL);
            if (kind != 1)
                scores_set_qk(s, q, k);
            CHECK(!s->toeplitz == (kind != 0));
            for (size_t r = 0; r < sizeof reqs / sizeof reqs[0]; r++)
                CHECK(grid_matches(s, &reqs[r], GRID_SLICE, 1e-9));
            scores_free(s);
        }
}

/*
 * A loaded table of 10 rows at n = 61: cells past row 10 are NAN
 * (missing), cells across it the mean of their part before it, softmax
 * over the keys that exist; in every combination of the toggles.
 */
static void test_short_table(void)
{
    enum { R = 10, D = 8 };
    double v[R * D];
    for (int i = 0; i < R * D; i++)
        v[i] = sin(0.37 * i) + 0.05 * (i % 5);
    struct score_table tab = { v, R, D };
    struct dims p = P(D, 10000, 61);
    struct grid_req reqs[] = {
        { 0, 0, 1, 61, 61, 0 }, { 0, 0, 4, 16, 16, 0 },
        { 8, 0, 8, 5, 8, 0 }, { 0, 6, 3, 10, 12, 0 },
    };
    for (int flags = 0; flags < 8; flags++) {
        struct score_opts o = O(SCHEME_LEARNED);
        o.causal = flags & 1;
        o.content = (flags >> 1) & 1;
        o.softmax = (flags >> 2) & 1;
        struct score_ctx *s = NEW(&p, &o, &tab);
        CHECK(s->rows == R);
        for (size_t r = 0; r < sizeof reqs / sizeof reqs[0]; r++)
            CHECK(grid_matches(s, &reqs[r], GRID_SLICE, 1e-9));
        CHECK(grid_matches(s, &reqs[1], 50, 1e-9));
        struct score_grid *g = score_grid_new();
        enum grid_status st;
        grid_run(g, s, &reqs[1], GRID_SLICE, &st);
        CHECK(st == GRID_DONE && isnan(score_grid_cell(g, 3, 0))
              && isnan(score_grid_cell(g, 0, 3))
              && isfinite(score_grid_cell(g, 2, 0)));
        if (o.softmax) {
            double pij, cols[16], row[61];
            CHECK(score_grid_softmax_at(g, s, 12, 0, &pij, cols) == -1);
            CHECK(score_grid_softmax_at(g, s, 9, 40, &pij, cols) == 0
                  && isnan(pij) && isnan(cols[5]));
            CHECK(score_grid_softmax_at(g, s, 9, 3, &pij, cols) == 0);
            scores_row(s, 9, 1, row);
            CHECK_NEAR(pij, row[3], 1e-12);
            CHECK_NEAR(cols[2], (row[8] + row[9]) / 2, 1e-12);
        }
        score_grid_free(g);
        scores_free(s);
    }
}

/* The four terms of the split add up to the cell; e.p is p.e transposed. */
static void test_split(void)
{
    struct dims p = P(8, 10000, 40);
    for (int causal = 0; causal < 2; causal++) {
        struct score_opts o = O(SCHEME_LEARNED);
        o.content = 1;
        o.causal = causal;
        struct score_ctx *s = NEW(&p, &o, NULL);
        struct grid_req r = { 0, 0, 3, 14, 14, 1 };
        struct score_grid *g = score_grid_new();
        enum grid_status st;
        grid_run(g, s, &r, GRID_SLICE, &st);
        CHECK(st == GRID_DONE && s->nterms == 4);
        int ok = 1, transposed = 1;
        for (int row = 0; row < 14; row++)
            for (int c = 0; c < 14; c++) {
                double sum = 0;
                for (int t = 0; t < 4; t++)
                    sum += score_grid_term(g, t, row, c);
                double v = score_grid_cell(g, row, c);
                ok &= isnan(v) ? isnan(sum) : fabs(sum - v) < 1e-9;
                if (!causal)
                    transposed &= fabs(score_grid_term(g, 1, row, c)
                                       - score_grid_term(g, 2, c, row)) < 1e-12;
            }
        CHECK(ok);
        CHECK(transposed);
        score_grid_free(g);
        scores_free(s);
    }
}

static void test_softmax_at(void)
{
    struct dims p = P(16, 10000, 300);
    enum scheme sc[] = { SCHEME_SINUSOIDAL, SCHEME_LEARNED, SCHEME_ALIBI };
    double row[300], cols[30];
    for (int m = 0; m < 3; m++)
        for (int causal = 0; causal < 2; causal++) {
            struct score_opts o = O(sc[m]);
            o.softmax = 1;
            o.causal = causal;
            o.temperature = 1;
            struct score_ctx *s = NEW(&p, &o, NULL);
            struct grid_req r = { 0, 0, 10, 30, 30, 0 };
            struct score_grid *g = score_grid_new();
            enum grid_status st;
            grid_run(g, s, &r, GRID_SLICE, &st);
            CHECK(st == GRID_DONE);
            int64_t is[] = { 0, 77, 299 };
            for (int t = 0; t < 3; t++) {
                double pij;
                scores_row(s, is[t], 1, row);
                CHECK(score_grid_softmax_at(g, s, is[t], 150, &pij, cols) == 0);
                CHECK_NEAR(pij, row[150], 1e-12);
                double m0 = 0;
                for (int j = 20; j < 30; j++)
                    m0 += row[j] / 10;
                CHECK_NEAR(cols[2], m0, 1e-12);
            }
            score_grid_free(g);
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
    struct dims p = P(512, 10000, 64);
    for (int causal = 0; causal < 2; causal++) {
        struct score_opts o = O(SCHEME_ROPE);
        o.q_random = 1;
        o.softmax = 1;
        o.causal = causal;
        struct score_ctx *s = NEW(&p, &o, NULL);
        struct grid_req r = { 0, 0, 4, 16, 16, 0 };
        CHECK(grid_matches(s, &r, GRID_SLICE, 1e-9));
        scores_free(s);
    }
}

static void test_limits(void)
{
    /* far too many learned entries to sum: refused with a reason */
    struct dims p = P(512, 10000, INT64_C(1) << 20);
    struct score_opts o = O(SCHEME_LEARNED);
    struct score_ctx *s = NEW(&p, &o, NULL);
    struct grid_req r = { 0, 0, (INT64_C(1) << 20) / 32, 32, 32, 0 };
    grid_refused(s, &r, "limit");
    scores_free(s);
}

/* The largest case: 2^20 positions, d_model 4096, closed forms only. */
static void test_large(void)
{
    int64_t n = INT64_C(1) << 20;
    struct dims p = P(4096, 10000, n);
    struct score_opts o = O(SCHEME_SINUSOIDAL);
    struct score_ctx *s = NEW(&p, &o, NULL);
    int64_t k = (n + 39) / 40;
    struct grid_req r = { 0, 0, k, 40, 40, 0 };
    struct score_grid *g = score_grid_new();
    enum grid_status st;
    grid_run(g, s, &r, GRID_SLICE, &st);
    CHECK(st == GRID_DONE);
    int cells[][2] = { {0, 0}, {3, 17}, {39, 39}, {39, 0} };
    for (int t = 0; t < 4; t++) {
        int64_t i0 = cells[t][0] * k, j0 = cells[t][1] * k;
        int64_t i1 = i0 + k < n ? i0 + k : n, j1 = j0 + k < n ? j0 + k : n;
        CHECK_NEAR(score_grid_cell(g, cells[t][0], cells[t][1]),
                   pe_score_block_mean(i0, i1, j0, j1, s->omega, s->half),
                   1e-9);
    }
    score_grid_free(g);
    scores_free(s);
}

/* Softmax past the offset table's limit: the cells are streamed
 * (peviz/soft_stream.h).  Zoomed windows, the cut last column and the
 * causal mask against the export's rows (scores_row, as --export softmax
 * prints them), one cell against a long-double sum from the definition,
 * and a new job's first slice doing half the work of the next. */
static long double direct_cell(const struct score_ctx *s, int64_t i0,
                               int64_t i1, int64_t j0, int64_t j1)
{
    /* e(delta) for delta = i - j over [i0 - (n-1), i1 - 1], once */
    int64_t lo = i0 - (s->n - 1), len = i1 - lo;
    long double sum = 0, w[16], *e = malloc((size_t)len * sizeof *e);
    for (int k = 0; k < s->d / 2; k++)
        w[k] = powl(s->base, -2.0L * k / s->d);
    for (int64_t x = 0; x < len; x++) {
        long double t = 0;
        for (int k = 0; k < s->d / 2; k++)
            t += cosl((long double)(lo + x) * w[k]);
        e[x] = expl(t - s->d / 2);
    }
    for (int64_t i = i0; i < i1; i++) {
        long double z = 0, win = 0;
        for (int64_t j = 0; j < (s->o.causal ? i + 1 : s->n); j++) {
            z += e[i - j - lo];
            if (j >= j0 && j < j1)
                win += e[i - j - lo];
        }
        sum += win / z;
    }
    free(e);
    return sum / ((long double)(i1 - i0) * (long double)(j1 - j0));
}

/* The worst relative error of a grid's cells against the means of the
 * export's rows (each row made once); *open counts the cells shown. */
static double export_worst(const struct score_ctx *s,
                           const struct score_grid *g,
                           const struct grid_req *r, int *open)
{
    int64_t n = s->n, k = r->k;
    double *row = malloc((size_t)n * sizeof *row), worst = 0;
    *open = 0;
    for (int rr = 0; rr < r->rows; rr++) {
        double sum[16] = { 0 };
        int64_t i0 = r->i0 + rr * k, i1 = i0 + k < n ? i0 + k : n;
        for (int64_t i = i0; i < i1; i++) {
            scores_row(s, i, 1, row);
            for (int c = 0; c < r->cols; c++)
                for (int64_t j = r->j0 + c * k; j < r->j0 + (c + 1) * k
                                                && j < n; j++)
                    sum[c] += row[j];
        }
        for (int c = 0; c < r->cols; c++) {
            int64_t j0 = r->j0 + c * k, j1 = j0 + k < n ? j0 + k : n;
            double got = score_grid_cell(g, rr, c);
            if ((scores_future_hidden(&s->o) && j0 > i1 - 1)
                || scores_block_hidden(&s->o, i0, i1, j0, j1)) {
                CHECK(isnan(got));
                continue;
            }
            double want = sum[c] / ((double)(i1 - i0) * (double)(j1 - j0));
            (*open)++;
            worst = fmax(worst, fabs(got - want) / want);
        }
    }
    free(row);
    return worst;
}

static void test_stream(void)
{
    int64_t n = (INT64_C(1) << 20) + 5, k = 4;
    for (int causal = 0; causal <= 1; causal++) {
        struct dims p = P(8, 10000, n);
        struct score_opts o = O(SCHEME_SINUSOIDAL);
        o.softmax = 1;
        o.causal = causal;
        struct score_ctx *s = NEW(&p, &o, NULL);
        struct grid_req rs[2] = {
            { 300000, 299980, k, 2, 9, 0 },           /* near the diagonal */
            { n / k * k - 4, n / k * k - 8, k, 2, 3, 0 },   /* cut last */
        };
        for (int q = 0; q < 2; q++) {
            struct grid_req *r = &rs[q];
            struct score_grid *g = score_grid_new();
            enum grid_status st;
            CHECK(grid_run(g, s, r, GRID_SLICE, &st) > 2);
            CHECK(st == GRID_DONE);
            int open;
            double worst = export_worst(s, g, r, &open);
            CHECK(open >= 3);
            CHECK_NEAR(worst, 0, 1e-10);
            if (q == 0 && !causal) {  /* the diagonal cell, long double */
                long double want = direct_cell(s, 300000, 300004, 300000,
                                               300004);
                CHECK_NEAR((double)((score_grid_cell(g, 0, 5) - want) / want),
                           0, 1e-10);
            }
            double pij, cols[9];
            CHECK(score_grid_softmax_at(g, s, 300001, 300001, &pij, cols)
                  == -1);
            score_grid_free(g);
        }
        scores_free(s);
    }
    /* n = 2^24: taken on, not refused; the first slice is half the next */
    struct dims p = P(64, 10000, INT64_C(1) << 24);
    struct score_opts o = O(SCHEME_SINUSOIDAL);
    o.softmax = 1;
    struct score_ctx *s = NEW(&p, &o, NULL);
    int64_t kk = (INT64_C(1) << 24) / 100;
    struct grid_req r = { 0, 0, kk, 100, 100, 0 };
    struct score_grid *g = score_grid_new();
    double p1, p2;
    char why[192] = "";
    CHECK(score_grid_update(g, s, &r, GRID_SLICE, &p1, why, sizeof why)
          == GRID_BUSY);
    CHECK(score_grid_update(g, s, &r, GRID_SLICE, &p2, why, sizeof why)
          == GRID_BUSY);
    CHECK(p1 > 0 && p2 - p1 > 1.5 * p1);
    CHECK(why[0] == 0);
    score_grid_free(g);
    scores_free(s);
}

/* Softmax under a window, a chunk and a sink, at n the rows one by one
 * refused (8192 at d_model 64: some 2^32 products) and past the offset
 * table's limit: every cell against the means of the export's rows, the
 * cursor's row against the export's, and a chunk the band cannot hold
 * refused with a reason. */
struct masked_case {
    enum scheme sc;
    int64_t n, window, chunk;
    double sink;
    int causal;
    struct grid_req r;
};

static void test_masked(void)
{
    int64_t big = (INT64_C(1) << 20) + 5;
    const struct masked_case cs[] = {
        { SCHEME_SINUSOIDAL, 8192, 4096, 0, -INFINITY, 0,
          { 6016, 1664, 64, 4, 16, 0 } },         /* the window's edge */
        { SCHEME_SINUSOIDAL, 8192, 0, 1000, -INFINITY, 0,
          { 1984, 1792, 64, 4, 8, 0 } },          /* a chunk starts at 2000 */
        { SCHEME_ROPE, 8192, 300, 2048, 2.0, 0,
          { 1792, 1536, 64, 6, 8, 0 } },          /* both, and a sink */
        { SCHEME_ALIBI, 8192, 0, 0, 1.0, 0,
          { 0, 0, 512, 6, 16, 0 } },              /* a sink, both sides */
        { SCHEME_SINUSOIDAL, 8192, 0, 0, 30.0, 1,
          { 0, 0, 512, 6, 16, 0 } },              /* a sink, causal */
        { SCHEME_SINUSOIDAL, big, (INT64_C(1) << 20) + 2, 0, 3.0, 0,
          { INT64_C(1) << 20, 0, 4, 2, 3, 0 } },  /* streamed: too wide */
    };
    for (size_t t = 0; t < sizeof cs / sizeof cs[0]; t++) {
        const struct masked_case *m = &cs[t];
        struct dims p = P(m->sc == SCHEME_ROPE ? 32 : 64, 10000, m->n);
        struct score_opts o = O(m->sc);
        o.softmax = 1;
        o.q_random = 1;
        o.causal = m->causal;
        o.window = m->window;
        o.chunk = m->chunk;
        o.sink = m->sink;
        struct score_ctx *s = NEW(&p, &o, NULL);
        struct score_grid *g = grid_done(s, &m->r);
        int open;
        double worst = export_worst(s, g, &m->r, &open);
        if (worst > 1e-9)
            fprintf(stderr, "masked case %zu: %g\n", t, worst);
        CHECK(open >= 3);
        CHECK_NEAR(worst, 0, 1e-9);
        double pij, cols[16], *row = malloc((size_t)m->n * sizeof *row);
        int64_t i = m->r.i0 + m->r.k + 1, j = i - 3;
        scores_row(s, i, 1, row);
        if (score_grid_softmax_at(g, s, i, j, &pij, cols) == 0) {
            CHECK_NEAR(pij, row[j], 1e-12);
            double mean = 0;
            for (int64_t jj = m->r.j0; jj < m->r.j0 + m->r.k; jj++)
                mean += row[jj] / (double)m->r.k;
            CHECK_NEAR(cols[0], mean, 1e-12);
        } else {
            CHECK(t == 3 || t == 5);     /* streamed: block means only */
        }
        free(row);
        score_grid_free(g);
        scores_free(s);
    }
    struct dims p = P(16, 10000, big);
    struct score_opts o = O(SCHEME_SINUSOIDAL);
    o.softmax = 1;
    o.chunk = (INT64_C(1) << 20) + 1;
    struct score_ctx *s = NEW(&p, &o, NULL);
    struct grid_req r = { 0, 0, big / 40 + 1, 40, 40, 0 };
    grid_refused(s, &r, "chunk");
    scores_free(s);
}

/* Raw scores under a window and a chunk: each cell of a block on the
 * window's edge or across a chunk's start is the mean over the pairs it
 * shows, against the definition (toeplitz_ref.h), and the count of
 * those pairs: windows wider and
 * narrower than a block, chunks inside blocks and many to a block, both
 * at once, a cut last block. */
struct raw_case {
    enum scheme sc;
    int64_t n, window, chunk;
    struct grid_req r;
};

static int ref_shown(const struct score_opts *o, int64_t i, int64_t j)
{
    if (j > i || (o->window > 0 && i - j >= o->window))
        return 0;
    return o->chunk <= 0 || i / o->chunk == j / o->chunk;
}

static double raw_worst(const struct score_ctx *s, const struct grid_req *r,
                        const struct score_grid *g, int *open)
{
    int64_t n = s->n;
    long double *tab = malloc((size_t)(2 * n - 1) * sizeof *tab);
    toeplitz_ref_table(s, tab);
    double worst = 0;
    for (int rr = 0; rr < r->rows; rr++)
        for (int c = 0; c < r->cols; c++) {
            int64_t i0 = r->i0 + rr * r->k, j0 = r->j0 + c * r->k;
            long double sum = 0;
            int64_t cnt = 0;
            for (int64_t i = i0; i < i0 + r->k && i < n; i++)
                for (int64_t j = j0; j < j0 + r->k && j < n; j++)
                    if (ref_shown(&s->o, i, j)) {
                        sum += tab[i - j + n - 1];
                        cnt++;
                    }
            double got = score_grid_cell(g, rr, c);
            CHECK(scores_mask_count(s, i0, i0 + r->k < n ? i0 + r->k : n, j0,
                                    j0 + r->k < n ? j0 + r->k : n)
                  == (double)cnt);
            if (cnt == 0) {
                CHECK(isnan(got));
                continue;
            }
            double want = (double)(sum / cnt);
            (*open)++;
            worst = fmax(worst, fabs(got - want) / fmax(1.0, fabs(want)));
        }
    free(tab);
    return worst;
}

static void test_raw_masked(void)
{
    const struct raw_case cs[] = {
        { SCHEME_SINUSOIDAL, 1000, 37, 0, { 0, 0, 16, 63, 63, 0 } },
        { SCHEME_ROPE, 1000, 0, 100, { 0, 0, 16, 63, 63, 0 } },
        { SCHEME_ALIBI, 1200, 300, 128, { 0, 0, 50, 24, 24, 0 } },
        { SCHEME_SINUSOIDAL, 3000, 5, 0, { 0, 0, 200, 15, 15, 0 } },
        { SCHEME_ROPE, 2000, 0, 16, { 0, 0, 300, 7, 7, 0 } },
        { SCHEME_SINUSOIDAL, 2000, 70, 16, { 330, 264, 33, 12, 12, 0 } },
        { SCHEME_SINUSOIDAL, 1200, 37, 100, { 0, 0, 16, 40, 40, 0 } },
        { SCHEME_ROPE, 1500, 250, 300, { 0, 0, 64, 24, 24, 0 } },
        { SCHEME_ALIBI, 999, 90, 70, { 0, 0, 25, 40, 40, 0 } },
    };
    for (size_t t = 0; t < sizeof cs / sizeof cs[0]; t++) {
        const struct raw_case *m = &cs[t];
        struct dims p = P(m->sc == SCHEME_ROPE ? 32 : 64, 10000, m->n);
        struct score_opts o = O(m->sc);
        o.q_random = m->sc == SCHEME_ROPE;
        o.head = 2;
        o.temperature = (int)(t % 2);
        o.window = m->window;
        o.chunk = m->chunk;
        struct score_ctx *s = NEW(&p, &o, NULL);
        struct score_grid *g = grid_done(s, &m->r);
        int open = 0;
        double worst = raw_worst(s, &m->r, g, &open);
        if (worst > 1e-10)
            fprintf(stderr, "raw masked case %zu: %g\n", t, worst);
        CHECK(open >= 3);
        CHECK_NEAR(worst, 0, 1e-10);
        score_grid_free(g);
        scores_free(s);
    }
}

int main(void)
{
    test_grid();
    test_grid_qk_qscale();
    test_short_table();
    test_split();
    test_softmax_at();
    test_ill_conditioned();
    test_limits();
    test_large();
    test_stream();
    test_masked();
    test_raw_masked();
    TEST_END("test_score_grid");
}
