/*
 * attention.c - the attention view: the score matrix S(i, j) of a
 * position scheme (rows = query i, columns = key j), with softmax, the
 * causal mask, the 1/sqrt(d) temperature and word-embedding content,
 * an inspector at the cursor and a profile below (S against distance, or
 * the cursor row).
 *
 * Cost: a frame draws cached block cells (scores.c computes them once per
 * change of parameters, toggles or window, exactly, in slices between
 * frames when the work is large: the work hook).  The caches live in the
 * view's runtime object (struct att_rt), keyed inside scores.c by
 * everything the numbers depend on.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "views/attention_settings.h"
#include "plans.h"
#include "raster.h"
#include "glyph.h"
#include "axis.h"
#include "params.h"
#include "peviz/tables.h"
#include "plot.h"
#include "peviz/score_grid.h"
#include "state_field.h"
#include "text.h"

#define PANEL_MIN 32        /* cells beside the matrix for the panel */
#define INSPECT_MAX 8       /* inspector lines */
#define LINE_LEN 256
#define FAST_CELLS 8        /* H J K L move this many cells */
#define PROFILE_MAX 1024    /* points of the profile */

/* ---- caches ---------------------------------------------------------------- */

struct profile_cache {
    int valid;
    /* key */
    int d, scheme, temperature, heads, head, q_random;
    uint32_t seed;
    double base;
    uint64_t freq_key;      /* the scaling (scores.h) */
    int64_t nd, kb;
    /* values */
    int np;
    double v[PROFILE_MAX];
};


/* ---- small helpers ---------------------------------------------------------- */

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static void num(double v, char *buf, size_t len)
{
    fmt_num(v, 4, buf, len);
}

/* Zooming in stops at this many positions across. */
#define MIN_SPAN 2

/* ---- layout ---------------------------------------------------------------- */

struct att_layout {
    struct axis ai, aj;     /* queries down, keys across (axis.h) */
    int ok, side, split;
    int lw;                 /* label columns left of the matrix */
    int mx, my;             /* matrix top-left cell */
    int px;                 /* pixel side available (per quadrant: split) */
    /* from the axes: */
    int s;                  /* pixels per position (k == 1) */
    int64_t k, span, blocks;    /* positions per block, zoom span, blocks */
    int64_t i0, j0;         /* first query and key shown */
    int rows, cols;         /* blocks shown */
    int ext;                /* matrix extent in pixels (blocks * s) */
    int qw, qh;             /* split: quadrant size in cells */
    int no_gain;            /* presenter: the matrix is no larger than
                               without it (the height limits both) */
    int tick_y, legend_y;
    int pnx, pny, pnw, pnh; /* the panel */
};

/* The runtime object: the layout of the view area, the grid cache and
 * where its work stands, the profile cache. */
struct att_rt {
    int w, h;
    struct att_layout L;
    int split;                  /* the four terms are shown */
    struct score_grid *grid;
    enum grid_status st;        /* of the last slice of work */
    double prog;
    char why[192];              /* GRID_REFUSED: what and how to get it */
    struct profile_cache prof;
    int nshown;                 /* the split maps' headers last drawn: */
    char shown_name[4][16];     /* each term's name ("e.e") */
    double shown[4];            /* and the number its header gives */
};

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

/* ---- the grid --------------------------------------------------------------- */

static struct grid_req layout_req(const struct att_layout *L)
{
    struct grid_req r = { L->i0, L->j0, L->k, L->rows, L->cols, L->split };
    return r;
}

/* Cell value to draw: term t (split) or the cell; NAN masked. */
static double shown_cell(const struct score_grid *g, int t, int r, int c)
{
    return t < 0 ? grid_cell(g, r, c) : grid_term(g, t, r, c);
}

/*
 * The split maps' diagonal: a block mean divides a term that is large
 * only at i = j (e.e) by k, so the cells on the diagonal show the mean
 * of term t over their own positions' pairs (i, i) instead, with the
 * temperature: dg[t * rows + r], NAN where the block is off the view.
 * NULL when there are more pairs than DIAG_CAP entries to sum, or no
 * memory: then every cell is its block's mean.
 */
#define DIAG_CAP (INT64_C(1) << 24)
static double *split_diag(const struct att_layout *L, const struct score_ctx *s)
{
    int64_t span = (int64_t)L->rows * L->k;
    int nt = s->nterms < 4 ? s->nterms : 4;
    if (L->k < 2 || L->i0 != L->j0 || L->rows < 1 || nt < 1 ||
        span * s->d * nt > DIAG_CAP)
        return NULL;
    double *dg = malloc(sizeof *dg * (size_t)nt * (size_t)L->rows);
    for (int t = 0; dg && t < nt; t++)
        for (int r = 0; r < L->rows; r++) {
            int64_t i0 = L->i0 + r * L->k, i1 = i0 + L->k, m = 0;
            double sum = 0;
            for (int64_t i = i0; i < i1 && i < s->rows; i++, m++)
                sum += scores_term_at(s, t, i, i);
            dg[(size_t)t * L->rows + r] = m ? s->tau * sum / (double)m : NAN;
        }
    return dg;
}

/* Term t's value in block (r, c) as the split maps draw it. */
static double split_cell(const struct score_grid *g, const double *dg,
                         const struct att_layout *L, int t, int r, int c)
{
    if (dg && t >= 0 && r == c && r < L->rows)
        return dg[(size_t)t * L->rows + r];
    return shown_cell(g, t, r, c);
}

static void shown_range(const struct score_grid *g, const double *dg,
                        const struct att_layout *L, int nt, double *lo,
                        double *hi)
{
    int any = 0;
    for (int t = nt ? 0 : -1; t < (nt ? nt : 0); t++)
        for (int r = 0; r < L->rows; r++)
            for (int c = 0; c < L->cols; c++) {
                double v = split_cell(g, dg, L, t, r, c);
                if (!isfinite(v))
                    continue;
                if (!any || v < *lo)
                    *lo = v;
                if (!any || v > *hi)
                    *hi = v;
                any = 1;
            }
    if (!any)
        *lo = *hi = 0;
}

/* ---- drawing the matrix ----------------------------------------------------- */

static void pixel(canvas *c, const struct app *a, int x, int py, double v,
                  double lo, double hi)
{
    if (!isfinite(v)) {
        canvas_half(c, x, py, RGB_DEFAULT, 0);
        return;
    }
    double t = hi > lo ? (v - lo) / (hi - lo) : 0.5;
    /* levels 1..9: blank (0) is kept for masked cells */
    canvas_half(c, x, py, cmap_sequential(a->palette, t),
                1 + (int)lround(t * 8));
}

/* Whether block row r or column c starts past the positions with rows
 * (a loaded table shorter than n): its cells are missing, not masked. */
static int block_missing(const struct att_layout *L, const struct score_ctx *s,
                         int r, int c)
{
    return L->i0 + r * L->k >= s->rows || L->j0 + c * L->k >= s->rows;
}

/* A cell whose pixels are all missing: the mark, dim, on no colour. */
static void missing_mark(canvas *c, const struct app *a, int x, int y)
{
    canvas_text(c, x, y, 1, glyph(a->ascii, GL_MISSING),
                ui_color(a->palette, UI_DIM), RGB_DEFAULT, 0);
}

/* The blocks of one matrix (or one term) with its top-left at (x, y):
 * masked cells blank, missing ones (past a table's rows) marked. */
static void draw_cells(canvas *c, const struct app *a,
                       const struct score_grid *g, const double *dg,
                       const struct att_layout *L,
                       const struct score_ctx *s, int x, int y, int t,
                       double lo, double hi)
{
    int hpx = L->rows * L->s, wpx = L->cols * L->s;
    for (int cy = 0; cy < (hpx + 1) / 2; cy++) {
        int top = 2 * cy, bot = 2 * cy + 1;
        for (int px = 0; px < wpx; px++) {
            int cc = px / L->s;
            if (block_missing(L, s, top / L->s, cc)
                && (bot >= hpx || block_missing(L, s, bot / L->s, cc))) {
                missing_mark(c, a, x + px, y + cy);
                continue;
            }
            double vt = split_cell(g, dg, L, t, top / L->s, cc);
            double vb = bot < hpx ? split_cell(g, dg, L, t, bot / L->s, cc)
                                  : NAN;
            if (!isfinite(vt) && !isfinite(vb)) {
                if (bot < hpx || !isfinite(vt))
                    continue;       /* wholly masked: left blank */
            }
            pixel(c, a, x + px, 2 * (y + cy), vt, lo, hi);
            if (bot < hpx)
                pixel(c, a, x + px, 2 * (y + cy) + 1, vb, lo, hi);
        }
    }
}

/* Cell (x, y) and pixel row of position (i, j) relative to the matrix. */
static int cursor_cell(const struct att_layout *L, int64_t i, int64_t j,
                       int *cx, int *cy)
{
    int64_t r = (i - L->i0) / L->k, c = (j - L->j0) / L->k;
    if (i < L->i0 || j < L->j0 || r >= L->rows || c >= L->cols)
        return 0;
    *cx = (int)(c * L->s + (L->s - 1) / 2);
    *cy = (int)((r * L->s + (L->s - 1) / 2) / 2);
    return 1;
}

static void draw_cursor(canvas *c, const struct app *a, const struct att_layout *L,
                        int x, int y)
{
    int cx, cy;
    if (!cursor_cell(L, a->att.ci, a->att.cj, &cx, &cy))
        return;
    cell *k = canvas_at(c, x + cx, y + cy);
    rgb bg = k && k->kind == CELL_HALF ? k->fg : RGB_DEFAULT;
    /* X in ASCII: '*' would read as a density level */
    canvas_put(c, x + cx, y + cy, a->ascii ? 'X' : 0x25CF,
               ui_color(a->palette, UI_CURSOR), bg, ATTR_BOLD);
    view_point_mark(a, c, x + cx, y + cy, 1);
}

static void att_point_text(const struct app *a, char *t, size_t len)
{
    snprintf(t, len, "cell i=%lld, j=%lld", (long long)a->att.ci,
             (long long)a->att.cj);
}

