/*
 * follow.c - the follow-mode sockets: a non-blocking Unix-socket server
 * for the teacher and a reconnecting client for each follower, both
 * driven by the loop's poll().
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
#include "follow.h"
#include "follow_files.h"
#include "follow_proto.h"
#include "peviz/tables.h"
#include "sockfile.h"
#include "tour.h"

#define PATH_SHOWN 96            /* the path as messages show it */
#define READ_BUDGET 65536        /* bytes a follower reads per wake-up */
#define ACCEPT_BATCH 32          /* connections a teacher takes per wake-up */

struct client {
    int fd;                      /* -1: free slot */
    size_t out_len, out_cap;
    size_t greeted;              /* greeting bytes seen */
    int follower;                /* greeted in full: it gets the state */
    char line[48];               /* a "term ..." line coming in */
    size_t line_len;
    char term[40];               /* "80x24 256 en": its terminal, or "" */
    uid_t uid;                   /* who connected */
    double since;                /* when it was accepted */
    char *out;                   /* unsent bytes; grown as needed up to
                                    the whole state + FOLLOW_OUT_MAX */
};

struct follow {
    int serving;                 /* 1 teacher, 0 follower */
    char path[sizeof ((struct sockaddr_un *)0)->sun_path];
    char shown[PATH_SHOWN];      /* path without control characters */
    /* teacher */
    int lfd;
    dev_t dev;
    ino_t ino;                   /* the socket file we made */
    struct client *clients;
    char sent[FP_BODY_MAX];      /* the whole state as last sent */
    char full[FP_MESSAGE_MAX];   /* ... framed, for a new follower */
    int sent_len, full_len;
    int held;                    /* a newer state waits its turn */
    double accept_at;            /* no accept() before this */
    double sent_at;
    /* follower */
    int fd;                      /* -1: waiting for a teacher */
    int ever, detached;          /* ever: a teacher was seen */
    int fresh;                   /* the next state starts following */
    int notsock, announced;      /* what the status line said */
    double retry_at, deadline;
    struct fp_reader rd;
    struct app shadow;           /* the teacher's state, as sent */
    char table[FP_TABLE_TEXT_MAX + 1];  /* the teacher's table, as sent */
    char table_done[FP_TABLE_TEXT_MAX + 1];   /* ... as last acted on */
    char tour[FP_TABLE_TEXT_MAX + 1];   /* the teacher's tour field */
    char tour_done[FP_TABLE_TEXT_MAX + 1];    /* the tour last acted on */
    char tour_sha[80];           /* its content hash, or "-" */
    struct ffiles *files;        /* --files DIR, or NULL: none opened */
    struct pe_table tab;         /* read for the teacher (v NULL: none) */
    struct pe_table_info tab_info;
    int have_latest;
    int counted;                 /* teacher: followers the status showed */
    int term_w, term_h;          /* follower: the terminal last said */
    int term_color;
};

