/* SPDX-License-Identifier: ISC */
/*
 * compare_diff.c - the compare view's diff mode: pane A is the reference
 * and each other pane shows A - X on the grid of the heatmap mode
 * (compare_grid.c), in one colour scale rounded up to a 1-2-5 step; a
 * pane in a lower precision shows instead its own rounding error against
 * f64, so pane A in f32 shows its error too.  A pane with nothing to
 * subtract (its scheme has no bands, or it would show A - X and A's has
 * none) shows the card of what its scheme has (compare_card.c) instead;
 * with no grid left there is no colour scale, no axes and no readout.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "glyph.h"
#include "text.h"
#include "compare_view.h"

/* What pane k shows in the diff mode: its rounding error when it has a
 * lower precision; otherwise A - k; pane A (f64) is the reference. */
enum diff_kind { DIFF_REF, DIFF_ERROR, DIFF_AMINUS };

static enum diff_kind diff_kind(const struct rpane *rp, int k)
{
    if (rp[k].prec != PREC_F64)
        return DIFF_ERROR;
    return k == 0 ? DIFF_REF : DIFF_AMINUS;
}

/* Whether pane k has nothing to subtract and shows its card
 * (compare_card.c) instead: its scheme has no bands, or it is to show
 * A - k and A's has none. */
static int diff_carded(const struct rpane *rp, int k)
{
    return rp[k].has != SCHEME_HAS_BANDS ||
           (diff_kind(rp, k) == DIFF_AMINUS && rp[0].has != SCHEME_HAS_BANDS);
}

static void grid_diff(const struct rpane *rp, int k, const struct axis *xm,
                      const struct ymap *ym, int sub, double *ref,
                      double *out)
{
    size_t cells = (size_t)ym->pixels * (size_t)xm->cells * (size_t)sub;
    enum diff_kind kind = diff_kind(rp, k);
    if (kind == DIFF_REF || diff_carded(rp, k)) {
        for (size_t i = 0; i < cells; i++)
            out[i] = BLANK;
        return;
    }
    cmp_grid_fill(&rp[k], xm, ym, sub, 0, out);
    cmp_grid_fill(kind == DIFF_ERROR ? &rp[k] : &rp[0], xm, ym, sub,
                  kind == DIFF_ERROR, ref);
    for (size_t i = 0; i < cells; i++) {
        if (out[i] == BLANK || ref[i] == BLANK)
            out[i] = BLANK;
        else
            out[i] = kind == DIFF_ERROR ? out[i] - ref[i] : ref[i] - out[i];
    }
}

/* The 1-2-5 step at or above v (v > 0). */
static double nice_up(double v)
{
    double e = pow(10, floor(log10(v)));
    double m = v / e;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * e;
}

/* The reference card in pane A of the diff mode. */
static void draw_ref_card(const struct app *a, canvas *c, int x, int y, int w,
                          int h, const struct rpane *rp, int np)
{
    char s[4][2][64];
    int n = 0;
    snprintf(s[n][0], sizeof s[0][0], "A is the reference");
    snprintf(s[n++][1], sizeof s[0][0], "A: reference");
    for (int k = 1; k < np && n < 3; k++) {
        if (a->cmp.panes[k].prec != PREC_F64 || diff_carded(rp, k))
            continue;
        snprintf(s[n][0], sizeof s[0][0], "%c shows A %s %c", 'A' + k,
                 glyph(a->ascii, GL_MINUS), 'A' + k);
        snprintf(s[n++][1], sizeof s[0][0], "%c: A%s%c", 'A' + k,
                 glyph(a->ascii, GL_MINUS), 'A' + k);
    }
    snprintf(s[n][0], sizeof s[0][0], "f32/bf16/f16 panes: error vs f64");
    snprintf(s[n++][1], sizeof s[0][0], "f32/bf16/f16: error");
    for (int i = 0; i < n && i < h; i++) {
        const char *t = text_width(s[i][0]) <= w ? s[i][0] : s[i][1];
        int tw = text_width(t);
        int cx = x + (w > tw ? (w - tw) / 2 : 0);
        canvas_text(c, cx, y + h / 2 - n / 2 + i, w, t, cmp_uc(a, UI_DIM),
                    RGB_DEFAULT, 0);
    }
}


