/* SPDX-License-Identifier: ISC */
/*
 * test_gfx.c - the terminal image encoders, decoded here: kitty APCs
 * (chunks, keys, base64, zlib), sixel DCS (registers in percent, bands,
 * repeats) and iTerm2 OSC 1337 (a base64 PNG).  The image is the
 * heatmap's data area at a 10 x 20 pixel cell; decoded pixels are
 * compared with the colour map of PE means computed here by brute force.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "face_check.h"
#include "png_decode.h"
#include "app.h"
#include "colormap.h"
#include "areas.h"
#include "frame.h"
#include "frame_image.h"
#include "gfx.h"
#include "gfx_probe.h"
#include "raster.h"
#include "view.h"
#include "peviz/pca.h"
#include "peviz/pe.h"
#include "views/clocks.h"
#include "views/compare.h"
#include "views/heatmap.h"

#define CW 10
#define CH 20

/* ---- decoding helpers ---------------------------------------------------- */

static int b64v(int c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

/* Base64 of s[0..n) into out (room for n * 3 / 4 bytes): length, -1 bad. */
static long b64_decode(const char *s, size_t n, uint8_t *out)
{
    long o = 0;
    if (n % 4)
        return -1;
    for (size_t i = 0; i < n; i += 4) {
        int v[4];
        for (int k = 0; k < 4; k++)
            v[k] = s[i + k] == '=' ? 0 : b64v(s[i + k]);
        if (v[0] < 0 || v[1] < 0 || v[2] < 0 || v[3] < 0)
            return -1;
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 |
                     (uint32_t)v[2] << 6 | (uint32_t)v[3];
        out[o++] = (uint8_t)(w >> 16);
        if (s[i + 2] != '=')
            out[o++] = (uint8_t)(w >> 8);
        if (s[i + 3] != '=')
            out[o++] = (uint8_t)w;
    }
    return o;
}

/* The value of key k in "a=T,f=24,..." (or ";"-separated), or -1. */
static long key_of(const char *keys, size_t n, const char *k)
{
    size_t kl = strlen(k);
    for (size_t i = 0; i + kl + 1 < n; i++)
        if ((i == 0 || keys[i - 1] == ',' || keys[i - 1] == ';') &&
            !strncmp(keys + i, k, kl) &&
            keys[i + kl] == '=')
            return strtol(keys + i + kl + 1, NULL, 10);
    return -1;
}

/* ---- the picture ------------------------------------------------------------- */

struct pic {
    struct app a;
    struct view_raster r;
    struct image im;
    int cols, rows;
};

static int pic_make(struct pic *p, int d, int64_t n, int W, int H)
{
    int vw, vh, mx, my;
    app_init(&p->a);
    p->a.p.d = d;
    p->a.p.n = n;
    p->a.p.pos = n / 2;
    p->a.color = COLOR_TRUE;
    p->a.screen_w = W;
    p->a.screen_h = H;
    areas_view_size(&p->a, W, H, &vw, &vh);
    heatmap_map_rect(&p->a, vw, vh, &mx, &my, &p->cols, &p->rows);
    if (view_raster(&p->a, VIEW_HEATMAP, vw, vh, CW, CH, 1, 0, &p->r))
        return -1;
    return raster_image(&p->r, RASTER_BG, &p->im);
}

static void pic_free(struct pic *p)
{
    free(p->r.px);
    image_free(&p->im);
}

/* The colour PE shows at image pixel (x, y), by brute force; 0 if the
 * pixel shows nothing. */
static int pic_want(const struct pic *p, int x, int y, rgb *want)
{
    int64_t p0, p1;
    int dim = heatmap_pixel_dim(&p->a, y / (CH / 2), p->cols, 2 * p->rows);
    if (dim < 0 || heatmap_col_range(&p->a, x / CW, p->cols, 2 * p->rows,
                                     &p0, &p1))
        return 0;
    int64_t q0 = p0 + (p1 - p0) * (x % CW) / CW,
            q1 = p0 + (p1 - p0) * (x % CW + 1) / CW;
    if (q1 <= q0)
        q1 = q0 + 1;
    double w = pow(p->a.p.base, -(double)(dim / 2 * 2) / p->a.p.d), s = 0;
    for (int64_t q = q0; q < q1; q++)
        s += dim % 2 ? cos((double)q * w) : sin((double)q * w);
    *want = cmap_diverging(p->a.palette, s / (double)(q1 - q0));
    return 1;
}

/* Sampled pixels of a decoded RGB buffer against the formula: bad ones. */
static int pic_compare(const struct pic *p, const uint8_t *rgbbuf, int tol,
                       int *checked)
{
    int bad = 0;
    *checked = 0;
    for (int y = 1; y < p->im.h; y += 7)
        for (int x = 0; x < p->im.w; x += 5) {
            rgb want;
            if (!pic_want(p, x, y, &want))
                continue;
            const uint8_t *q = rgbbuf + ((size_t)y * (size_t)p->im.w + (size_t)x) * 3;
            int e = abs(q[0] - (int)(want >> 16)) > tol ||
                    abs(q[1] - (int)(want >> 8 & 0xFF)) > tol ||
                    abs(q[2] - (int)(want & 0xFF)) > tol;
            if (e && bad++ < 3)
                fprintf(stderr, "pixel (%d, %d): %02x%02x%02x, want %06x\n",
                        x, y, q[0], q[1], q[2], (unsigned)want);
            (*checked)++;
        }
    return bad;
}

/* ---- kitty ---------------------------------------------------------------------- */

/* Decode a kitty transmission: checks its chunks and keys (virt: a
 * virtual placement, U=1 and no cursor key), returns the RGB pixels
 * (free them) or NULL. */
static uint8_t *kitty_decode_as(const char *s, size_t n, int virt, int *w,
                                int *h, long *id)
{
    char *b64 = malloc(n + 1);
    size_t bn = 0, at = 0;
    int chunks = 0, last_m = 1, ok = 1;
    *w = *h = 0;
    while (at < n && ok) {
        if (strncmp(s + at, "\033_G", 3)) {
            ok = 0;
            break;
        }
        const char *semi = memchr(s + at, ';', n - at);
        const char *end = semi ? strstr(semi, "\033\\") : NULL;
        if (!semi || !end) {
            ok = 0;
            break;
        }
        size_t kl = (size_t)(semi - (s + at + 3));
        const char *keys = s + at + 3;
        long m = key_of(keys, kl, "m");
        if (chunks == 0) {
            *w = (int)key_of(keys, kl, "s");
            *h = (int)key_of(keys, kl, "v");
            *id = key_of(keys, kl, "i");
            ok = key_of(keys, kl, "f") == 24 && strstr(keys, "o=z") &&
                 key_of(keys, kl, "q") == 2 &&
                 key_of(keys, kl, "C") == (virt ? -1 : 1) &&
                 key_of(keys, kl, "U") == (virt ? 1 : -1) &&
                 strstr(keys, "a=T") < semi;
        }
        size_t dl = (size_t)(end - semi - 1);
        ok = ok && last_m == 1 && (m == 0 || m == 1) && dl <= 4096 &&
             (m == 0 || dl % 4 == 0);
        memcpy(b64 + bn, semi + 1, dl);
        bn += dl;
        last_m = (int)m;
        chunks++;
        at = (size_t)(end + 2 - s);
    }
    uint8_t *z = malloc(bn), *px = NULL;
    long zn = ok && last_m == 0 ? b64_decode(b64, bn, z) : -1;
    if (zn > 0 && *w > 0 && *h > 0) {
        uLongf rn = (uLongf)*w * (uLongf)*h * 3;
        px = malloc(rn);
        if (uncompress(px, &rn, z, (uLong)zn) != Z_OK ||
            rn != (uLongf)*w * (uLongf)*h * 3) {
            free(px);
            px = NULL;
        }
    }
    free(b64);
    free(z);
    return px;
}

static uint8_t *kitty_decode(const char *s, size_t n, int *w, int *h,
                             long *id)
{
    return kitty_decode_as(s, n, 0, w, h, id);
}

static void test_kitty(void)
{
    struct pic p;
    struct gbuf b = { 0 };
    int w, h, checked;
    long id;
    CHECK(pic_make(&p, 64, 1024, 160, 48) == 0);
    CHECK(gfx_kitty(&b, &p.im, 7, p.r.w, p.r.h) == 0);
    CHECK(b.len > 4096 * 2);            /* several chunks */
    uint8_t *px = kitty_decode(b.p, b.len, &w, &h, &id);
    CHECK(px != NULL);
    if (px) {
        CHECK(w == p.im.w && h == p.im.h && id == 7);
        CHECK(memcmp(px, p.im.rgb, (size_t)w * (size_t)h * 3) == 0);
        CHECK(pic_compare(&p, px, 2, &checked) == 0);
        CHECK(checked > 2000);
    }
    free(px);
    gbuf_free(&b);
    pic_free(&p);
    /* a tiny image: one chunk, m=0 */
    struct image im;
    CHECK(image_init(&im, 2, 1) == 0);
    image_set(&im, 0, 0, 0x123456);
    image_set(&im, 1, 0, 0xABCDEF);
    CHECK(gfx_kitty(&b, &im, 9, 1, 1) == 0);
    px = kitty_decode(b.p, b.len, &w, &h, &id);
    CHECK(px && w == 2 && h == 1 && px[0] == 0x12 && px[5] == 0xEF);
    CHECK(strstr(b.p, ",m=0;") != NULL && strstr(b.p, "m=1") == NULL);
    free(px);
    gbuf_free(&b);
    image_free(&im);
}

/* ---- sixel ------------------------------------------------------------------------ */

static int num(const char **s)
{
    int v = 0;
    while (**s >= '0' && **s <= '9')
        v = v * 10 + *(*s)++ - '0';
    return v;
}

/* Decode a sixel DCS into RGB (free it): NULL if malformed. */
static uint8_t *sixel_decode(const char *s, int *w, int *h)
{
    uint32_t reg[256] = { 0 };
    int k = 0, x = 0, y = 0;
    uint8_t *px = NULL;
    if (strncmp(s, "\033Pq\"", 4))
        return NULL;
    s += 4;
    num(&s);
    s++;
    num(&s);
    s++;
    *w = num(&s);
    s++;
    *h = num(&s);
    px = calloc((size_t)*w * (size_t)*h * 3 + 1, 1);
    while (*s && *s != '\033') {
        int c = *s, rep = 1;
        if (c == '#') {
            s++;
            k = num(&s);
            if (*s == ';') {            /* #k;2;r;g;b */
                s++;
                if (num(&s) != 2 || k > 255)
                    goto bad;
                int rgb3[3];
                for (int i = 0; i < 3; i++) {
                    s++;
                    rgb3[i] = (num(&s) * 255 + 50) / 100;
                }
                reg[k] = RGB((rgb)rgb3[0], (rgb)rgb3[1], (rgb)rgb3[2]);
            }
            continue;
        }
        if (c == '$') { x = 0; s++; continue; }
        if (c == '-') { x = 0; y += 6; s++; continue; }
        if (c == '!') {
            s++;
            rep = num(&s);
            c = *s;
        }
        if (c < 63 || c > 126)
            goto bad;
        for (int i = 0; i < rep; i++, x++)
            for (int r = 0; r < 6; r++)
                if ((c - 63) >> r & 1 && x < *w && y + r < *h) {
                    uint8_t *q = px + ((size_t)(y + r) * (size_t)*w + (size_t)x) * 3;
                    q[0] = (uint8_t)(reg[k] >> 16);
                    q[1] = (uint8_t)(reg[k] >> 8);
                    q[2] = (uint8_t)reg[k];
                }
        s++;
    }
    if (strcmp(s, "\033\\"))
        goto bad;
    return px;
bad:
    free(px);
    return NULL;
}

static void test_sixel(void)
{
    struct pic p;
    struct gbuf b = { 0 };
    uint32_t pal[256];
    int w, h, checked;
    CHECK(pic_make(&p, 64, 1024, 160, 48) == 0);
    for (int k = 0; k < 256; k++)       /* the colour map, 256 levels */
        pal[k] = cmap_diverging(p.a.palette, -1 + 2.0 * k / 255);
    CHECK(gfx_sixel(&b, &p.im, pal, 256) == 0);
    uint8_t *px = sixel_decode(b.p, &w, &h);
    CHECK(px != NULL);
    if (px) {
        CHECK(w == p.im.w && h == p.im.h);
        CHECK(pic_compare(&p, px, 8, &checked) == 0);
        CHECK(checked > 2000);
    }
    CHECK(strstr(b.p, "#255;2;") != NULL && strstr(b.p, "!") != NULL);
    free(px);
    gbuf_free(&b);
    pic_free(&p);
    /* exact palette colours come back within the percent rounding */
    struct image im;
    uint32_t two[2] = { 0xFF0000, 0x0000FF };
    CHECK(image_init(&im, 5, 7) == 0);
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 5; x++)
            image_set(&im, x, y, (x + y) % 2 ? 0x0000F0 : 0xF00000);
    CHECK(gfx_sixel(&b, &im, two, 2) == 0);
    CHECK(strstr(b.p, "#0;2;100;0;0#1;2;0;0;100") != NULL);
    px = sixel_decode(b.p, &w, &h);
    CHECK(px && w == 5 && h == 7);
    if (px) {
        CHECK(px[0] == 255 && px[2] == 0);                 /* (0,0): red */
        CHECK(px[3] == 0 && px[5] == 255);                 /* (1,0): blue */
        CHECK(px[(6 * 5 + 4) * 3] == 255);                 /* (4,6): red */
    }
    free(px);
    gbuf_free(&b);
    image_free(&im);
}

