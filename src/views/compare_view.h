/* SPDX-License-Identifier: ISC */
/*
 * compare_view.h - what the compare view's files share.  Internal to
 * src/views/.  The files stand in floors, each calling only downwards:
 *
 *   compare.c            the view: hooks, keys, ':' commands
 *   compare_fields.c     its settings as follow mode publishes them
 *   compare_modes.c      the table of pane modes the view dispatches to,
 *                        and their names
 *   compare_heatmap.c    one file per pane mode, each exporting its row
 *   compare_spectrum.c   (struct cmp_mode); no mode calls another
 *   compare_profile.c
 *   compare_diff.c
 *   compare_ratio.c
 *   compare_drift.c
 *   compare_matrix.c
 *   compare_head.c       the header over each pane
 *   compare_card.c       the diff mode's card in a pane with nothing to
 *                        subtract: what its scheme has
 *   compare_grid.c       the position x dimension grid of the heatmap
 *                        and diff modes
 *   compare_scores.c     each pane's attention scores against distance
 *                        (profile, drift and matrix modes)
 *   compare_common.c     the panes as drawn, pane geometry, the axes,
 *                        labels, legends and the scaled-band helpers
 */
#ifndef PEVIZ_COMPARE_VIEW_H
#define PEVIZ_COMPARE_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "app.h"
#include "axis.h"
#include "peviz/layout.h"
#include "peviz/rope.h"
#include "peviz/scores.h"
#include "plans.h"
#include "plot.h"
#include "views/portcheck.h"

struct view_raster;

#define LOG10_2PI 0.79817986835811504957
#include "peviz/pi.h"
#define MIN_SPAN 8         /* zooming in stops at this many positions */
/* Blank cell: outside the pane's own n or d. */
#define BLANK HUGE_VAL

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
    int scheme;             /* the attention scheme of its scores, -1:
                               PE(i).PE(j) (no scheme) */
    int has;                /* what its scheme has (enum scheme_has):
                               the header's words; bands without one */
    int layer;              /* the model's layer it shows, -1: none */
    struct score_opts so;   /* its score options: the attention view's
                               with the pane's scheme and q/k pairs */
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

