/* SPDX-License-Identifier: ISC */
/*
 * compare_ratio.c - the compare view's ratio mode: band by band, the
 * frequency each pane uses divided by pane A's, omega_X,i / omega_A,i,
 * on a log scale with 1 (the same frequency) marked, so two models or
 * two implementations of one model (YaRN with and without truncation,
 * llama3.1-8b against llama3-8b) compare at a glance.  The first bands
 * of pane A whose wavelength exceeds its trained length L and n are
 * marked.  A pane with another number of bands than A is not compared:
 * band i would not be the same frequency; the text and the status line
 * say so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "glyph.h"
#include "plot.h"
#include "text.h"
#include "peviz/pe.h"
#include "compare_view.h"

#define RATIO_LABW 6        /* "1/128" and a blank */
#define MIN_DECADES 0.1     /* the y range spans at least this (x1.26) */

/* One pane's ratios to pane A. */
struct ratio_series {
    int k;                  /* the pane (1, 2) */
    int ok;                 /* same number of bands as A */
    double *lr;             /* [half] log10(omega_k / omega_A) */
    int equal;              /* bands whose ratio is exactly 1 */
    int ilo, ihi;           /* the bands of the least and largest ratio */
};

/* Shared vertical scale: log10 of the ratio, in dot rows. */
struct rscale {
    double lo, hi;
    int dots;
};

static int rs_dot(const struct rscale *s, double v)
{
    double t = (s->hi - v) / (s->hi - s->lo);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return (int)lround(t * (s->dots - 1));
}

/* omega_k,i / omega_A,i for every band; 0 when d differs or no memory. */
static int series_make(const struct rpane *rp, const struct scaled *sc, int k,
                       struct ratio_series *s)
{
    int half = rp[0].d / 2;
    memset(s, 0, sizeof *s);
    s->k = k;
    if (rp[k].d != rp[0].d || rp[k].has != SCHEME_HAS_BANDS ||
        rp[0].has != SCHEME_HAS_BANDS)      /* no bands: no ratio */
        return 0;
    s->lr = malloc((size_t)half * sizeof *s->lr);
    if (!s->lr)
        return 0;
    s->ok = 1;
    for (int i = 0; i < half; i++) {
        double r = cmp_band_omega(&rp[k], &sc[k], i) /
                   cmp_band_omega(&rp[0], &sc[0], i);
        s->lr[i] = log10(r);
        s->equal += r == 1;
        if (s->lr[i] < s->lr[s->ilo])
            s->ilo = i;
        if (s->lr[i] > s->lr[s->ihi])
            s->ihi = i;
    }
    return 1;
}

static struct rscale ratio_scale(const struct ratio_series *s, int ns,
                                 int half, int rows)
{
    double lo = 0, hi = 0;          /* 1 is always on the scale */
    for (int j = 0; j < ns; j++)
        for (int i = 0; s[j].ok && i < half; i++)
            if (isfinite(s[j].lr[i])) {
                lo = fmin(lo, s[j].lr[i]);
                hi = fmax(hi, s[j].lr[i]);
            }
    if (hi - lo < MIN_DECADES) {
        double grow = (MIN_DECADES - (hi - lo)) / 2;
        lo -= grow;
        hi += grow;
    }
    double pad = 0.06 * (hi - lo);
    struct rscale r = { lo - pad, hi + pad, 4 * rows };
    return r;
}

/* A ratio as a tick label: "8", "1/8", "1e3", "1e-3". */
static void ratio_label(int e2, int e10, char *buf, size_t len)
{
    if (e10)
        snprintf(buf, len, "1e%d", e10);
    else if (e2 >= 0)
        snprintf(buf, len, "%.0f", ldexp(1, e2));
    else
        snprintf(buf, len, "1/%.0f", ldexp(1, -e2));
}

/* Ticks at powers of two (of ten, a round number of decades apart, past
 * 1/128..128), 1 always, never on neighbouring rows, never a label wider
 * than the gutter. */
