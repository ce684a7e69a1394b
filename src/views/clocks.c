/* SPDX-License-Identifier: ISC */
/*
 * clocks.c - the clocks view: one clock face per frequency band.
 *
 * Band i of a sinusoidal PE is a hand turning omega_i radians per
 * position.  Its angle at a position is pos * omega_i, from 3 o'clock,
 * counter-clockwise, so the tip's horizontal reach is cos = PE(pos, 2i+1)
 * and its height is sin = PE(pos, 2i).  A big face shows the band under
 * the cursor; a table of small faces shows many bands at once with their
 * numbers underneath; a strip shows pos in binary beside the fastest
 * bands, the counter that a PE generalises.  One face, in dots, blocks
 * or pixels, is clocks_face.c's.
 *
 * Layout stays fixed while pos moves (numbers in fixed-width fields), so
 * an animated frame changes only hands, values and the counter.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "plans.h"
#include "glyph.h"
#include "lineart.h"
#include "peviz/pe.h"
#include "raster.h"
#include "state_field.h"
#include "text.h"
#include "views/bigdigits.h"
#include "views/clocks.h"
#include "views/clocks_settings.h"
#include "views/portcheck.h"

#define LABEL_W 8           /* row labels of the table */
#define VALUE_W 8           /* narrowest band column */
#define NVALUES 7           /* i, dims, omega, lambda, sin, cos, turns */
#define TOP_MIN 9           /* rows for the big face area at least */
#define READOUT_MIN 46      /* columns for the text beside the big face */
#define FACE_GAP 7          /* a blank, the face's "cos" label and three
                               blanks, so the label neither touches the
                               face nor reads as the readout's */
#define READOUT_LINES 12    /* rows the readout uses when it has them */
#define BIG_MIN_W 64
#define TEXT_MIN_W 20
#define LIVE_SPEED 4.0      /* pos/s: a faster sweep holds its numbers */

/* ---- pure parts ------------------------------------------------------- */

void clocks_band_info(const params *p, int i, struct clocks_band *b)
{
    double pos = (double)p->pos;

    const pe_plan *pl = plans_of(p);     /* unscaled where it cannot scale */

    b->i = i;
    b->scaled = pl->scaled;
    b->rule = pl->rule[i];
    b->omega = pl->omega[i];
    b->lambda = pl->wavelength[i];
    b->angle = pos * b->omega;
    if (b->scaled) {                    /* the angle in long double, as pe.h */
        long double al = (long double)pos * b->omega;
        b->s = (double)sinl(al);
        b->c = (double)cosl(al);
    } else {
        b->s = pe_value(pos, 2 * i, p->d, p->base);
        b->c = pe_value(pos, 2 * i + 1, p->d, p->base);
    }
    b->turns = floor(b->angle / (2 * PEVIZ_PI));
    b->slow = b->lambda > (double)p->n;
}

double clocks_deg_mod(double rad)
{
    double deg = fmod(rad, 2 * PEVIZ_PI) * (180.0 / PEVIZ_PI);
    if (deg < 0)
        deg += 360.0;
    return deg >= 360.0 ? 0.0 : deg;
}

/* A value for "% .4f": what rounds to zero prints as 0.0000, not -0.0000. */
static double shown(double v)
{
    return fabs(v) < 5e-5 ? 0.0 : v;
}

/* Cells a band column needs: values, and "dims 2i,2i+1" of the last band. */
static int value_width(int half)
{
    int dims = fmt_digits(2LL * (half - 1)) + 1 + fmt_digits(2LL * half - 1);
    return dims > VALUE_W ? dims : VALUE_W;
}

static int table_height(int brows, int block_h)
{
    return brows * (block_h + 1) - 1;
}

/* The big face beside its readout, over the table. */
static int layout_big(int w, int h, int half, int counter,
                      struct clocks_layout *l)
{
    int need = (half + l->cpr - 1) / l->cpr;
    /* a third of the height at least: a face worth the name */
    int top_min = h / 3 > TOP_MIN ? h / 3 : TOP_MIN;
    int bmax = (h - counter - top_min + 1) / (l->block_h + 1);
    int fmax = (w - READOUT_MIN - FACE_GAP) / 2;

    if (w < BIG_MIN_W || bmax < 1 || fmax < TOP_MIN - 1)
        return 0;
    l->brows = need < bmax ? need : bmax;
    l->top_h = h - counter - table_height(l->brows, l->block_h);
    /* the "sin" label above, and a blank row under the face if it can */
    l->face_rows = l->top_h - (l->top_h > TOP_MIN ? 2 : 1);
    if (l->face_rows > fmax) {
        /* the face cannot grow wider: keep the table close under it */
        int keep = fmax + 2 > READOUT_LINES ? fmax + 2 : READOUT_LINES;
        l->face_rows = fmax;
        if (l->top_h > keep)
            l->top_h = keep;
    }
    l->mode = CLOCKS_BIG;
    return 1;
}

static int layout_small(int h, int half, int counter,
                        struct clocks_layout *l)
{
    int need = (half + l->cpr - 1) / l->cpr;
    int bmax = (h - counter + 1) / (l->block_h + 1);

    if (bmax < 1)
        return 0;
    l->brows = need < bmax ? need : bmax;
    l->top_h = h - counter - table_height(l->brows, l->block_h);
    if (l->top_h > READOUT_LINES)
        l->top_h = READOUT_LINES;
    l->mode = CLOCKS_SMALL;
    return 1;
}

void clocks_layout(int w, int h, int half, int extra, int counter,
                   struct clocks_layout *l)
{
    int vw = value_width(half);

    memset(l, 0, sizeof *l);
    l->label_w = LABEL_W;
    l->counter_y = -1;
    l->cpr = 1;
    l->fr = h >= 22 ? 4 : 3;     /* 16 dots across draw a rounder face */
    l->pitch = (vw > 2 * l->fr ? vw : 2 * l->fr) + 1;
    l->block_h = l->fr + NVALUES + (extra > 0 ? extra : 0);
    counter = counter ? 1 : 0;
    if (half < 1)
        half = 1;
    if (w >= LABEL_W + l->pitch) {
        l->cpr = (w - LABEL_W) / l->pitch;
        if (l->cpr > half)
            l->cpr = half;
        if (layout_big(w, h, half, counter, l) ||
            layout_small(h, half, counter, l)) {
            l->tiles = l->cpr * l->brows;
            if (l->tiles > half)
                l->tiles = half;
            l->counter_y = counter ? l->top_h : -1;
            l->table_y = l->top_h + counter;
            return;
        }
    }
    l->cpr = 1;
    if (w >= TEXT_MIN_W && h >= 2) {
        l->mode = CLOCKS_TEXT;
        l->counter_y = (counter && h >= 4) ? h - 1 : -1;
        l->tiles = h - 1 - (l->counter_y >= 0);
        if (l->tiles > half)
            l->tiles = half;
        l->table_y = 1;
        return;
    }
    l->mode = CLOCKS_TOO_SMALL;
}

/* ---- which bands are shown -------------------------------------------- */

/*
 * The overview spreads the tiles evenly from band 0 to the last band,
 * both included; zoomed in, tiles show consecutive bands from a start
 * that keeps the cursor band in view.
 */
static int overview(const struct clocks_state *s, int half, int tiles)
{
    return s->zoom == 0 && half > tiles && tiles >= 2;
}

static int window_start(const struct clocks_state *s, int half, int tiles)
{
    int start = s->band0;
    if (s->band < start)
        start = s->band;
    if (s->band >= start + tiles)
        start = s->band - tiles + 1;
    if (start > half - tiles)
        start = half - tiles;
    return start < 0 ? 0 : start;
}

