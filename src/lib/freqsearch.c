/* SPDX-License-Identifier: ISC */
/*
 * freqsearch.c - the frequency check's variant table and its search
 * (peviz/freqcheck.h): every combination of a few independent choices a
 * port can get wrong, evaluated the way the port would, each held to the
 * file's tolerance.
 *
 * The evaluation follows transformers' order of operations (its
 * modeling_rope_utils.py): pos_i = base^(float(2i) / d), inv_i = 1 / pos_i,
 * then the method's blend; in float32 and bf16 every operation's result
 * (and each Python number it meets) is rounded to the type.
 */
#include "freqcheck_impl.h"
#include "rope_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "peviz/pi.h"

/* ---- the table ------------------------------------------------------------ */

enum fs_row {
    R_NONE = 0, R_METHOD, R_DIMS_EXP, R_DIMS_PROP, R_DIMS_ALL, R_DIMS_HALF,
    R_DIMS_PARTIAL,
    R_BASE_FALLBACK,
    R_BASE_IMPLIED, R_BASE_OTHER, R_YARN_TRUNC, R_YARN_SWAP, R_YARN_CLAMP,
    R_YARN_PAPER, R_YARN_MAXPOS, R_ARITH_F32, R_ARITH_BF16, R_SHAPE_CAT,
    R_SHAPE_TWICE, R_COUNT
};

static const struct freq_variant ROWS[R_COUNT] = {
    [R_NONE] = { FA_METHOD, "no scaling",
        "the declared scaling silently dropped" },
    [R_METHOD] = { FA_METHOD, "another method",
        "linear, ntk, dynamic, yarn or llama3 given the config's numbers" },
    [R_DIMS_EXP] = { FA_DIMS, "rotary dims ignored in the exponent",
        "the rotary dims' bands with the exponent over head_dim "
        "(proportional RoPE taken for partial)" },
    [R_DIMS_PROP] = { FA_DIMS, "proportional instead of partial",
        "head_dim/2 bands with the exponent over head_dim, 0 past the "
        "rotary dims' (Gemma 4's proportional RoPE taken for partial rotary)" },
    [R_DIMS_ALL] = { FA_DIMS, "the rotary fraction ignored",
        "d = head_dim: every dimension rotated (proportional: every band "
        "turns)" },
    [R_DIMS_HALF] = { FA_DIMS, "partial rotary 0.5 applied",
        "half the rotary dims, as GLM's class default" },
    [R_DIMS_PARTIAL] = { FA_DIMS, "partial instead of proportional",
        "a proportional config's turning bands with the exponent over "
        "their own dims (partial rotary taken for proportional), alone or "
        "padded with zeros to head_dim/2" },
    [R_BASE_FALLBACK] = { FA_BASE, "base 10000",
        "rope_theta fallen back to 10000 (transformers 5)" },
    [R_BASE_IMPLIED] = { FA_BASE, "the base the file implies",
        "the base bands 0 and 1 give, to 3 significant digits" },
    [R_BASE_OTHER] = { FA_BASE, "another model's base",
        "a preset's base or a usual one (1e5 ... 1e9)" },
    [R_YARN_TRUNC] = { FA_YARN, "truncate toggled",
        "the ramp's bounds floored and ceiled, or not" },
    [R_YARN_SWAP] = { FA_YARN, "betas swapped",
        "beta_fast and beta_slow given the other way round" },
    [R_YARN_CLAMP] = { FA_YARN, "the ramp clamped at d/2-1",
        "the ramp's top clamped at d/2-1 instead of d-1" },
    [R_YARN_PAPER] = { FA_YARN, "the paper's ramp",
        "the ramp linear in rotations, not in the band index" },
    [R_YARN_MAXPOS] = { FA_YARN, "L = max_position_embeddings",
        "the ramp over max_position_embeddings instead of "
        "original_max_position_embeddings" },
    [R_ARITH_F32] = { FA_ARITH, "float32 as transformers computes it",
        "every operation rounded to float32" },
    [R_ARITH_BF16] = { FA_ARITH, "bf16",
        "every operation rounded to bf16" },
    [R_SHAPE_CAT] = { FA_SHAPE, "cat(inv, inv)",
        "each value twice, as the cos/sin cache lays them out" },
    [R_SHAPE_TWICE] = { FA_SHAPE, "interleaved twice",
        "each value twice in a row" },
};

