/* SPDX-License-Identifier: ISC */
/*
 * scores.c - attention scores for every scheme (see scores.h for the
 * definitions), their exact block means, softmax, and the cached grid of
 * block cells the attention view draws.
 *
 * Every score is a sum of terms; each term is either the ALiBi bias or a
 * dot product a(i).b(j) of two per-position vectors.  Because a dot
 * product is bilinear, the mean of a(i).b(j) over a block I x J is
 * mean_I(a) . mean_J(b): a grid of R x C cells costs (R + C) mean vectors
 * and R x C dot products, and the mean vectors of sinusoids and rotations
 * have closed forms (pe_range_mean).  Embeddings and learned rows have
 * none: their block sums are summed entry by entry.  The sliced, cached
 * grid of cells a view shows is built from these on the app side
 * (src/lib/score_grid.c).
 */
#include "peviz/scores.h"
#include "peviz/plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EL_CHUNK 64             /* dims per step of element loops (even) */

/* ---- the context -------------------------------------------------------- */

struct score_rowtab {
    int tried;
    double *t;                  /* [2n - 1]: t[delta + n - 1] */
    int keys_tried;
    double *keys;               /* [rows x d]: the key side's vector of
                                   each position (row_by_vectors) */
};

void scores_defaults(struct score_opts *o)
{
    memset(o, 0, sizeof *o);
    o->scheme = SCHEME_SINUSOIDAL;
    o->heads = 8;
    o->scale_emb = 1;
    o->train_len = -1;
    o->buckets = 32;
    o->max_distance = 128;
    o->r1 = 1.0;
    o->r2 = 0.5;
    o->xpos_base = 512.0;
    o->floor_scale = 8192.0;
    o->attn_scale = 0.1;
    o->sink = -INFINITY;
}

int64_t scores_train_len(const struct score_opts *o, int64_t n)
{
    if (o->train_len < 0)
        return n / 2;
    return o->train_len > n ? n : o->train_len;
}

/* Whether a dot term of s reads vectors of kind k. */
static int uses_kind(const struct score_ctx *s, enum score_kind k)
{
    for (int t = 0; t < s->nterms; t++)
        if (SCORES_TERM_OPS(s, t)->vectors
            && (s->terms[t].a == k || s->terms[t].b == k))
            return 1;
    return 0;
}

/* Whether position p has no row (past a caller's shorter table). */
static int missing(const struct score_ctx *s, int64_t p)
{
    return p >= s->rows;
}

/* The scheme's own terms (its entry in SCHEMES), then its properties. */
static void terms_build(struct score_ctx *s)
{
    const struct scheme_info *si = scheme_info(s->o.scheme);
    si->build(s);
    s->toeplitz = !s->o.content && si->toeplitz && !uses_kind(s, SK_EG)
                  && !uses_kind(s, SK_RQG);
    s->split_ok = s->o.content && si->split;
}

static uint64_t freq_hash(const double *omega, int half, double tau);

const char *qk_pairs_name(int p)
{
    return p == QK_HALF ? "half" : p == QK_INTERLEAVED ? "interleaved" : "?";
}

int qk_pairs_parse(const char *name)
{
    for (int p = 0; name && p < QK_PAIRS_COUNT; p++)
        if (strcmp(name, qk_pairs_name(p)) == 0)
            return p;
    return -1;
}

/* Whether the scheme rotates q and k (the pairs and R apply). */
static int rotary_scheme(const struct score_ctx *s)
{
    return s->o.scheme == SCHEME_ROPE || s->o.scheme == SCHEME_XPOS;
}

/* v (the model's order) into pair order: half pairs (k, k + R/2) of the
 * rotary part become (2k, 2k+1); the rest stays. */
static void to_pairs(const struct score_ctx *s, const double *v, double *out)
{
    int r = s->rotary;
    memcpy(out, v, (size_t)s->d * sizeof *out);
    if (s->o.qk_pairs != QK_HALF || !rotary_scheme(s))
        return;
    for (int k = 0; k < r / 2; k++) {
        out[2 * k] = v[k];
        out[2 * k + 1] = v[k + r / 2];
    }
}

/* q and k in the model's order -> pair order and the coefficients. */
static void qk_arrange(struct score_ctx *s, const double *q, const double *k)
{
    to_pairs(s, q, s->q);
    to_pairs(s, k, s->k);
    pe_rope_coeffs(s->q, s->k, s->d, s->ra, s->rb);
}

/* R/2 bands at base^(-2k/R), the rest unrotated (omega 0). */
static void rotary_omegas(struct score_ctx *s)
{
    if (s->rotary >= s->d)
        return;
    pe_omegas(s->rotary, s->base, s->omega);
    for (int k = s->rotary / 2; k < s->half; k++)
        s->omega[k] = 0.0;
}

