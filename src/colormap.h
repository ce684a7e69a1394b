/* SPDX-License-Identifier: ISC */
/*
 * colormap.h - values to colours, and colours down to what a terminal
 * can show.
 *
 * Views ask for a colour by meaning (a PE value in [-1, 1], a score or a
 * probability in [0, 1]); the palette decides the RGB.  A density level
 * 0..9 comes with every colour so that a terminal without colour can
 * still show the value as glyph density.
 */
#ifndef PEVIZ_COLORMAP_H
#define PEVIZ_COLORMAP_H

#include "canvas.h"

enum palette { PAL_DEFAULT = 0, PAL_CONTRAST, PAL_MONO, PAL_COUNT };

const char *palette_name(enum palette p);
/* Palette by name, or -1. */
int palette_parse(const char *name);

/* Diverging map for v in [-1, 1] (clamped): negative blue, 0 light,
 * positive red/orange. */
rgb cmap_diverging(enum palette p, double v);

/* Sequential map for t in [0, 1] (clamped): dark to bright. */
rgb cmap_sequential(enum palette p, double t);

/* Density level 0..9 for t in [0, 1] (clamped). */
int cmap_level(double t);

/* Semantic colours for chrome (labels, axes, highlights). */
enum ui_color {
    UI_TEXT, UI_DIM, UI_ACCENT, UI_WARN, UI_AXIS, UI_CURSOR,
    UI_STATUS_FG, UI_STATUS_BG, UI_PLOT_A, UI_PLOT_B, UI_PLOT_C,
    UI_PLOT_D, UI_PLOT_E, UI_PLOT_F, UI_COUNT
};
rgb ui_color(enum palette p, enum ui_color c);

/* WCAG 2 contrast ratio of two colours, 1 (none) to 21 (black on white):
 * (L1 + 0.05) / (L2 + 0.05) of their relative luminances. */
double rgb_contrast(rgb a, rgb b);

/* The lowest contrast against bg of the colours palette p writes text in
 * (dim, accent, warning, axis and cursor labels); the terminal's own
 * text colour, which the palette leaves alone, is not counted. */
double palette_text_contrast(enum palette p, rgb bg);

/* The status line's text against its own background. */
double palette_status_contrast(enum palette p);

/* ---- mapping RGB down (used once, at output) ------------------------- */

/* Nearest xterm-256 index among 16..255 (6x6x6 cube or grey ramp),
 * never 0..15 whose colours follow the user's theme.  The rgb_to_*
 * functions return -1 for RGB_DEFAULT (keep the terminal's colour). */
int rgb_to_256(rgb c);
/* The RGB that a 256-colour index 16..255 stands for (0..15: xterm's
 * default ANSI colours; out of range: RGB_DEFAULT). */
rgb rgb_of_256(int idx);
/* Nearest of the 16 / 8 standard ANSI colours (0..15 / 0..7), by
 * squared RGB distance to xterm's default values. */
int rgb_to_16(rgb c);
int rgb_to_8(rgb c);

#endif
