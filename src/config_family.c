/* SPDX-License-Identifier: ISC */
/*
 * config_family.c - what a config.json says beyond the frequencies (see
 * config.h): which dims of q and k the family pairs (model_type,
 * rope_interleave), and Ministral 3's llama_4_scaling_beta.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "peviz/json.h"
#include "peviz/scores.h"

static int family_pairs(const json_value *root)
{
    /* deepseek_v4: modeling_deepseek_v4.py's interleaved RoPE (one theta
     * per pair of consecutive channels) */
    static const char *const INTERLEAVED[] = { "gptj", "codegen", "chatglm",
                                               "glm", "deepseek_v4", NULL };
    const json_value *t = json_get(root, "rope_interleave");
    if (t && (t->type == JSON_TRUE || t->type == JSON_FALSE))
        return t->type == JSON_TRUE ? QK_INTERLEAVED : QK_HALF;
    t = json_get(root, "model_type");
    for (int i = 0; t && t->type == JSON_STRING && INTERLEAVED[i]; i++)
        if (strcmp(t->str, INTERLEAVED[i]) == 0)
            return QK_INTERLEAVED;
    return QK_HALF;
}

/* beta in rope_parameters or rope_scaling, of the top level or of its
 * text_config; 0 when absent. */
static double family_beta(const json_value *root)
{
    static const char *const IN[] = { "rope_parameters", "rope_scaling" };
    const json_value *t = json_get(root, "text_config");
    for (int pass = 0; pass < 2; pass++, root = t) {
        for (int i = 0; root && root->type == JSON_OBJECT && i < 2; i++) {
            const json_value *o = json_get(root, IN[i]);
            const json_value *b = o && o->type == JSON_OBJECT
                                  ? json_get(o, "llama_4_scaling_beta") : NULL;
            if (b && b->type == JSON_NUMBER && isfinite(b->number) && b->number > 0)
                return b->number;
        }
    }
    return 0.0;
}

/* The parsed config.json at path, or NULL (not one, or GGUF), read as
 * config_load reads it. */
static json_value *read_config(const char *path)
{
    char err[200], jerr[160];
    size_t n;
    char *buf = config_read(path, &n, err, sizeof err);
    json_value *root = NULL;
    if (buf && n >= 1 && n <= CONFIG_MAX_BYTES && memcmp(buf, "GGUF", n < 4 ? n : 4))
        root = config_json(buf, n, jerr, sizeof jerr);
    if (root && root->type != JSON_OBJECT) {
        json_free(root);
        root = NULL;
    }
    free(buf);
    return root;
}

int config_qk_pairs(const char *path)
{
    json_value *root = read_config(path);
    int r = root ? family_pairs(root) : -1;
    json_free(root);
    return r;
}

double config_llama4_beta(const char *path)
{
    json_value *root = read_config(path);
    double b = root ? family_beta(root) : 0.0;
    json_free(root);
    return b;
}
