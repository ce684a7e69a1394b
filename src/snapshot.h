/* SPDX-License-Identifier: ISC */
/*
 * snapshot.h - a canvas as text, ANSI text or SVG, without a terminal.
 */
#ifndef PEVIZ_SNAPSHOT_H
#define PEVIZ_SNAPSHOT_H

#include <stdio.h>

#include "canvas.h"

enum snap_format { SNAP_TEXT = 0, SNAP_ANSI, SNAP_SVG };

/* Format by name ("text", "ansi", "svg"), or -1. */
int snap_format_parse(const char *name);

/*
 * Write c to f.  SNAP_TEXT: UTF-8 (or ASCII) lines, trailing blanks
 * trimmed, one '\n' per row.  SNAP_ANSI: the same with SGR colour
 * escapes for mode (reset at each line end).  SNAP_SVG: one <rect> per
 * run of equal background on a row, <text> per run of glyphs, monospace,
 * exact RGB.  Returns 0, or -1 on a write error.
 * SVG details: a cell is 8 x 16 px; half-block cells are drawn as two
 * rectangles (one per half) rather than as a glyph; the terminal's
 * default colours become a dark theme (background #1e1e1e, text
 * #d0d0d0); colours are exact RGB for every mode but COLOR_NONE, which
 * drops them as canvas_resolve does.  SNAP_TEXT uses mode only for the
 * glyphs canvas_resolve picks (COLOR_NONE: density glyphs).
 */
int snapshot_write(FILE *f, const canvas *c, enum snap_format fmt,
                   int ascii, enum color_mode mode);

/*
 * Write to dir/name atomically: a temporary file in dir, fsync, then a
 * hard link to the final name.  Never replaces a file: -1 with errno
 * EEXIST if dir/name exists.  Returns 0, or -1 with errno set (no
 * partial or temporary file is left).
 */
int snapshot_save(const char *path, const canvas *c, enum snap_format fmt,
                  int ascii, enum color_mode mode);

/* An image (raster.h) as a PNG at path, saved as snapshot_save does. */
struct image;
int snapshot_save_png(const char *path, const struct image *im);

/*
 * For fatal-signal handlers: remove the temporary file of a save that
 * is under way, if any.  Async-signal-safe (unlink only).
 */
void snapshot_abandon(void);

#endif
