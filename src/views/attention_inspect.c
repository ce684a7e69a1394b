/* SPDX-License-Identifier: ISC */
/*
 * attention_inspect.c - the attention view's inspector: for the cell
 * under the cursor, the scheme's formula with its numbers (angles,
 * slopes, buckets, the four content terms), then the temperature, the
 * softmax and the block mean, each line as the panel shows it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "glyph.h"
#include "peviz/tables.h"
#include "plans.h"
#include "views/attention_inspect.h"

static void num(double v, char *buf, size_t len)
{
    fmt_num(v, 4, buf, len);
}

const char *attention_inspect_term_label(const struct app *a, const char *name,
                                         char *buf, size_t len)
{
    snprintf(buf, len, "%s", name);
    if (!a->ascii) {        /* "e.p" -> "e·p" */
        char *dot = strchr(buf, '.');
        if (dot && strlen(buf) + 2 < len) {
            memmove(dot + 2, dot + 1, strlen(dot + 1) + 1);
            memcpy(dot, "\xc2\xb7", 2);
        }
    }
    return buf;
}


/* ---- the inspector ------------------------------------------------------------ */


static void add(struct lines *ls, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void add(struct lines *ls, const char *fmt, ...)
{
    if (ls->n >= INSPECT_MAX)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ls->s[ls->n++], LINE_LEN, fmt, ap);
    va_end(ap);
}

/* A short form of the last line added, for a panel without room for it. */
static void add_brief(struct lines *ls, const char *label, const char *value)
{
    if (ls->n > 0)
        snprintf(ls->brief[ls->n - 1], sizeof ls->brief[0], "%s = %s", label,
                 value);
}

/* Terms 0, 1, ..., last of a sum: all when there are at most 4, else
 * the first two, an ellipsis and the last. */
static void join_terms(char *out, size_t len, char parts[][40], int total,
                       const struct app *a)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < total && used + 1 < len; i++) {
        if (total > 4 && i == 2) {
            used += (size_t)snprintf(out + used, len - used, " + %s",
                                     glyph_pick(a->ascii, "\xe2\x80\xa6", "..."));
            i = total - 2;
            continue;
        }
        const char *v = parts[i > 2 ? 3 : i];
        if (i && v[0] == '-')       /* "a - b", not "a + -b" */
            used += (size_t)snprintf(out + used, len - used, " - %s", v + 1);
        else
            used += (size_t)snprintf(out + used, len - used, "%s%s",
                                     i ? " + " : "", v);
    }
}

/* The plan's score multiplier as a chain factor: its name ("a²": the
 * attention factor squared; "m²": DeepSeek's softmax mscale squared;
 * "a²m²" both) and value; 1 when there is none. */
static double plan_factor(const struct app *a, char *name, size_t len)
{
    const pe_plan *pl = plans_of(&a->p);
    const char *sq = glyph_pick(a->ascii, "\xc2\xb2", "^2");
    if (pl->extra == 1 || pl->a != 1)
        snprintf(name, len, "a%s%s%s", sq, pl->extra != 1 ? "m" : "",
                 pl->extra != 1 ? sq : "");
    else
        snprintf(name, len, "m%s", sq);
    return pl->mult;
}

/* The last line of a chain with a multiplier: "= 2 × 32 × a² (a² =
 * 1.87385) = 119.927". */
static void add_factor(struct lines *ls, const struct app *a, double mult,
                       const char *tot, double value, double fac,
                       const char *fname)
{
    char f[32], r[32];
    const char *x = glyph(a->ascii, GL_TIMES);
    fmt_num(fac, 6, f, sizeof f);
    fmt_num(mult * value * fac, 6, r, sizeof r);
    if (mult == 1)
        add(ls, "  = %s %s %s (%s = %s) = %s", tot, x, fname, fname, f, r);
    else
        add(ls, "  = %g %s %s %s %s (%s = %s) = %s", mult, x, tot, x, fname,
            fname, f, r);
    add_brief(ls, "S", r);
}

