/* SPDX-License-Identifier: ISC */
/*
 * heatmap.c - the PE matrix as a picture: x = position, y = dimension.
 *
 * Each cell row is one frequency band drawn with a half-block: the top
 * pixel is its sine dimension 2i, the bottom pixel its cosine 2i+1.
 * Compute what you show: a column that covers many positions shows the
 * exact mean of PE over them (closed form, O(1) per cell), so a frame
 * costs O(visible cells) whatever d_model and seq_len are.  When bands
 * outnumber rows, the rows share the bands out evenly (always the first
 * and the last), so the map fills its height; each zoom step about
 * doubles the bands in the grid until it holds every band, and scrolling
 * reaches every band.
 *
 * With a table loaded by --pe-file (and d_model, n still matching it) the
 * map shows the table instead: a cell is the plain mean of its column's
 * table rows, the colour scale runs over +-max|v| of the whole table
 * (learned values are not confined to [-1, 1]), and nothing speaks of
 * sin, cos or wavelengths, which a table does not have.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "raster.h"
#include "glyph.h"
#include "axis.h"
#include "peviz/tables.h"
#include "views/heat_pca.h"
#include "views/heat_geom.h"
#include "views/heat_table.h"
#include "views/heatmap.h"
#include "peviz/pe.h"
#include "plans.h"
#include "state_field.h"

#define BAND_CHUNK 256      /* columns computed per call */
#define MIN_MAP_ROWS 4      /* chrome rows give way below this */
#define ONE_LINE_INSPECTOR 120   /* width from which the inspector is 1 row */
#define LEGEND_W 21         /* cells of the colour strip (odd: has a middle) */
#define MAX_ZOOM 62

/* The view area split into rows; -1 for a row dropped on small screens. */
struct heat_layout {
    int insp_y, insp_n;     /* inspector: first row, rows (0..2) */
    int mark_y;             /* cursor marker above the map */
    int map_x, map_y;       /* the map's corner; margin left of map_x */
    int ruler_y, label_y, legend_y;
    int dimw, lamw;         /* margin fields: dim digits, wavelength */
    struct heat_geom g;
    const struct pe_table *t;   /* the table shown, or NULL: sinusoids */
    double scale;           /* value at the ends of the colour scale */
};

