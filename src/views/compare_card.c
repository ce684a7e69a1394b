/* SPDX-License-Identifier: ISC */
/*
 * compare_card.c - the card in a pane of the diff mode that has nothing
 * to subtract: what the pane's scheme has, as its row says (enum
 * scheme_has), with the numbers of its score context (the one --export
 * scores reads) or of its frequency plan (--export bands):
 *   buckets  T5's bucket map (the exact buckets, then each other
 *            bucket's distances and its bias W)
 *   slopes   ALiBi's slope of every head, the shown head marked, and S
 *            at the pane's longest distance
 *   kernel   KERPLE's r1 and r2 and S at distances 0, 1, 2, 4, ... n-1
 *   rows     a learned table's trained length and S at those distances
 *   nothing  no positions: S = 0 and constant (or S at those distances
 *            when the content toggle makes it vary)
 *   bands    when A has none: the pane's own bands (wavelength, turns in
 *            n), with nothing to subtract them from
 * A table keeps as many rows as the body holds, evenly spaced with its
 * first and last, and the columns that fit the pane's width; its marked
 * row (the head shown, the critical band) is bold in the warning colour,
 * with a mark after it where there is room.  Every other line takes the
 * longest wording that fits, cut at a word.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "glyph.h"
#include "text.h"
#include "compare_view.h"

#define CARD_LINES 128
#define CARD_LEN 128
#define CARD_COLS 3
#define CARD_CELL 32
#define CARD_ROOMY 8            /* a body this tall: a blank row first */

struct card {
    const struct app *a;
    int w, h;                   /* the room: columns, rows */
    int n;                      /* lines */
    int sig;                    /* significant digits of its numbers */
    char line[CARD_LINES][CARD_LEN];
    enum ui_color col[CARD_LINES];
    int attr[CARD_LINES];
    char cell[CARD_LINES][CARD_COLS][CARD_CELL];   /* a table's cells */
};

/* A table's source: row i's cells (right-aligned numbers), 1 when it is
 * marked (the head shown, the critical band). */
struct card_src {
    const struct card *k;
    const struct cmp_frame *f;
    const struct rpane *r;
    const struct score_ctx *s;
    const int64_t *dist;        /* the distances of an S table */
    const double *m;            /* ALiBi's slopes */
    int first;                  /* T5: the bucket of row 0 */
};
typedef int (*card_row_fn)(const struct card_src *src, int i,
                           char cl[][CARD_CELL]);

/* A table: column headers long and short, the order columns are dropped
 * in when the pane is narrow (drop[0] first), the columns it needs to
 * say anything (fewer: its numbers to 3 digits), its rows. */
struct card_table {
    int cols, need;
    const char *head[CARD_COLS][2];
    int drop[CARD_COLS];
    int rows;
    card_row_fn row;
};

/* A line: the first of the n wordings that fits, else the last. */
static void card_say(struct card *c, enum ui_color col, int n,
                     const char *const *cand)
{
    if (c->n >= CARD_LINES || n < 1)
        return;
    int i = 0;
    while (i < n - 1 && text_width(cand[i]) > c->w)
        i++;
    snprintf(c->line[c->n], CARD_LEN, "%s", cand[i]);
    c->col[c->n] = col;
    c->attr[c->n++] = 0;
}

#define SAY(c, col, ...)                                                    \
    do {                                                                    \
        const char *cand_[] = { __VA_ARGS__ };                              \
        card_say(c, col, (int)(sizeof cand_ / sizeof cand_[0]), cand_);     \
    } while (0)

/* Row indices for a table of rows rows in budget lines: all of them, or
 * evenly spaced with the first and the last; keep, when it is a row, is
 * one of them (in the place of its nearest, when there are three or
 * more).  Returns how many. */
