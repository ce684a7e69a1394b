/* SPDX-License-Identifier: ISC */
/*
 * peviz/score_grid.h - the cached grid of block cells the attention
 * view shows, computed in slices between frames.  The numbers are
 * peviz/scores.h's; this is the job around them: what to compute, in
 * which order, within which budget, and what to keep.  Part of
 * libpeviz: libc and libm only, all state in the grid.
 */
#ifndef PEVIZ_SCORE_GRID_H
#define PEVIZ_SCORE_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "peviz/scores.h"


/*
 * What the view shows: an aligned grid of blocks of k positions.  Row r
 * holds the queries [(i0/k + r) k, +k) and column c the keys
 * [(j0/k + c) k, +k), both clipped to n; i0 and j0 are multiples of k, so
 * a block on the diagonal covers the same positions as a row and a column.
 */
struct grid_req {
    int64_t i0, j0, k;
    int rows, cols;
    int split;          /* also keep each term's cells */
};

/*
 * Limits (documented in the README): work the grid refuses rather than
 * run for minutes or fill memory.  Counts are evaluations of one vector
 * entry of an embedding or learned row.
 */
#define GRID_BRUTE_CAP      (INT64_C(1) << 28)  /* entries over the blocks */
#define GRID_TABLE_MAX_N    (INT64_C(1) << 20)  /* softmax offset table held;
                                                   beyond: peviz/soft_stream.h */
#define GRID_KEYS_CAP       (INT64_C(1) << 21)  /* n*d key entries, direct */
#define GRID_DIRECT_CAP     (INT64_C(1) << 31)  /* rows*n*d, direct softmax */
#define GRID_SLICE          (INT64_C(8000000))  /* work per slice (~6 ms) */

enum grid_status { GRID_BUSY = 0, GRID_DONE = 1, GRID_REFUSED = -1 };

struct score_grid;

struct score_grid *score_grid_new(void);
void score_grid_free(struct score_grid *g);

/*
 * Bring the grid up to date for s and r, doing at most budget units of
 * work (GRID_SLICE is about 6 ms).  Everything is cached: a call for the
 * same s and r costs nothing, panning keeps the softmax table, a
 * parameter change starts over.  Returns GRID_DONE, GRID_BUSY (call
 * again: *progress in [0, 1]) or GRID_REFUSED (why says what and how to
 * get under the limit).  Work is counted, not timed, so results and the
 * number of calls are the same on every machine.
 */
enum grid_status score_grid_update(struct score_grid *g,
                                   const struct score_ctx *s,
                                   const struct grid_req *r, int64_t budget,
                                   double *progress, char *why, size_t whylen);

/* After GRID_DONE: the cell (r, c) as shown (softmax weights when on);
 * NAN where the mask hides the whole block, outside n, or past s->rows
 * (a loaded table's end: missing; a block across it is the mean of its
 * part before the end). */
double score_grid_cell(const struct score_grid *g, int r, int c);

/* Term t's block mean at (r, c), temperature applied (split requested). */
double score_grid_term(const struct score_grid *g, int t, int r, int c);

/*
 * Softmax of query row i (after GRID_DONE with softmax on): P(i, j) into
 * *p, and when cols_out is non-NULL the mean weight over each of the
 * request's column blocks.  Returns 0, or -1 when not available (also
 * for a missing query i >= s->rows, and for a Toeplitz context over
 * GRID_TABLE_MAX_N, whose cells are streamed, and for a window or a sink
 * the band does not take); a missing key j gives NAN.
 */
int score_grid_softmax_at(struct score_grid *g, const struct score_ctx *s,
                          int64_t i, int64_t j, double *p, double *cols_out);

#endif
