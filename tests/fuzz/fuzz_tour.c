/* SPDX-License-Identifier: ISC */
/*
 * fuzz_tour.c - libFuzzer harness for tour files (tour_load), which only
 * reads from a path: the input is written to a scratch file first.  A
 * tour that loads is then stepped through and its caption drawn at a few
 * small sizes, as the program would show it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "frame.h"
#include "tour.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *scratch_path(void)
{
    static char path[64];

    if (!path[0]) {
        const char *dir = getenv("TMPDIR");
        snprintf(path, sizeof path, "%.30s/peviz-fuzz-%ld.tour",
                 dir && *dir ? dir : "/tmp", (long)getpid());
    }
    return path;
}

static void draw_steps(struct app *a, struct tour *t)
{
    static const int SIZES[][2] = { { 1, 1 }, { 12, 5 }, { 40, 12 } };
    struct text_line lines[16];

    a->tour = t;
    a->tour_active = 1;
    for (int i = 0; i < t->nsteps && i < 8; i++) {
        a->tour_step = i;
        if (tour_apply(a, t, i))
            abort();               /* tour_load accepted it: cannot fail */
        text_wrap_lines(t->steps[i].text, 1 + i * 7, lines, 16);
        for (size_t s = 0; s < sizeof SIZES / sizeof SIZES[0]; s++) {
            canvas c;
            if (canvas_init(&c, SIZES[s][0], SIZES[s][1]))
                continue;
            frame_draw(a, &c);
            canvas_free(&c);
        }
    }
    a->tour = NULL;
    a->tour_active = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct app a;
    struct tour t;
    char err[512];
    const char *path = scratch_path();
    FILE *f = fopen(path, "wb");

    if (!f)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);
    app_init(&a);
    if (tour_load(&t, path, &a, err, sizeof err) == 0) {
        draw_steps(&a, &t);
        tour_free(&t);
    } else if (!err[0]) {
        abort();                   /* a refusal must say why */
    }
    unlink(path);
    return 0;
}