static void ctx_rope(struct score_ctx *s)
{
    int r = s->o.rotary_dims;
    s->rotary = rotary_scheme(s) && r >= 2 && r < s->d ? r & ~1 : s->d;
    double *q = malloc(2 * (size_t)s->d * sizeof *q);
    if (!q)             /* pairs as given: the caller's order */
        q = s->q;
    double *k = q == s->q ? s->k : q + s->d;
    for (int i = 0; i < s->d; i++) {
        q[i] = s->o.q_random ? pe_gauss(SCORES_SEED_Q ^ s->o.seed,
                                        (uint64_t)i) : 1.0;
        k[i] = s->o.q_random ? pe_gauss(SCORES_SEED_K ^ s->o.seed,
                                        (uint64_t)i) : 1.0;
    }
    if (q != s->q) {
        qk_arrange(s, q, k);
        free(q);
    } else {
        pe_rope_coeffs(s->q, s->k, s->d, s->ra, s->rb);
    }
}

/* NoPE with a real q and k: S(i, j) = tau g(i) q.k, nothing rotated
 * (omega 0), a function of i alone when the query is scaled. */
static void nope_qk(struct score_ctx *s)
{
    for (int k = 0; k < s->half; k++)
        s->omega[k] = 0.0;
    s->nterms = 0;
    scores_term_add(s, TERM_DOT, scores_qscaled(s) ? SK_RQG : SK_RQ, SK_RK,
                    scores_qscaled(s) ? "gq.k" : "q.k");
    s->toeplitz = !scores_qscaled(s);
    s->freq_key = freq_hash(s->omega, s->half, s->tau);
}

void scores_set_qk(struct score_ctx *s, const double *q, const double *k)
{
    qk_arrange(s, q, k);
    s->qk_given = 1;
    if (s->o.scheme == SCHEME_NOPE && !s->o.content)
        nope_qk(s);
    for (int t = 0; t < s->nterms; t++) {   /* q = k was one kind: now two */
        struct score_term *tm = &s->terms[t];
        if (TERM_OPS[tm->type].vectors && (tm->a == SK_RQ || tm->a == SK_RQG)
            && tm->b == SK_RQ)
            tm->b = SK_RK;
    }
    uint64_t h = freq_hash(s->ra, s->half, 0.0) ^ freq_hash(s->rb, s->half, 1.0);
    s->freq_key ^= h * UINT64_C(0x9e3779b97f4a7c15);
}

static void ctx_alibi(struct score_ctx *s)
{
    double slopes[SCORES_MAX_HEADS];
    s->heads = s->o.heads >= 1 && s->o.heads <= SCORES_MAX_HEADS ? s->o.heads
                                                                 : 8;
    s->head = s->o.head < 0 ? 0 : s->o.head >= s->heads ? s->heads - 1
                                                         : s->o.head;
    pe_alibi_slopes(s->heads, slopes);
    s->slope = slopes[s->head];
}

/* FNV-1a over the bits of omega[] and tau. */
static uint64_t freq_hash(const double *omega, int half, double tau)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (int i = 0; i <= half; i++) {
        uint64_t bits;
        double v = i < half ? omega[i] : tau;
        memcpy(&bits, &v, sizeof bits);
        for (int b = 0; b < 64; b += 8)
            h = (h ^ ((bits >> b) & 0xff)) * UINT64_C(0x100000001b3);
    }
    return h;
}

/* The per-band and per-dimension arrays in one block (omega first),
 * and the row table's holder: 0, or -1. */
static int ctx_alloc(struct score_ctx *s)
{
    size_t half = (size_t)s->half, d = (size_t)s->d;
    s->omega = malloc((4 * half + 2 * d) * sizeof *s->omega);
    s->rowtab = calloc(1, sizeof *s->rowtab);
    if (!s->omega || !s->rowtab)
        return -1;
    s->ra = s->omega + half;
    s->rb = s->ra + half;
    s->dband = s->rb + half;
    s->q = s->dband + half;
    s->k = s->q + d;
    return 0;
}

struct score_ctx *scores_new(int d, double base, int64_t n,
                             const struct score_opts *o,
                             const struct score_table *table)
{
    struct score_ctx *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->o = *o;
    if (!scheme_info(s->o.scheme))
        s->o.scheme = SCHEME_SINUSOIDAL;
    s->d = d;
    s->half = d / 2;
    s->n = n;
    s->base = base;
    if (ctx_alloc(s)) {
        scores_free(s);
        return NULL;
    }
    pe_omegas(s->d, s->base, s->omega);
    ctx_rope(s);
    rotary_omegas(s);
    ctx_alibi(s);
    s->tau = o->temperature ? 1.0 / sqrt((double)s->d) : 1.0;
    /* entries N(0, 1/d); scaling by sqrt(d) makes them N(0, 1) */
    s->emb_mul = o->scale_emb ? 1.0 : 1.0 / sqrt((double)s->d);
    s->train_len = scores_train_len(o, s->n);
    s->learned = (pe_learned){ s->d, s->base, s->train_len,
                               SCORES_SEED_LEARNED };
    if (table && table->d == s->d && table->n > 0 && table->v) {
        s->table = table->v;
        s->table_n = table->n;
    }
    terms_build(s);
    s->rows = s->n;
    if (s->table && s->table_n < s->n && uses_kind(s, SK_PL))
        s->rows = s->table_n;
    s->freq_key = freq_hash(s->omega, s->half, s->tau);
    return s;
}

