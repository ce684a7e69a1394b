/* SPDX-License-Identifier: ISC */
/*
 * grid.c - the grid view: positions with more than one axis.
 *
 * The query is the token at the cursor (a->p.pos).  The image it sits in
 * (a text query: the nearest image) is drawn as its patch grid at its
 * aspect ratio, two columns and one row per patch (a block of b x b
 * patches per cell pair when it does not fit, showing the block's exact
 * mean), each patch shaded by the score from the query to it.  Under it
 * the whole sequence is a strip of tokens (text, image, video), also
 * shaded, with the query and the key marked.  The panel on the right
 * shows both tokens' (t, h, w), their score, and every frequency slot's
 * axis letter above the density of its term 2 cos(delta omega_k) for
 * this pair: the band margin that says which axis drives which band.
 * c compares with plain 1-D RoPE on the same tokens (t = h = w = index).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "peviz/mpos.h"
#include "peviz/pe_table.h"
#include "peviz/scores.h"
#include "state_field.h"
#include "text.h"

#define GRID_VIEW_MAX_PATCHES 65536     /* frames drawn (H x W tokens) */
#define GRID_STRIP_MAX_WORK (INT64_C(1) << 24)   /* tokens x slots */
#define PANEL_W 30

struct grid_rt {
    int ok;                     /* a plan: mode on, n matches, d fits */
    char why[320];              /* why not */
    int slots;
    double mult;
    double *omega;              /* slots */
    unsigned char *axis;        /* slots */
    double *ca, *cb;            /* --qk's coefficients (slots each), or
                                   NULL: q = k = ones */
    double top;                 /* the largest score: sum |(ca, cb)| */
    int cap;                    /* allocated slots */
    /* the shown frame */
    int seg, frame, gh, gw;     /* segment, frame, its LLM grid */
    int64_t first;              /* its first token */
    int b, by;                  /* patches per cell across and down
                                   (large frames: a block's mean) */
    int z;                      /* cell rows per patch (small frames) */
    int gx, gy, cols, rows;     /* where the grid goes, in cells */
    int gx2;                    /* side by side: the 1-D grid's x */
    int panel_x, strip_y;
};

/* ---- layout ------------------------------------------------------------- */

/* --qk's pair for the head shown, as the export takes it. */
static void qk_plan(const struct app *a, struct grid_rt *r)
{
    const struct pe_table *t = a->qk_table;
    int h = a->att.o.head, d = a->p.d;
    free(r->ca);
    r->ca = r->cb = NULL;
    r->top = 2.0 * r->slots;
    if (!t || t->d != d || h < 0 || 2 * (int64_t)h + 1 >= t->n ||
        !(r->ca = malloc((size_t)d * sizeof *r->ca)))
        return;
    r->cb = r->ca + d / 2;
    const double *q = t->v + (size_t)(2 * h) * (size_t)d;
    mpos_qk_coeffs(q, q + d, d / 2, a->att.o.qk_pairs == QK_HALF, r->ca, r->cb);
    r->top = 0;
    for (int k = 0; k < d / 2; k++)
        r->top += hypot(r->ca[k], r->cb[k]);
}

static int plan(const struct app *a, struct grid_rt *r)
{
    int slots = a->p.d / 2;
    if (slots > r->cap) {
        double *om = realloc(r->omega, (size_t)slots * sizeof *om);
        if (om)
            r->omega = om;
        unsigned char *ax = realloc(r->axis, (size_t)slots);
        if (ax)
            r->axis = ax;
        if (!om || !ax) {
            snprintf(r->why, sizeof r->why, "out of memory");
            return -1;
        }
        r->cap = slots;
    }
    r->slots = slots;
    qk_plan(a, r);
    return mpos_plan(&a->mp, a->p.d, a->p.base, &a->p.rope, a->p.n, r->omega,
                     r->axis, &r->mult, r->why, sizeof r->why);
}

/* The vision segment to draw for token q: its own, else the next one,
 * else the last before it; -1 if the sequence has none. */
static int shown_seg(const struct mpos_conf *m, const struct mpos_tok *q)
{
    if (m->mode == MPOS_AXIAL || q->kind != MPOS_TEXT)
        return q->seg;
    for (int s = q->seg + 1; s < m->nseg; s++)
        if (m->seg[s].kind != MPOS_TEXT)
            return s;
    for (int s = q->seg - 1; s >= 0; s--)
        if (m->seg[s].kind != MPOS_TEXT)
            return s;
    return -1;
}

