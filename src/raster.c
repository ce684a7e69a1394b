/* SPDX-License-Identifier: ISC */
/*
 * raster.c - a canvas as pixels (raster.h).
 *
 * Text uses the 5 x 7 font of font.h, scaled to the cell.  Half blocks
 * and the other block elements, braille dots and box-drawing lines are
 * drawn as shapes, so they meet their neighbours as on a terminal.  The
 * cursor's disc and the markers' triangles are drawn too; any other
 * glyph is shown as a hollow box, a visible stand-in.
 */
#include "raster.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "font.h"

static rgb ink_fg = RASTER_FG, ink_bg = RASTER_BG;

void raster_ink(rgb fg, rgb bg)
{
    ink_fg = fg;
    ink_bg = bg;
}

rgb raster_fg(void)
{
    return ink_fg;
}

rgb raster_bg(void)
{
    return ink_bg;
}

int image_init(struct image *im, int w, int h)
{
    im->w = w > 0 ? w : 0;
    im->h = h > 0 ? h : 0;
    im->rgb = calloc((size_t)im->w * (size_t)im->h * 3 + 1, 1);
    if (!im->rgb) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}

void image_free(struct image *im)
{
    free(im->rgb);
    im->rgb = NULL;
    im->w = im->h = 0;
}

void image_set(struct image *im, int x, int y, rgb c)
{
    if (x < 0 || y < 0 || x >= im->w || y >= im->h)
        return;
    uint8_t *p = im->rgb + ((size_t)y * (size_t)im->w + (size_t)x) * 3;
    p[0] = (uint8_t)(c >> 16);
    p[1] = (uint8_t)(c >> 8);
    p[2] = (uint8_t)c;
}

rgb image_get(const struct image *im, int x, int y)
{
    if (x < 0 || y < 0 || x >= im->w || y >= im->h)
        return 0;
    const uint8_t *p = im->rgb + ((size_t)y * (size_t)im->w + (size_t)x) * 3;
    return RGB((rgb)p[0], (rgb)p[1], (rgb)p[2]);
}

/* ---- shapes inside one cell ------------------------------------------- */

/* The cell being drawn: its box in the image and its two colours. */
struct pen {
    struct image *im;
    int x, y, w, h;
    rgb fg, bg;
};

/* Fill [x0, x1) x [y0, y1) of the cell (cell coordinates, clipped). */
static void pen_rect(const struct pen *p, int x0, int y0, int x1, int y1,
                     rgb col)
{
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 > p->w ? p->w : x1;
    y1 = y1 > p->h ? p->h : y1;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            image_set(p->im, p->x + x, p->y + y, col);
}

static rgb mix(rgb a, rgb b, int pa)     /* pa percent of a */
{
    rgb r = 0;
    for (int s = 0; s < 24; s += 8) {
        int ca = (int)(a >> s & 0xFF), cb = (int)(b >> s & 0xFF);
        r |= (rgb)((ca * pa + cb * (100 - pa) + 50) / 100) << s;
    }
    return r;
}

/* Block elements U+2580..U+259F. */
static void draw_block(const struct pen *p, uint32_t cp)
{
    /* quadrants of U+2596..U+259F: 1 upper left, 2 upper right, 4 lower
     * left, 8 lower right */
    static const uint8_t QUAD[10] = { 4, 8, 1, 13, 9, 7, 11, 2, 6, 14 };
    int w = p->w, h = p->h;
    if (cp == 0x2580) {
        pen_rect(p, 0, 0, w, h / 2, p->fg);
    } else if (cp <= 0x2588) {                  /* lower eighths */
        int e = (int)(cp - 0x2580);
        pen_rect(p, 0, h - (h * e + 4) / 8, w, h, p->fg);
    } else if (cp <= 0x258F) {                  /* left eighths */
        int e = 8 - (int)(cp - 0x2588);
        pen_rect(p, 0, 0, (w * e + 4) / 8, h, p->fg);
    } else if (cp == 0x2590) {
        pen_rect(p, w / 2, 0, w, h, p->fg);
    } else if (cp <= 0x2593) {                  /* shades */
        pen_rect(p, 0, 0, w, h, mix(p->fg, p->bg, 25 * (int)(cp - 0x2590)));
    } else if (cp == 0x2594) {
        pen_rect(p, 0, 0, w, (h + 4) / 8, p->fg);
    } else if (cp == 0x2595) {
        pen_rect(p, w - (w + 4) / 8, 0, w, h, p->fg);
    } else {
        int q = QUAD[cp - 0x2596];
        pen_rect(p, 0, 0, w / 2, h / 2, q & 1 ? p->fg : p->bg);
        pen_rect(p, w / 2, 0, w, h / 2, q & 2 ? p->fg : p->bg);
        pen_rect(p, 0, h / 2, w / 2, h, q & 4 ? p->fg : p->bg);
        pen_rect(p, w / 2, h / 2, w, h, q & 8 ? p->fg : p->bg);
    }
}

