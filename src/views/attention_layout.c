/* SPDX-License-Identifier: ISC */
/*
 * attention_layout.c - the attention view's layout: both axes over the
 * pixels the window leaves, the four quadrants of the split, the panel
 * beside or below the matrix.
 */
#include <string.h>

#include "app.h"
#include "axis.h"
#include "views/attention_layout.h"

#define PANEL_MIN 32        /* cells beside the matrix for the panel */

/* Both axes over px pixels: a block is k positions, or one position
 * s (even) pixels wide, so it fills whole cell rows. */
static void layout_blocks(struct att_layout *L, const struct app *a)
{
    const struct attention_state *t = &a->att;
    /* without half blocks a cell shows one value: blocks are laid out on
     * pairs of pixels, so a block row fills whole cell rows */
    int unit = canvas_has_halves(a->ascii, a->color) ? 1 : 2;
    axis_init(&L->ai, a->p.n, t->zoom, MIN_SPAN, L->px / unit, AXIS_EVEN);
    axis_widen(&L->ai, unit);
    L->aj = L->ai;
    axis_scroll(&L->ai, t->i0, t->ci);
    axis_scroll(&L->aj, t->j0, t->cj);
    L->k = L->ai.k;
    L->s = L->ai.m;
    L->span = L->ai.span;
    L->blocks = L->ai.vis / L->ai.k;
    L->i0 = L->ai.x0;
    L->j0 = L->aj.x0;
    L->rows = L->ai.used / L->ai.m;
    L->cols = L->aj.used / L->aj.m;
    L->ext = (int)(L->blocks * L->s);
}

/* Split: four quadrants inside the px x px region. */
static void layout_split(struct att_layout *L)
{
    int wr = L->px, hr = L->px / 2;
    L->qw = (wr - 1) / 2;
    L->qh = (hr - 1) / 2;
    int q = 2 * (L->qh - 1) < L->qw ? 2 * (L->qh - 1) : L->qw;
    L->px = q;
}

static void layout_compute(struct att_layout *L, const struct app *a, int w,
                           int h, int split)
{
    memset(L, 0, sizeof *L);
    L->lw = fmt_digits(a->p.n - 1) + 1;
    L->mx = L->lw;
    L->my = 2;
    L->split = split;
    /* rows besides the matrix: header, markers, ticks, legend */
    int mrows = h - 4;
    int panel = w / 3 < 20 ? 20 : w / 3 > PANEL_MIN ? PANEL_MIN : w / 3;
    int side_w = w - L->lw - 2 - panel;
    if (side_w >= 8 && mrows >= 2) {
        L->side = 1;
        L->px = 2 * mrows < side_w ? 2 * mrows : side_w;
    } else {
        /* matrix on top, the panel below it when there is room */
        int m = mrows - 9 < 2 * mrows / 3 ? mrows - 9 : 2 * mrows / 3;
        if (m < 2)
            m = mrows < 2 ? mrows : 2;
        L->px = 2 * m < w - L->lw - 1 ? 2 * m : w - L->lw - 1;
    }
    if (a->presenter) {
        /* presenter: the matrix alone, as large as the area allows; the
         * height may already have limited it as much without zoom */
        int px = 2 * mrows < w - L->lw - 1 ? 2 * mrows : w - L->lw - 1;
        L->no_gain = px <= L->px;
        L->side = 0;
        L->px = px;
    }
    if (split)
        layout_split(L);
    if (L->px < 4)
        return;
    layout_blocks(L, a);
    int mh = split ? 2 * L->qh + 1 : (L->ext + 1) / 2;
    int mw = split ? 2 * L->qw + 1 : L->ext;
    L->tick_y = L->my + mh;
    L->legend_y = L->tick_y + 1;
    if (L->side) {
        L->pnx = L->mx + mw + 2;
        L->pny = 1;
        L->pnw = w - L->pnx;
        L->pnh = h - 1;
    } else {
        L->pnx = 0;
        L->pny = L->legend_y + 1;
        L->pnw = w;
        L->pnh = h - L->pny;
    }
    if (a->presenter)
        L->pnw = L->pnh = 0;            /* no side panels */
    L->ok = L->legend_y < h;
}

/* ---- the hooks ------------------------------------------------------------ */

/* Whether the four terms are shown: f is on and they exist (content on,
 * sinusoidal or learned). */
static int split_shown(const struct app *a)
{
    return a->att.split && a->att.o.content
           && scheme_info(a->att.o.scheme)->split;
}

void attention_layout_fit(const struct app *a, void *rt, int w, int h)
{
    struct att_rt *r = rt;
    r->w = w;
    r->h = h;
    r->split = split_shown(a);
    layout_compute(&r->L, a, w, h, r->split);
}
