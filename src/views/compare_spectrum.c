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
    t = t < 0 ? 0 : t > 1 ? 1 : t;      /* also a NaN: never past an int */
    return (int)lround(t * (s->dots - 1));
}


void cmp_scaled_make(const struct rpane *r, struct scaled *sc)
{
    int half = r->d / 2;
    memset(sc, 0, sizeof *sc);
    if (r->rope->method == ROPE_NONE)
        return;
    sc->w = malloc((size_t)half * sizeof *sc->w);
    sc->rule = malloc((size_t)half);
    if (!sc->w || !sc->rule ||
        rope_inv_freq(r->rope, r->d, r->base, r->n, sc->w, sc->rule))
        return;
    sc->on = 1;
    for (int i = 0; i < half; i++) {
        sc->count[sc->rule[i]]++;
        sc->wl_max = fmax(sc->wl_max, 2 * M_PI_ / sc->w[i]);
    }
}

void cmp_scaled_free(struct scaled *sc)
{
    free(sc->w);
    free(sc->rule);
}

static struct yscale spectrum_scale(const struct rpane *rp,
                                    const struct scaled *sc, int np, int rows)
{
    double top = LOG10_2PI + 1;
    for (int k = 0; k < np; k++) {
        double l = cmp_log10_wavelength(rp[k].d / 2 - 1, rp[k].d, rp[k].base);
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

int cmp_band_dot(int band, int half, int wdots)
{
    if (half <= 1)
        return wdots / 2;
    return (int)lround((double)band * (wdots - 1) / (half - 1));
}

static void spectrum_ticks(const struct app *a, canvas *c, const struct geom *g,
                           const struct yscale *s)
{
    if (g->labw < 4)
        return;
    int last = -2;
    /* no wavelength is below 2*pi: the first tick is 10 */
    for (int e = (int)fmax(ceil(s->lo), 1); e <= (int)floor(s->hi); e++) {
        int row = ys_dot(s, e) / 4;
        if (row == last || row == last + 1)
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

/* The colour of a band's rule: kept in the pane's colour, blended and
 * interpolated in the accent and warning colours. */
static rgb rule_rgb(const struct app *a, int k, int rule)
{
    switch (rule) {
    case ROPE_KEPT:         return cmp_pane_rgb(a, k);
    case ROPE_BLENDED:      return cmp_uc(a, UI_ACCENT);
    case ROPE_INTERPOLATED: return cmp_uc(a, UI_WARN);
    default:                return cmp_uc(a, UI_CURSOR);
    }
}

/* Scaled wavelengths as dots over the unscaled curve (drawn dim), and the
 * trained length L as a sparse line. */
static void spectrum_plot_scaled(const struct app *a, canvas *pc, int k,
                                 const struct rpane *r, const struct scaled *sc,
                                 const struct yscale *s)
{
    int half = r->d / 2, wd = 2 * pc->w;
    int64_t L = r->rope->original_max;
    if (L > 0) {
        int yl = ys_dot(s, log10((double)L));
        for (int px = 1; px < wd; px += 4)
            canvas_dot(pc, px, yl, cmp_uc(a, UI_TEXT));
        char t[32];
        snprintf(t, sizeof t, "L=%lld", (long long)L);
        int tw = text_width(t), row = yl / 4 + 1 < pc->h ? yl / 4 + 1 : yl / 4 - 1;
        canvas_text(pc, pc->w - tw, row, tw, t, cmp_uc(a, UI_TEXT), RGB_DEFAULT, 0);
    }
    for (int i = 0; i < half; i++) {
        int x = cmp_band_dot(i, half, wd), y = ys_dot(s, log10(2 * M_PI_ / sc->w[i]));
        canvas_dot(pc, x, y, rule_rgb(a, k, sc->rule[i]));
        if (y + 1 < s->dots)
            canvas_dot(pc, x, y + 1, rule_rgb(a, k, sc->rule[i]));
    }
}

static void spectrum_plot(const struct app *a, canvas *pc, int k,
                          const struct rpane *r, const struct scaled *sc,
                          const struct yscale *s)
{
    int half = r->d / 2, wd = 2 * pc->w;
    rgb warn = cmp_uc(a, UI_WARN), acc = cmp_uc(a, UI_ACCENT);
    int yn = ys_dot(s, log10((double)r->n));
    for (int px = 0; px < wd; px += 2)
        canvas_dot(pc, px, yn, warn);
    if (r->crit < half) {
        int xc = cmp_band_dot(r->crit, half, wd);
        for (int py = 0; py < s->dots; py += 2)
            canvas_dot(pc, xc, py, acc);
    }
    double l0 = cmp_log10_wavelength(0, r->d, r->base);
    double step = half > 1 ? (cmp_log10_wavelength(half - 1, r->d, r->base) - l0)
                             / (half - 1) : 0;
    /* log wavelength is linear in the band: draw straight segments,
     * bright while bands turn, dim from the critical band on (all dim
     * under scaled dots) */
    if (r->crit > 0)
        canvas_line(pc, cmp_band_dot(0, half, wd), ys_dot(s, l0),
                    cmp_band_dot(r->crit - 1, half, wd),
                    ys_dot(s, l0 + step * (r->crit - 1)),
                    sc->on ? cmp_uc(a, UI_DIM) : cmp_pane_rgb(a, k));
    /* bands that do not turn: a '~' per cell, a mark of their own that
     * reads without colour (the legend shows it) */
    for (int b = r->crit; b < half; b++) {
        int col = cmp_band_dot(b, half, wd) / 2;
        int row = ys_dot(s, l0 + step * b) / 4;
        const cell *kc = canvas_at(pc, col, row);
        if (kc && (kc->kind != CELL_TEXT || kc->ch == ' '))
            canvas_put(pc, col, row, '~', cmp_uc(a, UI_DIM), RGB_DEFAULT, 0);
    }
    /* labels: n on its line, the critical band at the top */
    char t[40];
    /* the curve rises to the right, so the left end of the n line is clear */
    int row = yn / 4 > 0 ? yn / 4 - 1 : yn / 4 + 1;
    snprintf(t, sizeof t, "n=%lld", (long long)r->n);
    canvas_text(pc, 0, row, pc->w, t, warn, RGB_DEFAULT, 0);
    if (r->crit < half) {
        int xc = cmp_band_dot(r->crit, half, wd) / 2;
        snprintf(t, sizeof t, "crit %d", r->crit);
        int tw = text_width(t);
        int x = xc + 1 + tw <= pc->w ? xc + 1 : xc - tw;
        canvas_text(pc, x < 0 ? 0 : x, 0, pc->w, t, acc, RGB_DEFAULT, ATTR_BOLD);
    }
    if (sc->on)
        spectrum_plot_scaled(a, pc, k, r, sc, s);
}

static void spectrum_text_scaled(const struct app *a, canvas *c, int x, int y,
                                 int w, const struct rpane *r,
                                 const struct scaled *sc)
{
    char s[3][128], m[48];
    params_format_rope(&(params){ .rope = *r->rope }, m, sizeof m);
    snprintf(s[0], sizeof s[0], "%s: %d kept, %d blended, %d interpolated",
             m, sc->count[ROPE_KEPT], sc->count[ROPE_BLENDED],
             sc->count[ROPE_INTERPOLATED]);
    snprintf(s[1], sizeof s[1], "%s %d/%d/%d kept/blend/interp", m,
             sc->count[ROPE_KEPT], sc->count[ROPE_BLENDED],
             sc->count[ROPE_INTERPOLATED]);
    snprintf(s[2], sizeof s[2], "%d kept %d blend %d interp",
             sc->count[ROPE_KEPT], sc->count[ROPE_BLENDED],
             sc->count[ROPE_INTERPOLATED]);
    if (sc->count[ROPE_REBASED] + sc->count[ROPE_RESCALED] > 0) {
        snprintf(s[0], sizeof s[0], "%s: every band %s", m,
                 sc->count[ROPE_REBASED] ? "rebased" : "rescaled");
        snprintf(s[1], sizeof s[1], "%s", s[0]);
    }
    const char *cand[3] = { s[0], s[1], s[2] };
    canvas_text_fit(c, x, y, w, cand, 3, cmp_uc(a, UI_ACCENT), 0);
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
    int half = r->d / 2;
    char s[3][3][128], v1[24], v2[24];
    const char *lam = glyph(a->ascii, GL_LAMBDA_WL), *pi2 = glyph_pick(a->ascii, "2\u03C0", "2pi");
    const char *mul = glyph(a->ascii, GL_MUL);
    cmp_num_log10(cmp_log10_wavelength(half - 1, r->d, r->base), v1, sizeof v1);
    cmp_num_log10(LOG10_2PI + log10(r->base), v2, sizeof v2);   /* 2*pi*base */
    snprintf(s[0][0], sizeof s[0][0], "%d of %d bands turn %s1%s within n",
             r->crit, half, glyph_pick(a->ascii, "\u2265", ">="), glyph(a->ascii, GL_TIMES));
    snprintf(s[0][1], sizeof s[0][1], "%d/%d bands turn in n", r->crit, half);
    snprintf(s[0][2], sizeof s[0][2], "%d/%d turn", r->crit, half);
    snprintf(s[1][0], sizeof s[1][0], "slowest %s = %s%sb^(%d/%d) = %s", lam, pi2,
             mul, r->d - 2, r->d, v1);
    snprintf(s[1][1], sizeof s[1][1], "slowest %s = %s", lam, v1);
    snprintf(s[1][2], sizeof s[1][2], "%s %s", lam, v1);
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

void cmp_band_axis(const struct app *a, canvas *c, int x, int w, int y,
                   int half)
{
    char hi[24];
    canvas_text(c, x, y, w, "0", cmp_uc(a, UI_AXIS), RGB_DEFAULT, 0);
    snprintf(hi, sizeof hi, "%d", half - 1);
    if (half > 1 && w > text_width(hi) + 2)
        cmp_text_right(c, x + w, y, hi, cmp_uc(a, UI_AXIS));
    if (w >= 24 && half > 1)
        canvas_text(c, x + w / 2 - 2, y, 4, "band", cmp_uc(a, UI_DIM), RGB_DEFAULT, 0);
    if (a->cmp.band < half) {
        int col = cmp_band_dot(a->cmp.band, half, 2 * w) / 2;
        canvas_text(c, x + col, y, 1, glyph(a->ascii, GL_TRI_UP), cmp_uc(a, UI_CURSOR),
                    RGB_DEFAULT, ATTR_BOLD);
    }
}

/* One pane's part of the readout for a scaled band: its rule and the
 * exact omega (and wavelength) before and after. */
static int scaled_readout(const struct app *a, char *buf, size_t len, int v,
                          int k, const struct rpane *r, const struct scaled *sc,
                          int band)
{
    double w0 = pe_omega(band, r->d, r->base), w1 = sc->w[band];
    const char *arrow = glyph_pick(a->ascii, "\u2192", "->"), *om = glyph(a->ascii, GL_OMEGA);
    const char *lam = glyph(a->ascii, GL_LAMBDA_WL);
    if (v == 0)
        return snprintf(buf, len, " %s %c %s %s %.10g%s%.10g %s %.8g%s%.8g",
                        glyph(a->ascii, GL_VBAR), 'A' + k,
                        rope_rule_name((enum rope_rule)sc->rule[band]), om, w0,
                        arrow, w1, lam, 2 * M_PI_ / w0, arrow, 2 * M_PI_ / w1);
    return snprintf(buf, len, " %s %c %s %s %.6g%s%.6g", glyph(a->ascii, GL_VBAR),
                    'A' + k, rope_rule_name((enum rope_rule)sc->rule[band]), om,
                    w0, arrow, w1);
}

/* The omega a pane uses for band b: scaled when it has a scaling. */
double cmp_band_omega(const struct rpane *r, const struct scaled *sc,
                            int b)
{
    return sc->on ? sc->w[b] : pe_omega(b, r->d, r->base);
}

static void spectrum_readout(const struct app *a, canvas *c,
                             const struct geom *g, const struct rpane *rp,
                             const struct scaled *sc)
{
    if (g->read_y < 0)
        return;
    char line[2][256];
    const char *lam = glyph(a->ascii, GL_LAMBDA_WL);
    for (int v = 0; v < 2; v++) {
        int len = snprintf(line[v], sizeof line[v], "band %d", a->cmp.band);
        for (int k = 0; k < g->np && len < 200; k++) {
            const struct rpane *r = &rp[k];
            char l[24], t[24];
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
            double lw = cmp_log10_wavelength(a->cmp.band, r->d, r->base);
            cmp_num_log10(lw, l, sizeof l);
            cmp_num(pow(10, log10((double)r->n) - lw), t, sizeof t);
            len += snprintf(line[v] + len, sizeof line[v] - (size_t)len,
                            v == 0 ? " %s %c %s=%s, %s turns in n"
                                   : " %s %c %s=%s %s",
                            glyph_pick(a->ascii, "\u2502", "|"), 'A' + r->id, lam, l, t);
        }
        /* the ratio of B to A where the line has room for it */
        int b = a->cmp.band;
        char ratio[64];
        if (g->np < 2 || b >= rp[0].d / 2 || b >= rp[1].d / 2)
            continue;
        snprintf(ratio, sizeof ratio, " %s B/A %s %.10g", glyph(a->ascii, GL_VBAR),
                 glyph(a->ascii, GL_OMEGA), cmp_band_omega(&rp[1], &sc[1], b) /
                 cmp_band_omega(&rp[0], &sc[0], b));
        if (text_width(line[v]) + text_width(ratio) <= c->w &&
            (size_t)len + strlen(ratio) < sizeof line[v])
            strcat(line[v], ratio);
    }
    const char *cand[2] = { line[0], line[1] };
    canvas_text_fit(c, 0, g->read_y, c->w, cand, 2, cmp_uc(a, UI_TEXT), 0);
}

/* The legend when a pane is scaled: what the dot colours mean. */
static void scaled_legend(const struct app *a, canvas *c, int y)
{
    int x = 0;
    const char *dot = glyph_pick(a->ascii, "\u2022", "*");
    x = cmp_legend_piece(c, x, y, glyph_pick(a->ascii, "\u2500", "-"), cmp_uc(a, UI_DIM), " unscaled",
                     cmp_uc(a, UI_TEXT));
    x = cmp_legend_piece(c, x, y, dot, cmp_pane_rgb(a, 0), " kept", cmp_uc(a, UI_TEXT));
    x = cmp_legend_piece(c, x, y, dot, cmp_uc(a, UI_ACCENT), " blended", cmp_uc(a, UI_TEXT));
    x = cmp_legend_piece(c, x, y, dot, cmp_uc(a, UI_WARN), " interpolated", cmp_uc(a, UI_TEXT));
    x = cmp_legend_piece(c, x, y, glyph_pick(a->ascii, "\u2504", "-"), cmp_uc(a, UI_WARN), " n",
                     cmp_uc(a, UI_TEXT));
    cmp_legend_piece(c, x, y, glyph_pick(a->ascii, "\u2508", "."), cmp_uc(a, UI_TEXT), " L trained",
                 cmp_uc(a, UI_TEXT));
}

void cmp_draw_spectrum(const struct app *a, canvas *c,
                               const struct geom *g, const struct rpane *rp,
                               char *hint, size_t hintlen)
{
    int nt = g->body_h >= 10 ? 3 : g->body_h >= 7 ? 2 : g->body_h >= 5 ? 1 : 0;
    int ph = g->body_h - nt;
    if (ph < 1)
        return;
    struct scaled sc[COMPARE_MAX_PANES];
    int any = 0;
    for (int k = 0; k < g->np; k++) {
        cmp_scaled_make(&rp[k], &sc[k]);
        any |= sc[k].on;
    }
    struct yscale s = spectrum_scale(rp, sc, g->np, ph);
    cmp_separators(a, c, g, g->body_y, g->axis_y >= 0 ? g->axis_y + 1
                                                        : g->body_y + g->body_h);
    spectrum_ticks(a, c, g, &s);
    for (int k = 0; k < g->np; k++) {
        canvas pc = canvas_sub(c, g->px[k], g->body_y, g->pw, ph);
        spectrum_plot(a, &pc, rp[k].id, &rp[k], &sc[k], &s);
        spectrum_text(a, c, g->px[k] + 1, g->body_y + ph, g->pw - 1, nt, &rp[k],
                      &sc[k]);
        if (g->axis_y >= 0)
            cmp_band_axis(a, c, g->px[k], g->pw, g->axis_y, rp[k].d / 2);
    }
    if (g->legend_y >= 0 && any)
        scaled_legend(a, c, g->legend_y);
    else if (g->legend_y >= 0) {
        int x = 0, y = g->legend_y;
        /* the marks as the plot draws them: a braille line, '~' */
        x = cmp_legend_piece(c, x, y, glyph_pick(a->ascii, "\u2824\u2824", ".."), cmp_pane_rgb(a, 0),
                         " bands turning in n", cmp_uc(a, UI_TEXT));
        x = cmp_legend_piece(c, x, y, "~~", cmp_uc(a, UI_DIM), " <1 turn",
                         cmp_uc(a, UI_TEXT));
        x = cmp_legend_piece(c, x, y, glyph_pick(a->ascii, "\u2504", "-"), cmp_uc(a, UI_WARN), " n",
                         cmp_uc(a, UI_TEXT));
        x = cmp_legend_piece(c, x, y, glyph(a->ascii, GL_VDOTS), cmp_uc(a, UI_ACCENT),
                         " critical band", cmp_uc(a, UI_TEXT));
        if (c->w - x >= 34)
            canvas_text(c, x, y, -1, "y: wavelength in positions (log)",
                        cmp_uc(a, UI_DIM), RGB_DEFAULT, 0);
    }
    spectrum_readout(a, c, g, rp, sc);
    for (int k = 0; k < g->np; k++)
        cmp_scaled_free(&sc[k]);
    snprintf(hint, hintlen, "x = band i, y = wavelength 2%s/%s_i (log); "
             "Left/Right: band", glyph(a->ascii, GL_PI), glyph(a->ascii, GL_OMEGA));
}

/* The spectrum's gutter: room for its top tick label ("1e308"). */
int cmp_spectrum_labw(const struct rpane *rp, int np)
{
    struct scaled sc[COMPARE_MAX_PANES];
    memset(sc, 0, sizeof sc);
    for (int k = 0; k < np; k++)
        cmp_scaled_make(&rp[k], &sc[k]);
    struct yscale s = spectrum_scale(rp, sc, np, 1);
    for (int k = 0; k < np; k++)
        cmp_scaled_free(&sc[k]);
    char t[16];
    return (int)fmax(5, snprintf(t, sizeof t, "1e%.0f", floor(s.hi)) + 1);
}
