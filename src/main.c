/* SPDX-License-Identifier: ISC */
/*
 * main.c - peviz: see Transformer positional encodings in a terminal.
 *
 * Parses the command line, then runs one of: the interactive program,
 * an export to stdout, a snapshot of one frame, --help or --version.
 */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "export.h"
#include "follow.h"
#include "follow_proto.h"
#include "frame.h"
#include "frame_image.h"
#include "loop.h"
#include "plain_line.h"
#include "userconf.h"
#include "peviz/tables.h"
#include "record.h"
#include "slides.h"
#include "png_out.h"
#include "snapshot.h"
#include "tour.h"
#include "tour_check.h"

/* A PNG frame holds at most this many pixels. */
#define PNG_MAX_PIXELS 100000000

/* Colour mode of a snapshot: --color wins; --format ansi alone means 256. */
static enum color_mode snapshot_color(const struct cli *c, enum snap_format f)
{
    if (c->color_flag >= 0)
        return (enum color_mode)c->color_flag;
    return f == SNAP_TEXT ? COLOR_NONE : f == SNAP_SVG ? COLOR_TRUE : COLOR_256;
}

/* --snapshot --format png: the frame as pixels on stdout. */
static int run_snapshot_png(struct cli *c)
{
    int k = c->scale ? c->scale : 1;
    int cw = FRAME_IMAGE_CW * k, ch = FRAME_IMAGE_CH * k;
    if ((double)c->width * cw * (double)c->height * ch > PNG_MAX_PIXELS)
        return errline("--scale: %dx%d cells at scale %d is over %d "
                         "million pixels; want a smaller --size or --scale",
                         c->width, c->height, k, PNG_MAX_PIXELS / 1000000);
    canvas cv;
    struct image im;
    if (canvas_init(&cv, c->width, c->height))
        return errline("--snapshot: out of memory");
    c->app.color = c->color_flag >= 0 ? (enum color_mode)c->color_flag
                                      : COLOR_TRUE;
    c->app.screen_w = c->width;
    c->app.screen_h = c->height;
    frame_draw_finished(&c->app, &cv);
    int r = frame_image(&c->app, &cv, cw, ch, 1, &im);
    canvas_free(&cv);
    if (r)
        return errline("--snapshot: out of memory");
    r = png_write(stdout, &im);
    image_free(&im);
    if (r || fflush(stdout))
        return errline("--snapshot: PNG write error");
    return 0;
}

static int run_snapshot(struct cli *c)
{
    if (c->format && strcmp(c->format, "png") == 0)
        return run_snapshot_png(c);
    enum snap_format f = SNAP_TEXT;
    if (c->format)
        f = (enum snap_format)snap_format_parse(c->format);
    else if (c->color_flag > COLOR_NONE)
        f = SNAP_ANSI;
    enum color_mode mode = snapshot_color(c, f);
    canvas cv;
    if (canvas_init(&cv, c->width, c->height)) {
        errline("--snapshot: out of memory");
        return 2;
    }
    c->app.color = mode;
    c->app.screen_w = c->width;
    c->app.screen_h = c->height;
    frame_draw_finished(&c->app, &cv);
    int r = snapshot_write(stdout, &cv, f, c->app.ascii, mode);
    canvas_free(&cv);
    if (r || fflush(stdout)) {
        errline("--snapshot: write error");
        return 2;
    }
    return 0;
}

/* A follower shows the teacher's tour captions from its own copy of
 * the tour (its language): load it without starting it. */
static void follower_tour(struct cli *c)
{
    char err[512];
    struct app keep = c->app;
    if (c->app.tour || tour_start(&c->app, NULL, err, sizeof err))
        return;                 /* no tour: no captions, the rest works */
    keep.tour = c->app.tour;
    keep.tour_active = 0;
    c->app = keep;
}

static int run_interactive(struct cli *c)
{
    if (plain_line_wanted()) {
        if (c->serve || c->follow || c->record)
            return errline("TERM=dumb: --serve, --follow and --record need "
                             "a terminal that can move its cursor");
        c->app.rt = views_rt_new();
        if (!c->app.rt)
            return errline("out of memory");
        int r = plain_line_run(&c->app);
        views_rt_free(c->app.rt);
        c->app.rt = NULL;
        return r;
    }
    struct term_opts o = { .color_flag = c->color_flag,
                           .ascii_flag = c->app.ascii,
                           .mouse = c->app.mouse, .graphics = c->graphics };
    struct follow *f = NULL;
    if (c->serve && !(f = follow_serve(c->serve, c->serve_mode)))
        return 2;
    if (c->follow) {
        if (!(f = follow_join(c->follow, c->files)))
            return 2;
        follower_tour(c);
    }
    c->app.rt = views_rt_new();     /* the views' caches and layouts */
    if (!c->app.rt) {
        errline("out of memory");
        follow_close(f);
        return 2;
    }
    char err[512];
    if (c->record && record_open(c->record, err, sizeof err)) {
        errline("%s", err);
        follow_close(f);
        views_rt_free(c->app.rt);
        c->app.rt = NULL;
        return 2;
    }
    loop_follow(f);
    loop_autoplay(c->autoplay);
    int r = loop_run(&c->app, &o);
    loop_follow(NULL);
    if (c->record && record_close(r, err, sizeof err)) {
        errline("%s", err);
        r = r ? r : 2;
    }
    follow_close(f);
    c->app.pe_table = NULL;     /* a follower's own copy is gone */
    views_rt_free(c->app.rt);
    c->app.rt = NULL;
    return r;
}

