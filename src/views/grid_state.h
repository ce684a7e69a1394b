/* SPDX-License-Identifier: ISC */
/*
 * grid_state.h - the grid view's settings in struct app (a->grid).
 */
#ifndef PEVIZ_VIEWS_GRID_STATE_H
#define PEVIZ_VIEWS_GRID_STATE_H

#include <stdint.h>

/* The key token k (the query is p.pos), and whether the scores are
 * plain 1-D RoPE's instead. */
struct grid_state {
    int64_t key;
    int one_d;
    int pad_;               /* no padding bytes: memcmp */
};

#endif
