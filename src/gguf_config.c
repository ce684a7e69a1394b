/* SPDX-License-Identifier: ISC */
/*
 * gguf_config.c - RoPE settings from a GGUF file (see gguf_config.h),
 * with the keys llama.cpp writes, ARCH being general.architecture:
 *   ARCH.rope.freq_base                 base (llama.cpp's default 10000)
 *   ARCH.rope.dimension_count           d; else ARCH.attention.key_length,
 *                                       else embedding_length / head_count
 *   ARCH.context_length                 L when the scaling gives none
 *   ARCH.rope.scaling.type              none, linear, yarn or longrope
 *   ARCH.rope.scaling.factor            s
 *   ARCH.rope.scale_linear              older files: linear scaling by it
 *   ARCH.rope.scaling.original_context_length   L
 *   ARCH.rope.scaling.yarn_beta_fast    YaRN's beta_fast (default 32)
 *   ARCH.rope.scaling.yarn_beta_slow    YaRN's beta_slow (default 1)
 *   ARCH.rope.scaling.yarn_log_multiplier  DeepSeek-V2/V3 files
 *                                       (deepseek*): 0.1 mscale_all_dim,
 *                                       as llama.cpp's converter writes it;
 *                                       mscale = mscale_all_dim = v / 0.1
 *                                       (llama.cpp's rotary factor is then
 *                                       1 and its scores x m(s, v/0.1)^2);
 *                                       other architectures: mscale 1,
 *                                       mscale_all_dim v, no score factor
 *                                       (a = m(s, 1) / m(s, v), as
 *                                       llama.cpp's context computes it)
 *   ARCH.rope.scaling.finetuned         a bool; checked, changes nothing
 *   ARCH.rope.scaling.attn_factor       yarn, longrope: the attention
 *                                       factor a (transformers' value, as
 *                                       the converters copy it)
 *   ARCH.rope.scaling.yarn_attn_factor  yarn: a, as attn_factor (the
 *                                       converters copy transformers'
 *                                       attention_factor into it)
 *   ARCH.rope.scaling.yarn_ext_factor   yarn: the extrapolation factor e,
 *                                       0..1 (-1: the default 1)
 * Keys that would change the numbers in ways peviz does not model
 * (attn_factor, yarn_attn_factor, yarn_ext_factor and
 * yarn_log_multiplier of methods other than yarn, away from their
 * neutral values) are refused, not ignored.
 * Phi-3 files carry LongRoPE as the tensors rope_factors_long.weight and
 * rope_factors_short.weight (d/2 factors each; no scaling type): L is
 * rope.scaling.original_context_length, s = context_length / L.
 * and the tensor rope_freqs.weight: d/2 per-band divisors (Llama 3.1's
 * llama3 rule, baked in), omega_i = theta_i / f_i.  peviz holds those as
 * LongRoPE factors (both lists the same, attention factor 1, s the
 * largest divisor), which is the same formula.  Only the header and that
 * one tensor are read.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gguf_config.h"
#include "gguf_mask.h"
#include "peviz/gguf.h"

struct gcfg {
    const char *file;
    struct gguf *g;
    char arch[64];
    params next;
    char *err;
    size_t errlen;
};

static int gbad(struct gcfg *c, const char *key, const char *why)
{
    snprintf(c->err, c->errlen, "%s: key '%s': %s", c->file, key, why);
    for (char *q = c->err; *q; q++)
        if ((unsigned char)*q < 0x20 || *q == 0x7f)
            *q = '?';
    return -1;
}

/* ARCH.suffix as a number: 1 found, 0 absent, -1 not a number. */
static int gnum(struct gcfg *c, const char *suffix, double *out, char *key,
                size_t keylen)
{
    snprintf(key, keylen, "%s.%s", c->arch, suffix);
    const struct gguf_kv *kv = gguf_find_kv(c->g, key);
    if (!kv)
        return 0;
    if (gguf_kv_number(kv, out))
        return gbad(c, key, "not a number");
    return 1;
}

/* The first of two keys that is present; when neither is, key names the
 * first (the one a message should ask for) and 0 is returned. */
