/* SPDX-License-Identifier: ISC */
/*
 * slides.c - write a tour as slides: SVG and text per step, index.html.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frame.h"
#include "slides.h"
#include "snapshot.h"
#include "text.h"
#include "tour.h"

#define PATH_LEN 4096

/* What one file holds: written by fn into f. */
typedef int (*writer)(FILE *f, const void *arg);

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* dir itself, created if missing; a file in its place is an error. */
static int make_dir(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (mkdir(dir, 0777) == 0)
        return 0;
    if (errno != EEXIST)
        return fail(err, errlen, "%s: cannot create the directory: %s", dir,
                    strerror(errno));
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return fail(err, errlen, "%s: exists and is not a directory", dir);
    return 0;
}

/*
 * The temporary file being written, for the signals that end the
 * program (INT, TERM, HUP, QUIT): their handler removes it and then
 * ends the program as the signal would.  pending_set changes only
 * while those signals are blocked, so the name is whole when it is set.
 */
static const int END_SIGNALS[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define N_END_SIGNALS (int)(sizeof END_SIGNALS / sizeof END_SIGNALS[0])
static char pending[PATH_LEN];
static volatile sig_atomic_t pending_set;
static struct sigaction saved_actions[N_END_SIGNALS];

static void slides_on_signal(int sig)
{
    if (pending_set)
        unlink(pending);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void slides_signals(int install)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = slides_on_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < N_END_SIGNALS; i++)
        sigaddset(&sa.sa_mask, END_SIGNALS[i]);
    for (int i = 0; i < N_END_SIGNALS; i++) {
        if (!install) {
            sigaction(END_SIGNALS[i], &saved_actions[i], NULL);
            continue;
        }
        sigaction(END_SIGNALS[i], NULL, &saved_actions[i]);
        if (saved_actions[i].sa_handler != SIG_IGN)
            sigaction(END_SIGNALS[i], &sa, NULL);
    }
}

/* Block (1) or unblock (0) the signals that end the program. */
static void slides_block(int block, sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < N_END_SIGNALS; i++)
        sigaddset(&set, END_SIGNALS[i]);
    sigprocmask(block ? SIG_BLOCK : SIG_SETMASK, block ? &set : old,
                block ? old : NULL);
}

/* The temporary file tmp made (mkstemp) and marked pending at once. */
static int slides_temp(char *tmp)
{
    sigset_t old;
    slides_block(1, &old);
    int fd = mkstemp(tmp);
    if (fd >= 0) {
        memcpy(pending, tmp, strlen(tmp) + 1);
        pending_set = 1;
    }
    int e = errno;
    slides_block(0, &old);
    errno = e;
    return fd;
}

/* tmp renamed to path (or removed), and no longer pending; 0 or errno. */
static int slides_publish(const char *tmp, const char *path, int bad)
{
    sigset_t old;
    slides_block(1, &old);
    int e = bad || rename(tmp, path) == 0 ? 0 : errno;
    if (bad || e)
        unlink(tmp);
    pending_set = 0;
    slides_block(0, &old);
    return e;
}

/* The mode of a new file under the umask, as open(2) gives one. */
static mode_t slides_file_mode(void)
{
    mode_t um = umask(022);
    umask(um);
    return 0666 & ~um;
}

/*
 * dir/name written by fn: into a temporary file in dir, flushed to disk,
 * then renamed over name, so dir/name is always a whole file.  The
 * temporary file is removed on any failure and by a signal that ends
 * the program.
 */