static void inspect_sinusoid(struct lines *ls, const struct app *a,
                             const struct score_ctx *s, int64_t dl,
                             double mult, double fac, const char *fname)
{
    char ang[4][40], val[4][40], j1[LINE_LEN], j2[LINE_LEN];
    for (int slot = 0; slot < 4; slot++) {
        int k = s->half <= 4 ? slot : slot < 3 ? slot : s->half - 1;
        if (k >= s->half)
            break;
        char t[32], v[32];
        num((double)dl * s->omega[k], t, sizeof t);
        num(cos((double)dl * s->omega[k]), v, sizeof v);
        snprintf(ang[slot], sizeof ang[slot], "cos(%s)", t);
        snprintf(val[slot], sizeof val[slot], "%s", v);
    }
    join_terms(j1, sizeof j1, ang, s->half, a);
    join_terms(j2, sizeof j2, val, s->half, a);
    char tot[32];
    double sum = pe_score_w((double)dl, s->omega, s->half);
    num(sum, tot, sizeof tot);
    if (mult == 1) {
        add(ls, "  = %s", j1);
        add(ls, fac == 1 ? "  = %s = %s" : "  = %s", j2, tot);
        if (fac != 1)
            add_factor(ls, a, 1, tot, sum, fac, fname);
        return;
    }
    /* one chain: every line equals S, the factor kept in front */
    char r[32];
    const char *x = glyph(a->ascii, GL_TIMES);
    num(mult * sum, r, sizeof r);
    add(ls, "  = %g (%s)", mult, j1);
    add(ls, "  = %g (%s)", mult, j2);
    if (fac == 1)
        add(ls, "  = %g %s %s = %s", mult, x, tot, r);
    else
        add_factor(ls, a, mult, tot, sum, fac, fname);
}

static void inspect_rope_random(struct lines *ls, const struct app *a,
                                const struct score_ctx *s, int64_t dl,
                                double fac, const char *fname)
{
    char b1[32], b2[32], b3[32], b4[32];
    double t = (double)dl * s->omega[0];
    num(s->ra[0], b1, sizeof b1);
    num(s->rb[0], b2, sizeof b2);
    num(s->ra[0] * cos(t) + s->rb[0] * sin(t), b3, sizeof b3);
    add(ls, "S = %s a%s cos((i-j)%s) + b%s sin(..)", glyph(a->ascii, GL_SIGMA),
        glyph(a->ascii, GL_SUB_K), glyph(a->ascii, GL_OMEGA_K),
        glyph(a->ascii, GL_SUB_K));
    num(t, b4, sizeof b4);      /* (i-j) omega_0, omega_0 = 1 */
    add(ls, "  band 0: %s cos(%s) + %s sin(%s) = %s", b1, b4, b2, b4, b3);
    double sum = pe_rope_score_ab((double)dl, s->ra, s->rb, s->omega, s->half);
    num(sum, b1, sizeof b1);
    if (fac == 1) {
        add(ls, "  all %d bands: S = %s", s->half, b1);
        return;
    }
    add(ls, "  all %d bands: %s", s->half, b1);
    add_factor(ls, a, 1, b1, sum, fac, fname);
}

/* Which dims pair, and the score the other layout gives the same q and
 * k: what a port that pairs them wrongly computes. */
