/*
 * gguf_config.c - RoPE settings from a GGUF file (see gguf_config.h),
 * with the keys llama.cpp writes, ARCH being general.architecture:
 *   ARCH.rope.freq_base                 base (llama.cpp's default 10000)
 *   ARCH.rope.dimension_count           d; else ARCH.attention.key_length,
 *                                       else embedding_length / head_count
 *   ARCH.context_length                 L when the scaling gives none
 *   ARCH.rope.scaling.type              none, linear or yarn
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
 *                                       1 and its scores x m(s, v/0.1)^2)
 *   ARCH.rope.scaling.finetuned         a bool; checked, changes nothing
 * Keys that would change the numbers in ways peviz does not model
 * (rope.scaling.attn_factor, yarn_attn_factor, yarn_ext_factor other
 * than their neutral values; yarn_log_multiplier of other architectures,
 * whose converters write it differently) are refused, not ignored.
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
    if (!strcmp(kv->str, "linear") || !strcmp(kv->str, "yarn")) {
        *m = kv->str[0] == 'l' ? ROPE_LINEAR : ROPE_YARN;
        return 0;
    }
    char why[120];
    snprintf(why, sizeof why, "unknown type '%.30s'; want none, linear or yarn",
             kv->str);
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
    if (r == 0)
        return m == ROPE_NONE ? 0 : gbad(c, key, "missing");
    return gset(c, key, RO_FACTOR, s);
}

/* rope_freqs.weight: d/2 divisors, held as equal LongRoPE lists. */
static int divisors(struct gcfg *c, const struct gguf_tensor *t)
{
    static const char *const K = "rope_freqs.weight";
    double f[ROPE_FACTORS_MAX], mx = 1;
    char msg[200];
    int half = c->next.d / 2;
    if (t->nelements != (uint64_t)half || half > ROPE_FACTORS_MAX) {
        snprintf(msg, sizeof msg, "%llu values; want d/2 = %d (at most %d)",
                 (unsigned long long)t->nelements, half, ROPE_FACTORS_MAX);
        return gbad(c, K, msg);
    }
    if (gguf_read_tensor(c->g, t, f, msg, sizeof msg)) {
        snprintf(c->err, c->errlen, "%s", msg);
        return -1;
    }
    for (int i = 0; i < half; i++)
        mx = f[i] > mx ? f[i] : mx;
    if (params_set_rope_list(&c->next, RO_SHORT_FACTOR, f, half, msg, sizeof msg) ||
        params_set_rope_list(&c->next, RO_LONG_FACTOR, f, half, msg, sizeof msg))
        return gbad(c, K, msg);
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

/* yarn_log_multiplier: DeepSeek's 0.1 mscale_all_dim. */
static int log_multiplier(struct gcfg *c)
{
    char key[200];
    double v;
    int r = gnum(c, "rope.scaling.yarn_log_multiplier", &v, key, sizeof key);
    if (r <= 0)
        return r;
    if (strncmp(c->arch, "deepseek", 8) != 0)
        return gbad(c, key, "its meaning depends on the converter; peviz "
                    "reads it for deepseek* files only");
    if (!(v > 0))
        return gbad(c, key, "want a number > 0 (0.1 mscale_all_dim)");
    return gset(c, key, RO_MSCALE, v / 0.1) ||
           gset(c, key, RO_MSCALE_ALL_DIM, v / 0.1) ? -1 : 0;
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

static int finetuned(struct gcfg *c)
{
    char key[200];
    snprintf(key, sizeof key, "%s.rope.scaling.finetuned", c->arch);
    const struct gguf_kv *kv = gguf_find_kv(c->g, key);
    return kv && kv->type != GGUF_BOOL ? gbad(c, key, "not true or false") : 0;
}

/* The keys beyond type, factor and length. */
static int extras(struct gcfg *c)
{
    return betas(c) || log_multiplier(c) || finetuned(c) ||
           neutral(c, "rope.scaling.attn_factor", 1, 1) ||
           neutral(c, "rope.scaling.yarn_attn_factor", 1, 1) ||
           neutral(c, "rope.scaling.yarn_ext_factor", 1, -1) ? -1 : 0;
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
    c->next.rope.method = m;
    if (factor(c, m) || lengths(c, m == ROPE_YARN) || extras(c))
        return -1;
    const struct gguf_tensor *t = gguf_find_tensor(c->g, "rope_freqs.weight");
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

/* The settings of an opened file (closed here); p changes on success. */
static int load(const char *name, struct gguf *g, params *p, char *err,
                size_t errlen)
{
    struct gcfg c = { name, g, "", *p, err, errlen };
    rope_scaling_default(&c.next.rope);
    int r = read_settings(&c);
    gguf_close(g);
    if (r == 0)
        *p = c.next;
    return r;
}

int gguf_config_load(const char *path, params *p, char *err, size_t errlen)
{
    struct gguf *g;
    if (gguf_open(path, &g, err, errlen))
        return -1;
    return load(path, g, p, err, errlen);
}

int gguf_config_load_buffer(const char *name, const unsigned char *buf,
                            size_t len, params *p, char *err, size_t errlen)
{
    struct gguf *g;
    if (gguf_open_buffer(name, buf, len, &g, err, errlen))
        return -1;
    return load(name, g, p, err, errlen);
}