int scores_set_rope_scaling(struct score_ctx *s, const rope_scaling *sc)
{
    if (s->o.scheme != SCHEME_ROPE)
        return 0;
    if (rope_inv_freq(sc, s->rotary, s->base, s->n, s->omega, NULL))
        return -1;
    for (int k = s->rotary / 2; k < s->half; k++)
        s->omega[k] = 0.0;      /* dims past R pass through */
    s->tau = (s->o.temperature ? 1.0 / sqrt((double)s->d) : 1.0) *
             rope_score_multiplier(sc);
    s->freq_key = freq_hash(s->omega, s->half, s->tau);
    return 0;
}

int scores_set_plan(struct score_ctx *s, const struct pe_plan *pl)
{
    if (s->o.scheme != SCHEME_ROPE)
        return 0;
    if (pl->d != s->d || pl->base != s->base || pl->n != s->n || pl->invalid)
        return -1;
    if (s->rotary != s->d)      /* the plan is for every dim: R < d turns
                                   fewer bands, at base^(-2k/R) */
        return scores_set_rope_scaling(s, &pl->sc);
    memcpy(s->omega, pl->omega, (size_t)s->half * sizeof *s->omega);
    s->tau = (s->o.temperature ? 1.0 / sqrt((double)s->d) : 1.0) * pl->mult;
    s->freq_key = freq_hash(s->omega, s->half, s->tau);
    return 0;
}

void scores_free(struct score_ctx *s)
{
    if (!s)
        return;
    free(s->omega);             /* ra, rb, dband, q and k with it */
    if (s->rowtab) {
        free(s->rowtab->t);
        free(s->rowtab->keys);
    }
    free(s->rowtab);
    free(s);
}

int scores_table_used(const struct score_ctx *s)
{
    return s->table != NULL;
}

/* ---- per-position vectors ------------------------------------------------ */

int scores_kind_closed(enum score_kind k)
{
    return k == SK_PSIN || k == SK_RQ || k == SK_RK;
}

/* Rotate each pair of v (dims [k0,k1)) by p * w_band, in place. */
static void rotate_pairs(const struct score_ctx *s, int64_t p, int k0, int k1,
                         double *v)
{
    for (int dim = k0; dim < k1; dim += 2) {
        double t = (double)p * s->omega[dim / 2], c = cos(t), sn = sin(t);
        double x = v[dim - k0], y = v[dim - k0 + 1];
        v[dim - k0] = x * c - y * sn;
        v[dim - k0 + 1] = x * sn + y * c;
    }
}

/* xPos: each pair times zeta_band^(sign (p - n/2) / gamma), positions
 * centred as the reference does (the centre cancels in q.k). */
static void xpos_scale_pairs(const struct score_ctx *s, int64_t p, int sign,
                             int k0, int k1, double *v)
{
    double e = sign * ((double)p - (double)(s->n / 2)) / s->xpos_gamma;
    for (int dim = k0; dim < k1; dim += 2) {
        double m = pow(s->dband[dim / 2], e);
        v[dim - k0] *= m;
        v[dim - k0 + 1] *= m;
    }
}

void scores_vec(const struct score_ctx *s, enum score_kind kind, int64_t p,
                int k0, int k1, double *out)
{
    uint64_t row = (uint64_t)p * (uint64_t)s->d;
    switch (kind) {
    case SK_PSIN:
        for (int dim = k0; dim < k1; dim += 2) {
            double t = (double)p * s->omega[dim / 2];
            out[dim - k0] = sin(t);
            out[dim - k0 + 1] = cos(t);
        }
        break;
    case SK_RQ: case SK_RK:
        memcpy(out, (kind == SK_RQ ? s->q : s->k) + k0,
               (size_t)(k1 - k0) * sizeof *out);
        rotate_pairs(s, p, k0, k1, out);
        break;
    case SK_E: case SK_RE: case SK_XQ: case SK_XK:
        for (int dim = k0; dim < k1; dim++)
            out[dim - k0] = s->emb_mul
                            * pe_gauss(SCORES_SEED_EMB, row + (uint64_t)dim);
        if (kind != SK_E)
            rotate_pairs(s, p, k0, k1, out);
        if (kind == SK_XQ || kind == SK_XK)
            xpos_scale_pairs(s, p, kind == SK_XQ ? 1 : -1, k0, k1, out);
        break;
    case SK_EG: case SK_RQG:
        scores_vec(s, kind == SK_EG ? SK_E : SK_RQ, p, k0, k1, out);
        for (int dim = k0; dim < k1; dim++)
            out[dim - k0] *= scores_qscale(s, p);
        break;
    case SK_PL:
        for (int dim = k0; dim < k1; dim++)
            out[dim - k0] = !s->table ? pe_learned_value(&s->learned, p, dim)
                          : p < s->table_n ? s->table[row + (uint64_t)dim]
                          : NAN;            /* no row: missing */
        break;
    default:
        memset(out, 0, (size_t)(k1 - k0) * sizeof *out);
    }
}