/* Labels and markers around the matrix: i down the left, j below. */
static void draw_axes(canvas *c, const struct app *a, const struct att_layout *L,
                      const struct score_ctx *s)
{
    rgb fg = ui_color(a->palette, UI_TEXT), dim = ui_color(a->palette, UI_DIM);
    rgb cur = ui_color(a->palette, UI_CURSOR), warn = ui_color(a->palette,
                                                              UI_WARN);
    double per_cell_y = 2.0 * (double)L->k / L->s;
    int64_t ilast = clamp64(L->i0 + L->rows * L->k - 1, 0, a->p.n - 1);
    int64_t jlast = clamp64(L->j0 + L->cols * L->k - 1, 0, a->p.n - 1);
    struct plot_axis ya = { (double)L->i0, per_cell_y, 0, (double)L->i0,
                            (double)ilast, 1 };
    struct plot_axis xa = { (double)L->j0, (double)L->k / L->s, 0,
                            (double)L->j0, (double)jlast, 1 };
    if (L->s > 1) {
        xa.bias = (L->s - 1) / 2 / (double)L->s + 1e-6;
        ya.bias = 0.25;
    }
    plot_yticks(c, 0, L->my, L->lw - 1, (L->rows * L->s + 1) / 2, &ya, fg);
    plot_xticks(c, L->mx, L->tick_y, L->ext, &xa, fg);
    if (L->lw >= 4)
        canvas_text(c, 0, L->my - 1, L->lw, glyph_pick(a->ascii, "i\xe2\x86\x93j\xe2\x86\x92", "i\\j"), dim, RGB_DEFAULT, 0);
    int cx, cy;
    if (s->o.scheme == SCHEME_LEARNED && !scores_table_used(s)) {
        int64_t Lp = s->train_len;
        if (Lp < a->p.n && cursor_cell(L, Lp, Lp, &cx, &cy)) {
            canvas_text(c, L->mx + cx, L->my - 1, 1, "L", warn, RGB_DEFAULT,
                        ATTR_BOLD);
            canvas_text(c, L->lw - 1, L->my + cy, 1, "L", warn, RGB_DEFAULT,
                        ATTR_BOLD);
        }
    }
    if (cursor_cell(L, a->att.ci, a->att.cj, &cx, &cy)) {
        canvas_text(c, L->mx + cx, L->my - 1, 1, glyph_pick(a->ascii, "\xe2\x96\xbc", "v"),
                    cur, RGB_DEFAULT, ATTR_BOLD);
        canvas_text(c, L->lw - 1, L->my + cy, 1, glyph(a->ascii, GL_PLAY),
                    cur, RGB_DEFAULT, ATTR_BOLD);
    }
}

static const char *term_label(const struct app *a, const char *name,
                              char *buf, size_t len)
{
    snprintf(buf, len, "%s", name);
    if (!a->ascii) {        /* "e.p" -> "e·p" */
        char *dot = strchr(buf, '.');
        if (dot && strlen(buf) + 2 < len) {
            memmove(dot + 2, dot + 1, strlen(dot + 1) + 1);
            memcpy(dot, "\xc2\xb7", 2);
        }
    }
    return buf;
}

/* The largest |value| among the cells term t shows (block means when a
 * cell holds k x k positions). */
static double term_max(const struct score_grid *g, const double *dg,
                       const struct att_layout *L, int t)
{
    double mx = 0;
    for (int r = 0; r < L->rows; r++)
        for (int cc = 0; cc < L->cols; cc++) {
            double v = fabs(split_cell(g, dg, L, t, r, cc));
            if (isfinite(v) && v > mx)
                mx = v;
        }
    return mx;
}

/* A term's header: "e·e max|·|=551.9" (with blocks "max|mean|") where the
 * quadrant is wide enough, else "e·e 551.9" under a note in the row above
 * the maps that says what the number is.  Returns 1 when the note is
 * needed. */
static int term_header(const struct app *a, const struct att_layout *L,
                       const char *name, double mx, char *buf, size_t len)
{
    char m[32];
    num(mx, m, sizeof m);
    snprintf(buf, len, "%s max|%s|=%s", name,
             L->k > 1 ? "mean" : glyph(a->ascii, GL_DOT), m);
    if (text_width(buf) <= L->qw)
        return 0;
    snprintf(buf, len, "%s %s", name, m);
    return 1;
}

/* The note above the maps, in the longest form that fits w cells. */
static void draw_split_note(canvas *c, const struct app *a,
                            const struct att_layout *L, int diag, int w)
{
    char full[96], mid[48];
    if (L->k > 1 && diag) {
        snprintf(full, sizeof full, "largest |mean| per term (%lldx%lld; "
                 "diagonal: i=j):", (long long)L->k, (long long)L->k);
        snprintf(mid, sizeof mid, "max |mean| per term, diag i=j:");
    } else if (L->k > 1) {
        snprintf(full, sizeof full, "largest |mean of %lldx%lld| per term:",
                 (long long)L->k, (long long)L->k);
        snprintf(mid, sizeof mid, "max |mean| per term:");
    } else {
        snprintf(full, sizeof full, "largest |value| per term:");
        snprintf(mid, sizeof mid, "max |value| per term:");
    }
    const char *cand[3] = { full, mid, diag && L->k > 1
                            ? "max |mean|, diag i=j:" : mid };
    canvas_text_fit(c, 0, L->my - 1, w, cand, 3, ui_color(a->palette, UI_DIM),
                    0);
}

static void draw_split(canvas *c, const struct app *a, struct att_rt *rt,
                       const struct score_grid *g, const double *dg,
                       const struct att_layout *L,
                       const struct score_ctx *s, double lo, double hi)
{
    rgb fg = ui_color(a->palette, UI_TEXT);
    int note = 0;
    for (int t = 0; t < s->nterms && t < 4; t++) {
        int x = L->mx + (t % 2) * (L->qw + 1), y = L->my + (t / 2) * (L->qh + 1);
        char name[16], head[80];
        term_label(a, s->terms[t].name, name, sizeof name);
        double mx = term_max(g, dg, L, t);
        note |= term_header(a, L, name, mx, head, sizeof head);
        snprintf(rt->shown_name[t], sizeof rt->shown_name[t], "%s",
                 s->terms[t].name);
        rt->shown[t] = mx;
        rt->nshown = t + 1;
        canvas_text(c, x, y, L->qw, head, fg, RGB_DEFAULT, 0);
        draw_cells(c, a, g, dg, L, s, x, y + 1, t, lo, hi);
        draw_cursor(c, a, L, x, y + 1);
    }
    if (note)
        draw_split_note(c, a, L, dg != NULL, L->side ? L->pnx - 1 : c->w);
}

/* ---- the header ------------------------------------------------------------- */

static void draw_header(canvas *c, const struct app *a, const struct score_ctx *s)
{
    rgb acc = ui_color(a->palette, UI_ACCENT), fg = ui_color(a->palette, UI_TEXT);
    rgb dim = ui_color(a->palette, UI_DIM);
    const char *name = scheme_name(s->o.scheme);
    int x = canvas_text(c, 0, 0, c->w, name, acc, RGB_DEFAULT, ATTR_BOLD);
    struct { const char *label; int on; } tg[] = {
        { "softmax", s->o.softmax }, { "mask", s->o.causal },
        { glyph_pick(a->ascii, "1/\xe2\x88\x9a" "d", "1/sqrt(d)"), s->o.temperature },
        { "content", s->o.content },
    };
    int tw = 0;     /* each toggle: "[label]" when on, " label " off */
    for (size_t i = 0; i < sizeof tg / sizeof tg[0]; i++)
        tw += text_width(tg[i].label) + 2;
    char f[96];
    snprintf(f, sizeof f, "  S = %s", scores_formula(s, a->ascii));
    if (x + text_width(f) + 2 + tw <= c->w)
        x += canvas_text(c, x, 0, c->w - x, f, fg, RGB_DEFAULT, 0);
    if (x + 2 + tw > c->w)
        return;
    int tx = c->w - tw;
    for (size_t i = 0; i < sizeof tg / sizeof tg[0]; i++) {
        canvas_text(c, tx, 0, 1, tg[i].on ? "[" : " ", acc, RGB_DEFAULT, 0);
        tx += 1 + canvas_text(c, tx + 1, 0, c->w - tx - 1, tg[i].label,
                              tg[i].on ? acc : dim, RGB_DEFAULT,
                              tg[i].on ? ATTR_BOLD : 0);
        canvas_text(c, tx++, 0, 1, tg[i].on ? "]" : " ", acc, RGB_DEFAULT, 0);
    }
}

/* ---- the inspector ------------------------------------------------------------ */

struct lines {
    char s[INSPECT_MAX][LINE_LEN];
    char brief[INSPECT_MAX][64];    /* shown when s does not fit, if set */
    int n;
};

static void add(struct lines *ls, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void add(struct lines *ls, const char *fmt, ...)
{
    if (ls->n >= INSPECT_MAX)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ls->s[ls->n++], LINE_LEN, fmt, ap);
    va_end(ap);
}

/* A short form of the last line added, for a panel without room for it. */
static void add_brief(struct lines *ls, const char *label, const char *value)
{
    if (ls->n > 0)
        snprintf(ls->brief[ls->n - 1], sizeof ls->brief[0], "%s = %s", label,
                 value);
}

/* Terms 0, 1, ..., last of a sum: all when there are at most 4, else
 * the first two, an ellipsis and the last. */
static void join_terms(char *out, size_t len, char parts[][40], int total,
                       const struct app *a)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < total && used + 1 < len; i++) {
        if (total > 4 && i == 2) {
            used += (size_t)snprintf(out + used, len - used, " + %s",
                                     glyph_pick(a->ascii, "\xe2\x80\xa6", "..."));
            i = total - 2;
            continue;
        }
        const char *v = parts[i > 2 ? 3 : i];
        if (i && v[0] == '-')       /* "a - b", not "a + -b" */
            used += (size_t)snprintf(out + used, len - used, " - %s", v + 1);
        else
            used += (size_t)snprintf(out + used, len - used, "%s%s",
                                     i ? " + " : "", v);
    }
}

/* The plan's score multiplier as a chain factor: its name ("a²": the
 * attention factor squared; "m²": DeepSeek's softmax mscale squared;
 * "a²m²" both) and value; 1 when there is none. */
static double plan_factor(const struct app *a, char *name, size_t len)
{
    const pe_plan *pl = plan_of(&a->p);
    const char *sq = glyph_pick(a->ascii, "\xc2\xb2", "^2");
    if (pl->extra == 1 || pl->a != 1)
        snprintf(name, len, "a%s%s%s", sq, pl->extra != 1 ? "m" : "",
                 pl->extra != 1 ? sq : "");
    else
        snprintf(name, len, "m%s", sq);
    return pl->mult;
}

