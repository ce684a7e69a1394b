/* SPDX-License-Identifier: ISC */
/*
 * canvas.h - an off-screen grid of cells that every view draws into.
 *
 * A cell holds one Unicode code point, a foreground and a background
 * colour as 24-bit RGB (or RGB_DEFAULT, the terminal's own colour) and
 * attributes.  Views never write escape codes: the terminal backend and
 * the snapshot writer turn the same canvas into output, through
 * canvas_resolve(), which applies the ASCII and no-colour fallbacks.
 *
 * A canvas may be a window into a parent (canvas_sub): it shares the
 * parent's cells, with its own origin and size; every primitive clips
 * to the window.
 */
#ifndef PEVIZ_CANVAS_H
#define PEVIZ_CANVAS_H

#include <stddef.h>
#include <stdint.h>

#include "text.h"

typedef uint32_t rgb;                 /* 0xRRGGBB */
#define RGB_DEFAULT 0x01000000u       /* the terminal's default colour */
#define RGB(r, g, b) ((rgb)(((r) << 16) | ((g) << 8) | (b)))

enum {
    ATTR_BOLD = 1,
    ATTR_REVERSE = 2,
    ATTR_DIM = 4,
    ATTR_UNDERLINE = 8,
    ATTR_OVER = 16,     /* drawn over a picture that moves under it (the
                           PCA face's hand): a line drawing's image leaves
                           the cell to the text (raster.h); never shown
                           (canvas_resolve drops it) */
    ATTR_CURSOR = 32    /* the inspected cell: the terminal's cursor is
                           left there (screen magnifiers and readers
                           follow it); never shown (canvas_resolve drops
                           it) */
};


/* What drew a cell: lets canvas_resolve pick an ASCII / mono glyph. */
enum cell_kind {
    CELL_TEXT = 0,   /* a glyph as written */
    CELL_HALF,       /* half-block pixel pair: fg = top, bg = bottom */
    CELL_BRAILLE,    /* braille dots: ch = U+2800 + bits */
    CELL_BOX,        /* box drawing */
    CELL_WIDE_TAIL,  /* right half of a double-width glyph: draw nothing */
    CELL_IMAGE       /* a kitty Unicode placeholder, on the live terminal
                        only (gfx_live.h): fg = the image id, level_top /
                        level_bot = its row / column; a blank elsewhere */
};

#define LEVEL_NONE 255  /* no density level */

typedef struct cell {
    uint32_t ch;
    rgb fg, bg;
    uint8_t attr;
    uint8_t kind;          /* enum cell_kind */
    uint8_t level_top;     /* density 0..9 of the top pixel (LEVEL_NONE) */
    uint8_t level_bot;     /* density 0..9 of the bottom pixel */
} cell;

typedef struct canvas {
    cell *cells;     /* the root buffer (shared by sub-canvases) */
    int stride;      /* cells per row of the root buffer */
    int x0, y0;      /* origin of this window in the root */
    int w, h;        /* size of this window */
    int owner;       /* 1 if this struct owns cells */
} canvas;

/* Allocate a w x h canvas filled with blanks.  Returns 0, or -1 (ENOMEM). */
int canvas_init(canvas *c, int w, int h);
void canvas_free(canvas *c);

/* A window of c at (x, y), w x h, clipped to c.  Shares c's cells. */
canvas canvas_sub(const canvas *c, int x, int y, int w, int h);

/* Blank every cell of the window (space, default colours). */
void canvas_clear(canvas *c);

/* Cell at (x, y) of the window, or NULL when outside. */
cell *canvas_at(const canvas *c, int x, int y);

/* Mark cell (x, y) of the window as the inspected one (ATTR_CURSOR). */
void canvas_cursor(canvas *c, int x, int y);

/* Set one cell (clipped). */
void canvas_put(canvas *c, int x, int y, uint32_t ch, rgb fg, rgb bg,
                int attr);

/* Fill a rectangle with one glyph and colours (clipped). */
void canvas_fill(canvas *c, int x, int y, int w, int h, uint32_t ch,
                 rgb fg, rgb bg);

/*
 * UTF-8 text at (x, y), at most maxw cells wide (maxw < 0: to the edge).
 * Double-width characters take two cells and are never split; C0/C1
 * control characters and DEL are shown as U+FFFD ('?' in ASCII); invalid
 * UTF-8 likewise.  Returns the number of cells used.
 */
int canvas_text(canvas *c, int x, int y, int maxw, const char *s,
                rgb fg, rgb bg, int attr);