static int gnum_either(struct gcfg *c, const char *first, const char *second,
                       double *out, char *key, size_t keylen)
{
    int r = gnum(c, first, out, key, keylen);
    if (r == 0)
        r = gnum(c, second, out, key, keylen);
    if (r == 0)
        snprintf(key, keylen, "%s.%s", c->arch, first);
    return r;
}

/* Set a scaling value through params.c, naming the key when refused. */
static int gset(struct gcfg *c, const char *key, enum rope_opt id, double v)
{
    char msg[200];
    if (params_set_rope_number(&c->next, id, v, msg, sizeof msg))
        return gbad(c, key, msg);
    return 0;
}

static int architecture(struct gcfg *c)
{
    const struct gguf_kv *kv = gguf_find_kv(c->g, "general.architecture");
    if (!kv)
        return gbad(c, "general.architecture", "missing");
    if (kv->type != GGUF_STRING || !kv->str || !kv->str[0] ||
        kv->str_len >= sizeof c->arch)
        return gbad(c, "general.architecture", "not a short string");
    snprintf(c->arch, sizeof c->arch, "%s", kv->str);
    return 0;
}

static int base_and_dims(struct gcfg *c)
{
    char key[200], msg[200];
    double b = 10000, d, e, h;
    int r = gnum(c, "rope.freq_base", &b, key, sizeof key);
    if (r < 0)
        return -1;
    if (params_set_base(&c->next, b, msg, sizeof msg))
        return gbad(c, key, msg);
    if ((r = gnum(c, "rope.dimension_count", &d, key, sizeof key)) == 0)
        r = gnum(c, "attention.key_length", &d, key, sizeof key);
    if (r == 0) {
        char k2[200];
        int re = gnum(c, "embedding_length", &e, key, sizeof key);
        int rh = gnum(c, "attention.head_count", &h, k2, sizeof k2);
        if (re < 0 || rh < 0)
            return -1;
        if (re == 0 || rh == 0 || !(h >= 1)) {
            snprintf(key, sizeof key, "%s.rope.dimension_count", c->arch);
            return gbad(c, key, "missing (and no embedding_length / head_count)");
        }
        d = e / h;
    }
    if (r < 0)
        return -1;
    if (d != floor(d))              /* NaN too */
        return gbad(c, key, "not a whole number");
    if (fabs(d) > 1e9) {            /* no long needed (nor always holds it) */
        snprintf(msg, sizeof msg, "%g: out of range; want an even number in "
                 "%d..%d", d, PARAM_D_MIN, PARAM_D_MAX);
        return gbad(c, key, msg);
    }
    if (params_set_d(&c->next, (long)d, msg, sizeof msg))
        return gbad(c, key, msg);
    return 0;
}

/* L: original_context_length, else context_length (0: neither). */
static int lengths(struct gcfg *c, int required)
{
    char key[200];
    double L;
    int r = gnum_either(c, "rope.scaling.original_context_length",
                        "context_length", &L, key, sizeof key);
    if (r < 0)
        return -1;
    if (r == 0)
        return required ? gbad(c, key, "missing") : 0;
    return gset(c, key, RO_ORIGINAL_MAX, L);
}

static int scaling_type(struct gcfg *c, enum rope_method *m)
{
    char key[200];
    snprintf(key, sizeof key, "%s.rope.scaling.type", c->arch);
    const struct gguf_kv *kv = gguf_find_kv(c->g, key);
    *m = ROPE_NONE;
    if (!kv)
        return 0;
    if (kv->type != GGUF_STRING || !kv->str)
        return gbad(c, key, "not a string");
    if (!strcmp(kv->str, "none"))
        return 0;
    /* the types llama.cpp writes (none: above), by our methods' names */
    static const enum rope_method T[] = { ROPE_LINEAR, ROPE_YARN,
                                          ROPE_LONGROPE };
    const size_t nt = sizeof T / sizeof T[0];
    for (size_t k = 0; k < nt; k++)
        if (!strcmp(kv->str, rope_method_name(T[k]))) {
            *m = T[k];
            return 0;
        }
    const char *names[1 + sizeof T / sizeof T[0]] = { "none" };
    char why[160], list[100];
    for (size_t k = 0; k < nt; k++)
        names[k + 1] = rope_method_name(T[k]);
    snprintf(why, sizeof why, "unknown type '%.30s'; want %s", kv->str,
             fmt_names(list, sizeof list, names, (int)nt + 1, " or "));
    return gbad(c, key, why);
}

