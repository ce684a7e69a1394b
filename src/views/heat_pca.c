/* SPDX-License-Identifier: ISC */
/*
 * heat_pca.c - the heatmap view's principal-component panel (heat_pca.h).
 */
#include "views/heat_pca.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colormap.h"
#include "lineart.h"
#include "peviz/pe.h"
#include "plot.h"
#include "raster.h"
#include "text.h"
#include "views/clocks.h"

#define CURVE_POINTS 4096

void heat_pca_free(struct heat_pca_rt *r)
{
    pca_work_free(r->work);
    pca_free(&r->res);
    free(r->own);
    free(r->proj);
    memset(r, 0, sizeof *r);
}

void heat_pca_pair(const struct app *a, int *i, int *j)
{
    *i = a->heat.pca_i > 0 ? a->heat.pca_i - 1 : 0;
    *j = a->heat.pca_j > 0 ? a->heat.pca_j - 1 : 1;
    if (*i == *j)
        *j = *i == 0 ? 1 : 0;
}

/* The components to compute: the three plotted and the pair. */
static int wanted(const struct app *a)
{
    int i, j;
    heat_pca_pair(a, &i, &j);
    int k = i + 1 > j + 1 ? i + 1 : j + 1;
    return k > HEAT_PCA_K ? k : HEAT_PCA_K;
}

/* Start over on table t, or on the sinusoids when t is NULL. */
static void restart(const struct app *a, const struct pe_table *t,
                    struct heat_pca_rt *r)
{
    heat_pca_free(r);
    r->n = t ? t->n : a->p.n;
    r->d = t ? t->d : a->p.d;
    r->base = t ? 0 : a->p.base;
    r->src = t ? t->v : NULL;
    if ((double)r->n * r->d > (double)PE_TABLE_MAX_VALUES || r->n < 3) {
        r->state = HP_TOO_BIG;
        return;
    }
    if (!t) {
        r->own = malloc((size_t)r->n * (size_t)r->d * sizeof *r->own);
        if (r->own)
            pe_fill_f64(0, r->n, r->d, r->base, r->own);
        r->src = r->own;
    }
    /* n centred rows span at most n - 1 directions */
    r->want = wanted(a);
    int k = r->d < r->want ? r->d : r->want;
    if (k > r->n - 1)
        k = (int)r->n - 1;
    r->work = r->src ? pca_begin(r->src, r->n, r->d, k) : NULL;
    r->state = r->work ? HP_BUSY : HP_FAILED;
}

static int same_source(const struct app *a, const struct pe_table *t,
                       const struct heat_pca_rt *r)
{
    if (r->state == HP_IDLE || r->want < wanted(a))
        return 0;
    if (t)
        return r->base == 0 && r->src == t->v && r->n == t->n && r->d == t->d;
    return r->base == a->p.base && r->n == a->p.n && r->d == a->p.d;
}

static void project_all(struct heat_pca_rt *r)
{
    int k = r->res.k;
    r->proj = malloc((size_t)r->n * (size_t)k * sizeof *r->proj);
    if (!r->proj) {
        r->state = HP_FAILED;
        return;
    }
    for (int64_t p = 0; p < r->n; p++)
        pca_project(&r->res, r->src + p * r->d, r->proj + p * k);
    r->state = HP_DONE;
}

int heat_pca_work(const struct app *a, const struct pe_table *t,
                  struct heat_pca_rt *r, int64_t budget)
{
    if (!same_source(a, t, r))
        restart(a, t, r);
    if (r->state != HP_BUSY)
        return 0;
    int s = pca_step(r->work, budget);
    if (s == 1)
        return 1;
    if (s < 0 || pca_take(r->work, &r->res)) {
        r->state = HP_FAILED;
    } else {
        project_all(r);
    }
    pca_work_free(r->work);
    r->work = NULL;
    return 0;
}

/* ---- drawing ------------------------------------------------------------- */

/* Means of component c over m equal blocks of positions. */
static void block_means(const struct heat_pca_rt *r, int c, int m, double *out)
{
    int k = r->res.k;
    for (int b = 0; b < m; b++) {
        int64_t p0 = r->n * b / m, p1 = r->n * (b + 1) / m;
        double s = 0;
        for (int64_t p = p0; p < p1; p++)
            s += r->proj[p * k + c];
        out[b] = p1 > p0 ? s / (double)(p1 - p0) : NAN;
    }
}