static int write_atomic(const char *dir, const char *name, writer fn,
                        const void *arg, char *err, size_t errlen)
{
    char tmp[PATH_LEN], path[PATH_LEN];
    if (snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", dir, name) >=
            (int)sizeof tmp ||
        snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
        return fail(err, errlen, "%s: path too long", dir);
    int fd = slides_temp(tmp);
    if (fd < 0)
        return fail(err, errlen, "%s: cannot write in it: %s", dir,
                    strerror(errno));
    fchmod(fd, slides_file_mode());
    FILE *f = fdopen(fd, "w");
    int bad = !f || fn(f, arg) != 0 || fflush(f) != 0 || ferror(f) ||
              fsync(fileno(f)) != 0;
    int saved = errno;
    if (f ? fclose(f) != 0 : close(fd) != 0)
        bad = 1;
    int e = slides_publish(tmp, path, bad);
    if (!bad && !e)
        return 0;
    saved = bad ? saved : e;
    return fail(err, errlen, "%s: cannot write: %s", path,
                strerror(saved ? saved : EIO));
}

/* ---- one step ---------------------------------------------------------- */

struct step_out {
    const canvas *c;
    int ascii;
    enum color_mode mode;
    const struct tour_step *s;
    int num, total;
};

static int put_svg(FILE *f, const void *arg)
{
    const struct step_out *o = arg;
    return snapshot_write(f, o->c, SNAP_SVG, o->ascii, o->mode);
}

/* The screen as text, then the whole caption: the panel may have had to
 * cut it short. */
static int put_text(FILE *f, const void *arg)
{
    const struct step_out *o = arg;
    if (snapshot_write(f, o->c, SNAP_TEXT, o->ascii, COLOR_NONE))
        return -1;
    fprintf(f, "\n%d/%d %s\n\n%s\n", o->num, o->total, o->s->title,
            o->s->text);
    return ferror(f) ? -1 : 0;
}

/* Draw step i of a's tour at w x h in colour mode into c. */
static void draw_step(struct app *a, int i, canvas *c, enum color_mode mode)
{
    a->tour_step = i;
    a->tour_active = 1;
    tour_apply(a, a->tour, i);
    a->still = 1;                       /* after the step's reset */
    a->color = mode;
    a->screen_w = c->w;
    a->screen_h = c->h;
    canvas_clear(c);
    frame_draw_finished(a, c);
}

static int write_step(struct app *a, const char *dir, int i, canvas *c,
                      enum color_mode svg_mode, char *err, size_t errlen)
{
    char name[32];
    struct step_out o = { c, a->ascii, svg_mode, &a->tour->steps[i], i + 1,
                          a->tour->nsteps };
    draw_step(a, i, c, svg_mode);
    snprintf(name, sizeof name, "step-%02d.svg", i + 1);
    if (write_atomic(dir, name, put_svg, &o, err, errlen))
        return -1;
    draw_step(a, i, c, COLOR_NONE);     /* text: the layout without colour */
    snprintf(name, sizeof name, "step-%02d.txt", i + 1);
    return write_atomic(dir, name, put_text, &o, err, errlen);
}

/* ---- index.html -------------------------------------------------------- */

static void html_escaped(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        switch (s[i]) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(s[i], f);
        }
    }
}

/* The caption: each line of the step's text a paragraph. */
static void html_caption(FILE *f, const char *text)
{
    while (*text) {
        const char *nl = strchr(text, '\n');
        size_t n = nl ? (size_t)(nl - text) : strlen(text);
        if (n > 0) {
            fputs("<p>", f);
            html_escaped(f, text, n);
            fputs("</p>\n", f);
        }
        text += n + (nl != NULL);
    }
}

static const char HTML_HEAD[] =
    "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<title>%s</title>\n<style>\n"
    "body { margin: 0; background: #1e1e1e; color: #d0d0d0;"
    " font-family: sans-serif; }\n"
    "section { padding: 1em 2em; }\n"
    "html.js section { display: none; }\n"
    "html.js section.on { display: block; }\n"
    "h1 { font-size: 1.3em; margin: 0 0 .5em; }\n"
    "img { display: block; width: 100%%; max-height: 75vh;"
    " object-fit: contain; }\n"
    "p { max-width: 60em; line-height: 1.4; margin: .4em 0; }\n"
    "nav { margin-top: 1em; color: #888; }\n"
    "a { color: #8cf; }\n"
    "</style>\n</head>\n<body>\n";

/* Arrow keys, Page Up/Down, Space, Home and End page; #sN is the step
 * shown, and the page follows it (hashchange): the previous and next
 * links, the browser's Back and Forward, a reload and a link from
 * elsewhere all show their step.  Inline: nothing is fetched. */
