/* SPDX-License-Identifier: ISC */
/*
 * test_follow.c - the follow-mode sockets in one process: a teacher and
 * followers driven by poll() as the loop drives them.  What --serve
 * accepts and refuses at PATH, the socket's mode, the state reaching a
 * follower, refused and local keys, F, a follower that stops reading,
 * the teacher leaving and coming back, and a peer that is no teacher.
 * Waits are bounded (rounds of at most 10 ms), never timed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "follow.h"
#include "frames.h"
#include "follow_proto.h"
#include "harness.h"
#include "peviz/tables.h"
#include "tour.h"

static char dir[64], sock_path[96];

struct side { struct follow *f; struct app *a; };

/* One round of the loop for each side: publish, poll, events. */
static void round_once(struct side *s, int n)
{
    struct pollfd p[4 * FOLLOW_MAX_FDS];
    int at[8], cnt[8], total = 0;
    for (int i = 0; i < n; i++) {
        follow_publish(s[i].f, s[i].a, 1);
        at[i] = total;
        cnt[i] = follow_pollfds(s[i].f, p + total);
        total += cnt[i];
    }
    poll(p, (nfds_t)total, 10);
    for (int i = 0; i < n; i++)
        follow_events(s[i].f, s[i].a, p + at[i], cnt[i]);
}

/* Rounds until cond holds (at most 300 rounds: a few seconds). */
#define PUMP_UNTIL(s, n, cond) do { \
    for (int r_ = 0; r_ < 300 && !(cond); r_++) round_once(s, n); \
} while (0)

/* A stream socket and the address of path, for connect or bind. */
static int raw_socket(const char *path, struct sockaddr_un *sa)
{
    memset(sa, 0, sizeof *sa);
    sa->sun_family = AF_UNIX;
    snprintf(sa->sun_path, sizeof sa->sun_path, "%s", path);
    return socket(AF_UNIX, SOCK_STREAM, 0);
}

