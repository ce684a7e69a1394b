/* SPDX-License-Identifier: ISC */
/*
 * peviz/pe.h - the positional-encoding math library.
 *
 * Pure double-precision math: no terminal, no globals, no hidden
 * allocation.  Every buffer is owned by the caller.  Link src/pe.c (and
 * -lm) into any program to use it.
 *
 * Notation (the same as the README):
 *   d        d_model, even, >= 2;  half = d / 2 bands
 *   omega_i  = base^(-2i/d)                 i = 0 .. half-1
 *   PE(p,2i) = sin(p * omega_i),  PE(p,2i+1) = cos(p * omega_i)
 *   score(a,b) = PE(a).PE(b) = sum_i cos((a-b) * omega_i)
 *
 * Positions are doubles where a real number makes sense (angles) and
 * int64_t where a range of integer positions is meant ([p0, p1) is
 * half-open, p0 < p1).
 */
#ifndef PEVIZ_PE_H
#define PEVIZ_PE_H

#include <stddef.h>
#include <stdint.h>

/* ---- frequencies ------------------------------------------------------ */

/* omega_i = base^(-2i/d): radians the band-i "hand" turns per position. */
double pe_omega(int i, int d, double base);

/* Fill out[0..d/2-1] with omega_i. */
void pe_omegas(int d, double base, double *out);

/* Wavelength of band i in positions: 2*pi / omega_i. */
double pe_wavelength(int i, int d, double base);

/* ---- single values and rows ------------------------------------------ */

/* PE(pos, dim) for 0 <= dim < d.  The angle pos * omega is formed and
 * reduced modulo 2*pi in long double: within ~1e-12 of the formula up to
 * pos = 2^24 (in double it would be ~1e-9 off there). */
double pe_value(double pos, int dim, int d, double base);

/* Fill out[0..d-1] with the row PE(pos, .). */
void pe_row(double pos, int d, double base, double *out);

/* ---- closed-form sums over a range of positions ---------------------- */

/*
 * Sums of sin(p*w) and cos(p*w) over the integers p in [p0, p1), in O(1):
 *   sum e^{ipw} = e^{i c w} * sin(n w / 2) / sin(w / 2),
 *   n = p1 - p0,  c = (p0 + p1 - 1) / 2.
 * Either output pointer may be NULL.
 */
void pe_range_sum(double w, int64_t p0, int64_t p1,
                  double *sum_sin, double *sum_cos);

/* The same divided by n: means of sin and cos over [p0, p1). */
void pe_range_mean(double w, int64_t p0, int64_t p1,
                   double *mean_sin, double *mean_cos);

/*
 * Normalised Dirichlet kernel: (1/n) sum_{k=0}^{n-1} e^{ikw} rotated to its
 * centre, i.e. D_n(w) = sin(n w / 2) / (n sin(w / 2)), with D_n(0) = 1.
 * mean over [p0,p0+n) of e^{ipw} = e^{i c w} D_n(w).
 */
double pe_dirichlet(int64_t n, double w);

/* Exact mean of PE(p, dim) over p in [p0, p1). */
double pe_value_mean(int64_t p0, int64_t p1, int dim, int d, double base);

/* PE(p, dim) at p = p0, p0 + step, ... (count values) into out: the
 * frequency formed once, the angle exact (as pe_value) every few values
 * and rotated on by the step in between (within ~1e-15 of pe_value). */
void pe_values_step(int64_t p0, int64_t step, int count, int dim, int d,
                    double base, double *out);

/* The same for cols ranges [p0[c], p1[c]) of one dim (p1[c] > p0[c]),
 * into out[c]: the frequency is formed once for them all. */
void pe_value_means(const int64_t *p0, const int64_t *p1, int cols, int dim,
                    int d, double base, double *out);

/* ---- sinusoidal scores ------------------------------------------------ */

/* PE(a).PE(b) = sum_i cos(delta * omega_i), delta = a - b.  O(d/2). */
double pe_score(double delta, int d, double base);

/* The same with precomputed omegas (half of them). */
double pe_score_w(double delta, const double *omega, int half);

/*
 * Exact mean of PE(i).PE(j) over the block i in [i0,i1), j in [j0,j1):
 *   sum_k cos((c_I - c_J) w_k) * D_|I|(w_k) * D_|J|(w_k).
 */
double pe_score_block_mean(int64_t i0, int64_t i1, int64_t j0, int64_t j1,
                           const double *omega, int half);

