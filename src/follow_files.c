/* SPDX-License-Identifier: ISC */
/*
 * follow_files.c - the teacher's files as a follower reads them: from
 * --files DIR only, by base name, regular files only, a table in a
 * thread of its own so that the loop never waits for it (see
 * follow_files.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "follow_files.h"
#include "follow_proto.h"

/* One table being read. */
struct job {
    pthread_t th;
    int fd;                     /* the file, opened by the loop */
    struct fp_table t;          /* what the teacher named */
    volatile int cancel;
    int done;                   /* set (atomically) once the read ended */
    int rc;
    struct pe_table tab;
    struct pe_table_info info;
    char err[256];
    int wake;                   /* written once the read ended */
};

struct ffiles {
    int dfd;                    /* the directory */
    char dir[256];              /* its name, for messages */
    int wake[2];                /* a pipe: a job ended */
    struct job *run;            /* the read under way, or NULL */
    struct fp_table want;       /* the table to read next */
    int wanted;
};

struct ffiles *ffiles_open(const char *dir, char *err, size_t errlen)
{
    struct ffiles *ff = calloc(1, sizeof *ff);
    if (!ff) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    ff->dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (ff->dfd < 0) {
        snprintf(err, errlen, "--files: %s: %s", dir, errno == ENOTDIR
                 ? "not a directory" : strerror(errno));
        free(ff);
        return NULL;
    }
    if (pipe2(ff->wake, O_CLOEXEC | O_NONBLOCK) < 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        close(ff->dfd);
        free(ff);
        return NULL;
    }
    size_t j = 0;               /* for messages: no control characters */
    for (const unsigned char *s = (const unsigned char *)dir;
         *s && j + 1 < sizeof ff->dir; s++)
        ff->dir[j++] = *s < 0x20 || *s >= 0x7f ? '?' : (char)*s;
    return ff;
}

static void job_end(struct job *j)
{
    pthread_join(j->th, NULL);
    close(j->fd);
    pe_table_free(&j->tab);
    free(j);
}

void ffiles_close(struct ffiles *ff)
{
    if (!ff)
        return;
    if (ff->run) {              /* stops within one read of 64 KiB */
        ff->run->cancel = 1;
        job_end(ff->run);
    }
    close(ff->wake[0]);
    close(ff->wake[1]);
    close(ff->dfd);
    free(ff);
}

int ffiles_plain(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 255 || name[0] == '.')
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

int ffiles_openat(const struct ffiles *ff, const char *name, char *why,
                  size_t len)
{
    struct stat st;
    if (!ffiles_plain(name)) {
        snprintf(why, len, "%.100s: not a plain file name; only files in --files "
                 "are read", name);
        return -1;
    }
    /* looked at before it is opened, so that no device is ever opened;
     * then no symlink followed, no wait for a FIFO's writer, no terminal
     * taken, and it must be the same regular file */
    struct stat first;
    if (fstatat(ff->dfd, name, &first, AT_SYMLINK_NOFOLLOW) < 0) {
        snprintf(why, len, "%.100s/%.100s: %s", ff->dir, name, strerror(errno));
        return -1;
    }
    if (!S_ISREG(first.st_mode)) {
        snprintf(why, len, "%.100s/%.100s: %s", ff->dir, name,
                 S_ISLNK(first.st_mode) ? "a symlink; only regular files are "
                 "read" : "not a regular file");
        return -1;
    }
    int fd = openat(ff->dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
                    O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, len, "%.100s/%.100s: %s", ff->dir, name, errno == ELOOP
                 ? "a symlink; only regular files are read" : strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
        st.st_dev != first.st_dev || st.st_ino != first.st_ino) {
        snprintf(why, len, "%.100s/%.100s: not a regular file", ff->dir, name);
        close(fd);
        return -1;
    }
    return fd;
}

int ffiles_path(const struct ffiles *ff, const char *name, char *path,
                size_t pathlen, char *why, size_t whylen)
{
    int fd = ffiles_openat(ff, name, why, whylen);
    if (fd < 0)
        return -1;
    close(fd);
    snprintf(path, pathlen, "/proc/self/fd/%d/%s", ff->dfd, name);
    return 0;
}

static void *reader(void *arg)
{
    struct job *j = arg;
    struct pe_table_opts o;
    pe_table_opts_init(&o);
    o.tensor = j->t.tensor[0] ? j->t.tensor : NULL;
    o.row_offset = j->t.row_offset;
    o.cancel = &j->cancel;
    j->rc = tables_load_fd(j->fd, j->t.path, &o, &j->tab, &j->info, j->err,
                           sizeof j->err);
    if (j->rc == 0 && !j->cancel) {
        char h[65];
        fp_table_digest(&j->tab, h);
        if (strcmp(h, j->t.sha256)) {
            snprintf(j->err, sizeof j->err, "%.180s: not the teacher's (its "
                     "content hash differs)", j->t.path);
            j->rc = -1;
        }
    }
    __atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
    ssize_t w = write(j->wake, "x", 1); /* a full pipe: awake already */
    (void)w;
    return NULL;
}

static int launch(struct ffiles *ff, const struct fp_table *t, char *why,
                  size_t len)
{
    struct job *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    if ((j->fd = ffiles_openat(ff, t->path, why, len)) < 0) {
        free(j);
        return -1;
    }
    j->t = *t;
    j->wake = ff->wake[1];
    if (pthread_create(&j->th, NULL, reader, j)) {
        snprintf(why, len, "cannot start a thread");
        close(j->fd);
        free(j);
        return -1;
    }
    ff->run = j;
    return 0;
}

int ffiles_table_start(struct ffiles *ff, const struct fp_table *t,
                       char *why, size_t len)
{
    if (!ffiles_plain(t->path)) {
        snprintf(why, len, "%.100s: not a plain file name; only files in "
                 "--files are read", t->path);
        return -1;
    }
    if (!t->sha256[0]) {
        snprintf(why, len, "%.100s: the teacher sent no content hash", t->path);
        return -1;
    }
    if (!ff->run)
        return launch(ff, t, why, len);
    ff->run->cancel = 1;        /* the newer one once this one stopped */
    ff->want = *t;
    ff->wanted = 1;
    return 0;
}

void ffiles_table_cancel(struct ffiles *ff)
{
    if (ff->run)
        ff->run->cancel = 1;
    ff->wanted = 0;
}

int ffiles_wake_fd(const struct ffiles *ff)
{
    return ff && ff->run ? ff->wake[0] : -1;
}

int ffiles_table_take(struct ffiles *ff, struct pe_table *tab,
                      struct pe_table_info *info, char *why, size_t len)
{
    char b[16];
    while (read(ff->wake[0], b, sizeof b) > 0)
        ;
    struct job *j = ff->run;
    int r = 0;
    if (!j || !__atomic_load_n(&j->done, __ATOMIC_ACQUIRE))
        return 0;               /* still reading */
    ff->run = NULL;
    if (!j->cancel && j->rc == 0) {
        *tab = j->tab;
        *info = j->info;
        snprintf(info->file, sizeof info->file, "%s", j->t.path);
        j->tab.v = NULL;
        r = 1;
    } else if (!j->cancel) {
        snprintf(why, len, "%s", j->err);
        r = -1;
    }
    job_end(j);
    if (ff->wanted) {
        ff->wanted = 0;
        if (launch(ff, &ff->want, why, len))
            r = -1;
    }
    return r;
}