static int tile_band(const struct clocks_state *s, int half, int tiles, int t)
{
    if (overview(s, half, tiles))
        return (int)(((long long)t * (half - 1) * 2 + (tiles - 1)) /
                     (2LL * (tiles - 1)));
    return window_start(s, half, tiles) + t;
}

int clocks_tile_band(const struct clocks_state *s, int half, int tiles,
                     int t)
{
    return tile_band(s, half, tiles, t);
}

/* The tile nearest to band in the overview. */
static int tile_nearest(int band, int half, int tiles)
{
    return (int)(((long long)band * (tiles - 1) * 2 + (half - 1)) /
                 (2LL * (half - 1)));
}

/* ---- what a sweep sends ----------------------------------------------- */

/*
 * A sweep over LIVE_SPEED pos/s (or any sweep in low-bandwidth mode)
 * changes every number of the table in every frame, faster than anyone
 * reads them.  Those numbers, and the colour changes where a hand
 * crosses a rim or an axis, would be more than half of each frame's
 * bytes, and the view's pace would then allow fewer frames.  So such a
 * sweep sends the hands, each face in one colour, and the numbers wait:
 * the table's sin and cos rows show "..." until the sweep pauses or
 * slows down, and the readout of the band under the cursor shows the
 * numbers of the last position that is a multiple of the speed (a whole
 * second of the sweep), which its lines name: it changes once a second.
 */
static int sweep_holds(const struct app *a)
{
    return a->playing && (a->low_bandwidth || a->speed > LIVE_SPEED);
}

/* The position whose numbers the readout shows: pos itself, or while a
 * sweep holds them the last multiple of its speed (at most n). */
static int64_t readout_pos(const struct app *a)
{
    if (!sweep_holds(a))
        return a->p.pos;
    int64_t every = (int64_t)a->speed;
    if (every > a->p.n)
        every = a->p.n;
    if (every < 1)
        every = 1;
    return a->p.pos - a->p.pos % every;
}

/* While a sweep holds its numbers, a face in cells is drawn in its
 * hand's colour alone (the ghost keeps its own): a hand crossing the rim
 * or an axis then costs no colour change on the wire. */
static void face_plain(const struct app *a, struct clock_face *f)
{
    if (sweep_holds(a))
        f->ring = f->axis = f->hand;
}

/* ---- drawing helpers -------------------------------------------------- */

/* Symbols, with ASCII spellings for terminals without UTF-8. */
struct syms {
    const char *om, *lam, *pi, *deg, *dot, *ccw;
};


struct ctx {
    const struct app *a;
    canvas *c;
    struct syms syms;           /* the symbols (glyph.h) */
    const struct syms *sy;      /* &syms */
    struct clocks_layout l;
    int half;
    int rule_row;               /* the table names each band's RoPE rule */
    unsigned rules;             /* 1 << enum rope_rule: rules some band has */
    rgb text, dim, warn, accent, cursor, hand, ghost, axis;
    const struct freq_check *check;     /* :check FILE's, or NULL */
    const char *verdict;                /* its status line */
};

/* Whether a RoPE scaling is on, so each band has a rule to name. */
static int has_rule_row(const struct app *a)
{
    return a->p.rope.method != ROPE_NONE;
}

/* The rules (1 << enum rope_rule) some band follows: what the legend
 * explains. */
static unsigned rules_present(const params *p)
{
    const pe_plan *pl = plans_of(p);
    unsigned mask = 0;

    for (int i = 0; pl->scaled && i < pl->half; i++)
        mask |= 1u << pl->rule[i];
    return mask;
}

static rgb rgb_shade(rgb c, double f)
{
    if (c == RGB_DEFAULT)
        return c;
    unsigned r = (c >> 16) & 0xff, g = (c >> 8) & 0xff, b = c & 0xff;
    return RGB((unsigned)(r * f), (unsigned)(g * f), (unsigned)(b * f));
}

/*
 * Presenter mode: the band under the cursor alone, its face as large as
 * the area allows; the readout beside it only where it costs the face
 * nothing.  0 if the area is too small for a face worth the name.
 */
static int layout_presenter(int w, int h, struct clocks_layout *l)
{
    int fr = h - 2, readout = w - FACE_GAP - 2 * fr >= READOUT_MIN;
    if (!readout && 2 * fr > w - FACE_GAP)
        fr = (w - FACE_GAP) / 2;
    if (fr < TOP_MIN - 1)
        return 0;
    memset(l, 0, sizeof *l);
    l->label_w = LABEL_W;
    l->cpr = 1;
    l->tiles = 1;
    l->brows = 0;
    l->counter_y = -1;
    l->top_h = h;
    l->table_y = h;
    l->face_rows = fr;
    l->mode = CLOCKS_BIG;
    return 1;
}

/* The layout for w x h: presenter mode's single face, or the usual. */
static void lay(const struct app *a, int w, int h, struct clocks_layout *l)
{
    if (a->presenter && layout_presenter(w, h, l))
        return;
    clocks_layout(w, h, a->p.d / 2, (a->clocks.ghost ? 1 : 0) + has_rule_row(a),
                  a->clocks.counter, l);
}

/* The context's colours and symbols, for a (no canvas, no layout). */
static void ctx_colors(struct ctx *x, const struct app *a)
{
    enum palette p = a->palette;

    memset(x, 0, sizeof *x);
    x->a = a;
    x->syms = (struct syms){ glyph(a->ascii, GL_OMEGA),
                             glyph(a->ascii, GL_LAMBDA), glyph(a->ascii, GL_PI),
                             glyph(a->ascii, GL_DEG), glyph(a->ascii, GL_MUL),
                             glyph(a->ascii, GL_CCW) };
    x->sy = &x->syms;
    x->half = a->p.d / 2;
    x->rule_row = has_rule_row(a);
    x->rules = x->rule_row ? rules_present(&a->p) : 0;
    x->text = ui_color(p, UI_TEXT);
    x->dim = ui_color(p, UI_DIM);
    x->warn = ui_color(p, UI_WARN);
    x->accent = ui_color(p, UI_ACCENT);
    x->cursor = ui_color(p, UI_CURSOR);
    /* hands in the terminal's own colour: the strongest contrast on any
     * theme, and a moving hand then costs no colour changes on the wire */
    x->hand = ui_color(p, UI_TEXT);
    x->ghost = rgb_shade(ui_color(p, UI_PLOT_A), 0.75);
    x->axis = ui_color(p, UI_AXIS);
}

/* What :check holds a file to: the settings the clocks show. */
static struct portcheck_set check_set(const struct app *a)
{
    return (struct portcheck_set){ &a->p.rope, a->p.d, a->p.base, a->p.n,
                                   a->cmp.panes[0].model - 1 };
}

static void ctx_init(struct ctx *x, const struct app *a, canvas *c)
{
    ctx_colors(x, a);
    x->c = c;
    lay(a, c->w, c->h, &x->l);
}

/*
 * Text that fits maxw: the first variant that fits whole, else the last
 * one's whole words (canvas_text_fit).  Variants end with NULL.
 */
static void text_fit(canvas *c, int x, int y, int maxw, rgb fg, int attr,
                     const char *const *variants)
{
    int n = 0;
    while (variants[n])
        n++;
    if (maxw > 0 && n > 0)
        canvas_text_fit(c, x, y, maxw, variants, n, fg, attr);
}

static void fit1(struct ctx *x, int px, int y, int maxw, rgb fg, int attr,
                 const char *s)
{
    const char *v[2] = { s, NULL };
    text_fit(x->c, px, y, maxw, fg, attr, v);
}

