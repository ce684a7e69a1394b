/* SPDX-License-Identifier: ISC */
/*
 * compare_grid.c - the grid the heatmap and diff modes draw in each
 * pane: positions across (the page of the cursor at the zoom level),
 * dimensions down (all of them evenly spaced, or consecutive ones), a
 * value per cell in one diverging colour scale, the critical band
 * marked in the gutter, the dimension labels, the position axis, the
 * legend and the readout; and each pane's grid as pixels, a value per
 * pixel column, for the view's raster hook (the panes as images).  Below
 * the modes: it knows neither.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "glyph.h"
#include "text.h"
#include "peviz/pe.h"
#include "raster.h"
#include "compare_view.h"

/* Rounded-format evaluations allowed per pane per frame: beyond it a
 * lower-precision pane samples its rounding error (see layout.h). */
#define PREC_BUDGET (1L << 20)

/* ---- dimensions down -------------------------------------------------- */

static void ymap_init(struct ymap *m, int dmax, int pixels, int one_to_one,
                      int cursor, int unit)
{
    m->dmax = dmax;
    m->pixels = pixels < 1 ? 1 : pixels;
    m->unit = unit > 1 && m->pixels >= 2 ? unit : 1;
    int slots = m->pixels / m->unit;
    m->dim0 = 0;
    m->ppd = 0;
    if (dmax <= slots || one_to_one) {
        /* every dim on rows of its own: all of them, or the page of the
         * cursor (axis.h), laid out on slots of unit pixels; fewer dims
         * than slots are stretched over them all, heights differing by
         * a slot at most (AXIS_FILL) */
        axis_init_span(&m->ax, dmax, dmax < slots ? dmax : slots, slots,
                       AXIS_FILL);
        axis_page(&m->ax, 0, cursor);
        axis_widen(&m->ax, m->unit);
        m->ppd = m->ax.m;
        m->dim0 = (int)m->ax.x0;
    }
}

/* How many dimensions fit down the rows. */
static int ymap_slots(const struct ymap *m)
{
    return m->pixels / m->unit;
}

/* How many are shown when they are sampled: whole sin/cos pairs. */
static int ymap_sampled(const struct ymap *m)
{
    return ymap_slots(m) / 2 * 2;
}

/* Dimension shown at pixel row py, or -1. */
static int ymap_dim(const struct ymap *m, int py)
{
    int64_t d0, d1;
    int slots = m->pixels / m->unit, sl = py / m->unit;
    if (py < 0 || sl >= slots)
        return -1;
    if (m->ppd)
        return axis_range(&m->ax, py, &d0, &d1) == 0 ? (int)d0 : -1;
    /* sampled: whole pairs of neighbouring dims, evenly spaced, so an
     * interleaved pane shows both the sin and the cos of each band it
     * shows (single dims spaced by 2 would show only sines) */
    int pairs = slots / 2;
    if (sl >= 2 * pairs)
        return -1;
    int dim = 2 * (int)((int64_t)(sl / 2) * (m->dmax / 2) / pairs) + sl % 2;
    return dim < m->dmax ? dim : -1;
}

/* Pixel row showing dim (or the nearest dim above it), or -1. */
static int ymap_pixel(const struct ymap *m, int dim)
{
    int best = -1;
    for (int py = 0; py < m->pixels; py++) {
        int d = ymap_dim(m, py);
        if (d < 0 || d > dim)
            break;
        if (best < 0 || ymap_dim(m, best) != d)
            best = py;
    }
    return best;
}

/* Whether every dimension has a row of its own. */
static int ymap_complete(const struct ymap *m)
{
    return m->ppd && m->dim0 == 0 && m->ax.span == m->dmax;
}

/* ---- positions across ------------------------------------------------- */

/* Column marking position pos (the middle of a wide one), or -1. */
static int xmap_col(const struct axis *m, int64_t pos)
{
    return axis_cell_mid(m, pos);
}

/* ---- the grid ---------------------------------------------------------- */