static void inspect_pairs(struct lines *ls, const struct app *a,
                          const struct score_ctx *s, int64_t dl)
{
    char b1[32], b2[32];
    int half = s->o.qk_pairs == QK_HALF;
    add(ls, "  pairs %s: dims %s, R = %d of %d%s", qk_pairs_name(half),
        half ? "(k, k+R/2)" : "(2k, 2k+1)", s->rotary, s->d,
        s->qk_given ? ", q and k from --qk" : "");
    struct app *b = malloc(sizeof *b);
    if (!b)
        return;
    *b = *a;
    b->att.o.qk_pairs = half ? QK_INTERLEAVED : QK_HALF;
    struct score_ctx *o = app_scores_new(b);
    free(b);
    if (!o)
        return;
    double x = pe_rope_score_ab((double)dl, o->ra, o->rb, o->omega, o->half);
    double y = pe_rope_score_ab((double)dl, s->ra, s->rb, s->omega, s->half);
    num(x, b1, sizeof b1);
    num(fabs(x - y) <= 1e-12 * (fabs(x) + fabs(y)) ? 0.0 : x - y, b2,
        sizeof b2);
    add(ls, "  as %s pairs (a wrong port): S = %s, drift %s",
        qk_pairs_name(!half), b1, b2);
    scores_free(o);
}

/* P(i).P(j) with the two norms and the cosine between the rows. */
static void inspect_learned(struct lines *ls, const struct app *a,
                            const struct score_ctx *s, int64_t i, int64_t j)
{
    char b1[32], b2[32], b3[32];
    double *pi = malloc(2 * (size_t)s->d * sizeof *pi);
    if (!pi)
        return;
    double *pj = pi + s->d, ni = 0, nj = 0, dp = 0;
    scores_vec(s, SK_PL, i, 0, s->d, pi);
    scores_vec(s, SK_PL, j, 0, s->d, pj);
    for (int k = 0; k < s->d; k++) {
        ni += pi[k] * pi[k];
        nj += pj[k] * pj[k];
        dp += pi[k] * pj[k];
    }
    free(pi);
    if (scores_table_used(s))
        add(ls, "S = P(i)%sP(j), P: the --pe-file table", glyph(a->ascii, GL_DOT));
    if (s->rows < s->n)
        add(ls, "  %s no row: table has %lld rows",
            glyph(a->ascii, GL_MISSING), (long long)s->rows);
    else if (a->pe_table)       /* d left the table: say so */
        add(ls, "stand-in, not the --pe-file table (%lldx%d): it needs "
            "d_model=%d", (long long)a->pe_table->n, a->pe_table->d,
            a->pe_table->d);
    if (!scores_table_used(s))
        add(ls, "S = P(i)%sP(j), stand-in table, L = %lld",
            glyph(a->ascii, GL_DOT), (long long)s->train_len);
    num(sqrt(ni), b1, sizeof b1);
    num(sqrt(nj), b2, sizeof b2);
    num(ni > 0 && nj > 0 ? dp / (sqrt(ni) * sqrt(nj)) : 0, b3, sizeof b3);
    add(ls, "  |P(i)|=%s |P(j)|=%s cos=%s", b1, b2, b3);
    num(dp, b1, sizeof b1);
    add(ls, "  S = %s%s", b1, scores_table_used(s) ? ""
        : i >= s->train_len || j >= s->train_len
          ? "  (a row past L: untrained noise)" : "  (trained rows)");
}

/* A bucket's distances on its side: "35..39", "113 and on", "none". */
static void bucket_range(const struct score_ctx *s, int sb, char *buf,
                         size_t len)
{
    int64_t lo = s->t5_edge[sb], hi = s->t5_edge[sb + 1];
    if (lo == INT64_MAX || hi == lo)
        snprintf(buf, len, "no distance");
    else if (hi == INT64_MAX)
        snprintf(buf, len, "%lld and on", (long long)lo);
    else if (hi - 1 == lo)
        snprintf(buf, len, "%lld", (long long)lo);
    else
        snprintf(buf, len, "%lld..%lld", (long long)lo, (long long)hi - 1);
}

