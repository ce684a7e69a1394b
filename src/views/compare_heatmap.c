/*
 * compare_heatmap.c - the compare view's heatmap mode: each pane's PE,
 * positions across and dimensions down (compare_grid.c), in one colour
 * scale, so equal colours mean equal values; the readout gives each
 * pane's value at the cursor.  A pane whose scheme has no bands (T5,
 * ALiBi, KERPLE, learned, NoPE) has no PE table here: it says so and
 * where its scores are drawn.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "compare_view.h"

/* Each pane's grid of column means. */
static void heatmap_work(const struct cmp_frame *f, struct cmp_values *out)
{
    size_t cells = cmp_grid_cells(f);
    out->v = NULL;
    out->scale = 1;
    if (!cells)
        return;
    out->v = malloc(sizeof(double) * cells * (size_t)f->np);
    for (int k = 0; out->v && k < f->np; k++) {
        double *v = out->v + cells * (size_t)k;
        if (f->rp[k].has == SCHEME_HAS_BANDS)
            cmp_grid_fill(&f->rp[k], &f->xm, &f->ym, cmp_grid_sub(f), 0, v);
        else                    /* no bands: no PE table to draw */
            for (size_t i = 0; i < cells; i++)
                v[i] = BLANK;
    }
}

/* The panes whose scheme has no bands (bit k). */
static unsigned no_bands(const struct cmp_frame *f)
{
    unsigned m = 0;
    for (int k = 0; k < f->np; k++)
        m |= (unsigned)(f->rp[k].has != SCHEME_HAS_BANDS) << k;
    return m;
}

/* In a pane with no bands, what it has and where its scores are. */
static void draw_no_bands(const struct app *a, canvas *c,
                          const struct cmp_frame *f, int k)
{
    const struct geom *g = &f->g;
    const struct rpane *r = &f->rp[k];
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

static int heatmap_draw(const struct app *a, canvas *c,
                        const struct cmp_frame *f, const struct cmp_values *v,
                        char *hint, size_t hintlen)
{
    unsigned skip = no_bands(f);
    int r = cmp_grid_draw(a, c, f, v, skip, cmp_any_scaled(f->rp, f->np)
                          ? "unscaled PE value:" : "PE value, one scale:",
                          hint, hintlen);
    for (int k = 0; r == 0 && k < f->np; k++)
        if (skip >> k & 1)
            draw_no_bands(a, c, f, k);
    return r;
}

/* Pane k's value at the cursor; long: which band, sin or cos. */
static int heatmap_piece(const struct app *a, const struct rpane *rp, int k,
                         int verbose, char *what, size_t wlen, double *val)
{
    const struct rpane *r = &rp[k];
    if (r->has != SCHEME_HAS_BANDS)     /* no PE value to give */
        return 0;
    *val = cmp_cursor_value(a, r);
    if (verbose && a->cmp.dim < r->d) {
        int band, is_cos;
        layout_map(r->layout, r->d, a->cmp.dim, &band, &is_cos);
        snprintf(what, wlen, "%s band %d = ", is_cos ? "cos" : "sin", band);
    }
    return 1;
}

CMP_GRID_READOUT(heatmap_readout, heatmap_piece)

const struct cmp_mode CMP_HEATMAP = {
    .name = "heatmap", .grid = 1, .layout = cmp_grid_layout, .work = heatmap_work,
    .draw = heatmap_draw, .readout = heatmap_readout,
};