static void frame_of(const struct app *a, struct grid_rt *r,
                     const struct mpos_tok *q)
{
    const struct mpos_conf *m = &a->mp;
    int t;
    r->seg = shown_seg(m, q);
    r->frame = q->kind == MPOS_TEXT ? 0 : q->frame;
    if (m->mode == MPOS_AXIAL) {
        r->gh = m->grid_h;
        r->gw = m->grid_w;
        r->first = 0;
        return;
    }
    if (r->seg < 0) {
        r->gh = r->gw = 0;
        return;
    }
    mpos_seg_grid(m, r->seg, &t, &r->gh, &r->gw);
    r->first = mpos_seg_start(m, r->seg) + (int64_t)r->frame * r->gh * r->gw;
}

static void grid_lay(const struct app *a, void *rt, int w, int h)
{
    struct grid_rt *r = rt;
    struct mpos_tok q;
    r->ok = 0;
    r->why[0] = 0;
    if (a->mp.mode == MPOS_OFF) {
        snprintf(r->why, sizeof r->why, "No multi-axis positions yet. Type "
                 ":grid 16x16 for an image's patches, each at (x, y) under "
                 "2-D RoPE, or :sequence text:4,image:16x24,text:3 for text "
                 "and an image under M-RoPE (on the command line: --grid "
                 "WxH, --sequence SPEC).");
        return;
    }
    if (a->p.n != mpos_count(&a->mp)) {
        snprintf(r->why, sizeof r->why, "n = %lld, but the %s has %lld "
                 "tokens: r resets", (long long)a->p.n, a->mp.mode ==
                 MPOS_AXIAL ? "grid" : "sequence",
                 (long long)mpos_count(&a->mp));
        return;
    }
    if (plan(a, r) || mpos_token(&a->mp, a->p.pos, &q))
        return;
    frame_of(a, r, &q);
    r->panel_x = w - PANEL_W > 20 ? w - PANEL_W : w;
    r->strip_y = h - 3;
    r->gx = 1;
    r->gy = 2;
    int aw = r->panel_x - 2, ah = r->strip_y - 3;
    if (a->grid.one_d == 2)             /* two grids side by side */
        aw = aw / 2 - 1;
    if (aw < 2 || ah < 1) {
        snprintf(r->why, sizeof r->why, "too small");
        return;
    }
    /* across and down apart: a narrow area still uses its height */
    r->b = r->by = 1;
    while (r->gw > 0 && (r->gw + r->b - 1) / r->b * 2 > aw)
        r->b++;
    while (r->gh > 0 && (r->gh + r->by - 1) / r->by > ah)
        r->by++;
    r->z = 1;
    while (r->b == 1 && r->by == 1 && r->gw > 0 &&
           2 * (r->z + 1) * r->gw <= aw &&
           (r->z + 1) * r->gh <= ah)
        r->z++;
    r->cols = r->gw > 0 ? (r->gw + r->b - 1) / r->b : 0;
    r->rows = r->gh > 0 ? (r->gh + r->by - 1) / r->by : 0;
    r->gx2 = r->gx + 2 * r->z * r->cols + 2;
    r->ok = 1;
}

/* ---- scores --------------------------------------------------------------- */

/* The tokens' ids as M-RoPE (or, one_d, 1-D RoPE: every axis the index). */
static void ids_as(const struct app *a, int one_d, int64_t i, int64_t id[3])
{
    struct mpos_tok t;
    if (one_d) {
        id[0] = id[1] = id[2] = i;
        return;
    }
    mpos_token(&a->mp, i, &t);
    memcpy(id, t.id, sizeof t.id);
}

/* As the panel and the strip show them: 1-D only when c chose it alone. */
static void ids_of(const struct app *a, int64_t i, int64_t id[3])
{
    ids_as(a, a->grid.one_d == 1, i, id);
}

static double score(const struct grid_rt *r, const int64_t qi[3],
                    const int64_t kj[3])
{
    return r->mult * mpos_score_qk(r->omega, r->axis, r->slots, r->ca, r->cb,
                                   qi, kj);
}