int freq_variant_count(void)
{
    return R_COUNT;
}

const struct freq_variant *freq_variant_at(int i)
{
    return i >= 0 && i < R_COUNT ? &ROWS[i] : NULL;
}

const char *freq_axis_name(enum freq_axis a)
{
    static const char *const N[FA_COUNT] = { "method", "dims", "base", "yarn",
                                             "arithmetic", "shape" };
    return (unsigned)a < FA_COUNT ? N[a] : "?";
}

/* ---- one variant's evaluation ----------------------------------------- */

enum { AR_F64 = 0, AR_F32, AR_BF16 };

struct fvar {
    rope_scaling sc;            /* method, factor, L, betas, truncate */
    int dexp, nb;               /* the exponent's denominator; bands */
    double base;
    int live;                   /* bands past it are 0 (0: none) */
    int top_half;               /* yarn: the ramp's top at dexp/2 - 1 */
    int paper;                  /* yarn: the ramp linear in rotations */
    int arith;
};

double freq_round_bf16(double x)
{
    float f = (float)x;
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7f800000u) != 0x7f800000u)
        u += 0x7fffu + ((u >> 16) & 1u);
    u &= 0xffff0000u;
    memcpy(&f, &u, 4);
    return f;
}

static double rnd(int arith, double x)
{
    return arith == AR_F32 ? (double)(float)x
         : arith == AR_BF16 ? freq_round_bf16(x) : x;
}

/* YaRN's ramp bounds as transformers finds them (in float64). */
static void yarn_bounds(const struct fvar *v, double *lo, double *hi)
{
    double L = (double)v->sc.original_max, d = v->dexp;
    double a = d * log(L / (v->sc.beta_fast * 2 * PEVIZ_PI)) / (2 * log(v->base));
    double b = d * log(L / (v->sc.beta_slow * 2 * PEVIZ_PI)) / (2 * log(v->base));
    if (v->sc.truncate) {
        a = floor(a);
        b = ceil(b);
    }
    *lo = a > 0 ? a : 0;
    double top = v->top_half ? v->dexp / 2 - 1 : v->dexp - 1;
    *hi = b < top ? b : top;
    if (*lo == *hi)
        *hi += 0.001;
}

/* The share of band i kept unscaled. */
static double yarn_kept(const struct fvar *v, int i, double inv, double lo,
                        double hi)
{
    int A = v->arith;
    double r;
    if (v->paper) {             /* rotations in L, from beta_slow to beta_fast */
        double rot = (double)v->sc.original_max * inv / (2 * PEVIZ_PI);
        r = (rot - v->sc.beta_slow) / (v->sc.beta_fast - v->sc.beta_slow);
        r = r < 0 ? 0 : r > 1 ? 1 : r;
        return rnd(A, r);
    }
    r = rnd(A, rnd(A, (double)i - rnd(A, lo)) / rnd(A, hi - lo));
    r = r < 0 ? 0 : r > 1 ? 1 : r;
    return rnd(A, 1 - r);
}

static double llama3_band(const struct fvar *v, double inv)
{
    int A = v->arith;
    double s = rnd(A, v->sc.factor), L = (double)v->sc.original_max;
    double lf = v->sc.low_freq_factor, hf = v->sc.high_freq_factor;
    double wl = rnd(A, rnd(A, 2 * PEVIZ_PI) / inv);
    double lw = rnd(A, L / lf), hw = rnd(A, L / hf);
    double w = wl > lw ? rnd(A, inv / s) : inv;
    if (wl < hw || wl > lw)
        return w;
    if (hf == lf)
        return inv;
    double k = rnd(A, rnd(A, rnd(A, L) / wl) - rnd(A, lf));
    k = rnd(A, k / rnd(A, hf - lf));
    return rnd(A, rnd(A, rnd(A, rnd(A, 1 - k) * w) / s) + rnd(A, k * w));
}

