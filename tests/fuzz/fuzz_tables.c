/* SPDX-License-Identifier: ISC */
/*
 * fuzz_tables.c - libFuzzer harness for the --pe-file loader (.npy,
 * safetensors, GGUF and CSV, told apart by the first bytes):
 * tables_load_buffer on the raw input.  A loaded table must keep every
 * rule: its shape, finite values within PE_TABLE_VALUE_MAX.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "peviz/tables.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct pe_table t;
    struct pe_table_info info;
    char err[256];

    err[0] = 0;
    if (tables_load_buffer("fuzz", data, size, NULL, &t, &info, err,
                           sizeof err) == 0) {
        if (t.n < 1 || t.d < 2 || t.d > 65536 || t.d % 2 ||
            t.n * t.d > PE_TABLE_MAX_VALUES || !t.v)
            abort();
        for (int64_t i = 0; i < t.n * t.d; i++)
            if (!isfinite(t.v[i]) || fabs(t.v[i]) > PE_TABLE_VALUE_MAX)
                abort();
        if (!memchr(info.note, 0, sizeof info.note))
            abort();
        pe_table_free(&t);
    } else if (!err[0] || !memchr(err, 0, sizeof err) || t.v) {
        abort();                   /* a refusal must say why */
    }
    return 0;
}
