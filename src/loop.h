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

#endif
