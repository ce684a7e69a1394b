/* SPDX-License-Identifier: ISC */
/*
 * fuzz_json.c - libFuzzer harness for the strict JSON reader: any input
 * is parsed or refused with a message; a parsed tree must keep the
 * promises of json.h (finite numbers, NUL-ended strings of the stated
 * length, unique keys, depth within the limit).
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "peviz/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk(const json_value *v, int depth, int max_depth)
{
    if (depth > max_depth)
        abort();
    switch (v->type) {
    case JSON_NUMBER:
        if (!isfinite(v->number) || !v->str || strlen(v->str) != v->len)
            abort();
        break;
    case JSON_STRING:
        if (!v->str || v->str[v->len] != 0 || json_string(v) != v->str)
            abort();
        break;
    case JSON_ARRAY:
    case JSON_OBJECT:
        for (size_t i = 0; i < json_count(v); i++) {
            const json_value *e = json_at(v, i);
            if ((v->type == JSON_OBJECT) != (e->key != NULL))
                abort();
            /* keys are unique: lookup finds this very member */
            if (e->key && strlen(e->key) == e->key_len && json_get(v, e->key) != e)
                abort();
            walk(e, depth + 1, max_depth);
        }
        break;
    default:
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct json_limits small = { 4096, 6, 0 };
    const struct json_limits *lims[2] = { NULL, &small };
    for (int k = 0; k < 2; k++) {
        char err[128];
        err[0] = 1;
        json_value *v = json_parse((const char *)data, size, lims[k], err, sizeof err);
        if (v) {
            if (v->key || v->offset > size)
                abort();
            walk(v, 0, k ? 6 : JSON_DEFAULT_MAX_DEPTH);
            json_free(v);
        } else if (strncmp(err, "byte ", 5) != 0 && strcmp(err, "out of memory") != 0) {
            abort();               /* a refusal must say where */
        }
    }
    return 0;
}
