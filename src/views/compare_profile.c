/* SPDX-License-Identifier: ISC */
/*
 * compare_profile.c - the compare view's profile mode: the score
 * PE(i).PE(j) against the distance i - j, every pane a curve on one set
 * of axes (a point per dot column, or per distance when they are fewer:
 * then each point the exact mean of the distances it covers), and the
 * readout as the legend.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "plot.h"
#include "text.h"
#include "glyph.h"
#include "peviz/pe.h"
#include "compare_view.h"

/* What the readout's end says of the curves: the formula, or that each
 * point is a mean; three wordings, longest first. */
static void profile_tails(const struct app *a, const struct rpane *rp,
                          int np, int odd, const char *per, char tail[3][96])
{
    const char *dl = glyph_pick(a->ascii, "\u03B4", "d");
    if (cmp_any_scheme(rp, np))
        snprintf(tail[0], sizeof tail[0], "score S(%s, 0) of each pane's "
                 "scheme", dl);
    else
        snprintf(tail[0], sizeof tail[0], "score = %s cos(%s%s%s_i)%s%s",
                 glyph(a->ascii, GL_SIGMA), dl, glyph(a->ascii, GL_MUL),
                 glyph(a->ascii, GL_OMEGA),
                 cmp_any_scaled(rp, np) ? ", unscaled" : "",
                 odd ? ", f64, any layout" : "");
    snprintf(tail[1], sizeof tail[1], "%s", odd ? "(f64 scores)" : "");
    tail[2][0] = 0;
    if (per) {          /* the curve's points are means: say so first */
        snprintf(tail[0], sizeof tail[0], "curve: each point the mean of "
                 "%s distances", per);
        snprintf(tail[1], sizeof tail[1], "points: means of %s", per);
        snprintf(tail[2], sizeof tail[2], "mean of %s", per);
    }
}

/* Pane r's score at distance delta as the readout shows it ("-" past
 * its n). */
static void profile_value_text(const struct cmp_frame *f,
                               const struct rpane *r, int64_t delta,
                               char *buf, size_t len)
{
    snprintf(buf, len, "-");
    if (delta < r->n)
        cmp_num(r->scheme < 0 ? pe_score((double)delta, r->d, r->base)
                              : cmp_score_at(f, r, delta), buf, len);
}

/* After the legend, each pane's horizon beside its model's context, in
 * the longest wording that fits before the last column; returns the
 * column after it. */
static int profile_horizons(const struct app *a, canvas *c, int x, int y,
                            const struct rpane *rp, int np)
{
    for (int k = 0; k < np; k++) {
        char hz[2][CMP_HORIZON_LEN], t[CMP_HORIZON_LEN + 8];
        int nw = cmp_horizon_text(a, &rp[k], hz);
        for (int v = 0; v < nw; v++) {
            snprintf(t, sizeof t, "%c %.*s  ", 'A' + rp[k].id,
                     CMP_HORIZON_LEN - 1, hz[v]);
            if (x + text_width(t) <= c->w) {
                x += canvas_text(c, x, y, c->w, t, cmp_uc(a, UI_TEXT),
                                 RGB_DEFAULT, 0);
                break;
            }
        }
    }
    return x;
}

/*
 * The readout doubles as the legend: each pane's colour, base and score
 * at the cursor's distance.
 */
