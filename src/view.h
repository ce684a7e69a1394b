/* SPDX-License-Identifier: ISC */
/*
 * view.h - what a view is: a const definition with hooks (one per file
 * under src/views/), the list of views, and the runtime objects that
 * hold each view's caches and last layout outside struct app.
 *
 * struct app stays plain data that tours copy and tests compare with
 * memcmp; everything a view computes and keeps between frames lives in
 * its runtime object, which the frame composer hands to the hooks.
 *
 * A frame: layout(w, h) with the size the view really gets (the screen
 * minus the status line and the tour caption), work(budget) for a slice
 * of slow computing, then draw, which only reads the state and the
 * runtime object and writes cells.  A key the view's table binds calls
 * the row's fn after a fresh layout, so keys step by what is drawn.
 */
#ifndef PEVIZ_VIEW_H
#define PEVIZ_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "canvas.h"
#include "keys.h"

struct app;
struct setting;
struct state_field;
struct view_raster;

/*
 * The views, in the order of keys 1..N and Tab: one line each,
 *     VIEW(ID, name, settings type, member)
 * ID names VIEW_ID and VIEW_ID_DEF (in src/views/name.c).  The view's
 * settings type is declared in src/views/name_state.h (the build
 * includes that header in app.h for each line) and is a member of
 * struct app.
 * A view without settings says struct view_none (and has no header).
 *
 * Adding a view (tests/recipes.sh tries it with two views, one with
 * settings and one without):
 *   1. src/views/NAME_state.h: struct NAME_state, the settings the user
 *      changes and r and each tour step reset, as plain data; it
 *      includes only what the type needs (not app.h).  Functions shared
 *      with tests go in a NAME.h of its own, which app.h never sees.
 *   2. src/views/NAME.c: includes app.h and exports const struct view
 *      VIEW_ID_DEF (struct view below, in its order): name, title, about
 *      and the hooks it needs, all optional but draw; keys rows end with
 *      key 0 (keys.h writes a key and its aliases) and make the help
 *      card, --help and the docs too; settings (settings.h)
 *      are its options and ':' commands, commands the other names its
 *      command hook takes, fields (state_field.h) the rest of its
 *      follow-mode rows.  No mutable file-scope variables
 *      (tests/views_state.sh): caches live in the runtime object.
 *      Positions on screen go through axis.h; numbers come from libpeviz.
 *   3. One line in this list.  Its place is its number key.
 *   4. make docs (the README's and the man page's view and key lists),
 *      a paragraph in assets/doc/views.md, golden cases in
 *      tests/golden/cases.txt and make golden.
 */
#define VIEW_LIST(VIEW)                                        \
    VIEW(HEATMAP, heatmap, struct heatmap_state, heat)         \
    VIEW(CLOCKS, clocks, struct clocks_state, clocks)          \
    VIEW(ATTENTION, attention, struct attention_state, att)    \
    VIEW(COMPARE, compare, struct compare_state, cmp)          \
    VIEW(GRID, grid, struct grid_state, grid)

/* The settings of a view that keeps none in struct app. */
struct view_none {
    char none_;
};

#define VIEW_ENUM_(id, name, type, member) VIEW_##id,
enum view_id { VIEW_LIST(VIEW_ENUM_) VIEW_COUNT };
#undef VIEW_ENUM_

/* Work units of one slice between frames (about 6 ms). */
#define VIEW_WORK_SLICE (INT64_C(8000000))

/*
 * A view's definition.  Its members stand in groups, and a VIEW_ID_DEF
 * sets the ones it has in this order, filled line by line (a group runs
 * on where the line has room), so that every definition reads the same
 * way; the help card's paragraph comes last:
 *   name and title   .name .title .status_title
 *   lifecycle        .rt_size .reset .params_changed .fini
 *   drawing          .layout .work .draw .pace .raster .raster_parts
 *                    .point_text
 *   tables           .keys .key_help .fields .fields_check .settings
 *   commands         .command .commands
 *   tour checks      .quantity .quantities
 *   help             .about
 */