static int card_pick(int rows, int budget, int keep, int *idx)
{
    int m = rows <= budget ? rows : budget;
    if (m < 1)
        return 0;
    for (int j = 0; j < m; j++)
        idx[j] = m == 1 ? 0 : (int)((int64_t)j * (rows - 1) / (m - 1));
    int best = -1;
    for (int j = 0; j < m; j++)
        if (idx[j] == keep)
            return m;
    for (int j = 1; keep >= 0 && keep < rows && j < m - 1; j++)
        if (best < 0 || abs(idx[j] - keep) < abs(idx[best] - keep))
            best = j;       /* the nearest but the first and the last */
    if (best >= 0)
        idx[best] = keep;
    return m;
}

/* The widths of the columns on (bit c of on), with gap spaces between:
 * the widest of header (long when hl) and cells; the total. */
static int card_widths(const struct card_table *t, unsigned on, int hl,
                       int gap, char cl[][CARD_COLS][CARD_CELL], int m,
                       int *wc)
{
    int total = 0, shown = 0;
    for (int c = 0; c < t->cols; c++) {
        wc[c] = 0;
        if (!(on >> c & 1))
            continue;
        wc[c] = text_width(t->head[c][hl ? 0 : 1]);
        for (int j = 0; j < m; j++)
            if (text_width(cl[j][c]) > wc[c])
                wc[c] = text_width(cl[j][c]);
        total += wc[c] + (shown++ ? gap : 0);
    }
    return total;
}

/* One table line of the columns on: right-aligned in their widths. */
static void card_row_text(const struct card_table *t, unsigned on,
                          const int *wc, int gap, const char *const *cells,
                          char *out)
{
    size_t used = 0;
    int shown = 0;
    out[0] = 0;
    for (int c = 0; c < t->cols && used + 1 < CARD_LEN; c++) {
        if (!(on >> c & 1))
            continue;
        int pad = wc[c] - text_width(cells[c]) + (shown++ ? gap : 0);
        used += (size_t)snprintf(out + used, CARD_LEN - used, "%*s%s",
                                 pad, "", cells[c]);
    }
}

/* The columns and wording that fit: all columns with long headers and
 * two spaces between, then short headers, one space, then fewer columns
 * (t->drop's order); the last try when none fits. */
static unsigned card_fit(const struct card *k, const struct card_table *t,
                         char cl[][CARD_COLS][CARD_CELL], int m, int *wc,
                         int *hl, int *gap)
{
    unsigned on = (1u << t->cols) - 1;
    for (int d = 0; d < t->cols; d++) {
        for (int v = 0; v < 3; v++) {
            *hl = v == 0;
            *gap = v < 2 ? 2 : 1;
            if (card_widths(t, on, *hl, *gap, cl, m, wc) <= k->w)
                return on;
        }
        if (d + 1 < t->cols)
            on &= ~(1u << t->drop[d]);
    }
    return on;
}

/* The cells of the m rows idx of t to sig digits, and their marks; the
 * columns that fit, their widths and wording (card_fit). */
static unsigned card_cells(struct card *k, const struct card_table *t,
                           const struct card_src *src, const int *idx, int m,
                           int sig, int *mark, int *wc, int *hl, int *gap)
{
    k->sig = sig;
    for (int j = 0; j < m; j++)
        mark[j] = t->row(src, idx[j], k->cell[j]);
    return card_fit(k, t, k->cell, m, wc, hl, gap);
}

/* Row j of the cells as a line of the card: the columns on, the mark
 * after a marked row where there is room. */
static void card_table_line(struct card *k, const struct card_table *t,
                            unsigned on, const int *wc, int gap, int j,
                            int mark)
{
    const char *rc[CARD_COLS];
    char *l = k->line[k->n];
    for (int c = 0; c < t->cols; c++)
        rc[c] = k->cell[j][c];
    card_row_text(t, on, wc, gap, rc, l);
    if (mark && text_width(l) + 2 <= k->w)
        snprintf(l + strlen(l), CARD_LEN - strlen(l), " %s",
                 glyph(k->a->ascii, GL_PLAY_LEFT));
    k->col[k->n] = mark ? UI_WARN : UI_TEXT;
    k->attr[k->n++] = mark ? ATTR_BOLD : 0;
}

