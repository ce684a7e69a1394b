/* SPDX-License-Identifier: ISC */
/*
 * sockfile.c - a listening Unix socket at a path, replacing nothing but
 * a stale socket and that without a window (see sockfile.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "sockfile.h"

#define TRIES 4                 /* the path changed under us: look again */

struct place {
    int dfd, pfd;               /* the path's directory, our private one */
    const char *path, *base;
    char priv[48];              /* the private directory's name */
    struct stat ours;           /* the socket we bound */
    struct stat stale[TRIES];   /* the sockets verified stale, one a try */
    int nstale;
    char *err;
    size_t errlen;
};

static int why(struct place *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int why(struct place *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, p->errlen, fmt, ap);
    va_end(ap);
    return -1;
}

static int same(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The directory of the path, opened, and the last name in it. */
static int open_dir(struct place *p)
{
    char d[sizeof ((struct sockaddr_un *)0)->sun_path];
    const char *slash = strrchr(p->path, '/');
    if (!slash)
        snprintf(d, sizeof d, ".");
    else if (slash == p->path)
        snprintf(d, sizeof d, "/");
    else
        snprintf(d, sizeof d, "%.*s", (int)(slash - p->path), p->path);
    p->base = slash ? slash + 1 : p->path;
    if (!*p->base || !strcmp(p->base, ".") || !strcmp(p->base, ".."))
        return why(p, "%s", "not a file name");
    p->dfd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    return p->dfd < 0 ? why(p, "%s", strerror(errno)) : 0;
}

/* A new directory only we can change, beside the path. */
static int private_dir(struct place *p)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    for (int k = 0; k < 100; k++) {
        snprintf(p->priv, sizeof p->priv, ".peviz-%ld-%ld", (long)getpid(),
                 (long)((t.tv_nsec + k * 7919L) % 1000000000L));
        if (mkdirat(p->dfd, p->priv, 0700) == 0) {
            p->pfd = openat(p->dfd, p->priv, O_RDONLY | O_DIRECTORY |
                            O_NOFOLLOW | O_CLOEXEC);
            return p->pfd < 0 ? why(p, "%s", strerror(errno)) : 0;
        }
        if (errno != EEXIST)
            return why(p, "cannot make a directory beside it: %s",
                       strerror(errno));
    }
    return why(p, "%s", "cannot make a directory beside it");
}

/* Bind fd as "s" in the private directory, by its descriptor (so that
 * no one can swap the directory), then give it mode. */
static int bind_private(struct place *p, int fd, unsigned mode)
{
    struct sockaddr_un sa;
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    snprintf(sa.sun_path, sizeof sa.sun_path, "/proc/self/fd/%d/s", p->pfd);
    mode_t old = umask(0177);   /* the owner only, from the first instant */
    int r = bind(fd, (struct sockaddr *)&sa, sizeof sa);
    if (r < 0 && errno == ENOENT &&     /* no /proc: by name, if it fits */
        snprintf(sa.sun_path, sizeof sa.sun_path, "%.*s%s/s",
                 (int)(p->base - p->path), p->path, p->priv) <
        (int)sizeof sa.sun_path)
        r = bind(fd, (struct sockaddr *)&sa, sizeof sa);
    umask(old);
    if (r < 0)
        return why(p, "%s", strerror(errno));
    if (fchmodat(p->pfd, "s", (mode_t)mode, 0) < 0 ||
        fstatat(p->pfd, "s", &p->ours, AT_SYMLINK_NOFOLLOW) < 0)
        return why(p, "%s", strerror(errno));
    return S_ISSOCK(p->ours.st_mode) ? 0 : why(p, "%s", "bind made no socket");
}

/* A socket at the path that nobody listens on, the same file before and
 * after asking: 1, with it in *st; 0 when the path changed meanwhile;
 * -1 (refused) when it is in use or not a socket. */
static int stale_at(struct place *p, struct stat *st)
{
    struct stat again;
    struct sockaddr_un sa;
    if (fstatat(p->dfd, p->base, st, AT_SYMLINK_NOFOLLOW) < 0)
        return errno == ENOENT ? 0 : why(p, "%s", strerror(errno));
    if (same(st, &p->ours))     /* ours, swapped in from elsewhere: our
                                   own connect could not tell it */
        return 0;
    if (S_ISDIR(st->st_mode))
        return why(p, "%s", "a directory; refusing to replace it");
    if (!S_ISSOCK(st->st_mode))
        return why(p, "%s", "exists and is not a socket; refusing to replace it");
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), e = 0;
    if (fd < 0)
        return why(p, "%s", strerror(errno));
    memset(&sa, 0, sizeof sa);
    sa.sun_family = AF_UNIX;
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", p->path);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0)
        e = errno;
    close(fd);
    if (fstatat(p->dfd, p->base, &again, AT_SYMLINK_NOFOLLOW) < 0 ||
        !same(st, &again))
        return 0;
    if (e != ECONNREFUSED)
        return why(p, "%s", "a socket in use (another teacher?); refusing "
                   "to replace it");
    return 1;
}