/* ---- iTerm2 ---------------------------------------------------------------------------- */

static void test_iterm2(void)
{
    struct pic p;
    struct gbuf b = { 0 };
    int w, h, checked;
    char want[96];
    CHECK(pic_make(&p, 32, 300, 100, 30) == 0);
    CHECK(gfx_iterm2(&b, &p.im) == 0);
    CHECK(!strncmp(b.p, "\033]1337;File=inline=1;", 21));
    snprintf(want, sizeof want, ";width=%dpx;height=%dpx;preserveAspectRatio=0:",
             p.im.w, p.im.h);
    CHECK(strstr(b.p, want) != NULL);
    CHECK(b.len > 0 && b.p[b.len - 1] == '\a');
    const char *colon = strchr(b.p, ':');
    long size = key_of(b.p + 12, (size_t)(colon - b.p - 12), "size");
    uint8_t *png = malloc(b.len), *px = NULL;
    long n = colon ? b64_decode(colon + 1, (size_t)(b.p + b.len - 1 - colon - 1), png) : -1;
    CHECK(n > 0 && n == size);
    CHECK(n > 0 && png_decode(png, (size_t)n, &w, &h, &px) == 0);
    if (px) {
        CHECK(w == p.im.w && h == p.im.h);
        CHECK(memcmp(px, p.im.rgb, (size_t)w * (size_t)h * 3) == 0);
        CHECK(pic_compare(&p, px, 2, &checked) == 0);
        CHECK(checked > 500);
    }
    free(px);
    free(png);
    gbuf_free(&b);
    pic_free(&p);
}