/* ---- the big face and its readout ------------------------------------- */

/* The big face of band b, its top-left cell at (0, BIG_FACE_Y). */
#define BIG_FACE_Y 1

static void big_spec(const struct ctx *x, const struct clocks_band *b,
                     struct clock_face *f)
{
    const struct app *a = x->a;
    int dots = 4 * x->l.face_rows;
    *f = (struct clock_face){
        .cx = dots / 2 - 1, .cy = 4 * BIG_FACE_Y + dots / 2 - 1,
        .r = dots / 2 - 1,
        .angle = b->angle, .ghost = a->clocks.ghost,
        .ghost_angle = ((double)a->p.pos + (double)a->clocks.k) * b->omega,
        .axes = 1, .ring = b->slow ? x->dim : x->cursor, .hand = x->hand,
        .ghost_col = x->ghost, .axis = x->axis,
        .tip = a->ascii ? RASTER_ART_TIP : 0,
        /* from the back of the room: thick hand and rim, in blocks */
        .thick = a->presenter || a->palette == PAL_CONTRAST ? 2 : 0,
        .blocks = a->presenter || a->palette == PAL_CONTRAST,
    };
}

static void big_face(struct ctx *x, const struct clocks_band *b)
{
    const struct app *a = x->a;
    int fr = x->l.face_rows, fw = 2 * fr;
    int dots = 4 * fr, fy = BIG_FACE_Y;
    struct clock_face f;

    big_spec(x, b, &f);
    face_plain(a, &f);
    clocks_face_draw(x->c, &f);
    view_point_mark(a, x->c, f.cx / 2, f.cy / 4, 1);    /* the hub */
    /* axis names where the axes leave the face: cos right, sin up */
    canvas_text(x->c, fw + 1, fy + (dots / 2 - 1) / 4, 3, "cos", x->accent,
                RGB_DEFAULT, ATTR_BOLD);
    canvas_text(x->c, f.cx / 2 - 1 > 0 ? f.cx / 2 - 1 : 0, 0, 3, "sin",
                x->accent, RGB_DEFAULT, ATTR_BOLD);
    if (!a->ascii)
        canvas_text(x->c, fw - 2, 0, 1, x->sy->ccw, x->dim, RGB_DEFAULT, 0);
}

struct rline {
    char s[3][160];     /* long, medium, short */
    rgb fg;
    int attr;
};

static void rl_set(struct rline *r, rgb fg, int attr)
{
    memset(r, 0, sizeof *r);
    r->fg = fg;
    r->attr = attr;
}

#define TURNS_W 16          /* the readout's turns: whole below 1e16 */

/* Width of the turns field: enough for the most turns within n. */
static int turns_width(const params *p, double omega)
{
    char most[32];
    fmt_count(floor((double)(p->n - 1) * omega / (2 * PEVIZ_PI)), TURNS_W,
              most, sizeof most);
    return (int)strlen(most);
}

/* Band b at the position whose numbers the readout shows. */
static void readout_at(const struct app *a, const struct clocks_band *b,
                       struct clocks_band *at)
{
    params q = a->p;

    q.pos = readout_pos(a);
    if (q.pos == a->p.pos)
        *at = *b;
    else
        clocks_band_info(&q, b->i, at);
}

/* The readout's sin, cos and turns lines: of band b at pos (all
 * widths name pos when the sweep holds the numbers). */
static int readout_values(struct ctx *x, const struct clocks_band *b,
                          long long pos, struct rline *out)
{
    const struct syms *sy = x->sy;
    char ang[32], tn[32], who[24] = "pos", at[32] = "";
    int n = 0, tw = turns_width(&x->a->p, b->omega);

    if (sweep_holds(x->a)) {
        snprintf(who, sizeof who, "%lld", pos);
        snprintf(at, sizeof at, " at pos %s", who);
    }
    fmt_count(b->turns, TURNS_W, tn, sizeof tn);
    fmt_num(b->angle, 6, ang, sizeof ang);
    rl_set(&out[n], x->text, 0);
    snprintf(out[n].s[0], 160, "sin = % .4f (height)  = PE(%lld,%d)",
             shown(b->s), pos, 2 * b->i);
    snprintf(out[n++].s[1], 160, "sin = % .4f%s", shown(b->s),
             at[0] ? at : " (height)");
    rl_set(&out[n], x->text, 0);
    snprintf(out[n].s[0], 160, "cos = % .4f (reach)   = PE(%lld,%d)",
             shown(b->c), pos, 2 * b->i + 1);
    snprintf(out[n++].s[1], 160, "cos = % .4f%s", shown(b->c),
             at[0] ? at : " (reach)");
    rl_set(&out[n], x->text, 0);
    snprintf(out[n].s[0], 160,
             "turns %*s + %5.1f%s  (angle %s%s%s = %s rad)", tw, tn,
             clocks_deg_mod(b->angle), sy->deg, who, sy->dot, sy->om, ang);
    snprintf(out[n++].s[1], 160, "turns %*s + %5.1f%s", tw, tn,
             clocks_deg_mod(b->angle), sy->deg);
    return n;
}

static int readout_band(struct ctx *x, const struct clocks_band *b,
                        struct rline *out)
{
    const struct app *a = x->a;
    const struct syms *sy = x->sy;
    char om[32], lam[32], base[32];
    struct clocks_band held;
    int n = 0;

    fmt_num(b->omega, 4, om, sizeof om);
    fmt_num(b->lambda, 4, lam, sizeof lam);
    fmt_base(a->p.base, base, sizeof base);

    rl_set(&out[n], x->text, ATTR_BOLD);
    snprintf(out[n].s[0], 160,
             "band i=%d of 0..%d: dims %d (sin) and %d (cos)", b->i,
             x->half - 1, 2 * b->i, 2 * b->i + 1);
    snprintf(out[n++].s[1], 160, "band i=%d of 0..%d: dims %d, %d", b->i,
             x->half - 1, 2 * b->i, 2 * b->i + 1);
    rl_set(&out[n], x->text, 0);
    if (b->scaled) {            /* RoPE scaling: the band's rule */
        char m[48], w0[32];
        params_format_rope(&a->p, m, sizeof m);
        fmt_num(plans_of(&a->p)->omega_base[b->i], 4, w0, sizeof w0);
        snprintf(out[n].s[0], 160, "%s = %s rad/pos: %s, band %s (unscaled %s)",
                 sy->om, om, m, rope_rule_name((enum rope_rule)b->rule), w0);
        snprintf(out[n].s[1], 160, "%s = %s rad/pos, %s %s", sy->om, om, m,
                 rope_rule_name((enum rope_rule)b->rule));
        snprintf(out[n++].s[2], 160, "%s = %s, %s", sy->om, om,
                 rope_rule_name((enum rope_rule)b->rule));
    } else {
        snprintf(out[n].s[0], 160, "%s = base^(-2i/d) = %s^(-%d/%d) = %s rad/pos",
                 sy->om, base, 2 * b->i, a->p.d, om);
        snprintf(out[n].s[1], 160, "%s = %s^(-%d/%d) = %s rad/pos", sy->om,
                 base, 2 * b->i, a->p.d, om);
        snprintf(out[n++].s[2], 160, "%s = %s rad/pos", sy->om, om);
    }
    rl_set(&out[n], b->slow ? x->warn : x->text, 0);
    if (b->slow) {
        snprintf(out[n].s[0], 160, "%s = 2%s/%s = %s pos > n=%lld: never one "
                 "full turn in the sequence", sy->lam, sy->pi, sy->om, lam,
                 (long long)a->p.n);
        snprintf(out[n].s[1], 160, "%s = 2%s/%s = %s pos > n: no full turn",
                 sy->lam, sy->pi, sy->om, lam);
    } else {
        snprintf(out[n].s[0], 160, "%s = 2%s/%s = %s pos (positions per turn)",
                 sy->lam, sy->pi, sy->om, lam);
        snprintf(out[n].s[1], 160, "%s = 2%s/%s = %s pos", sy->lam, sy->pi,
                 sy->om, lam);
    }
    n++;
    readout_at(a, b, &held);
    return n + readout_values(x, &held, (long long)readout_pos(a), out + n);
}

