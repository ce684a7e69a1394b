/* SPDX-License-Identifier: ISC */
/*
 * config_mask.c - the attention mask of a config.json's layer type (see
 * config_mask.h for the rules, each from transformers' configuration_*.py
 * and masking_utils.py).
 */
#include <stdio.h>
#include <string.h>

#include "config_mask.h"
#include "params.h"

#define MASK_LAYERS_MAX 4096    /* layers looked at without num_hidden_layers */

/* What a class sets when config.json is silent: transformers'
 * configuration_mistral.py, configuration_gemma2.py,
 * configuration_gemma3.py, configuration_gpt_oss.py,
 * configuration_qwen2.py (sliding_window) and configuration_llama4.py
 * (attention_chunk_size). */
static const struct mask_default {
    const char *model_type;
    int64_t window, chunk;
} MASK_DEFAULTS[] = {
    { "mistral", 4096, 0 },      { "gemma2", 4096, 0 },
    { "gemma3_text", 4096, 0 },  { "gemma3", 4096, 0 },
    { "gpt_oss", 128, 0 },       { "qwen2", 4096, 0 },
    { "llama4_text", 0, 8192 },  { "llama4", 0, 8192 },
};

static const char *config_mask_type(const json_value *root)
{
    const char *t = json_string(json_get(root, "model_type"));
    return t ? t : "";
}

static int config_mask_is(const json_value *root, const char *a,
                          const char *b)
{
    const char *t = config_mask_type(root);
    return strcmp(t, a) == 0 || strcmp(t, b) == 0;
}

static const struct mask_default *config_mask_default(const json_value *root)
{
    for (size_t i = 0; i < sizeof MASK_DEFAULTS / sizeof MASK_DEFAULTS[0]; i++)
        if (strcmp(config_mask_type(root), MASK_DEFAULTS[i].model_type) == 0)
            return &MASK_DEFAULTS[i];
    return NULL;
}

/* An integer setting: 1 a whole number in 1..PARAM_N_MAX (into *v), 0
 * null, -1 missing, -2 anything else. */
static int config_mask_int(const json_value *root, const char *key,
                           int64_t *v)
{
    const json_value *x = json_get(root, key);
    int64_t k;
    if (!x)
        return -1;
    if (x->type == JSON_NULL)
        return 0;
    if (json_int64(x, &k) || k < 1 || k > PARAM_N_MAX)
        return -2;
    *v = k;
    return 1;
}

/* A setting's value or its default. */
static int64_t config_mask_int_or(const json_value *root, const char *key,
                                  int64_t def)
{
    int64_t v;
    return config_mask_int(root, key, &v) > 0 ? v : def;
}

/* Whether the file turns sliding windows on: use_sliding_window true or
 * absent. */
static int config_mask_sliding_on(const json_value *root)
{
    int on = 1;
    const json_value *u = json_get(root, "use_sliding_window");
    if (u && json_bool(u, &on))
        on = 0;
    return on;
}

/* Whether the model attends both ways (Gemma 3's true, Gemma 4's "all"):
 * its window is then sliding_window / 2 + 1 on either side, which a causal
 * mask cannot show. */
static int config_mask_bidirectional(const json_value *root)
{
    const json_value *b = json_get(root, "use_bidirectional_attention");
    const char *t = json_string(b);
    return (b && b->type == JSON_TRUE) || (t && strcmp(t, "all") == 0);
}

/* Whether sliding_window is a number or missing (a class default). */
static int config_mask_window_set(const json_value *root)
{
    const json_value *w = json_get(root, "sliding_window");
    return !w ? config_mask_default(root) != NULL : w->type == JSON_NUMBER;
}

/* The type of layer i as the class makes it without layer_types. */
static const char *config_mask_made(const json_value *root, int64_t i,
                                    int64_t layers)
{
    if (config_mask_is(root, "llama4", "llama4_text")) {
        const json_value *nr = json_get(root, "no_rope_layers");
        double r = (i + 1) % config_mask_int_or(root, "no_rope_layer_interval",
                                                4) != 0;
        if (json_count(nr) > 0 && json_number(json_at(nr, (size_t)i), &r))
            r = 1;
        return r != 0 ? "chunked_attention" : "full_attention";
    }
    int64_t pattern = config_mask_is(root, "gemma2", "gpt_oss") ? 2 : 0;
    if (config_mask_is(root, "gemma3", "gemma3_text"))
        pattern = config_mask_int_or(root, "sliding_window_pattern", 6);
    if (config_mask_is(root, "gemma4", "gemma4_text"))
        pattern = i == layers - 1 ? 1 : 6;
    if (pattern > 0)
        return (i + 1) % pattern ? "sliding_attention" : "full_attention";
    if (json_get(root, "use_sliding_window"))
        return config_mask_sliding_on(root) && config_mask_window_set(root) &&
               i >= config_mask_int_or(root, "max_window_layers", 28)
               ? "sliding_attention" : "full_attention";
    return config_mask_window_set(root) ? "sliding_attention"
                                        : "full_attention";
}

/* The type of layer i: layer_types' entry, else the class's. */
static const char *config_mask_layer_at(const json_value *root, int64_t i,
                                        int64_t layers)
{
    const json_value *lt = json_get(root, "layer_types");
    if (lt && lt->type == JSON_ARRAY)
        return json_string(json_at(lt, (size_t)i));
    return config_mask_made(root, i, layers);
}