/* printf into canvas_text (output truncated at 512 bytes). */
int canvas_printf(canvas *c, int x, int y, int maxw, rgb fg, rgb bg,
                  int attr, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));


/*
 * Draw at (x, y) the first candidate that fits in w cells, else as many
 * whole words of the last one as fit, less a trailing "=" or ":" whose
 * value is cut off (nothing when its first word is wider: never half a word or a
 * number).  Returns the candidate's index.
 */
int canvas_text_fit(canvas *c, int x, int y, int w, const char *const *cand,
                    int n, rgb fg, int attr);

/*
 * Half-block pixel: pixel row py (0 .. 2h-1) of column x gets colour col
 * and density level (0..9, or LEVEL_NONE).  Two vertical pixels per cell.
 */
void canvas_half(canvas *c, int x, int py, rgb col, int level);

/*
 * Braille dots: 2 x 4 dots per cell, dot (px, py) with px in 0..2w-1,
 * py in 0..4h-1.  Dots accumulate in a cell; the cell's fg becomes col.
 */
void canvas_dot(canvas *c, int px, int py, rgb col);

/*
 * Quadrant pixels: 2 x 2 per cell (the block glyphs ▘▝▖▗▀▄▌▐▚▞▛▜▙▟█),
 * pixel (qx, qy) with qx in 0..2w-1, qy in 0..2h-1.  Pixels accumulate in
 * a cell that shows quadrants; the cell's fg becomes col.  Thicker than
 * braille dots, to be read from a distance; '#' in ASCII.
 */
void canvas_quad(canvas *c, int qx, int qy, rgb col);
void canvas_line(canvas *c, int px0, int py0, int px1, int py1, rgb col);

/*
 * A circle in dot coordinates centred (cx, cy) with radius r dots
 * horizontally and r * aspect dots vertically; callers pick aspect so
 * that it looks round (a cell is about twice as tall as wide: 2 x 4 dots
 * per cell makes dots roughly square, so aspect = 1.0 is round).
 */
void canvas_circle(canvas *c, double cx, double cy, double r, double aspect,
                   rgb col);

/* A frame of box-drawing lines around the rectangle, with an optional
 * title in the top edge. */
void canvas_box(canvas *c, int x, int y, int w, int h, rgb fg,
                const char *title);
void canvas_hline(canvas *c, int x, int y, int w, rgb fg);
void canvas_vline(canvas *c, int x, int y, int h, rgb fg);

/* ---- output ----------------------------------------------------------- */

enum color_mode {
    COLOR_NONE = 0, COLOR_8, COLOR_16, COLOR_256, COLOR_TRUE
};

/*
 * The cell as it must be shown: with ascii != 0 half-blocks become a
 * coloured space (background = mean of the two pixels) or, with no
 * colour, a density glyph; braille becomes '.', '*' or 'o' by dot count;
 * box drawing becomes + - |.  With COLOR_NONE half-blocks become density
 * glyphs (the ramp " .:-=+*#%@") and colours are dropped.
 * In UTF-8 with colour a half-block whose top pixel is RGB_DEFAULT comes
 * back as U+2584 (lower half, fg = bottom) so the top stays empty.  Any
 * other non-ASCII glyph in ASCII mode becomes a close ASCII stand-in or
 * '?' (a wide glyph: '?' and a plain space for its tail); the result's
 * ch is never a control character.  kind is kept, except that an ASCII
 * wide tail comes back as CELL_TEXT.
 */
cell canvas_resolve(const cell *c, int ascii, enum color_mode mode);

/*
 * Whether a half-block cell shows both its pixels: only with UTF-8 and
 * colour.  Otherwise a cell shows one value, its top pixel's (the bottom
 * one's when the top is empty), never a mix of two; views that put two
 * values in a cell give each value whole text rows instead.
 */
int canvas_has_halves(int ascii, enum color_mode mode);

/* The density ramp, 10 glyphs from empty to full. */
extern const char CANVAS_RAMP[11];

/*
 * Braille cells redrawn as quadrant blocks (--no-braille): each quarter
 * of the cell is set when any of its two dots was, in the dots' colour.
 * Clock faces and line plots then need only the block elements, which
 * every UTF-8 font has, and fall to '#' in ASCII.
 */
void canvas_unbraille(canvas *c);

/* Row y of the window as UTF-8, glyphs as stored (before any fallback),
 * the right halves of wide glyphs skipped; at most len-1 bytes. */
void canvas_row_utf8(const canvas *c, int y, char *buf, size_t len);


#endif
