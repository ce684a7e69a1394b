/* SPDX-License-Identifier: ISC */
/*
 * gfx.h - images in the terminal: the graphics modes, and encoders of an
 * RGB image (raster.h) as a kitty graphics APC, a sixel DCS, or an iTerm2
 * OSC 1337 inline file.  The encoders write escape bytes into a growing
 * buffer; nothing here touches the terminal.
 */
#ifndef PEVIZ_GFX_H
#define PEVIZ_GFX_H

#include <stddef.h>
#include <stdint.h>

enum gfx_mode { GFX_AUTO = 0, GFX_KITTY, GFX_SIXEL, GFX_ITERM2, GFX_CELLS,
                GFX_MODE_COUNT };

/* Mode by name ("auto", "kitty", "sixel", "iterm2", "cells"), or -1. */
int gfx_mode_parse(const char *name);
const char *gfx_mode_name(enum gfx_mode m);

struct image;

/* A growing byte buffer; failed is set (and stays) when memory ran out. */
struct gbuf {
    char *p;
    size_t len, cap;
    int failed;
};

void gbuf_put(struct gbuf *b, const void *s, size_t n);
void gbuf_puts(struct gbuf *b, const char *s);
void gbuf_printf(struct gbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void gbuf_free(struct gbuf *b);

/* Standard base64 (with '=' padding) of n bytes into b. */
void gfx_base64(struct gbuf *b, const uint8_t *p, size_t n);

/* Base64 chunks of a kitty transmission: at most this many bytes each. */
#define GFX_KITTY_CHUNK 4096

/*
 * im as kitty graphics APCs, placed at the cursor over cols x rows cells:
 * a=T, f=24 (RGB), o=z (zlib), the first chunk carrying every key, each
 * chunk at most GFX_KITTY_CHUNK base64 bytes with m=1 but the last (m=0);
 * i=id with placement p=1 (a later image of the same id replaces it),
 * q=2 (no replies), C=1 (the cursor stays), z=-1 (under the text, so
 * cells drawn over it show).  0, or -1 when memory or zlib failed.
 */
int gfx_kitty(struct gbuf *b, const struct image *im, unsigned id, int cols,
              int rows);

/* Delete kitty image id and its data (a=d, d=I). */
void gfx_kitty_delete(struct gbuf *b, unsigned id);

/*
 * im as kitty graphics APCs with a virtual placement (U=1) of cols x rows
 * cells, for Unicode placeholders: a=T, f=24, o=z, i=id, q=2, chunked
 * as gfx_kitty.  The image shows where cells of GFX_PLACEHOLDER with
 * foreground id and row / column diacritics are drawn.  0, or -1.
 */
int gfx_kitty_virtual(struct gbuf *b, const struct image *im, unsigned id,
                      int cols, int rows);

/* The placeholder character, and the number of row / column diacritics
 * (so the most rows or columns a placement can have). */
#define GFX_PLACEHOLDER 0x10EEEEu
#define GFX_DIACRITICS 297

/* The combining character that says row or column n (0 <= n <
 * GFX_DIACRITICS), or 0 out of range. */
uint32_t gfx_diacritic(int n);

/* n (0 ..) of diacritic cp, or -1 if it is none. */
int gfx_diacritic_index(uint32_t cp);

/* s (n bytes of escape sequences) through tmux to the terminal outside:
 * each ESC \ ended sequence in its own DCS tmux; ... ESC \ with its ESC
 * bytes doubled (tmux's allow-passthrough). */
void gfx_tmux_wrap(struct gbuf *b, const char *s, size_t n);

/*
 * im as a sixel DCS with the palette pal (n <= 256 colours; each pixel
 * takes the nearest): registers #k;2;r;g;b in percent, raster
 * attributes "1;1;W;H, six-pixel bands ended by '-', one pass per
 * colour in a band with '$', runs of 4 or more as !count.  0, or -1.
 */
int gfx_sixel(struct gbuf *b, const struct image *im, const uint32_t *pal,
              int n);

/* im as an iTerm2 inline image: OSC 1337 ; File=inline=1 with its size in
 * pixels and preserveAspectRatio=0, a base64 PNG, BEL.  0, or -1. */
int gfx_iterm2(struct gbuf *b, const struct image *im);

#endif
