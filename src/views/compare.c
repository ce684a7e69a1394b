/* SPDX-License-Identifier: ISC */
/*
 * compare.c - the compare view: two to six panes side by side, each
 * with its own base, d_model, dimension layout, number format and
 * attention scheme.
 *
 * Every pane shares the cursor, the zoom and one colour scale, so equal
 * colours mean equal values.  Seven modes (v cycles them, all panes
 * together), each a row of the table in compare_modes.c and a file of
 * its own: the PE heatmap (compare_heatmap.c), the wavelength spectrum
 * (compare_spectrum.c), the score against distance profile
 * (compare_profile.c: all panes overlaid on one set of axes), the
 * difference A - X (compare_diff.c: or, for a lower-precision pane, its
 * error against double; a card of what its scheme has, compare_card.c,
 * where there is nothing to subtract), the ratio of each pane's frequencies to
 * A's, band by band (compare_ratio.c), and each pane's scores minus A's
 * (compare_drift.c), and each pane's score matrix (compare_matrix.c).
 * A pane with a scheme (c, :scheme, :layer) shows
 * its attention scores in the profile and drift (compare_scores.c).
 * The header over each pane
 * (compare_head.c) reads off its model and scaling, base, d_model, n,
 * the critical band and the turns of the slowest band within n.  Each
 * pane holds its own RoPE scaling, set by the ':' commands and the keys
 * m s x X t, through the params checks.  This file holds the view's
 * hooks, which hand each frame to the mode's row, its keys and its ':'
 * commands.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "text.h"
#include "compare_view.h"
#include "views/compare.h"

#define NPRESETS 4

static const double PRESETS[NPRESETS][2] = {
    { 10000, 500000 }, { 10000, 1e6 }, { 500000, 1e6 }, { 100, 10000 }
};

/* The row of the mode shown. */
static const struct cmp_mode *mode_of(const struct app *a)
{
    return cmp_mode_at((int)a->cmp.mode);
}

/* Modes with one value per band (the band cursor moves). */
static int band_mode(const struct app *a)
{
    return mode_of(a)->bands;
}

/*
 * What the mode's work computed depends on the panes' parameters and
 * the axes only: it is computed in the view's work hook when they change
 * (compared with memcmp: the key is zeroed before its fields are set)
 * and the frames in between only compose the canvas.
 */
struct cmp_key {
    int mode, np, cols, rows;
    struct {
        double base;
        int64_t n;
        int d, layout, prec, scheme;
        struct score_opts so;
    } p[COMPARE_MAX_PANES];
    struct axis xm;
    struct ymap ym;
    const void *tables[3];  /* the scores' learned, T5 and q/k tables */
    char digest[65];        /* the learned table's content */
};

struct cmp_cache {
    int valid;
    struct cmp_key key;
    struct cmp_values val;  /* val.v NULL: no memory */
};

/* The runtime object: :check FILE (spectrum) first (portcheck_key
 * takes rt for it), then what the layout of the view area decided. */
struct cmp_rt {
    struct portcheck check;
    struct cmp_frame f;
    int tiny;               /* too small for panes: one line each */
    struct cmp_cache cache; /* what the mode's work computed */
    struct cmp_cache px;    /* the same at px_sub values a column: the
                               panes as images (the raster hook) */
    int px_sub;
};
_Static_assert(offsetof(struct cmp_rt, check) == 0,
               "portcheck_key reads the check at the start of rt");

/* What :check holds a file to: the active pane's settings, resolved. */
static struct portcheck_set check_set(const struct app *a,
                                      const struct cmp_frame *f)
{
    for (int k = 0; k < f->np; k++)
        if (f->rp[k].id == a->cmp.active)
            return (struct portcheck_set){ f->rp[k].rope, f->rp[k].d,
                                           f->rp[k].base, f->rp[k].n,
                                           f->rp[k].model };
    return (struct portcheck_set){ &a->p.rope, a->p.d, a->p.base, a->p.n,
                                   -1 };
}

/* The check in the frame, the spectrum's alone. */
static void check_frame(const struct app *a, struct cmp_rt *r)
{
    struct portcheck_set s = check_set(a, &r->f);
    r->f.check = a->cmp.mode == PANE_SPECTRUM
                 ? portcheck_at(&r->check, &s, &r->f.check_verdict) : NULL;
    r->f.check_pane = a->cmp.active;
}

static int command_check(struct app *a, struct cmp_rt *r, const char *arg)
{
    if (a->cmp.mode != PANE_SPECTRUM) {
        app_msg(a, 1, ":check: the spectrum mode only (v cycles to it)");
        return 1;
    }
    cmp_resolve(a, &r->f, 0);
    struct portcheck_set s = check_set(a, &r->f);
    return portcheck_command(a, &r->check, &s, arg);
}

static void cache_key(const struct app *a, const struct cmp_frame *f,
                      struct cmp_key *k)
{
    memset(k, 0, sizeof *k);
    k->mode = (int)a->cmp.mode;
    k->np = f->np;
    k->cols = f->g.pw - 1;
    k->rows = f->g.body_h;
    for (int i = 0; i < f->np; i++) {
        k->p[i].base = f->rp[i].base;
        k->p[i].n = f->rp[i].n;
        k->p[i].d = f->rp[i].d;
        k->p[i].layout = (int)f->rp[i].layout;
        k->p[i].prec = (int)f->rp[i].prec;
        k->p[i].scheme = f->rp[i].scheme;
        k->p[i].so = f->rp[i].so;
    }
    k->xm = f->xm;
    k->ym = f->ym;
    k->tables[0] = a->pe_table;
    k->tables[1] = a->t5_table;
    k->tables[2] = a->qk_table;
    memcpy(k->digest, a->pe_digest, sizeof k->digest);
}

