/* SPDX-License-Identifier: ISC */
/*
 * plot.c - legends, tick labels and braille line plots (see plot.h).
 */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"

#define LABEL_MAX 32
#define MAX_LABELS 64

static void fmt_value(double v, int sig, char *buf, size_t len)
{
    fmt_num(v, sig > 0 ? sig : 4, buf, len);     /* never "-0" */
}

int plot_range(const double *v, int n, double *lo, double *hi)
{
    int found = 0;
    for (int i = 0; i < n; i++) {
        if (!isfinite(v[i]))
            continue;
        if (!found || v[i] < *lo)
            *lo = v[i];
        if (!found || v[i] > *hi)
            *hi = v[i];
        found = 1;
    }
    return found;
}

/* ---- legend ------------------------------------------------------------ */

static rgb legend_colour(enum palette pal, const struct plot_legend *lg,
                         double t)
{
    if (lg->diverging)
        return cmap_diverging(pal, lg->lo + t * (lg->hi - lg->lo));
    return cmap_sequential(pal, t);
}

/* Cells of the colour strip when room cells hold it and caption (at
 * most 16). */
static int legend_strip(int room, const char *caption)
{
    int strip = room - (caption ? text_width(caption) + 1 : 0);
    return strip > 16 ? 16 : strip;
}

int plot_legend_draw(canvas *c, int x, int y, int w, enum palette pal,
                     const struct plot_legend *lg)
{
    char lo[LABEL_MAX], hi[LABEL_MAX];
    fmt_value(lg->lo, lg->sig, lo, sizeof lo);
    fmt_value(lg->hi, lg->sig, hi, sizeof hi);
    int lw = text_width(lo), hw = text_width(hi);
    /* the caption gives way first: to its brief form, then to none */
    const char *cap = lg->caption;
    int strip = legend_strip(w - lw - hw - 2, cap);
    if (strip < 4 && cap && lg->brief)
        strip = legend_strip(w - lw - hw - 2, cap = lg->brief);
    if (strip < 4 && cap)
        strip = legend_strip(w - lw - hw - 2, cap = NULL);
    int cw = cap ? text_width(cap) + 1 : 0;
    if (lg->lo == lg->hi) {         /* the value whole before the caption */
        int need = 2 + 6 + lw;      /* swatch, "all = ", v */
        cap = lg->caption;
        if (cap && text_width(cap) + 1 + need > w)
            cap = lg->brief;
        if (cap && text_width(cap) + 1 + need > w)
            cap = NULL;
        if (need > w)
            return 0;
        cw = cap ? text_width(cap) + 1 : 0;
        strip = 2;
    }
    if (strip < 2)
        return 0;
    rgb fg = ui_color(pal, UI_TEXT);
    if (lg->lo == lg->hi) {         /* one value: a swatch and "all = v" */
        int cx = x;
        if (cw)
            cx += canvas_text(c, cx, y, cw, cap, ui_color(pal, UI_DIM),
                              RGB_DEFAULT, 0) + 1;
        rgb col = legend_colour(pal, lg, 0.5);
        canvas_half(c, cx, 2 * y, col, 5);
        canvas_half(c, cx, 2 * y + 1, col, 5);
        cx += 2;
        cx += canvas_printf(c, cx, y, w - (cx - x), fg, RGB_DEFAULT, 0,
                            "all = %s", lo);
        return cx - x;
    }
    int cx = x;
    if (cw)
        cx += canvas_text(c, cx, y, cw, cap, ui_color(pal, UI_DIM),
                          RGB_DEFAULT, 0) + 1;
    cx += canvas_text(c, cx, y, lw, lo, fg, RGB_DEFAULT, 0) + 1;
    for (int i = 0; i < strip; i++) {
        double t = strip > 1 ? (double)i / (strip - 1) : 0.5;
        rgb col = legend_colour(pal, lg, t);
        int lv = 1 + (int)lround(t * 8);
        canvas_half(c, cx + i, 2 * y, col, lv);
        canvas_half(c, cx + i, 2 * y + 1, col, lv);
    }
    cx += strip + 1;
    cx += canvas_text(c, cx, y, hw, hi, fg, RGB_DEFAULT, 0);
    return cx - x;
}