/* ---- small helpers -------------------------------------------------- */

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* v with about 4 significant digits, "15.60", "0.1050", "6.283e4". */
static void fmt4(double v, char *buf, size_t len)
{
    double a = fabs(v);
    if (a == 0) {
        snprintf(buf, len, "0");
    } else if (!isfinite(v)) {
        snprintf(buf, len, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
    } else if (a >= 1e-3 && a < 1e5) {
        int dec = 3 - (int)floor(log10(a));
        snprintf(buf, len, "%.*f", dec < 0 ? 0 : dec, v);
    } else {
        fmt_sci(v, 3, buf, len);
    }
}

/* A wavelength for the margin, at most 7 cells: "6.28", "628", "4.7e12". */
static void fmt_lambda(double lam, char *buf, size_t len)
{
    if (!isfinite(lam))
        snprintf(buf, len, "huge");
    else if (lam < 100)
        snprintf(buf, len, "%.3g", lam);
    else if (lam < 1e5)
        snprintf(buf, len, "%.0f", lam);
    else
        fmt_sci(lam, 1, buf, len);
}

/* "2nd", "3rd", "11th", ... */
static void fmt_ordinal(int v, char *buf, size_t len)
{
    const char *suf = "th";
    if (v % 100 < 11 || v % 100 > 13)
        suf = v % 10 == 1 ? "st" : v % 10 == 2 ? "nd" : v % 10 == 3 ? "rd"
                                                                     : "th";
    snprintf(buf, len, "%d%s", v, suf);
}

/* ---- layout --------------------------------------------------------- */

enum { R_INSP1, R_INSP2, R_MARK, R_RULER, R_LABELS, R_LEGEND, R_COUNT };

/* Chrome rows dropped first to last when the screen is short. */
static const int DROP_ORDER[R_COUNT] = {
    R_INSP2, R_RULER, R_LEGEND, R_MARK, R_LABELS, R_INSP1
};

static void layout_rows(struct heat_layout *L, int w, int h, int presenter,
                        int *map_h)
{
    int on[R_COUNT] = { 1, w < ONE_LINE_INSPECTOR, 1, 1, 1, 1 }, used = 0;
    if (presenter)                      /* the map alone, with its scale */
        on[R_INSP1] = on[R_INSP2] = 0;
    for (int i = 0; i < R_COUNT; i++)
        used += on[i];
    for (int i = 0; i < R_COUNT && h - used < MIN_MAP_ROWS; i++)
        if (on[DROP_ORDER[i]]) {
            on[DROP_ORDER[i]] = 0;
            used--;
        }
    int y = 0;
    L->insp_y = on[R_INSP1] ? y : -1;
    L->insp_n = on[R_INSP1] + on[R_INSP2];
    y += L->insp_n;
    L->mark_y = on[R_MARK] ? y++ : -1;
    L->map_y = y;
    *map_h = h - used > 0 ? h - used : 0;
    y += *map_h;
    L->ruler_y = on[R_RULER] ? y++ : -1;
    L->label_y = on[R_LABELS] ? y++ : -1;
    L->legend_y = on[R_LEGEND] ? y : -1;
}

/* Margin: "d 12  λ 6.28" and a cursor mark; none on narrow screens.
 * A table has no wavelengths: just "d 12". */
/* ---- what the map shows: the PE or a RoPE model's cache ---------------- */

/* Whether the map shows a RoPE model's cos/sin cache (a model, a config
 * or a scaling is set): cos and sin at the plan's scaled omega, times the
 * attention factor a as transformers multiplies them.  Else the
 * sinusoidal PE. */
static int heat_rope(const struct app *a)
{
    return app_rope_cache(a);
}

/* The factor the cache is multiplied by: a (1 for the PE). */
static double heat_amp(const struct app *a)
{
    return heat_rope(a) ? plans_of(&a->p)->a : 1.0;
}

/* sin (even dim) or cos (odd dim) of pos omega_i, omega the plan's; the
 * angle in long double as pe.h forms it. */
static double heat_unit(const struct app *a, int64_t pos, int dim)
{
    const pe_plan *pl = plans_of(&a->p);
    if (!pl->scaled)
        return pe_value((double)pos, dim, a->p.d, a->p.base);
    long double ang = (long double)pos * plan_omega_l(pl, dim / 2);
    return (double)(dim % 2 ? cosl(ang) : sinl(ang));
}

static int layout_margin(struct heat_layout *L, const struct app *a, int w)
{
    char lam[16];
    if (L->t) {
        L->dimw = fmt_digits(a->p.d - 1);
        L->lamw = 0;
        return w >= 1 + L->dimw + 2 + 16 ? 1 + L->dimw + 2 : 0;
    }
    fmt_lambda(plans_of(&a->p)->wavelength[a->p.d / 2 - 1], lam, sizeof lam);
    L->dimw = fmt_digits(a->p.d - 1);
    L->lamw = (int)strlen(lam) < 4 ? 4 : (int)strlen(lam);
    int margin = 1 + L->dimw + 4 + L->lamw + 2;     /* "d12  λ 6.28 ▶" */
    return w >= margin + 16 ? margin : 0;
}

/* The layout for a view area of w x h; tc (or NULL) caches the scale. */
static void layout_make(struct heat_layout *L, const struct app *a, int w,
                        int h, struct table_cache *tc)
{
    int map_h;
    memset(L, 0, sizeof *L);
    L->t = heat_table_shown(a);
    L->scale = L->t ? heat_table_scale(tc, L->t) : heat_amp(a);
    layout_rows(L, w, h, a->presenter, &map_h);
    L->map_x = layout_margin(L, a, w);
    heat_geom_make(&L->g, a, w - L->map_x, map_h);
    int spare = map_h - heat_geom_slot_row(&L->g, L->g.shown);  /* axis right under */
    if (L->ruler_y >= 0)
        L->ruler_y -= spare;
    if (L->label_y >= 0)
        L->label_y -= spare;
    if (L->legend_y >= 0)
        L->legend_y -= spare;
}

/* The runtime object: the size the view got, its layout, the cache. */
struct heat_rt {
    int w, h;
    struct heat_layout L;
    struct table_cache tc;
    struct heat_pca_rt pca;
};

static void heat_layout_hook(const struct app *a, void *rt, int w, int h)
{
    struct heat_rt *r = rt;
    r->w = w;
    r->h = h;
    layout_make(&r->L, a, w, h, &r->tc);
}

static void heat_fini(void *rt)
{
    heat_table_cache_free(&((struct heat_rt *)rt)->tc);
    heat_pca_free(&((struct heat_rt *)rt)->pca);
}

/* ---- drawing: the map ------------------------------------------------ */

/* Black or white, whichever reads on background bg. */
static rgb ink_on(rgb bg)
{
    double lum = 0.2126 * (bg >> 16 & 0xFF) + 0.7152 * (bg >> 8 & 0xFF) +
                 0.0722 * (bg & 0xFF);
    return lum > 128 ? RGB(0, 0, 0) : RGB(255, 255, 255);
}

static void paint_pixels(const struct app *a, canvas *c, int x, int py,
                         int count, double v)
{
    if (isnan(v))
        return;                     /* missing: past a table's rows */
    rgb col = cmap_diverging(a->palette, v);
    int level = cmap_level((v + 1) / 2);
    for (int i = 0; i < count; i++)
        canvas_half(c, x, py + i, col, level);
}

/* One band slot of a table: its two dimensions' column means. */
static void draw_band_table(const struct app *a, canvas *c,
                            const struct heat_layout *L,
                            const double *means, int slot)
{
    const struct heat_geom *g = &L->g;
    int py = 2 * (L->map_y + heat_geom_slot_row(g, slot)), bh = heat_geom_slot_rows(g, slot);
    for (int col = 0; col < g->ucols; col++) {
        double top = heat_table_cell(L->t, means, g, a->p.n, col, slot, 0);
        double bot = heat_table_cell(L->t, means, g, a->p.n, col, slot, 1);
        if (isnan(top) && isnan(bot)) {     /* past the rows: marked */
            for (int r = 0; r < bh; r++)
                canvas_text(c, L->map_x + col, py / 2 + r, 1,
                            glyph(a->ascii, GL_MISSING),
                            ui_color(a->palette, UI_DIM), RGB_DEFAULT, 0);
            continue;
        }
        paint_pixels(a, c, L->map_x + col, py, bh, top / L->scale);
        paint_pixels(a, c, L->map_x + col, py + bh, bh, bot / L->scale);
    }
}

/* One band slot: the mean of sin and cos over each column's positions. */
static void draw_band(const struct app *a, canvas *c,
                      const struct heat_layout *L, int slot)
{
    const struct heat_geom *g = &L->g;
    double w = plans_of(&a->p)->omega[heat_geom_band(g, g->j0 + slot)];
    int py = 2 * (L->map_y + heat_geom_slot_row(g, slot)), bh = heat_geom_slot_rows(g, slot);
    double ms[BAND_CHUNK], mc[BAND_CHUNK];
    int64_t p0[BAND_CHUNK], p1[BAND_CHUNK];
    /* the columns' runs lie side by side in two sizes (or a position
     * repeats over several columns): pe_range_means_runs turns one
     * phase into the next instead of a sin and a cos per column */
    for (int c0 = 0; c0 < g->ucols; c0 += BAND_CHUNK) {
        int cnt = g->ucols - c0 < BAND_CHUNK ? g->ucols - c0 : BAND_CHUNK;
        for (int j = 0; j < cnt; j++)
            if (heat_geom_col_range(g, a->p.n, c0 + j, &p0[j], &p1[j]))
                p0[j] = p1[j] = 0;              /* empty: left unpainted */
        pe_range_means_runs(w, p0, p1, cnt, ms, mc);
        for (int j = 0; j < cnt; j++) {
            if (p1[j] == 0)
                continue;
            paint_pixels(a, c, L->map_x + c0 + j, py, bh, ms[j]);
            paint_pixels(a, c, L->map_x + c0 + j, py + bh, bh, mc[j]);
        }
    }
}

static int cursor_dim(const struct app *a)
{
    int dim = a->heat.dim;
    return dim < 0 ? 0 : dim >= a->p.d ? a->p.d - 1 : dim;
}

/* The cursor: a mark above its column, one beside its row, and the cell. */
static void draw_cursor(const struct app *a, canvas *c,
                        const struct heat_layout *L)
{
    const struct heat_geom *g = &L->g;
    rgb cur = ui_color(a->palette, UI_CURSOR);
    int x = L->map_x + heat_geom_cursor_col(g, a->p.pos);
    int py = heat_geom_dim_pixel(g, cursor_dim(a));
    int y = L->map_y + (py + 1) / 2;    /* a cell whose top is this dim */
    if (py % 2 && heat_geom_slot_rows(g, heat_geom_index(g, cursor_dim(a) / 2) - g->j0) == 1)
        y = L->map_y + py / 2;          /* cos of a one-row band: its row */
    if (L->mark_y >= 0)
        canvas_put(c, x, L->mark_y, 0x25BC, cur, RGB_DEFAULT, ATTR_BOLD);
    if (L->map_x > 0)
        canvas_put(c, L->map_x - 1, y, 0x25B6, cur, RGB_DEFAULT, ATTR_BOLD);
    double v = L->t ? L->t->v[a->p.pos * L->t->d + cursor_dim(a)] / L->scale
                    : heat_unit(a, a->p.pos, cursor_dim(a));
    rgb bg = cmap_diverging(a->palette, v);
    canvas_put(c, x, y, 0x25CF, ink_on(bg), bg, ATTR_BOLD);
    view_point_mark(a, c, x, y, 1);
}

static void heat_point_text(const struct app *a, char *t, size_t len)
{
    snprintf(t, len, "pos %lld, dim %d", (long long)a->p.pos, cursor_dim(a));
}

/* ---- drawing: margin, axis, legend ----------------------------------- */

static void draw_dim_label(const struct app *a, canvas *c,
                           const struct heat_layout *L, int y, int dim)
{
    char lam[16] = "";
    rgb fg = ui_color(a->palette, dim == cursor_dim(a) ? UI_ACCENT : UI_DIM);
    canvas_printf(c, 0, y, L->map_x - 1, fg, RGB_DEFAULT, 0, "d%*d", L->dimw,
                  dim);
    if (L->t || (dim % 2 && L->g.bh > 1))
        return;         /* a table has no wavelength; or the sin row has it */
    fmt_lambda(plans_of(&a->p)->wavelength[dim / 2], lam, sizeof lam);
    canvas_printf(c, 1 + L->dimw + 2, y, L->map_x - 1 - (3 + L->dimw), fg,
                  RGB_DEFAULT, 0, "%s %s", glyph(a->ascii, GL_LAMBDA_L), lam);
}

/*
 * With a --sequence (peviz/mpos.h): the axis that turns each row's
 * band under M-RoPE, a letter t, h or w right of its dimension number,
 * on every row.  (A --grid's 2-D RoPE turns at other frequencies than
 * these rows': no letters.)
 */
static void draw_axis_letters(const struct app *a, canvas *c,
                              const struct heat_layout *L)
{
    const struct heat_geom *g = &L->g;
    int slots = a->p.d / 2;
    char err[160];
    unsigned char *axis;
    if (a->mp.mode != MPOS_MROPE || L->t || L->map_x < L->dimw + 3 ||
        !(axis = malloc((size_t)slots + 1)))
        return;
    if (mpos_axes(&a->mp, slots, axis, err, sizeof err) == 0)
        for (int r = 0; r < heat_geom_slot_row(g, g->shown); r++) {
            int band = heat_geom_pixel_dim(g, 2 * r) / 2;
            if (band >= 0 && band < slots)
                canvas_text(c, 1 + L->dimw + 1, L->map_y + r, 1,
                            mpos_axis_name(axis[band], 0),
                            ui_color(a->palette, UI_ACCENT), RGB_DEFAULT, 0);
        }
    free(axis);
}

/*
 * Dimension labels at the rows where a dimension starts: every band when
 * bands are several rows tall, else every third row and the last one.
 */
static void draw_margin(const struct app *a, canvas *c,
                        const struct heat_layout *L)
{
    const struct heat_geom *g = &L->g;
    int last = -10, nrows = heat_geom_slot_row(g, g->shown);
    for (int r = 0; r < nrows; r++) {
        int top = heat_geom_pixel_dim(g, 2 * r), prev = heat_geom_pixel_dim(g, 2 * r - 1);
        int starts = top != prev, every = g->bh > 1 ? 1 : 3;
        if (!starts && g->bh > 1 && heat_geom_pixel_dim(g, 2 * r + 1) != top) {
            top = heat_geom_pixel_dim(g, 2 * r + 1);      /* a dim starts mid-cell */
            starts = 1;
        }
        if (!starts || (r % every && r != nrows - 1) || r - last < every)
            continue;
        draw_dim_label(a, c, L, L->map_y + r, top);
        last = r;
    }
    int cy = heat_geom_dim_pixel(g, cursor_dim(a));
    draw_dim_label(a, c, L, L->map_y + cy / 2, heat_geom_pixel_dim(g, cy));
    draw_axis_letters(a, c, L);
}

/* Smallest step of 1, 2 or 5 times a power of ten that is >= min. */
static int64_t nice_step(double min)
{
    int64_t p = 1;
    for (;;) {
        if (p >= min)
            return p;
        if (2 * p >= min)
            return 2 * p;
        if (5 * p >= min)
            return 5 * p;
        p *= 10;
    }
}

/* Column where position p's label of w cells starts: at its tick, or
 * centred on it when a position is several columns wide. */
static int label_x(const struct heat_geom *g, int64_t p, int w)
{
    int wide = axis_cell_end(&g->ax, p) - axis_cell(&g->ax, p) > 1;
    int x = heat_geom_cursor_col(g, p) - (wide ? (w - 1) / 2 : 0);
    if (x + w > g->ucols)
        x = g->ucols - w;
    return x < 0 ? 0 : x;
}

static void draw_tick(const struct app *a, canvas *c,
                      const struct heat_layout *L, int64_t p, int lx)
{
    rgb fg = ui_color(a->palette, UI_AXIS);
    if (L->ruler_y >= 0)
        canvas_put(c, L->map_x + heat_geom_cursor_col(&L->g, p), L->ruler_y, 0x2534,
                   fg, RGB_DEFAULT, 0);
    canvas_printf(c, L->map_x + lx, L->label_y, -1, fg, RGB_DEFAULT, 0,
                  "%lld", (long long)p);
}

/* Position ticks: round numbers that never overlap, and the last one. */
static void draw_axis(const struct app *a, canvas *c,
                      const struct heat_layout *L)
{
    const struct heat_geom *g = &L->g;
    if (L->ruler_y >= 0)
        canvas_hline(c, L->map_x, L->ruler_y, g->ucols,
                     ui_color(a->palette, UI_AXIS));
    if (L->label_y < 0)
        return;
    int64_t end = g->x0 + axis_shown(&g->ax) - 1;
    int lw = fmt_digits(end);
    int64_t step = nice_step((double)(lw + 2) * (double)g->ax.span /
                             (g->ax.cells > 0 ? g->ax.cells : 1));
    int endx = label_x(g, end, fmt_digits(end)), right = -2;
    if (g->x0 % step && fmt_digits(g->x0) + 1 < endx) {
        draw_tick(a, c, L, g->x0, 0);   /* where a scrolled window starts */
        right = fmt_digits(g->x0);
    }
    for (int64_t p = ceil_div(g->x0, step) * step; p < end; p += step) {
        int x = label_x(g, p, fmt_digits(p));
        if (x > right + 1 && x + fmt_digits(p) + 1 < endx) {
            draw_tick(a, c, L, p, x);
            right = x + fmt_digits(p);
        }
    }
    if (endx > right + 1 || end == g->x0)
        draw_tick(a, c, L, end, endx);
}

/* What the axes mean, in the longest form that ends before x_end: how
 * a band's two dimensions share a row with half blocks, or (without
 * them) that each has rows of its own, the sine or even one on top. */
static void draw_axes_caption(const struct app *a, canvas *c,
                              const struct heat_layout *L, int x_end)
{
    static const char *const halves[2] = {
        "x: position  y: dimension (\xe2\x96\x80 sin, \xe2\x96\x84 cos)",
        "x: position  y: dimension (\xe2\x96\x80 even, \xe2\x96\x84 odd)",
    };
    static const char *const rows[2] = {
        "x: position  y: dimension (sin row above cos row)",
        "x: position  y: dimension (even row above odd row)",
    };
    const char *const cap[] = {
        (L->g.whole ? rows : halves)[L->t != NULL],
        "x: position  y: dimension", "x: pos  y: dim"
    };
    for (size_t i = 0; i < sizeof cap / sizeof cap[0]; i++) {
        int x = x_end - 2 - text_width(cap[i]);  /* under the map if it can */
        if (x >= 0) {
            canvas_text(c, x < L->map_x ? x : L->map_x, L->legend_y, -1,
                        cap[i], ui_color(a->palette, UI_DIM), RGB_DEFAULT, 0);
            return;
        }
    }
}

/* The file name without its directories, or NULL if unknown. */
static const char *table_file(const struct app *a)
{
    const char *f = a->pe_file_name, *slash;
    if (!f || !f[0])
        return NULL;
    slash = strrchr(f, '/');
    return slash && slash[1] ? slash + 1 : f;
}

/* The ends of the scale ("-1 ", " +1"; a table's "-4.700 ", " +4.700")
 * and what it measures, naming the file when the strip keeps its width. */
static const char *legend_text(const struct app *a,
                               const struct heat_layout *L, int w, char *lo,
                               char *hi, char *cap, size_t len)
{
    char m[32];
    if (!L->t && heat_rope(a)) {    /* the cache: a x cos/sin, scaled */
        if (L->scale != 1)
            fmt4(L->scale, m, sizeof m);
        else
            snprintf(m, sizeof m, "1");
        snprintf(lo, len, "-%s ", m);
        snprintf(hi, len, " +%s", m);
        snprintf(cap, len, L->scale != 1 ? " a\xc2\xb7" "cos/sin: RoPE cache at "
                 "scaled \xcf\x89" : " cos/sin: RoPE cache at scaled "
                 "\xcf\x89");
        if (a->ascii)
            snprintf(cap, len, L->scale != 1 ? " a*cos/sin: RoPE cache at "
                     "scaled w" : " cos/sin: RoPE cache at scaled w");
        if (text_width(lo) + 9 + text_width(hi) + text_width(cap) <= w)
            return cap;
        return L->scale != 1 ? " a\xc2\xb7" "cos/sin cache" : " cos/sin cache";
    }
    if (!L->t) {
        snprintf(lo, len, "-1 ");
        snprintf(hi, len, " +1");
        return " sin/cos value";
    }
    fmt4(L->scale, m, sizeof m);
    snprintf(lo, len, "-%s ", m);
    snprintf(hi, len, " +%s", m);
    if (table_file(a)) {
        snprintf(cap, len, " value in %s", table_file(a));
        if (text_width(lo) + LEGEND_W + text_width(hi) + text_width(cap) <=
            w)
            return cap;
    }
    return " table value";
}

/*
 * The colour scale "-1 ....0.... +1 sin/cos value", right-aligned; for a
 * table, symmetric around 0 out to its largest |value|, so 0 keeps the
 * neutral colour and the labels give the real range.
 */
static void draw_legend(const struct app *a, canvas *c,
                        const struct heat_layout *L, int w)
{
    char lo[40], hi[40], capbuf[160], miss[32] = "";
    if (L->t && a->p.n > L->t->n)   /* the entry for the missing mark */
        snprintf(miss, sizeof miss, "  %s no row", glyph(a->ascii, GL_MISSING));
    if (text_width(miss) + 24 < w) {
        w -= text_width(miss);
        canvas_text(c, w, L->legend_y, -1, miss, ui_color(a->palette, UI_DIM),
                    RGB_DEFAULT, 0);
    }
    const char *cap = legend_text(a, L, w, lo, hi, capbuf, sizeof capbuf);
    int y = L->legend_y, sw = LEGEND_W;
    int lw = text_width(lo), hw = text_width(hi);
    rgb fg = ui_color(a->palette, UI_DIM);
    if (lw + sw + hw + text_width(cap) > w) {
        sw = w - lw - hw - text_width(cap);
        if (sw < 5) {
            sw = w - lw - hw;
            cap = "";
        }
        sw -= !(sw % 2);                /* odd, so that 0 is in the middle */
        if (sw < 3)
            return;
    }
    int x = w - (lw + sw + hw + text_width(cap));
    draw_axes_caption(a, c, L, x);
    x += canvas_text(c, x, y, lw, lo, fg, RGB_DEFAULT, 0);
    for (int i = 0; i < sw; i++)
        paint_pixels(a, c, x + i, 2 * y, 2, -1.0 + 2.0 * i / (sw - 1));
    rgb zero = cmap_diverging(a->palette, 0);
    canvas_put(c, x + sw / 2, y, '0', ink_on(zero), zero, 0);
    x += sw;
    x += canvas_text(c, x, y, hw, hi, fg, RGB_DEFAULT, 0);
    canvas_text(c, x, y, -1, cap, fg, RGB_DEFAULT, 0);
}

/* ---- drawing: the inspector ------------------------------------------- */

/*
 * The value at the cursor as a formula with its numbers, in the longest
 * form that fits w cells:
 *   "PE(37, 6) = sin(37 × 10000^(-6/64)) = sin(15.60) = 0.1050",
 *   "PE(37, 6) = sin(15.60) = 0.1050", "PE(37, 6) = 0.1050".
 */
static void inspector_formula(const struct app *a, int w, char *buf,
                              size_t len)
{
    int dim = cursor_dim(a), i = dim / 2;
    long long pos = (long long)a->p.pos;
    double angle = (double)a->p.pos * plans_of(&a->p)->omega[i];
    char base[32], ang[32], val[32];
    fmt_base(a->p.base, base, sizeof base);
    fmt4(angle, ang, sizeof ang);
    fmt4(pe_value((double)a->p.pos, dim, a->p.d, a->p.base), val, sizeof val);
    const char *fn = dim % 2 ? "cos" : "sin";
    snprintf(buf, len, "PE(%lld, %d) = %s(%lld \xc3\x97 %s^(-%d/%d)) = "
             "%s(%s) = %s", pos, dim, fn, pos, base, 2 * i, a->p.d, fn, ang,
             val);
    if (text_width(buf) > w)
        snprintf(buf, len, "PE(%lld, %d) = %s(%s) = %s", pos, dim, fn, ang,
                 val);
    if (text_width(buf) > w)
        snprintf(buf, len, "PE(%lld, %d) = %s", pos, dim, val);
    if (text_width(buf) > w)
        buf[0] = 0;
}

/* How the plan made band i's omega, short: "θ/8 (interp)". */
static void rule_formula(const struct app *a, int i, char *buf, size_t len)
{
    const pe_plan *pl = plans_of(&a->p);
    const char *th = glyph_pick(a->ascii, "\xce\xb8", "theta");
    char s[32];
    fmt_num(pl->sc.factor, 6, s, sizeof s);
    switch (pl->scaled ? pl->rule[i] : ROPE_KEPT) {
    case ROPE_INTERPOLATED:
        snprintf(buf, len, "%s/%s (interp)", th, s);
        break;
    case ROPE_BLENDED:
        snprintf(buf, len, "between %s/%s and %s (blend)", th, s, th);
        break;
    case ROPE_REBASED:
        snprintf(buf, len, "b'^(-2i/d) (rebase)");
        break;
    case ROPE_RESCALED:
        snprintf(buf, len, "%s/f_i (rescale)", th);
        break;
    default:
        snprintf(buf, len, "%s (kept)", th);
    }
}

/* The cache at the cursor: "cache(37, 6) = 1.139 × sin(37 × 3.069e-7) =
 * 1.293e-5", shorter while it does not fit. */
static void inspector_cache(const struct app *a, int w, char *buf,
                            size_t len)
{
    int dim = cursor_dim(a), i = dim / 2;
    long long pos = (long long)a->p.pos;
    const pe_plan *pl = plans_of(&a->p);
    char om[32], ang[32], val[32], amp[32] = "";
    const char *fn = dim % 2 ? "cos" : "sin", *x = glyph(a->ascii, GL_TIMES);
    fmt4(pl->omega[i], om, sizeof om);
    fmt4((double)pos * pl->omega[i], ang, sizeof ang);
    fmt4(heat_amp(a) * heat_unit(a, a->p.pos, dim), val, sizeof val);
    if (heat_amp(a) != 1) {
        char f[24];
        fmt_num(heat_amp(a), 6, f, sizeof f);
        snprintf(amp, sizeof amp, "%s %s ", f, x);
    }
    snprintf(buf, len, "cache(%lld, %d) = %s%s(%lld %s %s) = %s%s(%s) = %s",
             pos, dim, amp, fn, pos, x, om, amp, fn, ang, val);
    if (text_width(buf) > w)
        snprintf(buf, len, "cache(%lld, %d) = %s%s(%s) = %s", pos, dim, amp,
                 fn, ang, val);
    if (text_width(buf) > w)
        snprintf(buf, len, "cache(%lld, %d) = %s", pos, dim, val);
    if (text_width(buf) > w)
        buf[0] = 0;
}

/* "band i=63  ω' = θ/8 (interp) = 3.069e-7  λ = 2.047e7 pos  × a =
 * 1.139": the scaled band as the cache uses it. */
static void inspector_cache_band(const struct app *a, char *buf, size_t len)
{
    int i = cursor_dim(a) / 2;
    const pe_plan *pl = plans_of(&a->p);
    char w[32], lam[32], r[64], f[48] = "";
    fmt4(pl->omega[i], w, sizeof w);
    fmt4(pl->wavelength[i], lam, sizeof lam);
    rule_formula(a, i, r, sizeof r);
    if (heat_amp(a) != 1) {
        char v[16];
        fmt_num(heat_amp(a), 6, v, sizeof v);
        snprintf(f, sizeof f, "  %s a = %s", glyph(a->ascii, GL_TIMES), v);
    }
    snprintf(buf, len, "band i=%d  %s' = %s = %s  wavelength=%s pos%s", i,
             glyph(a->ascii, GL_OMEGA), r, w, lam, f);
}

/* "band i=3  omega=0.4217 rad/pos  wavelength=14.90 pos" */
static void inspector_band(const struct app *a, char *buf, size_t len)
{
    int i = cursor_dim(a) / 2;
    char w[32], lam[32];
    fmt4(plans_of(&a->p)->omega[i], w, sizeof w);
    fmt4(plans_of(&a->p)->wavelength[i], lam, sizeof lam);
    snprintf(buf, len, "band i=%d  omega=%s rad/pos  wavelength=%s pos", i,
             w, lam);
}

/* A table's value at the cursor, "table[37, 6] = 0.1050": a number read
 * from the file, with no formula behind it. */
static void inspector_table(const struct app *a, const struct pe_table *t,
                            int w, char *buf, size_t len)
{
    char val[32];
    int dim = cursor_dim(a);
    if (a->p.pos >= t->n) {
        snprintf(buf, len, "table[%lld, %d]: missing, the table has rows "
                 "0..%lld only", (long long)a->p.pos, dim,
                 (long long)(t->n - 1));
        if (text_width(buf) > w)
            snprintf(buf, len, "pos %lld: past the table", (long long)a->p.pos);
        if (text_width(buf) > w)
            buf[0] = 0;
        return;
    }
    fmt4(t->v[a->p.pos * t->d + dim], val, sizeof val);
    snprintf(buf, len, "table[%lld, %d] = %s", (long long)a->p.pos, dim,
             val);
    if (text_width(buf) > w)
        buf[0] = 0;
}

/* The mean of the map's value of dim over [p0, p1): the PE's exact mean,
 * or a times the cache's mean at the plan's omega. */
static double heat_mean(const struct app *a, int64_t p0, int64_t p1, int dim)
{
    double ms, mc;
    if (!heat_rope(a))
        return pe_value_mean(p0, p1, dim, a->p.d, a->p.base);
    pe_range_mean(plans_of(&a->p)->omega[dim / 2], p0, p1, &ms, &mc);
    return heat_amp(a) * (dim % 2 ? mc : ms);
}

/* What the cursor's cell shows when its column holds several positions. */
static void inspector_column(const struct app *a, const struct heat_layout *L,
                             char *buf, size_t len)
{
    const struct heat_geom *g = &L->g;
    int64_t p0, p1;
    char v[32];
    buf[0] = 0;
    if (heat_geom_col_range(g, a->p.n, heat_geom_cursor_col(g, a->p.pos), &p0, &p1) ||
        p1 - p0 < 2)
        return;
    double m = L->t ? heat_table_mean(L->t, p0, p1, cursor_dim(a))
                    : heat_mean(a, p0, p1, cursor_dim(a));
    if (isnan(m)) {
        snprintf(buf, len, "column pos %lld-%lld: past the table",
                 (long long)p0, (long long)(p1 - 1));
        return;
    }
    fmt4(m, v, sizeof v);
    snprintf(buf, len, "column pos %lld-%lld: mean %s", (long long)p0,
             (long long)(p1 - 1), v);
}

/* Write parts after x while whole parts fit; returns the new x. */
static int put_parts(canvas *c, int x, int y, int w, const char *const *parts,
                     int n, rgb fg)
{
    for (int i = 0; i < n; i++) {
        int pw = text_width(parts[i]);
        if (!parts[i][0] || x + 3 + pw > w)
            continue;
        canvas_text(c, x, y, -1, "   ", fg, RGB_DEFAULT, 0);
        x += 3 + canvas_text(c, x + 3, y, -1, parts[i], fg, RGB_DEFAULT, 0);
    }
    return x;
}

static void draw_inspector(const struct app *a, canvas *c,
                           const struct heat_layout *L, int w)
{
    char f[256], b[256] = "", col[160];
    rgb fg = ui_color(a->palette, UI_TEXT);
    if (L->t) {
        inspector_table(a, L->t, w, f, sizeof f);
    } else if (heat_rope(a)) {
        inspector_cache(a, w, f, sizeof f);
        inspector_cache_band(a, b, sizeof b);
    } else {
        inspector_formula(a, w, f, sizeof f);
        inspector_band(a, b, sizeof b);
    }
    inspector_column(a, L, col, sizeof col);
    const char *rest[2] = { b, col };
    int y = L->insp_y, x = canvas_text(c, 0, y, w, f, fg, RGB_DEFAULT,
                                       ATTR_BOLD);
    if (L->insp_n > 1) {
        x = -3;
        y++;
    }
    put_parts(c, x, y, w, rest, 2, ui_color(a->palette, UI_DIM));
}

/* ---- the hint for the status line -------------------------------------- */

/* "1 col = 2 pos, 17 of 32 bands, dims 0-33" (or "every 2nd band" when
 * the spread is one step throughout); a table's bands are plain
 * pairs of dimensions. */
static void make_hint_geom(const struct heat_geom *g, int table, char *hint,
                           size_t len)
{
    char rows[64] = "", ord[16];
    axis_caption(&g->ax, "col", "cols", "pos", hint, len);
    int n = (int)strlen(hint);
    const char *unit = table ? "dim pair" : "band";
    if (g->nb < g->half && g->nb > 1 && (g->half - 1) % (g->nb - 1) == 0) {
        fmt_ordinal((g->half - 1) / (g->nb - 1), ord, sizeof ord);
        snprintf(rows, sizeof rows, ", every %s %s", ord, unit);
    } else if (g->nb < g->half) {
        snprintf(rows, sizeof rows, ", %d of %d %ss", g->nb,
                 g->half, unit);
    }
    if (g->shown < g->nb) {
        int d0 = 2 * heat_geom_band(g, g->j0);
        int d1 = 2 * heat_geom_band(g, g->j0 + g->shown - 1) + 1;
        size_t l = strlen(rows);
        snprintf(rows + l, sizeof rows - l, ", dims %d-%d", d0, d1);
    }
    if (n >= 0 && (size_t)n < len)
        snprintf(hint + n, len - (size_t)n, "%s", rows);
}

/* Where the values come from: "table 1024x768 from wpe.npy", or why a
 * loaded table is not shown.  Empty without --pe-file. */
static void hint_source(const struct app *a, const struct heat_layout *L,
                        char *buf, size_t len)
{
    const struct pe_table *t = a->pe_table;
    buf[0] = 0;
    if (!t)
        return;
    if (L->t && a->p.n > t->n)
        snprintf(buf, len, "table %lldx%d from %s, %s no row from %lld",
                 (long long)t->n, t->d,
                 table_file(a) ? table_file(a) : "--pe-file",
                 glyph(a->ascii, GL_MISSING), (long long)t->n);
    else if (L->t)
        snprintf(buf, len, "table %lldx%d from %s", (long long)t->n, t->d,
                 table_file(a) ? table_file(a) : "--pe-file");
    else
        snprintf(buf, len, "table %lldx%d not shown: needs d_model=%d",
                 (long long)t->n, t->d, t->d);
}

/*
 * The status hint.  The source of a table's values comes first when the
 * whole hint fits beside the title and the parameters (the status line
 * drops a hint that does not fit whole); else the legend names the file
 * and the hint keeps the column count.
 */
static void make_hint(const struct app *a, const struct heat_layout *L,
                      int w, char *hint, size_t len)
{
    char geom[128], src[160], par[128], miss[64] = "";
    make_hint_geom(&L->g, L->t != NULL, geom, sizeof geom);
    hint_source(a, L, src, sizeof src);
    params_format(&a->p, par, sizeof par);
    int room = w - text_width(VIEW_HEATMAP_DEF.title) - text_width(par) -
               2 * 2;
    if (L->t && a->p.n > L->t->n)   /* what the hatching means, at least */
        snprintf(miss, sizeof miss, "%s no row from %lld",
                 glyph(a->ascii, GL_MISSING), (long long)L->t->n);
    if (src[0] && text_width(src) + 2 + text_width(geom) <= room)
        snprintf(hint, len, "%s, %s", src, geom);
    else if (miss[0] && text_width(miss) + 2 + text_width(geom) <= room)
        snprintf(hint, len, "%s, %s", miss, geom);
    else if (miss[0])
        snprintf(hint, len, "%s", miss);
    else
        snprintf(hint, len, "%s", geom);
}

/* ---- the view -------------------------------------------------------- */

/* The slow part: a shown table's column means, into the cache. */
static int heat_work(const struct app *a, void *rt, int64_t budget)
{
    struct heat_rt *r = rt;
    if (a->heat.pca)
        return heat_pca_work(a, heat_table_shown(a), &r->pca, budget);
    if (r->L.t && r->L.g.rows >= 1 && r->L.g.cols >= 1)
        heat_table_means(&r->tc, r->L.t, &r->L.g, a->p.n);
    return 0;
}

static void heat_draw(const struct app *a, void *rt, canvas *c, char *hint,
                      size_t hintlen)
{
    struct heat_rt *r = rt;
    const struct heat_layout *L = &r->L;
    if (hintlen)
        hint[0] = 0;
    if (c->w < 1 || c->h < 1 || a->p.d < 2 || a->p.n < 1)
        return;
    if (a->heat.pca) {
        if (hintlen)
            snprintf(hint, hintlen, "p: back to the map");
        heat_pca_draw(a, &r->pca, heat_table_shown(a) ? table_file(a) : NULL, c, 0,
                      0, c->w, c->h);
        return;
    }
    if (hintlen)
        make_hint(a, L, c->w, hint, hintlen);
    if (L->g.rows < 1 || L->g.cols < 1)
        return;
    struct table_id id;
    const double *means = NULL;
    if (L->t && (id = heat_table_id_of(L->t),
                 heat_table_key_same(&r->tc, &L->g, a->p.n, &id)))
        means = r->tc.mean;
    for (int slot = 0; slot < L->g.shown; slot++)
        if (L->t)
            draw_band_table(a, c, L, means, slot);
        else
            draw_band(a, c, L, slot);
    if (L->map_x > 0)
        draw_margin(a, c, L);
    draw_axis(a, c, L);
    if (L->legend_y >= 0)
        draw_legend(a, c, L, c->w);
    if (L->insp_y >= 0)
        draw_inspector(a, c, L, c->w);
    draw_cursor(a, c, L);
}

/* ---- keys ------------------------------------------------------------ */

static void move_pos(struct app *a, int64_t delta)
{
    a->p.pos = clamp64(a->p.pos + delta, 0, a->p.n - 1);
    a->pos_frac = 0;
}

/* One pixel row up or down among the dimensions shown. */
static void move_dim(struct app *a, const struct heat_geom *g, int dir)
{
    int dim = cursor_dim(a), j = heat_geom_index(g, dim / 2), cos = dim % 2;
    if (g->nb == g->half)
        dim += dir;
    else if (dir > 0)
        dim = cos ? (j + 1 < g->nb ? 2 * heat_geom_band(g, j + 1) : dim)
                  : 2 * heat_geom_band(g, j) + 1;
    else
        dim = cos ? 2 * heat_geom_band(g, j)
                  : (j > 0 ? 2 * heat_geom_band(g, j - 1) + 1 : dim);
    a->heat.dim = dim < 0 ? 0 : dim >= a->p.d ? a->p.d - 1 : dim;
}

/* A page of rows up or down, keeping sin or cos. */
static void page_dim(struct app *a, const struct heat_geom *g, int dir)
{
    int dim = cursor_dim(a), page = g->shown > 1 ? g->shown - 1 : 1;
    int j = (int)clamp64(heat_geom_index(g, dim / 2) + (int64_t)dir * page, 0,
                         g->nb - 1);
    a->heat.dim = 2 * heat_geom_band(g, j) + dim % 2;
}

/* Zoom by dz around the cursor: the window is centred on it again. */
static void zoom_by(struct app *a, struct heat_rt *r, int dz)
{
    const struct heat_geom *g = &r->L.g;
    int z = g->zoom + dz;
    int zmax = heat_geom_zoom_max(a->p.n, heat_geom_step0(g->half, g->rows));
    if (z < 0 || z > zmax) {
        app_msg(a, 0, "zoom stays at %s", z < 0 ? "the whole sequence"
                                                : "its closest");
        return;
    }
    a->heat.zoom = z;
    heat_layout_hook(a, r, r->w, r->h);
    a->heat.x0 = a->p.pos - g->vis / 2;
    int j = heat_geom_index(g, cursor_dim(a) / 2) - g->shown / 2;
    a->heat.dim0 = 2 * heat_geom_band(g, j < 0 ? 0 : j);
}

/* A click on the map moves the cursor there. */
static int click(struct app *a, const struct heat_layout *L)
{
    int col = a->mouse_x - L->map_x, py = 2 * (a->mouse_y - L->map_y);
    int64_t p0, p1;
    int dim = heat_geom_pixel_dim(&L->g, py);
    if (heat_geom_col_range(&L->g, a->p.n, col, &p0, &p1) || dim < 0 ||
        a->mouse_y - L->map_y >= L->g.rows)
        return 0;
    a->p.pos = p0;
    a->heat.dim = dim;
    return 1;
}

/* After a key: lay out again and keep where the window went. */
static int settle(struct app *a, struct heat_rt *r)
{
    heat_layout_hook(a, r, r->w, r->h);
    a->heat.x0 = r->L.g.x0;
    a->heat.dim0 = 2 * heat_geom_band(&r->L.g, r->L.g.j0);
    return 1;
}

static int key_pos(struct app *a, void *rt, int key)
{
    struct heat_rt *r = rt;
    const struct heat_geom *g = &r->L.g;
    int64_t fast = g->ax.cells / 8, p = a->p.pos;        /* whole cells */
    switch (key) {
    case PK_LEFT: case 'h':   move_pos(a, axis_move(&g->ax, p, -1) - p); break;
    case PK_RIGHT: case 'l':  move_pos(a, axis_move(&g->ax, p, 1) - p); break;
    case 'H':                 move_pos(a, axis_move(&g->ax, p, -fast) - p); break;
    case 'L':                 move_pos(a, axis_move(&g->ax, p, fast) - p); break;
    case PK_HOME:             move_pos(a, -a->p.n); break;
    default:                  move_pos(a, a->p.n); break;     /* End */
    }
    return settle(a, r);
}

static int key_dim(struct app *a, void *rt, int key)
{
    struct heat_rt *r = rt;
    const struct heat_geom *g = &r->L.g;
    switch (key) {
    case PK_UP: case 'k':     move_dim(a, g, -1); break;
    case PK_DOWN: case 'j':   move_dim(a, g, 1); break;
    case PK_PGUP: case 'K':   page_dim(a, g, -1); break;
    default:                  page_dim(a, g, 1); break;       /* PgDn J */
    }
    return settle(a, r);
}

static int key_zoom(struct app *a, void *rt, int key)
{
    zoom_by(a, rt, key == '-' ? -1 : 1);
    return settle(a, rt);
}

static int key_pca(struct app *a, void *rt, int key)
{
    (void)rt;
    (void)key;
    a->heat.pca = !a->heat.pca;
    return 1;
}

/* { } step the pair's first component, [ ] its second (the panel opens). */
static int key_pca_pair(struct app *a, void *rt, int key)
{
    (void)rt;
    return heat_pca_step(a, key == '[' || key == ']',
                         key == '}' || key == ']' ? 1 : -1);
}

/* :pca I J, :pca, :pca off (heat_pca.h). */
static int heat_command(struct app *a, void *rt, const char *name,
                        const char *arg)
{
    (void)rt;
    if (strcmp(name, "pca") != 0)
        return 0;
    heat_pca_command(a, arg);
    return 1;
}

static int key_click(struct app *a, void *rt, int key)
{
    struct heat_rt *r = rt;
    (void)key;
    return click(a, &r->L) && settle(a, r);
}

/* ---- state ------------------------------------------------------------ */

/* The view's settings' rows (settings.h); :pca I J, the panel's pair,
 * is heat_pca.c's command. */
static const struct setting HEAT_SETTINGS[] = {
    { .name = "dim", .type = SET_INT, .off = SET_OFF(heat.dim), .lo = 0,
      .bound = SETB_DIM, .aux = SET_OFF(p.d),
      .bound_name = "d-1", .def = "0", .arg = "J",
      .help = "heatmap: the dimension under the cursor",
      .where = SET_CLI | SET_PROMPT | SET_TOUR | SET_FOLLOW,
      .wire = "heat.dim" },
    { .name = "pca", .type = SET_FLAG, .off = SET_OFF(heat.pca),
      .help = "heatmap: the principal components' panel instead (p)",
      .where = SET_CLI | SET_FOLLOW, .wire = "heat.pca" },
    { 0 }
};

static void heat_reset(struct app *a)
{
    memset(&a->heat, 0, sizeof a->heat);
    settings_reset(HEAT_SETTINGS, a);
}

static void heat_params_changed(struct app *a)
{
    if (a->heat.dim >= a->p.d)
        a->heat.dim = a->p.d - 1;
    if (a->heat.dim0 >= a->p.d)
        a->heat.dim0 = 0;
    if (a->heat.x0 >= a->p.n)
        a->heat.x0 = 0;
}

/* ---- pixels (view.h's raster hook) ------------------------------------ */

/* Positions of pixel i of the cw across map column col: the column's
 * run split evenly, one position per pixel where they fit (a position
 * then spans several pixels).  0, or -1 for an empty column. */
static int px_range(const struct heat_geom *g, int64_t n, int col, int i,
                    int cw, int64_t *q0, int64_t *q1)
{
    int64_t p0, p1;
    if (heat_geom_col_range(g, n, col, &p0, &p1))
        return -1;
    *q0 = p0 + (p1 - p0) * i / cw;
    *q1 = p0 + (p1 - p0) * (i + 1) / cw;
    if (*q1 <= *q0)
        *q1 = *q0 + 1;
    return 0;
}

/* Colour of dimension dim over [q0, q1): the exact mean, as cells. */
static rgb px_color(const struct app *a, const struct heat_layout *L,
                    int64_t q0, int64_t q1, int dim, double w)
{
    double ms, mc, v;
    if (L->t) {
        v = heat_table_mean(L->t, q0, q1, dim) / L->scale;
    } else {
        pe_range_mean(w, q0, q1, &ms, &mc);
        v = dim % 2 ? mc : ms;
    }
    return isnan(v) ? RGB_DEFAULT : cmap_diverging(a->palette, v);
}

/* Bands [*b0, *b1) an image gives grid slot slot: its own band and the
 * bands before the next grid entry (the last entry: its own alone). */
static void image_bands(const struct heat_geom *g, int slot, int *b0,
                        int *b1)
{
    int j = g->j0 + slot;
    *b0 = heat_geom_band(g, j);
    *b1 = j + 1 < g->nb ? heat_geom_band(g, j + 1) : *b0 + 1;
}

/* Whether ch pixel rows a cell give every dimension between the grid's
 * bands a pixel row of its own in every slot shown. */
static int image_all_dims(const struct heat_geom *g, int ch)
{
    for (int slot = 0; slot < g->shown; slot++) {
        int b0, b1;
        image_bands(g, slot, &b0, &b1);
        if (heat_geom_slot_rows(g, slot) * ch < 2 * (b1 - b0))
            return 0;
    }
    return 1;
}

/* The dimension of image pixel row y at ch pixel rows a cell, or -1.
 * Where they fit a slot's pixel rows are shared out over every
 * dimension from its band's sine up to the next grid entry's, so the
 * slot's first row is still the band its label names; else they show
 * the cells' dimensions, the upper half of a half block the sine. */
static int image_dim(const struct heat_geom *g, int y, int ch)
{
    int slot = y < 0 ? -1 : heat_geom_row_slot(g, y / ch), b0, b1;
    if (slot < 0 || slot >= g->shown)
        return -1;
    if (!image_all_dims(g, ch))
        return heat_geom_pixel_dim(g, 2 * (y / ch) + (y % ch >= ch / 2));
    image_bands(g, slot, &b0, &b1);
    int64_t y0 = (int64_t)heat_geom_slot_row(g, slot) * ch;
    int64_t hp = (int64_t)heat_geom_slot_rows(g, slot) * ch;
    return 2 * b0 + (int)((y - y0) * 2 * (b1 - b0) / hp);
}

/* The map at cw x ch pixels a cell: the pixel rows of image_dim, each
 * pixel column its share of its column's positions.  Part 1: the PCA
 * panel's face (heat_pca.h) while the panel is shown. */
static int heat_raster(const struct app *a, void *rt, int cw, int ch,
                       int part, struct view_raster *r)
{
    const struct heat_layout *L = &((struct heat_rt *)rt)->L;
    const struct heat_geom *g = &L->g;
    const struct heat_rt *R = rt;
    if (part == 1 && a->heat.pca && a->p.d >= 2 && a->p.n >= 1)
        return heat_pca_raster(a, &R->pca, 0, 0, R->w, R->h, cw, ch, r);
    if (part != 0 || a->heat.pca || a->p.d < 2 || a->p.n < 1 || g->ucols < 1 ||
        g->shown < 1)
        return -1;
    int W = g->ucols * cw, rows = heat_geom_slot_row(g, g->shown), H = rows * ch;
    *r = (struct view_raster){ L->map_x, L->map_y, g->ucols, rows, cw, ch,
                               NULL, 0 };
    r->px = malloc((size_t)W * (size_t)H * sizeof *r->px);
    if (!r->px)
        return -1;
    for (int y = 0; y < H; y++) {
        int dim = image_dim(g, y, ch);
        double w = plans_of(&a->p)->omega[dim < 0 ? 0 : dim / 2];
        for (int x = 0; x < W; x++) {
            int64_t q0, q1;
            rgb px = RGB_DEFAULT;
            if (dim >= 0 && !px_range(g, a->p.n, x / cw, x % cw, cw, &q0, &q1))
                px = px_color(a, L, q0, q1, dim, w);
            r->px[(size_t)y * (size_t)W + (size_t)x] = px;
        }
    }
    return 0;
}

/* ---- for tests (heatmap.h) -------------------------------------------- */

int heatmap_col_range(const struct app *a, int col, int ncols, int npix,
                      int64_t *p0, int64_t *p1)
{
    struct heat_geom g;
    heat_geom_make(&g, a, ncols, npix / 2);
    return heat_geom_col_range(&g, a->p.n, col, p0, p1);
}

int heatmap_image_dim(const struct app *a, int y, int ch, int ncols,
                      int npix)
{
    struct heat_geom g;
    heat_geom_make(&g, a, ncols, npix / 2);
    return image_dim(&g, y, ch);
}

int heatmap_pixel_dim(const struct app *a, int py, int ncols, int npix)
{
    struct heat_geom g;
    heat_geom_make(&g, a, ncols, npix / 2);
    return heat_geom_pixel_dim(&g, py);
}

double heatmap_cell_value(const struct app *a, int col, int py, int ncols,
                          int npix)
{
    struct heat_geom g;
    int64_t p0, p1;
    heat_geom_make(&g, a, ncols, npix / 2);
    int dim = heat_geom_pixel_dim(&g, py);
    if (dim < 0 || heat_geom_col_range(&g, a->p.n, col, &p0, &p1))
        return NAN;
    const struct pe_table *t = heat_table_shown(a);
    if (t)          /* the rows added in the order the cache adds them */
        return heat_table_cell(t, NULL, &g, a->p.n, col,
                          heat_geom_index(&g, dim / 2) - g.j0, dim % 2);
    double ms, mc;
    pe_range_mean(plans_of(&a->p)->omega[dim / 2], p0, p1, &ms, &mc);
    return heat_amp(a) * (dim % 2 ? mc : ms);
}

double heatmap_scale(const struct app *a)
{
    const struct pe_table *t = heat_table_shown(a);
    return t ? heat_table_scale(NULL, t) : heat_amp(a);
}

void heatmap_map_rect(const struct app *a, int w, int h, int *x, int *y,
                      int *cols, int *rows)
{
    struct heat_layout L;
    layout_make(&L, a, w, h, NULL);
    *x = L.map_x;
    *y = L.map_y;
    *cols = L.g.cols;
    *rows = L.g.rows;
}

/* ---- the view's keys and card ------------------------------------------ */

/* The view's keys: what each does, and the help card (one labelled row
 * per group; aliases have no label). */
static const struct keybind HEAT_KEYS[] = {
    KEYS_LEFT_RIGHT(ACT_VIEW_KEY, ACT_VIEW_KEY,
                    "\xe2\x86\x90 \xe2\x86\x92 h l",
                    "one column left / right", key_pos),
    KEYS_UP_DOWN(ACT_VIEW_KEY, ACT_VIEW_KEY,
                 "\xe2\x86\x91 \xe2\x86\x93 k j",
                 "one dimension up / down", key_dim),
    { 'H',      ACT_VIEW_KEY, "H L", "a bigger step left / right", key_pos },
    { 'L',      ACT_VIEW_KEY, NULL, NULL, key_pos },
    KEYS_ALIAS('K', PK_PGUP, ACT_VIEW_KEY, "K J PgUp PgDn", "page up / down",
               key_dim),
    KEYS_ALIAS('J', PK_PGDN, ACT_VIEW_KEY, NULL, NULL, key_dim),
    KEYS_HOME_END(ACT_VIEW_KEY, ACT_VIEW_KEY, "Home End",
                  "first / last position", key_pos),
    KEYS_ZOOM(ACT_VIEW_KEY, ACT_VIEW_KEY, "+ -", "zoom in / out", key_zoom),
    { 'p',      ACT_VIEW_KEY, "p", "principal components of the table",
      key_pca },
    { '{',      ACT_VIEW_KEY, "{ } [ ]", "the pair of components drawn "
                                         "(:pca I J)", key_pca_pair },
    { '}',      ACT_VIEW_KEY, NULL, NULL, key_pca_pair },
    { '[',      ACT_VIEW_KEY, NULL, NULL, key_pca_pair },
    { ']',      ACT_VIEW_KEY, NULL, NULL, key_pca_pair },
    /* a click (with M on) moves the cursor to the cell; M itself is the
     * global toggle, listed here where clicks do something */
    { 'M',      ACT_MOUSE,    "M", "mouse clicks on / off: a click moves "
                                   "the cursor", NULL },
    { PK_MOUSE, ACT_MOUSE,    NULL, NULL, key_click },
    { 0,        ACT_NONE,     NULL, NULL, NULL }
};

/* ---- follow mode ---------------------------------------------------------- */

/* "0" or "1" (the PCA panel), then the pair "I J" when :pca chose one. */
static void pca_text(const struct app *a, char *v, size_t len)
{
    if (a->heat.pca_i || a->heat.pca_j)
        snprintf(v, len, "%d %d %d", a->heat.pca, a->heat.pca_i,
                 a->heat.pca_j);
    else
        snprintf(v, len, "%d", a->heat.pca);
}

/* "0", "1", or either with the pair "I J" (1..HEAT_PCA_MAX, or 0 0). */
static int pca_set(struct app *a, const char *v, char *err, size_t errlen)
{
    int on, i = 0, j = 0, used = 0;
    int k = sscanf(v, "%d%n %d %d%n", &on, &used, &i, &j, &used);
    if ((k != 1 && k != 3) || v[used] || (on != 0 && on != 1) || i < 0 ||
        j < 0 || i > HEAT_PCA_MAX || j > HEAT_PCA_MAX || (i == j && i)) {
        snprintf(err, errlen, "heat.pca: want 0 or 1, then I J in 1..%d",
                 HEAT_PCA_MAX);
        return -1;
    }
    a->heat.pca = on;
    a->heat.pca_i = i;
    a->heat.pca_j = j;
    return 0;
}

static const struct state_field HEAT_FIELDS[] = {
    SF_ROW_BOUND("heat.dim", SF_INT, heat.dim, 0, SF_DIM),
    SF_ROW_BOUND("heat.dim0", SF_INT, heat.dim0, 0, SF_DIM),
    SF_ROW_INT("heat.zoom", heat.zoom, 0, 64),
    SF_ROW_BOUND("heat.x0", SF_I64, heat.x0, 0, SF_POS),
    { .name = "heat.pca", .type = SF_HOOK, .text = pca_text, .set = pca_set },
    { 0 }
};

const struct view VIEW_HEATMAP_DEF = {
    .name = "heatmap", .title = "PE heatmap", .rt_size = sizeof(struct heat_rt),
    .reset = heat_reset, .params_changed = heat_params_changed,
    .fini = heat_fini, .layout = heat_layout_hook, .work = heat_work,
    .draw = heat_draw, .raster = heat_raster, .point_text = heat_point_text,
    .keys = HEAT_KEYS, .fields = HEAT_FIELDS, .settings = HEAT_SETTINGS,
    .command = heat_command,
    .about =
        "Columns are positions, rows are frequency bands: the upper half of "
        "a row is the band's sine dimension (2i), the lower half its cosine "
        "(2i+1); the strip at the bottom gives the colour scale from -1 to "
        "+1. Fast bands (short wavelength \xce\xbb) sit at the top and change "
        "from one position to the next; slow bands at the bottom barely "
        "move. A column that holds many positions shows their exact mean, "
        "so a fast band fades towards 0 there instead of showing stripes "
        "that are not in the data. A table loaded with --pe-file takes the "
        "sinusoids' place: each cell is the mean of its column's table rows, "
        "and the scale runs out to the table's largest |value|.",
};
