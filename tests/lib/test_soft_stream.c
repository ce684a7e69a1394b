/* SPDX-License-Identifier: ISC */
/*
 * test_soft_stream.c - the streamed softmax block means against direct
 * long-double sums over every row, computed here from the definitions
 * (every cell, every Toeplitz scheme, causal or not, zoomed and scrolled
 * windows, cut last blocks, one chunk or many), the masked softmax
 * (a window, a chunk, a sink) of the stream and of the band against a
 * direct double loop over each row's band, and pv_cos_pair against
 * direct cosine sums; all again with PEVIZ_SIMD=sse2 (the two-lane
 * kernels, where the processor would take the four-lane ones).  Links
 * only build/libpeviz.a.
 */
#define _POSIX_C_SOURCE 200809L     /* setenv */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "peviz/nufft.h"
#include "peviz/scores.h"
#include "peviz/soft_band.h"
#include "peviz/soft_stream.h"
#include "toeplitz_ref.h"

static uint64_t rng = 0x2545f4914f6cdd1du;

static double urand(void) { return xs_urand(&rng); }   /* in [-1, 1) */

/* ---- two spans anywhere ------------------------------------------------------ */

static void test_pair(void)
{
    int m = 300;
    double w[300], a[300], b[300], sum = 0;
    for (int k = 0; k < m; k++) {
        w[k] = pow(10000.0, -2.0 * k / 600);
        a[k] = urand();
        b[k] = urand();
        sum += fabs(a[k]) + fabs(b[k]);
    }
    pv_cos_plan *p = pv_cos_new(w, a, b, m, 1024);
    CHECK(pv_cos_span(p) == 1024);
    double f0[1024], f1[1024], worst = 0;
    int64_t c[2] = { -16777000, 9876543 };
    pv_cos_pair(p, c[0], c[1], f0, f1);
    for (int h = 0; h < 2; h++)
        for (int64_t t = -512; t < 512; t += 7) {
            long double v = 0;
            for (int k = 0; k < m; k++) {
                long double x = (long double)(c[h] + t) * w[k];
                v += a[k] * cosl(x) + b[k] * sinl(x);
            }
            double got = h ? f1[t + 512] : f0[t + 512];
            worst = fmax(worst, fabs((double)(v - got)));
        }
    CHECK_NEAR(worst, 0, 1e-13 * sum);
    pv_cos_free(p);
}

/* ---- block means ------------------------------------------------------------- */

struct win {
    int64_t n, k, rb0, cb0, chunk;
    int rows, cols;
};

/* Every cell against the direct means; the worst relative error. */
static double check_cells(struct score_ctx *s, const struct win *g)
{
    int64_t n = g->n;
    long double *tab = malloc((size_t)(2 * n - 1) * sizeof *tab);
    long double *acc = calloc((size_t)g->rows * g->cols, sizeof *acc);
    toeplitz_ref_table(s, tab);
    for (int64_t x = 0; x < 2 * n - 1; x++)
        tab[x] = expl(tab[x]);
    for (int64_t i = 0; i < n; i++) {
        int64_t r = i / g->k - g->rb0, lim = s->o.causal ? i + 1 : n;
        if (r < 0 || r >= g->rows)
            continue;
        long double z = 0;
        for (int64_t j = 0; j < lim; j++)
            z += tab[i - j + n - 1];
        for (int64_t j = 0; j < lim; j++) {
            int64_t c = j / g->k - g->cb0;
            if (c >= 0 && c < g->cols)
                acc[r * g->cols + c] += tab[i - j + n - 1] / z;
        }
    }
    struct soft_stream *st = soft_stream_new_chunk(s, g->k, g->rb0, g->rows,
                                                   g->cb0, g->cols, g->chunk);
    CHECK(st != NULL);
    int steps = 0;
    for (;;) {
        int64_t budget = 20000;
        steps++;
        if (!soft_stream_step(st, s, &budget))
            break;
    }
    CHECK(steps > 1);
    CHECK(soft_stream_done(st) == soft_stream_work(st));
    double worst = 0;
    int open = 0;
    for (int r = 0; r < g->rows; r++)
        for (int c = 0; c < g->cols; c++) {
            int64_t i0 = (g->rb0 + r) * g->k, j0 = (g->cb0 + c) * g->k;
            double v = soft_stream_cell(st, r, c);
            int hidden = i0 >= n || j0 >= n || (s->o.causal && j0 > i0);
            if (hidden) {
                CHECK(isnan(v));
                continue;
            }
            long double area = (long double)((i0 + g->k < n ? i0 + g->k : n)
                                             - i0)
                               * ((j0 + g->k < n ? j0 + g->k : n) - j0);
            long double want = acc[r * g->cols + c] / area;
            open++;
            worst = fmax(worst, fabs((double)((v - want) / want)));
        }
    CHECK(open > 0);
    soft_stream_free(st);
    free(tab);
    free(acc);
    return worst;
}