const struct keybind KEYS_FOLLOW[] = {
    { 'F', ACT_NONE, "F", "follower: explore on your own / rejoin; teacher: who follows", NULL },
    { 0, ACT_NONE, NULL, NULL, NULL }
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- setting up --------------------------------------------------------- */

static struct follow *follow_new(const char *path, int serving)
{
    struct follow *f;
    if (strlen(path) >= sizeof f->path) {
        cli_error("%s: %s: socket path longer than %zu bytes",
                  serving ? "--serve" : "--follow", path, sizeof f->path - 1);
        return NULL;
    }
    if (!(f = calloc(1, sizeof *f))) {
        cli_error("out of memory");
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

static int socket_to(const char *path, struct sockaddr_un *sa)
{
    memset(sa, 0, sizeof *sa);
    sa->sun_family = AF_UNIX;
    snprintf(sa->sun_path, sizeof sa->sun_path, "%s", path);
    return socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

struct follow *follow_serve(const char *path, unsigned mode)
{
    struct follow *f = follow_new(path, 1);
    if (!f)
        return NULL;
    f->clients = calloc(FOLLOW_MAX_CLIENTS, sizeof *f->clients);
    if (!f->clients) {
        cli_error("out of memory");
        free(f);
        return NULL;
    }
    for (int i = 0; i < FOLLOW_MAX_CLIENTS; i++)
        f->clients[i].fd = -1;
    struct sockfile sf;
    char err[256];
    if (sockfile_listen(path, mode, 64, &sf, err, sizeof err)) {
        cli_error("--serve: %s: %s", f->shown, err);
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
        cli_error("%s", err);
        free(f);
        return NULL;
    }
    return f;
}

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

void follow_close(struct follow *f)
{
    struct stat st;
    if (!f)
        return;
    if (f->serving) {
        for (int i = 0; i < FOLLOW_MAX_CLIENTS; i++)
            if (f->clients[i].fd >= 0)
                drop(&f->clients[i]);
        close(f->lfd);
        /* only the file we made: never one a later teacher put there */
        if (lstat(f->path, &st) == 0 && st.st_dev == f->dev &&
            st.st_ino == f->ino)
            unlink(f->path);
        free(f->clients);
    } else if (f->fd >= 0) {
        close(f->fd);
    }
    ffiles_close(f->files);
    pe_table_free(&f->tab);
    free(f);
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

/* ---- the teacher -------------------------------------------------------- */

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

/* Queue a message; a follower with more than the whole state (full
 * bytes) and FOLLOW_OUT_MAX unsent stopped reading. */
static void queue(struct client *c, const char *m, size_t len, size_t full)
{
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
    int w, h, end = 0, ok = 0;
    c->line[c->line_len] = 0;
    if (sscanf(c->line, "term %5dx%5d %11s %3s%n", &w, &h, col, lang, &end)
        != 4 || c->line[end] || w < 1 || h < 1 || strlen(lang) != 2 ||
        lang[0] < 'a' || lang[0] > 'z' || lang[1] < 'a' || lang[1] > 'z')
        return -1;
    for (size_t i = 0; i < sizeof COLORS / sizeof COLORS[0]; i++)
        ok |= !strcmp(col, COLORS[i]);
    if (!ok)
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

/* Make room for one more peer of uid: a peer still silent gives way
 * (its greeting may have come: read it first).  0, or -1: no room. */
static int make_room(struct follow *f, uid_t uid)
{
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
    c->since = now_s();
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

static void teacher_events(struct follow *f, const struct pollfd *p, int n)
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

/* ---- the follower ------------------------------------------------------- */

static void hang_up(struct follow *f, struct app *a, const char *why)
{
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
    f->retry_at = now_s() + FOLLOW_RETRY_S;
    fp_reader_init(&f->rd);
    if (why)
        app_msg(a, 1, "bad message from %s: %s", f->shown, why);
    else if (!f->detached)
        app_msg(a, 0, "teacher left, waiting");
}

/* Tell the teacher this terminal: size, colours, language (for its
 * list of followers).  Best effort: a full buffer drops it. */
static void send_term(struct follow *f, const struct app *a)
{
    static const char *const COLORS[] = { "none", "8", "16", "256",
                                          "truecolor" };
    char m[64];
    int w = a->screen_w > 0 ? a->screen_w : 80;
    int h = a->screen_h > 0 ? a->screen_h : 24;
    int c = (unsigned)a->color <= COLOR_TRUE ? (int)a->color : 0;
    const char *lang = a->tour_lang ? a->tour_lang : tour_lang_from_env();
    int n = snprintf(m, sizeof m, "term %dx%d %s %.2s\n", w, h, COLORS[c],
                     strlen(lang) == 2 ? lang : "en");
    if (send(f->fd, m, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT) == n) {
        f->term_w = w;
        f->term_h = h;
        f->term_color = c;
    }
}

static void try_connect(struct follow *f, struct app *a)
{
    struct sockaddr_un sa;
    struct stat st;
    f->retry_at = now_s() + FOLLOW_RETRY_S;
    int notsock = stat(f->path, &st) == 0 && !S_ISSOCK(st.st_mode);
    if (notsock && !f->notsock && !f->detached)
        app_msg(a, 1, "%s is not a socket; waiting for a teacher there",
                f->shown);
    if ((f->notsock = notsock))
        return;
    int fd = socket_to(f->path, &sa);
    if (fd < 0)
        return;
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0 ||
        send(fd, FP_GREETING, sizeof FP_GREETING - 1,
             MSG_NOSIGNAL | MSG_DONTWAIT) != (ssize_t)sizeof FP_GREETING - 1) {
        close(fd);
        return;
    }
    f->fd = fd;
    send_term(f, a);
    f->deadline = now_s() + FOLLOW_STALL_S;
    f->fresh = 1;
    f->shadow = *a;             /* the first message sets every field */
    f->table[0] = 0;
    fp_reader_init(&f->rd);
}

/* Show the teacher's state (the published fields of the shadow). */
static void show_teacher(struct follow *f, struct app *a, int said)
{
    char body[FP_BODY_MAX], err[2 * APP_MSG_LEN];
    int len = fp_body(&f->shadow, body, sizeof body);
    if (len > 0)
        fp_apply(a, body, (size_t)len, err, sizeof err);
    if (f->fresh && !said)      /* not over what the tour had to say */
        app_msg(a, 0, "following %s", f->shown);
    f->fresh = 0;
}

/* Bytes of s outside printable ASCII as '?' (a loader's message may
 * quote a file). */
static void printable(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
            *s = '?';
}

/* The teacher's table read here (by table_follow) is put away. */
static void put_away(struct follow *f, struct app *a)
{
    if (a->pe_table == &f->tab) {
        a->pe_table = NULL;
        a->pe_info = NULL;
        a->pe_file_name = NULL;
        a->pe_digest[0] = 0;
    }
    f->shadow.pe_table = NULL;
    f->shadow.pe_info = NULL;
    f->shadow.pe_file_name = NULL;
    f->shadow.pe_digest[0] = 0;
    pe_table_free(&f->tab);
}

/* A table read from --files ended: shown if it is the teacher's. */
static int table_arrived(struct follow *f, struct app *a)
{
    struct pe_table nt;
    struct pe_table_info ni;
    char why[APP_MSG_LEN];
    int r = ffiles_table_take(f->files, &nt, &ni, why, sizeof why);
    if (r < 0) {
        printable(why);
        app_msg(a, 1, "teacher's table: %s", why);
        return 1;
    }
    if (r == 0)
        return 0;
    put_away(f, a);
    f->tab = nt;
    f->tab_info = ni;
    fp_table_digest(&f->tab, f->shadow.pe_digest);
    a->pe_table = f->shadow.pe_table = &f->tab;
    a->pe_info = f->shadow.pe_info = &f->tab_info;
    a->pe_file_name = f->shadow.pe_file_name = f->tab_info.file;
    memcpy(a->pe_digest, f->shadow.pe_digest, sizeof a->pe_digest);
    app_msg(a, 0, "following %s: read the teacher's table %s", f->shown,
            f->tab_info.file);
    return 1;
}

/* The teacher's --pe-file table, named by base name and content hash:
 * read in the background from --files unless this program has it
 * already; without --files nothing is opened, and that is said (the
 * rest of the lecture goes on). */
static void table_follow(struct follow *f, struct app *a)
{
    char mine[FP_TABLE_TEXT_MAX + 1], why[APP_MSG_LEN];
    struct fp_table t;
    if (!f->table[0] || !strcmp(f->table, f->table_done))
        return;
    snprintf(f->table_done, sizeof f->table_done, "%s", f->table);
    fp_table_text(a, mine, sizeof mine);
    if (!strcmp(f->table, mine) || fp_table_parse(f->table, &t, NULL, 0))
        return;
    if (f->files)
        ffiles_table_cancel(f->files);  /* a newer table, or none */
    put_away(f, a);                     /* an earlier teacher's */
    fp_table_text(a, mine, sizeof mine);
    if (!t.path[0] && a->pe_table)      /* this program's own --pe-file */
        app_msg(a, 1, "teacher's table: none; here: %s", mine);
    else if (!t.path[0])
        return;
    else if (!f->files)
        app_msg(a, 1, "the teacher loaded %s: not shown here (see --files)",
                t.path);
    else if (ffiles_table_start(f->files, &t, why, sizeof why)) {
        printable(why);
        app_msg(a, 1, "teacher's table: %s", why);
    } else {
        app_msg(a, 0, "following %s: reading the teacher's table %s",
                f->shown, t.path);
    }
}

/* Load the tour the teacher names from --files into a: 0, or -1 with
 * why in err. */
static int tour_from_files(struct follow *f, struct app *a, const char *name,
                           char *err, size_t errlen)
{
    char path[64];
    int fd = ffiles_openat(f->files, name, err, errlen);
    if (fd < 0)
        return -1;
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    int r = tour_load_as(a, path, err, errlen);
    close(fd);
    if (r == 0 && strcmp(a->tour->sha256, f->tour_sha)) {
        tour_release(a);        /* another file of that name */
        snprintf(err, errlen, "%.100s: not the teacher's (its content hash "
                 "differs)", name);
        return -1;
    }
    if (r) {                    /* "/proc/self/fd/N:LINE: ..." */
        size_t pl = strlen(path);
        if (!strncmp(err, path, pl)) {
            char rest[APP_MSG_LEN];
            snprintf(rest, sizeof rest, "%s", err + pl);
            snprintf(err, errlen, "%.100s%.150s", name, rest);
        }
        return -1;
    }
    char *p = strdup(name);     /* named as the teacher names it */
    if (p) {
        free(a->tour->path);
        free(a->tour->abs);
        a->tour->path = p;
        a->tour->abs = NULL;
    }
    return 0;
}

/* The teacher's tour, by name: the shipped one in this program's own
 * language, or a file read from --files by its base name; say so when
 * it cannot (then 1).  The shadow then holds the new one at the
 * teacher's step. */
static int tour_follow(struct follow *f, struct app *a)
{
    char mine[FP_TABLE_PATH_MAX + 1], err[APP_MSG_LEN], line[sizeof f->tour + 8];
    const char *name = strchr(f->tour, ' ');
    int r;
    if (!name || !strcmp(++name, f->tour_done))
        return 0;
    snprintf(f->tour_done, sizeof f->tour_done, "%s", name);
    mine[0] = 0;
    if (a->tour)
        fp_tour_name(a->tour, mine, sizeof mine);
    if (!strcmp(name, mine))
        return 0;
    if (!strcmp(name, "shipped"))
        r = tour_load_as(a, NULL, err, sizeof err);
    else if (!f->files) {
        app_msg(a, 1, "the teacher loaded %s: not shown here (see --files)",
                name);
        return 1;
    } else
        r = tour_from_files(f, a, name, err, sizeof err);
    if (r) {
        printable(err);
        app_msg(a, 1, "teacher's tour: %s", err);
        f->shadow.tour = a->tour;       /* NULL if a wrong one was read */
        return 1;
    }
    f->shadow.tour = a->tour;
    snprintf(line, sizeof line, "tour %s\n", f->tour);
    fp_apply(&f->shadow, line, strlen(line), NULL, 0);
    return 0;
}

/* A whole message: the teacher's state changes; show it unless
 * detached. */
static int take(struct follow *f, struct app *a, const char *body,
                size_t len)
{
    char err[2 * APP_MSG_LEN];
    if (fp_apply(&f->shadow, body, len, err, sizeof err)) {
        hang_up(f, a, err);
        return 1;
    }
    f->have_latest = f->ever = 1;
    fp_find(body, len, "table", f->table, sizeof f->table);
    fp_find(body, len, "tour", f->tour, sizeof f->tour);
    fp_find(body, len, "tour.sha256", f->tour_sha, sizeof f->tour_sha);
    if (f->detached)
        return 0;
    show_teacher(f, a, tour_follow(f, a));
    table_follow(f, a);
    return 1;
}

/* Read what is there (bounded), message by message. */
static int read_teacher(struct follow *f, struct app *a)
{
    char buf[4096];
    size_t total = 0;
    int changed = 0;
    while (f->fd >= 0 && total < READ_BUDGET) {
        ssize_t r = recv(f->fd, buf, sizeof buf, MSG_DONTWAIT);
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            break;
        if (r <= 0) {
            hang_up(f, a, NULL);
            return 1;
        }
        total += (size_t)r;
        for (size_t at = 0; at < (size_t)r && f->fd >= 0;) {
            const char *body;
            size_t used, blen;
            char err[APP_MSG_LEN];
            int s = fp_feed(&f->rd, buf + at, (size_t)r - at, &used, &body,
                            &blen, err, sizeof err);
            at += used;
            if (s == FP_BAD) {
                hang_up(f, a, err);
                return 1;
            }
            if (s == FP_BUSY) {     /* no room there now: try again */
                long busy = f->rd.busy;
                hang_up(f, a, NULL);
                if (!f->detached)
                    app_msg(a, 1, "teacher busy: %ld connections", busy);
                return 1;
            }
            if (s == FP_MESSAGE)
                changed |= take(f, a, body, blen);
        }
    }
    if (f->fd >= 0 && !fp_partial(&f->rd) && f->ever)
        f->deadline = 0;        /* nothing owed */
    else if (f->fd >= 0 && f->deadline == 0)
        f->deadline = now_s() + FOLLOW_STALL_S;
    return changed;
}

static int follower_events(struct follow *f, struct app *a,
                           const struct pollfd *p, int n)
{
    int changed = 0, wake = ffiles_wake_fd(f->files);
    double t = now_s();
    for (int k = 0; k < n; k++) {
        if (p[k].fd == wake && wake >= 0 && p[k].revents)
            changed |= table_arrived(f, a);
        else if (p[k].fd == f->fd && f->fd >= 0 && p[k].revents)
            changed |= read_teacher(f, a);
    }
    if (f->fd >= 0 && (a->screen_w != f->term_w || a->screen_h != f->term_h ||
                       (int)a->color != f->term_color) && a->screen_w > 0)
        send_term(f, a);        /* resized: the teacher's list says so */
    if (f->fd >= 0 && f->deadline > 0 && t >= f->deadline) {
        hang_up(f, a, "no whole message in 3 s");
        changed = 1;
    }
    if (f->fd < 0 && t >= f->retry_at) {
        try_connect(f, a);
        if (f->fd < 0 && !f->ever && !f->announced && !f->notsock)
            app_msg(a, 0, "no teacher at %s yet, waiting", f->shown);
        f->announced = 1;
        changed = 1;
    }
    return changed;
}

/* Do a key here; the teacher's state stays.  -1 if the key changed the
 * state (undone), 0 if it only changed how this screen looks. */
static int local_key(struct app *a, int key)
{
    char before[FP_BODY_MAX], after[FP_BODY_MAX];
    int lb = fp_body(a, before, sizeof before);
    tour_offer_key(a, key);
    int la = fp_body(a, after, sizeof after);
    if (la == lb && lb > 0 && !memcmp(before, after, (size_t)lb))
        return 0;
    if (lb > 0)
        fp_apply(a, before, (size_t)lb, NULL, 0);
    return -1;
}

/* Teacher: who follows, grouped by terminal, most common first:
 * "3 following: 2 at 80x24 256 en, 1 at 120x40 truecolor zh". */
static void list_followers(const struct follow *f, struct app *a)
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

int follow_key(struct follow *f, struct app *a, int key)
{
    if (f && f->serving && key == 'F' && !a->prompt_open && !a->help) {
        list_followers(f, a);
        return 1;
    }
    if (!f || f->serving)
        return 0;
    if (key == 'F' && !a->prompt_open && !a->help) {
        f->detached = !f->detached;
        if (f->detached)
            app_msg(a, 0, "exploring on your own: F follows %s again",
                    f->shown);
        else if (f->have_latest) {
            f->fresh = 1;
            show_teacher(f, a, tour_follow(f, a));
            table_follow(f, a);
        }
        else
            app_msg(a, 0, "following %s: waiting for the teacher", f->shown);
        return 1;
    }
    if (!f->detached && key == 'q') {   /* at once, whatever a help card,
                                         * view or tour would say */
        a->quit = 1;
        return 1;
    }
    if (f->detached || a->help)
        return 0;
    /* keys that change how this screen looks; in a view where one
     * would change the state instead (none today), it is refused */
    if ((key == '?' || key == PK_F1 || key == 'P' || key == 'z') &&
        !local_key(a, key))
        return 1;
    app_msg(a, 0, "following %s: F to explore on your own", f->shown);
    return 1;
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

static int ms_until(double t)
{
    double ms = (t - now_s()) * 1000.0 + 1;
    return ms < 0 ? 0 : ms > 60000 ? 60000 : (int)ms;
}

int follow_wait_ms(const struct follow *f)
{
    if (!f)
        return -1;
    if (f->serving) {
        int w = f->held ? ms_until(f->sent_at + FOLLOW_PUBLISH_S) : -1;
        int b = f->accept_at > now_s() ? ms_until(f->accept_at) : -1;
        int n;
        const struct client *o = oldest_pending(f, 0, 1, &n);
        int g = o ? ms_until(o->since + FOLLOW_GREET_S) : -1;
        w = w < 0 ? b : b < 0 ? w : w < b ? w : b;
        return w < 0 ? g : g < 0 ? w : w < g ? w : g;
    }
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
    return follower_events(f, a, p, n);
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
