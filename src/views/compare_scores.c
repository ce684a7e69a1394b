/* SPDX-License-Identifier: ISC */
/*
 * compare_scores.c - below the compare view's pane modes: each pane's
 * attention scores against the distance i - j.  A pane without a scheme
 * shows PE(i).PE(j) at its base (no toggles); a pane with one shows S
 * as the attention view and --export scores compute it for the pane's
 * base, d_model, n and RoPE scaling, with the attention view's options
 * and the pane's own q/k pairs: S(delta, 0), query delta, key 0, which
 * is S at every (i, i - delta) when S depends on i - j alone.
 */
#include <math.h>
#include <stdio.h>

#include "app.h"
#include "compare_view.h"

struct score_ctx *cmp_scores_new(const struct cmp_frame *f,
                                 const struct rpane *r)
{
    if (r->scheme < 0)
        return scores_new(r->d, r->base, r->n, &r->so, NULL);
    params p = f->app->p;
    p.d = r->d;
    p.base = r->base;
    p.n = r->n;
    p.pos = 0;
    p.rope = *r->rope;
    return app_scores_new_for(f->app, &p, &r->so);
}

int cmp_scores_costly(const struct rpane *r, double positions)
{
    int brute = r->scheme == SCHEME_LEARNED ||
                (r->scheme >= 0 && r->so.content);
    return brute && positions * r->d > CMP_BRUTE_CAP;
}

/* The exact mean of S(delta, 0) over the distances [d0, d1). */
static double range_mean(const struct score_ctx *s, int64_t d0, int64_t d1)
{
    if (s->toeplitz)
        return scores_distance_mean(s, d0, d1);
    return scores_block_mean(s, d0, d1, 0, 1);
}

/* The distances xm covers. */
static double xm_span(const struct axis *xm)
{
    int64_t d0, d1, e0, e1;
    if (xm->used < 1 || !cmp_xmap_range(xm, 0, &d0, &d1) ||
        !cmp_xmap_range(xm, xm->used - 1, &e0, &e1))
        return 0;
    return (double)(e1 - d0);
}

int cmp_scores_refused(const struct cmp_frame *f, const struct axis *xm,
                       char *hint, size_t len)
{
    for (int k = 0; k < f->np; k++)
        if (cmp_scores_costly(&f->rp[k], xm_span(xm))) {
            snprintf(hint, len, "pane %c: too many positions to sum %s: "
                     "zoom in (=) or see the attention view",
                     'A' + f->rp[k].id, f->rp[k].scheme == SCHEME_LEARNED
                     ? "learned rows" : "embeddings");
            return 1;
        }
    return 0;
}

int cmp_scores_fill(const struct cmp_frame *f, const struct rpane *r,
                    const struct axis *xm, double *vals)
{
    if (cmp_scores_costly(r, xm_span(xm)))
        return -2;
    struct score_ctx *s = cmp_scores_new(f, r);
    if (!s)
        return -1;
    for (int col = 0; col < xm->used; col++) {
        int64_t d0, d1;
        if (!cmp_xmap_range(xm, col, &d0, &d1) || d0 >= r->n) {
            vals[col] = BLANK;
            continue;
        }
        vals[col] = range_mean(s, d0, d1 < r->n ? d1 : r->n);
    }
    scores_free(s);
    return 0;
}

double cmp_score_at(const struct cmp_frame *f, const struct rpane *r,
                    int64_t delta)
{
    if (delta < 0 || delta >= r->n)
        return NAN;
    struct score_ctx *s = cmp_scores_new(f, r);
    if (!s)
        return NAN;
    double v = range_mean(s, delta, delta + 1);
    scores_free(s);
    return v;
}

int cmp_any_scheme(const struct rpane *rp, int np)
{
    for (int k = 0; k < np; k++)
        if (rp[k].scheme >= 0)
            return 1;
    return 0;
}