static void test_base64(void)
{
    struct gbuf b = { 0 };
    gfx_base64(&b, (const uint8_t *)"Man", 3);
    gfx_base64(&b, (const uint8_t *)"Ma", 2);
    gfx_base64(&b, (const uint8_t *)"M", 1);
    CHECK_STR(b.p, "TWFuTWE=TQ==");
    gbuf_free(&b);
    CHECK(gfx_mode_parse("sixel") == GFX_SIXEL && gfx_mode_parse("x") < 0);
}

/* ---- compare's panes as images ------------------------------------------- */

/* Mean of PE dimension dim (interleaved: sin even, cos odd) at base over
 * positions [q0, q1), by brute force. */
static double pe_mean(double base, int d, int dim, int64_t q0, int64_t q1)
{
    double w = pow(base, -(double)(dim / 2 * 2) / d), s = 0;
    for (int64_t q = q0; q < q1; q++)
        s += dim % 2 ? cos((double)q * w) : sin((double)q * w);
    return s / (double)(q1 - q0);
}

/*
 * Pane k's image in compare's heatmap or diff mode at W x H cells, sampled
 * pixels against the colour map of the exact means (diff: A - X) in the
 * panes' colour scale; the images' count goes to *parts.  Bad pixels.
 */
static int compare_check(struct app *a, int W, int H, int *parts,
                         int *checked)
{
    int vw, vh, bad = 0;
    *checked = 0;
    *parts = 0;
    a->screen_w = W;
    a->screen_h = H;
    areas_view_size(a, W, H, &vw, &vh);
    double scale = compare_scale_of_grid(a, vw, vh);
    for (int k = 0; k < VIEW_RASTER_PARTS; k++) {
        struct view_raster r;
        if (view_raster(a, VIEW_COMPARE, vw, vh, CW, CH, 1, k, &r))
            continue;
        ++*parts;
        for (int y = 1; y < r.h * CH; y += 7)
            for (int x = 0; x < r.w * CW; x += 5) {
                int64_t q0, q1;
                int dim;
                double v;
                rgb got = r.px[(size_t)y * (size_t)(r.w * CW) + (size_t)x];
                if (compare_pixel_source(a, vw, vh, k, CW, CH, x, y, &q0, &q1,
                                         &dim)) {
                    bad += got != RGB_DEFAULT;
                    continue;
                }
                v = pe_mean(k ? a->cmp.panes[k].base : a->p.base, a->p.d, dim,
                            q0, q1);
                if (a->cmp.mode == PANE_DIFF)
                    v = pe_mean(a->p.base, a->p.d, dim, q0, q1) - v;
                rgb want = cmap_diverging(a->palette, v / scale);
                int e = abs((int)(got >> 16) - (int)(want >> 16)) > 2 ||
                        abs((int)(got >> 8 & 0xFF) - (int)(want >> 8 & 0xFF)) > 2 ||
                        abs((int)(got & 0xFF) - (int)(want & 0xFF)) > 2 ||
                        fabs(v) > scale;
                if (e && bad++ < 3)
                    fprintf(stderr, "pane %d pixel (%d, %d): %06x, want %06x "
                            "(%g of scale %g)\n", k, x, y, (unsigned)got,
                            (unsigned)want, v, scale);
                (*checked)++;
            }
        free(r.px);
    }
    return bad;
}