/* w[0..nb-1] of variant v at n; -1 when the settings cannot be had. */
static int fvar_eval(const struct fvar *v, int64_t n, double *w)
{
    rope_scaling ord = v->sc;
    int A = v->arith;
    if (ord.beta_fast < ord.beta_slow) {
        ord.beta_fast = v->sc.beta_slow;
        ord.beta_slow = v->sc.beta_fast;
    }
    if (v->nb < 1 || v->nb > FREQ_BANDS_MAX ||
        (v->live > 0 ? v->live : v->nb) > v->dexp / 2 ||
        rope_check(&ord, v->dexp, v->base, NULL, 0) != 0)
        return -1;
    enum rope_method m = v->sc.method;
    if (m > ROPE_LONGROPE && m != ROPE_PROPORTIONAL) { /* registered: f64 */
        double all[2 * FREQ_BANDS_MAX];
        if (v->dexp / 2 > 2 * FREQ_BANDS_MAX)
            return -1;
        rope_eval(&v->sc, v->dexp, v->base, n, all, NULL);
        for (int i = 0; i < v->nb; i++)
            w[i] = rnd(A, all[i]);
        return 0;
    }
    double b = v->base, lo = 0, hi = 0, s = rnd(A, v->sc.factor);
    if (m == ROPE_NTK || m == ROPE_DYNAMIC)
        b = rope_effective_base(&v->sc, v->dexp, v->base, n);
    if (m == ROPE_YARN)
        yarn_bounds(v, &lo, &hi);
    const double *lr = n > v->sc.original_max ? v->sc.long_factor
                                               : v->sc.short_factor;
    for (int i = 0; i < v->nb; i++) {
        double pos = rnd(A, pow(rnd(A, b), rnd(A, rnd(A, 2.0 * i) / v->dexp)));
        double inv = rnd(A, 1 / pos);
        if (m == ROPE_LINEAR || m == ROPE_PROPORTIONAL)
            w[i] = rnd(A, inv / s);
        else if (m == ROPE_LLAMA3)
            w[i] = llama3_band(v, inv);
        else if (m == ROPE_LONGROPE)
            w[i] = rnd(A, 1 / rnd(A, rnd(A, lr[i]) * pos));
        else if (m == ROPE_YARN) {
            double e = yarn_kept(v, i, inv, lo, hi);
            double interp = rnd(A, 1 / rnd(A, s * pos));
            double keep = 1 - v->sc.ext_complement;
            w[i] = rnd(A, rnd(A, interp * rnd(A, 1 - e)) +
                          rnd(A, inv * e * keep));
        } else
            w[i] = inv;
    }
    for (int i = v->live; v->live > 0 && i < v->nb; i++)
        w[i] = 0;
    return 0;
}

/* ---- the choices -------------------------------------------------------- */

struct fsearch {
    const struct freq_setup *s;
    const struct freq_found *ff;
    int nff;
    int hd[3], nhd;             /* head_dim candidates */
    double bases[40];           /* R_BASE_OTHER's candidates */
    int nbases;
};

static const enum rope_method OTHER_METHODS[] = {
    ROPE_LINEAR, ROPE_NTK, ROPE_DYNAMIC, ROPE_YARN, ROPE_LLAMA3
};
#define NOTHER ((int)(sizeof OTHER_METHODS / sizeof OTHER_METHODS[0]))