static void cache_drop(struct cmp_cache *cache)
{
    free(cache->val.v);
    cache->val.v = NULL;
    cache->valid = 0;
}

/* ---- the whole view ----------------------------------------------------- */

/* Very small screens: one line per pane, as much as fits. */
static void draw_tiny(const struct app *a, canvas *c, const struct rpane *rp,
                      int np)
{
    for (int k = 0; k < np && k < c->h; k++) {
        char b[24], s[3][64];
        fmt_base(rp[k].base, b, sizeof b);
        snprintf(s[0], sizeof s[0], "%c base=%s crit band %d", 'A' + rp[k].id, b,
                 rp[k].crit);
        snprintf(s[1], sizeof s[1], "%c %s c%d", 'A' + rp[k].id, b, rp[k].crit);
        if (rp[k].has != SCHEME_HAS_BANDS) {    /* what its scheme has */
            snprintf(s[0], sizeof s[0], "%c %s: %s", 'A' + rp[k].id,
                     scheme_name((enum scheme)rp[k].scheme),
                     rp[k].has == SCHEME_HAS_NOTHING ? "no position signal"
                     : scheme_has_name(rp[k].has));
            snprintf(s[1], sizeof s[1], "%c %s", 'A' + rp[k].id,
                     scheme_name((enum scheme)rp[k].scheme));
        }
        snprintf(s[2], sizeof s[2], "%c", 'A' + rp[k].id);
        const char *cand[3] = { s[0], s[1], s[2] };
        canvas_text_fit(c, 0, k, c->w, cand, 3, cmp_pane_rgb(a, rp[k].id),
                        a->cmp.active == rp[k].id ? ATTR_BOLD : 0);
    }
}

static void compare_layout(const struct app *a, void *rt, int w, int h)
{
    struct cmp_rt *r = rt;
    struct cmp_frame *f = &r->f;
    const struct cmp_mode *m = mode_of(a);
    f->w = w;
    f->h = h;
    /* presenter: the active pane alone (the diff and ratio modes keep
     * pane A, their reference, beside the others) */
    cmp_resolve(a, f, a->presenter && !m->vs_a);
    memset(&f->xm, 0, sizeof f->xm);
    memset(&f->ym, 0, sizeof f->ym);
    m->layout(a, f);
    r->tiny = w < 24 || h < 5 || f->g.pw < 10;
}

/* The mode's values for the present key, when it changed. */
static int compare_work(const struct app *a, void *rt, int64_t budget)
{
    struct cmp_rt *r = rt;
    const struct cmp_mode *m = mode_of(a);
    struct cmp_key k;
    if (r->tiny || !m->work)
        return 0;
    cache_key(a, &r->f, &k);
    if (!r->cache.valid || memcmp(&k, &r->cache.key, sizeof k) != 0) {
        cache_drop(&r->cache);
        memset(&r->cache.val, 0, sizeof r->cache.val);
        m->work(&r->f, &r->cache.val);
        r->cache.key = k;
        r->cache.valid = r->cache.val.v != NULL;
    }
    /* a mode computed in slices: the next one, between frames */
    if (!r->cache.valid || !m->more || r->cache.val.done >= r->cache.val.total)
        return 0;
    return m->more(&r->f, &r->cache.val, budget);
}

static void compare_fini(void *rt)
{
    cache_drop(&((struct cmp_rt *)rt)->cache);
    cache_drop(&((struct cmp_rt *)rt)->px);
}

/*
 * Pane part of a grid mode (heatmap, diff) as an image: the mode's values
 * at cw a column, computed once for all panes and kept while the key
 * holds, in the colour scale of the cells' values (the legend's).
 */
static int compare_raster(const struct app *a, void *rt, int cw, int ch,
                          int part, struct view_raster *r)
{
    struct cmp_rt *t = rt;
    const struct cmp_mode *m = mode_of(a);
    if (t->tiny || !m->grid || part >= t->f.np)
        return -1;
    compare_work(a, rt, 0);
    if (!t->cache.valid)
        return -1;
    struct cmp_frame fp = t->f;
    fp.sub = cw;
    if (!t->px.valid || t->px_sub != cw ||
        memcmp(&t->px.key, &t->cache.key, sizeof t->px.key) != 0) {
        cache_drop(&t->px);
        m->work(&fp, &t->px.val);
        t->px.key = t->cache.key;
        t->px_sub = cw;
        t->px.valid = t->px.val.v != NULL;
    }
    if (!t->px.valid)
        return -1;
    return cmp_grid_raster(a, &t->f, t->px.val.v + cmp_grid_cells(&fp) *
                           (size_t)part, t->cache.val.scale, part, cw, ch, r);
}

static void compare_draw(const struct app *a, void *rt, canvas *c, char *hint,
                         size_t hintlen)
{
    struct cmp_rt *r = rt;
    const struct cmp_mode *m = mode_of(a);
    if (hintlen)
        hint[0] = 0;
    canvas_clear(c);
    if (r->tiny) {
        draw_tiny(a, c, r->f.rp, r->f.np);
        snprintf(hint, hintlen, "enlarge the terminal to see the panes");
        return;
    }
    cmp_draw_headers(a, c, &r->f.g, r->f.rp);
    check_frame(a, r);
    if (m->draw(a, c, &r->f, &r->cache.val, hint, hintlen) == 0 &&
        r->f.g.read_y >= 0)
        m->readout(a, c, &r->f);
}

