/* SPDX-License-Identifier: ISC */
/*
 * gfx_probe.c - asking the terminal which images it shows (gfx_probe.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "gfx_probe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* End of a string report from i on: the index after ESC \ (or BEL), or
 * -1 if it has not come yet, 0 if an escape other than ST ends it. */
static int string_end(const char *s, size_t n, size_t i)
{
    for (; i < n; i++) {
        if (s[i] == '\a')
            return (int)i + 1;
        if (s[i] == '\033' && i + 1 < n)
            return s[i + 1] == '\\' ? (int)i + 2 : 0;
        if (s[i] == '\033')
            return -1;
    }
    return -1;
}

/* A window report ESC [ k ; h ; w t into p: the text area (k 4) or the
 * cell (k 6) in pixels; sizes out of reason are left unknown. */
static void window_report(struct gfx_probe *p, const char *s)
{
    int k = 0, h = 0, w = 0;
    if (sscanf(s + 2, "%d;%d;%dt", &k, &h, &w) != 3 || h <= 0 || w <= 0)
        return;
    if (k == 6 && h < 1000 && w < 1000) {
        p->cell_h = h;
        p->cell_w = w;
    } else if (k == 4 && h < 100000 && w < 100000) {
        p->area_h = h;
        p->area_w = w;
    }
}

/* A DA1 reply ESC [ ? level ; attributes c into p. */
static void da1_report(struct gfx_probe *p, const char *s, size_t end)
{
    const char *q = s + 3;
    int first = 1;
    p->answered = 1;
    while (q < s + end) {
        long v = strtol(q, (char **)&q, 10);
        if (!first && v == 4)
            p->sixel = 1;
        first = 0;
        if (*q == ';')
            q++;
        else
            break;
    }
}

/* A CSI report: DA1 (ESC [ ? ... c) or a size in pixels (ESC [ 4 ; h ; w t,
 * ESC [ 6 ; h ; w t). */
static int csi_report(struct gfx_probe *p, const char *s, size_t n)
{
    size_t i = 2;
    if (n < 3)
        return -1;
    if (s[2] == '?')
        i = 3;
    else if (s[2] != '6' && s[2] != '4')
        return 0;
    for (; i < n; i++) {
        char ch = s[i];
        if ((ch >= '0' && ch <= '9') || ch == ';')
            continue;
        if (ch == 'c' && s[2] == '?') {
            da1_report(p, s, i);
            return (int)i + 1;
        }
        if (ch == 't' && s[2] != '?') {
            window_report(p, s);
            return (int)i + 1;
        }
        return 0;
    }
    return -1;
}

/* One channel of an X colour spec: 1 to 4 hex digits scaled to 0..255;
 * -1 if s holds none.  *end: after it. */
static int hex_channel(const char *s, const char **end)
{
    int v = 0, k = 0;
    for (; k < 4; k++) {
        char c = s[k];
        int d = c >= '0' && c <= '9' ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            break;
        v = v * 16 + d;
    }
    *end = s + k;
    if (k == 0)
        return -1;
    int top = (1 << (4 * k)) - 1;
    return (v * 255 + top / 2) / top;
}

/* OSC 10 or 11 ; rgb:R/G/B (ST or BEL) from s (a whole report, e its
 * length): the colour into p. */
static void colour_report(struct gfx_probe *p, const char *s, int e)
{
    const char *q = s + 5;
    int c[3];
    if (e < 10 || strncmp(q, "rgb:", 4) != 0)
        return;
    q += 4;
    for (int k = 0; k < 3; k++) {
        if ((c[k] = hex_channel(q, &q)) < 0 || (k < 2 && *q++ != '/'))
            return;
    }
    if (*q != '\033' && *q != '\a')
        return;
    uint32_t v = (uint32_t)c[0] << 16 | (uint32_t)c[1] << 8 | (uint32_t)c[2];
    if (s[3] == '0') {
        p->fg = v;
        p->has_fg = 1;
    } else {
        p->bg = v;
        p->has_bg = 1;
    }
}

