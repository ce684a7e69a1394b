/* SPDX-License-Identifier: ISC */
/*
 * record.h - a session as an asciicast v3 file (newline-delimited JSON:
 * a header line, then [interval, code, data] events, the interval in
 * seconds since the event before), for asciinema play.
 *
 * Each frame shown is written as one "o" event that repaints the screen
 * from its canvas, and only when it differs from the frame before: a
 * screen at rest writes nothing, so the recording has no idle stretches
 * of output.  A marker ("m") names every tour step when it is first
 * shown, so a player that pauses on markers stops at each step.  A new
 * screen size is an "r" event; the end is an "x" event with the exit
 * status.  One recording per process.
 */
#ifndef PEVIZ_RECORD_H
#define PEVIZ_RECORD_H

#include <stddef.h>

#include "canvas.h"

/*
 * Name path for the recording: refused when a file is there (a
 * recording never replaces one), when something else is (a device such
 * as /dev/full, a FIFO, a directory: named in err), or when its
 * directory cannot be written.
 * Nothing is created until record_start, so a start that is refused
 * (no terminal) leaves no file.  Returns 0, or -1 with the reason in err.
 */
int record_open(const char *path, char *err, size_t errlen);

/*
 * Once the terminal is open: create the file record_open named (mode
 * 0666 less the umask, never replacing a file).  Returns 0 (also when
 * nothing is recorded), or -1 with the reason in err.
 */
int record_start(char *err, size_t errlen);

/* Whether a recording is open. */
int record_active(void);

/*
 * Once, after a write failed (a full disk, a file size limit): 1 and
 * the message for the status line in msg.  The file holds the events
 * written before, each whole; nothing more is recorded.
 */
int record_lost(char *msg, size_t len);

/*
 * The frame c as drawn (ascii, mode as the terminal shows it), then the
 * marker label when label is not NULL (after the frame, so a player
 * paused on the marker shows the step).  Nothing is written for
 * a frame equal to the last one (unless a marker comes with it).  Each
 * event is written whole or not at all: a write error cuts the file
 * back to the events before, stops the recording and is reported by
 * record_lost and record_close.
 */
void record_frame(const canvas *c, int ascii, enum color_mode mode,
                  const char *label);

/*
 * End the recording with exit status status.  Returns 0, or -1 with the
 * reason in err when any write failed (the file then stops at the last
 * whole event).
 */
int record_close(int status, char *err, size_t errlen);

#endif