/* Stride that keeps a rounded-format pane within PREC_BUDGET. */
static int64_t prec_stride(const struct rpane *r, const struct axis *xm,
                           const struct ymap *ym)
{
    if (r->prec == PREC_F64)
        return 1;
    double work = (double)ym->pixels * (double)xm->span;
    return work <= PREC_BUDGET ? 1 : (int64_t)ceil(work / PREC_BUDGET);
}

/* Positions [*q0, *q1) of value i of the sub across column col, cut at
 * n: the column's run split evenly; 0 when the value shows none. */
static int sub_range(const struct axis *xm, int col, int i, int sub,
                     int64_t n, int64_t *q0, int64_t *q1)
{
    int64_t a0, a1;
    if (!cmp_xmap_range(xm, col, &a0, &a1))
        return 0;
    *q0 = a0 + (a1 - a0) * i / sub;
    *q1 = a0 + (a1 - a0) * (i + 1) / sub;
    if (*q1 <= *q0)
        *q1 = *q0 + 1;
    if (*q0 >= n)
        return 0;
    if (*q1 > n)
        *q1 = n;
    return 1;
}

/*
 * Fill out[py * cols * sub + col * sub + i] with the pane's means
 * (BLANK outside its n or d).  exact != 0 forces f64 (the reference for
 * errors).  The ranges are the same on every row and each row is one
 * dim: its frequency is formed once (layout_value_means).
 */
void cmp_grid_fill(const struct rpane *r, const struct axis *xm,
                   const struct ymap *ym, int sub, int exact, double *out)
{
    enum precision p = exact ? PREC_F64 : r->prec;
    int64_t stride = prec_stride(r, xm, ym);
    int cols = xm->cells * (sub < 1 ? (sub = 1) : sub), live = 0;
    int64_t *p0 = malloc(2 * (size_t)(cols > 0 ? cols : 1) * sizeof *p0);
    int *at = malloc((size_t)(cols > 0 ? cols : 1) * sizeof *at);
    double *v = malloc((size_t)(cols > 0 ? cols : 1) * sizeof *v);
    if (!p0 || !at || !v) {
        for (size_t i = 0; i < (size_t)ym->pixels * (size_t)cols; i++)
            out[i] = NAN;
        free(p0); free(at); free(v);
        return;
    }
    int64_t *p1 = p0 + cols;
    for (int col = 0; col < cols; col++)
        if (sub_range(xm, col / sub, col % sub, sub, r->n, &p0[live],
                      &p1[live]))
            at[live++] = col;
    for (int py = 0; py < ym->pixels; py++) {
        int dim = ymap_dim(ym, py);
        double *row = &out[(size_t)py * (size_t)cols];
        for (int col = 0; col < cols; col++)
            row[col] = BLANK;
        if (dim < 0 || dim >= r->d)
            continue;
        layout_value_means(r->d, r->base, r->layout, p, p0, p1, live, dim,
                           stride, v);
        for (int i = 0; i < live; i++)
            row[at[i]] = v[i];
    }
    free(p0);
    free(at);
    free(v);
}

/* A pane's grid g at (x, y): a half block per value, NaN dim. */
static void draw_grid(const struct app *a, canvas *c, int x, int y,
                      const double *g, const struct axis *xm,
                      const struct ymap *ym, double scale)
{
    for (int py = 0; py < ym->pixels; py++) {
        for (int col = 0; col < xm->cells; col++) {
            double v = g[(size_t)py * (size_t)xm->cells + (size_t)col];
            if (v == BLANK)
                continue;
            if (isnan(v)) {
                canvas_half(c, x + col, 2 * y + py, cmp_uc(a, UI_DIM), LEVEL_NONE);
                continue;
            }
            double t = v / scale;
            canvas_half(c, x + col, 2 * y + py, cmap_diverging(a->palette, t),
                        cmap_level((t + 1) / 2));
        }
    }
}

/* Left of each pane's cells: marks for the critical band and the bands
 * that do not complete a turn within n. */
