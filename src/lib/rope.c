/*
 * rope.c - RoPE frequency scaling methods and model presets
 * (see include/peviz/rope.h for the formulas).
 */
#include "peviz/rope.h"

#include <math.h>
#include <string.h>

#define ROPE_PI 3.14159265358979323846

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
}

/* ---- the method table ------------------------------------------------- */

const struct rope_method_info ROPE_METHODS[ROPE_METHOD_COUNT] = {
    { ROPE_NONE, "none", "no scaling",
      "\xcf\x89\xe1\xb5\xa2 = \xce\xb8\xe1\xb5\xa2 = b^(\xe2\x88\x92" "2i/d)",
      "w_i = theta_i = b^(-2i/d)", 0, 0 },
    { ROPE_LINEAR, "linear", "position interpolation",
      "\xcf\x89\xe1\xb5\xa2 = \xce\xb8\xe1\xb5\xa2 / s",
      "w_i = theta_i / s", 0, 0 },
    { ROPE_NTK, "ntk", "NTK-aware base change",
      "b\xe2\x80\xb2 = b\xc2\xb7s^(d/(d\xe2\x88\x92" "2)), "
      "\xcf\x89\xe1\xb5\xa2 = b\xe2\x80\xb2^(\xe2\x88\x92" "2i/d)",
      "b' = b*s^(d/(d-2)), w_i = b'^(-2i/d)", 0, 0 },
    { ROPE_DYNAMIC, "dynamic", "dynamic NTK",
      "b\xe2\x80\xb2 = b\xc2\xb7(s\xc2\xb7max(n,L)/L \xe2\x88\x92 (s\xe2\x88\x92" "1))^(d/(d\xe2\x88\x92" "2))",
      "b' = b*(s*max(n,L)/L - (s-1))^(d/(d-2))", 1, 1 },
    { ROPE_YARN, "yarn", "YaRN: NTK-by-parts + temperature",
      "\xcf\x89\xe1\xb5\xa2 = \xce\xb8\xe1\xb5\xa2\xc2\xb7(1\xe2\x88\x92r\xe1\xb5\xa2) + "
      "\xce\xb8\xe1\xb5\xa2/s\xc2\xb7r\xe1\xb5\xa2, r\xe1\xb5\xa2 = clamp((i\xe2\x88\x92lo)/(hi\xe2\x88\x92lo)), "
      "a = 0.1\xc2\xb7ln s + 1",
      "w_i = theta_i*(1-r_i) + theta_i/s*r_i, r_i = clamp((i-lo)/(hi-lo)), "
      "a = 0.1*ln s + 1", 1, 1 },
    { ROPE_LLAMA3, "llama3", "Llama 3 band-wise rule",
      "\xce\xbb < L/h: \xce\xb8\xe1\xb5\xa2; \xce\xbb > L/l: \xce\xb8\xe1\xb5\xa2/s; "
      "else (1\xe2\x88\x92k)\xce\xb8\xe1\xb5\xa2/s + k\xce\xb8\xe1\xb5\xa2, k = (L/\xce\xbb \xe2\x88\x92 l)/(h \xe2\x88\x92 l)",
      "lambda < L/h: theta_i; lambda > L/l: theta_i/s; "
      "else (1-k)theta_i/s + k theta_i, k = (L/lambda - l)/(h - l)", 1, 1 },
    { ROPE_LONGROPE, "longrope", "LongRoPE per-band factors",
      "\xcf\x89\xe1\xb5\xa2 = \xce\xb8\xe1\xb5\xa2/f\xe1\xb5\xa2 (f = long if n > L, else short), "
      "a = \xe2\x88\x9a(1 + ln s/ln L)",
      "w_i = theta_i/f_i (f = long if n > L, else short), a = sqrt(1 + ln s/ln L)",
      1, 1 },
};

int rope_method_parse(const char *name)
{
    if (!name)
        return -1;
    for (int m = 0; m < ROPE_METHOD_COUNT; m++)
        if (strcmp(name, ROPE_METHODS[m].name) == 0)
            return m;
    if (strcmp(name, "default") == 0)
        return ROPE_NONE;
    if (strcmp(name, "su") == 0)
        return ROPE_LONGROPE;
    return -1;
}

const char *rope_method_name(enum rope_method m)
{
    return (unsigned)m < ROPE_METHOD_COUNT ? ROPE_METHODS[m].name : "?";
}

const char *rope_rule_name(enum rope_rule r)
{
    static const char *const names[ROPE_RULE_COUNT] = {
        "kept", "blended", "interpolated", "rebased", "rescaled"
    };
    return (unsigned)r < ROPE_RULE_COUNT ? names[r] : "?";
}