static void ratio_ticks(const struct app *a, canvas *c, const struct geom *g,
                        const struct rscale *s)
{
    int dec = s->hi - s->lo > 2 * log10(128), one = rs_dot(s, 0) / 4;
    double step = dec ? plot_nice_step(8 * (s->hi - s->lo) / s->dots, 1)
                      : log10(2);
    int e0 = (int)ceil(s->lo / step), e1 = (int)floor(s->hi / step), last = -9;
    char t[16];
    for (int e = e0; e <= e1; e++) {
        int row = rs_dot(s, e * step) / 4;
        if (e != 0 && (abs(row - one) < 2 || abs(row - last) < 2))
            continue;
        ratio_label(dec ? 0 : e, dec ? (int)lround(e * step) : 0, t, sizeof t);
        if (dec && e == 0)
            snprintf(t, sizeof t, "1");
        if (text_width(t) >= g->labw)
            continue;
        cmp_text_right(c, g->labw - 1, g->body_y + row, t,
                       cmp_uc(a, e == 0 ? UI_TEXT : UI_AXIS));
        last = row;
    }
}

/* The first band of pane A whose unscaled wavelength exceeds len, or -1. */
static int band_past(const struct rpane *r, double len)
{
    for (int i = 0; i < r->d / 2; i++)
        if (cmp_log10_wavelength(r, i) > log10(len))
            return i;
    return -1;
}

/* The trained length the markers use: A's, else the first other one. */
static int64_t ratio_L(const struct rpane *rp, int np)
{
    for (int k = 0; k < np; k++)
        if (rp[k].rope->original_max > 0)
            return rp[k].rope->original_max;
    return 0;
}

static void vline_text(canvas *pc, int col, const char *g, rgb fg)
{
    for (int y = 0; y < pc->h; y++)
        canvas_text(pc, col, y, 1, g, fg, RGB_DEFAULT, 0);
}

/* The 1 line, and L and n as vertical lines at pane A's bands. */
static void ratio_guides(const struct app *a, canvas *pc,
                         const struct rpane *rp, int np,
                         const struct rscale *s, int marks[2])
{
    int half = rp[0].d / 2, wd = 2 * pc->w, one = rs_dot(s, 0) / 4;
    for (int x = 0; x < pc->w; x++)
        canvas_text(pc, x, one, 1, glyph_pick(a->ascii, "\u2504", "-"),
                    cmp_uc(a, UI_DIM), RGB_DEFAULT, 0);
    int64_t L = ratio_L(rp, np);
    marks[0] = L > 0 ? band_past(&rp[0], (double)L) : -1;
    marks[1] = rp[0].crit < half ? rp[0].crit : -1;
    if (marks[0] >= 0)
        vline_text(pc, cmp_band_dot(marks[0], half, wd) / 2,
                   glyph_pick(a->ascii, "\u2502", "|"), cmp_uc(a, UI_TEXT));
    if (marks[1] >= 0)
        vline_text(pc, cmp_band_dot(marks[1], half, wd) / 2,
                   glyph(a->ascii, GL_VDOTS), cmp_uc(a, UI_WARN));
}

static void ratio_marker_labels(const struct app *a, canvas *pc,
                                const struct rpane *rp, int np,
                                const int marks[2])
{
    int half = rp[0].d / 2, wd = 2 * pc->w;
    char t[48];
    if (marks[0] >= 0) {
        snprintf(t, sizeof t, "L=%lld", (long long)ratio_L(rp, np));
        cmp_label_beside(pc, cmp_band_dot(marks[0], half, wd) / 2, 0, t,
                     cmp_uc(a, UI_TEXT));
    }
    if (marks[1] >= 0) {
        snprintf(t, sizeof t, "n=%lld", (long long)rp[0].n);
        cmp_label_beside(pc, cmp_band_dot(marks[1], half, wd) / 2, 0, t,
                     cmp_uc(a, UI_WARN));
    }
}

/* One series: a braille line in the pane's colour, its letter on it at
 * intervals (so it reads without colour). */
