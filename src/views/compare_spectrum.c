/* SPDX-License-Identifier: ISC */
/*
 * compare_spectrum.c - the compare view's spectrum mode: each pane's
 * wavelength per band on a log scale, with n, the critical band and,
 * for a scaled pane, its scaled bands marked by their rule over the
 * unscaled curve, the trained length L, and the readout of the band
 * under the cursor.
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

/* Shared vertical scale: log10 of wavelengths, in dot rows. */
struct yscale {
    double lo, hi;          /* log10 range shown */
    int dots;               /* dot rows */
};

static int ys_dot(const struct yscale *s, double v)
{
    double t = (s->hi - v) / (s->hi - s->lo);
    t = !(t >= 0) ? 0 : t > 1 ? 1 : t;  /* a NaN too: never past an int */
    return (int)lround(t * (s->dots - 1));
}

static struct yscale spectrum_scale(const struct rpane *rp,
                                    const struct scaled *sc, int np, int rows)
{
    double top = LOG10_2PI + 1;
    for (int k = 0; k < np; k++) {
        double l = cmp_log10_wavelength(&rp[k], rp[k].d / 2 - 1);
        double ln = log10((double)rp[k].n);
        top = fmax(top, fmax(l, ln));
        if (sc[k].on)
            top = fmax(top, log10(sc[k].wl_max));
        if (sc[k].on && rp[k].rope->original_max > 0)
            top = fmax(top, log10((double)rp[k].rope->original_max));
    }
    double pad = 0.04 * (top - LOG10_2PI);
    struct yscale s = { LOG10_2PI - pad, top + pad, 4 * rows };
    return s;
}

/* Powers of ten up the y axis: every step-th decade, the step round and
 * at least a row, so that a label never stands for a row far from it. */
static void spectrum_ticks(const struct app *a, canvas *c, const struct geom *g,
                           const struct yscale *s)
{
    if (g->labw < 4)
        return;
    int last = -2, step = (int)plot_nice_step(4 * (s->hi - s->lo) / s->dots, 1);
    /* no wavelength is below 2*pi: the first tick is 10 */
    for (int e = step > 1 ? step : 1; e <= (int)floor(s->hi); e += step) {
        int row = ys_dot(s, e) / 4;
        if (row == last)
            continue;
        char t[16];
        if (e <= 3)
            snprintf(t, sizeof t, "%.0f", pow(10, e));
        else
            snprintf(t, sizeof t, "1e%d", e);
        cmp_text_right(c, g->labw - 1, g->body_y + row, t, cmp_uc(a, UI_AXIS));
        last = row;
    }
}

/* Each rule's colour and its mark, one character that reads without
 * colour and in ASCII (the legend shows each): kept in the pane's
 * colour, blended and interpolated in the accent and warning colours. */
static const char *const RULE_MARK[ROPE_RULE_COUNT] = {
    [ROPE_KEPT] = "+", [ROPE_BLENDED] = "x", [ROPE_INTERPOLATED] = "#",
    [ROPE_REBASED] = "%", [ROPE_RESCALED] = "&", [ROPE_STILL] = "o"
};

static rgb rule_rgb(const struct app *a, int k, int rule)
{
    switch (rule) {
    case ROPE_KEPT:         return cmp_pane_rgb(a, k);
    case ROPE_BLENDED:      return cmp_uc(a, UI_ACCENT);
    case ROPE_INTERPOLATED: return cmp_uc(a, UI_WARN);
    default:                return cmp_uc(a, UI_CURSOR);
    }
}

/* The marks of the lines, each its own in UTF-8 and in ASCII. */
static const char *mark_n(int ascii)    { return glyph_pick(ascii, "\u2504", "-"); }
static const char *mark_L(int ascii)    { return glyph_pick(ascii, "\u2508", "="); }
static const char *mark_crit(int ascii) { return glyph(ascii, GL_VDOTS); }
static const char *mark_curve(int ascii)
{
    return glyph_pick(ascii, "\u2824\u2824", "..");
}