static void test_compare(void)
{
    struct app a;
    int parts, checked;
    app_init(&a);
    a.view = VIEW_COMPARE;
    a.color = COLOR_TRUE;
    a.p.d = 32;
    a.p.n = 3000;
    a.cmp.npanes = 3;
    /* the heatmap mode: every pane an image, each position its pixels */
    CHECK(compare_check(&a, 160, 48, &parts, &checked) == 0);
    CHECK(parts == 3 && checked > 3 * 2000);
    /* zoomed in: a position spans several pixels */
    a.cmp.zoom = 6;
    a.p.pos = 1234;
    CHECK(compare_check(&a, 160, 48, &parts, &checked) == 0);
    CHECK(parts == 3 && checked > 3 * 2000);
    /* the diff mode: A is the reference (its card stays text), B and C
     * show A - X in the legend's scale */
    a.cmp.zoom = 0;
    a.cmp.mode = PANE_DIFF;
    CHECK(compare_check(&a, 160, 48, &parts, &checked) == 0);
    CHECK(parts == 2 && checked > 2 * 2000);
    /* modes drawn as plots stay cells */
    a.cmp.mode = PANE_SPECTRUM;
    CHECK(compare_check(&a, 160, 48, &parts, &checked) == 0 && parts == 0);
}

/* ---- kitty through tmux ------------------------------------------------------ */

/* What tmux passes on of s: each ESC P tmux; ... ESC \\ unwrapped, its
 * doubled ESC undone; -1 if a lone ESC sits inside or bytes lie outside
 * a wrapper.  *seqs counts the wrappers. */
static long tmux_unwrap(const char *s, size_t n, char *out, int *seqs)
{
    size_t at = 0;
    long o = 0;
    *seqs = 0;
    while (at < n) {
        if (n - at < 7 || memcmp(s + at, "\033Ptmux;", 7))
            return -1;
        at += 7;
        for (;;) {
            if (at + 1 >= n)
                return -1;
            if (s[at] != '\033') {
                out[o++] = s[at++];
            } else if (s[at + 1] == '\033') {
                out[o++] = '\033';
                at += 2;
            } else if (s[at + 1] == '\\') {
                at += 2;
                break;
            } else {
                return -1;
            }
        }
        ++*seqs;
    }
    return o;
}

static void test_tmux(void)
{
    struct pic p;
    struct gbuf b = { 0 }, t = { 0 };
    int w, h, seqs, checked;
    long id;
    /* the placeholder diacritics: rows / columns 0, 1, 2 as the protocol's
     * examples say, the last of 297, and nothing beyond */
    CHECK(gfx_diacritic(0) == 0x305 && gfx_diacritic(1) == 0x30D &&
          gfx_diacritic(2) == 0x30E && gfx_diacritic(296) == 0x1D244);
    CHECK(gfx_diacritic(297) == 0 && gfx_diacritic(-1) == 0);
    int round = 1;
    for (int k = 0; k < GFX_DIACRITICS; k++)
        round &= gfx_diacritic_index(gfx_diacritic(k)) == k &&
                 (k == 0 || gfx_diacritic(k) > gfx_diacritic(k - 1));
    CHECK(round && gfx_diacritic_index(0x301) == -1);
    /* the image with a virtual placement, through tmux in several chunks,
     * each in its own wrapper */
    CHECK(pic_make(&p, 64, 1024, 160, 48) == 0);
    CHECK(gfx_kitty_virtual(&b, &p.im, 241, p.r.w, p.r.h) == 0);
    gfx_tmux_wrap(&t, b.p, b.len);
    char *in = malloc(t.len + 1);
    long n = tmux_unwrap(t.p, t.len, in, &seqs);
    CHECK(n == (long)b.len && memcmp(in, b.p, b.len) == 0);
    CHECK(seqs > 2 && seqs == (int)(b.len / (GFX_KITTY_CHUNK + 8)) + 1);
    uint8_t *px = kitty_decode_as(in, (size_t)n, 1, &w, &h, &id);
    CHECK(px != NULL);
    if (px) {
        CHECK(w == p.im.w && h == p.im.h && id == 241);
        CHECK(pic_compare(&p, px, 2, &checked) == 0 && checked > 2000);
    }
    char cr[32];
    snprintf(cr, sizeof cr, ",c=%d,r=%d,", p.r.w, p.r.h);
    CHECK(strstr(b.p, cr) != NULL && strstr(b.p, "a=T,U=1,") == b.p + 3);
    free(px);
    free(in);
    gbuf_free(&b);
    gbuf_free(&t);
    pic_free(&p);
    /* the delete command, wrapped */
    gfx_kitty_delete(&b, 241);
    gfx_tmux_wrap(&t, b.p, b.len);
    CHECK_STR(t.p, "\033Ptmux;\033\033_Ga=d,d=I,i=241,q=2\033\033\\\033\\");
    gbuf_free(&b);
    gbuf_free(&t);
}

/* ---- the probe's parser ---------------------------------------------------- */

/* Feed s in pieces of k bytes, as a slow link would: the keys left. */
static size_t feed(struct gfx_probe *p, const char *s, size_t k, char *keys)
{
    char buf[512];
    size_t n = 0, partial, len = strlen(s);
    memset(p, 0, sizeof *p);
    for (size_t at = 0; at < len; at += k) {
        size_t m = len - at < k ? len - at : k;
        memcpy(buf + n, s + at, m);
        n = gfx_probe_feed(p, buf, n + m, &partial);
    }
    memcpy(keys, buf, n);
    keys[n] = 0;
    return n;
}