/* Braille U+2800..U+28FF: eight dots in two columns of four. */
static void draw_braille(const struct pen *p, uint32_t cp)
{
    static const int COL[8] = { 0, 0, 0, 1, 1, 1, 0, 1 };
    static const int ROW[8] = { 0, 1, 2, 0, 1, 2, 3, 3 };
    int bits = (int)(cp - 0x2800);
    int sw = p->w / 2, sh = p->h / 4;
    int dw = sw > 2 ? sw / 2 : 1, dh = sh > 2 ? sh / 2 : 1;
    for (int i = 0; i < 8; i++) {
        if (!(bits >> i & 1))
            continue;
        int x = COL[i] * sw + (sw - dw) / 2, y = ROW[i] * sh + (sh - dh) / 2;
        pen_rect(p, x, y, x + dw, y + dh, p->fg);
    }
}

/* Arms of U+2500..U+257F: up, right, down, left; 0 none, 1 light,
 * 2 heavy, 3 double (U+2571..U+2573, the diagonals, have none). */
static const char BOX_ARMS[] =
    "01010202101020200101020210102020"
    "01010202101020200110021001200220"
    "00110012002100221100120021002200"
    "10011002200120021110121021101120"
    "21202210122022201011101220111021"
    "20212012102220220111011202110212"
    "01210122022102221101110212011202"
    "21012102220122021111111212111212"
    "21111121212121122211112212212212"
    "12222122222122220101020210102020"
    "03033030031001300330001300310033"
    "13003100330010033001300313103130"
    "33301013303130330313013103331303"
    "31013303131331313333011000111001"
    "11000000000000000001100001000010"
    "00022000020000200201102001022010";

/* One arm from the centre to the edge: dir 0 up, 1 right, 2 down, 3 left. */
static void box_arm(const struct pen *p, int dir, int weight)
{
    int cx = p->w / 2, cy = p->h / 2;
    int t = weight == 2 ? (p->w >= 8 ? p->w / 4 : 2) : (p->w >= 16 ? p->w / 8 : 1);
    int gap = p->w >= 10 ? p->w / 5 : 1;
    int offs[2] = { 0, 0 }, n = 1;
    if (weight == 3) {
        offs[0] = -gap;
        offs[1] = gap;
        n = 2;
    }
    for (int i = 0; i < n; i++) {
        int ox = cx + offs[i] - t / 2, oy = cy + offs[i] - t / 2;
        if (dir == 0)
            pen_rect(p, ox, 0, ox + t, oy + t, p->fg);
        else if (dir == 2)
            pen_rect(p, ox, oy, ox + t, p->h, p->fg);
        else if (dir == 3)
            pen_rect(p, 0, oy, ox + t, oy + t, p->fg);
        else
            pen_rect(p, ox, oy, p->w, oy + t, p->fg);
    }
}

static void draw_box(const struct pen *p, uint32_t cp)
{
    int i = (int)(cp - 0x2500);
    if (cp >= 0x2571 && cp <= 0x2573) {
        for (int y = 0; y < p->h; y++) {
            int x = (y * p->w + p->w / 2) / p->h;
            if (cp != 0x2571)
                pen_rect(p, x, y, x + 1, y + 1, p->fg);
            if (cp != 0x2572)
                pen_rect(p, p->w - 1 - x, y, p->w - x, y + 1, p->fg);
        }
        return;
    }
    for (int d = 0; d < 4; d++)
        if (BOX_ARMS[4 * i + d] != '0')
            box_arm(p, d, BOX_ARMS[4 * i + d] - '0');
}

