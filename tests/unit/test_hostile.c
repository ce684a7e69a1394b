/* SPDX-License-Identifier: ISC */
/*
 * Hostile ':' commands in every view: huge numbers, nan, inf, -0, empty
 * and missing values, trailing garbage, 10 KB of text, control
 * characters, escape sequences and broken UTF-8, for the global commands
 * and for each view's own (:k, :band, :q, :heads, :head, :train,
 * :scheme, :i, :j, :layout, :precision, :mode, and the compare view's
 * per-pane :base and :d).  Each must be refused with a message in the
 * status line (drawn without any control character) and leave the whole
 * state as it was, byte for byte, apart from the message itself.
 */
#include <stdlib.h>

#include "app.h"
#include "harness.h"
#include "frame.h"

/* Refused in every view. */
static const char *const GLOBAL_BAD[] = {
    "d 99999999999999999999999", "d nan", "d 7", "d 0", "d -2", "d 65538",
    "d 1e5", "d 0x40", "d 64abc", "d", "d 6 6", "d \r\b", "d \xff\xfe",
    "base inf", "base -inf", "base nan", "base -0", "base 1", "base 0.5",
    "base 1e400", "base", "base \033[2J", "base 1e4x",
    "n 0", "n -5", "n 1e300", "n 99999999999999999999", "n 2.5", "n",
    "pos -1", "pos 128", "pos 1e3", "pos nan", "pos", "pos \xc2\x9b" "2J",
    "view nowhere", "view", "view \033]0;pwned\007",
    "nonsense 1", "\033]0;pwned\007", "\xff\xfe\x80", "\xc2\x9b" "2J",
    "\x7f\x01\x02", "k\033", "d\t\t\t",
};

struct view_bad {
    enum view_id view;
    const char *cmd;
};

/* Refused by one view's own commands (defaults: d_model 64, n 128). */
static const struct view_bad VIEW_BAD[] = {
    { VIEW_CLOCKS, "k" }, { VIEW_CLOCKS, "k nan" },
    { VIEW_CLOCKS, "k inf" }, { VIEW_CLOCKS, "k 1e99" },
    { VIEW_CLOCKS, "k 12abc" }, { VIEW_CLOCKS, "k 99999999999999999999" },
    { VIEW_CLOCKS, "k -99999999999999999999" }, { VIEW_CLOCKS, "k 0x10" },
    { VIEW_CLOCKS, "k 1.5" }, { VIEW_CLOCKS, "k \033[2J" },
    { VIEW_CLOCKS, "k \xff" }, { VIEW_CLOCKS, "band -1" },
    { VIEW_CLOCKS, "band 32" }, { VIEW_CLOCKS, "band" },
    { VIEW_CLOCKS, "band nan" }, { VIEW_CLOCKS, "i 1e9" },
    { VIEW_CLOCKS, "band \033]0;pwned\007" },
    { VIEW_ATTENTION, "q" }, { VIEW_ATTENTION, "q zeros" },
    { VIEW_ATTENTION, "q ones x" }, { VIEW_ATTENTION, "q \033[2J" },
    { VIEW_ATTENTION, "heads 0" }, { VIEW_ATTENTION, "heads 129" },
    { VIEW_ATTENTION, "heads -1" }, { VIEW_ATTENTION, "heads nan" },
    { VIEW_ATTENTION, "heads 99999999999999999999" },
    { VIEW_ATTENTION, "heads" }, { VIEW_ATTENTION, "heads 8x" },
    { VIEW_ATTENTION, "head 0" }, { VIEW_ATTENTION, "head 9" },
    { VIEW_ATTENTION, "head -0x1" }, { VIEW_ATTENTION, "head" },
    { VIEW_ATTENTION, "train -1" }, { VIEW_ATTENTION, "train 129" },
    { VIEW_ATTENTION, "train inf" }, { VIEW_ATTENTION, "train" },
    { VIEW_ATTENTION, "train 1e3" }, { VIEW_ATTENTION, "seed -1" },
    { VIEW_ATTENTION, "seed 4294967296" }, { VIEW_ATTENTION, "seed" },
    { VIEW_ATTENTION, "seed 1.5" }, { VIEW_ATTENTION, "seed \033[2J" },
    { VIEW_ATTENTION, "scheme" },
    { VIEW_ATTENTION, "scheme bogus" }, { VIEW_ATTENTION, "scheme ROPE" },
    { VIEW_ATTENTION, "scheme \033]0;pwned\007" },
    { VIEW_ATTENTION, "i -1" }, { VIEW_ATTENTION, "i 128" },
    { VIEW_ATTENTION, "j 1e3" }, { VIEW_ATTENTION, "j" },
    { VIEW_ATTENTION, "i \xc3" },
    { VIEW_COMPARE, "layout" }, { VIEW_COMPARE, "layout diagonal" },
    { VIEW_COMPARE, "layout \033[2J" }, { VIEW_COMPARE, "precision f8" },
    { VIEW_COMPARE, "prec" }, { VIEW_COMPARE, "precision bf16 x" },
    { VIEW_COMPARE, "mode" }, { VIEW_COMPARE, "mode 3d" },
    { VIEW_COMPARE, "mode \xff\xfe" }, { VIEW_COMPARE, "base 1" },
    { VIEW_COMPARE, "b -0" }, { VIEW_COMPARE, "base nan" },
    { VIEW_COMPARE, "d 7" }, { VIEW_COMPARE, "d_model 0" },
    { VIEW_COMPARE, "d 131072" }, { VIEW_COMPARE, "d" },
};

