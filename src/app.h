/*
 * app.h - the application state (one struct, all parameters) and the
 * interface every view implements.
 *
 * The loop owns one struct app.  Keys become actions; actions change the
 * state through app_* functions (validated via params.h); views read the
 * state and draw it into a canvas.  The same draw path serves the
 * terminal and --snapshot.
 */
#ifndef PEVIZ_APP_H
#define PEVIZ_APP_H

#include <stddef.h>
#include <stdint.h>

#include "canvas.h"
#include "colormap.h"
#include "keys.h"
#include "params.h"

struct app;
struct pe_table;
struct tour;

/* ---- views ------------------------------------------------------------ */

enum view_id { VIEW_HEATMAP = 0, VIEW_CLOCKS, VIEW_ATTENTION, VIEW_COMPARE,
               VIEW_COUNT };

struct view {
    const char *name;       /* "heatmap": the --view name */
    const char *title;      /* "PE heatmap": shown in the status line */
    /*
     * Draw the view into c (the whole screen minus the status line).
     * Write a short view-specific status text (e.g. "1 col = 16 pos")
     * into hint.  Must cope with any size, down to 1x1.
     */
    void (*draw)(const struct app *a, canvas *c, char *hint, size_t hintlen);
    /* Handle a key first; return 1 if consumed (may set a->msg). */
    int (*key)(struct app *a, int key);
    /*
     * Handle a ':' command the global parser does not know ("k 3",
     * "heads 12"); return 1 if handled, with errors in a->msg.  NULL: none.
     */
    int (*command)(struct app *a, const char *name, const char *arg);
    /* The view's own keys for the help card; ended by key 0. */
    const struct keybind *keys;
    /* One-paragraph explanation for the help card (NULL: none). */
    const char *about;
    /*
     * Optional: non-zero while the view has unfinished work that it does
     * in slices between frames (the loop keeps ticking and redrawing).
     */
    int (*busy)(const struct app *a);
};

extern const struct view VIEW_HEATMAP_DEF, VIEW_CLOCKS_DEF,
                         VIEW_ATTENTION_DEF, VIEW_COMPARE_DEF;
extern const struct view *const VIEWS[VIEW_COUNT];

/* View by --view name, or -1. */
int view_parse(const char *name);

/* ---- per-view state ----------------------------------------------------- */

enum scheme { SCHEME_SINUSOIDAL = 0, SCHEME_ROPE, SCHEME_ALIBI,
              SCHEME_LEARNED, SCHEME_NOPE, SCHEME_COUNT };
const char *scheme_name(enum scheme s);
int scheme_parse(const char *name);       /* -1 if unknown */

struct heatmap_state {
    int dim;            /* cursor dimension */
    int dim0;           /* first dimension shown (scroll) */
    int zoom;           /* 0 = whole sequence fits; each step halves span */
    int64_t x0;         /* first position shown when zoomed */
};

struct clocks_state {
    int band;           /* band under the cursor */
    int band0;          /* first band shown when paging */
    int zoom;           /* 0 = evenly spaced overview, 1 = consecutive */
    int ghost;          /* ghost hand at pos + k shown */
    long k;             /* offset of the ghost hand */
    int counter;        /* binary counter strip shown */
};

struct attention_state {
    enum scheme scheme;
    int softmax, causal, temperature, content, scale_emb, split;
    int heads, head;            /* ALiBi: number of heads, current head */
    int q_random;               /* RoPE: 0 = q = k = ones, 1 = seeded */
    int64_t train_len;          /* learned: trained length (-1: n/2) */
    int64_t ci, cj;             /* cursor: query i, key j */
    int zoom;
    int64_t i0, j0;
};

#define COMPARE_MAX_PANES 3
enum pane_mode { PANE_HEATMAP = 0, PANE_SPECTRUM, PANE_PROFILE, PANE_DIFF,
                 PANE_MODE_COUNT };
enum layout { LAYOUT_INTERLEAVED = 0, LAYOUT_CONCAT, LAYOUT_HALF };
enum precision { PREC_F64 = 0, PREC_F32, PREC_BF16, PREC_F16 };

struct pane {
    double base;
    int d;
    int64_t n;
    enum layout layout;
    enum precision prec;
};

