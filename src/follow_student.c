/* SPDX-License-Identifier: ISC */
/*
 * follow_student.c - a follower's side of follow mode: a reconnecting
 * client that reads the teacher's state, applies it, and fetches the
 * teacher's table and tour from --files DIR only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "follow_impl.h"
#include "tour.h"

/* A non-blocking socket, and the address of the path in sa. */
static int socket_to(const char *path, struct sockaddr_un *sa)
{
    memset(sa, 0, sizeof *sa);
    sa->sun_family = AF_UNIX;
    snprintf(sa->sun_path, sizeof sa->sun_path, "%s", path);
    return socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

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

/* A file a teacher's tour names: in --files, by base name, a regular
 * file (tour_files). */
static int student_file(void *ctx, const char *name, char *path,
                        size_t pathlen, char *why, size_t whylen)
{
    return ffiles_path(ctx, name, path, pathlen, why, whylen);
}

/* Load the tour the teacher names from --files into a: 0, or -1 with
 * why in err; its set lines read files from there alone. */
static int tour_from_files(struct follow *f, struct app *a, const char *name,
                           char *err, size_t errlen)
{
    char path[64];
    int fd = ffiles_openat(f->files, name, err, errlen);
    if (fd < 0)
        return -1;
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    struct tour_files fs = { student_file, f->files };
    int r = tour_load_files(a, path, &fs, err, errlen);
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

/* A whole message: the teacher's state changes in the shadow; 1 when
 * it is to be shown (not detached), 2 after a hang-up. */
static int take(struct follow *f, struct app *a, const char *body,
                size_t len)
{
    char err[2 * APP_MSG_LEN];
    if (fp_apply(&f->shadow, body, len, err, sizeof err)) {
        hang_up(f, a, err);
        return 2;
    }
    f->have_latest = f->ever = 1;
    fp_find(body, len, "table", f->table, sizeof f->table);
    fp_find(body, len, "tour", f->tour, sizeof f->tour);
    fp_find(body, len, "tour.sha256", f->tour_sha, sizeof f->tour_sha);
    return !f->detached;
}

/*
 * Read what is there, message by message, for at most READ_BUDGET bytes
 * and READ_SLICE_S seconds (a flood of changes at a large d_model costs
 * a frequency plan each: the loop must get to the keys); the shadow
 * takes every message, the screen the last state once.
 */
static int read_teacher(struct follow *f, struct app *a)
{
    char buf[4096];
    size_t total = 0;
    int changed = 0, show = 0;
    double until = now_s() + READ_SLICE_S;
    while (f->fd >= 0 && total < READ_BUDGET && now_s() < until) {
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
            if (s == FP_MESSAGE) {
                int t = take(f, a, body, blen);
                show |= t == 1;
                changed |= t != 0;
            }
        }
    }
    if (show && f->fd >= 0 && !f->detached) {
        show_teacher(f, a, tour_follow(f, a));
        table_follow(f, a);
    }
    if (f->fd >= 0 && !fp_partial(&f->rd) && f->ever)
        f->deadline = 0;        /* nothing owed */
    else if (f->fd >= 0 && f->deadline == 0)
        f->deadline = now_s() + FOLLOW_STALL_S;
    return changed;
}

int student_events(struct follow *f, struct app *a,
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

/* follow_key's part for a follower: F leaves or rejoins the class, q
 * quits at once, keys that change only this screen are taken; the rest
 * is refused while following. */
int student_key(struct follow *f, struct app *a, int key)
{
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
