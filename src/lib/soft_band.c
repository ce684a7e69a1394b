/* SPDX-License-Identifier: ISC */
/*
 * soft_band.c - exact softmax block means under a window, a chunk or a
 * sink from the band's offsets alone (see include/peviz/soft_band.h).
 * Three stages, each in slices: the offsets by spans (scores_span_pair),
 * the shift and the prefix sums, then the shown rows one by one.
 */
#include "peviz/soft_band.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPAN_MAX 16384              /* a span's length */
#define PREFIX_SLICE 65536          /* prefix entries a budget check */
#define UNDER -746.0                /* exp underflows below */
#define TRUST 1e-12                 /* a prefix difference is used down to
                                       this part of the prefix */
/* Work units, about 0.3 ns each on the reference machine (those of
 * peviz/soft_stream.h: a frame's slice of 8e6 is some 2.5 ms). */
#define COST_GEN 29                 /* a span's table entry */
#define SRC_DIV 70                  /* a span pair: m len / SRC_DIV more */
#define COST_PREFIX 40              /* a prefix entry: exp, sums */
#define COST_TREE 3                 /* a node of the tree */
#define COST_ROW 30                 /* a row: Z, its division */
#define COST_COL 25                 /* a column block a row meets */
#define COST_ONE 40                 /* a row inside one block, sink on */
#define COST_RUN 60                 /* a run of rows inside one block */
#define COST_TREE_SUM 200           /* a sum from the tree */

enum { SB_PLAN = 0, SB_TABLE, SB_PREFIX, SB_ROWS, SB_DONE };

struct soft_band {
    struct scores_blocks geo;       /* the blocks shown */
    int64_t B, win, chunk;
    int stage;
    struct score_opts o;            /* the mask */
    double sink, esink, mx;
    int esink_on;                   /* a sink is set */
    double run_hi, run_lo;          /* the prefix pass so far */
    int64_t len;                    /* span length */
    struct scores_span_job *job;
    int64_t next;                   /* the stage's next entry or row */
    double *ph, *pl;                /* [B + 1]: T, then P(t) hi and lo;
                                       ph's block holds every array */
    double *tmp;                    /* [2 len]: a span pair */
    int64_t size;                   /* leaves of the tree: B up to a power
                                       of two */
    double *tree;                   /* [2 size]: sums of E over dyadic
                                       ranges, tree[size + d] = E(d) */
    double *hi, *lo;                /* [rows cols]: weight sums */
    int64_t i1;                     /* the shown rows end here */
    int64_t row_cost, work, done;
};

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* ---- double-double sums ---------------------------------------------------- */

static void dd_add(double *hi, double *lo, double x)
{
    double s = *hi + x, bp = s - *hi;
    *lo += (*hi - (s - bp)) + (x - bp);
    *hi = s;
}

/* E(a) + .. + E(e - 1) from the tree: positive parts only. */
static double tree_sum(const struct soft_band *b, int64_t a, int64_t e)
{
    double sum = 0.0;
    for (a += b->size, e += b->size; a < e; a >>= 1, e >>= 1) {
        if (a & 1)
            sum += b->tree[a++];
        if (e & 1)
            sum += b->tree[--e];
    }
    return sum;
}

/* E(a) + .. + E(e - 1): P(e) - P(a) rounded once, exact but for the
 * prefix's own rounding (some 1e-26 of P(e)), so from the tree when the
 * difference is too small a part of P(e) for that. */
static double band_sum(const struct soft_band *b, int64_t a, int64_t e,
                       int *tree)
{
    double hi = b->ph[e], lo = b->pl[e];
    dd_add(&hi, &lo, -b->ph[a]);
    dd_add(&hi, &lo, -b->pl[a]);
    double d = hi + lo;
    if (d > TRUST * b->ph[e])
        return d;
    (*tree)++;
    return tree_sum(b, a, e);
}

/* ---- the band ---------------------------------------------------------------- */

int64_t soft_band_width(const struct score_ctx *s)
{
    int64_t w = s->n;
    if (s->o.window > 0)
        w = min64(w, s->o.window);
    if (s->o.chunk > 0)
        w = min64(w, s->o.chunk);
    return w;
}

int soft_band_fits(const struct score_ctx *s)
{
    return s->toeplitz && scores_future_hidden(&s->o) && s->n >= 1
           && soft_band_width(s) <= SOFT_BAND_MAX;
}

