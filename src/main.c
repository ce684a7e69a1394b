/*
 * main.c - peviz: see Transformer positional encodings in a terminal.
 *
 * Parses the command line, then runs one of: the interactive program,
 * an export to stdout, a snapshot of one frame, --help or --version.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "export.h"
#include "loop.h"
#include "snapshot.h"

/* Colour mode of a snapshot: --color wins; --format ansi alone means 256. */
static enum color_mode snapshot_color(const struct cli *c, enum snap_format f)
{
    if (c->color_flag >= 0)
        return (enum color_mode)c->color_flag;
    return f == SNAP_TEXT ? COLOR_NONE : f == SNAP_SVG ? COLOR_TRUE : COLOR_256;
}

static int run_snapshot(struct cli *c)
{
    enum snap_format f = SNAP_TEXT;
    if (c->format)
        f = (enum snap_format)snap_format_parse(c->format);
    else if (c->color_flag > COLOR_NONE)
        f = SNAP_ANSI;
    enum color_mode mode = snapshot_color(c, f);
    canvas cv;
    if (canvas_init(&cv, c->width, c->height)) {
        fprintf(stderr, "peviz: --snapshot: out of memory\n");
        return 2;
    }
    c->app.color = mode;
    c->app.screen_w = c->width;
    c->app.screen_h = c->height;
    frame_draw(&c->app, &cv);
    int r = snapshot_write(stdout, &cv, f, c->app.ascii, mode);
    canvas_free(&cv);
    if (r || fflush(stdout)) {
        fprintf(stderr, "peviz: --snapshot: write error\n");
        return 2;
    }
    return 0;
}

static int run_interactive(struct cli *c)
{
    struct term_opts o = { c->color_flag, c->app.ascii, c->app.mouse };
    if (c->tour) {
        fprintf(stderr, "peviz: --tour: the guided tour is not built yet\n");
        return 2;
    }
    return loop_run(&c->app, &o);
}

int main(int argc, char **argv)
{
    static struct cli c;
    int r = cli_parse(&c, argc, argv);
    if (r)
        return r;
    switch (c.mode) {
    case MODE_HELP:
        cli_usage(stdout);
        return 0;
    case MODE_VERSION:
        printf("peviz %s\n", PEVIZ_VERSION);
        return 0;
    case MODE_EXPORT:
        return export_run(&c, stdout);
    case MODE_SNAPSHOT:
        return run_snapshot(&c);
    case MODE_INTERACTIVE:
        break;
    }
    return run_interactive(&c);
}