/* The np grids and, in the last of np + 1, each one's reference; the
 * colour scale from the largest difference. */
static void diff_work(const struct cmp_frame *f, struct cmp_values *out)
{
    size_t cells = cmp_grid_cells(f), all = cells * (size_t)f->np;
    double m = 0;
    out->v = NULL;
    out->scale = 1;
    if (!cells || !(out->v = malloc(sizeof(double) * (all + cells))))
        return;
    for (int k = 0; k < f->np; k++)
        grid_diff(f->rp, k, &f->xm, &f->ym, cmp_grid_sub(f), out->v + all,
                  out->v + cells * (size_t)k);
    for (size_t i = 0; i < all; i++)
        if (out->v[i] != BLANK && !isnan(out->v[i]) && fabs(out->v[i]) > m)
            m = fabs(out->v[i]);
    out->scale = m > 0 ? nice_up(m) : 1;
}

static int diff_draw(const struct app *a, canvas *c, const struct cmp_frame *f,
                     const struct cmp_values *v, char *hint, size_t hintlen)
{
    const struct geom *g = &f->g;
    int ref = diff_kind(f->rp, 0) == DIFF_REF;
    unsigned skip = ref ? 1u : 0u, carded = 0;
    for (int k = 0; k < f->np; k++)
        if (diff_carded(f->rp, k))
            carded |= 1u << k;
    if (cmp_grid_draw(a, c, f, v, skip | carded,
                      (skip | carded) == (1u << f->np) - 1
                      ? "nothing to subtract: each card says what its scheme has"
                      : cmp_any_scaled(f->rp, f->np)
                      ? "unscaled PE difference:" : "difference, one scale:",
                      hint, hintlen))
        return -1;
    if (ref && !(carded & 1u))
        draw_ref_card(a, c, g->px[0], g->body_y, g->pw, g->body_h, f->rp,
                      g->np);
    for (int k = 0; k < f->np; k++)
        if (carded >> k & 1)
            cmp_card_draw(a, c, f, k);
    if ((skip | carded) == (1u << f->np) - 1)   /* no grid: no columns */
        snprintf(hint, hintlen, "v: the next mode; :mode profile draws S");
    return 0;
}

/* Pane k's difference at the cursor and what it is; none for the
 * reference. */
static int diff_piece(const struct app *a, const struct rpane *rp, int k,
                      int verbose, char *what, size_t wlen, double *val)
{
    const struct rpane *r = &rp[k];
    enum diff_kind kind = diff_kind(rp, k);
    (void)verbose;
    if (kind == DIFF_REF || diff_carded(rp, k))    /* nothing to subtract */
        return 0;
    *val = cmp_cursor_value(a, r);
    if (kind == DIFF_ERROR) {
        int inside = a->cmp.dim < r->d && a->p.pos < r->n;
        *val -= inside ? layout_value(r->d, r->base, r->layout, PREC_F64,
                                      a->p.pos, a->cmp.dim) : NAN;
        snprintf(what, wlen, "%s err ", precision_name(r->prec));
    } else {
        *val = cmp_cursor_value(a, &rp[0]) - *val;
        snprintf(what, wlen, "A%s%c ", glyph_pick(a->ascii, "\u2212", "-"),
                 'A' + r->id);
    }
    return 1;
}

/* The readout of the cursor's cell; none when every pane shows a card
 * or the reference (no cell has a value). */
static void diff_readout(const struct app *a, canvas *c,
                         const struct cmp_frame *f)
{
    for (int k = 0; k < f->np; k++)
        if (diff_kind(f->rp, k) != DIFF_REF && !diff_carded(f->rp, k)) {
            cmp_grid_readout(a, c, f, diff_piece);
            return;
        }
}

const struct cmp_mode CMP_DIFF = {
    .name = "diff", .grid = 1, .vs_a = 1, .layout = cmp_grid_layout, .work = diff_work,
    .draw = diff_draw, .readout = diff_readout,
};
