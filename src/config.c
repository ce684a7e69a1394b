/* SPDX-License-Identifier: ISC */
/*
 * config.c - RoPE settings from a transformers config.json (see
 * config.h).  The keys, as transformers reads them:
 *   v4: rope_theta, rope_scaling {rope_type | type, factor, ...}
 *   v5: rope_parameters {rope_theta, rope_type, partial_rotary_factor, ...},
 *       or one such object per layer type ({full_attention: {...}, ...})
 *   d:  qk_rope_head_dim (DeepSeek), else head_dim, else
 *       hidden_size / num_attention_heads; times partial_rotary_factor or
 *       rotary_pct (truncated to a whole number, as int() does), or
 *       rotary_dim itself (GPT-J, CodeGen)
 *   L:  original_max_position_embeddings of the scaling, else the
 *       top-level one (Phi-3), else max_position_embeddings; dynamic NTK
 *       reads max_position_embeddings
 * A multimodal config (Llama 4, Gemma 3 >= 4B) holds them in its
 * text_config object: read from there when the top level has none.
 * DeepSeek's extra score factor m(s, mscale_all_dim)^2 is kept only for
 * the architectures whose attention applies it (see mla_family).
 * Every value is set through params.c, so a file is held to the same
 * ranges as the command line.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "config_mask.h"
#include "gguf_config.h"
#include "peviz/json.h"
#include "peviz/names.h"
#include "peviz/tables.h"

struct cfg {
    const char *file;
    const char *prefix;         /* "text_config." when read from there */
    const json_value *root;
    const json_value *rp;       /* the scaling settings, or NULL */
    char rp_name[80];           /* its key path: "rope_scaling", ... */
    int local;                  /* v4 Gemma 3 sliding layers: the base is
                                   rope_local_base_freq, no scaling */
    int nope;                   /* the layer type's entry is null: a layer
                                   without RoPE */
    int v4;                     /* DeepSeek V4 without per-label entries:
                                   1 main, 2 compress (labels its class
                                   makes), 0 otherwise */
    char layer[64];             /* the layer type in force, or "" */
    char class_note[160];       /* the class defaults that applied
                                   ("rotary 0.5"), ", " between, or "" */
    int class_n;                /* how many */
    const char *class_type;     /* their model_type ("glm4_moe") */
    params next;
    char *err;
    size_t errlen;
};

/* One line naming the file and the key (keys come from the file: no
 * control characters get through); returns -1. */
static int bad(struct cfg *c, const char *obj, const char *key, const char *why)
{
    snprintf(c->err, c->errlen, "%s: key '%s%s%s%s': %s", c->file, c->prefix,
             obj ? obj : "", obj ? "." : "", key, why);
    for (char *q = c->err; *q; q++)
        if ((unsigned char)*q < 0x20 || *q == 0x7f)
            *q = '?';
    return -1;
}

/* 1: found (into *out); 0: absent or null; -1: not a number. */
static int num(struct cfg *c, const json_value *obj, const char *objname,
               const char *key, double *out)
{
    const json_value *v = json_get(obj, key);
    if (!v || v->type == JSON_NULL)
        return 0;
    if (json_number(v, out))
        return bad(c, objname, key, "not a number");
    return 1;
}

static int need_num(struct cfg *c, const json_value *obj, const char *objname,
                    const char *key, double *out)
{
    int r = num(c, obj, objname, key, out);
    return r == 0 ? bad(c, objname, key, "missing") : r;
}

/* A scaling setting from the scaling object, through params.c. */
static int opt(struct cfg *c, const char *key, enum rope_opt id, int required)
{
    double v;
    char msg[200];
    int r = required ? need_num(c, c->rp, c->rp_name, key, &v)
                     : num(c, c->rp, c->rp_name, key, &v);
    if (r <= 0)
        return r;
    if (params_set_rope_number(&c->next, id, v, msg, sizeof msg))
        return bad(c, c->rp_name, key, msg);
    return 0;
}

static int set_number(struct cfg *c, const char *obj, const char *key,
                      enum rope_opt id, double v)
{
    char msg[200];
    if (params_set_rope_number(&c->next, id, v, msg, sizeof msg))
        return bad(c, obj, key, msg);
    return 0;
}

static int factor_list(struct cfg *c, const char *key, enum rope_opt id)
{
    const json_value *a = json_get(c->rp, key);
    double v[ROPE_FACTORS_MAX];
    char msg[200];
    if (!a)
        return bad(c, c->rp_name, key, "missing");
    if (a->type != JSON_ARRAY)
        return bad(c, c->rp_name, key, "not a list of numbers");
    if (json_count(a) > ROPE_FACTORS_MAX)
        return bad(c, c->rp_name, key, "more than 256 values");
    for (size_t i = 0; i < json_count(a); i++)
        if (json_number(json_at(a, i), &v[i]))
            return bad(c, c->rp_name, key, "not a list of numbers");
    if (params_set_rope_list(&c->next, id, v, (int)json_count(a), msg, sizeof msg))
        return bad(c, c->rp_name, key, msg);
    return 0;
}

/* ---- model-class defaults ---------------------------------------------- */

/* Values a model's class sets when config.json is silent, keyed by
 * model_type, each from the class's source. */