/* The block mean of cell (cx, cy) of the shown frame. */
static double cell_mean(const struct app *a, const struct grid_rt *r,
                        int one_d, const int64_t q[3], int cx, int cy)
{
    double s = 0;
    int k = 0;
    for (int y = cy * r->by; y < (cy + 1) * r->by && y < r->gh; y++)
        for (int x = cx * r->b; x < (cx + 1) * r->b && x < r->gw; x++) {
            int64_t id[3];
            ids_as(a, one_d, r->first + (int64_t)y * r->gw + x, id);
            s += score(r, q, id);
            k++;
        }
    return k ? s / k : 0;
}

/* Shade for a score: its place in lo..hi (the values drawn beside it). */
static double unit(double s, double lo, double hi)
{
    return hi > lo ? (s - lo) / (hi - lo) : 1;
}

static void shade(const struct app *a, canvas *c, int x, int y, double t)
{
    rgb col = cmap_sequential(a->palette, t);
    int lv = cmap_level(t);
    canvas_half(c, x, 2 * y, col, lv);
    canvas_half(c, x, 2 * y + 1, col, lv);
}

/* ---- drawing ---------------------------------------------------------------- */

/* A patch cell pair at patch-cell (cx, cy), z x z patches big. */
static void patch_at(const struct app *a, const struct grid_rt *r,
                     canvas *c, int gx, int cx, int cy, double t)
{
    for (int dy = 0; dy < r->z; dy++)
        for (int dx = 0; dx < 2 * r->z; dx++)
            shade(a, c, gx + 2 * r->z * cx + dx, r->gy + r->z * cy + dy, t);
}

/* Token i's cell in the shown frame into *cx, *cy: 0, or -1 if not in it. */
static int cell_of(const struct grid_rt *r, int64_t i, int *cx, int *cy)
{
    int64_t per = (int64_t)r->gh * r->gw;
    if (i < r->first || i >= r->first + per)
        return -1;
    *cy = (int)((i - r->first) / r->gw / r->by);
    *cx = (int)((i - r->first) % r->gw / r->b);
    return 0;
}

/* Under a frame at column x, at most w cells: its score range, whole
 * (two frames side by side: the longest form that leaves a blank before
 * the next one). */
static void patches_range(const struct app *a, const struct grid_rt *r,
                          canvas *c, int x, int w, double lo, double hi)
{
    char t[3][96];
    int y = r->gy + r->z * r->rows + 1, n = 3;
    rgb fg = ui_color(a->palette, UI_TEXT);
    if (a->grid.one_d != 2) {
        canvas_printf(c, x, y, w, fg, RGB_DEFAULT, 0,
                      "S from Q%s: %.6g .. %.6g (densest)",
                      r->b < 2 && r->by < 2 ? "" : " (cell: block mean)",
                      lo, hi);
        return;
    }
    snprintf(t[0], sizeof t[0], "%s%.5g..%.5g",
             r->b < 2 && r->by < 2 ? "" : "means ",
             lo, hi);
    snprintf(t[1], sizeof t[1], "%.5g..%.5g", lo, hi);
    snprintf(t[2], sizeof t[2], "%.3g..%.3g", lo, hi);
    for (int i = 0; i < n; i++)
        if ((int)strlen(t[i]) < w || i == n - 1) {
            canvas_text(c, x, y, w - 1, t[i], fg, RGB_DEFAULT, 0);
            return;
        }
}