/* A text line across row y, every step-th cell. */
static void hline_text(canvas *pc, int y, int step, const char *g, rgb fg)
{
    for (int x = 0; x < pc->w; x += step)
        canvas_text(pc, x, y, 1, g, fg, RGB_DEFAULT, 0);
}

/* The scaled bands: one mark per band, by its rule, over the unscaled
 * curve. */
static void spectrum_plot_scaled(const struct app *a, canvas *pc, int k,
                                 const struct rpane *r, const struct scaled *sc,
                                 const struct yscale *s)
{
    int half = r->d / 2, wd = 2 * pc->w;
    for (int i = 0; i < half; i++) {
        int x = cmp_band_dot(i, half, wd) / 2;
        int y = ys_dot(s, log10(2 * PEVIZ_PI / sc->w[i])) / 4;
        canvas_text(pc, x, y, 1, RULE_MARK[sc->rule[i]],
                    rule_rgb(a, k, sc->rule[i]), RGB_DEFAULT, ATTR_BOLD);
    }
}

/* n, L (scaled panes) and the critical band: text lines under the rest. */
static void spectrum_guides(const struct app *a, canvas *pc,
                            const struct rpane *r, const struct scaled *sc,
                            const struct yscale *s)
{
    int half = r->d / 2, wd = 2 * pc->w;
    hline_text(pc, ys_dot(s, log10((double)r->n)) / 4, 1, mark_n(a->ascii),
               cmp_uc(a, UI_WARN));
    if (sc->on && r->rope->original_max > 0)
        hline_text(pc, ys_dot(s, log10((double)r->rope->original_max)) / 4,
                   2, mark_L(a->ascii), cmp_uc(a, UI_TEXT));
    if (r->crit < half) {
        int xc = cmp_band_dot(r->crit, half, wd) / 2;
        for (int y = 0; y < pc->h; y++)
            canvas_text(pc, xc, y, 1, mark_crit(a->ascii), cmp_uc(a, UI_ACCENT),
                        RGB_DEFAULT, 0);
    }
}

/* Text t near row y: above or below it, at the left end or the right
 * end, where it covers nothing; else above at the left. */
static void label_near(canvas *pc, int y, int right, const char *t, rgb fg)
{
    int tw = text_width(t), xs[2] = { 0, pc->w - tw };
    for (int side = 0; side < 2; side++) {
        int x = xs[(side + right) % 2];
        if (cmp_label_try(pc, x, y - 1, t, fg, 0) ||
            cmp_label_try(pc, x, y + 1, t, fg, 0))
            return;
    }
    canvas_text(pc, xs[right], y > 0 ? y - 1 : y + 1, pc->w, t, fg,
                RGB_DEFAULT, 0);
}

/* The labels go on last, beside their lines, over nothing drawn. */
static void spectrum_labels(const struct app *a, canvas *pc,
                            const struct rpane *r, const struct scaled *sc,
                            const struct yscale *s)
{
    char t[40];
    int half = r->d / 2;
    snprintf(t, sizeof t, "n=%lld", (long long)r->n);
    label_near(pc, ys_dot(s, log10((double)r->n)) / 4, 0, t,
               cmp_uc(a, UI_WARN));
    if (sc->on && r->rope->original_max > 0) {
        snprintf(t, sizeof t, "L=%lld", (long long)r->rope->original_max);
        label_near(pc, ys_dot(s, log10((double)r->rope->original_max)) / 4, 1,
                   t, cmp_uc(a, UI_TEXT));
    }
    if (r->crit < half) {
        snprintf(t, sizeof t, "crit %d", r->crit);
        cmp_label_beside(pc, cmp_band_dot(r->crit, half, 2 * pc->w) / 2, 0, t,
                         cmp_uc(a, UI_ACCENT));
    }
}

