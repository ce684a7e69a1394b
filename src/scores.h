/*
 * scores.h - attention scores S(i, j) for every position scheme, their
 * exact block means, and softmax; shared by the attention view and by
 * --export scores|softmax.
 *
 * Definitions (also in the README and the view's help card).  i is the
 * query position, j the key position, d = d_model, w_k = base^(-2k/d):
 *   sinusoidal  S = PE(i).PE(j) = sum_k cos((i-j) w_k)
 *   rope        S = (R(i) q).(R(j) k) = sum_k a_k cos((i-j) w_k)
 *                                            + b_k sin((i-j) w_k),
 *               R(p) rotates each pair (2k, 2k+1) by p w_k; q = k = ones
 *               (":q ones") or seeded N(0,1) vectors (":q random")
 *   alibi       S = -m_h |i-j|  (with the causal mask -m_h (i-j), j <= i),
 *               m_h the paper's slope of head h among H heads
 *   learned     S = P(i).P(j), P the math library's stand-in table
 *               (pe_learned: trained rows before L, initial noise from L
 *               on; NOT a trained table) or a table loaded by --pe-file
 *   nope        S = 0
 * Content (toggle): word embeddings e_p with entries N(0, 1/d) drawn from
 * a fixed seed, times sqrt(d) when scaling is on, x_p = e_p + P_p and
 * S = x_i.x_j = e.e + e.p + p.e + p.p (sinusoidal, learned, nope: P = 0);
 * alibi adds its bias to e.e; rope rotates the embeddings themselves:
 * S = (R(i) e_i).(R(j) e_j).
 * Temperature (toggle) divides every score by sqrt(d).  The causal mask
 * sets S = -inf for j > i; softmax per row gives masked entries exactly 0.
 *
 * Exactness: a cell that covers a block of positions shows the exact mean
 * of the block, never a sample.  Every score here is bilinear, so the
 * block mean of x_i.y_j is mean(x over I) . mean(y over J): closed forms
 * for the sinusoid and the rotations (Dirichlet kernels, see pe.h), a
 * sum over the block for embeddings and learned rows.
 */
#ifndef PEVIZ_SCORES_H
#define PEVIZ_SCORES_H

#include <stddef.h>
#include <stdint.h>

#include "app.h"
#include "peload.h"
#include "peviz/pe.h"

/* Seeds of the fixed random draws (documented so numbers can be redone). */
#define SCORES_SEED_EMB     UINT64_C(0x5eed0e3b)    /* word embeddings */
#define SCORES_SEED_Q       UINT64_C(0x5eed0001)    /* RoPE random q */
#define SCORES_SEED_K       UINT64_C(0x5eed0002)    /* RoPE random k */
#define SCORES_SEED_LEARNED UINT64_C(0x5eed1ea4)    /* learned stand-in */

#define SCORES_MAX_HEADS 64
#define SCORES_MAX_TERMS 4

/* Per-position vectors the scores are dot products of. */
enum score_kind {
    SK_PSIN = 0,    /* PE(p) */
    SK_RQ,          /* R(p) q */
    SK_RK,          /* R(p) k */
    SK_E,           /* the embedding of position p, scaled (see above) */
    SK_PL,          /* the learned row P(p) */
    SK_RE,          /* R(p) e_p: RoPE applied to the embedding */
    SK_COUNT
};

enum term_type { TERM_DOT = 0, TERM_ALIBI };

/* One additive part of S: a.b of two kinds at i and j, or the ALiBi bias. */
struct score_term {
    enum term_type type;
    enum score_kind a, b;       /* query side, key side (TERM_DOT) */
    const char *name;           /* "e.e", "p.p", "bias", ... */
};

struct score_rowtab;

struct score_ctx {
    struct attention_state o;   /* scheme and toggles (cursor unused) */
    int d, half;
    int64_t n;
    double base;
    double tau;                 /* 1/sqrt(d) with the temperature, else 1;
                                   RoPE: times the scaling's a^2 */
    uint64_t freq_key;          /* hash of omega[] and tau: caches keyed
                                   on base must also key on this (scaling) */
    double emb_mul;             /* N(0,1) draw -> embedding entry */
    double slope;               /* ALiBi slope of head o.head */
    int heads, head;
    int64_t train_len;          /* L of the learned stand-in */
    pe_learned learned;
    const struct pe_table *table;   /* --pe-file rows, when they match */
    double *omega;              /* [half] */
    double *q, *k;              /* [d] RoPE query and key */
    double *ra, *rb;            /* [half] RoPE coefficients of q, k */
    int nterms;
    struct score_term terms[SCORES_MAX_TERMS];
    int toeplitz;               /* S depends on i - j only */
    int split_ok;               /* the four terms e.e, e.p, p.e, p.p */
    /* Built on the first scores_row of a Toeplitz scheme (n <= 2^22):
     * tau T(delta) for delta = -(n-1) .. n-1, so each further row is a
     * copy.  Behind a pointer: it fills in while the context is const. */
    struct score_rowtab *rowtab;
};

