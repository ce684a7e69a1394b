/* SPDX-License-Identifier: ISC */
/*
 * attention.c - the attention view: the score matrix S(i, j) of a
 * position scheme (rows = query i, columns = key j), with softmax, the
 * causal mask, the 1/sqrt(d) temperature and word-embedding content,
 * an inspector at the cursor (attention_inspect.c) and a profile below
 * (S against distance, or the cursor row).  The layout is
 * attention_layout.c's, the keys and : commands attention_keys.c's.
 *
 * Cost: a frame draws cached block cells (scores.c computes them once per
 * change of parameters, toggles or window, exactly, in slices between
 * frames when the work is large: the work hook).  The caches live in the
 * view's runtime object (struct att_rt), keyed inside scores.c by
 * everything the numbers depend on.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "axis.h"
#include "glyph.h"
#include "params.h"
#include "peviz/score_grid.h"
#include "plot.h"
#include "raster.h"
#include "state_field.h"
#include "text.h"
#include "views/attention_inspect.h"
#include "views/attention_keys.h"
#include "views/attention_layout.h"
#include "views/attention_settings.h"

/* ---- small helpers ---------------------------------------------------------- */

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static void num(double v, char *buf, size_t len)
{
    fmt_num(v, 4, buf, len);
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
    return t < 0 ? score_grid_cell(g, r, c) : score_grid_term(g, t, r, c);
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
        attention_inspect_term_label(a, s->terms[t].name, name, sizeof name);
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
        { "softmax", s->o.softmax },
        { "mask", s->o.causal || scores_banded(&s->o) },
        { glyph_pick(a->ascii, "1/\xe2\x88\x9a" "d", "1/sqrt(d)"), s->o.temperature },
        { "content", s->o.content },
    };
    int tw = 0;     /* each toggle: "[label]" when on, " label " off */
    for (size_t i = 0; i < sizeof tg / sizeof tg[0]; i++)
        tw += text_width(tg[i].label) + 2;
    char f[96];
    snprintf(f, sizeof f, "  S = %s", schemes_formula(s, a->ascii));
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
    int exact = s->o.softmax && score_grid_softmax_at(rt->grid, s, a->att.ci,
                                                      a->att.cj, &p, row) == 0;
    if (!exact)
        for (int cc = 0; cc < n; cc++)
            row[cc] = score_grid_cell(rt->grid, r, cc);
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
    attention_inspect(&ls, a, s, rt);
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
        r->grid = score_grid_new();
    if (!s || !r->grid) {
        scores_free(s);
        r->st = GRID_REFUSED;
        snprintf(r->why, sizeof r->why, "attention: out of memory");
        return 0;
    }
    struct grid_req rq = layout_req(&r->L);
    r->st = score_grid_update(r->grid, s, &rq, budget, &r->prog, r->why,
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
    score_grid_free(((struct att_rt *)rt)->grid);
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
    ATT_SET_ROW("att.window"),
    ATT_SET_ROW("att.chunk"),
    ATT_SET_ROW("att.sink"),
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
    .name = "attention", .title = "attention", .rt_size = sizeof(struct att_rt),
    .reset = att_reset, .params_changed = att_params_changed, .fini = att_fini,
    .layout = attention_layout_fit, .work = att_work, .draw = att_draw,
    .raster = att_raster, .point_text = att_point_text, .keys = ATTENTION_KEYS,
    .key_help = attention_keys_help, .fields = ATT_FIELDS,
    .fields_check = att_fields_check, .settings = ATTENTION_SETTINGS,
    .command = attention_keys_command, .commands = ATTENTION_COMMANDS,
    .quantity = att_quantity,
    .quantities = "e.e, e.p, p.e, p.p: the number over each of the four maps "
                  "(content on, f)",
    .about = ATT_ABOUT,
};