static int factor(struct gcfg *c, enum rope_method m)
{
    char key[200];
    double s;
    int r = gnum_either(c, "rope.scaling.factor", "rope.scale_linear", &s,
                        key, sizeof key);
    if (r < 0)
        return -1;
    if (r == 0)         /* LongRoPE: from the lengths (see longrope) */
        return m == ROPE_NONE || m == ROPE_LONGROPE ? 0 : gbad(c, key, "missing");
    return gset(c, key, RO_FACTOR, s);
}

/* A tensor of d/2 per-band factors into f, and into the list id. */
static int band_list(struct gcfg *c, const struct gguf_tensor *t,
                     enum rope_opt id, double *f)
{
    char msg[200];
    int half = c->next.d / 2;
    if (t->nelements != (uint64_t)half || half > ROPE_FACTORS_MAX) {
        snprintf(msg, sizeof msg, "%llu values; want d/2 = %d (at most %d)",
                 (unsigned long long)t->nelements, half, ROPE_FACTORS_MAX);
        return gbad(c, t->name, msg);
    }
    if (gguf_read_tensor(c->g, t, f, msg, sizeof msg)) {
        snprintf(c->err, c->errlen, "%s", msg);
        return -1;
    }
    if (params_set_rope_list(&c->next, id, f, half, msg, sizeof msg))
        return gbad(c, t->name, msg);
    return 0;
}

/* rope_freqs.weight: d/2 divisors, held as equal LongRoPE lists. */
static int divisors(struct gcfg *c, const struct gguf_tensor *t)
{
    static const char *const K = "rope_freqs.weight";
    double f[ROPE_FACTORS_MAX], mx = 1;
    if (band_list(c, t, RO_SHORT_FACTOR, f) || band_list(c, t, RO_LONG_FACTOR, f))
        return -1;
    for (int i = 0; i < c->next.d / 2; i++)
        mx = f[i] > mx ? f[i] : mx;
    c->next.rope.method = ROPE_LONGROPE;
    return gset(c, K, RO_FACTOR, mx) || gset(c, K, RO_ATTENTION_FACTOR, 1) ||
           lengths(c, 1) ? -1 : 0;
}

/* YaRN's betas, as llama.cpp writes them. */
static int betas(struct gcfg *c)
{
    char key[200];
    double v;
    int r = gnum(c, "rope.scaling.yarn_beta_fast", &v, key, sizeof key);
    if (r < 0 || (r > 0 && gset(c, key, RO_BETA_FAST, v)))
        return -1;
    r = gnum(c, "rope.scaling.yarn_beta_slow", &v, key, sizeof key);
    if (r < 0 || (r > 0 && gset(c, key, RO_BETA_SLOW, v)))
        return -1;
    return 0;
}

/* A key peviz does not model: fine at its neutral value(s), else refused. */
static int neutral(struct gcfg *c, const char *suffix, double ok1, double ok2)
{
    char key[200], why[120];
    double v;
    int r = gnum(c, suffix, &v, key, sizeof key);
    if (r <= 0 || v == ok1 || v == ok2)
        return r < 0 ? -1 : 0;
    snprintf(why, sizeof why, "%.6g: peviz models only %g%s", v, ok1,
             ok1 == ok2 ? "" : " (or the default)");
    return gbad(c, key, why);
}

/* yarn_log_multiplier: DeepSeek's 0.1 mscale_all_dim (deepseek* files,
 * whose attention adds m(s, v/0.1)^2 to the scores); for any other
 * architecture mscale_all_dim itself, with mscale 1 and no score factor,
 * as llama.cpp's context applies it (a = m(s, 1) / m(s, v)); 0 is
 * "not given". */