/* The last line of a chain with a multiplier: "= 2 × 32 × a² (a² =
 * 1.87385) = 119.927". */
static void add_factor(struct lines *ls, const struct app *a, double mult,
                       const char *tot, double value, double fac,
                       const char *fname)
{
    char f[32], r[32];
    const char *x = glyph(a->ascii, GL_TIMES);
    fmt_num(fac, 6, f, sizeof f);
    fmt_num(mult * value * fac, 6, r, sizeof r);
    if (mult == 1)
        add(ls, "  = %s %s %s (%s = %s) = %s", tot, x, fname, fname, f, r);
    else
        add(ls, "  = %g %s %s %s %s (%s = %s) = %s", mult, x, tot, x, fname,
            fname, f, r);
    add_brief(ls, "S", r);
}

static void inspect_sinusoid(struct lines *ls, const struct app *a,
                             const struct score_ctx *s, int64_t dl,
                             double mult, double fac, const char *fname)
{
    char ang[4][40], val[4][40], j1[LINE_LEN], j2[LINE_LEN];
    for (int slot = 0; slot < 4; slot++) {
        int k = s->half <= 4 ? slot : slot < 3 ? slot : s->half - 1;
        if (k >= s->half)
            break;
        char t[32], v[32];
        num((double)dl * s->omega[k], t, sizeof t);
        num(cos((double)dl * s->omega[k]), v, sizeof v);
        snprintf(ang[slot], sizeof ang[slot], "cos(%s)", t);
        snprintf(val[slot], sizeof val[slot], "%s", v);
    }
    join_terms(j1, sizeof j1, ang, s->half, a);
    join_terms(j2, sizeof j2, val, s->half, a);
    char tot[32];
    double sum = pe_score_w((double)dl, s->omega, s->half);
    num(sum, tot, sizeof tot);
    if (mult == 1) {
        add(ls, "  = %s", j1);
        add(ls, fac == 1 ? "  = %s = %s" : "  = %s", j2, tot);
        if (fac != 1)
            add_factor(ls, a, 1, tot, sum, fac, fname);
        return;
    }
    /* one chain: every line equals S, the factor kept in front */
    char r[32];
    const char *x = glyph(a->ascii, GL_TIMES);
    num(mult * sum, r, sizeof r);
    add(ls, "  = %g (%s)", mult, j1);
    add(ls, "  = %g (%s)", mult, j2);
    if (fac == 1)
        add(ls, "  = %g %s %s = %s", mult, x, tot, r);
    else
        add_factor(ls, a, mult, tot, sum, fac, fname);
}

static void inspect_rope_random(struct lines *ls, const struct app *a,
                                const struct score_ctx *s, int64_t dl,
                                double fac, const char *fname)
{
    char b1[32], b2[32], b3[32], b4[32];
    double t = (double)dl * s->omega[0];
    num(s->ra[0], b1, sizeof b1);
    num(s->rb[0], b2, sizeof b2);
    num(s->ra[0] * cos(t) + s->rb[0] * sin(t), b3, sizeof b3);
    add(ls, "S = %s a%s cos((i-j)%s) + b%s sin(..)", glyph(a->ascii, GL_SIGMA),
        glyph(a->ascii, GL_SUB_K), glyph(a->ascii, GL_OMEGA_K),
        glyph(a->ascii, GL_SUB_K));
    num(t, b4, sizeof b4);      /* (i-j) omega_0, omega_0 = 1 */
    add(ls, "  band 0: %s cos(%s) + %s sin(%s) = %s", b1, b4, b2, b4, b3);
    double sum = pe_rope_score_ab((double)dl, s->ra, s->rb, s->omega, s->half);
    num(sum, b1, sizeof b1);
    if (fac == 1) {
        add(ls, "  all %d bands: S = %s", s->half, b1);
        return;
    }
    add(ls, "  all %d bands: %s", s->half, b1);
    add_factor(ls, a, 1, b1, sum, fac, fname);
}

/* Which dims pair, and the score the other layout gives the same q and
 * k: what a port that pairs them wrongly computes. */
static void inspect_pairs(struct lines *ls, const struct app *a,
                          const struct score_ctx *s, int64_t dl)
{
    char b1[32], b2[32];
    int half = s->o.qk_pairs == QK_HALF;
    add(ls, "  pairs %s: dims %s, R = %d of %d%s", qk_pairs_name(half),
        half ? "(k, k+R/2)" : "(2k, 2k+1)", s->rotary, s->d,
        s->qk_given ? ", q and k from --qk" : "");
    struct app *b = malloc(sizeof *b);
    if (!b)
        return;
    *b = *a;
    b->att.o.qk_pairs = half ? QK_INTERLEAVED : QK_HALF;
    struct score_ctx *o = app_scores_new(b);
    free(b);
    if (!o)
        return;
    double x = pe_rope_score_ab((double)dl, o->ra, o->rb, o->omega, o->half);
    double y = pe_rope_score_ab((double)dl, s->ra, s->rb, s->omega, s->half);
    num(x, b1, sizeof b1);
    num(fabs(x - y) <= 1e-12 * (fabs(x) + fabs(y)) ? 0.0 : x - y, b2,
        sizeof b2);
    add(ls, "  as %s pairs (a wrong port): S = %s, drift %s",
        qk_pairs_name(!half), b1, b2);
    scores_free(o);
}

/* P(i).P(j) with the two norms and the cosine between the rows. */
static void inspect_learned(struct lines *ls, const struct app *a,
                            const struct score_ctx *s, int64_t i, int64_t j)
{
    char b1[32], b2[32], b3[32];
    double *pi = malloc(2 * (size_t)s->d * sizeof *pi);
    if (!pi)
        return;
    double *pj = pi + s->d, ni = 0, nj = 0, dp = 0;
    scores_vec(s, SK_PL, i, 0, s->d, pi);
    scores_vec(s, SK_PL, j, 0, s->d, pj);
    for (int k = 0; k < s->d; k++) {
        ni += pi[k] * pi[k];
        nj += pj[k] * pj[k];
        dp += pi[k] * pj[k];
    }
    free(pi);
    if (scores_table_used(s))
        add(ls, "S = P(i)%sP(j), P: the --pe-file table", glyph(a->ascii, GL_DOT));
    if (s->rows < s->n)
        add(ls, "  %s no row: table has %lld rows",
            glyph(a->ascii, GL_MISSING), (long long)s->rows);
    else if (a->pe_table)       /* d left the table: say so */
        add(ls, "stand-in, not the --pe-file table (%lldx%d): it needs "
            "d_model=%d", (long long)a->pe_table->n, a->pe_table->d,
            a->pe_table->d);
    if (!scores_table_used(s))
        add(ls, "S = P(i)%sP(j), stand-in table, L = %lld",
            glyph(a->ascii, GL_DOT), (long long)s->train_len);
    num(sqrt(ni), b1, sizeof b1);
    num(sqrt(nj), b2, sizeof b2);
    num(ni > 0 && nj > 0 ? dp / (sqrt(ni) * sqrt(nj)) : 0, b3, sizeof b3);
    add(ls, "  |P(i)|=%s |P(j)|=%s cos=%s", b1, b2, b3);
    num(dp, b1, sizeof b1);
    add(ls, "  S = %s%s", b1, scores_table_used(s) ? ""
        : i >= s->train_len || j >= s->train_len
          ? "  (a row past L: untrained noise)" : "  (trained rows)");
}

/* A bucket's distances on its side: "35..39", "113 and on", "none". */
static void bucket_range(const struct score_ctx *s, int sb, char *buf,
                         size_t len)
{
    int64_t lo = s->t5_edge[sb], hi = s->t5_edge[sb + 1];
    if (lo == INT64_MAX || hi == lo)
        snprintf(buf, len, "no distance");
    else if (hi == INT64_MAX)
        snprintf(buf, len, "%lld and on", (long long)lo);
    else if (hi - 1 == lo)
        snprintf(buf, len, "%lld", (long long)lo);
    else
        snprintf(buf, len, "%lld..%lld", (long long)lo, (long long)hi - 1);
}

/* T5: the bucket of j - i, its distances, and W at it. */
static void inspect_t5(struct lines *ls, const struct app *a,
                       const struct score_ctx *s, int64_t dl)
{
    char b1[32], rng[48];
    int b = t5_bucket(-dl, s->o.bidirectional, s->t5_buckets, s->t5_maxd);
    int future = s->o.bidirectional && b >= s->t5_side;
    add(ls, "S = W[bucket(j-i), h]: %d buckets, %s, max distance %d",
        s->t5_buckets, s->o.bidirectional ? "bidirectional" : "causal",
        s->t5_maxd);
    bucket_range(s, b % s->t5_side, rng, sizeof rng);
    if (!s->o.bidirectional && dl < 0)
        add(ls, "  j-i = %lld: the future, bucket 0 (causal buckets)",
            (long long)-dl);
    else
        add(ls, "  j-i = %lld: bucket %d = %s distances %s",
            (long long)-dl, b, future ? "future" : "past", rng);
    num(t5_weight(s, b), b1, sizeof b1);
    if (s->t5_real)
        add(ls, "  W[%d, head %d] = %s (the --pe-file table)", b,
            (s->head < s->t5_w_heads ? s->head : s->t5_w_heads - 1) + 1, b1);
    else
        add(ls, "  W[%d, head %d] = %s: stand-in -m%sfirst distance, not "
            "trained", b, s->head + 1, b1, glyph(a->ascii, GL_MUL));
}

/* The bucket map of one side: "b: first distance" for every bucket. */
static void t5_map(struct lines *ls, const struct score_ctx *s)
{
    char line[LINE_LEN];
    size_t used = 0;
    add(ls, "bucket map (%s side; first distance of each):",
        s->o.bidirectional ? "each" : "past");
    line[0] = 0;
    for (int b = 0; b < s->t5_side; b++) {
        int64_t e = s->t5_edge[b];
        if (e == INT64_MAX)
            used += (size_t)snprintf(line + used, sizeof line - used,
                                     " %d:-", b);
        else
            used += (size_t)snprintf(line + used, sizeof line - used,
                                     " %d:%lld", b, (long long)e);
        if (used > 60 || b == s->t5_side - 1 || used >= sizeof line) {
            add(ls, " %s", line);
            used = 0;
            line[0] = 0;
        }
    }
    if (s->o.bidirectional)
        add(ls, "  the future side: bucket + %d", s->t5_side);
}

