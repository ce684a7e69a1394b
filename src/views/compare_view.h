/*
 * compare_view.h - what the compare view's files share (compare.c: the
 * panes, headers, heatmaps, profile, keys and commands;
 * compare_spectrum.c: the wavelength spectrum; compare_ratio.c: the
 * band-by-band ratios between panes).  Internal to src/views/.
 */
#ifndef PEVIZ_COMPARE_VIEW_H
#define PEVIZ_COMPARE_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "app.h"
#include "peviz/layout.h"
#include "peviz/rope.h"
#include "plans.h"

#define LOG10_2PI 0.79817986835811504957
#define M_PI_ 3.14159265358979323846

/* A pane with the values it inherits from a->p filled in. */
struct rpane {
    double base;
    int d;
    int64_t n;
    enum layout layout;
    enum precision prec;
    int id;                 /* its pane: 0 for A, 1 for B, 2 for C */
    int model;              /* the preset (rope_preset_at) it was set
                               from and still equals, or -1 */
    const rope_scaling *rope;   /* the pane's RoPE scaling */
    const pe_plan *plan;    /* its frequency plan (plans.h): every band
                               number the pane shows comes from it */
    int crit;               /* first band whose scaled wavelength exceeds n */
    int crit_base;          /* the same unscaled */
    double slow_turns;      /* turns of the slowest band within n (scaled) */
    double slow_turns_base; /* the same unscaled */
};

/* Where things go on the screen. */
struct geom {
    int np;                 /* panes */
    int labw;               /* left gutter for row / tick labels */
    int pw;                 /* width of one pane */
    int px[COMPARE_MAX_PANES];
    int head_h;             /* header rows */
    int tags;               /* header has a layout / format row */
    int body_y, body_h;
    int axis_y, legend_y, read_y;   /* -1 when absent */
};

/* A pane's frequencies after its RoPE scaling (on = 0: none to show):
 * its plan's arrays. */
struct scaled {
    int on;
    const double *w;            /* [d/2] omega after scaling */
    const unsigned char *rule;  /* [d/2] enum rope_rule */
    int count[ROPE_RULE_COUNT];
    double wl_max;              /* longest scaled wavelength */
};

/* ---- helpers (compare.c) ---------------------------------------------- */

rgb cmp_uc(const struct app *a, enum ui_color c);
/* Pane k's plot colour. */
rgb cmp_pane_rgb(const struct app *a, int k);
/* log10 of band i's unscaled wavelength 2 pi / theta_i (the pane's
 * plan). */
double cmp_log10_wavelength(const struct rpane *r, int i);
/* A number to 4 significant digits; 10^l the same, also past 1e308. */
void cmp_num(double v, char *buf, size_t len);
void cmp_num_log10(double l, char *buf, size_t len);
/* Right-aligned text ending at column xr (exclusive). */
void cmp_text_right(canvas *c, int xr, int y, const char *s, rgb fg);
/* An axis row's end labels in [x, x + end) of row y, around the cursor's
 * mark at column col (-1: none): lo at the left unless the mark covers
 * it, hi (NULL: none) ending at end or, if the mark would cover it, just
 * before the mark; nothing when they would touch.  Returns where hi ends
 * (end or col). */
int cmp_axis_ends(const struct app *a, canvas *c, int x, int y, int end,
                  const char *lo, const char *hi, int col);
/* Lines between the panes over rows [y0, y1). */
void cmp_separators(const struct app *a, canvas *c, const struct geom *g,
                    int y0, int y1);
/* A legend piece: mark (bold, in mc) then text; returns the x after it. */
int cmp_legend_piece(canvas *c, int x, int y, const char *mark, rgb mc,
                     const char *text, rgb tc);
/* Text t at (x, y) of pc if it covers nothing drawn there: 1, else 0. */
int cmp_label_try(canvas *pc, int x, int y, const char *t, rgb fg, int attr);
/* Label t beside the vertical marker in column col: on the first row
 * from y0 down where it covers nothing, right of the line, else left;
 * else at y0 over what is there. */
void cmp_label_beside(canvas *pc, int col, int y0, const char *t, rgb fg);

/* ---- the headers (compare_head.c) ------------------------------------ */

void cmp_draw_headers(const struct app *a, canvas *c, const struct geom *g,
                      const struct rpane *rp);

/* ---- the spectrum (compare_spectrum.c) -------------------------------- */

/* Each of the np panes' scaled frequencies (sc[k].on = 0 when pane k
 * has no scaling); returns whether any pane has them.  Free with
 * cmp_scaled_free. */
int cmp_scaled_make(const struct rpane *rp, int np, struct scaled *sc);
void cmp_scaled_free(struct scaled *sc, int np);
/* The dot column of band of half bands across wdots dots. */
int cmp_band_dot(int band, int half, int wdots);
/* The omega pane r uses for band b: scaled when it has a scaling. */
double cmp_band_omega(const struct rpane *r, const struct scaled *sc, int b);
/* The band axis under a plot of half bands w cells wide: 0, "band",
 * half - 1 and the cursor's band. */
void cmp_band_axis(const struct app *a, canvas *c, int x, int w, int y,
                   int half);
void cmp_draw_spectrum(const struct app *a, canvas *c, const struct geom *g,
                       const struct rpane *rp, char *hint, size_t hintlen);
int cmp_spectrum_labw(const struct rpane *rp, int np);

/* ---- the ratios (compare_ratio.c) ------------------------------------ */

void cmp_draw_ratio(const struct app *a, canvas *c, const struct geom *g,
                    const struct rpane *rp, char *hint, size_t hintlen);
/* The gutter for its tick labels: "1/128", or "1e-100" when a ratio to
 * pane A falls that far. */
int cmp_ratio_labw(const struct rpane *rp, int np);

#endif