void scores_vec_sum_closed(const struct score_ctx *s, enum score_kind kind,
                           int64_t p0, int64_t p1, int k0, int k1,
                           double *out, const double *dk)
{
    double cnt = (double)(p1 - p0);
    double centre = (double)p0 + 0.5 * (double)(p1 - p0 - 1);
    const double *v = kind == SK_RQ ? s->q : s->k;
    for (int dim = k0; dim < k1; dim += 2) {
        double w = s->omega[dim / 2], ms, mc;
        double dn = dk ? dk[dim / 2] : pe_dirichlet(p1 - p0, w);
        ms = sin(centre * w) * dn;
        mc = cos(centre * w) * dn;
        if (kind == SK_PSIN) {
            out[dim - k0] = cnt * ms;
            out[dim - k0 + 1] = cnt * mc;
        } else {    /* mean of R(p) is D * R(c w): rotate v by it */
            double x = v[dim], y = v[dim + 1];
            out[dim - k0] = cnt * (x * mc - y * ms);
            out[dim - k0 + 1] = cnt * (x * ms + y * mc);
        }
    }
}

/* Four running sums: independent chains the CPU overlaps. */
double scores_dot(const double *a, const double *b, int len)
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    int i = 0;
    for (; i + 4 <= len; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    for (; i < len; i++)
        s0 += a[i] * b[i];
    return (s0 + s1) + (s2 + s3);
}

/* ---- single scores ------------------------------------------------------- */

/* a(i).b(j): closed forms for the sinusoid and the rotations, else the
 * two vectors entry by entry. */
static double dot_at(const struct score_ctx *s, const struct score_term *tm,
                     int64_t i, int64_t j)
{
    double delta = (double)(i - j);
    if (tm->a == SK_PSIN && tm->b == SK_PSIN)
        return pe_score_w(delta, s->omega, s->half);
    if (tm->a == SK_RQ && (tm->b == SK_RK || tm->b == SK_RQ))
        return pe_rope_score_ab(delta, s->ra, s->rb, s->omega, s->half);
    double va[EL_CHUNK], vb[EL_CHUNK], sum = 0.0;
    for (int k0 = 0; k0 < s->d; k0 += EL_CHUNK) {
        int k1 = k0 + EL_CHUNK < s->d ? k0 + EL_CHUNK : s->d;
        scores_vec(s, tm->a, i, k0, k1, va);
        scores_vec(s, tm->b, j, k0, k1, vb);
        sum += scores_dot(va, vb, k1 - k0);
    }
    return sum;
}

double scores_term_at(const struct score_ctx *s, int t, int64_t i, int64_t j)
{
    if (missing(s, i) || missing(s, j))
        return NAN;
    return SCORES_TERM_OPS(s, t)->at(s, &s->terms[t], i, j);
}

int scores_banded(const struct score_opts *o)
{
    return o->window > 0 || o->chunk > 0;
}

int scores_future_hidden(const struct score_opts *o)
{
    return o->causal || scores_banded(o);
}

int scores_sunk(const struct score_opts *o)
{
    return isfinite(o->sink);
}

int scores_masked(const struct score_opts *o, int64_t i, int64_t j)
{
    if (j > i)
        return scores_future_hidden(o);
    if (o->window > 0 && i - j >= o->window)
        return 1;
    return o->chunk > 0 && i / o->chunk != j / o->chunk;
}

/* Some i in [a, b], j in [c, e] with 0 <= i - j < window (0: any). */
static int pair_seen(const struct score_opts *o, int64_t a, int64_t b,
                     int64_t c, int64_t e)
{
    return a <= b && c <= e && b >= c
           && (o->window <= 0 || a - e < o->window);
}