struct view {
    /* ---- name and title */
    const char *name;       /* "heatmap": the --view and :view name */
    const char *title;      /* "PE heatmap": shown in the status line */
    /* The status line's title for what it shows now (English: the tour
     * translates it); NULL: title. */
    const char *(*status_title)(const struct app *a);

    /* ---- lifecycle */
    size_t rt_size;         /* bytes of its runtime object (zeroed at birth) */
    /* Its own defaults in struct app (app_init, r, each tour step). */
    void (*reset)(struct app *a);
    /* Clamp its own state after d, base, n or pos changed. */
    void (*params_changed)(struct app *a);
    /* Free what rt holds (not rt itself).  NULL: nothing to free. */
    void (*fini)(void *rt);

    /* ---- drawing */
    /* Lay out for a view area of w x h cells; keep it in rt. */
    void (*layout)(const struct app *a, void *rt, int w, int h);
    /* A slice of slow work (at most about budget units); 1 if more is
     * left for later frames.  NULL: none. */
    int (*work)(const struct app *a, void *rt, int64_t budget);
    /*
     * Draw into c (the size given to layout): reads a and rt, computes
     * nothing slow.  A short view-specific status text (e.g. "1 col = 16
     * pos") goes into hint.  Must cope with any size, down to 1x1.
     */
    void (*draw)(const struct app *a, void *rt, canvas *c, char *hint,
                 size_t hintlen);
    /* Animation frames are paced to at most this many bytes per second
     * per cell of the screen (a frame of B bytes holds the next one back
     * B / (pace * cells) s); 0: only the frame rate paces them. */
    double pace;
    /*
     * Its data area number part (0 .. VIEW_RASTER_PARTS - 1: a view with
     * several, such as compare's panes, gives one each) as pixels, after
     * layout (and all work): cw x ch pixels per cell, the same values
     * the cells show at a finer grain.  Fills r (raster.h) and returns
     * 0, or -1 when it has none now.  NULL: the view's data areas are
     * drawn from its cells alone.
     */
    int (*raster)(const struct app *a, void *rt, int cw, int ch, int part,
                  struct view_raster *r);
    /* Parts raster may give (at most VIEW_RASTER_PARTS); 0: the first
     * VIEW_RASTER_PARTS_DEFAULT. */
    int raster_parts;
    /*
     * What the cursor is on, in words, for :point ("band i=3"); NULL:
     * "the cursor".  The view's draw marks the cell itself (view_point_mark)
     * while a->point is set.
     */
    void (*point_text)(const struct app *a, char *t, size_t len);

    /* ---- tables */
    /*
     * Its keys, ended by key 0: dispatch (each row's fn) and the help
     * card alike.  A row whose act is a global action and whose label is
     * NULL does that action its own way (documented by the global row).
     */
    const struct keybind *keys;
    /* The help of key row k when the view writes it from a table of its
     * own (the names of its modes), into buf; NULL for k->help.  NULL:
     * every row's help is k->help. */
    const char *(*key_help)(const struct keybind *k, char *buf, size_t len);
    /*
     * Its settings as follow mode publishes them (state_field.h): rows
     * in the order they go on the wire, ended by a row whose name is
     * NULL; NULL: none.  fields_check: relations between them that one
     * row at a time cannot check; 0, or -1 with "name: why" in err.
     */
    const struct state_field *fields;
    int (*fields_check)(const struct app *a, char *err, size_t errlen);
    /*
     * Its settings (settings.h): the command line's options, the ':'
     * commands, the follow rows, reset and the docs read them; ended by
     * a row whose name is NULL; NULL: none.
     */
    const struct setting *settings;

    /* ---- commands */
    /* A ':' command the global parser does not know ("k 3"); 1 if
     * handled, errors in a->msg.  NULL: none. */
    int (*command)(struct app *a, void *rt, const char *name,
                   const char *arg);
    /* The names command takes that only this view offers (":layer"),
     * NULL-ended: other views name the view they work in.  NULL: none. */
    const char *const *commands;

