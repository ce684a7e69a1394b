/* SPDX-License-Identifier: ISC */
/*
 * heat_pca.h - the heatmap view's principal-component panel (key p): the
 * table's top components against position, and a pair of components
 * (PC1 and PC2 unless :pca I J or { } [ ] choose others) as a curve on a
 * clock face whose hand points at the cursor's position.
 *
 * The table is the one the heatmap shows (a --pe-file table), else the
 * sinusoidal table at d_model, n, base (at most 2^22 values).  The
 * eigenproblem (peviz/pca.h) is worked in slices by the view's work hook,
 * so keys and signals are served while it runs; the panel shows the
 * progress meanwhile.  Everything it holds lives in the runtime object.
 */
#ifndef PEVIZ_VIEWS_HEAT_PCA_H
#define PEVIZ_VIEWS_HEAT_PCA_H

#include <stdint.h>

#include "app.h"
#include "canvas.h"
#include "peviz/pca.h"
#include "peviz/tables.h"

#define HEAT_PCA_K 3

enum heat_pca_state { HP_IDLE = 0, HP_BUSY, HP_DONE, HP_FAILED, HP_TOO_BIG };

struct heat_pca_rt {
    enum heat_pca_state state;
    /* what the result is of */
    const double *src;
    int64_t n;
    int d;
    double base;
    double *own;                    /* the sinusoidal table, when no file */
    int want;                       /* components asked for */
    struct pe_pca_work *work;
    struct pe_pca res;
    double *proj;                   /* n x k projections */
};

/* A slice of the computation for table t (NULL: the sinusoids at a's
 * parameters), restarted when it changes: 1 while more is left. */
int heat_pca_work(const struct app *a, const struct pe_table *t,
                  struct heat_pca_rt *r, int64_t budget);

/* The panel in the box (x, y, w, h) of c; name is the table's file name
 * (NULL: the sinusoidal table). */
void heat_pca_draw(const struct app *a, const struct heat_pca_rt *r,
                   const char *name, canvas *c, int x, int y, int w, int h);

void heat_pca_free(struct heat_pca_rt *r);

struct view_raster;

/* The panel's face (rim, axes, the pair's curve over every position) as
 * a line drawing (raster.h) of the cells heat_pca_draw gives it in the
 * same box, cw x ch pixels a cell: 0 with out filled (free out->px), or
 * -1 when no face is drawn.  The hand is not in it: heat_pca_draw marks
 * the hand's cells ATTR_OVER, text over the image, so the image does not
 * change with the position. */
int heat_pca_raster(const struct app *a, const struct heat_pca_rt *r, int x,
                    int y, int w, int h, int cw, int ch,
                    struct view_raster *out);

/* The pair a's state asks for, 0-based, *i != *j (default 0 and 1). */
void heat_pca_pair(const struct app *a, int *i, int *j);

/* ":pca I J" (1 <= I, J <= HEAT_PCA_MAX, I != J): opens the panel on that
 * pair; ":pca" alone on 1 and 2, ":pca off" closes it.  0, or -1 with
 * the message set. */
int heat_pca_command(struct app *a, const char *arg);

/* The keys { } (first component) and [ ] (second) step the pair. */
int heat_pca_step(struct app *a, int which, int delta);

#endif