int gfx_probe_report(struct gfx_probe *p, const char *s, size_t n)
{
    if (n < 1 || s[0] != '\033')
        return 0;
    if (n < 2)
        return -1;
    if (s[1] == '[')
        return csi_report(p, s, n);
    if (s[1] == ']') {              /* ESC ] 1 0|1 ; colour ST */
        if (n < 5)
            return -1;
        if (s[2] != '1' || (s[3] != '0' && s[3] != '1') || s[4] != ';')
            return 0;
        int e = string_end(s, n, 5);
        if (e > 0)
            colour_report(p, s, e);
        return e;
    }
    if (s[1] == '_' || s[1] == 'P') {
        if (n < 3)
            return -1;
        if ((s[1] == '_' && s[2] != 'G') || (s[1] == 'P' && s[2] != '>'))
            return 0;
        int e = string_end(s, n, 2);
        if (e <= 0)
            return e;
        if (s[1] == '_' && (!p->answered || p->tmux))
            p->kitty = 1;
        if (s[1] == 'P') {          /* ESC P > | text ESC \ */
            size_t t = n > 3 && s[3] == '|' ? 4 : 3, len = (size_t)e - 2 - t;
            if (len >= sizeof p->version)
                len = sizeof p->version - 1;
            memcpy(p->version, s + t, len);
            p->version[len] = 0;
        }
        return e;
    }
    return 0;
}

size_t gfx_probe_feed(struct gfx_probe *p, char *buf, size_t n,
                      size_t *partial)
{
    size_t i = 0;
    *partial = 0;
    while (i < n) {
        int l = gfx_probe_report(p, buf + i, n - i);
        if (l < 0) {
            *partial = n - i;
            break;
        }
        if (l == 0) {
            i++;
            continue;
        }
        memmove(buf + i, buf + i + l, n - i - (size_t)l);
        n -= (size_t)l;
    }
    return n;
}

int gfx_probe_done(const struct gfx_probe *p)
{
    return p->tmux ? p->kitty : p->answered;
}

/* One axis: the area over its cells, else the cell, else the window. */
static void cell_axis(int area, int cells, int cell, int ws_px, int ws_cells,
                      int *num, int *den)
{
    *num = *den = 0;
    if (area > 0 && cells > 0) {
        *num = area;
        *den = cells;
    } else if (cell > 0) {
        *num = cell;
        *den = 1;
    } else if (ws_px > 0 && ws_cells > 0) {
        *num = ws_px;
        *den = ws_cells;
    }
}

void gfx_probe_cell(const struct gfx_probe *p, int ws_cols, int ws_rows,
                    int ws_xpixel, int ws_ypixel, struct gfx_cell *c)
{
    int both = p->area_w > 0 && p->area_h > 0 && p->cols > 0 && p->rows > 0;
    cell_axis(both ? p->area_w : 0, p->cols, p->cell_w, ws_xpixel, ws_cols,
              &c->w_num, &c->w_den);
    cell_axis(both ? p->area_h : 0, p->rows, p->cell_h, ws_ypixel, ws_rows,
              &c->h_num, &c->h_den);
}

int gfx_cell_span(int n, int num, int den)
{
    if (num <= 0 || den <= 0)
        return 0;
    return (int)((long long)n * num / den);
}

static int has(const char *s, const char *word)
{
    return s && strstr(s, word) != NULL;
}

enum gfx_mode gfx_choose(enum gfx_mode want, const struct gfx_probe *p,
                         const char *term_program, const char *lc_terminal,
                         int in_tmux, char *why, size_t len)
{
    if (want != GFX_AUTO) {
        snprintf(why, len, "--graphics %s", gfx_mode_name(want));
        return want;
    }
    if (in_tmux) {
        snprintf(why, len, p->kitty ? "kitty graphics reply through tmux"
                 : "inside tmux, no kitty graphics reply through it");
        return p->kitty ? GFX_KITTY : GFX_CELLS;
    }
    if (p->kitty) {
        snprintf(why, len, "kitty graphics reply");
        return GFX_KITTY;
    }
    if (has(p->version, "iTerm2") || has(term_program, "iTerm.app") ||
        has(lc_terminal, "iTerm2")) {
        snprintf(why, len, "%s", p->version[0] ? "XTVERSION" : "environment");
        return GFX_ITERM2;
    }
    if (p->sixel) {
        snprintf(why, len, "DA1 attribute 4");
        return GFX_SIXEL;
    }
    snprintf(why, len, p->answered ? "no graphics in the answers"
                                   : "no answer in %d ms",
             p->wait_ms > 0 ? p->wait_ms : GFX_PROBE_MS);
    return GFX_CELLS;
}