/* Defaults of the view state: sinusoidal, 8 heads, L = n/2, scaling on. */
void scores_defaults(struct attention_state *o);

/* The trained length L for n (o->train_len < 0 means n/2). */
int64_t scores_train_len(const struct attention_state *o, int64_t n);

/*
 * Build a context from the parameters, the view's toggles and the loaded
 * table (a->pe_table, used by the learned scheme when its d matches and
 * it has at least n rows).  Returns NULL when out of memory.
 */
struct score_ctx *scores_new(const struct app *a);
struct score_ctx *scores_new_from(const params *p,
                                  const struct attention_state *o,
                                  const struct pe_table *table);
void scores_free(struct score_ctx *s);       /* NULL is fine */

/* Whether the loaded table is the one the learned scheme uses. */
int scores_table_used(const struct score_ctx *s);

/* One entry (dims [k0, k1), k0 even) of the vector of kind at position p. */
void scores_vec(const struct score_ctx *s, enum score_kind kind, int64_t p,
                int k0, int k1, double *out);

/* Term t at (i, j), before the temperature and the mask. */
double scores_term_at(const struct score_ctx *s, int t, int64_t i, int64_t j);

/* S(i, j) with the temperature; -INFINITY where the mask hides it. */
double scores_at(const struct score_ctx *s, int64_t i, int64_t j);

/*
 * Row i into row[0..n-1]: S(i, .) (masked -INFINITY), or with softmax the
 * weights (masked exactly 0, each row sums to 1).  O(n d) per row.
 * Returns 0, or -1 when out of memory (row untouched).
 */
int scores_row(const struct score_ctx *s, int64_t i, int softmax, double *row);

/*
 * Exact mean of S over the block i in [i0,i1), j in [j0,j1), ignoring the
 * mask (temperature applied).  Closed forms where they exist, otherwise
 * the dot of the two mean vectors (O(block * d) for embeddings and
 * learned rows).  A reference; the view uses the cached grid below.
 */
double scores_block_mean(const struct score_ctx *s, int64_t i0, int64_t i1,
                         int64_t j0, int64_t j1);

/* ---- the cached grid of block cells ------------------------------------ */

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
#define GRID_TABLE_MAX_N    (INT64_C(1) << 20)  /* softmax offset table */
#define GRID_KEYS_CAP       (INT64_C(1) << 21)  /* n*d key entries, direct */
#define GRID_DIRECT_CAP     (INT64_C(1) << 31)  /* rows*n*d, direct softmax */
#define GRID_SLICE          (INT64_C(8000000))  /* work per slice (~6 ms) */

enum grid_status { GRID_BUSY = 0, GRID_DONE = 1, GRID_REFUSED = -1 };

struct score_grid;

struct score_grid *grid_new(void);
void grid_free(struct score_grid *g);

/*
 * Bring the grid up to date for s and r, doing at most budget units of
 * work (GRID_SLICE is about 6 ms).  Everything is cached: a call for the
 * same s and r costs nothing, panning keeps the softmax table, a
 * parameter change starts over.  Returns GRID_DONE, GRID_BUSY (call
 * again: *progress in [0, 1]) or GRID_REFUSED (why says what and how to
 * get under the limit).  Work is counted, not timed, so results and the
 * number of calls are the same on every machine.
 */
enum grid_status grid_update(struct score_grid *g, const struct score_ctx *s,
                             const struct grid_req *r, int64_t budget,
                             double *progress, char *why, size_t whylen);

/* After GRID_DONE: the cell (r, c) as shown (softmax weights when on);
 * NAN where the mask hides the whole block or outside n. */
double grid_cell(const struct score_grid *g, int r, int c);

/* Term t's block mean at (r, c), temperature applied (split requested). */
double grid_term(const struct score_grid *g, int t, int r, int c);

/*
 * Softmax of query row i (after GRID_DONE with softmax on): P(i, j) into
 * *p, and when cols_out is non-NULL the mean weight over each of the
 * request's column blocks.  Returns 0, or -1 when not available.
 */
int grid_softmax_at(struct score_grid *g, const struct score_ctx *s,
                    int64_t i, int64_t j, double *p, double *cols_out);

#endif
