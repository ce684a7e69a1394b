/* SPDX-License-Identifier: ISC */
/*
 * compare_common.c - below the compare view's pane modes: the panes as
 * drawn (each with what it inherits from the global settings), where
 * they go on the screen, positions across them, labels, legends and the
 * bands of a RoPE scaling.  It calls nothing above it.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "glyph.h"
#include "text.h"
#include "peviz/bound.h"
#include "compare_view.h"

/* ---- small helpers ---------------------------------------------------- */

rgb cmp_uc(const struct app *a, enum ui_color c)
{
    return ui_color(a->palette, c);
}

rgb cmp_pane_rgb(const struct app *a, int k)
{
    return cmp_uc(a, (enum ui_color)(UI_PLOT_A + k));
}

double cmp_log10_wavelength(const struct rpane *r, int i)
{
    return LOG10_2PI - log10(r->plan->omega_base[i]);
}

/* ---- the panes as drawn ----------------------------------------------- */

/*
 * Pane A is the global parameters (-b, -d, the status line); the other
 * panes hold their own base and, once changed, their own d_model.
 */
double cmp_pane_base(const struct app *a, int k)
{
    double b = a->cmp.panes[k].base;
    return k > 0 && b > 1 ? b : a->p.base;
}

int cmp_pane_d(const struct app *a, int k)
{
    int d = a->cmp.panes[k].d;
    return k > 0 && d > 0 ? d : a->p.d;
}

/* The preset pane k was last set from: panes D, E, F take pane A's. */
static const struct rope_preset *pane_preset(const struct app *a, int k)
{
    return rope_preset_at(
        a->cmp.panes[k < COMPARE_ROPE_PANES ? k : 0].model - 1);
}

int cmp_pane_layer(const struct app *a, int k)
{
    const struct pane *p = &a->cmp.panes[k];
    const struct rope_preset *m = pane_preset(a, k);
    return p->layer > 0 && ((m && m->nope_every > 0) || p->cfg)
           ? p->layer - 1 : -1;
}

/* Whether two scalings are the same settings. */
static int rope_same(const rope_scaling *x, const rope_scaling *y)
{
    if (x->method != y->method || x->factor != y->factor ||
        x->original_max != y->original_max ||
        x->low_freq_factor != y->low_freq_factor ||
        x->high_freq_factor != y->high_freq_factor ||
        x->beta_fast != y->beta_fast || x->beta_slow != y->beta_slow ||
        x->truncate != y->truncate || x->mscale != y->mscale ||
        x->mscale_all_dim != y->mscale_all_dim ||
        x->attention_factor != y->attention_factor ||
        x->ext_complement != y->ext_complement ||
        x->plain_softmax != y->plain_softmax ||
        x->nshort != y->nshort || x->nlong != y->nlong)
        return 0;
    for (int i = 0; i < x->nshort && i < ROPE_FACTORS_MAX; i++)
        if (x->short_factor[i] != y->short_factor[i])
            return 0;
    for (int i = 0; i < x->nlong && i < ROPE_FACTORS_MAX; i++)
        if (x->long_factor[i] != y->long_factor[i])
            return 0;
    return 1;
}

/* The preset pane k was last set from, while it still has exactly its
 * settings (a changed factor makes it another model); else -1. */
static int pane_model(const struct app *a, int k, const struct rpane *r)
{
    int m = a->cmp.panes[k].model - 1;
    params q = a->p;
    char err[APP_MSG_LEN];
    if (m < 0 || m >= rope_preset_count() ||
        params_set_model(&q, rope_preset_at(m)->name, err, sizeof err))
        return -1;
    return q.d == r->d && q.base == r->base && rope_same(&q.rope, r->rope)
           ? m : -1;
}

/* The pane's scheme and its score options: the attention view's with
 * the pane's own scheme and q/k pairs. */
static void pane_scheme(const struct app *a, int k, struct rpane *r)
{
    const struct pane *p = &a->cmp.panes[k];
    r->scheme = p->scheme > 0 && p->scheme <= scheme_count()
                ? p->scheme - 1 : -1;
    r->layer = cmp_pane_layer(a, k);
    r->so = a->att.o;
    if (r->layer >= 0 && !p->cfg) { /* the model's layer: RoPE, or NoPE
                                       with temperature tuning (Llama 4) */
        int nope = rope_preset_nope_layer(pane_preset(a, k), r->layer);
        r->scheme = nope ? SCHEME_NOPE : SCHEME_ROPE;
        r->so.temp_tuning = nope;
        if (nope)           /* Llama 4's NoPE layers: the whole causal
                               triangle, no chunk */
            r->so.window = r->so.chunk = 0;
    }
    r->has = r->scheme < 0 ? SCHEME_HAS_BANDS : scheme_info(r->scheme)->has;
    if (r->scheme < 0) {        /* PE(i).PE(j): sinusoidal, no toggles */
        scores_defaults(&r->so);
        return;
    }
    r->so.scheme = (enum scheme)r->scheme;
    if (p->pairs > 0 && p->pairs <= QK_PAIRS_COUNT)
        r->so.qk_pairs = p->pairs - 1;
}