/* ---- ticks ------------------------------------------------------------- */

static void fmt_tick(const struct plot_axis *ax, double v, char *buf,
                     size_t len)
{
    if (ax->integer)
        snprintf(buf, len, "%.0f", v);
    else
        fmt_value(v, 4, buf, len);
}

static int cell_of(const struct plot_axis *ax, double v)
{
    return (int)floor((v - ax->v0) / ax->per_cell + ax->bias + 1e-9);
}

double plot_nice_step(double min_step, int integer)
{
    if (!(min_step > 0))
        return 1;
    double p = pow(10.0, floor(log10(min_step)));
    double steps[] = { 1, 2, 5, 10 };
    for (int i = 0; i < 4; i++)
        if (steps[i] * p >= min_step * (1 - 1e-12))
            return integer && steps[i] * p < 1 ? 1 : steps[i] * p;
    return 10 * p;
}

struct span { int a, b; };          /* occupied cells [a, b) */

static int span_free(const struct span *sp, int n, int a, int b)
{
    for (int i = 0; i < n; i++)
        if (a < sp[i].b + 1 && sp[i].a < b + 1)
            return 0;
    return 1;
}

/* The candidate values: ends first, then multiples of a round step. */
static int tick_values(const struct plot_axis *ax, int room, int width,
                       double *vals)
{
    int nv = 0;
    vals[nv++] = ax->vmin;
    if (ax->vmax != ax->vmin)
        vals[nv++] = ax->vmax;
    double cells_per_value = 1.0 / ax->per_cell;
    double step = plot_nice_step((width + 2) / cells_per_value, ax->integer);
    if (room <= 0 || !isfinite(step))
        return nv;
    for (double v = ceil(ax->vmin / step) * step; v < ax->vmax
         && nv < MAX_LABELS; v += step)
        if (v > ax->vmin)
            vals[nv++] = v;
    return nv;
}

static int widest_label(const struct plot_axis *ax)
{
    char a[LABEL_MAX], b[LABEL_MAX];
    fmt_tick(ax, ax->vmin, a, sizeof a);
    fmt_tick(ax, ax->vmax, b, sizeof b);
    int wa = text_width(a), wb = text_width(b);
    return wa > wb ? wa : wb;
}

int plot_xticks(canvas *c, int x, int y, int w, const struct plot_axis *ax,
                rgb fg)
{
    double vals[MAX_LABELS];
    struct span used[MAX_LABELS];
    int nused = 0;
    if (w <= 0 || !(ax->per_cell > 0))
        return 0;
    int nv = tick_values(ax, w, widest_label(ax), vals);
    for (int i = 0; i < nv; i++) {
        char buf[LABEL_MAX];
        fmt_tick(ax, vals[i], buf, sizeof buf);
        int len = text_width(buf), at = cell_of(ax, vals[i]);
        if (at == -1 || at == w)    /* a range end rounded just outside */
            at = at < 0 ? 0 : w - 1;
        if (len > w || at < 0 || at >= w)
            continue;
        int a = at - (len - 1) / 2;
        if (a < 0)
            a = 0;
        if (a + len > w)
            a = w - len;
        if (!span_free(used, nused, a, a + len))
            continue;
        used[nused++] = (struct span){ a, a + len };
        canvas_text(c, x + a, y, len, buf, fg, RGB_DEFAULT, 0);
    }
    return nused;
}

