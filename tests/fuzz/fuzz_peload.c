/*
 * fuzz_peload.c - libFuzzer harness for the --pe-file loader (CSV and
 * .npy, told apart by the first bytes): peload_buffer on the raw input.
 * A loaded table must have the shape the header promises.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "peload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct pe_table t;
    char err[256];

    memset(&t, 0, sizeof t);
    if (peload_buffer("fuzz", data, size, &t, err, sizeof err) == 0) {
        if (t.n < 1 || t.d < 2 || t.d > 65536 || t.d % 2 ||
            t.n * t.d > PELOAD_MAX_VALUES || !t.v)
            abort();
        for (int64_t i = 0; i < t.n * t.d; i++)
            if (!isfinite(t.v[i]))
                abort();
        peload_free(&t);
    } else if (!err[0] || !memchr(err, 0, sizeof err)) {
        abort();                   /* a refusal must say why */
    }
    return 0;
}
