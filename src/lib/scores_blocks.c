/* SPDX-License-Identifier: ISC */
/*
 * scores_blocks.c - the grid of blocks a softmax back end averages over
 * (peviz/scores.h).
 */
#include "peviz/scores.h"

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

int scores_blocks_set(struct scores_blocks *b, const struct score_ctx *s,
                      int64_t k, int64_t rb0, int rows, int64_t cb0,
                      int cols)
{
    if (k < 1 || rows < 1 || cols < 1 || rb0 < 0 || cb0 < 0)
        return -1;
    *b = (struct scores_blocks){ s->n, k, rb0, cb0, rows, cols };
    return 0;
}

void scores_blocks_cell(const struct scores_blocks *b, int r, int c,
                        int64_t *i0, int64_t *i1, int64_t *j0, int64_t *j1)
{
    *i0 = (b->rb0 + r) * b->k;
    *j0 = (b->cb0 + c) * b->k;
    *i1 = min64(*i0 + b->k, b->n);
    *j1 = min64(*j0 + b->k, b->n);
}