static void ratio_curve(const struct app *a, canvas *pc,
                        const struct ratio_series *s, int nth, int half,
                        const struct rscale *sc)
{
    int wd = 2 * pc->w, px = -1, py = -1;
    rgb col = cmp_pane_rgb(a, s->k);
    for (int i = 0; i < half; i++) {
        int x = cmp_band_dot(i, half, wd), y = rs_dot(sc, s->lr[i]);
        if (px >= 0)
            canvas_line(pc, px, py, x, y, col);
        else
            canvas_dot(pc, x, y, col);
        px = x;
        py = y;
    }
    char m[2] = { (char)('A' + s->k), 0 };
    int every = pc->w / 6 > 4 ? pc->w / 6 : 4, last = -every;
    for (int i = 0; i < half; i++) {
        int col_ = cmp_band_dot(i, half, wd) / 2;
        if (col_ - last < every || (col_ + nth * every / 2) % every >= 2)
            continue;
        canvas_text(pc, col_, rs_dot(sc, s->lr[i]) / 4, 1, m, col,
                    RGB_DEFAULT, ATTR_BOLD);
        last = col_;
    }
}

/* Under the plot, one line per pane: how its ratios run, or why it is
 * not compared. */
static void ratio_text(const struct app *a, canvas *c, int x, int y, int w,
                       const struct rpane *rp, const struct ratio_series *s)
{
    char t[3][160], lo[24], hi[24];
    const struct rpane *r = &rp[s->k];
    int half = rp[0].d / 2, L = 'A' + s->k;
    const struct rpane *nb = rp[0].has != SCHEME_HAS_BANDS ? &rp[0] : r;
    if (!s->ok && nb->has != SCHEME_HAS_BANDS) {    /* a scheme without */
        snprintf(t[0], sizeof t[0], "%c/A not compared: %c's %s has no "
                 "bands (%s)", L, 'A' + nb->id,
                 scheme_name((enum scheme)nb->scheme),
                 scheme_has_name(nb->has));
        snprintf(t[1], sizeof t[1], "%c/A: %c has no bands", L, 'A' + nb->id);
        snprintf(t[2], sizeof t[2], "%c: no bands", L);
    } else if (!s->ok) {
        snprintf(t[0], sizeof t[0], "%c has %d bands (d=%d), A %d (d=%d): "
                 "band i is not the same frequency, not compared", L,
                 r->d / 2, r->d, half, rp[0].d);
        snprintf(t[1], sizeof t[1], "%c: d=%d, A d=%d: not compared", L,
                 r->d, rp[0].d);
        snprintf(t[2], sizeof t[2], "%c: d differs", L);
    } else if (s->equal == half) {
        snprintf(t[0], sizeof t[0], "%c/A = 1 in all %d bands: the same "
                 "frequencies", L, half);
        snprintf(t[1], sizeof t[1], "%c/A = 1 in all %d bands", L, half);
        snprintf(t[2], sizeof t[2], "%c/A = 1", L);
    } else {
        fmt_num(pow(10, s->lr[s->ilo]), 6, lo, sizeof lo);
        fmt_num(pow(10, s->lr[s->ihi]), 6, hi, sizeof hi);
        snprintf(t[0], sizeof t[0], "%c/A: %d of %d bands equal, least %s "
                 "(band %d), most %s (band %d)", L, s->equal, half, lo,
                 s->ilo, hi, s->ihi);
        snprintf(t[1], sizeof t[1], "%c/A: %d/%d equal, %s (%d) .. %s (%d)",
                 L, s->equal, half, lo, s->ilo, hi, s->ihi);
        snprintf(t[2], sizeof t[2], "%c/A %d equal %s..%s", L, s->equal, lo,
                 hi);
    }
    const char *cand[3] = { t[0], t[1], t[2] };
    canvas_text_fit(c, x, y, w, cand, 3, cmp_pane_rgb(a, s->k), 0);
}

/* A pane's rule for band b: its scaling's, or "unscaled"; short: the
 * words of the spectrum's counts. */
