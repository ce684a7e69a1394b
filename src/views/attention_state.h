/* SPDX-License-Identifier: ISC */
/*
 * attention_state.h - the attention view's settings in struct app (a->att).
 */
#ifndef PEVIZ_VIEWS_ATTENTION_STATE_H
#define PEVIZ_VIEWS_ATTENTION_STATE_H

#include <stdint.h>

#include "peviz/scores.h"

struct attention_state {
    struct score_opts o;        /* scheme and toggles (peviz/scores.h) */
    int split;                  /* show the four terms of the cell */
    int bucket_map;             /* t5: the bucket map in the inspector */
    int64_t ci, cj;             /* cursor: query i, key j */
    int zoom;
    int64_t i0, j0;
};

#endif