/* ---- visible-cell kernels (src/pe_cells.c) ---------------------------- */

/*
 * Means of sin(p w) and cos(p w) over `count` consecutive ranges of k
 * positions: range j is [p0 + j k, min(p0 + (j+1) k, n)) (an empty range
 * gives 0).  The same numbers as pe_range_mean per range, for the price
 * of two sin/cos pairs per 64 ranges: the centres step by k, so each
 * range's phase is the previous one turned by k w (a rotation,
 * re-anchored exactly every 64 ranges; error about 1e-14 per value).
 * Either output may be NULL.
 */
void pe_range_means_step(double w, int64_t p0, int64_t k, int count,
                         int64_t n, double *mean_sin, double *mean_cos);

/*
 * The same for count ranges [p0[j], p1[j]) of any sizes (an empty one
 * gives 0): as cheap as pe_range_means_step when the centres step by a
 * few sizes only, as the columns of a map that shares positions out over
 * its columns (sizes k and k + 1, or one position drawn in several
 * columns) do.  Error about 1e-14 per value.
 */
void pe_range_means_runs(double w, const int64_t *p0, const int64_t *p1,
                         int count, double *mean_sin, double *mean_cos);

/*
 * Exact block means of a Toeplitz score
 *   S(i, j) = sum_b A_b cos((i - j) w_b) + B_b sin((i - j) w_b)
 * (A = NULL means all 1, B = NULL all 0: the sinusoidal PE(i).PE(j); A, B
 * the RoPE coefficients of pe_rope_coeffs give the RoPE score) over a
 * grid of blocks of k positions: row r is the block rb0 + r, i.e. the
 * positions [(rb0 + r) k, min((rb0 + r + 1) k, n)), and column c the block
 * cb0 + c.  out[r * cols + c] gets the mean over the block pair, NAN when
 * either block is empty (beyond n).
 *
 * The mean of S over I x J is
 *   sum_b D_|I|(w_b) D_|J|(w_b) (A_b cos(dc w_b) + B_b sin(dc w_b)),
 * dc the distance of the blocks' centres.  Full blocks make it a function
 * of rb - cb alone, so the grid costs (rows + cols) d/2 rotations (plus
 * a line for a short last block), not rows x cols x d/2 trigonometry.
 * work: caller-owned scratch of at least 2 (rows + cols) + 2 half doubles.
 */
void pe_toeplitz_cells(const double *omega, const double *A, const double *B,
                       int half, int64_t n, int64_t k, int64_t rb0, int rows,
                       int64_t cb0, int cols, double *out, double *work);

/* ---- relative positions: M_k ----------------------------------------- */

/*
 * out = M_k row: each pair (s, c) = (PE(p,2i), PE(p,2i+1)) becomes
 *   (s cos(k w_i) + c sin(k w_i),  c cos(k w_i) - s sin(k w_i)),
 * so pe_shift(PE(p), k) = PE(p + k).  row and out may be the same buffer.
 */
void pe_shift(const double *row, int d, double base, double k, double *out);

/* ---- RoPE ------------------------------------------------------------- */

/*
 * RoPE score of query q at position m and key k at position n:
 *   (R(m) q) . (R(n) k) = sum_i a_i cos((m-n) w_i) + b_i sin((m-n) w_i),
 *   a_i = q[2i] k[2i] + q[2i+1] k[2i+1],  b_i = q[2i] k[2i+1] - q[2i+1] k[2i],
 * where R(p) rotates each pair (2i, 2i+1) by the angle p * w_i.
 */
double pe_rope_score(const double *q, const double *k, int d, double base,
                     double m, double n);

/* Fill a[half], b[half] with the per-band coefficients above. */
void pe_rope_coeffs(const double *q, const double *k, int d,
                    double *a, double *b);

/* RoPE score from coefficients: sum_i a_i cos(delta w_i) + b_i sin(delta w_i). */
double pe_rope_score_ab(double delta, const double *a, const double *b,
                        const double *omega, int half);

/* Exact block mean of the RoPE score over i in [i0,i1), j in [j0,j1). */
double pe_rope_block_mean(int64_t i0, int64_t i1, int64_t j0, int64_t j1,
                          const double *a, const double *b,
                          const double *omega, int half);

/* ---- ALiBi ------------------------------------------------------------ */