int scores_block_hidden(const struct score_opts *o, int64_t i0, int64_t i1,
                        int64_t j0, int64_t j1)
{
    if (!scores_banded(o) || i1 <= i0 || j1 <= j0)
        return 0;
    if (o->chunk <= 0)
        return !pair_seen(o, i0, i1 - 1, j0, j1 - 1);
    int64_t c = o->chunk, k0 = (i0 > j0 ? i0 : j0) / c;
    int64_t k1 = ((i1 < j1 ? i1 : j1) - 1) / c;
    for (int64_t k = k0; k <= k1; k++) {   /* an inner chunk is seen */
        int64_t lo = k * c, hi = lo + c - 1;
        if (pair_seen(o, i0 > lo ? i0 : lo, i1 - 1 < hi ? i1 - 1 : hi,
                      j0 > lo ? j0 : lo, j1 - 1 < hi ? j1 - 1 : hi))
            return 0;
    }
    return 1;
}

double scores_at(const struct score_ctx *s, int64_t i, int64_t j)
{
    if (missing(s, i) || missing(s, j))
        return NAN;
    if (scores_masked(&s->o, i, j))
        return -INFINITY;
    double sum = 0.0;
    for (int t = 0; t < s->nterms; t++)
        sum += scores_term_at(s, t, i, j);
    return s->tau * sum;
}

int scores_side_kinds(const struct score_ctx *s, int key_side,
                      enum score_kind *out)
{
    int n = 0;
    for (int t = 0; t < s->nterms; t++) {
        if (!SCORES_TERM_OPS(s, t)->vectors)
            continue;
        enum score_kind k = key_side ? s->terms[t].b : s->terms[t].a;
        int seen = 0;
        for (int u = 0; u < n; u++)
            seen |= out[u] == k;
        if (!seen)
            out[n++] = k;
    }
    return n;
}

/*
 * x_p: the sum of one side's kinds at p, all d dims.  The dot terms are
 * always the full product of the query kinds with the key kinds (x = e + p
 * gives e.e + e.p + p.e + p.p), so S = x_i . y_j + bias.
 */
void scores_side_vec(const struct score_ctx *s, const enum score_kind *kinds,
                     int nk, int64_t p, double *out, double *tmp)
{
    memset(out, 0, (size_t)s->d * sizeof *out);
    for (int u = 0; u < nk; u++) {
        scores_vec(s, kinds[u], p, 0, s->d, tmp);
        for (int i = 0; i < s->d; i++)
            out[i] += tmp[i];
    }
}

double scores_bias(const struct score_ctx *s, int64_t i, int64_t j)
{
    double sum = 0.0;
    for (int t = 0; t < s->nterms; t++)
        sum += SCORES_TERM_OPS(s, t)->bias(s, &s->terms[t], i, j);
    return sum;
}

#define KEYTAB_MAX (INT64_C(1) << 22)    /* doubles: 32 MiB */

/* Every key position's side vector, built at the first row that needs
 * them (rows x d within KEYTAB_MAX; else NULL and each row makes its
 * own): an export of all rows then costs one vector a position, not
 * one a cell. */
static const double *keytab_get(const struct score_ctx *s,
                                const enum score_kind *kk, int nk,
                                double *tmp)
{
    struct score_rowtab *rt = s->rowtab;
    if (!rt || rt->keys_tried || s->rows * s->d > KEYTAB_MAX)
        return rt ? rt->keys : NULL;
    rt->keys_tried = 1;
    rt->keys = malloc((size_t)(s->rows * s->d) * sizeof *rt->keys);
    for (int64_t j = 0; rt->keys && j < s->rows; j++)
        scores_side_vec(s, kk, nk, j, rt->keys + j * s->d, tmp);
    return rt->keys;
}

/* Raw scores of row i through query/key vectors (non-Toeplitz schemes). */
static int row_by_vectors(const struct score_ctx *s, int64_t i, double *row)
{
    enum score_kind qk[SK_COUNT], kk[SK_COUNT];
    int nq = scores_side_kinds(s, 0, qk), nk = scores_side_kinds(s, 1, kk);
    double *buf = malloc(3 * (size_t)s->d * sizeof *buf);
    if (!buf)
        return -1;
    double *x = buf, *y = buf + s->d, *tmp = buf + 2 * s->d;
    const double *keys = keytab_get(s, kk, nk, tmp);
    scores_side_vec(s, qk, nq, i, x, tmp);
    for (int64_t j = 0; j < s->rows; j++) {
        if (scores_masked(&s->o, i, j)) {
            row[j] = -INFINITY;
            continue;
        }
        const double *yj = keys ? keys + j * s->d : y;
        if (!keys)
            scores_side_vec(s, kk, nk, j, y, tmp);
        row[j] = s->tau * (scores_dot(x, yj, s->d) + scores_bias(s, i, j));
    }
    free(buf);
    return 0;
}

#define ROWTAB_MAX_N (INT64_C(1) << 22)