static const struct class_default {
    const char *model_type;
    double partial_rotary_factor;
    const char *source;
    double head_dim;            /* 0: none */
    double compress_rope_theta; /* DeepSeek V4's compress layers; 0: none */
} CLASS_DEFAULTS[] = {
    /* transformers, models/glm4_moe/configuration_glm4_moe.py:
     * Glm4MoeConfig(partial_rotary_factor=0.5) */
    { "glm4_moe", 0.5, "configuration_glm4_moe.py", 0, 0 },
    /* transformers, models/deepseek_v4/configuration_deepseek_v4.py:
     * head_dim 512, default_partial_rotary_factor 64 / 512 (unless
     * qk_rope_head_dim is given), compress_rope_theta 160000.0; without
     * per-label entries its rope_parameters become "main" (default RoPE,
     * rope_theta) and "compress" (the file's scaling, compress_rope_theta,
     * attention_factor 1.0 when yarn), each with that rotary fraction;
     * modeling_deepseek_v4.py reads an entry's partial_rotary_factor with
     * default 1.0, so entries of the file's own turn all of head_dim
     * unless they say */
    { "deepseek_v4", 64.0 / 512, "configuration_deepseek_v4.py", 512, 160000 },
};

/* The class default row of the settings' model_type, or NULL. */
static const struct class_default *class_default(const json_value *root)
{
    const json_value *t = json_get(root, "model_type");
    for (size_t i = 0; t && json_string(t) &&
         i < sizeof CLASS_DEFAULTS / sizeof CLASS_DEFAULTS[0]; i++)
        if (strcmp(json_string(t), CLASS_DEFAULTS[i].model_type) == 0)
            return &CLASS_DEFAULTS[i];
    return NULL;
}

/* A class default that applied, beside any other. */
static void note_add(struct cfg *c, const char *what, double v,
                     const char *model_type)
{
    size_t k = strlen(c->class_note);
    snprintf(c->class_note + k, sizeof c->class_note - k, "%s%s %g",
             k ? ", " : "", what, v);
    c->class_type = model_type;
    c->class_n++;
}

/* ---- where the settings are ------------------------------------------- */

/* Keys of one set of settings, never a layer type's name: beside the
 * per-layer entries a transformers 5 file may keep them as null
 * ("rope_theta": null). */
static int setting_key(const char *k)
{
    static const char *const K[] = { "rope_theta", "rope_type", "type",
                                     "partial_rotary_factor", "factor" };
    return names_find(K, NAMES_COUNT(K), k) >= 0;
}

/* Whether rope_parameters is keyed by layer type: each value an object
 * (a layer type's settings) or null (a layer type without RoPE), at least
 * one an object; settings beside them ("rope_theta": null, "rope_type":
 * "default", as transformers 5 writes a Gemma 4 file) are not layer
 * types. */
static int layer_form(const json_value *rp)
{
    int objects = 0;
    for (size_t i = 0; i < json_count(rp); i++) {
        const json_value *v = json_at(rp, i);
        if (setting_key(v->key))
            continue;
        if (v->type == JSON_OBJECT)
            objects++;
        else if (v->type != JSON_NULL)
            return 0;
    }
    return objects > 0;
}

/* The entry of layer, or with none the first layer type with RoPE. */
static const json_value *layer_entry(const json_value *rp, const char *layer)
{
    if (layer)
        return setting_key(layer) ? NULL : json_get(rp, layer);
    for (size_t i = 0; i < json_count(rp); i++)
        if (json_at(rp, i)->type == JSON_OBJECT)
            return json_at(rp, i);
    return NULL;
}

static int per_layer(struct cfg *c, const json_value *rp, const char *layer)
{
    const json_value *e = layer_entry(rp, layer);
    if (!e) {
        char names[160] = "";
        size_t k = 0;
        for (size_t i = 0; i < json_count(rp) && k + 1 < sizeof names; i++)
            if (!setting_key(json_at(rp, i)->key))
                k += (size_t)snprintf(names + k, sizeof names - k, "%s%s",
                                      k ? ", " : "", json_at(rp, i)->key);
        char why[220];
        snprintf(why, sizeof why, "no such layer type; the file has %s",
                 names[0] ? names : "none");
        return bad(c, "rope_parameters", layer ? layer : "(first)", why);
    }
    snprintf(c->rp_name, sizeof c->rp_name, "rope_parameters.%.60s", e->key);
    snprintf(c->layer, sizeof c->layer, "%.60s", e->key);
    if (e->type == JSON_NULL) {     /* a layer type without RoPE */
        c->nope = 1;
        c->rp = NULL;
        return 0;
    }
    if (e->type != JSON_OBJECT)
        return bad(c, "rope_parameters", e->key, "not an object or null");
    c->rp = e;
    return 0;
}

/* DeepSeek V4 without per-label entries: its class makes "main" (no
 * scaling, rope_theta) and "compress" (the file's scaling object,
 * compress_rope_theta), main first. */
