/*
 * config_family.c - what a config.json says beyond the frequencies (see
 * config.h): which dims of q and k the family pairs (model_type,
 * rope_interleave), and Ministral 3's llama_4_scaling_beta.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "peviz/json.h"
#include "peviz/scores.h"
#include "peviz/tables.h"

static int family_pairs(const json_value *root)
{
    static const char *const INTERLEAVED[] = { "gptj", "codegen", "chatglm",
                                               "glm", NULL };
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

/* The parsed config.json at path, or NULL (not one, or GGUF).  Opened
 * as config_load opens it: without waiting, a regular file only, and a
 * UTF-8 byte-order mark skipped. */
static json_value *read_config(const char *path)
{
    char why[160];
    int fd = pe_open_regular(path, why, sizeof why);
    FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    char *buf = malloc(CONFIG_MAX_BYTES + 1);
    size_t n = buf ? fread(buf, 1, CONFIG_MAX_BYTES + 1, f) : 0;
    fclose(f);
    json_value *root = NULL;
    const char *text = buf;
    if (buf && n >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
        text += 3;
        n -= 3;
    }
    if (buf && n >= 1 && n <= CONFIG_MAX_BYTES && text[0] != 'G') {
        char jerr[160];
        struct json_limits lim = { .max_bytes = CONFIG_MAX_BYTES, .max_depth = 32 };
        root = json_parse(text, n, &lim, jerr, sizeof jerr);
        if (root && root->type != JSON_OBJECT) {
            json_free(root);
            root = NULL;
        }
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