/* KERPLE log and power with r1, r2 and the value. */
static void inspect_kerple(struct lines *ls, const struct app *a,
                           const struct score_ctx *s, int64_t dl)
{
    char b1[32], b2[32], b3[32];
    int power = s->o.scheme == SCHEME_KERPLE_POWER;
    num(s->r1, b1, sizeof b1);
    num(s->r2, b2, sizeof b2);
    num(scores_bias(s, dl, 0), b3, sizeof b3);
    add(ls, "S = %s, r1 = %s, r2 = %s", scores_formula(s, a->ascii), b1, b2);
    if (power)
        add(ls, "  = -%s %s %lld^%s = %s", b1, glyph(a->ascii, GL_TIMES),
            (long long)llabs(dl), b2, b3);
    else
        add(ls, "  = -%s %s ln(1 + %s %s %lld) = %s", b1,
            glyph(a->ascii, GL_TIMES), b2, glyph(a->ascii, GL_TIMES),
            (long long)llabs(dl), b3);
}

/* Sandwich: the cosine sum, the head's divisor and the value. */
static void inspect_sandwich(struct lines *ls, const struct app *a,
                             const struct score_ctx *s, int64_t dl)
{
    char b1[32], b2[32], b3[32];
    double c = pe_score_w((double)dl, s->dband, s->half);
    add(ls, "S = %s, %s = base^(-2k/d), k = 1..d/2",
        scores_formula(s, a->ascii), glyph(a->ascii, GL_OMEGA_K));
    num(c, b1, sizeof b1);
    num(8.0 * (s->head + 1) / s->heads, b2, sizeof b2);
    num(scores_bias(s, dl, 0), b3, sizeof b3);
    add(ls, "  head %d of %d: (%s - %d) / %s = %s", s->head + 1, s->heads,
        b1, s->half, b2, b3);
}

/* xPos: zeta and the decay of the pair for the first and last band. */
static void inspect_xpos(struct lines *ls, const struct app *a,
                         const struct score_ctx *s, int64_t dl)
{
    char b1[32], b2[32], b3[32];
    const char *z = glyph_pick(a->ascii, "\xce\xb6", "zeta");
    const char *g = glyph_pick(a->ascii, "\xce\xb3", "gamma");
    num(s->xpos_gamma, b1, sizeof b1);
    add(ls, "S = %s, %s = %s", scores_formula(s, a->ascii), g, b1);
    add(ls, "  %s%s = (2k + 0.4d)/(1.4d); decay of this pair %s%s^((i-j)/%s)",
        z, glyph(a->ascii, GL_SUB_K), z, glyph(a->ascii, GL_SUB_K), g);
    int ks[2] = { 0, s->half - 1 };
    for (int t = 0; t < (s->half > 1 ? 2 : 1); t++) {
        int k = ks[t];
        num(s->dband[k], b2, sizeof b2);
        num(pow(s->dband[k], (double)dl / s->xpos_gamma), b3, sizeof b3);
        add(ls, "  band %d: %s = %s, decay %s", k, z, b2, b3);
    }
    num(scores_bias(s, dl, 0), b1, sizeof b1);
    add(ls, "  all %d bands: S = %s", s->half, b1);
}

static void inspect_scheme(struct lines *ls, const struct app *a,
                           const struct score_ctx *s, int64_t i, int64_t j)
{
    int64_t dl = i - j;
    char b1[32], b2[32], fname[16];
    double fac = plan_factor(a, fname, sizeof fname);
    switch (s->o.scheme) {
    case SCHEME_SINUSOIDAL:
        add(ls, "S = %s cos((i-j)%s), %s = base^(-2k/d)",
            glyph_pick(a->ascii, "\xce\xa3\xe2\x82\x96", "sum_k"), glyph(a->ascii, GL_OMEGA_K),
            glyph(a->ascii, GL_OMEGA_K));
        inspect_sinusoid(ls, a, s, dl, 1, 1, "");
        break;
    case SCHEME_ROPE:
        if (s->o.q_random || s->qk_given) {
            inspect_rope_random(ls, a, s, dl, fac, fname);
            inspect_pairs(ls, a, s, dl);
            break;
        }
        add(ls, "q = k = ones: S = 2 %s cos((i-j)%s)%s%s%s%s",
            glyph(a->ascii, GL_SIGMA), glyph(a->ascii, GL_OMEGA_K),
            fac != 1 ? " " : "", fac != 1 ? glyph(a->ascii, GL_TIMES) : "",
            fac != 1 ? " " : "", fac != 1 ? fname : "");
        inspect_sinusoid(ls, a, s, dl, 2, fac, fname);
        break;
    case SCHEME_ALIBI:
        num(s->slope, b1, sizeof b1);
        num(-s->slope * (double)llabs(dl), b2, sizeof b2);
        add(ls, "S = -m|i-j|, head %d of %d: m = %s", s->head + 1, s->heads,
            b1);
        add(ls, "  = -%s %s %lld = %s", b1, glyph(a->ascii, GL_TIMES),
            (long long)llabs(dl), b2);
        break;
    case SCHEME_LEARNED:
        inspect_learned(ls, a, s, i, j);
        break;
    case SCHEME_NOPE:
        if (s->qk_given)
            add(ls, "S = %s = %.6g: the real q and k, no position signal",
                scores_formula(s, a->ascii), scores_at(s, i, j));
        else
            add(ls, "S = 0: no position signal reaches the score");
        break;
    case SCHEME_T5:
        inspect_t5(ls, a, s, dl);
        if (a->att.bucket_map)
            t5_map(ls, s);
        break;
    case SCHEME_KERPLE_LOG: case SCHEME_KERPLE_POWER:
        inspect_kerple(ls, a, s, dl);
        break;
    case SCHEME_SANDWICH:
        inspect_sandwich(ls, a, s, dl);
        break;
    case SCHEME_XPOS:
        inspect_xpos(ls, a, s, dl);
        break;
    default:        /* a scheme without its own lines: its formula */
        add(ls, "S = %s", scores_formula(s, a->ascii));
    }
}

static void inspect_content(struct lines *ls, const struct app *a,
                            const struct score_ctx *s, int64_t i, int64_t j)
{
    char v[SCORES_MAX_TERMS][40], line[LINE_LEN], tot[32];
    size_t used = 0;
    double sum = 0;
    used += (size_t)snprintf(line, sizeof line, "S =");
    for (int t = 0; t < s->nterms; t++) {
        char name[16];
        double x = scores_term_at(s, t, i, j);
        sum += x;
        num(x, v[t], sizeof v[t]);
        if (used < sizeof line)
            used += (size_t)snprintf(line + used, sizeof line - used, "%s %s",
                                     t ? " +" : "",
                                     term_label(a, s->terms[t].name, name,
                                                sizeof name));
    }
    add(ls, "%s", line);
    used = 0;
    line[0] = 0;
    for (int t = 0; t < s->nterms && used < sizeof line; t++)
        used += (size_t)snprintf(line + used, sizeof line - used, "%s%s",
                                 !t ? "  = " : v[t][0] == '-' ? " - " : " + ",
                                 t && v[t][0] == '-' ? v[t] + 1 : v[t]);
    num(sum, tot, sizeof tot);
    add(ls, "%s = %s", line, tot);
    add(ls, "  e: N(0, 1/d) per entry%s, seeded",
        s->o.scale_emb ? glyph_pick(a->ascii, ", \xc3\x97\xe2\x88\x9a" "d", ", x sqrt(d)") : "");
}

/* A position past a loaded table's rows: no row, so no score. */
static void inspect_missing(struct lines *ls, const struct app *a,
                            const struct score_ctx *s, int64_t p)
{
    add(ls, "S: missing (%s). Position %lld has no row: the table has %lld "
        "positions, 0..%lld, and a model with it cannot index past them",
        glyph(a->ascii, GL_MISSING), (long long)p, (long long)s->rows,
        (long long)s->rows - 1);
}

/* The query scale of row i and where it comes from. */
static void inspect_qscale(struct lines *ls, const struct app *a,
                           const struct score_ctx *s, int64_t i)
{
    const struct score_opts *o = &s->o;
    char b1[32], b2[32], b3[32];
    if (!o->temp_tuning && !(o->beta > 0 && o->beta_len > 0))
        return;
    num(scores_qscale(s, i), b3, sizeof b3);
    if (o->temp_tuning) {
        num(o->floor_scale, b1, sizeof b1);
        num(o->attn_scale, b2, sizeof b2);
        add(ls, "g(i) = log(floor((i+1)/%s)+1)%s%s + 1: Llama 4 temperature "
            "tuning", b1, glyph(a->ascii, GL_MUL), b2);
    }
    if (o->beta > 0 && o->beta_len > 0) {
        num(o->beta, b1, sizeof b1);
        add(ls, "g(i) = 1 + %s ln(1 + floor(i/%lld)): Ministral 3 beta", b1,
            (long long)o->beta_len);
    }
    add(ls, "  query scaled: g(%lld) = %s%s", (long long)i, b3,
        s->o.scheme == SCHEME_NOPE && !s->o.content
        ? " (S = 0: e shows it)" : "");
}

static void inspector(struct lines *ls, const struct app *a,
                      const struct score_ctx *s, struct att_rt *rt)
{
    const struct att_layout *L = &rt->L;
    int64_t i = a->att.ci, j = a->att.cj;
    memset(ls, 0, sizeof *ls);
    int miss = i >= s->rows || j >= s->rows;
    add(ls, "i = %lld  j = %lld  i-j = %lld%s", (long long)i, (long long)j,
        (long long)(i - j), miss ? "  (missing)"
                            : s->o.causal && j > i ? "  (masked)" : "");
    if (miss) {
        inspect_missing(ls, a, s, i >= s->rows ? i : j);
        return;
    }
    if (s->o.content)
        inspect_content(ls, a, s, i, j);
    else
        inspect_scheme(ls, a, s, i, j);
    inspect_qscale(ls, a, s, i);
    double raw = 0;
    char fname[16];
    for (int t = 0; t < s->nterms; t++)
        raw += scores_term_at(s, t, i, j);
    if (s->o.scheme == SCHEME_ROPE)     /* the score multiplier: S itself */
        raw *= plan_factor(a, fname, sizeof fname);
    char b1[32], b2[32], b3[32];
    if (s->o.temperature) {
        num(raw, b1, sizeof b1);
        num(sqrt((double)s->d), b2, sizeof b2);
        num(raw / sqrt((double)s->d), b3, sizeof b3);
        add(ls, "S/%s = %s / %s = %s", glyph_pick(a->ascii, "\xe2\x88\x9a" "d", "sqrt(d)"), b1,
            b2, b3);
    }
    if (s->o.softmax) {
        double p;
        if (s->o.causal && j > i)
            add(ls, "P(j|i) = 0: masked");
        else if (grid_softmax_at(rt->grid, s, i, j, &p, NULL) == 0) {
            num(p, b1, sizeof b1);
            add(ls, "P(j|i) = softmax of row i at j = %s", b1);
        }
    }
    if (L->k > 1) {
        int r = (int)((i - L->i0) / L->k), c = (int)((j - L->j0) / L->k);
        double v = grid_cell(rt->grid, r, c);
        num(v, b1, sizeof b1);
        int r0 = L->i0 + r * L->k + L->k > s->rows, c0 = L->j0 + c * L->k
                                                       + L->k > s->rows;
        if (isfinite(v) && (r0 || c0))  /* across the table's end */
            add(ls, "cell: mean over its positions below %lld = %s",
                (long long)s->rows, b1);
        else
            add(ls, "cell: mean over %lld x %lld positions = %s",
                (long long)L->k, (long long)L->k, isfinite(v) ? b1 : "masked");
        add_brief(ls, "cell mean", isfinite(v) ? b1 : "masked");
    }
}