int compare_pixel_source(const struct app *a, int w, int h, int part, int cw,
                         int ch, int x, int y, int64_t *q0, int64_t *q1,
                         int *dim)
{
    struct cmp_rt t;
    memset(&t, 0, sizeof t);
    compare_layout(a, &t, w, h);
    if (t.tiny || !mode_of(a)->grid)
        return -1;
    return cmp_grid_source(&t.f, part, cw, ch, x, y, q0, q1, dim);
}

double compare_scale_of_grid(const struct app *a, int w, int h)
{
    struct cmp_rt t;
    double s = 0;
    memset(&t, 0, sizeof t);
    compare_layout(a, &t, w, h);
    compare_work(a, &t, 0);
    if (!t.tiny && t.cache.valid && mode_of(a)->grid)
        s = t.cache.val.scale;
    compare_fini(&t);
    return s;
}

/* ---- keys ----------------------------------------------------------------- */

static int dims_max(const struct app *a)
{
    int m = 2;
    for (int k = 0; k < cmp_npanes(a); k++)
        m = cmp_pane_d(a, k) > m ? cmp_pane_d(a, k) : m;
    return m;
}

/* Keep the cursors inside the widest pane. */
static void clamp_cursor(struct app *a)
{
    struct compare_state *s = &a->cmp;
    int dm = dims_max(a);
    s->dim = s->dim < 0 ? 0 : s->dim >= dm ? dm - 1 : s->dim;
    s->band = s->band < 0 ? 0 : s->band >= dm / 2 ? dm / 2 - 1 : s->band;
    if (s->active >= cmp_npanes(a))
        s->active = cmp_npanes(a) - 1;
}

/* A params struct holding pane k's values, for validation. */
static params pane_params(const struct app *a, int k)
{
    params p = a->p;
    p.d = cmp_pane_d(a, k);
    p.base = cmp_pane_base(a, k);
    if (k > 0 && k < COMPARE_ROPE_PANES)
        p.rope = a->cmp.panes[k].rope;
    return p;
}

static void pane_store(struct app *a, int k, const params *p)
{
    if (k == 0) {
        /* the other panes keep the d_model they were following */
        for (int j = 1; j < COMPARE_MAX_PANES && p->d != a->p.d; j++)
            if (a->cmp.panes[j].d <= 0)
                a->cmp.panes[j].d = a->p.d;
        a->p.d = p->d;
        a->p.base = p->base;
        a->p.rope = p->rope;
        app_params_changed(a);
    } else {
        a->cmp.panes[k].cfg = 0;    /* no longer that --config layer's */
        a->cmp.panes[k].base = p->base;
        if (k < COMPARE_ROPE_PANES)
            a->cmp.panes[k].rope = p->rope;
        /* keep following the global d_model while the value equals it */
        if (a->cmp.panes[k].d > 0 || p->d != a->p.d)
            a->cmp.panes[k].d = p->d;
    }
    clamp_cursor(a);
}

static void pane_said(struct app *a, int k)
{
    char b[24];
    params p = pane_params(a, k);
    fmt_base(p.base, b, sizeof b);
    app_msg(a, 0, "pane %c: base=%s d_model=%d", 'A' + k, b, p.d);
}

static void pane_scale(struct app *a, enum param_id id, double factor)
{
    int k = a->cmp.active;
    params p = pane_params(a, k);
    char m[APP_MSG_LEN];
    int clamped = params_scale(&p, id, factor, m, sizeof m);
    if (params_check_rope(&p, m, sizeof m)) {
        app_msg(a, 1, "pane %c: %s", 'A' + k, m);
        return;
    }
    pane_store(a, k, &p);
    if (clamped)
        app_msg(a, 0, "pane %c: %s", 'A' + k, m);
    else
        pane_said(a, k);
}

/* Pane k's scaling in a few words, after a change. */
static void rope_said(struct app *a, int k, const char *what)
{
    char sc[64];
    params p = pane_params(a, k);
    params_format_rope(&p, sc, sizeof sc);
    app_msg(a, 0, "pane %c: %s: d=%d RoPE scaling %s", 'A' + k, what, p.d, sc);
}

/* Validate p as pane k's next settings: stored, or refused with the
 * reason in the status line and nothing changed. */
static int pane_try(struct app *a, int k, params *p, int bad, const char *err)
{
    char why[APP_MSG_LEN];
    if (bad || params_check_rope(p, why, sizeof why)) {
        app_msg(a, 1, "pane %c: %s", 'A' + k, bad ? err : why);
        return -1;
    }
    pane_store(a, k, p);
    return 0;
}

/* Whether pane k holds its own RoPE scaling and model; else the status
 * line says whose it takes. */
static int rope_pane(struct app *a, int k)
{
    if (k < COMPARE_ROPE_PANES)
        return 1;
    app_msg(a, 1, "pane %c takes pane A's model and RoPE scaling (A, B "
            "and C hold their own)", 'A' + k);
    return 0;
}

/* s: the next scaling method the pane's settings allow; the methods
 * skipped on the way are named with the first one's reason. */
static void method_next(struct app *a)
{
    int k = a->cmp.active;
    params p = pane_params(a, k);
    if (!rope_pane(a, k))
        return;
    char err[APP_MSG_LEN], why[APP_MSG_LEN] = "", skipped[80] = "";
    for (int step = 1; step < rope_method_count(); step++) {
        params q = p;
        const char *m = rope_method_name(
            (enum rope_method)((p.rope.method + step) % rope_method_count()));
        if (params_set_rope(&q, RO_SCALING, m, err, sizeof err) == 0 &&
            params_check_rope(&q, err, sizeof err) == 0) {
            pane_store(a, k, &q);
            if (!skipped[0])
                rope_said(a, k, "method");
            else
                app_msg(a, 0, "pane %c: scaling %s; skipped%s: %s", 'A' + k,
                        m, skipped, why);
            return;
        }
        if (!why[0])
            snprintf(why, sizeof why, "%s", err);
        snprintf(skipped + strlen(skipped), sizeof skipped - strlen(skipped),
                 " %s", m);
    }
    app_msg(a, 1, "pane %c: no other method fits: %s", 'A' + k, why);
}

