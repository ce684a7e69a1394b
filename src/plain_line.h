/* SPDX-License-Identifier: ISC */
/*
 * plain_line.h - peviz on a terminal that cannot move its cursor
 * (TERM=dumb: an editor's shell buffer, a screen reader's line mode).
 */
#ifndef PEVIZ_PLAIN_LINE_H
#define PEVIZ_PLAIN_LINE_H

struct app;

/* Whether TERM names such a terminal. */
int plain_line_wanted(void);

/*
 * Run the program in --plain lines: each frame's lines are printed once
 * (plain.h), then again after every key that changes them, with a blank
 * line between frames.  Keys are read unbuffered, without echo, from
 * standard input (arrows as ESC [ A..D); at the end of input it quits.
 * The frame is COLUMNS x LINES cells (else 80x24).  Returns the exit
 * status; the terminal's modes are restored.
 */
int plain_line_run(struct app *a);

#endif