static void spectrum_plot(const struct app *a, canvas *pc, int k,
                          const struct rpane *r, const struct scaled *sc,
                          const struct yscale *s)
{
    int half = r->d / 2, wd = 2 * pc->w;
    spectrum_guides(a, pc, r, sc, s);
    double l0 = cmp_log10_wavelength(r, 0);
    double step = half > 1 ? (cmp_log10_wavelength(r, half - 1) - l0)
                             / (half - 1) : 0;
    /* log wavelength is linear in the band: draw straight segments,
     * bright while bands turn, dim from the critical band on (all dim
     * under scaled marks) */
    if (r->crit_base > 0)
        canvas_line(pc, cmp_band_dot(0, half, wd), ys_dot(s, l0),
                    cmp_band_dot(r->crit_base - 1, half, wd),
                    ys_dot(s, l0 + step * (r->crit_base - 1)),
                    sc->on ? cmp_uc(a, UI_DIM) : cmp_pane_rgb(a, k));
    /* bands that do not turn: a '~' per cell, a mark of their own that
     * reads without colour (the legend shows it) */
    for (int b = r->crit_base; b < half; b++) {
        int col = cmp_band_dot(b, half, wd) / 2;
        int row = ys_dot(s, l0 + step * b) / 4;
        const cell *kc = canvas_at(pc, col, row);
        if (kc && (kc->kind != CELL_TEXT || kc->ch == ' '))
            canvas_put(pc, col, row, '~', cmp_uc(a, UI_DIM), RGB_DEFAULT, 0);
    }
    if (sc->on)
        spectrum_plot_scaled(a, pc, k, r, sc, s);
    spectrum_labels(a, pc, r, sc, s);
}

/* Whether the counts name rule r: the three of a ramp always (also at
 * 0, as for linear), the others when some band has them. */
static int rule_counted(const struct scaled *sc, int r)
{
    return sc->count[r] > 0 || (r <= ROPE_INTERPOLATED &&
                                sc->count[ROPE_REBASED] == 0);
}

static void spectrum_text_scaled(const struct app *a, canvas *c, int x, int y,
                                 int w, const struct rpane *r,
                                 const struct scaled *sc)
{
    static const char *const WORD[3][ROPE_RULE_COUNT] = {
        { "kept", "blended", "interpolated", "rebased", "rescaled", "still" },
        { "kept", "blend", "interp", "rebased", "rescaled", "still" },
        { "+", "x", "#", "%", "&", "o" }    /* the plot's marks */
    };
    char s[6][200], m[48], rng[2][128];
    params_format_rope(&(params){ .rope = *r->rope }, m, sizeof m);
    /* the rules as band ranges first: "kept 0-28 · blend 29-34 · ..." */
    plan_rule_ranges(r->plan, glyph_pick(a->ascii, "\u2013", "-"),
                     glyph_pick(a->ascii, " \u00b7 ", ", "), rng[0],
                     sizeof rng[0]);
    plan_rule_ranges(r->plan, "-", " ", rng[1], sizeof rng[1]);
    size_t n[4];
    for (int v = 0; v < 4; v++)
        n[v] = (size_t)snprintf(s[v], sizeof s[v], "%s%s", v < 2 ? m : "",
                                v == 0 ? ":" : "");
    for (int k = 0; k < ROPE_RULE_COUNT; k++) {
        if (!rule_counted(sc, k))
            continue;
        int cnt = sc->count[k];
        n[0] += (size_t)snprintf(s[0] + n[0], sizeof s[0] - n[0], "%s %d %s",
                                 n[0] > strlen(m) + 1 ? "," : "", cnt, WORD[0][k]);
        n[1] += (size_t)snprintf(s[1] + n[1], sizeof s[1] - n[1], " %d %s",
                                 cnt, WORD[1][k]);
        n[2] += (size_t)snprintf(s[2] + n[2], sizeof s[2] - n[2], "%s%d %s",
                                 n[2] ? " " : "", cnt, WORD[1][k]);
        n[3] += (size_t)snprintf(s[3] + n[3], sizeof s[3] - n[3], "%s%d%s",
                                 n[3] ? " " : "", cnt, WORD[2][k]);
        if (n[0] >= sizeof s[0] || n[1] >= sizeof s[1] ||
            n[2] >= sizeof s[2] || n[3] >= sizeof s[3])
            break;
    }
    char s6[128];
    snprintf(s[4], sizeof s[4], "%s: %s", m, rng[0]);
    snprintf(s[5], sizeof s[5], "%s", rng[0]);
    snprintf(s6, sizeof s6, "%s", rng[1]);     /* the ranges, compact */
    const char *cand[7] = { s[4], s[5], s6, s[0], s[1], s[2], s[3] };
    canvas_text_fit(c, x, y, w, cand, 7, cmp_uc(a, UI_ACCENT), 0);
}

