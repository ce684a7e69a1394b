/* SPDX-License-Identifier: ISC */
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

static int heatmap_draw(const struct app *a, canvas *c,
                        const struct cmp_frame *f, const struct cmp_values *v,
                        char *hint, size_t hintlen)
{
    unsigned skip = no_bands(f);
    int r = cmp_grid_draw(a, c, f, v, skip,
                          skip == (1u << f->np) - 1
                          ? "no pane has bands: no PE table to colour"
                          : cmp_any_scaled(f->rp, f->np)
                          ? "unscaled PE value:" : "PE value, one scale:",
                          hint, hintlen);
    for (int k = 0; r == 0 && k < f->np; k++)
        if (skip >> k & 1)
            cmp_no_bands_note(a, c, f, k, k);
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