/*
 * A message a user can read: not empty, and drawn (the status line of an
 * 80x24 frame) without a single control character (C0, DEL, C1).  The
 * message may quote what was typed; the canvas is where anything that
 * did not come from the program is made harmless.
 */
static int readable(const struct app *a)
{
    canvas c;
    int ok = a->msg[0] != 0;
    if (canvas_init(&c, 80, 24))
        return 0;
    frame_draw(a, &c);
    for (int y = 0; y < c.h; y++)
        for (int x = 0; x < c.w; x++) {
            uint32_t ch = canvas_at(&c, x, y)->ch;
            if (ch < 0x20 || (ch >= 0x7f && ch <= 0x9f))
                ok = 0;
        }
    canvas_free(&c);
    return ok;
}

/* s on stderr, escaped, at most 60 bytes of it. */
static void shown(const char *s)
{
    for (int i = 0; s[i] && i < 60; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c >= 0x7f)
            fprintf(stderr, "\\x%02x", c);
        else
            fputc(c, stderr);
    }
}

/* Run cmd in view v; the state must come back unchanged but the msg. */
static void refused(enum view_id v, const char *cmd)
{
    static struct app a, before;
    app_init(&a);
    a.view = v;
    memcpy(&before, &a, sizeof a);
    int r = app_command(&a, cmd);
    CHECK(r == -1);
    CHECK(a.msg_error == 1);
    int clear = readable(&a);
    CHECK(clear);
    memcpy(before.msg, a.msg, sizeof a.msg);
    before.msg_error = a.msg_error;
    int same = memcmp(&before, &a, sizeof a) == 0;
    CHECK(same);
    if (r != -1 || !same || !clear) {
        fprintf(stderr, "  view %s, command \"", VIEWS[v]->name);
        shown(cmd);
        fprintf(stderr, "\": returned %d, msg \"", r);
        shown(a.msg);
        fprintf(stderr, "\"\n");
    }
}

static void test_global(void)
{
    for (int v = 0; v < VIEW_COUNT; v++)
        for (size_t i = 0; i < sizeof GLOBAL_BAD / sizeof GLOBAL_BAD[0]; i++)
            refused((enum view_id)v, GLOBAL_BAD[i]);
}

static void test_views(void)
{
    for (size_t i = 0; i < sizeof VIEW_BAD / sizeof VIEW_BAD[0]; i++)
        refused(VIEW_BAD[i].view, VIEW_BAD[i].cmd);
}

/* 10 KB of text, of garbage and of escapes: refused, no overflow. */
static void test_long(void)
{
    static char big[10240];
    static const char fill[] = { 'x', '\033', (char)0xff, '9', ' ' };
    for (size_t f = 0; f < sizeof fill; f++) {
        memset(big, fill[f], sizeof big - 1);
        big[sizeof big - 1] = 0;
        for (int v = 0; v < VIEW_COUNT && fill[f] != ' '; v++)
            refused((enum view_id)v, big);  /* all blanks: an empty line */
        memcpy(big, "d ", 2);
        refused(VIEW_HEATMAP, big);
        memcpy(big, "k ", 2);
        refused(VIEW_CLOCKS, big);
        memcpy(big, "scheme ", 7);
        refused(VIEW_ATTENTION, big);
        memcpy(big, "layout ", 7);
        refused(VIEW_COMPARE, big);
    }
}

/* The prompt as typed: a long line is cut at the prompt's size, and
 * what is typed into it never holds a control character. */
static void test_typed(void)
{
    static struct app a;
    app_init(&a);
    app_key(&a, ':');
    for (int i = 0; i < 5000; i++)
        app_key(&a, i % 3 ? 'x' : 0x4E2D);     /* x and a CJK character */
    CHECK(a.prompt_open && a.prompt_len < APP_PROMPT_LEN);
    CHECK(strlen(a.prompt) == (size_t)a.prompt_len);
    app_key(&a, PK_ESC);
    static const int CTRL[] = { 0x1b, 0x07, 0x08, 0x0d, 0x7f, 0x00, 0x01,
                                0x9b, 0x9d, 0x85 };
    app_key(&a, ':');
    for (size_t i = 0; i < sizeof CTRL / sizeof CTRL[0]; i++)
        if (CTRL[i] != 0x1b && CTRL[i] != 0x0d && CTRL[i] != 0x08 &&
            CTRL[i] != 0x7f)
            app_key(&a, CTRL[i]);
    int clean = 1;
    for (const char *s = a.prompt; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            clean = 0;
    CHECK(clean);
}

int main(void)
{
    test_global();
    test_views();
    test_long();
    test_typed();
    TEST_END("test_hostile");
}