static void test_probe(void)
{
    struct gfx_probe p;
    char keys[64], why[64];
    /* kitty: the graphics reply comes before DA1; a key typed between */
    for (size_t k = 1; k <= 64; k *= 4) {
        feed(&p, "\033_Gi=31;OK\033\\j\033[6;20;10t\033[?62;22c", k, keys);
        CHECK(p.kitty && p.answered && !p.sixel && p.cell_w == 10 &&
              p.cell_h == 20);
        CHECK_STR(keys, "j");
        CHECK(gfx_choose(GFX_AUTO, &p, NULL, NULL, 0, why, sizeof why) ==
              GFX_KITTY);
        CHECK(gfx_choose(GFX_AUTO, &p, NULL, NULL, 1, why, sizeof why) ==
              GFX_KITTY);                       /* tmux: placeholders */
    }
    /* xterm with sixel: XTVERSION, then DA1 listing 4 */
    feed(&p, "\033P>|XTerm(390)\033\\\033[?63;1;2;4;6;9;15;22c", 5, keys);
    CHECK(!p.kitty && p.sixel && p.answered && keys[0] == 0);
    CHECK_STR(p.version, "XTerm(390)");
    CHECK(gfx_choose(GFX_AUTO, &p, NULL, NULL, 0, why, sizeof why) ==
          GFX_SIXEL);
    /* 4 as the level, or 14 and 44, is not attribute 4 */
    feed(&p, "\033[?4;14;44c", 64, keys);
    CHECK(p.answered && !p.sixel);
    /* a graphics reply after DA1 is not kitty's answer */
    feed(&p, "\033[?62;22c\033_Gi=31;OK\033\\", 64, keys);
    CHECK(p.answered && !p.kitty);
    /* iTerm2 by XTVERSION or by the environment */
    feed(&p, "\033P>|iTerm2 3.5.0\033\\\033[?62;4c", 3, keys);
    CHECK(gfx_choose(GFX_AUTO, &p, NULL, NULL, 0, why, sizeof why) ==
          GFX_ITERM2);
    feed(&p, "\033[?62;22c", 64, keys);
    CHECK(gfx_choose(GFX_AUTO, &p, "iTerm.app", NULL, 0, why, sizeof why) ==
          GFX_ITERM2);
    CHECK(gfx_choose(GFX_AUTO, &p, NULL, NULL, 0, why, sizeof why) ==
          GFX_CELLS);
    /* no answer: cells, and forced modes win */
    memset(&p, 0, sizeof p);
    CHECK(gfx_choose(GFX_AUTO, &p, NULL, NULL, 0, why, sizeof why) ==
          GFX_CELLS);
    CHECK_STR(why, "no answer in 200 ms");
    p.wait_ms = 490;            /* the wait after a round trip of 220 ms */
    gfx_choose(GFX_AUTO, &p, NULL, NULL, 0, why, sizeof why);
    CHECK_STR(why, "no answer in 490 ms");
    p.wait_ms = 0;
    CHECK(gfx_choose(GFX_SIXEL, &p, NULL, NULL, 1, why, sizeof why) ==
          GFX_SIXEL);
    /* inside tmux: tmux answers DA1 first, the terminal's graphics reply
     * comes after it through the passthrough and still counts; without
     * it, cells */
    size_t partial;
    char tb[64] = "\033[?1;2;4c\033_Gi=31;OK\033\\";
    memset(&p, 0, sizeof p);
    p.tmux = 1;
    CHECK(gfx_probe_feed(&p, tb, strlen(tb), &partial) == 0);
    CHECK(p.kitty && p.answered);
    CHECK(gfx_choose(GFX_AUTO, &p, NULL, NULL, 1, why, sizeof why) ==
          GFX_KITTY);
    CHECK_STR(why, "kitty graphics reply through tmux");
    memset(&p, 0, sizeof p);
    p.tmux = 1;
    strcpy(tb, "\033[?1;2;4c");
    gfx_probe_feed(&p, tb, strlen(tb), &partial);
    CHECK(gfx_choose(GFX_AUTO, &p, NULL, NULL, 1, why, sizeof why) ==
          GFX_CELLS);
    /* arrow keys and other escapes are keys, kept in order */
    feed(&p, "\033[Ax\033OB\033[?62c", 2, keys);
    CHECK_STR(keys, "\033[Ax\033OB");
}

/* ---- the cell size in pixels ------------------------------------------------ */

/* n cells at area / cols pixels a cell, from the definition in doubles:
 * the whole pixels they span, never more than the cells. */
static int span_ref(int n, int area, int cols)
{
    return (int)floor((double)n * area / cols + 1e-9);
}

static void test_cell_size(void)
{
    struct gfx_probe p;
    struct gfx_cell c;
    char keys[64];
    /* xterm.js at 80x24: the text area says 8.425 where the cell says 8 */
    feed(&p, "\033[4;384;674t\033[6;16;8t\033[?62;4c", 3, keys);
    CHECK(p.area_w == 674 && p.area_h == 384 && p.cell_w == 8 &&
          p.cell_h == 16 && p.answered && keys[0] == 0);
    p.cols = 80;
    p.rows = 24;
    gfx_probe_cell(&p, 80, 24, 0, 0, &c);
    CHECK(c.w_num == 674 && c.w_den == 80 && c.h_num == 384 &&
          c.h_den == 24);
    /* 65 cells are 547.6 pixels: 547, not 65 x 8 = 520 */
    CHECK_NEAR(gfx_cell_span(65, c.w_num, c.w_den), 547, 0);
    static const int areas[][2] = { { 674, 80 }, { 722, 80 }, { 843, 100 },
                                    { 1283, 160 }, { 626, 80 }, { 960, 96 } };
    int bad = 0;
    for (size_t k = 0; k < sizeof areas / sizeof areas[0]; k++)
        for (int n = 0; n <= 2 * areas[k][1]; n++) {
            int got = gfx_cell_span(n, areas[k][0], areas[k][1]);
            double exact = (double)n * areas[k][0] / areas[k][1];
            bad += got != span_ref(n, areas[k][0], areas[k][1]) ||
                   got > exact + 1e-9 || got <= exact - 1;
        }
    CHECK_NEAR(bad, 0, 0);
    /* no text area: the cell size; no area's cells: the same */
    memset(&p, 0, sizeof p);
    p.cell_w = 9;
    p.cell_h = 18;
    gfx_probe_cell(&p, 80, 24, 800, 480, &c);
    CHECK(c.w_num == 9 && c.w_den == 1 && c.h_num == 18 && c.h_den == 1);
    p.area_w = 720;
    p.area_h = 432;
    gfx_probe_cell(&p, 80, 24, 800, 480, &c);
    CHECK(c.w_num == 9 && c.w_den == 1);
    /* neither: the window's pixels over its cells, exactly */
    memset(&p, 0, sizeof p);
    gfx_probe_cell(&p, 80, 24, 674, 384, &c);
    CHECK(c.w_num == 674 && c.w_den == 80 && c.h_num == 384 &&
          c.h_den == 24);
    CHECK_NEAR(gfx_cell_span(65, c.w_num, c.w_den), 547, 0);
    /* nothing says: unknown */
    gfx_probe_cell(&p, 80, 24, 0, 0, &c);
    CHECK(c.w_num == 0 && c.h_num == 0 && gfx_cell_span(5, 0, 0) == 0);
    /* out of reason: left unknown */
    feed(&p, "\033[4;0;674t\033[6;16;0t\033[?62c", 64, keys);
    CHECK(p.area_w == 0 && p.area_h == 0 && p.cell_w == 0 && keys[0] == 0);
}