static void pane_resolve(const struct app *a, int k, struct rpane *r)
{
    const struct pane *p = &a->cmp.panes[k];
    r->base = cmp_pane_base(a, k);
    r->d = cmp_pane_d(a, k);
    r->n = p->n > 0 ? p->n : a->p.n;
    r->layout = p->layout;
    r->prec = p->prec;
    r->rope = k > 0 && k < COMPARE_ROPE_PANES ? &p->rope : &a->p.rope;
    r->plan = plans_get(r->rope, r->d, r->base, r->n);
    r->crit = r->plan->crit;
    r->crit_base = r->plan->crit_base;
    r->slow_turns = r->plan->turns[r->d / 2 - 1];
    r->slow_turns_base = pow(10, log10((double)r->n) -
                             cmp_log10_wavelength(r, r->d / 2 - 1));
    r->model = pane_model(a, k, r);
    pane_scheme(a, k, r);
}

int cmp_npanes(const struct app *a)
{
    int np = a->cmp.npanes;
    return np < 1 ? 1 : np > COMPARE_MAX_PANES ? COMPARE_MAX_PANES : np;
}

void cmp_resolve(const struct app *a, struct cmp_frame *f, int alone)
{
    f->app = a;
    f->np = cmp_npanes(a);
    f->dmax = 2;
    f->nmax = 1;
    for (int k = 0; k < f->np; k++) {
        struct rpane *r = &f->rp[k];
        pane_resolve(a, k, r);
        r->id = k;
        if (r->d > f->dmax)
            f->dmax = r->d;
        if (r->n > f->nmax)
            f->nmax = r->n;
    }
    if (alone && f->np > 1) {
        f->rp[0] = f->rp[a->cmp.active < f->np ? a->cmp.active : 0];
        f->np = 1;
        f->dmax = f->rp[0].d;
        f->nmax = f->rp[0].n;
    }
}

int cmp_any_scaled(const struct rpane *rp, int np)
{
    for (int k = 0; k < np; k++)
        if (rp[k].rope && rp[k].rope->method != ROPE_NONE)
            return 1;
    return 0;
}

/* ---- numbers, labels and legends -------------------------------------- */

void cmp_num(double v, char *buf, size_t len)
{
    fmt_num(v, 4, buf, len);
}

/* The number 10^l as cmp_num() shows it, also beyond the largest double. */
void cmp_num_log10(double l, char *buf, size_t len)
{
    double e = floor(l), m = pow(10, l - e);
    if (l < 300) {
        cmp_num(pow(10, l), buf, len);
        return;
    }
    if (m >= 9.9995) {          /* rounds up to the next power of ten */
        m = 1;
        e += 1;
    }
    snprintf(buf, len, "%.4ge%.0f", m, e);
}

/* Right-aligned text ending at column xr (exclusive). */
void cmp_text_right(canvas *c, int xr, int y, const char *s, rgb fg)
{
    int tw = text_width(s);
    canvas_text(c, xr - tw, y, tw, s, fg, RGB_DEFAULT, 0);
}

int cmp_axis_ends(const struct app *a, canvas *c, int x, int y, int end,
                  const char *lo, const char *hi, int col)
{
    int wl = text_width(lo), wh = hi ? text_width(hi) : 0;
    if (col < 0 || col >= wl)
        canvas_text(c, x, y, end, lo, cmp_uc(a, UI_AXIS), RGB_DEFAULT, 0);
    int hx = col >= end - wh && col < end ? col : end;
    if (hi && wl + wh + 1 < hx)
        cmp_text_right(c, x + hx, y, hi, cmp_uc(a, UI_AXIS));
    return hx;
}

/* Draw a run of coloured legend pieces; returns the x after them. */
int cmp_legend_piece(canvas *c, int x, int y, const char *mark, rgb mc,
                        const char *text, rgb tc)
{
    if (x >= c->w)
        return x;
    x += canvas_text(c, x, y, -1, mark, mc, RGB_DEFAULT, ATTR_BOLD);
    x += canvas_text(c, x, y, -1, text, tc, RGB_DEFAULT, 0);
    return x + 2;
}

