/* SPDX-License-Identifier: ISC */
/*
 * raster.h - frames as pixels: a canvas drawn cell by cell into an RGB
 * image (text with the bitmap font of font.h; half blocks, block
 * elements, braille and box drawing drawn as shapes), and the pixel
 * rasters views give for their data areas (view.h's raster hook).
 */
#ifndef PEVIZ_RASTER_H
#define PEVIZ_RASTER_H

#include <stdint.h>

#include "canvas.h"

/* The terminal's default colours in pixel output (a dark theme, as the
 * SVG snapshot has). */
#define RASTER_BG 0x1E1E1Eu
#define RASTER_FG 0xD0D0D0u

/* The default colours the data areas' rasters are drawn with (a face's
 * background and default ink): RASTER_BG and RASTER_FG, but while
 * raster_ink has set others (the live terminal's own, for its images).
 * Cells drawn into pixels (raster_canvas) keep RASTER_*. */
void raster_ink(rgb fg, rgb bg);
rgb raster_fg(void);
rgb raster_bg(void);

/* An RGB image: 3 bytes a pixel, rows top to bottom. */
struct image {
    int w, h;
    uint8_t *rgb;
};

int image_init(struct image *im, int w, int h);   /* 0, or -1: ENOMEM */
void image_free(struct image *im);
void image_set(struct image *im, int x, int y, rgb c);
rgb image_get(const struct image *im, int x, int y);

/*
 * A view's data area as pixels: cells (x, y) .. (x+w-1, y+h-1) of the
 * view's area at cw x ch pixels per cell; px holds (w*cw) x (h*ch)
 * colours row by row (malloc'd; the caller frees it), RGB_DEFAULT where
 * the cells show through.
 */
struct view_raster {
    int x, y, w, h;
    int cw, ch;
    rgb *px;
    int art;        /* a line drawing (a clock face): every pixel is
                       concrete, and it covers the dots, blocks and blanks
                       its cells drew it with (raster_covers_in); 1, or
                       1 | RASTER_ART_OVER */
};

/* In art: cells marked ATTR_OVER move over the drawing (the PCA face's
 * hand); where a cell replaces pixels (sixel, iTerm2) the cells it covers
 * keep their drawing, which curses may write over it. */
#define RASTER_ART_OVER 2

/* Cell (cx, cy)'s pixels come from px: a half-block cell (the data
 * areas' picture); text drawn over the data (cursor, marks) stays, and
 * so does any cell marked ATTR_OVER. */
int raster_covers(const cell *k);

/* The text glyph a face's hand tip carries in ASCII (where braille shows
 * as dot counts): a line drawing covers it, as its own tip shows. */
#define RASTER_ART_TIP '@'

/* The same for a cell under r: for a line drawing (r->art) also braille
 * dots, block elements, blanks of the default background and
 * RASTER_ART_TIP, unless marked ATTR_OVER (the PCA face's hand: cells
 * over its image, which does not hold the hand). */
int raster_covers_in(const struct view_raster *r, const cell *k);

/*
 * Canvas c drawn into a new image of (c->w * cw) x (c->h * ch) pixels,
 * every cell as canvas_resolve shows it with ascii and mode.  0, or -1
 * when out of memory.
 */
int raster_canvas(const canvas *c, int ascii, enum color_mode mode, int cw,
                  int ch, struct image *out);

/* r's pixels over im, r's cells offset by (ox, oy) cells, wherever the
 * cell of c below is one raster_covers_in takes. */
void raster_overlay(struct image *im, const canvas *c, int ox, int oy,
                    const struct view_raster *r);

/* r's pixels as a new image, RGB_DEFAULT ones as dflt: 0, or -1. */
int raster_image(const struct view_raster *r, rgb dflt, struct image *out);

/* in resampled to a new image of w x h pixels, each pixel the one of in
 * under its centre (nearest neighbour): the image of cells whose size in
 * pixels is not a whole number.  0, or -1 when out of memory. */
int raster_scale(const struct image *in, int w, int h, struct image *out);

/* A cell's pixels into im at (px, py): exposed for the image encoders'
 * tests and the frame writer. */
void raster_cell(struct image *im, int px, int py, int cw, int ch,
                 const cell *r);

#endif