static int64_t config_mask_layers(const json_value *root)
{
    const json_value *lt = json_get(root, "layer_types");
    if (lt && lt->type == JSON_ARRAY)
        return (int64_t)json_count(lt);
    int64_t n = config_mask_int_or(root, "num_hidden_layers", MASK_LAYERS_MAX);
    return n < MASK_LAYERS_MAX ? n : MASK_LAYERS_MAX;
}

/* Whether the file says what its layers are: layer_types, a family whose
 * class makes them, or the sliding settings.  A file without (Llama 2)
 * has no layer types to pick. */
static int config_mask_known(const json_value *root)
{
    static const char *const KEYS[] = { "layer_types", "sliding_window",
                                        "use_sliding_window",
                                        "attention_chunk_size" };
    for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0]; i++)
        if (json_get(root, KEYS[i]))
            return 1;
    return config_mask_default(root) || config_mask_is(root, "gemma4",
                                                       "gemma4_text");
}

int config_mask_has_layer(const json_value *root, const char *name)
{
    int64_t n = config_mask_known(root) ? config_mask_layers(root) : 0;
    for (int64_t i = 0; name && i < n; i++) {
        const char *t = config_mask_layer_at(root, i, n);
        if (t && strcmp(t, name) == 0)
            return 1;
    }
    return 0;
}

const char *config_mask_layer_name(const json_value *root, int64_t i,
                                   int64_t *layers)
{
    *layers = config_mask_known(root) ? config_mask_layers(root) : 0;
    return i >= 0 && i < *layers ? config_mask_layer_at(root, i, *layers)
                                 : NULL;
}

int config_mask_answer(const char *path, const char *t, int64_t i,
                       int64_t layers, int readable, const char *what,
                       const char *nothing, char *name, size_t len,
                       char *err, size_t errlen)
{
    if (t)
        snprintf(name, len, "%s", t);
    else if (!readable)
        snprintf(err, errlen, "%s: not a readable %s", path, what);
    else if (layers == 0)
        snprintf(err, errlen, "%s: says nothing of its layers (%s)", path,
                 nothing);
    else
        snprintf(err, errlen, "%s: layer %lld: want 0..%lld (its layers)",
                 path, (long long)i, (long long)layers - 1);
    return t ? 0 : -1;
}

void config_mask_names(const json_value *root, char *buf, size_t len)
{
    int64_t n = config_mask_known(root) ? config_mask_layers(root) : 0;
    size_t k = 0;
    buf[0] = 0;
    for (int64_t i = 0; i < n && k + 1 < len; i++) {
        const char *t = config_mask_layer_at(root, i, n);
        int seen = 0;
        for (int64_t j = 0; t && j < i && !seen; j++) {
            const char *u = config_mask_layer_at(root, j, n);
            seen = u && strcmp(u, t) == 0;
        }
        if (t && !seen)
            k += (size_t)snprintf(buf + k, len - k, "%s%.60s", k ? ", " : "",
                                  t);
    }
}

/* The size key of a mask into *v with its note: 1 set, 0 none. */
static int config_mask_size(const json_value *root, const char *key,
                            int64_t def, const char *what, int64_t *v,
                            struct config_mask *m)
{
    int r = config_mask_int(root, key, v);
    if (r > 0) {
        snprintf(m->note, sizeof m->note, "%s %lld from %s", what,
                 (long long)*v, key);
        return 1;
    }
    if (r == -1 && def > 0) {
        *v = def;
        snprintf(m->note, sizeof m->note, "%s %lld (%.40s class default)",
                 what, (long long)def, config_mask_type(root));
        return 1;
    }
    *v = 0;
    return 0;
}

void config_mask_of(const json_value *root, const char *name,
                    struct config_mask *m)
{
    static const char *const SIZES[] = { "sliding_window",
                                         "attention_chunk_size" };
    const struct mask_default *d = config_mask_default(root);
    int64_t v;
    memset(m, 0, sizeof *m);
    for (int k = 0; k < 2 && !m->bad; k++)      /* whichever layer is shown */
        if (config_mask_int(root, SIZES[k], &v) == -2)
            m->bad = SIZES[k];
    if (!name)
        name = config_mask_layer_at(root, 0, config_mask_layers(root));
    snprintf(m->layer, sizeof m->layer, "%.60s", name ? name : "");
    if (strcmp(m->layer, "sliding_attention") == 0 &&
        config_mask_bidirectional(root))
        snprintf(m->note, sizeof m->note, "window not shown: "
                 "use_bidirectional_attention");
    else if (strcmp(m->layer, "sliding_attention") == 0 &&
             config_mask_sliding_on(root))
        config_mask_size(root, "sliding_window", d ? d->window : 0, "window",
                         &m->window, m);
    if (strcmp(m->layer, "chunked_attention") == 0)
        config_mask_size(root, "attention_chunk_size", d ? d->chunk : 0,
                         "chunk", &m->chunk, m);
    m->nope = config_mask_is(root, "llama4", "llama4_text") &&
              strcmp(m->layer, "full_attention") == 0;
    if (config_mask_is(root, "gpt_oss", "gpt_oss")) {  /* said, not made up */
        size_t k = strlen(m->note);
        snprintf(m->note + k, sizeof m->note - k, "%ssinks: weights, not in "
                 "the file", k ? "; " : "");
    }
}
