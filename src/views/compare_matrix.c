/* SPDX-License-Identifier: ISC */
/*
 * compare_matrix.c - the compare view's matrix mode: each pane's score
 * matrix S(i, j), query i down and key j across from 0, as the attention
 * view and --export scores compute it (compare_scores.c), the whole
 * matrix across the pane, each cell the exact mean of its block, computed
 * in slices between frames.  Schemes differ by orders
 * of magnitude, so each pane has its own scale, printed under it; the
 * readout gives each pane's S(pos, 0).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "colormap.h"
#include "text.h"
#include "compare_view.h"

static const char RAMP[] = " .:-=+*#%@";

/* The cells of a pane: rows x cols cells of ki queries x kj keys. */
struct mdims { int rows, cols; int64_t ki, kj; };

static struct mdims matrix_dims(const struct cmp_frame *f,
                                const struct rpane *r)
{
    struct mdims m = { f->g.body_h, f->g.pw - 1, 1, 1 };
    if (m.rows < 1 || m.cols < 1)
        return (struct mdims){ 0, 0, 1, 1 };
    m.ki = (r->n + m.rows - 1) / m.rows;
    m.kj = (r->n + m.cols - 1) / m.cols;
    m.rows = (int)((r->n + m.ki - 1) / m.ki);
    m.cols = (int)((r->n + m.kj - 1) / m.kj);
    return m;
}

/* Whether pane r's block means need sums over the blocks' positions
 * (embeddings, learned rows) beyond the cap. */
static int too_costly(const struct rpane *r, const struct mdims *m)
{
    return cmp_scores_costly(r, (double)(m->ki + m->kj) * m->rows * m->cols);
}

/* Cells are computed in slices between frames, as the attention view's
 * are: pane after pane, row after row, each cell costing its block's
 * entries times d/2 units, so that a key is answered between slices. */

/* The cell slot c (all panes' cells in turn) of pane *k at (*x, *y). */
static void matrix_slot(const struct cmp_frame *f, int64_t c, int *k, int *x,
                        int *y)
{
    int64_t cells = (int64_t)f->g.body_h * f->g.pw;
    *k = (int)(c / cells);
    *y = (int)(c % cells / f->g.pw);
    *x = (int)(c % cells % f->g.pw);
}

/* Pane r's cell (x, y) of m, by s; its cost in units in *cost. */
static double matrix_cell(const struct rpane *r, const struct mdims *m,
                          struct score_ctx *s, int x, int y, double *cost)
{
    int64_t i0 = y * m->ki, j0 = x * m->kj;
    int64_t i1 = i0 + m->ki < r->n ? i0 + m->ki : r->n;
    int64_t j1 = j0 + m->kj < r->n ? j0 + m->kj : r->n;
    *cost = (double)(i1 - i0) * (double)(j1 - j0) * (r->d / 2 + 1);
    return scores_block_mean(s, i0, i1, j0, j1);
}

static void matrix_work(const struct cmp_frame *f, struct cmp_values *out)
{
    size_t cells = (size_t)(f->g.body_h > 0 ? f->g.body_h : 0) *
                   (size_t)(f->g.pw > 0 ? f->g.pw : 0);
    out->scale = 1;
    out->v = cells ? malloc(sizeof(double) * cells * (size_t)f->np) : NULL;
    for (size_t i = 0; out->v && i < cells * (size_t)f->np; i++)
        out->v[i] = NAN;        /* refused, past n, or not yet computed */
    out->done = 0;
    out->total = out->v ? (int64_t)cells * f->np : 0;
}

/* The next cells until about budget units are spent (one at least). */
static int matrix_more(const struct cmp_frame *f, struct cmp_values *v,
                       int64_t budget)
{
    int64_t cells = (int64_t)f->g.body_h * f->g.pw;
    double spent = 0;
    while (v->done < v->total && spent < (double)budget) {
        int k, x, y;
        matrix_slot(f, v->done, &k, &x, &y);
        const struct rpane *r = &f->rp[k];
        struct mdims m = matrix_dims(f, r);
        struct score_ctx *s = too_costly(r, &m) ? NULL : cmp_scores_new(f, r);
        int64_t pane_end = (k + 1) * cells;
        for (; s && v->done < pane_end && spent < (double)budget; v->done++) {
            matrix_slot(f, v->done, &k, &x, &y);
            double cost = 0;
            if (y < m.rows && x < m.cols)
                v->v[v->done] = matrix_cell(r, &m, s, x, y, &cost);
            spent += cost;
        }
        if (!s)
            v->done = pane_end; /* refused (or no memory): stays blank */
        scores_free(s);
    }
    return v->done < v->total;
}

/* The finite range of n values; 0 when none. */
static int value_range(const double *v, size_t n, double *lo, double *hi)
{
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(v[i]))
            continue;
        *lo = any && *lo < v[i] ? *lo : v[i];
        *hi = any && *hi > v[i] ? *hi : v[i];
        any = 1;
    }
    return any;
}

/* A pane's scale "lo..hi" in w columns, to 4 digits or else 2; nothing
 * rather than a cut number (nor a warning while cells are computed). */