/* Word-wrap text into rows of at most w cells, from row *y; every
 * continuation row is indented by indent cells.  c NULL: only count the
 * rows (*y advances as if drawn). */
static void wrap_text(canvas *c, int x, int *y, int w, int ymax,
                      const char *text, rgb fg, int attr, int indent)
{
    const char *p = text;
    for (int ix = 0; *p && *y < ymax; ix = indent < w ? indent : 0) {
        char line[LINE_LEN];
        size_t used = text_wrap_line(p, w - ix, line, sizeof line);
        size_t len = strlen(line);
        if (len == 0 || (p[len] && p[len] != ' ')) {
            /* one word wider than the row: cut it */
            if (c)
                canvas_text(c, x + ix, *y, w - ix, p, fg, RGB_DEFAULT, attr);
            (*y)++;
            return;
        }
        if (c)
            canvas_text(c, x + ix, *y, w - ix, line, fg, RGB_DEFAULT, attr);
        (*y)++;
        p += used;
    }
}

/* Rows text takes wrapped as wrap_text does, counted up to ymax - y. */
static int wrap_rows(int w, int y, int ymax, const char *text, int indent)
{
    int y1 = y;
    wrap_text(NULL, 0, &y1, w, ymax + 1, text, 0, 0, indent);
    return y1 - y;
}

/* ---- the profile --------------------------------------------------------------- */

/* The first candidate that fits in w cells (the last one otherwise). */
static void pick_title(char *out, size_t len, int w, char cand[][LINE_LEN],
                       int n)
{
    int i = text_first_fit_rows(cand[0], LINE_LEN, n, w);
    if (i < 0)
        i = n - 1;
    size_t l = strlen(cand[i]) < len ? strlen(cand[i]) : len - 1;
    memcpy(out, cand[i], l);
    out[l] = 0;
}

static void profile_distance(struct profile_cache *pc,
                             const struct score_ctx *s, int64_t nd, int dots,
                             int64_t *kb, int *np)
{
    *kb = (nd + dots - 1) / dots;
    if (*kb < 1)
        *kb = 1;
    *np = (int)((nd + *kb - 1) / *kb);
    if (*np > PROFILE_MAX)
        *np = PROFILE_MAX;
    if (pc->valid && pc->d == s->d && pc->base == s->base
        && pc->freq_key == s->freq_key
        && pc->scheme == (int)s->o.scheme && pc->temperature == s->o.temperature
        && pc->heads == s->heads && pc->head == s->head
        && pc->q_random == s->o.q_random && pc->seed == s->o.seed
        && pc->nd == nd && pc->kb == *kb)
        return;
    *pc = (struct profile_cache){ 1, s->d, (int)s->o.scheme, s->o.temperature,
                                  s->heads, s->head, s->o.q_random, s->o.seed,
                                  s->base, s->freq_key, nd, *kb, *np, { 0 } };
    scores_distance_means(s, nd, *kb, *np, pc->v);
}

/* Toeplitz schemes without softmax: S against the distance i - j. */
static void profile_spec_distance(const struct app *a, struct att_rt *rt,
                                  const struct score_ctx *s, int w, int dots,
                                  struct plot_spec *sp,
                                  struct plot_series *ser, char *title,
                                  size_t tlen)
{
    char cand[3][LINE_LEN];
    int64_t kb;
    int np;
    const struct att_layout *L = &rt->L;
    profile_distance(&rt->prof, s, L->span, dots, &kb, &np);
    ser->y = rt->prof.v;
    ser->n = np;
    sp->x0 = 0.5 * (double)(kb - 1);
    sp->dx = (double)kb;
    sp->x_integer = 1;      /* ticks label whole distances */
    sp->label_x = kb == 1;
    sp->xmin = 0;
    sp->xmax = (double)(L->span - 1);
    sp->xlabel = "i-j";
    /* RoPE scaling: the trained length L on the distance axis */
    int64_t Lt = a->p.rope.original_max;
    if (s->o.scheme == SCHEME_ROPE && Lt > 0 && (double)Lt <= sp->xmax) {
        sp->mark_x = (double)Lt;
        sp->mark_label = "L";
    }
    const char *sv = s->o.temperature ? glyph_pick(a->ascii, "S/\xe2\x88\x9a" "d", "S/sqrt(d)")
                                      : "S";
    char sc[64] = "";
    if (s->o.scheme == SCHEME_ROPE && a->p.rope.method != ROPE_NONE) {
        char m[48];
        params_format_rope(&a->p, m, sizeof m);
        snprintf(sc, sizeof sc, ", %s", m);
    }
    if (kb == 1) {
        snprintf(cand[0], LINE_LEN, "%s against distance i-j%s", sv, sc);
        snprintf(cand[1], LINE_LEN, "%s against i-j", sv);
        pick_title(title, tlen, w, cand, 2);
        return;
    }
    snprintf(cand[0], LINE_LEN, "%s against distance i-j, 1 dot = mean of "
             "%lld%s", sv, (long long)kb, sc);
    snprintf(cand[1], LINE_LEN, "%s against i-j, dot = mean of %lld", sv,
             (long long)kb);
    snprintf(cand[2], LINE_LEN, "%s vs i-j, mean of %lld", sv, (long long)kb);
    pick_title(title, tlen, w, cand, 3);
}

/* Otherwise: the cursor's row across the shown keys (weights with
 * softmax, exact for row i; else the cells of its block row). */
static void profile_spec_row(const struct app *a, struct att_rt *rt,
                             const struct score_ctx *s, int w, double *row,
                             struct plot_spec *sp, struct plot_series *ser,
                             char *title, size_t tlen)
{
    char cand[3][LINE_LEN];
    const struct att_layout *L = &rt->L;
    int r = (int)((a->att.ci - L->i0) / L->k);
    int n = L->cols < PROFILE_MAX ? L->cols : PROFILE_MAX;
    double p;
    /* past the offset table's limit the cells are streamed: no single
     * row, the block row's means instead (and the title says so) */
    int exact = s->o.softmax && grid_softmax_at(rt->grid, s, a->att.ci,
                                                a->att.cj, &p, row) == 0;
    if (!exact)
        for (int cc = 0; cc < n; cc++)
            row[cc] = grid_cell(rt->grid, r, cc);
    ser->y = row;
    ser->n = n;
    sp->x0 = (double)L->j0 + 0.5 * (double)(L->k - 1);
    sp->dx = (double)L->k;
    sp->x_integer = 1;
    sp->label_x = L->k == 1;
    sp->xmin = (double)L->j0;
    sp->xmax = (double)(L->j0 + (int64_t)n * L->k - 1 < a->p.n
                        ? L->j0 + (int64_t)n * L->k - 1 : a->p.n - 1);
    sp->xlabel = "j";
    int learned = s->o.scheme == SCHEME_LEARNED && !scores_table_used(s);
    sp->mark_x = learned ? (double)s->train_len : (double)a->att.ci;
    sp->mark_label = learned ? "L" : "j=i";
    if (s->rows < s->n) {       /* the table's end: no rows past it */
        sp->mark_x = (double)s->rows;
        sp->mark_label = "no row";
    }
    const char *what = s->o.softmax ? "P(j|i)" : "S(i,j)";
    if (a->att.ci >= s->rows) {
        snprintf(cand[0], LINE_LEN, "row i=%lld: missing, the table has %lld "
                 "positions", (long long)a->att.ci, (long long)s->rows);
        snprintf(cand[1], LINE_LEN, "row i=%lld: missing", (long long)a->att.ci);
    } else if (L->k == 1) {
        snprintf(cand[0], LINE_LEN, "%s of row i=%lld across keys j", what,
                 (long long)a->att.ci);
        snprintf(cand[1], LINE_LEN, "%s, i=%lld, against j", what,
                 (long long)a->att.ci);
    } else if (exact) {         /* row i itself, k keys a dot */
        long long k = (long long)L->k, i = (long long)a->att.ci;
        snprintf(cand[0], LINE_LEN, "%s of row i=%lld, 1 dot = mean of %lld "
                 "keys", what, i, k);
        snprintf(cand[1], LINE_LEN, "%s, i=%lld, dot = mean of %lld", what,
                 i, k);
        snprintf(cand[2], LINE_LEN, "%s i=%lld, mean of %lld", what, i, k);
        pick_title(title, tlen, w, cand, 3);
        return;
    } else {
        long long r0 = (long long)(L->i0 + r * L->k);
        long long r1 = (long long)(L->i0 + (r + 1) * L->k - 1);
        const char *m = s->o.softmax ? "P(j|i)" : "S";
        snprintf(cand[0], LINE_LEN, "%s, mean of rows %lld-%lld, across keys j",
                 m, r0, r1);
        snprintf(cand[1], LINE_LEN, "%s, rows %lld-%lld, against j", m, r0, r1);
    }
    pick_title(title, tlen, w, cand, 2);
}