/* raster_scale: each pixel the source's under its centre. */
static void test_scale(void)
{
    struct image in, out;
    int bad = 0;
    CHECK(image_init(&in, 7, 3) == 0);
    for (int y = 0; y < in.h; y++)
        for (int x = 0; x < in.w; x++)
            image_set(&in, x, y, (rgb)(x * 16 + y * 0x10000 + 1));
    static const int sizes[][2] = { { 8, 4 }, { 7, 3 }, { 20, 7 }, { 5, 2 },
                                    { 1, 1 } };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        CHECK(raster_scale(&in, sizes[k][0], sizes[k][1], &out) == 0);
        CHECK(out.w == sizes[k][0] && out.h == sizes[k][1]);
        for (int y = 0; y < out.h; y++)
            for (int x = 0; x < out.w; x++) {
                int sx = (int)floor((x + 0.5) * in.w / out.w);
                int sy = (int)floor((y + 0.5) * in.h / out.h);
                bad += image_get(&out, x, y) != image_get(&in, sx, sy);
            }
        image_free(&out);
    }
    CHECK_NEAR(bad, 0, 0);
    image_free(&in);
}

/* ---- the clock faces and the PCA face ---------------------------------------------- */

/* Band i's hand at a's position, from the definition: pos * base^(-2i/d). */
static double band_angle(const struct app *a, int i)
{
    return fmod((double)a->p.pos * pow(a->p.base, -2.0 * i / a->p.d),
                2 * FC_PI);
}

/*
 * A face decoded (w x h RGB): the hand at want (measured at two radii
 * within tol), on a small face no hand colour elsewhere, the rim round
 * (one radius in six directions away from the hand, near the edge) in
 * colour ring, the corners the background.
 */
static void face_ok(const uint8_t *px, int w, int h, double want, rgb ring,
                    int small, const char *what)
{
    struct face_img f = { px, w * 3, 0, 0, w, h };
    double s = (w < h ? w : h) / 2.0, tol = small ? 0.04 : 0.015, r0 = -1;
    int round = 1;
    for (double k = 0.3; k < 0.6; k += 0.2) {
        double got = fc_hand_angle(&f, k * s, want, 0.35, RASTER_FG);
        int ok = !isnan(got) && fabs(fc_diff(got, want)) < tol;
        if (!ok)
            fprintf(stderr, "%s: hand at %.4f rad at radius %.0f, want %.4f\n",
                    what, got, k * s, want);
        CHECK(ok);
    }
    if (small)
        CHECK(fc_ink_elsewhere(&f, 0.45 * s, want, 0.35, RASTER_FG) == 0);
    for (int k = 0; k < 6; k++) {
        double r = fc_rim(&f, want + FC_PI / 6 + k * FC_PI / 3, ring);
        if (r0 < 0)
            r0 = r;
        if (r < 0.85 * s || r > s || fabs(r - r0) > 1.0) {
            fprintf(stderr, "%s: rim at %.2f px (first %.2f, half side %.1f)\n",
                    what, r, r0, s);
            round = 0;
        }
    }
    CHECK(round);
    /* (sixel: within its percent steps) */
    CHECK(fc_close(fc_get(&f, 0, 0), RASTER_BG, 3) &&
          fc_close(fc_get(&f, w - 1, h - 1), RASTER_BG, 3));
}

/* The clocks view at 160 x 48 cells of CW x CH pixels. */
static void clocks_app(struct app *a, int64_t pos, int band)
{
    app_init(a);
    a->view = VIEW_CLOCKS;
    a->p.d = 64;
    a->p.n = 1024;
    a->p.pos = pos;
    a->clocks.band = band;
    a->color = COLOR_TRUE;
    a->screen_w = 160;
    a->screen_h = 48;
}

/* Part k of a's clocks as an image; 0, or -1 when it has none. */
static int face_image(const struct app *a, int k, struct view_raster *r,
                      struct image *im)
{
    int vw, vh;
    areas_view_size(a, 160, 48, &vw, &vh);
    if (view_raster(a, VIEW_CLOCKS, vw, vh, CW, CH, 1, k, r))
        return -1;
    int rc = raster_image(r, RASTER_BG, im);
    free(r->px);
    r->px = NULL;
    return rc;
}

/* The terminal's colours (OSC 10, OSC 11) are read at every width of
 * hex digit (v * 255 / (16^k - 1), rounded), and a face drawn with
 * them has the terminal's background and ink: on a light theme it is no
 * dark square. */
static void test_colours(void)
{
    struct gfx_probe p;
    char keys[64];
    feed(&p, "\033]11;rgb:ffff/ffff/ffff\033\\\033]10;rgb:00/80/ff\a"
         "\033[?62;4c", 3, keys);
    CHECK(p.has_bg && p.bg == 0xFFFFFFu && p.has_fg && keys[0] == 0);
    CHECK(p.fg == ((0u << 16) | ((0x80u * 255 + 127) / 255) << 8 | 255u));
    feed(&p, "\033]11;rgb:f/0/8\a\033]10;rgb:123/fff/000\033\\", 64, keys);
    CHECK(p.bg == (255u << 16 | 0u << 8 | (8u * 255 + 7) / 15));
    CHECK(p.fg == ((0x123u * 255 + 2047) / 4095 << 16 | 255u << 8));
    /* not a colour: taken as a report, nothing set */
    feed(&p, "\033]11;#ffffff\033\\", 64, keys);
    CHECK(!p.has_bg && keys[0] == 0);
    struct app a;
    struct view_raster r;
    struct image im;
    clocks_app(&a, 613, 3);
    raster_ink(0x101010u, 0xF5F5F5u);
    int rc = face_image(&a, 0, &r, &im);
    raster_ink(RASTER_FG, RASTER_BG);
    CHECK(rc == 0);
    if (rc == 0) {
        struct face_img f = { im.rgb, im.w * 3, 0, 0, im.w, im.h };
        double want = band_angle(&a, 3), s = (im.w < im.h ? im.w : im.h) / 2.0;
        CHECK(image_get(&im, 0, 0) == 0xF5F5F5u &&
              image_get(&im, im.w - 1, im.h - 1) == 0xF5F5F5u);
        double got = fc_hand_angle(&f, 0.4 * s, want, 0.35, 0x101010u);
        CHECK(!isnan(got) && fabs(fc_diff(got, want)) < 0.015);
        image_free(&im);
    }
    rc = face_image(&a, 0, &r, &im);    /* the default again after */
    CHECK(rc == 0 && image_get(&im, 0, 0) == RASTER_BG);
    if (rc == 0)
        image_free(&im);
}