const char *rope_rule_abbrev(enum rope_rule r)
{
    static const char *const names[ROPE_RULE_COUNT] = {
        "kept", "blend", "interp", "rebase", "rescale"
    };
    return (unsigned)r < ROPE_RULE_COUNT ? names[r] : "?";
}

/* ---- the math --------------------------------------------------------- */

double rope_get_mscale(double s, double k)
{
    return s <= 1.0 ? 1.0 : 0.1 * k * log(s) + 1.0;
}

double rope_yarn_corr_dim(double rotations, int d, double base, double L)
{
    return d * log(L / (rotations * 2.0 * ROPE_PI)) / (2.0 * log(base));
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

double rope_effective_base(const rope_scaling *sc, int d, double base,
                           int64_t n)
{
    double e = (double)d / (d - 2), s = sc->factor;
    if (sc->method == ROPE_NTK)
        return base * pow(s, e);
    if (sc->method == ROPE_DYNAMIC) {
        double L = (double)sc->original_max;
        double seq = (double)n > L ? (double)n : L;
        /* s*seq/L - (s-1), written so that seq = L gives exactly 1 for
         * any s (the other order cancels to 0 once s - 1 rounds to s). */
        return base * pow(1.0 + s * ((seq - L) / L), e);
    }
    return base;
}

/* What every band of one evaluation shares. */
struct band_ctx {
    const rope_scaling *sc;
    int d;
    double base;        /* the effective base (ntk, dynamic) */
    int rebased;        /* whether it differs from the given base */
    double lo, hi;      /* yarn's ramp bounds */
    const double *f;    /* longrope's factor list */
};

static double yarn_band(const struct band_ctx *c, int i, double theta, int *rule)
{
    double r = (i - c->lo) / (c->hi - c->lo);
    r = r < 0 ? 0 : r > 1 ? 1 : r;
    if (c->sc->ext_complement != 0)     /* the kept share 1 - r, times e */
        r = 1.0 - (1.0 - c->sc->ext_complement) * (1.0 - r);
    *rule = r == 0 ? ROPE_KEPT : r == 1 ? ROPE_INTERPOLATED : ROPE_BLENDED;
    return theta / c->sc->factor * r + theta * (1.0 - r);
}

static double llama3_band(const rope_scaling *sc, double theta, int *rule)
{
    double L = (double)sc->original_max, s = sc->factor;
    double lf = sc->low_freq_factor, hf = sc->high_freq_factor;
    double w = 2.0 * ROPE_PI / theta;
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

static double band_omega(const struct band_ctx *c, int i, int *rule)
{
    double theta = pow(c->base, -2.0 * i / c->d);
    switch (c->sc->method) {
    case ROPE_LINEAR:
        *rule = c->sc->factor == 1.0 ? ROPE_KEPT : ROPE_INTERPOLATED;
        return theta / c->sc->factor;
    case ROPE_NTK:
    case ROPE_DYNAMIC:
        *rule = i == 0 || !c->rebased ? ROPE_KEPT : ROPE_REBASED;
        return theta;
    case ROPE_YARN:
        return yarn_band(c, i, theta, rule);
    case ROPE_LLAMA3:
        return llama3_band(c->sc, theta, rule);
    case ROPE_LONGROPE:     /* f_i = 1 keeps, s interpolates, between blends */
        *rule = c->f[i] == 1.0 ? ROPE_KEPT
              : c->f[i] == c->sc->factor ? ROPE_INTERPOLATED
              : c->f[i] > 1.0 && c->f[i] < c->sc->factor ? ROPE_BLENDED
              : ROPE_RESCALED;
        return theta / c->f[i];
    default:
        *rule = ROPE_KEPT;
        return theta;
    }
}

/* Whether the settings can be evaluated at all (see rope_inv_freq). */
static int evaluable(const rope_scaling *sc, int d, double base, int64_t n)
{
    const struct rope_method_info *mi;
    if ((unsigned)sc->method >= ROPE_METHOD_COUNT || d < 2 || d % 2 ||
        !(base > 1.0) || !isfinite(base) || !(sc->factor > 0) ||
        !isfinite(sc->factor) || n < 1)
        return 0;
    mi = &ROPE_METHODS[sc->method];
    if (mi->needs_original && sc->original_max < 1)
        return 0;
    if ((sc->method == ROPE_NTK || sc->method == ROPE_DYNAMIC) && d < 4)
        return 0;
    if (sc->method == ROPE_LLAMA3 &&
        !(sc->low_freq_factor > 0 && sc->high_freq_factor >= sc->low_freq_factor))
        return 0;
    if (sc->method == ROPE_YARN && !(sc->beta_fast > 0 && sc->beta_slow > 0 &&
                                     sc->ext_complement >= 0 &&
                                     sc->ext_complement <= 1))
        return 0;
    if (sc->method == ROPE_LONGROPE &&
        (sc->nshort != d / 2 || sc->nlong != d / 2))
        return 0;
    return 1;
}

/* What every band shares, once per evaluation. */
static void ctx_make(struct band_ctx *c, const rope_scaling *sc, int d,
                     double base, int64_t n)
{
    *c = (struct band_ctx){ sc, d, base, 0, 0, 0, NULL };
    c->base = rope_effective_base(sc, d, base, n);
    c->rebased = c->base != base;   /* dynamic at n <= L, or s = 1, keeps it */
    if (sc->method == ROPE_YARN)
        rope_yarn_bounds(sc, d, base, &c->lo, &c->hi);
    if (sc->method == ROPE_LONGROPE)
        c->f = (double)n > (double)sc->original_max ? sc->long_factor
                                                    : sc->short_factor;
}

double rope_omega(const rope_scaling *sc, int d, double base, int64_t n,
                  int i, int *rule)
{
    struct band_ctx c;
    int r;
    if (!evaluable(sc, d, base, n) || i < 0 || i >= d / 2)
        return NAN;
    ctx_make(&c, sc, d, base, n);
    double w = band_omega(&c, i, &r);
    if (rule)
        *rule = r;
    return w;
}

int rope_inv_freq(const rope_scaling *sc, int d, double base, int64_t n,
                  double *omega, unsigned char *rule)
{
    struct band_ctx c;
    if (!evaluable(sc, d, base, n))
        return -1;
    ctx_make(&c, sc, d, base, n);
    for (int i = 0; i < d / 2; i++) {
        int r;
        omega[i] = band_omega(&c, i, &r);
        if (rule)
            rule[i] = (unsigned char)r;
    }
    return 0;
}

double rope_attention_factor(const rope_scaling *sc)
{
    double s = sc->factor;
    switch (sc->method) {
    case ROPE_YARN:
        if (sc->attention_factor > 0)
            return sc->attention_factor;
        if (sc->mscale > 0 && sc->mscale_all_dim > 0)
            return rope_get_mscale(s, sc->mscale) /
                   rope_get_mscale(s, sc->mscale_all_dim);
        return rope_get_mscale(s, 1.0);
    case ROPE_LONGROPE:
        if (sc->attention_factor > 0)
            return sc->attention_factor;
        if (s <= 1.0 || sc->original_max < 2)
            return 1.0;
        return sqrt(1.0 + log(s) / log((double)sc->original_max));
    default:
        return 1.0;
    }
}

double rope_score_multiplier(const rope_scaling *sc)
{
    double a = rope_attention_factor(sc);
    double m = 1.0;
    if (sc->method == ROPE_YARN && sc->mscale_all_dim > 0 && !sc->plain_softmax)
        m = rope_get_mscale(sc->factor, sc->mscale_all_dim);
    return a * a * m * m;
}

/* ---- model presets ---------------------------------------------------- */

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
    { .name = "gemma3-global", .d = 256, .head_dim = 256, .base = 1e6,
      .method = ROPE_LINEAR, .factor = 8, .note = "global layers",
      .max_context = 131072 },
    { .name = "gemma3-local", .d = 256, .head_dim = 256, .base = 1e4,
      .method = ROPE_NONE, .factor = 1, .note = "sliding layers",
      .max_context = 131072 },
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
};
#define NPRESETS ((int)(sizeof PRESETS / sizeof PRESETS[0]))

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

void rope_preset_scaling(const struct rope_preset *p, rope_scaling *sc)
{
    rope_scaling_default(sc);
    sc->method = p->method;
    sc->factor = p->factor;
    sc->original_max = p->original_max;
    if (p->low_freq_factor > 0)
        sc->low_freq_factor = p->low_freq_factor;
    if (p->high_freq_factor > 0)
        sc->high_freq_factor = p->high_freq_factor;
    if (p->beta_fast > 0)
        sc->beta_fast = p->beta_fast;
    if (p->beta_slow > 0)
        sc->beta_slow = p->beta_slow;
    sc->truncate = !p->no_truncate;
    sc->mscale = p->mscale;
    sc->mscale_all_dim = p->mscale_all_dim;
}
