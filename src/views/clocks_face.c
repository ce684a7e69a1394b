/* SPDX-License-Identifier: ISC */
/*
 * clocks_face.c - one clock face: where a hand ends, the face and its
 * hand in braille dots or in quadrant blocks, and the same face in pixels
 * for the raster hook.
 */
#include <math.h>
#include <stdlib.h>

#include "canvas.h"
#include "lineart.h"
#include "raster.h"
#include "views/clocks.h"

void clocks_hand_end(double cx, double cy, double r, double angle,
                     int *px, int *py)
{
    *px = (int)lround(cx + r * cos(angle));
    *py = (int)lround(cy - r * sin(angle));   /* dots grow downwards */
}

int clocks_hand_len(int r)
{
    if (r <= 3)
        return r > 1 ? r - 1 : r;
    return r <= 8 ? r - 2 : r - r / 8;
}

/* Every other dot of a segment, so axes and guides read as dotted. */
static void dotted(canvas *c, int x0, int y0, int x1, int y1, rgb col)
{
    int n = abs(x1 - x0) > abs(y1 - y0) ? abs(x1 - x0) : abs(y1 - y0);
    for (int k = 0; k <= n; k += 2) {
        double t = n ? (double)k / n : 0;
        canvas_dot(c, (int)lround(x0 + t * (x1 - x0)),
                   (int)lround(y0 + t * (y1 - y0)), col);
    }
}

/* A line thick dots wider: copies moved by up to a dot each way. */
static void thick_line(canvas *c, int x0, int y0, int x1, int y1, rgb col,
                       int thick)
{
    int lo = thick >= 2 ? -1 : 0;
    for (int dx = lo; dx <= (thick ? 1 : 0); dx++)
        for (int dy = lo; dy <= (thick ? 1 : 0); dy++)
            canvas_line(c, x0 + dx, y0 + dy, x1 + dx, y1 + dy, col);
}

/* ---- a face in block cells -------------------------------------------- */

/*
 * The quadrant pixels (2 x 2 a cell) whose centres, in dot coordinates
 * (2 x 4 a cell: a pixel is one dot wide and two tall), lie within half
 * a width of the segment, or (ring) within width inside radius r + 0.5 of
 * the centre.
 */
static void quad_shape(canvas *c, const struct clock_face *f, int ring,
                       double x0, double y0, double x1, double y1,
                       double half, rgb col)
{
    double lo_x = ring ? f->cx - f->r - 1 : fmin(x0, x1) - half - 1;
    double hi_x = ring ? f->cx + f->r + 1 : fmax(x0, x1) + half + 1;
    double lo_y = ring ? f->cy - f->r - 2 : fmin(y0, y1) - half - 2;
    double hi_y = ring ? f->cy + f->r + 2 : fmax(y0, y1) + half + 2;
    for (int qy = (int)floor(lo_y / 2); qy <= (int)ceil(hi_y / 2); qy++)
        for (int qx = (int)floor(lo_x); qx <= (int)ceil(hi_x); qx++) {
            double px = qx + 0.5, py = 2.0 * qy + 1.0;
            double d = ring ? hypot(px - f->cx - 0.5, py - f->cy - 0.5)
                            : art_seg_dist(px, py, x0, y0, x1, y1);
            if (ring ? d <= f->r + 0.5 && d > f->r + 0.5 - half
                     : d <= half)
                canvas_quad(c, qx, qy, col);
        }
}

/* The face of clocks_face_draw in quadrant cells: a rim three dots deep
 * and a hand three dots wide, solid from across a room.  Under the hand. */
static void face_blocks(canvas *c, const struct clock_face *f, int len)
{
    double cx = f->cx + 0.5, cy = f->cy + 0.5;
    if (f->axes) {      /* braille dots ('.' in ASCII, where blocks are
                           '#'); the rim and the hand cover their cells */
        dotted(c, f->cx - f->r, f->cy, f->cx + f->r, f->cy, f->axis);
        dotted(c, f->cx, f->cy - f->r, f->cx, f->cy + f->r, f->axis);
    }
    quad_shape(c, f, 1, 0, 0, 0, 0, f->thick ? 3.0 : 2.0, f->ring);
    if (f->ghost) {
        int gx, gy;
        clocks_hand_end(f->cx, f->cy, len, f->ghost_angle, &gx, &gy);
        quad_shape(c, f, 0, cx, cy, gx + 0.5, gy + 0.5, 0.75, f->ghost_col);
    }
}

/* The hand of face_blocks. */
static void hand_blocks(canvas *c, const struct clock_face *f, int tx, int ty)
{
    double cx = f->cx + 0.5, cy = f->cy + 0.5;
    quad_shape(c, f, 0, cx, cy, tx + 0.5, ty + 0.5, f->thick ? 1.6 : 1.1,
               f->hand);
    if (f->axes) {                  /* the tip's projections on the axes */
        quad_shape(c, f, 0, tx + 0.5, cy - 3, tx + 0.5, cy + 3, 0.6, f->hand);
        quad_shape(c, f, 0, cx - 2, ty + 0.5, cx + 2, ty + 0.5, 0.9, f->hand);
    }
}