static void spectrum_text(const struct app *a, canvas *c, int x, int y, int w,
                          int lines, const struct rpane *r,
                          const struct scaled *sc)
{
    if (sc->on && lines > 0) {
        spectrum_text_scaled(a, c, x, y, w, r, sc);
        y++;
        lines--;
    }
    char hz[2][CMP_HORIZON_LEN];
    const char *hc[2] = { hz[0], hz[1] };
    if (lines > 0 && cmp_horizon_text(a, r, hz) &&
        canvas_text_fit(c, x, y++, w, hc, 2, cmp_uc(a, UI_TEXT), 0) >= 0)
        lines--;
    int half = r->d / 2;
    char s[3][3][128], v1[24], v2[24];
    const char *lam = glyph(a->ascii, GL_LAMBDA_WL), *pi2 = glyph_pick(a->ascii, "2\u03C0", "2pi");
    const char *mul = glyph(a->ascii, GL_MUL);
    cmp_num_log10(cmp_log10_wavelength(r, half - 1), v1, sizeof v1);
    cmp_num_log10(LOG10_2PI + log10(r->base), v2, sizeof v2);   /* 2*pi*base */
    snprintf(s[0][0], sizeof s[0][0], "%d of %d bands turn %s1%s within n",
             r->crit, half, glyph_pick(a->ascii, "\u2265", ">="), glyph(a->ascii, GL_TIMES));
    snprintf(s[0][1], sizeof s[0][1], "%d/%d bands turn in n", r->crit, half);
    snprintf(s[0][2], sizeof s[0][2], "%d/%d turn", r->crit, half);
    if (sc->on) {       /* scaled: the bands that turn at the omegas used */
        int t = r->plan->nturn;
        snprintf(s[0][0], sizeof s[0][0], "%d of %d bands turn %s1%s in n "
                 "(%d unscaled)", t, half, glyph_pick(a->ascii, "\u2265", ">="),
                 glyph(a->ascii, GL_TIMES), r->plan->nturn_base);
        snprintf(s[0][1], sizeof s[0][1], "%d/%d turn in n (%d unscaled)", t,
                 half, r->plan->nturn_base);
        snprintf(s[0][2], sizeof s[0][2], "%d/%d turn", t, half);
    }
    snprintf(s[1][0], sizeof s[1][0], "slowest %s = %s%sb^(%d/%d) = %s", lam, pi2,
             mul, r->d - 2, r->d, v1);
    snprintf(s[1][1], sizeof s[1][1], "slowest %s = %s", lam, v1);
    snprintf(s[1][2], sizeof s[1][2], "%s %s", lam, v1);
    if (sc->on) {       /* scaled: the longest wavelength it uses */
        char v3[24];
        cmp_num(sc->wl_max, v3, sizeof v3);
        snprintf(s[1][0], sizeof s[1][0], "slowest %s = %s scaled, %s unscaled",
                 lam, v3, v1);
        snprintf(s[1][1], sizeof s[1][1], "slowest %s %s (unscaled %s)", lam,
                 v3, v1);
        snprintf(s[1][2], sizeof s[1][2], "slowest %s %s", lam, v3);
    }
    snprintf(s[2][0], sizeof s[2][0], "limit %s%sbase = %s, never reached", pi2,
             mul, v2);
    snprintf(s[2][1], sizeof s[2][1], "limit %s%sb = %s (not reached)", pi2,
             mul, v2);
    snprintf(s[2][2], sizeof s[2][2], "lim %s", v2);
    for (int i = 0; i < lines && i < 3; i++) {
        const char *cand[3] = { s[i][0], s[i][1], s[i][2] };
        canvas_text_fit(c, x, y + i, w, cand, 3, cmp_uc(a, i == 0 ? UI_WARN : UI_TEXT), 0);
    }
}

