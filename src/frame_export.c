/* SPDX-License-Identifier: ISC */
/*
 * frame_export.c - the 'w' key: the frame as the terminal shows it, saved
 * as .svg, .txt and .png under names of its own (frame_export.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "app.h"
#include "frame.h"
#include "frame_export.h"
#include "frame_image.h"
#include "snapshot.h"

static int export_one(const canvas *c, const char *path, enum snap_format f,
                      const struct app *a)
{
    return snapshot_save(path, c, f, a->ascii, f == SNAP_TEXT ? COLOR_NONE
                                                              : COLOR_TRUE);
}

#define EXPORT_TRIES 100000    /* suffixes -2 .. before giving up */

/* "peviz-VIEW-STAMP.EXT", or with "-K" before the extension for K > 1. */
static void export_name(char *buf, size_t len, const struct app *a,
                        const char *stamp, int k, const char *ext)
{
    if (k > 1)
        snprintf(buf, len, "peviz-%s-%s-%d.%s", VIEWS[a->view]->name, stamp,
                 k, ext);
    else
        snprintf(buf, len, "peviz-%s-%s.%s", VIEWS[a->view]->name, stamp, ext);
}

/* The frame as pixels (the PNG of --snapshot --format png), or -1. */
static int export_png(const canvas *c, struct app *a, const char *path)
{
    struct image im;
    enum color_mode keep = a->color;
    a->color = COLOR_TRUE;
    int r = frame_image(a, c, FRAME_IMAGE_CW, FRAME_IMAGE_CH, 0, &im);
    a->color = keep;
    if (r)
        return -1;
    r = snapshot_save_png(path, &im);
    image_free(&im);
    return r;
}

/* The three names of stem k; 1 if none of them exists. */
static int export_names(const struct app *a, const char *stamp, int k,
                        char *const name[3], size_t len)
{
    static const char *const EXT[3] = { "svg", "txt", "png" };
    struct stat st;
    int free_all = 1;
    for (int i = 0; i < 3; i++) {
        export_name(name[i], len, a, stamp, k, EXT[i]);
        free_all &= lstat(name[i], &st) < 0 && errno == ENOENT;
    }
    return free_all;
}

/*
 * Save the .svg, .txt and .png under the first free stem: never replace
 * a file.  When one fails the ones written are removed, so the three
 * are written whole or not at all.  Returns 0, or -1 with errno.
 */
static int export_pair(const canvas *c, const canvas *ct, struct app *a,
                       const char *stamp, char *svg, char *txt, char *png,
                       size_t len)
{
    char *const name[3] = { svg, txt, png };
    int k = 1;
    /* skip the names taken (cheap), then claim one (safe: a name taken
     * in between fails with EEXIST and the next is tried) */
    while (k < EXPORT_TRIES && !export_names(a, stamp, k, name, len))
        k++;
    for (; k <= EXPORT_TRIES; k++) {
        export_names(a, stamp, k, name, len);
        int done = 0, e = 0;
        if (export_one(c, svg, SNAP_SVG, a) == 0 && ++done &&
            export_one(ct, txt, SNAP_TEXT, a) == 0 && ++done &&
            export_png(c, a, png) == 0)
            return 0;
        e = errno;
        for (int i = 0; i < done; i++)
            unlink(name[i]);
        errno = e;
        if (e != EEXIST)
            return -1;
    }
    errno = EEXIST;
    return -1;
}

/* The working directory, for a message ("." if it cannot be told). */
static const char *work_dir(char *buf, size_t len)
{
    return getcwd(buf, len) ? buf : ".";
}

/*
 * The frame as drawn: one frame_draw, never the loop of
 * frame_draw_finished, so a view still computing (the attention view at
 * a large n and d) cannot hold the program up; its partial frame is what
 * the screen shows and what is saved.
 */
void frame_export(struct app *a, int w, int h)
{
    canvas c;
    char stamp[32], svg[128], txt[128], png[128], dir[512];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    if (canvas_init(&c, w, h)) {
        app_msg(a, 1, "export: out of memory");
        return;
    }
    a->msg[0] = 0;
    frame_draw(a, &c);
    int partial = app_view_busy(a);
    /* the text frame has no colour: drawn for it, one value per cell.
     * Its layout differs from the screen's, so it gets runtime objects
     * of its own: the screen's work in progress is kept. */
    canvas ct;
    enum color_mode keep = a->color;
    struct views_rt *screen = a->rt;
    int bad = canvas_init(&ct, w, h);
    a->color = COLOR_NONE;
    a->rt = screen ? views_rt_new() : NULL;
    if (!bad)
        frame_draw(a, &ct);
    partial |= a->rt && app_view_busy(a);
    views_rt_free(a->rt);
    a->rt = screen;
    a->color = keep;
    if (bad || export_pair(&c, &ct, a, stamp, svg, txt, png, sizeof svg))
        app_msg(a, 1, "export to %s failed: %s", work_dir(dir, sizeof dir),
                bad ? "out of memory" : strerror(errno));
    else
        app_msg(a, 0, "wrote %s, %s and %s%s", svg, txt, png,
                partial ? " (still computing: the frame as drawn)" : "");
    canvas_free(&c);
    if (!bad)
        canvas_free(&ct);
}