/* A pane's d <= 0 or n <= 0 means "follow a->p" (the global value). */
struct compare_state {
    int npanes, active, preset;
    enum pane_mode mode;
    struct pane panes[COMPARE_MAX_PANES];
    int dim;            /* shared cursor dimension (displayed order) */
    int band;           /* shared cursor band (spectrum mode) */
    int dims_1to1;      /* 0: rows show evenly spaced dims; 1: consecutive */
    int zoom;           /* 0 = all positions fit; each step halves the span;
                         * the shown window is the page holding a->p.pos */
};

/* ---- the application ---------------------------------------------------- */

#define APP_MSG_LEN 256
#define APP_PROMPT_LEN 256

struct app {
    params p;                   /* d_model, base, n, pos */
    enum view_id view;
    int help;                   /* help overlay shown */
    int quit;

    /* animation: the position sweep */
    int playing;
    double speed;               /* positions per second */
    double pos_frac;            /* fractional position carried by the sweep */
    int fps;

    /* output and terminal options */
    int ascii;                  /* ASCII rendering */
    enum color_mode color;      /* what the output can show */
    enum palette palette;
    int mouse, low_bandwidth;
    int mouse_x, mouse_y;       /* cell of the last click, set by the loop
                                   before it passes PK_MOUSE to app_key */
    int screen_w, screen_h;     /* size of the screen frames are drawn for
                                   (0: unknown, views assume 80x24); set by
                                   the loop and --snapshot, so key handlers
                                   can step by one column of what is shown */

    /* the ':' prompt */
    int prompt_open;
    int pasting;                /* inside a bracketed paste: keys are text */
    char prompt[APP_PROMPT_LEN];
    int prompt_len;

    /* one-line message in the status line, and whether it is an error */
    char msg[APP_MSG_LEN];
    int msg_error;

    struct heatmap_state heat;
    struct clocks_state clocks;
    struct attention_state att;
    struct compare_state cmp;

    /* The table loaded by --pe-file (peload.h), or NULL; owned by main.
     * The learned scheme uses it while d_model matches and it has at
     * least n rows; the heatmap shows it under the same condition. */
    const struct pe_table *pe_table;
    /* The path it was loaded from, as given (for captions), or NULL. */
    const char *pe_file_name;

    /* The guided tour (tour.h): the loaded script or NULL (owned here:
     * tour_release frees it), the step shown, whether the tour is running
     * (Esc leaves it, T starts it again), and its language ("en", "zh"
     * from --lang; NULL: from LC_ALL / LC_MESSAGES / LANG). */
    struct tour *tour;
    int tour_step;
    int tour_active;
    const char *tour_lang;
};

/* Defaults for everything (params_default, heatmap view, 30 fps, ...). */
void app_init(struct app *a);

/*
 * Back to the defaults, keeping what the user chose for output (ASCII,
 * colours, palette, mouse, fps), the screen size, a loaded --pe-file
 * table (whose d and n come back too) and the tour.
 */
void app_reset(struct app *a);

/* Set the status-line message (printf style); error != 0 marks it red. */
void app_msg(struct app *a, int error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Feed one key: the prompt (when open), the help overlay, the current
 * view's handler, then the global table.  Returns the action taken
 * (ACT_NONE if the key meant nothing).
 */
enum action app_key(struct app *a, int key);

/* Run a ':' command line ("d 512", "base 5e5"); errors go to a->msg.
 * Returns 0 on success, -1 on error (state unchanged). */
int app_command(struct app *a, const char *line);

/* Advance the sweep by dt seconds (when playing). Returns 1 if pos moved. */
int app_tick(struct app *a, double dt);

/* Whether anything animates (the loop sleeps forever when not). */
int app_animating(const struct app *a);

/* Called after d/base/n change so views can clamp their cursors. */
void app_params_changed(struct app *a);

/*
 * Write the frame as the terminal shows it (w x h) to the working
 * directory: peviz-VIEW-YYYYmmdd-HHMMSS.svg and .txt, atomically, never
 * replacing a file (a name taken gets -2, -3, ... before the extension;
 * an .svg whose .txt fails is removed).  One frame_draw: a view still
 * computing is saved as drawn, never waited for.  The status message
 * names the files, or the directory and the error.
 */
void app_export_frame(struct app *a, int w, int h);

/*
 * Draw the whole frame: the current view, the status line, the prompt,
 * the help overlay, or a "too small" card.  Used by the terminal and by
 * --snapshot alike.
 */
void frame_draw(const struct app *a, canvas *c);

/* frame_draw until the view has no work left in slices: for snapshots
 * and exported frames, which must show the finished picture. */
void frame_draw_finished(const struct app *a, canvas *c);

#endif