/* The label of component c (0-based) on its curve: 1..9, then a, b, ... */
static char comp_mark(int c)
{
    return c < 9 ? (char)('1' + c) : (char)('a' + (c - 9) % 26);
}

/* The components the line plot shows: the first three, or the pair
 * when :pca chose another; how many into *k. */
static void plotted(const struct app *a, const struct heat_pca_rt *r,
                    int *comp, int *k)
{
    int i, j;
    heat_pca_pair(a, &i, &j);
    *k = 0;
    if (i == 0 && j == 1) {
        for (int c = 0; c < r->res.k && c < HEAT_PCA_K; c++)
            comp[(*k)++] = c;
        return;
    }
    if (i < r->res.k)
        comp[(*k)++] = i;
    if (j < r->res.k)
        comp[(*k)++] = j;
}

static void draw_plot(const struct app *a, const struct heat_pca_rt *r,
                      canvas *c, int x, int y, int w, int h)
{
    int comp[HEAT_PCA_K], k, m = (int)(r->n < 2 * w ? r->n : 2 * w);
    plotted(a, r, comp, &k);
    double *ys = malloc((size_t)(k ? k : 1) * (size_t)m * sizeof *ys);
    struct plot_series ser[HEAT_PCA_K];
    char title[96];
    int at = 0;
    if (!ys || m < 1 || k < 1)
        goto out;
    for (int i = 0; i < k; i++) {
        block_means(r, comp[i], m, ys + (size_t)i * (size_t)m);
        /* each curve carries its component's number and its own line
         * style: they read apart without colour too */
        ser[i] = (struct plot_series){ ys + (size_t)i * (size_t)m, m,
                                      ui_color(a->palette,
                                               (enum ui_color)(UI_PLOT_A + i)),
                                      k > 1 ? comp_mark(comp[i]) : 0, i };
        at += snprintf(title + at, sizeof title - (size_t)at, "PC%d ",
                       comp[i] + 1);
    }
    at += snprintf(title + at, sizeof title - (size_t)at, "against position");
    for (int i = 0; i < k; i++)         /* past the rank: 0, and said */
        if (comp[i] >= r->res.rank) {
            snprintf(title + at, sizeof title - (size_t)at, " (PC%d%s = 0: "
                     "rank %d)", comp[i] + 1, i + 1 < k ? " on" : "",
                     r->res.rank);
            break;
        }
    struct plot_spec sp = {
        .title = title,
        .xlabel = "pos", .x0 = 0.5 * (double)r->n / m - 0.5,
        .dx = (double)r->n / m, .xmin = 0, .xmax = (double)(r->n - 1),
        .x_integer = 1, .zero_line = 1, .mark_x = (double)a->p.pos,
        .mark_label = "pos",
    };
    plot_lines(c, x, y, w, h, &sp, ser, k, a->palette);
out:
    free(ys);
}

/* Dot coordinates of the point (u, v) on a face of radius rad. */
static void to_dots(double u, double v, double scale, int cx, int cy, int rad,
                    int *px, int *py)
{
    *px = cx + (int)lround(u / scale * rad);
    *py = cy - (int)lround(v / scale * rad);
}

static void draw_curve(const struct app *a, const struct heat_pca_rt *r,
                       int pi, int pj, canvas *c, int cx, int cy, int rad,
                       double scale)
{
    int m = (int)(r->n < CURVE_POINTS ? r->n : CURVE_POINTS);
    double *u = malloc(2 * (size_t)m * sizeof *u);
    if (!u)
        return;
    block_means(r, pi, m, u);
    block_means(r, pj, m, u + m);
    rgb col = ui_color(a->palette, UI_PLOT_A);
    int px0 = 0, py0 = 0;
    for (int i = 0; i < m; i++) {
        int px, py;
        to_dots(u[i], u[m + i], scale, cx, cy, rad, &px, &py);
        if (i)
            canvas_line(c, px0, py0, px, py, col);
        px0 = px;
        py0 = py;
    }
    free(u);
}

/* What is said of component c beyond the table's rank ("" if not). */
static const char *beyond(const struct heat_pca_rt *r, int c, char *buf,
                          size_t len)
{
    buf[0] = 0;
    if (c >= r->res.rank)
        snprintf(buf, len, " (PC%d: beyond rank %d, 0)", c + 1, r->res.rank);
    return buf;
}

