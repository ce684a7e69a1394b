/* SPDX-License-Identifier: ISC */
/*
 * peviz/scores.h - attention scores S(i, j) for every position scheme, their
 * exact block means, distance means and softmax; the attention view, the
 * compare view's profile and --export scores|softmax all use them.
 * Part of libpeviz: libc and libm only, no state outside the context but
 * the schemes registered at start-up (scheme_register).
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
 *               on; NOT a trained table) or a table loaded by --pe-file.
 *               A loaded table has no row past its length R: every score
 *               involving a position >= R is missing (NAN), see rows.
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

#include "peviz/pe.h"
#include "peviz/rope.h"

/* Seeds of the fixed random draws (documented so numbers can be redone). */
#define SCORES_SEED_EMB     UINT64_C(0x5eed0e3b)    /* word embeddings */
#define SCORES_SEED_Q       UINT64_C(0x5eed0001)    /* RoPE random q */
#define SCORES_SEED_K       UINT64_C(0x5eed0002)    /* RoPE random k */
#define SCORES_SEED_LEARNED UINT64_C(0x5eed1ea4)    /* learned stand-in */

/* Heads of ALiBi and Sandwich, and of a T5 bias table (t5-11b has 128). */
#define SCORES_MAX_HEADS 128
#define SCORES_MAX_TERMS 4
#define SCORES_T5_MAX_BUCKETS 1024

/* ---- the schemes ---------------------------------------------------------- */

/* The schemes code names; the table (SCHEMES) may hold more rows after
 * them, and more are registered at run time: scheme_count() has them
 * all. */
enum scheme { SCHEME_SINUSOIDAL = 0, SCHEME_ROPE, SCHEME_ALIBI,
              SCHEME_LEARNED, SCHEME_NOPE, SCHEME_T5, SCHEME_KERPLE_LOG,
              SCHEME_KERPLE_POWER, SCHEME_SANDWICH, SCHEME_XPOS };

struct score_ctx;

/* What a scheme's positions are made of, for the words beside its
 * picture: frequency bands (a critical band, the slowest band's turns),
 * T5's buckets, ALiBi's per-head slopes, KERPLE's kernel parameters
 * r1 and r2, a learned table's rows, or nothing (NoPE). */
enum scheme_has { SCHEME_HAS_NOTHING = 0, SCHEME_HAS_BANDS,
                  SCHEME_HAS_BUCKETS, SCHEME_HAS_SLOPES, SCHEME_HAS_KERNEL,
                  SCHEME_HAS_ROWS, SCHEME_HAS_COUNT };
/* "bands", "buckets", "slopes", "kernel", "rows", "nothing". */
const char *scheme_has_name(int has);

/*
 * One entry per scheme, indexed by enum scheme (src/lib/schemes.c):
 * everything that names or describes it, and what its scores are made
 * of.  The command line, the prompt, the help card and the attention
 * view read names and formulas from here.  Formulas come in UTF-8 and in
 * ASCII (--ascii), without and with the content toggle.
 *
 * build adds the scheme's terms to a new context (scores_term_add,
 * scores_terms_additive below) from the per-position vectors of enum
 * score_kind.  Everything else follows from the terms: single scores,
 * rows, block means (closed forms for the sinusoid, the rotations and
 * the bias, sums otherwise), distance means and the app's grid.
 */
struct scheme_info {
    const char *name;               /* "rope": --scheme and :scheme word */
    const char *formula;            /* S without content, UTF-8 */
    const char *formula_ascii;
    const char *formula_content;    /* S with content embeddings, UTF-8 */
    const char *formula_content_ascii;
    int toeplitz;                   /* without content S depends on i - j */
    int split;                      /* with content S = e.e + e.p + p.e + p.p */
    void (*build)(struct score_ctx *s);
    int has;                        /* enum scheme_has; 0 (nothing) when a
                                       registered row leaves it out */
    int heads;                      /* 1: its bias differs per head (the
                                       heads and head options pick one) */
};

/* The built-in rows, the first indexed by enum scheme. */
extern const struct scheme_info SCHEMES[];