/* Whether cells [x, x + w) of row y are blank (and inside). */
static int row_clear(const canvas *pc, int x, int y, int w)
{
    for (int i = x; i < x + w; i++) {
        const cell *k = canvas_at(pc, i, y);
        if (!k || k->kind != CELL_TEXT || k->ch != ' ')
            return 0;
    }
    return 1;
}

int cmp_label_try(canvas *pc, int x, int y, const char *t, rgb fg, int attr)
{
    if (x < 0 || !row_clear(pc, x, y, text_width(t)))
        return 0;
    canvas_text(pc, x, y, pc->w, t, fg, RGB_DEFAULT, attr);
    return 1;
}

/* Whether cell (x, y) holds no curve (braille dots): a label beside a
 * line keeps a cell from any curve on either side, or it reads as the
 * curve's. */
static int no_curve(const canvas *pc, int x, int y)
{
    const cell *k = canvas_at(pc, x, y);
    return x < 0 || x >= pc->w || !k || k->ch < 0x2800 || k->ch > 0x28FF;
}

/* The label t at (x, y) if its cells are blank and no curve touches it. */
static int beside_try(canvas *pc, int x, int y, const char *t, rgb fg)
{
    int tw = text_width(t);
    return no_curve(pc, x - 1, y) && no_curve(pc, x + tw, y) &&
           cmp_label_try(pc, x, y, t, fg, ATTR_BOLD);
}

void cmp_label_beside(canvas *pc, int col, int y0, const char *t, rgb fg)
{
    int tw = text_width(t);
    for (int row = y0; row < pc->h; row++)
        if (beside_try(pc, col + 1, row, t, fg) ||
            beside_try(pc, col - tw, row, t, fg))
            return;
    int x = col + 1 + tw <= pc->w ? col + 1 : col - tw;
    x = x < 0 ? 0 : x;
    for (int i = x; i < x + tw; i++) {     /* never over another label */
        const cell *k = canvas_at(pc, i, y0);
        if (k && k->kind == CELL_TEXT && k->ch < 128 &&
            (isalnum((int)k->ch) || k->ch == '='))
            return;
    }
    canvas_text(pc, x, y0, pc->w, t, fg, RGB_DEFAULT, ATTR_BOLD);
}

/* ---- geometry ----------------------------------------------------------- */

static int any_tags(const struct rpane *rp, int np)
{
    for (int k = 0; k < np; k++)
        if (rp[k].layout != LAYOUT_INTERLEAVED || rp[k].prec != PREC_F64)
            return 1;
    return 0;
}

void cmp_geom_make(struct cmp_frame *f, int labw)
{
    struct geom *g = &f->g;
    int w = f->w, h = f->h, np = f->np;
    memset(g, 0, sizeof *g);
    g->np = np;
    g->labw = w >= 40 ? labw : 0;
    g->pw = (w - g->labw - (np - 1)) / np;
    for (int k = 0; k < np; k++)
        g->px[k] = g->labw + k * (g->pw + 1);
    g->head_h = h >= 18 ? 3 : h >= 10 ? 2 : 1;
    g->tags = any_tags(f->rp, np) && h >= 20;
    g->head_h += g->tags;
    g->read_y = h >= 8 ? h - 1 : -1;
    g->legend_y = h >= 14 ? h - 2 : -1;
    int bottom = g->legend_y >= 0 ? g->legend_y : g->read_y >= 0 ? g->read_y : h;
    g->axis_y = h >= 8 ? bottom - 1 : -1;
    g->body_y = g->head_h;
    g->body_h = (g->axis_y >= 0 ? g->axis_y : bottom) - g->body_y;
}

/* Lines between the panes over rows [y0, y1). */
void cmp_separators(const struct app *a, canvas *c, const struct geom *g,
                    int y0, int y1)
{
    for (int k = 1; k < g->np; k++)
        canvas_vline(c, g->px[k] - 1, y0, y1 - y0, cmp_uc(a, UI_AXIS));
}

void cmp_body_separators(const struct app *a, canvas *c, const struct geom *g)
{
    cmp_separators(a, c, g, g->body_y, g->axis_y >= 0 ? g->axis_y + 1
                                                        : g->body_y + g->body_h);
}

/* ---- positions across ------------------------------------------------- */

/* Positions (or distances) across cols columns at the zoom level: the
 * page holding the cursor (axis.h decides what a column covers). */
void cmp_xmap_init(struct axis *m, int64_t nmax, int zoom, int64_t cursor,
                   int cols, int flags)
{
    axis_init(m, nmax, zoom, MIN_SPAN, cols, flags);
    axis_page(m, 0, cursor);
}