static int readout_ghost(struct ctx *x, const struct clocks_band *b,
                         struct rline *out)
{
    const struct app *a = x->a;
    const struct syms *sy = x->sy;
    long k = (long)a->clocks.k;         /* |k| <= PARAM_N_MAX */
    double kw = (double)k * b->omega;
    char rad[32];

    fmt_num(kw, 5, rad, sizeof rad);
    rl_set(out, x->ghost, 0);
    if (!a->clocks.ghost) {
        rl_set(out, x->dim, 0);
        snprintf(out->s[0], 160, "o: ghost at pos+k (k=%ld) shows "
                 "PE(pos+k) = M_k PE(pos)", k);
        snprintf(out->s[1], 160, "o: ghost hand at pos+k (k=%ld)", k);
        return 1;
    }
    snprintf(out->s[0], 160, "ghost k=%ld: %5.1f%s ahead (k%s%s = %s rad), at "
             "pos+k = %lld", k, clocks_deg_mod(kw), sy->deg, sy->dot, sy->om,
             rad, (long long)a->p.pos + k);
    snprintf(out->s[1], 160, "ghost k=%ld: %5.1f%s ahead (k%s%s = %s rad)", k,
             clocks_deg_mod(kw), sy->deg, sy->dot, sy->om, rad);
    snprintf(out->s[2], 160, "ghost k=%ld: %5.1f%s ahead", k,
             clocks_deg_mod(kw), sy->deg);
    return 1;
}

/* What each short name in the rule row means, in three widths; every
 * '@' stands for theta, the unscaled frequency. */
static const char *const RULE_LEGEND[3][ROPE_RULE_COUNT] = {
    { "kept = @ (unchanged)", "blend = between @ and @/s",
      "interp = @/s (interpolated)", "rebase = b'^(-2i/d) (a new base b')",
      "rescale = @/f_i (f_i outside 1..s)", "still = 0 (never turns)" },
    { "kept = @", "blend = @..@/s", "interp = @/s", "rebase = new base b'",
      "rescale = @/f_i", "still = 0" },
    { "kept=@", "blend=@..@/s", "interp=@/s", "rebase=b'", "rescale=@/f_i",
      "still=0" },
};

/* Append tmpl to line (k bytes used of len) with '@' spelled th; the new
 * length (at most len - 1). */
static size_t put_theta(char *line, size_t len, size_t k, const char *tmpl,
                        const char *th)
{
    for (; *tmpl && k + 1 < len; tmpl++) {
        const char *s = *tmpl == '@' ? th : NULL;
        if (!s) {
            line[k++] = *tmpl;
            continue;
        }
        size_t n = strlen(s);
        if (k + n >= len)
            break;
        memcpy(line + k, s, n);
        k += n;
    }
    line[k] = 0;
    return k;
}

/* The legend of the rule row: the rules some band follows. */
static int readout_rules(struct ctx *x, struct rline *out)
{
    const char *th = glyph_pick(x->a->ascii, "\xce\xb8", "theta");

    rl_set(out, x->dim, 0);
    for (int f = 0; f < 3; f++) {
        char *line = out->s[f];
        size_t len = sizeof out->s[f];
        size_t k = put_theta(line, len, 0, f < 2 ? "rule: " : "", th);
        int first = 1;
        for (int r = 0; r < ROPE_RULE_COUNT; r++) {
            if (!(x->rules & (1u << r)))
                continue;
            if (!first)
                k = put_theta(line, len, k, f == 0 ? "; " : f == 1 ? ", " : " ",
                              th);
            k = put_theta(line, len, k, RULE_LEGEND[f][r], th);
            first = 0;
        }
    }
    return 1;
}

static int readout_legend(struct ctx *x, struct rline *out)
{
    const struct syms *sy = x->sy;
    int n = 0;

    if (x->a->pe_table) {       /* beside a loaded table: say what these are */
        const char *f = x->a->pe_file_name ? x->a->pe_file_name : "--pe-file";
        const char *sl = strrchr(f, '/');
        char b[32];
        fmt_base(x->a->p.base, b, sizeof b);
        rl_set(&out[n], x->warn, 0);
        snprintf(out[n].s[0], 160, "clocks of the %s at base %s, not of the "
                 "table %s (a table has no frequencies)", x->rule_row ?
                 "RoPE frequencies" : "sinusoid", b, sl && sl[1] ? sl + 1 : f);
        snprintf(out[n++].s[1], 160, "%s clocks, not the table",
                 x->rule_row ? "RoPE" : "sinusoid");
    }
    if (x->rule_row) {          /* first: it explains the table's words */
        const pe_plan *pl = plans_of(&x->a->p);
        rl_set(&out[n], x->text, 0);
        snprintf(out[n].s[0], 160, "bands: ");
        plan_rule_ranges(pl, glyph_pick(x->a->ascii, "\u2013", "-"),
                         glyph_pick(x->a->ascii, " \u00b7 ", ", "),
                         out[n].s[0] + 7, 160 - 7);
        plan_rule_ranges(pl, "-", " ", out[n++].s[1], 160);
        n += readout_rules(x, out + n);
    }

    rl_set(&out[n], x->dim, 0);
    snprintf(out[n].s[0], 160, "hand angle = pos%s%s from 3 o'clock, turning "
             "counter-clockwise", sy->dot, sy->om);
    snprintf(out[n++].s[1], 160,
             "angle pos%s%s: 0 = 3 o'clock, counter-clockwise",
             sy->dot, sy->om);
    rl_set(&out[n], x->dim, 0);
    snprintf(out[n].s[0], 160, "tip: right = cos = PE(pos,2i+1), "
             "up = sin = PE(pos,2i)");
    snprintf(out[n++].s[1], 160, "right = cos = PE(pos,2i+1), up = sin");
    rl_set(&out[n], x->dim, 0);
    snprintf(out[n].s[0], 160, "%s>n: wavelength beyond n=%lld, the hand never "
             "completes a turn", sy->lam, (long long)x->a->p.n);
    snprintf(out[n++].s[1], 160, "%s>n: no full turn within n=%lld", sy->lam,
             (long long)x->a->p.n);
    rl_set(&out[n], x->dim, 0);
    if (x->a->clocks.ghost) {
        snprintf(out[n].s[0], 160, "table: %s in rad/pos, %s in positions, "
                 "k%s in degrees mod 360", sy->om, sy->lam, sy->om);
        snprintf(out[n].s[1], 160, "table: %s rad/pos, %s pos, k%s deg mod 360",
                 sy->om, sy->lam, sy->om);
    } else {
        snprintf(out[n].s[0], 160, "table: %s in rad/pos, %s in positions",
                 sy->om, sy->lam);
    }
    n++;
    return n;
}

/* The shortest wording of a readout line. */
static const char *rl_short(const struct rline *r)
{
    return r->s[2][0] ? r->s[2] : r->s[1][0] ? r->s[1] : r->s[0];
}

/* text_wrap_line, but a line that does not end the text ends after its
 * last ", " or ": " when it has one: a phrase is not split. */