/* T5: the bucket of j - i, its distances, and W at it. */
static void inspect_t5(struct lines *ls, const struct app *a,
                       const struct score_ctx *s, int64_t dl)
{
    char b1[32], rng[48];
    int b = t5_bucket(-dl, s->o.bidirectional, s->t5_buckets, s->t5_maxd);
    int future = s->o.bidirectional && b >= s->t5_side;
    add(ls, "S = W[bucket(j-i), h]: %d buckets, %s, max distance %d",
        s->t5_buckets, s->o.bidirectional ? "bidirectional" : "causal",
        s->t5_maxd);
    bucket_range(s, b % s->t5_side, rng, sizeof rng);
    if (!s->o.bidirectional && dl < 0)
        add(ls, "  j-i = %lld: the future, bucket 0 (causal buckets)",
            (long long)-dl);
    else
        add(ls, "  j-i = %lld: bucket %d = %s distances %s",
            (long long)-dl, b, future ? "future" : "past", rng);
    num(t5_weight(s, b), b1, sizeof b1);
    if (s->t5_real)
        add(ls, "  W[%d, head %d] = %s (the --pe-file table)", b,
            (s->head < s->t5_w_heads ? s->head : s->t5_w_heads - 1) + 1, b1);
    else
        add(ls, "  W[%d, head %d] = %s: stand-in -m%sfirst distance, not "
            "trained", b, s->head + 1, b1, glyph(a->ascii, GL_MUL));
}

/* Buckets from 0 that hold one distance each (bucket b = distance b). */
static int t5_exact(const struct score_ctx *s)
{
    int b = 0;
    while (b < s->t5_side && s->t5_edge[b] == b &&
           (b + 1 == s->t5_side || s->t5_edge[b + 1] == b + 1))
        b++;
    return b;
}

/* The bucket map of one side: the exact buckets in one phrase, then
 * "b: first distance" for every other, in lines narrow enough for the
 * panel beside the matrix at 80 columns. */
static void t5_map(struct lines *ls, const struct score_ctx *s)
{
    char line[LINE_LEN];
    size_t used = 0;
    int b0 = t5_exact(s);
    add(ls, "bucket map (%s side; first distance of each):",
        s->o.bidirectional ? "each" : "past");
    if (b0 > 1)
        add(ls, "  0..%d: one distance each (bucket = distance)", b0 - 1);
    else
        b0 = 0;
    line[0] = 0;
    for (int b = b0; b < s->t5_side; b++) {
        int64_t e = s->t5_edge[b];
        if (e == INT64_MAX)
            used += (size_t)snprintf(line + used, sizeof line - used,
                                     " %d:-", b);
        else
            used += (size_t)snprintf(line + used, sizeof line - used,
                                     " %d:%lld", b, (long long)e);
        if (used > 46 || b == s->t5_side - 1 || used >= sizeof line) {
            add(ls, " %s", line);
            used = 0;
            line[0] = 0;
        }
    }
    if (s->o.bidirectional)
        add(ls, "  the future side: bucket + %d", s->t5_side);
}

/* KERPLE log and power with r1, r2 and the value. */
static void inspect_kerple(struct lines *ls, const struct app *a,
                           const struct score_ctx *s, int64_t dl)
{
    char b1[32], b2[32], b3[32];
    int power = s->o.scheme == SCHEME_KERPLE_POWER;
    num(s->r1, b1, sizeof b1);
    num(s->r2, b2, sizeof b2);
    num(scores_bias(s, dl, 0), b3, sizeof b3);
    add(ls, "S = %s, r1 = %s, r2 = %s", schemes_formula(s, a->ascii), b1, b2);
    if (power)
        add(ls, "  = -%s %s %lld^%s = %s", b1, glyph(a->ascii, GL_TIMES),
            (long long)llabs(dl), b2, b3);
    else
        add(ls, "  = -%s %s ln(1 + %s %s %lld) = %s", b1,
            glyph(a->ascii, GL_TIMES), b2, glyph(a->ascii, GL_TIMES),
            (long long)llabs(dl), b3);
}