/* The table in budget lines (its header one of them), its numbers to 4
 * digits, or 3 when 4 leave fewer columns than it needs; the columns
 * shown (bit c), 0 for none. */
static unsigned card_table_add(struct card *k, const struct card_table *t,
                               const struct card_src *src, int budget,
                               int keep)
{
    int idx[CARD_LINES], mark[CARD_LINES], wc[CARD_COLS], hl = 1, gap = 2;
    if (budget > CARD_LINES - k->n)
        budget = CARD_LINES - k->n;
    int m = card_pick(t->rows, budget - 1, keep, idx);
    if (m < 1)
        return 0;
    unsigned on = card_cells(k, t, src, idx, m, 4, mark, wc, &hl, &gap);
    int shown = 0;
    for (int c = 0; c < t->cols; c++)
        shown += (int)(on >> c & 1);
    if (shown < t->need)
        on = card_cells(k, t, src, idx, m, 3, mark, wc, &hl, &gap);
    k->sig = 4;
    const char *hc[CARD_COLS];
    for (int c = 0; c < t->cols; c++)
        hc[c] = t->head[c][hl ? 0 : 1];
    card_row_text(t, on, wc, gap, hc, k->line[k->n]);
    k->col[k->n] = UI_DIM;
    k->attr[k->n++] = 0;
    for (int j = 0; j < m; j++)
        card_table_line(k, t, on, wc, gap, j, mark[j]);
    return on;
}

/* The lines left for a table when reserve more lines follow it. */
static int card_budget(const struct card *k, int reserve)
{
    return k->h - k->n - reserve;
}

/* A number to the card's significant digits (as --export prints it,
 * rounded). */
static void card_num(const struct card *k, double v, char *buf)
{
    fmt_num_w(v, k->sig, k->sig + 5, buf, CARD_CELL);
}

/* ---- S at distances (kernel, rows, nothing) --------------------------- */

#define CARD_DISTS 64

/* 0, 1, 2, 4, ... below n - 1, then n - 1. */
static int card_dists(int64_t n, int64_t *out)
{
    int m = 0;
    if (n < 1)
        return 0;
    out[m++] = 0;
    for (int64_t d = 1; d < n - 1 && m < CARD_DISTS - 1; d *= 2)
        out[m++] = d;
    if (n > 1)
        out[m++] = n - 1;
    return m;
}

/* S(delta, 0): query delta, key 0, as row delta of --export scores. */
static int row_dist(const struct card_src *src, int i, char cl[][CARD_CELL])
{
    snprintf(cl[0], CARD_CELL, "%lld", (long long)src->dist[i]);
    card_num(src->k, scores_at(src->s, src->dist[i], 0), cl[1]);
    return 0;
}

/* Whether S is the same at every distance listed. */
static int card_constant(const struct score_ctx *s, const int64_t *dist,
                         int m)
{
    double v0 = scores_at(s, dist[0], 0);
    for (int i = 1; i < m; i++)
        if (scores_at(s, dist[i], 0) != v0)
            return 0;
    return 1;
}

static void card_s_table(struct card *k, const struct card_src *src0,
                         int reserve)
{
    int64_t dist[CARD_DISTS];
    struct card_src src = *src0;
    struct card_table t = {
        .cols = 2, .need = 2,
        .head = { { "distance", "i-j" }, { "S(i, j)", "S" } },
        .drop = { 1, 0 }, .row = row_dist,
    };
    t.rows = card_dists(src.r->n, dist);
    src.dist = dist;
    card_table_add(k, &t, &src, card_budget(k, reserve), -1);
}

/* ---- the cards -------------------------------------------------------- */

static void card_profile_hint(struct card *k)
{
    SAY(k, UI_DIM, ":mode profile draws S", ":mode profile", "");
}