static const char HTML_SCRIPT[] =
    "<script>\n"
    "(function () {\n"
    "  var s = document.getElementsByTagName('section'), at = 0;\n"
    "  document.documentElement.className = 'js';\n"
    "  function shown() {\n"
    "    var m = /^#s(\\d+)$/.exec(location.hash);\n"
    "    var i = m ? Math.min(Math.max(+m[1], 1), s.length) - 1 : 0;\n"
    "    s[at].className = ''; at = i; s[at].className = 'on';\n"
    "  }\n"
    "  function go(i) {\n"
    "    if (i >= 0 && i < s.length && i !== at)\n"
    "      location.hash = '#s' + (i + 1);\n"
    "  }\n"
    "  window.addEventListener('hashchange', shown);\n"
    "  document.addEventListener('keydown', function (e) {\n"
    "    var k = e.key;\n"
    "    if (e.altKey || e.ctrlKey || e.metaKey) return;\n"
    "    if (k === 'ArrowRight' || k === 'PageDown' || k === ' ') go(at + 1);\n"
    "    else if (k === 'ArrowLeft' || k === 'PageUp') go(at - 1);\n"
    "    else if (k === 'Home') go(0);\n"
    "    else if (k === 'End') go(s.length - 1);\n"
    "    else return;\n"
    "    e.preventDefault();\n"
    "  });\n"
    "  shown();\n"
    "})();\n"
    "</script>\n";

struct index_out {
    const struct tour *t;
};

/* A word of the page in the tour's language. */
static const char *say(const struct tour *t, const char *en)
{
    return t->zh ? text_zh(en) : en;
}

/* Step i's links: previous, next, its text file, and the keys that page. */
static void put_nav(FILE *f, const struct tour *t, int i)
{
    fprintf(f, "<nav>%d/%d", i + 1, t->nsteps);
    if (i > 0)
        fprintf(f, " \xc2\xb7 <a href=\"#s%d\">%s</a>", i, say(t, "previous"));
    if (i + 1 < t->nsteps)
        fprintf(f, " \xc2\xb7 <a href=\"#s%d\">%s</a>", i + 2, say(t, "next"));
    fprintf(f, " \xc2\xb7 <a href=\"step-%02d.txt\">%s</a> \xc2\xb7 %s</nav>\n",
            i + 1, say(t, "as text"),
            say(t, "\xe2\x86\x90 \xe2\x86\x92 page"));
}

static int put_index(FILE *f, const void *arg)
{
    const struct tour *t = ((const struct index_out *)arg)->t;
    fprintf(f, HTML_HEAD, t->zh ? "zh" : "en", say(t, "peviz tour"));
    for (int i = 0; i < t->nsteps; i++) {
        const struct tour_step *s = &t->steps[i];
        fprintf(f, "<section id=\"s%d\">\n<h1>%d/%d ", i + 1, i + 1,
                t->nsteps);
        html_escaped(f, s->title, strlen(s->title));
        fprintf(f, "</h1>\n<img src=\"step-%02d.svg\" alt=\"", i + 1);
        html_escaped(f, s->title, strlen(s->title));
        fputs("\">\n", f);
        html_caption(f, s->text);
        put_nav(f, t, i);
        fputs("</section>\n", f);
    }
    fputs(HTML_SCRIPT, f);
    fputs("</body>\n</html>\n", f);
    return ferror(f) ? -1 : 0;
}

int slides_write(struct app *a, const char *dir, int w, int h,
                 enum color_mode svg_mode, char *err, size_t errlen)
{
    canvas c;
    if (!a->tour || a->tour->nsteps < 1)
        return fail(err, errlen, "--slides: no tour loaded");
    if (make_dir(dir, err, errlen))
        return -1;
    if (canvas_init(&c, w, h))
        return fail(err, errlen, "--slides: out of memory");
    int r = 0;
    slides_signals(1);
    for (int i = 0; i < a->tour->nsteps && r == 0; i++)
        r = write_step(a, dir, i, &c, svg_mode, err, errlen);
    canvas_free(&c);
    struct index_out o = { a->tour };
    if (r == 0)
        r = write_atomic(dir, "index.html", put_index, &o, err, errlen);
    slides_signals(0);
    return r ? -1 : a->tour->nsteps;
}
