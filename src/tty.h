/* SPDX-License-Identifier: ISC */
/*
 * tty.h - the terminal backend (src/term.c), the only module that talks
 * to curses.  Not named term.h: that is curses' own header.
 *
 * It opens the terminal with newterm() (so an unusable terminal gets our
 * own message), picks the colour depth, turns canvases into screen
 * updates (one doupdate() per frame: curses sends only what changed),
 * reads keys as keys.h codes, and restores the terminal on every way out,
 * including fatal signals (async-signal-safe: saved tty modes and a reset
 * string prepared at start-up).
 */
#ifndef PEVIZ_TTY_H
#define PEVIZ_TTY_H

#include <stddef.h>

#include "canvas.h"

struct gfx_probe;

struct term_opts {
    int color_flag;      /* -1: auto, else enum color_mode from --color */
    int ascii_flag;      /* 1: --ascii forces ASCII */
    int mouse;           /* report mouse clicks */
    int graphics;        /* enum gfx_mode: GFX_AUTO asks the terminal */
    const char *typed;   /* input read before term_open (keys typed during */
    size_t ntyped;       /* another probe): read first, as keys and reports */
};

/*
 * Open the terminal.  Returns 0, or -1 with a one-line reason in err
 * (not a terminal, TERM unset/dumb/unknown, no cursor addressing).
 * On success *mode and *ascii tell what the terminal can show.
 */
int term_open(const struct term_opts *o, enum color_mode *mode, int *ascii,
              char *err, size_t errlen);

/* What the graphics probe at term_open found (gfx_probe.h; all zero
 * when --graphics named a mode and nothing was asked). */
void term_graphics_probe(struct gfx_probe *out);

/* Write s straight to the terminal after what curses has sent (images). */
void term_write_raw(const char *s, size_t n);

/* Leave curses and restore the terminal (idempotent). */
void term_close(void);

/*
 * Input is read through a filter for the whole run (termreply.h): a
 * terminal's report, however late it comes, is taken as an answer and
 * never as keys; every other byte reaches term_key, in order.
 * term_queued: keys are waiting that wake no poll() (read them with
 * term_key).  term_wait_ms: ms until bytes held back as the start of a
 * report that has not come whole give up and become keys (poll no
 * longer than that), -1 when none are held.
 */
int term_queued(void);
int term_wait_ms(void);

/* Ask the terminal for its text area and cell in pixels again (after a
 * resize: the font may have changed); the answers come as late ones. */
void term_ask_cell(void);

/* Whether graphics answers came after start-up stopped waiting for
 * them since the last call (then look at term_graphics_probe again). */
int term_graphics_late(void);

/* Current size in cells. */
void term_size(int *w, int *h);

/* The file descriptor to poll for input. */
int term_fd(void);

/* Show a canvas: write changed cells, place the cursor, doupdate(). */
void term_draw(const canvas *c, int ascii, enum color_mode mode);

/* Next key as a keys.h code, or PK_NONE if none is waiting.  Returns
 * -2 on EOF / EIO (the terminal is gone). For PK_MOUSE, *mx, *my hold
 * the cell clicked (may be NULL). */
int term_key(int *mx, int *my);

/*
 * Whether the terminal has taken what was written so far: 1 when output
 * can be written now without blocking (poll POLLOUT on standard output),
 * 0 when the terminal (or the link behind it) is still behind.  The loop
 * skips animation frames while it is 0.
 */
int term_ready(void);

/*
 * Bytes this process has written so far (all descriptors; the kernel's
 * count), or -1 where the system does not say.  Read around term_draw it
 * gives the bytes a frame cost: low-bandwidth mode paces frames by it.
 */
long long term_written(void);

/* Forget what the screen shows: the next term_draw repaints everything. */
void term_invalidate(void);

/* Enable or disable mouse reporting. */
void term_mouse(int on);

/* Bracketed paste on or off: while on, pasted text arrives between
 * PK_PASTE_BEGIN and PK_PASTE_END instead of as typed keys. */
void term_paste(int on);

/* Ctrl-Z: restore the terminal and stop; on return (SIGCONT) re-enter. */
void term_suspend(void);

/*
 * For fatal-signal handlers: put back the tty modes saved at term_open
 * and write a reset string prepared there (attributes off, mouse off,
 * cursor visible, alternate screen left).  Async-signal-safe: only
 * tcsetattr() and write().  Does nothing when the terminal is not open.
 */
void term_emergency_restore(void);

#endif
