/* SPDX-License-Identifier: ISC */
/*
 * canvas.c - the off-screen cell grid, its drawing primitives and the
 * ASCII / no-colour fallbacks applied at output.
 *
 * Invariants kept by every primitive:
 *  - a double-width glyph is a head cell followed by a CELL_WIDE_TAIL
 *    cell; overwriting either half blanks the other, so output never
 *    shows half a glyph or shifts the rest of the row;
 *  - no cell ever holds a control character (C0, DEL, C1), a surrogate
 *    or a zero-width code point: those could move the terminal's cursor
 *    or smuggle escape sequences; they are stored as U+FFFD.
 */
#include "canvas.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CP_UPPER_HALF 0x2580u
#define CP_LOWER_HALF 0x2584u
#define CP_BRAILLE 0x2800u
#include "peviz/pi.h"

/* Big enough for any real terminal; keeps w * h far from overflow. */
#define CANVAS_MAX_SIDE 16384

const char CANVAS_RAMP[11] = " .:-=+*#%@";

/* ---- the grid ----------------------------------------------------------- */

static cell cell_blank(void)
{
    cell b = { ' ', RGB_DEFAULT, RGB_DEFAULT, 0, CELL_TEXT,
               LEVEL_NONE, LEVEL_NONE };
    return b;
}

int canvas_init(canvas *c, int w, int h)
{
    size_t n;

    memset(c, 0, sizeof *c);
    if (w < 0 || h < 0 || w > CANVAS_MAX_SIDE || h > CANVAS_MAX_SIDE) {
        errno = EINVAL;
        return -1;
    }
    n = (size_t)w * (size_t)h;
    c->cells = malloc((n ? n : 1) * sizeof *c->cells);
    if (!c->cells) {
        errno = ENOMEM;
        return -1;
    }
    c->stride = w;
    c->w = w;
    c->h = h;
    c->owner = 1;
    for (size_t i = 0; i < n; i++)
        c->cells[i] = cell_blank();
    return 0;
}

void canvas_free(canvas *c)
{
    if (c->owner)
        free(c->cells);
    memset(c, 0, sizeof *c);
}

/* Clamp [*pos, *pos + *len) to [0, limit); done in long long so that
 * extreme arguments cannot overflow. */
static void span_clip(int *pos, int *len, int limit)
{
    long long a = *pos, b = (long long)*pos + *len;

    if (a < 0)
        a = 0;
    if (b > limit)
        b = limit;
    if (a > limit)
        a = limit;
    if (b < a)
        b = a;
    *pos = (int)a;
    *len = (int)(b - a);
}

canvas canvas_sub(const canvas *c, int x, int y, int w, int h)
{
    canvas s = *c;

    span_clip(&x, &w, c->w);
    span_clip(&y, &h, c->h);
    s.x0 = c->x0 + x;
    s.y0 = c->y0 + y;
    s.w = w;
    s.h = h;
    s.owner = 0;
    return s;
}

cell *canvas_at(const canvas *c, int x, int y)
{
    if (!c || !c->cells || x < 0 || y < 0 || x >= c->w || y >= c->h)
        return NULL;
    return &c->cells[(size_t)(c->y0 + y) * (size_t)c->stride +
                     (size_t)(c->x0 + x)];
}

static int cell_is_wide_head(const cell *k)
{
    return k->kind != CELL_WIDE_TAIL && cp_width(k->ch) == 2;
}

/*
 * About to overwrite cell k: if it is half of a double-width glyph,
 * blank the other half.  Neighbours are looked up in the root buffer,
 * since a glyph may straddle the edge of a sub-canvas.
 */
static void cell_unwide(const canvas *c, cell *k)
{
    size_t idx = (size_t)(k - c->cells);
    int rx = (int)(idx % (size_t)c->stride);

    if (k->kind == CELL_WIDE_TAIL && rx > 0) {
        k[-1].ch = ' ';
        k[-1].kind = CELL_TEXT;
    } else if (cell_is_wide_head(k) && rx + 1 < c->stride &&
               k[1].kind == CELL_WIDE_TAIL) {
        k[1].ch = ' ';
        k[1].kind = CELL_TEXT;
    }
}

