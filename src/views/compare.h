/* SPDX-License-Identifier: ISC */
/*
 * compare.h - the compare view's pane modes by name and its rows of the
 * follow-mode state (its settings are in compare_state.h; what
 * compare's own files share is in compare_view.h).
 */
#ifndef PEVIZ_VIEWS_COMPARE_H
#define PEVIZ_VIEWS_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "settings.h"
#include "state_field.h"
#include "views/compare_state.h"

const char *pane_mode_name(enum pane_mode m);  /* "heatmap", ... */
int pane_mode_parse(const char *s);            /* -1 if unknown */
const char *pane_mode_list(char *buf, size_t len);  /* "heatmap, ... or diff" */

/* Its rows of the follow-mode state (compare_fields.c, state_field.h),
 * and the relations between them one row cannot check. */
struct app;
extern const struct state_field COMPARE_FIELDS[];
/* Its settings' rows (settings.h): panes A, B and C's scores, pairs and
 * layers, the pane mode. */
extern const struct setting COMPARE_SETTINGS[];
int compare_fields_check(const struct app *a, char *err, size_t errlen);

/* For tests: what pixel (x, y) of pane part's image shows, the view laid
 * out in a w x h area at cw x ch pixels a cell (a grid mode: heatmap,
 * diff): positions [*q0, *q1) of dimension *dim; 0, or -1 when it shows
 * none. */
int compare_pixel_source(const struct app *a, int w, int h, int part, int cw,
                         int ch, int x, int y, int64_t *q0, int64_t *q1,
                         int *dim);
/* For tests: the colour scale of the panes there (the legend's), or 0
 * when the mode has none. */
double compare_scale_of_grid(const struct app *a, int w, int h);

#endif
