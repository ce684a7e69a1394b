/* SPDX-License-Identifier: ISC */
/*
 * tour.h - the guided tour: a plain-text script of steps, each of which
 * sets up the program (view, parameters, toggles) and shows a caption.
 *
 * A step is a list of ':' commands, run through tour_command() (and so
 * app_command()) exactly as a user would type them at the prompt,
 * optionally a few key presses, and a caption.  The tour is a command
 * source above the app: it feeds the app keys and lines and is never
 * called back by it.  Every step starts from the defaults (the output options
 * such as colour, palette and ASCII are kept), so a step looks the same
 * whether it is reached with Enter, with Backspace or by starting over.
 *
 * The file format (also in the man page and assets/doc/teaching.md):
 *
 *     # a comment (a line whose first non-blank character is '#')
 *     hint   Enter next · Backspace back · Esc leave   (optional, once,
 *                                                      before the first step)
 *     title  Why attention needs positions             (starts a step)
 *     set    view attention                            (one ':' command)
 *     key    m a                                       (keys pressed, by name)
 *     text   A caption line.  Consecutive text lines join into one
 *     text   paragraph; an empty `text` line starts a new paragraph.
 *     line   PE(0) = [0, 1, 0, 1]                      (a line of its own)
 *     check  e.e > 1.5 * p.p                           (a claim --check
 *     check  key E                                      tries at every
 *     check  set interleaved on                         classroom size:
 *                                                      tour_check.h)
 *
 * The directive is the first word of the line; the rest, after the blanks
 * that follow it, is its argument.  Blank lines are ignored.  Lines are
 * UTF-8, at most TOUR_LINE_MAX bytes; control characters in titles and
 * text are replaced by U+FFFD (a tab by a space) before anything is drawn.
 * Every step is applied to a scratch copy of the program when the file is
 * loaded, so a command the program would refuse is reported then, as
 * FILE:LINE: message.
 */
#ifndef PEVIZ_TOUR_H
#define PEVIZ_TOUR_H

#include <stddef.h>

#include "app.h"
#include "caption.h"

/*
 * Read and check the tour at path: every step is applied to a scratch
 * copy of a (a itself is not changed).  Returns 0, or -1 with
 * "PATH:LINE: message" (or "PATH: message" when no line applies) in err.
 */
int tour_load(struct tour *t, const char *path, const struct app *a,
              char *err, size_t errlen);
void tour_free(struct tour *t);

/*
 * Set a up as step number step (0-based) shows it: the defaults, then
 * the step's commands and keys.  The tour fields and the output options
 * (ASCII, colour, palette, mouse, frame rate, screen size, loaded table)
 * are kept.  Returns 0, or -1 if a command was refused (a->msg says why;
 * cannot happen for a tour that tour_load accepted).
 */
int tour_apply(struct app *a, const struct tour *t, int step);

/*
 * Load the tour at path_or_null (NULL or "": the shipped tour in the
 * language a->tour_lang, or from the locale when that is NULL; English
 * when that is Chinese and a->ascii is set, with a note why), make it
 * a->tour (freeing any previous one) and show its first step.
 * Returns 0, or -1 with the reason in err (a unchanged).
 */
int tour_start(struct app *a, const char *path_or_null, char *err,
               size_t errlen);

/* Load the tour at path_or_null (NULL or "": the shipped one) as
 * a->tour without showing a step (a follow-mode follower shows the
 * teacher's steps).  Returns 0, or -1 with the reason in err. */
int tour_load_as(struct app *a, const char *path_or_null, char *err,
                 size_t errlen);

/*
 * Where a tour run on someone else's behalf finds the files its set
 * lines name (set pe-file NAME, set config NAME): fn puts the path to
 * read NAME by in path, or returns -1 with why ("not a plain file
 * name", "a symlink").  ctx is fn's own.
 */
struct tour_files {
    int (*fn)(void *ctx, const char *name, char *path, size_t pathlen,
              char *why, size_t whylen);
    void *ctx;
};

/* tour_load_as for the file at path, whose set lines may read only the
 * files fs finds; a line naming another is refused as FILE:LINE. */
int tour_load_files(struct app *a, const char *path,
                    const struct tour_files *fs, char *err, size_t errlen);

/*
 * Once the terminal is open (a->ascii known): a shipped Chinese tour on
 * a terminal that shows only ASCII is replaced by the English one at the
 * same step, and the status line says why, once.
 */
void tour_fit_terminal(struct app *a);

/* Free a->tour and leave the tour (for the end of the program). */
void tour_release(struct app *a);

/*
 * The 'T' key: resume the loaded tour at the step it was left at, or
 * load the shipped one first and start it; the state before is kept for
 * Esc.  A failure goes to the status line.
 */
void tour_begin(struct app *a);

/*
 * ":tour N": show step N (1-based) of the loaded tour, loading the
 * shipped one first; starts the tour if it was not running.  Returns 0,
 * or -1 with "tour: step 20 is not in 1..14" (or why it cannot load)
 * in a->msg.
 */
int tour_goto_step(struct app *a, const char *arg);

/*
 * Keys while a tour is running: Enter next step, Backspace previous
 * step, Esc leaves the tour and puts back the state from before it (it
 * stays loaded: T resumes it), and a first q asks before quitting (a
 * second q quits).  Returns 1 if the key was taken, 0 otherwise.
 */
int tour_key(struct app *a, int key);


/*
 * A ':' command line from a person (the prompt, a test): ":tour N" is the
 * tour's own (tour_goto_step), every other line goes to app_command.
 * Returns what that returns.
 */
int tour_command(struct app *a, const char *line);

/*
 * A key from the keyboard, offered to the tour first: the prompt's
 * Enter runs the line through tour_command; then the app's own modes
 * (app_key_take); then the tour's keys while it runs (tour_key); then
 * the view's and the global keys (app_key_act), where T (ACT_TOUR)
 * starts or resumes the tour.  Returns the action, as app_key does.
 */
enum action tour_offer_key(struct app *a, int key);

/*
 * Where the shipped tour for lang ("en", "zh") is: the first readable of
 * EXE/../share/peviz/tours/LANG.tour (an installed program), EXE/assets/
 * tours (the source tree the program was built in), PEVIZ_DATADIR/tours
 * and ./assets/tours.  Returns buf, or NULL if none is readable (buf then
 * holds the last place tried).
 */
const char *tour_default_path(const char *lang, char *buf, size_t len);

/* "zh" if the first set of LC_ALL, LC_MESSAGES, LANG starts with zh,
 * else "en". */
const char *tour_lang_from_env(void);

#endif