/* The cursor's disc and the markers' triangles. */
static void draw_disc(const struct pen *p)
{
    double r = (p->w < p->h ? p->w : p->h) / 2.0 - 0.5;
    double cx = p->w / 2.0, cy = p->h / 2.0;
    for (int y = 0; y < p->h; y++)
        for (int x = 0; x < p->w; x++) {
            double dx = x + 0.5 - cx, dy = y + 0.5 - cy;
            if (dx * dx + dy * dy <= r * r)
                pen_rect(p, x, y, x + 1, y + 1, p->fg);
        }
}

/* A triangle in the centred square: dir 0 up, 1 right, 2 down, 3 left. */
static void draw_triangle(const struct pen *p, int dir)
{
    int s = (p->w < p->h ? p->w : p->h) - 1, x0 = (p->w - s) / 2,
        y0 = (p->h - s) / 2;
    for (int a = 0; a < s; a++) {           /* a: along the pointing axis */
        int half = (s - a) / 2;             /* narrows towards the tip */
        for (int b = s / 2 - half; b <= s / 2 + half && b < s; b++) {
            int x = dir == 1 ? a : dir == 3 ? s - 1 - a : b;
            int y = dir == 2 ? a : dir == 0 ? s - 1 - a : b;
            pen_rect(p, x0 + x, y0 + y, x0 + x + 1, y0 + y + 1, p->fg);
        }
    }
}

/* A glyph of the font, scaled to the cell and centred. */
static int draw_text(const struct pen *p, uint32_t cp, int bold)
{
    uint8_t rows[FONT_H];
    if (!font_glyph(cp, rows))
        return 0;
    int sx = p->w >= 6 ? (p->w - 1) / FONT_W : 1;
    int sy = p->h >= 9 ? (p->h - 2) / FONT_H : 1;
    int x0 = (p->w - FONT_W * sx) / 2, y0 = (p->h - FONT_H * sy) / 2;
    for (int r = 0; r < FONT_H; r++)
        for (int c = 0; c < FONT_W; c++) {
            if (!(rows[r] >> (FONT_W - 1 - c) & 1))
                continue;
            int x = x0 + c * sx, y = y0 + r * sy;
            pen_rect(p, x, y, x + sx + (bold ? 1 : 0), y + sy, p->fg);
        }
    return 1;
}

/* Any other glyph: a hollow box. */
static void draw_standin(const struct pen *p)
{
    int x0 = 1, y0 = p->h / 4, x1 = p->w - 1, y1 = p->h - p->h / 8;
    pen_rect(p, x0, y0, x1, y0 + 1, p->fg);
    pen_rect(p, x0, y1 - 1, x1, y1, p->fg);
    pen_rect(p, x0, y0, x0 + 1, y1, p->fg);
    pen_rect(p, x1 - 1, y0, x1, y1, p->fg);
}

static void draw_glyph(const struct pen *p, uint32_t cp, int bold)
{
    if (cp == ' ' || cp == 0x00A0 || cp == 0x2800)
        return;
    if (cp < 0x80)
        (void)draw_text(p, cp, bold);
    else if (cp >= 0x2580 && cp <= 0x259F)
        draw_block(p, cp);
    else if (cp >= 0x2800 && cp <= 0x28FF)
        draw_braille(p, cp);
    else if (cp >= 0x2500 && cp <= 0x257F)
        draw_box(p, cp);
    else if (cp == 0x25CF || cp == 0x2022)
        draw_disc(p);
    else if (cp == 0x25B2 || cp == 0x25B6 || cp == 0x25BC || cp == 0x25C0 ||
             cp == 0x25B8)
        draw_triangle(p, cp == 0x25B2 ? 0 : cp == 0x25BC ? 2
                         : cp == 0x25C0 ? 3 : 1);
    else if (!draw_text(p, cp, bold))
        draw_standin(p);
}