int plot_yticks(canvas *c, int x, int y, int lw, int h,
                const struct plot_axis *ax, rgb fg)
{
    double vals[MAX_LABELS];
    struct span used[MAX_LABELS];
    int nused = 0;
    if (h <= 0 || lw <= 0 || !(ax->per_cell > 0))
        return 0;
    int nv = tick_values(ax, h, 1, vals);
    for (int i = 0; i < nv; i++) {
        char buf[LABEL_MAX];
        fmt_tick(ax, vals[i], buf, sizeof buf);
        int len = text_width(buf), row = cell_of(ax, vals[i]);
        if (len > lw || row < 0 || row >= h || !span_free(used, nused, row,
                                                          row + 1))
            continue;
        used[nused++] = (struct span){ row, row + 1 };
        canvas_text(c, x + lw - len, y + row, len, buf, fg, RGB_DEFAULT, 0);
    }
    return nused;
}

/* ---- line plot --------------------------------------------------------- */

struct frame {                  /* geometry of one plot */
    int ax, ay, pw, ph;         /* plot area in cells */
    double lo, hi;              /* y range */
    int n;                      /* points per series (of the longest) */
};

static int dot_x(const struct frame *f, int t, int n)
{
    int px = 2 * f->pw;
    if (n <= 1)
        return px / 2;
    return (int)lround((double)t * (px - 1) / (n - 1));
}

static int dot_y(const struct frame *f, double v)
{
    int py = 4 * f->ph;
    double u = (f->hi - v) / (f->hi - f->lo);
    int d = (int)lround(u * (py - 1));
    return d < 0 ? 0 : d >= py ? py - 1 : d;
}

const char *plot_style_sample(int style, int ascii)
{
    static const char *const UTF8[PLOT_STYLES] = {
        "\xe2\xa0\xa4\xe2\xa0\xa4", "\xe2\xa0\x84\xe2\xa0\x84",
        "\xe2\xa0\x84 \xe2\xa0\x84",
    };
    static const char *const ASCII[PLOT_STYLES] = { "--", ". .", ".  ." };
    if (style < 0 || style >= PLOT_STYLES)
        style = PLOT_SOLID;
    return ascii ? ASCII[style] : UTF8[style];
}

/* A line from the previous point with every period-th dot set, the
 * count going on from segment to segment (*phase) so the pattern runs
 * along the whole curve. */
static void pattern_line(canvas *plot, int x0, int y0, int x1, int y1,
                         rgb col, int period, long *phase)
{
    int dx = abs(x1 - x0), dy = abs(y1 - y0);
    int steps = dx > dy ? dx : dy;
    for (int i = 1; i <= steps; i++, (*phase)++) {
        if (*phase % period)
            continue;
        double t = (double)i / steps;
        canvas_dot(plot, (int)lround(x0 + t * (x1 - x0)),
                   (int)lround(y0 + t * (y1 - y0)), col);
    }
}

static void draw_series(canvas *plot, const struct frame *f,
                        const struct plot_series *s)
{
    int have = 0, px = 0, py = 0;
    int period = s->style == PLOT_DOTTED ? 2 : s->style == PLOT_SPARSE ? 3
                                                                       : 1;
    long phase = 0;
    for (int t = 0; t < s->n; t++) {
        if (!isfinite(s->y[t])) {
            have = 0;
            continue;
        }
        int x = dot_x(f, t, s->n), y = dot_y(f, s->y[t]);
        if (have && period > 1)
            pattern_line(plot, px, py, x, y, s->col, period, &phase);
        else if (have)
            canvas_line(plot, px, py, x, y, s->col);
        else if (s->n == 1)     /* a lone point: a dash, clear of a marker */
            canvas_line(plot, x - 2, y, x + 2, y, s->col);
        else
            canvas_dot(plot, x, y, s->col);
        px = x;
        py = y;
        have = 1;
    }
}

/* Cells apart of the letters set on one curve. */
#define MARK_EVERY 16

/*
 * Series s's letter on its curve every MARK_EVERY cells, shifted by its
 * index so the letters of curves that run together do not land on the
 * same cells; a cell another letter took is skipped.
 */
