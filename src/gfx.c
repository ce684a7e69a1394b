/*
 * gfx.c - graphics modes and image encoders (gfx.h).
 */
#include "gfx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "png_out.h"
#include "raster.h"

static const char *const MODE_NAMES[GFX_MODE_COUNT] = {
    "auto", "kitty", "sixel", "iterm2", "cells"
};

int gfx_mode_parse(const char *name)
{
    for (int i = 0; name && i < GFX_MODE_COUNT; i++)
        if (strcmp(name, MODE_NAMES[i]) == 0)
            return i;
    return -1;
}

const char *gfx_mode_name(enum gfx_mode m)
{
    return (unsigned)m < GFX_MODE_COUNT ? MODE_NAMES[m] : "cells";
}

/* ---- the buffer ---------------------------------------------------------- */

static int gbuf_room(struct gbuf *b, size_t n)
{
    if (b->failed)
        return 0;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->failed = 1;
            return 0;
        }
        b->p = q;
        b->cap = cap;
    }
    return 1;
}

void gbuf_put(struct gbuf *b, const void *s, size_t n)
{
    if (!gbuf_room(b, n))
        return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
}

void gbuf_puts(struct gbuf *b, const char *s)
{
    gbuf_put(b, s, strlen(s));
}

void gbuf_printf(struct gbuf *b, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        gbuf_put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

void gbuf_free(struct gbuf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

void gfx_base64(struct gbuf *b, const uint8_t *p, size_t n)
{
    static const char A[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (!gbuf_room(b, (n + 2) / 3 * 4))
        return;
    char *o = b->p + b->len;
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        *o++ = A[v >> 18];
        *o++ = A[v >> 12 & 63];
        *o++ = A[v >> 6 & 63];
        *o++ = A[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);
        *o++ = A[v >> 18];
        *o++ = A[v >> 12 & 63];
        *o++ = i + 1 < n ? A[v >> 6 & 63] : '=';
        *o++ = '=';
    }
    b->len = (size_t)(o - b->p);
    b->p[b->len] = 0;
}

/* ---- kitty ---------------------------------------------------------------- */

int gfx_kitty(struct gbuf *b, const struct image *im, unsigned id, int cols,
              int rows)
{
    size_t raw = (size_t)im->w * (size_t)im->h * 3;
    uLongf zn = compressBound((uLong)raw);
    uint8_t *z = malloc(zn + 1);
    struct gbuf enc = { NULL, 0, 0, 0 };
    if (!z || compress2(z, &zn, im->rgb, (uLong)raw, Z_DEFAULT_COMPRESSION)
                  != Z_OK) {
        free(z);
        return -1;
    }
    gfx_base64(&enc, z, zn);
    free(z);
    if (enc.failed) {
        gbuf_free(&enc);
        return -1;
    }
    for (size_t at = 0; at < enc.len || at == 0; at += GFX_KITTY_CHUNK) {
        size_t n = enc.len - at < GFX_KITTY_CHUNK ? enc.len - at
                                                  : GFX_KITTY_CHUNK;
        int more = at + n < enc.len;
        if (at == 0)
            gbuf_printf(b, "\033_Ga=T,f=24,o=z,s=%d,v=%d,i=%u,p=1,c=%d,r=%d,"
                        "q=2,C=1,z=-1,m=%d;", im->w, im->h, id, cols, rows,
                        more);
        else
            gbuf_printf(b, "\033_Gm=%d;", more);
        gbuf_put(b, enc.p + at, n);
        gbuf_puts(b, "\033\\");
        if (!more)
            break;
    }
    gbuf_free(&enc);
    return b->failed ? -1 : 0;
}

void gfx_kitty_delete(struct gbuf *b, unsigned id)
{
    gbuf_printf(b, "\033_Ga=d,d=I,i=%u,q=2\033\\", id);
}

/* ---- sixel ------------------------------------------------------------------ */

/* Nearest palette entry of each colour: a direct-mapped cache keyed by
 * the whole colour (a clash costs a fresh search, never a wrong entry). */
#define QCACHE 65536

struct quant {
    const uint32_t *pal;
    int n;
    uint32_t key[QCACHE];       /* colour + 1; 0: empty */
    uint8_t val[QCACHE];
};

static int nearest(const uint32_t *pal, int n, uint32_t c)
{
    int best = 0;
    long bd = -1;
    for (int i = 0; i < n; i++) {
        long dr = (long)(pal[i] >> 16 & 0xFF) - (long)(c >> 16 & 0xFF),
             dg = (long)(pal[i] >> 8 & 0xFF) - (long)(c >> 8 & 0xFF),
             db = (long)(pal[i] & 0xFF) - (long)(c & 0xFF);
        long d = dr * dr + dg * dg + db * db;
        if (bd < 0 || d < bd) {
            bd = d;
            best = i;
        }
    }
    return best;
}

/* The register of colour c: the nearest entry (exact where the
 * palette has c). */
static int quant_index(struct quant *q, uint32_t c)
{
    c &= 0xFFFFFF;
    uint32_t slot = (c * 2654435761u) >> 16;
    if (q->key[slot] == c + 1)
        return q->val[slot];
    int k = nearest(q->pal, q->n, c);
    q->key[slot] = c + 1;
    q->val[slot] = (uint8_t)k;
    return k;
}

static void sixel_run(struct gbuf *b, int ch, int count)
{
    if (count >= 4)
        gbuf_printf(b, "!%d%c", count, ch);
    else
        while (count-- > 0)
            gbuf_put(b, (char[]){ (char)ch }, 1);
}

/* One band of six rows from y0: a pass per register used in it.  bits
 * (n x w) is scratch: each register's six-pixel columns, built in one
 * pass over the band's pixels. */
static void sixel_band(struct gbuf *b, const uint8_t *idx, int w, int h,
                       int y0, int n, uint8_t *used, uint8_t *bits)
{
    memset(used, 0, (size_t)n);
    for (int r = 0; r < 6 && y0 + r < h; r++)
        for (int x = 0; x < w; x++) {
            int k = idx[(size_t)(y0 + r) * (size_t)w + (size_t)x];
            if (!used[k]) {
                used[k] = 1;
                memset(bits + (size_t)k * (size_t)w, 0, (size_t)w);
            }
            bits[(size_t)k * (size_t)w + (size_t)x] |= (uint8_t)(1 << r);
        }
    int first = 1;
    for (int k = 0; k < n; k++) {
        if (!used[k])
            continue;
        if (!first)
            gbuf_put(b, "$", 1);
        first = 0;
        gbuf_printf(b, "#%d", k);
        const uint8_t *col = bits + (size_t)k * (size_t)w;
        int run_ch = -1, run = 0;
        for (int x = 0; x < w; x++) {
            int ch = 63 + col[x];
            if (ch != run_ch) {
                sixel_run(b, run_ch, run);
                run_ch = ch;
                run = 0;
            }
            run++;
        }
        if (run_ch != 63)           /* a trailing blank run is not sent */
            sixel_run(b, run_ch, run);
    }
    gbuf_put(b, "-", 1);
}

int gfx_sixel(struct gbuf *b, const struct image *im, const uint32_t *pal,
              int n)
{
    if (n < 1 || n > 256)
        return -1;
    struct quant *q = malloc(sizeof *q);
    uint8_t *idx = malloc((size_t)im->w * (size_t)im->h + 1);
    uint8_t *bits = malloc((size_t)n * (size_t)im->w + 1);
    uint8_t used[256];
    if (!q || !idx || !bits) {
        free(q);
        free(idx);
        free(bits);
        return -1;
    }
    q->pal = pal;
    q->n = n;
    memset(q->key, 0, sizeof q->key);
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++)
            idx[(size_t)y * (size_t)im->w + (size_t)x] =
                (uint8_t)quant_index(q, image_get(im, x, y));
    free(q);
    gbuf_printf(b, "\033Pq\"1;1;%d;%d", im->w, im->h);
    for (int k = 0; k < n; k++)
        gbuf_printf(b, "#%d;2;%d;%d;%d", k,
                    (int)((pal[k] >> 16 & 0xFF) * 100 + 127) / 255,
                    (int)((pal[k] >> 8 & 0xFF) * 100 + 127) / 255,
                    (int)((pal[k] & 0xFF) * 100 + 127) / 255);
    for (int y0 = 0; y0 < im->h; y0 += 6)
        sixel_band(b, idx, im->w, im->h, y0, n, used, bits);
    gbuf_puts(b, "\033\\");
    free(idx);
    free(bits);
    return b->failed ? -1 : 0;
}

/* ---- iTerm2 ------------------------------------------------------------------ */

int gfx_iterm2(struct gbuf *b, const struct image *im)
{
    uint8_t *png;
    size_t len;
    if (png_encode(im, &png, &len) < 0)
        return -1;
    gbuf_printf(b, "\033]1337;File=inline=1;size=%zu;width=%dpx;height=%dpx;"
                "preserveAspectRatio=0:", len, im->w, im->h);
    gfx_base64(b, png, len);
    gbuf_put(b, "\a", 1);
    free(png);
    return b->failed ? -1 : 0;
}
