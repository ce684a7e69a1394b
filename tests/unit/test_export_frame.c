/* SPDX-License-Identifier: ISC */
/* The frame export key (w): never replaces a file, never waits for a
 * view that is still computing, and says where it failed. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "app.h"
#include "canvas.h"
#include "frame.h"
#include "frame_export.h"
#include "harness.h"

static char dir[] = "/tmp/peviz-test-export-XXXXXX";

/* Files in the directory whose name ends in ext and, if want is not
 * NULL, whose bytes contain want; hidden (temporary) files count too. */
static int count(const char *ext, const char *want)
{
    DIR *d = opendir(".");
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t l = strlen(e->d_name), el = strlen(ext);
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
            l < el || strcmp(e->d_name + l - el, ext))
            continue;
        if (!want) {
            n++;
            continue;
        }
        static char buf[1 << 20];
        FILE *f = fopen(e->d_name, "r");
        size_t r = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
        buf[r] = 0;
        if (f)
            fclose(f);
        size_t wl = strlen(want), i = 0;     /* binary files too */
        while (i + wl <= r && memcmp(buf + i, want, wl))
            i++;
        n += i + wl <= r;
    }
    if (d)
        closedir(d);
    return n;
}

static void clean(void)
{
    DIR *d = opendir(".");
    for (struct dirent *e; d && (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            unlink(e->d_name);
    if (d)
        closedir(d);
}

/* Presses in the same second: each one a new pair, none replaced. */
static void test_no_overwrite(void)
{
    struct app a;
    app_init(&a);
    frame_export(&a, 80, 24);
    CHECK(strncmp(a.msg, "wrote peviz-heatmap-", 20) == 0);
    app_key(&a, 'D');                           /* d_model 128 from here */
    for (int i = 0; i < 30; i++) {
        frame_export(&a, 80, 24);
        CHECK(strncmp(a.msg, "wrote peviz-heatmap-", 20) == 0);
    }
    CHECK(count(".svg", NULL) == 31);
    CHECK(count(".txt", NULL) == 31);
    CHECK(count(".txt", "d_model=64 ") == 1);   /* the first, intact */
    CHECK(count(".txt", "d_model=128 ") == 30);
    CHECK(count(".svg", "</svg>") == 31);      /* every one complete */
    CHECK(count(".png", NULL) == 31);
    CHECK(count(".png", "IEND") == 31);        /* PNGs, each complete */
    CHECK(count(".png", "\x89PNG\r\n") == 31);
    clean();
}

/* A write that fails (a file-size limit): the message names the
 * directory and the error; no file and no temporary file is left. */
static void test_failure(void)
{
    struct app a;
    struct rlimit old, tiny;
    char want[600];
    app_init(&a);
    signal(SIGXFSZ, SIG_IGN);
    getrlimit(RLIMIT_FSIZE, &old);
    tiny = old;
    tiny.rlim_cur = 100;
    setrlimit(RLIMIT_FSIZE, &tiny);
    frame_export(&a, 80, 24);
    setrlimit(RLIMIT_FSIZE, &old);
    CHECK(a.msg_error == 1);
    snprintf(want, sizeof want, "export to %s failed: %s", dir,
             strerror(EFBIG));
    CHECK_STR(a.msg, want);
    CHECK(count("", NULL) == 0);
}

/* The attention view at n = 2^20, d = 65536, softmax takes tens of
 * seconds to finish: w saves the frame as drawn and leaves the work for
 * the loop's later slices. */
static void test_busy_view(void)
{
    struct app a;
    app_init(&a);
    a.rt = views_rt_new();              /* the work kept between frames */
    CHECK(a.rt != NULL);
    a.view = VIEW_ATTENTION;
    a.p.n = 1 << 20;
    a.p.d = 65536;
    a.att.o.softmax = 1;
    app_params_changed(&a);
    frame_export(&a, 80, 24);
    CHECK(strstr(a.msg, "wrote peviz-attention-") == a.msg);
    CHECK(strstr(a.msg, "still computing") != NULL);
    CHECK(app_view_busy(&a));                   /* the work is not done */
    CHECK(count(".txt", NULL) == 1 && count(".svg", NULL) == 1 &&
          count(".png", NULL) == 1);
    views_rt_free(a.rt);
    clean();
}

/* One frame of the loop (one slice of work) at 80x24: the percentage its
 * "computing" line shows, -1 when it shows none. */
static int frame_percent(struct app *a)
{
    canvas c;
    char row[4 * 80 + 1];
    int pct = -1;
    if (canvas_init(&c, 80, 24))
        return -1;
    frame_draw(a, &c);
    for (int y = 0; y < 24 && pct < 0; y++) {
        canvas_row_utf8(&c, y, row, sizeof row);
        const char *s = strstr(row, "computing");
        const char *p = s ? strchr(s, '%') : NULL;
        while (p && p > s && p[-1] >= '0' && p[-1] <= '9')
            p--;
        if (p && *p != '%')
            pct = atoi(p);
    }
    canvas_free(&c);
    return pct;
}

/* w while the attention view computes keeps the work done so far: the
 * next frame goes on from where the last one stopped, not from 0%. */
static void test_busy_keeps_work(void)
{
    struct app a;
    int before = -1, after;
    app_init(&a);
    a.rt = views_rt_new();
    CHECK(a.rt != NULL);
    a.view = VIEW_ATTENTION;
    a.p.n = 1 << 20;
    a.p.d = 8192;
    a.color = COLOR_256;        /* the screen's layout has half blocks */
    a.att.o.softmax = 1;
    app_params_changed(&a);
    for (int i = 0; i < 2000 && before < 5; i++)
        before = frame_percent(&a);
    CHECK(before >= 5 && before < 90);
    frame_export(&a, 80, 24);
    CHECK(strstr(a.msg, "still computing") != NULL);
    after = frame_percent(&a);
    if (after < before)
        fprintf(stderr, "  %d%% before w, %d%% after\n", before, after);
    CHECK(after >= before);
    views_rt_free(a.rt);
    clean();
}

int main(void)
{
    char cwd[4096];
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    CHECK(mkdtemp(dir) != NULL);
    CHECK(chdir(dir) == 0);
    test_no_overwrite();
    test_failure();
    test_busy_view();
    test_busy_keeps_work();
    clean();
    CHECK(chdir(cwd) == 0);
    rmdir(dir);
    TEST_END("export_frame");
}