static int connect_raw(const char *path)
{
    struct sockaddr_un sa;
    int fd = raw_socket(path, &sa);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static int listen_raw(const char *path)
{
    struct sockaddr_un sa;
    int fd = raw_socket(path, &sa);
    if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(fd, 4) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

static void test_refusals(void)
{
    char p[160];
    struct stat st;
    snprintf(p, sizeof p, "%s/file", dir);
    FILE *fp = fopen(p, "w");
    fputs("keep me\n", fp);
    fclose(fp);
    CHECK(follow_serve(p, 0600) == NULL);
    CHECK(stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 8);
    snprintf(p, sizeof p, "%s/dir", dir);
    mkdir(p, 0700);
    CHECK(follow_serve(p, 0600) == NULL);
    CHECK(stat(p, &st) == 0 && S_ISDIR(st.st_mode));
    /* a stale socket: bound, closed, left behind */
    snprintf(p, sizeof p, "%s/stale", dir);
    int fd = listen_raw(p);
    close(fd);
    CHECK(stat(p, &st) == 0 && S_ISSOCK(st.st_mode));
    struct follow *t = follow_serve(p, 0660);
    CHECK(t != NULL);
    CHECK(stat(p, &st) == 0 && S_ISSOCK(st.st_mode) &&
          (st.st_mode & 0777) == 0660);
    /* in use: a second teacher is refused, the first keeps it */
    CHECK(follow_serve(p, 0600) == NULL);
    fd = connect_raw(p);
    CHECK(fd >= 0);
    close(fd);
    follow_close(t);
    CHECK(stat(p, &st) < 0 && errno == ENOENT);   /* removed on close */
    /* too long a path */
    char longp[300];
    memset(longp, 'x', sizeof longp - 1);
    longp[sizeof longp - 1] = 0;
    CHECK(follow_serve(longp, 0600) == NULL);
    CHECK(follow_join(longp, NULL) == NULL);
}

static void test_follow_and_keys(void)
{
    struct app ta, fa, fb;
    struct stat st;
    app_init(&ta);
    app_init(&fa);
    app_init(&fb);
    fb.palette = PAL_MONO;
    struct follow *t = follow_serve(sock_path, 0600);
    CHECK(t != NULL);
    if (!t)
        return;
    CHECK(stat(sock_path, &st) == 0 && (st.st_mode & 0777) == 0600);
    struct side s[3] = { { t, &ta }, { follow_join(sock_path, NULL), &fa },
                         { follow_join(sock_path, NULL), &fb } };
    ta.p.d = 256;
    ta.p.n = 1000;
    ta.p.pos = 777;
    ta.view = VIEW_COMPARE;
    ta.cmp.npanes = 3;
    PUMP_UNTIL(s, 3, fa.p.d == 256 && fb.p.d == 256 && fb.p.pos == 777);
    CHECK(follow_clients(t) == 2);
    CHECK(fa.p.d == 256 && fa.p.n == 1000 && fa.p.pos == 777);
    CHECK(fa.view == VIEW_COMPARE && fa.cmp.npanes == 3);
    CHECK(fb.p.d == 256 && fb.palette == PAL_MONO);   /* its own palette */
    CHECK(strstr(fa.msg, "following") != NULL);
    /* a key that would change the state is refused, with the hint */
    CHECK(follow_key(s[1].f, &fa, 'D') == 1);
    CHECK(fa.p.d == 256);
    CHECK(strstr(fa.msg, ": F to explore on your own") != NULL);
    CHECK(follow_key(s[1].f, &fa, PK_RIGHT) == 1 && fa.p.pos == 777);
    /* y changes the compare view's rows (state): refused, undone */
    fa.msg[0] = 0;
    CHECK(follow_key(s[1].f, &fa, 'y') == 1 && fa.cmp.dims_1to1 == 0);
    CHECK(strstr(fa.msg, ": F to explore on your own") != NULL);
    /* z is presenter mode, how this screen looks: it acts here */
    CHECK(follow_key(s[1].f, &fa, 'z') == 1 && fa.presenter == 1);
    CHECK(follow_key(s[1].f, &fa, 'z') == 1 && fa.presenter == 0);
    /* look-only keys act here */
    int pal = fa.palette;
    CHECK(follow_key(s[1].f, &fa, 'P') == 1 && (int)fa.palette != pal);
    CHECK(follow_key(s[1].f, &fa, '?') == 1 && fa.help == 1);
    fa.help = 0;
    /* F: explore on your own; the teacher goes on without this one */
    CHECK(follow_key(s[1].f, &fa, 'F') == 1);
    CHECK(follow_key(s[1].f, &fa, 'd') == 0);     /* the loop handles it */
    app_key(&fa, 'd');
    CHECK(fa.p.d == 128);
    ta.p.pos = 5;
    PUMP_UNTIL(s, 3, fb.p.pos == 5);
    CHECK(fb.p.pos == 5);
    round_once(s, 3);
    CHECK(fa.p.d == 128 && fa.p.pos == 777);      /* detached */
    CHECK(follow_key(s[1].f, &fa, 'F') == 1);     /* rejoin: as it is now */
    CHECK(fa.p.d == 256 && fa.p.pos == 5);
    CHECK(follow_key(s[1].f, &fa, 'q') == 1 && fa.quit == 1);
    /* the teacher leaves: followers wait, then rejoin a new one */
    follow_close(t);
    CHECK(stat(sock_path, &st) < 0);
    PUMP_UNTIL(s + 1, 2, strstr(fb.msg, "teacher left, waiting"));
    CHECK(strstr(fb.msg, "teacher left, waiting") != NULL);
    app_init(&ta);
    ta.p.d = 32;
    s[0].f = t = follow_serve(sock_path, 0600);
    CHECK(t != NULL);
    PUMP_UNTIL(s, 3, fb.p.d == 32 && fa.p.d == 32);
    CHECK(fa.p.d == 32 && fb.p.d == 32);
    follow_close(s[1].f);
    follow_close(s[2].f);
    PUMP_UNTIL(s, 1, follow_clients(t) == 0);
    CHECK(follow_clients(t) == 0);
    follow_close(t);
}

/* A follower that connects and never reads is dropped; the teacher
 * never blocks on it (this test would hang if it did). */
static void test_stopped_follower(void)
{
    struct app ta;
    app_init(&ta);
    ta.p.n = 1 << 20;
    struct follow *t = follow_serve(sock_path, 0600);
    CHECK(t != NULL);
    if (!t)
        return;
    struct side s[1] = { { t, &ta } };
    int fd = connect_raw(sock_path);
    send(fd, "PEVIZ-FOLLOW 1\n", 15, 0);
    PUMP_UNTIL(s, 1, follow_clients(t) == 1);
    CHECK(follow_clients(t) == 1);
    int changes = 0;
    for (; changes < 20000 && follow_clients(t) == 1; changes++) {
        ta.p.pos = changes + 1;
        round_once(s, 1);
    }
    printf("a follower that never reads was dropped after %d updates\n",
           changes);
    CHECK(follow_clients(t) == 0);
    /* it reads what was buffered, then the end */
    char buf[4096];
    ssize_t r;
    size_t total = 0;
    while ((r = recv(fd, buf, sizeof buf, 0)) > 0)
        total += (size_t)r;
    CHECK(r == 0 && total > 0);
    close(fd);
    /* a client that says anything but the greeting is dropped too */
    fd = connect_raw(sock_path);
    send(fd, "GET / HTTP/1.0\r\n", 16, 0);
    PUMP_UNTIL(s, 1, follow_clients(t) == 1);
    PUMP_UNTIL(s, 1, follow_clients(t) == 0);
    CHECK(follow_clients(t) == 0);
    close(fd);
    follow_close(t);
}

/* Peers that are no teacher: the follower says so and keeps its state. */
static void hostile(const char *what, const char *send_this, size_t len,
                    const char *want)
{
    struct app fa;
    app_init(&fa);
    fa.p.d = 16;
    int l = listen_raw(sock_path);
    struct side s[1] = { { follow_join(sock_path, NULL), &fa } };
    round_once(s, 1);                   /* connects (the backlog takes it) */
    int c = accept(l, NULL, NULL);
    CHECK(c >= 0);
    if (len)
        send(c, send_this, len, MSG_NOSIGNAL);
    PUMP_UNTIL(s, 1, strstr(fa.msg, "bad message from"));
    if (!strstr(fa.msg, want)) {
        fprintf(stderr, "  %s: msg '%s' lacks '%s'\n", what, fa.msg, want);
        CHECK(0);
    }
    CHECK(fa.p.d == 16 && fa.view == VIEW_HEATMAP);
    CHECK(fa.msg_error == 1);
    close(c);
    close(l);
    unlink(sock_path);
    follow_close(s[0].f);
}

static void test_hostile(void)
{
    static const char big[] = "PEVIZ-FOLLOW 1 1073741824\nd 64\n";
    static const char bad[] = "PEVIZ-FOLLOW 1 9\nd 64\nq 1\n";
    static const char junk[] = "\x1b[2J\x1b]0;x\x07hello\r\n";
    hostile("garbage", junk, sizeof junk - 1, "not a peviz teacher");
    hostile("oversize", big, sizeof big - 1, "message of 1073741824 bytes");
    hostile("unknown field", bad, sizeof bad - 1, "line 2: unknown field");
    hostile("silence", "", 0, "no whole message in 3 s");
    /* a regular file where the socket should be */
    struct app fa;
    app_init(&fa);
    FILE *fp = fopen(sock_path, "w");
    fclose(fp);
    struct side s[1] = { { follow_join(sock_path, NULL), &fa } };
    round_once(s, 1);
    CHECK(strstr(fa.msg, "is not a socket") != NULL);
    follow_close(s[0].f);
    unlink(sock_path);
}


/* A file of text in dir. */
static void put(const char *name, const char *text)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    fputs(text, fp);
    fclose(fp);
}

/* The teacher's table t as its app publishes it, file named name. */
static void teach_table(struct app *ta, const struct pe_table *t,
                        struct pe_table_info *ti, const char *name)
{
    snprintf(ti->file, sizeof ti->file, "/somewhere/else/%s", name);
    ta->pe_table = t;
    ta->pe_info = ti;
    ta->pe_file_name = ti->file;
    fp_table_digest(t, ta->pe_digest);
}

/* A teacher's --pe-file table goes by base name and content hash: a
 * follower reads its own copy from --files DIR in the background (the
 * teacher's path is never opened), checks the hash, and says what it
 * cannot read; without --files nothing is opened at all. */
static void test_tables(void)
{
    static struct app ta, fa, fn;
    struct pe_table tt;
    struct pe_table_info ti;
    char path[160], err[512], files[128];
    snprintf(files, sizeof files, "%s/files", dir);
    mkdir(files, 0700);
    put("files/t.csv", "0.5,0,0,1\n1.5,-1,2,1\n2.5,-2,4,1\n");
    put("files/other.csv", "9,9,9,9\n9,9,9,9\n9,9,9,9\n");
    snprintf(path, sizeof path, "%s/t.csv", files);
    CHECK(tables_load(path, NULL, &tt, &ti, err, sizeof err) == 0);
    app_init(&ta);
    app_init(&fa);
    app_init(&fn);
    teach_table(&ta, &tt, &ti, "t.csv");
    ta.p.d = 4;
    ta.p.n = 3;
    struct follow *t = follow_serve(sock_path, 0600);
    struct side s[3] = { { t, &ta }, { follow_join(sock_path, files), &fa },
                         { follow_join(sock_path, NULL), &fn } };
    PUMP_UNTIL(s, 3, fa.pe_table != NULL && strstr(fn.msg, "not shown"));
    CHECK(fa.pe_table != NULL && fa.pe_table != &tt);  /* its own copy */
    if (fa.pe_table) {
        CHECK(fa.pe_table->n == 3 && fa.pe_table->d == 4);
        for (int p = 0; p < 3; p++) {
            const double *r = fa.pe_table->v + p * 4;
            CHECK(r[0] == p + 0.5 && r[1] == -p && r[2] == 2 * p && r[3] == 1);
        }
    }
    CHECK(strstr(fa.msg, "read the teacher's table t.csv") && !fa.msg_error);
    CHECK_STR(fn.msg, "the teacher loaded t.csv: not shown here (see --files)");
    CHECK(fn.pe_table == NULL && fn.p.d == 4);  /* the lecture goes on */
    /* a file of that name with other values: refused by its hash */
    teach_table(&ta, &tt, &ti, "other.csv");
    ta.p.pos = 2;
    PUMP_UNTIL(s, 3, fa.msg_error);
    CHECK(fa.p.pos == 2 && fa.msg_error && fa.pe_table == NULL);
    CHECK_STR(fa.msg, "teacher's table: other.csv: not the teacher's (its "
              "content hash differs)");
    /* one --files does not have: said, the lecture goes on */
    teach_table(&ta, &tt, &ti, "gone.csv");
    ta.p.pos = 1;
    PUMP_UNTIL(s, 3, fa.p.pos == 1);
    CHECK(fa.p.pos == 1 && fa.msg_error && fa.pe_table == NULL);
    CHECK(strstr(fa.msg, "teacher's table: ") && strstr(fa.msg, "files/gone.csv: "
          "No such file or directory"));
    teach_table(&ta, &tt, &ti, "t.csv");    /* back: read again */
    PUMP_UNTIL(s, 3, fa.pe_table != NULL);
    CHECK(fa.pe_table != NULL && fa.pe_table->n == 3);
    /* :pe-file on the teacher during the lecture: hashed as published,
     * read by the follower from --files */
    snprintf(path, sizeof path, "%s/other.csv", files);
    CHECK(app_load_table(&ta, path, err, sizeof err) == 0 && !ta.pe_digest[0]);
    PUMP_UNTIL(s, 3, fa.pe_table && fa.pe_table->v[0] == 9);
    CHECK(ta.pe_digest[0] && fa.pe_table && fa.pe_table->v[0] == 9);
    CHECK(strstr(fa.msg, "read the teacher's table other.csv") != NULL);
    /* no table: the one read for the teacher is put away */
    ta.pe_table = NULL;
    ta.pe_info = NULL;
    ta.pe_digest[0] = 0;
    PUMP_UNTIL(s, 3, fa.pe_table == NULL);
    CHECK(fa.pe_table == NULL && fa.pe_info == NULL);
    follow_close(s[2].f);
    follow_close(s[1].f);
    follow_close(t);
    pe_table_free(&tt);
}

/* A hostile teacher names files outside --files: /etc/passwd, "..",
 * a symlink out, a FIFO, a directory; none is opened or shown, each is
 * said on the status line and the lecture goes on.  A raw teacher
 * written here, speaking the protocol. */
static void test_hostile_names(void)
{
    static struct app fa;
    static const struct { const char *table, *want; } CASES[] = {
        { "/etc/passwd", "/etc/passwd: not a plain file name" },
        { "../follow-secret", "../follow-secret: not a plain file name" },
        { "..", "..: not a plain file name" },
        { ".hidden", ".hidden: not a plain file name" },
        { "link.csv", "link.csv: a symlink; only regular files are read" },
        { "fifo.csv", "fifo.csv: not a regular file" },
        { "sub", "sub: not a regular file" },
        { "zero.csv", "zero.csv: not a regular file" },
    };
    char files[128], p[200];
    snprintf(files, sizeof files, "%s/hfiles", dir);
    mkdir(files, 0700);
    put("follow-secret", "1,2\n3,4\n");
    snprintf(p, sizeof p, "%s/link.csv", files);
    CHECK(symlink("/etc/passwd", p) == 0);
    snprintf(p, sizeof p, "%s/fifo.csv", files);
    CHECK(mkfifo(p, 0600) == 0);
    snprintf(p, sizeof p, "%s/sub", files);
    CHECK(mkdir(p, 0700) == 0);
    /* a device like /dev/zero (a FIFO where devices cannot be made) */
    snprintf(p, sizeof p, "%s/zero.csv", files);
    if (mknod(p, S_IFCHR | 0600, makedev(1, 5)) != 0)
        CHECK(mkfifo(p, 0600) == 0);
    for (size_t i = 0; i < 2 * sizeof CASES / sizeof CASES[0]; i++) {
        char body[512], msg[600];
        size_t k = i % (sizeof CASES / sizeof CASES[0]);
        int tour = i >= sizeof CASES / sizeof CASES[0];   /* then as tours */
        int l = listen_raw(sock_path);
        app_init(&fa);
        struct side s[1] = { { follow_join(sock_path, files), &fa } };
        for (int r = 0; r < 3; r++)         /* it connects */
            round_once(s, 1);
        int c = accept(l, NULL, NULL);
        int n = tour ? snprintf(body, sizeof body, "d 16\npos %zu\ntour 0/3 %s\n",
                                i + 1, CASES[k].table)
                     : snprintf(body, sizeof body, "d 16\npos %zu\ntable %s sha256=%s\n",
                                i + 1, CASES[k].table, "0123456789abcdef0123456789abcdef"
                                "0123456789abcdef0123456789abcdef");
        int m = snprintf(msg, sizeof msg, "PEVIZ-FOLLOW 1 %d\n%s", n, body);
        CHECK(c >= 0 && send(c, msg, (size_t)m, MSG_NOSIGNAL) == m);
        PUMP_UNTIL(s, 1, fa.p.pos == (int64_t)i + 1 && fa.msg_error);
        CHECK(fa.p.d == 16 && fa.p.pos == (int64_t)i + 1);
        CHECK(fa.pe_table == NULL && !areas_tour_running(&fa));
        if (!strstr(fa.msg, CASES[k].want))
            fprintf(stderr, "  '%s': %s\n", CASES[k].table, fa.msg);
        CHECK(strstr(fa.msg, CASES[k].want) != NULL);
        CHECK(strstr(fa.msg, tour ? "teacher's tour" : "teacher's table") != NULL);
        CHECK(strstr(fa.msg, "root:") == NULL);
        close(c);
        close(l);
        unlink(sock_path);
        follow_close(s[0].f);
        tour_release(&fa);
    }
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Rounds as round_once does them, for n rounds or until cond; the
 * longest time the follower (s[1]) spent in follow_events, in ms. */
#define PUMP_TIMED(s, rounds, cond, worst) do { \
    for (int r_ = 0; r_ < (rounds) && !(cond); r_++) { \
        struct pollfd p_[4 * FOLLOW_MAX_FDS]; \
        follow_publish(s[0].f, s[0].a, 1); \
        int n0_ = follow_pollfds(s[0].f, p_); \
        int n1_ = follow_pollfds(s[1].f, p_ + n0_); \
        poll(p_, (nfds_t)(n0_ + n1_), 10); \
        follow_events(s[0].f, s[0].a, p_, n0_); \
        double t0_ = now_ms(); \
        follow_events(s[1].f, s[1].a, p_ + n0_, n1_); \
        double dt_ = now_ms() - t0_; \
        if (dt_ > (worst)) (worst) = dt_; \
    } \
} while (0)

/* A teacher alternating a large CSV (8 MB, a second or more to read)
 * and a small one: the follower never waits for a read (each newer
 * table cancels the one under way), ends on the teacher's last table,
 * and closes at once in the middle of a read (q). */
static void test_table_freeze(void)
{
    static struct app ta, fa;
    double bv[4] = { 0 };          /* the teacher's stand-in: its hash is sent */
    struct pe_table small, big = { 1, 4, bv };
    struct pe_table_info si, bi;
    char path[200], err[512], files[128];
    double worst = 0;
    snprintf(files, sizeof files, "%s/bfiles", dir);
    mkdir(files, 0700);
    snprintf(path, sizeof path, "%s/big.csv", files);
    FILE *fp = fopen(path, "w");
    for (int r = 0; r < 60000; r++)
        for (int c = 0; c < 16; c++)
            fprintf(fp, "%d.%06d%c", r % 7, (r * 16 + c) % 999999, c < 15 ? ',' : '\n');
    fclose(fp);
    put("bfiles/small.csv", "1,2,3,4\n5,6,7,8\n");
    snprintf(path, sizeof path, "%s/small.csv", files);
    CHECK(tables_load(path, NULL, &small, &si, err, sizeof err) == 0);
    memset(&bi, 0, sizeof bi);
    app_init(&ta);
    app_init(&fa);
    ta.p.d = 4;
    struct follow *t = follow_serve(sock_path, 0600);
    struct side s[2] = { { t, &ta }, { follow_join(sock_path, files), &fa } };
    PUMP_UNTIL(s, 2, fa.p.d == 4);
    for (int k = 0; k < 6; k++) {       /* big, small, big, ... */
        teach_table(&ta, k % 2 ? &small : &big, k % 2 ? &si : &bi,
                    k % 2 ? "small.csv" : "big.csv");
        if (k % 2 == 0)                 /* any hash: it is never finished */
            snprintf(ta.pe_digest, sizeof ta.pe_digest, "%064d", 0);
        ta.p.pos = k + 1;
        PUMP_TIMED(s, 300, fa.p.pos == k + 1, worst);
        CHECK(fa.p.pos == k + 1);
    }
    PUMP_TIMED(s, 300, fa.pe_table != NULL, worst);
    CHECK(fa.pe_table && fa.pe_table->n == 2 && fa.pe_table->v[7] == 8);
    CHECK(strstr(fa.msg, "read the teacher's table small.csv") != NULL);
    printf("the follower's longest event handling while tables alternate: "
           "%.1f ms\n", worst);
    CHECK(worst < 100);
    /* the big one again, and the follower closes in the middle (q) */
    teach_table(&ta, &big, &bi, "big.csv");
    snprintf(ta.pe_digest, sizeof ta.pe_digest, "%064d", 0);
    ta.p.pos = 9;
    PUMP_TIMED(s, 300, fa.p.pos == 9, worst);
    double t0 = now_ms();
    follow_close(s[1].f);
    double closing = now_ms() - t0;
    printf("closed in the middle of an 8 MB read in %.1f ms\n", closing);
    CHECK(closing < 100);
    follow_close(t);
    pe_table_free(&small);
}

/* A teacher's own tour goes by its base name: a follower loads its copy
 * from --files and shows the teacher's step; one it cannot load, or
 * without --files, is said. */
static void test_tour(void)
{
    static struct app ta, fa, fn;
    char path[160], err[512], files[128];
    snprintf(files, sizeof files, "%s/tfiles", dir);
    mkdir(files, 0700);
    static const char TOUR[] = "title First\nset d 32\ntext Hello.\n"
                               "title Second\nset d 48\ntext World.\n";
    put("l.tour", TOUR);
    put("tfiles/l.tour", TOUR);
    snprintf(path, sizeof path, "%s/l.tour", dir);
    app_init(&ta);
    app_init(&fa);
    app_init(&fn);
    CHECK(tour_start(&ta, path, err, sizeof err) == 0);
    CHECK(ta.p.d == 32 && areas_tour_running(&ta));
    struct follow *t = follow_serve(sock_path, 0600);
    struct side s[3] = { { t, &ta }, { follow_join(sock_path, files), &fa },
                         { follow_join(sock_path, NULL), &fn } };
    PUMP_UNTIL(s, 3, areas_tour_running(&fa) && fn.msg_error);
    CHECK(areas_tour_running(&fa) && fa.tour_step == 0 && fa.p.d == 32);
    CHECK(fa.tour && fa.tour != ta.tour && fa.tour->nsteps == 2);
    CHECK(fa.tour && !strcmp(fa.tour->steps[1].title, "Second"));
    CHECK_STR(fn.msg, "the teacher loaded l.tour: not shown here (see --files)");
    CHECK(!areas_tour_running(&fn) && fn.p.d == 32);
    CHECK(tour_key(&ta, PK_ENTER) == 1 && ta.tour_step == 1 && ta.p.d == 48);
    PUMP_UNTIL(s, 3, fa.tour_step == 1);
    CHECK(fa.tour_step == 1 && fa.p.d == 48 && areas_tour_running(&fa));
    /* a file of that name with other steps: refused by its hash */
    put("tfiles/m.tour", "title First\nset d 32\ntext Hello.\n"
        "title Second\nset d 48\ntext Not the teacher's.\n");
    free(ta.tour->abs);
    ta.tour->abs = strdup("/srv/lecture/m.tour");
    ta.p.pos = 2;
    PUMP_UNTIL(s, 3, fa.p.pos == 2);
    CHECK(fa.p.pos == 2 && fa.msg_error && !areas_tour_running(&fa));
    CHECK_STR(fa.msg, "teacher's tour: m.tour: not the teacher's (its content "
              "hash differs)");
    /* a tour file --files does not have */
    free(ta.tour->abs);
    ta.tour->abs = strdup("/srv/lecture/other.tour");
    ta.p.pos = 3;
    PUMP_UNTIL(s, 3, fa.p.pos == 3);
    CHECK(fa.p.pos == 3 && fa.msg_error && !areas_tour_running(&fa));
    CHECK(strstr(fa.msg, "teacher's tour: ") && strstr(fa.msg, "tfiles/other.tour: "
          "No such file or directory"));
    follow_close(s[2].f);
    follow_close(s[1].f);
    follow_close(t);
    tour_release(&ta);
    tour_release(&fa);
    tour_release(&fn);
}

/* A teacher's tour whose set lines name files: a follower reads them
 * from --files by base name alone, never from its working directory, and
 * refuses a tour that names a file by any other path. */
static void test_tour_files(void)
{
    static struct app ta, fa;
    char path[200], err[512], files[128], here[512], line[400];
    snprintf(files, sizeof files, "%s/ufiles", dir);
    mkdir(files, 0700);
    CHECK(getcwd(here, sizeof here) != NULL);
    CHECK(chdir(dir) == 0);             /* the teacher's x.csv: 3 rows */
    put("x.csv", "1,2,3,4\n5,6,7,8\n9,10,11,12\n");
    put("ufiles/x.csv", "1,2,3,4\n5,6,7,8\n9,10,11,12\n");
    static const char BASE[] = "title T\nset pe-file x.csv\ntext t.\n";
    put("b.tour", BASE);
    put("ufiles/b.tour", BASE);
    snprintf(line, sizeof line, "title T\nset pe-file %s/x.csv\ntext t.\n",
             dir);
    put("a.tour", line);
    put("ufiles/a.tour", line);
    snprintf(path, sizeof path, "%s/b.tour", dir);
    app_init(&ta);
    app_init(&fa);
    CHECK(tour_start(&ta, path, err, sizeof err) == 0);
    CHECK(ta.pe_table && ta.pe_table->n == 3);
    struct follow *t = follow_serve(sock_path, 0600);
    struct side s[2] = { { t, &ta }, { follow_join(sock_path, files), &fa } };
    snprintf(path, sizeof path, "%s/x.csv", dir);
    unlink(path);                       /* the working directory has none */
    PUMP_UNTIL(s, 2, areas_tour_running(&fa) &&
                     strstr(fa.msg, "read the teacher's table x.csv"));
    CHECK(areas_tour_running(&fa) && !fa.msg_error);
    snprintf(path, sizeof path, "%s/a.tour", dir);   /* by a full path */
    put("x.csv", "1,2,3,4\n5,6,7,8\n9,10,11,12\n");
    CHECK(tour_start(&ta, path, err, sizeof err) == 0);
    CHECK(ta.pe_table && ta.pe_table->n == 3);
    ta.p.pos = 1;
    int said = 0;               /* the table's own message may follow it */
    for (int r = 0; r < 300 && !(said && fa.p.pos == 1); r++) {
        round_once(s, 2);
        said |= fa.msg_error && strstr(fa.msg, "teacher's tour: a.tour:2: "
                                       "set pe-file: ") &&
                strstr(fa.msg, "not a plain file name");
    }
    CHECK(said && fa.p.pos == 1 && !areas_tour_running(&fa));
    CHECK(chdir(here) == 0);
    follow_close(s[1].f);
    follow_close(t);
    tour_release(&ta);
    tour_release(&fa);
}

/* A non-blocking connection to the teacher at sock_path, greeting or
 * not; the teacher gets a round to accept it (its queue is short). */
static int peer(struct side *t, int greet)
{
    struct sockaddr_un sa;
    int fd = raw_socket(sock_path, &sa);
    fcntl(fd, F_SETFL, O_NONBLOCK);
    for (int k = 0; k < 50 && connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0;
         k++)
        round_once(t, 1);
    if (greet && send(fd, FP_GREETING, sizeof FP_GREETING - 1, 0) < 0)
        t_fail++;
    round_once(t, 1);
    return fd;
}

/* Of n descriptors, how many the teacher has not hung up on. */
static int still_open(const int *fd, int n)
{
    int open_ = 0;
    for (int i = 0; i < n; i++) {
        char b[256];
        ssize_t r;
        while ((r = recv(fd[i], b, sizeof b, MSG_DONTWAIT)) > 0)
            ;
        open_ += r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
    }
    return open_;
}

/* 256 peers that connect and then neither greet nor read, before a real
 * follower: the follower is served at once; the silent ones give way
 * (at most FOLLOW_PENDING_PER_SOURCE of one user wait at a time) and are
 * dropped after FOLLOW_GREET_S.  Followers that read filling every
 * slot: the next one is told "teacher busy: N connections"; greeted
 * ones that do not read give way to it. */
static void test_idle_peers(void)
{
    static struct app ta, fa, fb;
    static int fd[FOLLOW_MAX_CLIENTS];
    app_init(&ta);
    app_init(&fa);
    app_init(&fb);
    ta.p.d = 32;
    struct side t[1] = { { follow_serve(sock_path, 0600), &ta } };
    for (int i = 0; i < FOLLOW_MAX_CLIENTS; i++)
        fd[i] = peer(t, 0);
    CHECK(follow_clients(t[0].f) == 0);
    struct side s[2] = { t[0], { follow_join(sock_path, NULL), &fa } };
    PUMP_UNTIL(s, 2, fa.p.d == 32);
    CHECK(fa.p.d == 32 && strstr(fa.msg, "following") != NULL);
    CHECK(follow_clients(t[0].f) == 1);
    CHECK(still_open(fd, FOLLOW_MAX_CLIENTS) <= FOLLOW_PENDING_PER_SOURCE);
    PUMP_UNTIL(t, 1, still_open(fd, FOLLOW_MAX_CLIENTS) == 0);
    CHECK(still_open(fd, FOLLOW_MAX_CLIENTS) == 0);
    CHECK(fa.p.d == 32 && !strstr(fa.msg, "teacher left"));
    for (int i = 0; i < FOLLOW_MAX_CLIENTS; i++)
        close(fd[i]);
    /* every slot a follower (this one and 255 that greet and read) */
    for (int i = 0; i < FOLLOW_MAX_CLIENTS - 1; i++)
        fd[i] = peer(t, 1);
    PUMP_UNTIL(t, 1, follow_clients(t[0].f) == FOLLOW_MAX_CLIENTS);
    CHECK(follow_clients(t[0].f) == FOLLOW_MAX_CLIENTS);
    double t0 = now_ms();       /* past the grace a reader is never owed */
    PUMP_UNTIL(s, 2, still_open(fd, FOLLOW_MAX_CLIENTS - 1) ==
                     FOLLOW_MAX_CLIENTS - 1 &&
                     now_ms() > t0 + 1500 * FOLLOW_GREET_S);
    CHECK(still_open(fd, FOLLOW_MAX_CLIENTS - 1) == FOLLOW_MAX_CLIENTS - 1);
    struct side u[2] = { t[0], { follow_join(sock_path, NULL), &fb } };
    PUMP_UNTIL(u, 2, strstr(fb.msg, "busy") != NULL);
    CHECK_STR(fb.msg, "teacher busy: 256 connections");
    for (int i = 0; i < FOLLOW_MAX_CLIENTS - 1; i++)
        close(fd[i]);
    follow_close(u[1].f);
    /* 255 that greet and never read: past FOLLOW_GREET_S a student takes
     * the place of the one that left its state unread longest, and the
     * follower that reads keeps its own */
    static struct app fc;
    app_init(&fc);
    PUMP_UNTIL(s, 2, follow_clients(t[0].f) == 1);
    for (int i = 0; i < FOLLOW_MAX_CLIENTS - 1; i++)
        fd[i] = peer(t, 1);
    PUMP_UNTIL(t, 1, follow_clients(t[0].f) == FOLLOW_MAX_CLIENTS);
    t0 = now_ms();
    PUMP_UNTIL(s, 2, now_ms() > t0 + 1500 * FOLLOW_GREET_S);
    struct side v[3] = { t[0], s[1], { follow_join(sock_path, NULL), &fc } };
    PUMP_UNTIL(v, 3, fc.p.d == 32 || strstr(fc.msg, "busy"));
    CHECK(fc.p.d == 32 && strstr(fc.msg, "following") != NULL);
    CHECK(follow_clients(t[0].f) == FOLLOW_MAX_CLIENTS);
    ta.p.d = 64;                /* both real followers go on */
    PUMP_UNTIL(v, 3, fa.p.d == 64 && fc.p.d == 64);
    CHECK(fa.p.d == 64 && fc.p.d == 64);
    for (int i = 0; i < FOLLOW_MAX_CLIENTS - 1; i++)
        close(fd[i]);
    follow_close(v[2].f);
    follow_close(s[1].f);
    follow_close(t[0].f);
}

/* The last row of a's frame at w x h. */
static void status_row(const struct app *a, int w, int h, char *row, size_t len)
{
    char *t = frame_text(a, w, h), *last = t;
    for (char *q = t; q && *q; q++)
        if (*q == '\n' && q[1])
            last = q + 1;
    snprintf(row, len, "%.*s", last ? (int)strcspn(last, "\n") : 0,
             last ? last : "");
    free(t);
}

/* The teacher's status line counts the followers that greeted; F lists
 * their terminals; a follower's line keeps the view title and tour step
 * at 80 columns and names the socket by its base name; a terminal line
 * that is not one drops its peer. */
static void test_status(void)
{
    static struct app ta, fa;
    char row[1024], err[256], path[160];
    app_init(&ta);
    app_init(&fa);
    fa.screen_w = 80;
    fa.screen_h = 24;
    fa.color = COLOR_256;
    fa.tour_lang = "en";
    struct side t[1] = { { follow_serve(sock_path, 0600), &ta } };
    struct side s[2] = { t[0], { follow_join(sock_path, NULL), &fa } };
    int idle = peer(t, 0);              /* connected, never greets */
    int other = peer(t, 1);
    static const char TERM[] = "term 120x40 truecolor zh\n";
    CHECK(send(other, TERM, sizeof TERM - 1, 0) == (ssize_t)sizeof TERM - 1);
    PUMP_UNTIL(s, 2, follow_clients(t[0].f) == 2 && fa.p.d == 64);
    for (int r = 0; r < 5; r++)
        round_once(s, 2);
    follow_status(t[0].f, &ta);
    CHECK_STR(ta.follow_status, "serving l.sock \xc2\xb7 2 following");
    CHECK_STR(ta.follow_short, "2 following");
    ta.ascii = 1;
    follow_status(t[0].f, &ta);
    CHECK_STR(ta.follow_status, "serving l.sock - 2 following");
    CHECK(follow_key(t[0].f, &ta, 'F') == 1);
    CHECK_STR(ta.msg, "2 following: 1 at 120x40 truecolor zh, 1 at 80x24 256 en");
    ta.msg[0] = 0;
    status_row(&ta, 80, 24, row, sizeof row);
    CHECK(strstr(row, "serving l.sock - 2 following") != NULL);
    /* at 62 columns the short form, the title kept */
    status_row(&ta, 62, 24, row, sizeof row);
    CHECK(strstr(row, "PE heatmap") && strstr(row, "2 following") &&
          !strstr(row, "serving"));
    /* a follower in a tour, 80 columns, a long socket path: the tour
     * step, the title and the socket's base name */
    snprintf(path, sizeof path, "%s/l.tour", dir);
    put("l.tour", "title First\nset d 32\ntext Hello.\n"
        "title Second\nset d 48\ntext World.\n");
    CHECK(tour_start(&fa, path, err, sizeof err) == 0);
    follow_status(s[1].f, &fa);
    CHECK_STR(fa.follow_status, "following l.sock");
    fa.msg[0] = 0;
    status_row(&fa, 80, 24, row, sizeof row);
    if (!strstr(row, "tour 1/2") || !strstr(row, "PE heatmap") ||
        !strstr(row, "following l.sock"))
        fprintf(stderr, "  status: %s\n", row);
    CHECK(strstr(row, "tour 1/2") && strstr(row, "PE heatmap") &&
          strstr(row, "following l.sock") && !strstr(row, dir));
    /* the joining message says it once, beside the title and the step */
    for (int w = 80; w <= 160; w += 40) {
        snprintf(fa.msg, sizeof fa.msg, "following l.sock");
        status_row(&fa, w, 24, row, sizeof row);
        char *one = strstr(row, "following");
        CHECK(one && !strstr(one + 1, "following"));
        CHECK(strstr(row, "tour 1/2") && strstr(row, "PE heatmap"));
    }
    tour_release(&fa);
    /* a terminal line with a control byte: dropped */
    static const char BAD[] = "term 80x24 256 en\x1b[2J\n";
    CHECK(send(other, BAD, sizeof BAD - 1, 0) == (ssize_t)sizeof BAD - 1);
    PUMP_UNTIL(t, 1, follow_clients(t[0].f) == 1);
    CHECK(follow_clients(t[0].f) == 1);
    close(idle);
    close(other);
    follow_close(s[1].f);
    follow_close(t[0].f);
}

/* The teacher's :note, :share zoom and :point reach followers of two
 * sizes, each drawing them for its own screen. */
static void test_class(void)
{
    static struct app ta, fa, fb;
    app_init(&ta);
    app_init(&fa);
    app_init(&fb);
    struct follow *t = follow_serve(sock_path, 0600);
    struct side s[3] = { { t, &ta }, { follow_join(sock_path, NULL), &fa },
                         { follow_join(sock_path, NULL), &fb } };
    PUMP_UNTIL(s, 3, follow_clients(t) == 2);
    CHECK(app_command(&ta, "note Watch the slow bands") == 0);
    CHECK(app_command(&ta, "view clocks") == 0 && app_command(&ta, "band 3") == 0);
    app_key(&ta, 'O');                  /* :point, as a key */
    CHECK(ta.point == 1);
    PUMP_UNTIL(s, 3, fa.point && fb.point && fa.note[0] && fb.note[0]);
    CHECK(follow_key(s[2].f, &fb, 'O') == 1 && fb.point == 1 &&
          strstr(fb.msg, "F to explore"));  /* a follower's: refused */
    CHECK_STR(fa.note, "Watch the slow bands");
    CHECK(frame_has(&fa, 80, 24, "Watch the slow bands"));
    CHECK(frame_has(&fb, 60, 20, "Watch the slow bands"));
    CHECK(frame_has(&fa, 80, 24, "look here: band i=3"));
    CHECK(frame_has(&fb, 60, 20, "look here: band i=3"));
    CHECK(frame_has(&ta, 100, 30, "look here: band i=3"));
    /* and each draws the mark on band 3 at its own size: the big clock's
     * hub, or where 60x20 has no room for it, the readout's band */
    CHECK(frame_has(&fa, 80, 24, "\xe2\x96\xb6\xe2\x97\x8f\xe2\x97\x80"));
    CHECK(frame_has(&fb, 60, 20, "band i=3\xe2\x97\x80"));
    /* presenter mode: each its own, until shared */
    CHECK(follow_key(s[1].f, &fa, 'z') == 1 && fa.presenter == 1);
    CHECK(follow_key(s[1].f, &fa, 'z') == 1 && fa.presenter == 0);
    CHECK(app_command(&ta, "share zoom") == 0);
    app_key(&ta, 'z');
    CHECK(ta.presenter == 1);
    PUMP_UNTIL(s, 3, fa.presenter && fb.presenter);
    CHECK(fa.presenter == 1 && fb.presenter == 1);
    CHECK(follow_key(s[1].f, &fa, 'z') == 1 && fa.presenter == 1);  /* shared */
    app_key(&ta, 'z');
    PUMP_UNTIL(s, 3, !fa.presenter && !fb.presenter);
    CHECK(fa.presenter == 0 && fb.presenter == 0);
    /* cleared */
    CHECK(app_command(&ta, "note") == 0 && app_command(&ta, "point off") == 0);
    PUMP_UNTIL(s, 3, !fa.note[0] && !fb.point);
    CHECK(!fa.note[0] && !fb.note[0] && !fa.point);
    char *ft = frame_text(&fa, 80, 24);
    CHECK(ft && !strstr(ft, "Watch"));
    free(ft);
    CHECK(app_command(&ta, "note caf\xc3\xa9") == -1 && ta.msg_error);
    follow_close(s[2].f);
    follow_close(s[1].f);
    follow_close(t);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/peviz-follow.XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    snprintf(sock_path, sizeof sock_path, "%s/l.sock", dir);
    test_refusals();
    test_follow_and_keys();
    test_stopped_follower();
    test_hostile();
    test_tables();
    test_hostile_names();
    test_table_freeze();
    test_tour();
    test_tour_files();
    test_idle_peers();
    test_status();
    test_class();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        t_fail++;
    TEST_END("test_follow");
}