static void check_scheme(const struct score_opts *o, int d,
                         const struct win *g)
{
    struct score_ctx *s = scores_new(d, 10000, g->n, o, NULL);
    CHECK(s && s->toeplitz);
    double worst = check_cells(s, g);
    if (worst > 1e-10)
        fprintf(stderr, "scheme %d causal %d n %lld k %lld rb0 %lld "
                "cb0 %lld chunk %lld: %g\n", o->scheme, o->causal,
                (long long)g->n, (long long)g->k, (long long)g->rb0,
                (long long)g->cb0, (long long)g->chunk, worst);
    CHECK_NEAR(worst, 0, 1e-10);
    scores_free(s);
}

static void test_cells(void)
{
    const struct win wins[] = {
        { 1000, 37, 0, 0, 0, 28, 28 },      /* whole, cut last blocks */
        { 1500, 300, 0, 0, 128, 5, 5 },     /* chunks of 128, last 44 */
        { 2000, 50, 7, 3, 0, 9, 12 },       /* scrolled and zoomed */
        { 950, 300, 0, 0, 128, 4, 4 },      /* last column 50 < chunk */
        { 1030, 300, 0, 1, 128, 4, 3 },     /* last column 130 >= chunk */
        { 777, 1, 300, 280, 0, 30, 40 },    /* one position a block */
        { 1200, 40, 2, 0, 0, 40, 40 },      /* past n: NAN */
        { 3001, 1500, 0, 0, 0, 3, 3 },      /* products in two passes */
        { 1030, 300, 1, 0, 128, 4, 4 },     /* three rows left, cut last */
        { 1490, 300, 0, 0, 128, 5, 5 },     /* row starts 10 into spans */
        { 1490, 300, 1, 1, 128, 4, 3 },     /* the same, scrolled */
    };
    int nw = (int)(sizeof wins / sizeof wins[0]);
    for (int causal = 0; causal <= 1; causal++)
        for (int wi = 0; wi < nw; wi++) {
            struct score_opts o;
            scores_defaults(&o);
            o.softmax = 1;
            o.causal = causal;
            o.scheme = SCHEME_SINUSOIDAL;
            o.temperature = wi % 2;
            check_scheme(&o, 64, &wins[wi]);
            if (wi > 3)
                continue;
            o.scheme = SCHEME_ROPE;
            o.q_random = wi % 2;
            check_scheme(&o, 128, &wins[wi]);
            o.scheme = SCHEME_ALIBI;
            o.head = 3;
            check_scheme(&o, 32, &wins[wi]);
            o.scheme = SCHEME_NOPE;
            check_scheme(&o, 32, &wins[wi]);
        }
    /* not Toeplitz, or an empty request: no stream */
    struct score_opts o;
    scores_defaults(&o);
    o.content = 1;
    struct score_ctx *s = scores_new(64, 10000, 100, &o, NULL);
    CHECK(soft_stream_new(s, 10, 0, 10, 0, 10) == NULL);
    scores_free(s);
    scores_defaults(&o);
    s = scores_new(64, 10000, 100, &o, NULL);
    CHECK(soft_stream_new(s, 10, 0, 0, 0, 10) == NULL);
    scores_free(s);
}

/* ---- masks ------------------------------------------------------------------ */

/* Key j seen from query i, from the definitions (peviz/scores.h). */
static int ref_seen(const struct score_opts *o, int64_t i, int64_t j)
{
    int fut = o->causal || o->window > 0 || o->chunk > 0;
    if (fut && j > i)
        return 0;
    if (o->window > 0 && i - j >= o->window)
        return 0;
    return o->chunk <= 0 || i / o->chunk == j / o->chunk;
}

/* Direct block sums of the masked softmax, row by row over the keys
 * each row sees, the sink in each denominator; the count of keys seen
 * from each cell's rows into cnt (0: the mask hides the cell). */
static void ref_masked(const struct score_ctx *s, const struct win *g,
                       long double *acc, int64_t *cnt)
{
    int64_t n = g->n;
    long double *tab = malloc((size_t)(2 * n - 1) * sizeof *tab);
    toeplitz_ref_table(s, tab);
    for (int64_t x = 0; x < 2 * n - 1; x++)
        tab[x] = expl(tab[x]);
    long double es = isfinite(s->o.sink) ? expl(s->o.sink) : 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t r = i / g->k - g->rb0;
        if (r < 0 || r >= g->rows)
            continue;
        long double z = es;
        for (int64_t j = 0; j < n; j++)
            if (ref_seen(&s->o, i, j))
                z += tab[i - j + n - 1];
        for (int64_t j = 0; j < n; j++) {
            int64_t c = j / g->k - g->cb0;
            if (c < 0 || c >= g->cols || !ref_seen(&s->o, i, j))
                continue;
            acc[r * g->cols + c] += tab[i - j + n - 1] / z;
            cnt[r * g->cols + c]++;
        }
    }
    free(tab);
}