/* Exchange ours with the stale socket st at the path: 1 done, 0 the
 * path changed (put back as it was), -1 refused. */
static int replace_stale(struct place *p, const struct stat *st)
{
    struct stat out;
    if (renameat2(p->pfd, "s", p->dfd, p->base, RENAME_EXCHANGE) < 0) {
        if (errno == ENOENT)
            return 0;
        return why(p, "a stale socket this file system cannot replace "
                   "safely (%s): remove it and start again", strerror(errno));
    }
    if (fstatat(p->pfd, "s", &out, AT_SYMLINK_NOFOLLOW) == 0 && same(&out, st)) {
        unlinkat(p->pfd, "s", 0);   /* the verified stale socket */
        return 1;
    }
    /* something else had come in its place: give it its name back */
    if (renameat2(p->pfd, "s", p->dfd, p->base, RENAME_EXCHANGE) < 0)
        return why(p, "changed while starting; what came in is kept in %s",
                   p->priv);
    return 0;
}

/* Our socket at the path: linked when the path is free, exchanged with
 * a stale socket; 0, or -1 with why. */
static int place(struct place *p)
{
    for (int k = 0; k < TRIES; k++) {
        struct stat st;
        int r;
        if (linkat(p->pfd, "s", p->dfd, p->base, 0) == 0)
            return 0;
        if (errno != EEXIST)
            return why(p, "%s", strerror(errno));
        if ((r = stale_at(p, &st)) < 0)
            return -1;
        if (r > 0)
            p->stale[p->nstale++] = st;
        if (r > 0 && (r = replace_stale(p, &st)) != 0)
            return r > 0 ? 0 : -1;
    }
    return why(p, "%s", "keeps changing while starting; refusing to replace it");
}

/* Whether st is one of the sockets verified stale. */
static int was_stale(const struct place *p, const struct stat *st)
{
    for (int k = 0; k < p->nstale; k++)
        if (same(st, &p->stale[k]))
            return 1;
    return 0;
}

/* Remove our directory and what is left in it: our socket, or a stale
 * one verified (a swap back may bring any of them); nothing else. */
static void tidy(struct place *p)
{
    struct stat st;
    if (p->pfd >= 0) {
        if (fstatat(p->pfd, "s", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            (same(&st, &p->ours) || was_stale(p, &st)))
            unlinkat(p->pfd, "s", 0);
        close(p->pfd);
        unlinkat(p->dfd, p->priv, AT_REMOVEDIR);  /* only if empty */
    }
    if (p->dfd >= 0)
        close(p->dfd);
}

int sockfile_listen(const char *path, unsigned mode, int backlog,
                    struct sockfile *s, char *err, size_t errlen)
{
    struct place p = { .dfd = -1, .pfd = -1, .path = path, .base = path,
                       .err = err, .errlen = errlen };
    err[0] = 0;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return why(&p, "%s", strerror(errno));
    int r = open_dir(&p) || private_dir(&p) || bind_private(&p, fd, mode) ||
            listen(fd, backlog) < 0 || place(&p) ? -1 : 0;
    if (r == 0) {
        s->fd = fd;
        s->dev = p.ours.st_dev;
        s->ino = p.ours.st_ino;
    } else {
        if (!err[0])
            why(&p, "%s", strerror(errno));
        close(fd);
    }
    tidy(&p);
    return r;
}

/* What was moved to our directory as "s" put back at the path, never
 * over a file that came there meanwhile: 0, or -1. */
static int put_back(struct place *p)
{
    if (renameat2(p->pfd, "s", p->dfd, p->base, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
    if (linkat(p->pfd, "s", p->dfd, p->base, 0) < 0)  /* no RENAME_NOREPLACE */
        return -1;
    unlinkat(p->pfd, "s", 0);
    return 0;
}

int sockfile_remove(const char *path, dev_t dev, ino_t ino, char *err,
                    size_t errlen)
{
    struct place p = { .dfd = -1, .pfd = -1, .path = path, .base = path,
                       .err = err, .errlen = errlen };
    struct stat st;
    int r = 0;
    err[0] = 0;
    p.ours.st_dev = dev;
    p.ours.st_ino = ino;
    if (open_dir(&p) || private_dir(&p)) {
        tidy(&p);
        return -1;
    }
    /* whatever is at the path now, moved out in one step: ours goes
     * (tidy removes it), anything else is given its name back */
    if (renameat(p.dfd, p.base, p.pfd, "s") < 0) {
        if (errno != ENOENT)
            r = why(&p, "%s", strerror(errno));
    } else if (fstatat(p.pfd, "s", &st, AT_SYMLINK_NOFOLLOW) != 0 ||
               !same(&st, &p.ours)) {
        if (put_back(&p))
            r = why(&p, "another file came in its place while ending; "
                    "the one that was there is kept in %s", p.priv);
    }
    tidy(&p);
    return r;
}