/* The shown frame at column gx, scored as M-RoPE or (one_d) 1-D RoPE. */
static void draw_patches(const struct app *a, const struct grid_rt *r,
                         canvas *c, int gx, int one_d, int legend_w)
{
    rgb dim = ui_color(a->palette, UI_DIM), cur = ui_color(a->palette, UI_CURSOR);
    double *v = malloc((size_t)r->rows * (size_t)r->cols * sizeof *v);
    double lo = INFINITY, hi = -INFINITY;
    int64_t q[3];
    int x, y;
    if (!v)
        return;
    ids_as(a, one_d, a->p.pos, q);
    for (int cy = 0; cy < r->rows; cy++)
        for (int cx = 0; cx < r->cols; cx++) {
            double m = v[cy * r->cols + cx] = cell_mean(a, r, one_d, q, cx, cy);
            lo = m < lo ? m : lo;
            hi = m > hi ? m : hi;
        }
    canvas_box(c, gx - 1, r->gy - 1, 2 * r->z * r->cols + 2,
               r->z * r->rows + 2, dim, a->grid.one_d != 2 ? NULL : one_d
               ? "1-D" : a->mp.mode == MPOS_AXIAL ? "2-D" : "M-RoPE");
    for (int cy = 0; cy < r->rows; cy++)
        for (int cx = 0; cx < r->cols; cx++)
            patch_at(a, r, c, gx, cx, cy, unit(v[cy * r->cols + cx], lo, hi));
    free(v);
    if (cell_of(r, a->grid.key, &x, &y) == 0) {
        canvas_put(c, gx + 2 * r->z * x + 2 * r->z - 1, r->gy + r->z * y,
                   'k', cur, RGB_DEFAULT, ATTR_REVERSE | ATTR_BOLD);
        view_point_mark(a, c, gx + 2 * r->z * x + 2 * r->z - 1,
                        r->gy + r->z * y, 1);
    }
    if (cell_of(r, a->p.pos, &x, &y) == 0)
        canvas_put(c, gx + 2 * r->z * x, r->gy + r->z * y, 'Q', cur,
                   RGB_DEFAULT, ATTR_REVERSE | ATTR_BOLD);
    if (r->gy + r->z * r->rows + 1 < r->strip_y)
        patches_range(a, r, c, gx - 1, legend_w, lo, hi);
}

static char kind_letter(const struct mpos_conf *m, int64_t i)
{
    struct mpos_tok t;
    if (mpos_token(m, i, &t))
        return '?';
    return m->mode == MPOS_AXIAL ? 'p' : "tiv"[t.kind];
}

/* Under the strip, beside its marks at columns qx and kx: the tokens,
 * and the strip's own shading scale (its cells' lowest and highest mean
 * score, not the frame's), where it fits. */
static void strip_legend(canvas *c, int y, int qx, int kx, rgb txt, int64_t n,
                         int64_t per, int scored, double lo, double hi)
{
    char t[2][96];
    snprintf(t[0], sizeof t[0], "%lld tokens, %lld/cell, shade S %.5g..%.5g",
             (long long)n, (long long)per, lo, hi);
    snprintf(t[1], sizeof t[1], "%lld tokens, %lld/cell",
             (long long)n, (long long)per);
    for (int i = scored ? 0 : 1; i < 2; i++) {
        int len = (int)strlen(t[i]), x = qx + 2;
        if (x + len > c->w)                 /* left of the marks instead */
            x = (qx < kx ? qx : kx) - 1 - len;
        if (x >= 0 && x + len <= c->w) {
            canvas_text(c, x, y, len, t[i], txt, RGB_DEFAULT, 0);
            return;
        }
    }
}

/* The sequence strip: one cell per block of tokens, their mean score;
 * under it the kinds and the query and key marks. */
static void draw_strip(const struct app *a, const struct grid_rt *r,
                       canvas *c, const int64_t q[3])
{
    int w = c->w - 6, y = r->strip_y;
    int64_t n = a->p.n;
    rgb txt = ui_color(a->palette, UI_TEXT), cur = ui_color(a->palette, UI_CURSOR);
    if (w < 4 || y < 1)
        return;
    int64_t per = (n + w - 1) / w;        /* tokens per cell */
    int cells = (int)((n + per - 1) / per);
    int scored = n * r->slots <= GRID_STRIP_MAX_WORK;
    canvas_text(c, 0, y, 5, scored ? "seq" : "seq*", txt, RGB_DEFAULT, 0);
    canvas_text(c, 0, y + 1, 5, "kind", txt, RGB_DEFAULT, 0);
    double lo = INFINITY, hi = -INFINITY;
    for (int pass = 0; pass < 2 * scored; pass++)
        for (int k = 0; k < cells; k++) {
            int64_t i0 = k * per, i1 = i0 + per < n ? i0 + per : n;
            double s = 0;
            for (int64_t j = i0; j < i1; j++) {
                int64_t id[3];
                ids_of(a, j, id);
                s += score(r, q, id);
            }
            s /= (double)(i1 - i0);
            if (pass)
                shade(a, c, 5 + k, y, unit(s, lo, hi));
            lo = s < lo ? s : lo;
            hi = s > hi ? s : hi;
        }
    for (int k = 0; k < cells; k++)
        canvas_put(c, 5 + k, y + 1, (uint32_t)kind_letter(&a->mp, k * per),
                   txt, RGB_DEFAULT, 0);
    int qk = (int)(a->p.pos / per), kk = (int)(a->grid.key / per);
    canvas_put(c, 5 + kk, y + 2, 'k', cur, RGB_DEFAULT, ATTR_BOLD);
    canvas_put(c, 5 + qk, y + 2, '^', cur, RGB_DEFAULT, ATTR_BOLD);
    strip_legend(c, y + 2, 5 + qk, 5 + kk, txt, n, per, scored, lo, hi);
}