/* Write one cell of a given kind (no wide handling of ch itself). */
static cell *cell_write(canvas *c, int x, int y, uint32_t ch, rgb fg, rgb bg,
                        int attr, int kind)
{
    cell *k = canvas_at(c, x, y);

    if (!k)
        return NULL;
    cell_unwide(c, k);
    k->ch = ch;
    k->fg = fg;
    k->bg = bg;
    k->attr = (uint8_t)attr;
    k->kind = (uint8_t)kind;
    k->level_top = LEVEL_NONE;
    k->level_bot = LEVEL_NONE;
    return k;
}

/*
 * Place a sanitized glyph at (x, y), limited to columns < right.
 * Returns the cells advanced.  A wide glyph with only one column left
 * becomes a space, so that it is never cut in half.
 */
static int glyph_put(canvas *c, int x, int y, int right, uint32_t ch,
                     rgb fg, rgb bg, int attr)
{
    if (cp_width(ch) == 2) {
        if (x + 1 >= right || x + 1 < 0 || x < 0) {
            /* cut by an edge: the visible half becomes a space */
            if (x < right)
                cell_write(c, x, y, ' ', fg, bg, attr, CELL_TEXT);
            if (x + 1 < right)
                cell_write(c, x + 1, y, ' ', fg, bg, attr, CELL_TEXT);
            return x + 1 < right ? 2 : 1;
        }
        /* blank both halves' old partners before pairing them */
        cell_write(c, x + 1, y, ' ', fg, bg, attr, CELL_TEXT);
        cell_write(c, x, y, ch, fg, bg, attr, CELL_TEXT);
        cell_write(c, x + 1, y, ' ', fg, bg, attr, CELL_WIDE_TAIL);
        return 2;
    }
    cell_write(c, x, y, ch, fg, bg, attr, CELL_TEXT);
    return 1;
}

void canvas_clear(canvas *c)
{
    canvas_fill(c, 0, 0, c->w, c->h, ' ', RGB_DEFAULT, RGB_DEFAULT);
}

void canvas_put(canvas *c, int x, int y, uint32_t ch, rgb fg, rgb bg,
                int attr)
{
    glyph_put(c, x, y, c->w, cp_sanitize(ch), fg, bg, attr);
}

void canvas_fill(canvas *c, int x, int y, int w, int h, uint32_t ch,
                 rgb fg, rgb bg)
{
    int i, j;

    ch = cp_sanitize(ch);
    span_clip(&x, &w, c->w);
    span_clip(&y, &h, c->h);
    for (j = y; j < y + h; j++)
        for (i = x; i < x + w;)
            i += glyph_put(c, i, j, x + w, ch, fg, bg, 0);
}

int canvas_text(canvas *c, int x, int y, int maxw, const char *s,
                rgb fg, rgb bg, int attr)
{
    long long right = maxw < 0 ? c->w : (long long)x + maxw;
    int cx = x;

    if (!s)
        return 0;
    if (right > c->w)
        right = c->w;
    while (*s && cx < right) {
        uint32_t cp = utf8_next(&s);
        int cw = cp_width(cp);

        if (cw == 0)
            continue;
        cp = cp_sanitize(cp);
        if (cw == 2 && cx + 1 >= right) {
            /* no room for both halves: a space, and stop */
            cell_write(c, cx, y, ' ', fg, bg, attr, CELL_TEXT);
            cx++;
            break;
        }
        if (cx >= 0 || (cw == 2 && cx == -1))
            glyph_put(c, cx, y, (int)right, cp, fg, bg, attr);
        cx += cw;
    }
    return cx - x;
}

int canvas_printf(canvas *c, int x, int y, int maxw, rgb fg, rgb bg,
                  int attr, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        return 0;
    if ((size_t)n >= sizeof buf) {
        /* drop a UTF-8 sequence cut by the truncation */
        size_t len = sizeof buf - 1, k = len;
        while (k > 0 && ((unsigned char)buf[k - 1] & 0xC0) == 0x80)
            k--;
        if (k > 0 && ((unsigned char)buf[k - 1] & 0xC0) == 0xC0)
            buf[k - 1] = '\0';
    }
    return canvas_text(c, x, y, maxw, buf, fg, bg, attr);
}

/* ---- pixels: half-blocks and braille ---------------------------------- */

/* ---- text that fits -------------------------------------------------- */

