/* SPDX-License-Identifier: ISC */
/*
 * follow.h - follow mode: a teacher publishes its state on a Unix
 * socket (--serve PATH), followers draw it on their own terminals
 * (--follow PATH).  The state travels as text (follow_proto.h).
 *
 * Everything here is non-blocking and runs from the loop's one poll():
 * the loop asks for file descriptors and a timeout, then hands back
 * what poll() saw.  The teacher never waits for a follower: each has a
 * bounded output buffer and is dropped when it fills.  A follower
 * reconnects on its own and never trusts what it reads.
 */
#ifndef PEVIZ_FOLLOW_H
#define PEVIZ_FOLLOW_H

#include <poll.h>

#include "app.h"

#define FOLLOW_MAX_CLIENTS 256   /* followers of one teacher */
#define FOLLOW_MAX_FDS (FOLLOW_MAX_CLIENTS + 1)
#define FOLLOW_OUT_MAX 8192      /* unsent bytes per follower, beyond one
                                    whole state, before it is dropped */
#define FOLLOW_SNDBUF 4096      /* the kernel's buffer per follower (it
                                    doubles it, and keeps a minimum) */
#define FOLLOW_PUBLISH_S 0.25    /* sweep frames are published at most this
                                    often; keys at once */
#define FOLLOW_RETRY_S 0.5       /* a follower tries to reconnect this often */
#define FOLLOW_STALL_S 3.0       /* a message must be whole this soon */
/* A peer gets nothing until it has greeted; until then it holds a slot
 * only this long, and each user (SO_PEERCRED) at most so many such
 * slots, all users together at most FOLLOW_PENDING_MAX: a newer peer
 * takes the oldest one's place.  Silent peers cannot lock followers out;
 * nor can greeted ones that do not read: when every slot is taken, the
 * one that has left what it was sent unread the longest, this long at
 * least, gives way to the newcomer. */
#define FOLLOW_GREET_S 1.0
#define FOLLOW_PENDING_PER_SOURCE 8
#define FOLLOW_PENDING_MAX 32

struct follow;

/* The follow-mode keys (--help, the README and the man page). */
extern const struct keybind KEYS_FOLLOW[];

/*
 * Teacher: create the socket at path with the given mode (0600 unless
 * --serve-mode).  A stale socket (nobody listening) is replaced; a
 * socket in use or anything else at path is refused.  Returns NULL
 * after one line on stderr.
 */
struct follow *follow_serve(const char *path, unsigned mode);

/* Follower of the teacher at path (which need not exist yet), reading
 * the teacher's table and tour only from the directory files (NULL:
 * none; see follow_files.h).  NULL after one line on stderr (path too
 * long, files not a directory, out of memory). */
struct follow *follow_join(const char *path, const char *files);

/* Close everything; the teacher removes its socket file. */
void follow_close(struct follow *f);

/* The descriptors to poll, into p (room for FOLLOW_MAX_FDS); the count. */
int follow_pollfds(const struct follow *f, struct pollfd *p);

/* Milliseconds until follow_events has work without any descriptor
 * (a reconnect, a deadline, a held-back update); -1: none. */
int follow_wait_ms(const struct follow *f);

/*
 * After poll(): p and n as follow_pollfds filled them, with revents.
 * Accepts, reads, writes, reconnects, applies what a teacher sent.
 * Returns 1 if what the screen shows changed.
 */
int follow_events(struct follow *f, struct app *a, const struct pollfd *p,
                  int n);

/* What the status line says of follow mode, into a->follow_status and
 * a->follow_short: "serving l.sock · 3 following" ("3 following"), or
 * "following l.sock" ("following"), "waiting for l.sock", "on your own,
 * F: follow l.sock"; empty when f is NULL. */
void follow_status(struct follow *f, struct app *a);

/* Teacher: send the state to every follower if it changed; keyed: now,
 * else (a sweep frame) at most every FOLLOW_PUBLISH_S.  A table without
 * its content hash (a->pe_digest) gets it here first. */
void follow_publish(struct follow *f, struct app *a, int keyed);

/*
 * Follower: a key.  Returns 1 if it was taken here: F (detach, rejoin),
 * a key that only changes how this screen looks (done, then the
 * teacher's state is put back), or a key that would change the state
 * (refused with a message).  0: handle it as usual (detached).
 */
int follow_key(struct follow *f, struct app *a, int key);

/* Teacher: followers connected now, greeted (for the status line, the
 * bench and tests). */
int follow_clients(const struct follow *f);

#endif