static void tok_line(const struct app *a, canvas *c, int x, int y,
                     const char *who, int64_t i)
{
    struct mpos_tok t;
    static const char *const KIND[] = { "text", "image", "video" };
    rgb txt = ui_color(a->palette, UI_TEXT);
    mpos_token(&a->mp, i, &t);
    if (a->mp.mode == MPOS_AXIAL)
        canvas_printf(c, x, y, PANEL_W, txt, RGB_DEFAULT, 0,
                      "%s %lld x=%lld y=%lld", who, (long long)i,
                      (long long)t.id[MPOS_W], (long long)t.id[MPOS_H]);
    else
        canvas_printf(c, x, y, PANEL_W, txt, RGB_DEFAULT, 0,
                      "%s %lld %s t%lld h%lld w%lld", who, (long long)i,
                      KIND[t.kind], (long long)t.id[0], (long long)t.id[1],
                      (long long)t.id[2]);
}

/* Every slot: its axis letter, and under it the density of its term for
 * the query and the key, as many slots a line as the panel holds. */
static int draw_slots(const struct app *a, const struct grid_rt *r,
                      canvas *c, int x, int y, int ymax, const int64_t q[3],
                      const int64_t k[3])
{
    int vit = a->mp.mode == MPOS_AXIAL, per = PANEL_W - 2;
    rgb txt = ui_color(a->palette, UI_TEXT);
    for (int s0 = 0; s0 < r->slots && y + 1 < ymax; s0 += per, y += 2)
        for (int s = s0; s < s0 + per && s < r->slots; s++) {
            int ax = r->axis[s];
            double d = (double)(q[ax] - k[ax]) * r->omega[s];
            canvas_text(c, x + s - s0, y, 1, mpos_axis_name(ax, vit), txt,
                        RGB_DEFAULT, 0);
            shade(a, c, x + s - s0, y + 1, unit(cos(d), -1, 1));
        }
    return y;
}

static void draw_panel(const struct app *a, const struct grid_rt *r,
                       canvas *c, const int64_t q[3])
{
    int x = r->panel_x + 1, y = 1;
    int64_t k[3];
    rgb txt = ui_color(a->palette, UI_TEXT), dim = ui_color(a->palette, UI_DIM);
    if (r->panel_x >= c->w)
        return;
    ids_of(a, a->grid.key, k);
    tok_line(a, c, x, y++, "Q", a->p.pos);
    tok_line(a, c, x, y++, "k", a->grid.key);
    canvas_printf(c, x, y++, PANEL_W - 1, txt, RGB_DEFAULT, 0,
                  "S(Q,k) = %.4g of %.4g", score(r, q, k),
                  r->top * r->mult);
    canvas_text(c, x, y++, PANEL_W - 1, a->mp.mode == MPOS_AXIAL
                ? "slot axis, cos of its turn:" : "slot axis, cos(d*omega):",
                dim, RGB_DEFAULT, 0);
    draw_slots(a, r, c, x, y, r->strip_y, q, k);
}

static void draw_title(const struct app *a, const struct grid_rt *r,
                       canvas *c)
{
    rgb txt = ui_color(a->palette, UI_TEXT);
    int sec[3];
    static const char *const PE[] = { "M-RoPE", "1-D RoPE (c)",
                                      "M-RoPE | 1-D (c)" };
    const char *pe = PE[a->grid.one_d];
    mpos_section(&a->mp, r->slots, sec);
    if (a->mp.mode == MPOS_AXIAL)
        canvas_printf(c, 0, 0, -1, txt, RGB_DEFAULT, ATTR_BOLD,
                      "%s %dx%d patches, d %d, base %g", a->grid.one_d == 1
                      ? "1-D RoPE (c)" : a->grid.one_d ? "2-D | 1-D (c)"
                      : "2-D RoPE", r->gw, r->gh, a->p.d,
                      a->p.base);
    else if (r->seg >= 0)
        canvas_printf(c, 0, 0, -1, txt, RGB_DEFAULT, ATTR_BOLD,
                      "%s %s %d,%d,%d  part %d: frame %d/%d, %dx%d tokens",
                      pe, a->mp.interleaved ? "interleaved" : "sections",
                      sec[0], sec[1], sec[2], r->seg + 1, r->frame + 1,
                      a->mp.seg[r->seg].t, r->gh, r->gw);
    else
        canvas_printf(c, 0, 0, -1, txt, RGB_DEFAULT, ATTR_BOLD,
                      "%s %d,%d,%d  (text only)", pe, sec[0], sec[1], sec[2]);
}

