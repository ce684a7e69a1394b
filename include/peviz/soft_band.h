/* SPDX-License-Identifier: ISC */
/*
 * peviz/soft_band.h - exact softmax block means of a Toeplitz context
 * under a window, a chunk or a sink, at any n: a row sees only a band of
 * at most B = min(window, chunk, n) distances, so the offsets
 * tau T(delta), delta in [0, B), are all it needs.  Part of libpeviz:
 * libc and libm only, all state in the band.
 *
 * The blocks are those of peviz/score_grid.h: row r holds the queries
 * [(rb0 + r) k, +k) and column c the keys [(cb0 + c) k, +k), clipped to
 * n.  Query i sees the keys j with lo(i) <= j <= i, lo(i) the largest of
 * 0, i - window + 1 and the start of i's chunk: the distances [0, D(i)],
 * D(i) = i - lo(i) < B.  With E(delta) = exp(tau T(delta) - M) (M the
 * largest offset in the band, or the sink when above), the prefix sums
 * P(t) = E(0) + .. + E(t - 1) are kept in double-double, and
 *   Z(i)                = P(D(i) + 1) + exp(sink - M)
 *   row i over [ja, jb] = P(i - ja + 1) - P(i - jb)   (lo(i) <= ja <= jb <= i)
 * so each row costs one division and two look-ups a column block it
 * meets: work O(B log B + shown rows x (B / k + 2)), memory 16 B bytes.
 * Every cell is an exact mean, within about 1e-13 relative of a direct
 * sum; a difference of prefix sums in double-double loses nothing.
 */
#ifndef PEVIZ_SOFT_BAND_H
#define PEVIZ_SOFT_BAND_H

#include <stddef.h>
#include <stdint.h>

#include "peviz/scores.h"

/* The widest band held (distances): 16 MB of prefix sums. */
#define SOFT_BAND_MAX (INT64_C(1) << 20)

struct soft_band;

/* The band B of s (min of window, chunk and n; n when neither is set). */
int64_t soft_band_width(const struct score_ctx *s);

/* 1 when s takes a band: Toeplitz, the future hidden (causal, or a window
 * or a chunk), and B <= SOFT_BAND_MAX. */
int soft_band_fits(const struct score_ctx *s);

/* A band for the rows x cols blocks of k positions from block rb0
 * (rows), cb0 (columns); NULL when s does not fit, the request is empty
 * or out of memory. */
struct soft_band *soft_band_new(const struct score_ctx *s, int64_t k,
                                int64_t rb0, int rows, int64_t cb0,
                                int cols);
void soft_band_free(struct soft_band *b);               /* NULL is fine */

/* The whole work in units of about a nanosecond, and what is done. */
int64_t soft_band_work(const struct soft_band *b);
int64_t soft_band_done(const struct soft_band *b);

/* Advance by about *budget units (taken off *budget), each call given a
 * context with the same parameters.  1 while unfinished, 0 when done,
 * -1 when out of memory. */
int soft_band_step(struct soft_band *b, const struct score_ctx *s,
                   int64_t *budget);

/* After 0: the mean weight of block (r, c); NAN where the mask hides the
 * whole block or it lies past n. */
double soft_band_cell(const struct soft_band *b, int r, int c);

/* After 0: P(i, j) of query i (0 when j is masked), and when cols_out is
 * non-NULL the mean weight of row i over each column block (NAN past n).
 * Returns 0, or -1 when i or j is out of range. */
int soft_band_row(const struct soft_band *b, const struct score_ctx *s,
                  int64_t i, int64_t j, double *p, double *cols_out);

#endif