static int v4_labels(struct cfg *c, const json_value *rp, const char *layer,
                     const struct class_default *cd)
{
    double t;
    int r;
    if (layer && strcmp(layer, "main") != 0 && strcmp(layer, "compress") != 0)
        return bad(c, NULL, layer, "no such layer type; the file has main, "
                   "compress");
    c->v4 = layer && strcmp(layer, "compress") == 0 ? 2 : 1;
    snprintf(c->layer, sizeof c->layer, "%s", c->v4 == 2 ? "compress" : "main");
    c->rp = NULL;
    if (c->v4 == 1)
        return 0;
    if ((r = num(c, c->root, NULL, "compress_rope_theta", &t)) < 0)
        return -1;
    if (r == 0)
        note_add(c, "compress_rope_theta", cd->compress_rope_theta,
                 cd->model_type);
    const char *key = rp && rp->type == JSON_OBJECT ? "rope_parameters"
                                                    : "rope_scaling";
    rp = json_get(c->root, key);
    if (rp && rp->type != JSON_NULL && rp->type != JSON_OBJECT)
        return bad(c, NULL, key, "not an object");
    snprintf(c->rp_name, sizeof c->rp_name, "%s", key);
    c->rp = rp && rp->type == JSON_OBJECT ? rp : NULL;
    return 0;
}

/* A layer type of a file with one set of RoPE settings for every layer
 * (layer_types, or the types its class makes: gpt-oss, Mistral, Llama 4):
 * 1 when the file has it, the layer type in force then (Llama 4's
 * full_attention layers have no RoPE). */
static int one_set_layer(struct cfg *c, const char *layer)
{
    struct config_mask m;
    if (!config_mask_has_layer(c->root, layer))
        return 0;
    config_mask_of(c->root, layer, &m);
    snprintf(c->layer, sizeof c->layer, "%.60s", layer);
    c->nope = m.nope;
    return 1;
}

/* A layer type a file with one set of settings does not have; for a
 * file that says nothing of its layers, obj.key: why. */
static int no_layer(struct cfg *c, const char *layer, const char *obj,
                    const char *key, const char *why0)
{
    char names[160], why[260];
    config_mask_names(c->root, names, sizeof names);
    if (!names[0])
        return bad(c, obj, key, why0);
    snprintf(why, sizeof why, "no such layer type; the file has %s (one "
             "set of RoPE settings for every layer)", names);
    snprintf(c->err, c->errlen, "%s: --layer-type '%.60s': %s", c->file,
             layer, why);
    for (char *q = c->err; *q; q++)
        if ((unsigned char)*q < 0x20 || *q == 0x7f)
            *q = '?';
    return -1;
}

static int find_settings(struct cfg *c, const char *layer)
{
    const json_value *rp = json_get(c->root, "rope_parameters");
    const struct class_default *cd = class_default(c->root);
    if (cd && cd->compress_rope_theta > 0 &&
        !(rp && rp->type == JSON_OBJECT && layer_form(rp)))
        return v4_labels(c, rp, layer, cd);
    if (rp && rp->type != JSON_NULL) {
        if (rp->type != JSON_OBJECT)
            return bad(c, NULL, "rope_parameters", "not an object");
        if (!layer_form(rp)) {
            if (layer && !one_set_layer(c, layer))
                return no_layer(c, layer, "rope_parameters", layer,
                                "no such layer type (one set of settings "
                                "for every layer)");
            c->rp = rp;
            snprintf(c->rp_name, sizeof c->rp_name, "rope_parameters");
            return 0;
        }
        return per_layer(c, rp, layer);
    }
    if (layer && json_get(c->root, "rope_local_base_freq")) {
        /* v4 Gemma 3: full layers rope_theta + rope_scaling, sliding
         * layers rope_local_base_freq unscaled */
        c->local = strcmp(layer, "sliding_attention") == 0;
        snprintf(c->layer, sizeof c->layer, "%s", layer);
        if (!c->local && strcmp(layer, "full_attention") != 0)
            return bad(c, NULL, layer, "no such layer type; the file has "
                       "full_attention, sliding_attention");
        if (c->local) {
            c->rp = NULL;
            return 0;
        }
    } else if (layer && !one_set_layer(c, layer)) {
        return no_layer(c, layer, NULL, "rope_parameters", "missing "
                        "(--layer-type needs the per-layer-type form)");
    }
    snprintf(c->rp_name, sizeof c->rp_name, "rope_scaling");
    rp = json_get(c->root, "rope_scaling");
    if (rp && rp->type != JSON_NULL && rp->type != JSON_OBJECT)
        return bad(c, NULL, "rope_scaling", "not an object");
    c->rp = rp && rp->type == JSON_OBJECT ? rp : NULL;
    return 0;
}

/* ---- base and rotary dimensions ---------------------------------------- */

/* DeepSeek V4's labels made by its class: main's rope_theta (the file's,
 * else its rope_parameters', else the class's 10000), compress's
 * compress_rope_theta (the file's, else the class's). */
static int v4_base(struct cfg *c)
{
    double b = c->v4 == 2 ? 160000.0 : 10000.0;
    char msg[200];
    const char *key = c->v4 == 2 ? "compress_rope_theta" : "rope_theta";
    const json_value *rp = json_get(c->root, "rope_parameters");
    int r = num(c, c->root, NULL, key, &b);
    if (r == 0 && c->v4 == 1 && rp && rp->type == JSON_OBJECT)
        r = num(c, rp, "rope_parameters", key, &b);
    if (r < 0)
        return -1;
    if (r == 0 && c->v4 == 2)
        b = class_default(c->root)->compress_rope_theta;
    if (params_set_base(&c->next, b, msg, sizeof msg))
        return bad(c, NULL, key, msg);
    return 0;
}

