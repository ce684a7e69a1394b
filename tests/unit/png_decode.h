/* SPDX-License-Identifier: ISC */
/*
 * png_decode.h - a PNG reader for the tests, written here from the PNG
 * format (chunks, zlib stream, per-row filters 0..4): 8-bit RGB or RGBA,
 * no interlace.  Returns 0 with *w, *h and a malloc'd RGB buffer, or -1.
 */
#ifndef PEVIZ_TEST_PNG_DECODE_H
#define PEVIZ_TEST_PNG_DECODE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint32_t pd_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           p[3];
}

static int pd_paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Undo the row filters of raw (h rows of 1 + stride bytes) in place. */
static int pd_unfilter(uint8_t *raw, int h, size_t stride, int bpp)
{
    for (int y = 0; y < h; y++) {
        uint8_t *row = raw + (size_t)y * (stride + 1), *cur = row + 1;
        const uint8_t *up = y ? raw + (size_t)(y - 1) * (stride + 1) + 1
                              : NULL;
        for (size_t i = 0; i < stride; i++) {
            int a = i >= (size_t)bpp ? cur[i - bpp] : 0, b = up ? up[i] : 0,
                c = up && i >= (size_t)bpp ? up[i - bpp] : 0, v;
            switch (row[0]) {
            case 0: v = 0; break;
            case 1: v = a; break;
            case 2: v = b; break;
            case 3: v = (a + b) / 2; break;
            case 4: v = pd_paeth(a, b, c); break;
            default: return -1;
            }
            cur[i] = (uint8_t)(cur[i] + v);
        }
    }
    return 0;
}

static int png_decode(const uint8_t *p, size_t n, int *w, int *h,
                      uint8_t **rgb)
{
    static const uint8_t SIG[8] = { 137, 'P', 'N', 'G', 13, 10, 26, 10 };
    uint8_t *z = NULL, *raw = NULL;
    size_t zn = 0, at = 8;
    int bpp = 0;
    *rgb = NULL;
    *w = *h = 0;
    if (n < 8 || memcmp(p, SIG, 8))
        return -1;
    while (at + 12 <= n) {
        uint32_t len = pd_be32(p + at);
        const uint8_t *type = p + at + 4, *data = p + at + 8;
        if (at + 12 + len > n)
            goto fail;
        if (!memcmp(type, "IHDR", 4)) {
            *w = (int)pd_be32(data);
            *h = (int)pd_be32(data + 4);
            if (data[8] != 8 || (data[9] != 2 && data[9] != 6) || data[12])
                goto fail;
            bpp = data[9] == 2 ? 3 : 4;
        } else if (!memcmp(type, "IDAT", 4)) {
            uint8_t *q = realloc(z, zn + len + 1);
            if (!q)
                goto fail;
            z = q;
            memcpy(z + zn, data, len);
            zn += len;
        } else if (!memcmp(type, "IEND", 4)) {
            break;
        }
        at += 12 + len;
    }
    if (!bpp || !z)
        goto fail;
    size_t stride = (size_t)*w * (size_t)bpp;
    uLongf rn = (uLongf)((stride + 1) * (size_t)*h);
    raw = malloc(rn + 1);
    if (!raw || uncompress(raw, &rn, z, (uLong)zn) != Z_OK ||
        rn != (stride + 1) * (size_t)*h || pd_unfilter(raw, *h, stride, bpp))
        goto fail;
    *rgb = malloc((size_t)*w * (size_t)*h * 3 + 1);
    if (!*rgb)
        goto fail;
    for (int y = 0; y < *h; y++)
        for (int x = 0; x < *w; x++)
            memcpy(*rgb + ((size_t)y * (size_t)*w + (size_t)x) * 3,
                   raw + (size_t)y * (stride + 1) + 1 + (size_t)x * (size_t)bpp,
                   3);
    free(z);
    free(raw);
    return 0;
fail:
    free(z);
    free(raw);
    return -1;
}

#endif
