/* SPDX-License-Identifier: ISC */
/*
 * filesrc.c - offset reads from a regular file or a buffer (filesrc.h).
 */
#define _POSIX_C_SOURCE 200809L   /* pread, fstat, O_NONBLOCK */

#include "filesrc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHOWN_MAX 24

int filesrc_vfail(const struct filesrc *s, const char *fmt, va_list ap)
{
    char msg[384];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (s->err && s->errlen)
        snprintf(s->err, s->errlen, "%s: %s", s->name, msg);
    return -1;
}

int filesrc_fail(const struct filesrc *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    filesrc_vfail(s, fmt, ap);
    va_end(ap);
    return -1;
}

void filesrc_shown(const char *text, size_t len, char *out, size_t outlen)
{
    size_t j = 0;
    if (!outlen)
        return;
    for (size_t i = 0; i < len && i < SHOWN_MAX && j + 4 < outlen; i++) {
        unsigned char ch = (unsigned char)text[i];
        out[j++] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
    }
    if (len > SHOWN_MAX && j + 4 < outlen) {
        memcpy(out + j, "...", 3);
        j += 3;
    }
    out[j] = 0;
}

static const char *kind_of(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO (pipe)";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a regular file";
}

int filesrc_open_regular(const char *path, char *why, size_t len)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        snprintf(why, len, "cannot open: %s", strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        snprintf(why, len, "cannot stat: %s", strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, len, "%s, not a regular file", kind_of(st.st_mode));
        close(fd);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

int filesrc_adopt(struct filesrc *s, int fd, const char *name, char *err,
                  size_t errlen)
{
    struct stat st;
    *s = (struct filesrc){ name, -1, NULL, 0, err, errlen, NULL };
    if (fstat(fd, &st) != 0)
        return filesrc_fail(s, "cannot stat: %s", strerror(errno));
    if (!S_ISREG(st.st_mode))
        return filesrc_fail(s, "%s, not a regular file", kind_of(st.st_mode));
    s->fd = dup(fd);            /* filesrc_close closes its own */
    if (s->fd < 0)
        return filesrc_fail(s, "cannot read: %s", strerror(errno));
    s->size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
    return 0;
}

int filesrc_open(struct filesrc *s, const char *path, char *err,
                 size_t errlen)
{
    struct stat st;
    char why[160];
    *s = (struct filesrc){ path, -1, NULL, 0, err, errlen, NULL };
    int fd = filesrc_open_regular(path, why, sizeof why);
    if (fd < 0)
        return filesrc_fail(s, "%s", why);
    if (fstat(fd, &st) != 0) {
        close(fd);
        return filesrc_fail(s, "cannot stat: %s", strerror(errno));
    }
    s->fd = fd;
    s->size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
    return 0;
}

void filesrc_buffer(struct filesrc *s, const char *name,
                    const unsigned char *buf, size_t len, char *err,
                    size_t errlen)
{
    *s = (struct filesrc){ name, -1, buf, len, err, errlen, NULL };
}

void filesrc_close(struct filesrc *s)
{
    if (s->fd >= 0)
        close(s->fd);
    s->fd = -1;
}

int filesrc_read(const struct filesrc *s, uint64_t off, void *dst,
                 size_t len)
{
    if (off > s->size || len > s->size - off)
        return filesrc_fail(s, "truncated: %zu bytes wanted at offset %llu, "
                            "the file has %llu", len, (unsigned long long)off,
                            (unsigned long long)s->size);
    if (s->buf) {
        if (len)
            memcpy(dst, s->buf + off, len);
        return 0;
    }
    unsigned char *p = dst;
    while (len) {
        if (s->cancel && *s->cancel)
            return filesrc_fail(s, "cancelled");
        ssize_t got = pread(s->fd, p, len, (off_t)off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return filesrc_fail(s, "cannot read: %s", strerror(errno));
        if (got == 0)
            return filesrc_fail(s, "truncated while reading (the file "
                                "shrank?)");
        p += got;
        off += (uint64_t)got;
        len -= (size_t)got;
    }
    return 0;
}

double filesrc_f16(uint16_t h)
{
    int sign = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v;
    if (e == 0)
        v = ldexp(m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexp(m + 1024, e - 25);
    return sign ? -v : v;
}

double filesrc_bf16(uint16_t h)
{
    return filesrc_f32((uint32_t)h << 16);
}

double filesrc_f32(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

double filesrc_f64(uint64_t bits)
{
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

uint64_t filesrc_le(const unsigned char *b, int nbytes)
{
    uint64_t u = 0;
    for (int i = nbytes - 1; i >= 0; i--)
        u = u << 8 | b[i];
    return u;
}

uint64_t filesrc_be(const unsigned char *b, int nbytes)
{
    uint64_t u = 0;
    for (int i = 0; i < nbytes; i++)
        u = u << 8 | b[i];
    return u;
}

int filesrc_elem_size(enum filesrc_elem e)
{
    return e == FS_F64 ? 8 : e == FS_F32 ? 4 : 2;
}

double filesrc_elem(enum filesrc_elem e, int big_endian, const unsigned char *b)
{
    int n = filesrc_elem_size(e);
    uint64_t u = big_endian ? filesrc_be(b, n) : filesrc_le(b, n);
    switch (e) {
    case FS_F16: return filesrc_f16((uint16_t)u);
    case FS_BF16: return filesrc_bf16((uint16_t)u);
    case FS_F32: return filesrc_f32((uint32_t)u);
    default: return filesrc_f64(u);
    }
}

#define ELEM_BLOCK 65536

int filesrc_read_elems(const struct filesrc *s, uint64_t off, uint64_t count,
                       enum filesrc_elem e, int big_endian, double *out,
                       size_t stride)
{
    size_t size = (size_t)filesrc_elem_size(e), per = ELEM_BLOCK / size;
    unsigned char *buf = malloc(ELEM_BLOCK);
    if (!buf)
        return filesrc_fail(s, "out of memory");
    uint64_t k = 0;
    int r = 0;
    while (k < count && !r) {
        size_t cnt = count - k < per ? (size_t)(count - k) : per;
        r = filesrc_read(s, off + k * size, buf, cnt * size);
        for (size_t j = 0; j < cnt && !r; j++, k++)
            out[k * stride] = filesrc_elem(e, big_endian, buf + j * size);
    }
    free(buf);
    return r;
}