/* Rows of the face in the box (x, y, w, h) beside the plot: it is
 * 2 * rows cells wide, from (x, y + 1). */
static int face_rows(int w, int h)
{
    return h - 2 < (w - 4) / 2 ? h - 2 : (w - 4) / 2;
}

/* The largest distance from the centre of the pair's curve. */
static double face_scale(const struct heat_pca_rt *r, int pi, int pj)
{
    int k = r->res.k;
    double scale = 0;
    for (int64_t p = 0; p < r->n; p++)
        scale = fmax(scale, hypot(r->proj[p * k + pi], r->proj[p * k + pj]));
    return scale;
}

/* The face's hand, axes and colours (its cx, cy, r: rad dots round
 * (cx, cy)); 0, or -1 when the position is past the table (no hand). */
static int face_spec(const struct app *a, const struct heat_pca_rt *r, int pi,
                     int pj, int cx, int cy, int rad, struct clock_face *f)
{
    *f = (struct clock_face){
        .cx = cx, .cy = cy, .r = rad, .axes = 1,
        .ring = ui_color(a->palette, UI_DIM),
        .hand = ui_color(a->palette, UI_TEXT),
        .axis = ui_color(a->palette, UI_AXIS),
        .tip = a->ascii ? RASTER_ART_TIP : 0,
    };
    if (a->p.pos >= r->n)
        return -1;
    const double *at = r->proj + a->p.pos * r->res.k;
    f->angle = atan2(at[pj], at[pi]);
    return 0;
}

/* Mark the cells of f's hand (its ticks and tip too) in the face's box
 * (x, y, w, h) ATTR_OVER: the face's image holds what does not move with
 * the position, and these cells stay text over it. */
static void mark_hand(canvas *c, const struct clock_face *f, int x, int y,
                      int w, int h)
{
    canvas s;
    struct clock_face g = *f;
    if (canvas_init(&s, w, h) < 0)
        return;
    g.cx -= 2 * x;
    g.cy -= 4 * y;
    clocks_face_draw_hand(&s, &g);
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            const cell *k = canvas_at(&s, i, j);
            cell *o = canvas_at(c, x + i, y + j);
            if (o && (k->kind != CELL_TEXT || k->ch != ' '))
                o->attr |= ATTR_OVER;
        }
    canvas_free(&s);
}

/* The pair on a clock face: the ring is the largest radius, the hand
 * points at the cursor's position. */
static void draw_face(const struct app *a, const struct heat_pca_rt *r,
                      canvas *c, int x, int y, int w, int h)
{
    int k = r->res.k, rows = face_rows(w, h), pi, pj;
    heat_pca_pair(a, &pi, &pj);
    rgb acc = ui_color(a->palette, UI_ACCENT), txt = ui_color(a->palette, UI_TEXT);
    if (rows < 3 || k < 2)
        return;
    if (pi >= k || pj >= k) {
        canvas_printf(c, x, y + h - 1, w, txt, RGB_DEFAULT, 0, "PC%d: the "
                      "table has %d components", (pi > pj ? pi : pj) + 1, k);
        return;
    }
    double scale = face_scale(r, pi, pj);
    /* 2*rows cells wide, rows tall: a round face of radius 2*rows-1 dots */
    int rad = 2 * rows - 1, cx = 2 * x + rad, cy = 4 * (y + 1) + rad;
    if (scale > 0)
        draw_curve(a, r, pi, pj, c, cx, cy, rad, scale);
    char li[16], lj[16], note[48];
    snprintf(li, sizeof li, "PC%d", pi + 1);
    snprintf(lj, sizeof lj, "PC%d", pj + 1);
    canvas_text(c, x + 2 * rows + 1, y + 1 + rows / 2, (int)strlen(li), li,
                acc, RGB_DEFAULT, ATTR_BOLD);
    canvas_text(c, x + rows + 1, y, (int)strlen(lj), lj, acc, RGB_DEFAULT,
                ATTR_BOLD);
    if (a->p.pos >= r->n) {             /* past a table's rows: no hand */
        canvas_printf(c, x, y + h - 1, w, txt, RGB_DEFAULT, 0,
                      "pos %lld: past the table", (long long)a->p.pos);
        return;
    }
    const double *at = r->proj + a->p.pos * k;
    struct clock_face f;
    face_spec(a, r, pi, pj, cx, cy, rad, &f);
    clocks_face_draw(c, &f);
    mark_hand(c, &f, x, y + 1, 2 * rows, rows);
    char v1[32], v2[32];
    fmt_num(at[pi], 4, v1, sizeof v1);
    fmt_num(at[pj], 4, v2, sizeof v2);
    beyond(r, pi > pj ? pi : pj, note, sizeof note);
    canvas_printf(c, x, y + h - 1, w, txt, RGB_DEFAULT, 0,
                  "pos %lld: PC%d %s PC%d %s%s", (long long)a->p.pos, pi + 1,
                  v1, pj + 1, v2, note);
}