/* Positions [p0, p1) of column col; 0 if the column is unused. */
int cmp_xmap_range(const struct axis *m, int col, int64_t *p0, int64_t *p1)
{
    return axis_range(m, col, p0, p1) == 0;
}

void cmp_axis_mark(const struct app *a, canvas *c, int x, int y, int col)
{
    if (col < 0)
        return;
    canvas_text(c, x + col, y, 1, glyph(a->ascii, GL_TRI_UP),
                cmp_uc(a, UI_CURSOR), RGB_DEFAULT, ATTR_BOLD);
    view_point_mark(a, c, x + col, y, 1);
}

/* ---- bands across ----------------------------------------------------- */

static void scaled_make(const struct rpane *r, struct scaled *sc)
{
    int half = r->d / 2;
    memset(sc, 0, sizeof *sc);
    if (!r->plan->scaled)
        return;
    sc->w = r->plan->omega;
    sc->rule = r->plan->rule;
    sc->on = 1;
    for (int i = 0; i < half; i++) {
        sc->count[sc->rule[i]]++;
        if (sc->w[i] > 0)       /* a still band's is infinite */
            sc->wl_max = fmax(sc->wl_max, 2 * PEVIZ_PI / sc->w[i]);
    }
}

void cmp_scaled_make(struct cmp_frame *f)
{
    f->sc_any = 0;
    for (int k = 0; k < f->np; k++) {
        scaled_make(&f->rp[k], &f->sc[k]);
        f->sc_any |= f->sc[k].on;
    }
}

int cmp_band_dot(int band, int half, int wdots)
{
    if (half <= 1)
        return wdots / 2;
    return (int)lround((double)band * (wdots - 1) / (half - 1));
}

double cmp_band_omega(const struct rpane *r, const struct scaled *sc, int b)
{
    (void)sc;
    return r->plan->omega[b];
}

void cmp_band_axis(const struct app *a, canvas *c, int x, int w, int y,
                   int half)
{
    char hi[24];
    int col = a->cmp.band < half ? cmp_band_dot(a->cmp.band, half, 2 * w) / 2
                                 : -1;
    snprintf(hi, sizeof hi, "%d", half - 1);
    cmp_axis_ends(a, c, x, y, w, "0", half > 1 ? hi : NULL, col);
    int lx = text_place_clear(0, w, 4, col);
    if (w >= 24 && half > 1 && lx >= 0)     /* "band", clear of the mark */
        canvas_text(c, x + lx, y, 4, "band", cmp_uc(a, UI_DIM), RGB_DEFAULT, 0);
    cmp_axis_mark(a, c, x, y, col);
}

/* Distances across the whole width, a point per dot column (or per
 * distance when they are fewer); no gutter: the plot labels its axis. */
void cmp_distance_layout(const struct app *a, struct cmp_frame *f)
{
    int npts = 2 * (f->w - 6);
    cmp_geom_make(f, 0);
    cmp_xmap_init(&f->xm, f->nmax, a->cmp.zoom, a->p.pos, npts > 0 ? npts : 0,
                  0);
    if (f->xm.m > 1)
        cmp_xmap_init(&f->xm, f->nmax, a->cmp.zoom, a->p.pos,
                      (int)f->xm.span, 0);
}

int cmp_distance_ready(const struct cmp_frame *f, const struct cmp_values *v,
                       char *hint, size_t hintlen)
{
    if (f->xm.cells < 1 || f->g.body_h < 1)
        return -1;
    if (!v->v) {
        snprintf(hint, hintlen, "out of memory");
        return -1;
    }
    return 0;
}

/* The plot of those modes: distance across at the columns' steps, the
 * zero line, the cursor's distance marked. */
static void distance_spec(const struct app *a, const struct axis *xm,
                          struct plot_spec *sp)
{
    memset(sp, 0, sizeof *sp);
    sp->xlabel = "distance";
    sp->x0 = (double)xm->x0;
    sp->dx = (double)xm->k;
    sp->xmin = (double)xm->x0;
    sp->xmax = (double)(xm->x0 + axis_shown(xm) - 1);
    sp->x_integer = 1;
    sp->zero_line = 1;
    sp->mark_x = (double)a->p.pos;
    sp->label_extremes = xm->span <= 64;
}

void cmp_distance_plot(const struct app *a, canvas *c,
                       const struct cmp_frame *f,
                       const struct plot_series *ser, int n)
{
    const struct geom *g = &f->g;
    struct plot_spec sp;
    distance_spec(a, &f->xm, &sp);
    int h = g->body_h + (g->axis_y >= 0) + (g->legend_y >= 0);
    plot_lines(c, 0, g->body_y, c->w, h, &sp, ser, n, a->palette);
}

