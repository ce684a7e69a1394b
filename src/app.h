/* SPDX-License-Identifier: ISC */
/*
 * app.h - the application state (one struct, all parameters) and the
 * interface every view implements.
 *
 * Each view declares its own settings type in its header; struct app
 * holds one of each, as VIEW_LIST names them.
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
#include "settings.h"
#include "peviz/layout.h"
#include "peviz/mpos.h"
#include "peviz/scores.h"
#include "view.h"
#include "view_headers.h"   /* src/views/NAME.h of each VIEW_LIST line */

struct app;
struct pe_table;
struct pe_table_info;
struct tour;

/* ---- the application ---------------------------------------------------- */

#define APP_MSG_LEN 256
#define APP_NOTE_MAX 80         /* :note: printable ASCII (the protocol's) */
#define APP_PROMPT_LEN 256
#define APP_SOURCE_LEN 160

struct app {
    params p;                   /* d_model, base, n, pos */
    enum view_id view;
    int help;                   /* help overlay shown */
    int quit;
    int split;                  /* :split VIEW: that view + 1 beside (or
                                   below) the current one; 0: off */
    int presenter;              /* z / :zoom: the panel under the cursor
                                   fills the screen */
    /* for a class in follow mode (follow.h), set on the teacher: */
    int share_zoom;             /* :share zoom: followers take presenter */
    int point;                  /* :point: followers are shown what the
                                   cursor is on, highlighted */
    char note[APP_NOTE_MAX + 1];    /* :note TEXT: a line on every screen */

    /* animation: the position sweep */
    int playing;
    double speed;               /* positions per second */
    double pos_frac;            /* fractional position carried by the sweep */
    int fps;

    /* output and terminal options */
    int ascii;                  /* ASCII rendering */
    int plain_mode;             /* --plain: words and numbers (plain.h) */
    /* The terminal's choices as given, read once at the start: colours
     * (0 auto: what the terminal says, else 1 + enum color_mode), images
     * (enum gfx_mode, gfx.h) and the tour's language (0 auto: from
     * LC_ALL / LC_MESSAGES / LANG, else app_lang_word's). */
    int color_pick;
    int graphics;
    int lang_pick;
    int no_braille;             /* --no-braille: blocks for braille dots */
    enum color_mode color;      /* what the output can show */
    enum palette palette;
    int mouse, low_bandwidth;
    int opening;                /* the first screen, until the first key:
                                   "? help" outlives the view's hint (but
                                   for a tour step's) */
    int still;                  /* a still for a page (--slides): the page
                                   carries the caption and the keys, so the
                                   image has no caption panel, no "? help" */
    int mouse_x, mouse_y;       /* cell of the last click, set by the loop
                                   before it passes PK_MOUSE to app_key */
    int screen_w, screen_h;     /* size of the screen frames are drawn for
                                   (0: unknown, 80x24 is assumed); set by
                                   the loop and --snapshot, so a key lays
                                   the view out for the size it gets there
                                   (areas_view_size) and steps by what is
                                   drawn */

    /* the ':' prompt */
    int prompt_open;
    int pasting;                /* inside a bracketed paste: keys are text */
    char prompt[APP_PROMPT_LEN];
    int prompt_len;

    /* one-line message in the status line, and whether it is an error */
    /* follow mode on the status line (follow.c): "serving l.sock · 3
     * following" / "following l.sock", and a short form for narrow
     * lines ("3 following"); "" when not in follow mode */
    char follow_status[96];
    char follow_short[32];
    char msg[APP_MSG_LEN];
    int msg_error;
    int msg_over;               /* posted while the view computed: drawn
                                   over the view's last rows, so the view
                                   keeps its size and its work */

    /* Each view's settings (its type in src/views/NAME.h), one member
     * per line of VIEW_LIST (view.h): heat, clocks, att, cmp, grid. */
#define APP_VIEW_MEMBER_(id, name, type, member) type member;
    VIEW_LIST(APP_VIEW_MEMBER_)
#undef APP_VIEW_MEMBER_

    /* Positions with more than one axis (--sequence, --grid; peviz/mpos.h):
     * mode MPOS_OFF for the plain 1-D sequence of n positions. */
    struct mpos_conf mp;
    /* What the command line set (r and each tour step start from it;
     * the grid view's :sequence and :grid change only mp). */
    struct mpos_conf mp_start;

    /* Where the RoPE settings came from: a model preset's name or a
     * config file's base name ("" none), shown in the status line, and
     * the parameters as it set them (n its context), which r returns to.
     * R once asks for confirm_reset; R again drops it too. */
    char source[APP_SOURCE_LEN];
    params source_p;
    int confirm_reset;

    /* The table loaded by --pe-file (peviz/tables.h), or NULL; owned by main.
     * The learned scheme uses it while d_model matches and it has at
     * least n rows; the heatmap shows it under the same condition. */
    const struct pe_table *pe_table;
    /* --scheme t5 --pe-file: the bias table W [buckets x heads] (a
     * checkpoint's relative_attention_bias.weight), or NULL: the
     * stand-in.  It sets neither d_model nor n. */
    const struct pe_table *t5_table;
    /* --qk: query and key rows [2 x d_model] or per head [2H x d_model]
     * (rows 2h and 2h+1: head h), used by rope and xpos; or NULL. */
    const struct pe_table *qk_table;
    /* The path it was loaded from, as given (for captions), or NULL. */
    const char *pe_file_name;
    /* What was read (peviz/tables.h): the file, made absolute so that a
     * follower on the same machine can read the same one, the tensor and
     * the rows skipped; NULL when there is no table. */
    const struct pe_table_info *pe_info;
    /* Its content hash (fp_table_digest), when it is published or
     * compared with a teacher's: "" otherwise. */
    char pe_digest[65];

