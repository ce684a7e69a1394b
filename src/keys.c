/*
 * keys.c - the global key table.  Dispatch (app.c), the help overlay
 * (frame.c), --help and the README's key list all read this table.
 */
#include <stdio.h>

#include "keys.h"

#define CTRL(c) ((c) & 0x1f)

const struct keybind KEYS_GLOBAL[] = {
    { 'q',          ACT_QUIT,       "q",      "quit" },
    { '?',          ACT_HELP,       "?",      "this help card" },
    { PK_F1,        ACT_HELP,       NULL,     NULL },
    { '1',          ACT_VIEW1,      "1 2 3 4", "heatmap, clocks, attention, compare" },
    { '2',          ACT_VIEW2,      NULL,     NULL },
    { '3',          ACT_VIEW3,      NULL,     NULL },
    { '4',          ACT_VIEW4,      NULL,     NULL },
    { PK_TAB,       ACT_NEXT_VIEW,  "Tab S-Tab", "next / previous view" },
    { PK_BTAB,      ACT_PREV_VIEW,  NULL,     NULL },
    { 'd',          ACT_D_HALF,     "d D",    "d_model /2, x2" },
    { 'D',          ACT_D_DOUBLE,   NULL,     NULL },
    { 'b',          ACT_BASE_DIV,   "b B",    "base /10, x10" },
    { 'B',          ACT_BASE_MUL,   NULL,     NULL },
    { 'n',          ACT_N_HALF,     "n N",    "seq_len /2, x2" },
    { 'N',          ACT_N_DOUBLE,   NULL,     NULL },
    { PK_LEFT,      ACT_LEFT,       "arrows hjkl", "move the cursor" },
    { 'h',          ACT_LEFT,       NULL,     NULL },
    { PK_RIGHT,     ACT_RIGHT,      NULL,     NULL },
    { 'l',          ACT_RIGHT,      NULL,     NULL },
    { PK_UP,        ACT_UP,         NULL,     NULL },
    { 'k',          ACT_UP,         NULL,     NULL },
    { PK_DOWN,      ACT_DOWN,       NULL,     NULL },
    { 'j',          ACT_DOWN,       NULL,     NULL },
    { 'H',          ACT_FAST_LEFT,  "HJKL PgUp PgDn", "move faster" },
    { 'L',          ACT_FAST_RIGHT, NULL,     NULL },
    { 'K',          ACT_FAST_UP,    NULL,     NULL },
    { PK_PGUP,      ACT_FAST_UP,    NULL,     NULL },
    { 'J',          ACT_FAST_DOWN,  NULL,     NULL },
    { PK_PGDN,      ACT_FAST_DOWN,  NULL,     NULL },
    { PK_HOME,      ACT_HOME,       "Home End", "first / last position" },
    { PK_END,       ACT_END,        NULL,     NULL },
    { '+',          ACT_ZOOM_IN,    "+ -",    "zoom in / out" },
    { '=',          ACT_ZOOM_IN,    NULL,     NULL },
    { '-',          ACT_ZOOM_OUT,   NULL,     NULL },
    { ' ',          ACT_PLAY,       "Space",  "play / pause the sweep" },
    { '<',          ACT_SLOWER,     "< >",    "sweep slower / faster" },
    { '>',          ACT_FASTER,     NULL,     NULL },
    { ',',          ACT_STEP_BACK,  ", .",    "one position back / on" },
    { '.',          ACT_STEP_FWD,   NULL,     NULL },
    { 'r',          ACT_RESET,      "r",      "reset to the defaults" },
    { CTRL('L'),    ACT_REDRAW,     "^L",     "redraw the screen" },
    { ':',          ACT_PROMPT,     ":",      "set a value: :d 512 :base 5e5" },
    { 'M',          ACT_MOUSE,      "M",      "mouse clicks on / off" },
    { 'P',          ACT_PALETTE,    "P",      "next palette" },
    { 'w',          ACT_EXPORT,     "w",      "write the frame (.svg, .txt)" },
    { 'T',          ACT_TOUR,       "T",      "guided tour" },
    { 0,            ACT_NONE,       NULL,     NULL }
};

enum action keys_lookup(const struct keybind *table, int key)
{
    for (const struct keybind *k = table; k && k->key; k++)
        if (k->key == key)
            return k->act;
    return ACT_NONE;
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
