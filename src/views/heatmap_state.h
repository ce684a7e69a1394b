/* SPDX-License-Identifier: ISC */
/*
 * heatmap_state.h - the heatmap view's settings in struct app (a->heat):
 * plain data, included by app.h through the view list.
 */
#ifndef PEVIZ_VIEWS_HEATMAP_STATE_H
#define PEVIZ_VIEWS_HEATMAP_STATE_H

#include <stdint.h>

#define HEAT_PCA_MAX 64         /* the highest component :pca I J takes */

struct heatmap_state {
    int dim;            /* cursor dimension */
    int dim0;           /* first dimension shown (scroll) */
    int zoom;           /* 0 = whole sequence fits; each step halves span */
    int64_t x0;         /* first position shown when zoomed */
    int pca;            /* the principal-component panel instead (p) */
    int pca_i, pca_j;   /* the pair drawn against each other, 1-based
                           (:pca I J, { } [ ]); 0: components 1 and 2 */
};

#endif