static void mark_series(canvas *plot, const struct frame *f,
                        const struct plot_series *s, int idx)
{
    if (!s->mark || s->n < 2)
        return;
    for (int col = 2 + 5 * idx; col < f->pw; col += MARK_EVERY) {
        int t = (int)lround((double)(2 * col) * (s->n - 1) / (2 * f->pw - 1));
        if (t < 0 || t >= s->n || !isfinite(s->y[t]))
            continue;
        int row = dot_y(f, s->y[t]) / 4;
        const cell *k = canvas_at(plot, col, row);
        if (!k || (k->kind == CELL_TEXT && k->ch != ' '))
            continue;
        canvas_put(plot, col, row, (uint32_t)(unsigned char)s->mark, s->col,
                   RGB_DEFAULT, ATTR_BOLD);
    }
}

/* +1 at a local maximum, -1 at a local minimum, 0 elsewhere (strict, so
 * a flat stretch is no extreme; the ends count against one neighbour). */
static int extreme_at(const double *y, int n, int t)
{
    if (n < 2 || !isfinite(y[t]))
        return 0;
    int up = 1, down = 1;
    if (t > 0) {
        if (!isfinite(y[t - 1]))
            return 0;
        up &= y[t] > y[t - 1];
        down &= y[t] < y[t - 1];
    }
    if (t < n - 1) {
        if (!isfinite(y[t + 1]))
            return 0;
        up &= y[t] > y[t + 1];
        down &= y[t] < y[t + 1];
    }
    return up ? 1 : down ? -1 : 0;
}

/* Whether the cells [a, b) of row are blank (no dots, no text). */
static int cells_blank(const canvas *plot, int row, int a, int b)
{
    for (int x = a; x < b; x++) {
        const cell *k = canvas_at(plot, x, row);
        if (!k || k->kind != CELL_TEXT || k->ch != ' ')
            return 0;
    }
    return 1;
}

/*
 * Write one extreme's label near its dot: above a maximum, below a
 * minimum, else one row further or beside it; only on blank cells, so a
 * label never hides the curve or another label.  Returns 1 if written.
 */
static int label_extreme(canvas *plot, const struct frame *f,
                         const struct plot_spec *sp,
                         const struct plot_series *s, int t, int kind,
                         rgb fg, unsigned char *row_used)
{
    char buf[LABEL_MAX * 2], v[LABEL_MAX];
    fmt_value(s->y[t], sp->sig, v, sizeof v);
    if (sp->label_x) {
        double xv = sp->x0 + t * sp->dx;
        if (sp->x_integer)
            snprintf(buf, sizeof buf, "%s (%.0f)", v, xv);
        else
            snprintf(buf, sizeof buf, "%s (%.4g)", v, xv);
    } else {
        snprintf(buf, sizeof buf, "%s", v);
    }
    int len = text_width(buf), col = dot_x(f, t, s->n) / 2;
    int row0 = dot_y(f, s->y[t]) / 4, dir = kind > 0 ? -1 : 1;
    static const int DY[] = { 1, 2, -1, -2, 0 };
    if (len > f->pw)
        return 0;
    for (size_t i = 0; i < sizeof DY / sizeof DY[0]; i++) {
        int row = row0 + dir * DY[i];
        int starts[3] = { col - (len - 1) / 2, col + 2, col - len - 1 };
        if (row < 0 || row >= f->ph || (row_used && row_used[row]))
            continue;           /* one label a row: they stay readable */
        for (int j = 0; j < 3; j++) {
            int a = starts[j];
            if (a < 0 || a + len > f->pw)
                continue;
            if (!cells_blank(plot, row, a > 0 ? a - 1 : a,
                             a + len < f->pw ? a + len + 1 : a + len))
                continue;
            canvas_text(plot, a, row, len, buf, fg, RGB_DEFAULT, 0);
            for (int r = row - 1; row_used && r <= row + 1; r++)
                if (r >= 0 && r < f->ph)
                    row_used[r] = 1;    /* and a blank row around it */
            return 1;
        }
    }
    return 0;
}