/* T5: bucket sb of the past side, its distances and W. */
static int row_bucket(const struct card_src *src, int i,
                      char cl[][CARD_CELL])
{
    const struct score_ctx *s = src->s;
    int b = i + src->first;
    int64_t lo = s->t5_edge[b], hi = s->t5_edge[b + 1];
    snprintf(cl[0], CARD_CELL, "%d", b);
    if (hi == INT64_MAX)
        snprintf(cl[1], CARD_CELL, "%lld+", (long long)lo);
    else if (hi - 1 == lo)
        snprintf(cl[1], CARD_CELL, "%lld", (long long)lo);
    else
        snprintf(cl[1], CARD_CELL, "%lld-%lld", (long long)lo,
                 (long long)hi - 1);
    card_num(src->k, t5_weight(s, b), cl[2]);
    return 0;
}

/* Buckets from 0 that hold their own distance alone. */
static int card_t5_exact(const struct score_ctx *s)
{
    int b = 0;
    while (b < s->t5_side && s->t5_edge[b] == b && s->t5_edge[b + 1] == b + 1)
        b++;
    return b;
}

/* The buckets of the past side that start below n. */
static int card_t5_used(const struct score_ctx *s, int64_t n)
{
    int b = 0;
    while (b < s->t5_side && s->t5_edge[b] < n)
        b++;
    return b;
}

static void card_t5_head(struct card *k, const struct score_ctx *s, int b0)
{
    char l[3][CARD_LEN];
    snprintf(l[0], CARD_LEN, "%d buckets, %s", s->t5_buckets,
             s->o.bidirectional ? "bidirectional" : "causal");
    snprintf(l[1], CARD_LEN, "%d buckets", s->t5_buckets);
    SAY(k, UI_TEXT, l[0], l[1]);
    if (b0 < 2)
        return;
    snprintf(l[0], CARD_LEN, "distance 0-%d: bucket = distance", b0 - 1);
    snprintf(l[1], CARD_LEN, "0-%d: bucket = dist", b0 - 1);
    snprintf(l[2], CARD_LEN, "0-%d exact", b0 - 1);
    SAY(k, UI_TEXT, l[0], l[1], l[2]);
}

static void card_t5_tail(struct card *k, const struct score_ctx *s,
                         int used, int64_t n, int w_shown)
{
    char l[3][CARD_LEN];
    if (used < s->t5_side) {
        snprintf(l[0], CARD_LEN, "%d more start past n = %lld",
                 s->t5_side - used, (long long)n);
        snprintf(l[1], CARD_LEN, "+%d past n", s->t5_side - used);
        SAY(k, UI_DIM, l[0], l[1]);
    }
    if (s->o.bidirectional) {
        snprintf(l[0], CARD_LEN, "the future: bucket + %d", s->t5_side);
        snprintf(l[1], CARD_LEN, "future: bucket + %d", s->t5_side);
        snprintf(l[2], CARD_LEN, "future: +%d", s->t5_side);
        SAY(k, UI_DIM, l[0], l[1], l[2]);
    }
    if (!w_shown)
        return;
    if (s->t5_real) {
        snprintf(l[0], CARD_LEN, "W: the --pe-file table, head %d",
                 (s->head < s->t5_w_heads ? s->head : s->t5_w_heads - 1) + 1);
        SAY(k, UI_DIM, l[0], "W: --pe-file");
    } else {
        snprintf(l[0], CARD_LEN, "W: stand-in, -m%sfirst distance",
                 glyph(k->a->ascii, GL_MUL));
        SAY(k, UI_DIM, l[0], "W: stand-in");
    }
}

static void card_buckets(struct card *k, const struct card_src *src0)
{
    const struct score_ctx *s = src0->s;
    struct card_src src = *src0;
    int b0 = card_t5_exact(s), used = card_t5_used(s, src.r->n);
    if (b0 < 2)
        b0 = 0;
    card_t5_head(k, s, b0);
    struct card_table t = {
        .cols = 3, .need = 2,
        .head = { { "bucket", "b" }, { "distance", "dist" },
                             { "W", "W" } },
        .drop = { 2, 0 }, .row = row_bucket, .rows = used - b0,
    };
    src.first = b0;
    int reserve = (used < s->t5_side) + s->o.bidirectional + 1;
    unsigned on = card_table_add(k, &t, &src, card_budget(k, reserve), -1);
    card_t5_tail(k, s, used, src0->r->n, on >> 2 & 1);
}