/* Its own colours as a sixel palette: how many (at most 256). */
static int own_palette(const struct image *im, uint32_t *pal)
{
    int n = 0;
    for (int i = 0; i < im->w * im->h; i++) {
        rgb c = image_get(im, i % im->w, i / im->w);
        int k = 0;
        while (k < n && pal[k] != c)
            k++;
        if (k == n && n < 256)
            pal[n++] = c;
    }
    return n;
}

/* The big face (kitty) and three small ones (sixel, iTerm2, kitty),
 * decoded: each hand at pos * omega_i of its own band. */
static void test_clock_faces(void)
{
    struct app a;
    struct view_raster r;
    struct image im;
    struct gbuf b = { 0 };
    struct clocks_layout l;
    uint32_t pal[256];
    int vw, vh, w, h;
    long id;
    clocks_app(&a, 777, 5);
    areas_view_size(&a, 160, 48, &vw, &vh);
    clocks_layout(vw, vh, 32, 0, 0, &l);
    CHECK(l.mode == CLOCKS_BIG && l.tiles == 32);
    /* the big face: the cursor's band, its rim in the cursor colour */
    CHECK(face_image(&a, 0, &r, &im) == 0);
    CHECK(r.art && r.x == 0 && r.y == 1 && r.w == 2 * l.face_rows &&
          r.h == l.face_rows && im.w == r.w * CW && im.h == r.h * CH);
    CHECK(gfx_kitty(&b, &im, 5, r.w, r.h) == 0);
    uint8_t *px = kitty_decode(b.p, b.len, &w, &h, &id);
    CHECK(px && w == im.w && h == im.h);
    if (px)
        face_ok(px, w, h, band_angle(&a, 5), ui_color(a.palette, UI_CURSOR), 0,
                "big face, kitty");
    free(px);
    gbuf_free(&b);
    image_free(&im);
    /* tiles: the fastest, one in the middle, the slowest */
    int tiles[3] = { 0, 13, 31 };
    for (int i = 0; i < 3; i++) {
        int t = tiles[i], band = clocks_tile_band(&a.clocks, 32, l.tiles, t);
        double lam = 2 * FC_PI / pow(a.p.base, -2.0 * band / a.p.d);
        rgb ring = ui_color(a.palette, lam > (double)a.p.n ? UI_DIM : UI_ACCENT);
        char what[48];
        CHECK(face_image(&a, 1 + t, &r, &im) == 0);
        CHECK(r.w == 2 * l.fr && r.h == l.fr &&
              r.y == l.table_y + t / l.cpr * (l.block_h + 1));
        if (i == 0) {
            CHECK(gfx_sixel(&b, &im, pal, own_palette(&im, pal)) == 0);
            px = sixel_decode(b.p, &w, &h);
        } else if (i == 1) {
            CHECK(gfx_iterm2(&b, &im) == 0);
            const char *colon = strchr(b.p, ':');
            uint8_t *png = malloc(b.len);
            long n = b64_decode(colon + 1, (size_t)(b.p + b.len - 2 - colon), png);
            px = NULL;
            CHECK(n > 0 && png_decode(png, (size_t)n, &w, &h, &px) == 0);
            free(png);
        } else {
            CHECK(gfx_kitty(&b, &im, 9, r.w, r.h) == 0);
            px = kitty_decode(b.p, b.len, &w, &h, &id);
        }
        snprintf(what, sizeof what, "tile %d (band %d)", t, band);
        CHECK(px && w == im.w && h == im.h);
        if (px)
            face_ok(px, w, h, band_angle(&a, band), ring, 1, what);
        free(px);
        gbuf_free(&b);
        image_free(&im);
    }
    CHECK(face_image(&a, 1 + l.tiles, &r, &im) == -1);  /* no tile 32 */
}

/* Which faces' pixels change: a step of the position turns the fast
 * hands only; the band cursor moving changes no small face. */
static void test_face_changes(void)
{
    struct app a, b;
    struct view_raster r;
    struct image i0, i1;
    int changed[33], n = 0;
    clocks_app(&a, 300, 0);
    b = a;
    b.p.pos = 301;
    for (int k = 0; k < 33; k++) {
        CHECK(face_image(&a, k, &r, &i0) == 0 && face_image(&b, k, &r, &i1) == 0);
        changed[k] = memcmp(i0.rgb, i1.rgb, (size_t)i0.w * (size_t)i0.h * 3) != 0;
        n += changed[k];
        image_free(&i0);
        image_free(&i1);
    }
    /* band 0 turns 1 rad a position, band 31 1.3e-4 rad: less than a
     * tenth of a pixel at the tip */
    CHECK(changed[0] && changed[1] && !changed[32] && n > 2 && n < 33);
    b = a;
    b.clocks.band = 7;
    for (int k = 1, same = 1; k < 33; k++, same = 1) {
        CHECK(face_image(&a, k, &r, &i0) == 0 && face_image(&b, k, &r, &i1) == 0);
        same = memcmp(i0.rgb, i1.rgb, (size_t)i0.w * (size_t)i0.h * 3) == 0;
        CHECK(same);
        image_free(&i0);
        image_free(&i1);
    }
}

/* The PCA panel at pos in a's state: its face's raster and image (the
 * raster's pixels freed), and the frame drawn into cv (160 x 48). */
static void pca_frame(struct app *a, int64_t pos, struct view_raster *r,
                      struct image *im, canvas *cv)
{
    int vw, vh;
    a->p.pos = pos;
    areas_view_size(a, 160, 48, &vw, &vh);
    CHECK(view_raster(a, VIEW_HEATMAP, vw, vh, CW, CH, 1, 0, r) == -1);
    CHECK(view_raster(a, VIEW_HEATMAP, vw, vh, CW, CH, 1, 1, r) == 0);
    CHECK(r->art && r->w == 2 * r->h && raster_image(r, RASTER_BG, im) == 0);
    free(r->px);
    r->px = NULL;
    canvas_clear(cv);
    frame_draw_finished(a, cv);
}

/* The hand as cells over the face r in frame cv: its cells are marked
 * ATTR_OVER (no other cell of the frame is), the image leaves them to the
 * text and covers the face's other dots; their dots between 0.3 and 0.8
 * of the radius point at want (a dot is 1/30 radian there).  In the PNG
 * of the frame (png) each of them shows its ink. */