int canvas_text_fit(canvas *c, int x, int y, int w, const char *const *cand,
                    int n, rgb fg, int attr)
{
    int i = text_first_fit(cand, n, w);
    if (i >= 0) {
        canvas_text(c, x, y, w, cand[i], fg, RGB_DEFAULT, attr);
        return i;
    }
    /* none fits: the last one's whole words, never half a word or number,
     * nor an "=" or ":" whose value was cut off */
    char line[512];
    text_wrap_line(cand[n - 1], w, line, sizeof line);
    size_t len = strlen(line);
    if (cand[n - 1][len] != 0 && cand[n - 1][len] != ' ')
        return n - 1;               /* its first word was cut */
    while (len && strchr(" =:", line[len - 1]))
        line[--len] = 0;
    canvas_text(c, x, y, w, line, fg, RGB_DEFAULT, attr);
    return n - 1;
}

void canvas_half(canvas *c, int x, int py, rgb col, int level)
{
    cell *k;
    uint8_t lv = (level >= 0 && level <= 9) ? (uint8_t)level : LEVEL_NONE;

    if (py < 0)
        return;
    k = canvas_at(c, x, py / 2);
    if (!k)
        return;
    if (k->kind != CELL_HALF) {
        /* the half not drawn keeps what showed there: the old background */
        rgb old = k->bg;
        cell_write(c, x, py / 2, CP_UPPER_HALF, old, old, 0, CELL_HALF);
    }
    if (py % 2 == 0) {
        k->fg = col;
        k->level_top = lv;
    } else {
        k->bg = col;
        k->level_bot = lv;
    }
}

/* The cell that holds sub-cell (x, y) of a cell cut sw x sh; NULL
 * outside the canvas. */
static cell *sub_cell(canvas *c, int x, int y, int sw, int sh)
{
    return x < 0 || y < 0 ? NULL : canvas_at(c, x / sw, y / sh);
}

void canvas_dot(canvas *c, int px, int py, rgb col)
{
    /* bit of dot (dx, dy) in the Unicode braille pattern */
    static const uint8_t BIT[4][2] = {
        {0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}
    };
    cell *k = sub_cell(c, px, py, 2, 4);

    if (!k)
        return;
    if (k->kind != CELL_BRAILLE)
        cell_write(c, px / 2, py / 4, CP_BRAILLE, col, k->bg, 0,
                   CELL_BRAILLE);
    k->ch |= BIT[py % 4][px % 2];
    k->fg = col;
}

/* Quadrant glyphs by their bits: 1 upper left, 2 upper right, 4 lower
 * left, 8 lower right (U+2580..U+259F, in every UTF-8 terminal font). */
static const uint32_t QUAD_CP[16] = {
    ' ', 0x2598, 0x259D, 0x2580, 0x2596, 0x258C, 0x259E, 0x259B,
    0x2597, 0x259A, 0x2590, 0x259C, 0x2584, 0x2599, 0x259F, 0x2588
};

/* The quadrant bits a cell already shows (0 for anything else). */
static int quad_bits(const cell *k)
{
    if (k->kind != CELL_TEXT)
        return 0;
    for (int b = 1; b < 16; b++)
        if (QUAD_CP[b] == k->ch)
            return b;
    return 0;
}

void canvas_quad(canvas *c, int qx, int qy, rgb col)
{
    cell *k = sub_cell(c, qx, qy, 2, 2);

    if (!k)
        return;
    int bits = quad_bits(k) | 1 << ((qy % 2) * 2 + qx % 2);
    cell_write(c, qx / 2, qy / 2, QUAD_CP[bits], col, k->bg, 0, CELL_TEXT);
}

void canvas_cursor(canvas *c, int x, int y)
{
    cell *k = canvas_at(c, x, y);

    if (k)
        k->attr |= ATTR_CURSOR;
}

void canvas_unbraille(canvas *c)
{
    /* the two braille dots in each quarter: columns 0/1, rows 0-1/2-3 */
    static const uint8_t QUARTER[4] = { 0x01 | 0x02, 0x08 | 0x10,
                                        0x04 | 0x40, 0x20 | 0x80 };

    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            cell *k = canvas_at(c, x, y);
            int bits = 0;

            if (k->kind != CELL_BRAILLE)
                continue;
            for (int q = 0; q < 4; q++)
                if ((k->ch - CP_BRAILLE) & QUARTER[q])
                    bits |= 1 << q;
            k->ch = QUAD_CP[bits];
            k->kind = CELL_TEXT;
        }
}

