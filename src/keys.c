/*
 * keys.c - the global key table.  Dispatch (app.c), the help overlay
 * (frame.c), --help and the README's key list all read this table.
 */
#include <stdio.h>

#include "keys.h"

#define CTRL(c) ((c) & 0x1f)

const struct keybind KEYS_GLOBAL[] = {
    { 'q',          ACT_QUIT,       "q",      "quit" },
    { '?',          ACT_HELP,       "?",      "help card (any key closes it)" },
    { PK_F1,        ACT_HELP,       NULL,     NULL },
    { '1',          ACT_VIEW1,      "1",      "heatmap view" },
    { '2',          ACT_VIEW2,      "2",      "clocks view" },
    { '3',          ACT_VIEW3,      "3",      "attention view" },
    { '4',          ACT_VIEW4,      "4",      "compare view" },
    { PK_TAB,       ACT_NEXT_VIEW,  "Tab",    "next view" },
    { PK_BTAB,      ACT_PREV_VIEW,  "S-Tab",  "previous view" },
    { 'd',          ACT_D_HALF,     "d",      "halve d_model" },
    { 'D',          ACT_D_DOUBLE,   "D",      "double d_model" },
    { 'b',          ACT_BASE_DIV,   "b",      "divide base by 10" },
    { 'B',          ACT_BASE_MUL,   "B",      "multiply base by 10" },
    { 'n',          ACT_N_HALF,     "n",      "halve seq_len" },
    { 'N',          ACT_N_DOUBLE,   "N",      "double seq_len" },
    { PK_LEFT,      ACT_LEFT,       "Left h", "cursor left" },
    { 'h',          ACT_LEFT,       NULL,     NULL },
    { PK_RIGHT,     ACT_RIGHT,      "Right l", "cursor right" },
    { 'l',          ACT_RIGHT,      NULL,     NULL },
    { PK_UP,        ACT_UP,         "Up k",   "cursor up" },
    { 'k',          ACT_UP,         NULL,     NULL },
    { PK_DOWN,      ACT_DOWN,       "Down j", "cursor down" },
    { 'j',          ACT_DOWN,       NULL,     NULL },
    { 'H',          ACT_FAST_LEFT,  "H",      "cursor left, fast" },
    { 'L',          ACT_FAST_RIGHT, "L",      "cursor right, fast" },
    { 'K',          ACT_FAST_UP,    "K PgUp", "cursor up, fast" },
    { PK_PGUP,      ACT_FAST_UP,    NULL,     NULL },
    { 'J',          ACT_FAST_DOWN,  "J PgDn", "cursor down, fast" },
    { PK_PGDN,      ACT_FAST_DOWN,  NULL,     NULL },
    { PK_HOME,      ACT_HOME,       "Home",   "first position" },
    { PK_END,       ACT_END,        "End",    "last position" },
    { '+',          ACT_ZOOM_IN,    "+",      "zoom in" },
    { '=',          ACT_ZOOM_IN,    NULL,     NULL },
    { '-',          ACT_ZOOM_OUT,   "-",      "zoom out" },
    { ' ',          ACT_PLAY,       "Space",  "play / pause the position sweep" },
    { '<',          ACT_SLOWER,     "<",      "slower sweep" },
    { '>',          ACT_FASTER,     ">",      "faster sweep" },
    { ',',          ACT_STEP_BACK,  ",",      "one position back" },
    { '.',          ACT_STEP_FWD,   ".",      "one position forward" },
    { 'r',          ACT_RESET,      "r",      "reset everything to the defaults" },
    { CTRL('L'),    ACT_REDRAW,     "^L",     "redraw the screen" },
    { ':',          ACT_PROMPT,     ":",      "prompt: :d 512  :base 5e5  :n 4096  :pos 37" },
    { 'M',          ACT_MOUSE,      "M",      "mouse clicks on / off" },
    { 'P',          ACT_PALETTE,    "P",      "next palette (default, contrast, mono)" },
    { 'w',          ACT_EXPORT,     "w",      "write this frame as SVG and text" },
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
