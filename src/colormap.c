/* SPDX-License-Identifier: ISC */
/*
 * colormap.c - colour maps for values, chrome colours per palette, and
 * the mapping of RGB down to 256, 16 and 8 colours.
 *
 * Maps are small tables of stops with linear interpolation in sRGB,
 * which is accurate enough between stops this close together.
 */
#include "colormap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "peviz/names.h"

struct stops {
    int n;
    const rgb *c;        /* n colours, evenly spaced over [0, 1] */
};

/*
 * Diverging, default palette: blue for negative, near-white at zero,
 * orange-brown for positive (the blue half is ColorBrewer RdBu's, the
 * orange half PuOr's).  Lightness falls symmetrically from the middle,
 * so |v| reads as distance from white and the sign as the hue.  Checked
 * for protanopia, deuteranopia and tritanopia by simulation (Machado et
 * al. 2009, full severity): v and -v stay at least 25 CIELAB units apart
 * for every |v| >= 0.2 (about 60 or more from |v| = 0.4 on).  Blue
 * against orange is the pair red-green deficiencies keep best.  The pale
 * stops near zero keep it readable in 256 colours too.
 */
static const rgb DIV_DEFAULT[] = {
    0x053061, 0x2166AC, 0x4393C3, 0x92C5DE, 0xD1E5F0, 0xF7F7F7,
    0xFEE0B6, 0xFDB863, 0xE08214, 0xB35806, 0x7F3B08,
};

/*
 * Diverging, projector palette: saturated ends and a pure white middle;
 * cmap_diverging also steepens the curve so that small values already
 * show colour on a washed-out projected image.  Same blue/orange hues;
 * by the same simulation v and -v stay at least 50 CIELAB units apart
 * for |v| >= 0.25 under all three deficiencies.
 */
static const rgb DIV_CONTRAST[] = {
    0x001A8C, 0x0050FF, 0x4D94FF, 0xA6CCFF, 0xFFFFFF,
    0xFFCC80, 0xFF9500, 0xD45500, 0x7A2600,
};

/* Diverging in grey: dark for -1, bright for +1 (sign by lightness). */
static const rgb DIV_MONO[] = { 0x121212, 0x808080, 0xF2F2F2 };

/*
 * Sequential, default: viridis (matplotlib's perceptually uniform map,
 * sampled at 9 points).  Lightness rises monotonically, so it reads the
 * same for every colour-vision deficiency and in grey.
 */
static const rgb SEQ_DEFAULT[] = {
    0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21918C,
    0x28AE80, 0x5EC962, 0xADDC30, 0xFDE725,
};

/* Sequential, projector: inferno, black to pale yellow, the widest
 * lightness range of the perceptual maps. */
static const rgb SEQ_CONTRAST[] = {
    0x000004, 0x1B0C41, 0x4A0C6B, 0x781C6D, 0xA52C60,
    0xCF4446, 0xED6925, 0xFB9B06, 0xF7D13D, 0xFCFFA4,
};

static const rgb SEQ_MONO[] = { 0x121212, 0xF2F2F2 };

#define NSTOPS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct stops DIV[PAL_COUNT] = {
    { NSTOPS(DIV_DEFAULT), DIV_DEFAULT },
    { NSTOPS(DIV_CONTRAST), DIV_CONTRAST },
    { NSTOPS(DIV_MONO), DIV_MONO },
};

static const struct stops SEQ[PAL_COUNT] = {
    { NSTOPS(SEQ_DEFAULT), SEQ_DEFAULT },
    { NSTOPS(SEQ_CONTRAST), SEQ_CONTRAST },
    { NSTOPS(SEQ_MONO), SEQ_MONO },
};

static const char *const PALETTE_NAMES[PAL_COUNT] = {
    "default", "contrast", "mono"
};

const char *palette_name(enum palette p)
{
    return names_at(PALETTE_NAMES, PAL_COUNT, (int)p, "?");
}

int palette_parse(const char *name)
{
    return names_find(PALETTE_NAMES, PAL_COUNT, name);
}