static size_t wrap_phrase(const char *t, int w, char *buf, size_t len)
{
    size_t used = text_wrap_line(t, w, buf, len);
    if (used == 0 || !t[used])
        return used;
    for (size_t i = strlen(buf); i > 1; i--)
        if (buf[i - 1] == ' ' && (buf[i - 2] == ',' || buf[i - 2] == ':')) {
            buf[i - 1] = 0;
            return i;
        }
    return used;
}

/* Rows line r takes in w cells: 1 if a wording fits, else its shortest
 * wording wrapped at blanks (continuation rows indented by 2). */
static int rl_rows(const struct rline *r, int w, char *buf, size_t len)
{
    const char *v[3] = { r->s[0], r->s[1][0] ? r->s[1] : NULL,
                         r->s[2][0] ? r->s[2] : NULL };
    if (text_first_fit(v, 3, w) >= 0)
        return 1;
    const char *t = rl_short(r);
    int rows = 0;
    for (int ind = 0; *t && w - ind > 0; ind = 2, rows++) {
        size_t used = wrap_phrase(t, w - ind, buf, len);
        if (used == 0)
            return rows + 99;   /* a word wider than the line */
        t += used;
    }
    return rows;
}

/* Draw line r wrapped from row *y (as rl_rows counts it). */
static void rl_wrap_draw(struct ctx *x, int rx, int *y, const struct rline *r)
{
    char buf[200];
    const char *t = rl_short(r);
    int w = x->c->w - rx;
    for (int ind = 0; *t && w - ind > 0; ind = 2) {
        size_t used = wrap_phrase(t, w - ind, buf, sizeof buf);
        if (used == 0)
            return;
        canvas_text(x->c, rx + ind, (*y)++, w - ind, buf, r->fg, RGB_DEFAULT,
                    r->attr);
        t += used;
    }
}

/* Lines [k0, k1) from row y0 up to row rows: wrapped whole where the
 * rows hold them all, else each keeping the words that fit; with gap, a
 * blank row before line gap_at when there is room.  Returns the next
 * free row. */
static int draw_lines(struct ctx *x, int rx, int y0, int rows,
                      const struct rline *lines, int k0, int k1, int gap_at,
                      int whole)
{
    char buf[200];
    int y = y0, need = 0, cnt = k1 - k0;
    for (int k = k0; k < k1; k++)
        need += rl_rows(&lines[k], x->c->w - rx, buf, sizeof buf);
    int wrap = need > cnt && y0 + need + 1 <= rows;
    for (int k = k0; k < k1 && y < rows; k++) {
        if (k == gap_at && rows - y0 >= (wrap ? need : cnt) + 1)
            y++;
        if (wrap && rl_rows(&lines[k], x->c->w - rx, buf, sizeof buf) > 1) {
            rl_wrap_draw(x, rx, &y, &lines[k]);
            continue;
        }
        const char *v[4] = { lines[k].s[0], NULL, NULL, NULL };
        int m = 1;
        for (int j = 1; j < 3; j++)
            if (lines[k].s[j][0])
                v[m++] = lines[k].s[j];
        if (whole && text_first_fit(v, m, x->c->w - rx) < 0)
            continue;           /* never half a phrase */
        text_fit(x->c, rx, y++, x->c->w - rx, lines[k].fg, lines[k].attr, v);
    }
    return y;
}

/* Presenter: the position, omega and lambda in the big block font, as
 * many as the rows from y hold.  Returns the next free row. */
static int big_numbers(struct ctx *x, int rx, int y, int rows,
                       const struct clocks_band *b)
{
    const struct app *a = x->a;
    int halves = !a->ascii, h = big_rows(halves);   /* glyphs: no colour needed */
    char v[3][32];
    const char *lab[3] = { "pos", x->sy->om, x->sy->lam };
    snprintf(v[0], sizeof v[0], "%lld", (long long)a->p.pos);
    fmt_num(b->omega, 4, v[1], sizeof v[1]);
    fmt_num(b->lambda, 4, v[2], sizeof v[2]);
    for (int i = 0; i < 3 && y + h <= rows; i++) {
        if (!big_draw(x->c, rx + 4, y, x->c->w - rx - 4, v[i], x->hand, halves,
                      a->ascii))
            continue;
        canvas_text(x->c, rx, y + h / 2, 3, lab[i], x->accent, RGB_DEFAULT,
                    ATTR_BOLD);
        y += h + 1;
    }
    return y;
}

static void readout_draw(struct ctx *x, int rx, int rows,
                         const struct clocks_band *b)
{
    struct rline lines[20];
    int n = readout_band(x, b, lines);

    n += readout_ghost(x, b, lines + n);
    int legend = n;
    n += readout_legend(x, lines + n);
    if (x->l.brows == 0)
        n--;                    /* no table (presenter): no table legend */
    if (!x->a->presenter || x->l.brows != 0) {
        draw_lines(x, rx, 0, rows, lines, 0, n, legend, 0);
        return;
    }
    /* presenter: the band, its key numbers large, then the legend */
    int y = draw_lines(x, rx, 0, rows, lines, 0, legend, -1, 1);
    y = big_numbers(x, rx, y + 1, rows, b);
    draw_lines(x, rx, y, rows, lines, legend, n, -1, 1);
}

/* ---- the table of small faces ----------------------------------------- */

static void table_labels(struct ctx *x, int y)
{
    const struct syms *sy = x->sy;
    char om[16], lam[16], kw[16];
    const char *lab[NVALUES + 2];
    int fr = x->l.fr, n = 0;

    snprintf(om, sizeof om, "%s rad", sy->om);
    snprintf(lam, sizeof lam, "%s pos", sy->lam);
    snprintf(kw, sizeof kw, "k%s deg", sy->om);
    lab[n++] = "i"; lab[n++] = "dims"; lab[n++] = om; lab[n++] = lam;
    if (x->rule_row)
        lab[n++] = "rule";
    lab[n++] = "sin"; lab[n++] = "cos"; lab[n++] = "turns";
    if (x->a->clocks.ghost)
        lab[n++] = kw;
    for (int k = 0; k < n; k++)
        canvas_text(x->c, 0, y + fr + k, LABEL_W - 1, lab[k], x->dim,
                    RGB_DEFAULT, 0);
}

/* The band's rule, short: plain for kept, bold for what the scaling
 * changed (colour is a help, the word is the message). */
static const char *rule_word(const struct clocks_band *b)
{
    return b->scaled ? rope_rule_abbrev((enum rope_rule)b->rule) : "-";
}

static void rule_cell(struct ctx *x, int px, int y, int w,
                      const struct clocks_band *b)
{
    int kept = !b->scaled || b->rule == ROPE_KEPT;
    canvas_text(x->c, px, y, w, rule_word(b), kept ? x->text : x->accent,
                RGB_DEFAULT, kept ? 0 : ATTR_BOLD);
}

/* The small face of band b in the tile at (px, y): its left cell. */
static int tile_face_x(const struct ctx *x, int px)
{
    return px + (x->l.pitch - 1 - 2 * x->l.fr + 1) / 2;
}

static void tile_spec(const struct ctx *x, int px, int y,
                      const struct clocks_band *b, int is_cursor,
                      struct clock_face *f)
{
    const struct app *a = x->a;
    int fx = tile_face_x(x, px), dots = 4 * x->l.fr;
    *f = (struct clock_face){
        .cx = 2 * fx + dots / 2 - 1, .cy = 4 * y + dots / 2 - 1,
        .r = dots / 2 - 1, .angle = b->angle, .ghost = a->clocks.ghost,
        .ghost_angle = ((double)a->p.pos + (double)a->clocks.k) * b->omega,
        .ring = is_cursor ? x->cursor : b->slow ? x->dim : x->accent,
        .hand = x->hand, .ghost_col = x->ghost, .axis = x->axis,
        .tip = a->ascii ? RASTER_ART_TIP : 0,
        .thick = a->palette == PAL_CONTRAST,
    };
}

