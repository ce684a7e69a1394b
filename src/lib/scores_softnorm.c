/* SPDX-License-Identifier: ISC */
/*
 * scores_softnorm.c - the offset table tau T(delta) of a Toeplitz context
 * by a non-uniform FFT, and the softmax row normalisers from it (see
 * include/peviz/scores.h).
 */
#include "peviz/scores.h"
#include "peviz/nufft.h"
#include "bigmem_impl.h"

#include <math.h>
#include <stdlib.h>

#define FINISH_SLICE 16384
#define COST_TERM 10            /* work units per entry and term */

struct scores_table_job {
    int64_t n;
    int nterms;
    int rot;                    /* the rotation term, or -1 */
    int done;
    int64_t next;               /* the finishing pass: next delta + n - 1 */
    pv_cos_plan *plan;
    double *ones;               /* [half]: a_k of PE.PE */
};

/* The rotation term of a Toeplitz context (PE.PE or Rq.Rk), or -1. */
static int rot_term(const struct score_ctx *s)
{
    for (int t = 0; t < s->nterms; t++) {
        const struct score_term *tm = &s->terms[t];
        if (TERM_OPS[tm->type].vectors && (tm->a == SK_PSIN || tm->a == SK_RQ))
            return t;
    }
    return -1;
}

void scores_table_job_free(struct scores_table_job *j)
{
    if (!j)
        return;
    pv_cos_free(j->plan);
    free(j->ones);
    free(j);
}

struct scores_table_job *scores_table_job_renew(struct scores_table_job *old,
                                                const struct score_ctx *s)
{
    struct scores_table_job *j = old;
    if (!s->toeplitz) {
        scores_table_job_free(old);
        return NULL;
    }
    if (!j && !(j = calloc(1, sizeof *j)))
        return NULL;
    j->n = s->n;
    j->nterms = s->nterms;
    j->done = 0;
    j->next = 0;
    j->rot = rot_term(s);
    if (j->rot < 0)
        return j;
    const double *a = s->ra, *b = s->rb;
    if (s->terms[j->rot].a == SK_PSIN) {        /* a_k = 1, b_k = 0 */
        free(j->ones);
        j->ones = malloc((size_t)s->half * sizeof *j->ones);
        if (!j->ones) {
            scores_table_job_free(j);
            return NULL;
        }
        for (int k = 0; k < s->half; k++)
            j->ones[k] = 1.0;
        a = j->ones;
        b = NULL;
    }
    j->plan = pv_cos_renew(j->plan, s->omega, a, b, s->half, s->n);
    if (!j->plan) {
        scores_table_job_free(j);
        return NULL;
    }
    return j;
}

int64_t scores_table_job_work(const struct scores_table_job *j)
{
    return (j->rot >= 0 ? pv_cos_work(j->plan) : 0)
           + 2 * j->n * (1 + COST_TERM * (j->nterms - (j->rot >= 0)));
}

/* tau times the rotation part (already in t), plus the other terms, for
 * t[x], x in [x0, x1). */
static void finish(const struct scores_table_job *j,
                   const struct score_ctx *s, double *t, int64_t x0,
                   int64_t x1)
{
    int64_t n = j->n;
    for (int64_t x = x0; x < x1; x++) {
        int64_t dl = x - (n - 1);
        double sum = j->rot >= 0 ? t[x] : 0.0;
        for (int k = 0; k < s->nterms; k++)
            if (k != j->rot)
                sum += scores_term_at(s, k, dl, 0);
        t[x] = s->tau * sum;
    }
}

int scores_table_job_step(struct scores_table_job *j,
                          const struct score_ctx *s, double *t,
                          int64_t *budget)
{
    if (j->done)
        return 0;
    if (j->rot >= 0 && pv_cos_step(j->plan, t, budget))
        return 1;
    while (j->next < 2 * j->n - 1) {
        if (*budget <= 0)
            return 1;
        int64_t end = j->next + FINISH_SLICE;
        end = end < 2 * j->n - 1 ? end : 2 * j->n - 1;
        finish(j, s, t, j->next, end);
        *budget -= (end - j->next) * (1 + COST_TERM * (j->nterms
                                                       - (j->rot >= 0)));
        j->next = end;
    }
    j->done = 1;
    return 0;
}

int scores_toeplitz_table(const struct score_ctx *s, double *t)
{
    struct scores_table_job *j = scores_table_job_renew(NULL, s);
    if (!j)
        return -1;
    int64_t budget = INT64_MAX / 2;
    scores_table_job_step(j, s, t, &budget);
    scores_table_job_free(j);
    return 0;
}

/* ---- spans of the table anywhere ------------------------------------------ */

struct scores_span_job {
    int rot;
    int64_t len;
    pv_cos_plan *plan;          /* for tau times the rotation part */
    double *coef;               /* [2 half]: tau a_k, tau b_k */
    double *f[2];               /* [len] each: the rotation part, where
                                   other terms are added (else NULL) */
};