    /* The guided tour (tour.h): the loaded script or NULL (owned here:
     * tour_release frees it), the step shown, whether the tour is running
     * (Esc leaves it, T starts it again), and its language ("en", "zh"
     * from --lang; NULL: from LC_ALL / LC_MESSAGES / LANG). */
    struct tour *tour;
    int tour_step;
    int tour_active;
    const char *tour_lang;

    /* The views' runtime objects (caches, last layouts; view.h): a handle
     * owned by whoever runs the frames (the loop), shared by copies of
     * the state, NULL when there is none (frames then use scratch ones). */
    struct views_rt *rt;
};

/* The member of struct app that holds 1 + the model preset the global
 * RoPE scaling (p.rope) was set from, 0: none (the compare view shows it
 * as pane A's): for offsetof. */
#define APP_ROPE_MODEL cmp.panes[0].model

/* The global settings (settings.h): the rows of the program as a whole,
 * before each view's (src/app_settings.c). */
extern const struct setting APP_SETTINGS[];

/* The tour language of --lang's word k ("en", "zh"), NULL for auto. */
const char *app_lang_word(int k);

/* Defaults for everything (params_default, heatmap view, the settings'
 * defaults, ...). */
void app_init(struct app *a);

/*
 * Back to the defaults, keeping what the user chose for output (ASCII,
 * colours, palette, mouse, fps), the screen size, a loaded --pe-file
 * table (whose d and n come back too), the tour, and the model or config
 * the settings came from (its parameters come back): the r key.
 */
void app_reset(struct app *a);

/* The same without the model or config: the defaults (a tour step). */
void app_reset_defaults(struct app *a);

/* Remember that the parameters now come from a model preset (is_file 0:
 * name) or a config file (its path; the base name is kept). */
void app_set_source(struct app *a, const char *name, int is_file);

/* The source and the scaling for the status line: "deepseek-v3: yarn
 * s=40 L=4096", "config.json: llama3 s=8 L=8192", "yarn s=4 L=32768"
 * (flags alone), "" with no source and no scaling.  A source whose
 * settings were changed since is named "(from NAME, changed)". */
void app_source_format(const struct app *a, char *buf, size_t len);

/* Whether the PE shown and exported is a RoPE model's cos/sin cache
 * (a model, a config or a scaling is set): a cos(p omega_i), a sin(p
 * omega_i) at the plan's scaled omega; else the sinusoidal PE. */
int app_rope_cache(const struct app *a);

/* :pe-file FILE: load a position table as --pe-file does (d and n from
 * it); 0, or -1 with one line in err and nothing changed. */
int app_load_table(struct app *a, const char *path, char *err, size_t errlen);

/* app_table.c's half of it: the table loaded and d, n and pos taken from
 * it, but the views not yet told (app_load_table tells them). */
int app_table_load(struct app *a, const char *path, char *err, size_t errlen);

/* Free the tables :pe-file loaded (at exit). */
void app_tables_free(void);

/*
 * Tables that must outlive the loads after them though no app shows
 * them now: the one of the state a tour puts back on Esc, and the one
 * of the program while a tour is tried on a scratch copy of it.  A load
 * never reuses the place of a table kept (t NULL: keep none there).
 */
enum app_keep { APP_KEEP_BEFORE, APP_KEEP_CHECK, APP_KEEP_COUNT };
void app_tables_keep(enum app_keep which, const struct pe_table *t);

/* Set the status-line message (printf style); error != 0 marks it red. */
void app_msg(struct app *a, int error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Feed one key: the prompt (when open), the help overlay, the current
 * view's handler, then the global table.  Returns the action taken
 * (ACT_NONE if the key meant nothing).  ACT_TOUR (T), ACT_REDRAW and
 * ACT_EXPORT are for the command source above to carry out: the tour,
 * the loop.  app_key is app_key_take, then app_key_act.
 */
enum action app_key(struct app *a, int key);

/* The keys the app's own modes take first: anything while the prompt
 * is open, the key that closes the help card, R's confirmation.  1 with
 * the action in *act if it took the key (the message is cleared when it
 * did not). */
int app_key_take(struct app *a, int key, enum action *act);

/* Then the current view's key table and the global one. */
enum action app_key_act(struct app *a, int key);

/* A bracketed paste whose end marker never came: the keys from now on
 * are typed ones again (Esc, Enter and Backspace work in the prompt). */
void app_paste_cut(struct app *a);

/* Run a ':' command line ("d 512", "base 5e5"); errors go to a->msg.
 * Returns 0 on success, -1 on error (state unchanged). */
int app_command(struct app *a, const char *line);

/* Split a ':' command line in place: returns its name (leading blanks
 * and ':' skipped), *arg the rest after the blanks. */
char *app_command_split(char *line, char **arg);

/* Whether the first word of :name's argument is a file the command
 * reads (config, pe-file). */
int app_command_file(const char *name);

/* Advance the sweep by dt seconds (when playing). Returns 1 if pos moved. */
int app_tick(struct app *a, double dt);

/* Whether the current view has work left for later frames. */
int app_view_busy(const struct app *a);

/* Whether anything animates (the loop sleeps forever when not). */
int app_animating(const struct app *a);

/* The attention scores for the current parameters, the view's scheme
 * and toggles and the loaded --pe-file table (NULL: out of memory). */
struct score_ctx *app_scores_new(const struct app *a);
/* The same for other parameters and options (a compare pane's): the
 * tables and q and k still come from a. */
struct score_ctx *app_scores_new_for(const struct app *a, const params *p,
                                     const struct score_opts *o);

/* Called after d/base/n/pos change: every view clamps its own state. */
void app_params_changed(struct app *a);

#endif