void clocks_face_draw_hand(canvas *c, const struct clock_face *f)
{
    int len = clocks_hand_len(f->r), tx, ty;

    clocks_hand_end(f->cx, f->cy, len, f->angle, &tx, &ty);
    if (f->blocks) {
        hand_blocks(c, f, tx, ty);
    } else {
        thick_line(c, f->cx, f->cy, tx, ty, f->hand, f->thick);
        /* the tip's projections, as ticks on the axes: how far right (cos)
         * and how high (sin).  Ticks, not guide lines, so that a frame of
         * the sweep changes few cells. */
        if (f->axes) {
            canvas_line(c, tx, f->cy - 2, tx, f->cy + 2, f->hand);
            canvas_line(c, f->cx - 2, ty, f->cx + 2, ty, f->hand);
        }
    }
    if (f->tip)
        canvas_put(c, tx / 2, ty / 4, f->tip, f->hand, RGB_DEFAULT, ATTR_BOLD);
}

#define GHOST_THICK_R 8     /* faces this small get a thick ghost */

/* The ghost hand in braille: one dot wide on a big face; on a small one
 * (r <= GHOST_THICK_R) two dots wide and out to the rim, so that beside
 * the hand drawn over it, it keeps cells of its own colour. */
static void ghost_line(canvas *c, const struct clock_face *f, int len)
{
    int gx, gy, small = f->r <= GHOST_THICK_R;
    clocks_hand_end(f->cx, f->cy, small ? f->r : len, f->ghost_angle, &gx,
                    &gy);
    thick_line(c, f->cx, f->cy, gx, gy, f->ghost_col, small ? 1 : 0);
}

void clocks_face_draw(canvas *c, const struct clock_face *f)
{
    int len = clocks_hand_len(f->r);

    if (f->blocks) {
        face_blocks(c, f, len);
        clocks_face_draw_hand(c, f);
        return;
    }
    if (f->axes) {
        dotted(c, f->cx - f->r, f->cy, f->cx + f->r, f->cy, f->axis);
        dotted(c, f->cx, f->cy - f->r, f->cx, f->cy + f->r, f->axis);
    }
    for (int k = 0; k <= f->thick && f->r - k > 0; k++)   /* rim inwards */
        canvas_circle(c, f->cx, f->cy, f->r - k, 1.0, f->ring);
    if (f->ghost)
        ghost_line(c, f, len);
    clocks_face_draw_hand(c, f);
}

/* ---- a face in pixels ------------------------------------------------- */

void clocks_face_px(int w, int h, int thick, struct clock_px *g)
{
    double s = w < h ? w : h, u = s / 80.0;
    double k = thick >= 2 ? 2.2 : thick == 1 ? 1.5 : 1.0;
    g->cx = w / 2.0;
    g->cy = h / 2.0;
    g->rim = fmax(1.5, 2.0 * u) * k;
    g->hand = fmax(1.75, 2.5 * u) * k;
    g->axis = fmax(1.0, 0.75 * u);
    g->r = s / 2 - g->rim / 2 - 1;
    g->len = g->r - g->rim / 2 - fmax(2.0, 0.1 * g->r);
    if (g->r < 1)
        g->r = 1;
    if (g->len < 1)
        g->len = 1;
}

static rgb ink(rgb c)
{
    return c & RGB_DEFAULT ? raster_fg() : c;
}

void clocks_face_art_under(struct art *a, const struct clock_face *f)
{
    struct clock_px g;
    clocks_face_px(a->w, a->h, f->thick, &g);
    if (f->axes) {
        double dash = fmax(2.0, 3.0 * g.r / 40);
        art_dashed(a, g.cx - g.r, g.cy, g.cx + g.r, g.cy, g.axis, dash, dash,
                   ink(f->axis));
        art_dashed(a, g.cx, g.cy - g.r, g.cx, g.cy + g.r, g.axis, dash, dash,
                   ink(f->axis));
    }
    art_ring(a, g.cx, g.cy, g.r, g.rim, ink(f->ring));
}

double clocks_px_angle(double angle, double len)
{
    double step = 1.0 / (4.0 * (len > 1 ? len : 1));
    return round(fmod(angle, 2 * PEVIZ_PI) / step) * step;
}

void clocks_face_art_hands(struct art *a, const struct clock_face *f)
{
    struct clock_px g;
    clocks_face_px(a->w, a->h, f->thick, &g);
    double an = clocks_px_angle(f->angle, g.len);
    double tx = g.cx + g.len * cos(an), ty = g.cy - g.len * sin(an);
    if (f->ghost) {
        double ga = clocks_px_angle(f->ghost_angle, g.len);
        art_segment(a, g.cx, g.cy, g.cx + g.len * cos(ga),
                    g.cy - g.len * sin(ga), g.hand * 0.6, ink(f->ghost_col));
    }
    art_segment(a, g.cx, g.cy, tx, ty, g.hand, ink(f->hand));
    if (f->axes) {              /* the tip's projections on the axes */
        double t = fmax(3.0, 0.08 * g.r);
        art_segment(a, tx, g.cy - t, tx, g.cy + t, g.axis * 1.5, ink(f->hand));
        art_segment(a, g.cx - t, ty, g.cx + t, ty, g.axis * 1.5, ink(f->hand));
    }
}