/* A table of heads (a T5 bias table's columns, a --qk table's pairs):
 * --heads is the table's unless given, and --head one of them. */
static int table_heads(struct cli *c, const char *file, const char *what,
                       int64_t heads)
{
    if (!cli_given(c, "heads") && heads <= SCORES_MAX_HEADS)
        c->app.att.o.heads = (int)heads;
    if (cli_set_late(c))
        return 2;
    if (c->app.att.o.head >= heads) {
        errline("--head %d: %s has %lld %s; want 1..%lld",
                  c->app.att.o.head + 1, file, (long long)heads, what,
                  (long long)heads);
        return 2;
    }
    return 0;
}

/* --scheme t5 --pe-file: the table is the bias W [buckets x heads]; its
 * rows must be the bucket count.  d_model and n stay. */
static int t5_table(struct cli *c, const struct pe_table *t)
{
    if (!cli_given(c, "heads") && t->d <= SCORES_MAX_HEADS)
        c->app.att.o.heads = t->d;
    if (cli_set_late(c))        /* --buckets first */
        return 2;
    if (t->n != c->app.att.o.buckets || t->d > SCORES_MAX_HEADS) {
        errline("%s: a T5 bias table is [buckets, heads]: this one is "
                  "%lld x %d, want %d rows (--buckets) and 1..%d heads",
                  c->pe_file, (long long)t->n, t->d, c->app.att.o.buckets,
                  SCORES_MAX_HEADS);
        return 2;
    }
    if (table_heads(c, c->pe_file, "heads (columns)", t->d))
        return 2;
    c->app.t5_table = t;
    c->app.pe_file_name = c->pe_file;
    return 0;
}

/* --pe-file: the table replaces the stand-in; d_model and n come from it
 * (n from -n when given: past the table's rows, positions are missing).
 * What the loader did on the user's behalf (a skipped header, a row
 * offset) is said on stderr, so stdout stays the export alone. */
static int load_table(struct cli *c, struct pe_table *t,
                      struct pe_table_info *info)
{
    char err[512], abs[PATH_MAX];
    struct pe_table_opts o;
    pe_table_opts_init(&o);
    o.tensor = c->tensor;
    o.row_offset = c->row_offset;
    o.any_columns = c->app.att.o.scheme == SCHEME_T5;   /* heads: any count */
    if (tables_load(c->pe_file, &o, t, info, err, sizeof err)) {
        errline("%s", err);
        return 2;
    }
    if (info->note[0])
        errline("%s: note: %s", c->pe_file, info->note);
    if (c->app.att.o.scheme == SCHEME_T5)
        return t5_table(c, t);
    /* named by its absolute path (captions); a follower gets its base
     * name and its content hash, against which it checks its own copy */
    size_t n;
    if (realpath(info->file, abs) && (n = strlen(abs)) < sizeof info->file)
        memcpy(info->file, abs, n + 1);
    if (c->serve || c->follow)
        fp_table_digest(t, c->app.pe_digest);
    c->app.pe_table = t;
    c->app.pe_file_name = c->pe_file;
    c->app.pe_info = info;
    c->app.p.d = t->d;
    if (!c->n_set)
        c->app.p.n = t->n;
    return cli_set_late(c);
}

/* --qk: q and k rows, 2 x d_model or 2H x d_model (a pair per head),
 * loaded once d_model is known. */
static int load_qk(struct cli *c, struct pe_table *t)
{
    char err[512];
    struct pe_table_info info;
    struct pe_table_opts o;
    pe_table_opts_init(&o);
    o.tensor = c->pe_file ? NULL : c->tensor;
    o.row_offset = 0;
    if (tables_load(c->qk_file, &o, t, &info, err, sizeof err)) {
        errline("%s", err);
        return 2;
    }
    if (t->d != c->app.p.d || t->n % 2 || t->n > 2 * SCORES_MAX_HEADS) {
        errline("%s: a q/k table is 2 x d_model (row 0 q, row 1 k) or "
                  "2H x d_model, a pair per head: this one is %lld x %d, "
                  "d_model is %d", c->qk_file, (long long)t->n, t->d,
                  c->app.p.d);
        return 2;
    }
    if (table_heads(c, c->qk_file, "q/k pairs (heads)", t->n / 2))
        return 2;
    c->app.qk_table = t;
    return 0;
}

/* --help, --version: a stdout that cannot take the text (a full disk,
 * closed) is an error, not a silent success. */