/* The offset table, exact per entry (pe_score_w etc.), built once. */
static const double *rowtab_get(const struct score_ctx *s)
{
    struct score_rowtab *rt = s->rowtab;
    if (!rt || rt->tried || s->n > ROWTAB_MAX_N)
        return rt ? rt->t : NULL;
    rt->tried = 1;
    rt->t = malloc((size_t)(2 * s->n - 1) * sizeof *rt->t);
    if (!rt->t)
        return NULL;
    int causal = scores_future_hidden(&s->o);
    for (int64_t dl = -(s->n - 1); dl < s->n; dl++) {
        double sum = 0.0;
        for (int t = 0; t < s->nterms; t++)
            sum += scores_term_at(s, t, dl, 0);
        rt->t[dl + s->n - 1] = (causal && dl < 0) ? -INFINITY : s->tau * sum;
    }
    return rt->t;
}

int scores_row(const struct score_ctx *s, int64_t i, int softmax, double *row)
{
    const double *tab = s->toeplitz ? rowtab_get(s) : NULL;
    if (missing(s, i)) {
        for (int64_t j = 0; j < s->n; j++)
            row[j] = NAN;
        return 0;
    }
    if (tab) {
        for (int64_t j = 0; j < s->n; j++)
            row[j] = tab[i - j + s->n - 1];
    } else if (s->toeplitz) {
        for (int64_t j = 0; j < s->n; j++)
            row[j] = scores_at(s, i, j);
    } else if (row_by_vectors(s, i, row)) {
        return -1;
    }
    for (int64_t j = 0; tab && scores_banded(&s->o) && j < s->rows; j++)
        if (scores_masked(&s->o, i, j))
            row[j] = -INFINITY;
    if (softmax)        /* over the keys that exist: j < rows */
        pe_softmax_sink(row, (size_t)s->rows,
                        scores_future_hidden(&s->o) ? (size_t)i + 1
                                                           : (size_t)s->rows,
                        s->o.sink);
    for (int64_t j = s->rows; j < s->n; j++)
        row[j] = NAN;
    return 0;
}

/* ---- block means --------------------------------------------------------- */

/* Sum of kind over [p0, p1), dims [k0, k1): closed form or entry by entry. */
static void vec_sum(const struct score_ctx *s, enum score_kind kind,
                    int64_t p0, int64_t p1, int k0, int k1, double *out,
                    double *tmp)
{
    if (scores_kind_closed(kind)) {
        scores_vec_sum_closed(s, kind, p0, p1, k0, k1, out, NULL);
        return;
    }
    memset(out, 0, (size_t)(k1 - k0) * sizeof *out);
    for (int64_t p = p0; p < p1; p++) {
        scores_vec(s, kind, p, k0, k1, tmp);
        for (int i = 0; i < k1 - k0; i++)
            out[i] += tmp[i];
    }
}

/* Cut a block's ends to the positions that have rows; 1 when nothing
 * is left (i0 or j0 missing). */
static int clip_present(const struct score_ctx *s, int64_t i0, int64_t *i1,
                        int64_t j0, int64_t *j1)
{
    if (*i1 > s->rows)
        *i1 = s->rows;
    if (*j1 > s->rows)
        *j1 = s->rows;
    return *i1 <= i0 || *j1 <= j0;
}

/* mean(a over I) . mean(b over J). */
static double dot_block_mean(const struct score_ctx *s,
                             const struct score_term *tm, int64_t i0,
                             int64_t i1, int64_t j0, int64_t j1)
{
    if (tm->a == SK_PSIN && tm->b == SK_PSIN)
        return pe_score_block_mean(i0, i1, j0, j1, s->omega, s->half);
    if (tm->a == SK_RQ && (tm->b == SK_RK || tm->b == SK_RQ))
        return pe_rope_block_mean(i0, i1, j0, j1, s->ra, s->rb, s->omega,
                                  s->half);
    double va[EL_CHUNK], vb[EL_CHUNK], tmp[EL_CHUNK], sum = 0.0;
    for (int k0 = 0; k0 < s->d; k0 += EL_CHUNK) {
        int k1 = k0 + EL_CHUNK < s->d ? k0 + EL_CHUNK : s->d;
        vec_sum(s, tm->a, i0, i1, k0, k1, va, tmp);
        vec_sum(s, tm->b, j0, j1, k0, k1, vb, tmp);
        sum += scores_dot(va, vb, k1 - k0);
    }
    return sum / ((double)(i1 - i0) * (double)(j1 - j0));
}

double scores_term_block_mean(const struct score_ctx *s, int t, int64_t i0,
                              int64_t i1, int64_t j0, int64_t j1)
{
    if (i1 > i0 && j1 > j0 && clip_present(s, i0, &i1, j0, &j1))
        return NAN;
    return SCORES_TERM_OPS(s, t)->block_mean(s, &s->terms[t], i0, i1, j0,
                                             j1);
}