static void draw_profile(canvas *c, const struct app *a, struct att_rt *rt,
                         const struct score_ctx *s, int x, int y, int w, int h)
{
    double row[PROFILE_MAX];
    char title[LINE_LEN];
    struct plot_spec sp = { 0 };
    struct plot_series ser = { NULL, 0, ui_color(a->palette, UI_PLOT_A), 0,
                               PLOT_SOLID };
    sp.label_extremes = 1;
    sp.zero_line = 1;
    sp.mark_x = NAN;
    int dots = 2 * (w - 8);
    if (dots < 4)
        return;
    if (s->toeplitz && !s->o.softmax)
        profile_spec_distance(a, rt, s, w, dots, &sp, &ser, title,
                              sizeof title);
    else
        profile_spec_row(a, rt, s, w, row, &sp, &ser, title, sizeof title);
    sp.title = title;
    plot_lines(c, x, y, w, h, &sp, &ser, 1, a->palette);
}

/* ---- the panel, hint and the draw entry ------------------------------------ */

static void draw_panel(canvas *c, const struct app *a, struct att_rt *rt,
                       const struct score_ctx *s)
{
    const struct att_layout *L = &rt->L;
    struct lines ls;
    inspector(&ls, a, s, rt);
    int y = L->pny, ymax = L->pny + L->pnh;
    int irows = L->side ? INSPECT_MAX : 3;
    rgb fg = ui_color(a->palette, UI_TEXT);
    int ylim = L->pny + irows < ymax ? L->pny + irows : ymax;
    /* whole lines only (a line cut at the last row would lose its
     * value), else the line's brief form */
    for (int i = 0; i < ls.n && y < ylim; i++) {
        const char *t = ls.s[i];
        if (y + wrap_rows(L->pnw, y, ylim, t, 4) > ylim)
            t = ls.brief[i];
        if (t[0] && y + wrap_rows(L->pnw, y, ylim, t, 4) <= ylim)
            wrap_text(c, L->pnx, &y, L->pnw, ylim, t, fg,
                      i == 0 ? ATTR_BOLD : 0, 4);
    }
    y++;
    if (ymax - y >= 5)
        draw_profile(c, a, rt, s, L->pnx, y, L->pnw, ymax - y);
}

static void progress_bar(char *out, size_t len, double f, const struct app *a)
{
    int n = 10, full = (int)(f * n);
    size_t used = (size_t)snprintf(out, len, "[");
    for (int i = 0; i < n && used + 4 < len; i++)
        used += (size_t)snprintf(out + used, len - used, "%s",
                                 i < full ? glyph_pick(a->ascii, "\xe2\x96\x88", "#")
                                          : glyph(a->ascii, GL_DOT));
    snprintf(out + used, len - used, "]");
}

static void draw_message(canvas *c, const struct app *a, int y, const char *msg)
{
    int yy = y;
    wrap_text(c, 1, &yy, c->w - 2, c->h, msg, ui_color(a->palette, UI_WARN), 0,
              0);
}

static void energy_hint(const struct app *a, const struct score_ctx *s,
                        char *buf, size_t len)
{
    double *v = malloc((size_t)s->d * sizeof *v);
    if (!v)
        return;
    double ne = 0, np = 0;
    scores_vec(s, SK_E, a->att.ci, 0, s->d, v);
    for (int k = 0; k < s->d; k++)
        ne += v[k] * v[k];
    if (s->o.scheme == SCHEME_LEARNED)
        scores_vec(s, SK_PL, a->att.ci, 0, s->d, v);
    else
        scores_vec(s, SK_PSIN, a->att.ci, 0, s->d, v);
    for (int k = 0; k < s->d && s->o.scheme != SCHEME_NOPE; k++)
        np += v[k] * v[k];
    free(v);
    char e[24], p[24];
    num(sqrt(ne), e, sizeof e);
    num(sqrt(np), p, sizeof p);
    snprintf(buf, len, "|e|=%s |p|=%s", e, p);
}

static void make_hint(const struct app *a, const struct att_layout *L,
                      const struct score_ctx *s, enum grid_status st,
                      double prog, char *hint, size_t len)
{
    char cells[64] = "", extra[128] = "";
    axis_caption_square(&L->ai, "px", "pos", cells, sizeof cells);
    if (st == GRID_BUSY) {      /* short, so the status line keeps it */
        char bar[64];
        progress_bar(bar, sizeof bar, prog, a);
        snprintf(hint, len, "computing %s %d%%", bar, (int)(prog * 100));
        return;
    } else if (s->rows < s->n) {
        snprintf(extra, sizeof extra, "%s no row from %lld",
                 glyph(a->ascii, GL_MISSING), (long long)s->rows);
    } else if (s->o.content) {
        energy_hint(a, s, extra, sizeof extra);
    }
    snprintf(hint, len, "%s%s%s", cells, extra[0] ? "  " : "", extra);
}

/* The first x in [x0, x1) of row y that is not blank, or x1: where a
 * label of the panel beside the legend starts. */
static int first_drawn(const canvas *c, int y, int x0, int x1)
{
    for (int x = x0 > 0 ? x0 : 0; x < x1; x++) {
        const cell *k = canvas_at(c, x, y);
        if (k && k->ch != ' ' && k->ch != 0)
            return x;
    }
    return x1;
}

/* The computed matrix (or its four terms), its legend and the panel. */
static void draw_body(canvas *c, const struct app *a, struct att_rt *rt,
                      const struct score_ctx *s)
{
    const struct att_layout *L = &rt->L;
    int split = rt->split;
    double lo = 0, hi = 0;
    double *dg = split ? split_diag(L, s) : NULL;
    rt->nshown = 0;
    shown_range(rt->grid, dg, L, split ? s->nterms : 0, &lo, &hi);
    if (split) {
        draw_split(c, a, rt, rt->grid, dg, L, s, lo, hi);
    } else {
        draw_cells(c, a, rt->grid, NULL, L, s, L->mx, L->my, -1, lo, hi);
        draw_cursor(c, a, L, L->mx, L->my);
        draw_axes(c, a, L, s);
    }
    /* the four maps share the scale of the terms, not of S */
    const char *base_cap = s->o.softmax && !split ? "P(j|i)"
                         : s->o.temperature && split
                         ? glyph_pick(a->ascii, "terms/\xe2\x88\x9a" "d",
                                      "terms/sqrt(d)")
                         : s->o.temperature
                         ? glyph_pick(a->ascii, "S/\xe2\x88\x9a" "d", "S/sqrt(d)")
                         : split ? "terms" : "S";
    /* a block of k x k positions shows their mean: the legend's ends are
     * means too, and say so */
    char cap[96];
    if (L->k > 1 && dg)     /* the diagonal cells are means of (i, i) */
        snprintf(cap, sizeof cap, "%s mean of %lldx%lld, diagonal i=j",
                 base_cap, (long long)L->k, (long long)L->k);
    else if (L->k > 1)
        snprintf(cap, sizeof cap, "%s mean of %lldx%lld", base_cap,
                 (long long)L->k, (long long)L->k);
    else
        snprintf(cap, sizeof cap, "%s", base_cap);
    struct plot_legend lg = { cap, base_cap, lo, hi, 0, 4 };
    draw_panel(c, a, rt, s);    /* first: the legend ends before its labels */
    int lw = L->side ? first_drawn(c, L->legend_y, L->pnx, c->w) - 3 : c->w;
    char miss[48] = "";
    if (s->rows < s->n)     /* the legend's entry for the missing mark */
        snprintf(miss, sizeof miss, " %s no row", glyph(a->ascii, GL_MISSING));
    int used = plot_legend_draw(c, 0, L->legend_y, lw - text_width(miss),
                                a->palette, &lg);
    canvas_text(c, used, L->legend_y, lw - used, miss,
                ui_color(a->palette, UI_DIM), RGB_DEFAULT, 0);
    free(dg);
}

/* ---- the hooks ------------------------------------------------------------ */

/* Whether the four terms are shown: f is on and they exist (content on,
 * sinusoidal or learned). */
static int split_shown(const struct app *a)
{
    return a->att.split && a->att.o.content
           && scheme_info(a->att.o.scheme)->split;
}

static void att_layout_hook(const struct app *a, void *rt, int w, int h)
{
    struct att_rt *r = rt;
    r->w = w;
    r->h = h;
    r->split = split_shown(a);
    layout_compute(&r->L, a, w, h, r->split);
}

/* A slice of the grid: the cells of the window laid out, exactly. */
static int att_work(const struct app *a, void *rt, int64_t budget)
{
    struct att_rt *r = rt;
    r->st = GRID_DONE;
    r->prog = 0;
    r->why[0] = 0;
    if (!r->L.ok)
        return 0;
    struct score_ctx *s = app_scores_new(a);
    if (!r->grid)
        r->grid = grid_new();
    if (!s || !r->grid) {
        scores_free(s);
        r->st = GRID_REFUSED;
        snprintf(r->why, sizeof r->why, "attention: out of memory");
        return 0;
    }
    struct grid_req rq = layout_req(&r->L);
    r->st = grid_update(r->grid, s, &rq, budget, &r->prog, r->why,
                        sizeof r->why);
    if (r->st == GRID_DONE && s->toeplitz && !s->o.softmax) {
        int64_t kb;         /* the profile against distance, into its cache */
        int np, dots = 2 * (r->L.pnw - 8);
        if (dots >= 4)
            profile_distance(&r->prof, s, r->L.span, dots, &kb, &np);
    }
    scores_free(s);
    return r->st == GRID_BUSY;
}

static void att_fini(void *rt)
{
    grid_free(((struct att_rt *)rt)->grid);
}

/* Presenter at a height that limits the matrix as much as without it:
 * say so under the legend, rather than seem to do nothing. */
static void draw_no_gain(canvas *c, const struct app *a,
                         const struct att_layout *L)
{
    const char *msg = "zoom: the window's height limits the matrix as "
                      "much as without zoom; a taller window shows it larger";
    int y = L->legend_y + 1;
    wrap_text(c, 0, &y, c->w, c->h, msg, ui_color(a->palette, UI_DIM), 0, 0);
}

