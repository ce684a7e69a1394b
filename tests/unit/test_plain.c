/* SPDX-License-Identifier: ISC */
/*
 * test_plain.c - --plain's frame: drawing glyphs become blanks, blank
 * runs shrink to two, rows without a letter or digit go, the rest move
 * up in order, and the last row stays.
 */
#include "canvas.h"
#include "harness.h"
#include "plain.h"

#define RED RGB(255, 0, 0)

static const char *row(const canvas *c, int y)
{
    static char buf[512];
    canvas_row_utf8(c, y, buf, sizeof buf);
    for (size_t n = strlen(buf); n && buf[n - 1] == ' '; n--)
        buf[n - 1] = 0;
    return buf;
}

static void test_rewrite(void)
{
    canvas c;
    CHECK(canvas_init(&c, 30, 8) == 0);
    canvas_text(&c, 0, 0, -1, "  PE(0, 0) = 1", RED, RGB_DEFAULT, ATTR_BOLD);
    canvas_box(&c, 0, 1, 20, 4, RED, NULL);
    canvas_text(&c, 2, 2, -1, "a     b ▼ ω", RED, RGB_DEFAULT, 0);
    for (int x = 0; x < 40; x++)
        canvas_dot(&c, x, 3 * 4 + x % 4, RED);          /* a line plot */
    for (int x = 0; x < 30; x++)
        canvas_half(&c, x, 10, RED, 3);                 /* a heatmap row */
    canvas_text(&c, 0, 6, -1, "-1 ▀▀▀▀ +1 value", RED, RGB_DEFAULT, 0);
    canvas_text(&c, 0, 7, -1, "status   d=64", RED, RGB_DEFAULT, 0);
    plain_rewrite(&c);
    CHECK_STR(row(&c, 0), "PE(0, 0) = 1");
    CHECK(canvas_at(&c, 0, 0)->attr & ATTR_BOLD);      /* text keeps its look */
    CHECK_STR(row(&c, 1), "a  b  ω");
    CHECK_STR(row(&c, 2), "-1  +1 value");
    for (int y = 3; y < 7; y++)
        CHECK_STR(row(&c, y), "");
    CHECK_STR(row(&c, 7), "status   d=64");             /* stays as drawn */
    CHECK(canvas_at(&c, 0, 0)->attr & ATTR_CURSOR);     /* no mark: line 1 */
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 30; x++)
            CHECK(!plain_is_drawing(canvas_at(&c, x, y)));
    canvas_free(&c);
}

static void test_tiny(void)
{
    canvas c;
    CHECK(canvas_init(&c, 1, 1) == 0);
    canvas_put(&c, 0, 0, 0x2588, RED, RGB_DEFAULT, 0);
    plain_rewrite(&c);                  /* one row: it is the status line */
    CHECK(canvas_at(&c, 0, 0)->ch == 0x2588);
    canvas_free(&c);
}

int main(void)
{
    test_rewrite();
    test_tiny();
    TEST_END("plain");
}