/* The title: the components' shares of the variance, in the longest
 * wording that fits (the table's name first to go). */
static void draw_title(const struct app *a, const struct heat_pca_rt *r,
                       const char *name, canvas *c, int x, int y, int w)
{
    char t[5][256], pct[3][16], sh[64];
    int k = r->res.k, comp[3] = { 0, 1, 2 }, nc = 3, pi, pj;
    heat_pca_pair(a, &pi, &pj);
    if (pi != 0 || pj != 1) {           /* the pair :pca chose */
        comp[0] = pi;
        comp[1] = pj;
        nc = 2;
    }
    for (int i = 0; i < nc; i++)
        snprintf(pct[i], sizeof pct[i], "%.1f%%",
                 comp[i] < k ? 100 * pca_ratio(&r->res, comp[i]) : 0.0);
    if (nc == 3)
        snprintf(sh, sizeof sh, "PC1 %s, PC2 %s, PC3 %s", pct[0], pct[1],
                 pct[2]);
    else
        snprintf(sh, sizeof sh, "PC%d %s, PC%d %s", pi + 1, pct[0], pj + 1,
                 pct[1]);
    name = name ? name : "the sinusoidal table";
    snprintf(t[0], sizeof t[0], "principal components of %s: %s of the "
             "variance", name, sh);
    snprintf(t[1], sizeof t[1], "PCs of %s: %s of the variance", name, sh);
    snprintf(t[2], sizeof t[2], "principal components: %s of the variance", sh);
    snprintf(t[3], sizeof t[3], "variance: %s", sh);
    if (nc == 3)
        snprintf(t[4], sizeof t[4], "PC1 %s PC2 %s PC3 %s", pct[0], pct[1],
                 pct[2]);
    else
        snprintf(t[4], sizeof t[4], "PC%d %s PC%d %s", pi + 1, pct[0], pj + 1,
                 pct[1]);
    const char *cand[5] = { t[0], t[1], t[2], t[3], t[4] };
    canvas_text_fit(c, x, y, w, cand, 5, ui_color(a->palette, UI_TEXT),
                    ATTR_BOLD);
}

static void draw_status(const struct app *a, const struct heat_pca_rt *r,
                        canvas *c, int x, int y, int w)
{
    rgb fg = ui_color(a->palette, UI_TEXT);
    if (r->state == HP_BUSY)
        canvas_printf(c, x, y, w, fg, RGB_DEFAULT, 0, "computing the principal "
                      "components... %d%%",
                      (int)(100 * pca_progress(r->work)));
    else if (r->state == HP_TOO_BIG)
        canvas_printf(c, x, y, w, ui_color(a->palette, UI_WARN), RGB_DEFAULT, 0,
                      "principal components need 3..%lld positions and n x "
                      "d_model <= 2^22 values", (long long)PE_TABLE_N_MAX);
    else
        canvas_text(c, x, y, w, "principal components: out of memory",
                    ui_color(a->palette, UI_WARN), RGB_DEFAULT, 0);
}

/* Columns of the face's box at the right of a panel w x h (0: none). */
static int face_width(int w, int h)
{
    int face_w = h - 1 >= 6 && w >= 50 ? 2 * (h - 3) + 4 : 0;
    return face_w > w / 2 ? w / 2 : face_w;
}