static void draw_crit_gutter(const struct app *a, canvas *c, int x, int y,
                             int rows, const struct ymap *ym,
                             const struct rpane *r)
{
    for (int row = 0; row < rows; row++) {
        /* the dims this row stands for: up to the next row's first */
        int lo = ymap_dim(ym, 2 * row), hi = ymap_dim(ym, 2 * row + 2);
        if (lo < 0 || lo >= r->d)
            continue;
        if (hi < 0) {
            int last = ymap_dim(ym, 2 * row + 1);
            hi = (last >= 0 ? last : lo) + 1;
        }
        if (hi <= lo)
            hi = lo + 1;
        int crit = 0, slow = 0;
        for (int dim = lo; dim < hi && dim < r->d; dim++) {
            int band, is_cos;
            layout_map(r->layout, r->d, dim, &band, &is_cos);
            crit |= band == r->crit;
            slow |= band > r->crit;
        }
        if (crit)
            canvas_text(c, x, y + row, 1, glyph(a->ascii, GL_TRI_RIGHT), cmp_uc(a, UI_WARN),
                        RGB_DEFAULT, ATTR_BOLD);
        else if (slow)
            canvas_text(c, x, y + row, 1, glyph(a->ascii, GL_VDOTS), cmp_uc(a, UI_DIM),
                        RGB_DEFAULT, 0);
    }
}

/* Dimension labels in the left gutter, and the cursor's row. */
static void draw_dim_labels(const struct app *a, canvas *c,
                            const struct geom *g, const struct ymap *ym)
{
    if (g->labw < 2)
        return;
    int rows = g->body_h, step = rows > 12 ? 2 : 1, last = -1;
    int cur = ymap_pixel(ym, a->cmp.dim);
    for (int row = 0; row < rows; row += step) {
        int dim = ymap_dim(ym, 2 * row);
        if (dim == last)            /* a dim rows tall: labelled once */
            continue;
        last = dim;
        if (dim >= 0 && (cur < 0 || cur / 2 != row))
            canvas_printf(c, 0, g->body_y + row, g->labw - 1, cmp_uc(a, UI_DIM),
                          RGB_DEFAULT, 0, "%*d", g->labw - 1, dim);
    }
    if (cur >= 0)
        canvas_printf(c, 0, g->body_y + cur / 2, g->labw, cmp_uc(a, UI_CURSOR),
                      RGB_DEFAULT, ATTR_BOLD, "%*d%s", g->labw - 1, a->cmp.dim,
                      glyph(a->ascii, GL_PLAY));
}

/*
 * What a column and a row stand for, for the axis row: candidates from
 * long to short (stride > 1: this pane samples its rounding error).
 */
static int axis_notes(const struct axis *xm, const struct ymap *ym,
                      int64_t stride, char s[][96])
{
    char rl[40] = "", rs[40] = "", cl[48] = "", cs[48] = "", ct[48] = "";
    if (xm->k > 1) {    /* one wording in every pane: the same axis */
        axis_caption(xm, "col", "cols", "pos", cl, sizeof cl);
        snprintf(cs, sizeof cs, "%s", cl);
        axis_caption_short(xm, "col", "pos", ct, sizeof ct);
    }
    if (ym && !ymap_complete(ym)) {
        if (ym->ppd) {
            snprintf(rl, sizeof rl, "dims %d-%d", ym->dim0,
                     ym->dim0 + ymap_slots(ym) - 1);
            snprintf(rs, sizeof rs, "%s", rl);
        } else {
            snprintf(rl, sizeof rl, "%d of %d dims", ymap_sampled(ym),
                     ym->dmax);
            snprintf(rs, sizeof rs, "%d/%d dims", ymap_sampled(ym), ym->dmax);
        }
    }
    int n = 0;
    if (stride > 1) {
        snprintf(s[n++], 96, "%s, error from every %lld", cs, (long long)stride);
        snprintf(s[n++], 96, "error from every %lld pos", (long long)stride);
    }
    snprintf(s[n++], 96, "%s%s%s", rl, rl[0] && cl[0] ? ", " : "", cl);
    snprintf(s[n++], 96, "%s%s%s", rs, rs[0] && cs[0] ? ", " : "", cs);
    /* the column's size before the rows' note: every pane names the
     * shared position axis alike (the status line has the rows) */
    snprintf(s[n++], 96, "%s", cs[0] ? cs : rs);
    if (ct[0])          /* narrow panes: all of them this short form */
        snprintf(s[n++], 96, "%s", ct);
    return n;
}