void scores_span_free(struct scores_span_job *j)
{
    if (!j)
        return;
    pv_cos_free(j->plan);
    free(j->coef);
    free(j->f[0]);
    free(j);
}

/* The plan for tau times the rotation term (PE.PE: a_k = 1, b_k = 0);
 * 0, or -1 when out of memory. */
static int span_plan(struct scores_span_job *j, const struct score_ctx *s)
{
    int psin = s->terms[j->rot].a == SK_PSIN, m = s->half;
    if (!(j->coef = malloc(2 * (size_t)(m > 0 ? m : 1) * sizeof *j->coef)))
        return -1;
    for (int k = 0; k < m; k++) {
        j->coef[k] = s->tau * (psin ? 1.0 : s->ra[k]);
        j->coef[m + k] = psin || !s->rb ? 0.0 : s->tau * s->rb[k];
    }
    j->plan = pv_cos_new(s->omega, j->coef, j->coef + m, m, j->len);
    return j->plan && pv_cos_span(j->plan) == j->len
           && pv_cos_pair_prepare(j->plan) == 0 ? 0 : -1;
}

struct scores_span_job *scores_span_new(const struct score_ctx *s,
                                        int64_t len)
{
    struct scores_span_job *j;
    if (!s->toeplitz || len < 128 || len > 65536 || (len & (len - 1))
        || !(j = calloc(1, sizeof *j)))
        return NULL;
    j->len = len;
    j->rot = rot_term(s);
    if (j->rot < 0)
        return j;
    if (span_plan(j, s)) {
        scores_span_free(j);
        return NULL;
    }
    if (s->nterms > 1) {
        j->f[0] = pv_big_alloc(2 * (size_t)len * sizeof *j->f[0]);
        if (!j->f[0]) {
            scores_span_free(j);
            return NULL;
        }
        j->f[1] = j->f[0] + len;
    }
    return j;
}

void scores_span_pair(struct scores_span_job *j, const struct score_ctx *s,
                      int64_t x0, int64_t x1, double *t0, double *t1)
{
    int64_t n = s->n, x[2] = { x0, x1 }, half = j->len / 2;
    double *t[2] = { t0, t1 };
    if (j->rot >= 0 && !j->f[0]) {  /* the rotation term alone */
        pv_cos_pair(j->plan, x0 - (n - 1) + half, x1 - (n - 1) + half, t0,
                    t1);
        return;
    }
    if (j->rot >= 0)
        pv_cos_pair(j->plan, x0 - (n - 1) + half, x1 - (n - 1) + half,
                    j->f[0], t1 ? j->f[1] : NULL);
    for (int h = 0; h < 2; h++) {
        if (!t[h])
            continue;
        for (int64_t u = 0; u < j->len; u++) {
            int64_t dl = x[h] + u - (n - 1);
            double sum = 0.0;
            for (int k = 0; k < s->nterms; k++)
                if (k != j->rot)
                    sum += scores_term_at(s, k, dl, 0);
            t[h][u] = s->tau * sum + (j->rot >= 0 ? j->f[h][u] : 0.0);
        }
    }
}

/* ---- normalisers ----------------------------------------------------------- */

/* A double-double running sum: hi + lo, lo gathering the rounding of
 * each addition exactly (two-sum). */
struct dd {
    double hi, lo;
};

static void dd_add(struct dd *a, double x)
{
    double s = a->hi + x, bp = s - a->hi;
    a->lo += (a->hi - (s - bp)) + (x - bp);
    a->hi = s;
}

int scores_softmax_norms(const struct score_ctx *s, double *z, double *shift)
{
    int64_t n = s->n;
    double *t = malloc((size_t)(2 * n - 1) * sizeof *t);
    if (!t || scores_toeplitz_table(s, t)) {
        free(t);
        return -1;
    }
    int causal = s->o.causal;
    double mx = -INFINITY;
    for (int64_t x = causal ? n - 1 : 0; x < 2 * n - 1; x++)
        mx = t[x] > mx ? t[x] : mx;
    for (int64_t x = causal ? n - 1 : 0; x < 2 * n - 1; x++)
        t[x] = t[x] - mx < -746.0 ? 0.0 : exp(t[x] - mx);   /* underflow */
    /* row i sees delta = i - j in [i - (n-1), i], or [0, i] causal */
    struct dd w = { 0.0, 0.0 };
    for (int64_t x = causal ? n - 1 : 0; x < n; x++)
        dd_add(&w, t[x]);
    z[0] = w.hi + w.lo;
    for (int64_t i = 1; i < n; i++) {
        dd_add(&w, t[i + n - 1]);
        if (!causal)
            dd_add(&w, -t[i - 1]);
        z[i] = w.hi + w.lo;
    }
    *shift = mx;
    free(t);
    return 0;
}
