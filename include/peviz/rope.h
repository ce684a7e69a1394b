/* SPDX-License-Identifier: ISC */
/*
 * peviz/rope.h - RoPE frequency scaling as real models use it.
 *
 * Pure double-precision math, no allocation; no globals but the methods
 * registered at start-up (rope_method_register).  Notation:
 *   d        rotary dimensions (head_dim x partial rotary factor), even;
 *            bands i = 0 .. d/2-1
 *   theta_i  = base^(-2i/d), the unscaled inverse frequency of band i
 *   s        the scaling factor;  L  the original trained length
 *   n        the current sequence length (dynamic NTK and LongRoPE read it)
 *
 * Every method gives, per band, the inverse frequency omega_i the model
 * actually uses, and one attention factor a: the model multiplies cos and
 * sin by a, so every q.k score is multiplied by a^2.
 *
 *   none      omega_i = theta_i, a = 1
 *   linear    omega_i = theta_i / s, a = 1                (position interp.)
 *   ntk       base' = base s^(d/(d-2)), omega_i = base'^(-2i/d), a = 1
 *   dynamic   base' = base ((s max(n,L) / L) - (s - 1))^(d/(d-2)), a = 1
 *   yarn      corr(r) = d ln(L / (2 pi r)) / (2 ln base);
 *             lo = corr(beta_fast), hi = corr(beta_slow), floored/ceiled
 *             when truncating; lo = max(lo, 0), hi = min(hi, d - 1);
 *             hi += 0.001 when lo == hi;
 *             r_i = clamp((i - lo)/(hi - lo), 0, 1);
 *             omega_i = theta_i / s * r_i + theta_i * (1 - r_i);
 *             with an extrapolation factor e (llama.cpp's ext_factor,
 *             default 1; ext_complement = 1 - e) the kept share 1 - r_i
 *             is e (1 - r_i);
 *             a = attention_factor if given, else
 *                 m(s, mscale) / m(s, mscale_all_dim) if both given, else m(s, 1)
 *             with m(s, k) = 1 for s <= 1, else 0.1 k ln s + 1
 *   llama3    w_i = 2 pi / theta_i; w_i < L/high: theta_i (kept);
 *             w_i > L/low: theta_i / s; otherwise with
 *             k = (L / w_i - low) / (high - low):
 *             (1 - k) theta_i / s + k theta_i;  a = 1.  low = high is
 *             allowed (Llama 4 Scout: 1 and 1): no band is blended, and
 *             a band with w_i = L/low exactly keeps theta_i (k = 1)
 *   longrope  f = long_factor if n > L else short_factor;
 *             omega_i = theta_i / f_i;
 *             a = attention_factor if given, else
 *                 (s <= 1 ? 1 : sqrt(1 + ln s / ln L))
 *
 * Score multiplier: a^2, times m(s, mscale_all_dim)^2 when mscale_all_dim
 * is given and plain_softmax is not set: the DeepSeek-V2/V3 family's
 * attention (MLA) multiplies its softmax scale by it, so their net
 * multiplier is m(s, mscale)^2 (1.87385 for V3).  Other architectures
 * (Ministral 3, ...) use mscale_all_dim in a alone.
 */
#ifndef PEVIZ_ROPE_H
#define PEVIZ_ROPE_H

#include <stddef.h>
#include <stdint.h>

/* The methods code names; the table (ROPE_METHODS) may hold more rows
 * after them, and more are registered at run time: rope_method_count()
 * has them all. */
enum rope_method {
    ROPE_NONE = 0, ROPE_LINEAR, ROPE_NTK, ROPE_DYNAMIC, ROPE_YARN,
    ROPE_LLAMA3, ROPE_LONGROPE, ROPE_PROPORTIONAL
};

/* What a method did to one band. */
enum rope_rule {
    ROPE_KEPT = 0,      /* omega = theta: the original frequency */
    ROPE_BLENDED,       /* between theta and theta / s */
    ROPE_INTERPOLATED,  /* omega = theta / s */
    ROPE_REBASED,       /* ntk / dynamic: a new base */
    ROPE_RESCALED,      /* longrope: theta / f_i, f_i outside [1, s]
                           (f_i = 1 is kept, s interpolated, between
                           blended) */
    ROPE_STILL,         /* proportional: omega = 0, a band that never
                           turns */
    ROPE_RULE_COUNT
};

/* The longest LongRoPE factor list: d/2 <= 256, so d <= 512. */
#define ROPE_FACTORS_MAX 256

/* Defaults of the optional settings. */
#define ROPE_BETA_FAST_DEFAULT 32.0
#define ROPE_BETA_SLOW_DEFAULT 1.0
#define ROPE_LOW_FREQ_DEFAULT 1.0
#define ROPE_HIGH_FREQ_DEFAULT 4.0

/*
 * One model's scaling settings: plain data, copyable.  A value 0 in an
 * optional field (mscale, mscale_all_dim, attention_factor, original_max)
 * means "not given".
 */
