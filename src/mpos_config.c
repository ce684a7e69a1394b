/* SPDX-License-Identifier: ISC */
/*
 * mpos_config.c - M-RoPE keys of a config.json (see mpos_config.h).
 * The RoPE keys themselves (base, d, scaling) are config.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "mpos_config.h"
#include "peviz/json.h"

/* The object holding the rope settings: rope_scaling or rope_parameters
 * of the top level, else of text_config; NULL if none. */
static const json_value *rope_obj(const json_value *root, const char **name)
{
    static const char *const K[] = { "rope_scaling", "rope_parameters" };
    const json_value *t = json_get(root, "text_config");
    for (int pass = 0; pass < 2; pass++) {
        const json_value *o = pass ? t : root;
        for (int k = 0; o && o->type == JSON_OBJECT && k < 2; k++) {
            const json_value *v = json_get(o, K[k]);
            if (v && v->type == JSON_OBJECT && (json_get(v, "mrope_section")
                || json_get(v, "mrope_interleaved"))) {
                *name = K[k];
                return v;
            }
        }
    }
    return NULL;
}

static int section(const json_value *v, int sec[3])
{
    int64_t x;
    if (v->type != JSON_ARRAY || json_count(v) != 3)
        return -1;
    for (size_t k = 0; k < 3; k++) {
        if (json_int64(json_at(v, k), &x) || x < 0 || x > MPOS_SLOTS_MAX)
            return -1;
        sec[k] = (int)x;
    }
    return 0;
}

static int read_rope(const char *path, const json_value *root,
                     struct mpos_conf *m, char *err, size_t errlen)
{
    const char *name = "";
    const json_value *o = rope_obj(root, &name), *v;
    int b;
    if (!o)
        return 0;
    if ((v = json_get(o, "mrope_section")) && v->type != JSON_NULL) {
        if (section(v, m->section)) {
            snprintf(err, errlen, "%s: key '%s.mrope_section': want three "
                     "whole numbers of slots", path, name);
            return -1;
        }
    }
    if ((v = json_get(o, "mrope_interleaved")) && v->type != JSON_NULL) {
        if (json_bool(v, &b)) {
            snprintf(err, errlen, "%s: key '%s.mrope_interleaved': want "
                     "true or false", path, name);
            return -1;
        }
        m->interleaved = m->rules.split_frames = b;
    }
    return 0;
}

static int read_vision(const char *path, const json_value *root,
                       struct mpos_conf *m, char *err, size_t errlen)
{
    const json_value *vc = json_get(root, "vision_config"), *v;
    int64_t merge;
    double tps;
    if (!vc || vc->type != JSON_OBJECT)
        return 0;
    if ((v = json_get(vc, "spatial_merge_size")) && v->type != JSON_NULL) {
        if (json_int64(v, &merge) || merge < 1 || merge > 16) {
            snprintf(err, errlen, "%s: key 'vision_config.spatial_merge_size'"
                     ": want a whole number in 1..16", path);
            return -1;
        }
        m->rules.merge = (int)merge;
    }
    if ((v = json_get(vc, "tokens_per_second")) && v->type != JSON_NULL) {
        if (json_number(v, &tps) || tps < 0 || tps > 1000) {
            snprintf(err, errlen, "%s: key 'vision_config.tokens_per_second'"
                     ": want a number in 0..1000", path);
            return -1;
        }
        m->rules.tokens_per_second = tps;
    }
    return 0;
}

int mpos_config_load(const char *path, struct mpos_conf *m, char *err,
                     size_t errlen)
{
    size_t n;
    char *buf = config_read(path, &n, err, errlen);
    if (!buf)
        return -1;
    if (n > CONFIG_MAX_BYTES || (n >= 4 && !memcmp(buf, "GGUF", 4))) {
        free(buf);
        return 0;   /* config_load said what was wrong, or GGUF: no keys */
    }
    struct json_limits lim = { CONFIG_MAX_BYTES, 32, 0 };
    char jerr[160];
    json_value *root = json_parse(buf, n, &lim, jerr, sizeof jerr);
    struct mpos_conf next = *m;
    int r = 0;
    if (root && root->type == JSON_OBJECT)
        r = read_rope(path, root, &next, err, errlen) ||
            read_vision(path, root, &next, err, errlen) ? -1 : 0;
    if (r == 0)
        *m = next;
    json_free(root);
    free(buf);
    return r;
}