/* One pane's part of the readout for a scaled band: its rule and the
 * exact omega (and wavelength) before and after. */
static int scaled_readout(const struct app *a, char *buf, size_t len, int v,
                          int k, const struct rpane *r, const struct scaled *sc,
                          int band)
{
    double w0 = r->plan->omega_base[band], w1 = sc->w[band];
    const char *arrow = glyph_pick(a->ascii, "\u2192", "->"), *om = glyph(a->ascii, GL_OMEGA);
    const char *lam = glyph(a->ascii, GL_LAMBDA_WL);
    char n[4][32];
    fmt_num(w0, v == 0 ? 10 : 6, n[0], sizeof n[0]);
    fmt_num(w1, v == 0 ? 10 : 6, n[1], sizeof n[1]);
    fmt_num(2 * PEVIZ_PI / w0, 8, n[2], sizeof n[2]);
    fmt_num(r->plan->wavelength[band], 8, n[3], sizeof n[3]);
    if (v == 0)
        return snprintf(buf, len, " %s %c %s %s %s%s%s %s %s%s%s",
                        glyph(a->ascii, GL_VBAR), 'A' + k,
                        rope_rule_name((enum rope_rule)sc->rule[band]), om, n[0],
                        arrow, n[1], lam, n[2], arrow, n[3]);
    return snprintf(buf, len, " %s %c %s %s %s%s%s", glyph(a->ascii, GL_VBAR),
                    'A' + k, rope_rule_name((enum rope_rule)sc->rule[band]), om,
                    n[0], arrow, n[1]);
}

static void spectrum_readout(const struct app *a, canvas *c,
                             const struct cmp_frame *f)
{
    const struct geom *g = &f->g;
    const struct rpane *rp = f->rp;
    const struct scaled *sc = f->sc;
    char line[2][256];
    const char *lam = glyph(a->ascii, GL_LAMBDA_WL);
    for (int v = 0; v < 2; v++) {
        int len = snprintf(line[v], sizeof line[v], "band %d", a->cmp.band);
        for (int k = 0; k < g->np && len < 200; k++) {
            const struct rpane *r = &rp[k];
            char l[24], t[24];
            if (r->has != SCHEME_HAS_BANDS)     /* no band to give */
                continue;
            if (a->cmp.band >= r->d / 2) {
                len += snprintf(line[v] + len, sizeof line[v] - (size_t)len,
                                " %s %c -", glyph_pick(a->ascii, "\u2502", "|"), 'A' + r->id);
                continue;
            }
            if (sc[k].on) {
                len += scaled_readout(a, line[v] + len, sizeof line[v] - (size_t)len,
                                      v, r->id, r, &sc[k], a->cmp.band);
                continue;
            }
            double lw = cmp_log10_wavelength(r, a->cmp.band);
            cmp_num_log10(lw, l, sizeof l);
            cmp_num(pow(10, log10((double)r->n) - lw), t, sizeof t);
            len += snprintf(line[v] + len, sizeof line[v] - (size_t)len,
                            v == 0 ? " %s %c %s=%s, %s turns in n"
                                   : " %s %c %s=%s %s turns",
                            glyph_pick(a->ascii, "\u2502", "|"), 'A' + r->id, lam, l, t);
        }
        /* the ratio of B to A where the line has room for it */
        int b = a->cmp.band;
        char ratio[64];
        if (g->np < 2 || b >= rp[0].d / 2 || b >= rp[1].d / 2 ||
            rp[0].has != SCHEME_HAS_BANDS || rp[1].has != SCHEME_HAS_BANDS)
            continue;
        char q[32];
        fmt_num(cmp_band_omega(&rp[1], &sc[1], b) /
                cmp_band_omega(&rp[0], &sc[0], b), 10, q, sizeof q);
        snprintf(ratio, sizeof ratio, " %s B/A %s %s", glyph(a->ascii, GL_VBAR),
                 glyph(a->ascii, GL_OMEGA), q);
        if (text_width(line[v]) + text_width(ratio) <= c->w &&
            (size_t)len + strlen(ratio) < sizeof line[v])
            strcat(line[v], ratio);
    }
    double found;               /* :check: the file's omega beside them */
    for (int v = 0; v < 2 && f->check &&
         portcheck_band(f->check, a->cmp.band, &found); v++) {
        size_t len = strlen(line[v]);
        snprintf(line[v] + len, sizeof line[v] - len, " %s %c file %s %.6g",
                 glyph(a->ascii, GL_VBAR), 'A' + f->check_pane,
                 glyph(a->ascii, GL_OMEGA), found);
    }
    const char *cand[2] = { line[0], line[1] };
    canvas_text_fit(c, 0, g->read_y, c->w, cand, 2, cmp_uc(a, UI_TEXT), 0);
}