    /* ---- tour checks */
    /*
     * The number called name as the last draw showed it, for a tour's
     * check lines (tour_check.h): 0 with *v, or -1 when the view shows
     * none by that name now.  quantities says which it has, in words,
     * for messages and the tour format's guide.  NULL: none.
     */
    int (*quantity)(const struct app *a, const void *rt, const char *name,
                    double *v);
    const char *quantities;

    /* ---- help */
    const char *about;      /* a paragraph for the help card, or NULL */
};

#define VIEW_EXTERN_(id, name, type, member) \
    extern const struct view VIEW_##id##_DEF;
VIEW_LIST(VIEW_EXTERN_)
#undef VIEW_EXTERN_

extern const struct view *const VIEWS[VIEW_COUNT];

/* View by name, or -1. */
int view_parse(const char *name);

/* a's view, or NULL when a->view is not one. */
const struct view *view_current(const struct app *a);

/* The names in the list's order: "heatmap, clocks, ... or grid"
 * (sep_last: " or "). */
void views_names(char *buf, size_t len, const char *sep_last);

/*
 * :point's mark on the w cells from (x, y) of c, where the view draws its
 * cursor: them in reverse video in the accent colour, and an arrow either
 * side that points at them (where they fit); nothing more while
 * a->point is off.  Either way (x, y) is the inspected cell, where the
 * terminal's cursor is left (canvas_cursor).
 */
void view_point_mark(const struct app *a, canvas *c, int x, int y, int w);

/* The help text of key row k of view v (NULL: a global row): v's
 * key_help's, else its own, and for a ':' row the prompt commands of the settings' rows after it
 * (v's, or the global ones for v NULL: "  :heads N  :head H ..."). */
const char *view_key_help(const struct view *v, const struct keybind *k,
                          char *buf, size_t len);

/* The help label and text of the row binding keys 1..N to the views:
 * "1..N" (or "1 2 3" for up to four views) and their names. */
void views_keys_text(char *label, size_t llen, char *help, size_t hlen);

/* The label and help text of key row k of view v as a help card shows
 * them: view_key_help's text, or views_keys_text's for the row binding
 * keys 1..N; label and help hold what is composed.  *help is set. */
const char *view_key_text(const struct view *v, const struct keybind *k,
                          char *label, size_t llen, char *buf, size_t len,
                          const char **help);

/* ---- runtime objects --------------------------------------------------- */

/* One runtime object per view, and whether it has work left. */
struct views_rt {
    void *rt[VIEW_COUNT];
    int busy[VIEW_COUNT];
};

/* All views' runtime objects (NULL when out of memory). */
struct views_rt *views_rt_new(void);
void views_rt_free(struct views_rt *r);

/*
 * The runtime object of view v for a: the app's own (a->rt), or, when
 * it has none (tests, one-off frames), a fresh one in *tmp that the
 * caller gives back with view_rt_done.  NULL when out of memory.
 */
void *view_rt_get(const struct app *a, enum view_id v, void **tmp);
void view_rt_done(enum view_id v, void *tmp);

/*
 * View id drawn into c (its whole area): layout, one slice of work (all
 * of it when finish is set), draw.  Returns 1 if work is left.
 */
int view_frame(const struct app *a, enum view_id id, canvas *c, int finish,
               char *hint, size_t hintlen);

/*
 * The data area part of view id laid out in a w x h area, as pixels (the
 * view's raster hook, after all its work when finish is set; else from
 * what its runtime object holds now): 0 with r filled (free r->px), or
 * -1 when the view has none.
 */
int view_raster(const struct app *a, enum view_id id, int w, int h, int cw,
                int ch, int finish, int part, struct view_raster *r);

/* Data areas a view may give as images (view_raster's part): at most,
 * and those of a view that does not say. */
#define VIEW_RASTER_PARTS 97
#define VIEW_RASTER_PARTS_DEFAULT 3

/* The parts view id may give (0: it has no raster hook). */
int view_raster_parts(enum view_id id);

/* The current view's table row for key, after a fresh layout for the
 * size the view gets: 1 if the row's fn took the key. */
int view_key(struct app *a, int key);

/* The current view's own ':' command hook (app.c tries the view's
 * settings' rows after it); 1 if it took it. */
int view_command(struct app *a, const char *name, const char *arg);

#endif