/* Dimensions down pixel rows (two per cell row). */
struct ymap {
    int dmax;               /* dimensions in the widest pane */
    int pixels;             /* pixel rows available */
    struct axis ax;         /* dims with rows of their own (ppd > 0) */
    int dim0;               /* first dim shown (ppd > 0) */
    int ppd;                /* > 0: pixels per dim; 0: evenly sampled */
    int unit;               /* pixels a dim takes at least: 2 without half
                               blocks, so a cell row shows one dim, else 1 */
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

/* One frame as the layout decided it: the panes, where they go, the
 * axes.  The view's layout fills the panes, the mode's layout the rest. */
struct cmp_frame {
    const struct app *app;  /* the tables and q, k of the panes' scores */
    int w, h;
    struct rpane rp[COMPARE_MAX_PANES];
    int np, dmax;
    int64_t nmax;
    struct geom g;
    struct axis xm;         /* positions (heatmap, diff) or distances */
    struct ymap ym;         /* dims down (heatmap, diff) */
    struct scaled sc[COMPARE_MAX_PANES];    /* the bands (spectrum, ratio):
                               cmp_scaled_make */
    int sc_any;             /* some pane's sc is on */
    int sub;                /* grid values per pane column (heatmap, diff):
                               1 for cells (0 means 1), the cell's width
                               in pixels for an image (the raster hook) */
    const struct freq_check *check;     /* :check FILE's (spectrum), or
                                           NULL */
    int check_pane;         /* the pane it holds the file to (rpane.id) */
    const char *check_verdict;
};

/* What a mode's work computed for the frames that follow: v, malloc'd
 * (NULL: out of memory), and the colour scale. */
struct cmp_values {
    double *v;
    double scale;
    int64_t done, total;    /* a mode computed in slices (more): cells
                               done of all; total 0 for the others */
};

/*
 * A pane mode: one row, in a file of its own.  v cycles the rows in the
 * order of enum pane_mode; the view calls layout after any change, work
 * when the panes or axes changed, then draw and, under a drawn body,
 * readout.
 */
struct cmp_mode {
    const char *name;       /* "heatmap": :mode, --compare-mode, follow */
    int grid;               /* draws the grid of compare_grid.c: its panes
                               can be images (cmp_grid_raster) */
    int bands;              /* one value per band: the band cursor moves */
    const char *noun;       /* bands: what it is called ("ratio plot") */
    int vs_a;               /* sets every pane against A (kept beside the
                               active pane when presenting) */
    int scores;             /* draws the panes' attention scores: c and
                               --scheme-a ... choose their schemes */
    /* Geometry (cmp_geom_make) and axes for f->rp, f->np at f->w x f->h. */
    void (*layout)(const struct app *a, struct cmp_frame *f);
    /* The values draw shows; NULL: it computes none. */
    void (*work)(const struct cmp_frame *f, struct cmp_values *out);
    /* After work: about budget units more of them (VIEW_WORK_SLICE);
     * 1 while some are left.  NULL: work computes them all. */
    int (*more)(const struct cmp_frame *f, struct cmp_values *v,
                int64_t budget);
    /* The panes' bodies, axes and legend; the hint for the status line.
     * 0, or -1 when nothing was drawn (no room, no memory). */
    int (*draw)(const struct app *a, canvas *c, const struct cmp_frame *f,
                const struct cmp_values *v, char *hint, size_t hintlen);
    /* The cursor's values on row f->g.read_y. */
    void (*readout)(const struct app *a, canvas *c,
                    const struct cmp_frame *f);
};

extern const struct cmp_mode CMP_HEATMAP, CMP_SPECTRUM, CMP_PROFILE,
                             CMP_DIFF, CMP_RATIO, CMP_DRIFT,
                             CMP_MATRIX;
/* The row of mode m (compare_modes.c); the first for a value out of
 * range. */
const struct cmp_mode *cmp_mode_at(int m);
/* The modes' names in the table's order, ", " between them: every mode,
 * those that draw scores, or those with a band cursor.  buf. */
enum cmp_modes { CMP_ALL, CMP_SCORES, CMP_BANDS };
const char *cmp_mode_names(char *buf, size_t len, enum cmp_modes which);

/* ---- the panes as drawn (compare_common.c) ---------------------------- */

/* Pane k's base and d_model: pane A's are the global ones. */
double cmp_pane_base(const struct app *a, int k);
int cmp_pane_d(const struct app *a, int k);
/* The layer pane k shows of its model with NoPE layers, -1: none (no
 * layer set, or its model has none). */
int cmp_pane_layer(const struct app *a, int k);
/* The panes shown (1 .. COMPARE_MAX_PANES). */
int cmp_npanes(const struct app *a);
/* f->rp, f->np, f->dmax, f->nmax from the settings; alone: the active
 * pane only (presenting). */
void cmp_resolve(const struct app *a, struct cmp_frame *f, int alone);
/* f->g for a left gutter of labw columns. */
void cmp_geom_make(struct cmp_frame *f, int labw);

/* ---- helpers (compare_common.c) --------------------------------------- */

/* In pane k's body, when pane of's scheme has no bands (the heatmap,
 * spectrum and diff modes draw none for it; of is k, or the diff's
 * reference A): what it has, and where its scores are. */
void cmp_no_bands_note(const struct app *a, canvas *c,
                       const struct cmp_frame *f, int k, int of);

rgb cmp_uc(const struct app *a, enum ui_color c);
/* Pane k's plot colour. */
rgb cmp_pane_rgb(const struct app *a, int k);
/* log10 of band i's unscaled wavelength 2 pi / theta_i (the pane's
 * plan). */
double cmp_log10_wavelength(const struct rpane *r, int i);
/* Whether a pane has a RoPE scaling: the heatmap, diff and profile modes
 * draw the sinusoidal PE at each pane's base, which scaling leaves as is
 * (the spectrum and ratio modes show what it does). */
int cmp_any_scaled(const struct rpane *rp, int np);
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
/* The cursor's mark under column col of an axis row (-1: none). */
void cmp_axis_mark(const struct app *a, canvas *c, int x, int y, int col);
/* Lines between the panes over rows [y0, y1). */
void cmp_separators(const struct app *a, canvas *c, const struct geom *g,
                    int y0, int y1);
/* The separators down to the axis row (or the body's end). */
void cmp_body_separators(const struct app *a, canvas *c,
                         const struct geom *g);
/* A legend piece: mark (bold, in mc) then text; returns the x after it. */
int cmp_legend_piece(canvas *c, int x, int y, const char *mark, rgb mc,
                     const char *text, rgb tc);
/* Text t at (x, y) of pc if it covers nothing drawn there: 1, else 0. */
int cmp_label_try(canvas *pc, int x, int y, const char *t, rgb fg, int attr);
/* Label t beside the vertical marker in column col: on the first row
 * from y0 down where it covers nothing, right of the line, else left;
 * else at y0 over what is there. */
void cmp_label_beside(canvas *pc, int col, int y0, const char *t, rgb fg);

/* ---- positions across (compare_common.c) ------------------------------ */

/* Positions (or distances) across cols columns at the zoom level: the
 * page holding the cursor (axis.h decides what a column covers). */
void cmp_xmap_init(struct axis *m, int64_t nmax, int zoom, int64_t cursor,
                   int cols, int flags);
/* Positions [p0, p1) of column col; 0 if the column is unused. */
int cmp_xmap_range(const struct axis *m, int col, int64_t *p0, int64_t *p1);
/* The layout of the modes that plot against distance (profile, drift):
 * the whole width, a point per dot column, equal steps. */
void cmp_distance_layout(const struct app *a, struct cmp_frame *f);
/* Whether they can draw f with v: 0, or -1 when the frame has no room
 * for a plot or v no values (then "out of memory" in hint). */
int cmp_distance_ready(const struct cmp_frame *f, const struct cmp_values *v,
                       char *hint, size_t hintlen);
/* Their plot of the n curves ser over the body, its axis taking the axis
 * and legend rows: distance across at the columns' steps, the zero line,
 * the cursor's distance marked. */
void cmp_distance_plot(const struct app *a, canvas *c,
                       const struct cmp_frame *f,
                       const struct plot_series *ser, int n);

/* ---- bands across (compare_common.c) ---------------------------------- */

/* f->sc: each pane's scaled frequencies (sc[k].on = 0 when pane k has
 * no scaling), and f->sc_any. */
void cmp_scaled_make(struct cmp_frame *f);
/* The dot column of band of half bands across wdots dots. */
int cmp_band_dot(int band, int half, int wdots);
/* The omega pane r uses for band b: scaled when it has a scaling. */
double cmp_band_omega(const struct rpane *r, const struct scaled *sc, int b);
/* The band axis under a plot of half bands w cells wide: 0, "band",
 * half - 1 and the cursor's band. */
void cmp_band_axis(const struct app *a, canvas *c, int x, int w, int y,
                   int half);

/* ---- the panes' scores (compare_scores.c) ----------------------------- */

/* Pane r's score context: PE(i).PE(j) without a scheme, else its scheme
 * as the attention view computes it (NULL: out of memory). */
struct score_ctx *cmp_scores_new(const struct cmp_frame *f,
                                 const struct rpane *r);
/* Whether pane r's scores over this many positions would need sums of
 * more than CMP_BRUTE_CAP vector entries (embeddings with the content
 * toggle, learned rows): the modes leave such a pane blank and say so
 * (the attention view computes them in slices between frames). */
#define CMP_BRUTE_CAP 1.1e6
int cmp_scores_costly(const struct rpane *r, double positions);
/* vals[col]: pane r's exact mean score over the distances of each
 * column of xm (BLANK past its n).  -1 when out of memory, -2 when
 * costly (cmp_scores_costly: vals untouched). */
int cmp_scores_fill(const struct cmp_frame *f, const struct rpane *r,
                    const struct axis *xm, double *vals);
/* Some pane is left blank over xm's distances (cmp_scores_costly): 1,
 * and the first such pane named in hint; else 0. */
int cmp_scores_refused(const struct cmp_frame *f, const struct axis *xm,
                       char *hint, size_t len);
/* Pane r's score at distance delta, S(delta, 0) (NAN past its n). */
double cmp_score_at(const struct cmp_frame *f, const struct rpane *r,
                    int64_t delta);
/* Whether some pane has a scheme. */
int cmp_any_scheme(const struct rpane *rp, int np);

/* The pane's horizon (peviz/bound.h: the first distance where the
 * q = k = ones score goes negative) beside its model's context, as two
 * wordings, longest first: "horizon 85,133 < context 131,072", "horizon
 * 85,133"; a partial head whose dead pairs make it hold says so.  0 when
 * the pane has no model. */
#define CMP_HORIZON_LEN 96
int cmp_horizon_text(const struct app *a, const struct rpane *r,
                     char s[][CMP_HORIZON_LEN]);

/* ---- the headers (compare_head.c) ------------------------------------ */

void cmp_draw_headers(const struct app *a, canvas *c, const struct geom *g,
                      const struct rpane *rp);

/* ---- the diff mode's cards (compare_card.c) -------------------------- */

/* In pane k's body: what its scheme has (its row's enum scheme_has),
 * with the numbers --export scores and --export bands print for it; for
 * a pane with bands, its own bands beside A's having none. */
void cmp_card_draw(const struct app *a, canvas *c, const struct cmp_frame *f,
                   int k);

/* ---- the grid of the heatmap and diff modes (compare_grid.c) ---------- */

/* Geometry, positions across and dimensions down, the body cut to the
 * rows the dimensions use. */
void cmp_grid_layout(const struct app *a, struct cmp_frame *f);
/* The values (grid columns x f->sub x pixel rows) of one pane's grid;
 * 0 when the grid has no room. */
size_t cmp_grid_cells(const struct cmp_frame *f);
/* Grid values per pane column: f->sub, at least 1. */
int cmp_grid_sub(const struct cmp_frame *f);
/* Pane r's means at every pixel row into out (BLANK outside its n or d),
 * sub values per column: its positions split evenly (a position spans
 * several where there are fewer); exact != 0 forces f64 (the reference
 * for errors). */
void cmp_grid_fill(const struct rpane *r, const struct axis *xm,
                   const struct ymap *ym, int sub, int exact, double *out);
/* Pane k's grid px (values at f->sub = cw, pane k's block) as pixels
 * of cw x ch a cell, in the colour scale scale (the legend's): each cell
 * row's upper half its first pixel row, the lower half its second, as
 * the half blocks.  0, or -1 when no value is shown (a reference pane). */
int cmp_grid_raster(const struct app *a, const struct cmp_frame *f,
                    const double *px, double scale, int k, int cw, int ch,
                    struct view_raster *r);
/* What pixel (x, y) of pane k's image at cw x ch a cell shows: positions
 * [*q0, *q1) of dimension *dim; 0, or -1 when it shows none. */
int cmp_grid_source(const struct cmp_frame *f, int k, int cw, int ch, int x,
                    int y, int64_t *q0, int64_t *q1, int *dim);
/* v's np grids, pane k's at k * cmp_grid_cells(f), in one colour scale;
 * the panes in skip (bit k) get no grid and no gutter.  lead: what the
 * legend calls the values.  -1 when nothing was drawn. */
int cmp_grid_draw(const struct app *a, canvas *c, const struct cmp_frame *f,
                  const struct cmp_values *v, unsigned skip,
                  const char *lead, char *hint, size_t hintlen);
/* Exact PE at the cursor as a pane holds it (NaN outside its d or n). */
double cmp_cursor_value(const struct app *a, const struct rpane *r);
/*
 * The readout "pos P dim D | A ... | B ...", a long and a short form:
 * piece gives pane k's value at the cursor and, when long (or always,
 * for the diff), what it is ("sin band 3 = "); 0 leaves the pane out.
 */
typedef int (*cmp_piece_fn)(const struct app *a, const struct rpane *rp,
                            int k, int verbose, char *what, size_t wlen,
                            double *val);
void cmp_grid_readout(const struct app *a, canvas *c,
                      const struct cmp_frame *f, cmp_piece_fn piece);
/* A grid mode's readout hook fn, made of its piece. */
#define CMP_GRID_READOUT(fn, piece)                                         \
    static void fn(const struct app *a, canvas *c,                          \
                   const struct cmp_frame *f)                               \
    {                                                                       \
        cmp_grid_readout(a, c, f, piece);                                   \
    }

#endif
