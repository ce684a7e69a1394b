/* SPDX-License-Identifier: ISC */
/*
 * fuzz_cache.c - libFuzzer harness for --check-cache's reader and check:
 * the input read as a dumped cos/sin cache (.npy or safetensors, told by
 * its first bytes); what loads must have 1..CACHE_HEAD_ROWS rows read of an
 * even width, and the check against settings of d = W (none, and yarn
 * with its attention factor) must give 0 or 1, or -1 with a message.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "peviz/cachecheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct cache_file *f, enum rope_method m, int pairing)
{
    static struct cache_check r;
    rope_scaling sc;
    char err[300] = "";
    rope_scaling_default(&sc);
    sc.method = m;
    if (m != ROPE_NONE) {
        sc.factor = 8;
        sc.original_max = 4096;
    }
    struct cache_setup s = { &sc, f->w, 10000, 128, 0, pairing, NULL };
    int k = cache_check(f, &s, &r, err, sizeof err);
    if (k < -1 || k > 1 || (k == -1 && !err[0]) || r.nmatch < 0 ||
        r.nmatch > CACHE_MATCH_MAX || (k == 0 && r.nmatch))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct cache_file f;
    char err[600] = "";
    const char *tensor = size && data[0] == 'S' ? "c,s" : NULL;
    if (cache_file_load_buffer("fuzz", data, size, tensor, &f, err,
                               sizeof err)) {
        if (!err[0] || strchr(err, '\n') || f.cos || f.sin)
            abort();
        return 0;
    }
    if (f.head < 1 || f.head > CACHE_HEAD_ROWS || f.n < f.head || f.w < 2 || f.w % 2 ||
        f.w > CACHE_WIDTH_MAX || !f.cos || !f.sin)
        abort();
    check(&f, ROPE_NONE, CP_HALF);
    check(&f, ROPE_YARN, CP_INTERLEAVED);
    cache_file_free(&f);
    return 0;
}