/* Sandwich: the cosine sum, the head's divisor and the value. */
static void inspect_sandwich(struct lines *ls, const struct app *a,
                             const struct score_ctx *s, int64_t dl)
{
    char b1[32], b2[32], b3[32];
    double c = pe_score_w((double)dl, s->dband, s->half);
    add(ls, "S = %s, %s = base^(-2k/d), k = 1..d/2",
        schemes_formula(s, a->ascii), glyph(a->ascii, GL_OMEGA_K));
    num(c, b1, sizeof b1);
    num(8.0 * (s->head + 1) / s->heads, b2, sizeof b2);
    num(scores_bias(s, dl, 0), b3, sizeof b3);
    add(ls, "  head %d of %d: (%s - %d) / %s = %s", s->head + 1, s->heads,
        b1, s->half, b2, b3);
}

/* xPos: zeta and the decay of the pair for the first and last band. */
static void inspect_xpos(struct lines *ls, const struct app *a,
                         const struct score_ctx *s, int64_t dl)
{
    char b1[32], b2[32], b3[32];
    const char *z = glyph_pick(a->ascii, "\xce\xb6", "zeta");
    const char *g = glyph_pick(a->ascii, "\xce\xb3", "gamma");
    num(s->xpos_gamma, b1, sizeof b1);
    add(ls, "S = %s, %s = %s", schemes_formula(s, a->ascii), g, b1);
    add(ls, "  %s%s = (2k + 0.4d)/(1.4d); decay of this pair %s%s^((i-j)/%s)",
        z, glyph(a->ascii, GL_SUB_K), z, glyph(a->ascii, GL_SUB_K), g);
    int ks[2] = { 0, s->half - 1 };
    for (int t = 0; t < (s->half > 1 ? 2 : 1); t++) {
        int k = ks[t];
        num(s->dband[k], b2, sizeof b2);
        num(pow(s->dband[k], (double)dl / s->xpos_gamma), b3, sizeof b3);
        add(ls, "  band %d: %s = %s, decay %s", k, z, b2, b3);
    }
    num(scores_bias(s, dl, 0), b1, sizeof b1);
    add(ls, "  all %d bands: S = %s", s->half, b1);
}

static void inspect_scheme(struct lines *ls, const struct app *a,
                           const struct score_ctx *s, int64_t i, int64_t j)
{
    int64_t dl = i - j;
    char b1[32], b2[32], fname[16];
    double fac = plan_factor(a, fname, sizeof fname);
    switch (s->o.scheme) {
    case SCHEME_SINUSOIDAL:
        add(ls, "S = %s cos((i-j)%s), %s = base^(-2k/d)",
            glyph_pick(a->ascii, "\xce\xa3\xe2\x82\x96", "sum_k"), glyph(a->ascii, GL_OMEGA_K),
            glyph(a->ascii, GL_OMEGA_K));
        inspect_sinusoid(ls, a, s, dl, 1, 1, "");
        break;
    case SCHEME_ROPE:
        if (s->o.q_random || s->qk_given) {
            inspect_rope_random(ls, a, s, dl, fac, fname);
            inspect_pairs(ls, a, s, dl);
            break;
        }
        add(ls, "q = k = ones: S = 2 %s cos((i-j)%s)%s%s%s%s",
            glyph(a->ascii, GL_SIGMA), glyph(a->ascii, GL_OMEGA_K),
            fac != 1 ? " " : "", fac != 1 ? glyph(a->ascii, GL_TIMES) : "",
            fac != 1 ? " " : "", fac != 1 ? fname : "");
        inspect_sinusoid(ls, a, s, dl, 2, fac, fname);
        break;
    case SCHEME_ALIBI:
        num(s->slope, b1, sizeof b1);
        num(-s->slope * (double)llabs(dl), b2, sizeof b2);
        add(ls, "S = -m|i-j|, head %d of %d: m = %s", s->head + 1, s->heads,
            b1);
        add(ls, "  = -%s %s %lld = %s", b1, glyph(a->ascii, GL_TIMES),
            (long long)llabs(dl), b2);
        break;
    case SCHEME_LEARNED:
        inspect_learned(ls, a, s, i, j);
        break;
    case SCHEME_NOPE:
        if (s->qk_given)
            add(ls, "S = %s = %.6g: the real q and k, no position signal",
                schemes_formula(s, a->ascii), scores_at(s, i, j));
        else
            add(ls, "S = 0: no position signal reaches the score");
        break;
    case SCHEME_T5:
        inspect_t5(ls, a, s, dl);
        if (a->att.bucket_map)
            t5_map(ls, s);
        break;
    case SCHEME_KERPLE_LOG: case SCHEME_KERPLE_POWER:
        inspect_kerple(ls, a, s, dl);
        break;
    case SCHEME_SANDWICH:
        inspect_sandwich(ls, a, s, dl);
        break;
    case SCHEME_XPOS:
        inspect_xpos(ls, a, s, dl);
        break;
    default:        /* a scheme without its own lines: its formula */
        add(ls, "S = %s", schemes_formula(s, a->ascii));
    }
}