static void profile_readout(const struct app *a, canvas *c,
                            const struct cmp_frame *f)
{
    const struct geom *g = &f->g;
    const struct rpane *rp = f->rp;
    char pers[32];
    const char *per = f->xm.k > 1 ? pers : NULL;
    int odd = 0;
    snprintf(pers, sizeof pers, "%lld", (long long)f->xm.k);
    for (int k = 0; k < f->np; k++)
        odd |= rp[k].layout != LAYOUT_INTERLEAVED || rp[k].prec != PREC_F64;
    char sc[COMPARE_MAX_PANES][24];
    for (int k = 0; k < g->np; k++)
        profile_value_text(f, &rp[k], a->p.pos, sc[k], sizeof sc[k]);
    for (int v = 0; v < 3; v++) {
        char line[COMPARE_MAX_PANES][128];
        int width = 0, y = g->read_y, x = 0;
        char head[48];
        snprintf(head, sizeof head, v < 2 ? "distance %lld:" : "%lld:",
                 (long long)a->p.pos);
        width = text_width(head) + 1;
        for (int k = 0; k < g->np; k++) {
            char b[24];
            fmt_base(rp[k].base, b, sizeof b);
            if (v == 0 && rp[k].scheme >= 0)
                snprintf(line[k], sizeof line[k], " %c %s: %.23s", 'A' + rp[k].id,
                         scheme_name((enum scheme)rp[k].scheme), sc[k]);
            else if (v == 0)
                snprintf(line[k], sizeof line[k], " %c base=%s: %.23s", 'A' + rp[k].id,
                         b, sc[k]);
            else
                snprintf(line[k], sizeof line[k], " %c %.23s", 'A' + rp[k].id, sc[k]);
            width += text_width(line[k]) + 2 + 2;
        }
        if (width > c->w && v < 2)
            continue;
        x += canvas_text(c, x, y, c->w, head, cmp_uc(a, UI_TEXT), RGB_DEFAULT, 0) + 1;
        for (int k = 0; k < g->np; k++) {
            char mk[16];    /* the curve and the letter set on it */
            snprintf(mk, sizeof mk, "%s%c",
                     plot_style_sample(k % PLOT_STYLES, a->ascii),
                     'A' + rp[k].id);
            x = cmp_legend_piece(c, x, y, mk, cmp_pane_rgb(a, rp[k].id), line[k] + 2,
                             cmp_uc(a, UI_TEXT));
        }
        x = profile_horizons(a, c, x, y, rp, g->np);
        char tail[3][96];
        profile_tails(a, rp, g->np, odd, per, tail);
        int t = text_first_fit_rows(tail[0], sizeof tail[0], per ? 3 : 2,
                                    c->w - x);
        if (t >= 0)
            canvas_text(c, x, y, -1, tail[t], cmp_uc(a, UI_DIM), RGB_DEFAULT, 0);
        return;
    }
}

static int profile_draw(const struct app *a, canvas *c,
                        const struct cmp_frame *f, const struct cmp_values *v,
                        char *hint, size_t hintlen)
{
    const struct geom *g = &f->g;
    const struct axis *xm = &f->xm;
    if (cmp_distance_ready(f, v, hint, hintlen) < 0)
        return -1;
    struct plot_series ser[COMPARE_MAX_PANES];
    for (int k = 0; k < g->np; k++) {
        ser[k].y = v->v + (size_t)xm->used * (size_t)k;
        ser[k].n = xm->used;
        ser[k].col = cmp_pane_rgb(a, f->rp[k].id);
        ser[k].mark = g->np > 1 ? (char)('A' + f->rp[k].id) : 0;
        ser[k].style = k % PLOT_STYLES;     /* solid, dotted, sparse: apart
                                               in mono, with the letters */
    }
    cmp_distance_plot(a, c, f, ser, g->np);
    if (cmp_scores_refused(f, xm, hint, hintlen))
        return 0;
    if (xm->k > 1)
        snprintf(hint, hintlen, "1 point = mean of %lld distances",
                 (long long)xm->k);
    else
        snprintf(hint, hintlen, "1 point = 1 distance");
    return 0;
}

/* Each pane's score against distance (NAN past its n). */
static void profile_work(const struct cmp_frame *f, struct cmp_values *out)
{
    const struct axis *xm = &f->xm;
    out->v = NULL;
    out->scale = 1;
    if (xm->cells < 1 || f->g.body_h < 1)
        return;
    double *vals = malloc(sizeof(double) * (size_t)(xm->used > 0 ? xm->used
                                                                 : 1)
                          * (size_t)f->np);
    out->v = vals;
    if (!vals)
        return;
    for (int k = 0; k < f->np; k++) {
        double *v = vals + (size_t)xm->used * (size_t)k;
        if (cmp_scores_fill(f, &f->rp[k], xm, v))
            for (int i = 0; i < xm->used; i++)
                v[i] = BLANK;
        for (int i = 0; i < xm->used; i++)
            if (v[i] == BLANK)
                v[i] = NAN;
    }
}

const struct cmp_mode CMP_PROFILE = {
    .name = "profile", .scores = 1, .layout = cmp_distance_layout, .work = profile_work,
    .draw = profile_draw, .readout = profile_readout,
};