/* The first key query i sees. */
static int64_t band_lo(const struct soft_band *b, int64_t i)
{
    int64_t lo = b->chunk > 0 ? i - i % b->chunk : 0;
    if (b->win > 0)
        lo = max64(lo, i - b->win + 1);
    return lo;
}

void soft_band_free(struct soft_band *b)
{
    if (!b)
        return;
    scores_span_free(b->job);
    free(b->ph);                /* every array of b */
    free(b);
}

static int64_t pow2_at_least(int64_t v)
{
    int64_t p = 128;
    while (p < v)
        p <<= 1;
    return p;
}

/* A plan for spans of len at m frequencies (peviz/soft_stream.h's). */
static int64_t plan_cost(const struct soft_band *b, int64_t m)
{
    return 384 * b->len + 1440 * m;
}

static int64_t pair_cost(const struct soft_band *b, int64_t m)
{
    return 2 * b->len * COST_GEN + m * b->len / SRC_DIV;
}

/* The rows' work, about: in each row block the rows whose band reaches
 * back past the block's start (some B) one by one, the others in runs
 * (a run a chunk), or one by one at COST_ONE while a sink's rows have
 * bands still growing (a chunk's). */
static int64_t rows_work(const struct soft_band *b)
{
    const struct scores_blocks *g = &b->geo;
    int64_t w = 0;
    for (int64_t rb = g->rb0; rb < g->rb0 + g->rows && rb * g->k < g->n;
         rb++) {
        int64_t len = min64(g->k, g->n - rb * g->k), slow = min64(len, b->B);
        int64_t runs = b->chunk > 0 ? (len - slow) / b->chunk + 1 : 1;
        w += slow * (b->row_cost + COST_TREE_SUM)
             + (b->esink_on && b->chunk > 0 ? (len - slow) * COST_ONE
                                             : runs * COST_RUN);
    }
    return w;
}

/* The whole work: span pairs, the prefix and tree, the rows (the last
 * step makes done the whole, its estimate). */
static int64_t band_work(const struct soft_band *b, int64_t m)
{
    int64_t pairs = (b->B + 2 * b->len - 1) / (2 * b->len);
    return plan_cost(b, m) + pairs * pair_cost(b, m)
           + (b->B + 1) * COST_PREFIX
           + b->size * COST_TREE + rows_work(b);
}

struct soft_band *soft_band_new(const struct score_ctx *s, int64_t k,
                                int64_t rb0, int rows, int64_t cb0, int cols)
{
    struct soft_band *b = soft_band_fits(s) ? calloc(1, sizeof *b) : NULL;
    if (!b || scores_blocks_set(&b->geo, s, k, rb0, rows, cb0, cols)) {
        free(b);
        return NULL;
    }
    b->o = s->o;
    b->B = soft_band_width(s);
    b->win = s->o.window > 0 ? s->o.window : 0;
    b->chunk = s->o.chunk > 0 ? s->o.chunk : 0;
    b->sink = s->o.sink;
    b->esink_on = scores_sunk(&s->o);
    b->len = min64(SPAN_MAX, pow2_at_least(b->B));
    b->i1 = min64((rb0 + rows) * k, s->n);
    b->row_cost = COST_ROW + COST_COL * min64(cols, (b->B - 1) / k + 2);
    size_t rc = (size_t)rows * (size_t)cols, nb = (size_t)b->B + 1;
    b->size = pow2_at_least(b->B);
    size_t len = (size_t)b->len, size = (size_t)b->size;
    b->ph = calloc(2 * nb + 2 * len + 2 * size + 2 * rc, sizeof *b->ph);
    if (!b->ph) {
        soft_band_free(b);
        return NULL;
    }
    b->pl = b->ph + nb;
    b->tmp = b->pl + nb;
    b->tree = b->tmp + 2 * len;
    b->hi = b->tree + 2 * size;
    b->lo = b->hi + rc;
    b->work = band_work(b, s->half);
    return b;
}

int64_t soft_band_work(const struct soft_band *b) { return b->work; }
int64_t soft_band_done(const struct soft_band *b) { return b->done; }

/* ---- the stages -------------------------------------------------------------- */

