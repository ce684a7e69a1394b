/* SPDX-License-Identifier: ISC */
/* The application state: key dispatch, the ':' prompt, hostile commands. */
#include "app.h"
#include "harness.h"

static void type(struct app *a, const char *s)
{
    for (; *s; s++)
        app_key(a, (unsigned char)*s);
}

static void test_keys(void)
{
    struct app a;
    app_init(&a);
    app_key(&a, 'D');
    CHECK(a.p.d == 128);
    app_key(&a, 'd');
    app_key(&a, 'd');
    CHECK(a.p.d == 32);
    app_key(&a, 'B');
    CHECK(a.p.base == 100000);
    app_key(&a, 'N');
    CHECK(a.p.n == 256);
    app_key(&a, 'n');
    CHECK(a.p.n == 128);
    app_key(&a, '2');
    CHECK(a.view == VIEW_CLOCKS);
    app_key(&a, PK_TAB);
    CHECK(a.view == VIEW_ATTENTION);
    app_key(&a, '1');
    app_key(&a, ' ');
    CHECK(a.playing == 1);
    app_key(&a, ' ');
    CHECK(a.playing == 0);
    app_key(&a, '?');
    CHECK(a.help == 1);
    app_key(&a, 'x');               /* any key closes the help card */
    CHECK(a.help == 0 && !a.quit);
    app_key(&a, 'q');
    CHECK(a.quit == 1);
}

static void test_clamp(void)
{
    struct app a;
    app_init(&a);
    for (int i = 0; i < 20; i++)
        app_key(&a, 'D');
    CHECK(a.p.d == 65536);
    CHECK(strstr(a.msg, "maximum") != NULL);
    for (int i = 0; i < 20; i++)
        app_key(&a, 'b');
    CHECK(a.p.base == 2);
}

static void test_prompt(void)
{
    struct app a;
    app_init(&a);
    type(&a, ":d 512");
    CHECK(a.prompt_open == 1);
    app_key(&a, PK_ENTER);
    CHECK(a.prompt_open == 0 && a.p.d == 512);
    type(&a, ":base 5e5");
    app_key(&a, PK_ENTER);
    CHECK(a.p.base == 500000);
    type(&a, ":n 4096");
    app_key(&a, PK_ENTER);
    type(&a, ":pos 37");
    app_key(&a, PK_ENTER);
    CHECK(a.p.n == 4096 && a.p.pos == 37);
    type(&a, ":pos 3x");
    app_key(&a, PK_BACKSPACE);      /* edits the prompt: ":pos 3" */
    app_key(&a, PK_ENTER);
    CHECK(a.p.pos == 3 && !a.msg_error);
    type(&a, ":d 7");
    app_key(&a, PK_ESC);            /* Esc abandons the line */
    CHECK(a.p.d == 512 && !a.prompt_open);
    /* the attention options the command line shares (--heads ...) */
    a.view = VIEW_ATTENTION;
    CHECK(app_command(&a, "heads 4") == 0 && a.att.o.heads == 4);
    CHECK(app_command(&a, "head 3") == 0 && a.att.o.head == 2);
    CHECK(strstr(a.msg, "head 3 of 4") != NULL);
    CHECK(app_command(&a, "heads 2") == 0 && a.att.o.head == 1);
    CHECK(app_command(&a, "seed 7") == 0 && a.att.o.seed == 7);
    CHECK(app_command(&a, "q random") == 0 && a.att.o.q_random == 1);
    CHECK(app_command(&a, "train 100") == 0 && a.att.o.train_len == 100);
    CHECK(app_command(&a, "head 3") == -1 && a.att.o.head == 1);
    CHECK_STR(a.msg, ":head 3: wants a whole number 1..2");
}

/* Hostile ':' commands: a clear error, the state untouched. */
static void test_hostile(void)
{
    static const char *const BAD[] = {
        "d 99999999999999999999999", "d nan", "base inf", "base -0",
        "base nan", "n 0", "n -5", "pos -1", "d", "base", "d 6 6",
        "\033]0;pwned\007", "d \r\b", "base \033[2J", "\xff\xfe\x80",
        "pos 1e3", "d 0x40", "nonsense 1", "view nowhere",
    };
    struct app a, before;
    app_init(&a);
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        before = a;
        CHECK(app_command(&a, BAD[i]) == -1);
        CHECK(a.msg_error == 1 && a.msg[0]);
        CHECK(memcmp(&a.p, &before.p, sizeof a.p) == 0);
        CHECK(strchr(a.msg, '\033') == NULL);
    }
    char big[10240];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    CHECK(app_command(&a, big) == -1);
}

static void test_sweep(void)
{
    struct app a;
    app_init(&a);
    a.playing = 1;
    a.speed = 4;
    CHECK(app_tick(&a, 0.1) == 0);           /* 0.4 of a position */
    CHECK(app_tick(&a, 0.2) == 1 && a.p.pos == 1);
    a.p.pos = a.p.n - 1;
    app_tick(&a, 0.25);
    CHECK(a.p.pos == 0);                     /* wraps at n */
    CHECK(app_animating(&a));
    a.playing = 0;
    CHECK(!app_animating(&a));
}

int main(void)
{
    test_keys();
    test_clamp();
    test_prompt();
    test_hostile();
    test_sweep();
    TEST_END("test_app");
}
