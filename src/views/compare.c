/*
 * compare.c - the compare view: two or three panes side by side, each
 * with its own base, d_model, dimension layout and number format.
 *
 * Every pane shares the cursor, the zoom and one colour scale, so equal
 * colours mean equal values.  Five modes (v cycles them, all panes
 * together): the PE heatmap, the wavelength spectrum
 * (compare_spectrum.c), the score against distance profile (all panes
 * overlaid on one set of axes), the difference A - X (or, for a
 * lower-precision pane, its error against double) and the ratio of each
 * pane's frequencies to A's, band by band (compare_ratio.c).  The
 * header over each pane (compare_head.c) reads off its model and
 * scaling, base, d_model, n, the critical band and the turns of the
 * slowest band within n.  Each pane holds its own RoPE scaling, set by
 * the ':' commands and the keys m s x X t, through the params checks.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "glyph.h"
#include "axis.h"
#include "peviz/layout.h"
#include "plot.h"
#include "text.h"
#include "peviz/pe.h"
#include "compare_view.h"

/* Rounded-format evaluations allowed per pane per frame: beyond it a
 * lower-precision pane samples its rounding error (see layout.h). */
#define MIN_SPAN 8         /* zooming in stops at this many positions */
#define PREC_BUDGET (1L << 20)
/* Blank cell: outside the pane's own n or d. */
#define BLANK HUGE_VAL
#define NPRESETS 4

static const double PRESETS[NPRESETS][2] = {
    { 10000, 500000 }, { 10000, 1e6 }, { 500000, 1e6 }, { 100, 10000 }
};

/* Dimensions down pixel rows (two per cell row). */
struct ymap {
    int dmax;               /* dimensions in the widest pane */
    int pixels;             /* pixel rows available */
    struct axis ax;         /* dims with rows of their own (ppd > 0) */
    int dim0;               /* first dim shown (ppd > 0) */
    int ppd;                /* > 0: pixels per dim; 0: evenly sampled */
    int unit;               /* pixels a dim takes at least: 2 without half
                               blocks, so a cell row shows one dim, else 1 */
};

/*
 * What the heat, diff and profile modes draw depends on the panes'
 * parameters and the axes only: it is computed in the view's work hook
 * when they change (compared with memcmp: the key is zeroed before its
 * fields are set) and the frames in between only compose the canvas.
 */
struct cmp_key {
    int mode, np, cols;
    struct {
        double base;
        int64_t n;
        int d, layout, prec;
    } p[COMPARE_MAX_PANES];
    struct axis xm;
    struct ymap ym;
};

struct cmp_cache {
    int valid;
    struct cmp_key key;
    double *v;              /* heat: np grids of cols x pixels; profile:
                               np rows of xm.used points; NULL: no memory */
    double scale;           /* diff: the colour scale */
};

/* ---- small helpers ---------------------------------------------------- */

rgb cmp_uc(const struct app *a, enum ui_color c)
{
    return ui_color(a->palette, c);
}

rgb cmp_pane_rgb(const struct app *a, int k)
{
    return cmp_uc(a, (enum ui_color)(UI_PLOT_A + k));
}

/*
 * Pane A is the global parameters (-b, -d, the status line); panes B and
 * C hold their own base and, once changed, their own d_model.
 */
static double pane_base(const struct app *a, int k)
{
    double b = a->cmp.panes[k].base;
    return k > 0 && b > 1 ? b : a->p.base;
}

static int pane_d(const struct app *a, int k)
{
    int d = a->cmp.panes[k].d;
    return k > 0 && d > 0 ? d : a->p.d;
}