static void inspect_content(struct lines *ls, const struct app *a,
                            const struct score_ctx *s, int64_t i, int64_t j)
{
    char v[SCORES_MAX_TERMS][40], line[LINE_LEN], tot[32];
    size_t used = 0;
    double sum = 0;
    used += (size_t)snprintf(line, sizeof line, "S =");
    for (int t = 0; t < s->nterms; t++) {
        char name[16];
        double x = scores_term_at(s, t, i, j);
        sum += x;
        num(x, v[t], sizeof v[t]);
        if (used < sizeof line)
            used += (size_t)snprintf(line + used, sizeof line - used, "%s %s",
                                     t ? " +" : "",
                                     attention_inspect_term_label(a, s->terms[t].name, name,
                                                sizeof name));
    }
    add(ls, "%s", line);
    used = 0;
    line[0] = 0;
    for (int t = 0; t < s->nterms && used < sizeof line; t++)
        used += (size_t)snprintf(line + used, sizeof line - used, "%s%s",
                                 !t ? "  = " : v[t][0] == '-' ? " - " : " + ",
                                 t && v[t][0] == '-' ? v[t] + 1 : v[t]);
    num(sum, tot, sizeof tot);
    add(ls, "%s = %s", line, tot);
    add(ls, "  e: N(0, 1/d) per entry%s, seeded",
        s->o.scale_emb ? glyph_pick(a->ascii, ", \xc3\x97\xe2\x88\x9a" "d", ", x sqrt(d)") : "");
}

/* A position past a loaded table's rows: no row, so no score. */
static void inspect_missing(struct lines *ls, const struct app *a,
                            const struct score_ctx *s, int64_t p)
{
    add(ls, "S: missing (%s). Position %lld has no row: the table has %lld "
        "positions, 0..%lld, and a model with it cannot index past them",
        glyph(a->ascii, GL_MISSING), (long long)p, (long long)s->rows,
        (long long)s->rows - 1);
}

/* The query scale of row i and where it comes from. */
static void inspect_qscale(struct lines *ls, const struct app *a,
                           const struct score_ctx *s, int64_t i)
{
    const struct score_opts *o = &s->o;
    char b1[32], b2[32], b3[32];
    if (!o->temp_tuning && !(o->beta > 0 && o->beta_len > 0))
        return;
    num(scores_qscale(s, i), b3, sizeof b3);
    if (o->temp_tuning) {
        num(o->floor_scale, b1, sizeof b1);
        num(o->attn_scale, b2, sizeof b2);
        add(ls, "g(i) = log(floor((i+1)/%s)+1)%s%s + 1: Llama 4 temperature "
            "tuning", b1, glyph(a->ascii, GL_MUL), b2);
    }
    if (o->beta > 0 && o->beta_len > 0) {
        num(o->beta, b1, sizeof b1);
        add(ls, "g(i) = 1 + %s ln(1 + floor(i/%lld)): Ministral 3 beta", b1,
            (long long)o->beta_len);
    }
    add(ls, "  query scaled: g(%lld) = %s%s", (long long)i, b3,
        s->o.scheme == SCHEME_NOPE && !s->o.content
        ? " (S = 0: e shows it)" : "");
}

