/* SPDX-License-Identifier: ISC */
/*
 * follow.c - follow mode's sockets set up, closed and driven by the
 * loop's poll(): the teacher's server is follow_teacher.c, a follower's
 * client follow_student.c (follow_impl.h holds what they share).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "errline.h"
#include "follow_impl.h"
#include "sockfile.h"
#include "tour.h"

const struct keybind KEYS_FOLLOW[] = {
    { 'F', ACT_NONE, "F", "follower: explore on your own / rejoin; teacher: who follows", NULL },
    { 0, ACT_NONE, NULL, NULL, NULL }
};

/* ---- setting up --------------------------------------------------------- */

static struct follow *follow_new(const char *path, int serving)
{
    struct follow *f;
    if (strlen(path) >= sizeof f->path) {
        errline("%s: %s: socket path longer than %zu bytes",
                  serving ? "--serve" : "--follow", path, sizeof f->path - 1);
        return NULL;
    }
    if (!(f = calloc(1, sizeof *f))) {
        errline("out of memory");
        return NULL;
    }
    f->serving = serving;
    f->lfd = f->fd = -1;
    snprintf(f->path, sizeof f->path, "%s", path);
    /* shown by its base name: status lines keep room for the lecture */
    const char *base = strrchr(path, '/');
    base = base && base[1] ? base + 1 : path;
    size_t j = 0;
    for (const unsigned char *s = (const unsigned char *)base;
         *s && j + 4 < sizeof f->shown; s++)
        f->shown[j++] = *s < 0x20 || *s == 0x7f || *s >= 0x80 ? '?' : (char)*s;
    if (strlen(base) >= sizeof f->shown - 4)
        memcpy(f->shown + j, "...", 4);
    fp_reader_init(&f->rd);
    return f;
}

struct follow *follow_serve(const char *path, unsigned mode)
{
    struct follow *f = follow_new(path, 1);
    if (!f)
        return NULL;
    f->clients = calloc(FOLLOW_MAX_CLIENTS, sizeof *f->clients);
    if (!f->clients) {
        errline("out of memory");
        free(f);
        return NULL;
    }
    for (int i = 0; i < FOLLOW_MAX_CLIENTS; i++)
        f->clients[i].fd = -1;
    struct sockfile sf;
    char err[256];
    if (sockfile_listen(path, mode, 64, &sf, err, sizeof err)) {
        errline("--serve: %s: %s", f->shown, err);
        free(f->clients);
        free(f);
        return NULL;
    }
    f->lfd = sf.fd;
    f->dev = sf.dev;
    f->ino = sf.ino;
    return f;
}

struct follow *follow_join(const char *path, const char *files)
{
    char err[512];
    struct follow *f = follow_new(path, 0);
    if (f && files && !(f->files = ffiles_open(files, err, sizeof err))) {
        errline("%s", err);
        free(f);
        return NULL;
    }
    return f;
}

void follow_close(struct follow *f)
{
    if (!f)
        return;
    if (f->serving) {
        teacher_close(f);
    } else if (f->fd >= 0) {
        close(f->fd);
    }
    ffiles_close(f->files);
    pe_table_free(&f->tab);
    free(f);
}

int follow_key(struct follow *f, struct app *a, int key)
{
    if (f && f->serving && key == 'F' && !a->prompt_open && !a->help) {
        teacher_list(f, a);
        return 1;
    }
    if (!f || f->serving)
        return 0;
    return student_key(f, a, key);
}

/* ---- the loop's side ---------------------------------------------------- */

int follow_pollfds(const struct follow *f, struct pollfd *p)
{
    int n = 0;
    if (!f)
        return 0;
    if (!f->serving) {
        int wake = ffiles_wake_fd(f->files);
        if (f->fd >= 0)
            p[n++] = (struct pollfd){ f->fd, POLLIN, 0 };
        if (wake >= 0)              /* a table read in the background */
            p[n++] = (struct pollfd){ wake, POLLIN, 0 };
        return n;
    }
    /* the listening socket, or a stand-in while accepting is paused */
    p[n++] = (struct pollfd){ now_s() >= f->accept_at ? f->lfd : -1, POLLIN, 0 };
    for (int i = 0; i < FOLLOW_MAX_CLIENTS; i++) {
        const struct client *c = &f->clients[i];
        if (c->fd >= 0)
            p[n++] = (struct pollfd){ c->fd,
                                      (short)(POLLIN | (c->out_len ? POLLOUT : 0)), 0 };
    }
    return n;
}

int follow_wait_ms(const struct follow *f)
{
    if (!f)
        return -1;
    if (f->serving)
        return teacher_wait_ms(f);
    if (f->fd < 0)
        return ms_until(f->retry_at);
    return f->deadline > 0 ? ms_until(f->deadline) : -1;
}

int follow_events(struct follow *f, struct app *a, const struct pollfd *p,
                  int n)
{
    if (!f)
        return 0;
    if (f->serving) {
        teacher_events(f, p, n);
        return follow_clients(f) != f->counted;     /* the status line */
    }
    return student_events(f, a, p, n);
}

void follow_status(struct follow *f, struct app *a)
{
    const char *dot = a->ascii ? "-" : "\xc2\xb7";
    if (!f) {
        a->follow_status[0] = a->follow_short[0] = 0;
    } else if (f->serving) {
        f->counted = follow_clients(f);
        snprintf(a->follow_status, sizeof a->follow_status,
                 "serving %.48s %s %d following", f->shown, dot, f->counted);
        snprintf(a->follow_short, sizeof a->follow_short, "%d following",
                 f->counted);
    } else {
        const char *st = f->detached ? "on your own, F: follow"
                         : f->fd >= 0 && f->ever ? "following" : "waiting for";
        snprintf(a->follow_status, sizeof a->follow_status, "%s %.48s", st,
                 f->shown);
        snprintf(a->follow_short, sizeof a->follow_short, "%s",
                 f->detached ? "on your own" : f->fd >= 0 && f->ever
                 ? "following" : "waiting");
    }
}