/* Bresenham between two points known to be of moderate extent. */
static void line_plot(canvas *c, long long x0, long long y0, long long x1,
                      long long y1, rgb col)
{
    long long dx = x1 > x0 ? x1 - x0 : x0 - x1;
    long long dy = y1 > y0 ? y0 - y1 : y1 - y0;   /* -|dy| */
    int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    long long err = dx + dy;

    for (;;) {
        canvas_dot(c, (int)x0, (int)y0, col);
        if (x0 == x1 && y0 == y1)
            break;
        long long e2 = 2 * err;
        if (e2 >= dy) {
            err += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            err += dx;
            y0 += sy;
        }
    }
}

/*
 * Liang-Barsky clip of a segment to [lo, hi] on both axes; returns 0 if
 * nothing is left.  Only used for segments far larger than the canvas,
 * so that a wild coordinate costs O(canvas), not O(2^31) steps.
 */
static int seg_clip(double *x0, double *y0, double *x1, double *y1,
                    double xmax, double ymax)
{
    double t0 = 0, t1 = 1, dx = *x1 - *x0, dy = *y1 - *y0;
    double p[4] = { -dx, dx, -dy, dy };
    double q[4] = { *x0, xmax - *x0, *y0, ymax - *y0 };
    int i;

    for (i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return 0;
            continue;
        }
        double t = q[i] / p[i];
        if (p[i] < 0) {
            if (t > t1)
                return 0;
            if (t > t0)
                t0 = t;
        } else {
            if (t < t0)
                return 0;
            if (t < t1)
                t1 = t;
        }
    }
    *x1 = *x0 + t1 * dx;
    *y1 = *y0 + t1 * dy;
    *x0 = *x0 + t0 * dx;
    *y0 = *y0 + t0 * dy;
    return 1;
}

void canvas_line(canvas *c, int px0, int py0, int px1, int py1, rgb col)
{
    long long span = (long long)c->w * 2 + (long long)c->h * 4 + 8;
    long long ex = (long long)px1 - px0, ey = (long long)py1 - py0;
    double x0, y0, x1, y1;

    if (ex < 0)
        ex = -ex;
    if (ey < 0)
        ey = -ey;
    if (ex <= 4 * span && ey <= 4 * span) {
        line_plot(c, px0, py0, px1, py1, col);
        return;
    }
    x0 = px0; y0 = py0; x1 = px1; y1 = py1;
    if (!seg_clip(&x0, &y0, &x1, &y1, 2.0 * c->w - 1, 4.0 * c->h - 1))
        return;
    line_plot(c, llround(x0), llround(y0), llround(x1), llround(y1), col);
}

void canvas_circle(canvas *c, double cx, double cy, double r, double aspect,
                   rgb col)
{
    double ry = r * aspect, big;
    long px = 0, py = 0;
    int i, steps;

    if (!isfinite(cx) || !isfinite(cy) || !isfinite(r) || !isfinite(ry) ||
        r < 0 || aspect < 0 || fabs(cx) > 1e6 || fabs(cy) > 1e6 ||
        r > 1e6 || ry > 1e6)
        return;
    big = r > ry ? r : ry;
    /* about one step per dot of circumference; chords fill any gap */
    steps = big > 1000 ? 8000 : (int)(8.0 * big) + 8;
    for (i = 0; i <= steps; i++) {
        double t = 2.0 * PEVIZ_PI * i / steps;
        long qx = lround(cx + r * cos(t)), qy = lround(cy + ry * sin(t));
        if (i > 0)
            canvas_line(c, (int)px, (int)py, (int)qx, (int)qy, col);
        px = qx;
        py = qy;
    }
}

/* ---- box drawing ------------------------------------------------------- */

#define BOX_H 0x2500u
#define BOX_V 0x2502u
#define BOX_TL 0x250Cu
#define BOX_TR 0x2510u
#define BOX_BL 0x2514u
#define BOX_BR 0x2518u

void canvas_hline(canvas *c, int x, int y, int w, rgb fg)
{
    int i;

    span_clip(&x, &w, c->w);
    for (i = x; i < x + w; i++)
        cell_write(c, i, y, BOX_H, fg, RGB_DEFAULT, 0, CELL_BOX);
}

void canvas_vline(canvas *c, int x, int y, int h, rgb fg)
{
    int j;

    span_clip(&y, &h, c->h);
    for (j = y; j < y + h; j++)
        cell_write(c, x, j, BOX_V, fg, RGB_DEFAULT, 0, CELL_BOX);
}

/*
 * " title " in the top edge, after the corner and one rule, keeping one
 * rule before the far corner; a title too long ends in an ellipsis so
 * that a cut is visible.
 */