static int set_base(struct cfg *c)
{
    double b;
    char msg[200];
    const char *key = c->local ? "rope_local_base_freq" : "rope_theta";
    const char *first = key, *obj = NULL;
    if (c->v4)
        return v4_base(c);
    int r = c->local ? 0 : num(c, c->rp, c->rp_name, key, &b);
    if (r > 0)
        obj = c->rp_name;
    else if (r == 0 && (r = num(c, c->root, NULL, key, &b)) == 0 && !c->local) {
        key = "rotary_emb_base";                    /* GPT-NeoX */
        r = num(c, c->root, NULL, key, &b);
    }
    if (r == 0 && c->nope)
        return 0;               /* no RoPE: the base is never used */
    if (r == 0)
        return bad(c, NULL, first, "missing");
    if (r < 0)
        return -1;
    if (params_set_base(&c->next, b, msg, sizeof msg))
        return bad(c, obj, key, msg);
    return 0;
}

static int head_dim(struct cfg *c, double *hd, const char **key)
{
    double h, heads;
    int r;
    *key = "qk_rope_head_dim";
    if ((r = num(c, c->root, NULL, *key, hd)) != 0)
        return r < 0 ? -1 : 1;              /* DeepSeek: rope part alone */
    *key = "head_dim";
    if ((r = num(c, c->root, NULL, *key, hd)) != 0)
        return r < 0 ? -1 : 0;
    const struct class_default *cd = class_default(c->root);
    if (cd && cd->head_dim > 0) {
        *hd = cd->head_dim;
        note_add(c, "head_dim", *hd, cd->model_type);
        return 0;
    }
    if (need_num(c, c->root, NULL, "hidden_size", &h) < 0 ||
        need_num(c, c->root, NULL, "num_attention_heads", &heads) < 0)
        return -1;
    *key = "hidden_size";
    if (!(heads >= 1) || h / heads != floor(h / heads))   /* no cast: h may be huge */
        return bad(c, NULL, "num_attention_heads",
                   "does not divide hidden_size");
    *hd = h / heads;
    return 0;
}

/* GPT-J, CodeGen: rotary_dim, the count itself.  1 when set, 0 when
 * absent, -1 on error. */
static int rotary_dim(struct cfg *c)
{
    double r;
    char msg[200];
    int k = num(c, c->root, NULL, "rotary_dim", &r);
    if (k <= 0)
        return k;
    if (r != floor(r) || fabs(r) > 1e9)
        return bad(c, NULL, "rotary_dim", "want an even whole number");
    if (params_set_d(&c->next, (long)r, msg, sizeof msg))
        return bad(c, NULL, "rotary_dim", msg);
    return 1;
}

static int method(struct cfg *c, enum rope_method *m);

/* Gemma 4's full-attention layers: global_head_dim, when the file has it. */
static int global_head_dim(struct cfg *c, double *hd, const char **key)
{
    int r;
    if (strcmp(c->layer, "full_attention") != 0)
        return 0;
    if ((r = num(c, c->root, NULL, "global_head_dim", hd)) > 0)
        *key = "global_head_dim";
    return r;
}

/* Proportional RoPE: d is the whole head dim, the fraction is how many
 * of its bands turn (transformers' proportional type). */
static int proportional_dims(struct cfg *c, double hd, const char *key,
                             double f, const char *fkey)
{
    char msg[200];
    if (fkey && !(f > 0 && f <= 1))
        return bad(c, NULL, fkey, "want a number in (0, 1]");
    if (fabs(hd) > 1e9 || hd != floor(hd))
        return bad(c, NULL, key, "want an even whole number");
    if (params_set_d(&c->next, (long)hd, msg, sizeof msg))
        return bad(c, NULL, key, msg);
    return fkey ? set_number(c, NULL, fkey, RO_PROPORTION, f) : 0;
}