/* Global max and min first, then the other extremes left to right, at
 * most a few: labels must stay readable. */
static void label_extremes(canvas *plot, const struct frame *f,
                           const struct plot_spec *sp,
                           const struct plot_series *s, rgb fg,
                           unsigned char *row_used)
{
    int imax = -1, imin = -1, budget = 2 + f->ph / 4;
    for (int t = 0; t < s->n; t++) {
        if (!isfinite(s->y[t]))
            continue;
        if (imax < 0 || s->y[t] > s->y[imax])
            imax = t;
        if (imin < 0 || s->y[t] < s->y[imin])
            imin = t;
    }
    if (imax < 0)
        return;
    if (extreme_at(s->y, s->n, imax) > 0)
        budget -= label_extreme(plot, f, sp, s, imax, 1, fg, row_used);
    if (extreme_at(s->y, s->n, imin) < 0)
        budget -= label_extreme(plot, f, sp, s, imin, -1, fg, row_used);
    for (int t = 0; t < s->n && budget > 0; t++) {
        int k = extreme_at(s->y, s->n, t);
        if (k && t != imax && t != imin)
            budget -= label_extreme(plot, f, sp, s, t, k, fg, row_used);
    }
}

static void y_labels(canvas *c, int x, const struct frame *f, int lw,
                     const struct plot_spec *sp, rgb fg)
{
    char hi[LABEL_MAX], lo[LABEL_MAX];
    fmt_value(f->hi, sp->sig, hi, sizeof hi);
    fmt_value(f->lo, sp->sig, lo, sizeof lo);
    canvas_text(c, x + lw - text_width(hi), f->ay, lw, hi, fg, RGB_DEFAULT, 0);
    if (f->ph > 1)
        canvas_text(c, x + lw - text_width(lo), f->ay + f->ph - 1, lw, lo, fg,
                    RGB_DEFAULT, 0);
    if (sp->zero_line && f->lo < 0 && f->hi > 0 && f->ph > 4) {
        int row = dot_y(f, 0.0) / 4;
        if (row > 0 && row < f->ph - 1)
            canvas_text(c, x + lw - 1, f->ay + row, 1, "0", fg, RGB_DEFAULT,
                        0);
    }
}

static void zero_and_marker(canvas *plot, const struct frame *f,
                            const struct plot_spec *sp, int n, rgb dim)
{
    if (sp->zero_line && f->lo < 0 && f->hi > 0) {
        int y = dot_y(f, 0.0);
        for (int x = 0; x < 2 * f->pw; x += 2)
            canvas_dot(plot, x, y, dim);
    }
    if (isfinite(sp->mark_x) && sp->dx != 0 && n > 0) {
        double t = (sp->mark_x - sp->x0) / sp->dx;
        if (t < 0 || t > n - 1)
            return;
        int x = n > 1 ? (int)lround(t * (2 * f->pw - 1) / (n - 1)) : f->pw;
        for (int y = 0; y < 4 * f->ph; y += 2)
            canvas_dot(plot, x, y, dim);
        if (sp->mark_label) {
            int len = text_width(sp->mark_label), col = x / 2 + 1;
            if (col + len > f->pw)
                col = x / 2 - len;
            if (col >= 0)
                canvas_text(plot, col, 0, len, sp->mark_label, dim,
                            RGB_DEFAULT, 0);
        }
    }
}