static const char *band_rule(const struct scaled *sc, int b, int shrt)
{
    static const char *const SHORT[ROPE_RULE_COUNT] = {
        "kept", "blend", "interp", "rebased", "rescaled", "still"
    };
    if (!sc->on)
        return "unscaled";
    return shrt ? SHORT[sc->rule[b]]
                : rope_rule_name((enum rope_rule)sc->rule[b]);
}

/* The readout: band i, each pane's rule and omega, each ratio (10 digits)
 * of a pane with A's bands. */
static void ratio_readout(const struct app *a, canvas *c,
                          const struct cmp_frame *f)
{
    int b = a->cmp.band, np = f->np;
    const struct rpane *rp = f->rp;
    const struct scaled *sc = f->sc;
    char line[3][320];
    const char *bar = glyph(a->ascii, GL_VBAR), *om = glyph(a->ascii, GL_OMEGA);
    for (int v = 0; v < 3; v++) {
        int len = snprintf(line[v], sizeof line[v], "band %d", b);
        for (int k = 0; k < np && v < 2; k++) {
            if (b >= rp[k].d / 2) {
                len += snprintf(line[v] + len, sizeof line[v] - (size_t)len,
                                " %s %c -", bar, 'A' + k);
                continue;
            }
            char w[32];
            fmt_num(cmp_band_omega(&rp[k], &sc[k], b), v == 0 ? 10 : 6, w,
                    sizeof w);
            len += snprintf(line[v] + len, sizeof line[v] - (size_t)len,
                            " %s %c %s %s %s", bar, 'A' + k,
                            band_rule(&sc[k], b, v), om, w);
        }
        for (int k = 1; k < np; k++) {
            if (rp[k].d != rp[0].d || b >= rp[0].d / 2)
                continue;
            char q[32];
            fmt_num(cmp_band_omega(&rp[k], &sc[k], b) /
                    cmp_band_omega(&rp[0], &sc[0], b), 10, q, sizeof q);
            len += snprintf(line[v] + len, sizeof line[v] - (size_t)len,
                            " %s %c/A %s", bar, 'A' + k, q);
        }
    }
    const char *cand[3] = { line[0], line[1], line[2] };
    canvas_text_fit(c, 0, f->g.read_y, c->w, cand, 3, cmp_uc(a, UI_TEXT), 0);
}

static void ratio_legend(const struct app *a, canvas *c, int y,
                         const struct ratio_series *s, int ns,
                         const int marks[2])
{
    int x = 0;
    char mk[16], what[16];
    for (int j = 0; j < ns; j++) {
        if (!s[j].ok)
            continue;
        snprintf(mk, sizeof mk, "%s%c", glyph_pick(a->ascii, "\u2824", "."),
                 'A' + s[j].k);
        snprintf(what, sizeof what, " %c/A", 'A' + s[j].k);
        x = cmp_legend_piece(c, x, y, mk, cmp_pane_rgb(a, s[j].k), what,
                             cmp_uc(a, UI_TEXT));
    }
    x = cmp_legend_piece(c, x, y, glyph_pick(a->ascii, "\u2504", "-"),
                         cmp_uc(a, UI_DIM), " 1: same", cmp_uc(a, UI_TEXT));
    char t[2][48];
    const char *lam = glyph(a->ascii, GL_LAMBDA_WL);
    /* where A's wavelengths pass L and n: long words when they fit */
    int wide = c->w - x >= 70;
    snprintf(t[0], sizeof t[0], wide ? " A's first band with %s > L"
                                     : " %s_A > L", lam);
    if (marks[0] >= 0)
        snprintf(t[1], sizeof t[1], wide ? " ... > n" : " %s_A > n", lam);
    else            /* no L: the n mark alone, named in full */
        snprintf(t[1], sizeof t[1], wide ? " A's first band with %s > n"
                                         : " %s_A > n", lam);
    if (marks[0] >= 0)
        x = cmp_legend_piece(c, x, y, glyph_pick(a->ascii, "\u2502", "|"),
                             cmp_uc(a, UI_TEXT), t[0], cmp_uc(a, UI_TEXT));
    if (marks[1] >= 0)
        x = cmp_legend_piece(c, x, y, glyph(a->ascii, GL_VDOTS),
                             cmp_uc(a, UI_WARN), t[1], cmp_uc(a, UI_TEXT));
    if (c->w - x >= 28)
        canvas_printf(c, x, y, -1, cmp_uc(a, UI_DIM), RGB_DEFAULT, 0,
                      "y: %s_X/%s_A per band (log)", glyph(a->ascii, GL_OMEGA),
                      glyph(a->ascii, GL_OMEGA));
}