static int set_dims(struct cfg *c)
{
    double hd, f = 1;
    const char *key, *fkey = NULL;
    char msg[200];
    enum rope_method m;
    int r = head_dim(c, &hd, &key);
    if (r < 0 || method(c, &m) || (r == 0 && global_head_dim(c, &hd, &key) < 0))
        return -1;
    int rd = rotary_dim(c);
    if (rd != 0)
        return rd < 0 ? -1 : 0;
    static const char *const PARTIAL[] = { "partial_rotary_factor", "rotary_pct" };
    for (int i = 0; r == 0 && i < 2 && !fkey; i++) {
        int k = num(c, c->rp, c->rp_name, PARTIAL[i], &f);
        if (k == 0)
            k = num(c, c->root, NULL, PARTIAL[i], &f);
        if (k < 0)
            return -1;
        if (k > 0)
            fkey = PARTIAL[i];
    }
    const struct class_default *cd = class_default(c->root);
    if (cd && cd->compress_rope_theta > 0 && !c->v4)
        cd = NULL;      /* V4's own entries: 1.0 unless they say (its
                           rotary embedding's default) */
    if (r == 0 && !fkey && cd) {        /* the class's own default */
        f = cd->partial_rotary_factor;
        fkey = "partial_rotary_factor";
        note_add(c, "rotary", f, cd->model_type);
    }
    if (m == ROPE_PROPORTIONAL)
        return proportional_dims(c, hd, key, f, fkey);
    if (fkey && !(f > 0 && f <= 1))
        return bad(c, NULL, fkey, "want a number in (0, 1]");
    double d = floor(hd * f);       /* int() rounds down */
    if (fabs(d) > 1e9) {            /* named as it is, never cast */
        snprintf(msg, sizeof msg, "%g rotary dimensions: out of range; want "
                 "an even number in %d..%d", d, PARAM_D_MIN, PARAM_D_MAX);
        return bad(c, NULL, fkey ? fkey : key, msg);
    }
    if (params_set_d(&c->next, (long)d, msg, sizeof msg))
        return bad(c, NULL, fkey ? fkey : key, msg);
    return 0;
}

/* ---- the scaling -------------------------------------------------------- */

static int method(struct cfg *c, enum rope_method *m)
{
    const char *key = "rope_type";
    const json_value *t = json_get(c->rp, key);
    if (!t) {
        key = "type";                       /* older transformers */
        t = json_get(c->rp, key);
    }
    *m = ROPE_NONE;
    if (!t || t->type == JSON_NULL)
        return 0;
    if (!json_string(t))
        return bad(c, c->rp_name, key, "not a string");
    int k = rope_method_parse(json_string(t));
    if (strcmp(json_string(t), "mrope") == 0)
        k = ROPE_NONE;      /* Qwen2-VL: transformers reads it as default */
    if (k < 0) {
        char why[256], names[160];
        rope_method_names(names, sizeof names, " or ");
        snprintf(why, sizeof why, "unknown method '%.30s'; want %s (none "
                 "is also read as default)", t->str, names);
        return bad(c, c->rp_name, key, why);
    }
    *m = (enum rope_method)k;
    return 0;
}

/* L: the scaling's own key, then the top level, then max_position_embeddings. */
static int original_length(struct cfg *c, int required, double *L)
{
    static const char *const K = "original_max_position_embeddings";
    int r = num(c, c->rp, c->rp_name, K, L);
    if (r > 0)
        return set_number(c, c->rp_name, K, RO_ORIGINAL_MAX, *L);
    if (r == 0 && (r = num(c, c->root, NULL, K, L)) > 0)
        return set_number(c, NULL, K, RO_ORIGINAL_MAX, *L);
    if (r == 0 && (r = num(c, c->root, NULL, "max_position_embeddings", L)) > 0)
        return set_number(c, NULL, "max_position_embeddings", RO_ORIGINAL_MAX, *L);
    if (r == 0 && required)
        return bad(c, NULL, "max_position_embeddings", "missing");
    *L = 0;
    return r;
}

/* The factor, or max_position_embeddings / L when the file has none. */
static int factor_or_ratio(struct cfg *c, double L)
{
    double f, mx;
    int r = num(c, c->rp, c->rp_name, "factor", &f);
    if (r != 0)
        return r < 0 ? -1 : set_number(c, c->rp_name, "factor", RO_FACTOR, f);
    if ((r = num(c, c->root, NULL, "max_position_embeddings", &mx)) < 0)
        return -1;
    if (r == 0 || !(L > 0))
        return bad(c, c->rp_name, "factor", "missing");
    return set_number(c, NULL, "max_position_embeddings", RO_FACTOR, mx / L);
}

static int yarn(struct cfg *c)
{
    double L;
    const json_value *t = json_get(c->rp, "truncate");
    int on;
    if (original_length(c, 1, &L) || factor_or_ratio(c, L) ||
        opt(c, "beta_fast", RO_BETA_FAST, 0) || opt(c, "beta_slow", RO_BETA_SLOW, 0) ||
        opt(c, "mscale", RO_MSCALE, 0) || opt(c, "mscale_all_dim", RO_MSCALE_ALL_DIM, 0) ||
        opt(c, "attention_factor", RO_ATTENTION_FACTOR, 0))
        return -1;
    if (t && t->type != JSON_NULL) {
        if (json_bool(t, &on))
            return bad(c, c->rp_name, "truncate", "not true or false");
        c->next.rope.truncate = on;
    }
    return 0;
}

static int longrope(struct cfg *c)
{
    double L, mx, f;
    int r = num(c, c->rp, c->rp_name, "factor", &f);
    if (r < 0 || original_length(c, 1, &L))
        return -1;
    if (r > 0) {
        if (set_number(c, c->rp_name, "factor", RO_FACTOR, f))
            return -1;
    } else if ((r = num(c, c->root, NULL, "max_position_embeddings", &mx)) < 0 ||
               (r > 0 && set_number(c, NULL, "max_position_embeddings",
                                    RO_FACTOR, mx / L > 1 ? mx / L : 1))) {
        return -1;
    }
    return factor_list(c, "short_factor", RO_SHORT_FACTOR) ||
           factor_list(c, "long_factor", RO_LONG_FACTOR) ||
           opt(c, "attention_factor", RO_ATTENTION_FACTOR, 0) ? -1 : 0;
}

