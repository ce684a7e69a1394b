/* SPDX-License-Identifier: ISC */
/*
 * gguf_mask.c - a GGUF file's layer types and masks (gguf_mask.h), by
 * llama.cpp's rules in src/llama-model.cpp (load_hparams: set_swa_pattern
 * and the sliding-window keys of each architecture).
 */
#include <stdio.h>
#include <string.h>

#include "gguf_mask.h"
#include "params.h"
#include "peviz/gguf.h"

#define GGUF_MASK_LAYERS_MAX 4096

/* An architecture's rule: every period-th layer full (set_swa_pattern,
 * dense last), or the per-layer list (period 0). */
static const struct gguf_rule {
    const char *arch;
    int chunked;            /* chunked attention, else sliding */
    int period;             /* 0: ARCH.attention.sliding_window_pattern */
    int64_t size;           /* the window or chunk when the key is absent
                               (0: none without it) */
    int swa_base;           /* the sliding layers' base: 10000, unscaled */
} GGUF_RULES[] = {
    { "gemma2", 0, 2, 4096, 0 },   { "gemma3", 0, 6, 0, 1 },
    { "gemma3n", 0, 5, 0, 1 },     { "cohere2", 0, 4, 0, 0 },
    { "olmo2", 0, 4, 0, 0 },       { "llama4", 1, 4, 8192, 0 },
    { "gemma4", 0, 0, 0, 0 },
};

static const char *arch_of(const struct gguf *g)
{
    const struct gguf_kv *kv = gguf_find_kv(g, "general.architecture");
    return kv && kv->type == GGUF_STRING && kv->str ? kv->str : "";
}

static const struct gguf_rule *rule_of(const struct gguf *g)
{
    for (size_t i = 0; i < sizeof GGUF_RULES / sizeof GGUF_RULES[0]; i++)
        if (strcmp(arch_of(g), GGUF_RULES[i].arch) == 0)
            return &GGUF_RULES[i];
    return NULL;
}

/* ARCH.suffix into *v: 1 a number, 0 absent or not a number. */
static int arch_num(const struct gguf *g, const char *suffix, double *v)
{
    char key[160];
    snprintf(key, sizeof key, "%.64s.%s", arch_of(g), suffix);
    return gguf_kv_number(gguf_find_kv(g, key), v) == 0;
}

/* The window or chunk of the file's masked layers, 0: none (then every
 * layer is full). */
static int64_t mask_size(const struct gguf *g, const struct gguf_rule *r)
{
    double w;
    int has = arch_num(g, "attention.sliding_window", &w);
    if (r->chunked)         /* llama4: the key only switches it off */
        return has && w == 0 ? 0 : r->size;
    if (!has)
        return r->size;
    return w >= 1 && w <= (double)PARAM_N_MAX && w == (double)(int64_t)w
           ? (int64_t)w : 0;
}

static int64_t layer_count(const struct gguf *g)
{
    double n;
    if (!arch_num(g, "block_count", &n) || !(n >= 1))
        return 0;
    return n > GGUF_MASK_LAYERS_MAX ? GGUF_MASK_LAYERS_MAX : (int64_t)n;
}

/* Whether layer i is masked (sliding or chunked). */
static int layer_masked(const struct gguf *g, const struct gguf_rule *r,
                        int64_t i)
{
    if (r->period > 0)
        return i % r->period < r->period - 1;
    char key[160], err[200];
    snprintf(key, sizeof key, "%.64s.attention.sliding_window_pattern",
             arch_of(g));
    const struct gguf_kv *kv = gguf_find_kv(g, key);
    double v;
    if (kv && kv->type != GGUF_ARRAY)       /* one value for every layer */
        return gguf_kv_number(kv, &v) == 0 && v != 0;
    return kv && gguf_kv_array_number(g, kv, (uint64_t)i, &v, err,
                                      sizeof err) == 0 && v != 0;
}

const char *gguf_mask_layer_name(const struct gguf *g, int64_t i,
                                 int64_t *layers)
{
    const struct gguf_rule *r = rule_of(g);
    *layers = r ? layer_count(g) : 0;
    if (i < 0 || i >= *layers)
        return NULL;
    if (mask_size(g, r) > 0 && layer_masked(g, r, i))
        return r->chunked ? "chunked_attention" : "sliding_attention";
    return "full_attention";
}

int gguf_mask_has_layer(const struct gguf *g, const char *name)
{
    int64_t n;
    const char *t;
    for (int64_t i = 0; (t = gguf_mask_layer_name(g, i, &n)); i++)
        if (strcmp(t, name) == 0)
            return 1;
    return 0;
}

void gguf_mask_names(const struct gguf *g, char *buf, size_t len)
{
    int64_t n;
    const char *t, *first = NULL;
    buf[0] = 0;
    for (int64_t i = 0; (t = gguf_mask_layer_name(g, i, &n)); i++)
        if (!first) {
            first = t;
            snprintf(buf, len, "%s", t);
        } else if (strcmp(t, first) != 0) {     /* the other type: done */
            size_t k = strlen(buf);
            snprintf(buf + k, len - k, ", %s", t);
            return;
        }
}

void gguf_mask_of(const struct gguf *g, const char *name,
                  struct config_mask *m)
{
    const struct gguf_rule *r = rule_of(g);
    int64_t n;
    memset(m, 0, sizeof *m);
    if (!name)
        name = gguf_mask_layer_name(g, 0, &n);
    snprintf(m->layer, sizeof m->layer, "%.60s", name ? name : "");
    if (!r || !name)
        return;
    int64_t size = mask_size(g, r);
    double w;
    const char *what = r->chunked ? "chunk" : "window";
    if (size > 0 && strcmp(name, r->chunked ? "chunked_attention"
                                            : "sliding_attention") == 0) {
        *(r->chunked ? &m->chunk : &m->window) = size;
        if (!r->chunked && arch_num(g, "attention.sliding_window", &w))
            snprintf(m->note, sizeof m->note, "%s %lld from %.40s.attention."
                     "sliding_window", what, (long long)size, r->arch);
        else
            snprintf(m->note, sizeof m->note, "%s %lld (llama.cpp's %s rule)",
                     what, (long long)size, r->arch);
    }
    m->nope = r->chunked && size > 0 && strcmp(name, "full_attention") == 0;
}

double gguf_mask_swa_base(const struct gguf *g, double base, int *unscaled)
{
    const struct gguf_rule *r = rule_of(g);
    double b;
    *unscaled = r && r->swa_base;
    if (r && r->swa_base)
        return 10000.0;
    if (r && r->period == 0 && arch_num(g, "rope.freq_base_swa", &b) && b > 1)
        return b;
    return base;
}
