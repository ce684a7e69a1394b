/* SPDX-License-Identifier: ISC */
/*
 * frame_image.c - a frame as pixels (frame_image.h).
 */
#include "frame_image.h"

#include <stdlib.h>

#include "app.h"
#include "areas.h"
#include "view.h"

int frame_image(const struct app *a, const canvas *c, int cw, int ch,
                int finish, struct image *out)
{
    struct view_raster r;
    int w, h;
    if (raster_canvas(c, a->ascii, a->color, cw, ch, out) < 0)
        return -1;
    if (a->help || (unsigned)a->view >= VIEW_COUNT)
        return 0;
    /* the current view sits at the frame's top-left corner */
    areas_view_size(a, c->w, c->h, &w, &h);
    for (int k = 0; k < view_raster_parts(a->view); k++)
        if (view_raster(a, a->view, w, h, cw, ch, finish, k, &r) == 0) {
            raster_overlay(out, c, 0, 0, &r);
            free(r.px);
        }
    return 0;
}