double cmp_log10_wavelength(const struct rpane *r, int i)
{
    return LOG10_2PI - log10(r->plan->omega_base[i]);
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

static void pane_resolve(const struct app *a, int k, struct rpane *r)
{
    const struct pane *p = &a->cmp.panes[k];
    r->base = pane_base(a, k);
    r->d = pane_d(a, k);
    r->n = p->n > 0 ? p->n : a->p.n;
    r->layout = p->layout;
    r->prec = p->prec;
    r->rope = k > 0 ? &p->rope : &a->p.rope;
    r->plan = plan_get(r->rope, r->d, r->base, r->n);
    r->crit = r->plan->crit;
    r->crit_base = r->plan->crit_base;
    r->slow_turns = r->plan->turns[r->d / 2 - 1];
    r->slow_turns_base = pow(10, log10((double)r->n) -
                             cmp_log10_wavelength(r, r->d / 2 - 1));
    r->model = pane_model(a, k, r);
}

static int npanes(const struct app *a)
{
    int np = a->cmp.npanes;
    return np < 1 ? 1 : np > COMPARE_MAX_PANES ? COMPARE_MAX_PANES : np;
}

/* Modes with one value per band (the band cursor moves). */
static int band_mode(const struct app *a)
{
    return a->cmp.mode == PANE_SPECTRUM || a->cmp.mode == PANE_RATIO;
}

/* Modes that set every pane against pane A. */
static int compares(const struct app *a)
{
    return a->cmp.mode == PANE_DIFF || a->cmp.mode == PANE_RATIO;
}

static void resolve_all(const struct app *a, struct rpane *rp, int np,
                        int *dmax, int64_t *nmax)
{
    *dmax = 2;
    *nmax = 1;
    for (int k = 0; k < np; k++) {
        pane_resolve(a, k, &rp[k]);
        rp[k].id = k;
        if (rp[k].d > *dmax)
            *dmax = rp[k].d;
        if (rp[k].n > *nmax)
            *nmax = rp[k].n;
    }
}

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

static void geom_make(int w, int h, int np, int labw, int tags,
                      struct geom *g)
{
    memset(g, 0, sizeof *g);
    g->np = np;
    g->labw = w >= 40 ? labw : 0;
    g->pw = (w - g->labw - (np - 1)) / np;
    for (int k = 0; k < np; k++)
        g->px[k] = g->labw + k * (g->pw + 1);
    g->head_h = h >= 18 ? 3 : h >= 10 ? 2 : 1;
    g->tags = tags && h >= 20;
    g->head_h += g->tags;
    g->read_y = h >= 8 ? h - 1 : -1;
    g->legend_y = h >= 14 ? h - 2 : -1;
    int bottom = g->legend_y >= 0 ? g->legend_y : g->read_y >= 0 ? g->read_y : h;
    g->axis_y = h >= 8 ? bottom - 1 : -1;
    g->body_y = g->head_h;
    g->body_h = (g->axis_y >= 0 ? g->axis_y : bottom) - g->body_y;
}

/* ---- mapping positions and dimensions ---------------------------------- */

/* Positions (or distances) across cols columns at the zoom level: the
 * page holding the cursor (axis.h decides what a column covers). */
static void xmap_init(struct axis *m, int64_t nmax, int zoom, int64_t cursor,
                      int cols)
{
    axis_init(m, nmax, zoom, MIN_SPAN, cols, 0);
    axis_page(m, 0, cursor);
}

/* Positions [p0, p1) of column col; 0 if the column is unused. */
static int xmap_range(const struct axis *m, int col, int64_t *p0, int64_t *p1)
{
    return axis_range(m, col, p0, p1) == 0;
}

/* Column marking position pos (the middle of a wide one), or -1. */
static int xmap_col(const struct axis *m, int64_t pos)
{
    int c = axis_cell(m, pos);
    return c < 0 ? -1 : c + m->m / 2;
}

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
         * cursor (axis.h), laid out on slots of unit pixels */
        axis_init_span(&m->ax, dmax, dmax < slots ? dmax : slots, slots, 0);
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
    return m->ppd && m->dim0 == 0 && m->dmax * m->ppd <= m->pixels;
}

/* Lines between the panes over rows [y0, y1). */
void cmp_separators(const struct app *a, canvas *c, const struct geom *g,
                    int y0, int y1)
{
    for (int k = 1; k < g->np; k++)
        canvas_vline(c, g->px[k] - 1, y0, y1 - y0, cmp_uc(a, UI_AXIS));
}

/* ---- heatmap and difference grids -------------------------------------- */

/* Stride that keeps a rounded-format pane within PREC_BUDGET. */
static int64_t prec_stride(const struct rpane *r, const struct axis *xm,
                           const struct ymap *ym)
{
    if (r->prec == PREC_F64)
        return 1;
    double work = (double)ym->pixels * (double)xm->span;
    return work <= PREC_BUDGET ? 1 : (int64_t)ceil(work / PREC_BUDGET);
}

/*
 * Fill out[py * cols + col] with the pane's column means (BLANK outside
 * its n or d).  exact != 0 forces f64 (the reference for errors).  The
 * column ranges are the same on every row and each row is one dim: its
 * frequency is formed once (layout_value_means).
 */
