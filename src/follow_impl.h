/* SPDX-License-Identifier: ISC */
/*
 * follow_impl.h - what the three follow-mode files share: the state of
 * a teacher's server and of a follower's connection (follow.h's
 * opaque struct follow), and the few calls between them.
 *
 * follow.c sets up, closes and drives both from the loop; it calls down
 * into follow_teacher.c (the server) and follow_student.c (the
 * follower), which never call each other or back up.
 */
#ifndef PEVIZ_FOLLOW_IMPL_H
#define PEVIZ_FOLLOW_IMPL_H

#include <poll.h>
#include <sys/types.h>
#include <sys/un.h>
#include <time.h>

#include "app.h"
#include "follow.h"
#include "follow_files.h"
#include "follow_proto.h"
#include "peviz/tables.h"

#define PATH_SHOWN 96            /* the path as messages show it */
#define READ_BUDGET 65536        /* bytes a follower reads per wake-up */
#define READ_SLICE_S 0.02        /* and seconds it spends on them */
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
    double read_at;              /* when it last had read all it was sent */
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

static inline double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Milliseconds until monotonic time t, within 0 .. 60000. */
static inline int ms_until(double t)
{
    double ms = (t - now_s()) * 1000.0 + 1;
    return ms < 0 ? 0 : ms > 60000 ? 60000 : (int)ms;
}

/* follow_teacher.c: the server's side of follow_close, follow_events,
 * follow_wait_ms and follow_key ('F': who follows). */
void teacher_close(struct follow *f);
void teacher_events(struct follow *f, const struct pollfd *p, int n);
int teacher_wait_ms(const struct follow *f);
void teacher_list(const struct follow *f, struct app *a);

/* follow_student.c: the follower's side of follow_events and
 * follow_key. */
int student_events(struct follow *f, struct app *a, const struct pollfd *p,
                   int n);
int student_key(struct follow *f, struct app *a, int key);

#endif
