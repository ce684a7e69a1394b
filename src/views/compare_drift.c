/* SPDX-License-Identifier: ISC */
/*
 * compare_drift.c - the compare view's drift mode: each pane's score
 * against the distance i - j minus pane A's, S_X(delta, 0) - S_A(delta,
 * 0), the curves of B - A and C - A on one set of axes.  With the same
 * q and k and the other --rope-layout in pane B, it is what a port that
 * pairs the dimensions wrongly does to the scores; with two schemes, how
 * far apart they are.  The readout gives each difference at the cursor
 * and the largest |X - A| over the distances shown.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "plot.h"
#include "text.h"
#include "compare_view.h"

/* Series k of the work's values: pane k's score minus pane A's. */
static double *series(const struct cmp_frame *f, const struct cmp_values *v,
                      int k)
{
    return v->v + (size_t)f->xm.used * (size_t)k;
}

/* x - a, 0 when the two differ only by rounding (as the attention
 * inspector's drift). */
static double drift_of(double x, double a)
{
    return fabs(x - a) <= 1e-12 * (fabs(x) + fabs(a)) ? 0.0 : x - a;
}

/* Every pane's scores, then each minus pane A's (NAN where either is
 * missing); series 0 is A's own scores. */
static void drift_work(const struct cmp_frame *f, struct cmp_values *out)
{
    const struct axis *xm = &f->xm;
    size_t m = (size_t)(xm->used > 0 ? xm->used : 1);
    out->scale = 1;
    out->v = xm->cells < 1 || f->g.body_h < 1 ? NULL
           : malloc(sizeof(double) * m * (size_t)f->np);
    if (!out->v)
        return;
    for (int k = 0; k < f->np; k++) {
        double *v = series(f, out, k);
        if (cmp_scores_fill(f, &f->rp[k], xm, v))
            for (int i = 0; i < xm->used; i++)
                v[i] = BLANK;
    }
    for (int k = f->np - 1; k >= 0; k--) {
        double *v = series(f, out, k), *va = series(f, out, 0);
        for (int i = 0; i < xm->used; i++)
            v[i] = v[i] == BLANK || va[i] == BLANK ? NAN
                 : k > 0 ? drift_of(v[i], va[i]) : v[i];
    }
}

/* The largest |X - A| over the distances shown, per pane. */
static void drift_hint(const struct cmp_frame *f, const struct cmp_values *v,
                       char *hint, size_t hintlen)
{
    size_t at = 0;
    for (int k = 1; k < f->np && at < hintlen; k++) {
        const double *y = series(f, v, k);
        double m = 0;
        char b[24];
        for (int i = 0; i < f->xm.used; i++)
            if (isfinite(y[i]) && fabs(y[i]) > m)
                m = fabs(y[i]);
        cmp_num(m, b, sizeof b);
        at += (size_t)snprintf(hint + at, hintlen - at, "%smax |%c-%c| %s",
                               k > 1 ? ", " : "", 'A' + f->rp[k].id,
                               'A' + f->rp[0].id, b);
    }
}

static int drift_draw(const struct app *a, canvas *c,
                      const struct cmp_frame *f, const struct cmp_values *v,
                      char *hint, size_t hintlen)
{
    const struct axis *xm = &f->xm;
    if (f->np < 2 || cmp_distance_ready(f, v, hint, hintlen) < 0)
        return -1;
    struct plot_series ser[COMPARE_MAX_PANES];
    for (int k = 1; k < f->np; k++) {
        ser[k - 1] = (struct plot_series){
            .y = series(f, v, k), .n = xm->used,
            .col = cmp_pane_rgb(a, f->rp[k].id),
            .mark = (char)('A' + f->rp[k].id), .style = k % PLOT_STYLES };
    }
    cmp_distance_plot(a, c, f, ser, f->np - 1);
    if (!cmp_scores_refused(f, xm, hint, hintlen))
        drift_hint(f, v, hint, hintlen);
    return 0;
}

/* "distance 5: B-A 0.31  C-A -2", with the colour of each pane. */
static void drift_readout(const struct app *a, canvas *c,
                          const struct cmp_frame *f)
{
    int y = f->g.read_y, x = 0;
    char head[48];
    snprintf(head, sizeof head, "distance %lld:", (long long)a->p.pos);
    x += canvas_text(c, x, y, c->w, head, cmp_uc(a, UI_TEXT), RGB_DEFAULT,
                     0) + 1;
    for (int k = 1; k < f->np; k++) {
        char d[24] = "-", mk[16], t[48];
        double v = drift_of(cmp_score_at(f, &f->rp[k], a->p.pos),
                            cmp_score_at(f, &f->rp[0], a->p.pos));
        if (isfinite(v))
            cmp_num(v, d, sizeof d);
        snprintf(mk, sizeof mk, "%s%c",
                 plot_style_sample(k % PLOT_STYLES, a->ascii),
                 'A' + f->rp[k].id);
        snprintf(t, sizeof t, "-%c %s", 'A' + f->rp[0].id, d);
        x = cmp_legend_piece(c, x, y, mk, cmp_pane_rgb(a, f->rp[k].id), t,
                             cmp_uc(a, UI_TEXT));
    }
    if (x + 24 < c->w)
        canvas_text(c, x, y, -1, "score minus pane A's", cmp_uc(a, UI_DIM),
                    RGB_DEFAULT, 0);
}

const struct cmp_mode CMP_DRIFT = {
    .name = "drift", .vs_a = 1, .scores = 1, .layout = cmp_distance_layout,
    .work = drift_work, .draw = drift_draw, .readout = drift_readout,
};
