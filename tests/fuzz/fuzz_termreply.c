/* SPDX-License-Identifier: ISC */
/*
 * fuzz_termreply.c - libFuzzer harness for the filter that tells a
 * terminal's reports from keys: the input (its first byte says the size
 * of the pieces it is fed in) must come out byte for byte, keys and
 * reports in order with nothing lost or added, once the held bytes have
 * given up; each report must read again as one whole report.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "termreply.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct {
    char out[1 << 16];
    size_t n;
} got;

static void out(void *ctx, int report, const char *s, size_t n)
{
    (void)ctx;
    if (report) {
        size_t len;
        enum termreply_hold hold;
        if (termreply_scan(s, n, &len, &hold) != TERMREPLY_REPORT || len != n)
            abort();
    }
    if (n == 0 || got.n + n > sizeof got.out)
        abort();
    memcpy(got.out + got.n, s, n);
    got.n += n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct termreply t;
    if (size < 1 || size > sizeof got.out)
        return 0;
    size_t piece = data[0] % 16 + 1;
    const char *s = (const char *)data + 1;
    size_t n = size - 1;
    memset(&t, 0, sizeof t);
    got.n = 0;
    for (size_t at = 0; at < n; at += piece) {
        termreply_feed(&t, s + at, n - at < piece ? n - at : piece,
                       (long)at, out, NULL);
        termreply_expire(&t, (long)at, 3, 5, 8, out, NULL);
    }
    if (termreply_expire(&t, 1L << 40, 3, 5, 8, out, NULL) != -1 || t.n)
        abort();
    if (got.n != n || memcmp(got.out, s, n))
        abort();
    return 0;
}
