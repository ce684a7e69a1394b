/* SPDX-License-Identifier: ISC */
/*
 * scores_mask.c - a raw score's block mean under a window or a chunk
 * (scores.h): the mean of a Toeplitz term over the pairs of a block the
 * mask shows, so that a block on a window's edge or across a chunk's
 * start averages only the keys it shows.
 *
 * The pairs a row segment of one chunk shows are the rectangle of its
 * rows and of the keys from the chunk's start, cut to 0 <= i - j < W.
 * A rectangle's pairs with i - j >= c are rectangles and one triangle
 * whose diagonal lies at distance c; the shown pairs are those at c = 0
 * less those at c = W.  A triangle of m rows halves into two triangles
 * and a rectangle (as scores_term_tri_sum does at c = 0), so each costs
 * O(log m) block means.
 */
#include "peviz/scores.h"

#include <math.h>
#include <stdint.h>

/* Triangle sums at one distance c, by size. */
struct tri_memo {
    int64_t c, m[128];
    double v[128];
    int n;
};

/* Sum of f(c + x - y) over 0 <= y <= x < m, f being term t. */
static double tri_at(const struct score_ctx *s, int t, int64_t m,
                     struct tri_memo *memo)
{
    if (m <= 0)
        return 0.0;
    if (m == 1)
        return scores_term_at(s, t, memo->c, 0);
    for (int i = 0; i < memo->n; i++)
        if (memo->m[i] == m)
            return memo->v[i];
    int64_t a = m / 2, c = memo->c;
    double v = tri_at(s, t, a, memo) + tri_at(s, t, m - a, memo)
               + (double)a * (double)(m - a)
                 * scores_term_block_mean(s, t, c + a, c + m, 0, a);
    if (memo->n < 128) {
        memo->m[memo->n] = m;
        memo->v[memo->n++] = v;
    }
    return v;
}

/* A sum and the count of pairs it is over. */
struct part {
    double sum, cnt;
};

static void add_rect(const struct score_ctx *s, int t, int64_t a, int64_t b,
                     int64_t p, int64_t q, struct part *out)
{
    if (a >= b || p >= q)
        return;
    double area = (double)(b - a) * (double)(q - p);
    if (t >= 0)
        out->sum += area * scores_term_block_mean(s, t, a, b, p, q);
    out->cnt += area;
}

/* Term t (t < 0: none, the count alone) over the pairs of [a, b) x [p, q) with i - j >= memo->c. */
static void lower(const struct score_ctx *s, int t, int64_t a, int64_t b,
                  int64_t p, int64_t q, struct tri_memo *memo,
                  struct part *out)
{
    int64_t c = memo->c;
    int64_t full = a > q - 1 + c ? a : q - 1 + c;
    add_rect(s, t, full, b, p, q, out);             /* whole rows */
    int64_t m0 = a > p + c ? a : p + c, m1 = b < q - 1 + c ? b : q - 1 + c;
    if (m0 >= m1)
        return;
    add_rect(s, t, m0, m1, p, m0 - c, out);         /* left of the triangle */
    if (t >= 0)
        out->sum += tri_at(s, t, m1 - m0, memo);
    out->cnt += 0.5 * (double)(m1 - m0) * (double)(m1 - m0 + 1);
}

/* The shown pairs of rows [a, b) of one chunk, keys [p, q). */
static void segment(const struct score_ctx *s, int t, int64_t a, int64_t b,
                    int64_t p, int64_t q, struct tri_memo memo[2],
                    struct part *out)
{
    struct part lo = { 0, 0 }, far = { 0, 0 };
    lower(s, t, a, b, p, q, &memo[0], &lo);
    if (memo[1].c > 0)
        lower(s, t, a, b, p, q, &memo[1], &far);
    out->sum += lo.sum - far.sum;
    out->cnt += lo.cnt - far.cnt;
}

/* The keys the rows [a, b) of one chunk can show, cut from [p, q): from
 * the chunk's start and the window's reach, up to the last row. */
static void cut_keys(const struct score_opts *o, int64_t a, int64_t b,
                     int64_t *p, int64_t *q)
{
    if (o->chunk > 0 && *p < a / o->chunk * o->chunk)
        *p = a / o->chunk * o->chunk;
    if (o->window > 0 && *p < a - o->window + 1)
        *p = a - o->window + 1;
    if (*q > b)
        *q = b;
}

/* Term t (t < 0: the count alone) over the shown pairs of the block. */
static struct part shown(const struct score_ctx *s, int t, int64_t i0,
                         int64_t i1, int64_t j0, int64_t j1)
{
    const struct score_opts *o = &s->o;
    struct tri_memo memo[2];
    memo[0].c = 0;
    memo[0].n = 0;
    memo[1].c = o->window > 0 ? o->window : 0;
    memo[1].n = 0;
    struct part out = { 0, 0 }, last = { 0, 0 };
    int64_t key[3] = { -1, -1, -1 };    /* the last segment's shape */
    for (int64_t a = i0; a < i1;) {
        int64_t b = i1;
        if (o->chunk > 0 && (a / o->chunk + 1) * o->chunk < b)
            b = (a / o->chunk + 1) * o->chunk;
        int64_t p = j0, q = j1;
        cut_keys(o, a, b, &p, &q);
        if (p < q) {    /* Toeplitz: a shape met before sums the same */
            if (key[0] != b - a || key[1] != p - a || key[2] != q - a) {
                last.sum = last.cnt = 0;
                segment(s, t, a, b, p, q, memo, &last);
                key[0] = b - a;
                key[1] = p - a;
                key[2] = q - a;
            }
            out.sum += last.sum;
            out.cnt += last.cnt;
        }
        a = b;
    }
    return out;
}

double scores_mask_mean(const struct score_ctx *s, int t, int64_t i0,
                        int64_t i1, int64_t j0, int64_t j1)
{
    struct part p = shown(s, t, i0, i1, j0, j1);
    return p.cnt > 0 ? p.sum / p.cnt : NAN;
}

double scores_mask_count(const struct score_ctx *s, int64_t i0, int64_t i1,
                         int64_t j0, int64_t j1)
{
    if (i1 <= i0 || j1 <= j0)
        return 0;
    if (!scores_future_hidden(&s->o))
        return (double)(i1 - i0) * (double)(j1 - j0);
    return shown(s, -1, i0, i1, j0, j1).cnt;
}

int scores_mask_partial(const struct score_opts *o, int64_t i0, int64_t i1,
                        int64_t j0, int64_t j1)
{
    if (!scores_banded(o))
        return 0;
    if (j1 - 1 > i0 || (o->window > 0 && i1 - 1 - j0 >= o->window))
        return 1;
    return o->chunk > 0 && (j0 / o->chunk != (i1 - 1) / o->chunk);
}