static void grid_draw(const struct app *a, void *rt, canvas *c, char *hint,
                      size_t hintlen)
{
    const struct grid_rt *r = rt;
    int64_t q[3];
    if (!r->ok) {
        char line[sizeof r->why];
        const char *s = r->why;
        for (int y = c->h / 3; *s && y < c->h; y++) {   /* wrapped at words */
            size_t used = text_wrap_line(s, c->w - 2, line, sizeof line);
            if (!used)
                break;
            canvas_text(c, 1, y, c->w - 2, line, ui_color(a->palette, UI_WARN),
                        RGB_DEFAULT, 0);
            s += used;
        }
        snprintf(hint, hintlen, "%s", "");
        return;
    }
    ids_of(a, a->p.pos, q);
    draw_title(a, r, c);
    if (r->gh * (int64_t)r->gw > GRID_VIEW_MAX_PATCHES)
        canvas_text(c, 1, 3, r->panel_x - 1, "frame too large to draw here;"
                    " use --export scores", ui_color(a->palette, UI_WARN),
                    RGB_DEFAULT, 0);
    else if (r->gh > 0 && a->grid.one_d == 2) {
        draw_patches(a, r, c, r->gx, 0, r->gx2 - r->gx);
        draw_patches(a, r, c, r->gx2, 1, r->gx2 - r->gx);  /* alike */
    } else if (r->gh > 0) {
        draw_patches(a, r, c, r->gx, a->grid.one_d, r->panel_x - 1);
    }
    draw_panel(a, r, c, q);
    draw_strip(a, r, c, q);
    snprintf(hint, hintlen, "Q %lld  k %lld", (long long)a->p.pos,
             (long long)a->grid.key);
}

/* ---- keys and state --------------------------------------------------------- */

static void grid_params_changed(struct app *a)
{
    if (a->grid.key >= a->p.n)
        a->grid.key = a->p.n - 1;
    if (a->grid.key < 0)
        a->grid.key = 0;
}

/* One step of token i: across, or up and down a row of its image. */
static int64_t step(const struct app *a, int64_t i, int key)
{
    struct mpos_tok t;
    int64_t d = 1;
    int th, tw, tt;
    int up = key == PK_UP || key == 'k' || key == 'K';
    int down = key == PK_DOWN || key == 'j' || key == 'J';
    if (mpos_token(&a->mp, i, &t))
        return i;
    if ((up || down) && t.kind != MPOS_TEXT) {
        if (a->mp.mode == MPOS_AXIAL)
            tw = a->mp.grid_w;
        else
            mpos_seg_grid(&a->mp, t.seg, &tt, &th, &tw);
        d = tw;
    }
    if (up || key == PK_LEFT || key == 'h' || key == 'H')
        d = -d;
    i += d;
    return i < 0 ? 0 : i >= a->p.n ? a->p.n - 1 : i;
}

static int key_query(struct app *a, void *rt, int key)
{
    (void)rt;
    if (a->mp.mode == MPOS_OFF)
        return 0;
    a->p.pos = step(a, a->p.pos, key);
    a->pos_frac = 0;
    return 1;
}

static int key_key(struct app *a, void *rt, int key)
{
    (void)rt;
    if (a->mp.mode != MPOS_OFF)
        a->grid.key = step(a, a->grid.key, key);
    return 1;
}

static int key_swap(struct app *a, void *rt, int key)
{
    int64_t q = a->p.pos;
    (void)rt;
    (void)key;
    a->p.pos = a->grid.key;
    a->grid.key = q;
    return 1;
}

