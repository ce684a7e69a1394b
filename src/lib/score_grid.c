/* SPDX-License-Identifier: ISC */
/*
 * score_grid.c - the cached grid of block cells the attention view
 * draws, computed in slices between frames (see score_grid.h).  The
 * numbers come from libpeviz (peviz/scores.h); this file decides the
 * order of the work, its budget, the progress and what is cached.
 */
#include "peviz/score_grid.h"

#include "peviz/fmt.h"
#include "peviz/soft_band.h"
#include "peviz/soft_stream.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 512               /* dims per pass of the grid (even) */

/* Work units, roughly nanoseconds on the reference machine. */
#define COST_GAUSS 40
#define COST_LEARNED 80
#define COST_TRIG 15
#define COST_EXP 10

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Cost in work units of one entry of kind, position by position. */
static int64_t kind_cost(const struct score_ctx *s, enum score_kind k)
{
    switch (k) {
    case SK_E: return COST_GAUSS;
    case SK_RE: case SK_XQ: case SK_XK: case SK_EG:
        return COST_GAUSS + 2 * COST_TRIG;
    case SK_PL: return s->table ? 1 : COST_LEARNED;
    default: return COST_TRIG;
    }
}


/*
 * What the numbers depend on, besides the request: compared with memcmp,
 * so key_fill zeroes the whole struct (padding too) before setting the
 * fields.  The table pointer stands for the caller's rows, which stay
 * unchanged while loaded.
 */
struct grid_key {
    struct score_opts o;
    int d, heads, head;
    double base;
    uint64_t freq_key;          /* the scaled frequencies (RoPE scaling) */
    int64_t n, train_len, rows;
    const double *table;
};

enum { PH_INIT = 0, PH_VEC, PH_CELLS, PH_FINAL, PH_SOFT, PH_DONE };
enum { SOFT_NONE = 0, SOFT_TABLE, SOFT_DIRECT, SOFT_STREAM, SOFT_BAND };
enum { TAB_EMPTY = 0, TAB_BUILD, TAB_PREFIX, TAB_READY };

/* Prefix sums of exp(tau T(delta) - M) over delta = -(n-1) .. n-1. */
struct soft_table {
    struct grid_key key;        /* softmax set */
    int stage;
    int64_t n, next;
    double *c;                  /* [2n]: c[x] = sum over delta < x - n + 1 */
    struct scores_table_job *job;   /* tau T(delta) by a non-uniform FFT */
    double mx, e0, total;
    double run, comp;           /* the prefix pass so far (Kahan) */
    int ill;                    /* too ill-conditioned for prefix sums */
};

struct score_grid {
    struct grid_key key;
    struct grid_req req;        /* with key: what the cells are for */
    int have_key, phase, status;
    char why[192];
    int64_t work_total, work_done;
    int rows, cols, nterms, need_raw;
    int64_t rb0, cb0, k;        /* first row / column block, block size */
    double *cell, *term;        /* [rows*cols], [nterms*rows*cols] */
    /* blocks: the union of row and column blocks */
    int nblk;
    int64_t *blk;
    int *rslot, *cslot;
    unsigned char *diag;        /* block is both a row and a column */
    int nkind, kslot[SK_COUNT];
    enum score_kind kinds[SK_COUNT];
    int brute;                  /* some kind is summed entry by entry */
    double *vec;                /* [nblk][nkind][CHUNK] sums this chunk */
    double *tri;                /* [nblk][nterms] lower-triangle sums */
    double *pref, *tmp;         /* [nkind][CHUNK] each */
    double *dk;                 /* [half] D_k(w_band) of a full block */
    int chunk, nchunk, bi, r;
    int64_t pos;
    /* softmax */
    int soft;
    struct soft_table tab;
    struct soft_stream *stream; /* n over the table's limit, or a mask */
    struct soft_band *band;     /* a window, a chunk, a sink: the band */
    double *pcell;              /* [rows*cols] */
    double *keys;               /* direct: [n][d] key vectors */
    double *qbuf, *rowbuf, *abuf;
    int64_t kdone, srow;
    /* the cursor row, direct path */
    int64_t cur_i;
    double *cur_row;
};

struct score_grid *score_grid_new(void)
{
    struct score_grid *g = calloc(1, sizeof *g);
    if (g)
        g->cur_i = -1;
    return g;
}

static void raw_free(struct score_grid *g)
{
    free(g->cell); free(g->term); free(g->blk); free(g->rslot);
    free(g->cslot); free(g->diag); free(g->vec); free(g->tri);
    free(g->pref); free(g->tmp); free(g->pcell); free(g->keys);
    free(g->qbuf); free(g->rowbuf); free(g->abuf); free(g->cur_row);
    free(g->dk);
    soft_stream_free(g->stream);
    g->stream = NULL;
    soft_band_free(g->band);
    g->band = NULL;
    g->dk = NULL;
    g->cell = g->term = g->vec = g->tri = g->pref = g->tmp = NULL;
    g->pcell = g->keys = g->qbuf = g->rowbuf = g->abuf = g->cur_row = NULL;
    g->blk = NULL;
    g->rslot = g->cslot = NULL;
    g->diag = NULL;
    g->cur_i = -1;
}

void score_grid_free(struct score_grid *g)
{
    if (!g)
        return;
    raw_free(g);
    free(g->tab.c);
    scores_table_job_free(g->tab.job);
    free(g);
}

