/* SPDX-License-Identifier: ISC */
/*
 * soft_stream.c - exact softmax block means for large n in bounded memory
 * (see include/peviz/soft_stream.h).
 *
 * Table index x = delta + n - 1, E(x) = exp(tau T(delta) - shift), zero
 * outside [xs, xe) (xs = n - 1 when causal).  Row i = rb k + u sees
 * x in [i, i + n) (causal: [n - 1, i + n)), so with x_m = n + m k:
 *   Z(i)              = sum over [rb k + u, x_rb + u)   (causal [xs, ..))
 *   column block cb   = sum over [x_m + u, x_(m+1) + u), m = rb - cb - 1
 *   the last column   = sum over [rb k + u, x_(rb - cbl) + u) when it is
 *   block cbl, cut    short of k and nothing masks its far part
 * A chunk holds u in [u0, u0 + up).  Each window over the chunk is the
 * end of the span at its start (from u), the pieces in between (first
 * pass), and the start of the span at its end (up to u).  Row starts:
 * rb k = x_(rb - nb) + off (nb = n over k rounded up), so with off small
 * the span of block rb - nb holds them from off ("shared").
 */
#include "peviz/soft_stream.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem_impl.h"
#include "cpu_impl.h"
#include "vexp_impl.h"

#define LEN1 16384                  /* first pass: span length */
#define CHUNK_MAX 16384             /* rows of a block per chunk */
#define ROW_BYTES ((size_t)40 << 20)  /* a chunk's 1/Z, last column, windows */
#define UB 1024                    /* rows of a block per product slice */
/* Work units: about 0.3 ns each on the reference machine, so that the
 * slice of a frame (8e6 units) is some 2.5 ms of work, and less than
 * 8 ms on a machine shared with other work that slows it twofold. */
#define COST_GEN1 29                /* units per table entry: first pass */
#define COST_GEN2 29                /* ... second pass */
#define SRC_DIV 70                  /* a pair of spans of len: m len / SRC_DIV
                                       more for spreading the m sources
                                       (their cache misses grow with len) */
#define COST_INIT 384               /* a plan: units per span entry (its
                                       twiddles, fresh pages) ... */
#define COST_INIT_SRC 1440          /* ... and per frequency (its sources'
                                       weights) */