static int row_slope(const struct card_src *src, int i,
                     char cl[][CARD_CELL])
{
    snprintf(cl[0], CARD_CELL, "%d", i + 1);
    card_num(src->k, src->m[i], cl[1]);
    return i == src->s->head;
}

static void card_slopes(struct card *k, const struct card_src *src0)
{
    const struct score_ctx *s = src0->s;
    double m[SCORES_MAX_HEADS];
    struct card_src src = *src0;
    char l[2][CARD_LEN], v[CARD_CELL];
    pe_alibi_slopes(s->heads, m);
    src.m = m;
    snprintf(l[0], CARD_LEN, "slope m of each of %d heads", s->heads);
    snprintf(l[1], CARD_LEN, "%d heads", s->heads);
    SAY(k, UI_TEXT, l[0], l[1], "slopes");
    struct card_table t = {
        .cols = 2, .need = 2,
        .head = { { "head", "h" }, { "slope m", "m" } },
        .drop = { 0, 1 }, .row = row_slope, .rows = s->heads,
    };
    card_table_add(k, &t, &src, card_budget(k, 3), s->head);
    int64_t far = src.r->n - 1;
    card_num(k, scores_at(s, far, 0), v);
    snprintf(l[0], CARD_LEN, "at distance %lld: S = %s", (long long)far, v);
    snprintf(l[1], CARD_LEN, "S(%lld) = %s", (long long)far, v);
    if (text_width(l[1]) <= k->w) {
        SAY(k, UI_TEXT, l[0], l[1]);
    } else {                    /* narrow: the distance, then S */
        snprintf(l[0], CARD_LEN, "i-j = %lld:", (long long)far);
        SAY(k, UI_TEXT, l[0]);
        snprintf(l[1], CARD_LEN, "S = %s", v);
        SAY(k, UI_TEXT, l[1]);
    }
    card_profile_hint(k);
}

static void card_kernel(struct card *k, const struct card_src *src)
{
    char l[2][CARD_LEN], v[CARD_CELL];
    card_num(src->k, src->s->r1, v);
    snprintf(l[0], CARD_LEN, "r1 = %s", v);
    card_num(src->k, src->s->r2, v);
    snprintf(l[1], CARD_LEN, "r2 = %s", v);
    SAY(k, UI_TEXT, l[0]);
    SAY(k, UI_TEXT, l[1]);
    card_s_table(k, src, 1);
    card_profile_hint(k);
}

static void card_rows(struct card *k, const struct card_src *src)
{
    char l[2][CARD_LEN];
    long long t = (long long)scores_train_len(&src->r->so, src->r->n);
    snprintf(l[0], CARD_LEN, "learned rows, trained to L = %lld", t);
    snprintf(l[1], CARD_LEN, "L = %lld", t);
    SAY(k, UI_TEXT, l[0], l[1]);
    card_s_table(k, src, 1);
    card_profile_hint(k);
}

static void card_nothing(struct card *k, const struct card_src *src)
{
    int64_t dist[CARD_DISTS];
    int m = card_dists(src->r->n, dist);
    SAY(k, UI_TEXT, "no positions: no bands, no bias", "no positions",
        "no signal");
    if (m > 0 && card_constant(src->s, dist, m)) {
        char v[CARD_CELL], l[3][CARD_LEN];
        card_num(src->k, scores_at(src->s, 0, 0), v);
        snprintf(l[0], CARD_LEN, "S = %s at every i, j: constant", v);
        snprintf(l[1], CARD_LEN, "S = %s, constant", v);
        snprintf(l[2], CARD_LEN, "S = %s", v);
        SAY(k, UI_TEXT, l[0], l[1], l[2]);
        if (text_width(l[1]) > k->w)    /* narrow: constant on a line */
            SAY(k, UI_TEXT, "constant");
    } else {
        card_s_table(k, src, 1);
    }
    card_profile_hint(k);
}