/* How many options a row has. */
static int row_count(const struct fsearch *c, enum fs_row r)
{
    switch (r) {
    case R_METHOD: return NOTHER;
    case R_DIMS_ALL:
        return c->s->sc->method == ROPE_PROPORTIONAL ? 1 : c->nhd;
    case R_DIMS_EXP: case R_DIMS_PROP: return c->nhd;
    case R_DIMS_PARTIAL: return 2;
    case R_BASE_OTHER: return c->nbases;
    case R_NONE: case R_DIMS_HALF: case R_BASE_FALLBACK: case R_BASE_IMPLIED:
    case R_YARN_TRUNC: case R_YARN_SWAP: case R_YARN_CLAMP: case R_YARN_PAPER:
    case R_YARN_MAXPOS: return 1;
    default: return 0;
    }
}

static int64_t setup_L(const struct freq_setup *s)
{
    return s->sc->original_max > 0 ? s->sc->original_max
         : s->max_pos > 0 ? s->max_pos : 0;
}

static int apply_method(const struct fsearch *c, enum fs_row r, int k,
                        struct fvar *v, char *name, size_t len)
{
    const rope_scaling *sc = c->s->sc;
    const char *was = rope_method_name(sc->method);
    if (r == R_NONE) {
        if (sc->method == ROPE_NONE)
            return 0;
        v->sc.method = ROPE_NONE;
        snprintf(name, len, "no scaling (%s not applied)", was);
        return 1;
    }
    enum rope_method m = OTHER_METHODS[k];
    if (m == sc->method || !(sc->factor > 1) || sc->method == ROPE_NONE)
        return 0;
    v->sc.method = m;
    if (v->sc.original_max <= 0)
        v->sc.original_max = setup_L(c->s);
    if (sc->method == ROPE_LLAMA3 && m == ROPE_LINEAR)
        snprintf(name, len, "llama3 applied as plain linear scaling by %g",
                 sc->factor);
    else
        snprintf(name, len, "%s instead of %s (factor %g)",
                 rope_method_name(m), was, sc->factor);
    return 1;
}

/* The bands proportional RoPE turns: int(p d / 2), as transformers. */
static int freqsearch_live(const rope_scaling *sc, int d)
{
    return (int)floor(sc->proportion * d / 2.0);
}

/* A proportional config's port as partial rotary: its live bands over
 * their own dims, alone (k 0) or padded with zeros to d/2 (k 1). */
static int apply_partial(const struct fsearch *c, int k, struct fvar *v,
                         char *name, size_t len)
{
    int d = c->s->d, live = freqsearch_live(c->s->sc, d);
    if (c->s->sc->method != ROPE_PROPORTIONAL || live < 1 || 2 * live >= d)
        return 0;
    v->dexp = 2 * live;
    v->nb = k ? d / 2 : live;
    v->live = k ? live : 0;
    if (k)
        snprintf(name, len, "partial rotary instead of proportional RoPE "
                 "(d = %d: %d bands over the rotary dims, %d zero)",
                 2 * live, live, d / 2 - live);
    else
        snprintf(name, len, "partial rotary instead of proportional RoPE "
                 "(d = %d instead of head_dim %d: %d bands over the rotary "
                 "dims)", 2 * live, d, live);
    return 1;
}

static int apply_dims(const struct fsearch *c, enum fs_row r, int k,
                      struct fvar *v, char *name, size_t len)
{
    int d = c->s->d;
    if (r == R_DIMS_PARTIAL)
        return apply_partial(c, k, v, name, len);
    if (c->s->sc->method == ROPE_PROPORTIONAL && r == R_DIMS_ALL &&
        v->live < d / 2) {
        v->live = 0;
        snprintf(name, len, "the rotary fraction ignored (all %d bands turn, "
                 "proportion %g dropped)", d / 2, c->s->sc->proportion);
        return 1;
    }
    if (c->s->sc->method == ROPE_PROPORTIONAL)
        return 0;
    if (r == R_DIMS_HALF) {
        if (d < 4 || d % 4)
            return 0;
        v->dexp = d / 2;
        v->nb = d / 4;
        snprintf(name, len, "partial rotary 0.5 applied (d = %d instead of "
                 "%d, as GLM's class default)", d / 2, d);
        return 1;
    }
    int hd = c->hd[k];
    v->dexp = hd;
    if (r == R_DIMS_EXP)
        snprintf(name, len, "rotary dims ignored in the exponent "
                 "(head_dim %d)", hd);
    else if (r == R_DIMS_PROP) {
        v->nb = hd / 2;
        v->live = d / 2;
        snprintf(name, len, "proportional RoPE instead of partial rotary "
                 "(head_dim %d: %d bands over head_dim, %d zero)", hd, d / 2,
                 hd / 2 - d / 2);
    } else {
        v->nb = hd / 2;
        snprintf(name, len, "the rotary fraction ignored (d = head_dim %d "
                 "instead of %d)", hd, d);
    }
    return 1;
}