static int set_scaling(struct cfg *c)
{
    enum rope_method m;
    double L, mx;
    if (method(c, &m))
        return -1;
    c->next.rope.method = m;
    switch (m) {
    case ROPE_NONE:
        return original_length(c, 0, &L) < 0 ? -1 : 0;
    case ROPE_LINEAR:
    case ROPE_NTK:
        return opt(c, "factor", RO_FACTOR, 1);
    case ROPE_DYNAMIC:      /* transformers reads max_position_embeddings */
        if (need_num(c, c->root, NULL, "max_position_embeddings", &mx) < 0 ||
            set_number(c, NULL, "max_position_embeddings", RO_ORIGINAL_MAX, mx))
            return -1;
        return opt(c, "factor", RO_FACTOR, 1);
    case ROPE_YARN:
        return yarn(c);
    case ROPE_LLAMA3:
        return opt(c, "factor", RO_FACTOR, 1) ||
               opt(c, "low_freq_factor", RO_LOW_FREQ, 1) ||
               opt(c, "high_freq_factor", RO_HIGH_FREQ, 1) ||
               opt(c, "original_max_position_embeddings", RO_ORIGINAL_MAX, 1)
               ? -1 : 0;
    case ROPE_LONGROPE:
        return longrope(c);
    case ROPE_PROPORTIONAL:     /* factor: 1 when not given */
        return opt(c, "factor", RO_FACTOR, 0) ||
               original_length(c, 0, &L) < 0 ? -1 : 0;
    default:        /* a method only the table knows: its factor and L */
        return opt(c, "factor", RO_FACTOR, 0) ||
               original_length(c, rope_method_info((int)m)->needs_original,
                               &L) < 0 ? -1 : 0;
    }
}

/* ---- the architecture ---------------------------------------------------- */

/* Whether name is one whose attention (DeepSeek's MLA) multiplies its
 * softmax scale by m(s, mscale_all_dim)^2: DeepSeek-V2, V3 and V3.2, and
 * the models built on V3's attention (Kimi K2, GLM-4.7-Flash, LongCat-
 * Flash).  Model types and class names ("DeepseekV3ForCausalLM") alike. */
static int mla_name(const char *name)
{
    static const char *const T[] = {
        "deepseek_v2", "deepseek_v3", "deepseek_v32", "kimi_k2",
        "glm4_moe_lite", "longcat_flash", "DeepseekV2", "DeepseekV3",
        "DeepseekV32", "Glm4MoeLite", "LongcatFlash"
    };
    for (size_t k = 0; name && k < sizeof T / sizeof T[0]; k++)
        if (strncmp(name, T[k], strlen(T[k])) == 0 &&
            (name[strlen(T[k])] == 0 || (name[strlen(T[k])] >= 'A' &&
                                         name[strlen(T[k])] <= 'Z')))
            return 1;
    return 0;
}

/* Of obj's model_type and architectures: 1 an MLA name, 0 other names,
 * -1 none given. */
static int names_mla(const json_value *obj)
{
    const json_value *t = json_get(obj, "model_type");
    const json_value *a = json_get(obj, "architectures");
    int named = 0;
    if (t && json_string(t)) {
        if (mla_name(json_string(t)))
            return 1;
        named = 1;
    }
    for (size_t i = 0; a && a->type == JSON_ARRAY && i < json_count(a); i++)
        if (json_string(json_at(a, i))) {
            if (mla_name(json_string(json_at(a, i))))
                return 1;
            named = 1;
        }
    return named ? 0 : -1;
}

/* Whether the model is of the DeepSeek MLA family: named so at the top
 * level or in text_config; with no name at all, when it has MLA's
 * qk_rope_head_dim. */
static int mla_family(const json_value *root, const json_value *text)
{
    int r = names_mla(root);
    int t = text != root ? names_mla(text) : -1;
    if (r == 1 || t == 1)
        return 1;
    if (r == 0 || t == 0)
        return 0;
    return json_get(text, "qk_rope_head_dim") != NULL;
}

/* Where the settings are: the top level, or its text_config object when
 * the top level has none (multimodal configs: Llama 4, Gemma 3 >= 4B). */
static const json_value *text_root(const json_value *root)
{
    static const char *const K[] = { "rope_theta", "rope_parameters",
                                     "rope_scaling", "head_dim", "hidden_size" };
    const json_value *t = root && root->type == JSON_OBJECT
                          ? json_get(root, "text_config") : NULL;
    if (!t || t->type != JSON_OBJECT)
        return root;
    for (size_t k = 0; k < sizeof K / sizeof K[0]; k++)
        if (json_get(root, K[k]))
            return root;
    return t;
}

/* DeepSeek V4's compress layers with yarn: attention_factor 1.0 unless the
 * file gives one (its class sets it so). */
static int v4_attention(struct cfg *c)
{
    double a;
    int r = c->v4 == 2 ? num(c, c->rp, c->rp_name, "attention_factor", &a) : 1;
    if (r != 0 || c->next.rope.method != ROPE_YARN)
        return r < 0 ? -1 : 0;
    return set_number(c, c->rp_name, "attention_factor", RO_ATTENTION_FACTOR, 1.0);
}