/* x X: the factor /2, x2, as :factor would set it. */
static void factor_step(struct app *a, double mul)
{
    int k = a->cmp.active;
    params p = pane_params(a, k);
    char err[APP_MSG_LEN] = "";
    if (!rope_pane(a, k))
        return;
    if (p.rope.method == ROPE_NONE) {
        app_msg(a, 1, "pane %c has no scaling: s picks a method, then x X "
                "set its factor", 'A' + k);
        return;
    }
    int bad = params_set_rope_number(&p, RO_FACTOR, p.rope.factor * mul, err,
                                     sizeof err);
    if (pane_try(a, k, &p, bad, err) == 0)
        rope_said(a, k, "factor");
}

/* t: YaRN's truncation of its ramp bounds on / off. */
static void truncate_toggle(struct app *a)
{
    int k = a->cmp.active;
    params p = pane_params(a, k);
    char err[APP_MSG_LEN] = "";
    if (!rope_pane(a, k))
        return;
    if (p.rope.method != ROPE_YARN) {
        app_msg(a, 1, "pane %c: truncate is YaRN's; this pane uses %s",
                'A' + k, rope_method_name(p.rope.method));
        return;
    }
    int bad = params_set_rope(&p, RO_TRUNCATE, p.rope.truncate ? "off" : "on",
                              err, sizeof err);
    if (pane_try(a, k, &p, bad, err) == 0)
        rope_said(a, k, p.rope.truncate ? "truncate on" : "truncate off");
}

/* m: the next model preset, with its d, base and scaling. */
static void model_next(struct app *a)
{
    int k = a->cmp.active, n = rope_preset_count();
    int i = (a->cmp.panes[k].model % n + n) % n;  /* the one after it */
    if (!rope_pane(a, k))
        return;
    params p = pane_params(a, k);
    char err[APP_MSG_LEN] = "";
    const char *name = rope_preset_at(i)->name;
    int bad = params_set_model(&p, name, err, sizeof err);
    if (pane_try(a, k, &p, bad, err))
        return;
    a->cmp.panes[k].model = i + 1;
    a->cmp.panes[k].pairs = 1 + params_model_pairs(name);
    char sc[64];
    params_format_rope(&p, sc, sizeof sc);
    app_msg(a, 0, "pane %c: model %s (%d of %d): d=%d scaling %s", 'A' + k,
            name, i + 1, n, p.d, sc);
}

static void preset_next(struct app *a)
{
    struct compare_state *s = &a->cmp;
    s->preset = (s->preset + 1) % NPRESETS;
    a->p.base = PRESETS[s->preset][0];      /* pane A is the global base */
    s->panes[0].base = PRESETS[s->preset][0];
    s->panes[1].base = PRESETS[s->preset][1];
    app_params_changed(a);
    char b0[24], b1[24];
    fmt_base(PRESETS[s->preset][0], b0, sizeof b0);
    fmt_base(PRESETS[s->preset][1], b1, sizeof b1);
    app_msg(a, 0, "preset %d of %d: A base=%s, B base=%s", s->preset + 1,
            NPRESETS, b0, b1);
}

static void pane_add(struct app *a)
{
    struct compare_state *s = &a->cmp;
    if (s->npanes >= COMPARE_MAX_PANES) {
        app_msg(a, 0, "%d panes is the most; _ removes pane %c",
                COMPARE_MAX_PANES, 'A' + COMPARE_MAX_PANES - 1);
        return;
    }
    struct pane *c = &s->panes[s->npanes];
    if (s->npanes >= COMPARE_ROPE_PANES)    /* D, E, F: pane A's base */
        c->base = a->p.base;
    else if (!(c->base > 1))
        c->base = 1e6;
    s->active = s->npanes++;
    pane_said(a, s->active);
}

static void pane_remove(struct app *a)
{
    struct compare_state *s = &a->cmp;
    if (s->npanes <= 2) {
        app_msg(a, 0, "two panes is the least; + adds pane C");
        return;
    }
    s->npanes--;
    clamp_cursor(a);
    app_msg(a, 0, "pane %c removed", 'A' + s->npanes);
}

static void pane_active(struct app *a, int step)
{
    struct compare_state *s = &a->cmp;
    int np = cmp_npanes(a);
    s->active = ((s->active + step) % np + np) % np;
    pane_said(a, s->active);
}

static void mode_next(struct app *a)
{
    a->cmp.mode = (enum pane_mode)((a->cmp.mode + 1) % PANE_MODE_COUNT);
    app_msg(a, 0, "pane mode: %s", pane_mode_name(a->cmp.mode));
}

static void layout_next(struct app *a)
{
    struct pane *p = &a->cmp.panes[a->cmp.active];
    p->layout = (enum layout)((p->layout + 1) % LAYOUT_COUNT);
    app_msg(a, 0, "pane %c: layout %s", 'A' + a->cmp.active,
            layout_name(p->layout));
}

static void precision_next(struct app *a)
{
    struct pane *p = &a->cmp.panes[a->cmp.active];
    p->prec = (enum precision)((p->prec + 1) % PREC_COUNT);
    app_msg(a, 0, "pane %c: precision %s (%s)", 'A' + a->cmp.active,
            precision_name(p->prec), precision_pipeline(p->prec));
}

