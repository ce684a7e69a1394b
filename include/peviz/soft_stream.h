/* SPDX-License-Identifier: ISC */
/*
 * peviz/soft_stream.h - exact softmax block means of a Toeplitz context
 * for large n in bounded memory: the offset table tau T(delta) is never
 * held whole (at n = 2^24 it would be 256 MB).  Part of libpeviz: libc
 * and libm only, all state in the stream.
 *
 * The blocks are those of peviz/score_grid.h: row r holds the queries
 * [(rb0 + r) k, +k) and column c the keys [(cb0 + c) k, +k), clipped to
 * n.  With E(x) = exp(tau T(x - (n-1)) - shift) (zero where masked), row
 * i's weights over a column block are a window of E, and its normaliser
 * Z(i) a window of n (causal: from x = n - 1), so a cell's weight sum is
 * sum over its rows of window(i) / Z(i).  A window W (which hides the
 * future too) makes E zero from x = n - 1 + W on, so nothing else
 * changes; a sink X adds exp(X - shift) to every Z(i), the shift then
 * at least X.  A chunk is not taken (peviz/soft_band.h takes it).
 *
 * Two passes, both in spans made by the non-uniform FFT
 * (scores_span_pair).  The first walks the whole table once and keeps
 * only the sums of its pieces between the places the second needs (and
 * the shift).  The second goes through every block k positions at a time
 * in chunks of U rows: the span at each row block's start gives the near
 * part of its rows' Z(i); each block of distances' span, made once per
 * chunk, completes one window of every cell on its diagonal and the far
 * end of one row block's Z(i).  Where a row block starts a little past
 * a block of distances (rb k = n + m k + off, off small: so when k is n
 * over the blocks rounded up), that block's span holds the row starts
 * too and none is made for them.  Each window and Z(i) is a sum of positive
 * parts (the end of one span, whole pieces, the start of another), so
 * nothing cancels; then each row block's 1/Z against its cells' windows.
 * Memory O((rows + cols) U + pieces), U chosen to keep it near 40 MB at
 * most; work O(n log n + n cols): every cell is an exact mean, within
 * about 1e-12 relative of a direct long-double sum.
 */
#ifndef PEVIZ_SOFT_STREAM_H
#define PEVIZ_SOFT_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "peviz/scores.h"

struct soft_stream;

/* A stream for the rows x cols blocks of k positions from block rb0
 * (rows), cb0 (columns), for s (Toeplitz, softmax); NULL when s is not
 * Toeplitz, has a chunk shorter than n, the request is empty or out of
 * memory. */
struct soft_stream *soft_stream_new(const struct score_ctx *s, int64_t k,
                                    int64_t rb0, int rows, int64_t cb0,
                                    int cols);
/* The same with at most chunk rows of a block per chunk (a power of two,
 * 128 .. 16384; 0: the most that fits the memory bound). */
struct soft_stream *soft_stream_new_chunk(const struct score_ctx *s,
                                          int64_t k, int64_t rb0, int rows,
                                          int64_t cb0, int cols,
                                          int64_t chunk);
void soft_stream_free(struct soft_stream *st);          /* NULL is fine */

/* The whole work in units of about a nanosecond, and what is done. */
int64_t soft_stream_work(const struct soft_stream *st);
int64_t soft_stream_done(const struct soft_stream *st);

/* Bytes the stream holds (its buffers and plans). */
size_t soft_stream_bytes(const struct soft_stream *st);

/* Advance by about *budget units (taken off *budget), each call given a
 * context with the same parameters.  1 while unfinished, 0 when done,
 * -1 when out of memory.  The first call makes the transform's plans
 * (their tables and first pages) and little else. */
int soft_stream_step(struct soft_stream *st, const struct score_ctx *s,
                     int64_t *budget);

/* After 0: the mean weight of block (r, c); NAN where the mask hides the
 * whole block or it lies past n. */
double soft_stream_cell(const struct soft_stream *st, int r, int c);

#endif