double scores_block_mean(const struct score_ctx *s, int64_t i0, int64_t i1,
                         int64_t j0, int64_t j1)
{
    if (i1 <= i0 || j1 <= j0)
        return 0.0;
    if (clip_present(s, i0, &i1, j0, &j1))
        return NAN;
    double sum = 0.0;
    for (int t = 0; t < s->nterms; t++)
        sum += scores_term_block_mean(s, t, i0, i1, j0, j1);
    return s->tau * sum;
}

/*
 * Sum of a Toeplitz term over the lower triangle j <= i of a square of m
 * positions: it depends on m only.  Split the square into two triangles
 * (sizes a and m - a) and the a x (m - a) rectangle below the diagonal;
 * only two sizes occur per halving, so a small memo makes it O(log m)
 * closed-form block means.
 */
double scores_term_tri_sum(const struct score_ctx *s, int t, int64_t m,
                           struct scores_tri_memo *memo)
{
    if (m <= 0)
        return 0.0;
    return SCORES_TERM_OPS(s, t)->tri_sum(s, t, m, memo);
}

static double dot_tri_sum(const struct score_ctx *s, int t, int64_t m,
                          struct scores_tri_memo *memo)
{
    if (m == 1)
        return scores_term_at(s, t, 0, 0);
    for (int i = 0; i < memo->n; i++)
        if (memo->m[i] == m)
            return memo->v[i];
    int64_t a = m / 2;
    double v = scores_term_tri_sum(s, t, a, memo)
               + scores_term_tri_sum(s, t, m - a, memo)
               + (double)a * (double)(m - a)
                 * scores_term_block_mean(s, t, a, m, 0, a);
    if (memo->n < 128) {
        memo->m[memo->n] = m;
        memo->v[memo->n++] = v;
    }
    return v;
}


/* ---- means over distances (Toeplitz schemes) ----------------------------- */

/* The rotation term of a Toeplitz context (PE.PE or Rq.Rk), or -1. */
static int rotation_term(const struct score_ctx *s)
{
    for (int t = 0; t < s->nterms; t++) {
        const struct score_term *tm = &s->terms[t];
        if (TERM_OPS[tm->type].vectors
            && (tm->a == SK_PSIN || tm->a == SK_RQ))
            return t;
    }
    return -1;
}

/* The rotation term of a Toeplitz context over distances: per band
 * D_len(w) (cos(c w), sin(c w)). */
static double dot_range_mean(const struct score_ctx *s,
                             const struct score_term *tm, int64_t d0,
                             int64_t d1)
{
    int rope = tm->a == SK_RQ;      /* else PE.PE: a_k = 1, b_k = 0 */
    double sum = 0;
    for (int k = 0; k < s->half; k++) {
        double ms = 0, mc;
        pe_range_mean(s->omega[k], d0, d1, rope ? &ms : NULL, &mc);
        sum += rope ? s->ra[k] * mc + s->rb[k] * ms : mc;
    }
    return sum;
}

double scores_distance_mean(const struct score_ctx *s, int64_t d0, int64_t d1)
{
    double sum = 0;
    if (!s->toeplitz || d1 <= d0)
        return 0.0;
    for (int t = 0; t < s->nterms; t++)
        sum += SCORES_TERM_OPS(s, t)->range_mean(s, &s->terms[t], d0, d1);
    return s->tau * sum;
}

void scores_distance_means(const struct score_ctx *s, int64_t nd, int64_t k,
                           int np, double *out)
{
    int rt = s->toeplitz && s->nterms == 1 ? rotation_term(s) : -1;
    int rope = rt >= 0 && s->terms[rt].a == SK_RQ;
    double *ms = rt >= 0 ? malloc(2 * (size_t)np * sizeof *ms) : NULL;
    if (!ms) {          /* not one rotation, or out of memory: range by range */
        for (int t = 0; t < np; t++) {
            int64_t d0 = t * k, d1 = d0 + k < nd ? d0 + k : nd;
            out[t] = scores_distance_mean(s, d0, d1);
        }
        return;
    }
    double *mc = ms + np;
    for (int t = 0; t < np; t++)
        out[t] = 0;
    for (int b = 0; b < s->half; b++) {
        pe_range_means_step(s->omega[b], 0, k, np, nd, rope ? ms : NULL, mc);
        for (int t = 0; t < np; t++)
            out[t] += rope ? s->ra[b] * mc[t] + s->rb[b] * ms[t] : mc[t];
    }
    for (int t = 0; t < np; t++)
        out[t] *= s->tau;
    free(ms);
}

/* ---- runs of a Toeplitz row ------------------------------------------------ */

#define LANES 8

void scores_run_steps(const struct score_ctx *s, double *steps)
{
    for (int b = 0; b < s->half; b++) {
        double w = s->omega[b];
        steps[4 * b] = cos(w);
        steps[4 * b + 1] = sin(w);
        steps[4 * b + 2] = cos(LANES * w);
        steps[4 * b + 3] = sin(LANES * w);
    }
}