/* A pane's scheme word: "pe" (none) or the scheme's name. */
static const char *pane_scheme_word(int v)
{
    return v <= 0 ? "pe" : scheme_name((enum scheme)(v - 1));
}

static void scheme_said(struct app *a, int k)
{
    const struct pane *p = &a->cmp.panes[k];
    app_msg(a, 0, "pane %c: scores %s%s%s", 'A' + k,
            p->scheme > 0 ? "of " : "PE(i).PE(j), ",
            p->scheme > 0 ? pane_scheme_word(p->scheme) : "no scheme",
            p->pairs > 0 ? p->pairs - 1 == QK_HALF ? ", half pairs"
                                                   : ", interleaved pairs"
                         : "");
}

/* :scheme NAME|pe: the active pane's scores. */
static void cmd_scheme(struct app *a, const char *arg)
{
    int v = strcmp(arg, "pe") == 0 ? -1 : scheme_parse(arg);
    if (v < 0 && strcmp(arg, "pe") != 0) {
        char list[APP_MSG_LEN / 2];
        app_msg(a, 1, "scheme: want pe or %s",
                scheme_list(list, sizeof list));
        return;
    }
    a->cmp.panes[a->cmp.active].scheme = v + 1;
    scheme_said(a, a->cmp.active);
}

/* :rope-layout interleaved|half|global: the active pane's q/k pairs. */
static void cmd_pairs(struct app *a, const char *arg)
{
    int v = strcmp(arg, "global") == 0 ? -1 : qk_pairs_parse(arg);
    if (v < 0 && strcmp(arg, "global") != 0) {
        app_msg(a, 1, "rope-layout: want interleaved, half or global");
        return;
    }
    a->cmp.panes[a->cmp.active].pairs = v + 1;
    scheme_said(a, a->cmp.active);
}

/* :layer L|none: the active pane shows layer L of its model, which must
 * have NoPE layers. */
static void cmd_layer(struct app *a, const char *arg)
{
    int k = a->cmp.active;
    struct pane *p = &a->cmp.panes[k];
    const struct rope_preset *m = rope_preset_at(p->model - 1);
    long l = -1;
    const char *why = NULL;
    if (strcmp(arg, "none") != 0 &&
        (parse_long(arg, &l, &why) || l < 0 || l >= COMPARE_LAYER_MAX)) {
        app_msg(a, 1, "layer '%s': want 0..%d or none", arg,
                COMPARE_LAYER_MAX - 1);
        return;
    }
    if (l >= 0 && !(m && m->nope_every > 0)) {
        app_msg(a, 1, "pane %c: %s has no NoPE layers (:model llama4-scout "
                "has)", 'A' + k, m ? m->name : "the pane's model");
        return;
    }
    p->layer = (int)l + 1;
    if (l < 0)
        app_msg(a, 0, "pane %c: no layer: its own scheme", 'A' + k);
    else
        app_msg(a, 0, "pane %c: %s layer %ld: %s", 'A' + k, m->name, l,
                rope_preset_nope_layer(m, (int)l)
                ? "NoPE, temperature tuning" : "RoPE");
}

/* c: the active pane's next scheme, after the last back to none. */
static void scheme_next(struct app *a)
{
    struct pane *p = &a->cmp.panes[a->cmp.active];
    p->scheme = (p->scheme + 1) % (scheme_count() + 1);
    scheme_said(a, a->cmp.active);
}

static void zoom(struct app *a, int in)
{
    struct compare_state *s = &a->cmp;
    int z = s->zoom + (in ? 1 : -1);
    if (z > axis_zoom_max(a->p.n, MIN_SPAN)) {
        app_msg(a, 0, "zoomed in as far as it goes (%lld positions)",
                (long long)axis_span(a->p.n, s->zoom, MIN_SPAN));
        return;
    }
    if (z < 0) {
        app_msg(a, 0, "all positions are shown");
        return;
    }
    s->zoom = z;
    app_msg(a, 0, "zoom: %lld positions across",
            (long long)axis_span(a->p.n, z, MIN_SPAN));
}

static void cursor_dim(struct app *a, int step)
{
    a->cmp.dim += step;
    clamp_cursor(a);
}

/* h l H L elsewhere: the position by one drawn column (an eighth of
 * them); Home End are the global keys. */
static int key_pos(struct app *a, const struct cmp_rt *r, int key)
{
    const struct axis *xm = &r->f.xm;
    int64_t step;
    if (r->tiny || xm->cells < 1 || key == PK_HOME || key == PK_END)
        return 0;
    switch (key) {
    case PK_LEFT: case 'h':  step = -1; break;
    case PK_RIGHT: case 'l': step = 1; break;
    case 'H':                step = -(xm->cells / 8); break;
    default:                 step = xm->cells / 8; break;
    }
    int64_t p = axis_move(xm, a->p.pos, step);
    a->p.pos = p < 0 ? 0 : p >= a->p.n ? a->p.n - 1 : p;
    a->pos_frac = 0;
    return 1;
}

/* Left/Right, H L, Home End in the spectrum and ratio modes move the
 * band cursor; elsewhere the position moves by drawn columns. */
static int key_band(struct app *a, void *rt, int key)
{
    int dm = dims_max(a) / 2, step;
    if (!band_mode(a))
        return key_pos(a, rt, key);
    switch (key) {
    case PK_LEFT: case 'h':  step = -1; break;
    case PK_RIGHT: case 'l': step = 1; break;
    case 'H':                step = -(dm / 8 + 1); break;
    case 'L':                step = dm / 8 + 1; break;
    case PK_HOME:            step = -dm; break;
    default:                 step = dm; break;      /* End */
    }
    a->cmp.band += step;
    clamp_cursor(a);
    return 1;
}