/* The cells of the band (band) or the stream against ref_masked: the
 * worst relative error; hidden cells NAN. */
static double check_masked(struct score_ctx *s, const struct win *g, int band)
{
    size_t rc = (size_t)g->rows * g->cols;
    long double *acc = calloc(rc, sizeof *acc);
    int64_t *cnt = calloc(rc, sizeof *cnt);
    ref_masked(s, g, acc, cnt);
    struct soft_band *b = band ? soft_band_new(s, g->k, g->rb0, g->rows,
                                               g->cb0, g->cols) : NULL;
    struct soft_stream *st = band ? NULL
        : soft_stream_new_chunk(s, g->k, g->rb0, g->rows, g->cb0, g->cols,
                                g->chunk);
    CHECK(band ? b != NULL : st != NULL);
    int more = 1;
    while (more == 1 && (b || st)) {
        int64_t budget = 20000;
        more = b ? soft_band_step(b, s, &budget)
                 : soft_stream_step(st, s, &budget);
    }
    CHECK(more == 0);
    if (b)
        CHECK(soft_band_done(b) == soft_band_work(b));
    double worst = 0;
    int open = 0;
    for (int r = 0; r < g->rows; r++)
        for (int c = 0; c < g->cols; c++) {
            int64_t i0 = (g->rb0 + r) * g->k, j0 = (g->cb0 + c) * g->k;
            double v = b ? soft_band_cell(b, r, c) : st ? soft_stream_cell(st, r, c)
                                                        : NAN;
            if (cnt[r * g->cols + c] == 0) {
                CHECK(isnan(v));
                continue;
            }
            long double area = (long double)((i0 + g->k < g->n ? i0 + g->k
                                                                : g->n) - i0)
                * ((j0 + g->k < g->n ? j0 + g->k : g->n) - j0);
            long double want = acc[r * g->cols + c] / area;
            open++;         /* below 1e-290: past what E holds (e^-746) */
            worst = fmax(worst, fabs((double)((v - want) / (want + 1e-290L))));
        }
    CHECK(open > 0);
    soft_band_free(b);
    soft_stream_free(st);
    free(acc);
    free(cnt);
    return worst;
}

static void check_mask(const struct score_opts *o, int d, const struct win *g,
                       int band)
{
    struct score_ctx *s = scores_new(d, 10000, g->n, o, NULL);
    CHECK(s && s->toeplitz);
    double worst = check_masked(s, g, band);
    if (worst > 1e-10)
        fprintf(stderr, "%s: scheme %d causal %d window %lld chunk %lld "
                "sink %g n %lld k %lld rb0 %lld cb0 %lld: %g\n",
                band ? "band" : "stream", o->scheme, o->causal,
                (long long)o->window, (long long)o->chunk, o->sink,
                (long long)g->n, (long long)g->k, (long long)g->rb0,
                (long long)g->cb0, worst);
    CHECK_NEAR(worst, 0, 1e-10);
    scores_free(s);
}

/* The stream under a window and a sink (no chunk: the band takes it):
 * windows narrower than a block, across several, wider than n, rows
 * where the window meets the start of the sequence, and sinks below,
 * among and far above the scores. */
static void test_masked_stream(void)
{
    const struct win wins[] = {
        { 1000, 37, 0, 0, 0, 28, 28 },
        { 1500, 300, 0, 0, 128, 5, 5 },
        { 2000, 50, 7, 3, 0, 9, 12 },
        { 777, 1, 300, 280, 0, 30, 40 },
        { 1490, 300, 1, 1, 128, 4, 3 },
    };
    const int64_t widths[] = { 1, 5, 37, 130, 301, 5000 };
    const double sinks[] = { -INFINITY, -4.0, 3.0, 40.0, 900.0 };
    int nw = (int)(sizeof wins / sizeof wins[0]);
    for (int wi = 0; wi < nw; wi++)
        for (int t = 0; t < 6; t++) {
            struct score_opts o;
            scores_defaults(&o);
            o.softmax = 1;
            o.scheme = t % 3 == 2 ? SCHEME_ROPE : SCHEME_SINUSOIDAL;
            o.q_random = t % 2;
            o.temperature = wi % 2;
            o.window = widths[t];
            o.sink = sinks[(wi + t) % 5];
            check_mask(&o, 64, &wins[wi], 0);
            o.window = 0;               /* the sink alone, both ways */
            o.causal = t % 2;
            if (t < 2)
                check_mask(&o, 64, &wins[wi], 0);
        }
}