static void box_title(canvas *c, int x, int y, int w, rgb fg,
                      const char *title)
{
    int avail = w - 6, used;

    used = canvas_text(c, x + 2, y, 1, " ", fg, RGB_DEFAULT, 0);
    if (text_width(title) <= avail) {
        used += canvas_text(c, x + 2 + used, y, avail, title, fg,
                            RGB_DEFAULT, ATTR_BOLD);
    } else {
        used += canvas_text(c, x + 2 + used, y, avail - 1, title, fg,
                            RGB_DEFAULT, ATTR_BOLD);
        used += canvas_text(c, x + 2 + used, y, 1, "\xe2\x80\xa6", fg,
                            RGB_DEFAULT, ATTR_BOLD);
    }
    canvas_text(c, x + 2 + used, y, 1, " ", fg, RGB_DEFAULT, 0);
}

void canvas_box(canvas *c, int x, int y, int w, int h, rgb fg,
                const char *title)
{
    long long x1 = (long long)x + w - 1, y1 = (long long)y + h - 1;

    if (w <= 0 || h <= 0)
        return;
    if (w == 1 || h == 1) {     /* too thin for corners: a plain line */
        if (h == 1)
            canvas_hline(c, x, y, w, fg);
        else
            canvas_vline(c, x, y, h, fg);
        return;
    }
    canvas_hline(c, x + 1, y, w - 2, fg);
    canvas_hline(c, x + 1, (int)y1, w - 2, fg);
    canvas_vline(c, x, y + 1, h - 2, fg);
    canvas_vline(c, (int)x1, y + 1, h - 2, fg);
    cell_write(c, x, y, BOX_TL, fg, RGB_DEFAULT, 0, CELL_BOX);
    cell_write(c, (int)x1, y, BOX_TR, fg, RGB_DEFAULT, 0, CELL_BOX);
    cell_write(c, x, (int)y1, BOX_BL, fg, RGB_DEFAULT, 0, CELL_BOX);
    cell_write(c, (int)x1, (int)y1, BOX_BR, fg, RGB_DEFAULT, 0, CELL_BOX);
    if (title && *title && w >= 7)
        box_title(c, x, y, w, fg, title);
}

/* ---- output fallbacks ---------------------------------------------------- */

static int rgb_is_default(rgb c)
{
    return (c & RGB_DEFAULT) != 0;
}

/* Density level 0..9 of a colour by its luminance; default = empty. */
static int level_of_rgb(rgb c)
{
    double y;

    if (rgb_is_default(c))
        return 0;
    y = 0.2126 * ((c >> 16) & 0xFF) + 0.7152 * ((c >> 8) & 0xFF) +
        0.0722 * (c & 0xFF);
    return (int)lround(y / 255.0 * 9.0);
}

int canvas_has_halves(int ascii, enum color_mode mode)
{
    return !ascii && mode != COLOR_NONE;
}

/* The one pixel a cell without half blocks shows: the top one, or the
 * bottom one when nothing was drawn on top. */
static int top_shown(const cell *k)
{
    return k->level_top != LEVEL_NONE || !rgb_is_default(k->fg);
}

static int half_level(const cell *k)
{
    int lv = top_shown(k) ? k->level_top : k->level_bot;
    rgb col = top_shown(k) ? k->fg : k->bg;
    int l = lv != LEVEL_NONE ? lv : level_of_rgb(col);

    return l > 9 ? 9 : l;
}

static int popcount8(unsigned v)
{
    int n = 0;

    for (; v; v &= v - 1)
        n++;
    return n;
}

static char braille_ascii(uint32_t ch)
{
    int n = popcount8((ch - CP_BRAILLE) & 0xFF);

    return n == 0 ? ' ' : n <= 2 ? '.' : n <= 5 ? '*' : 'o';
}

static char box_ascii(uint32_t ch)
{
    switch (ch) {
    case 0x2500: case 0x2501: case 0x2504: case 0x2505: case 0x2508:
    case 0x2509: case 0x254C: case 0x254D: case 0x2550: case 0x2574:
    case 0x2576: case 0x2578: case 0x257A: case 0x257C: case 0x257E:
        return '-';
    case 0x2502: case 0x2503: case 0x2506: case 0x2507: case 0x250A:
    case 0x250B: case 0x254E: case 0x254F: case 0x2551: case 0x2575:
    case 0x2577: case 0x2579: case 0x257B: case 0x257D: case 0x257F:
        return '|';
    default:
        return '+';
    }
}

