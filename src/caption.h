/*
 * caption.h - the tour as data (its steps, their captions and commands:
 * tour.c reads and runs them) and the running tour as the frame shows
 * it: the caption panel below the view, "tour 3/12" and the status
 * line's words in the tour's language.  Below the frame, which only
 * reads what the tour left in struct app.
 */
#ifndef PEVIZ_CAPTION_H
#define PEVIZ_CAPTION_H

#include <stddef.h>

#include "app.h"
#include "canvas.h"

#define TOUR_LINE_MAX 1024      /* bytes in one line of a tour file */
#define TOUR_FILE_MAX (1 << 20) /* bytes in a tour file */
#define TOUR_MAX_STEPS 256
#define TOUR_MAX_CMDS 32        /* set and key actions in one step */
#define TOUR_TEXT_MAX 8192      /* bytes of caption in one step */
#define TOUR_TEXT_COLS 96       /* captions wrap at most this wide (cells):
                                   longer lines are hard to read */

enum tour_cmd_kind { TOUR_SET = 0, TOUR_KEY };

struct tour_cmd {
    enum tour_cmd_kind kind;
    char *arg;                  /* TOUR_SET: the ':' command line */
    int key;                    /* TOUR_KEY: the key code */
    int line;                   /* where it was written */
};

struct tour_step {
    char *title;
    char *text;                 /* lines separated by '\n'; an empty line
                                   separates paragraphs */
    struct tour_cmd *cmds;
    int ncmd, line;
};

struct tour {
    char *path;
    char *abs;                  /* path made absolute (NULL: unknown) */
    int shipped;                /* the shipped tour, in its language */
    char sha256[65];            /* the file's content hash (follow mode) */
    char *hint;                 /* the key hint line (NULL: the default) */
    struct tour_step *steps;
    int nsteps;
    int zh;                     /* status texts in Chinese */
    int fell_back;              /* the shipped Chinese tour was asked for
                                   on an ASCII-only terminal: this is the
                                   English one */
    int quit_asked;             /* q was pressed once in the tour */
    struct app *before;         /* the state before the tour (Esc restores
                                   it), or NULL */
};

/* Whether a tour is running (a caption panel is shown). */
int tour_running(const struct app *a);

/* Chinese where the tour is and the terminal can show it. */
int tour_zh(const struct app *a);

/* en in the tour's language: Chinese when tour_zh, else en itself. */
const char *tour_say(const struct app *a, const char *en);

/* The status line's own words (a view's title, "? help") in the tour's
 * language: Chinese while a Chinese tour runs, else en itself. */
const char *tour_word(const struct app *a, const char *en);

/* "tour 3/12" into buf when a tour is running; returns 0 if none. */
int tour_status(const struct app *a, char *buf, size_t len);

/* ---- the caption ---------------------------------------------------- */

/* The width in cells captions wrap to on a screen w cells wide. */
int tour_text_width(int w);

/*
 * Rows the caption panel needs when a frame w x h (status line excluded)
 * is drawn: a rule with the step and title, the text wrapped to
 * tour_text_width(w) and the key hint, at most half of h.  0 when no tour
 * is running.
 */
int tour_panel_rows(const struct app *a, int w, int h);

/* Draw the caption panel into c (its own rows, below the view). */
void tour_draw_caption(const struct app *a, canvas *c);

#endif