static int log_multiplier(struct gcfg *c, enum rope_method m)
{
    char key[200];
    double v;
    int r = gnum(c, "rope.scaling.yarn_log_multiplier", &v, key, sizeof key);
    if (r <= 0)
        return r;
    if (m != ROPE_YARN)
        return neutral(c, "rope.scaling.yarn_log_multiplier", 0, 0);
    if (strncmp(c->arch, "deepseek", 8) != 0) {
        if (v == 0)
            return 0;
        c->next.rope.plain_softmax = 1;
        return gset(c, key, RO_MSCALE, 1) ||
               gset(c, key, RO_MSCALE_ALL_DIM, v) ? -1 : 0;
    }
    if (!(v > 0))
        return gbad(c, key, "want a number > 0 (0.1 mscale_all_dim)");
    return gset(c, key, RO_MSCALE, v / 0.1) ||
           gset(c, key, RO_MSCALE_ALL_DIM, v / 0.1) ? -1 : 0;
}

static int finetuned(struct gcfg *c)
{
    char key[200];
    snprintf(key, sizeof key, "%s.rope.scaling.finetuned", c->arch);
    const struct gguf_kv *kv = gguf_find_kv(c->g, key);
    return kv && kv->type != GGUF_BOOL ? gbad(c, key, "not true or false") : 0;
}

/* rope.scaling.attn_factor: the converters write transformers'
 * attention factor (yarn: Olmo's attention_factor; longrope: Phi-3's
 * sqrt(1 + ln s / ln L)), the factor a on cos and sin. */
static int attn_factor(struct gcfg *c, enum rope_method m)
{
    char key[200];
    double v;
    if (m != ROPE_YARN && m != ROPE_LONGROPE)
        return neutral(c, "rope.scaling.attn_factor", 1, 1);
    int r = gnum(c, "rope.scaling.attn_factor", &v, key, sizeof key);
    return r <= 0 ? r : gset(c, key, RO_ATTENTION_FACTOR, v);
}

/* yarn_attn_factor: the converters copy transformers' attention_factor
 * (or attn_factor) into it, so for yarn it is a, as attn_factor is; a
 * file giving both must agree.  Neutral (1) for other methods. */
static int yarn_attn_factor(struct gcfg *c, enum rope_method m)
{
    char key[200], k2[200];
    double v, w;
    if (m != ROPE_YARN)
        return neutral(c, "rope.scaling.yarn_attn_factor", 1, 1);
    int r = gnum(c, "rope.scaling.yarn_attn_factor", &v, key, sizeof key);
    if (r <= 0)
        return r;
    int r2 = gnum(c, "rope.scaling.attn_factor", &w, k2, sizeof k2);
    if (r2 < 0)
        return -1;
    if (r2 > 0 && w != v)
        return gbad(c, key, "differs from rope.scaling.attn_factor; want one "
                    "attention factor");
    return gset(c, key, RO_ATTENTION_FACTOR, v);
}

/* yarn_ext_factor: YaRN's extrapolation factor e in 0..1 (the share of
 * each band's kept part kept; llama.cpp's -1 means the default 1).
 * Neutral (1 or -1) for other methods. */
static int ext_factor(struct gcfg *c, enum rope_method m)
{
    char key[200];
    double v;
    if (m != ROPE_YARN)
        return neutral(c, "rope.scaling.yarn_ext_factor", 1, -1);
    int r = gnum(c, "rope.scaling.yarn_ext_factor", &v, key, sizeof key);
    if (r <= 0 || v == -1)
        return r < 0 ? -1 : 0;
    if (!(v >= 0 && v <= 1))
        return gbad(c, key, "want a number in 0..1 (or -1, the default)");
    c->next.rope.ext_complement = 1 - v;
    return 0;
}

/* The keys beyond type, factor and length. */
static int extras(struct gcfg *c, enum rope_method m)
{
    return betas(c) || log_multiplier(c, m) || finetuned(c) || attn_factor(c, m) ||
           yarn_attn_factor(c, m) || ext_factor(c, m) ? -1 : 0;
}

