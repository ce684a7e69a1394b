/* SPDX-License-Identifier: ISC */
/*
 * lineart.c - anti-aliased rings and strokes (lineart.h).
 *
 * Each shape is a distance field: a pixel whose centre lies at distance
 * d from the shape's middle line is covered by wid/2 + 0.5 - d, clamped
 * to 0 .. 1 (a box filter one pixel wide), in quarters so that an
 * image holds few colours (sixel's palette, zlib's runs): a clock face
 * compresses to two thirds of what sixteenths gave, and looks the same
 * at a cell's size.
 */
#include "lineart.h"

#include <math.h>

void art_fill(struct art *a, rgb col)
{
    for (long i = 0; i < (long)a->w * a->h; i++)
        a->px[i] = col;
}

rgb art_blend(rgb a, rgb b, double t)
{
    rgb r = 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    for (int s = 0; s < 24; s += 8) {
        double ca = (double)(a >> s & 0xFF), cb = (double)(b >> s & 0xFF);
        r |= (rgb)lround(ca * t + cb * (1 - t)) << s;
    }
    return r;
}

/* Coverage of a pixel at distance d from the middle of a stroke. */
static double cover(double d, double wid)
{
    double t = wid / 2 + 0.5 - d;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return floor(t * 4 + 0.5) / 4;
}

static void plot(struct art *a, int x, int y, double t, rgb col)
{
    if (t <= 0 || x < 0 || y < 0 || x >= a->w || y >= a->h)
        return;
    rgb *p = &a->px[(long)y * a->w + x];
    *p = art_blend(col, *p, t);
}

/* The pixel rows and columns a box of centre-distance m round
 * [x0, x1] x [y0, y1] touches, clipped. */
struct span {
    int x0, y0, x1, y1;
};

static struct span span_of(const struct art *a, double x0, double y0,
                           double x1, double y1, double m)
{
    struct span s = {
        (int)floor(fmin(x0, x1) - m), (int)floor(fmin(y0, y1) - m),
        (int)ceil(fmax(x0, x1) + m), (int)ceil(fmax(y0, y1) + m)
    };
    s.x0 = s.x0 < 0 ? 0 : s.x0;
    s.y0 = s.y0 < 0 ? 0 : s.y0;
    s.x1 = s.x1 > a->w - 1 ? a->w - 1 : s.x1;
    s.y1 = s.y1 > a->h - 1 ? a->h - 1 : s.y1;
    return s;
}

void art_ring(struct art *a, double cx, double cy, double r, double wid,
              rgb col)
{
    struct span s = span_of(a, cx - r, cy - r, cx + r, cy + r, wid + 1);
    for (int y = s.y0; y <= s.y1; y++)
        for (int x = s.x0; x <= s.x1; x++)
            plot(a, x, y, cover(fabs(hypot(x + 0.5 - cx, y + 0.5 - cy) - r),
                                wid), col);
}

double art_seg_dist(double px, double py, double ax, double ay, double bx,
                    double by)
{
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    double t = l2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return hypot(px - ax - t * dx, py - ay - t * dy);
}

void art_segment(struct art *a, double x0, double y0, double x1, double y1,
                 double wid, rgb col)
{
    struct span s = span_of(a, x0, y0, x1, y1, wid + 1);
    for (int y = s.y0; y <= s.y1; y++)
        for (int x = s.x0; x <= s.x1; x++)
            plot(a, x, y, cover(art_seg_dist(x + 0.5, y + 0.5, x0, y0, x1, y1),
                                wid), col);
}

void art_dashed(struct art *a, double x0, double y0, double x1, double y1,
                double wid, double on, double off, rgb col)
{
    double len = hypot(x1 - x0, y1 - y0);
    if (len <= 0 || on <= 0)
        return;
    double ux = (x1 - x0) / len, uy = (y1 - y0) / len;
    for (double t = 0; t < len; t += on + off) {
        double e = t + on < len ? t + on : len;
        art_segment(a, x0 + ux * t, y0 + uy * t, x0 + ux * e, y0 + uy * e, wid,
                    col);
    }
}