#define COST_ROW 8                  /* a row's near part: sums, stores */
#define TOUCH ((size_t)4096)        /* doubles of w, h, g first touched */
#define COST_TOUCH 36               /* ... per first-pass span pair, each */
#define HUGE_D ((size_t)1 << 18)    /* doubles of a huge page (2 MB) */
#define COST_HUGE 8000000           /* its first touch, a slice alone: the
                                       system zeroes it (and a virtual
                                       machine's host may back it), 1 to
                                       7 ms here */
#define UNDER -746.0                /* exp underflows below */

/* w against four windows of the same stride at once (products). */
typedef void dot4_fn(const double *w, const double *g, size_t stride,
                     int64_t len, double out[4]);
static dot4_fn *dot4_pick(void);
typedef double dot_fn(const double *a, const double *b, int64_t len);
static dot_fn *dot_pick(void);

enum { ST_INIT = 0, ST_PLAN1, ST_P1, ST_PLAN2, ST_A, ST_B, ST_P, ST_DONE };

struct soft_stream {
    struct scores_blocks geo;       /* the blocks shown */
    int64_t xs, xe;
    int causal;                     /* the future hidden */
    int64_t win;                    /* the window (0: none) */
    double sink, esink;             /* the sink logit (-inf: none), and
                                       exp(sink - shift) in every Z */
    int64_t cbl, L;                 /* cut last column (or -1), its width */
    int64_t nb, off;                /* blocks to n; rb k = x_(rb-nb) + off */
    int64_t m;                      /* frequencies (sources of the spans) */
    dot4_fn *dot4;                  /* the best the processor has */
    dot_fn *dot;
    int shared;                     /* row starts read from block spans */
    int64_t len1, len2, U, nchunk, mlo, mhi;
    struct scores_span_job *j1, *j2;
    int64_t *bp;                    /* breakpoints, sorted, in [xs, xe] */
    int nbp, pi;
    int64_t nbp_max;                /* bp's room */
    double *phi, *plo, *psh;        /* piece sums and shifts, then P(bp) */
    double mx;
    int64_t x;                      /* first pass: next entry */
    int stage, ra, pr;
    int64_t mb0, mb1;               /* second pass: spans m in [mb0, mb1] */
    int64_t c, u0, up, mb, pub;     /* chunk, its rows; next m; products */
    double *buf;                    /* [4 len2], first pass [2 len1] */
    double *pre, *suf, *sufprev;    /* [len2] each */
    double *w, *h;                  /* [rows][U]: 1/Z, cut last column */
    double *g;                      /* [mhi - mlo + 1][U]: windows */
    double *sum;                    /* [rows][cols] */
    size_t big, touched;            /* doubles of w, h, g; first touched */
    size_t bytes;
    int64_t work, done;
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

/* (ah + al) - (bh + bl), rounded */
static double dd_sub(double ah, double al, double bh, double bl)
{
    double hi = ah, lo = al;
    dd_add(&hi, &lo, -bh);
    dd_add(&hi, &lo, -bl);
    return hi + lo;
}

/* ---- geometry ------------------------------------------------------------- */

static int64_t xm(const struct soft_stream *st, int64_t m)
{
    return st->geo.n + m * st->geo.k;
}

static int row_valid(const struct soft_stream *st, int r)
{
    return (st->geo.rb0 + r) * st->geo.k < st->geo.n;
}

/* Whether cell (r, c) is drawn from a window (not hidden, not past n). */
static int cell_open(const struct soft_stream *st, int r, int64_t cb)
{
    int64_t rb = st->geo.rb0 + r, j1 = min64((cb + 1) * st->geo.k, st->geo.n);
    return rb * st->geo.k < st->geo.n && cb * st->geo.k < st->geo.n
           && !(st->causal && cb > rb)
           && !(st->win > 0 && rb * st->geo.k - (j1 - 1) >= st->win);
}

/* a[0..n) (each in [0, max]) in increasing order: a radix sort, 11 bits
 * a pass (qsort took some 2 ms of the first frame at n = 2^24); 0, or -1
 * when out of memory. */
static int sort64(int64_t *a, int n, int64_t max)
{
    int64_t *src = a, *dst = malloc((size_t)(n > 0 ? n : 1) * sizeof *dst);
    if (!dst)
        return -1;
    for (int sh = 0; sh < 63 && (max >> sh) > 0; sh += 11) {
        int cnt[2049] = { 0 };
        for (int i = 0; i < n; i++)
            cnt[((src[i] >> sh) & 2047) + 1]++;
        for (int d = 1; d <= 2048; d++)
            cnt[d] += cnt[d - 1];
        for (int i = 0; i < n; i++)
            dst[cnt[(src[i] >> sh) & 2047]++] = src[i];
        int64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != a) {
        memcpy(a, src, (size_t)n * sizeof *a);
        dst = src;
    }
    free(dst);
    return 0;
}

static void bp_put(struct soft_stream *st, int64_t x)
{
    st->bp[st->nbp++] = x < st->xs ? st->xs : x > st->xe ? st->xe : x;
}

/* The most breakpoints bp_build can put. */
static int64_t bp_max(const struct soft_stream *st)
{
    int64_t per = 2 * (st->mhi - st->mlo + 2) + 3 * (int64_t)st->geo.rows;
    return st->nchunk * per + 2;
}

/* Every place a window of the second pass starts or ends between spans
 * (into bp, of bp_max); 0, or -1 when out of memory. */
static int bp_build(struct soft_stream *st)
{
    st->nbp = 0;
    bp_put(st, st->xs);
    bp_put(st, st->xe);
    for (int64_t c = 0; c < st->nchunk; c++) {
        int64_t u0 = c * st->U, up = min64(st->U, st->geo.k - u0);
        for (int64_t m = st->mlo; m <= st->mhi + 1; m++) {
            bp_put(st, xm(st, m) + u0);
            bp_put(st, xm(st, m) + u0 + up);
        }
        for (int r = 0; r < st->geo.rows; r++) {
            int64_t rb = st->geo.rb0 + r;
            bp_put(st, rb * st->geo.k + u0 + up);
            bp_put(st, xm(st, rb) + u0);
            if (st->cbl >= 0)
                bp_put(st, xm(st, rb - st->cbl) + u0);
        }
    }
    if (sort64(st->bp, st->nbp, st->xe))
        return -1;
    int u = 0;
    for (int i = 0; i < st->nbp; i++)
        if (u == 0 || st->bp[i] != st->bp[u - 1])
            st->bp[u++] = st->bp[i];
    st->nbp = u;
    return 0;
}

/* ---- setup --------------------------------------------------------------- */

void soft_stream_free(struct soft_stream *st)
{
    if (!st)
        return;
    if (st->j2 != st->j1)
        scores_span_free(st->j2);
    scores_span_free(st->j1);
    free(st->bp);
    free(st->w);
    free(st->buf);                  /* and pre, sum, phi after it */
    free(st);
}

/* About what a span job of len holds at m frequencies: grids of 2 len
 * points (the plan's, its pair mode's two, twiddles), each source's
 * weights, the spans. */
static size_t plan_bytes(int64_t len, int m)
{
    return ((size_t)len * 24 + (size_t)m * 64) * sizeof(double);
}

static int64_t pow2_at_least(int64_t v)
{
    int64_t p = 128;
    while (p < v)
        p <<= 1;
    return p;
}

/* Units of the whole job (the counting of soft_stream_step). */
/* Units of one cell's products over len rows: 0.6 a product. */
static int64_t prod_cost(int64_t len)
{
    return (3 * len + 4) / 5;
}

/* Units of setup(): some 40 a breakpoint (made, sorted), 1 a cell, 40
 * a double of buf (its pages' first touch). */
static int64_t setup_cost(const struct soft_stream *st)
{
    int64_t nbuf = max64(4 * st->len2, 2 * st->len1);
    return 40 * st->nbp_max + (int64_t)st->geo.rows * st->geo.cols + 40 * nbuf;
}

/* Units of making a plan for spans of len. */
static int64_t plan_cost(const struct soft_stream *st, int64_t len)
{
    return COST_INIT * len + COST_INIT_SRC * st->m;
}

/* Units of a pair of spans of len, gen a table entry. */
static int64_t pair_cost(const struct soft_stream *st, int64_t len,
                         int64_t gen)
{
    return 2 * len * gen + st->m * len / SRC_DIV;
}

/* Units of the first touches over p1 span pairs, step by step as
 * p1_step makes them (a fresh huge page a step alone). */
static int64_t touch_work(const struct soft_stream *st, int64_t p1)
{
    int64_t w = 0;
    size_t touched = 0;
    while (p1 > 0 && touched < st->big) {
        int fresh = touched % HUGE_D == 0;
        size_t t = st->big - touched < TOUCH ? st->big - touched : TOUCH;
        w += (int64_t)t * COST_TOUCH + (fresh ? COST_HUGE : 0);
        touched += t;
        p1 -= !fresh;
    }
    return w;
}

static int64_t total_work(const struct soft_stream *st)
{
    int64_t p1 = (st->xe - st->xs + 2 * st->len1 - 1) / (2 * st->len1);
    int64_t w = p1 * pair_cost(st, st->len1, COST_GEN1)
                + plan_cost(st, st->len1) + plan_cost(st, st->len2)
                + setup_cost(st);
    w += touch_work(st, p1);
    int64_t open = 0, valid = 0;
    for (int r = 0; r < st->geo.rows; r++) {
        valid += row_valid(st, r);
        for (int c = 0; c < st->geo.cols; c++)
            open += cell_open(st, r, st->geo.cb0 + c);
    }
    int64_t pb = (st->mb1 - st->mb0 + 2) / 2;
    for (int64_t c = 0; c < st->nchunk; c++) {
        int64_t up = min64(st->U, st->geo.k - c * st->U);
        int64_t pa = st->causal || st->shared ? 0
                   : st->cbl >= 0 && st->L < up ? valid : (valid + 1) / 2;
        w += (pa + pb) * pair_cost(st, st->len2, COST_GEN2)
             + valid * up * COST_ROW;
    }
    for (int64_t c = 0; c < st->nchunk; c++) {
        int64_t up = min64(st->U, st->geo.k - c * st->U);
        for (int64_t ub = 0; ub < up; ub += UB)
            w += open * prod_cost(min64(UB, up - ub));
    }
    return w;
}

/*
 * Row block rb starts at x = rb k = x_(rb - nb) + off, off in [0, k):
 * where off is small, the span of block rb - nb made for the windows
 * holds the row starts too (from off), chunks of len2 - off rows, and
 * phase A makes no spans.  Not with the causal mask (no row starts), a
 * cut last column narrower than a chunk (its sliding windows), or when
 * more spans would be added below the windows' than phase A makes.
 */
static void share(struct soft_stream *st, int64_t valid)
{
    int64_t U = min64(st->len2 - st->off, st->geo.k);
    int64_t lo = st->geo.rb0 - st->nb, ext = max64(0, st->mb0 - lo);
    st->shared = 0;
    if (st->causal || valid < 1 || st->off > st->len2 / 4 || 2 * ext > valid
        || (st->cbl >= 0 && st->L < U))
        return;
    st->shared = 1;
    st->U = U;
    st->mb0 = min64(st->mb0, lo);
}

/* The blocks shown and what follows from them: 0, or -1 when the
 * blocks are out of range (scores_blocks_set). */
static int geometry(struct soft_stream *st, const struct score_ctx *s,
                    int64_t k, int64_t rb0, int rows, int64_t cb0, int cols,
                    int64_t chunk)
{
    const struct scores_blocks *g = &st->geo;
    if (scores_blocks_set(&st->geo, s, k, rb0, rows, cb0, cols))
        return -1;
    st->causal = scores_future_hidden(&s->o);
    st->win = s->o.window > 0 ? min64(s->o.window, g->n) : 0;
    st->sink = s->o.sink;
    st->xs = st->causal ? g->n - 1 : 0;
    /* a window hides the distances from its width on: E is zero there */
    st->xe = st->win > 0 ? g->n - 1 + st->win : 2 * g->n - 1;
    int64_t last = (g->n - 1) / g->k;   /* the last column block */
    st->cbl = -1;
    if (!st->causal && g->n % g->k && last >= g->cb0
        && last < g->cb0 + g->cols) {
        st->cbl = last;
        st->L = g->n - last * g->k;
    }
    st->mlo = g->rb0 - (g->cb0 + g->cols - 1) - 1;
    st->mhi = g->rb0 + g->rows - 1 - g->cb0 - 1;
    if (st->causal)
        st->mlo = max64(st->mlo, -1);
    if (st->mhi < st->mlo)
        st->mhi = st->mlo;
    /* the spans: the windows' blocks, each row's far end (m = rb) and
     * its cut last column's (m = rb - cbl) */
    int64_t valid = 0;
    while (valid < g->rows && (g->rb0 + valid) * g->k < g->n)
        valid++;
    st->mb0 = st->mlo;
    st->mb1 = st->mhi + 1;
    if (valid > 0) {
        st->mb0 = min64(st->mb0, g->rb0 - (st->cbl >= 0 ? st->cbl : 0));
        st->mb1 = max64(st->mb1, g->rb0 + valid - 1);
    }
    st->nb = (g->n + g->k - 1) / g->k;
    st->off = st->nb * g->k - g->n;
    size_t per = (size_t)g->rows * (st->cbl >= 0 ? 2 : 1)
                 + (size_t)(st->mhi - st->mlo + 1);
    int64_t u = chunk >= 128 && chunk <= CHUNK_MAX ? chunk : CHUNK_MAX;
    while (u > 128 && per * (size_t)u * sizeof(double) > ROW_BYTES)
        u >>= 1;
    st->len2 = min64(u, pow2_at_least(g->k));
    st->U = min64(st->len2, g->k);
    share(st, valid);
    st->nchunk = (g->k + st->U - 1) / st->U;
    st->len1 = min64(LEN1, pow2_at_least((st->xe - st->xs + 1) / 2));
    return 0;
}

struct soft_stream *soft_stream_new(const struct score_ctx *s, int64_t k,
                                    int64_t rb0, int rows, int64_t cb0,
                                    int cols)
{
    return soft_stream_new_chunk(s, k, rb0, rows, cb0, cols, 0);
}

struct soft_stream *soft_stream_new_chunk(const struct score_ctx *s,
                                          int64_t k, int64_t rb0, int rows,
                                          int64_t cb0, int cols, int64_t chunk)
{
    if (!s->toeplitz || (s->o.chunk > 0 && s->o.chunk < s->n))
        return NULL;
    struct soft_stream *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    if (geometry(st, s, k, rb0, rows, cb0, cols, chunk)) {
        free(st);
        return NULL;
    }
    st->m = s->half;
    st->dot4 = dot4_pick();
    st->dot = dot_pick();
    size_t U = (size_t)st->U, l2 = (size_t)st->len2;
    size_t nbuf = 4 * l2 > 2 * (size_t)st->len1 ? 4 * l2
                                                : 2 * (size_t)st->len1;
    size_t nrows = (size_t)rows * (st->cbl >= 0 ? 2 : 1);
    size_t nwin = (size_t)(st->mhi - st->mlo + 1);
    size_t ncell = (size_t)rows * (size_t)cols;
    st->big = (nrows + nwin) * U;
    st->nbp_max = bp_max(st);
    size_t nbp = (size_t)st->nbp_max;
    st->bp = malloc(nbp * sizeof *st->bp);
    st->w = pv_big_alloc(st->big * sizeof *st->w);     /* w, h, g */
    /* the small ones apart, in small pages: a huge page first touched
     * costs up to 7 ms here at once, too much for setup()'s slice */
    st->buf = malloc((nbuf + 3 * l2 + ncell + 3 * nbp) * sizeof *st->buf);
    if (!st->bp || !st->w || !st->buf) {    /* none touched yet */
        soft_stream_free(st);
        return NULL;
    }
    st->pre = st->buf + nbuf;
    st->sum = st->pre + 3 * l2;
    st->phi = st->sum + ncell;
    st->suf = st->pre + l2;
    st->sufprev = st->suf + l2;
    st->h = st->cbl >= 0 ? st->w + (size_t)rows * U : NULL;
    st->g = st->w + nrows * U;
    st->x = st->xs;
    st->stage = ST_INIT;
    st->work = total_work(st);
    st->bytes = sizeof *st + (nbuf + 3 * l2 + (nrows + nwin) * U + ncell
                              + 4 * nbp) * sizeof(double)
                + plan_bytes(st->len1, s->half)
                + (st->len2 < st->len1 ? plan_bytes(st->len2, s->half) : 0);
    return st;
}

int64_t soft_stream_work(const struct soft_stream *st) { return st->work; }
int64_t soft_stream_done(const struct soft_stream *st) { return st->done; }
size_t soft_stream_bytes(const struct soft_stream *st) { return st->bytes; }

/* ---- the first pass: piece sums ----------------------------------------- */

static void p1_span(struct soft_stream *st, const struct score_ctx *s)
{
    int64_t x0 = st->x, cnt = min64(2 * st->len1, st->xe - x0);
    double *t = st->buf, lm = -INFINITY;
    scores_span_pair(st->j1, s, x0, x0 + st->len1, t,
                     cnt > st->len1 ? t + st->len1 : NULL);
    for (int64_t u = 0; u < cnt; u++)
        lm = t[u] > lm ? t[u] : lm;
    int p = st->pi;
    if (lm > st->psh[p]) {          /* a larger shift: rescale the piece */
        double f = exp(st->psh[p] - lm);
        st->phi[p] *= f;
        st->plo[p] *= f;
        st->psh[p] = lm;
    }
    pv_exp_shift(t, (size_t)cnt, lm, UNDER);
    double hi = st->phi[p], lo = st->plo[p], f = exp(lm - st->psh[p]);
    for (int64_t u = 0; u < cnt; u++) {
        if (x0 + u >= st->bp[p + 1]) {  /* a new piece, shifted by lm */
            st->phi[p] = hi;
            st->plo[p] = lo;
            while (x0 + u >= st->bp[p + 1])
                st->psh[++p] = lm;
            hi = lo = 0.0;
            f = 1.0;
        }
        dd_add(&hi, &lo, t[u] * f);
    }
    st->phi[p] = hi;
    st->plo[p] = lo;
    st->pi = p;
    st->x += cnt;
}

/* The shift, then the pieces as prefix sums P(bp[i]) in double-double. */
static void p1_finish(struct soft_stream *st)
{
    double mx = st->sink;           /* -inf without a sink */
    for (int i = 0; i + 1 < st->nbp; i++)
        mx = st->psh[i] > mx ? st->psh[i] : mx;
    st->mx = mx;
    st->esink = isfinite(st->sink) && st->sink - mx >= UNDER
                ? exp(st->sink - mx) : 0.0;
    double hi = 0.0, lo = 0.0;
    for (int i = 0; i + 1 < st->nbp; i++) {
        double f = exp(st->psh[i] - mx);
        double v = (st->phi[i] + st->plo[i]) * f;
        st->phi[i] = hi;
        st->plo[i] = lo;
        dd_add(&hi, &lo, v);
    }
    st->phi[st->nbp - 1] = hi;
    st->plo[st->nbp - 1] = lo;
}

static int bp_find(const struct soft_stream *st, int64_t x)
{
    int lo = 0, hi = st->nbp - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (st->bp[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Sum of E over [a, b), both breakpoints (or outside [xs, xe)). */
static double pieces(const struct soft_stream *st, int64_t a, int64_t b)
{
    a = a < st->xs ? st->xs : a > st->xe ? st->xe : a;
    b = b < st->xs ? st->xs : b > st->xe ? st->xe : b;
    if (b <= a)
        return 0.0;
    int ia = bp_find(st, a), ib = bp_find(st, b);
    return dd_sub(st->phi[ib], st->plo[ib], st->phi[ia], st->plo[ia]);
}

/* ---- the second pass ------------------------------------------------------ */

static void to_e(const struct soft_stream *st, int64_t x0, double *e)
{
    int64_t l2 = st->len2, a = min64(max64(st->xs - x0, 0), l2),
            b = min64(max64(st->xe - x0, a), l2);
    memset(e, 0, (size_t)a * sizeof *e);
    pv_exp_shift(e + a, (size_t)(b - a), st->mx, UNDER);
    memset(e + b, 0, (size_t)(l2 - b) * sizeof *e);
}

/* E over two spans of len2 from xa and xb (eb may be NULL). */
static void spans(struct soft_stream *st, const struct score_ctx *s,
                  int64_t xa, int64_t xb, double *ea, double *eb)
{
    int ina = xa + st->len2 > st->xs && xa < st->xe;
    int inb = eb && xb + st->len2 > st->xs && xb < st->xe;
    if (ina || inb)
        scores_span_pair(st->j2, s, ina ? xa : xb, xb, ina ? ea : eb,
                         ina && inb ? eb : NULL);
    if (ina)
        to_e(st, xa, ea);
    else
        memset(ea, 0, (size_t)st->len2 * sizeof *ea);
    if (inb)
        to_e(st, xb, eb);
    else if (eb)
        memset(eb, 0, (size_t)st->len2 * sizeof *eb);
    st->done += pair_cost(st, st->len2, COST_GEN2);
}

/* pre[u] = e[0] + .. + e[u-1], suf[u] = e[u] + .. + e[up-1], u < up:
 * the two running sums in one loop, each waiting only on itself. */
static void pre_suf(int64_t up, const double *e, double *pre, double *suf)
{
    double a = 0.0, b = 0.0;
    for (int64_t u = 0, v = up - 1; u < up; u++, v--) {
        if (pre)
            pre[u] = a;
        a += e[u];
        if (suf) {
            b += e[v];
            suf[v] = b;
        }
    }
}

static double dot(const double *a, const double *b, int64_t len)
{
    double s0 = 0, s1 = 0;
    int64_t i = 0;
    for (; i + 1 < len; i += 2) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
    }
    if (i < len)
        s0 += a[i] * b[i];
    return s0 + s1;
}

/* The cut last column's windows of row r when its width is under the
 * chunk: sliding within one stretch of 2 len2 from the row's start. */
static void last_sliding(const struct soft_stream *st, const double *low,
                         double *h)
{
    double hi = 0.0, lo = 0.0;
    for (int64_t v = 0; v < st->L; v++)
        dd_add(&hi, &lo, low[v]);
    for (int64_t u = 0; u < st->up; u++) {
        h[u] = hi + lo;
        dd_add(&hi, &lo, low[u + st->L]);
        dd_add(&hi, &lo, -low[u]);
    }
}

/* Row r's near parts: Z without the span at its far end (added when the
 * second pass meets that block), and the same for the cut last column. */
static void row_near(struct soft_stream *st, int r, const double *low)
{
    int64_t rb = st->geo.rb0 + r, u0 = st->u0, up = st->up;
    int64_t x0 = rb * st->geo.k + u0;
    double *w = st->w + (size_t)r * st->U;
    st->done += up * COST_ROW;
    if (st->causal) {
        double mid = pieces(st, st->xs, xm(st, rb) + u0);
        for (int64_t u = 0; u < up; u++)
            w[u] = mid;
        return;
    }
    pre_suf(up, low, NULL, st->suf);
    double mid = pieces(st, x0 + up, xm(st, rb) + u0);
    for (int64_t u = 0; u < up; u++)
        w[u] = st->suf[u] + mid;
    if (st->cbl < 0)
        return;
    double *h = st->h + (size_t)r * st->U;
    if (st->L < up) {
        last_sliding(st, low, h);
        return;
    }
    mid = pieces(st, x0 + up, xm(st, rb - st->cbl) + u0);
    for (int64_t u = 0; u < up; u++)
        h[u] = st->suf[u] + mid;
}

/* Phase A: rows r (and r + 1, whose span shares the transform); the
 * next row to do. */
static int phase_a(struct soft_stream *st, const struct score_ctx *s, int r)
{
    int64_t l2 = st->len2, x0 = (st->geo.rb0 + r) * st->geo.k + st->u0;
    double *a = st->buf, *b = st->buf + 2 * l2;
    if (st->causal) {
        row_near(st, r, NULL);
        return r + 1;
    }
    if (st->cbl >= 0 && st->L < st->up) {   /* one stretch of 2 len2 */
        spans(st, s, x0, x0 + l2, a, a + l2);
        row_near(st, r, a);
        return r + 1;
    }
    int two = r + 1 < st->geo.rows && row_valid(st, r + 1);
    spans(st, s, x0, x0 + st->geo.k, a, two ? b : NULL);
    row_near(st, r, a);
    if (two)
        row_near(st, r + 1, b);
    return r + 1 + two;
}

/* Two doubles at a time (GCC and Clang vector extensions; SSE2 on
 * x86-64, whatever the target has elsewhere). */
typedef double v2d __attribute__((vector_size(16)));

static v2d ld2(const double *p)
{
    v2d v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* w against four windows g, g + stride, .. at once: w read once. */
static void dot4(const double *w, const double *g, size_t stride,
                 int64_t len, double out[4])
{
    const double *g0 = g, *g1 = g + stride, *g2 = g1 + stride,
                 *g3 = g2 + stride;
    v2d a0 = { 0, 0 }, a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0,
        b2 = a0, b3 = a0;
    int64_t u = 0;
    for (; u + 3 < len; u += 4) {
        v2d x = ld2(w + u), y = ld2(w + u + 2);
        a0 += x * ld2(g0 + u);
        a1 += x * ld2(g1 + u);
        a2 += x * ld2(g2 + u);
        a3 += x * ld2(g3 + u);
        b0 += y * ld2(g0 + u + 2);
        b1 += y * ld2(g1 + u + 2);
        b2 += y * ld2(g2 + u + 2);
        b3 += y * ld2(g3 + u + 2);
    }
    a0 += b0;
    a1 += b1;
    a2 += b2;
    a3 += b3;
    out[0] = a0[0] + a0[1];
    out[1] = a1[0] + a1[1];
    out[2] = a2[0] + a2[1];
    out[3] = a3[0] + a3[1];
    for (; u < len; u++) {
        out[0] += w[u] * g0[u];
        out[1] += w[u] * g1[u];
        out[2] += w[u] * g2[u];
        out[3] += w[u] * g3[u];
    }
}


#if defined(__x86_64__) && defined(__GNUC__)
/* The same with four doubles a vector, where the processor has AVX2
 * (chosen when the stream is made): half the instructions. */
typedef double v4d __attribute__((vector_size(32)));

#define LD4(v, p) memcpy(&(v), (p), sizeof(v4d))

__attribute__((target("avx2")))
static void dot4_avx2(const double *w, const double *g, size_t stride,
                      int64_t len, double out[4])
{
    const double *g0 = g, *g1 = g + stride, *g2 = g1 + stride,
                 *g3 = g2 + stride;
    v4d a0 = { 0, 0, 0, 0 }, a1 = a0, a2 = a0, a3 = a0;
    int64_t u = 0;
    for (; u + 3 < len; u += 4) {
        v4d x, y0, y1, y2, y3;
        LD4(x, w + u);
        LD4(y0, g0 + u);
        LD4(y1, g1 + u);
        LD4(y2, g2 + u);
        LD4(y3, g3 + u);
        a0 += x * y0;
        a1 += x * y1;
        a2 += x * y2;
        a3 += x * y3;
    }
    out[0] = (a0[0] + a0[1]) + (a0[2] + a0[3]);
    out[1] = (a1[0] + a1[1]) + (a1[2] + a1[3]);
    out[2] = (a2[0] + a2[1]) + (a2[2] + a2[3]);
    out[3] = (a3[0] + a3[1]) + (a3[2] + a3[3]);
    for (; u < len; u++) {
        out[0] += w[u] * g0[u];
        out[1] += w[u] * g1[u];
        out[2] += w[u] * g2[u];
        out[3] += w[u] * g3[u];
    }
}

__attribute__((target("avx2")))
static double dot_avx2(const double *a, const double *b, int64_t len)
{
    v4d s0 = { 0, 0, 0, 0 }, s1 = s0;
    int64_t u = 0;
    for (; u + 7 < len; u += 8) {
        v4d x0, y0, x1, y1;
        LD4(x0, a + u);
        LD4(y0, b + u);
        LD4(x1, a + u + 4);
        LD4(y1, b + u + 4);
        s0 += x0 * y0;
        s1 += x1 * y1;
    }
    s0 += s1;
    double r = (s0[0] + s0[1]) + (s0[2] + s0[3]);
    for (; u < len; u++)
        r += a[u] * b[u];
    return r;
}

static dot4_fn *dot4_pick(void)
{
    return pv_cpu_avx2() ? dot4_avx2 : dot4;
}

static dot_fn *dot_pick(void)
{
    return pv_cpu_avx2() ? dot_avx2 : dot;
}
#else
static dot4_fn *dot4_pick(void)
{
    return dot4;
}

static dot_fn *dot_pick(void)
{
    return dot;
}
#endif

/* Phase B: the span of block m over this chunk.  Shared, from off it
 * is the start of row m + nb - rb0 (its near parts: before anything
 * else of that row).  With the one before, the window G_(m-1); it ends
 * row m - rb0's Z (its far end) and adds to the cut last column of row
 * m + cbl - rb0. */
static void phase_b(struct soft_stream *st, const struct score_ctx *s)
{
    int64_t m = st->mb, u0 = st->u0, up = st->up, l2 = st->len2;
    double *pair = st->buf;
    if ((m - st->mb0) % 2 == 0)
        spans(st, s, xm(st, m) + u0, xm(st, m + 1) + u0, pair,
              m + 1 <= st->mb1 ? pair + l2 : NULL);
    const double *e = pair + ((m - st->mb0) % 2) * l2;
    int64_t r = m + st->nb - st->geo.rb0;
    if (st->shared && r >= 0 && r < st->geo.rows && row_valid(st, (int)r))
        row_near(st, (int)r, e + st->off);  /* its scratch: st->suf */
    pre_suf(up, e, st->pre, st->suf);
    if (m > st->mb0 && m - 1 >= st->mlo && m - 1 <= st->mhi) {
        double *g = st->g + (size_t)(m - 1 - st->mlo) * st->U;
        double mid = pieces(st, xm(st, m - 1) + u0 + up, xm(st, m) + u0);
        for (int64_t u = 0; u < up; u++)
            g[u] = st->sufprev[u] + mid + st->pre[u];
    }
    r = m - st->geo.rb0;
    if (r >= 0 && r < st->geo.rows && row_valid(st, (int)r)) {
        double *w = st->w + (size_t)r * st->U;
        int64_t nrow = min64(st->geo.k, st->geo.n - m * st->geo.k) - u0;
        for (int64_t u = 0; u < up; u++)
            w[u] = u < nrow ? 1.0 / (w[u] + st->pre[u] + st->esink) : 0.0;
    }
    r = m + st->cbl - st->geo.rb0;
    if (st->cbl >= 0 && st->L >= up && r >= 0 && r < st->geo.rows
        && row_valid(st, (int)r)) {
        double *h = st->h + (size_t)r * st->U;
        for (int64_t u = 0; u < up; u++)
            h[u] += st->pre[u];
    }
    double *t = st->sufprev;
    st->sufprev = st->suf;
    st->suf = t;
}

/* Phase P: row r's products over UB rows of its block from pub, four
 * windows at a time where four neighbouring cells take them. */
static void products(struct soft_stream *st, int r)
{
    int64_t rb = st->geo.rb0 + r, ub = st->pub, len = min64(UB, st->up - ub);
    size_t U = (size_t)st->U;
    const double *w = st->w + (size_t)r * U + (size_t)ub;
    double *sum = st->sum + (size_t)r * st->geo.cols;
    for (int c = st->geo.cols - 1; c >= 0; c--) {  /* m = rb - cb - 1 rising */
        int64_t cb = st->geo.cb0 + c;
        if (!cell_open(st, r, cb))
            continue;
        st->done += prod_cost(len);
        if (cb == st->cbl) {
            sum[c] += st->dot(w, st->h + (size_t)r * U + (size_t)ub, len);
            continue;
        }
        int four = c >= 3;
        for (int t = 1; four && t < 4; t++)
            four = cell_open(st, r, cb - t) && cb - t != st->cbl;
        const double *g = st->g + (size_t)(rb - cb - 1 - st->mlo) * U
                          + (size_t)ub;
        if (!four) {
            sum[c] += st->dot(w, g, len);
            continue;
        }
        double v[4];
        st->dot4(w, g, U, len, v);
        for (int t = 0; t < 4; t++)
            sum[c - t] += v[t];
        st->done += 3 * prod_cost(len);
        c -= 3;
    }
}

static void chunk_start(struct soft_stream *st)
{
    st->u0 = st->c * st->U;
    st->up = min64(st->U, st->geo.k - st->u0);
    st->ra = 0;
    st->mb = st->mb0;
    st->pr = 0;
    st->pub = 0;
    st->stage = st->shared ? ST_B : ST_A;
}

/* The breakpoints, the pieces' sums and the cells zeroed; 0, or -1 when
 * out of memory. */
static int setup(struct soft_stream *st)
{
    if (bp_build(st))
        return -1;
    st->plo = st->phi + st->nbp;
    st->psh = st->plo + st->nbp;
    for (int i = 0; i < st->nbp; i++) {
        st->phi[i] = st->plo[i] = 0.0;
        st->psh[i] = -INFINITY;
    }
    memset(st->sum, 0, (size_t)st->geo.rows * st->geo.cols * sizeof *st->sum);
    memset(st->buf, 0, (size_t)(st->pre - st->buf) * sizeof *st->buf);
    return 0;           /* buf's pages first touched here, not in a pass */
}

/* One span pair of the first pass, and a few pages of w, h, g touched. */
static void p1_step(struct soft_stream *st, const struct score_ctx *s)
{
    int fresh = st->touched < st->big && st->touched % HUGE_D == 0;
    if (!fresh) {                   /* a fresh huge page: a step alone */
        p1_span(st, s);
        st->done += pair_cost(st, st->len1, COST_GEN1);
    }
    if (st->touched < st->big) {
        size_t t = st->big - st->touched < TOUCH ? st->big - st->touched
                                                 : TOUCH;
        memset(st->w + st->touched, 0, t * sizeof *st->w);
        st->done += (int64_t)t * COST_TOUCH + (fresh ? COST_HUGE : 0);
        st->touched += t;
    }
    if (st->x >= st->xe)
        st->stage = ST_PLAN2;
}

/* The pieces' prefix sums and the second pass's plan; 0, or -1 when out
 * of memory. */
static int plan2(struct soft_stream *st, const struct score_ctx *s)
{
    p1_finish(st);
    if (st->len2 != st->len1) {     /* the first pass's plan is done with */
        scores_span_free(st->j1);
        st->j1 = NULL;
    }
    st->j2 = st->j1 ? st->j1 : scores_span_new(s, st->len2);
    if (!st->j2)
        return -1;
    memset(st->pre, 0, 3 * (size_t)st->len2 * sizeof *st->pre);
    st->done += plan_cost(st, st->len2);
    st->c = 0;
    chunk_start(st);
    return 0;
}

/* Row pr's products over UB rows of the chunk; then the next chunk. */
static void p_step(struct soft_stream *st)
{
    if (row_valid(st, st->pr))
        products(st, st->pr);
    if (++st->pr == st->geo.rows) {
        st->pr = 0;
        st->pub += UB;
    }
    if (st->pub < st->up)
        return;
    if (++st->c == st->nchunk)
        st->stage = ST_DONE;
    else
        chunk_start(st);
}

/* Whether the next step is dear all at once (a plan made, a huge page
 * first touched) and so begins a slice. */
static int dear(const struct soft_stream *st)
{
    return st->stage == ST_PLAN2
           || (st->stage == ST_P1 && st->touched < st->big
               && st->touched % HUGE_D == 0);
}

int soft_stream_step(struct soft_stream *st, const struct score_ctx *s,
                     int64_t *budget)
{
    int64_t b0 = *budget;
    while (st->stage != ST_DONE) {
        if (*budget <= 0 || (*budget < b0 && dear(st)))
            return 1;
        int64_t d0 = st->done;
        if (st->stage <= ST_PLAN1) {    /* each a slice of its own: their
                                           first pages are dear */
            if (st->stage == ST_INIT ? setup(st)
                : !(st->j1 = scores_span_new(s, st->len1)))
                return -1;
            st->done += st->stage == ST_INIT ? setup_cost(st)
                                             : plan_cost(st, st->len1);
            st->stage++;
            *budget -= st->done - d0;
            return 1;
        } else if (st->stage == ST_P1) {
            p1_step(st, s);
        } else if (st->stage == ST_PLAN2) {     /* a slice alone too */
            if (plan2(st, s))
                return -1;
            *budget -= st->done - d0;
            return 1;
        } else if (st->stage == ST_A) {
            st->ra = row_valid(st, st->ra) ? phase_a(st, s, st->ra)
                                           : st->ra + 1;
            if (st->ra >= st->geo.rows)
                st->stage = ST_B;
        } else if (st->stage == ST_B) {
            phase_b(st, s);
            if (++st->mb > st->mb1)
                st->stage = ST_P;
        } else {
            p_step(st);
        }
        *budget -= st->done - d0;
    }
    return 0;
}

double soft_stream_cell(const struct soft_stream *st, int r, int c)
{
    if (st->stage != ST_DONE || r < 0 || c < 0 || r >= st->geo.rows
        || c >= st->geo.cols || !cell_open(st, r, st->geo.cb0 + c))
        return NAN;
    int64_t i0, i1, j0, j1;
    scores_blocks_cell(&st->geo, r, c, &i0, &i1, &j0, &j1);
    double area = (double)(i1 - i0) * (double)(j1 - j0);
    return st->sum[(size_t)r * st->geo.cols + c] / area;
}
