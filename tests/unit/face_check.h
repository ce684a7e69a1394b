/* SPDX-License-Identifier: ISC */
/*
 * face_check.h - a clock face read back from decoded pixels: the hand's
 * angle measured from the pixels of the hand's colour on a circle round
 * the image's centre, the rim's radius along a direction, the pixels of
 * the hand's colour away from the hand.  For test_gfx.c (the terminal
 * images) and test_pixels.c (PNG frames).
 */
#ifndef PEVIZ_FACE_CHECK_H
#define PEVIZ_FACE_CHECK_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define FC_PI 3.14159265358979323846

/* A w x h region at (x0, y0) of RGB rows stride bytes apart. */
struct face_img {
    const uint8_t *px;
    int stride, x0, y0, w, h;
};

static inline uint32_t fc_get(const struct face_img *f, int x, int y)
{
    if (x < 0 || y < 0 || x >= f->w || y >= f->h)
        return 0xFFFFFFFFu;
    const uint8_t *p = f->px + (size_t)(f->y0 + y) * (size_t)f->stride +
                       (size_t)(f->x0 + x) * 3;
    return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline int fc_close(uint32_t a, uint32_t b, int tol)
{
    if (a == 0xFFFFFFFFu)
        return 0;
    for (int s = 0; s < 24; s += 8)
        if (abs((int)(a >> s & 0xFF) - (int)(b >> s & 0xFF)) > tol)
            return 0;
    return 1;
}

/* The pixel under the point at radius rho, angle phi (counter-clockwise
 * from 3 o'clock) round the region's centre. */
static inline uint32_t fc_at(const struct face_img *f, double rho,
                             double phi)
{
    double x = f->w / 2.0 + rho * cos(phi), y = f->h / 2.0 - rho * sin(phi);
    return fc_get(f, (int)floor(x), (int)floor(y));
}

/* angle - ref reduced to (-pi, pi]. */
static inline double fc_diff(double angle, double ref)
{
    double d = fmod(angle - ref, 2 * FC_PI);
    if (d > FC_PI)
        d -= 2 * FC_PI;
    if (d <= -FC_PI)
        d += 2 * FC_PI;
    return d;
}

/* The hand's angle at radius rho: the mean direction of the points of
 * colour ink (within 24 levels) within win radians of guess; NAN when
 * there are none. */
static inline double fc_hand_angle(const struct face_img *f, double rho,
                                   double guess, double win, uint32_t ink)
{
    double sx = 0, sy = 0;
    int n = 0;
    for (double p = guess - win; p <= guess + win; p += 0.001)
        if (fc_close(fc_at(f, rho, p), ink, 24)) {
            sx += cos(p);
            sy += sin(p);
            n++;
        }
    return n ? atan2(sy, sx) : NAN;
}

/* Points of colour ink at radius rho farther than win from angle. */
static inline int fc_ink_elsewhere(const struct face_img *f, double rho,
                                   double angle, double win, uint32_t ink)
{
    int n = 0;
    for (double p = 0; p < 2 * FC_PI; p += 0.002)
        if (fabs(fc_diff(p, angle)) > win &&
            fc_close(fc_at(f, rho, p), ink, 24))
            n++;
    return n;
}

/* The rim's radius along phi: the middle of the first run of
 * ring-coloured points (within 8 levels) from the edge in (the rim is
 * the outermost stroke); -1 if none. */
static inline double fc_rim(const struct face_img *f, double phi,
                            uint32_t ring)
{
    double lo = -1, hi = -1, s = (f->w < f->h ? f->w : f->h) / 2.0;
    for (double r = s - 0.125; r > 0; r -= 0.125) {
        int on = fc_close(fc_at(f, r, phi), ring, 8);
        if (on && hi < 0)
            hi = r;
        if (on)
            lo = r;
        else if (hi >= 0)
            break;
    }
    return hi < 0 ? -1 : (lo + hi) / 2;
}

#endif