/* The legend when a pane is scaled: each mark as the plot draws it, the
 * rules the panes use. */
static void scaled_legend(const struct app *a, canvas *c, int y,
                          const struct scaled *sc, int np)
{
    static const char *const WHAT[2][ROPE_RULE_COUNT] = {
        { " kept", " blended", " interpolated", " rebased", " rescaled",
          " still" },
        { " kept", " blend", " interp", " rebased", " rescaled", " still" }
    };
    int used[ROPE_RULE_COUNT] = { 0 }, extra = 0;
    for (int k = 0; k < np; k++)
        for (int r = 0; r < ROPE_RULE_COUNT; r++)
            used[r] |= sc[k].on && sc[k].count[r] > 0;
    used[ROPE_KEPT] = used[ROPE_BLENDED] = used[ROPE_INTERPOLATED] = 1;
    extra = 10 * (used[ROPE_REBASED] + used[ROPE_RESCALED]);
    int sh = c->w < 88 + extra, x = 0;      /* the short words */
    x = cmp_legend_piece(c, x, y, mark_curve(a->ascii), cmp_uc(a, UI_DIM),
                         " unscaled", cmp_uc(a, UI_TEXT));
    for (int r = 0; r < ROPE_RULE_COUNT; r++)
        if (used[r])
            x = cmp_legend_piece(c, x, y, RULE_MARK[r], rule_rgb(a, 0, r),
                                 WHAT[sh][r], cmp_uc(a, UI_TEXT));
    x = cmp_legend_piece(c, x, y, "~", cmp_uc(a, UI_DIM), " <1 turn",
                         cmp_uc(a, UI_TEXT));
    x = cmp_legend_piece(c, x, y, mark_n(a->ascii), cmp_uc(a, UI_WARN), " n",
                         cmp_uc(a, UI_TEXT));
    x = cmp_legend_piece(c, x, y, mark_L(a->ascii), cmp_uc(a, UI_TEXT),
                         sh ? " L" : " L trained", cmp_uc(a, UI_TEXT));
    cmp_legend_piece(c, x, y, mark_crit(a->ascii), cmp_uc(a, UI_ACCENT),
                     sh ? " crit" : " critical band", cmp_uc(a, UI_TEXT));
}