/* Keys that change nothing the spectrum shows (one wavelength per
 * band): say so instead of doing nothing.  1 if key was one. */
static int spectrum_inert(struct app *a, int key)
{
    const char *what = key == 'o' ? "the dimension layout"
                     : key == 'f' ? "the number format"
                     : key == 'y' ? "which dimensions the rows show"
                     : key == '=' ? "the position zoom" : NULL;
    if (!what)
        return 0;
    app_msg(a, 0, "%c sets %s, which the %s does not show (one "
            "value per band); v changes the mode", key, what,
            mode_of(a)->noun);
    return 1;
}

/* k j: one dimension; K J PgUp PgDn: an eighth of them.  Every dim is
 * reachable, also those the evenly spaced overview rows skip (the
 * readout shows them). */
static int key_dim(struct app *a, void *rt, int key)
{
    int dm = dims_max(a);
    (void)rt;
    switch (key) {
    case PK_UP: case 'k':   cursor_dim(a, -1); break;
    case PK_DOWN: case 'j': cursor_dim(a, 1); break;
    case PK_PGUP: case 'K': cursor_dim(a, -(dm / 8 + 1)); break;
    default:                cursor_dim(a, dm / 8 + 1); break;  /* PgDn J */
    }
    return 1;
}

/* The active pane's RoPE scaling: s x X t m. */
static int key_rope(struct app *a, void *rt, int key)
{
    (void)rt;
    switch (key) {
    case 's': method_next(a); break;
    case 'x': factor_step(a, 0.5); break;
    case 'X': factor_step(a, 2); break;
    case 't': truncate_toggle(a); break;
    default:  model_next(a); break;        /* m */
    }
    return 1;
}

/* The panes: + _ [ ] b B d D p v o f c y. */
static int key_pane(struct app *a, void *rt, int key)
{
    (void)rt;
    if (band_mode(a) && spectrum_inert(a, key))
        return 1;
    switch (key) {
    case '+': pane_add(a); break;
    case '_': pane_remove(a); break;
    case '[': pane_active(a, -1); break;
    case ']': pane_active(a, 1); break;
    case 'b': pane_scale(a, P_BASE, 0.1); break;
    case 'B': pane_scale(a, P_BASE, 10); break;
    case 'd': pane_scale(a, P_D, 0.5); break;
    case 'D': pane_scale(a, P_D, 2); break;
    case 'p': preset_next(a); break;
    case 'v': mode_next(a); break;
    case 'o': layout_next(a); break;
    case 'f': precision_next(a); break;
    case 'c': scheme_next(a); break;
    default:    /* y */
        a->cmp.dims_1to1 = !a->cmp.dims_1to1;
        app_msg(a, 0, a->cmp.dims_1to1 ? "rows: consecutive dimensions"
                                       : "rows: all dimensions, evenly spaced");
        break;
    }
    return 1;
}

static int key_zoom(struct app *a, void *rt, int key)
{
    (void)rt;
    if (band_mode(a) && spectrum_inert(a, key))
        return 1;
    zoom(a, key == '=');
    return 1;
}

/* ---- state ---------------------------------------------------------------- */

static void compare_reset(struct app *a)
{
    memset(&a->cmp, 0, sizeof a->cmp);
    a->cmp.npanes = 2;
    a->cmp.panes[0].base = 10000;       /* B's and C's: their rows */
    for (int k = COMPARE_ROPE_PANES; k < COMPARE_MAX_PANES; k++)
        a->cmp.panes[k].base = 10000;
    for (int k = 0; k < COMPARE_MAX_PANES; k++)
        rope_scaling_default(&a->cmp.panes[k].rope);
    settings_reset(COMPARE_SETTINGS, a);
}

/* ---- ':' commands ------------------------------------------------------- */

static int cmd_pane_param(struct app *a, enum param_id id, const char *arg)
{
    int k = a->cmp.active;
    params p = pane_params(a, k);
    char err[APP_MSG_LEN];
    if (params_set(&p, id, arg, err, sizeof err) ||
        params_check_rope(&p, err, sizeof err)) {
        app_msg(a, 1, "pane %c: %s", 'A' + k, err);
        return 1;
    }
    pane_store(a, k, &p);
    pane_said(a, k);
    return 1;
}

/* :model NAME, :scaling METHOD, :factor S, ... for the active pane. */
static int cmd_pane_rope(struct app *a, const char *name, const char *arg)
{
    int k = a->cmp.active, id = params_rope_opt_parse(name);
    int model = !strcmp(name, "model");
    params p = pane_params(a, k);
    char err[APP_MSG_LEN], sc[64];
    if (id < 0 && !model)
        return 0;
    if (!rope_pane(a, k))
        return 1;
    if ((model ? params_set_model(&p, arg, err, sizeof err)
               : params_set_rope(&p, (enum rope_opt)id, arg, err, sizeof err)) ||
        params_check_rope(&p, err, sizeof err)) {
        app_msg(a, 1, "pane %c: %s", 'A' + k, err);
        return 1;
    }
    pane_store(a, k, &p);
    if (model) {
        a->cmp.panes[k].model = 1 + params_model_index(arg);
        a->cmp.panes[k].pairs = 1 + params_model_pairs(arg);
    }
    if (model && k == 0) {      /* pane A is the global setting: the model's
                                   n too, and the status line names it */
        a->p.n = p.n;
        a->p.pos = a->p.pos < p.n ? a->p.pos : p.n - 1;
        app_params_changed(a);
        app_set_source(a, arg, 0);
    }
    params_format_rope(&p, sc, sizeof sc);
    app_msg(a, 0, "pane %c: d=%d RoPE scaling %s", 'A' + k, p.d, sc);
    return 1;
}