static void draw_scale(const struct app *a, canvas *c, int x, int y, int w,
                       int any, int busy, double lo, double hi)
{
    char t[96], l[24], h[24];
    if (any && lo == hi) {      /* one value: no scale to draw */
        fmt_num(lo, 4, l, sizeof l);
        snprintf(t, sizeof t, "constant %s", l);
        canvas_text(c, x, y, w, text_width(t) <= w ? t : l,
                    cmp_uc(a, UI_TEXT), RGB_DEFAULT, 0);
        return;
    }
    for (int digits = 4; any && digits >= 2; digits -= 2) {
        fmt_num(lo, digits, l, sizeof l);
        fmt_num(hi, digits, h, sizeof h);
        snprintf(t, sizeof t, "%s..%s", l, h);
        if (text_width(t) <= w) {
            canvas_text(c, x, y, w, t, cmp_uc(a, UI_TEXT), RGB_DEFAULT, 0);
            return;
        }
    }
    if (!any && !busy)
        canvas_text(c, x, y, w, w >= 42 ? "too many positions: see the "
                    "attention view" : "too many", cmp_uc(a, UI_WARN),
                    RGB_DEFAULT, 0);
}

/* Pane k's cells in its own scale, and the scale on the axis row. */
static void draw_pane(const struct app *a, canvas *c,
                      const struct cmp_frame *f, const double *v, int k,
                      int busy)
{
    const struct geom *g = &f->g;
    struct mdims m = matrix_dims(f, &f->rp[k]);
    double lo = 0, hi = 0;
    int any = value_range(v, (size_t)g->body_h * (size_t)g->pw, &lo, &hi);
    if (any && lo == hi) {      /* constant: said in words, not a glyph */
        char t[48], l[24];
        fmt_num(lo, 4, l, sizeof l);
        snprintf(t, sizeof t, "S = %s everywhere", l);
        const char *cand[3] = { t, "constant", "" };
        canvas_text_fit(c, g->px[k] + 1, g->body_y + m.rows / 2, g->pw - 2,
                        cand, 3, cmp_uc(a, UI_DIM), 0);
        m.rows = 0;
    }
    for (int y = 0; y < m.rows; y++)
        for (int x = 0; x < m.cols; x++) {
            double s = v[(size_t)y * (size_t)g->pw + (size_t)x];
            double u = hi > lo ? (s - lo) / (hi - lo) : 1;
            if (isfinite(s))
                canvas_printf(c, g->px[k] + x, g->body_y + y, 1,
                              cmap_sequential(a->palette, u), RGB_DEFAULT, 0,
                              "%c", RAMP[cmap_level(u)]);
        }
    if (g->axis_y >= 0)
        draw_scale(a, c, g->px[k], g->axis_y, g->pw - 1, any, busy, lo, hi);
}

static int matrix_draw(const struct app *a, canvas *c,
                       const struct cmp_frame *f, const struct cmp_values *v,
                       char *hint, size_t hintlen)
{
    size_t cells = (size_t)f->g.body_h * (size_t)f->g.pw;
    if (f->g.body_h < 1 || f->g.pw < 2)
        return -1;
    if (!v->v) {
        snprintf(hint, hintlen, "out of memory");
        return -1;
    }
    int busy = v->done < v->total;
    for (int k = 0; k < f->np; k++)
        draw_pane(a, c, f, v->v + cells * (size_t)k, k, busy);
    cmp_body_separators(a, c, &f->g);
    static const char *const LEGEND[] = {
        "S(i, j): query i down, key j across, 0..n; each pane its own scale, low ' .:-=+*#%@' high",
        "S(i, j), i down, j across; own scale per pane: ' .:-=+*#%@'",
        "S(i, j), each pane its own scale"
    };
    if (f->g.legend_y >= 0)
        canvas_text_fit(c, 0, f->g.legend_y, c->w, LEGEND, 3,
                        cmp_uc(a, UI_DIM), 0);
    if (busy)
        snprintf(hint, hintlen, "computing the matrix: %d%%",
                 (int)(100 * v->done / v->total));
    else
        snprintf(hint, hintlen, "each cell the mean of its block");
    return 0;
}

/* "S(pos, 0): A 1.2  B -3", as far as it fits. */
static void matrix_readout(const struct app *a, canvas *c,
                           const struct cmp_frame *f)
{
    int x = 0, y = f->g.read_y;
    char head[48];
    snprintf(head, sizeof head, "S(%lld, 0):", (long long)a->p.pos);
    x += canvas_text(c, x, y, c->w, head, cmp_uc(a, UI_TEXT), RGB_DEFAULT,
                     0) + 1;
    for (int k = 0; k < f->np; k++) {
        char mk[4], d[24] = "-";
        double s = cmp_score_at(f, &f->rp[k], a->p.pos);
        if (isfinite(s))
            cmp_num(s, d, sizeof d);
        snprintf(mk, sizeof mk, "%c ", 'A' + f->rp[k].id);
        x = cmp_legend_piece(c, x, y, mk, cmp_pane_rgb(a, f->rp[k].id), d,
                             cmp_uc(a, UI_TEXT));
    }
}

static void matrix_layout(const struct app *a, struct cmp_frame *f)
{
    (void)a;
    cmp_geom_make(f, 0);
}

const struct cmp_mode CMP_MATRIX = {
    .name = "matrix", .scores = 1, .layout = matrix_layout, .work = matrix_work,
    .more = matrix_more, .draw = matrix_draw, .readout = matrix_readout,
};