/* The mask of the layer type in force of c (after find_settings); v4
 * Gemma 3 without one shows its full layers' settings (rope_theta,
 * rope_scaling). */
static void layer_mask(const struct cfg *c, struct config_mask *m)
{
    const char *name = c->layer[0] ? c->layer
                     : json_get(c->root, "rope_local_base_freq")
                     ? "full_attention" : NULL;
    config_mask_of(c->root, name, m);
}

/* A config whose mask size is not one: one line in err, -1. */
static int check_mask(struct cfg *c)
{
    struct config_mask m;
    layer_mask(c, &m);
    char why[80];
    snprintf(why, sizeof why, "not a whole number in 1..%ld or null",
             (long)PARAM_N_MAX);
    return m.bad ? bad(c, NULL, m.bad, why) : 0;
}

int config_load_json(const char *name, const char *text, size_t len,
                     const char *layer_type, params *p,
                     char *err, size_t errlen)
{
    char jerr[160], msg[300];
    json_value *root = config_json(text, len, jerr, sizeof jerr);
    struct cfg c = { .file = name, .prefix = "", .root = text_root(root),
                     .next = *p, .err = err, .errlen = errlen };
    int r = -1;
    if (c.root != root)
        c.prefix = "text_config.";
    rope_scaling_default(&c.next.rope);
    if (!root)
        snprintf(err, errlen, "%s: not JSON: %s", name, jerr);
    else if (root->type != JSON_OBJECT)
        snprintf(err, errlen, "%s: not a config.json: the top level is %s, "
                 "not an object", name, json_type_name(root->type));
    else if (find_settings(&c, layer_type) == 0 && set_base(&c) == 0 &&
             set_dims(&c) == 0 && set_scaling(&c) == 0 && v4_attention(&c) == 0 &&
             check_mask(&c) == 0) {
        c.next.rope.plain_softmax = !mla_family(root, c.root);
        if (params_check_rope(&c.next, msg, sizeof msg))
            snprintf(err, errlen, "%s: %s", name, msg);
        else
            r = 0;
    }
    if (r == 0) {
        double mx;
        if (num(&c, c.root, NULL, "max_position_embeddings", &mx) > 0)
            params_set_context(&c.next, mx);    /* n: the model's context */
        *p = c.next;
    }
    json_free(root);
    return r;
}

json_value *config_json(const char *text, size_t len, char *jerr,
                        size_t jerrlen)
{
    struct json_limits lim = { CONFIG_MAX_BYTES, 32, 0 };
    if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3)) {
        text += 3;              /* a UTF-8 byte-order mark, as CSV takes */
        len -= 3;
    }
    return json_parse(text, len, &lim, jerr, jerrlen);
}

char *config_read(const char *path, size_t *n, char *err, size_t errlen)
{
    char why[160];
    /* opened without waiting (a FIFO would block for a writer), then
     * refused unless a regular file */
    int fd = tables_open_regular(path, why, sizeof why);
    FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        snprintf(err, errlen, "%s: %s", path, fd >= 0 ? strerror(errno) : why);
        return NULL;
    }
    /* as long as the file (a config is a few kilobytes), and one byte
     * past the limit, so that a larger file is seen to be larger */
    struct stat st;
    size_t cap = CONFIG_MAX_BYTES + 1;
    if (fstat(fd, &st) == 0 && st.st_size >= 0 && st.st_size < CONFIG_MAX_BYTES)
        cap = (size_t)st.st_size + 1;
    char *buf = malloc(cap < 4 ? 4 : cap);
    *n = buf ? fread(buf, 1, 4, f) : 0;
    if (buf && !(*n == 4 && memcmp(buf, "GGUF", 4) == 0))   /* GGUF: read
                                                   by gguf_config_load */
        *n += fread(buf + *n, 1, cap > *n ? cap - *n : 0, f);
    int rerr = ferror(f);
    fclose(f);
    if (!buf || rerr) {
        snprintf(err, errlen, "%s: %s", path, buf ? "read error" : "out of memory");
        free(buf);
        return NULL;
    }
    return buf;
}

/* The config.json at path parsed (NULL: not one, or a GGUF file), as
 * config_load reads it; *buf holds its text until freed. */
static json_value *read_json(const char *path, char **buf)
{
    char err[300], jerr[160];
    size_t n;
    *buf = config_read(path, &n, err, sizeof err);
    json_value *root = *buf && n <= CONFIG_MAX_BYTES &&
                       !(n >= 4 && memcmp(*buf, "GGUF", 4) == 0)
                       ? config_json(*buf, n, jerr, sizeof jerr) : NULL;
    if (root && root->type != JSON_OBJECT) {
        json_free(root);
        root = NULL;
    }
    return root;
}

/* What reading layer_type of path finds: the layer type in force, a
 * class default's note, whether it has no RoPE.  -1 when the file is
 * not a readable config.json or its settings are refused. */
