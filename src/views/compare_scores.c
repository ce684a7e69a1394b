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

/* The exact mean of S(delta, 0) over the distances [d0, d1). */
static double range_mean(const struct score_ctx *s, int64_t d0, int64_t d1)
{
    if (s->toeplitz)
        return scores_distance_mean(s, d0, d1);
    return scores_block_mean(s, d0, d1, 0, 1);
}

int cmp_scores_fill(const struct cmp_frame *f, const struct rpane *r,
                    const struct axis *xm, double *vals)
{
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