static enum palette pal_valid(enum palette p)
{
    return (p >= 0 && p < PAL_COUNT) ? p : PAL_DEFAULT;
}

/* t clamped to [0, 1]; NaN counts as 0 so it can never index out. */
static double unit_clamp(double t)
{
    if (!(t > 0))
        return 0;
    return t < 1 ? t : 1;
}

static int chan(rgb c, int shift)
{
    return (int)((c >> shift) & 0xFF);
}

/* lround for 0 <= x < 2^31, inline: x - (int)x is exact there, so a
 * half rounds up as lround's does (away from zero). */
static int round_pos(double x)
{
    int r = (int)x;
    return x - r >= 0.5 ? r + 1 : r;
}

static rgb stops_at(const struct stops *s, double t)
{
    double f = unit_clamp(t) * (s->n - 1);
    int i = (int)f;
    double u;
    rgb a, b;

    if (i >= s->n - 1)
        return s->c[s->n - 1];
    u = f - i;
    a = s->c[i];
    b = s->c[i + 1];
    return RGB((rgb)round_pos(chan(a, 16) + u * (chan(b, 16) - chan(a, 16))),
               (rgb)round_pos(chan(a, 8) + u * (chan(b, 8) - chan(a, 8))),
               (rgb)round_pos(chan(a, 0) + u * (chan(b, 0) - chan(a, 0))));
}

rgb cmap_diverging(enum palette p, double v)
{
    p = pal_valid(p);
    if (v != v)
        v = 0;
    if (v < -1)
        v = -1;
    if (v > 1)
        v = 1;
    if (p == PAL_CONTRAST)          /* small |v| already visibly coloured */
        v = v < 0 ? -pow(-v, 0.6) : pow(v, 0.6);
    return stops_at(&DIV[p], (v + 1) / 2);
}

rgb cmap_sequential(enum palette p, double t)
{
    return stops_at(&SEQ[pal_valid(p)], t);
}

int cmap_level(double t)
{
    return round_pos(unit_clamp(t) * 9);
}

/*
 * Chrome colours.  Text uses the terminal's own foreground so that it is
 * readable on light and dark themes alike; the plot colours are from the
 * Okabe-Ito set, chosen to stay distinct under colour-vision deficiencies.
 */
static const rgb UI[UI_COUNT][PAL_COUNT] = {
    /*                 default      contrast     mono */
    [UI_TEXT]      = { RGB_DEFAULT, RGB_DEFAULT, RGB_DEFAULT },
    [UI_DIM]       = { 0x8A8A8A,    0xBCBCBC,    0x8A8A8A },
    [UI_ACCENT]    = { 0x5FAFD7,    0x00AFFF,    0xFFFFFF },
    [UI_WARN]      = { 0xFFAF00,    0xFFAF00,    0xFFFFFF },
    [UI_AXIS]      = { 0x8A8A8A,    0xD0D0D0,    0xA8A8A8 },
    [UI_CURSOR]    = { 0xFF5FD7,    0xFF00FF,    0xFFFFFF },
    [UI_STATUS_FG] = { 0x1C1C1C,    0x000000,    0x000000 },
    [UI_STATUS_BG] = { 0xAFAFAF,    0xFFFFFF,    0xD0D0D0 },
    [UI_PLOT_A]    = { 0xE69F00,    0xFF8700,    0xFFFFFF },
    [UI_PLOT_B]    = { 0x56B4E9,    0x00AFFF,    0xA8A8A8 },
    [UI_PLOT_C]    = { 0x009E73,    0x00D7AF,    0x6C6C6C },
    [UI_PLOT_D]    = { 0xCC79A7,    0xFF87D7,    0xD0D0D0 },
    [UI_PLOT_E]    = { 0xF0E442,    0xFFFF5F,    0x8A8A8A },
    [UI_PLOT_F]    = { 0xD55E00,    0xFF5F5F,    0x585858 },
};