/* Position axis under a pane: first and last position, cursor mark. */
static void draw_pos_axis(const struct app *a, canvas *c, int x, int w, int y,
                          const struct axis *xm, int64_t cursor, int64_t nlim,
                          const struct ymap *ym, int64_t stride)
{
    char lo[24], hi[24];
    int64_t last = xm->x0 + axis_shown(xm) - 1;
    if (last >= nlim)
        last = nlim - 1;
    snprintf(lo, sizeof lo, "%lld", (long long)xm->x0);
    snprintf(hi, sizeof hi, "%lld", (long long)last);
    int col = cursor < nlim ? xmap_col(xm, cursor) : -1;
    if (col >= w)
        col = -1;
    int wl = text_width(lo), wh = text_width(hi);
    int end = axis_cell_end(xm, last);
    if (end > w)
        end = w;
    int hx = cmp_axis_ends(a, c, x, y, end, lo, hi, col);
    /* between the end labels, clear of the mark: what a column and a
     * row hold */
    char note[6][96];
    int nn = axis_notes(xm, ym, stride, note);
    for (int v = 0; v < nn; v++) {
        int tw = text_width(note[v]);
        int nx = tw ? text_place_clear(wl + 2, hx - wh - 2, tw, col) : -1;
        if (nx >= 0) {
            canvas_text(c, x + nx, y, tw, note[v],
                        cmp_uc(a, stride > 1 && v < 2 ? UI_WARN : UI_DIM),
                        RGB_DEFAULT, 0);
            break;
        }
    }
    cmp_axis_mark(a, c, x, y, col);
}

/* A colour strip from -scale to +scale. */
static int draw_ramp(const struct app *a, canvas *c, int x, int y, int maxw,
                     double scale)
{
    char lo[24], hi[24];
    cmp_num(-scale, lo, sizeof lo);
    cmp_num(scale, hi, sizeof hi);
    int n = 12;
    int need = text_width(lo) + n + text_width(hi) + 2;
    if (need > maxw)
        return 0;
    int cx = x + canvas_text(c, x, y, maxw, lo, cmp_uc(a, UI_TEXT), RGB_DEFAULT, 0);
    cx++;
    for (int i = 0; i < n; i++) {
        double t = -1 + 2.0 * (i + 0.5) / n;
        rgb col = cmap_diverging(a->palette, t);
        canvas_half(c, cx + i, 2 * y, col, cmap_level((t + 1) / 2));
        canvas_half(c, cx + i, 2 * y + 1, col, cmap_level((t + 1) / 2));
    }
    cx += n + 1;
    canvas_text(c, cx, y, maxw, hi, cmp_uc(a, UI_TEXT), RGB_DEFAULT, 0);
    return need;
}

/* The legend: what the values are (lead), the colour scale, the band
 * marks when a pane has bands; the lead alone when no pane draws a grid
 * (no colour to read). */
static void draw_legend(const struct app *a, canvas *c, const struct geom *g,
                        double scale, const char *lead, int bands)
{
    if (g->legend_y < 0)
        return;
    int y = g->legend_y, x = 0;
    if (!bands) {
        const char *cand[1] = { lead };
        canvas_text_fit(c, 0, y, c->w, cand, 1, cmp_uc(a, UI_DIM), 0);
        return;
    }
    if (c->w >= 60)
        x += canvas_text(c, 0, y, -1, lead, cmp_uc(a, UI_DIM), RGB_DEFAULT, 0) + 1;
    int used = draw_ramp(a, c, x, y, c->w - x, scale);
    if (!used)
        return;
    x += used + 2;
    char s[3][96];
    snprintf(s[0], sizeof s[0], "%s critical band  %s <1 turn in n",
             glyph(a->ascii, GL_TRI_RIGHT), glyph(a->ascii, GL_VDOTS));
    snprintf(s[1], sizeof s[1], "%s crit  %s <1 turn",      /* both marks */
             glyph(a->ascii, GL_TRI_RIGHT), glyph(a->ascii, GL_VDOTS));
    snprintf(s[2], sizeof s[2], "%s crit", glyph(a->ascii, GL_TRI_RIGHT));
    const char *cand[3] = { s[0], s[1], s[2] };
    if (x < c->w)
        canvas_text_fit(c, x, y, c->w - x, cand, 3, cmp_uc(a, UI_WARN), 0);
}

