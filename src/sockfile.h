/* SPDX-License-Identifier: ISC */
/*
 * sockfile.h - a listening Unix socket put at a path without a window:
 * nothing at the path but a socket verified stale (nobody listens on it)
 * is ever removed or replaced, whatever others do to the path meanwhile.
 *
 * The socket is bound in a private directory (mode 0700) made next to
 * the path, given its mode there, then linked to the path, which fails
 * if anything is there.  A stale socket there is exchanged with ours in
 * one step (renameat2 RENAME_EXCHANGE); what came out is removed only if
 * it is that same stale socket, else exchanged back and refused.
 */
#ifndef PEVIZ_SOCKFILE_H
#define PEVIZ_SOCKFILE_H

#include <stddef.h>
#include <sys/types.h>

struct sockfile {
    int fd;                     /* listening, non-blocking, close-on-exec */
    dev_t dev;
    ino_t ino;                  /* the socket file at the path */
};

/* 0, or -1 with why in err ("exists and is not a socket; refusing to
 * replace it", "a socket in use ...", a system error). */
int sockfile_listen(const char *path, unsigned mode, int backlog,
                    struct sockfile *s, char *err, size_t errlen);

/*
 * Remove the socket file at path if it is still the one bound (dev,
 * ino), whatever others do to the path meanwhile: what is there is moved
 * into a private directory beside it in one step and removed there when
 * it is that socket, else put back under its name (never over a file
 * that came there since).  While it is moved the path is missing for an
 * instant.  0 (also when nothing is there), or -1 with why in err.
 */
int sockfile_remove(const char *path, dev_t dev, ino_t ino, char *err,
                    size_t errlen);

#endif