/* The band under windows, chunks and both, with and without a sink:
 * chunk boundaries inside blocks and on them, chunks narrower than a
 * block, rows where the band meets the start of the sequence or of a
 * chunk, the last chunk cut by n. */
static void test_band(void)
{
    const struct win wins[] = {
        { 1000, 37, 0, 0, 0, 28, 28 },
        { 2000, 50, 7, 3, 0, 9, 12 },
        { 777, 1, 300, 280, 0, 30, 40 },
        { 1200, 40, 2, 0, 0, 40, 40 },      /* past n: NAN */
        { 3001, 1500, 0, 0, 0, 3, 3 },
        { 600, 7, 10, 0, 0, 20, 30 },
    };
    const int64_t wc[][2] = { { 1, 0 }, { 40, 0 }, { 301, 0 }, { 0, 1 },
                              { 0, 16 }, { 0, 37 }, { 0, 100 }, { 0, 333 },
                              { 25, 100 }, { 300, 128 }, { 7, 3 },
                              { 0, 5000 } };
    const double sinks[] = { -INFINITY, 0.0, 2.5, 60.0 };
    int nw = (int)(sizeof wins / sizeof wins[0]);
    int nm = (int)(sizeof wc / sizeof wc[0]);
    for (int wi = 0; wi < nw; wi++)
        for (int m = 0; m < nm; m++) {
            struct score_opts o;
            scores_defaults(&o);
            o.softmax = 1;
            o.scheme = m % 4 == 3 ? SCHEME_ALIBI
                     : m % 4 == 2 ? SCHEME_ROPE : SCHEME_SINUSOIDAL;
            o.q_random = m % 2;
            o.head = 2;
            o.temperature = wi % 2;
            o.window = wc[m][0];
            o.chunk = wc[m][1];
            o.sink = sinks[(wi + m) % 4];
            check_mask(&o, 64, &wins[wi], 1);
        }
    /* causal with a sink: the band is n */
    struct score_opts o;
    scores_defaults(&o);
    o.softmax = 1;
    o.causal = 1;
    o.sink = 1.5;
    check_mask(&o, 32, &wins[1], 1);
    /* what the band does not take: no mask, no future hidden, too wide,
     * not Toeplitz; the stream takes no chunk */
    struct score_ctx *s;
    scores_defaults(&o);
    o.sink = 1.0;
    s = scores_new(64, 10000, 100, &o, NULL);
    CHECK(!soft_band_fits(s) && soft_band_new(s, 10, 0, 10, 0, 10) == NULL);
    scores_free(s);
    o.window = SOFT_BAND_MAX + 1;
    s = scores_new(16, 10000, 2 * SOFT_BAND_MAX, &o, NULL);
    CHECK(soft_band_width(s) == SOFT_BAND_MAX + 1 && !soft_band_fits(s));
    scores_free(s);
    o.window = 0;
    o.chunk = 10;
    s = scores_new(64, 10000, 100, &o, NULL);
    CHECK(soft_stream_new(s, 10, 0, 10, 0, 10) == NULL);
    scores_free(s);
    o.content = 1;
    s = scores_new(64, 10000, 100, &o, NULL);
    CHECK(soft_band_new(s, 10, 0, 10, 0, 10) == NULL);
    scores_free(s);
}

/* n = 2^24: what the stream holds for windows of 20 to 500 blocks a
 * side stays within the 64 MB memory bound (made, not run). */
static void test_bytes(void)
{
    struct score_opts o;
    scores_defaults(&o);
    o.softmax = 1;
    int64_t n = INT64_C(1) << 24;
    struct score_ctx *s = scores_new(4096, 10000, n, &o, NULL);
    int sides[] = { 20, 112, 200, 500 };
    for (int t = 0; t < 4; t++) {
        int b = sides[t];
        struct soft_stream *st = soft_stream_new(s, (n + b - 1) / b, 0, b, 0,
                                                 b);
        CHECK(st != NULL);
        CHECK(soft_stream_bytes(st) > (size_t)b * 1024);
        CHECK(soft_stream_bytes(st) < (size_t)40 << 20);
        soft_stream_free(st);
    }
    scores_free(s);
}

int main(void)
{
    test_pair();
    test_cells();
    test_masked_stream();
    test_band();
    test_bytes();
    setenv("PEVIZ_SIMD", "sse2", 1);
    test_pair();
    test_cells();
    test_masked_stream();
    TEST_END("test_soft_stream");
}
