/* SPDX-License-Identifier: ISC */
/*
 * follow_files.h - a follower's copies of the teacher's files.  The
 * teacher names its table and tour by base name and content hash; a
 * follower reads them only from the directory its student named
 * (--files DIR), by that base name alone, regular files only (opened
 * without following a symlink and without blocking, then checked), and
 * uses a table only if its content hash is the teacher's.  A table is
 * read in the background: the loop goes on, a newer table cancels an
 * older one still being read, and q quits at once.
 */
#ifndef PEVIZ_FOLLOW_FILES_H
#define PEVIZ_FOLLOW_FILES_H

#include <stddef.h>

#include "peviz/tables.h"

struct ffiles;
struct fp_table;

/* The directory, opened now: NULL with why in err (not a directory). */
struct ffiles *ffiles_open(const char *dir, char *err, size_t errlen);

/* Stop a read under way and close (NULL is fine). */
void ffiles_close(struct ffiles *ff);

/* Whether name is a plain file name: letters, digits, ". _ -", not
 * starting with '.', no '/'. */
int ffiles_plain(const char *name);

/* Open name in the directory, as above: the descriptor, or -1 with
 * why ("DIR/NAME: a symlink; only regular files are read"). */
int ffiles_openat(const struct ffiles *ff, const char *name, char *why,
                  size_t len);

/* The path by which name in the directory is read, after the checks of
 * ffiles_openat: the directory by its descriptor, so that renaming it
 * changes nothing.  0, or -1 with why. */
int ffiles_path(const struct ffiles *ff, const char *name, char *path,
                size_t pathlen, char *why, size_t whylen);

/* Start reading table t in the background; one under way is cancelled.
 * 0, or -1 with why (refused at once: not there, not a regular file). */
int ffiles_table_start(struct ffiles *ff, const struct fp_table *t,
                       char *why, size_t len);

/* Forget a table asked for (the teacher has none now). */
void ffiles_table_cancel(struct ffiles *ff);

/* The descriptor that is readable once a read ended (-1: none runs). */
int ffiles_wake_fd(const struct ffiles *ff);

/*
 * After ffiles_wake_fd was readable: 1 with the table, of content hash
 * the teacher's, moved to *tab and *info (name: its base name); -1 with
 * why; 0 when there is nothing to take (cancelled, or a newer read has
 * started).
 */
int ffiles_table_take(struct ffiles *ff, struct pe_table *tab,
                      struct pe_table_info *info, char *why, size_t len);

#endif
