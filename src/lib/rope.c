/* SPDX-License-Identifier: ISC */
/*
 * rope.c - RoPE frequency scaling methods and model presets
 * (see include/peviz/rope.h for the formulas).
 */
#include "peviz/rope.h"
#include "peviz/fmt.h"
#include "registry_impl.h"
#include "rope_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "peviz/pi.h"

void rope_scaling_default(rope_scaling *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->method = ROPE_NONE;
    sc->factor = 1.0;
    sc->low_freq_factor = ROPE_LOW_FREQ_DEFAULT;
    sc->high_freq_factor = ROPE_HIGH_FREQ_DEFAULT;
    sc->beta_fast = ROPE_BETA_FAST_DEFAULT;
    sc->beta_slow = ROPE_BETA_SLOW_DEFAULT;
    sc->truncate = 1;
    sc->proportion = 1.0;
}

/* ---- the math --------------------------------------------------------- */

double rope_get_mscale(double s, double k)
{
    return s <= 1.0 ? 1.0 : 0.1 * k * log(s) + 1.0;
}

double rope_yarn_corr_dim(double rotations, int d, double base, double L)
{
    return d * log(L / (rotations * 2.0 * PEVIZ_PI)) / (2.0 * log(base));
}

void rope_yarn_bounds(const rope_scaling *sc, int d, double base,
                      double *low, double *high)
{
    double L = (double)sc->original_max;
    double lo = rope_yarn_corr_dim(sc->beta_fast, d, base, L);
    double hi = rope_yarn_corr_dim(sc->beta_slow, d, base, L);
    if (sc->truncate) {
        lo = floor(lo);
        hi = ceil(hi);
    }
    if (lo < 0)
        lo = 0;
    if (hi > d - 1)
        hi = d - 1;
    if (lo == hi)
        hi += 0.001;
    *low = lo;
    *high = hi;
}

/* ---- the methods' hooks ------------------------------------------------ */