/* tau T(delta) for delta in [next, next + 2 len) into ph (the table's
 * x = delta + n - 1). */
static void table_pair(struct soft_band *b, const struct score_ctx *s)
{
    int64_t d0 = b->next, cnt = min64(2 * b->len, b->B - d0);
    int64_t x0 = d0 + b->geo.n - 1;
    scores_span_pair(b->job, s, x0, x0 + b->len, b->tmp,
                     cnt > b->len ? b->tmp + b->len : NULL);
    memcpy(b->ph + d0, b->tmp, (size_t)cnt * sizeof *b->ph);
    b->next += cnt;
    b->done += pair_cost(b, s->half);
}

/* The shift: the largest offset, or the sink when above. */
static void band_shift(struct soft_band *b)
{
    double mx = b->sink;            /* -inf without a sink */
    for (int64_t d = 0; d < b->B; d++)
        mx = b->ph[d] > mx ? b->ph[d] : mx;
    b->mx = mx;
    b->esink = isfinite(b->sink) && b->sink - mx >= UNDER
               ? exp(b->sink - mx) : 0.0;
}

/* E over [next, next + PREFIX_SLICE) into the prefix sums in place:
 * P(d) is written where T(d) was read, the running sum kept between
 * slices; P(B) at the end. */
static void prefix_slice(struct soft_band *b)
{
    int64_t end = min64(b->next + PREFIX_SLICE, b->B);
    double hi = b->run_hi, lo = b->run_lo;
    for (int64_t d = b->next; d < end; d++) {
        double v = b->ph[d] - b->mx, e = v < UNDER ? 0.0 : exp(v);
        b->ph[d] = hi;
        b->pl[d] = lo;
        b->tree[b->size + d] = e;
        dd_add(&hi, &lo, e);
    }
    b->run_hi = hi;
    b->run_lo = lo;
    if (end == b->B) {
        b->ph[end] = hi;
        b->pl[end] = lo;
        for (int64_t v = b->size - 1; v >= 1; v--)
            b->tree[v] = b->tree[2 * v] + b->tree[2 * v + 1];
        b->done += b->size * COST_TREE;
    }
    b->done += (end - b->next) * COST_PREFIX;
    b->next = end;
}

/* The rows from i that see keys of i's block alone, up to the end of
 * the block, of i's chunk or of the shown rows (lo(i) only rises there,
 * so all of them do when i does), or i itself when it does not. */
static int64_t run_end(const struct soft_band *b, int64_t i, int64_t lo)
{
    if (lo / b->geo.k != i / b->geo.k)
        return i;
    int64_t e = min64(b->i1, (i / b->geo.k + 1) * b->geo.k);
    if (b->chunk > 0)
        e = min64(e, i - i % b->chunk + b->chunk);
    return e;
}

/* Rows [i, e) of one block whose keys lie in that block: each puts its
 * whole weight there, Z less the sink's part (1 without a sink), the
 * same for each row once its band is full. */
static int64_t band_run(struct soft_band *b, int64_t i, int64_t lo,
                        int64_t e)
{
    const struct scores_blocks *g = &b->geo;
    int64_t r = i / g->k - g->rb0, c = i / g->k - g->cb0;
    int in = c >= 0 && c < g->cols;
    size_t at = (size_t)r * g->cols + (size_t)(in ? c : 0);
    if (b->esink > 0.0 && i - lo < b->B - 1) {     /* one row */
        int tree = 0;
        double q = band_sum(b, 0, i - lo + 1, &tree);
        if (in)
            dd_add(&b->hi[at], &b->lo[at], q / (q + b->esink));
        b->done += COST_ONE + tree * COST_TREE_SUM;
        return i + 1;
    }
    int tree = 0;
    double q = band_sum(b, 0, i - lo + 1, &tree);
    double mass = b->esink > 0.0 ? q / (q + b->esink) : 1.0;
    if (in)
        dd_add(&b->hi[at], &b->lo[at], (double)(e - i) * mass);
    b->done += COST_RUN + tree * COST_TREE_SUM;
    return e;
}