/* The base bands 0 and 1 imply for exponent dexp (their ratio is
 * base^(2/dexp) whatever uniform scaling there is), to 3 digits. */
static double implied_base(const struct fsearch *c, int dexp)
{
    const struct freq_found *f = &c->ff[0];
    if (f->n < 2 || !(f->v[0] > 0) || !(f->v[1] > 0))
        return 0;
    double b = pow(f->v[0] / f->v[1], dexp / 2.0);
    if (!(b > 1) || !isfinite(b))
        return 0;
    double e = pow(10, floor(log10(b)) - 2);
    return round(b / e) * e;
}

static int apply_base(const struct fsearch *c, enum fs_row r, int k,
                      struct fvar *v, char *name, size_t len)
{
    double was = c->s->base, b;
    if (r == R_BASE_FALLBACK)
        b = 1e4;
    else if (r == R_BASE_IMPLIED) {
        b = implied_base(c, v->dexp);
        if (b == 1e4)
            return 0;
    } else {
        b = c->bases[k];
        if (b == 1e4 || b == implied_base(c, v->dexp))
            return 0;
    }
    if (!(b > 1) || b == was)
        return 0;
    v->base = b;
    snprintf(name, len, "base %.10g instead of %.10g", b, was);
    return 1;
}

static int apply_yarn(const struct fsearch *c, enum fs_row r,
                      struct fvar *v, char *name, size_t len)
{
    int d = v->dexp;
    double lo, hi;
    if (v->sc.method != ROPE_YARN)
        return 0;
    switch (r) {
    case R_YARN_TRUNC:
        v->sc.truncate = !v->sc.truncate;
        snprintf(name, len, "yarn with truncate %s", v->sc.truncate ? "on" : "off");
        return 1;
    case R_YARN_SWAP:
        v->sc.beta_fast = c->s->sc->beta_slow;
        v->sc.beta_slow = c->s->sc->beta_fast;
        snprintf(name, len, "yarn with beta_fast and beta_slow swapped");
        return 1;
    case R_YARN_CLAMP:
        yarn_bounds(v, &lo, &hi);
        if (!(hi > d / 2 - 1 && lo < d / 2 - 1))
            return 0;
        v->top_half = 1;
        snprintf(name, len, "yarn with the ramp clamped at d/2-1 = %d "
                 "instead of d-1 = %d", d / 2 - 1, d - 1);
        return 1;
    case R_YARN_PAPER:
        v->paper = 1;
        snprintf(name, len, "yarn with the paper's ramp (linear in rotations, "
                 "%g to %g)", v->sc.beta_slow, v->sc.beta_fast);
        return 1;
    case R_YARN_MAXPOS:
        if (c->s->max_pos <= 0 || c->s->max_pos == v->sc.original_max)
            return 0;
        snprintf(name, len, "yarn with L = max_position_embeddings %lld "
                 "instead of original_max_position_embeddings %lld",
                 (long long)c->s->max_pos, (long long)v->sc.original_max);
        v->sc.original_max = c->s->max_pos;
        return 1;
    default:
        return 0;
    }
}

static int apply_row(const struct fsearch *c, enum fs_row r, int k,
                     struct fvar *v, char *name, size_t len)
{
    switch (ROWS[r].axis) {
    case FA_METHOD: return apply_method(c, r, k, v, name, len);
    case FA_DIMS:   return apply_dims(c, r, k, v, name, len);
    case FA_BASE:   return apply_base(c, r, k, v, name, len);
    case FA_YARN:   return apply_yarn(c, r, v, name, len);
    default:        return 0;
    }
}