typedef struct rope_scaling {
    enum rope_method method;
    double factor;              /* s; 1 = no scaling */
    int64_t original_max;       /* L; 0 = not given */
    double low_freq_factor;     /* llama3 */
    double high_freq_factor;    /* llama3 */
    double beta_fast;           /* yarn */
    double beta_slow;           /* yarn */
    int truncate;               /* yarn: floor/ceil the bounds (default 1) */
    double mscale;              /* yarn: 0 = not given */
    double mscale_all_dim;      /* yarn: 0 = not given */
    double attention_factor;    /* yarn, longrope: 0 = not given */
    int nshort, nlong;          /* longrope: entries in the lists */
    double short_factor[ROPE_FACTORS_MAX];
    double long_factor[ROPE_FACTORS_MAX];
    double ext_complement;      /* yarn: 1 - e, e the extrapolation factor
                                   (llama.cpp's ext_factor, 0..1): the
                                   share of each band's kept part that is
                                   kept is e; 0 (e = 1) is YaRN itself */
    int plain_softmax;          /* yarn: 1 when the attention does not
                                   multiply its softmax scale by
                                   m(s, mscale_all_dim)^2; 0 (the default)
                                   when it does, as DeepSeek's MLA */
    double proportion;          /* proportional: the share p of the d/2
                                   bands that turn (partial_rotary_factor,
                                   0 < p <= 1; default 1) */
} rope_scaling;

/* method none, factor 1, the defaults above, truncate on, nothing given. */
void rope_scaling_default(rope_scaling *sc);

/* ---- the method table ------------------------------------------------- */

/*
 * What every band of one evaluation shares, made once per evaluation:
 * the common fields first, then the method's prepare hook fills in its
 * own (the effective base, YaRN's ramp bounds, LongRoPE's list).
 */
struct rope_bands {
    const rope_scaling *sc;
    int d;
    int64_t n;
    double base;        /* the base the bands use (ntk, dynamic: a new one) */
    int rebased;        /* base differs from the given one */
    double lo, hi;      /* yarn's ramp bounds */
    const double *f;    /* longrope's factor list for n */
};

/*
 * One row per method: its names, its formulas and its behaviour.  Every
 * hook may be NULL (then: nothing to prepare, theta kept, a = 1, no
 * further softmax factor, nothing more to check).
 *   prepare           fill in the method's part of struct rope_bands
 *   omega             band i's omega from theta_i = base^(-2i/d), the
 *                     rule (enum rope_rule) into *rule
 *   attention_factor  a, multiplying cos and sin (scores: a^2)
 *   softmax_factor    what the attention multiplies its softmax scale
 *                     by besides (DeepSeek's MLA: m(s, mscale_all_dim));
 *                     the score multiplier is (a x it)^2
 *   validate          the method's own rules, after the common ones
 *                     (rope_check): 0, or -1 with a one-line message
 *                     naming the setting, its value and the valid range
 */
struct rope_method_info {
    enum rope_method method;    /* its enum value (only rows code names) */
    const char *name;           /* "yarn": the --rope-scaling word */
    const char *title;          /* "YaRN (NTK-by-parts + temperature)" */
    const char *formula;        /* UTF-8 */
    const char *formula_ascii;  /* the same in ASCII */
    int factor_min_one;         /* factor must be >= 1 (else > 0) */
    int needs_original;         /* L must be given */
    const char *alias;          /* another name it is read by, or NULL */
    int reads_n;                /* omega depends on n */
    void (*prepare)(struct rope_bands *c);
    double (*omega)(const struct rope_bands *c, int i, double theta,
                    int *rule);
    double (*attention_factor)(const rope_scaling *sc);
    double (*softmax_factor)(const rope_scaling *sc);
    int (*validate)(const rope_scaling *sc, int d, char *err, size_t errlen);
};

/* The built-in rows, the first indexed by enum rope_method. */
extern const struct rope_method_info ROPE_METHODS[];

/*
 * More methods at run time: the row (not copied: it must outlive its
 * use) gets the next id, rope_method_count() - 1, and from then on every
 * lookup, list, parse and evaluation knows it like a built-in one.  Call
 * before other threads use the table.  Returns the id, or -1 when the
 * name is missing or taken, or ROPE_METHOD_MAX rows are in use.
 */
#define ROPE_METHOD_MAX 32
int rope_method_register(const struct rope_method_info *mi);
int rope_method_count(void);
/* The row of method m, or NULL out of range. */
const struct rope_method_info *rope_method_info(int m);

/* The method by name (a row's name or alias: "default" is none and HF's
 * old "su" longrope), or -1. */
int rope_method_parse(const char *name);
const char *rope_method_name(enum rope_method m);
/* The names as a list for messages and help: "none, linear, ..., yarn,
 * llama3 or longrope" with sep_last " or " (truncated to len).
 * Returns buf. */
