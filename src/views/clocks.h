/* SPDX-License-Identifier: ISC */
/*
 * clocks.h - the clocks view's settings and its pure parts, shared
 * with its tests.
 *
 * Band i of a sinusoidal PE is a clock: its hand stands at the angle
 * pos * omega_i, measured from the +x axis (3 o'clock) and turning
 * counter-clockwise, so the tip of a unit hand is
 *   (x, y) = (cos, sin) = (PE(pos, 2i+1), PE(pos, 2i)).
 * Screen dots grow downwards, hence the minus sign on y below.
 */
#ifndef PEVIZ_CLOCKS_H
#define PEVIZ_CLOCKS_H

#include <stdint.h>

#include "canvas.h"
#include "params.h"
#include "views/clocks_state.h"

#include "peviz/pi.h"

/*
 * Tip of a hand of length r (dots) from the centre (cx, cy) at angle
 * radians: (round(cx + r cos angle), round(cy - r sin angle)).
 */
void clocks_hand_end(double cx, double cy, double r, double angle,
                     int *px, int *py);

/* Length of the hand drawn in a face of rim radius r: a little inside
 * the rim, so the tip never merges with it. */
int clocks_hand_len(int r);

/* One face, in braille dot coordinates of a canvas. */
struct clock_face {
    int cx, cy, r;          /* centre and rim radius, dots */
    double angle;           /* hand angle, radians */
    int ghost;              /* draw the ghost hand too */
    double ghost_angle;
    int axes;               /* the cos (horizontal) and sin (vertical) axes
                               with the tip's projections on them */
    rgb ring, hand, ghost_col, axis;
    int thick;              /* 0: one dot wide; 1: hand and rim two dots;
                               2: three (read from the back of a room) */
    int blocks;             /* drawn in quadrant block cells (2 x 2 a
                               cell, canvas_quad) instead of braille dots:
                               the same geometry, solid and thick */
    uint32_t tip;           /* 0, or a text glyph over the hand's tip: the
                               ASCII rendering of braille shows dot counts
                               only, so the tip would not stand out */
};

/* Draw the face: axes, ring, ghost hand, then the hand on top. */
void clocks_face_draw(canvas *c, const struct clock_face *f);

/* Its last part alone: the hand, the tip's ticks on the axes and the tip
 * glyph (what turns with the angle). */
void clocks_face_draw_hand(canvas *c, const struct clock_face *f);

/*
 * The face in pixels (a line drawing, lineart.h), centred in a w x h
 * image and as large as its smaller side allows: rim radius r, hand
 * length len (its tip at (cx + len cos angle, cy - len sin angle)), the
 * strokes' widths, all in pixels.  f's cx, cy, r (dots) play no part;
 * its thick widens the strokes.
 */
struct clock_px {
    double cx, cy, r, len;
    double rim, hand, axis;     /* stroke widths */
};

void clocks_face_px(int w, int h, int thick, struct clock_px *g);

struct art;

/* Under the curve a face may carry (heat_pca.h): the axes and the rim. */
void clocks_face_art_under(struct art *a, const struct clock_face *f);

/*
 * The angle a hand of len pixels is drawn at: angle to the nearest
 * 1 / (4 len) radians, so its tip is within 1/8 pixel of the exact one,
 * and a slow band's image changes only when its tip has moved a quarter
 * of a pixel (not with every position, by a blend level at its edge).
 */
double clocks_px_angle(double angle, double len);

/* Over it: the ghost hand, the hand, and the tip's ticks on the axes,
 * at clocks_px_angle.  RGB_DEFAULT colours are raster.h's raster_fg(). */
void clocks_face_art_hands(struct art *a, const struct clock_face *f);

/* Everything the view prints about one band at one position. */
struct clocks_band {
    int i;
    double omega;           /* rad per position */
    double lambda;          /* wavelength, positions */
    double angle;           /* pos * omega, radians (not reduced) */
    double s, c;            /* PE(pos, 2i) = sin, PE(pos, 2i+1) = cos */
    double turns;           /* floor(angle / 2 pi): full turns made */
    int slow;               /* lambda > n: no full turn within the sequence */
    int rule;               /* RoPE scaling: the band's enum rope_rule */
    int scaled;             /* omega is after a RoPE scaling (not none) */
};

/* Band i at p->pos, with p's RoPE scaling applied to omega (at n). */
void clocks_band_info(const params *p, int i, struct clocks_band *b);

/* Angle in degrees reduced to [0, 360). */
double clocks_deg_mod(double rad);

/* How the view uses the screen, from the largest to the smallest. */
enum clocks_mode {
    CLOCKS_TOO_SMALL = 0,   /* a short note */
    CLOCKS_TEXT,            /* one line per band, no faces */
    CLOCKS_SMALL,           /* table of small faces */
    CLOCKS_BIG              /* a big face for the cursor band + the table */
};

struct clocks_layout {
    enum clocks_mode mode;
    int label_w;            /* row labels at the left of the table */
    int fr;                 /* small face rows (its width is 2 fr cells) */
    int pitch;              /* cells per band column */
    int cpr;                /* bands per table row */
    int brows;              /* table rows of bands */
    int block_h;            /* faces + value rows of one table row */
    int tiles;              /* bands shown at once */
    int top_h;              /* rows above the counter / table */
    int face_rows;          /* big face: rows (width 2 * face_rows) */
    int counter_y;          /* row of the binary counter, -1: none */
    int table_y;            /* first row of the table */
};

/*
 * Lay out a w x h view for half bands, with extra value rows under each
 * face beyond the seven (the ghost's k*omega row, the RoPE scaling's rule
 * row) and the counter strip when asked.  Pure: the same input gives the
 * same layout.
 */
void clocks_layout(int w, int h, int half, int extra, int counter,
                   struct clocks_layout *l);

/*
 * Band shown by tile t (0 .. tiles-1) when tiles are on screen.  Zoom 0
 * with more bands than tiles: an even spread from band 0 to the last
 * band, both included; otherwise consecutive bands from a start that
 * keeps the cursor band (s->band) in view.
 */
int clocks_tile_band(const struct clocks_state *s, int half, int tiles,
                     int t);

#endif
