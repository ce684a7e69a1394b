/* SPDX-License-Identifier: ISC */
/*
 * plain_line.c - frames as printed lines, keys from standard input
 * (plain_line.h).
 */
#include "plain_line.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "app.h"
#include "canvas.h"
#include "frame.h"
#include "keys.h"
#include "text.h"
#include "tour.h"

#define LINE_MAX_COLS 1000

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
    (void)sig;
    stop = 1;
}

int plain_line_wanted(void)
{
    const char *t = getenv("TERM");

    return t && strcmp(t, "dumb") == 0;
}

/* COLUMNS or LINES when it holds a size, else fallback. */
static int env_size(const char *name, int fallback, int max)
{
    const char *s = getenv(name);
    char *end;
    long v = s ? strtol(s, &end, 10) : 0;

    return s && *s && !*end && v >= 1 && v <= max ? (int)v : fallback;
}

/* The frame as text: its rows, blanks trimmed, empty rows left out. */
static void frame_text(const canvas *c, int utf8, char *buf, size_t len)
{
    size_t n = 0;
    char row[LINE_MAX_COLS * 4 + 1];

    buf[0] = 0;
    for (int y = 0; y < c->h; y++) {
        canvas_row_utf8(c, y, row, sizeof row);
        text_scrub(row, utf8);
        size_t r = strlen(row);
        while (r && row[r - 1] == ' ')
            row[--r] = 0;
        if (r && n + r + 2 < len) {
            memcpy(buf + n, row, r);
            n += r;
            buf[n++] = '\n';
            buf[n] = 0;
        }
    }
}

/* The first key of the n bytes at b into *key: an arrow's escape, a
 * control, a byte.  Returns the bytes it took. */
static int decode(const unsigned char *b, ssize_t n, int *key)
{
    static const int ARROW[4] = { PK_UP, PK_DOWN, PK_RIGHT, PK_LEFT };

    if (n >= 3 && b[0] == 0x1b && (b[1] == '[' || b[1] == 'O') &&
        b[2] >= 'A' && b[2] <= 'D') {
        *key = ARROW[b[2] - 'A'];
        return 3;
    }
    *key = b[0] == 0x1b ? PK_ESC
         : b[0] == '\r' || b[0] == '\n' ? PK_ENTER
         : b[0] == 0x7f || b[0] == 0x08 ? PK_BACKSPACE
         : b[0] == '\t' ? PK_TAB : b[0];
    return 1;
}

static void show(struct app *a, canvas *cv, char *last, char *now, size_t len)
{
    canvas_clear(cv);
    frame_draw_finished(a, cv);
    frame_text(cv, !a->ascii, now, len);
    if (strcmp(now, last) == 0)
        return;
    if (last[0])
        fputc('\n', stdout);
    fputs(now, stdout);
    fflush(stdout);
    memcpy(last, now, strlen(now) + 1);
}

static void loop(struct app *a, canvas *cv, char *last, char *now, size_t len)
{
    unsigned char b[16];

    show(a, cv, last, now, len);
    while (!a->quit && !stop) {
        ssize_t n = read(STDIN_FILENO, b, sizeof b);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        for (ssize_t i = 0; i < n && !a->quit; ) {
            int key;
            i += decode(b + i, n - i, &key);
            tour_offer_key(a, key);
            show(a, cv, last, now, len);
        }
    }
}

int plain_line_run(struct app *a)
{
    struct termios saved, raw;
    int tty = tcgetattr(STDIN_FILENO, &saved) == 0;
    size_t len = (size_t)LINE_MAX_COLS * 4 * 1000 + 1;
    char *last = calloc(1, len), *now = calloc(1, len);
    canvas cv;

    a->plain_mode = 1;
    a->screen_w = env_size("COLUMNS", 80, LINE_MAX_COLS);
    a->screen_h = env_size("LINES", 24, 1000);
    if (!last || !now || canvas_init(&cv, a->screen_w, a->screen_h)) {
        free(last);
        free(now);
        fputs("peviz: out of memory\n", stderr);
        return 2;
    }
    struct sigaction sa;        /* no SA_RESTART: a signal ends the read */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    if (tty) {
        raw = saved;
        raw.c_lflag &= (tcflag_t) ~(ICANON | ECHO);
        raw.c_cc[VMIN] = 1;
        raw.c_cc[VTIME] = 0;
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw);
    }
    loop(a, &cv, last, now, len);
    if (tty)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    canvas_free(&cv);
    free(last);
    free(now);
    return 0;
}
