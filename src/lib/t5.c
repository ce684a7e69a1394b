/* SPDX-License-Identifier: ISC */
/*
 * t5.c - T5's relative buckets (HF transformers, modeling_t5.py,
 * T5Attention._relative_position_bucket): rel = j - i goes to a bucket,
 * exact for small distances and logarithmic up to max_distance, and the
 * bias is W[bucket, head].  With bidirectional buckets the future (rel >
 * 0) has its own half; causal buckets give the whole future bucket 0.
 *
 * The stand-in W when no checkpoint table is given is ALiBi read at each
 * bucket's first distance: W[b, h] = -m_h lo(b), m_h the ALiBi slope of
 * head h and lo(b) the first distance of bucket b on its side.
 */
#include "peviz/scores.h"
#include "schemes_impl.h"

#include <math.h>
#include <stdint.h>

/* The bucket of a distance on one side (n buckets there), in float32
 * like the reference: log(rel / max_exact) / log(max_distance /
 * max_exact) * (n - max_exact), truncated toward zero. */
static int side_bucket(int64_t rel, int n, int max_distance)
{
    int max_exact = n / 2;
    if (rel < max_exact)
        return (int)rel;
    volatile float x = (float)rel / (float)max_exact;
    volatile float l = logf(x);
    volatile float den = (float)log((double)max_distance / max_exact);
    volatile float q = l / den;
    volatile float r = q * (float)(n - max_exact);
    int64_t big = max_exact + (int64_t)r;
    return big > n - 1 ? n - 1 : (int)big;
}

int t5_bucket(int64_t rel, int bidirectional, int buckets, int max_distance)
{
    int ret = 0, n = buckets;
    if (bidirectional) {
        n /= 2;
        if (rel > 0)
            ret = n;
        rel = rel < 0 ? -rel : rel;
    } else {
        rel = rel < 0 ? -rel : 0;       /* -min(rel, 0) */
    }
    return ret + side_bucket(rel, n, max_distance);
}

/* edge[b]: the first distance of bucket b on one side (a bucket no
 * distance reaches has the next one's edge); edge[n]: INT64_MAX. */
static void t5_edges(struct score_ctx *s)
{
    int n = s->t5_side;
    int64_t hi = 4 * (int64_t)s->t5_maxd + 4;
    for (int b = 0; b < n; b++) {
        int64_t lo = 0, top = hi;       /* first rel in [lo, top] with >= b */
        if (side_bucket(hi, n, s->t5_maxd) < b) {
            s->t5_edge[b] = INT64_MAX;
            continue;
        }
        while (lo < top) {
            int64_t mid = lo + (top - lo) / 2;
            if (side_bucket(mid, n, s->t5_maxd) >= b)
                top = mid;
            else
                lo = mid + 1;
        }
        s->t5_edge[b] = lo;
    }
    s->t5_edge[n] = INT64_MAX;
}

/* The counts and the stand-in, from the options (out of range: the
 * defaults 32 and 128). */
void t5_setup(struct score_ctx *s)
{
    int nb = s->o.buckets, md = s->o.max_distance;
    if (nb < 4 || nb > SCORES_T5_MAX_BUCKETS)
        nb = 32;
    s->t5_buckets = nb;
    s->t5_side = s->o.bidirectional ? nb / 2 : nb;
    if (md <= s->t5_side / 2)
        md = s->t5_side / 2 < 128 ? 128 : 4 * s->t5_side;
    s->t5_maxd = md;
    t5_edges(s);
    for (int b = 0; b < nb; b++) {
        int sb = b % s->t5_side;
        double lo = s->t5_edge[sb] == INT64_MAX ? NAN : (double)s->t5_edge[sb];
        s->t5_own[b] = -s->slope * lo;
    }
    s->t5_w = NULL;
    s->t5_real = 0;
}

int t5_set_scores_table(struct score_ctx *s, const double *w, int buckets,
                        int heads)
{
    if (!w || buckets != s->t5_buckets || heads < 1)
        return -1;
    s->t5_w = w;
    s->t5_w_heads = heads;
    s->t5_real = 1;
    return 0;
}

double t5_weight(const struct score_ctx *s, int bucket)
{
    if (bucket < 0 || bucket >= s->t5_buckets)
        return NAN;
    if (!s->t5_real)
        return s->t5_own[bucket];
    int h = s->head < s->t5_w_heads ? s->head : s->t5_w_heads - 1;
    return s->t5_w[(size_t)bucket * (size_t)s->t5_w_heads + (size_t)h];
}

/* The bucket of delta = i - j: rel = -delta. */
static int bucket_of(const struct score_ctx *s, int64_t delta)
{
    return t5_bucket(-delta, s->o.bidirectional, s->t5_buckets, s->t5_maxd);
}

static double t5_at(const struct score_ctx *s, int64_t delta)
{
    return t5_weight(s, bucket_of(s, delta));
}

/* The bucket is constant from delta up to *end (exclusive). */
static double t5_run(const struct score_ctx *s, int64_t delta, int64_t *end)
{
    int b = bucket_of(s, delta);
    if (delta >= 0) {                   /* the past: distance delta */
        int sb = b % s->t5_side;
        *end = s->t5_edge[sb + 1];
    } else if (s->o.bidirectional) {    /* the future: distance -delta */
        int64_t e = s->t5_edge[b - s->t5_side];
        *end = -e + 1;
    } else {                            /* causal: the future is bucket 0 */
        *end = 0;
    }
    return t5_weight(s, b);
}

const struct dist_ops DIST_T5 = { t5_at, t5_run, NULL, NULL, NULL, NULL };
