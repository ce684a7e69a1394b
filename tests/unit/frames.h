/* SPDX-License-Identifier: ISC */
/*
 * frames.h: the frame an app draws, as text, for the view tests.
 * Header-only so each test binary links just what it already links.
 */
#ifndef PEVIZ_TEST_FRAMES_H
#define PEVIZ_TEST_FRAMES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "canvas.h"
#include "frame.h"

/* The whole frame of a at w x h, its pending work finished, as UTF-8
 * rows joined by '\n'; malloc'd, NULL when out of memory. */
static inline char *frame_text(const struct app *a, int w, int h)
{
    canvas c;
    size_t rowlen = (size_t)w * 4 + 1, n = 0;
    char *out = malloc((size_t)h * (rowlen + 1) + 1);
    if (!out || canvas_init(&c, w, h)) {
        free(out);
        return NULL;
    }
    frame_draw_finished(a, &c);
    out[0] = 0;
    for (int y = 0; y < h; y++) {
        canvas_row_utf8(&c, y, out + n, rowlen);
        n += strlen(out + n);
        out[n++] = '\n';
        out[n] = 0;
    }
    canvas_free(&c);
    return out;
}

/* Whether the frame contains needle; prints the frame when it does not. */
static inline int frame_has(const struct app *a, int w, int h,
                            const char *needle)
{
    char *t = frame_text(a, w, h);
    int found = t && strstr(t, needle) != NULL;
    if (!found)
        fprintf(stderr, "frame %dx%d lacks \"%s\":\n%s", w, h, needle,
                t ? t : "(null)");
    free(t);
    return found;
}

#endif
