/*
 * config_pairs.c - which dims of q and k a model family pairs (see
 * config.h): a config.json's model_type and rope_interleave.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "peviz/json.h"
#include "peviz/scores.h"

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

int config_qk_pairs(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char *buf = malloc(CONFIG_MAX_BYTES + 1);
    size_t n = buf ? fread(buf, 1, CONFIG_MAX_BYTES + 1, f) : 0;
    fclose(f);
    int r = -1;
    if (buf && n >= 1 && n <= CONFIG_MAX_BYTES && buf[0] != 'G') {
        char jerr[160];
        struct json_limits lim = { CONFIG_MAX_BYTES, 32 };
        json_value *root = json_parse(buf, n, &lim, jerr, sizeof jerr);
        if (root && root->type == JSON_OBJECT)
            r = family_pairs(root);
        json_free(root);
    }
    free(buf);
    return r;
}