void attention_inspect(struct lines *ls, const struct app *a,
                       const struct score_ctx *s, struct att_rt *rt)
{
    const struct att_layout *L = &rt->L;
    int64_t i = a->att.ci, j = a->att.cj;
    memset(ls, 0, sizeof *ls);
    int miss = i >= s->rows || j >= s->rows;
    add(ls, "i = %lld  j = %lld  i-j = %lld%s", (long long)i, (long long)j,
        (long long)(i - j), miss ? "  (missing)"
                            : scores_masked(&s->o, i, j) ? "  (masked)" : "");
    if (miss) {
        inspect_missing(ls, a, s, i >= s->rows ? i : j);
        return;
    }
    if (s->o.content)
        inspect_content(ls, a, s, i, j);
    else
        inspect_scheme(ls, a, s, i, j);
    inspect_qscale(ls, a, s, i);
    double raw = 0;
    char fname[16];
    for (int t = 0; t < s->nterms; t++)
        raw += scores_term_at(s, t, i, j);
    if (s->o.scheme == SCHEME_ROPE)     /* the score multiplier: S itself */
        raw *= plan_factor(a, fname, sizeof fname);
    char b1[32], b2[32], b3[32];
    if (s->o.temperature) {
        num(raw, b1, sizeof b1);
        num(sqrt((double)s->d), b2, sizeof b2);
        num(raw / sqrt((double)s->d), b3, sizeof b3);
        add(ls, "S/%s = %s / %s = %s", glyph_pick(a->ascii, "\xe2\x88\x9a" "d", "sqrt(d)"), b1,
            b2, b3);
    }
    if (s->o.softmax) {
        double p;
        if (scores_masked(&s->o, i, j))
            add(ls, "P(j|i) = 0: masked");
        else if (score_grid_softmax_at(rt->grid, s, i, j, &p, NULL) == 0) {
            num(p, b1, sizeof b1);
            add(ls, "P(j|i) = softmax of row i at j = %s", b1);
        }
    }
    if (L->k > 1) {
        int r = (int)((i - L->i0) / L->k), c = (int)((j - L->j0) / L->k);
        double v = score_grid_cell(rt->grid, r, c);
        num(v, b1, sizeof b1);
        int r0 = L->i0 + r * L->k + L->k > s->rows, c0 = L->j0 + c * L->k
                                                       + L->k > s->rows;
        int64_t i0 = L->i0 + r * L->k, j0 = L->j0 + c * L->k;
        double cnt = s->toeplitz && !s->o.softmax && !r0 && !c0   /* raw */
            ? scores_mask_count(s, i0, i0 + L->k, j0, j0 + L->k) : 0;
        if (isfinite(v) && (r0 || c0))  /* across the table's end */
            add(ls, "cell: mean over its positions below %lld = %s",
                (long long)s->rows, b1);
        else if (isfinite(v) && cnt > 0
                 && cnt < (double)L->k * (double)L->k)  /* a mask cuts it */
            add(ls, "cell: mean of the %.0f shown pairs of %lld x %lld = %s",
                cnt, (long long)L->k, (long long)L->k, b1);
        else
            add(ls, "cell: mean over %lld x %lld positions = %s",
                (long long)L->k, (long long)L->k, isfinite(v) ? b1 : "masked");
        add_brief(ls, "cell mean", isfinite(v) ? b1 : "masked");
    }
}