static void tile_draw(struct ctx *x, int px, int y, const struct clocks_band *b,
                      int is_cursor)
{
    const struct app *a = x->a;
    int fr = x->l.fr, vw = x->l.pitch - 1;
    char buf[32];
    struct clock_face f;
    int ty = y + fr, rr = x->rule_row;  /* the rule row pushes the rest down */

    tile_spec(x, px, y, b, is_cursor, &f);
    face_plain(a, &f);
    clocks_face_draw(x->c, &f);
    int lw = canvas_printf(x->c, px, ty, vw, is_cursor ? x->cursor : x->text,
                           RGB_DEFAULT, ATTR_BOLD | (is_cursor ? ATTR_REVERSE : 0),
                           "%d", b->i);
    if (is_cursor)
        view_point_mark(a, x->c, px, ty, lw);
    canvas_printf(x->c, px, ty + 1, vw, x->text, RGB_DEFAULT, 0, "%d,%d",
                  2 * b->i, 2 * b->i + 1);
    fmt_num_w(b->omega, 4, VALUE_W, buf, sizeof buf);
    double found;               /* :check: a differing band's expected omega */
    int differs = portcheck_band(x->check, b->i, &found);
    canvas_text(x->c, px, ty + 2, vw, buf, differs ? x->warn : x->text,
                RGB_DEFAULT, differs ? ATTR_REVERSE : 0);
    if (differs && lw + 1 < vw)
        canvas_text(x->c, px + lw, ty, vw - lw, "!", x->warn, RGB_DEFAULT,
                    ATTR_BOLD);
    fmt_num_w(b->lambda, 4, VALUE_W, buf, sizeof buf);
    canvas_text(x->c, px, ty + 3, vw, buf, b->slow ? x->warn : x->text,
                RGB_DEFAULT, 0);
    if (rr)
        rule_cell(x, px, ty + 4, vw, b);
    if (sweep_holds(a)) {
        canvas_text(x->c, px, ty + rr + 4, vw, " ...", x->dim, RGB_DEFAULT, 0);
        canvas_text(x->c, px, ty + rr + 5, vw, " ...", x->dim, RGB_DEFAULT, 0);
    } else {
        canvas_printf(x->c, px, ty + rr + 4, vw, x->text, RGB_DEFAULT, 0,
                      "% .4f", shown(b->s));
        canvas_printf(x->c, px, ty + rr + 5, vw, x->text, RGB_DEFAULT, 0,
                      "% .4f", shown(b->c));
    }
    if (b->slow)
        canvas_printf(x->c, px, ty + rr + 6, vw, x->warn, RGB_DEFAULT, 0,
                      "0 %s>n", x->sy->lam);
    else {
        fmt_count(b->turns, vw, buf, sizeof buf);
        canvas_text(x->c, px, ty + rr + 6, vw, buf, x->text, RGB_DEFAULT, 0);
    }
    if (a->clocks.ghost)
        canvas_printf(x->c, px, ty + rr + 7, vw, x->ghost, RGB_DEFAULT, 0,
                      "%5.1f", clocks_deg_mod((double)a->clocks.k * b->omega));
}

/* Where tile t's column (its left cell) and first row are. */
static void tile_at(const struct clocks_layout *l, int t, int *px, int *y)
{
    *px = LABEL_W + (t % l->cpr) * l->pitch;
    *y = l->table_y + (t / l->cpr) * (l->block_h + 1);
}

static void table_draw(struct ctx *x)
{
    const struct clocks_state *s = &x->a->clocks;
    const struct clocks_layout *l = &x->l;
    struct clocks_band b;

    for (int r = 0; r < l->brows; r++)
        if (r * l->cpr < l->tiles)
            table_labels(x, l->table_y + r * (l->block_h + 1));
    for (int t = 0; t < l->tiles; t++) {
        int band = tile_band(s, x->half, l->tiles, t), px, y;
        tile_at(l, t, &px, &y);
        clocks_band_info(&x->a->p, band, &b);
        tile_draw(x, px, y, &b, band == s->band);
    }
}

/* ---- the binary counter ----------------------------------------------- */

static int counter_bits(int64_t n)
{
    int bits = 1;
    for (uint64_t v = (uint64_t)(n - 1); v > 1; v >>= 1)
        bits++;
    return bits;
}

static void counter_draw(struct ctx *x, int y)
{
    const params *p = &x->a->p;
    int bits = counter_bits(p->n), px = LABEL_W;
    char tail[160];

    canvas_text(x->c, 0, y, LABEL_W - 1, "bits", x->dim, RGB_DEFAULT, 0);
    for (int k = 0; k < bits && px < x->c->w; k++, px += 2) {
        int on = (int)((p->pos >> k) & 1);
        canvas_put(x->c, px, y, on ? '1' : '0', on ? x->hand : x->dim,
                   RGB_DEFAULT, on ? ATTR_BOLD : 0);
    }
    snprintf(tail, sizeof tail, "pos in binary, lowest bit first: bit k "
             "flips every 2^k positions, as band i turns every %s_i",
             x->sy->lam);
    const char *v[4] = { tail, "pos in binary, lowest bit first", "binary",
                         NULL };
    text_fit(x->c, px + 1, y, x->c->w - px - 1, x->dim, 0, v);
}

/* ---- the modes -------------------------------------------------------- */

static void draw_big(struct ctx *x)
{
    struct clocks_band b;
    int rx = 2 * x->l.face_rows + FACE_GAP;     /* face, "cos", blanks */

    clocks_band_info(&x->a->p, x->a->clocks.band, &b);
    big_face(x, &b);
    readout_draw(x, rx, x->l.top_h, &b);
}

/* Above the table: as much of the readout as the rows hold. */
static void draw_small_top(struct ctx *x)
{
    struct clocks_band b;

    if (x->l.top_h < 1)
        return;
    clocks_band_info(&x->a->p, x->a->clocks.band, &b);
    readout_draw(x, 0, x->l.top_h, &b);
    char t[32];                 /* no face to mark: the readout's band */
    view_point_mark(x->a, x->c, 0, 0, snprintf(t, sizeof t, "band i=%d", b.i));
}

static void draw_text(struct ctx *x)
{
    const struct clocks_state *s = &x->a->clocks;
    const struct syms *sy = x->sy;
    char line[200], om[16], lam[16], lw[16], ow[16], turns[24];
    struct clocks_band b;

    snprintf(lw, sizeof lw, "%s pos", sy->lam);
    snprintf(ow, sizeof ow, "%s rad/pos", sy->om);
    snprintf(line, sizeof line, "%6s %7s %7s %7s %9s %9s  %-*s%s", "i", "sin",
             "cos", "turns", lw, ow, x->rule_row ? 8 : 0,
             x->rule_row ? "rule" : "", "dims");
    fit1(x, 0, 0, x->c->w, x->dim, 0, line);
    for (int t = 0; t < x->l.tiles; t++) {
        int band = tile_band(s, x->half, x->l.tiles, t);
        clocks_band_info(&x->a->p, band, &b);
        fmt_num_w(b.omega, 4, VALUE_W, om, sizeof om);
        fmt_num_w(b.lambda, 4, VALUE_W, lam, sizeof lam);
        if (b.slow)
            snprintf(turns, sizeof turns, "0 %s>n", sy->lam);
        else
            fmt_count(b.turns, 7, turns, sizeof turns);
        snprintf(line, sizeof line, "%6d % .4f % .4f %7s %9s %9s  %-*s%d,%d",
                 b.i, shown(b.s), shown(b.c), turns, lam, om,
                 x->rule_row ? 8 : 0, x->rule_row ? rule_word(&b) : "",
                 2 * b.i, 2 * b.i + 1);
        fit1(x, 0, 1 + t, x->c->w, band == s->band ? x->cursor : x->text,
             band == s->band ? ATTR_REVERSE : 0, line);
    }
    if (x->l.counter_y >= 0)
        counter_draw(x, x->l.counter_y);
}