double cmp_cursor_value(const struct app *a, const struct rpane *r)
{
    if (a->cmp.dim >= r->d || a->p.pos >= r->n)
        return NAN;
    return layout_value(r->d, r->base, r->layout, r->prec, a->p.pos,
                        a->cmp.dim);
}

void cmp_grid_readout(const struct app *a, canvas *c,
                      const struct cmp_frame *f, cmp_piece_fn piece)
{
    char line[2][320];
    for (int v = 0; v < 2; v++) {
        int len = snprintf(line[v], sizeof line[v], "pos %lld dim %d",
                           (long long)a->p.pos, a->cmp.dim);
        for (int k = 0; k < f->np && len < (int)sizeof line[v]; k++) {
            const struct rpane *r = &f->rp[k];
            char what[48] = "", vs[24];
            double val;
            if (!piece(a, f->rp, k, v == 0, what, sizeof what, &val))
                continue;
            if (isnan(val))
                snprintf(vs, sizeof vs, "%s", a->cmp.dim < r->d &&
                         a->p.pos < r->n ? "overflow" : "-");
            else
                cmp_num(val, vs, sizeof vs);
            len += snprintf(line[v] + len, sizeof line[v] - (size_t)len,
                            " %s %c %s%s", glyph_pick(a->ascii, "\u2502", "|"),
                            'A' + r->id, what, vs);
        }
    }
    const char *cand[2] = { line[0], line[1] };
    canvas_text_fit(c, 0, f->g.read_y, c->w, cand, 2, cmp_uc(a, UI_TEXT), 0);
}

static void heat_hint(const struct app *a, const struct axis *xm,
                      const struct ymap *ym, const struct rpane *rp, int np,
                      char *hint, size_t hintlen)
{
    char cols[64], rows[96] = "", prec[64] = "";
    axis_caption(xm, "col", "cols", "pos", cols, sizeof cols - 16);
    if (xm->k > 1)
        strcat(cols, " (exact mean)");
    if (!ymap_complete(ym)) {
        if (ym->ppd)
            snprintf(rows, sizeof rows, ", dims %d-%d of %d (y: overview)",
                     ym->dim0, ym->dim0 + ymap_slots(ym) - 1, ym->dmax);
        else
            snprintf(rows, sizeof rows, ", %d of %d dims evenly spaced (y: all)",
                     ymap_sampled(ym), ym->dmax);
    }
    for (int k = 0; k < np; k++) {
        int64_t s = prec_stride(&rp[k], xm, ym);
        if (s > 1) {
            snprintf(prec, sizeof prec, ", %s error sampled 1/%lld pos",
                     precision_name(rp[k].prec), (long long)s);
            break;
        }
    }
    (void)a;
    snprintf(hint, hintlen, "%s%s%s", cols, rows, prec);
}

void cmp_grid_layout(const struct app *a, struct cmp_frame *f)
{
    struct geom *g = &f->g;
    struct ymap *ym = &f->ym;
    cmp_geom_make(f, fmt_digits(f->dmax - 1) + 2);
    cmp_xmap_init(&f->xm, f->nmax, a->cmp.zoom, a->p.pos, g->pw - 1,
                  AXIS_FILL);
    ymap_init(ym, f->dmax, 2 * g->body_h, a->cmp.dims_1to1, a->cmp.dim,
              canvas_has_halves(a->ascii, a->color) ? 1 : 2);
    /* rows are whole dims: the axis follows the last used row */
    int used = ym->ppd ? (ym->ax.used + 1) / 2
                       : (ymap_sampled(ym) * ym->unit + 1) / 2;
    if (used < g->body_h && g->axis_y >= 0) {
        g->body_h = used;
        g->axis_y = g->body_y + used;
        if (g->legend_y >= 0)
            g->legend_y = g->axis_y + 1;
        if (g->read_y >= 0)
            g->read_y = g->axis_y + (g->legend_y >= 0 ? 2 : 1);
    }
}

