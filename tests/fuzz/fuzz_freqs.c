/* SPDX-License-Identifier: ISC */
/*
 * fuzz_freqs.c - libFuzzer harness for --check-freqs' reader and check:
 * the input read as a dumped inv_freq (text, .npy, safetensors or GGUF,
 * told by its first bytes); what loads must be 1..FREQ_FILE_MAX finite
 * frequencies >= 0 with a tolerance > 0, and the check against settings
 * of d = 2n (none, yarn, llama3) must give 0 or 1, or -1 with a message,
 * and name no more matches than it holds.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "peviz/freqcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct freq_file *f, enum rope_method m)
{
    static struct freq_check r;
    rope_scaling sc;
    char err[300] = "";
    rope_scaling_default(&sc);
    sc.method = m;
    if (m != ROPE_NONE) {
        sc.factor = 8;
        sc.original_max = 4096;
    }
    int k = freq_check(f, &sc, 2 * f->n, 10000, 128, &r, err, sizeof err);
    if (k < -1 || k > 1 || (k == -1 && !err[0]) || r.ndiff > f->n ||
        (k == 0 && r.ndiff) || (k == 1 && !r.ndiff) ||
        r.nmatch < 0 || r.nmatch > FREQ_MATCH_MAX)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct freq_file f;
    char err[600] = "";
    const char *tensor = size && data[0] == 'S' ? "inv_freq" : NULL;
    if (freq_file_load_buffer("fuzz", data, size, tensor, &f, err, sizeof err)) {
        if (!err[0] || strchr(err, '\n'))
            abort();
        return 0;
    }
    if (f.n < 1 || f.n > FREQ_FILE_MAX || !(f.tol > 0))
        abort();
    for (int i = 0; i < f.n; i++)
        if (!isfinite(f.v[i]) || !(f.v[i] >= 0))
            abort();
    check(&f, ROPE_NONE);
    check(&f, ROPE_YARN);
    check(&f, ROPE_LLAMA3);
    return 0;
}