/* The legend without scaling. */
static void plain_legend(const struct app *a, canvas *c, int y)
{
    int x = 0;
    x = cmp_legend_piece(c, x, y, mark_curve(a->ascii), cmp_pane_rgb(a, 0),
                         " bands turning in n", cmp_uc(a, UI_TEXT));
    x = cmp_legend_piece(c, x, y, "~~", cmp_uc(a, UI_DIM), " <1 turn",
                         cmp_uc(a, UI_TEXT));
    x = cmp_legend_piece(c, x, y, mark_n(a->ascii), cmp_uc(a, UI_WARN), " n",
                         cmp_uc(a, UI_TEXT));
    x = cmp_legend_piece(c, x, y, mark_crit(a->ascii), cmp_uc(a, UI_ACCENT),
                         " critical band", cmp_uc(a, UI_TEXT));
    if (c->w - x >= 34)
        canvas_text(c, x, y, -1, "y: wavelength in positions (log)",
                    cmp_uc(a, UI_DIM), RGB_DEFAULT, 0);
}

/* :check: a '!' atop the pane over each band where the file differs. */
static void spectrum_check_marks(const struct app *a, canvas *pc,
                                 const struct rpane *r,
                                 const struct freq_check *chk)
{
    int half = r->d / 2;
    for (int i = 0; i < chk->ndiff; i++)
        if (chk->band[i].band < half)
            canvas_put(pc, cmp_band_dot(chk->band[i].band, half, 2 * pc->w) / 2,
                       0, '!', cmp_uc(a, UI_WARN), RGB_DEFAULT, ATTR_BOLD);
}

static int spectrum_draw(const struct app *a, canvas *c,
                         const struct cmp_frame *f, const struct cmp_values *v,
                         char *hint, size_t hintlen)
{
    const struct geom *g = &f->g;
    const struct rpane *rp = f->rp;
    int nt = g->body_h >= 10 ? 3 : g->body_h >= 7 ? 2 : g->body_h >= 5 ? 1 : 0;
    int ph = g->body_h - nt;
    (void)v;
    if (ph < 1)
        return -1;
    const struct scaled *sc = f->sc;
    struct yscale s = spectrum_scale(rp, sc, g->np, ph);
    cmp_body_separators(a, c, g);
    spectrum_ticks(a, c, g, &s);
    for (int k = 0; k < g->np; k++) {
        if (rp[k].has != SCHEME_HAS_BANDS) {    /* no wavelengths to plot */
            cmp_no_bands_note(a, c, f, k, k);
            continue;
        }
        canvas pc = canvas_sub(c, g->px[k], g->body_y, g->pw, ph);
        spectrum_plot(a, &pc, rp[k].id, &rp[k], &sc[k], &s);
        if (f->check && rp[k].id == f->check_pane)
            spectrum_check_marks(a, &pc, &rp[k], f->check);
        spectrum_text(a, c, g->px[k] + 1, g->body_y + ph, g->pw - 1, nt, &rp[k],
                      &sc[k]);
        if (g->axis_y >= 0)
            cmp_band_axis(a, c, g->px[k], g->pw, g->axis_y, rp[k].d / 2);
    }
    if (g->legend_y >= 0 && f->sc_any)
        scaled_legend(a, c, g->legend_y, sc, g->np);
    else if (g->legend_y >= 0)
        plain_legend(a, c, g->legend_y);
    if (f->check)
        snprintf(hint, hintlen, "%s", f->check_verdict);
    else
        snprintf(hint, hintlen, "x = band i, y = wavelength 2%s/%s_i (log); "
                 "Left/Right: band", glyph(a->ascii, GL_PI),
                 glyph(a->ascii, GL_OMEGA));
    return 0;
}

/* The spectrum's gutter: room for its top tick label ("1e308"). */
static void spectrum_layout(const struct app *a, struct cmp_frame *f)
{
    cmp_scaled_make(f);
    struct yscale s = spectrum_scale(f->rp, f->sc, f->np, 1);
    char t[16];
    (void)a;
    cmp_geom_make(f, (int)fmax(5, snprintf(t, sizeof t, "1e%.0f",
                                           floor(s.hi)) + 1));
}

const struct cmp_mode CMP_SPECTRUM = {
    .name = "spectrum", .bands = 1, .noun = "spectrum",
    .layout = spectrum_layout, .draw = spectrum_draw,
    .readout = spectrum_readout,
};
