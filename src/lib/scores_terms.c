/* SPDX-License-Identifier: ISC */
/*
 * scores_terms.c - what a scheme's setup (schemes.c) builds a score
 * from (scores.h): the terms it adds to a context, and the query scale
 * of NoPE's temperature and the log-length factor.  Below both schemes.c
 * and scores.c, which use it and each other's tables, not each other's
 * functions.
 */
#include "peviz/scores.h"

#include <math.h>

double scores_qscale(const struct score_ctx *s, int64_t p)
{
    const struct score_opts *o = &s->o;
    double g = 1.0;
    if (o->temp_tuning && o->floor_scale > 0)
        g *= log(floor((double)(p + 1) / o->floor_scale) + 1.0)
             * o->attn_scale + 1.0;
    if (o->beta > 0 && o->beta_len > 0)
        g *= 1.0 + o->beta * log(1.0 + floor((double)p / (double)o->beta_len));
    return g;
}

int scores_qscaled(const struct score_ctx *s)
{
    return s->n > 0 && scores_qscale(s, s->n - 1) != 1.0;
}

void scores_term_add(struct score_ctx *s, enum term_type type,
                     enum score_kind a, enum score_kind b, const char *name)
{
    if (s->nterms < SCORES_MAX_TERMS)
        s->terms[s->nterms++] = (struct score_term){ type, a, b, name, NULL };
}

void scores_dist_add(struct score_ctx *s, const struct dist_ops *ops,
                     const char *name)
{
    if (s->nterms < SCORES_MAX_TERMS)
        s->terms[s->nterms++] = (struct score_term){ TERM_DIST, SK_E, SK_E,
                                                     name, ops };
}

void scores_terms_additive(struct score_ctx *s, enum score_kind pk,
                           int has_p)
{
    if (!s->o.content) {
        if (has_p)
            scores_term_add(s, TERM_DOT, pk, pk, "p.p");
        return;
    }
    scores_term_add(s, TERM_DOT, SK_E, SK_E, "e.e");
    if (!has_p)
        return;
    scores_term_add(s, TERM_DOT, SK_E, pk, "e.p");
    scores_term_add(s, TERM_DOT, pk, SK_E, "p.e");
    scores_term_add(s, TERM_DOT, pk, pk, "p.p");
}
