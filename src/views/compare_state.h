/* SPDX-License-Identifier: ISC */
/*
 * compare_state.h - the compare view's settings in struct app (a->cmp):
 * its panes and their mode; plain data, included by app.h through the
 * view list.
 */
#ifndef PEVIZ_VIEWS_COMPARE_STATE_H
#define PEVIZ_VIEWS_COMPARE_STATE_H

#include <stdint.h>

#include "params.h"
#include "peviz/layout.h"

#define COMPARE_MAX_PANES 6
/* Panes A, B and C hold their own RoPE scaling and model; D, E and F
 * (for more schemes side by side) take pane A's. */
#define COMPARE_ROPE_PANES 3
enum pane_mode { PANE_HEATMAP = 0, PANE_SPECTRUM, PANE_PROFILE, PANE_DIFF,
                 PANE_RATIO, PANE_DRIFT, PANE_MATRIX,
                 PANE_MODE_COUNT };

struct pane {
    double base;
    int d;
    int64_t n;
    enum layout layout;
    enum precision prec;
    rope_scaling rope;      /* panes B, C: their RoPE scaling (pane A's is
                               a->p.rope) */
    int model;              /* 1 + the model preset (peviz/rope.h) the pane
                               was last set from, 0: none; its name is
                               shown while the pane keeps its settings */
    int scheme;             /* 1 + the attention scheme (peviz/scores.h)
                               of the pane's scores in the profile and
                               drift modes, 0: PE(i).PE(j) */
    int pairs;              /* 1 + its q/k pairs (enum qk_pairs), 0: the
                               global --rope-layout */
    int layer;              /* 1 + the layer of a model with NoPE layers
                               (rope_preset.nope_every) whose scores it
                               shows (rope, or nope with temperature
                               tuning), or of --config (cfg), 0: none */
    int cfg;                /* panes B, C: 1 when set from that layer of
                               --config (its RoPE settings and scheme) */
};

#define COMPARE_LAYER_MAX 1000  /* layers 0 .. COMPARE_LAYER_MAX - 1 */

/* A pane's d <= 0 or n <= 0 means "follow a->p" (the global value). */
struct compare_state {
    int npanes, active, preset;
    enum pane_mode mode;
    struct pane panes[COMPARE_MAX_PANES];
    int dim;            /* shared cursor dimension (displayed order) */
    int band;           /* shared cursor band (spectrum mode) */
    int dims_1to1;      /* 0: rows show evenly spaced dims; 1: consecutive */
    int zoom;           /* 0 = all positions fit; each step halves the span;
                         * the shown window is the page holding a->p.pos */
};

#endif