static void draw_too_small(struct ctx *x)
{
    const char *v[6] = { "clocks: too small, need 20x2",
                         "too small, need 20x2", "need 20x2", "small", "!",
                         NULL };
    text_fit(x->c, 0, 0, x->c->w, x->warn, 0, v);
}

/* The status hint: which bands are shown.  (The status line itself shows
 * the sweep speed while playing.) */
static void hint_write(const struct ctx *x, char *hint, size_t len)
{
    const struct clocks_state *s = &x->a->clocks;
    int tiles = x->l.tiles, half = x->half;

    if (!hint || len == 0)
        return;
    hint[0] = 0;
    if (x->check) {             /* :check's verdict, the cursor band's */
        double found;
        size_t k = (size_t)snprintf(hint, len, "%s", x->verdict);
        if (k < len && portcheck_band(x->check, s->band, &found))
            snprintf(hint + k, len - k, "; band %d found %.6g", s->band, found);
        return;
    }
    if (tiles < 1)
        return;
    if (tiles == 1) {
        snprintf(hint, len, "band %d of %d", s->band, half);
    } else if (overview(s, half, tiles)) {
        snprintf(hint, len, "%d of %d bands, evenly spread", tiles, half);
    } else {
        int a0 = tile_band(s, half, tiles, 0);
        snprintf(hint, len, "bands %d..%d of %d%s", a0, a0 + tiles - 1, half,
                 s->zoom && tiles < half ? " (- for overview)" : "");
    }
}

/* The runtime object: :check FILE first (portcheck_key takes rt for
 * it), then the layout of the last frame (bands per row and per page,
 * which the keys step by). */
struct clocks_rt {
    struct portcheck check;
    struct clocks_layout l;
    int cpr, tiles;
};
_Static_assert(offsetof(struct clocks_rt, check) == 0,
               "portcheck_key reads the check at the start of rt");

static void clocks_lay(const struct app *a, void *rt, int w, int h)
{
    struct clocks_rt *r = rt;
    lay(a, w, h, &r->l);
    r->cpr = r->l.cpr > 0 ? r->l.cpr : 1;
    r->tiles = r->l.tiles > 0 ? r->l.tiles : 1;
}

static void clocks_draw(const struct app *a, void *rt, canvas *c, char *hint,
                        size_t hintlen)
{
    struct ctx x;
    struct clocks_rt *r = rt;
    struct portcheck_set cs = check_set(a);

    ctx_init(&x, a, c);
    x.check = r ? portcheck_at(&r->check, &cs, &x.verdict) : NULL;
    switch (x.l.mode) {
    case CLOCKS_BIG:
        draw_big(&x);
        break;
    case CLOCKS_SMALL:
        draw_small_top(&x);
        break;
    case CLOCKS_TEXT:
        draw_text(&x);
        break;
    default:
        draw_too_small(&x);
        break;
    }
    if ((x.l.mode == CLOCKS_BIG || x.l.mode == CLOCKS_SMALL) &&
        x.l.brows > 0) {
        if (x.l.counter_y >= 0)
            counter_draw(&x, x.l.counter_y);
        table_draw(&x);
    }
    hint_write(&x, hint, hintlen);
}

/* ---- pixels (view.h's raster hook) ------------------------------------ */

/* Faces of the table given as images; the rest (a very wide screen)
 * stay cells. */
#define IMAGE_TILES 96

/* f as a line drawing over cells (x, y) .. (x+w-1, y+h-1). */
static int face_raster(const struct clock_face *f, int x, int y, int w, int h,
                       int cw, int ch, struct view_raster *r)
{
    int W = w * cw, H = h * ch;
    *r = (struct view_raster){ x, y, w, h, cw, ch, NULL, 1 };
    r->px = malloc((size_t)W * (size_t)H * sizeof *r->px + 1);
    if (!r->px)
        return -1;
    struct art a = { r->px, W, H };
    art_fill(&a, raster_bg());
    clocks_face_art_under(&a, f);
    clocks_face_art_hands(&a, f);
    return 0;
}

/*
 * Part 0 is the big face, part 1 + t tile t's face.  A tile's rim does
 * not mark the band cursor as its cells do (the band's number in reverse
 * video does): moving the cursor leaves the small faces' pixels as they
 * are, so it sends none of them.
 */
static int clocks_raster(const struct app *a, void *rt, int cw, int ch,
                         int part, struct view_raster *r)
{
    const struct clocks_rt *R = rt;
    struct ctx x;
    struct clocks_band b;
    struct clock_face f;
    int t = part - 1, px, y;

    ctx_colors(&x, a);
    x.l = R->l;
    x.half = a->p.d / 2;
    if (x.half < 1)
        return -1;
    if (part == 0) {
        if (x.l.mode != CLOCKS_BIG || x.l.face_rows < 1)
            return -1;
        clocks_band_info(&a->p, a->clocks.band, &b);
        big_spec(&x, &b, &f);
        return face_raster(&f, 0, BIG_FACE_Y, 2 * x.l.face_rows,
                           x.l.face_rows, cw, ch, r);
    }
    if ((x.l.mode != CLOCKS_BIG && x.l.mode != CLOCKS_SMALL) ||
        x.l.brows < 1 || t < 0 || t >= x.l.tiles || t >= IMAGE_TILES)
        return -1;
    clocks_band_info(&a->p, tile_band(&a->clocks, x.half, x.l.tiles, t), &b);
    tile_at(&x.l, t, &px, &y);
    tile_spec(&x, px, y, &b, 0, &f);
    return face_raster(&f, tile_face_x(&x, px), y, 2 * x.l.fr, x.l.fr, cw, ch,
                       r);
}

/* ---- state ------------------------------------------------------------ */

static void clocks_reset(struct app *a)
{
    memset(&a->clocks, 0, sizeof a->clocks);
    settings_reset(CLOCKS_SETTINGS, a);
}

static void clocks_params_changed(struct app *a)
{
    int half = a->p.d / 2;
    if (a->clocks.band >= half)
        a->clocks.band = half - 1;
    if (a->clocks.band0 >= half)
        a->clocks.band0 = 0;
}

/* ---- keys and commands ------------------------------------------------ */

static void band_set(struct app *a, const struct clocks_rt *r, int band)
{
    int half = a->p.d / 2, tiles = r->tiles;
    struct clocks_state *s = &a->clocks;

    s->band = band < 0 ? 0 : band >= half ? half - 1 : band;
    s->band0 = window_start(s, half, tiles < half ? tiles : half);
}