static void grid_fill(const struct rpane *r, const struct axis *xm,
                      const struct ymap *ym, int exact, double *out)
{
    enum precision p = exact ? PREC_F64 : r->prec;
    int64_t stride = prec_stride(r, xm, ym);
    int cols = xm->cells, live = 0;
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
    for (int col = 0; col < cols; col++) {
        int64_t a0, a1;
        if (!xmap_range(xm, col, &a0, &a1) || a0 >= r->n)
            continue;
        p0[live] = a0;
        p1[live] = a1 > r->n ? r->n : a1;
        at[live++] = col;
    }
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

/* What pane k shows in the diff mode: its rounding error when it has a
 * lower precision; otherwise A - k; pane A (f64) is the reference. */
enum diff_kind { DIFF_REF, DIFF_ERROR, DIFF_AMINUS };

static enum diff_kind diff_kind(const struct rpane *rp, int k)
{
    if (rp[k].prec != PREC_F64)
        return DIFF_ERROR;
    return k == 0 ? DIFF_REF : DIFF_AMINUS;
}

static void grid_diff(const struct rpane *rp, int k, const struct axis *xm,
                      const struct ymap *ym, double *ref, double *out)
{
    size_t cells = (size_t)ym->pixels * (size_t)xm->cells;
    enum diff_kind kind = diff_kind(rp, k);
    if (kind == DIFF_REF) {
        for (size_t i = 0; i < cells; i++)
            out[i] = BLANK;
        return;
    }
    grid_fill(&rp[k], xm, ym, 0, out);
    grid_fill(kind == DIFF_ERROR ? &rp[k] : &rp[0], xm, ym,
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

/* Position axis under a pane: first and last position, cursor mark. */
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
    int end = (int)((last - xm->x0) / xm->k + 1) * xm->m;
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
    if (col >= 0)
        canvas_text(c, x + col, y, 1, glyph(a->ascii, GL_TRI_UP), cmp_uc(a, UI_CURSOR),
                    RGB_DEFAULT, ATTR_BOLD);
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

/* Whether a pane has a RoPE scaling: the heatmap, diff and profile modes
 * draw the sinusoidal PE at each pane's base, which scaling leaves as is
 * (the spectrum and ratio modes show what it does). */
static int any_scaled(const struct rpane *rp, int np)
{
    for (int k = 0; k < np; k++)
        if (rp[k].rope && rp[k].rope->method != ROPE_NONE)
            return 1;
    return 0;
}

static void draw_heat_legend(const struct app *a, canvas *c,
                             const struct geom *g, double scale, int diff,
                             int scaled)
{
    if (g->legend_y < 0)
        return;
    int y = g->legend_y, x = 0;
    const char *lead = scaled ? (diff ? "unscaled PE difference:"
                                      : "unscaled PE value:")
                              : diff ? "difference, one scale:"
                                     : "PE value, one scale:";
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

/* The reference card in pane A of the diff mode. */
static void draw_ref_card(const struct app *a, canvas *c, int x, int y, int w,
                          int h, int np)
{
    char s[4][2][64];
    int n = 0;
    snprintf(s[n][0], sizeof s[0][0], "A is the reference");
    snprintf(s[n++][1], sizeof s[0][0], "A: reference");
    for (int k = 1; k < np && n < 3; k++) {
        if (a->cmp.panes[k].prec != PREC_F64)
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

/* Exact PE at the cursor as a pane holds it (NaN outside its d or n). */
static double cursor_value(const struct app *a, const struct rpane *r)
{
    if (a->cmp.dim >= r->d || a->p.pos >= r->n)
        return NAN;
    return layout_value(r->d, r->base, r->layout, r->prec, a->p.pos,
                        a->cmp.dim);
}

/* Pane k's part of the readout: its value (or difference) at the cursor,
 * with what it is when verbose. */
static void readout_piece(const struct app *a, const struct rpane *rp, int k,
                          int diff, int verbose, char *buf, size_t len)
{
    const struct rpane *r = &rp[k];
    int inside = a->cmp.dim < r->d && a->p.pos < r->n;
    double val = cursor_value(a, r);
    char vs[24], what[48] = "";
    if (diff && diff_kind(rp, k) == DIFF_ERROR) {
        val -= inside ? layout_value(r->d, r->base, r->layout, PREC_F64,
                                     a->p.pos, a->cmp.dim) : NAN;
        snprintf(what, sizeof what, "%s err ", precision_name(r->prec));
    } else if (diff) {
        val = cursor_value(a, &rp[0]) - val;
        snprintf(what, sizeof what, "A%s%c ", glyph_pick(a->ascii, "\u2212", "-"), 'A' + r->id);
    } else if (verbose && a->cmp.dim < r->d) {
        int band, is_cos;
        layout_map(r->layout, r->d, a->cmp.dim, &band, &is_cos);
        snprintf(what, sizeof what, "%s band %d = ", is_cos ? "cos" : "sin",
                 band);
    }
    if (isnan(val))
        snprintf(vs, sizeof vs, "%s", inside ? "overflow" : "-");
    else
        cmp_num(val, vs, sizeof vs);
    snprintf(buf, len, " %s %c %s%s", glyph_pick(a->ascii, "\u2502", "|"), 'A' + r->id,
             verbose || diff ? what : "", vs);
}

static void heat_readout(const struct app *a, canvas *c, const struct geom *g,
                         const struct rpane *rp, int diff)
{
    if (g->read_y < 0)
        return;
    char line[2][320];
    for (int v = 0; v < 2; v++) {
        int len = snprintf(line[v], sizeof line[v], "pos %lld dim %d",
                           (long long)a->p.pos, a->cmp.dim);
        for (int k = 0; k < g->np; k++) {
            char piece[96];
            if ((diff && diff_kind(rp, k) == DIFF_REF) ||
                len >= (int)sizeof line[v])
                continue;
            readout_piece(a, rp, k, diff, v == 0, piece, sizeof piece);
            len += snprintf(line[v] + len, sizeof line[v] - (size_t)len, "%s",
                            piece);
        }
    }
    const char *cand[2] = { line[0], line[1] };
    canvas_text_fit(c, 0, g->read_y, c->w, cand, 2, cmp_uc(a, UI_TEXT), 0);
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

static void draw_heat_mode(const struct app *a, canvas *c, const struct geom *g,
                           const struct rpane *rp, const struct axis *xmp,
                           const struct ymap *ymp, const struct cmp_cache *cache,
                           int diff, char *hint, size_t hintlen)
{
    int cols = g->pw - 1;
    if (cols < 1 || g->body_h < 1)
        return;
    const struct axis xm = *xmp;
    const struct ymap ym = *ymp;
    /* rows are whole dims: the axis follows the last used row */
    struct geom gl_ = *g;
    int used = ym.ppd ? (ym.dmax * ym.ppd + 1) / 2
                      : (ymap_sampled(&ym) * ym.unit + 1) / 2;
    if (used < g->body_h && g->axis_y >= 0) {
        gl_.body_h = used;
        gl_.axis_y = g->body_y + used;
        if (gl_.legend_y >= 0)
            gl_.legend_y = gl_.axis_y + 1;
        if (gl_.read_y >= 0)
            gl_.read_y = gl_.axis_y + (gl_.legend_y >= 0 ? 2 : 1);
    }
    g = &gl_;
    cmp_separators(a, c, g, g->body_y, g->axis_y >= 0 ? g->axis_y + 1
                                                        : g->body_y + g->body_h);
    size_t cells = (size_t)cols * (size_t)ym.pixels;
    const double *grid = cache->v;
    double scale = cache->scale;
    if (!grid) {
        snprintf(hint, hintlen, "out of memory");
        return;
    }
    for (int k = 0; k < g->np; k++) {
        int x = g->px[k];
        if (diff && diff_kind(rp, k) == DIFF_REF) {
            draw_ref_card(a, c, x, g->body_y, g->pw, g->body_h, g->np);
        } else {
            draw_grid(a, c, x + 1, g->body_y, grid + cells * (size_t)k, &xm,
                      &ym, scale);
            draw_crit_gutter(a, c, x, g->body_y, g->body_h, &ym, &rp[k]);
        }
        if (g->axis_y >= 0)
            draw_pos_axis(a, c, x + 1, cols, g->axis_y, &xm, a->p.pos, rp[k].n,
                          k == 0 ? &ym : NULL, prec_stride(&rp[k], &xm, &ym));
    }
    draw_dim_labels(a, c, g, &ym);
    draw_heat_legend(a, c, g, scale, diff, any_scaled(rp, g->np));
    heat_readout(a, c, g, rp, diff);
    heat_hint(a, &xm, &ym, rp, g->np, hint, hintlen);
}

/* ---- score against distance ------------------------------------------- */

/* Fill vals[col] with pane r's score for each dot column (BLANK when past
 * its n).  Returns -1 when out of memory. */
static int profile_values(const struct rpane *r, const struct axis *xm,
                          double *vals)
{
    struct score_opts o;        /* PE(i).PE(j): sinusoidal, no toggles */
    scores_defaults(&o);
    struct score_ctx *s = scores_new(r->d, r->base, r->n, &o, NULL);
    if (!s)
        return -1;
    for (int col = 0; col < xm->used; col++) {
        int64_t d0, d1;
        if (!xmap_range(xm, col, &d0, &d1) || d0 >= r->n) {
            vals[col] = BLANK;
            continue;
        }
        vals[col] = scores_distance_mean(s, d0, d1 < r->n ? d1 : r->n);
    }
    scores_free(s);
    return 0;
}

/*
 * The readout doubles as the legend: each pane's colour, base and score
 * at the cursor's distance.
 */
static void profile_readout(const struct app *a, canvas *c,
                            const struct geom *g, const struct rpane *rp,
                            int odd, const char *per)
{
    if (g->read_y < 0)
        return;
    for (int v = 0; v < 3; v++) {
        char line[3][96];
        int width = 0, y = g->read_y, x = 0;
        char head[48];
        snprintf(head, sizeof head, v < 2 ? "distance %lld:" : "%lld:",
                 (long long)a->p.pos);
        width = text_width(head) + 1;
        for (int k = 0; k < g->np; k++) {
            char b[24], sc[24] = "-";
            fmt_base(rp[k].base, b, sizeof b);
            if (a->p.pos < rp[k].n)
                cmp_num(pe_score((double)a->p.pos, rp[k].d, rp[k].base), sc,
                    sizeof sc);
            if (v == 0)
                snprintf(line[k], sizeof line[k], " %c base=%s: %s", 'A' + rp[k].id,
                         b, sc);
            else
                snprintf(line[k], sizeof line[k], " %c %s", 'A' + rp[k].id, sc);
            width += text_width(line[k]) + 2 + 2;
        }
        if (width > c->w && v < 2)
            continue;
        x += canvas_text(c, x, y, c->w, head, cmp_uc(a, UI_TEXT), RGB_DEFAULT, 0) + 1;
        for (int k = 0; k < g->np; k++) {
            char mk[16];    /* the curve and the letter set on it */
            snprintf(mk, sizeof mk, "%s%c", plot_style_sample(k, a->ascii),
                     'A' + rp[k].id);
            x = cmp_legend_piece(c, x, y, mk, cmp_pane_rgb(a, rp[k].id), line[k] + 2,
                             cmp_uc(a, UI_TEXT));
        }
        char tail[3][96];
        snprintf(tail[0], sizeof tail[0], "score = %s cos(%s%s%s_i)%s%s",
                 glyph(a->ascii, GL_SIGMA), glyph_pick(a->ascii, "\u03B4", "d"),
                 glyph(a->ascii, GL_MUL), glyph(a->ascii, GL_OMEGA),
                 any_scaled(rp, g->np) ? ", unscaled" : "",
                 odd ? ", f64, any layout" : "");
        snprintf(tail[1], sizeof tail[1], "%s", odd ? "(f64 scores)" : "");
        if (per) {          /* the curve's points are means: say so first */
            snprintf(tail[0], sizeof tail[0], "curve: each point the mean of "
                     "%s distances", per);
            snprintf(tail[1], sizeof tail[1], "points: means of %s", per);
            snprintf(tail[2], sizeof tail[2], "mean of %s", per);
        }
        int t = text_first_fit_rows(tail[0], sizeof tail[0], per ? 3 : 2,
                                    c->w - x);
        if (t >= 0)
            canvas_text(c, x, y, -1, tail[t], cmp_uc(a, UI_DIM), RGB_DEFAULT, 0);
        return;
    }
}

static void draw_profile_mode(const struct app *a, canvas *c,
                              const struct geom *g, const struct rpane *rp,
                              const struct axis *xmp,
                              const struct cmp_cache *cache, char *hint,
                              size_t hintlen)
{
    if (xmp->cells < 1 || g->body_h < 1)
        return;
    const struct axis xm = *xmp;
    double *vals = cache->v;
    if (!vals) {
        snprintf(hint, hintlen, "out of memory");
        return;
    }
    struct plot_series ser[COMPARE_MAX_PANES];
    int odd = 0;
    for (int k = 0; k < g->np; k++) {
        ser[k].y = vals + (size_t)xm.used * (size_t)k;
        ser[k].n = xm.used;
        ser[k].col = cmp_pane_rgb(a, rp[k].id);
        ser[k].mark = g->np > 1 ? (char)('A' + rp[k].id) : 0;
        ser[k].style = k;       /* solid, dotted, sparse: apart in mono */
        odd |= rp[k].layout != LAYOUT_INTERLEAVED || rp[k].prec != PREC_F64;
    }
    struct plot_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.xlabel = "distance";
    sp.x0 = (double)xm.x0;
    sp.dx = (double)xm.k;
    sp.xmin = (double)xm.x0;
    sp.xmax = (double)(xm.x0 + axis_shown(&xm) - 1);
    sp.x_integer = 1;
    sp.zero_line = 1;
    sp.mark_x = (double)a->p.pos;
    sp.label_extremes = xm.span <= 64;
    /* the plot's axis and tick rows take the axis and legend rows */
    int h = g->body_h + (g->axis_y >= 0) + (g->legend_y >= 0);
    plot_lines(c, 0, g->body_y, c->w, h, &sp, ser, g->np, a->palette);
    char per[32];
    snprintf(per, sizeof per, "%lld", (long long)xm.k);
    profile_readout(a, c, g, rp, odd, xm.k > 1 ? per : NULL);
    if (xm.k > 1)
        snprintf(hint, hintlen, "1 point = mean of %lld distances",
                 (long long)xm.k);
    else
        snprintf(hint, hintlen, "1 point = 1 distance");
}

/* ---- the cache (the work hook) -------------------------------------------- */

/* The np heat or diff grids and the diff's colour scale into cache->v. */
static void heat_compute(const struct rpane *rp, int np, int cols,
                         const struct axis *xm, const struct ymap *ym,
                         int diff, struct cmp_cache *cache)
{
    size_t cells = (size_t)cols * (size_t)ym->pixels;
    double *grid = malloc(sizeof(double) * cells * (size_t)(np + 1));
    cache->v = grid;
    cache->scale = 1;
    if (!grid)
        return;
    double *ref = grid + cells * (size_t)np;
    for (int k = 0; k < np; k++) {
        if (diff)
            grid_diff(rp, k, xm, ym, ref, grid + cells * (size_t)k);
        else
            grid_fill(&rp[k], xm, ym, 0, grid + cells * (size_t)k);
    }
    if (diff) {
        double m = 0;
        for (size_t i = 0; i < cells * (size_t)np; i++)
            if (grid[i] != BLANK && !isnan(grid[i]) && fabs(grid[i]) > m)
                m = fabs(grid[i]);
        cache->scale = m > 0 ? nice_up(m) : 1;
    }
}

/* Each pane's score against distance (NAN past its n) into cache->v. */
static void profile_compute(const struct rpane *rp, int np,
                            const struct axis *xm, struct cmp_cache *cache)
{
    double *vals = malloc(sizeof(double) * (size_t)(xm->used > 0 ? xm->used
                                                                 : 1)
                          * (size_t)np);
    cache->v = vals;
    if (!vals)
        return;
    for (int k = 0; k < np; k++) {
        double *v = vals + (size_t)xm->used * (size_t)k;
        if (profile_values(&rp[k], xm, v))
            for (int i = 0; i < xm->used; i++)
                v[i] = BLANK;
        for (int i = 0; i < xm->used; i++)
            if (v[i] == BLANK)
                v[i] = NAN;
    }
}

static void cache_key(const struct app *a, const struct rpane *rp, int np,
                      int cols, const struct axis *xm, const struct ymap *ym,
                      struct cmp_key *k)
{
    memset(k, 0, sizeof *k);
    k->mode = (int)a->cmp.mode;
    k->np = np;
    k->cols = cols;
    for (int i = 0; i < np; i++) {
        k->p[i].base = rp[i].base;
        k->p[i].n = rp[i].n;
        k->p[i].d = rp[i].d;
        k->p[i].layout = (int)rp[i].layout;
        k->p[i].prec = (int)rp[i].prec;
    }
    k->xm = *xm;
    if (ym)
        k->ym = *ym;
}

static void cache_drop(struct cmp_cache *cache)
{
    free(cache->v);
    cache->v = NULL;
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
        snprintf(s[2], sizeof s[2], "%c", 'A' + rp[k].id);
        const char *cand[3] = { s[0], s[1], s[2] };
        canvas_text_fit(c, 0, k, c->w, cand, 3, cmp_pane_rgb(a, rp[k].id),
                        a->cmp.active == rp[k].id ? ATTR_BOLD : 0);
    }
}

static int mode_labw(const struct app *a, const struct rpane *rp, int np,
                     int dmax)
{
    switch (a->cmp.mode) {
    case PANE_SPECTRUM: return cmp_spectrum_labw(rp, np);
    case PANE_RATIO:    return cmp_ratio_labw(rp, np);
    case PANE_PROFILE:  return 0;     /* plot_lines labels its own axis */
    default:            return fmt_digits(dmax - 1) + 2;
    }
}

/* The runtime object: what the layout of the view area decided. */
struct cmp_rt {
    int w, h;
    struct rpane rp[COMPARE_MAX_PANES];
    int np, dmax;
    int64_t nmax;
    struct geom g;
    int tiny;               /* too small for panes: one line each */
    struct axis xm;         /* positions (heatmap, diff) or distances */
    struct ymap ym;         /* dims down (heatmap, diff) */
    struct cmp_cache cache; /* what the heat, diff or profile mode draws */
};

/* The axes of the mode: positions across a pane and dims down it, or
 * distances across the profile (a point per dot column, or per
 * distance when they are fewer). */
static void layout_axes(const struct app *a, struct cmp_rt *r)
{
    const struct geom *g = &r->g;
    memset(&r->xm, 0, sizeof r->xm);
    memset(&r->ym, 0, sizeof r->ym);
    if (a->cmp.mode == PANE_PROFILE) {
        int npts = 2 * (r->w - 6);
        xmap_init(&r->xm, r->nmax, a->cmp.zoom, a->p.pos, npts > 0 ? npts : 0);
        if (r->xm.m > 1)
            xmap_init(&r->xm, r->nmax, a->cmp.zoom, a->p.pos,
                      (int)r->xm.span);
    } else if (!band_mode(a)) {
        xmap_init(&r->xm, r->nmax, a->cmp.zoom, a->p.pos, g->pw - 1);
        ymap_init(&r->ym, r->dmax, 2 * g->body_h, a->cmp.dims_1to1,
                  a->cmp.dim, canvas_has_halves(a->ascii, a->color) ? 1 : 2);
    }
}

static void compare_layout(const struct app *a, void *rt, int w, int h)
{
    struct cmp_rt *r = rt;
    r->w = w;
    r->h = h;
    r->np = npanes(a);
    resolve_all(a, r->rp, r->np, &r->dmax, &r->nmax);
    /* presenter: the active pane alone (the diff and ratio modes keep
     * pane A, their reference, beside the others) */
    if (a->presenter && !compares(a) && r->np > 1) {
        r->rp[0] = r->rp[a->cmp.active < r->np ? a->cmp.active : 0];
        r->np = 1;
        r->dmax = r->rp[0].d;
        r->nmax = r->rp[0].n;
    }
    geom_make(w, h, r->np, mode_labw(a, r->rp, r->np, r->dmax),
              any_tags(r->rp, r->np), &r->g);
    r->tiny = w < 24 || h < 5 || r->g.pw < 10;
    layout_axes(a, r);
}

/* The heat, diff or profile values for the present key, when it changed. */
static int compare_work(const struct app *a, void *rt, int64_t budget)
{
    struct cmp_rt *r = rt;
    enum pane_mode m = a->cmp.mode;
    struct cmp_key k;
    (void)budget;
    if (r->tiny || m == PANE_SPECTRUM || m == PANE_RATIO)
        return 0;
    int cols = r->g.pw - 1;
    if (m == PANE_PROFILE ? r->xm.cells < 1 || r->g.body_h < 1
                          : cols < 1 || r->g.body_h < 1)
        return 0;
    cache_key(a, r->rp, r->np, cols, &r->xm, m == PANE_PROFILE ? NULL
                                                               : &r->ym, &k);
    if (r->cache.valid && memcmp(&k, &r->cache.key, sizeof k) == 0)
        return 0;
    cache_drop(&r->cache);
    if (m == PANE_PROFILE)
        profile_compute(r->rp, r->np, &r->xm, &r->cache);
    else
        heat_compute(r->rp, r->np, cols, &r->xm, &r->ym, m == PANE_DIFF,
                     &r->cache);
    r->cache.key = k;
    r->cache.valid = r->cache.v != NULL;
    return 0;
}

static void compare_fini(void *rt)
{
    cache_drop(&((struct cmp_rt *)rt)->cache);
}

static void compare_draw(const struct app *a, void *rt, canvas *c, char *hint,
                         size_t hintlen)
{
    struct cmp_rt *r = rt;
    if (hintlen)
        hint[0] = 0;
    canvas_clear(c);
    if (r->tiny) {
        draw_tiny(a, c, r->rp, r->np);
        snprintf(hint, hintlen, "enlarge the terminal to see the panes");
        return;
    }
    cmp_draw_headers(a, c, &r->g, r->rp);
    switch (a->cmp.mode) {
    case PANE_SPECTRUM:
        cmp_draw_spectrum(a, c, &r->g, r->rp, hint, hintlen);
        break;
    case PANE_PROFILE:
        draw_profile_mode(a, c, &r->g, r->rp, &r->xm, &r->cache, hint,
                          hintlen);
        break;
    case PANE_RATIO:
        cmp_draw_ratio(a, c, &r->g, r->rp, hint, hintlen);
        break;
    default:    /* heatmap, diff */
        draw_heat_mode(a, c, &r->g, r->rp, &r->xm, &r->ym, &r->cache,
                       a->cmp.mode == PANE_DIFF, hint, hintlen);
        break;
    }
}

/* ---- keys ----------------------------------------------------------------- */

static int dims_max(const struct app *a)
{
    int m = 2;
    for (int k = 0; k < npanes(a); k++)
        m = pane_d(a, k) > m ? pane_d(a, k) : m;
    return m;
}

/* Keep the cursors inside the widest pane. */
static void clamp_cursor(struct app *a)
{
    struct compare_state *s = &a->cmp;
    int dm = dims_max(a);
    s->dim = s->dim < 0 ? 0 : s->dim >= dm ? dm - 1 : s->dim;
    s->band = s->band < 0 ? 0 : s->band >= dm / 2 ? dm / 2 - 1 : s->band;
    if (s->active >= npanes(a))
        s->active = npanes(a) - 1;
}

/* A params struct holding pane k's values, for validation. */
static params pane_params(const struct app *a, int k)
{
    params p = a->p;
    p.d = pane_d(a, k);
    p.base = pane_base(a, k);
    if (k > 0)
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
        a->cmp.panes[k].base = p->base;
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

/* s: the next scaling method the pane's settings allow; the methods
 * skipped on the way are named with the first one's reason. */
static void method_next(struct app *a)
{
    int k = a->cmp.active;
    params p = pane_params(a, k);
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
    params p = pane_params(a, k);
    char err[APP_MSG_LEN] = "";
    const char *name = rope_preset_at(i)->name;
    int bad = params_set_model(&p, name, err, sizeof err);
    if (pane_try(a, k, &p, bad, err))
        return;
    a->cmp.panes[k].model = i + 1;
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
        app_msg(a, 0, "three panes is the most; _ removes pane C");
        return;
    }
    struct pane *c = &s->panes[s->npanes];
    if (!(c->base > 1))
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
    int np = npanes(a);
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
    const struct axis *xm = &r->xm;
    int64_t step;
    if (r->tiny || xm->cells < 1 || key == PK_HOME || key == PK_END)
        return 0;
    switch (key) {
    case PK_LEFT: case 'h':  step = -axis_step(xm, 1); break;
    case PK_RIGHT: case 'l': step = axis_step(xm, 1); break;
    case 'H':                step = -axis_step(xm, xm->cells / 8); break;
    default:                 step = axis_step(xm, xm->cells / 8); break;
    }
    int64_t p = a->p.pos + step;
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
            a->cmp.mode == PANE_RATIO ? "ratio plot" : "spectrum");
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

/* The panes: + _ [ ] b B d D p v o f y. */
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
    a->cmp.panes[0].base = 10000;
    a->cmp.panes[1].base = 500000;
    a->cmp.panes[2].base = 1e6;
    for (int k = 0; k < COMPARE_MAX_PANES; k++)
        rope_scaling_default(&a->cmp.panes[k].rope);
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
    int k = a->cmp.active, id = rope_opt_parse(name);
    int model = !strcmp(name, "model");
    params p = pane_params(a, k);
    char err[APP_MSG_LEN], sc[64];
    if (id < 0 && !model)
        return 0;
    if ((model ? params_set_model(&p, arg, err, sizeof err)
               : params_set_rope(&p, (enum rope_opt)id, arg, err, sizeof err)) ||
        params_check_rope(&p, err, sizeof err)) {
        app_msg(a, 1, "pane %c: %s", 'A' + k, err);
        return 1;
    }
    pane_store(a, k, &p);
    if (model)
        a->cmp.panes[k].model = 1 + params_model_index(arg);
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

static int cmd_choice(struct app *a, const char *what, int v, const char *want)
{
    if (v < 0)
        app_msg(a, 1, "%s: want %s", what, want);
    return v;
}

static int compare_command(struct app *a, void *rt, const char *name,
                           const char *arg)
{
    struct pane *p = &a->cmp.panes[a->cmp.active];
    int v;
    (void)rt;
    if (!strcmp(name, "base") || !strcmp(name, "b"))
        return cmd_pane_param(a, P_BASE, arg);
    if (!strcmp(name, "d") || !strcmp(name, "d_model"))
        return cmd_pane_param(a, P_D, arg);
    if (cmd_pane_rope(a, name, arg))
        return 1;
    if (!strcmp(name, "layout")) {
        v = cmd_choice(a, "layout", layout_parse(arg), "interleaved, concat or half");
        if (v >= 0) {
            p->layout = (enum layout)v;
            app_msg(a, 0, "pane %c: layout %s", 'A' + a->cmp.active, arg);
        }
        return 1;
    }
    if (!strcmp(name, "precision") || !strcmp(name, "prec")) {
        v = cmd_choice(a, "precision", precision_parse(arg), "f64, f32, bf16, f16, all-bf16 or all-f16");
        if (v >= 0) {
            p->prec = (enum precision)v;
            app_msg(a, 0, "pane %c: precision %s", 'A' + a->cmp.active, arg);
        }
        return 1;
    }
    if (!strcmp(name, "mode")) {
        v = cmd_choice(a, "mode", pane_mode_parse(arg),
                       "heatmap, spectrum, profile, diff or ratio");
        if (v >= 0)
            a->cmp.mode = (enum pane_mode)v;
        return 1;
    }
    return 0;
}

/* The view's keys: what each does, and the help card. */
static const struct keybind COMPARE_KEYS[] = {
    { '+',  ACT_VIEW_KEY, "+",      "add pane C (base 1e6)", key_pane },
    { '_',  ACT_VIEW_KEY, "_",      "remove pane C", key_pane },
    { '[',  ACT_VIEW_KEY, "[ ]",    "previous / next active pane", key_pane },
    { ']',  ACT_VIEW_KEY, NULL,     NULL, key_pane },
    { 'b',  ACT_VIEW_KEY, "b B",    "active pane: base /10, x10", key_pane },
    { 'B',  ACT_VIEW_KEY, NULL,     NULL, key_pane },
    { 'd',  ACT_VIEW_KEY, "d D",    "active pane: d_model /2, x2", key_pane },
    { 'D',  ACT_VIEW_KEY, NULL,     NULL, key_pane },
    { 'p',  ACT_VIEW_KEY, "p",      "next preset pair of bases", key_pane },
    { 'v',  ACT_VIEW_KEY, "v",      "mode: heatmap, spectrum, profile, diff, ratio",
      key_pane },
    { 'm',  ACT_VIEW_KEY, "m",      "active pane: next model preset", key_rope },
    { 's',  ACT_VIEW_KEY, "s",      "active pane: next RoPE scaling method",
      key_rope },
    { 'x',  ACT_VIEW_KEY, "x X",    "active pane: scaling factor /2, x2",
      key_rope },
    { 'X',  ACT_VIEW_KEY, NULL,     NULL, key_rope },
    { 't',  ACT_VIEW_KEY, "t",      "active pane: YaRN truncate on / off",
      key_rope },
    { 'o',  ACT_VIEW_KEY, "o",      "active pane: next layout", key_pane },
    { 'f',  ACT_VIEW_KEY, "f",      "active pane: next precision", key_pane },
    { 'y',  ACT_VIEW_KEY, "y",      "rows: evenly spaced / consecutive",
      key_pane },
    { '=',  ACT_VIEW_KEY, "= -",    "zoom positions in / out", key_zoom },
    { '-',  ACT_VIEW_KEY, NULL,     NULL, key_zoom },
    { PK_UP, ACT_VIEW_KEY, "k j",   "dimension (K J PgUp PgDn: faster)",
      key_dim },
    { PK_DOWN, ACT_VIEW_KEY, NULL,  NULL, key_dim },
    { 'k',  ACT_VIEW_KEY, NULL,     NULL, key_dim },
    { 'j',  ACT_VIEW_KEY, NULL,     NULL, key_dim },
    { 'K',  ACT_VIEW_KEY, NULL,     NULL, key_dim },
    { 'J',  ACT_VIEW_KEY, NULL,     NULL, key_dim },
    { PK_PGUP, ACT_VIEW_KEY, NULL,  NULL, key_dim },
    { PK_PGDN, ACT_VIEW_KEY, NULL,  NULL, key_dim },
    { PK_LEFT, ACT_VIEW_KEY, "h l",  "position by a column; band in spectrum, ratio",
      key_band },
    { PK_RIGHT, ACT_VIEW_KEY, NULL, NULL, key_band },
    { 'h',  ACT_VIEW_KEY, NULL,     NULL, key_band },
    { 'l',  ACT_VIEW_KEY, NULL,     NULL, key_band },
    /* the global keys, but over the bands in the spectrum */
    { 'H',  ACT_FAST_LEFT, NULL,    NULL, key_band },
    { 'L',  ACT_FAST_RIGHT, NULL,   NULL, key_band },
    { PK_HOME, ACT_HOME,  NULL,     NULL, key_band },
    { PK_END, ACT_END,    NULL,     NULL, key_band },
    { 0,    ACT_NONE,     NULL,     NULL, NULL }
};

const struct view VIEW_COMPARE_DEF = {
    .name = "compare",
    .title = "compare bases",
    .rt_size = sizeof(struct cmp_rt),
    .reset = compare_reset,
    .params_changed = clamp_cursor,
    .layout = compare_layout,
    .work = compare_work,
    .draw = compare_draw,
    .fini = compare_fini,
    .command = compare_command,
    .keys = COMPARE_KEYS,
    .fields = COMPARE_FIELDS,
    .fields_check = compare_fields_check,
    .about =
        "Two or three encodings side by side, sharing the cursor, the zoom and "
        "one colour scale, so equal colours mean equal values. Pane A is the "
        "global base and d_model; B and C keep their own. Each header gives "
        "base, d_model, n, the critical band (the first band whose wavelength "
        "2*pi*base^(2i/d) exceeds n: from there on no band completes a turn "
        "within n positions) and the turns of the slowest band within n. v "
        "shows every pane as the PE heatmap, the wavelength spectrum, the "
        "score PE(a).PE(b) against the distance a-b (all panes on one set of "
        "axes), the difference A - X (a lower-precision pane shows its own "
        "rounding error instead) or the ratio omega_X/omega_A of each pane's "
        "frequencies to pane A's, band by band, on a log scale (panes with "
        "another d are not compared). Each pane holds its own model and "
        "RoPE scaling: m next model preset, s next method, x X factor /2 "
        "x2, t YaRN truncate, or :model :scaling :factor ... Presets (p): 10000|500000, 10000|1e6, "
        "500000|1e6, 100|10000. Prompt: :base X and :d N for the active "
        "pane, :layout interleaved|concat|half, :precision f64|f32|bf16|f16, "
        ":mode NAME. Layouts reorder the same values: interleaved is the "
        "paper's, concat is tensor2tensor's [sin|cos] order (that code also "
        "spaces its frequencies as i/(d/2-1), which is not shown here), half "
        "is the (i, i+d/2) pairing of rotate_half RoPE code.",
};