/* What the scores are of, by grid.one_d. */
static void said_one_d(struct app *a)
{
    static const char *const SAY[] = {
        "multi-axis positions", "1-D RoPE: every axis the token index",
        "multi-axis positions beside 1-D RoPE",
    };
    app_msg(a, 0, "%s", SAY[a->grid.one_d % 3]);
}

static int key_one_d(struct app *a, void *rt, int key)
{
    (void)rt;
    (void)key;
    a->grid.one_d = a->grid.one_d == 0 ? 2 : a->grid.one_d == 2 ? 1 : 0;
    said_one_d(a);
    return 1;
}

/* grid.one_d's words: the multi-axis scores, 1-D RoPE's alone, both. */
static const char *one_d_word(int k)
{
    static const char *const W[] = { "none", "alone", "beside" };
    return k >= 0 && k < 3 ? W[k] : NULL;
}

/* Put next in place of the positions, if its slots fit d: n follows. */
static int take(struct app *a, const struct mpos_conf *next, const char *cmd,
                const char *arg)
{
    char err[200];
    unsigned char *axis = malloc((size_t)a->p.d / 2 + 1);
    int r = !axis ? -1 : mpos_check(next, err, sizeof err) ? -1
            : mpos_axes(next, a->p.d / 2, axis, err, sizeof err);
    free(axis);
    int sec[3], fit[3];
    mpos_section(next, a->p.d / 2, sec);
    if (r && axis && next->interleaved && next->mode == MPOS_MROPE &&
        sec[0] + sec[1] + sec[2] == a->p.d / 2 &&
        !mpos_interleave_fit(sec, a->p.d / 2, fit) &&
        !mpos_check(next, err, sizeof err)) {
        app_msg(a, 1, ":%s %.40s: sections %d,%d,%d do not interleave over "
                "%d slots; type :section %d,%d,%d%s", cmd, arg, sec[0], sec[1],
                sec[2], a->p.d / 2, fit[0], fit[1], fit[2],
                strcmp(cmd, "interleaved") ? "" : ", then :interleaved on");
        return 1;
    }
    if (r) {
        app_msg(a, 1, ":%s %.40s: %s", cmd, arg, axis ? err : "out of memory");
        return 1;
    }
    a->mp = *next;
    a->p.n = mpos_count(next);
    if (a->p.pos >= a->p.n)
        a->p.pos = a->p.n - 1;
    app_params_changed(a);
    app_msg(a, 0, ":%s %.40s: %lld tokens", cmd, arg, (long long)a->p.n);
    return 1;
}

/* :sequence SPEC, :grid WxH, :section T,H,W, :interleaved on|off. */
static int grid_command(struct app *a, void *rt, const char *name,
                        const char *arg)
{
    struct mpos_conf next = a->mp;
    char err[200];
    int w, h, s[3], used = -1;
    (void)rt;
    if (strcmp(name, "sequence") == 0) {
        if (next.mode != MPOS_MROPE)
            mpos_conf_default(&next);
        if (mpos_parse_sequence(&next, arg, err, sizeof err) == 0)
            return take(a, &next, name, arg);
    } else if (strcmp(name, "grid") == 0) {
        snprintf(err, sizeof err, "want WxH patches, each 1..%d",
                 MPOS_GRID_MAX);
        if (sscanf(arg, "%dx%d%n", &w, &h, &used) == 2 && used > 0 &&
            !arg[used] && w >= 1 && h >= 1 && w <= MPOS_GRID_MAX &&
            h <= MPOS_GRID_MAX && (int64_t)w * h <= MPOS_TOKENS_MAX) {
            mpos_conf_default(&next);
            next.mode = MPOS_AXIAL;
            next.grid_w = w;
            next.grid_h = h;
            return take(a, &next, name, arg);
        }
    } else if (strcmp(name, "section") == 0) {
        snprintf(err, sizeof err, "want T,H,W slots, summing to d/2");
        if (sscanf(arg, "%d,%d,%d%n", &s[0], &s[1], &s[2], &used) == 3 &&
            used > 0 && !arg[used] && s[0] >= 0 && s[1] >= 0 && s[2] >= 0 &&
            s[0] + s[1] + s[2] > 0 && next.mode == MPOS_MROPE) {
            memcpy(next.section, s, sizeof s);
            return take(a, &next, name, arg);
        }
    } else if (strcmp(name, "interleaved") == 0) {
        snprintf(err, sizeof err, "want on or off, with a :sequence");
        if ((!strcmp(arg, "on") || !strcmp(arg, "off")) &&
            next.mode == MPOS_MROPE) {
            next.interleaved = !strcmp(arg, "on");
            return take(a, &next, name, arg);
        }
    } else {
        return 0;
    }
    app_msg(a, 1, ":%s %.40s: %s", name, arg, err);
    return 1;
}

