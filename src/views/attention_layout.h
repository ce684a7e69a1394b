/* SPDX-License-Identifier: ISC */
/*
 * attention_layout.h - where the attention view puts its matrix, axes,
 * legend and panel for a size of the view area, and the view's runtime
 * object (struct att_rt) that holds the layout and the caches.
 */
#ifndef PEVIZ_VIEWS_ATTENTION_LAYOUT_H
#define PEVIZ_VIEWS_ATTENTION_LAYOUT_H

#include <stdint.h>

#include "app.h"
#include "axis.h"
#include "peviz/score_grid.h"

#define PROFILE_MAX 1024    /* points of the profile */

/* Zooming in stops at this many positions across. */
#define MIN_SPAN 2

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

/* The view's layout hook: the layout for a w x h view area, into the
 * runtime object rt (struct att_rt). */
void attention_layout_fit(const struct app *a, void *rt, int w, int h);

#endif