/* Phi-3's LongRoPE: rope_factors_long/short.weight, L the original
 * context length, s = context_length / L unless the file gives it, the
 * attention factor from rope.scaling.attn_factor (see extras) or the
 * LongRoPE default. */
static int longrope(struct gcfg *c, const struct gguf_tensor *tl,
                    const struct gguf_tensor *ts)
{
    char key[200];
    double f[ROPE_FACTORS_MAX], L, n, s;
    int r;
    if (!tl || !ts)
        return gbad(c, tl ? "rope_factors_short.weight" : "rope_factors_long.weight",
                    "missing (LongRoPE needs both factor lists)");
    if (band_list(c, tl, RO_LONG_FACTOR, f) || band_list(c, ts, RO_SHORT_FACTOR, f))
        return -1;
    if ((r = gnum(c, "rope.scaling.original_context_length", &L, key,
                  sizeof key)) <= 0)
        return r < 0 ? -1 : gbad(c, key, "missing (LongRoPE's L)");
    if (gset(c, key, RO_ORIGINAL_MAX, L))
        return -1;
    if ((r = gnum(c, "rope.scaling.factor", &s, key, sizeof key)) != 0)
        return r < 0 ? -1 : 0;          /* set by factor() */
    if ((r = gnum(c, "context_length", &n, key, sizeof key)) < 0)
        return -1;
    return r > 0 && n > L ? gset(c, key, RO_FACTOR, n / L) : 0;
}

static int read_settings(struct gcfg *c)
{
    enum rope_method m;
    char msg[300];
    if (architecture(c) || base_and_dims(c) || scaling_type(c, &m))
        return -1;
    char key[200];
    double s;
    int legacy = gnum(c, "rope.scale_linear", &s, key, sizeof key);
    if (legacy < 0)
        return -1;
    if (legacy > 0 && m == ROPE_NONE && s != 1)      /* older files */
        m = ROPE_LINEAR;
    const struct gguf_tensor *t = gguf_find_tensor(c->g, "rope_freqs.weight");
    const struct gguf_tensor *tl = gguf_find_tensor(c->g, "rope_factors_long.weight");
    const struct gguf_tensor *ts = gguf_find_tensor(c->g, "rope_factors_short.weight");
    if ((tl || ts) && (m == ROPE_NONE || m == ROPE_LONGROPE))
        m = ROPE_LONGROPE;              /* Phi-3 files give no type */
    else if (tl || ts)
        return gbad(c, tl ? tl->name : ts->name, "present with a scaling type "
                    "other than longrope");
    c->next.rope.method = m;
    if (factor(c, m) || (m != ROPE_LONGROPE && lengths(c, m == ROPE_YARN)) ||
        (m == ROPE_LONGROPE && longrope(c, tl, ts)) || extras(c, m))
        return -1;
    if (t && m != ROPE_NONE)
        return gbad(c, "rope_freqs.weight", "present with a scaling type; "
                    "peviz reads the divisors alone");
    if (t && divisors(c, t))
        return -1;
    if (params_check_rope(&c->next, msg, sizeof msg)) {
        snprintf(c->err, c->errlen, "%s: %s", c->file, msg);
        return -1;
    }
    return 0;
}

/* n: the model's context length, when the file gives it. */
static void context(struct gcfg *c)
{
    char key[200];
    double n;
    if (gnum(c, "context_length", &n, key, sizeof key) > 0)
        params_set_context(&c->next, n);
}

/* The layer type in force of g: layer_type, or, when the sliding layers
 * take RoPE settings of their own, the full layers (whose settings the
 * main keys give), else layer 0's; NULL for a file that says nothing of
 * its layers. */
static const char *layer_in_force(const struct gguf *g, const char *layer_type,
                                  double base)
{
    int64_t n;
    const char *t0 = gguf_mask_layer_name(g, 0, &n);
    int unscaled;
    if (layer_type || !t0)
        return layer_type;
    if (strcmp(t0, "sliding_attention") == 0 &&
        (gguf_mask_swa_base(g, base, &unscaled) != base || unscaled))
        return "full_attention";
    return t0;
}

/* The RoPE of layer type layer (NULL: the main keys') into c->next; a
 * type the file lacks is refused naming those it has. */