/* The names of the ':' commands' choices, by number. */
static const char *layout_word(int i) { return layout_name((enum layout)i); }
static const char *prec_word(int i) { return precision_name((enum precision)i); }

/* v, the choice parsed; when none (v < 0), the error names the count
 * choices word(i) there are. */
static int cmd_choice(struct app *a, const char *what, int v,
                      const char *(*word)(int), int count)
{
    const char *w[16];
    char want[160];
    int n = count < 16 ? count : 16;
    if (v >= 0)
        return v;
    for (int i = 0; i < n; i++)
        w[i] = word(i);
    app_msg(a, 1, "%s: want %s", what, words_join(w, n, want, sizeof want));
    return v;
}

/* The names compare_command takes that no other view offers (base,
 * d and the scaling are global commands it points at the active pane). */
static const char *const COMPARE_COMMANDS[] = { "scheme", "layer", "layout",
                                                "precision", "prec", "check",
                                                NULL };

static int compare_command(struct app *a, void *rt, const char *name,
                           const char *arg)
{
    struct pane *p = &a->cmp.panes[a->cmp.active];
    int v, k = 'A' + a->cmp.active;
    if (!strcmp(name, "check"))
        return command_check(a, rt, arg);
    if (!strcmp(name, "base") || !strcmp(name, "b"))
        return cmd_pane_param(a, P_BASE, arg);
    if (!strcmp(name, "d") || !strcmp(name, "d_model"))
        return cmd_pane_param(a, P_D, arg);
    if (cmd_pane_rope(a, name, arg))
        return 1;
    if (!strcmp(name, "scheme")) {
        cmd_scheme(a, arg);
    } else if (!strcmp(name, "rope-layout")) {
        cmd_pairs(a, arg);
    } else if (!strcmp(name, "layer")) {
        cmd_layer(a, arg);
    } else if (!strcmp(name, "layout")) {
        v = cmd_choice(a, "layout", layout_parse(arg), layout_word,
                       LAYOUT_COUNT);
        if (v >= 0) {
            p->layout = (enum layout)v;
            app_msg(a, 0, "pane %c: layout %s", k, arg);
        }
    } else if (!strcmp(name, "precision") || !strcmp(name, "prec")) {
        v = cmd_choice(a, "precision", precision_parse(arg), prec_word,
                       PREC_COUNT);
        if (v >= 0) {
            p->prec = (enum precision)v;
            app_msg(a, 0, "pane %c: precision %s", k, arg);
        }
    } else {
        return 0;
    }
    return 1;
}

/* The view's keys: what each does, and the help card.  KEY starts a line
 * of the card; ALSO binds one more key to it, doing the same. */
#define KEY(k, label, help, fn) { (k), ACT_VIEW_KEY, (label), (help), (fn) }
#define ALSO(k, fn) { (k), ACT_VIEW_KEY, NULL, NULL, (fn) }
/* A global key (act) that the view takes over the bands. */
#define BAND(k, act) { (k), (act), NULL, NULL, key_band }

static const struct keybind COMPARE_KEYS[] = {
    KEY('+', "+", "add a pane: C (base 1e6), then D E F", key_pane),
    KEY('_', "_", "remove the last pane", key_pane),
    KEY('[', "[ ]", "previous / next active pane", key_pane),
    ALSO(']', key_pane),
    KEY('b', "b B", "active pane: base /10, x10", key_pane), ALSO('B', key_pane),
    KEY('d', "d D", "active pane: d_model /2, x2", key_pane), ALSO('D', key_pane),
    KEY('p', "p", "next preset pair of bases", key_pane),
    KEY('v', "v", "next mode", key_pane),      /* compare_key_help */
    KEY('m', "m", "active pane: next model preset", key_rope),
    KEY('s', "s", "active pane: next RoPE scaling method", key_rope),
    KEY('x', "x X", "active pane: scaling factor /2, x2", key_rope),
    ALSO('X', key_rope),
    KEY('t', "t", "active pane: YaRN truncate on / off", key_rope),
    KEY('o', "o", "active pane: next layout", key_pane),
    KEY('f', "f", "active pane: next precision", key_pane),
    KEY('c', "c", "active pane: next attention scheme", key_pane),
    KEY('y', "y", "rows: evenly spaced / consecutive", key_pane),
    KEY('=', "= -", "zoom positions in / out", key_zoom), ALSO('-', key_zoom),
    KEY(PK_UP, "k j", "dimension (K J PgUp PgDn: faster)", key_dim),
    ALSO(PK_DOWN, key_dim), ALSO('k', key_dim), ALSO('j', key_dim),
    ALSO('K', key_dim), ALSO('J', key_dim), ALSO(PK_PGUP, key_dim),
    ALSO(PK_PGDN, key_dim),
    KEY(PK_LEFT, "h l", "position by a column", key_band),
    ALSO(PK_RIGHT, key_band), ALSO('h', key_band), ALSO('l', key_band),
    /* the global keys, but over the bands in the spectrum */
    BAND('H', ACT_FAST_LEFT), BAND('L', ACT_FAST_RIGHT),
    BAND(PK_HOME, ACT_HOME), BAND(PK_END, ACT_END),
    KEY(PK_ESC, "Esc", "clear :check FILE", portcheck_key),
    { 0, ACT_NONE, NULL, NULL, NULL }
};

