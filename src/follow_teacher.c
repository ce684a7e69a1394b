/* SPDX-License-Identifier: ISC */
/*
 * follow_teacher.c - the teacher's side of follow mode: a non-blocking
 * Unix-socket server that greets peers, serves real followers first and
 * sends each the state as it changes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "errline.h"
#include "follow_impl.h"
#include "sockfile.h"
#include "peviz/names.h"

static void drop(struct client *c)
{
    close(c->fd);
    free(c->out);
    c->fd = -1;
    c->out = NULL;
    c->out_len = c->out_cap = c->greeted = 0;
    c->follower = 0;
    c->line_len = 0;
    c->term[0] = 0;
}

int follow_clients(const struct follow *f)
{
    int n = 0;
    for (int i = 0; f->serving && i < FOLLOW_MAX_CLIENTS; i++)
        n += f->clients[i].fd >= 0 && f->clients[i].follower;
    return n;
}

/* Connections now, greeted or not. */
static int connections(const struct follow *f)
{
    int n = 0;
    for (int i = 0; i < FOLLOW_MAX_CLIENTS; i++)
        n += f->clients[i].fd >= 0;
    return n;
}

/* Write what the kernel takes now; a broken follower is dropped. */
static void flush(struct client *c)
{
    while (c->out_len) {
        ssize_t w = send(c->fd, c->out, c->out_len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                drop(c);
            return;
        }
        memmove(c->out, c->out + w, c->out_len - (size_t)w);
        c->out_len -= (size_t)w;
    }
}

/* Whether c has read everything sent to it (nothing queued here, none
 * unread in the kernel); the time it last had is kept. */
static int read_all(struct client *c)
{
    int unread = 0;
    if (c->out_len || ioctl(c->fd, SIOCOUTQ, &unread) < 0 || unread > 0)
        return 0;
    c->read_at = now_s();
    return 1;
}

/* Queue a message; a follower with more than the whole state (full
 * bytes) and FOLLOW_OUT_MAX unsent stopped reading. */
static void queue(struct client *c, const char *m, size_t len, size_t full)
{
    read_all(c);
    size_t need = c->out_len + len;
    if (need > full + FOLLOW_OUT_MAX) {
        drop(c);
        return;
    }
    if (need > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap : FOLLOW_OUT_MAX;
        while (cap < need)
            cap *= 2;
        char *o = realloc(c->out, cap);
        if (!o) {
            drop(c);
            return;
        }
        c->out = o;
        c->out_cap = cap;
    }
    memcpy(c->out + c->out_len, m, len);
    c->out_len += len;
    flush(c);
}

/* A follower's terminal, "term 80x24 256 en": 0 (kept in c->term), or
 * -1 (not such a line). */
static int term_line(struct client *c)
{
    static const char *const COLORS[] = { "none", "8", "16", "256",
                                          "truecolor" };
    char col[12], lang[4];
    int w, h, end = 0;
    c->line[c->line_len] = 0;
    if (sscanf(c->line, "term %5dx%5d %11s %3s%n", &w, &h, col, lang, &end)
        != 4 || c->line[end] || w < 1 || h < 1 || strlen(lang) != 2 ||
        lang[0] < 'a' || lang[0] > 'z' || lang[1] < 'a' || lang[1] > 'z')
        return -1;
    if (names_find(COLORS, NAMES_COUNT(COLORS), col) < 0)
        return -1;
    snprintf(c->term, sizeof c->term, "%dx%d %s %s", w, h, col, lang);
    return 0;
}

/* After its greeting a follower sends only lines saying its terminal;
 * anything else drops it. */
static int take_lines(struct client *c, const char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (b[i] == '\n') {
            if (term_line(c))
                return -1;
            c->line_len = 0;
        } else if (c->line_len + 1 >= sizeof c->line || b[i] < 0x20 ||
                   b[i] > 0x7e) {
            return -1;
        } else {
            c->line[c->line_len++] = b[i];
        }
    }
    return 0;
}

/* A follower sends its greeting, then lines saying its terminal; once
 * the greeting is whole the follower gets the whole state. */
static void read_client(struct follow *f, struct client *c)
{
    static const char G[] = FP_GREETING;
    char buf[64];
    ssize_t r = recv(c->fd, buf, sizeof buf, MSG_DONTWAIT);
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    size_t g = r > 0 && c->greeted < sizeof G - 1
               ? sizeof G - 1 - c->greeted : 0;
    if (g > (size_t)(r > 0 ? r : 0))
        g = (size_t)r;
    if (r <= 0 || memcmp(buf, G + c->greeted, g) ||
        take_lines(c, buf + g, (size_t)r - g)) {
        drop(c);
        return;
    }
    c->greeted += g;
    if (c->greeted == sizeof G - 1 && !c->follower) {
        c->follower = 1;
        if (f->full_len > 0)
            queue(c, f->full, (size_t)f->full_len, (size_t)f->full_len);
    }
}

