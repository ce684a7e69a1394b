/* SPDX-License-Identifier: ISC */
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
#include "peviz/names.h"

static const char *const MODE_NAMES[GFX_MODE_COUNT] = {
    "auto", "kitty", "sixel", "iterm2", "cells"
};

int gfx_mode_parse(const char *name)
{
    return names_find(MODE_NAMES, GFX_MODE_COUNT, name);
}

const char *gfx_mode_name(enum gfx_mode m)
{
    return names_at(MODE_NAMES, GFX_MODE_COUNT, (int)m, "cells");
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

/* im as APCs, the first chunk's keys (before m=) given by head. */
static int kitty_chunks(struct gbuf *b, const struct image *im,
                        const char *head)
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
            gbuf_printf(b, "\033_G%s,m=%d;", head, more);
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

int gfx_kitty(struct gbuf *b, const struct image *im, unsigned id, int cols,
              int rows)
{
    char head[160];
    snprintf(head, sizeof head, "a=T,f=24,o=z,s=%d,v=%d,i=%u,p=1,c=%d,r=%d,"
             "q=2,C=1,z=-1", im->w, im->h, id, cols, rows);
    return kitty_chunks(b, im, head);
}

int gfx_kitty_virtual(struct gbuf *b, const struct image *im, unsigned id,
                      int cols, int rows)
{
    char head[160];
    snprintf(head, sizeof head, "a=T,U=1,f=24,o=z,s=%d,v=%d,i=%u,c=%d,r=%d,"
             "q=2", im->w, im->h, id, cols, rows);
    return kitty_chunks(b, im, head);
}

void gfx_kitty_delete(struct gbuf *b, unsigned id)
{
    gbuf_printf(b, "\033_Ga=d,d=I,i=%u,q=2\033\\", id);
}

/* The row / column diacritics of kitty's Unicode placeholders, in order
 * (the protocol's list: combining marks of class 230 from Unicode 6.0). */
static const uint32_t DIACRITICS[GFX_DIACRITICS] = {
    0x0305, 0x030D, 0x030E, 0x0310, 0x0312, 0x033D, 0x033E, 0x033F,
    0x0346, 0x034A, 0x034B, 0x034C, 0x0350, 0x0351, 0x0352, 0x0357,
    0x035B, 0x0363, 0x0364, 0x0365, 0x0366, 0x0367, 0x0368, 0x0369,
    0x036A, 0x036B, 0x036C, 0x036D, 0x036E, 0x036F, 0x0483, 0x0484,
    0x0485, 0x0486, 0x0487, 0x0592, 0x0593, 0x0594, 0x0595, 0x0597,
    0x0598, 0x0599, 0x059C, 0x059D, 0x059E, 0x059F, 0x05A0, 0x05A1,
    0x05A8, 0x05A9, 0x05AB, 0x05AC, 0x05AF, 0x05C4, 0x0610, 0x0611,
    0x0612, 0x0613, 0x0614, 0x0615, 0x0616, 0x0617, 0x0657, 0x0658,
    0x0659, 0x065A, 0x065B, 0x065D, 0x065E, 0x06D6, 0x06D7, 0x06D8,
    0x06D9, 0x06DA, 0x06DB, 0x06DC, 0x06DF, 0x06E0, 0x06E1, 0x06E2,
    0x06E4, 0x06E7, 0x06E8, 0x06EB, 0x06EC, 0x0730, 0x0732, 0x0733,
    0x0735, 0x0736, 0x073A, 0x073D, 0x073F, 0x0740, 0x0741, 0x0743,
    0x0745, 0x0747, 0x0749, 0x074A, 0x07EB, 0x07EC, 0x07ED, 0x07EE,
    0x07EF, 0x07F0, 0x07F1, 0x07F3, 0x0816, 0x0817, 0x0818, 0x0819,
    0x081B, 0x081C, 0x081D, 0x081E, 0x081F, 0x0820, 0x0821, 0x0822,
    0x0823, 0x0825, 0x0826, 0x0827, 0x0829, 0x082A, 0x082B, 0x082C,
    0x082D, 0x0951, 0x0953, 0x0954, 0x0F82, 0x0F83, 0x0F86, 0x0F87,
    0x135D, 0x135E, 0x135F, 0x17DD, 0x193A, 0x1A17, 0x1A75, 0x1A76,
    0x1A77, 0x1A78, 0x1A79, 0x1A7A, 0x1A7B, 0x1A7C, 0x1B6B, 0x1B6D,
    0x1B6E, 0x1B6F, 0x1B70, 0x1B71, 0x1B72, 0x1B73, 0x1CD0, 0x1CD1,
    0x1CD2, 0x1CDA, 0x1CDB, 0x1CE0, 0x1DC0, 0x1DC1, 0x1DC3, 0x1DC4,
    0x1DC5, 0x1DC6, 0x1DC7, 0x1DC8, 0x1DC9, 0x1DCB, 0x1DCC, 0x1DD1,
    0x1DD2, 0x1DD3, 0x1DD4, 0x1DD5, 0x1DD6, 0x1DD7, 0x1DD8, 0x1DD9,
    0x1DDA, 0x1DDB, 0x1DDC, 0x1DDD, 0x1DDE, 0x1DDF, 0x1DE0, 0x1DE1,
    0x1DE2, 0x1DE3, 0x1DE4, 0x1DE5, 0x1DE6, 0x1DFE, 0x20D0, 0x20D1,
    0x20D4, 0x20D5, 0x20D6, 0x20D7, 0x20DB, 0x20DC, 0x20E1, 0x20E7,
    0x20E9, 0x20F0, 0x2CEF, 0x2CF0, 0x2CF1, 0x2DE0, 0x2DE1, 0x2DE2,
    0x2DE3, 0x2DE4, 0x2DE5, 0x2DE6, 0x2DE7, 0x2DE8, 0x2DE9, 0x2DEA,
    0x2DEB, 0x2DEC, 0x2DED, 0x2DEE, 0x2DEF, 0x2DF0, 0x2DF1, 0x2DF2,
    0x2DF3, 0x2DF4, 0x2DF5, 0x2DF6, 0x2DF7, 0x2DF8, 0x2DF9, 0x2DFA,
    0x2DFB, 0x2DFC, 0x2DFD, 0x2DFE, 0x2DFF, 0xA66F, 0xA67C, 0xA67D,
    0xA6F0, 0xA6F1, 0xA8E0, 0xA8E1, 0xA8E2, 0xA8E3, 0xA8E4, 0xA8E5,
    0xA8E6, 0xA8E7, 0xA8E8, 0xA8E9, 0xA8EA, 0xA8EB, 0xA8EC, 0xA8ED,
    0xA8EE, 0xA8EF, 0xA8F0, 0xA8F1, 0xAAB0, 0xAAB2, 0xAAB3, 0xAAB7,
    0xAAB8, 0xAABE, 0xAABF, 0xAAC1, 0xFE20, 0xFE21, 0xFE22, 0xFE23,
    0xFE24, 0xFE25, 0xFE26, 0x10A0F, 0x10A38, 0x1D185, 0x1D186, 0x1D187,
    0x1D188, 0x1D189, 0x1D1AA, 0x1D1AB, 0x1D1AC, 0x1D1AD, 0x1D242, 0x1D243,
    0x1D244,
};

uint32_t gfx_diacritic(int n)
{
    return n >= 0 && n < GFX_DIACRITICS ? DIACRITICS[n] : 0;
}

int gfx_diacritic_index(uint32_t cp)
{
    int lo = 0, hi = GFX_DIACRITICS - 1;
    while (lo <= hi) {              /* the list is sorted */
        int mid = (lo + hi) / 2;
        if (DIACRITICS[mid] == cp)
            return mid;
        if (DIACRITICS[mid] < cp)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

void gfx_tmux_wrap(struct gbuf *b, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        gbuf_puts(b, "\033Ptmux;");
        while (i < n) {
            const char *esc = memchr(s + i, '\033', n - i);
            size_t run = esc ? (size_t)(esc - (s + i)) : n - i;
            gbuf_put(b, s + i, run);
            i += run;
            if (i >= n)
                break;
            gbuf_put(b, "\033\033", 2);   /* ESC doubled */
            i++;
            if (i < n && s[i] == '\\') {  /* a sequence ended: its own DCS */
                gbuf_put(b, "\\", 1);
                i++;
                break;
            }
        }
        gbuf_puts(b, "\033\\");
    }
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