static void key_fill(struct grid_key *k, const struct score_ctx *s)
{
    memset(k, 0, sizeof *k);
    k->o = s->o;
    k->d = s->d;
    k->freq_key = s->freq_key;
    k->heads = s->heads;
    k->head = s->head;
    k->base = s->base;
    k->n = s->n;
    k->train_len = s->train_len;
    k->table = s->table;
    k->rows = s->rows;
}

static int key_eq(const struct grid_key *a, const struct grid_key *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

static int req_eq(const struct grid_req *a, const struct grid_req *b)
{
    return a->i0 == b->i0 && a->j0 == b->j0 && a->k == b->k
        && a->rows == b->rows && a->cols == b->cols && a->split == b->split;
}

/* Positions of block b, clipped to n: the positions that have scores
 * (s->rows, below n past a loaded table's end), so blocks past them are
 * empty and their cells NAN. */
static void blk_range(const struct score_grid *g, int64_t b, int64_t n,
                      int64_t *p0, int64_t *p1)
{
    *p0 = min64(b * g->k, n);
    *p1 = min64((b + 1) * g->k, n);
}

/* Give up on this request, saying why and how to get under the limit. */
static void refuse(struct score_grid *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void refuse(struct score_grid *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->why, sizeof g->why, fmt, ap);
    va_end(ap);
    g->status = GRID_REFUSED;
    g->phase = PH_DONE;
}

static void refuse_oom(struct score_grid *g)
{
    snprintf(g->why, sizeof g->why, "out of memory");
    g->status = GRID_REFUSED;
    g->phase = PH_DONE;
}

/* The union of row and column blocks, with each row/col's slot. */
static int blocks_setup(struct score_grid *g)
{
    int rows = g->rows, cols = g->cols;
    g->blk = malloc((size_t)(rows + cols) * sizeof *g->blk);
    g->rslot = malloc((size_t)rows * sizeof *g->rslot);
    g->cslot = malloc((size_t)cols * sizeof *g->cslot);
    g->diag = calloc((size_t)(rows + cols), 1);
    if (!g->blk || !g->rslot || !g->cslot || !g->diag)
        return -1;
    g->nblk = 0;
    for (int r = 0; r < rows; r++) {
        g->rslot[r] = g->nblk;
        g->blk[g->nblk++] = g->rb0 + r;
    }
    for (int c = 0; c < cols; c++) {
        int64_t b = g->cb0 + c;
        if (b >= g->rb0 && b < g->rb0 + rows) {
            g->cslot[c] = (int)(b - g->rb0);
            g->diag[g->cslot[c]] = 1;
        } else {
            g->cslot[c] = g->nblk;
            g->blk[g->nblk++] = b;
        }
    }
    return 0;
}

static void kinds_setup(struct score_grid *g, const struct score_ctx *s)
{
    g->nkind = 0;
    g->brute = 0;
    for (int i = 0; i < SK_COUNT; i++)
        g->kslot[i] = -1;
    for (int t = 0; t < s->nterms; t++) {
        const struct score_term *tm = &s->terms[t];
        if (!SCORES_TERM_OPS(s, t)->vectors)
            continue;
        enum score_kind two[2] = { tm->a, tm->b };
        for (int u = 0; u < 2; u++)
            if (g->kslot[two[u]] < 0) {
                g->kslot[two[u]] = g->nkind;
                g->kinds[g->nkind++] = two[u];
                g->brute |= !scores_kind_closed(two[u]);
            }
    }
}

/* Estimated work of the raw cells; -1 with a reason when over the cap. */
static int64_t raw_work(struct score_grid *g, const struct score_ctx *s)
{
    int64_t positions = 0, w = 0;
    for (int b = 0; b < g->nblk; b++) {
        int64_t p0, p1;
        blk_range(g, g->blk[b], s->rows, &p0, &p1);
        positions += p1 - p0;
    }
    for (int u = 0; u < g->nkind; u++) {
        if (scores_kind_closed(g->kinds[u])) {
            w += (int64_t)g->nblk * s->d * COST_TRIG * 2;
            continue;
        }
        if ((double)positions * s->d > (double)GRID_BRUTE_CAP) {
            char v[32];
            fmt_num((double)positions * s->d, 4, v, sizeof v);
            refuse(g, "the exact cells need embeddings or learned rows summed "
                   "over %s entries, over the limit of 2^28: lower n or "
                   "d_model, or zoom in (+)", v);
            return -1;
        }
        w += positions * s->d * kind_cost(s, g->kinds[u]);
    }
    /* diagonal passes: closed kinds too */
    if (g->brute && scores_future_hidden(&s->o))
        w += positions * s->d * COST_TRIG;
    return w + (int64_t)g->rows * g->cols * s->d * s->nterms / 4;
}

static int raw_setup(struct score_grid *g, const struct score_ctx *s)
{
    size_t rc = (size_t)g->rows * (size_t)g->cols;
    g->cell = malloc(rc * sizeof *g->cell);
    g->term = calloc(rc * (size_t)(s->nterms ? s->nterms : 1),
                     sizeof *g->term);
    if (!g->cell || !g->term || blocks_setup(g))
        return -1;
    kinds_setup(g, s);
    if (!g->need_raw)
        return 0;
    size_t kv = (size_t)(g->nkind ? g->nkind : 1) * CHUNK;
    g->vec = malloc((size_t)g->nblk * kv * sizeof *g->vec);
    g->tri = calloc((size_t)g->nblk * (size_t)(s->nterms ? s->nterms : 1),
                    sizeof *g->tri);
    g->pref = malloc(kv * sizeof *g->pref);
    g->tmp = malloc(kv * sizeof *g->tmp);
    g->dk = malloc((size_t)s->half * sizeof *g->dk);
    if (!g->vec || !g->tri || !g->pref || !g->tmp || !g->dk)
        return -1;
    for (int b = 0; b < s->half; b++)   /* every full block shares these */
        g->dk[b] = pe_dirichlet(g->k, s->omega[b]);
    g->nchunk = (s->d + CHUNK - 1) / CHUNK;
    return 0;
}

static double *vec_at(const struct score_grid *g, int slot, int kslot)
{
    return g->vec + ((size_t)slot * (size_t)g->nkind + (size_t)kslot) * CHUNK;
}

static void chunk_dims(const struct score_grid *g, const struct score_ctx *s,
                       int *k0, int *k1)
{
    *k0 = g->chunk * CHUNK;
    *k1 = *k0 + CHUNK < s->d ? *k0 + CHUNK : s->d;
}

/*
 * One position of a block summed entry by entry.  On a diagonal block
 * (causal) the closed kinds are evaluated too, and every dot term gets
 * a(p) . (sum of b over the block up to p): its lower-triangle sum.
 */
static void block_position(struct score_grid *g, const struct score_ctx *s,
                           int slot, int64_t p, int k0, int k1)
{
    int len = k1 - k0, tri = scores_future_hidden(&s->o) && g->diag[slot];
    for (int u = 0; u < g->nkind; u++) {
        enum score_kind kd = g->kinds[u];
        if (scores_kind_closed(kd) && !tri)
            continue;
        double *v = g->tmp + (size_t)u * CHUNK;
        scores_vec(s, kd, p, k0, k1, v);
        if (!scores_kind_closed(kd)) {
            double *sum = vec_at(g, slot, u);
            for (int i = 0; i < len; i++)
                sum[i] += v[i];
        }
        if (tri) {
            double *pr = g->pref + (size_t)u * CHUNK;
            for (int i = 0; i < len; i++)
                pr[i] += v[i];
        }
    }
    if (!tri)
        return;
    for (int t = 0; t < s->nterms; t++) {
        const struct score_term *tm = &s->terms[t];
        if (!SCORES_TERM_OPS(s, t)->vectors)
            continue;
        g->tri[(size_t)slot * s->nterms + t] +=
            scores_dot(g->tmp + (size_t)g->kslot[tm->a] * CHUNK,
                g->pref + (size_t)g->kslot[tm->b] * CHUNK, len);
    }
}

/* Start a block of the current chunk: closed sums, zeroed brute sums. */
static void block_begin(struct score_grid *g, const struct score_ctx *s,
                        int k0, int k1, int64_t *budget)
{
    int64_t p0, p1;
    blk_range(g, g->blk[g->bi], s->rows, &p0, &p1);
    for (int u = 0; u < g->nkind; u++) {
        double *v = vec_at(g, g->bi, u);
        if (scores_kind_closed(g->kinds[u]) && p1 > p0)
            scores_vec_sum_closed(s, g->kinds[u], p0, p1, k0, k1, v,
                             p1 - p0 == g->k ? g->dk : NULL);
        else
            memset(v, 0, (size_t)(k1 - k0) * sizeof *v);
    }
    memset(g->pref, 0, (size_t)g->nkind * CHUNK * sizeof *g->pref);
    int64_t w = (int64_t)g->nkind * (k1 - k0) * COST_TRIG * 2;
    *budget -= w;
    g->work_done += w;
    g->pos = p0;
}

static int64_t position_cost(const struct score_grid *g,
                             const struct score_ctx *s, int slot, int len)
{
    int64_t c = 0;
    for (int u = 0; u < g->nkind; u++)
        if (!scores_kind_closed(g->kinds[u]))
            c += kind_cost(s, g->kinds[u]);
        else if (scores_future_hidden(&s->o) && g->diag[slot])
            c += COST_TRIG;
    return c * len;
}

/* The block sums of every block for this chunk; 0 when finished. */
static int phase_vec(struct score_grid *g, const struct score_ctx *s,
                     int64_t *budget)
{
    int k0, k1;
    chunk_dims(g, s, &k0, &k1);
    while (g->bi < g->nblk) {
        int64_t p0, p1;
        blk_range(g, g->blk[g->bi], s->rows, &p0, &p1);
        if (g->pos < 0)
            block_begin(g, s, k0, k1, budget);
        if (g->brute) {
            int64_t pc = position_cost(g, s, g->bi, k1 - k0);
            while (g->pos < p1) {
                if (*budget <= 0)
                    return 1;
                block_position(g, s, g->bi, g->pos++, k0, k1);
                *budget -= pc;
                g->work_done += pc;
            }
        }
        g->bi++;
        g->pos = -1;
        if (*budget <= 0 && g->bi < g->nblk)
            return 1;
    }
    return 0;
}

/* Dot products of this chunk into every cell's term sums; 0 when done. */
static int phase_cells(struct score_grid *g, const struct score_ctx *s,
                       int64_t *budget)
{
    int k0, k1;
    chunk_dims(g, s, &k0, &k1);
    size_t rc = (size_t)g->rows * (size_t)g->cols;
    int64_t per_row = (int64_t)g->cols * (k1 - k0) * s->nterms / 4 + 1;
    while (g->r < g->rows) {
        if (*budget <= 0)
            return 1;
        for (int c = 0; c < g->cols; c++)
            for (int t = 0; t < s->nterms; t++) {
                const struct score_term *tm = &s->terms[t];
                if (!SCORES_TERM_OPS(s, t)->vectors)
                    continue;
                g->term[(size_t)t * rc + (size_t)g->r * g->cols + c] +=
                    scores_dot(vec_at(g, g->rslot[g->r], g->kslot[tm->a]),
                        vec_at(g, g->cslot[c], g->kslot[tm->b]), k1 - k0);
            }
        g->r++;
        *budget -= per_row;
        g->work_done += per_row;
    }
    return 0;
}

/* Lower-triangle mean of term t on diagonal slot of m positions. */
static double tri_mean(const struct score_grid *g, const struct score_ctx *s,
                       int t, int slot, int64_t m, struct scores_tri_memo *memo)
{
    double cnt = 0.5 * (double)m * (double)(m + 1), sum;
    if (SCORES_TERM_OPS(s, t)->vectors && g->brute)   /* summed here */
        sum = g->tri[(size_t)slot * s->nterms + t];
    else                                /* the term's row */
        sum = scores_term_tri_sum(s, t, m, &memo[t]);
    return sum / cnt;
}

/* Means, the mask and the temperature: the raw cells as shown. */
static void phase_final(struct score_grid *g, const struct score_ctx *s)
{
    size_t rc = (size_t)g->rows * (size_t)g->cols;
    struct scores_tri_memo memo[SCORES_MAX_TERMS];
    memset(memo, 0, sizeof memo);
    for (int r = 0; r < g->rows; r++) {
        int64_t i0, i1, rb = g->rb0 + r;
        blk_range(g, rb, s->rows, &i0, &i1);
        for (int c = 0; c < g->cols; c++) {
            int64_t j0, j1, cb = g->cb0 + c;
            blk_range(g, cb, s->rows, &j0, &j1);
            size_t at = (size_t)r * g->cols + c;
            int fut = scores_future_hidden(&s->o);
            int hidden = i1 <= i0 || j1 <= j0 || (fut && cb > rb)
                         || scores_block_hidden(&s->o, i0, i1, j0, j1);
            int cut = s->toeplitz && !hidden
                      && scores_mask_partial(&s->o, i0, i1, j0, j1);
            int diag = fut && cb == rb;
            double area = (double)(i1 - i0) * (double)(j1 - j0), total = 0;
            for (int t = 0; t < s->nterms; t++) {
                double *v = &g->term[(size_t)t * rc + at], m;
                if (hidden)
                    m = NAN;
                else if (cut)
                    m = scores_mask_mean(s, t, i0, i1, j0, j1);
                else if (diag)
                    m = tri_mean(g, s, t, g->rslot[r], i1 - i0, memo);
                else if (!SCORES_TERM_OPS(s, t)->vectors)  /* its row */
                    m = scores_term_block_mean(s, t, i0, i1, j0, j1);
                else
                    m = *v / area;
                *v = s->tau * m;
                total += *v;
            }
            g->cell[at] = hidden ? NAN : total;
        }
    }
}

/* ---- softmax: the Toeplitz prefix table ---------------------------------- */

#define PREFIX_SLICE 65536     /* entries of the prefix pass per budget check */

/* The largest tau T(delta) the rows see, then exp(v - mx) summed into
 * prefix sums in place (compensated), PREFIX_SLICE entries at a time;
 * 1 while unfinished. */
static int table_prefix(struct soft_table *tb, int causal, int64_t *budget,
                        int64_t *done)
{
    int64_t n = tb->n;
    if (tb->next == 0) {
        double mx = -INFINITY;
        for (int64_t x = causal ? n : 1; x < 2 * n; x++)
            if (tb->c[x] > mx)
                mx = tb->c[x];
        tb->mx = mx;
        tb->e0 = exp(tb->c[n] - mx);
        tb->run = tb->comp = 0.0;
        tb->next = 1;
        *budget -= 2 * n;
        *done += 2 * n;
    }
    while (tb->next < 2 * n) {
        if (*budget <= 0)
            return 1;
        int64_t end = min64(tb->next + PREFIX_SLICE, 2 * n);
        double run = tb->run, comp = tb->comp, mx = tb->mx;
        for (int64_t x = tb->next; x < end; x++) {
            double v = tb->c[x] - mx;      /* exp underflows below -745 */
            double e = (causal && x < n) || v < -746.0 ? 0.0 : exp(v);
            double y = e - comp, t = run + y;   /* Kahan */
            comp = (t - run) - y;
            run = t;
            tb->c[x] = run;
        }
        tb->run = run;
        tb->comp = comp;
        *budget -= (end - tb->next) * COST_EXP;
        *done += (end - tb->next) * COST_EXP;
        tb->next = end;
    }
    tb->c[0] = 0.0;
    tb->total = tb->run;
    /* Differences of prefix sums lose up to eps * total; a row's sum is at
     * least e0 (delta = 0 is in every row). */
    tb->ill = 2.0 * DBL_EPSILON * tb->total / tb->e0 > 1e-9;
    return 0;
}

/* Build the table in slices; 1 while unfinished.  The job writes
 * tau T(delta) at its t[delta + n - 1], here c[n + delta]: t = c + 1. */
static int table_step(struct soft_table *tb, const struct score_ctx *s,
                      int64_t *budget, int64_t *done)
{
    if (tb->stage == TAB_BUILD) {
        int64_t b0 = *budget;
        int more = scores_table_job_step(tb->job, s, tb->c + 1, budget);
        *done += b0 - *budget;
        if (more)
            return 1;
        tb->stage = TAB_PREFIX;
        tb->next = 0;
    }
    if (tb->stage == TAB_PREFIX) {
        if (*budget <= 0 ||
            table_prefix(tb, scores_future_hidden(&s->o), budget, done))
            return 1;
        tb->stage = TAB_READY;
    }
    return 0;
}

static int64_t table_work(const struct soft_table *tb)
{
    return scores_table_job_work(tb->job) + 2 * tb->n * (COST_EXP + 1);
}

/* A new table for s, keeping the buffers when n is unchanged. */
static int table_start(struct soft_table *tb, const struct score_ctx *s)
{
    struct grid_key k;
    key_fill(&k, s);
    k.o.softmax = 1;
    if (tb->stage != TAB_EMPTY && key_eq(&k, &tb->key))
        return 0;
    if (!tb->c || tb->n != s->n) {
        free(tb->c);
        tb->c = malloc(2 * (size_t)s->n * sizeof *tb->c);
    }
    tb->job = scores_table_job_renew(tb->job, s);
    tb->stage = TAB_EMPTY;
    if (!tb->c || !tb->job)
        return -1;
    tb->key = k;
    tb->n = s->n;
    tb->next = 0;
    tb->ill = 0;
    tb->stage = TAB_BUILD;
    return 0;
}

/* Mean weights of row block r over each column block, from the table. */
static void table_cells_row(struct score_grid *g, const struct score_ctx *s,
                            int r)
{
    const double *c = g->tab.c;
    int64_t n = s->n, i0, i1;
    blk_range(g, g->rb0 + r, n, &i0, &i1);
    double *a = g->abuf, *invz = g->rowbuf;
    for (int64_t i = i0; i < i1; i++)
        invz[i - i0] = 1.0 / (c[i + n] - c[i]);
    for (int b = 0; b <= g->cols; b++) {
        int64_t jb = min64((g->cb0 + b) * g->k, n), off = n - jb;
        a[b] = scores_dot(c + i0 + off, invz, (int)(i1 - i0));
    }
    for (int cc = 0; cc < g->cols; cc++) {
        int64_t j0, j1;
        blk_range(g, g->cb0 + cc, n, &j0, &j1);
        double area = (double)(i1 - i0) * (double)(j1 - j0);
        g->pcell[(size_t)r * g->cols + cc] = (a[cc] - a[cc + 1]) / area;
    }
}

/* ---- softmax: rows one by one (non-Toeplitz schemes) --------------------- */

/* Key vectors of every position, in slices; 1 while unfinished. */
static int keys_step(struct score_grid *g, const struct score_ctx *s,
                     int64_t *budget)
{
    enum score_kind kk[SK_COUNT];
    int nk = scores_side_kinds(s, 1, kk);
    int64_t per = 0;
    for (int u = 0; u < nk; u++)
        per += kind_cost(s, kk[u]) * s->d;
    while (g->kdone < s->rows) {
        if (*budget <= 0)
            return 1;
        scores_side_vec(s, kk, nk, g->kdone, g->keys + (size_t)g->kdone * s->d,
                 g->qbuf + s->d);
        g->kdone++;
        *budget -= per;
        g->work_done += per;
    }
    return 0;
}

/* Softmax row i into out[n] from the key vectors. */
static void direct_row(struct score_grid *g, const struct score_ctx *s,
                       int64_t i, double *out)
{
    enum score_kind qk[SK_COUNT];
    int nq = scores_side_kinds(s, 0, qk);
    int64_t lim = scores_future_hidden(&s->o) ? i + 1 : s->rows;
    scores_side_vec(s, qk, nq, i, g->qbuf, g->qbuf + s->d);
    for (int64_t j = 0; j < lim; j++)
        out[j] = scores_masked(&s->o, i, j) ? -INFINITY
               : s->tau * (scores_dot(g->qbuf, g->keys + (size_t)j * s->d, s->d)
                           + scores_bias(s, i, j));
    pe_softmax_sink(out, (size_t)s->rows, (size_t)lim, s->o.sink);
    for (int64_t j = s->rows; j < s->n; j++)
        out[j] = NAN;               /* no row: missing (scores.h) */
}

static int direct_step(struct score_grid *g, const struct score_ctx *s,
                       int64_t *budget)
{
    int64_t span_end = min64((g->rb0 + g->rows) * g->k, s->rows);
    int64_t per = s->n * (s->d + COST_EXP);
    if (g->srow < 0)
        g->srow = g->rb0 * g->k;
    while (g->srow < span_end) {
        if (*budget <= 0)
            return 1;
        int64_t i = g->srow++;
        int r = (int)(i / g->k - g->rb0);
        direct_row(g, s, i, g->rowbuf);
        for (int c = 0; c < g->cols; c++) {
            int64_t j0, j1;
            blk_range(g, g->cb0 + c, s->rows, &j0, &j1);
            double sum = 0.0;
            for (int64_t j = j0; j < j1; j++)
                sum += g->rowbuf[j];
            g->pcell[(size_t)r * g->cols + c] += sum;
        }
        *budget -= per;
        g->work_done += per;
    }
    return 0;
}

/* Turn weight sums into means; NAN where the mask hides a whole block. */
static void soft_final(struct score_grid *g, const struct score_ctx *s)
{
    for (int r = 0; r < g->rows; r++)
        for (int c = 0; c < g->cols; c++) {
            int64_t i0, i1, j0, j1;
            blk_range(g, g->rb0 + r, s->rows, &i0, &i1);
            blk_range(g, g->cb0 + c, s->rows, &j0, &j1);
            double *v = &g->pcell[(size_t)r * g->cols + c];
            if (i1 <= i0 || j1 <= j0 ||
                (scores_future_hidden(&s->o) && j0 > i1 - 1)
                || scores_block_hidden(&s->o, i0, i1, j0, j1))
                *v = NAN;
            else if (g->soft == SOFT_DIRECT)
                *v /= (double)(i1 - i0) * (double)(j1 - j0);
        }
    memcpy(g->cell, g->pcell,
           (size_t)g->rows * (size_t)g->cols * sizeof *g->cell);
}

/* Query positions of the shown rows. */
static int64_t direct_span(const struct score_grid *g,
                           const struct score_ctx *s)
{
    return max64(min64((g->rb0 + g->rows) * g->k, s->rows) - g->rb0 * g->k,
                 0);
}

/* 1 when the rows one by one are within the limits. */
static int direct_fits(const struct score_grid *g, const struct score_ctx *s)
{
    double keys = (double)s->n * s->d;
    return keys <= (double)GRID_KEYS_CAP
           && (double)direct_span(g, s) * keys <= (double)GRID_DIRECT_CAP;
}

static int direct_setup(struct score_grid *g, const struct score_ctx *s)
{
    int64_t span = direct_span(g, s);
    double keys = (double)s->n * s->d;
    char v[32];
    if (keys > (double)GRID_KEYS_CAP) {
        fmt_num(keys, 4, v, sizeof v);
        refuse(g, "softmax here needs every key row: n x d_model = %s "
               "values, over the limit of 2^21: lower n or d_model", v);
        return -1;
    }
    if ((double)span * keys > (double)GRID_DIRECT_CAP) {
        fmt_num((double)span * keys, 4, v, sizeof v);
        refuse(g, "softmax of every shown row needs %s products, over the "
               "limit of 2^31: zoom in (+) or lower n", v);
        return -1;
    }
    g->keys = malloc((size_t)keys * sizeof *g->keys);
    g->qbuf = malloc(2 * (size_t)s->d * sizeof *g->qbuf);
    free(g->rowbuf);
    g->rowbuf = malloc((size_t)s->n * sizeof *g->rowbuf);
    if (!g->keys || !g->qbuf || !g->rowbuf)
        return -2;
    memset(g->pcell, 0, (size_t)g->rows * g->cols * sizeof *g->pcell);
    g->soft = SOFT_DIRECT;
    g->kdone = 0;
    g->srow = -1;
    g->work_total += (int64_t)keys * COST_GAUSS + span * s->n
                     * (s->d + COST_EXP);
    return 0;
}

/* The band's (band set) or else the stream's means of the grid's
 * blocks: 0, or -2 out of memory. */
static int streamed_setup(struct score_grid *g, const struct score_ctx *s,
                          int band)
{
    if (band)
        g->band = soft_band_new(s, g->k, g->rb0, g->rows, g->cb0, g->cols);
    else
        g->stream = soft_stream_new(s, g->k, g->rb0, g->rows, g->cb0,
                                    g->cols);
    if (band ? !g->band : !g->stream)
        return -2;
    g->soft = band ? SOFT_BAND : SOFT_STREAM;
    g->work_total += band ? soft_band_work(g->band)
                          : soft_stream_work(g->stream);
    return 0;
}

/* A Toeplitz softmax under a window, a chunk or a sink: the band's
 * offsets when they fit (any n), else the stream (a window, a sink: no
 * chunk); 0, -1 refused, -2 out of memory, 1 when neither takes it (a
 * sink over keys on both sides within the direct limits: row by row,
 * which also gives the cursor's row). */
static int masked_setup(struct score_grid *g, const struct score_ctx *s)
{
    if (soft_band_fits(s))
        return streamed_setup(g, s, 1);
    if (s->o.chunk > 0 && s->o.chunk < s->n) {
        refuse(g, "softmax with a chunk needs a band of at most 2^20 keys: "
               "a --chunk or a --window of at most %lld",
               (long long)SOFT_BAND_MAX);
        return -1;
    }
    if (!scores_future_hidden(&s->o) && direct_fits(g, s))
        return 1;
    return streamed_setup(g, s, 0);
}

static int soft_setup(struct score_grid *g, const struct score_ctx *s)
{
    g->pcell = calloc((size_t)g->rows * g->cols, sizeof *g->pcell);
    g->abuf = malloc((size_t)(g->cols + 1) * sizeof *g->abuf);
    g->rowbuf = malloc((size_t)max64(g->k, 1) * sizeof *g->rowbuf);
    if (!g->pcell || !g->abuf || !g->rowbuf)
        return -2;
    if (s->toeplitz && (scores_banded(&s->o) || scores_sunk(&s->o))) {
        int e = masked_setup(g, s);
        if (e <= 0)
            return e;
    }
    if (scores_banded(&s->o) || scores_sunk(&s->o))     /* row by row */
        return direct_setup(g, s);
    if (s->toeplitz && s->n <= GRID_TABLE_MAX_N) {
        if (table_start(&g->tab, s))
            return -2;
        g->soft = SOFT_TABLE;
        if (g->tab.stage != TAB_READY)
            g->work_total += table_work(&g->tab);
        g->work_total += min64((g->rb0 + g->rows) * g->k, s->n)
                         * (g->cols + 1);
        g->r = 0;
        return 0;
    }
    if (s->toeplitz)                /* n over the table's limit */
        return streamed_setup(g, s, 0);
    return direct_setup(g, s);
}

/* The work the band or the stream has done so far. */
static int64_t streamed_done(const struct score_grid *g)
{
    return g->soft == SOFT_BAND ? soft_band_done(g->band)
                                : soft_stream_done(g->stream);
}

static double streamed_cell(const struct score_grid *g, int r, int c)
{
    return g->soft == SOFT_BAND ? soft_band_cell(g->band, r, c)
                                : soft_stream_cell(g->stream, r, c);
}

/* The band's or the stream's means, slice by slice, into pcell when
 * done. */
static int streamed_step(struct score_grid *g, const struct score_ctx *s,
                         int64_t *budget)
{
    int64_t d0 = streamed_done(g);
    int more = g->soft == SOFT_BAND ? soft_band_step(g->band, s, budget)
                                    : soft_stream_step(g->stream, s, budget);
    g->work_done += streamed_done(g) - d0;
    if (more)
        return more > 0 ? 1 : -2;
    for (int r = 0; r < g->rows; r++)
        for (int c = 0; c < g->cols; c++)
            g->pcell[(size_t)r * g->cols + c] = streamed_cell(g, r, c);
    return 0;
}

static int soft_step(struct score_grid *g, const struct score_ctx *s,
                     int64_t *budget)
{
    if (g->soft == SOFT_BAND || g->soft == SOFT_STREAM)
        return streamed_step(g, s, budget);
    if (g->soft == SOFT_TABLE) {
        if (g->tab.stage != TAB_READY
            && table_step(&g->tab, s, budget, &g->work_done))
            return 1;
        if (g->tab.ill) {           /* fall back to rows one by one */
            int r = direct_setup(g, s);
            if (r)
                return r;
            return 1;
        }
        while (g->r < g->rows) {
            if (*budget <= 0)
                return 1;
            table_cells_row(g, s, g->r);
            int64_t w = g->k * (g->cols + 1);
            *budget -= w;
            g->work_done += w;
            g->r++;
        }
        return 0;
    }
    if (keys_step(g, s, budget))
        return 1;
    return direct_step(g, s, budget);
}

/* ---- the driver ---------------------------------------------------------- */

static int score_grid_start(struct score_grid *g, const struct score_ctx *s,
                            const struct grid_req *r)
{
    raw_free(g);
    g->status = GRID_BUSY;
    g->why[0] = 0;
    g->work_done = g->work_total = 0;
    g->rows = r->rows > 0 ? r->rows : 1;
    g->cols = r->cols > 0 ? r->cols : 1;
    g->k = r->k > 0 ? r->k : 1;
    g->rb0 = r->i0 / g->k;
    g->cb0 = r->j0 / g->k;
    g->nterms = s->nterms;
    g->need_raw = !s->o.softmax || r->split;
    g->chunk = g->bi = g->r = 0;
    g->pos = -1;
    g->soft = SOFT_NONE;
    if (raw_setup(g, s))
        return -2;
    if (g->need_raw) {
        int64_t w = raw_work(g, s);
        if (w < 0)
            return -1;
        g->work_total += w;
    }
    if (s->o.softmax)
        return soft_setup(g, s);
    return 0;
}

/*
 * The whole raw grid at once when every dot term is the sinusoidal p.p or
 * the RoPE q.k score: these depend on i - j only, so the block means
 * come from pe_toeplitz_cells in (rows + cols) d/2 rotations instead of
 * rows x cols x d products.  Returns 0 when done, -1 when this grid is
 * not of that kind (or out of memory): the general path then runs.
 */
static int raw_toeplitz(struct score_grid *g, const struct score_ctx *s)
{
    size_t rc = (size_t)g->rows * (size_t)g->cols;
    int ok = !g->brute;
    for (int t = 0; t < s->nterms && ok; t++) {
        const struct score_term *tm = &s->terms[t];
        ok = !SCORES_TERM_OPS(s, t)->vectors
             || (tm->a == SK_PSIN && tm->b == SK_PSIN)
             || (tm->a == SK_RQ && tm->b == SK_RK);
    }
    double *work = ok ? malloc(sizeof *work * (size_t)(2 * (g->rows + g->cols)
                                                       + 2 * s->half)) : NULL;
    if (!work)
        return -1;
    for (int t = 0; t < s->nterms; t++) {
        const struct score_term *tm = &s->terms[t];
        double *v = g->term + (size_t)t * rc;
        if (!SCORES_TERM_OPS(s, t)->vectors)
            continue;
        int rope = tm->a == SK_RQ;
        pe_toeplitz_cells(s->omega, rope ? s->ra : NULL, rope ? s->rb : NULL,
                          s->half, s->n, g->k, g->rb0, g->rows, g->cb0,
                          g->cols, v, work);
        for (int r = 0; r < g->rows; r++)       /* phase_final wants sums */
            for (int c = 0; c < g->cols; c++) {
                int64_t i0, i1, j0, j1;
                blk_range(g, g->rb0 + r, s->n, &i0, &i1);
                blk_range(g, g->cb0 + c, s->n, &j0, &j1);
                v[(size_t)r * g->cols + c] *= (double)(i1 - i0)
                                              * (double)(j1 - j0);
            }
    }
    free(work);
    g->work_done = g->work_total;
    phase_final(g, s);
    return 0;
}

static int raw_step(struct score_grid *g, const struct score_ctx *s,
                    int64_t *budget)
{
    if (g->chunk == 0 && g->phase == PH_VEC && g->bi == 0 && g->pos < 0
        && raw_toeplitz(g, s) == 0)
        return 0;
    while (g->chunk < g->nchunk) {
        if (g->phase == PH_VEC) {
            if (phase_vec(g, s, budget))
                return 1;
            g->phase = PH_CELLS;
            g->r = 0;
        }
        if (phase_cells(g, s, budget))
            return 1;
        g->chunk++;
        g->bi = 0;
        g->pos = -1;
        g->phase = PH_VEC;
    }
    phase_final(g, s);
    return 0;
}

enum grid_status score_grid_update(struct score_grid *g,
                                   const struct score_ctx *s,
                                   const struct grid_req *r, int64_t budget,
                                   double *progress, char *why, size_t whylen)
{
    struct grid_key k;
    key_fill(&k, s);
    if (!g->have_key || !key_eq(&k, &g->key) || !req_eq(r, &g->req)) {
        g->key = k;
        g->req = *r;
        g->have_key = 1;
        int e = score_grid_start(g, s, r);
        if (e == -2) {
            g->have_key = 0;
            refuse_oom(g);
        }
        g->phase = g->status == GRID_REFUSED ? PH_DONE
                 : g->need_raw ? PH_VEC : PH_SOFT;
        /* the first slice also pays the setup (buffers, their first
         * touch), which is not counted: half the work keeps its frame
         * as short as the others */
        budget /= 2;
    }
    if (g->phase == PH_VEC || g->phase == PH_CELLS) {
        if (raw_step(g, s, &budget) == 0)
            g->phase = s->o.softmax ? PH_SOFT : PH_DONE;
        if (g->phase == PH_SOFT)
            g->r = 0;
    }
    if (g->phase == PH_SOFT) {
        int e = soft_step(g, s, &budget);
        if (e == 0) {
            soft_final(g, s);
            g->phase = PH_DONE;
        } else if (e < 0) {
            if (e == -2)
                refuse_oom(g);
            g->phase = PH_DONE;
        }
    }
    if (g->phase == PH_DONE && g->status != GRID_REFUSED)
        g->status = GRID_DONE;
    if (progress)
        *progress = g->status == GRID_DONE ? 1.0
                  : g->work_total > 0 ? (double)g->work_done
                                        / (double)g->work_total : 0.0;
    if (progress && *progress > 0.999 && g->status == GRID_BUSY)
        *progress = 0.999;
    if (why && whylen)
        snprintf(why, whylen, "%s", g->why);
    return (enum grid_status)g->status;
}

double score_grid_cell(const struct score_grid *g, int r, int c)
{
    if (g->status != GRID_DONE || r < 0 || c < 0 || r >= g->rows
        || c >= g->cols)
        return NAN;
    return g->cell[(size_t)r * g->cols + c];
}

double score_grid_term(const struct score_grid *g, int t, int r, int c)
{
    if (g->status != GRID_DONE || !g->need_raw || t < 0 || t >= g->nterms
        || r < 0 || c < 0 || r >= g->rows || c >= g->cols)
        return NAN;
    return g->term[(size_t)t * g->rows * g->cols + (size_t)r * g->cols + c];
}

/* The cursor row through the table: P(i, j) and column-block means. */
static void table_row(const struct score_grid *g, const struct score_ctx *s,
                      int64_t i, int64_t j, double *p, double *cols_out)
{
    const double *c = g->tab.c;
    int64_t n = s->n;
    double z = c[i + n] - c[i];
    double sij = scores_at(s, i, j);
    *p = isinf(sij) ? 0.0 : exp(sij - g->tab.mx) / z;
    for (int cc = 0; cols_out && cc < g->cols; cc++) {
        int64_t j0, j1;
        blk_range(g, g->cb0 + cc, n, &j0, &j1);
        cols_out[cc] = j1 > j0 ? (c[i - j0 + n] - c[i - j1 + n])
                                 / ((double)(j1 - j0) * z) : NAN;
    }
}

int score_grid_softmax_at(struct score_grid *g, const struct score_ctx *s,
                          int64_t i, int64_t j, double *p, double *cols_out)
{
    if (g->status != GRID_DONE || !s->o.softmax || i < 0 || i >= s->rows
        || j < 0 || j >= s->n)
        return -1;
    if (g->soft == SOFT_TABLE && !g->tab.ill) {
        table_row(g, s, i, j, p, cols_out);
        return 0;
    }
    if (g->soft == SOFT_BAND)
        return soft_band_row(g->band, s, i, j, p, cols_out);
    if (g->soft != SOFT_DIRECT)
        return -1;
    if (!g->cur_row) {
        g->cur_row = malloc((size_t)s->n * sizeof *g->cur_row);
        if (!g->cur_row)
            return -1;
        g->cur_i = -1;
    }
    if (g->cur_i != i) {
        direct_row(g, s, i, g->cur_row);
        g->cur_i = i;
    }
    *p = g->cur_row[j];
    for (int cc = 0; cols_out && cc < g->cols; cc++) {
        int64_t j0, j1;
        blk_range(g, g->cb0 + cc, s->rows, &j0, &j1);
        double sum = 0.0;
        for (int64_t jj = j0; jj < j1; jj++)
            sum += g->cur_row[jj];
        cols_out[cc] = j1 > j0 ? sum / (double)(j1 - j0) : NAN;
    }
    return 0;
}