static int read_layer(const char *path, const char *layer_type,
                      struct cfg *out)
{
    char *buf, err[300];
    json_value *root = read_json(path, &buf);
    int r = -1;
    if (root) {
        struct cfg c = { .file = path, .prefix = "", .root = text_root(root),
                         .err = err, .errlen = sizeof err };
        params_default(&c.next);
        if (find_settings(&c, layer_type) == 0) {
            r = 0;
            if (set_dims(&c))
                c.class_note[0] = 0;
            *out = c;
            out->root = NULL;       /* freed below */
            out->rp = NULL;
            out->err = NULL;
        }
    }
    json_free(root);
    free(buf);
    return r;
}

int config_class_note(const char *path, const char *layer_type, char *note,
                      size_t len)
{
    struct cfg c;
    if (read_layer(path, layer_type, &c) || !c.class_note[0])
        return 0;
    snprintf(note, len, "%s (%s class default%s)", c.class_note, c.class_type,
             c.class_n > 1 ? "s" : "");
    return 1;
}

/* The head dim and max_position_embeddings of a parsed config's layer
 * type into *hd and *mp (each 0 when the file has none). */
static void config_dims_of(struct cfg *c, const char *layer_type, int *hd,
                           int64_t *mp)
{
    double h = 0, m = 0;
    const char *key;
    if (find_settings(c, layer_type) != 0 || head_dim(c, &h, &key) < 0)
        h = 0;
    else if (strcmp(key, "qk_rope_head_dim") != 0 &&
             global_head_dim(c, &h, &key) < 0)
        h = 0;
    if (num(c, c->root, NULL, "max_position_embeddings", &m) <= 0)
        m = 0;
    *hd = h >= 2 && h <= 1e6 && h == floor(h) ? (int)h : 0;
    *mp = m >= 1 && m <= 9e15 && m == floor(m) ? (int64_t)m : 0;
}

int config_dims(const char *path, const char *layer_type, int *hd,
                int64_t *max_pos)
{
    char err[300], jerr[160];
    size_t n;
    params p;
    char *buf = config_read(path, &n, err, sizeof err);
    json_value *root = buf && n <= CONFIG_MAX_BYTES &&
                       !(n >= 4 && memcmp(buf, "GGUF", 4) == 0)
                       ? config_json(buf, n, jerr, sizeof jerr) : NULL;
    *hd = 0;
    *max_pos = 0;
    params_default(&p);
    if (root && root->type == JSON_OBJECT) {
        struct cfg c = { .file = path, .prefix = "", .root = text_root(root),
                         .next = p, .err = err, .errlen = sizeof err };
        config_dims_of(&c, layer_type, hd, max_pos);
    }
    json_free(root);
    free(buf);
    return *hd > 0 || *max_pos > 0 ? 0 : -1;
}

/* Whether path is a GGUF file (its first four bytes). */
static int is_gguf(const char *path)
{
    size_t n;
    char err[200], *buf = config_read(path, &n, err, sizeof err);
    int r = buf && n >= 4 && memcmp(buf, "GGUF", 4) == 0;
    free(buf);
    return r;
}

int config_layer(const char *path, const char *layer_type, char *name,
                 size_t len)
{
    if (is_gguf(path))
        return gguf_config_layer(path, layer_type, name, len);
    struct cfg c;
    if (read_layer(path, layer_type, &c) || !c.layer[0])
        return -1;
    snprintf(name, len, "%s", c.layer);
    return c.nope;
}

int config_mask(const char *path, const char *layer_type,
                struct config_mask *m)
{
    if (is_gguf(path))
        return gguf_config_mask(path, layer_type, m);
    struct cfg c;
    char *buf;
    json_value *root = read_json(path, &buf);
    int r = -1;
    memset(m, 0, sizeof *m);
    if (root && read_layer(path, layer_type, &c) == 0) {
        c.root = text_root(root);
        layer_mask(&c, m);
        r = m->bad ? -1 : 0;
    }
    json_free(root);
    free(buf);
    return r;
}

int config_layer_at(const char *path, int64_t i, char *name, size_t len,
                    char *err, size_t errlen)
{
    if (is_gguf(path))
        return gguf_config_layer_at(path, i, name, len, err, errlen);
    char *buf;
    json_value *root = read_json(path, &buf);
    int64_t layers = 0;
    const char *t = root ? config_mask_layer_name(text_root(root), i, &layers)
                         : NULL;
    int r = config_mask_answer(path, t, i, layers, root != NULL,
                               "config.json", "no layer_types, no sliding "
                               "or chunked attention", name, len, err,
                               errlen);
    json_free(root);
    free(buf);
    return r;
}

int config_load(const char *path, const char *layer_type, params *p,
                char *err, size_t errlen)
{
    size_t n;
    char *buf = config_read(path, &n, err, errlen);
    if (!buf)
        return -1;
    int r = -1;
    if (n >= 4 && memcmp(buf, "GGUF", 4) == 0)
        r = gguf_config_load(path, layer_type, p, err, errlen);
    else if (n > CONFIG_MAX_BYTES)
        snprintf(err, errlen, "%s: larger than %ld bytes; not a config.json",
                 path, (long)CONFIG_MAX_BYTES);
    else
        r = config_load_json(path, buf, n, layer_type, p, err, errlen);
    free(buf);
    return r;
}