const char *rope_method_names(char *buf, size_t len, const char *sep_last);
const char *rope_rule_name(enum rope_rule r);
/* The rule in at most 7 characters, for a narrow column: "kept",
 * "blend", "interp", "rebase", "rescale" ("?" out of range). */
const char *rope_rule_abbrev(enum rope_rule r);

/*
 * The one validator of scaling settings for d rotary dimensions and a
 * base: the method known, d even and >= 2, base finite and > 1, factor
 * finite and > 0 (>= 1 where the row says so), L given where needed,
 * then the row's validate hook (ntk/dynamic: d >= 4; llama3:
 * 0 < low <= high; yarn: beta_fast >= beta_slow > 0, as transformers
 * requires, and 0 <= 1 - e <= 1; longrope: d/2 factors in each list).
 * Returns 0, or -1 with a one-line message in err (err may be NULL).
 * rope_inv_freq and rope_omega evaluate exactly what this accepts.
 */
int rope_check(const rope_scaling *sc, int d, double base, char *err,
               size_t errlen);

/* ---- the math --------------------------------------------------------- */

/* m(s, k): 1 for s <= 1, else 0.1 k ln(s) + 1. */
double rope_get_mscale(double s, double k);

/* YaRN's correction dimension: d ln(L / (2 pi rotations)) / (2 ln base). */
double rope_yarn_corr_dim(double rotations, int d, double base, double L);

/* YaRN's ramp bounds after truncation and clamping (as used). */
void rope_yarn_bounds(const rope_scaling *sc, int d, double base,
                      double *low, double *high);

/* The base ntk or dynamic NTK uses at sequence length n (base otherwise). */
double rope_effective_base(const rope_scaling *sc, int d, double base,
                           int64_t n);

/*
 * omega[0..d/2-1] after scaling at sequence length n; rule (NULL: not
 * wanted) gets each band's enum rope_rule.  Returns 0, or -1 (nothing
 * written) when rope_check refuses the settings or n < 1.
 */
int rope_inv_freq(const rope_scaling *sc, int d, double base, int64_t n,
                  double *omega, unsigned char *rule);

/* Band i alone (0 <= i < d/2): omega_i after scaling, its rule into
 * *rule (may be NULL); NAN when the settings cannot be evaluated. */
double rope_omega(const rope_scaling *sc, int d, double base, int64_t n,
                  int i, int *rule);

/* The factor a that multiplies cos and sin (scores scale by a^2). */
double rope_attention_factor(const rope_scaling *sc);

/* What multiplies every q.k score: a^2 (x m(s, mscale_all_dim)^2 unless
 * plain_softmax is set). */
double rope_score_multiplier(const rope_scaling *sc);

/* ---- model presets ---------------------------------------------------- */

struct rope_preset {
    const char *name;           /* "llama3.1-8b" */
    int d;                      /* rotary dimensions */
    int head_dim;
    double base;
    enum rope_method method;
    double factor;
    int64_t original_max;       /* L (the trained length; 0: not given) */
    double low_freq_factor, high_freq_factor;   /* llama3 (0: default) */
    double beta_fast, beta_slow;                /* yarn (0: default) */
    int no_truncate;                            /* yarn */
    double mscale, mscale_all_dim;              /* yarn (0: not given) */
    const char *note;           /* "sliding window 4096", ... or "" */
    int64_t window;             /* sliding_window of config.json: the
                                   attention view's --window (0: none) */
    int64_t chunk;              /* attention_chunk_size of config.json:
                                   the attention view's --chunk (0: none) */
    int64_t max_context;        /* max_position_embeddings: the longest
                                   sequence the model is served with */
    double proportion;          /* proportional: the share of bands that
                                   turn (0: all) */
    int nope_every;             /* layers l with (l + 1) % nope_every == 0
                                   have no RoPE and scale their queries by
                                   Llama 4's temperature tuning (Llama 4:
                                   4); 0: every layer has RoPE */
    int nfactors;               /* longrope: entries of each list (d / 2) */
    const double *short_factor; /* longrope: the lists of config.json */
    const double *long_factor;
    const char *layer_type;     /* a model with several layer types: the
                                   one this preset is ("full_attention"),
                                   else NULL */
    const char *other_layers;   /* the model's other layer types, comma-
                                   separated ("sliding_attention") */
};

/* Whether layer l (0-based) of preset p is a NoPE layer. */
int rope_preset_nope_layer(const struct rope_preset *p, int l);

/* The preset's scaling settings in full (defaults where it gives none). */
void rope_preset_scaling(const struct rope_preset *p, rope_scaling *sc);

/* The table (rope_preset_count entries), and lookup by name (NULL). */
int rope_preset_count(void);
const struct rope_preset *rope_preset_at(int i);
const struct rope_preset *rope_preset_find(const char *name);

#endif /* PEVIZ_ROPE_H */