/* v, c and h l name the modes from their table: all of them, those
 * that draw the schemes c changes, those whose band h l moves. */
static const char *compare_key_help(const struct keybind *k, char *buf,
                                    size_t len)
{
    char names[128];
    enum cmp_modes which = k->key == 'v' ? CMP_ALL : k->key == 'c'
                           ? CMP_SCORES : CMP_BANDS;
    if (k->key != 'v' && k->key != 'c' && k->key != PK_LEFT)
        return NULL;
    cmp_mode_names(names, sizeof names, which);
    if (k->key == 'v')
        snprintf(buf, len, "mode: %s", names);
    else if (k->key == 'c')
        snprintf(buf, len, "%s (%s)", k->help, names);
    else
        snprintf(buf, len, "%s; band in %s", k->help, names);
    return buf;
}

static void compare_point_text(const struct app *a, char *t, size_t len)
{
    snprintf(t, len, "band %d", a->cmp.band);
}

/* A tour's check names a pane's band facts as its header gave them:
 * "A.crit" (the critical band; the band count when none) and "A.turns"
 * (the slowest band's turns within n), for panes with bands. */
static int compare_quantity(const struct app *a, const void *rt,
                            const char *name, double *v)
{
    const struct cmp_rt *r = rt;
    (void)a;
    for (int k = 0; k < r->f.np; k++) {
        const struct rpane *p = &r->f.rp[k];
        if (name[0] != 'A' + p->id || name[1] != '.' ||
            p->has != SCHEME_HAS_BANDS)
            continue;
        if (strcmp(name + 2, "crit") == 0)
            *v = p->crit;
        else if (strcmp(name + 2, "turns") == 0)
            *v = p->slow_turns;
        else
            return -1;
        return 0;
    }
    return -1;
}

/* "compare schemes" while a pane holds a scheme or a model's layer:
 * the panes then differ by more than their bases. */
static const char *compare_status_title(const struct app *a)
{
    for (int k = 0; k < cmp_npanes(a); k++)
        if (a->cmp.panes[k].scheme > 0 || cmp_pane_layer(a, k) >= 0)
            return "compare schemes";
    return VIEW_COMPARE_DEF.title;
}

const struct view VIEW_COMPARE_DEF = {
    .name = "compare", .title = "compare bases",
    .status_title = compare_status_title, .rt_size = sizeof(struct cmp_rt),
    .reset = compare_reset, .params_changed = clamp_cursor,
    .fini = compare_fini, .layout = compare_layout, .work = compare_work,
    .draw = compare_draw, .raster = compare_raster,
    .point_text = compare_point_text, .keys = COMPARE_KEYS,
    .key_help = compare_key_help, .fields = COMPARE_FIELDS,
    .fields_check = compare_fields_check, .settings = COMPARE_SETTINGS,
    .command = compare_command, .commands = COMPARE_COMMANDS,
    .quantity = compare_quantity,
    .quantities = "A.crit, A.turns (B., C., ... for each pane with bands): "
                  "its critical band and its slowest band's turns within n, "
                  "as its header gives them",
    .about =
        "Two to six encodings side by side, sharing the cursor, the zoom and "
        "one colour scale, so equal colours mean equal values. Pane A is the "
        "global base and d_model; the others keep their own (D, E and F "
        "take A's model and RoPE scaling). Each header gives "
        "base, d_model, n, the critical band (the first band whose wavelength "
        "2*pi*base^(2i/d) exceeds n: from there on no band completes a turn "
        "within n positions) and the turns of the slowest band within n; "
        "a pane whose scheme has no bands says what it has instead (T5's "
        "buckets, ALiBi's slope, KERPLE's r1 and r2, learned rows, or no "
        "position signal) and its formula, and --schemes opens in the "
        "profile mode, which draws the schemes' scores. v "
        "shows every pane as the PE heatmap, the wavelength spectrum, the "
        "score PE(a).PE(b) against the distance a-b (all panes on one set of "
        "axes), the difference A - X (a lower-precision pane shows its own "
        "rounding error instead; a pane with nothing to subtract, its "
        "scheme's or A's having no bands, shows a card of what its scheme "
        "has with the numbers --export prints) or the ratio omega_X/omega_A of each pane's "
        "frequencies to pane A's, band by band, on a log scale (panes with "
        "another d are not compared), or the drift of each pane's scores "
        "from pane A's, or each pane's score matrix S(i, j) in its own "
        "scale. Each pane can hold its own attention scheme (c, "
        ":scheme NAME|pe): the profile then overlays the panes' scores "
        "S(delta, 0) as the attention view and --export scores compute "
        "them, and the drift with :rope-layout half in one pane shows what "
        "a port that pairs the dimensions wrongly does to the same q and k. "
        ":layer L shows layer L of a model with NoPE layers (llama4-scout): "
        "RoPE, or NoPE with the temperature tuning. "
        "Each pane holds its own model and "
        "RoPE scaling: m next model preset, s next method, x X factor /2 "
        "x2, t YaRN truncate, or :model :scaling :factor ... Presets (p): 10000|500000, 10000|1e6, "
        "500000|1e6, 100|10000. Prompt: :base X and :d N for the active "
        "pane, :layout interleaved|concat|half, :precision f64|f32|bf16|f16, "
        ":mode NAME. Layouts reorder the same values: interleaved is the "
        "paper's, concat is tensor2tensor's [sin|cos] order (that code also "
        "spaces its frequencies as i/(d/2-1), which is not shown here), half "
        "is the (i, i+d/2) pairing of rotate_half RoPE code.",
};