/* ---- the search ----------------------------------------------------------- */

int freq_within(const struct freq_found *ff, int i, double want, double got,
                double rel_floor)
{
    double t = ff->tolv[i] > rel_floor ? ff->tolv[i] : rel_floor;
    double diff = fabs(got - want);
    return diff <= t * fabs(want) || diff <= ff->atol;
}

/* One option of an axis: a row and its k; row R_COUNT: as configured. */
struct fopt { enum fs_row row; int k; };

#define FS_OPTS 64
struct fmatch {
    struct fopt pick[FA_ARITH + 1];
    int changes, nb, reading;
    double residual;
    double w[FREQ_BANDS_MAX];
    char name[400];
};

struct fstate {
    struct fsearch c;
    struct fopt opts[FA_YARN + 1][FS_OPTS];
    int nopt[FA_YARN + 1];
    struct fmatch m[4 * FREQ_MATCH_MAX];
    int nm;
};

static const double ARITH_FLOOR[] = { 0, 0x1p-20, 0x1p-6 };

/* The residual of w against reading ff, or -1 beyond the tolerance. */
static double fit(const struct freq_found *ff, const double *w, int nb,
                  int arith)
{
    double worst = 0;
    if (ff->n != nb)
        return -1;
    for (int i = 0; i < nb; i++) {
        if (!freq_within(ff, i, w[i], ff->v[i], ARITH_FLOOR[arith]))
            return -1;
        double r = w[i] != 0 ? fabs(ff->v[i] - w[i]) / fabs(w[i]) : 0;
        worst = r > worst ? r : worst;
    }
    return worst;
}

static void append(char *name, size_t len, const char *part)
{
    size_t k = strlen(name);
    snprintf(name + k, len - k, "%s%s", k ? ", and " : "", part);
}

static void record(struct fstate *st, const struct fopt *pick, int arith,
                   const struct fvar *v, const double *w, int reading,
                   double res, const char *name)
{
    int changes = arith != 0;
    for (int a = 0; a < FA_ARITH; a++)
        changes += pick[a].row != R_COUNT;
    if (changes == 0 || st->nm >= (int)(sizeof st->m / sizeof st->m[0]))
        return;
    struct fmatch *m = &st->m[st->nm++];
    memcpy(m->pick, pick, sizeof m->pick[0] * FA_ARITH);
    m->pick[FA_ARITH] = (struct fopt){ arith ? R_ARITH_F32 + arith - 1
                                             : R_COUNT, 0 };
    m->changes = changes;
    m->nb = v->nb;
    m->reading = reading;
    m->residual = res;
    memcpy(m->w, w, sizeof w[0] * (size_t)v->nb);
    snprintf(m->name, sizeof m->name, "%s", name);
}

static void try_arith(struct fstate *st, const struct fopt *pick,
                      struct fvar *v, const char *name)
{
    const struct fsearch *c = &st->c;
    double w[FREQ_BANDS_MAX];
    for (int a = AR_F64; a <= AR_BF16; a++) {
        if ((a == AR_F32 && !c->ff[0].f32) || (a == AR_BF16 && !c->ff[0].bf16))
            continue;
        v->arith = a;
        if (fvar_eval(v, c->s->n, w) != 0)
            return;
        for (int r = 0; r < c->nff; r++) {
            double res = fit(&c->ff[r], w, v->nb, a);
            if (res < 0)
                continue;
            char full[400];
            snprintf(full, sizeof full, "%s", name);
            if (a)
                append(full, sizeof full, a == AR_F32
                       ? "inv_freq computed in float32 as transformers does"
                       : "inv_freq computed in bf16");
            record(st, pick, a, v, w, r, res, full);
            break;
        }
    }
}