static int print_info(const struct cli *c)
{
    static const char *const NAME[] = {
        [MODE_HELP] = "--help", [MODE_VERSION] = "--version",
        [MODE_MODELS] = "--model list",
    };
    if (c->mode == MODE_HELP)
        cli_usage(stdout);
    else if (c->mode == MODE_MODELS)
        cli_models(stdout);
    else
        printf("peviz %s\n", PEVIZ_VERSION);
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    errline("%s: cannot write to standard output: %s", NAME[c->mode],
              strerror(errno));
    return 1;
}

/* --tour: start it, or (in export mode, which shows no tour) only check
 * that the file loads, so a bad file is never silently ignored. */
static int check_tour(struct cli *c)
{
    char err[512];
    struct app scratch = c->app;
    int show = c->mode == MODE_INTERACTIVE || c->mode == MODE_SNAPSHOT ||
               c->mode == MODE_SLIDES;
    struct app *a = show ? &c->app : &scratch;
    if (tour_start(a, c->tour, err, sizeof err)) {
        errline("%s", err);
        return 2;
    }
    if (a->msg[0] && c->mode == MODE_SLIDES)
        errline("%s", a->msg);        /* e.g. why the tour is English */
    int r = 0;
    if (c->mode == MODE_CHECK) {        /* stdout: what was checked */
        int tried = 0, bad = tour_check_run(a, stdout, &tried);
        if (bad < 0) {
            r = errline("--check: out of memory");
        } else if (bad > 0) {
            printf("%s: %d of %d checks fail\n", a->tour->path, bad, tried);
            r = 1;
        } else {
            printf("%s: %d steps, every one applies", a->tour->path,
                   a->tour->nsteps);
            if (tried)
                printf("; %d checks hold at %d sizes, with and without "
                       "colour", tried, TOUR_CHECK_NSIZES);
            printf("\n");
        }
    }
    if (!show)
        tour_release(a);
    return r;
}

/* --slides DIR: every step of the tour as SVG and text, and index.html. */
static int run_slides(struct cli *c)
{
    char err[512];
    enum color_mode svg = c->color_flag >= 0 ? (enum color_mode)c->color_flag
                                             : COLOR_TRUE;
    int n = slides_write(&c->app, c->slides, c->width, c->height, svg, err,
                         sizeof err);
    if (n < 0) {
        errline("%s", err);
        return 2;
    }
    printf("%s: %d steps, %dx%d: index.html, step-01.svg .. step-%02d.svg "
           "and .txt\n", c->slides, n, c->width, c->height, n);
    return fflush(stdout) == 0 ? 0 : 2;
}

/* Run the mode the command line chose. */
static int run(struct cli *c)
{
    switch (c->mode) {
    case MODE_HELP:
    case MODE_VERSION:
    case MODE_MODELS:
        return print_info(c);
    case MODE_EXPORT:
        return export_run(c, stdout);
    case MODE_SNAPSHOT:
        return run_snapshot(c);
    case MODE_CHECK:
        return fflush(stdout) == 0 ? 0 : 2;     /* check_tour did it */
    case MODE_SLIDES:
        return run_slides(c);
    case MODE_CHECK_FREQS:
        return cli_check_freqs(c, stdout);
    case MODE_CHECK_CACHE:
        return cli_check_cache(c, stdout);
    case MODE_INTERACTIVE:
        break;
    }
    return run_interactive(c);
}

int main(int argc, char **argv)
{
    static struct cli c;
    static struct pe_table table;
    static struct pe_table_info info;
    static struct pe_table qk;
    setlocale(LC_CTYPE, "");    /* messages are filtered for its charset */
    /* a file-size limit (ulimit -f) makes the write fail with EFBIG, which
     * every mode reports, instead of killing the program mid-write */
    signal(SIGXFSZ, SIG_IGN);
    /* the settings file's words before the command line's (cli_parse
     * keeps pointers into them: they live as long as the program) */
    static char **words;
    static int nwords;
    int r = userconf_args(argc, argv, &nwords, &words);
    if (r || (r = cli_parse(&c, nwords, words)))
        return r;
    if (c.print_settings && c.mode == MODE_INTERACTIVE) {
        cli_print_settings(&c, stdout, nwords - argc);
        userconf_free(nwords, words, argc, argv);
        return fflush(stdout) == 0 && !ferror(stdout) ? 0
             : errline("--print-settings: cannot write to standard output");
    }
    if (c.pe_file && c.mode != MODE_HELP && c.mode != MODE_VERSION &&
        (r = load_table(&c, &table, &info)))
        return r;
    if (c.qk_file && c.mode != MODE_HELP && c.mode != MODE_VERSION &&
        (r = load_qk(&c, &qk))) {
        pe_table_free(&table);
        return r;
    }
    c.app.tour_lang = c.lang;
    if (c.tour && c.mode != MODE_HELP && c.mode != MODE_VERSION &&
        (r = check_tour(&c))) {
        pe_table_free(&table);
        pe_table_free(&qk);
        return r;
    }
    r = run(&c);
    tour_release(&c.app);
    pe_table_free(&table);
    app_tables_free();
    pe_table_free(&qk);
    userconf_free(nwords, words, argc, argv);
    return r;
}