void raster_cell(struct image *im, int px, int py, int cw, int ch,
                 const cell *r)
{
    struct pen p = { im, px, py, cw, ch, r->fg, r->bg };
    if (p.fg & RGB_DEFAULT)
        p.fg = RASTER_FG;
    if (p.bg & RGB_DEFAULT)
        p.bg = RASTER_BG;
    if (r->attr & ATTR_REVERSE) {
        rgb t = p.fg;
        p.fg = p.bg;
        p.bg = t;
    }
    if (r->attr & ATTR_DIM)
        p.fg = mix(p.fg, p.bg, 60);
    pen_rect(&p, 0, 0, cw, ch, p.bg);
    if (r->kind == CELL_WIDE_TAIL)
        return;
    draw_glyph(&p, r->ch, r->attr & ATTR_BOLD);
    if (r->attr & ATTR_UNDERLINE)
        pen_rect(&p, 0, ch - 1 - ch / 16, cw, ch - ch / 16, p.fg);
}

int raster_covers(const cell *k)
{
    return k && k->kind == CELL_HALF && !(k->attr & ATTR_OVER);
}

int raster_covers_in(const struct view_raster *r, const cell *k)
{
    if (!r->art || !k || (k->attr & ATTR_OVER))
        return raster_covers(k);
    if (k->kind == CELL_HALF || k->kind == CELL_BRAILLE)
        return 1;
    if (k->kind != CELL_TEXT || (k->attr & ATTR_REVERSE))
        return 0;
    return (k->ch == ' ' && k->bg == RGB_DEFAULT) || k->ch == RASTER_ART_TIP ||
           (k->ch >= 0x2580 && k->ch <= 0x259F);
}

int raster_canvas(const canvas *c, int ascii, enum color_mode mode, int cw,
                  int ch, struct image *out)
{
    if (image_init(out, c->w * cw, c->h * ch) < 0)
        return -1;
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            cell r = canvas_resolve(canvas_at(c, x, y), ascii, mode);
            raster_cell(out, x * cw, y * ch, cw, ch, &r);
        }
    return 0;
}

void raster_overlay(struct image *im, const canvas *c, int ox, int oy,
                    const struct view_raster *r)
{
    int W = r->w * r->cw;
    for (int cy = 0; cy < r->h; cy++)
        for (int cx = 0; cx < r->w; cx++) {
            if (!raster_covers_in(r, canvas_at(c, ox + r->x + cx,
                                               oy + r->y + cy)))
                continue;
            for (int y = cy * r->ch; y < (cy + 1) * r->ch; y++)
                for (int x = cx * r->cw; x < (cx + 1) * r->cw; x++) {
                    rgb v = r->px[(size_t)y * (size_t)W + (size_t)x];
                    if (!(v & RGB_DEFAULT))
                        image_set(im, (ox + r->x) * r->cw + x,
                                  (oy + r->y) * r->ch + y, v);
                }
        }
}

int raster_image(const struct view_raster *r, rgb dflt, struct image *out)
{
    int W = r->w * r->cw, H = r->h * r->ch;
    if (image_init(out, W, H) < 0)
        return -1;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            rgb v = r->px[(size_t)y * (size_t)W + (size_t)x];
            image_set(out, x, y, v & RGB_DEFAULT ? dflt : v);
        }
    return 0;
}

int raster_scale(const struct image *in, int w, int h, struct image *out)
{
    if (image_init(out, w, h) < 0)
        return -1;
    if (in->w < 1 || in->h < 1)
        return 0;
    for (int y = 0; y < out->h; y++) {
        int sy = (int)((2LL * y + 1) * in->h / (2LL * out->h));
        for (int x = 0; x < out->w; x++) {
            int sx = (int)((2LL * x + 1) * in->w / (2LL * out->w));
            memcpy(out->rgb + ((size_t)y * (size_t)out->w + (size_t)x) * 3,
                   in->rgb + ((size_t)sy * (size_t)in->w + (size_t)sx) * 3, 3);
        }
    }
    return 0;
}