static void att_draw(const struct app *a, void *rt, canvas *c, char *hint,
                     size_t hintlen)
{
    struct att_rt *r = rt;
    const struct att_layout *L = &r->L;
    struct score_ctx *s = app_scores_new(a);
    hint[0] = 0;
    r->nshown = 0;
    if (!s) {
        draw_message(c, a, 0, "attention: out of memory");
        return;
    }
    draw_header(c, a, s);
    if (!L->ok) {
        draw_message(c, a, 1, c->h < 6 ? "Too small: the attention view "
                     "needs 7 rows." : "The attention view needs a taller "
                     "window (at least 7 rows).");
        scores_free(s);
        return;
    }
    make_hint(a, L, s, r->st, r->prog, hint, hintlen);
    if (r->st == GRID_REFUSED) {
        draw_message(c, a, 2, r->why);
    } else if (r->st == GRID_BUSY) {
        char bar[64], msg[128];
        progress_bar(bar, sizeof bar, r->prog, a);
        snprintf(msg, sizeof msg, "computing exact cells %s %d%%", bar,
                 (int)(r->prog * 100));
        canvas_text(c, L->mx, L->my, c->w - L->mx, msg,
                    ui_color(a->palette, UI_DIM), RGB_DEFAULT, 0);
    } else {
        draw_body(c, a, r, s);
        if (L->no_gain)
            draw_no_gain(c, a, L);
    }
    scores_free(s);
}

/* ---- pixels (view.h's raster hook) ------------------------------------------ */

/* The matrix at cw x ch pixels a cell, block by block as its half
 * blocks show it: a block is s cells wide and s half cells tall.  Masked
 * and missing blocks are RGB_DEFAULT (their cells show).  The split's
 * four terms stay cells. */
static int att_raster(const struct app *a, void *rt, int cw, int ch,
                      int part, struct view_raster *r)
{
    struct att_rt *t = rt;
    const struct att_layout *L = &t->L;
    struct score_ctx *s;
    if (part != 0 || !L->ok || t->split || t->st != GRID_DONE || !t->grid || ch < 2 ||
        !(s = app_scores_new(a)))
        return -1;
    double lo = 0, hi = 0;
    shown_range(t->grid, NULL, L, 0, &lo, &hi);
    int hpx = L->rows * L->s, W = L->cols * L->s * cw, H = (hpx + 1) / 2 * ch;
    *r = (struct view_raster){ L->mx, L->my, L->cols * L->s, (hpx + 1) / 2,
                               cw, ch, NULL, 0 };
    r->px = malloc((size_t)W * (size_t)H * sizeof *r->px + 1);
    for (int y = 0; r->px && y < H; y++) {
        int hp = y / (ch / 2), br = hp / L->s;
        for (int x = 0; x < W; x++) {
            int bc = x / cw / L->s;
            double v = hp < hpx && !block_missing(L, s, br, bc)
                       ? shown_cell(t->grid, -1, br, bc) : NAN;
            double f = hi > lo ? (v - lo) / (hi - lo) : 0.5;
            r->px[(size_t)y * (size_t)W + (size_t)x] =
                isfinite(v) ? cmap_sequential(a->palette, f) : RGB_DEFAULT;
        }
    }
    scores_free(s);
    return r->px ? 0 : -1;
}

/* ---- state ------------------------------------------------------------------ */


static void att_params_changed(struct app *a)
{
    struct attention_state *t = &a->att;
    if (t->ci >= a->p.n)
        t->ci = a->p.n - 1;
    if (t->cj >= a->p.n)
        t->cj = a->p.n - 1;
    if (t->i0 >= a->p.n)
        t->i0 = 0;
    if (t->j0 >= a->p.n)
        t->j0 = 0;
    if (t->o.train_len > a->p.n)
        t->o.train_len = a->p.n;
}

/* ---- keys and commands ---------------------------------------------------- */

/* Keep the window where the layout put it (after a fresh layout). */
static void refit(struct app *a, struct att_rt *r)
{
    att_layout_hook(a, r, r->w, r->h);
    if (r->L.px >= 4) {
        a->att.i0 = r->L.i0;
        a->att.j0 = r->L.j0;
    }
}

/* Positions in `blocks` drawn blocks (of m pixels each); a position
 * per block when no matrix is drawn. */
static int64_t block_step(const struct att_layout *L, int64_t blocks)
{
    return L->px < 4 ? blocks : axis_step(&L->ai, blocks * L->ai.m);
}

/* Move the cursor by di, dj drawn blocks. */
static void move(struct app *a, struct att_rt *r, int64_t di, int64_t dj)
{
    int64_t n = a->p.n;
    a->att.ci = clamp64(a->att.ci + (di ? block_step(&r->L, di) : 0), 0,
                        n - 1);
    a->att.cj = clamp64(a->att.cj + (dj ? block_step(&r->L, dj) : 0), 0,
                        n - 1);
    refit(a, r);
}

static void toggle(struct app *a, int *flag, const char *what,
                   const char *on, const char *off)
{
    *flag = !*flag;
    app_msg(a, 0, "%s %s", what, *flag ? on : off);
}

static int key_zoom(struct app *a, void *rt, int key)
{
    int in = key != '-';
    int zmax = axis_zoom_max(a->p.n, MIN_SPAN);
    int z = a->att.zoom + (in ? 1 : -1);
    if (z < 0 || z > zmax) {
        app_msg(a, 0, in ? "zoomed in as far as it goes" : "the whole "
                "sequence is shown");
        return 1;
    }
    a->att.zoom = z;
    a->att.i0 = a->att.ci;      /* centre-ish on the cursor */
    a->att.j0 = a->att.cj;
    refit(a, rt);
    app_msg(a, 0, "%lld positions across",
            (long long)axis_span(a->p.n, z, MIN_SPAN));
    return 1;
}

static int key_scheme(struct app *a, void *rt, int key)
{
    struct score_opts *t = &a->att.o;
    (void)rt;
    (void)key;
    t->scheme = (enum scheme)((t->scheme + 1) % scheme_count());
    app_msg(a, 0, "scheme %s", scheme_name(t->scheme));
    return 1;
}

/* m a t e E: the toggles. */
static int key_toggle(struct app *a, void *rt, int key)
{
    struct score_opts *t = &a->att.o;
    (void)rt;
    switch (key) {
    case 'm':
        toggle(a, &t->softmax, "softmax per row", "on: each row sums to 1",
               "off");
        break;
    case 'a':
        toggle(a, &t->causal, "causal mask", "on: keys after the query are "
               "hidden", "off");
        break;
    case 't':
        toggle(a, &t->temperature, "temperature", "on: scores divided by "
               "sqrt(d_model)", "off");
        break;
    case 'e':
        toggle(a, &t->content, "content", "on: random word embeddings added",
               "off: positions only");
        break;
    default:    /* E */
        toggle(a, &t->scale_emb, "embedding scale sqrt(d_model)",
               "on: entries N(0,1)", "off: entries N(0,1/d)");
        break;
    }
    return 1;
}

static int key_split(struct app *a, void *rt, int key)
{
    const struct score_opts *t = &a->att.o;
    (void)key;
    if (!a->att.split && !(t->content && scheme_info(t->scheme)->split)) {
        const char *w[SCHEME_MAX];
        char names[128];
        int n = 0;
        for (int m = 0; m < scheme_count(); m++)
            if (scheme_info(m)->split)
                w[n++] = scheme_info(m)->name;
        app_msg(a, 0, "the four-term split needs content on (e) and %s",
                words_join(w, n, names, sizeof names));
        return 1;
    }
    toggle(a, &a->att.split, "four-term split", "on: e.e, e.p, p.e, p.p",
           "off");
    refit(a, rt);
    return 1;
}

/* u: the T5 bucket map in the inspector. */
static int key_buckets(struct app *a, void *rt, int key)
{
    (void)rt;
    (void)key;
    if (a->att.o.scheme != SCHEME_T5) {
        app_msg(a, 0, "u shows the T5 bucket map: only with scheme t5 "
                "(s cycles the schemes)");
        return 1;
    }
    toggle(a, &a->att.bucket_map, "bucket map", "on: distance -> bucket "
           "edges in the inspector", "off");
    return 1;
}

/* The schemes with a head: ALiBi's slope, T5's column, Sandwich's
 * divisor. */
static int has_head(enum scheme sc)
{
    return sc == SCHEME_ALIBI || sc == SCHEME_T5 || sc == SCHEME_SANDWICH;
}

static int key_head(struct app *a, void *rt, int key)
{
    (void)rt;
    if (!has_head(a->att.o.scheme)) {
        app_msg(a, 0, "%c picks the head: only with scheme alibi, t5 or "
                "sandwich (s cycles the schemes)", key);
        return 1;
    }
    attention_settings_head(a, a->att.o.head + (key == '}' ? 1 : -1));
    return 1;
}

/* Space , . move pos, which this view does not show: say so. */
static int key_inert(struct app *a, void *rt, int key)
{
    (void)rt;
    app_msg(a, 0, "%s moves pos, which this view does not use: it shows "
            "every i and j at once; arrows move the cursor",
            key == ' ' ? "Space" : key == ',' ? "," : ".");
    return 1;
}

/* Arrows and hjkl: one drawn block; HJKL PgUp PgDn: FAST_CELLS blocks. */
static int key_move(struct app *a, void *rt, int key)
{
    int64_t f = FAST_CELLS;
    switch (key) {
    case PK_UP: case 'k': move(a, rt, -1, 0); break;
    case PK_DOWN: case 'j': move(a, rt, 1, 0); break;
    case PK_LEFT: case 'h': move(a, rt, 0, -1); break;
    case PK_RIGHT: case 'l': move(a, rt, 0, 1); break;
    case 'K': case PK_PGUP: move(a, rt, -f, 0); break;
    case 'J': case PK_PGDN: move(a, rt, f, 0); break;
    case 'H': move(a, rt, 0, -f); break;
    default: move(a, rt, 0, f); break;      /* L */
    }
    return 1;
}

static int key_ends(struct app *a, void *rt, int key)
{
    a->att.ci = a->att.cj = key == PK_HOME ? 0 : a->p.n - 1;
    refit(a, rt);
    return 1;
}

/* A whole number in [lo, hi] from arg, or an error message naming what. */
static int number_arg(struct app *a, const char *what, const char *arg,
                      long lo, long hi, long *out)
{
    const char *why;
    if (parse_long(arg, out, &why) || *out < lo || *out > hi) {
        app_msg(a, 1, ":%s wants a whole number %ld..%ld", what, lo, hi);
        return 0;
    }
    return 1;
}

/* The names att_command takes. */
static const char *const ATT_COMMANDS[] = { "i", "j", NULL };

static int att_command(struct app *a, void *rt, const char *name,
                       const char *arg)
{
    long v, n = (long)a->p.n;
    if (strcmp(name, "i") && strcmp(name, "j"))
        return 0;
    if (number_arg(a, name, arg, 0, n - 1, &v)) {
        *(name[0] == 'i' ? &a->att.ci : &a->att.cj) = v;
        refit(a, rt);
        app_msg(a, 0, "cursor i = %lld, j = %lld", (long long)a->att.ci,
                (long long)a->att.cj);
    }
    return 1;
}

