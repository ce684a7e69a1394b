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
 * Create path for the recording (never replacing a file: an existing one
 * is an error), mode 0644.  Returns 0, or -1 with the reason in err.
 */
int record_open(const char *path, char *err, size_t errlen);

/* Whether a recording is open. */
int record_active(void);

/*
 * The frame c as drawn (ascii, mode as the terminal shows it), then the
 * marker label when label is not NULL (after the frame, so a player
 * paused on the marker shows the step).  Nothing is written for
 * a frame equal to the last one (unless a marker comes with it).  A
 * write error closes the recording and is reported by record_close.
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
