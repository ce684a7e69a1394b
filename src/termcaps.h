/* SPDX-License-Identifier: ISC */
/*
 * termcaps.h - a terminfo entry without the capabilities that only some
 * emulators implement.
 *
 * Curses decides at start-up, from the entry, whether it may scroll
 * regions (DECSTBM, CSI n S / T, insert and delete line) and repeat
 * characters (REP, CSI n b); mosh, PuTTY, older VTE and macOS Terminal
 * show garbage for REP.  The entry it reads cannot be changed through
 * curses afterwards, so the terminal is opened from a copy of the
 * compiled entry (term(5)) in which those capabilities are marked
 * absent.  Nothing here uses curses.
 */
#ifndef PEVIZ_TERMCAPS_H
#define PEVIZ_TERMCAPS_H

#include <stddef.h>

/*
 * Mark the portable-unsafe string capabilities absent in a compiled
 * terminfo entry held in buf (len bytes).  Returns how many were present
 * and are now marked absent, or -1 if buf is not a compiled entry.
 */
int termcaps_patch(unsigned char *buf, size_t len);

/* Whether string capability number idx is present in the entry buf
 * (1), absent (0), or buf is not a compiled entry (-1). */
int termcaps_has(const unsigned char *buf, size_t len, int idx);

/* Where the compiled entry for term is, as curses would look it up
 * (TERMINFO, ~/.terminfo, TERMINFO_DIRS, the system directories).
 * Returns 0 and the path, or -1 if none is found. */
int termcaps_find(const char *term, char *path, size_t pathlen);

/*
 * Write a patched copy of term's entry into a fresh private directory
 * (under TMPDIR or /tmp) laid out as a terminfo tree; dir gets its path,
 * for TERMINFO.  Returns 0, or -1 (nothing left behind) if the entry
 * cannot be found, read or written.
 */
int termcaps_portable(const char *term, char *dir, size_t dirlen);

/* Remove what termcaps_portable() wrote. */
void termcaps_remove(const char *dir, const char *term);

/* String capability numbers, in terminfo's fixed order (term(5)). */
enum { CAP_CSR = 3, CAP_DL1 = 22, CAP_IL1 = 53, CAP_DL = 106,
       CAP_INDN = 109, CAP_IL = 110, CAP_RIN = 113, CAP_REP = 121,
       CAP_IND = 129, CAP_RI = 130 };

#endif