/* Band i of the pane's plan: its wavelength and turns in n (scaled). */
static int row_band(const struct card_src *src, int i, char cl[][CARD_CELL])
{
    const pe_plan *pl = src->r->plan;
    snprintf(cl[0], CARD_CELL, "%d", i);
    card_num(src->k, pl->wavelength[i], cl[1]);
    card_num(src->k, pl->turns[i], cl[2]);
    return i == src->r->crit;
}

static void card_bands(struct card *k, const struct card_src *src,
                       const struct rpane *ra)
{
    const struct rpane *r = src->r;
    char l[4][CARD_LEN];
    snprintf(l[0], CARD_LEN, "%c's %s has no bands:", 'A' + ra->id,
             scheme_name((enum scheme)ra->scheme));
    snprintf(l[1], CARD_LEN, "%c has no bands:", 'A' + ra->id);
    snprintf(l[2], CARD_LEN, "%c: no bands", 'A' + ra->id);
    snprintf(l[3], CARD_LEN, "no %c bands", 'A' + ra->id);
    SAY(k, UI_TEXT, l[0], l[1], l[2], l[3]);
    snprintf(l[0], CARD_LEN, "%c's own bands, against nothing", 'A' + r->id);
    snprintf(l[1], CARD_LEN, "%c's own bands", 'A' + r->id);
    SAY(k, UI_TEXT, l[0], l[1], "own bands");
    struct card_table t = {
        .cols = 3, .need = 2,
        .head = { { "band", "k" },
                             { "wavelength", glyph(k->a->ascii, GL_LAMBDA_WL) },
                             { "turns in n", "turns" } },
        .drop = { 1, 0 }, .row = row_band, .rows = r->plan->half,
    };
    card_table_add(k, &t, src, card_budget(k, 0), r->crit);
}

/* The card's lines for pane k. */
static void card_build(struct card *k, const struct cmp_frame *f,
                       const struct rpane *r, const struct score_ctx *s)
{
    struct card_src src = { .k = k, .f = f, .r = r, .s = s };
    switch (r->has) {
    case SCHEME_HAS_BANDS:   card_bands(k, &src, &f->rp[0]); break;
    case SCHEME_HAS_BUCKETS: card_buckets(k, &src); break;
    case SCHEME_HAS_SLOPES:  card_slopes(k, &src); break;
    case SCHEME_HAS_KERNEL:  card_kernel(k, &src); break;
    case SCHEME_HAS_ROWS:    card_rows(k, &src); break;
    default:                 card_nothing(k, &src); break;
    }
}

void cmp_card_draw(const struct app *a, canvas *c, const struct cmp_frame *f,
                   int k)
{
    const struct geom *g = &f->g;
    const struct rpane *r = &f->rp[k];
    struct card *card = calloc(1, sizeof *card);
    struct score_ctx *s = r->has == SCHEME_HAS_BANDS || !card ? NULL
                          : cmp_scores_new(f, r);
    if (!card || (r->has != SCHEME_HAS_BANDS && !s)) {
        free(card);             /* out of memory: an empty pane */
        return;
    }
    int top = g->body_h >= CARD_ROOMY;     /* a blank row over the card */
    card->a = a;
    card->sig = 4;
    card->w = g->pw - 1;
    card->h = g->body_h - top > CARD_LINES ? CARD_LINES : g->body_h - top;
    card_build(card, f, r, s);
    scores_free(s);
    for (int i = 0; i < card->n && i < card->h; i++) {
        const char *cand[1] = { card->line[i] };
        canvas_text_fit(c, g->px[k] + 1, g->body_y + top + i, card->w, cand,
                        1, cmp_uc(a, card->col[i]), card->attr[i]);
    }
    free(card);
}