/*
 * More schemes at run time: the row (not copied: it must outlive its
 * use) gets the next number, scheme_count() - 1, and from then on
 * every lookup, list, parse and context knows it like a built-in one.
 * Its build function uses the building blocks below (scores_term_add,
 * scores_dist_add with its own struct dist_ops, ...).  Call before
 * other threads use the table.  Returns the number, or -1 when the name
 * is missing or taken, build is NULL, or SCHEME_MAX rows are in use.
 */
#define SCHEME_MAX 64
int scheme_register(const struct scheme_info *si);
int scheme_count(void);
/* The row of scheme s, or NULL out of range. */
const struct scheme_info *scheme_info(int s);

const char *scheme_name(enum scheme s);     /* "?" when out of range */
int scheme_parse(const char *name);         /* -1 if unknown (or NULL) */

/* The names as a list for messages: "sinusoidal, rope, alibi, learned or
 * nope" (truncated to len).  Returns buf. */
const char *scheme_list(char *buf, size_t len);

/* ---- options ----------------------------------------------------------------- */

/*
 * Which dimensions of q and k form a rotated pair (R the rotary width):
 * interleaved (GPT-J, Meta's original code, view_as_complex) pairs
 * (2k, 2k+1); half (rotate_half: GPT-NeoX, transformers' Llama) pairs
 * (k, k + R/2).  The frequencies are the same; with q = k = ones the
 * scores are too, with real q and k they are not.  Dimensions >= R pass
 * through unrotated and add their plain dot product; the R/2 bands turn
 * at base^(-2k/R).
 */
enum qk_pairs { QK_INTERLEAVED = 0, QK_HALF, QK_PAIRS_COUNT };
const char *qk_pairs_name(int p);           /* "interleaved", "half" */
int qk_pairs_parse(const char *name);       /* -1 if unknown */

/*
 * Everything about a scheme the scores depend on, as plain data: ints
 * and an int64, no pointers and no floating point, so two option sets
 * are the same exactly when memcmp says so.  That makes it usable as
 * (part of) a cache key; a key holding one must be memset to zero
 * before its fields are set, so padding compares equal too.
 */
struct score_opts {
    enum scheme scheme;
    int softmax, causal;
    int temperature;            /* divide every score by sqrt(d) */
    int content;                /* add word embeddings e_p */
    int scale_emb;              /* embeddings times sqrt(d) */
    int heads, head;            /* ALiBi: number of heads, current head */
    int q_random;               /* RoPE: 0 = q = k = ones, 1 = seeded */
    uint32_t seed;              /* RoPE random q, k: which draw (0: the
                                 * default; SCORES_SEED_Q/K ^ seed); an
                                 * int's size: no padding (memcmp) */
    int64_t train_len;          /* learned: trained length (-1: n/2) */
    int buckets;                /* T5: number of buckets (default 32) */
    int max_distance;           /* T5: max_distance (default 128) */
    int bidirectional;          /* T5: encoder buckets (both sides) */
    int qk_pairs;               /* rope, xpos: enum qk_pairs, which dims of
                                 * q and k form band k's pair */
    int rotary_dims;            /* rope, xpos: R, the first R dims rotate
                                 * (0 or >= d: all) */
    int pad_;                   /* keeps the doubles aligned: zero */
    /* The doubles below are compared by their bits (memcmp): two
     * settings are the same exactly when every bit is. */
    double r1, r2;              /* KERPLE: -r1 ln(1 + r2|i-j|), -r1|i-j|^r2 */
    double xpos_base;           /* xPos: scale base gamma (default 512) */
    /* The query scale g(i) multiplying row i's dot terms (see
     * scores_qscale): Llama 4's temperature tuning in NoPE layers, and
     * Ministral 3's llama_4_scaling_beta in every layer. */
    int temp_tuning;            /* Llama 4: on / off */
    int pad2_;                  /* zero */
    double floor_scale;         /* Llama 4: floor_scale (8192) */
    double attn_scale;          /* Llama 4: attn_scale (0.1) */
    double beta;                /* Ministral 3: beta (0: off) */
    int64_t beta_len;           /* Ministral 3: the original length L */
    /* The mask beyond causal: key j is visible from query i when j <= i
     * and i - window < j (window > 0), and floor(i/chunk) = floor(j/chunk)
     * (chunk > 0); 0: off. */
    int64_t window, chunk;
    /* A sink logit X in each row's softmax denominator (gpt-oss):
     * P(i,j) = e^S(i,j) / (sum_j e^S(i,j) + e^X); -inf: none. */
    double sink;
};

