/* SPDX-License-Identifier: ISC */
/*
 * record.c - write the frames shown as an asciicast v3 file (record.h).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record.h"
#include "snapshot.h"

static struct {
    char *path;             /* named by record_open, made by record_start */
    int fd;                 /* -1 until record_start */
    off_t whole;            /* bytes of whole events written */
    int w, h;               /* size of the last frame (0: none yet) */
    char *last;             /* the last frame's bytes */
    size_t last_len;
    double t_last;          /* when the last event was written */
    int failed;             /* errno of the first write error, or 0 */
    int told;               /* record_lost has said so */
} rec = { .fd = -1 };

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The directory path is in ("." for a bare name) into buf. */
static const char *record_dir(const char *path, char *buf, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return ".";
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), path);
    return buf;
}

/* What a path that is there but not a file is ("a character device",
 * for /dev/full), or NULL for a file or a symbolic link. */
static const char *record_kind(mode_t m)
{
    return S_ISREG(m) || S_ISLNK(m) ? NULL
         : S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO (pipe)"
         : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

int record_open(const char *path, char *err, size_t errlen)
{
    struct stat st;
    char dir[4096];
    int e = lstat(path, &st) == 0 ? EEXIST : errno;
    if (e == ENOENT && access(record_dir(path, dir, sizeof dir), W_OK | X_OK))
        e = errno;
    else if (e == ENOENT)
        e = 0;
    if (e == EEXIST && record_kind(st.st_mode)) {
        snprintf(err, errlen, "--record: %s: %s; name a new file (a "
                 "recording is a file of its own)", path,
                 record_kind(st.st_mode));
        return -1;
    }
    if (e) {
        snprintf(err, errlen, "--record: %s: %s", path, e == EEXIST
                 ? "exists; name a new file (a recording never replaces one)"
                 : strerror(e));
        return -1;
    }
    free(rec.path);
    free(rec.last);
    memset(&rec, 0, sizeof rec);
    rec.fd = -1;
    rec.path = strdup(path);
    if (!rec.path) {
        snprintf(err, errlen, "--record: %s: out of memory", path);
        return -1;
    }
    return 0;
}

int record_start(char *err, size_t errlen)
{
    if (!rec.path || rec.fd >= 0)
        return 0;
    rec.fd = open(rec.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (rec.fd >= 0)
        return 0;
    snprintf(err, errlen, "--record: %s: %s", rec.path, errno == EEXIST
             ? "exists; name a new file (a recording never replaces one)"
             : strerror(errno));
    free(rec.path);
    rec.path = NULL;
    return -1;
}

int record_active(void)
{
    return rec.fd >= 0 && !rec.failed;
}

int record_lost(char *msg, size_t len)
{
    if (!rec.failed || rec.told)
        return 0;
    rec.told = 1;
    snprintf(msg, len, "--record stopped: %s; the file keeps what came "
             "before, whole (%s)", strerror(rec.failed), rec.path);
    return 1;
}

/* The line in buf written whole, or the file cut back to the events
 * before it and the recording stopped. */
static void record_emit(const char *buf, size_t n)
{
    size_t done = 0;
    while (done < n) {
        ssize_t k = write(rec.fd, buf + done, n - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            rec.failed = k < 0 && errno ? errno : EIO;
            int cut = ftruncate(rec.fd, rec.whole);
            (void)cut;          /* the error said is the write's */
            return;
        }
        done += (size_t)k;
    }
    rec.whole += (off_t)n;
}

/* s[0 .. n) as the inside of a JSON string. */
static void json_put(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", f);
        else if (ch == '\r')
            fputs("\\r", f);
        else if (ch < 0x20 || ch == 0x7f)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
}

/* One event: the interval since the last one, its code and data. */
static void event(char code, const char *data, size_t n)
{
    char *line = NULL;
    size_t len = 0;
    double t = now_s();
    FILE *m = open_memstream(&line, &len);
    if (!m) {
        rec.failed = ENOMEM;
        return;
    }
    fprintf(m, "[%.3f, \"%c\", \"", rec.t_last > 0 ? t - rec.t_last : 0.0,
            code);
    json_put(m, data, n);
    fputs("\"]\n", m);
    if (fclose(m) != 0)
        rec.failed = ENOMEM;
    else
        record_emit(line, len);
    free(line);
    rec.t_last = t;
}

static void header(int w, int h)
{
    char *line = NULL;
    size_t len = 0;
    const char *term = getenv("TERM");
    FILE *m = open_memstream(&line, &len);
    if (!m) {
        rec.failed = ENOMEM;
        return;
    }
    fprintf(m, "{\"version\": 3, \"term\": {\"cols\": %d, \"rows\": %d",
            w, h);
    if (term && *term) {
        fputs(", \"type\": \"", m);
        json_put(m, term, strlen(term));
        fputc('"', m);
    }
    fprintf(m, "}, \"timestamp\": %lld, \"title\": \"peviz\"}\n",
            (long long)time(NULL));
    if (fclose(m) != 0)
        rec.failed = ENOMEM;
    else
        record_emit(line, len);
    free(line);
    rec.t_last = now_s();
}

/*
 * The bytes that paint c over the whole screen: home, each row with its
 * colours, the rest of the row cleared, rows joined by CR LF (the last
 * without, so nothing scrolls).
 */
static char *paint(const canvas *c, int ascii, enum color_mode mode,
                   size_t *len)
{
    char *body = NULL, *out = NULL;
    size_t blen = 0, olen = 0;
    FILE *m = open_memstream(&body, &blen);
    if (!m)
        return NULL;
    int bad = snapshot_write(m, c, SNAP_ANSI, ascii, mode);
    if (fclose(m) != 0 || bad) {
        free(body);
        return NULL;
    }
    FILE *o = open_memstream(&out, &olen);
    if (!o) {
        free(body);
        return NULL;
    }
    fputs("\033[?25l\033[H", o);
    for (size_t i = 0; i < blen; i++) {
        if (body[i] != '\n') {
            fputc(body[i], o);
            continue;
        }
        fputs("\033[0m\033[K", o);
        if (i + 1 < blen)
            fputs("\r\n", o);
    }
    free(body);
    if (fclose(o) != 0) {
        free(out);
        return NULL;
    }
    *len = olen;
    return out;
}

void record_frame(const canvas *c, int ascii, enum color_mode mode,
                  const char *label)
{
    size_t n = 0;
    if (!record_active())
        return;
    if (rec.w == 0)
        header(c->w, c->h);
    char *bytes = paint(c, ascii, mode, &n);
    if (!bytes) {
        rec.failed = ENOMEM;
        return;
    }
    int resized = rec.w && (rec.w != c->w || rec.h != c->h);
    int same = !resized && rec.last && n == rec.last_len &&
               memcmp(bytes, rec.last, n) == 0;
    if (same && !label) {
        free(bytes);
        return;                 /* nothing changed: nothing is written */
    }
    if (resized) {
        char sz[32];
        snprintf(sz, sizeof sz, "%dx%d", c->w, c->h);
        event('r', sz, strlen(sz));
    }
    if (!same)
        event('o', bytes, n);
    if (label)                  /* after the frame: a player that pauses
                                   on it shows the step */
        event('m', label, strlen(label));
    rec.w = c->w;
    rec.h = c->h;
    free(rec.last);
    rec.last = bytes;
    rec.last_len = n;
}

int record_close(int status, char *err, size_t errlen)
{
    int r = 0;
    if (rec.fd >= 0 && !rec.failed) {
        char st[16];
        if (rec.w == 0)
            header(80, 24);     /* no frame was shown: a valid empty cast */
        snprintf(st, sizeof st, "%d", status);
        if (!rec.failed)
            event('x', st, strlen(st));
    }
    if (rec.fd >= 0 && close(rec.fd) != 0 && !rec.failed)
        rec.failed = errno ? errno : EIO;
    if (rec.failed) {
        snprintf(err, errlen, "--record: %s: %s", rec.path,
                 strerror(rec.failed));
        r = -1;
    }
    free(rec.path);
    free(rec.last);
    memset(&rec, 0, sizeof rec);
    rec.fd = -1;
    return r;
}
