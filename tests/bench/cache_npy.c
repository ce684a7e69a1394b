/* SPDX-License-Identifier: ISC */
/*
 * cache_npy.c - write a cos/sin cache for --check-cache's bench: a .npy
 * of shape (2, N, W), float32, cos then sin, paired (k, k+W/2) with
 * omega_k = BASE^(-2k/W), as a model's rotary embedding dumps it.
 *
 * Usage: cache_npy N W BASE > FILE
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One half (cos: s = 0, sin: s = 1) of the N x W values. */
static int cache_npy_half(long long n, int w, double base, int s)
{
    unsigned char *row = malloc((size_t)w * 4);
    if (!row)
        return -1;
    for (long long p = 0; p < n; p++) {
        for (int j = 0; j < w; j++) {
            double om = pow(base, -2.0 * (j % (w / 2)) / w);
            float v = (float)(s ? sin((double)p * om) : cos((double)p * om));
            uint32_t u;
            memcpy(&u, &v, 4);
            for (int b = 0; b < 4; b++)     /* '<f4': little-endian */
                row[4 * j + b] = (unsigned char)(u >> (8 * b));
        }
        if (fwrite(row, 4, (size_t)w, stdout) != (size_t)w) {
            free(row);
            return -1;
        }
    }
    free(row);
    return 0;
}

int main(int argc, char **argv)
{
    long long n = argc > 3 ? atoll(argv[1]) : 0;
    int w = argc > 3 ? atoi(argv[2]) : 0;
    double base = argc > 3 ? atof(argv[3]) : 0;
    if (n < 1 || w < 2 || w % 2 || !(base > 1)) {
        fprintf(stderr, "usage: cache_npy N W BASE > FILE\n");
        return 2;
    }
    char h[128];
    int len = snprintf(h, sizeof h, "{'descr': '<f4', 'fortran_order': "
                       "False, 'shape': (2, %lld, %d), }", n, w);
    int pad = (64 - (10 + len + 1) % 64) % 64;
    memset(h + len, ' ', (size_t)pad);
    h[len + pad] = '\n';
    unsigned hl = (unsigned)(len + pad + 1);
    unsigned char pre[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
                              (unsigned char)(hl & 0xff),
                              (unsigned char)(hl >> 8) };
    if (fwrite(pre, 1, 10, stdout) != 10 || fwrite(h, 1, hl, stdout) != hl ||
        cache_npy_half(n, w, base, 0) || cache_npy_half(n, w, base, 1) ||
        fflush(stdout) != 0)
        return 1;
    return 0;
}