rgb ui_color(enum palette p, enum ui_color c)
{
    if (c < 0 || c >= UI_COUNT)
        return RGB_DEFAULT;
    return UI[c][pal_valid(p)];
}

/* sRGB channel (0..255) to linear light */
static double linear(int v)
{
    double c = v / 255.0;

    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double luminance(rgb c)
{
    return 0.2126 * linear(chan(c, 16)) + 0.7152 * linear(chan(c, 8)) +
           0.0722 * linear(chan(c, 0));
}

double rgb_contrast(rgb a, rgb b)
{
    double la = luminance(a), lb = luminance(b);

    return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

double palette_text_contrast(enum palette p, rgb bg)
{
    static const enum ui_color TEXT[] = { UI_DIM, UI_ACCENT, UI_WARN,
                                          UI_AXIS, UI_CURSOR };
    double worst = 21;

    for (size_t i = 0; i < sizeof TEXT / sizeof TEXT[0]; i++)
        worst = fmin(worst, rgb_contrast(ui_color(p, TEXT[i]), bg));
    return worst;
}

double palette_status_contrast(enum palette p)
{
    return rgb_contrast(ui_color(p, UI_STATUS_FG), ui_color(p, UI_STATUS_BG));
}

/* ---- RGB down to terminal colours ---------------------------------------- */

/* Channel levels of the xterm 6x6x6 cube (indices 16..231). */
static const int CUBE[6] = { 0x00, 0x5F, 0x87, 0xAF, 0xD7, 0xFF };

/* The 16 ANSI colours as xterm shows them by default. */
static const rgb ANSI16[16] = {
    0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD,
    0x00CDCD, 0xE5E5E5, 0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00,
    0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
};

static int dist2(rgb a, rgb b)
{
    int dr = chan(a, 16) - chan(b, 16), dg = chan(a, 8) - chan(b, 8),
        db = chan(a, 0) - chan(b, 0);

    return dr * dr + dg * dg + db * db;
}

/* Nearest cube level for one channel; per-channel nearest is the nearest
 * cube colour overall, since squared distance is a sum over channels. */
static int cube_level(int v)
{
    int i, best = 0;

    for (i = 1; i < 6; i++)
        if (abs(CUBE[i] - v) < abs(CUBE[best] - v))
            best = i;
    return best;
}

int rgb_to_256(rgb c)
{
    int r, g, b, cube, grey, k;

    if (c & ~0xFFFFFFu)
        return -1;
    r = cube_level(chan(c, 16));
    g = cube_level(chan(c, 8));
    b = cube_level(chan(c, 0));
    cube = 16 + 36 * r + 6 * g + b;
    grey = 232;
    for (k = 233; k <= 255; k++)
        if (dist2(c, rgb_of_256(k)) < dist2(c, rgb_of_256(grey)))
            grey = k;
    /* the grey only when strictly nearer: ties keep the cube colour */
    return dist2(c, rgb_of_256(grey)) < dist2(c, rgb_of_256(cube)) ? grey
                                                                    : cube;
}

rgb rgb_of_256(int idx)
{
    int v;

    if (idx < 0 || idx > 255)
        return RGB_DEFAULT;
    if (idx < 16)
        return ANSI16[idx];
    if (idx >= 232) {
        v = 8 + 10 * (idx - 232);
        return RGB((rgb)v, (rgb)v, (rgb)v);
    }
    idx -= 16;
    return RGB((rgb)CUBE[idx / 36], (rgb)CUBE[(idx / 6) % 6],
               (rgb)CUBE[idx % 6]);
}

static int nearest_ansi(rgb c, int n)
{
    int i, best = 0;

    if (c & ~0xFFFFFFu)
        return -1;
    for (i = 1; i < n; i++)
        if (dist2(c, ANSI16[i]) < dist2(c, ANSI16[best]))
            best = i;
    return best;
}

int rgb_to_16(rgb c)
{
    return nearest_ansi(c, 16);
}

int rgb_to_8(rgb c)
{
    return nearest_ansi(c, 8);
}