static void x_axis(canvas *c, int x, const struct frame *f,
                   const struct plot_spec *sp, rgb fg, rgb dim)
{
    int ty = f->ay + f->ph + 1, room = f->pw;
    if (sp->xlabel) {       /* under the y labels, else at the right end */
        int lw = text_width(sp->xlabel);
        if (lw <= f->ax - x - 1) {
            canvas_text(c, f->ax - lw - 1, ty, lw, sp->xlabel, dim,
                        RGB_DEFAULT, 0);
        } else if (lw + 8 <= f->pw) {
            canvas_text(c, f->ax + f->pw - lw, ty, lw, sp->xlabel, dim,
                        RGB_DEFAULT, 0);
            room = f->pw - lw - 1;
        }
    }
    if (f->n < 1 || sp->dx == 0)
        return;
    struct plot_axis ax = {     /* a lone point is drawn mid-plot */
        .v0 = sp->x0 - (f->n > 1 ? 0 : f->pw / 2), .bias = 0.25,
        .per_cell = f->n > 1 ? 2.0 * (f->n - 1) * fabs(sp->dx)
                               / (2 * f->pw - 1) : 1.0,
        .vmin = sp->xmax > sp->xmin ? sp->xmin : sp->x0,
        .vmax = sp->xmax > sp->xmin ? sp->xmax : sp->x0 + (f->n - 1) * sp->dx,
        .integer = sp->x_integer,
    };
    if (sp->dx < 0)
        return;
    plot_xticks(c, f->ax, ty, room, &ax, fg);
}

void plot_lines(canvas *c, int x, int y, int w, int h,
                const struct plot_spec *sp, const struct plot_series *s,
                int ns, enum palette pal)
{
    struct frame f = { 0 };
    int title = sp->title != NULL;
    if (w < 12 || h < 3 + title)
        return;
    rgb fg = ui_color(pal, UI_TEXT), axis = ui_color(pal, UI_AXIS);
    rgb dim = ui_color(pal, UI_DIM);
    if (title)
        canvas_text(c, x, y, w, sp->title, fg, RGB_DEFAULT, ATTR_BOLD);
    int any = 0;
    for (int i = 0; i < ns; i++) {
        double lo, hi;
        if (!plot_range(s[i].y, s[i].n, &lo, &hi))
            continue;
        f.lo = any && f.lo < lo ? f.lo : lo;
        f.hi = any && f.hi > hi ? f.hi : hi;
        any = 1;
        if (s[i].n > f.n)
            f.n = s[i].n;
    }
    if (!any)
        f.lo = 0, f.hi = 1;
    if (f.hi - f.lo < 1e-12 * (fabs(f.hi) + fabs(f.lo)) || f.hi == f.lo) {
        double pad = f.hi == 0 ? 1 : fabs(f.hi) * 0.5;
        f.lo -= pad;
        f.hi += pad;
    }
    char a[LABEL_MAX], b[LABEL_MAX];
    fmt_value(f.hi, sp->sig, a, sizeof a);
    fmt_value(f.lo, sp->sig, b, sizeof b);
    int lw = text_width(a) > text_width(b) ? text_width(a) : text_width(b);
    f.ax = x + lw + 1;
    f.ay = y + title;
    f.pw = w - lw - 1;
    f.ph = h - title - 2;
    if (f.pw < 4 || f.ph < 1)
        return;
    canvas_vline(c, f.ax - 1, f.ay, f.ph, axis);
    canvas_hline(c, f.ax, f.ay + f.ph, f.pw, axis);
    canvas_put(c, f.ax - 1, f.ay + f.ph, 0x2514, axis, RGB_DEFAULT, 0);
    y_labels(c, x, &f, lw, sp, fg);
    canvas plot = canvas_sub(c, f.ax, f.ay, f.pw, f.ph);
    zero_and_marker(&plot, &f, sp, f.n, dim);
    for (int i = 0; i < ns; i++)
        draw_series(&plot, &f, &s[i]);
    for (int i = 0; i < ns; i++)
        mark_series(&plot, &f, &s[i], i);
    if (sp->label_extremes) {
        unsigned char *row_used = calloc((size_t)f.ph, 1);
        for (int i = 0; i < ns; i++)
            label_extremes(&plot, &f, sp, &s[i], fg, row_used);
        free(row_used);
    }
    x_axis(c, x, &f, sp, fg, dim);
}
