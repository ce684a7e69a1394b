/* SPDX-License-Identifier: ISC */
/*
 * gfx_probe.h - which images the terminal shows, asked, never assumed:
 * a kitty graphics query, XTVERSION, the text area and the cell size in
 * pixels (CSI 14 t, CSI 16 t), the default colours (OSC 10, OSC 11) and
 * DA1 last, which every terminal answers.  A graphics reply before
 * the DA1 answer means kitty graphics; DA1 attribute 4 means sixel; an
 * XTVERSION naming iTerm2 (or TERM_PROGRAM / LC_TERMINAL) means iTerm2
 * inline images.  The parser is pure; the terminal backend (tty.h) asks
 * and reads.
 */
#ifndef PEVIZ_GFX_PROBE_H
#define PEVIZ_GFX_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "gfx.h"

/* What is sent: kitty query (id 31, a 1x1 RGB image, query only),
 * XTVERSION, the text area and the cell size in pixels, the default
 * foreground and background colours (OSC 10, OSC 11), DA1. */
#define GFX_PROBE_COLOURS "\033]10;?\033\\\033]11;?\033\\"
#define GFX_PROBE_QUERY "\033_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\033\\" \
                        "\033[>q\033[14t\033[16t" GFX_PROBE_COLOURS "\033[c"

/* Inside tmux: the kitty query through tmux's passthrough (its ESC
 * doubled), so that the terminal outside answers it (tmux drops it
 * unless allow-passthrough is on); the rest goes to tmux itself. */
#define GFX_PROBE_QUERY_TMUX "\033Ptmux;\033\033_Gi=31,s=1,v=1,a=q,t=d," \
                             "f=24;AAAA\033\033\\\033\\\033[14t\033[16t" \
                             GFX_PROBE_COLOURS "\033[c"

/* The wait for the answers at start-up: GFX_PROBE_MS, or twice the first
 * round trip (DA1 asked alone, just before) and 50 ms where that is
 * longer, up to GFX_PROBE_MAX_MS.  Answers after it still count. */
#define GFX_PROBE_MS 200
#define GFX_PROBE_MAX_MS 1500

struct gfx_probe {
    int answered;           /* the DA1 answer came */
    int kitty;              /* a graphics reply came before it */
    int sixel;              /* DA1 listed attribute 4 */
    int cell_w, cell_h;     /* pixels a cell (CSI 16 t), 0 unknown */
    int area_w, area_h;     /* pixels of the text area (CSI 14 t), 0 unknown */
    int cols, rows;         /* the cells of that area when it was asked */
    int has_fg, has_bg;     /* the terminal said its default colours ... */
    uint32_t fg, bg;        /* ... as 0xRRGGBB (OSC 10, OSC 11) */
    char version[64];       /* XTVERSION's text, "" if none */
    int ms;                 /* when its last answer came, or start-up
                               stopped waiting for one: ms after the
                               terminal was first asked anything */
    int wait_ms;            /* how long start-up waited for it at most */
    int tmux;               /* asked through tmux: tmux answers DA1 at once
                               and the graphics reply comes after it, so
                               it is taken until the time is up */
};

/*
 * One report at s (n bytes): its length once parsed into p, 0 when s
 * starts no report of the probe's (a key), -1 when it may but is not
 * complete yet.
 */
int gfx_probe_report(struct gfx_probe *p, const char *s, size_t n);

/* Take the complete reports out of buf[0..n): returns the bytes left
 * (keys typed meanwhile, in order); *partial is how many of them at the
 * end may begin a report still arriving. */
size_t gfx_probe_feed(struct gfx_probe *p, char *buf, size_t n,
                      size_t *partial);

/* The probe is over: DA1 came (inside tmux, the graphics reply). */
int gfx_probe_done(const struct gfx_probe *p);

/*
 * Pixels a cell, along each axis a fraction num / den, so that n cells
 * are floor(n * num / den) pixels: the text area over its cells
 * (CSI 14 t; exact, where CSI 16 t rounds 8.425 to 8), else the cell size
 * (CSI 16 t), else the window's pixels over its cells (ws_*: TIOCGWINSZ).
 * num is 0 along an axis nothing says.
 */
struct gfx_cell {
    int w_num, w_den;
    int h_num, h_den;
};

void gfx_probe_cell(const struct gfx_probe *p, int ws_cols, int ws_rows,
                    int ws_xpixel, int ws_ypixel, struct gfx_cell *c);

/* Pixels of n cells at num / den pixels a cell: floor(n * num / den),
 * short of the cells by less than a pixel and never over into the next
 * (a terminal gives an image every cell it reaches into, and 181 pixels
 * at 9.025 a cell reach a 21st); 0 when num or den is 0. */
int gfx_cell_span(int n, int num, int den);

/*
 * The mode to use: want unless it is GFX_AUTO; else from p and the
 * environment (term_program: $TERM_PROGRAM, lc_terminal: $LC_TERMINAL,
 * in_tmux: $TMUX set; there only kitty, through Unicode placeholders,
 * or cells).  why gets a short reason ("kitty graphics reply", "no
 * answer in 200 ms": p->wait_ms, GFX_PROBE_MS when 0).
 */
enum gfx_mode gfx_choose(enum gfx_mode want, const struct gfx_probe *p,
                         const char *term_program, const char *lc_terminal,
                         int in_tmux, char *why, size_t len);

#endif