/* 1 when key j is hidden from query i: causal, window or chunk. */
int scores_masked(const struct score_opts *o, int64_t i, int64_t j);

/* 1 when a window or a chunk is set (the mask is more than causal). */
int scores_banded(const struct score_opts *o);

/* 1 when the keys after the query are hidden: causal, or banded (a
 * window or a chunk hides the future too). */
int scores_future_hidden(const struct score_opts *o);

/* 1 when a sink logit joins the softmax (o->sink finite). */
int scores_sunk(const struct score_opts *o);

/* 1 when a window or a chunk hides some but maybe not all of the pairs
 * of the block i in [i0, i1), j in [j0, j1) that lies on or below the
 * diagonal (src/lib/scores_mask.c). */
int scores_mask_partial(const struct score_opts *o, int64_t i0, int64_t i1,
                        int64_t j0, int64_t j1);

/* Term t's mean over the pairs of that block the mask shows, NAN when
 * it shows none; Toeplitz contexts only, O(log block) block means per
 * chunk the block's rows meet (chunks of one shape cost one). */
double scores_mask_mean(const struct score_ctx *s, int t, int64_t i0,
                        int64_t i1, int64_t j0, int64_t j1);

/* How many pairs of that block the mask (causal, window, chunk) shows. */
double scores_mask_count(const struct score_ctx *s, int64_t i0, int64_t i1,
                         int64_t j0, int64_t j1);

/* 1 when the window or the chunk hides every key j in [j0, j1) from
 * every query i in [i0, i1). */
int scores_block_hidden(const struct score_opts *o, int64_t i0, int64_t i1,
                        int64_t j0, int64_t j1);

/* Defaults: sinusoidal, 8 heads, L = n/2, scaling on, toggles off. */
void scores_defaults(struct score_opts *o);

/* The trained length L for n (o->train_len < 0 means n/2). */
int64_t scores_train_len(const struct score_opts *o, int64_t n);

/*
 * A learned table given by the caller (e.g. loaded from a file): n rows
 * of d values, row-major, v[p * d + dim].  Not copied: it must outlive
 * the contexts built from it.  n may be below the context's n: the
 * positions past it are missing (score_ctx.rows).
 */
struct score_table {
    const double *v;
    int64_t n;
    int d;
};

/* ---- the context ------------------------------------------------------------- */

/* Per-position vectors the scores are dot products of. */
enum score_kind {
    SK_PSIN = 0,    /* PE(p) */
    SK_RQ,          /* R(p) q */
    SK_RK,          /* R(p) k */
    SK_E,           /* the embedding of position p, scaled (see above) */
    SK_PL,          /* the learned row P(p) */
    SK_RE,          /* R(p) e_p: RoPE applied to the embedding */
    SK_XQ,          /* xPos query: band k of R(p) e_p times zeta_k^(c/g) */
    SK_XK,          /* xPos key: times zeta_k^(-c/g), c = p - n/2 */
    SK_EG,          /* g(p) e_p: the query scale times the embedding */
    SK_RQG,         /* g(p) R(p) q */
    SK_COUNT
};

/* The types of terms, each with its operations row (TERM_OPS below). */
enum term_type { TERM_DOT = 0, TERM_DIST, TERM_TYPE_COUNT };

/*
 * The operations row of a term that is a function f(i - j) of the
 * distance alone (TERM_DIST: ALiBi, T5, KERPLE, Sandwich, xPos).  Only at
 * is required; every other entry may be NULL and then follows from at
 * (src/lib/dist.c): a block's mean sums f over its distinct distances,
 * each weighted by how often it occurs (|I| + |J| - 1 values), and a
 * piecewise-constant f (run) is summed a run at a time.
 */
