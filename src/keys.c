/* SPDX-License-Identifier: ISC */
/*
 * keys.c - the global key table.  Dispatch (app.c), the help overlay
 * (frame.c), --help and the README's key list all read this table.
 */
#include <stdio.h>

#include "keys.h"

#define CTRL(c) ((c) & 0x1f)

const struct keybind KEYS_GLOBAL[] = {
    { 'q',          ACT_QUIT,       "q",      "quit", NULL },
    { '?',          ACT_HELP,       "?",      "this help card", NULL },
    { PK_F1,        ACT_HELP,       NULL,     NULL, NULL },
    /* label and help come from the view list (views_keys_text) */
    { '1',          ACT_VIEW_N,     "1..N",   "the views", NULL },
    { '2',          ACT_VIEW_N,     NULL,     NULL, NULL },
    { '3',          ACT_VIEW_N,     NULL,     NULL, NULL },
    { '4',          ACT_VIEW_N,     NULL,     NULL, NULL },
    { '5',          ACT_VIEW_N,     NULL,     NULL, NULL },
    { '6',          ACT_VIEW_N,     NULL,     NULL, NULL },
    { '7',          ACT_VIEW_N,     NULL,     NULL, NULL },
    { '8',          ACT_VIEW_N,     NULL,     NULL, NULL },
    { '9',          ACT_VIEW_N,     NULL,     NULL, NULL },
    { PK_TAB,       ACT_NEXT_VIEW,  "Tab S-Tab", "next / previous view", NULL },
    { PK_BTAB,      ACT_PREV_VIEW,  NULL,     NULL, NULL },
    { 'd',          ACT_D_HALF,     "d D",    "d_model /2, x2", NULL },
    { 'D',          ACT_D_DOUBLE,   NULL,     NULL, NULL },
    { 'b',          ACT_BASE_DIV,   "b B",    "base /10, x10", NULL },
    { 'B',          ACT_BASE_MUL,   NULL,     NULL, NULL },
    { 'n',          ACT_N_HALF,     "n N",    "seq_len /2, x2", NULL },
    { 'N',          ACT_N_DOUBLE,   NULL,     NULL, NULL },
    KEYS_ARROWS(ACT_LEFT, ACT_RIGHT, ACT_UP, ACT_DOWN,
                "arrows hjkl", "move the cursor", NULL),
    KEYS_FAST(ACT_FAST_LEFT, ACT_FAST_RIGHT, ACT_FAST_UP, ACT_FAST_DOWN,
              "HJKL PgUp PgDn", "move faster", NULL),
    KEYS_HOME_END(ACT_HOME, ACT_END, "Home End", "first / last position",
                  NULL),
    KEYS_ZOOM(ACT_ZOOM_IN, ACT_ZOOM_OUT, "+ -", "zoom in / out", NULL),
    { ' ',          ACT_PLAY,       "Space",  "play / pause the sweep", NULL },
    { '<',          ACT_SLOWER,     "< >",    "sweep slower / faster", NULL },
    { '>',          ACT_FASTER,     NULL,     NULL, NULL },
    { ',',          ACT_STEP_BACK,  ", .",    "one position back / on", NULL },
    { '.',          ACT_STEP_FWD,   NULL,     NULL, NULL },
    { 'r',          ACT_RESET,      "r",      "reset the view; keeps the model, config and table", NULL },
    { 'R',          ACT_RESET_ALL,  "R",      "reset everything (asks first)", NULL },
    { CTRL('L'),    ACT_REDRAW,     "^L",     "redraw the screen", NULL },
    /* the global settings' ':' rows follow (view_key_help) */
    { ':',          ACT_PROMPT,     ":",      ":grid 16x16 or :sequence "
                                              "text:4,image:16x24 for more "
                                              "axes; set a value:", NULL },
    /* listed by the views where a click does something (heatmap) */
    { 'M',          ACT_MOUSE,      NULL,     NULL, NULL },
    { 'P',          ACT_PALETTE,    "P",      "next palette", NULL },
    { 'w',          ACT_EXPORT,     "w",      "write the frame (.svg, .txt, .png)", NULL },
    { 'z',          ACT_PRESENTER,  "z",      "presenter: the panel under "
                                              "the cursor, full screen", NULL },
    { 'T',          ACT_TOUR,       "T",      "guided tour", NULL },
    { 'O',          ACT_POINT,      "O",      "point: show followers what "
                                              "the cursor is on (:point)", NULL },
    { 0,            ACT_NONE,       NULL,     NULL, NULL }
};

const struct keybind *keys_find(const struct keybind *table, int key)
{
    for (const struct keybind *k = table; k && k->key; k++)
        if (k->key == key)
            return k;
    return NULL;
}

enum action keys_lookup(const struct keybind *table, int key)
{
    const struct keybind *k = keys_find(table, key);
    return k ? k->act : ACT_NONE;
}

static const struct { int key; const char *name; } NAMED[] = {
    { PK_UP, "Up" }, { PK_DOWN, "Down" }, { PK_LEFT, "Left" },
    { PK_RIGHT, "Right" }, { PK_PGUP, "PgUp" }, { PK_PGDN, "PgDn" },
    { PK_HOME, "Home" }, { PK_END, "End" }, { PK_ENTER, "Enter" },
    { PK_BACKSPACE, "Backspace" }, { PK_ESC, "Esc" }, { PK_TAB, "Tab" },
    { PK_BTAB, "S-Tab" }, { PK_DELETE, "Delete" }, { PK_RESIZE, "resize" },
    { PK_MOUSE, "mouse" }, { PK_F1, "F1" }, { ' ', "Space" },
};

const char *keys_name(int key, char *buf, int len)
{
    for (size_t i = 0; i < sizeof NAMED / sizeof NAMED[0]; i++)
        if (NAMED[i].key == key)
            return NAMED[i].name;
    if (key > 0 && key < 0x20)
        snprintf(buf, (size_t)len, "^%c", key + '@');
    else if (key > 0x20 && key < 0x7f)
        snprintf(buf, (size_t)len, "%c", key);
    else
        snprintf(buf, (size_t)len, "U+%04X", (unsigned)key);
    return buf;
}