/* Single-cell ASCII stand-ins for symbols views are likely to print. */
static const struct { uint32_t cp; char a; } ASCII_SUBST[] = {
    {0x00B1, '+'}, {0x00B7, '.'}, {0x00D7, 'x'}, {0x0394, 'D'},
    {0x03A3, 'S'}, {0x03B1, 'a'}, {0x03B2, 'b'}, {0x03B3, 'g'},
    {0x03B4, 'd'}, {0x03B8, 't'}, {0x03BB, 'l'}, {0x03BC, 'u'},
    {0x03C0, 'p'}, {0x03C3, 's'}, {0x03C9, 'w'}, {0x2013, '-'},
    {0x2014, '-'}, {0x2018, '\''}, {0x2019, '\''}, {0x201C, '"'},
    {0x201D, '"'}, {0x2022, '*'}, {0x2026, '.'}, {0x2190, '<'},
    {0x2191, '^'}, {0x2192, '>'}, {0x2193, 'v'}, {0x2212, '-'},
    {0x2264, '<'}, {0x2265, '>'}, {0x2248, '~'}, {0x25A0, '#'},
    {0x25B2, '^'}, {0x25B6, '>'}, {0x25BC, 'v'}, {0x25C0, '<'},
    {0x25CB, 'o'}, {0x25CF, '*'},
};

static char glyph_ascii(uint32_t ch)
{
    size_t i;

    if (ch >= 0x20 && ch < 0x7F)
        return (char)ch;
    if (ch >= 0x2500 && ch <= 0x257F)
        return box_ascii(ch);
    if (ch >= 0x2580 && ch <= 0x259F)
        return '#';
    if (ch >= CP_BRAILLE && ch <= CP_BRAILLE + 0xFF)
        return braille_ascii(ch);
    for (i = 0; i < sizeof ASCII_SUBST / sizeof ASCII_SUBST[0]; i++)
        if (ASCII_SUBST[i].cp == ch)
            return ASCII_SUBST[i].a;
    return '?';
}

/* A half-block cell as UTF-8 with colour: the lower half block when only
 * the bottom pixel has a colour, since a default-coloured ▀ would paint
 * the top in the terminal's foreground colour rather than leave it
 * empty. */
static void half_utf8(cell *o)
{
    int top = !rgb_is_default(o->fg), bot = !rgb_is_default(o->bg);

    if (!top && !bot) {
        o->ch = ' ';
    } else if (!top) {
        o->ch = CP_LOWER_HALF;
        o->fg = o->bg;
        o->bg = RGB_DEFAULT;
    }
}

cell canvas_resolve(const cell *c, int ascii, enum color_mode mode)
{
    cell o = *c;

    o.attr &= (uint8_t)~(ATTR_OVER | ATTR_CURSOR);
    if (o.kind == CELL_HALF) {
        if (mode == COLOR_NONE) {
            o.ch = (unsigned char)CANVAS_RAMP[half_level(c)];
        } else if (ascii) {
            o.ch = ' ';
            o.bg = top_shown(c) ? c->fg : c->bg;
            o.fg = RGB_DEFAULT;
        } else {
            half_utf8(&o);
        }
    } else if (o.kind == CELL_IMAGE) {
        o = (cell){ ' ', RGB_DEFAULT, RGB_DEFAULT, 0, CELL_TEXT, LEVEL_NONE,
                    LEVEL_NONE };
    } else if (o.kind == CELL_WIDE_TAIL) {
        if (ascii) {
            o.ch = ' ';
            o.kind = CELL_TEXT;
        }
    } else if (ascii) {
        o.ch = (unsigned char)glyph_ascii(o.ch);
    } else {
        o.ch = cp_sanitize(o.ch);
    }
    if (mode == COLOR_NONE) {
        o.fg = RGB_DEFAULT;
        o.bg = RGB_DEFAULT;
    }
    return o;
}

void canvas_row_utf8(const canvas *c, int y, char *buf, size_t len)
{
    size_t n = 0;
    for (int x = 0; x < c->w; x++) {
        const cell *k = canvas_at(c, x, y);
        char u[8];
        if (k->kind == CELL_WIDE_TAIL)
            continue;
        int l = utf8_encode(k->ch, u);
        if (n + (size_t)l + 1 >= len)
            break;
        memcpy(buf + n, u, (size_t)l);
        n += (size_t)l;
    }
    buf[n] = 0;
}