int cmp_grid_sub(const struct cmp_frame *f)
{
    return f->sub > 1 ? f->sub : 1;
}

size_t cmp_grid_cells(const struct cmp_frame *f)
{
    int cols = f->g.pw - 1;
    if (cols < 1 || f->g.body_h < 1)
        return 0;
    return (size_t)cols * (size_t)cmp_grid_sub(f) * (size_t)f->ym.pixels;
}

int cmp_grid_source(const struct cmp_frame *f, int k, int cw, int ch, int x,
                    int y, int64_t *q0, int64_t *q1, int *dim)
{
    int py = 2 * (y / ch) + (y % ch >= ch / 2);
    if (k >= f->np || x < 0 || x >= f->xm.cells * cw || py >= f->ym.pixels)
        return -1;
    *dim = ymap_dim(&f->ym, py);
    if (*dim < 0 || *dim >= f->rp[k].d)
        return -1;
    return sub_range(&f->xm, x / cw, x % cw, cw, f->rp[k].n, q0, q1) ? 0 : -1;
}

int cmp_grid_raster(const struct app *a, const struct cmp_frame *f,
                    const double *px, double scale, int k, int cw, int ch,
                    struct view_raster *r)
{
    const struct geom *g = &f->g;
    int cols = f->xm.cells, W = cols * cw, H = g->body_h * ch, any = 0;
    if (k >= g->np || cols < 1 || g->body_h < 1 || ch < 2)
        return -1;
    *r = (struct view_raster){ g->px[k] + 1, g->body_y, cols, g->body_h, cw,
                               ch, NULL, 0 };
    r->px = malloc((size_t)W * (size_t)H * sizeof *r->px + 1);
    for (int y = 0; r->px && y < H; y++) {
        int py = 2 * (y / ch) + (y % ch >= ch / 2);
        const double *row = px + (size_t)py * (size_t)W;
        for (int x = 0; x < W; x++) {
            double v = py < f->ym.pixels ? row[x] : BLANK;
            rgb c = v == BLANK ? RGB_DEFAULT
                    : isnan(v) ? cmp_uc(a, UI_DIM)
                    : cmap_diverging(a->palette, v / scale);
            any |= c != RGB_DEFAULT;
            r->px[(size_t)y * (size_t)W + (size_t)x] = c;
        }
    }
    if (!r->px || !any) {
        free(r->px);
        r->px = NULL;
        return -1;
    }
    return 0;
}

int cmp_grid_draw(const struct app *a, canvas *c, const struct cmp_frame *f,
                  const struct cmp_values *v, unsigned skip,
                  const char *lead, char *hint, size_t hintlen)
{
    const struct geom *g = &f->g;
    const struct axis *xm = &f->xm;
    const struct ymap *ym = &f->ym;
    size_t cells = cmp_grid_cells(f);
    int drawn = (skip & ((1u << g->np) - 1)) != (1u << g->np) - 1;
    if (!cells)
        return -1;
    cmp_body_separators(a, c, g);
    if (!v->v) {
        snprintf(hint, hintlen, "out of memory");
        return -1;
    }
    for (int k = 0; k < g->np; k++) {
        int x = g->px[k];
        if (!(skip >> k & 1)) {
            draw_grid(a, c, x + 1, g->body_y, v->v + cells * (size_t)k, xm,
                      ym, v->scale);
            draw_crit_gutter(a, c, x, g->body_y, g->body_h, ym, &f->rp[k]);
        }
        if (g->axis_y >= 0 && drawn)
            draw_pos_axis(a, c, x + 1, g->pw - 1, g->axis_y, xm, a->p.pos,
                          f->rp[k].n, k == 0 ? ym : NULL,
                          prec_stride(&f->rp[k], xm, ym));
    }
    if (drawn)
        draw_dim_labels(a, c, g, ym);
    draw_legend(a, c, g, v->scale, lead, drawn);
    heat_hint(a, xm, ym, f->rp, g->np, hint, hintlen);
    return 0;
}