/* Query i into the weight sums of its row. */
static void band_row(struct soft_band *b, int64_t i)
{
    const struct scores_blocks *g = &b->geo;
    int64_t lo = band_lo(b, i), r = i / g->k - g->rb0;
    int tree = 0;
    double z = band_sum(b, 0, i - lo + 1, &tree) + b->esink;
    int64_t c0 = max64(g->cb0, lo / g->k);
    int64_t c1 = min64(g->cb0 + g->cols - 1, i / g->k);
    double *hi = b->hi + (size_t)r * g->cols;
    double *lw = b->lo + (size_t)r * g->cols;
    for (int64_t cb = c0; cb <= c1; cb++) {
        int64_t ja = max64(cb * g->k, lo), jb = min64(cb * g->k + g->k - 1, i);
        double w = band_sum(b, i - jb, i - ja + 1, &tree) / z;
        dd_add(&hi[cb - g->cb0], &lw[cb - g->cb0], w);
    }
    b->done += b->row_cost + tree * COST_TREE_SUM;
}

/* Some 64 rows (or runs of rows). */
static void rows_slice(struct soft_band *b)
{
    for (int t = 0; t < 64 && b->next < b->i1; t++) {
        int64_t i = b->next, lo = band_lo(b, i), e = run_end(b, i, lo);
        if (e > i) {
            b->next = band_run(b, i, lo, e);
        } else {
            band_row(b, i);
            b->next++;
        }
    }
}

int soft_band_step(struct soft_band *b, const struct score_ctx *s,
                   int64_t *budget)
{
    while (b->stage != SB_DONE) {
        if (*budget <= 0)
            return 1;
        int64_t d0 = b->done;
        if (b->stage == SB_PLAN) {  /* a slice of its own */
            if (!(b->job = scores_span_new(s, b->len)))
                return -1;
            b->done += plan_cost(b, s->half);
            b->stage = SB_TABLE;
            *budget -= b->done - d0;
            return 1;
        } else if (b->stage == SB_TABLE) {
            table_pair(b, s);
            if (b->next >= b->B) {
                band_shift(b);
                b->stage = SB_PREFIX;
                b->next = 0;
                b->run_hi = b->run_lo = 0.0;
            }
        } else if (b->stage == SB_PREFIX) {
            prefix_slice(b);
            if (b->next >= b->B) {
                b->done += COST_PREFIX;
                b->stage = SB_ROWS;
                b->next = min64(b->geo.rb0 * b->geo.k, b->geo.n);
            }
        } else {
            rows_slice(b);
            if (b->next >= b->i1) {
                b->done = b->work;  /* runs cost less than counted */
                b->stage = SB_DONE;
            }
        }
        *budget -= b->done - d0;
    }
    return 0;
}

double soft_band_cell(const struct soft_band *b, int r, int c)
{
    if (b->stage != SB_DONE || r < 0 || c < 0 || r >= b->geo.rows
        || c >= b->geo.cols)
        return NAN;
    int64_t i0, i1, j0, j1;
    scores_blocks_cell(&b->geo, r, c, &i0, &i1, &j0, &j1);
    if (i0 >= b->geo.n || j0 >= b->geo.n || j0 >= i1
        || scores_block_hidden(&b->o, i0, i1, j0, j1))
        return NAN;
    size_t at = (size_t)r * b->geo.cols + c;
    return (b->hi[at] + b->lo[at]) / ((double)(i1 - i0) * (double)(j1 - j0));
}

int soft_band_row(const struct soft_band *b, const struct score_ctx *s,
                  int64_t i, int64_t j, double *p, double *cols_out)
{
    (void)s;
    if (b->stage != SB_DONE || i < 0 || i >= b->geo.n || j < 0
        || j >= b->geo.n)
        return -1;
    int64_t lo = band_lo(b, i);
    int tree = 0;
    double z = band_sum(b, 0, i - lo + 1, &tree) + b->esink;
    *p = j < lo || j > i ? 0.0 : band_sum(b, i - j, i - j + 1, &tree) / z;
    for (int c = 0; cols_out && c < b->geo.cols; c++) {
        int64_t j0 = (b->geo.cb0 + c) * b->geo.k;
        int64_t j1 = min64(j0 + b->geo.k, b->geo.n);
        int64_t ja = max64(j0, lo), jb = min64(j1 - 1, i);
        cols_out[c] = j1 <= j0 ? NAN
                    : ja > jb ? 0.0
                    : band_sum(b, i - jb, i - ja + 1, &tree) / z
                      / (double)(j1 - j0);
    }
    return 0;
}