static void pca_hand_cells(const canvas *cv, const struct view_raster *r,
                           const struct image *png, double want)
{
    int rad = 2 * r->h - 1, over = 0, stray = 0, dotted = 0, inked = 0, n = 0;
    double cx = 2 * r->x + rad, cy = 4 * r->y + rad, sx = 0, sy = 0;
    for (int y = 0; y < cv->h; y++)
        for (int x = 0; x < cv->w; x++) {
            const cell *k = canvas_at(cv, x, y);
            int in = x >= r->x && x < r->x + r->w && y >= r->y &&
                     y < r->y + r->h;
            if (!(k->attr & ATTR_OVER)) {
                stray += in && k->kind == CELL_BRAILLE &&
                         !raster_covers_in(r, k);
                continue;
            }
            over++;
            stray += !in || raster_covers_in(r, k);
            if (k->kind != CELL_BRAILLE)
                continue;
            int ink = 0;
            dotted++;
            for (int py = 0; py < CH && png; py++)
                for (int px = 0; px < CW; px++)
                    ink |= image_get(png, x * CW + px, y * CH + py) ==
                           RASTER_FG;
            inked += ink;
            for (int b = 0; b < 8; b++) {
                static const int dx[8] = { 0, 0, 0, 1, 1, 1, 0, 1 };
                static const int dy[8] = { 0, 1, 2, 0, 1, 2, 3, 3 };
                if (!((k->ch - 0x2800) >> b & 1))
                    continue;
                double u = 2 * x + dx[b] - cx, v = cy - (4 * y + dy[b]);
                double ang = atan2(v, u), d = hypot(u, v);
                if (d >= 0.3 * rad && d <= 0.8 * rad &&
                    fabs(fc_diff(ang, want)) < 0.35) {
                    sx += cos(ang);
                    sy += sin(ang);
                    n++;
                }
            }
        }
    double got = n ? atan2(sy, sx) : NAN;
    if (!(n >= 0.3 * rad && fabs(fc_diff(got, want)) < 0.05))
        fprintf(stderr, "PCA hand cells: %d dots at %.4f rad, want %.4f\n", n,
                got, want);
    CHECK(n >= 0.3 * rad && fabs(fc_diff(got, want)) < 0.05);
    CHECK(over > 4 && stray == 0);
    if (png)
        CHECK(dotted > 4 && inked == dotted);
}

/* The PCA panel's face: an image of the rim, the axes and the curve
 * through every position, from the library's PCA of the sinusoidal table
 * computed here, the same at every position; the hand at atan2(PC2, PC1)
 * of the position's projection is cells over it (and in the PNG). */
static void test_pca_face(void)
{
    struct app a;
    struct view_raster r, r2;
    struct image im, im2, png;
    struct pe_pca pc;
    canvas cv;
    app_init(&a);
    a.p.d = 32;
    a.p.n = 256;
    a.heat.pca = 1;
    a.color = COLOR_TRUE;
    a.screen_w = 160;
    a.screen_h = 48;
    CHECK(canvas_init(&cv, 160, 48) == 0);
    double *v = malloc((size_t)a.p.n * (size_t)a.p.d * sizeof *v), y[3];
    double scale = 0;
    pe_fill_f64(0, a.p.n, a.p.d, a.p.base, v);
    CHECK(pca_compute(v, a.p.n, a.p.d, 3, &pc) == 0);
    for (int64_t p = 0; p < a.p.n; p++) {
        pca_project(&pc, v + p * a.p.d, y);
        scale = fmax(scale, hypot(y[0], y[1]));
    }
    /* at another position the image is the same, pixel for pixel */
    pca_frame(&a, 200, &r2, &im2, &cv);
    pca_project(&pc, v + 200 * a.p.d, y);
    pca_hand_cells(&cv, &r2, NULL, atan2(y[1], y[0]));
    pca_frame(&a, 101, &r, &im, &cv);
    CHECK(r.x == r2.x && r.y == r2.y && im.w == im2.w && im.h == im2.h &&
          memcmp(im.rgb, im2.rgb, (size_t)im.w * (size_t)im.h * 3) == 0);
    pca_project(&pc, v + a.p.pos * a.p.d, y);
    CHECK(frame_image(&a, &cv, CW, CH, 1, &png) == 0);
    pca_hand_cells(&cv, &r, &png, atan2(y[1], y[0]));
    image_free(&png);

    /* no hand in the image: not a pixel of its ink; the rim round */
    struct face_img f = { im.rgb, im.w * 3, 0, 0, im.w, im.h };
    int ink = 0;
    for (int yy = 0; yy < im.h; yy++)
        for (int x = 0; x < im.w; x++)
            ink += fc_close(fc_get(&f, x, yy), RASTER_FG, 24);
    CHECK(ink == 0);
    /* the curve passes through every 16th position's projection (within
     * a pixel and a half of the point), drawn on the rim's radius scale */
    double s = im.h / 2.0, rims[6], rim;
    for (int k = 0; k < 6; k++)     /* the median: the curve may touch it */
        rims[k] = fc_rim(&f, k * FC_PI / 3 + 0.1, ui_color(a.palette, UI_DIM));
    for (int i = 1; i < 6; i++)
        for (int k = i; k > 0 && rims[k] < rims[k - 1]; k--) {
            double t = rims[k];
            rims[k] = rims[k - 1];
            rims[k - 1] = t;
        }
    rim = (rims[2] + rims[3]) / 2;
    CHECK(rims[1] > 0.85 * s && rims[4] < s && rims[4] - rims[1] < 1.0);
    rgb curve = ui_color(a.palette, UI_PLOT_A);
    int missed = 0;
    for (int64_t p = 0; p < a.p.n; p += 16) {
        pca_project(&pc, v + p * a.p.d, y);
        double x = im.w / 2.0 + y[0] / scale * rim, yy = s - y[1] / scale * rim;
        int hit = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                hit |= fc_close(fc_get(&f, (int)x + dx, (int)yy + dy), curve, 40);
        if (!hit && missed++ < 3)
            fprintf(stderr, "PCA curve: nothing at (%.1f, %.1f) for pos %lld "
                    "(%06x)\n", x, yy, (long long)p,
                    (unsigned)fc_get(&f, (int)x, (int)yy));
    }
    CHECK(missed == 0);
    pca_free(&pc);
    free(v);
    image_free(&im);
    image_free(&im2);
    canvas_free(&cv);
}

int main(void)
{
    test_probe();
    test_cell_size();
    test_scale();
    test_base64();
    test_kitty();
    test_sixel();
    test_iterm2();
    test_tmux();
    test_compare();
    test_clock_faces();
    test_colours();
    test_face_changes();
    test_pca_face();
    TEST_END("test_gfx");
}