/* The status line: the axes, or the panes that are not compared. */
static void ratio_hint(const struct app *a, const struct rpane *rp,
                       const struct ratio_series *s, int ns, char *hint,
                       size_t hintlen)
{
    for (int j = 0; j < ns; j++)
        if (!s[j].ok) {
            snprintf(hint, hintlen, "pane %c has d=%d, A d=%d: its bands are "
                     "other frequencies, no ratio (:d %d makes them equal)",
                     'A' + s[j].k, rp[s[j].k].d, rp[0].d, rp[0].d);
            return;
        }
    snprintf(hint, hintlen, "x = band i, y = %s_X,i / %s_A,i (log); "
             "Left/Right: band", glyph(a->ascii, GL_OMEGA),
             glyph(a->ascii, GL_OMEGA));
}

static int ratio_draw(const struct app *a, canvas *c,
                      const struct cmp_frame *f, const struct cmp_values *v,
                      char *hint, size_t hintlen)
{
    const struct geom *g = &f->g;
    const struct rpane *rp = f->rp;
    int ns = g->np - 1, half = rp[0].d / 2;
    int nt = g->body_h >= 10 ? ns : 0, ph = g->body_h - nt;
    int pw = c->w - g->labw;
    if (ns < 1 || ph < 2 || pw < 8) {
        snprintf(hint, hintlen, "ratios need two panes and more room");
        return -1;
    }
    (void)v;
    struct ratio_series s[COMPARE_MAX_PANES - 1];
    for (int j = 0; j < ns; j++)
        series_make(rp, f->sc, j + 1, &s[j]);
    struct rscale ys = ratio_scale(s, ns, half, ph);
    canvas pc = canvas_sub(c, g->labw, g->body_y, pw, ph);
    int marks[2];
    ratio_guides(a, &pc, rp, g->np, &ys, marks);
    for (int j = 0; j < ns; j++)
        if (s[j].ok)
            ratio_curve(a, &pc, &s[j], j, half, &ys);
    ratio_marker_labels(a, &pc, rp, g->np, marks);
    ratio_ticks(a, c, g, &ys);
    for (int j = 0; j < nt; j++)
        ratio_text(a, c, g->labw, g->body_y + ph + j, pw, rp, &s[j]);
    if (g->axis_y >= 0)
        cmp_band_axis(a, c, g->labw, pw, g->axis_y, half);
    if (g->legend_y >= 0)
        ratio_legend(a, c, g->legend_y, s, ns, marks);
    ratio_hint(a, rp, s, ns, hint, hintlen);
    for (int j = 0; j < ns; j++)
        free(s[j].lr);
    return 0;
}

/* The gutter for the tick labels: "1/128", or "1e-100" when a ratio to
 * pane A falls that far. */
static void ratio_layout(const struct app *a, struct cmp_frame *f)
{
    const struct rpane *rp = f->rp;
    const struct scaled *sc = f->sc;
    int wide = 0;
    (void)a;
    cmp_scaled_make(f);
    for (int k = 1; k < f->np && !wide; k++)
        for (int i = 0; rp[k].d == rp[0].d && i < rp[0].d / 2 && !wide; i++)
            wide = log10(cmp_band_omega(&rp[k], &sc[k], i) /
                         cmp_band_omega(&rp[0], &sc[0], i)) < -90;
    cmp_geom_make(f, wide ? RATIO_LABW + 1 : RATIO_LABW);
}

const struct cmp_mode CMP_RATIO = {
    .name = "ratio", .bands = 1, .noun = "ratio plot", .vs_a = 1,
    .layout = ratio_layout, .draw = ratio_draw, .readout = ratio_readout,
};
