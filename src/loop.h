/* SPDX-License-Identifier: ISC */
/*
 * loop.h - the interactive program: one wait point (poll) for keys,
 * resizes, signals and animation frames.
 */
#ifndef PEVIZ_LOOP_H
#define PEVIZ_LOOP_H

#include "app.h"
#include "tty.h"

/*
 * Run until the user quits or a signal ends the program.  Returns the
 * exit status (0 on quit; 2 if the terminal cannot be used, after
 * printing why on stderr; 1 if the terminal went away (EOF, EIO, hang-up)
 * while running; 128+signal for SIGINT/SIGTERM/SIGHUP/SIGQUIT).  On every
 * return the terminal is restored and the signal dispositions are back
 * at their defaults.
 */
int loop_run(struct app *a, const struct term_opts *o);

/* Follow mode (follow.h) for the next loop_run: its sockets join the
 * poll(); NULL: none. */
struct follow;
void loop_follow(struct follow *f);

/* --autoplay for the next loop_run: a running tour goes on to its next
 * step every seconds, and the program ends after the last one has been
 * shown as long; 0: off. */
void loop_autoplay(double seconds);

#endif