/* Move by dt tiles: in the overview from tile to tile, else band by band. */
static void band_step(struct app *a, const struct clocks_rt *r, int dt)
{
    int half = a->p.d / 2, tiles = r->tiles;
    struct clocks_state *s = &a->clocks;

    if (!overview(s, half, tiles)) {
        band_set(a, r, s->band + dt);
        return;
    }
    int t = tile_nearest(s->band, half, tiles);
    int on = tile_band(s, half, tiles, t);
    /* off a tile (after :band): the first step lands on the nearest one */
    if (dt < 0 && on < s->band)
        dt++;
    if (dt > 0 && on > s->band)
        dt--;
    t += dt;
    t = t < 0 ? 0 : t >= tiles ? tiles - 1 : t;
    band_set(a, r, tile_band(s, half, tiles, t));
}

static void zoom_set(struct app *a, const struct clocks_rt *r, int zoom)
{
    struct clocks_state *s = &a->clocks;
    int half = a->p.d / 2, tiles = r->tiles;

    s->zoom = zoom;
    if (zoom) {
        s->band0 = s->band - tiles / 2;
        band_set(a, r, s->band);
        app_msg(a, 0, "consecutive bands around band %d", s->band);
    } else {
        if (overview(s, half, tiles))
            band_set(a, r, tile_band(s, half, tiles,
                                     tile_nearest(s->band, half, tiles)));
        app_msg(a, 0, "overview: bands spread evenly from fastest to slowest");
    }
}

/* The band cursor: by a band, a row of faces, a page; or to an end. */
static int key_band(struct app *a, void *rt, int key)
{
    const struct clocks_rt *r = rt;
    int band = a->clocks.band;
    switch (key) {
    case PK_LEFT: case 'h':  band_step(a, r, -1); return 1;
    case PK_RIGHT: case 'l': band_step(a, r, 1); return 1;
    case PK_UP: case 'k':    band_step(a, r, -r->cpr); return 1;
    case PK_DOWN: case 'j':  band_step(a, r, r->cpr); return 1;
    case PK_PGUP: case 'K':  band = band - r->tiles; break;
    case PK_PGDN: case 'J':  band = band + r->tiles; break;
    case 'H':                band = 0; break;
    default:                 band = a->p.d / 2 - 1; break;   /* L */
    }
    band_set(a, r, band);
    return 1;
}

static int key_zoom(struct app *a, void *rt, int key)
{
    zoom_set(a, rt, key != '-');
    return 1;
}

/* o c: the ghost hand and the binary counter on / off. */
static int key_toggle(struct app *a, void *rt, int key)
{
    struct clocks_state *s = &a->clocks;
    (void)rt;
    if (key == 'o') {
        s->ghost = !s->ghost;
        clocks_settings_said_ghost(a);
    } else {
        s->counter = !s->counter;
        clocks_settings_said_counter(a);
    }
    return 1;
}

static int clocks_command(struct app *a, void *rt, const char *name,
                          const char *arg)
{
    if (strcmp(name, "check") == 0) {
        struct portcheck_set cs = check_set(a);
        return portcheck_command(a, &((struct clocks_rt *)rt)->check, &cs,
                                 arg);
    }
    return 0;
}

/* The ':' commands beside the rows' (CLOCKS_SETTINGS): :check FILE
 * runs a port check, which no row holds. */
static const char *const CLOCKS_COMMANDS[] = { "check", NULL };

/* The view's keys: what each does, and the help card in this order. */
static const struct keybind CLOCKS_KEYS[] = {
    KEYS_ALIAS(PK_LEFT, 'h', ACT_VIEW_KEY, "Left h", "previous band",
               key_band),
    KEYS_ALIAS(PK_RIGHT, 'l', ACT_VIEW_KEY, "Right l", "next band", key_band),
    KEYS_ALIAS(PK_UP, 'k', ACT_VIEW_KEY, "Up k", "band one row up", key_band),
    KEYS_ALIAS(PK_DOWN, 'j', ACT_VIEW_KEY, "Down j", "band one row down",
               key_band),
    KEYS_ALIAS(PK_PGUP, 'K', ACT_VIEW_KEY, "K PgUp", "a page of bands back",
               key_band),
    KEYS_ALIAS(PK_PGDN, 'J', ACT_VIEW_KEY, "J PgDn", "a page of bands on",
               key_band),
    { 'H',      ACT_VIEW_KEY, "H",       "fastest band", key_band },
    { 'L',      ACT_VIEW_KEY, "L",       "slowest band", key_band },
    KEYS_ALIAS('+', '=', ACT_VIEW_KEY, "+", "consecutive bands", key_zoom),
    { '-',      ACT_VIEW_KEY, "-",       "all bands, evenly spread", key_zoom },
    { 'o',      ACT_VIEW_KEY, "o",       "ghost hand at pos+k (:k N)", key_toggle },
    { 'c',      ACT_VIEW_KEY, "c",       "binary counter of pos", key_toggle },
    { PK_ESC,   ACT_VIEW_KEY, "Esc",     "clear :check FILE", portcheck_key },
    { 0,        ACT_NONE,     NULL,      NULL, NULL }
};

static const struct state_field CLOCKS_FIELDS[] = {
    SF_ROW_BOUND("clk.band", SF_INT, clocks.band, 0, SF_BAND),
    SF_ROW_BOUND("clk.band0", SF_INT, clocks.band0, 0, SF_BAND),
    SF_ROW_INT("clk.zoom", clocks.zoom, 0, 1),
    SF_ROW_INT("clk.ghost", clocks.ghost, 0, 1),
    { .name = "clk.k", .type = SF_I64, .off = SF_OFF(clocks.k),
      .lo = -PARAM_N_MAX, .hi = PARAM_N_MAX },
    SF_ROW_INT("clk.counter", clocks.counter, 0, 1),
    { 0 }
};

static void clocks_point_text(const struct app *a, char *t, size_t len)
{
    snprintf(t, len, "band i=%d", a->clocks.band);
}

const struct view VIEW_CLOCKS_DEF = {
    .name = "clocks", .title = "PE clocks", .rt_size = sizeof(struct clocks_rt),
    .reset = clocks_reset, .params_changed = clocks_params_changed,
    /* Paced to 1800 B/s at 80x24, under 2 KB/s over any few seconds: a
     * frame of a sweep with every hand and number is about 500 bytes
     * (3.6 frames/s), one of the hands alone (sweep_holds) under 300
     * (6 frames/s or more at 16 pos/s), each still turning every face. */
    .layout = clocks_lay, .draw = clocks_draw, .pace = 1800.0 / (80 * 24),
    .raster = clocks_raster, .raster_parts = 1 + IMAGE_TILES,
    .point_text = clocks_point_text, .keys = CLOCKS_KEYS,
    .fields = CLOCKS_FIELDS, .settings = CLOCKS_SETTINGS,
    .command = clocks_command, .commands = CLOCKS_COMMANDS,
    .about =
        "Each band i of the encoding is a clock hand that turns omega_i = "
        "base^(-2i/d) radians per position. At position pos the hand stands "
        "at the angle pos*omega_i, measured from 3 o'clock and turning "
        "counter-clockwise, so its tip is right by cos = PE(pos,2i+1) and up "
        "by sin = PE(pos,2i). Fast bands (small i) spin like the low bits of "
        "a binary counter; slow bands barely move, and those whose "
        "wavelength 2*pi/omega_i exceeds n never finish one turn. The ghost "
        "hand shows pos+k: every hand is turned by k*omega_i, the rotation "
        "M_k that makes PE(pos+k) a linear function of PE(pos). With a RoPE "
        "scaling the hands turn at the scaled omega_i and a rule row names "
        "what the scaling did to each band: kept, blend(ed), interp(olated), "
        "rebase(d) or rescale(d). Commands: "
        ":k N sets the ghost offset, :band N picks a band, :check FILE "
        "marks the bands where a dumped inv_freq differs (Esc or :check "
        "off clears it).",
};
