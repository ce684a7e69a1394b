/* SPDX-License-Identifier: ISC */
/*
 * fuzz_gguf.c - libFuzzer harness for the GGUF reader: open the input as
 * a file, walk every key and tensor, read each convertible tensor and
 * one item of each numeric array.  Whatever opens must be consistent:
 * tensors inside the data, values finite, every refusal a message.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "peviz/gguf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_tensors(const struct gguf *g, size_t size)
{
    char err[256];
    for (size_t i = 0; i < gguf_tensor_count(g); i++) {
        const struct gguf_tensor *t = gguf_tensor_at(g, i);
        if (gguf_data_offset(g) + t->offset + t->nbytes > size)
            abort();                    /* accepted outside the file */
        if (t->nelements > (1u << 20))
            continue;
        double *v = malloc((size_t)(t->nelements ? t->nelements : 1) * sizeof *v);
        if (!v)
            continue;
        if (gguf_read_tensor(g, t, v, err, sizeof err) == 0) {
            for (uint64_t k = 0; k < t->nelements; k++)
                if (!isfinite(v[k]))
                    abort();
        } else if (!err[0]) {
            abort();
        }
        free(v);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gguf *g = NULL;
    char err[256];
    err[0] = 0;
    if (gguf_open_buffer("fuzz", data, size, &g, err, sizeof err) != 0) {
        if (!err[0] || g)
            abort();                   /* a refusal must say why */
        return 0;
    }
    if (gguf_data_offset(g) > size || gguf_alignment(g) == 0)
        abort();
    for (size_t i = 0; i < gguf_kv_count(g); i++) {
        const struct gguf_kv *kv = gguf_kv_at(g, i);
        double v;
        if (gguf_find_kv(g, kv->key) != kv)
            abort();
        if (kv->type == GGUF_ARRAY && kv->arr_count)
            gguf_kv_array_number(g, kv, kv->arr_count - 1, &v, err, sizeof err);
    }
    read_tensors(g, size);
    gguf_close(g);
    return 0;
}