static int layer_settings(struct gcfg *c, const char *layer)
{
    char names[160], msg[200];
    if (!layer)
        return 0;
    gguf_mask_names(c->g, names, sizeof names);
    if (!gguf_mask_has_layer(c->g, layer))
        return snprintf(c->err, c->errlen, "%s: --layer-type '%.60s': %s%s",
                        c->file, layer, names[0] ? "no such layer type; the "
                        "file has " : "the file says nothing of its layers",
                        names), -1;
    if (strcmp(layer, "sliding_attention") != 0)
        return 0;
    int unscaled;
    double b = gguf_mask_swa_base(c->g, c->next.base, &unscaled);
    if (params_set_base(&c->next, b, msg, sizeof msg))
        return gbad(c, "rope.freq_base_swa", msg);
    if (unscaled)
        rope_scaling_default(&c->next.rope);
    return 0;
}

/* The settings of an opened file (closed here); p changes on success. */
static int load(const char *name, struct gguf *g, const char *layer,
                params *p, char *err, size_t errlen)
{
    struct gcfg c = { name, g, "", *p, err, errlen };
    rope_scaling_default(&c.next.rope);
    int r = read_settings(&c);
    if (r == 0)
        context(&c);
    if (r == 0)
        r = layer_settings(&c, layer);
    gguf_close(g);
    if (r == 0)
        *p = c.next;
    return r;
}

int gguf_config_load(const char *path, const char *layer_type, params *p,
                     char *err, size_t errlen)
{
    struct gguf *g;
    if (gguf_open(path, &g, err, errlen))
        return -1;
    return load(path, g, layer_type, p, err, errlen);
}

int gguf_config_load_buffer(const char *name, const unsigned char *buf,
                            size_t len, params *p, char *err, size_t errlen)
{
    struct gguf *g;
    if (gguf_open_buffer(name, buf, len, &g, err, errlen))
        return -1;
    return load(name, g, NULL, p, err, errlen);
}

/* path opened, and its main base (llama.cpp's default 10000), or NULL. */
static struct gguf *open_quiet(const char *path, double *base)
{
    struct gguf *g;
    char err[256], key[160];
    if (gguf_open(path, &g, err, sizeof err))
        return NULL;
    const struct gguf_kv *a = gguf_find_kv(g, "general.architecture");
    snprintf(key, sizeof key, "%.64s.rope.freq_base",
             a && a->type == GGUF_STRING && a->str ? a->str : "");
    if (gguf_kv_number(gguf_find_kv(g, key), base))
        *base = 10000;
    return g;
}

int gguf_config_mask(const char *path, const char *layer_type,
                     struct config_mask *m)
{
    double base;
    struct gguf *g = open_quiet(path, &base);
    memset(m, 0, sizeof *m);
    if (!g)
        return -1;
    gguf_mask_of(g, layer_in_force(g, layer_type, base), m);
    gguf_close(g);
    return 0;
}

int gguf_config_layer(const char *path, const char *layer_type, char *name,
                      size_t len)
{
    double base;
    struct gguf *g = open_quiet(path, &base);
    if (!g)
        return -1;
    int64_t n;
    const char *t = layer_in_force(g, layer_type, base);
    struct config_mask m;
    int r = -1;
    const char *t0 = gguf_mask_layer_name(g, 0, &n);
    if (t && (layer_type || !t0 || strcmp(t, t0) != 0)) {
        gguf_mask_of(g, t, &m);
        snprintf(name, len, "%s", t);
        r = m.nope;
    }
    gguf_close(g);
    return r;
}

int gguf_config_layer_at(const char *path, int64_t i, char *name, size_t len,
                         char *err, size_t errlen)
{
    double base;
    struct gguf *g = open_quiet(path, &base);
    int64_t layers = 0;
    const char *t = g ? gguf_mask_layer_name(g, i, &layers) : NULL;
    int r = config_mask_answer(path, t, i, layers, g != NULL, "GGUF file",
                               "no sliding or chunked attention in "
                               "llama.cpp for this architecture", name, len,
                               err, errlen);
    gguf_close(g);
    return r;
}