static void fvar_config(const struct freq_setup *s, struct fvar *v)
{
    memset(v, 0, sizeof *v);
    v->sc = *s->sc;
    v->dexp = s->d;
    v->nb = s->d / 2;
    v->base = s->base;
    if (s->sc->method == ROPE_PROPORTIONAL)
        v->live = freqsearch_live(s->sc, s->d);
}

/* Build the variant of the picks; 0 when one does not apply. */
static int build(const struct fsearch *c, const struct fopt *pick,
                 struct fvar *v, char *name, size_t len)
{
    fvar_config(c->s, v);
    name[0] = 0;
    for (int a = 0; a < FA_ARITH; a++) {
        char part[200];
        if (pick[a].row == R_COUNT)
            continue;
        if (!apply_row(c, pick[a].row, pick[a].k, v, part, sizeof part))
            return 0;
        append(name, len, part);
    }
    return 1;
}

static void walk(struct fstate *st, struct fopt *pick, int axis, int changes)
{
    if (axis == FA_ARITH) {
        struct fvar v;
        char name[400];
        if (build(&st->c, pick, &v, name, sizeof name))
            try_arith(st, pick, &v, name);
        return;
    }
    pick[axis] = (struct fopt){ R_COUNT, 0 };
    walk(st, pick, axis + 1, changes);
    if (changes >= 2)
        return;
    for (int k = 0; k < st->nopt[axis]; k++) {
        pick[axis] = st->opts[axis][k];
        walk(st, pick, axis + 1, changes + 1);
    }
    pick[axis] = (struct fopt){ R_COUNT, 0 };
}

static void add_base(struct fsearch *c, double b)
{
    for (int i = 0; i < c->nbases; i++)
        if (c->bases[i] == b)
            return;
    if (c->nbases < (int)(sizeof c->bases / sizeof c->bases[0]))
        c->bases[c->nbases++] = b;
}

static void search_init(struct fstate *st, const struct freq_setup *s,
                        const struct freq_found *ff, int nff)
{
    static const double USUAL[] = { 1e5, 1.5e5, 5e5, 1e6, 5e6, 1e7, 1e8,
                                    1e9, 2e4, 5e4 };
    struct fsearch *c = &st->c;
    memset(st, 0, sizeof *st);
    c->s = s;
    c->ff = ff;
    c->nff = nff;
    if (s->head_dim > s->d)
        c->hd[c->nhd++] = s->head_dim;
    else if (s->head_dim <= 0) {        /* fractions 0.5, 0.25, 0.4 */
        c->hd[c->nhd++] = 2 * s->d;
        c->hd[c->nhd++] = 4 * s->d;
        if (s->d % 4 == 0)
            c->hd[c->nhd++] = s->d / 2 * 5;
    }
    for (size_t k = 0; k < sizeof USUAL / sizeof USUAL[0]; k++)
        add_base(c, USUAL[k]);
    for (int i = 0; i < rope_preset_count(); i++)
        add_base(c, rope_preset_at(i)->base);
    for (int r = 0; r < R_ARITH_F32; r++) {
        enum freq_axis a = ROWS[r].axis;
        for (int k = 0; k < row_count(c, (enum fs_row)r) && st->nopt[a] < FS_OPTS; k++)
            st->opts[a][st->nopt[a]++] = (struct fopt){ (enum fs_row)r, k };
    }
}

/* Whether match a's changes are a part of b's (and fewer). */
static int fewer_changes(const struct fmatch *a, const struct fmatch *b)
{
    if (a->changes >= b->changes)
        return 0;
    for (int x = 0; x <= FA_ARITH; x++)
        if (a->pick[x].row != R_COUNT &&
            (a->pick[x].row != b->pick[x].row || a->pick[x].k != b->pick[x].k))
            return 0;
    return 1;
}

static int same_values(const struct fsearch *c, const struct fmatch *a,
                       const struct fmatch *b)
{
    if (a->nb != b->nb || a->changes != b->changes)
        return 0;
    const struct freq_found *ff = &c->ff[a->reading];
    for (int i = 0; i < a->nb; i++)
        if (!freq_within(ff, i, a->w[i], b->w[i], 0))
            return 0;
    return 1;
}