void heat_pca_draw(const struct app *a, const struct heat_pca_rt *r,
                   const char *name, canvas *c, int x, int y, int w, int h)
{
    if (w < 1 || h < 1)
        return;
    if (r->state != HP_DONE) {
        draw_status(a, r, c, x, y, w);
        return;
    }
    draw_title(a, r, name, c, x, y, w);
    int face_w = face_width(w, h);
    draw_plot(a, r, c, x, y + 1, w - face_w - (face_w ? 1 : 0), h - 1);
    if (face_w)
        draw_face(a, r, c, x + w - face_w, y + 1, face_w, h - 1);
}

/* ---- the face in pixels ------------------------------------------------ */

/* The curve of the pair through the block means, as the cells draw it,
 * in pixels: the face's rim radius stands for scale. */
static void art_curve(const struct app *a, const struct heat_pca_rt *r,
                      int pi, int pj, struct art *im, double scale)
{
    int m = (int)(r->n < CURVE_POINTS ? r->n : CURVE_POINTS);
    double *u = malloc(2 * (size_t)m * sizeof *u);
    struct clock_px g;
    if (!u)
        return;
    clocks_face_px(im->w, im->h, 0, &g);
    block_means(r, pi, m, u);
    block_means(r, pj, m, u + m);
    rgb col = ui_color(a->palette, UI_PLOT_A);
    double wid = fmax(1.0, g.axis), x0 = 0, y0 = 0;
    for (int i = 0; i < m; i++) {
        double x = g.cx + u[i] / scale * g.r, y = g.cy - u[m + i] / scale * g.r;
        if (i)
            art_segment(im, x0, y0, x, y, wid, col & RGB_DEFAULT ? raster_fg()
                                                                 : col);
        x0 = x;
        y0 = y;
    }
    free(u);
}

int heat_pca_raster(const struct app *a, const struct heat_pca_rt *r, int x,
                    int y, int w, int h, int cw, int ch,
                    struct view_raster *out)
{
    int pi, pj, face_w = face_width(w, h), rows;
    heat_pca_pair(a, &pi, &pj);
    if (r->state != HP_DONE || !face_w || r->res.k < 2 || pi >= r->res.k ||
        pj >= r->res.k || (rows = face_rows(face_w, h - 1)) < 3)
        return -1;
    int W = 2 * rows * cw, H = rows * ch;
    *out = (struct view_raster){ x + w - face_w, y + 2, 2 * rows, rows, cw, ch,
                                 NULL, 1 | RASTER_ART_OVER };
    out->px = malloc((size_t)W * (size_t)H * sizeof *out->px + 1);
    if (!out->px)
        return -1;
    struct art im = { out->px, W, H };
    struct clock_face f;
    double scale = face_scale(r, pi, pj);
    face_spec(a, r, pi, pj, 0, 0, 0, &f);
    art_fill(&im, raster_bg());
    clocks_face_art_under(&im, &f);
    if (scale > 0)
        art_curve(a, r, pi, pj, &im, scale);
    return 0;
}

/* ---- choosing the pair ---------------------------------------------------- */

int heat_pca_command(struct app *a, const char *arg)
{
    int i, j, used = 0;
    while (*arg == ' ')
        arg++;
    if (strcmp(arg, "off") == 0) {
        a->heat.pca = 0;
        app_msg(a, 0, "principal components off");
        return 0;
    }
    if (!*arg) {
        i = 1;
        j = 2;
    } else if (sscanf(arg, "%d %d %n", &i, &j, &used) != 2 || arg[used] ||
               i < 1 || j < 1 || i > HEAT_PCA_MAX || j > HEAT_PCA_MAX ||
               i == j) {
        app_msg(a, 1, "pca: want two different components I J in 1..%d "
                "(:pca 2 3), or off", HEAT_PCA_MAX);
        return -1;
    }
    a->heat.pca = 1;
    a->heat.pca_i = i;
    a->heat.pca_j = j;
    app_msg(a, 0, "principal components: PC%d against PC%d", i, j);
    return 0;
}

int heat_pca_step(struct app *a, int which, int delta)
{
    int i, j;
    heat_pca_pair(a, &i, &j);
    int *c = which ? &j : &i, other = which ? i : j;
    int next = *c + delta;
    if (next == other)
        next += delta;
    if (next < 0 || next >= HEAT_PCA_MAX)
        return 0;
    *c = next;
    a->heat.pca = 1;
    a->heat.pca_i = i + 1;
    a->heat.pca_j = j + 1;
    return 1;
}