/* The view's keys: what each does, and the help card.  Rows without a
 * label do a global action (cursor, zoom) by whole drawn blocks. */
static const struct keybind ATT_KEYS[] = {
    { 's', ACT_VIEW_KEY, "s", "next scheme, in the order --scheme lists "
      "them", key_scheme },
    { 'm', ACT_VIEW_KEY, "m", "softmax per row on / off", key_toggle },
    { 'a', ACT_VIEW_KEY, "a", "causal mask on / off", key_toggle },
    { 't', ACT_VIEW_KEY, "t", "divide scores by sqrt(d_model) on / off",
      key_toggle },
    { 'e', ACT_VIEW_KEY, "e", "content: add random word embeddings",
      key_toggle },
    { 'E', ACT_VIEW_KEY, "E", "scale embeddings by sqrt(d_model) on / off",
      key_toggle },
    { 'f', ACT_VIEW_KEY, "f", "split S into e.e e.p p.e p.p (content on)",
      key_split },
    { '{', ACT_VIEW_KEY, "{ }", "previous / next head (alibi, t5, sandwich)",
      key_head },
    { 'u', ACT_VIEW_KEY, "u", "t5: bucket map (distance -> bucket edges)",
      key_buckets },
    { '}', ACT_VIEW_KEY, NULL, NULL, key_head },
    { ' ', ACT_VIEW_KEY, NULL, NULL, key_inert },
    { ',', ACT_VIEW_KEY, NULL, NULL, key_inert },
    { '.', ACT_VIEW_KEY, NULL, NULL, key_inert },
    { ':', ACT_PROMPT, ":", ":i N  :j N", NULL },
    { PK_UP, ACT_UP, NULL, NULL, key_move },
    { 'k', ACT_UP, NULL, NULL, key_move },
    { PK_DOWN, ACT_DOWN, NULL, NULL, key_move },
    { 'j', ACT_DOWN, NULL, NULL, key_move },
    { PK_LEFT, ACT_LEFT, NULL, NULL, key_move },
    { 'h', ACT_LEFT, NULL, NULL, key_move },
    { PK_RIGHT, ACT_RIGHT, NULL, NULL, key_move },
    { 'l', ACT_RIGHT, NULL, NULL, key_move },
    { 'K', ACT_FAST_UP, NULL, NULL, key_move },
    { PK_PGUP, ACT_FAST_UP, NULL, NULL, key_move },
    { 'J', ACT_FAST_DOWN, NULL, NULL, key_move },
    { PK_PGDN, ACT_FAST_DOWN, NULL, NULL, key_move },
    { 'H', ACT_FAST_LEFT, NULL, NULL, key_move },
    { 'L', ACT_FAST_RIGHT, NULL, NULL, key_move },
    { PK_HOME, ACT_HOME, NULL, NULL, key_ends },
    { PK_END, ACT_END, NULL, NULL, key_ends },
    { '+', ACT_ZOOM_IN, NULL, NULL, key_zoom },
    { '=', ACT_ZOOM_IN, NULL, NULL, key_zoom },
    { '-', ACT_ZOOM_OUT, NULL, NULL, key_zoom },
    { 0, ACT_NONE, NULL, NULL, NULL }
};

static const char ATT_ABOUT[] =
    "Scores S(i,j) of query i (rows) against key j (columns); a cell that "
    "covers many positions shows their exact mean. sinusoidal: PE(i).PE(j) "
    "= sum_k cos((i-j) w_k), w_k = base^(-2k/d). rope: (R(i)q).(R(j)k), "
    "R(p) turning each pair of dims by p w_k; with q = k = ones (:q ones) it "
    "is twice the sinusoidal score, :q random uses a seeded N(0,1) pair. "
    "alibi: -m|i-j| (causal: -m(i-j)), m the slope of the head ({ }, "
    ":heads N). learned: P(i).P(j) for a stand-in table, a model and not a "
    "trained one: rows before L (:train L, default n/2) follow a scaled "
    "sinusoid, later rows are untouched N(0,0.02^2) noise; --pe-file loads "
    "a real table. nope: S = 0. t5: W[bucket(j-i), h], exact buckets for "
    "short distances, log-spaced up to --max-distance (u: the bucket map); "
    "W from --pe-file or a stand-in. kerple-log: -r1 ln(1 + r2|i-j|), "
    "kerple-power: -r1|i-j|^r2. sandwich: (sum_k cos((i-j) w_k) - d/2) / "
    "(8h/H). xpos: RoPE whose band k decays as zeta_k^((i-j)/gamma). "
    "t divides by sqrt(d), m takes softmax per "
    "row, a hides keys after the query. e adds seeded word embeddings with "
    "N(0,1/d) entries (times sqrt(d) while E is on): S = x_i.x_j with "
    "x = e + p = e.e + e.p + p.e + p.p, and f shows the four terms. The "
    "profile shows S against distance, or the cursor row.";

/* ---- follow mode ---------------------------------------------------------- */

#define ATT_SET_ROW(nm) { .name = nm, .type = SF_SETTING }

/* Ministral 3's llama_4_scaling_beta comes from a config file alone (no
 * option, no prompt command), but a follower's scores need it. */
static void beta_text(const struct app *a, char *v, size_t len)
{
    snprintf(v, len, "%.17g", a->att.o.beta);
}

static int beta_set(struct app *a, const char *v, char *err, size_t errlen)
{
    double x;
    const char *why;
    if (parse_double(v, &x, &why) || !isfinite(x) || x < 0) {
        snprintf(err, errlen, "att.beta: wants a number >= 0 (0: off)");
        return -1;
    }
    a->att.o.beta = x;
    return 0;
}

static const struct state_field ATT_FIELDS[] = {
    ATT_SET_ROW("att.scheme"),
    SF_ROW_INT("att.softmax", att.o.softmax, 0, 1),
    SF_ROW_INT("att.causal", att.o.causal, 0, 1),
    SF_ROW_INT("att.temperature", att.o.temperature, 0, 1),
    SF_ROW_INT("att.content", att.o.content, 0, 1),
    SF_ROW_INT("att.scale_emb", att.o.scale_emb, 0, 1),
    SF_ROW_INT("att.split", att.split, 0, 1),
    ATT_SET_ROW("att.heads"),
    { .name = "att.head", .type = SF_INT, .off = SF_OFF(att.o.head),
      .bound = SF_BELOW, .aux = SF_OFF(att.o.heads) },
    SF_ROW_INT("att.q_random", att.o.q_random, 0, 1),
    ATT_SET_ROW("att.seed"),
    SF_ROW_BOUND("att.train", SF_I64, att.o.train_len, -1, SF_LEN),
    SF_ROW_BOUND("att.i", SF_I64, att.ci, 0, SF_POS),
    SF_ROW_BOUND("att.j", SF_I64, att.cj, 0, SF_POS),
    SF_ROW_INT("att.zoom", att.zoom, 0, 64),
    SF_ROW_BOUND("att.i0", SF_I64, att.i0, 0, SF_POS),
    SF_ROW_BOUND("att.j0", SF_I64, att.j0, 0, SF_POS),
    /* the families' settings (ATTENTION_SETTINGS), after att.scheme, each
     * checked as its command-line option is */
    ATT_SET_ROW("att.buckets"),
    ATT_SET_ROW("att.max_distance"),
    SF_ROW_INT("att.bidirectional", att.o.bidirectional, 0, 1),
    ATT_SET_ROW("att.r1"),
    ATT_SET_ROW("att.r2"),
    ATT_SET_ROW("att.xpos_base"),
    ATT_SET_ROW("att.pairs"),
    ATT_SET_ROW("att.rotary"),
    ATT_SET_ROW("att.tuning"),
    ATT_SET_ROW("att.floor_scale"),
    ATT_SET_ROW("att.attn_scale"),
    { .name = "att.beta", .type = SF_HOOK, .text = beta_text,
      .set = beta_set },
    { .name = "att.beta_len", .type = SF_I64, .off = SF_OFF(att.o.beta_len),
      .lo = 0, .hi = ROPE_ORIGINAL_MAX_MAX },
    { 0 }
};

/* att.head is read before att.heads may have come down. */
static int att_fields_check(const struct app *a, char *err, size_t errlen)
{
    char why[160];
    for (const struct setting *s = ATTENTION_SETTINGS; s->name; s++)
        if (settings_check(s, a, why, sizeof why)) {
            snprintf(err, errlen, "%s: %s", s->wire, why);
            return -1;
        }
    if (a->att.o.beta > 0 && a->att.o.beta_len < 1) {
        snprintf(err, errlen, "att.beta needs att.beta_len, the original "
                 "length");
        return -1;
    }
    if (a->att.o.head < a->att.o.heads)
        return 0;
    snprintf(err, errlen, "att.head beyond att.heads");
    return -1;
}

/* A tour's check names a split map by its term: the number its header
 * showed in the last frame. */
static int att_quantity(const struct app *a, const void *rt,
                        const char *name, double *v)
{
    const struct att_rt *r = rt;
    (void)a;
    for (int t = 0; t < r->nshown; t++)
        if (strcmp(name, r->shown_name[t]) == 0) {
            *v = r->shown[t];
            return 0;
        }
    return -1;
}

/* The library's defaults, then the rows' (the same values; the rows
 * are what --help says). */
static void att_reset(struct app *a)
{
    memset(&a->att, 0, sizeof a->att);
    scores_defaults(&a->att.o);
    settings_reset(ATTENTION_SETTINGS, a);
}

const struct view VIEW_ATTENTION_DEF = {
    .name = "attention",
    .title = "attention",
    .about = ATT_ABOUT,
    .rt_size = sizeof(struct att_rt),
    .reset = att_reset,
    .params_changed = att_params_changed,
    .layout = att_layout_hook,
    .work = att_work,
    .draw = att_draw,
    .keys = ATT_KEYS,
    .command = att_command,
    .commands = ATT_COMMANDS,
    .fini = att_fini,
    .raster = att_raster,
    .fields = ATT_FIELDS,
    .point_text = att_point_text,
    .fields_check = att_fields_check,
    .quantity = att_quantity,
    .quantities = "e.e, e.p, p.e, p.p: the number over each of the four "
                  "maps (content on, f)",
    .settings = ATTENTION_SETTINGS,
};