/* The rank of a match's first change: the more plausible explanation
 * (a row earlier in the table) comes first, a head_dim guessed (none
 * known) after the bases. */
static int first_row(const struct fsearch *c, const struct fmatch *m)
{
    for (int a = 0; a <= FA_ARITH; a++) {
        enum fs_row r = m->pick[a].row;
        if (r == R_COUNT)
            continue;
        if ((r == R_DIMS_EXP || r == R_DIMS_PROP || r == R_DIMS_ALL) &&
            c->s->head_dim <= 0)
            return 2 * R_BASE_OTHER + 1;
        return 2 * (int)r;
    }
    return 2 * R_COUNT;
}

/* Whether a comes before b: fewer changes, the more plausible, the
 * smaller residual. */
static int before(const struct fsearch *c, const struct fmatch *a,
                  const struct fmatch *b)
{
    int ra = first_row(c, a), rb = first_row(c, b);
    if (a->changes != b->changes)
        return a->changes < b->changes;
    if (ra != rb)
        return ra < rb;
    return a->residual < b->residual;
}

static void sort_matches(const struct fsearch *c, struct fmatch *m, int n)
{
    static struct fmatch t;
    for (int i = 1; i < n; i++) {
        int j = i;
        t = m[i];
        for (; j > 0 && before(c, &t, &m[j - 1]); j--)
            m[j] = m[j - 1];
        m[j] = t;
    }
}

/* Drop matches that hold a smaller match, sort, name equals together. */
static void report(struct fstate *st, struct freq_check *out)
{
    static struct fmatch keep[4 * FREQ_MATCH_MAX];
    int nk = 0, used[4 * FREQ_MATCH_MAX] = { 0 };
    for (int i = 0; i < st->nm; i++) {
        int red = 0;
        for (int j = 0; j < st->nm && !red; j++)
            red = j != i && fewer_changes(&st->m[j], &st->m[i]);
        if (!red)
            keep[nk++] = st->m[i];
    }
    sort_matches(&st->c, keep, nk);
    for (int i = 0; i < nk && out->nmatch < FREQ_MATCH_MAX; i++) {
        if (used[i])
            continue;
        struct freq_match *m = &out->match[out->nmatch++];
        snprintf(m->name, sizeof m->name, "%s", keep[i].name);
        m->changes = keep[i].changes;
        m->residual = keep[i].residual;
        m->nb = keep[i].nb;
        memcpy(m->omega, keep[i].w, sizeof m->omega[0] * (size_t)keep[i].nb);
        for (int j = i + 1; j < nk; j++)
            if (!used[j] && same_values(&st->c, &keep[i], &keep[j])) {
                used[j] = 1;
                size_t k = strlen(m->name);
                snprintf(m->name + k, sizeof m->name - k, ", equivalently %s",
                         keep[j].name);
            }
        if (out->nmatch == 1) {
            out->shape = st->c.ff[keep[i].reading].shape;
            out->nfound = keep[i].nb;
        }
    }
    for (int i = 0; i < nk; i++)        /* the reference's own arithmetic */
        if (keep[i].changes == 1 && keep[i].pick[FA_ARITH].row == R_ARITH_F32) {
            out->f32_only = 1;
            out->shape = st->c.ff[keep[i].reading].shape;
            out->nfound = keep[i].nb;
            out->f32_residual = keep[i].residual;
        }
}

int freq_search(const struct freq_setup *s, const struct freq_found *ff,
                int nff, struct freq_check *out)
{
    static struct fstate st;
    struct fopt pick[FA_ARITH + 1];
    search_init(&st, s, ff, nff);
    walk(&st, pick, 0, 0);
    report(&st, out);
    if (out->nmatch)
        snprintf(out->variant, sizeof out->variant, "%s", out->match[0].name);
    return out->nmatch;
}