/* Say there is no room (best effort: nothing was sent on fd yet, its
 * buffer is empty); the caller hangs up. */
static void say_busy(struct follow *f, int fd)
{
    char m[64];
    int n = snprintf(m, sizeof m, FP_BUSY_FMT, FP_VERSION, connections(f));
    if (send(fd, m, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
        return;                 /* it is not reading: nothing to say */
}

/* The oldest peer not yet greeted (of uid, unless any), or NULL; *n:
 * how many there are. */
static struct client *oldest_pending(const struct follow *f, uid_t uid, int any,
                                     int *n)
{
    struct client *o = NULL;
    *n = 0;
    for (int i = 0; i < FOLLOW_MAX_CLIENTS; i++) {
        struct client *c = &f->clients[i];
        if (c->fd < 0 || c->follower || (!any && c->uid != uid))
            continue;
        ++*n;
        if (!o || c->since < o->since)
            o = c;
    }
    return o;
}

/* The follower that has left what it was sent unread the longest, for
 * FOLLOW_GREET_S at least, or NULL: all read (a real follower reads
 * each message as it comes). */
static struct client *not_reading(const struct follow *f)
{
    struct client *o = NULL;
    double t = now_s();
    for (int i = 0; i < FOLLOW_MAX_CLIENTS; i++) {
        struct client *c = &f->clients[i];
        if (c->fd < 0 || !c->follower || read_all(c) ||
            t < c->read_at + FOLLOW_GREET_S)
            continue;
        if (!o || c->read_at < o->read_at)
            o = c;
    }
    return o;
}

/* Make room for one more peer of uid: a peer still silent gives way
 * (its greeting may have come: read it first), then a greeted one that
 * does not read.  0, or -1: no room. */
static int make_room(struct follow *f, uid_t uid)
{
    int pending;
    if (connections(f) >= FOLLOW_MAX_CLIENTS &&
        !oldest_pending(f, uid, 1, &pending)) {
        struct client *c = not_reading(f);
        if (c)
            drop(c);
    }
    for (int tries = 0; tries < FOLLOW_MAX_CLIENTS; tries++) {
        int mine, all, used = connections(f);
        struct client *m = oldest_pending(f, uid, 0, &mine);
        struct client *o = oldest_pending(f, uid, 1, &all);
        struct client *c = mine >= FOLLOW_PENDING_PER_SOURCE ? m
                           : all >= FOLLOW_PENDING_MAX ||
                             used >= FOLLOW_MAX_CLIENTS ? o : NULL;
        if (!c)
            return used < FOLLOW_MAX_CLIENTS ? 0 : -1;
        read_client(f, c);
        if (c->fd >= 0 && !c->follower) {
            say_busy(f, c->fd);
            drop(c);
        }
    }
    return -1;
}

static void accept_one(struct follow *f, int fd)
{
    struct ucred cr = { 0, (uid_t)-1, 0 };
    socklen_t crl = sizeof cr;
    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &crl);
    if (make_room(f, cr.uid)) {
        say_busy(f, fd);        /* every slot holds a follower */
        close(fd);
        return;
    }
    int i = 0;
    while (f->clients[i].fd >= 0)
        i++;
    /* a small kernel buffer: a follower that stops reading fills it
     * and then ours soon, and is dropped */
    int sndbuf = FOLLOW_SNDBUF;
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
    struct client *c = &f->clients[i];
    c->fd = fd;
    c->uid = cr.uid;
    c->since = c->read_at = now_s();
    read_client(f, c);          /* a follower greets as it connects */
}

static void accept_all(struct follow *f)
{
    int fd, n = 0;
    /* a bounded batch: a peer reconnecting as fast as it can must not
     * keep the teacher from its keys (the rest wait for the next wake) */
    while (n++ < ACCEPT_BATCH &&
           ((fd = accept4(f->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0 ||
            errno == EINTR || errno == ECONNABORTED)) {
        if (fd >= 0)
            accept_one(f, fd);
    }
    if (n > ACCEPT_BATCH)
        return;
    /* out of descriptors: the connection stays queued and the socket
     * readable; stop asking for a while instead of spinning */
    if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
        errno == ENOMEM)
        f->accept_at = now_s() + FOLLOW_RETRY_S;
}

/* Peers that have not greeted in time give their slot back. */
static void greet_deadline(struct follow *f)
{
    double t = now_s();
    for (int i = 0; i < FOLLOW_MAX_CLIENTS; i++) {
        struct client *c = &f->clients[i];
        if (c->fd >= 0 && !c->follower && t >= c->since + FOLLOW_GREET_S)
            drop(c);
    }
}

/* Send what changed since the last message; keep the whole state for
 * followers still to come. */
static void broadcast(struct follow *f, const char *cur, int len)
{
    char delta[FP_BODY_MAX], m[FP_MESSAGE_MAX];
    size_t dl = fp_diff(f->sent, (size_t)f->sent_len, cur, (size_t)len, delta);
    int ml = fp_frame(delta, dl, m, sizeof m);
    f->full_len = fp_frame(cur, (size_t)len, f->full, sizeof f->full);
    for (int i = 0; ml > 0 && i < FOLLOW_MAX_CLIENTS; i++)
        if (f->clients[i].fd >= 0 && f->clients[i].follower)
            queue(&f->clients[i], m, (size_t)ml, (size_t)f->full_len);
    memcpy(f->sent, cur, (size_t)len);
    f->sent_len = len;
    f->sent_at = now_s();
    f->held = 0;
}

void follow_publish(struct follow *f, struct app *a, int keyed)
{
    char cur[FP_BODY_MAX];
    if (!f || !f->serving)
        return;
    if (a->pe_table && !a->pe_digest[0])    /* a table loaded since */
        fp_table_digest(a->pe_table, a->pe_digest);
    int len = fp_body(a, cur, sizeof cur);
    if (len <= 0)
        return;
    f->held = len != f->sent_len || memcmp(cur, f->sent, (size_t)len);
    if (f->held && (keyed || now_s() >= f->sent_at + FOLLOW_PUBLISH_S))
        broadcast(f, cur, len);
}

void teacher_events(struct follow *f, const struct pollfd *p, int n)
{
    for (int k = 1; k < n; k++) {
        for (int i = 0; i < FOLLOW_MAX_CLIENTS; i++) {
            struct client *c = &f->clients[i];
            if (c->fd != p[k].fd)
                continue;
            if (p[k].revents & (POLLERR | POLLNVAL))
                drop(c);
            else if (p[k].revents & (POLLIN | POLLHUP))
                read_client(f, c);
            if (c->fd >= 0 && (p[k].revents & POLLOUT))
                flush(c);
            break;
        }
    }
    greet_deadline(f);
    if (n > 0 && (p[0].revents & POLLIN))
        accept_all(f);
}

/* Teacher: who follows, grouped by terminal, most common first:
 * "3 following: 2 at 80x24 256 en, 1 at 120x40 truecolor zh". */
void teacher_list(const struct follow *f, struct app *a)
{
    static int seen[FOLLOW_MAX_CLIENTS];
    char m[APP_MSG_LEN];
    int total = follow_clients(f), left = total;
    size_t n = (size_t)snprintf(m, sizeof m, "%d following", total);
    memset(seen, 0, sizeof seen);
    while (left > 0 && n + 40 < sizeof m) {
        int best = -1, count = 0;
        for (int i = 0; i < FOLLOW_MAX_CLIENTS; i++) {
            const struct client *c = &f->clients[i];
            int k = 0;
            if (c->fd < 0 || !c->follower || seen[i])
                continue;
            for (int j = i; j < FOLLOW_MAX_CLIENTS; j++)
                k += f->clients[j].fd >= 0 && f->clients[j].follower &&
                     !seen[j] && !strcmp(f->clients[j].term, c->term);
            if (k > count) {
                count = k;
                best = i;
            }
        }
        if (best < 0)
            break;
        const char *term = f->clients[best].term;
        n += (size_t)snprintf(m + n, sizeof m - n, "%s %d at %s",
                              left == total ? ":" : ",", count,
                              term[0] ? term : "a terminal not said");
        for (int j = 0; j < FOLLOW_MAX_CLIENTS; j++)
            if (f->clients[j].fd >= 0 && f->clients[j].follower &&
                !strcmp(f->clients[j].term, term))
                seen[j] = 1;
        left -= count;
    }
    if (left > 0 && left < total && n < sizeof m)
        snprintf(m + n, sizeof m - n, ", %d more", left);
    app_msg(a, 0, "%s", m);
}

/* follow_close's part: the followers, the socket and its file. */
void teacher_close(struct follow *f)
{
    char err[256];
    for (int i = 0; i < FOLLOW_MAX_CLIENTS; i++)
        if (f->clients[i].fd >= 0)
            drop(&f->clients[i]);
    close(f->lfd);
    /* only the file we made: never one a later teacher put there */
    if (sockfile_remove(f->path, f->dev, f->ino, err, sizeof err))
        errline("--serve: %s: %s", f->shown, err);
    free(f->clients);
}

/* When the loop must wake: a held state's turn, accepting again, or a
 * peer's greeting deadline; -1: no need. */
int teacher_wait_ms(const struct follow *f)
{
    int w = f->held ? ms_until(f->sent_at + FOLLOW_PUBLISH_S) : -1;
    int b = f->accept_at > now_s() ? ms_until(f->accept_at) : -1;
    int n;
    const struct client *o = oldest_pending(f, 0, 1, &n);
    int g = o ? ms_until(o->since + FOLLOW_GREET_S) : -1;
    w = w < 0 ? b : b < 0 ? w : w < b ? w : b;
    return w < 0 ? g : g < 0 ? w : w < g ? w : g;
}