/* In a pane with no bands, what it has and where its scores are. */
void cmp_no_bands_note(const struct app *a, canvas *c,
                       const struct cmp_frame *f, int k, int of)
{
    const struct geom *g = &f->g;
    const struct rpane *r = &f->rp[of];
    char s[2][4][96];
    const char *l1[4] = { s[0][0], s[0][3], s[0][1], s[0][2] };
    const char *l2[3] = { s[1][0], s[1][1], s[1][2] };
    snprintf(s[0][0], sizeof s[0][0], "%s has %s, no bands",
             scheme_name((enum scheme)r->scheme), scheme_has_name(r->has));
    snprintf(s[0][3], sizeof s[0][3], "%s, no bands", scheme_has_name(r->has));
    if (r->has == SCHEME_HAS_NOTHING) {
        snprintf(s[0][0], sizeof s[0][0], "%s: no position signal",
                 scheme_name((enum scheme)r->scheme));
        snprintf(s[0][3], sizeof s[0][3], "no position signal");
    }
    snprintf(s[0][1], sizeof s[0][1], "no bands");
    snprintf(s[0][2], sizeof s[0][2], "none");
    if (of != k) {              /* the reference has none to compare */
        snprintf(s[0][0], sizeof s[0][0], "%c's %s has no bands to compare",
                 'A' + r->id, scheme_name((enum scheme)r->scheme));
        snprintf(s[0][3], sizeof s[0][3], "%c has no bands", 'A' + r->id);
    }
    snprintf(s[1][0], sizeof s[1][0], ":mode profile draws its scores");
    snprintf(s[1][1], sizeof s[1][1], ":mode profile");
    s[1][2][0] = 0;
    int y = g->body_y + g->body_h / 2 - 1;
    if (y < g->body_y)
        y = g->body_y;
    canvas_text_fit(c, g->px[k] + 1, y, g->pw - 1, l1, 4,
                    cmp_uc(a, UI_DIM), 0);
    if (y + 1 < g->body_y + g->body_h)
        canvas_text_fit(c, g->px[k] + 1, y + 1, g->pw - 1, l2, 3,
                        cmp_uc(a, UI_DIM), 0);
}

/* ---- the base bound --------------------------------------------------- */

/* v with its thousands grouped: "131,072". */
static void cmp_grouped(int64_t v, char *buf, size_t len)
{
    char d[24];
    int n = snprintf(d, sizeof d, "%lld", (long long)v), o = 0;
    for (int i = 0; i < n && (size_t)o + 2 < len; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = d[i];
    }
    buf[o] = 0;
}

int cmp_horizon_text(const struct app *a, const struct rpane *r,
                     char s[][CMP_HORIZON_LEN])
{
    const struct rope_preset *m = r->model >= 0 ? rope_preset_at(r->model)
                                                : NULL;
    if (!m || m->max_context < 1 || r->has != SCHEME_HAS_BANDS)
        return 0;           /* a NoPE layer, a scheme without bands */
    int live = r->plan->half, head = m->head_dim > r->d ? m->head_dim : r->d;
    double *w = calloc((size_t)head / 2, sizeof *w);   /* the rest: dead */
    if (!w)
        return 0;
    memcpy(w, r->plan->omega, (size_t)live * sizeof *w);
    int dead = bound_dead_pairs(w, head / 2), triv = bound_trivial(w, head / 2);
    int64_t h = triv ? -1 : bound_horizon(w, head / 2, m->max_context);
    free(w);
    const char *ge = glyph_pick(a->ascii, "\u2265", ">=");
    char hs[32], cs[32];
    cmp_grouped(h, hs, sizeof hs);
    cmp_grouped(m->max_context, cs, sizeof cs);
    if (triv) {
        snprintf(s[0], CMP_HORIZON_LEN, "no horizon, trivially: %d dead pairs %s %d live",
                 dead, ge, head / 2 - dead);
        snprintf(s[1], CMP_HORIZON_LEN, "no horizon (dead pairs)");
    } else if (h < 0) {
        snprintf(s[0], CMP_HORIZON_LEN, "horizon %s context %s", ge, cs);
        snprintf(s[1], CMP_HORIZON_LEN, "horizon %s %s", ge, cs);
    } else {
        snprintf(s[0], CMP_HORIZON_LEN, "horizon %s < context %s", hs, cs);
        snprintf(s[1], CMP_HORIZON_LEN, "horizon %s", hs);
    }
    return 2;
}