/* The ':' commands only this view takes, beside its rows' (:grid and
 * :sequence bring the view from any other: app.c). */
static const char *const GRID_COMMANDS[] = { "section", "interleaved", NULL };

static const struct keybind GRID_KEYS[] = {
    KEYS_ARROWS(ACT_VIEW_KEY, ACT_VIEW_KEY, ACT_VIEW_KEY, ACT_VIEW_KEY,
                "arrows hjkl", "move the query Q (up, down: a row)",
                key_query),
    { 'H',      ACT_VIEW_KEY, "HJKL",    "move the key k", key_key },
    { 'J',      ACT_VIEW_KEY, NULL,      NULL, key_key },
    { 'K',      ACT_VIEW_KEY, NULL,      NULL, key_key },
    { 'L',      ACT_VIEW_KEY, NULL,      NULL, key_key },
    { 'x',      ACT_VIEW_KEY, "x",       "swap Q and k", key_swap },
    { 'c',      ACT_VIEW_KEY, "c",       "compare: beside 1-D RoPE, then 1-D alone", key_one_d },
    { 0,        ACT_NONE,     NULL,      NULL, NULL }
};

static void grid_fini(void *rt)
{
    struct grid_rt *r = rt;
    free(r->omega);
    free(r->axis);
    free(r->ca);
}

static const struct state_field GRID_FIELDS[] = {
    SF_ROW_BOUND("grid.key", SF_I64, grid.key, 0, SF_POS),
    SF_ROW_INT("grid.one_d", grid.one_d, 0, 2),
    { 0 }
};

#define GRID_WHERE (SET_CLI | SET_PROMPT | SET_TOUR | SET_FOLLOW)

/* The view's settings' rows (settings.h). */
static const struct setting GRID_SETTINGS[] = {
    { .name = "grid-key", .prompt = "key", .type = SET_I64,
      .off = SET_OFF(grid.key), .lo = 0, .bound = SETB_LAST,
      .bound_name = "n-1", .def = "0", .arg = "K",
      .help = "grid: the key token k (the query is --pos)",
      .where = GRID_WHERE, .wire = "grid.key" },
    { .name = "one-d", .type = SET_WORD, .off = SET_OFF(grid.one_d),
      .word = one_d_word, .def = "none", .arg = "HOW",
      .help = "grid: 1-D RoPE's scores (c)", .where = GRID_WHERE,
      .wire = "grid.one_d", .changed = said_one_d },
    { 0 }
};

static void grid_reset(struct app *a)
{
    settings_reset(GRID_SETTINGS, a);
}

static void grid_point_text(const struct app *a, char *t, size_t len)
{
    snprintf(t, len, "key token k=%lld", (long long)a->grid.key);
}

const struct view VIEW_GRID_DEF = {
    .name = "grid", .title = "multi-axis positions",
    .rt_size = sizeof(struct grid_rt), .reset = grid_reset,
    .params_changed = grid_params_changed, .fini = grid_fini,
    .layout = grid_lay, .draw = grid_draw, .point_text = grid_point_text,
    .keys = GRID_KEYS, .fields = GRID_FIELDS, .settings = GRID_SETTINGS,
    .command = grid_command, .commands = GRID_COMMANDS,
    .about =
        "Positions with more than one axis. With --sequence a token's "
        "position is (t, h, w) as Qwen2-VL's get_rope_index assigns it: "
        "text moves all three, an image spreads over its grid, and M-RoPE "
        "turns each frequency slot by one axis. With --grid a ViT patch "
        "is (x, y) and 2-D RoPE turns half the slots by each. The image "
        "of the query Q is drawn on its patch grid, shaded by the score "
        "from Q to each patch (q = k = ones); the strip below is the "
        "whole sequence. The panel shows Q's and the key k's ids and each "
        "slot's axis over the cosine of its turn for that pair: patches "
        "in Q's row differ only in the w slots. c shows plain 1-D RoPE on "
        "the same tokens, where a row's neighbours and the row below are "
        "far apart.",
};