/*
 * Slopes of H heads (H >= 1) into out[0..H-1], the paper's rule:
 * H a power of two: slope_h = 2^(-8h/H), h = 1..H.  Otherwise, with P the
 * largest power of two below H: the P slopes for P heads, then every other
 * slope of the 2P-head list (the 1st, 3rd, ...) until H are filled.
 */
void pe_alibi_slopes(int heads, double *out);

/*
 * ALiBi bias for query i, key j: -slope * |i - j|; with causal != 0 the
 * causal form -slope * (i - j) (callers mask j > i).
 */
double pe_alibi_bias(double slope, int64_t i, int64_t j, int causal);

/* Exact mean of -slope*|i-j| over the block i in [i0,i1), j in [j0,j1). */
double pe_alibi_block_mean(double slope, int64_t i0, int64_t i1,
                           int64_t j0, int64_t j1);

/* ---- a model of a learned table -------------------------------------- */

/*
 * NOT a trained table: a stand-in that behaves like one.
 *   p <  train_len: sinusoidal row scaled to the norm a N(0, 0.02^2) row has
 *                   (0.02 * sqrt(d)), plus seeded noise of sd 0.002, so
 *                   neighbours are nearly parallel, distant rows nearly
 *                   orthogonal, as trained tables end up;
 *   p >= train_len: untouched initial noise, N(0, 0.02^2) per entry.
 * Entries are a pure function of (seed, p, dim): random access, no table.
 */
typedef struct {
    int d;              /* d_model */
    double base;        /* base of the sinusoid the trained rows follow */
    int64_t train_len;  /* L: rows trained, 0 .. n */
    uint64_t seed;
} pe_learned;

#define PE_LEARNED_INIT_SD 0.02
#define PE_LEARNED_TRAINED_NOISE_SD 0.002

double pe_learned_value(const pe_learned *t, int64_t p, int dim);
void pe_learned_row(const pe_learned *t, int64_t p, double *out);

/* ---- softmax ---------------------------------------------------------- */

/*
 * In-place numerically stable softmax over row[0..n-1] (subtracts the row
 * maximum).  Entries at index >= limit are masked: set to exactly 0 and
 * excluded (limit = n for no mask; a causal row i uses limit = i + 1).
 * limit 0 leaves a zero row.
 */
void pe_softmax(double *row, size_t n, size_t limit);

/* pe_softmax with a sink logit in the denominator: row[i] =
 * e^row[i] / (sum e^row + e^sink); sink -inf (or not finite): pe_softmax. */
void pe_softmax_sink(double *row, size_t n, size_t limit, double sink);

/* ---- precision -------------------------------------------------------- */

/* Round to the nearest float32 / bfloat16 / float16 value (ties to even),
 * returned as a double.  Overflow gives +-inf, as the format would. */
double pe_round_f32(double x);
double pe_round_bf16(double x);
double pe_round_f16(double x);

/* ---- seeded randomness ------------------------------------------------ */

/* splitmix64 hash: a pure function, used for counter-based random draws. */
uint64_t pe_hash64(uint64_t x);

/* A standard normal draw that is a pure function of (seed, index). */
double pe_gauss(uint64_t seed, uint64_t index);

/* ---- bulk tables ------------------------------------------------------ */

/*
 * Fill out[r * d + c] = (float) PE(p0 + r, c) for r < rows, by a per-band
 * rotation recurrence re-anchored exactly every 64 positions (angles
 * formed and reduced modulo 2*pi in long double, as pe_value does).
 * Absolute error <= 1e-5 for positions < 2^24.
 */
void pe_fill_f32(int64_t p0, int64_t rows, int d, double base, float *out);

/* The same in double, error <= 1e-9 (about 1e-12) for positions < 2^24. */
void pe_fill_f64(int64_t p0, int64_t rows, int d, double base, double *out);

/*
 * A table written in many blocks (the binary export): the bands'
 * frequencies and one-step rotations formed once by pe_fill_open (-1:
 * out of memory), then any rows of it, as pe_fill_f32/f64 fill them.
 */
typedef struct {
    long double *wl;
    double *cs, *sn;
    int d;
} pe_fill;

int pe_fill_open(pe_fill *f, int d, double base);
void pe_fill_rows_f32(const pe_fill *f, int64_t p0, int64_t rows, float *out);
void pe_fill_rows_f64(const pe_fill *f, int64_t p0, int64_t rows, double *out);
void pe_fill_close(pe_fill *f);

#endif /* PEVIZ_PE_H */
