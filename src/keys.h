/* SPDX-License-Identifier: ISC */
/*
 * keys.h - key codes independent of the terminal library, actions, and
 * the one table that binds them.
 *
 * The terminal backend turns what it reads into these codes: printable
 * keys are their Unicode code point, Ctrl-X is X & 0x1f, the rest are
 * KEY_* values above the Unicode range.  Dispatch, the help overlay,
 * --help, the man page and the README key list all come from key tables.
 */
#ifndef PEVIZ_KEYS_H
#define PEVIZ_KEYS_H

enum {
    PK_NONE = -1,
    PK_BASE = 0x200000,
    PK_UP, PK_DOWN, PK_LEFT, PK_RIGHT,
    PK_PGUP, PK_PGDN, PK_HOME, PK_END,
    PK_ENTER, PK_BACKSPACE, PK_ESC, PK_TAB, PK_BTAB, PK_DELETE,
    PK_RESIZE, PK_MOUSE, PK_F1,
    PK_PASTE_BEGIN, PK_PASTE_END,   /* bracketed paste: text between */
    PK_CTRL_L = 0x0c,
    PK_CTRL_C = 0x03
};

enum action {
    ACT_NONE = 0,
    ACT_QUIT, ACT_HELP, ACT_VIEW_N,   /* ACT_VIEW_N: key '1' + i shows view i */
    ACT_NEXT_VIEW, ACT_PREV_VIEW,
    ACT_D_HALF, ACT_D_DOUBLE, ACT_BASE_DIV, ACT_BASE_MUL,
    ACT_N_HALF, ACT_N_DOUBLE,
    ACT_LEFT, ACT_RIGHT, ACT_UP, ACT_DOWN,
    ACT_FAST_LEFT, ACT_FAST_RIGHT, ACT_FAST_UP, ACT_FAST_DOWN,
    ACT_HOME, ACT_END,
    ACT_ZOOM_IN, ACT_ZOOM_OUT, ACT_PLAY, ACT_SLOWER, ACT_FASTER,
    ACT_STEP_BACK, ACT_STEP_FWD,
    ACT_RESET, ACT_RESET_ALL, ACT_REDRAW, ACT_PROMPT, ACT_MOUSE, ACT_PALETTE,
    ACT_EXPORT, ACT_TOUR, ACT_PRESENTER, ACT_POINT,
    ACT_VIEW_KEY     /* handled by the current view's own table */
};

struct app;

/*
 * One binding: key code, action, how the key is written in help, help,
 * and in a view's table the function that does it (the view's runtime
 * object is passed as rt; 1 if the key was taken, 0 to leave it to the
 * global table).
 */
struct keybind {
    int key;
    enum action act;
    const char *label;   /* "q", "Space", "PgUp", NULL: same as previous row */
    const char *help;
    int (*fn)(struct app *a, void *rt, int key);
};

/*
 * Rows for a table, a key with the keys that do the same (its aliases):
 * the first row has the label and help, each alias NULL for both, so the
 * help lists the group once.  Each table writes a group once:
 *   KEYS_ALIAS(key, alias, act, label, help, fn)   key, then alias
 *   KEYS_LEFT_RIGHT(left, right, label, help, fn)  Left h, Right l
 *   KEYS_UP_DOWN(up, down, label, help, fn)        Up k, Down j
 *   KEYS_ARROWS(left, right, up, down, label, help, fn)
 *                          the four arrows with hjkl, under one label
 *   KEYS_FAST(left, right, up, down, label, help, fn)
 *                          H, L, K PgUp, J PgDn: the bigger steps
 *   KEYS_HOME_END(home, end, label, help, fn)      Home, End
 *   KEYS_ZOOM(in, out, label, help, fn)            + =, then -
 * The acts are each direction's action (ACT_VIEW_KEY in a view's own
 * rows); label and help are NULL in a view whose rows do the global
 * actions its own way.
 */
#define KEYS_ALIAS(key, alias, act, label, help, fn) \
    { key, act, label, help, fn }, { alias, act, NULL, NULL, fn }
#define KEYS_LEFT_RIGHT(left, right, label, help, fn)   \
    KEYS_ALIAS(PK_LEFT, 'h', left, label, help, fn),    \
    KEYS_ALIAS(PK_RIGHT, 'l', right, NULL, NULL, fn)
#define KEYS_UP_DOWN(up, down, label, help, fn)         \
    KEYS_ALIAS(PK_UP, 'k', up, label, help, fn),        \
    KEYS_ALIAS(PK_DOWN, 'j', down, NULL, NULL, fn)
#define KEYS_ARROWS(left, right, up, down, label, help, fn) \
    KEYS_LEFT_RIGHT(left, right, label, help, fn),          \
    KEYS_UP_DOWN(up, down, NULL, NULL, fn)
#define KEYS_FAST(left, right, up, down, label, help, fn)   \
    { 'H', left, label, help, fn }, { 'L', right, NULL, NULL, fn }, \
    KEYS_ALIAS('K', PK_PGUP, up, NULL, NULL, fn),           \
    KEYS_ALIAS('J', PK_PGDN, down, NULL, NULL, fn)
#define KEYS_HOME_END(home, end, label, help, fn) \
    { PK_HOME, home, label, help, fn }, { PK_END, end, NULL, NULL, fn }
#define KEYS_ZOOM(in, out, label, help, fn)         \
    KEYS_ALIAS('+', '=', in, label, help, fn),      \
    { '-', out, NULL, NULL, fn }

/* The global table, ended by a row with key 0. */
extern const struct keybind KEYS_GLOBAL[];

/* Action bound to key in table (ended by key 0), or ACT_NONE. */
enum action keys_lookup(const struct keybind *table, int key);

/* The row binding key in table, or NULL. */
const struct keybind *keys_find(const struct keybind *table, int key);

/* A readable name for a key code ("q", "Space", "Up", "^L"). */
const char *keys_name(int key, char *buf, int len);

#endif