/* The one-line message into err (when there is one); returns -1. */
static int refuse(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int refuse(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    if (err && errlen) {
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static double linear_omega(const struct rope_bands *c, int i, double theta,
                           int *rule)
{
    (void)i;
    *rule = c->sc->factor == 1.0 ? ROPE_KEPT : ROPE_INTERPOLATED;
    return theta / c->sc->factor;
}

/* Gemma 4's proportional RoPE (transformers' proportional type): the
 * first int(p d / 2) bands at theta_i = b^(-2i/d) over the whole head
 * dim d, the rest at zero frequency, every band divided by s. */
static double proportional_omega(const struct rope_bands *c, int i,
                                 double theta, int *rule)
{
    int live = (int)floor(c->sc->proportion * c->d / 2.0);
    if (i >= live) {
        *rule = ROPE_STILL;
        return 0.0;
    }
    *rule = c->sc->factor == 1.0 ? ROPE_KEPT : ROPE_INTERPOLATED;
    return theta / c->sc->factor;
}

static int proportional_validate(const rope_scaling *sc, int d, char *err,
                                 size_t errlen)
{
    (void)d;
    if (sc->proportion > 0 && sc->proportion <= 1)
        return 0;
    if (err)
        snprintf(err, errlen, "proportion %g: want a number in (0, 1]",
                 sc->proportion);
    return -1;
}

static void ntk_prepare(struct rope_bands *c)
{
    c->base *= pow(c->sc->factor, (double)c->d / (c->d - 2));
}

static void dynamic_prepare(struct rope_bands *c)
{
    double L = (double)c->sc->original_max, s = c->sc->factor;
    double seq = (double)c->n > L ? (double)c->n : L;
    /* s*seq/L - (s-1), written so that seq = L gives exactly 1 for any s
     * (the other order cancels to 0 once s - 1 rounds to s). */
    c->base *= pow(1.0 + s * ((seq - L) / L), (double)c->d / (c->d - 2));
}

static double rebased_omega(const struct rope_bands *c, int i, double theta,
                            int *rule)
{
    *rule = i == 0 || !c->rebased ? ROPE_KEPT : ROPE_REBASED;
    return theta;
}

/* d/(d-2) needs d >= 4. */
static int ntk_validate(const rope_scaling *sc, int d, char *err,
                        size_t errlen)
{
    if (d < 4)
        return refuse(err, errlen, "rope-scaling %s: d %d; want d >= 4 (it "
                      "uses d/(d-2))", rope_method_name(sc->method), d);
    return 0;
}

static void yarn_prepare(struct rope_bands *c)
{
    rope_yarn_bounds(c->sc, c->d, c->base, &c->lo, &c->hi);
}

static double yarn_omega(const struct rope_bands *c, int i, double theta,
                         int *rule)
{
    double r = (i - c->lo) / (c->hi - c->lo);
    r = r < 0 ? 0 : r > 1 ? 1 : r;
    if (c->sc->ext_complement != 0)     /* the kept share 1 - r, times e */
        r = 1.0 - (1.0 - c->sc->ext_complement) * (1.0 - r);
    *rule = r == 0 ? ROPE_KEPT : r == 1 ? ROPE_INTERPOLATED : ROPE_BLENDED;
    return theta / c->sc->factor * r + theta * (1.0 - r);
}

static double yarn_attention(const rope_scaling *sc)
{
    double s = sc->factor;
    if (sc->attention_factor > 0)
        return sc->attention_factor;
    if (sc->mscale > 0 && sc->mscale_all_dim > 0)
        return rope_get_mscale(s, sc->mscale) /
               rope_get_mscale(s, sc->mscale_all_dim);
    return rope_get_mscale(s, 1.0);
}

static double yarn_softmax(const rope_scaling *sc)
{
    if (sc->mscale_all_dim > 0 && !sc->plain_softmax)
        return rope_get_mscale(sc->factor, sc->mscale_all_dim);
    return 1.0;
}

/* transformers' rule: beta_fast (default 32) at least beta_slow
 * (default 1), both > 0; the ramp runs from the fast bound up. */
static int yarn_validate(const rope_scaling *sc, int d, char *err,
                         size_t errlen)
{
    char b[32], h[32];
    (void)d;
    fmt_num(sc->beta_fast, 10, b, sizeof b);
    fmt_num(sc->beta_slow, 10, h, sizeof h);
    if (!(sc->beta_slow > 0))
        return refuse(err, errlen, "beta-slow %s: want a finite number > 0", h);
    if (!(sc->beta_fast >= sc->beta_slow) || !isfinite(sc->beta_fast))
        return refuse(err, errlen, "beta-fast %s: want a number at least "
                      "beta-slow %s", b, h);
    if (!(sc->ext_complement >= 0 && sc->ext_complement <= 1)) {
        fmt_num(1.0 - sc->ext_complement, 10, b, sizeof b);
        return refuse(err, errlen, "extrapolation factor %s: want a number "
                      "in 0..1", b);
    }
    return 0;
}

static double llama3_omega(const struct rope_bands *c, int i, double theta,
                           int *rule)
{
    const rope_scaling *sc = c->sc;
    double L = (double)sc->original_max, s = sc->factor;
    double lf = sc->low_freq_factor, hf = sc->high_freq_factor;
    double w = 2.0 * PEVIZ_PI / theta;
    (void)i;
    if (w < L / hf) {
        *rule = ROPE_KEPT;
        return theta;
    }
    if (w > L / lf) {
        *rule = ROPE_INTERPOLATED;
        return theta / s;
    }
    if (hf == lf) {         /* w = L/low = L/high exactly: the limit from
                               the high side (k = 1), not 0/0 */
        *rule = ROPE_KEPT;
        return theta;
    }
    double k = (L / w - lf) / (hf - lf);
    *rule = ROPE_BLENDED;
    return (1.0 - k) * theta / s + k * theta;
}

static int llama3_validate(const rope_scaling *sc, int d, char *err,
                           size_t errlen)
{
    char b[32], h[32];
    (void)d;
    fmt_num(sc->low_freq_factor, 10, b, sizeof b);
    fmt_num(sc->high_freq_factor, 10, h, sizeof h);
    if (!(sc->low_freq_factor > 0))
        return refuse(err, errlen, "low-freq-factor %s: want a finite "
                      "number > 0", b);
    if (!(sc->low_freq_factor <= sc->high_freq_factor) ||
        !isfinite(sc->high_freq_factor))
        return refuse(err, errlen, "low-freq-factor %s: want a number at "
                      "most high-freq-factor %s", b, h);
    return 0;
}

static void longrope_prepare(struct rope_bands *c)
{
    c->f = (double)c->n > (double)c->sc->original_max ? c->sc->long_factor
                                                      : c->sc->short_factor;
}

/* f_i = 1 keeps, s interpolates, between blends. */
static double longrope_omega(const struct rope_bands *c, int i, double theta,
                             int *rule)
{
    double f = c->f[i], s = c->sc->factor;
    *rule = f == 1.0 ? ROPE_KEPT : f == s ? ROPE_INTERPOLATED
          : f > 1.0 && f < s ? ROPE_BLENDED : ROPE_RESCALED;
    return theta / f;
}

static double longrope_attention(const rope_scaling *sc)
{
    double s = sc->factor;
    if (sc->attention_factor > 0)
        return sc->attention_factor;
    if (s <= 1.0 || sc->original_max < 2)
        return 1.0;
    return sqrt(1.0 + log(s) / log((double)sc->original_max));
}

static int longrope_validate(const rope_scaling *sc, int d, char *err,
                             size_t errlen)
{
    int half = d / 2;
    if (half > ROPE_FACTORS_MAX)
        return refuse(err, errlen, "rope-scaling longrope: d %d has %d "
                      "bands; want d <= %d (at most %d factors)", d, half,
                      2 * ROPE_FACTORS_MAX, ROPE_FACTORS_MAX);
    if (sc->nshort != half || sc->nlong != half) {
        int bad_short = sc->nshort != half;
        return refuse(err, errlen, "%s: %d values; want exactly d/2 = %d "
                      "for rope-scaling longrope", bad_short ? "short-factor"
                      : "long-factor", bad_short ? sc->nshort : sc->nlong,
                      half);
    }
    return 0;
}

/* ---- the method table ------------------------------------------------- */

/*
 * Adding a method (tests/recipes.sh tries it with an omega hook): its row
 * at the end, with designated initialisers (struct rope_method_info,
 * peviz/rope.h: name, title, formula and formula_ascii, factor_min_one,
 * needs_original, alias, reads_n; no enum rope_method value or .method:
 * only rows that other code refers to need them) and its hooks as static
 * functions here or in a file of their own under src/lib/ (declared in
 * rope_impl.h): prepare, omega, attention_factor, softmax_factor and
 * validate, each optional.  Settings rope_scaling does not hold need a
 * field there, an option in src/params.c (enum rope_opt) and a key in the
 * config readers. Then make docs (the method lists of the README and the
 * man page), its omega and attention factor against worked values in
 * tests/lib/test_rope.c and a case in tests/rope.sh.  rope_method_register
 * adds one at run time.
 */

const struct rope_method_info ROPE_METHODS[] = {
    [ROPE_NONE] = { .method = ROPE_NONE, .name = "none",
      .title = "no scaling",
      .formula = "\xcf\x89\xe1\xb5\xa2 = \xce\xb8\xe1\xb5\xa2 = b^(\xe2\x88\x92" "2i/d)",
      .formula_ascii = "w_i = theta_i = b^(-2i/d)", .alias = "default" },
    [ROPE_LINEAR] = { .method = ROPE_LINEAR, .name = "linear",
      .title = "position interpolation",
      .formula = "\xcf\x89\xe1\xb5\xa2 = \xce\xb8\xe1\xb5\xa2 / s",
      .formula_ascii = "w_i = theta_i / s", .omega = linear_omega },
    [ROPE_NTK] = { .method = ROPE_NTK, .name = "ntk",
      .title = "NTK-aware base change",
      .formula = "b\xe2\x80\xb2 = b\xc2\xb7s^(d/(d\xe2\x88\x92" "2)), "
      "\xcf\x89\xe1\xb5\xa2 = b\xe2\x80\xb2^(\xe2\x88\x92" "2i/d)",
      .formula_ascii = "b' = b*s^(d/(d-2)), w_i = b'^(-2i/d)",
      .prepare = ntk_prepare, .omega = rebased_omega,
      .validate = ntk_validate },
    [ROPE_DYNAMIC] = { .method = ROPE_DYNAMIC, .name = "dynamic",
      .title = "dynamic NTK",
      .formula = "b\xe2\x80\xb2 = b\xc2\xb7(s\xc2\xb7max(n,L)/L \xe2\x88\x92 (s\xe2\x88\x92" "1))^(d/(d\xe2\x88\x92" "2))",
      .formula_ascii = "b' = b*(s*max(n,L)/L - (s-1))^(d/(d-2))",
      .factor_min_one = 1, .needs_original = 1, .reads_n = 1,
      .prepare = dynamic_prepare, .omega = rebased_omega,
      .validate = ntk_validate },
    [ROPE_YARN] = { .method = ROPE_YARN, .name = "yarn",
      .title = "YaRN: NTK-by-parts + temperature",
      .formula = "\xcf\x89\xe1\xb5\xa2 = \xce\xb8\xe1\xb5\xa2\xc2\xb7(1\xe2\x88\x92r\xe1\xb5\xa2) + "
      "\xce\xb8\xe1\xb5\xa2/s\xc2\xb7r\xe1\xb5\xa2, r\xe1\xb5\xa2 = clamp((i\xe2\x88\x92lo)/(hi\xe2\x88\x92lo)), "
      "a = 0.1\xc2\xb7ln s + 1",
      .formula_ascii = "w_i = theta_i*(1-r_i) + theta_i/s*r_i, "
      "r_i = clamp((i-lo)/(hi-lo)), a = 0.1*ln s + 1",
      .factor_min_one = 1, .needs_original = 1,
      .prepare = yarn_prepare, .omega = yarn_omega,
      .attention_factor = yarn_attention, .softmax_factor = yarn_softmax,
      .validate = yarn_validate },
    [ROPE_LLAMA3] = { .method = ROPE_LLAMA3, .name = "llama3",
      .title = "Llama 3 band-wise rule",
      .formula = "\xce\xbb < L/h: \xce\xb8\xe1\xb5\xa2; \xce\xbb > L/l: \xce\xb8\xe1\xb5\xa2/s; "
      "else (1\xe2\x88\x92k)\xce\xb8\xe1\xb5\xa2/s + k\xce\xb8\xe1\xb5\xa2, k = (L/\xce\xbb \xe2\x88\x92 l)/(h \xe2\x88\x92 l)",
      .formula_ascii = "lambda < L/h: theta_i; lambda > L/l: theta_i/s; "
      "else (1-k)theta_i/s + k theta_i, k = (L/lambda - l)/(h - l)",
      .factor_min_one = 1, .needs_original = 1,
      .omega = llama3_omega, .validate = llama3_validate },
    [ROPE_LONGROPE] = { .method = ROPE_LONGROPE, .name = "longrope",
      .title = "LongRoPE per-band factors",
      .formula = "\xcf\x89\xe1\xb5\xa2 = \xce\xb8\xe1\xb5\xa2/f\xe1\xb5\xa2 (f = long if n > L, else short), "
      "a = \xe2\x88\x9a(1 + ln s/ln L)",
      .formula_ascii = "w_i = theta_i/f_i (f = long if n > L, else short), "
      "a = sqrt(1 + ln s/ln L)",
      .factor_min_one = 1, .needs_original = 1, .alias = "su", .reads_n = 1,
      .prepare = longrope_prepare, .omega = longrope_omega,
      .attention_factor = longrope_attention, .validate = longrope_validate },
    [ROPE_PROPORTIONAL] = { .method = ROPE_PROPORTIONAL, .name = "proportional",
      .title = "proportional RoPE (Gemma 4)",
      .formula = "\xcf\x89\xe1\xb5\xa2 = \xce\xb8\xe1\xb5\xa2/s for i < \xe2\x8c\x8a" "p\xc2\xb7" "d/2\xe2\x8c\x8b, else 0",
      .formula_ascii = "w_i = theta_i/s for i < floor(p*d/2), else 0",
      .omega = proportional_omega, .validate = proportional_validate },
};

/* The built-in rows, then those registered at run time. */
static const void *extra[ROPE_METHOD_MAX];
static struct registry table = {
    ROPE_METHODS, sizeof ROPE_METHODS[0],
    sizeof ROPE_METHODS / sizeof ROPE_METHODS[0], extra, ROPE_METHOD_MAX, 0
};

int rope_method_count(void)
{
    return registry_count(&table);
}

const struct rope_method_info *rope_method_info(int m)
{
    return registry_row(&table, m);
}

int rope_method_register(const struct rope_method_info *mi)
{
    if (!mi || !mi->name || !mi->name[0] || rope_method_parse(mi->name) >= 0
        || (mi->alias && rope_method_parse(mi->alias) >= 0))
        return -1;
    return registry_add(&table, mi);
}

int rope_method_parse(const char *name)
{
    for (int m = 0; name && m < rope_method_count(); m++) {
        const struct rope_method_info *mi = rope_method_info(m);
        if (strcmp(name, mi->name) == 0
            || (mi->alias && strcmp(name, mi->alias) == 0))
            return m;
    }
    return -1;
}

const char *rope_method_name(enum rope_method m)
{
    const struct rope_method_info *mi = rope_method_info((int)m);
    return mi ? mi->name : "?";
}

const char *rope_method_names(char *buf, size_t len, const char *sep_last)
{
    const char *names[ROPE_METHOD_MAX];
    for (int m = 0; m < rope_method_count(); m++)
        names[m] = rope_method_info(m)->name;
    return fmt_names(buf, len, names, rope_method_count(), sep_last);
}

const char *rope_rule_name(enum rope_rule r)
{
    static const char *const names[ROPE_RULE_COUNT] = {
        "kept", "blended", "interpolated", "rebased", "rescaled", "still"
    };
    return (unsigned)r < ROPE_RULE_COUNT ? names[r] : "?";
}

const char *rope_rule_abbrev(enum rope_rule r)
{
    static const char *const names[ROPE_RULE_COUNT] = {
        "kept", "blend", "interp", "rebase", "rescale", "still"
    };
    return (unsigned)r < ROPE_RULE_COUNT ? names[r] : "?";
}

/* ---- the validator and the evaluation ---------------------------------- */

int rope_check(const rope_scaling *sc, int d, double base, char *err,
               size_t errlen)
{
    const struct rope_method_info *mi = rope_method_info((int)sc->method);
    char b[32];
    if (!mi)
        return refuse(err, errlen, "rope-scaling: method %d is unknown",
                      (int)sc->method);
    if (d < 2 || d % 2)
        return refuse(err, errlen, "d %d: want an even number >= 2", d);
    fmt_num(base, 10, b, sizeof b);
    if (!(base > 1.0) || !isfinite(base))
        return refuse(err, errlen, "base %s: want a finite number > 1", b);
    fmt_num(sc->factor, 10, b, sizeof b);
    if (!(sc->factor > 0) || !isfinite(sc->factor))
        return refuse(err, errlen, "factor %s: want a finite number > 0", b);
    if (mi->factor_min_one && sc->factor < 1)
        return refuse(err, errlen, "factor %s: want a number >= 1 with "
                      "rope-scaling %s", b, mi->name);
    if (mi->needs_original && sc->original_max < 1)
        return refuse(err, errlen, "rope-scaling %s: needs original-max (the "
                      "trained length L, a whole number in 1..2147483647)",
                      mi->name);
    return mi->validate ? mi->validate(sc, d, err, errlen) : 0;
}

/* What every band shares, once per evaluation (sc's method known). */
static void bands_make(struct rope_bands *c, const rope_scaling *sc, int d,
                       double base, int64_t n)
{
    const struct rope_method_info *mi = rope_method_info((int)sc->method);
    *c = (struct rope_bands){ .sc = sc, .d = d, .n = n, .base = base };
    if (mi && mi->prepare)
        mi->prepare(c);
    c->rebased = c->base != base;   /* dynamic at n <= L, or s = 1, keeps it */
}

static double band(const struct rope_bands *c, int i, int *rule)
{
    const struct rope_method_info *mi = rope_method_info((int)c->sc->method);
    double theta = pow(c->base, -2.0 * i / c->d);
    *rule = ROPE_KEPT;
    return mi->omega ? mi->omega(c, i, theta, rule) : theta;
}

double rope_effective_base(const rope_scaling *sc, int d, double base,
                           int64_t n)
{
    struct rope_bands c;
    bands_make(&c, sc, d, base, n);
    return c.base;
}

void rope_eval(const rope_scaling *sc, int d, double base, int64_t n,
               double *omega, unsigned char *rule)
{
    struct rope_bands c;
    bands_make(&c, sc, d, base, n);
    for (int i = 0; i < d / 2; i++) {
        int r;
        omega[i] = band(&c, i, &r);
        if (rule)
            rule[i] = (unsigned char)r;
    }
}

double rope_omega(const rope_scaling *sc, int d, double base, int64_t n,
                  int i, int *rule)
{
    struct rope_bands c;
    int r;
    if (rope_check(sc, d, base, NULL, 0) || n < 1 || i < 0 || i >= d / 2)
        return NAN;
    bands_make(&c, sc, d, base, n);
    double w = band(&c, i, &r);
    if (rule)
        *rule = r;
    return w;
}

int rope_inv_freq(const rope_scaling *sc, int d, double base, int64_t n,
                  double *omega, unsigned char *rule)
{
    if (rope_check(sc, d, base, NULL, 0) || n < 1)
        return -1;
    rope_eval(sc, d, base, n, omega, rule);
    return 0;
}

double rope_attention_factor(const rope_scaling *sc)
{
    const struct rope_method_info *mi = rope_method_info((int)sc->method);
    return mi && mi->attention_factor ? mi->attention_factor(sc) : 1.0;
}

double rope_score_multiplier(const rope_scaling *sc)
{
    const struct rope_method_info *mi = rope_method_info((int)sc->method);
    double a = rope_attention_factor(sc);
    double m = mi && mi->softmax_factor ? mi->softmax_factor(sc) : 1.0;
    return a * a * m * m;
}

/* ---- model presets ---------------------------------------------------- */

/* microsoft/Phi-3.5-mini-instruct config.json: hidden_size 3072,
 * num_attention_heads 32 (head_dim 96, all of it rotary), rope_theta
 * 10000.0, original_max_position_embeddings 4096, max_position_embeddings
 * 131072 (factor 131072 / 4096 = 32), rope_scaling {"type": "longrope",
 * "short_factor": [...], "long_factor": [...]}: the lists below */
static const double PHI35_SHORT[] = {
    1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705,
    1.0499999523162842, 1.0499999523162842, 1.0499999523162842,
    1.0499999523162842, 1.0499999523162842, 1.0699999332427979,
    1.0999999046325684, 1.1099998950958252, 1.1599998474121094,
    1.1599998474121094, 1.1699998378753662, 1.2899998426437378,
    1.339999794960022, 1.679999828338623, 1.7899998426437378,
    1.8199998140335083, 1.8499997854232788, 1.8799997568130493,
    1.9099997282028198, 1.9399996995925903, 1.9899996519088745,
    2.0199997425079346, 2.0199997425079346, 2.0199997425079346,
    2.0199997425079346, 2.0199997425079346, 2.0199997425079346,
    2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
    2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
    2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
    2.0799996852874756, 2.0899996757507324, 2.189999580383301,
    2.2199995517730713, 2.5899994373321533, 2.729999542236328,
    2.749999523162842, 2.8399994373321533,
};
static const double PHI35_LONG[] = {
    1.0800000429153442, 1.1100000143051147, 1.1399999856948853,
    1.340000033378601, 1.5899999141693115, 1.600000023841858,
    1.6200000047683716, 2.620000123977661, 3.2300000190734863,
    3.2300000190734863, 4.789999961853027, 7.400000095367432,
    7.700000286102295, 9.09000015258789, 12.199999809265137,
    17.670000076293945, 24.46000099182129, 28.57000160217285,
    30.420001983642578, 30.840002059936523, 32.590003967285156,
    32.93000411987305, 42.320003509521484, 44.96000289916992,
    50.340003967285156, 50.45000457763672, 57.55000305175781,
    57.93000411987305, 58.21000289916992, 60.1400032043457,
    62.61000442504883, 62.62000274658203, 62.71000289916992,
    63.1400032043457, 63.1400032043457, 63.77000427246094,
    63.93000411987305, 63.96000289916992, 63.970001220703125,
    64.02999877929688, 64.06999969482422, 64.08000183105469,
    64.12000274658203, 64.41000366210938, 64.4800033569336,
    64.51000213623047, 64.52999877929688, 64.83999633789062,
};

/* microsoft/Phi-4-mini-instruct config.json: hidden_size 3072,
 * num_attention_heads 24 (head_dim 128), partial_rotary_factor 0.75 (96
 * rotary dims), rope_theta 10000.0, original_max_position_embeddings
 * 4096, max_position_embeddings 131072, rope_scaling {"type":
 * "longrope"}: short_factor 1.0 for every band, long_factor below */
static const double PHI4_SHORT[] = {
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
};
static const double PHI4_LONG[] = {
    1, 1.118320672, 1.250641126, 1.398617824, 1.564103225, 1.74916897,
    1.956131817, 2.187582649, 2.446418898, 2.735880826, 3.059592084,
    3.421605075, 3.826451687, 4.279200023, 4.785517845, 5.351743533,
    5.984965424, 6.693110555, 7.485043894, 8.370679318, 9.36110372,
    10.4687158, 11.70738129, 13.09260651, 14.64173252, 16.37415215,
    18.31155283, 20.47818807, 22.90118105, 25.61086418, 28.64115884,
    32.03, 32.1, 32.13, 32.23, 32.6, 32.61, 32.64, 32.66, 32.7, 32.71,
    32.93, 32.97, 33.28, 33.49, 33.5, 44.16, 47.77,
};
#define NFACTORS(a) ((int)(sizeof a / sizeof a[0]))

static const struct rope_preset PRESETS[] = {
    { .name = "llama2-7b", .d = 128, .head_dim = 128, .base = 1e4,
      .method = ROPE_NONE, .factor = 1, .original_max = 4096,
      .note = "trained 4096", .max_context = 4096 },
    { .name = "llama3-8b", .d = 128, .head_dim = 128, .base = 5e5,
      .method = ROPE_NONE, .factor = 1, .original_max = 8192,
      .note = "trained 8192", .max_context = 8192 },
    { .name = "llama3.1-8b", .d = 128, .head_dim = 128, .base = 5e5,
      .method = ROPE_LLAMA3, .factor = 8, .original_max = 8192,
      .low_freq_factor = 1, .high_freq_factor = 4, .note = "Llama 3.1 rule",
      .max_context = 131072 },
    { .name = "llama3.2-1b", .d = 64, .head_dim = 64, .base = 5e5,
      .method = ROPE_LLAMA3, .factor = 32, .original_max = 8192,
      .low_freq_factor = 1, .high_freq_factor = 4, .note = "Llama 3.2 1B/3B",
      .max_context = 131072 },
    { .name = "mistral-7b-v0.1", .d = 128, .head_dim = 128, .base = 1e4,
      .method = ROPE_NONE, .factor = 1, .note = "sliding window 4096",
      .window = 4096,       /* mistralai/Mistral-7B-v0.1 config.json */
      .max_context = 32768 },
    { .name = "mistral-7b-v0.2", .d = 128, .head_dim = 128, .base = 1e6,
      .method = ROPE_NONE, .factor = 1, .original_max = 32768,
      .note = "trained 32768", .max_context = 32768 },
    { .name = "qwen2.5-7b", .d = 128, .head_dim = 128, .base = 1e6,
      .method = ROPE_NONE, .factor = 1, .original_max = 32768,
      .note = "trained 32768", .max_context = 32768 },
    { .name = "qwen2.5-7b-yarn", .d = 128, .head_dim = 128, .base = 1e6,
      .method = ROPE_YARN, .factor = 4, .original_max = 32768,
      .note = "static YaRN", .max_context = 131072 },
    /* Gemma 3 (transformers, configuration_gemma3.py): layer_types
     * "sliding_attention" and "full_attention", one full layer in
     * sliding_window_pattern 6 */
    { .name = "gemma3-global", .d = 256, .head_dim = 256, .base = 1e6,
      .method = ROPE_LINEAR, .factor = 8, .note = "global layers",
      .max_context = 131072,
      .layer_type = "full_attention", .other_layers = "sliding_attention" },
    { .name = "gemma3-local", .d = 256, .head_dim = 256, .base = 1e4,
      .method = ROPE_NONE, .factor = 1, .note = "sliding layers",
      .max_context = 131072,
      .window = 1024,       /* google/gemma-3-4b-it text_config sliding_window */
      .layer_type = "sliding_attention", .other_layers = "full_attention" },
    { .name = "gpt-oss-20b", .d = 64, .head_dim = 64, .base = 150000,
      .method = ROPE_YARN, .factor = 32, .original_max = 4096,
      .beta_fast = 32, .beta_slow = 1, .no_truncate = 1,
      .note = "no truncation", .max_context = 131072 },
    { .name = "gpt-neox-20b", .d = 24, .head_dim = 96, .base = 1e4,
      .method = ROPE_NONE, .factor = 1, .original_max = 2048,
      .note = "rotary_pct 0.25, trained 2048", .max_context = 2048 },
    { .name = "deepseek-v3", .d = 64, .head_dim = 64, .base = 1e4,
      .method = ROPE_YARN, .factor = 40, .original_max = 4096,
      .beta_fast = 32, .beta_slow = 1, .mscale = 1, .mscale_all_dim = 1,
      .note = "MLA rope part", .max_context = 163840 },
    { .name = "qwen2-vl-7b", .d = 128, .head_dim = 128, .base = 1e6,
      .method = ROPE_NONE, .factor = 1, .original_max = 32768,
      .note = "M-RoPE 16,24,24", .max_context = 32768 },
    { .name = "qwen2.5-vl-7b", .d = 128, .head_dim = 128, .base = 1e6,
      .method = ROPE_NONE, .factor = 1, .original_max = 128000,
      .note = "M-RoPE 16,24,24, 2 tokens/s", .max_context = 128000 },
    { .name = "qwen3-vl", .d = 128, .head_dim = 128, .base = 5e6,
      .method = ROPE_NONE, .factor = 1, .original_max = 262144,
      .note = "M-RoPE interleaved 24,20,20", .max_context = 262144 },
    { .name = "llama4-scout", .d = 128, .head_dim = 128, .base = 5e5,
      .method = ROPE_LLAMA3, .factor = 16, .original_max = 8192,
      .low_freq_factor = 1, .high_freq_factor = 1,
      .note = "NoPE every 4th layer", .max_context = 10485760,
      .nope_every = 4,
      .chunk = 8192,    /* its RoPE layers: text_config attention_chunk_size */
      .layer_type = "rope", .other_layers = "nope" },
    /* Qwen3-8B: config.json rope_theta 1000000, head_dim 128,
     * max_position_embeddings 40960, rope_scaling null; its model card's
     * long-text block is rope_scaling {"rope_type": "yarn", "factor": 4.0,
     * "original_max_position_embeddings": 32768}, for 131072 tokens */
    { .name = "qwen3-8b-yarn", .d = 128, .head_dim = 128, .base = 1e6,
      .method = ROPE_YARN, .factor = 4, .original_max = 32768,
      .note = "model card's YaRN x4", .max_context = 131072 },
    /* Gemma 4 (google/gemma-4-12B-it text_config): head_dim 256,
     * global_head_dim 512, sliding_window 1024; rope_parameters
     * full_attention {"rope_type": "proportional", "partial_rotary_factor":
     * 0.25, "rope_theta": 1000000}, sliding_attention {"rope_type":
     * "default", "rope_theta": 10000}; max_position_embeddings 131072 */
    { .name = "gemma4-full", .d = 512, .head_dim = 512, .base = 1e6,
      .method = ROPE_PROPORTIONAL, .factor = 1, .proportion = 0.25,
      .note = "full layers, 64 of 256 bands turn", .max_context = 131072,
      .layer_type = "full_attention", .other_layers = "sliding_attention" },
    { .name = "gemma4-sliding", .d = 256, .head_dim = 256, .base = 1e4,
      .method = ROPE_NONE, .factor = 1, .note = "sliding layers, window 1024",
      .max_context = 131072, .window = 1024,
      .layer_type = "sliding_attention", .other_layers = "full_attention" },
    /* Kimi K2.5 (moonshotai/Kimi-K2.5 config.json, text_config, as
     * transformers 5.7 writes it): DeepseekV3ForCausalLM, qk_rope_head_dim
     * 64, rope_parameters {"rope_type": "yarn", "factor": 64.0,
     * "beta_fast": 32.0, "beta_slow": 1.0, "mscale": 1.0, "mscale_all_dim":
     * 1.0, "original_max_position_embeddings": 4096, "rope_theta":
     * 50000.0}, max_position_embeddings 262144 */
    { .name = "kimi-k2.5", .d = 64, .head_dim = 64, .base = 50000,
      .method = ROPE_YARN, .factor = 64, .original_max = 4096,
      .beta_fast = 32, .beta_slow = 1, .mscale = 1, .mscale_all_dim = 1,
      .note = "MLA rope part", .max_context = 262144 },
    /* DeepSeek V3.2 (its reference inference config, model_type
     * deepseek_v32): qk_rope_head_dim 64, rope_theta 10000, rope_factor 40,
     * original_seq_len 4096, beta_fast 32, beta_slow 1, mscale 1.0 (the
     * softmax scale times m(40, 1)^2: mscale and mscale_all_dim 1 in
     * transformers' terms); the context rope_factor x original_seq_len */
    { .name = "deepseek-v3.2", .d = 64, .head_dim = 64, .base = 1e4,
      .method = ROPE_YARN, .factor = 40, .original_max = 4096,
      .beta_fast = 32, .beta_slow = 1, .mscale = 1, .mscale_all_dim = 1,
      .note = "MLA rope part", .max_context = 163840 },
    /* Qwen3.5 (Qwen3.5-0.8B config.json, text_config): head_dim 256,
     * rope_parameters {"rope_type": "default", "rope_theta": 10000000,
     * "partial_rotary_factor": 0.25, "mrope_interleaved": true,
     * "mrope_section": [11, 11, 10]}, full_attention_interval 4,
     * max_position_embeddings 262144 */
    { .name = "qwen3.5", .d = 64, .head_dim = 256, .base = 1e7,
      .method = ROPE_NONE, .factor = 1, .original_max = 262144,
      .note = "M-RoPE interleaved 11,11,10", .max_context = 262144 },
    /* GLM-4.5-Air (Glm4MoeConfig as loaded from its config.json): head_dim
     * 128, partial_rotary_factor 0.5, rope_theta 1000000, rope_scaling
     * null, max_position_embeddings 131072 */
    { .name = "glm-4.5-air", .d = 64, .head_dim = 128, .base = 1e6,
      .method = ROPE_NONE, .factor = 1, .original_max = 131072,
      .note = "rotary 0.5 of head_dim", .max_context = 131072 },
    { .name = "phi-3.5-mini", .d = 96, .head_dim = 96, .base = 1e4,
      .method = ROPE_LONGROPE, .factor = 32, .original_max = 4096,
      .nfactors = NFACTORS(PHI35_SHORT), .short_factor = PHI35_SHORT,
      .long_factor = PHI35_LONG, .note = "LongRoPE, trained 4096",
      .max_context = 131072 },
    { .name = "phi-4-mini", .d = 96, .head_dim = 128, .base = 1e4,
      .method = ROPE_LONGROPE, .factor = 32, .original_max = 4096,
      .nfactors = NFACTORS(PHI4_SHORT), .short_factor = PHI4_SHORT,
      .long_factor = PHI4_LONG, .note = "LongRoPE, rotary 0.75 of head_dim",
      .max_context = 131072 },
};
#define NPRESETS ((int)(sizeof PRESETS / sizeof PRESETS[0]))

int rope_preset_nope_layer(const struct rope_preset *p, int l)
{
    return p && p->nope_every > 0 && l >= 0 && (l + 1) % p->nope_every == 0;
}

int rope_preset_count(void)
{
    return NPRESETS;
}

const struct rope_preset *rope_preset_at(int i)
{
    return i >= 0 && i < NPRESETS ? &PRESETS[i] : NULL;
}

const struct rope_preset *rope_preset_find(const char *name)
{
    for (int i = 0; name && i < NPRESETS; i++)
        if (strcmp(PRESETS[i].name, name) == 0)
            return &PRESETS[i];
    return NULL;
}

/* The longrope lists of p, as config.json gives them. */
static void rope_preset_factors(const struct rope_preset *p, rope_scaling *sc)
{
    int n = p->nfactors < ROPE_FACTORS_MAX ? p->nfactors : ROPE_FACTORS_MAX;
    if (n < 1 || !p->short_factor || !p->long_factor)
        return;
    memcpy(sc->short_factor, p->short_factor, (size_t)n * sizeof *sc->short_factor);
    memcpy(sc->long_factor, p->long_factor, (size_t)n * sizeof *sc->long_factor);
    sc->nshort = sc->nlong = n;
}

/* A preset's value where it gives one (above 0), else the default. */
static double preset_value(double given, double dflt)
{
    return given > 0 ? given : dflt;
}

void rope_preset_scaling(const struct rope_preset *p, rope_scaling *sc)
{
    rope_scaling_default(sc);
    sc->method = p->method;
    sc->factor = p->factor;
    sc->original_max = p->original_max;
    sc->low_freq_factor = preset_value(p->low_freq_factor,
                                       sc->low_freq_factor);
    sc->high_freq_factor = preset_value(p->high_freq_factor,
                                        sc->high_freq_factor);
    sc->beta_fast = preset_value(p->beta_fast, sc->beta_fast);
    sc->beta_slow = preset_value(p->beta_slow, sc->beta_slow);
    sc->truncate = !p->no_truncate;
    sc->mscale = p->mscale;
    sc->mscale_all_dim = p->mscale_all_dim;
    sc->proportion = preset_value(p->proportion, sc->proportion);
    rope_preset_factors(p, sc);
}