/*
 * Even and odd parts of T(delta) for delta in [d0, d0 + len).  The lanes
 * are independent, so the inner loops vectorise, and no chain is longer
 * than SCORES_RUN / LANES + LANES steps.
 */
static void toeplitz_parts(const struct score_ctx *s, int rope,
                           const double *steps, int64_t d0, int len,
                           double *restrict ev, double *restrict od)
{
    int full = (len + LANES - 1) / LANES * LANES;   /* ev, od hold this */
    memset(ev, 0, (size_t)full * sizeof *ev);
    memset(od, 0, (size_t)full * sizeof *od);
    for (int b = 0; b < s->half; b++) {
        const double *st = steps + 4 * b;   /* cos w, sin w, cos 8w, sin 8w */
        double t = (double)d0 * s->omega[b];
        double cr[LANES], ci[LANES];
        double a = rope ? s->ra[b] : 1.0, bb = rope ? s->rb[b] : 0.0;
        cr[0] = cos(t);
        ci[0] = sin(t);
        for (int l = 1; l < LANES; l++) {
            cr[l] = cr[l - 1] * st[0] - ci[l - 1] * st[1];
            ci[l] = ci[l - 1] * st[0] + cr[l - 1] * st[1];
        }
        for (int t0 = 0; t0 < full; t0 += LANES) {
            for (int l = 0; l < LANES; l++) {
                ev[t0 + l] += a * cr[l];
                od[t0 + l] += bb * ci[l];
            }
            for (int l = 0; l < LANES; l++) {
                double c2 = cr[l] * st[2] - ci[l] * st[3];
                ci[l] = ci[l] * st[2] + cr[l] * st[3];
                cr[l] = c2;
            }
        }
    }
}

/* tau T(delta) of any Toeplitz sum of terms, entry by entry. */
static double toeplitz_at(const struct score_ctx *s, int64_t delta)
{
    double sum = 0.0;
    for (int t = 0; t < s->nterms; t++)
        sum += scores_term_at(s, t, delta, 0);
    return s->tau * sum;
}

void scores_toeplitz_run(const struct score_ctx *s, const double *steps,
                         int64_t d0, int len, double *pos, double *neg)
{
    double ev[SCORES_RUN], od[SCORES_RUN];
    int rt = s->nterms == 1 ? rotation_term(s) : -1;
    if (len > SCORES_RUN)
        len = SCORES_RUN;
    if (rt < 0) {
        for (int i = 0; i < len; i++) {
            pos[i] = toeplitz_at(s, d0 + i);
            neg[i] = toeplitz_at(s, -(d0 + i));
        }
        return;
    }
    toeplitz_parts(s, s->terms[rt].a == SK_RQ, steps, d0, len, ev, od);
    for (int i = 0; i < len; i++) {
        pos[i] = s->tau * (ev[i] + od[i]);
        neg[i] = s->tau * (ev[i] - od[i]);
    }
}

/* ---- the operations rows of the term types -------------------------------- */

static double dot_bias(const struct score_ctx *s, const struct score_term *tm,
                       int64_t i, int64_t j)
{
    (void)s; (void)tm; (void)i; (void)j;
    return 0.0;
}

static double dist_at(const struct score_ctx *s, const struct score_term *tm,
                      int64_t i, int64_t j)
{
    return tm->dist->at(s, i - j);
}

static double dist_term_block_mean(const struct score_ctx *s,
                                   const struct score_term *tm, int64_t i0,
                                   int64_t i1, int64_t j0, int64_t j1)
{
    return i1 <= i0 || j1 <= j0 ? 0.0
           : dist_block_mean(s, tm->dist, i0, i1, j0, j1);
}

static double dist_term_tri_sum(const struct score_ctx *s, int t, int64_t m,
                                struct scores_tri_memo *memo)
{
    (void)memo;
    return dist_tri_sum(s, s->terms[t].dist, m);
}

static double dist_term_range_mean(const struct score_ctx *s,
                                   const struct score_term *tm, int64_t d0,
                                   int64_t d1)
{
    return dist_range_mean(s, tm->dist, d0, d1);
}

const struct term_ops TERM_OPS[TERM_TYPE_COUNT] = {
    [TERM_DOT] = { .at = dot_at, .block_mean = dot_block_mean,
                   .tri_sum = dot_tri_sum, .range_mean = dot_range_mean,
                   .bias = dot_bias, .vectors = 1 },
    [TERM_DIST] = { .at = dist_at, .block_mean = dist_term_block_mean,
                    .tri_sum = dist_term_tri_sum,
                    .range_mean = dist_term_range_mean, .bias = dist_at,
                    .vectors = 0 },
};