struct dist_ops {
    double (*at)(const struct score_ctx *s, int64_t delta);
    /* f(delta), and in *end the first distance after delta with another
     * value (piecewise-constant schemes) */
    double (*run)(const struct score_ctx *s, int64_t delta, int64_t *end);
    /* the exact mean over i in [i0,i1), j in [j0,j1) */
    double (*block_mean)(const struct score_ctx *s, int64_t i0, int64_t i1,
                         int64_t j0, int64_t j1);
    /* the sum over the lower triangle j <= i of an m x m square */
    double (*tri_sum)(const struct score_ctx *s, int64_t m);
    /* the mean over the distances [d0, d1) */
    double (*range_mean)(const struct score_ctx *s, int64_t d0, int64_t d1);
    /* sum f(delta) into *s0 and sum (delta - lo) f(delta) into *s1 over
     * delta in [lo, hi) (any signs, lo < hi), e.g. by Euler-Maclaurin for
     * a smooth f: then the block means, triangle sums and range means
     * that the row leaves out cost O(1) instead of O(distinct distances) */
    void (*sums)(const struct score_ctx *s, int64_t lo, int64_t hi,
                 double *s0, double *s1);
};

/* One additive part of S: a.b of two kinds at i and j, or a function of
 * the distance (dist). */
struct score_term {
    enum term_type type;
    enum score_kind a, b;       /* query side, key side (TERM_DOT) */
    const char *name;           /* "e.e", "p.p", "bias", ... */
    const struct dist_ops *dist;    /* TERM_DIST */
};

struct scores_tri_memo;

/*
 * The operations row of a term type (TERM_OPS[type], src/lib/scores.c):
 * everything single scores, rows, block means, distance means and the
 * grid ask of a term, so none of them tests the type.  Positions given
 * are present (below rows) and blocks not empty.
 *   at          the term at (i, j), before the temperature
 *   block_mean  its exact mean over i in [i0,i1), j in [j0,j1)
 *   tri_sum     term t's sum over the lower triangle j <= i of an m x m
 *               square (Toeplitz contexts; memo as scores_term_tri_sum)
 *   range_mean  its mean over the distances [d0, d1) (Toeplitz)
 *   bias        its part at (i, j) that the vectors do not give: the
 *               whole term when vectors is 0, else 0
 *   vectors     1: the term is a(i).b(j) of two kinds, so sums of the
 *               kinds over blocks give its block means (the grid sums
 *               them); 0: the row's own means are used
 * TERM_DOT is a dot of two kinds (closed forms for the sinusoid and the
 * rotations), TERM_DIST a function of i - j given by a struct dist_ops.
 */
struct term_ops {
    double (*at)(const struct score_ctx *s, const struct score_term *tm,
                 int64_t i, int64_t j);
    double (*block_mean)(const struct score_ctx *s,
                         const struct score_term *tm, int64_t i0, int64_t i1,
                         int64_t j0, int64_t j1);
    double (*tri_sum)(const struct score_ctx *s, int t, int64_t m,
                      struct scores_tri_memo *memo);
    double (*range_mean)(const struct score_ctx *s,
                         const struct score_term *tm, int64_t d0, int64_t d1);
    double (*bias)(const struct score_ctx *s, const struct score_term *tm,
                   int64_t i, int64_t j);
    int vectors;
};

extern const struct term_ops TERM_OPS[TERM_TYPE_COUNT];

/* The row of term t of s. */
#define SCORES_TERM_OPS(s, t) (&TERM_OPS[(s)->terms[t].type])

struct score_rowtab;

/* Built by scores_new; read-only for callers. */
struct score_ctx {
    struct score_opts o;        /* the options, scheme checked */
    int d, half;
    int64_t n;
    double base;
    double tau;                 /* 1/sqrt(d) with the temperature, else 1;
                                   RoPE: times the scaling's multiplier */
    uint64_t freq_key;          /* hash of omega[] and tau: a cache keyed on
                                   base must key on this too (scaling) */
    double emb_mul;             /* N(0,1) draw -> embedding entry */
    double slope;               /* ALiBi slope of head o.head */
    int heads, head;
    /* T5: bucket count and max distance as used, the first distance of
     * each bucket on one side (edge[b], b < side buckets; edge[side] is
     * past the last), and the bias table W[bucket * w_heads + head]: the
     * caller's (t5_set_scores_table) or the stand-in (t5_own). */
    int t5_buckets, t5_maxd, t5_side;
    int64_t t5_edge[SCORES_T5_MAX_BUCKETS + 1];
    const double *t5_w;
    int t5_w_heads;
    int t5_real;                /* t5_w is the caller's table */
    double t5_own[SCORES_T5_MAX_BUCKETS];   /* stand-in column of head */
    double r1, r2;              /* KERPLE, checked */
    double xpos_gamma;          /* xPos scale base */
    /* [half] per-band constants of a distance scheme: xPos's decay
     * bases zeta_k, Sandwich's frequencies 10000^(-2(k+1)/d) */
    double *dband;
    int64_t train_len;          /* L of the learned stand-in */
    pe_learned learned;
    const double *table;        /* the caller's learned rows (d each) or NULL */
    int64_t table_n;            /* its rows */
    /* Positions [0, rows) have a score; rows < n only when the learned
     * scheme reads a caller's table shorter than n.  A position >= rows
     * has no row at all (GPT-2 cannot index position 1024), so every
     * score, term, softmax weight and vector entry involving it is NAN:
     * missing, never invented.  Block means are over the block's part
     * below rows (NAN when none is); softmax rows are over the keys
     * below rows. */
    int64_t rows;
    double *omega;              /* [half]; ra, rb, dband, q and k follow
                                   it in one block */
    double *q, *k;              /* [d] RoPE query and key, in pair order:
                                   dims (2k, 2k+1) form band k */
    int rotary;                 /* R: dims rotated (the rest: omega 0) */
    int qk_given;               /* q, k are the caller's (scores_set_qk) */
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

/*
 * Build a context for d_model d, base and n positions.  table (may be
 * NULL) is used by the learned scheme when its d matches; with fewer
 * than n rows, the positions past them are missing (rows above).
 * Returns NULL when out of memory.
 */
struct score_ctx *scores_new(int d, double base, int64_t n,
                             const struct score_opts *o,
                             const struct score_table *table);
void scores_free(struct score_ctx *s);       /* NULL is fine */

/*
 * RoPE as models run it (peviz/rope.h): for the rope scheme, the
 * frequencies become the scaled ones at s->n and every score is
 * multiplied by rope_score_multiplier (a^2); other schemes are left
 * alone.  Call right after scores_new.  Returns 0, or -1 (context
 * unchanged) when the settings cannot be evaluated.
 */
int scores_set_rope_scaling(struct score_ctx *s, const rope_scaling *sc);

/*
 * The same from a frequency plan (peviz/plan.h) made for the context's
 * d, base and n: its omega and its score multiplier, so the scores use
 * exactly the numbers every other reader of the plan shows.  Returns 0,
 * or -1 (context unchanged) when the plan is for other settings or
 * could not evaluate its scaling.
 */
struct pe_plan;
int scores_set_plan(struct score_ctx *s, const struct pe_plan *pl);

/*
 * The caller's query and key (d values each, in the model's own order;
 * the context's qk_pairs says which dims pair) for rope and xpos, in
 * place of ones or the seeded draw.  Copied.  Call after
 * scores_set_rope_scaling.  For nope (without content) the scores become
 * tau g(i) q.k: no rotation, the query scale g of the temperature tuning.
 */
void scores_set_qk(struct score_ctx *s, const double *q, const double *k);

/* Whether the caller's table is the one the learned scheme uses. */
int scores_table_used(const struct score_ctx *s);

/* The formula of S as the context computes it (content or not). */
const char *schemes_formula(const struct score_ctx *s, int ascii);

/*
 * The query scale at position p, 1 when off:
 *   Llama 4 (temp_tuning):  log(floor((p + 1) / floor_scale) + 1) attn_scale + 1
 *   Ministral 3 (beta > 0): 1 + beta ln(1 + floor(p / beta_len))
 * (both: their product).  It multiplies every dot term of row p, so S is
 * no longer a function of i - j once it varies below n.
 */
double scores_qscale(const struct score_ctx *s, int64_t p);

/* Whether the query scale varies over the context's positions. */
int scores_qscaled(const struct score_ctx *s);

/* ---- single scores ------------------------------------------------------------ */

/* One entry (dims [k0, k1), k0 even) of the vector of kind at position p. */
void scores_vec(const struct score_ctx *s, enum score_kind kind, int64_t p,
                int k0, int k1, double *out);

/* Term t at (i, j), before the temperature and the mask (NAN missing). */
double scores_term_at(const struct score_ctx *s, int t, int64_t i, int64_t j);

/* S(i, j) with the temperature; -INFINITY where the mask hides it; NAN
 * when i or j is missing (>= rows), mask or not. */
double scores_at(const struct score_ctx *s, int64_t i, int64_t j);

/*
 * Row i into row[0..n-1]: S(i, .) (masked -INFINITY), or with softmax the
 * weights (masked exactly 0, each row sums to 1).  O(n d) per row.
 * Keys j >= rows are NAN and the weights sum to 1 over the others; a
 * missing query i gives a row of NAN.
 * Returns 0, or -1 when out of memory (row untouched).
 */
int scores_row(const struct score_ctx *s, int64_t i, int softmax, double *row);

/* ---- means ---------------------------------------------------------------------- */

/*
 * Exact mean of S over the block i in [i0,i1), j in [j0,j1), ignoring the
 * mask (temperature applied).  Closed forms where they exist, otherwise
 * the dot of the two mean vectors (O(block * d) for embeddings and
 * learned rows).  Missing positions (>= rows) are left out: the mean is
 * over [i0, min(i1, rows)) x [j0, min(j1, rows)), NAN when that is empty.
 * An empty block gives 0.
 */
double scores_block_mean(const struct score_ctx *s, int64_t i0, int64_t i1,
                         int64_t j0, int64_t j1);

/* Term t's mean over the same block (no temperature). */
double scores_term_block_mean(const struct score_ctx *s, int t, int64_t i0,
                              int64_t i1, int64_t j0, int64_t j1);

/*
 * Toeplitz contexts (s->toeplitz): S = tau T(i - j).  The exact mean of
 * tau T(delta) over the distances delta in [d0, d1): per band
 * D_len(w) (cos(c w), sin(c w)), c the range's centre; the bias's mean
 * is -m c.  0 for contexts that are not Toeplitz.
 */
double scores_distance_mean(const struct score_ctx *s, int64_t d0, int64_t d1);

/*
 * The same for np ranges side by side: out[t] is the mean over
 * [t k, min((t+1) k, nd)).  Sinusoid and RoPE step each band's phase by
 * one rotation per range (pe_range_means_step) instead of a sin and a
 * cos; other schemes call scores_distance_mean per range.
 */
void scores_distance_means(const struct score_ctx *s, int64_t nd, int64_t k,
                           int np, double *out);

/*
 * Sum of term t (Toeplitz) over the lower triangle j <= i of a square of
 * m positions, in O(log m) block means; memo (zeroed by the caller) keeps
 * the sizes already summed, so many diagonals of one size cost one.
 */
struct scores_tri_memo {
    int64_t m[128];
    double v[128];
    int n;
};
double scores_term_tri_sum(const struct score_ctx *s, int t, int64_t m,
                           struct scores_tri_memo *memo);

/* ---- building blocks for schemes (their build functions) ---------------------- */

/* Add a dot term a.b of two kinds (TERM_DOT). */
void scores_term_add(struct score_ctx *s, enum term_type type,
                     enum score_kind a, enum score_kind b, const char *name);

/* Add a term that is a function of i - j (TERM_DIST), with its row. */
void scores_dist_add(struct score_ctx *s, const struct dist_ops *ops,
                     const char *name);

/* A distance term's block mean, lower-triangle sum and range mean:
 * the row's own entry when it has one, else the general sums. */
double dist_block_mean(const struct score_ctx *s, const struct dist_ops *o,
                       int64_t i0, int64_t i1, int64_t j0, int64_t j1);
double dist_tri_sum(const struct score_ctx *s, const struct dist_ops *o,
                    int64_t m);
double dist_range_mean(const struct score_ctx *s, const struct dist_ops *o,
                       int64_t d0, int64_t d1);

/* The rows of the schemes (src/lib/dist.c, t5.c, kerple.c, xpos.c). */
extern const struct dist_ops DIST_ALIBI, DIST_T5, DIST_KERPLE_LOG,
    DIST_KERPLE_POWER, DIST_SANDWICH, DIST_XPOS;

/* ---- T5 buckets (src/lib/t5.c) ------------------------------------------------ */

/* The bucket of rel = j - i, as T5's _relative_position_bucket computes
 * it (the log in float32, truncated toward zero). */
int t5_bucket(int64_t rel, int bidirectional, int buckets, int max_distance);

/*
 * The caller's bias table W [buckets x heads] (e.g. a checkpoint's
 * relative_attention_bias.weight), not copied.  Returns 0, or -1 (the
 * stand-in stays) when its rows are not the context's bucket count.
 */
int t5_set_scores_table(struct score_ctx *s, const double *w, int buckets,
                        int heads);

/* The T5 bias W[bucket, head] the context uses. */
double t5_weight(const struct score_ctx *s, int bucket);

/* S = p.p (has_p) or nothing; with content x = e + p: e.e, e.p, p.e, p.p
 * (just e.e without p). */
void scores_terms_additive(struct score_ctx *s, enum score_kind pk,
                           int has_p);

/* ---- building blocks for cached grids (peviz/score_grid.h) ------------------ */

/* Whether kind's range sums have a closed form (sinusoids, rotations). */
int scores_kind_closed(enum score_kind k);

/*
 * Sum of a closed-form kind over positions [p0, p1), dims [k0, k1):
 * the mean of e^{ipw} over the range is e^{icw} D_n(w) (pe.h), n the
 * length and c the centre.  dk, when not NULL, holds D_n(w_band) for
 * this length, indexed by band (it depends on the length only).
 */
void scores_vec_sum_closed(const struct score_ctx *s, enum score_kind kind,
                           int64_t p0, int64_t p1, int k0, int k1,
                           double *out, const double *dk);

/* a . b over len entries (four running sums). */
double scores_dot(const double *a, const double *b, int len);

/* The distinct kinds on one side of the dot terms (0: query side). */
int scores_side_kinds(const struct score_ctx *s, int key_side,
                      enum score_kind *out);

/* x_p: the sum of the kinds at p, all d dims (tmp: d doubles). */
void scores_side_vec(const struct score_ctx *s, const enum score_kind *kinds,
                     int nk, int64_t p, double *out, double *tmp);

/* The distance terms (ALiBi, T5, ...) at (i, j) summed, else 0. */
double scores_bias(const struct score_ctx *s, int64_t i, int64_t j);

/*
 * tau T(delta) of a Toeplitz context for a run of len <= SCORES_RUN
 * distances delta = d0 .. d0+len-1 (pos) and their mirrors -delta (neg).
 * steps[4 * band] = cos w, sin w, cos 8w, sin 8w (scores_run_steps): per
 * band the angle is anchored exactly at d0, then stepped by rotations in
 * independent lanes (error ~ 40 eps per term).
 */
#define SCORES_RUN 256
void scores_run_steps(const struct score_ctx *s, double *steps);
void scores_toeplitz_run(const struct score_ctx *s, const double *steps,
                         int64_t d0, int len, double *pos, double *neg);

/* ---- Toeplitz tables and softmax normalisers (scores_softnorm.c) --------- */

/*
 * tau T(delta) for every delta in [-(n-1), n-1] of a Toeplitz context,
 * without the mask, into t[delta + n - 1].  The rotation terms (PE.PE,
 * Rq.Rk: sum_k a_k cos(delta w_k) + b_k sin(delta w_k)) come from one
 * non-uniform FFT (peviz/nufft.h) in O(n log n + d), not O(n d); the
 * ALiBi bias entry by entry.  Error near 1e-14 of tau sum_k |a_k| + |b_k|.
 * In slices: a job is made (or remade, keeping its buffers when n is
 * unchanged) for a context, then stepped with a budget of work units
 * (about one butterfly each) until it returns 0, each step given a
 * context with the same parameters (it may be rebuilt between steps).
 * NULL when the context is not Toeplitz or out of memory (old is then
 * freed).
 */
struct scores_table_job;
struct scores_table_job *scores_table_job_renew(struct scores_table_job *old,
                                                const struct score_ctx *s);
int64_t scores_table_job_work(const struct scores_table_job *j);
int scores_table_job_step(struct scores_table_job *j,
                          const struct score_ctx *s, double *t,
                          int64_t *budget);
void scores_table_job_free(struct scores_table_job *j);   /* NULL is fine */

/* All at once.  Returns 0, or -1 (not Toeplitz, out of memory). */
int scores_toeplitz_table(const struct score_ctx *s, double *t);

/*
 * Spans of the same table anywhere, two per transform, for work that
 * cannot hold all 2n - 1 entries: t_h[u] = tau T(x_h + u - (n - 1)) for
 * u < len, h = 0, 1 (t1 may be NULL), x_h any integer (the table index;
 * outside [0, 2n - 1) the formula goes on, the mask is the caller's).
 * len = 2^p, 7 <= p <= 16.  NULL when not Toeplitz, len is not such a
 * power or out of memory.
 */
struct scores_span_job;
struct scores_span_job *scores_span_new(const struct score_ctx *s,
                                        int64_t len);
void scores_span_pair(struct scores_span_job *j, const struct score_ctx *s,
                      int64_t x0, int64_t x1, double *t0, double *t1);
void scores_span_free(struct scores_span_job *j);     /* NULL is fine */

/*
 * Softmax normalisers of a Toeplitz context: for each query i in [0, n),
 * z[i] = sum over the keys j it sees (j <= i with the causal mask) of
 * exp(S(i, j) - *shift), *shift the largest S any row sees, so every
 * z[i] >= exp(S(i, i) - shift) > 0 and the weights are
 * exp(S(i, j) - shift) / z[i].  From the table above, the rows are
 * sliding windows of it (causal: prefix sums), summed in double-double
 * so each z[i] is accurate to a few ulps of itself, however far apart
 * the rows' sizes are.  O(n log n + d) in all.
 * Returns 0, or -1 (not Toeplitz, out of memory).
 */
int scores_softmax_norms(const struct score_ctx *s, double *z, double *shift);

/* ---- a grid of block means (scores_blocks.c) ----------------------------- */

/*
 * The blocks a softmax back end (peviz/soft_band.h, soft_stream.h)
 * averages over: n positions in blocks of k, the block rows
 * [rb0, rb0 + rows) and columns [cb0, cb0 + cols) of them shown.
 */
struct scores_blocks {
    int64_t n, k;
    int64_t rb0, cb0;
    int rows, cols;
};

/* b for s's n: 0, or -1 (b untouched) when k, rows or cols is under 1
 * or rb0 or cb0 is negative. */
int scores_blocks_set(struct scores_blocks *b, const struct score_ctx *s,
                      int64_t k, int64_t rb0, int rows, int64_t cb0,
                      int cols);

/* Shown block (r, c): its queries [*i0, *i1) and keys [*j0, *j1), cut
 * at n (empty past it). */
void scores_blocks_cell(const struct scores_blocks *b, int r, int c,
                        int64_t *i0, int64_t *i1, int64_t *j0, int64_t *j1);

#endif
