/* SPDX-License-Identifier: ISC */
/*
 * test_canvas.c - the cell grid: clipping, sub-canvases, wide glyphs,
 * control-character safety, half-blocks, braille, lines, boxes and the
 * ASCII / no-colour fallbacks.
 */
#include <stdlib.h>

#include "canvas.h"
#include "harness.h"

#define RED RGB(255, 0, 0)
#define BLUE RGB(0, 0, 255)
#define GREEN RGB(0, 255, 0)

/* Row y as UTF-8, wide tails skipped, like a UTF-8 terminal shows it. */
static const char *row_str(const canvas *c, int y)
{
    static char buf[1024];
    size_t n = 0;
    int x;

    for (x = 0; x < c->w && n + 5 < sizeof buf; x++) {
        const cell *k = canvas_at(c, x, y);
        if (k->kind == CELL_WIDE_TAIL)
            continue;
        n += (size_t)utf8_encode(k->ch, buf + n);
    }
    buf[n] = '\0';
    return buf;
}

/* Row y after canvas_resolve, as bytes. */
static const char *row_resolved(const canvas *c, int y, int ascii,
                                enum color_mode mode)
{
    static char buf[1024];
    size_t n = 0;
    int x;

    for (x = 0; x < c->w && n + 5 < sizeof buf; x++) {
        cell r = canvas_resolve(canvas_at(c, x, y), ascii, mode);
        if (r.kind == CELL_WIDE_TAIL)
            continue;
        n += (size_t)utf8_encode(r.ch, buf + n);
    }
    buf[n] = '\0';
    return buf;
}

/* Every cell is safe to send to a terminal and wide pairs are whole. */
static int canvas_sane(const canvas *c)
{
    int x, y;

    for (y = 0; y < c->h; y++)
        for (x = 0; x < c->w; x++) {
            const cell *k = canvas_at(c, x, y);
            if (k->ch < 0x20 || (k->ch >= 0x7F && k->ch <= 0x9F))
                return 0;
            if (k->kind == CELL_WIDE_TAIL &&
                (x == 0 || cp_width(canvas_at(c, x - 1, y)->ch) != 2))
                return 0;
            if (k->kind != CELL_WIDE_TAIL && cp_width(k->ch) == 2 &&
                (x + 1 >= c->w ||
                 canvas_at(c, x + 1, y)->kind != CELL_WIDE_TAIL))
                return 0;
        }
    return 1;
}

static void test_basics(void)
{
    canvas c;
    CHECK(canvas_init(&c, 6, 3) == 0);
    CHECK_STR(row_str(&c, 0), "      ");
    CHECK(canvas_at(&c, 5, 2) != NULL);
    CHECK(canvas_at(&c, 6, 0) == NULL);
    CHECK(canvas_at(&c, 0, 3) == NULL);
    CHECK(canvas_at(&c, -1, 0) == NULL);
    canvas_put(&c, 0, 0, 'x', RED, BLUE, ATTR_BOLD);
    CHECK(canvas_at(&c, 0, 0)->ch == 'x');
    CHECK(canvas_at(&c, 0, 0)->fg == RED);
    CHECK(canvas_at(&c, 0, 0)->bg == BLUE);
    CHECK(canvas_at(&c, 0, 0)->attr == ATTR_BOLD);
    canvas_put(&c, -1, 0, 'y', RED, BLUE, 0);      /* clipped, no crash */
    canvas_put(&c, 6, 0, 'y', RED, BLUE, 0);
    canvas_put(&c, 0, 3, 'y', RED, BLUE, 0);
    CHECK_STR(row_str(&c, 0), "x     ");
    canvas_fill(&c, -2, 1, 100, 5, '#', RED, BLUE);
    CHECK_STR(row_str(&c, 1), "######");
    CHECK_STR(row_str(&c, 2), "######");
    canvas_clear(&c);
    CHECK_STR(row_str(&c, 1), "      ");
    CHECK(canvas_at(&c, 0, 1)->bg == RGB_DEFAULT);
    canvas_free(&c);
    CHECK(c.cells == NULL);

    CHECK(canvas_init(&c, 0, 0) == 0);              /* empty is allowed */
    CHECK(canvas_at(&c, 0, 0) == NULL);
    CHECK(canvas_text(&c, 0, 0, -1, "abc", RED, BLUE, 0) == 0);
    canvas_free(&c);
    CHECK(canvas_init(&c, -1, 3) == -1);
}

static void test_text_clip(void)
{
    canvas c;
    canvas_init(&c, 8, 2);
    CHECK(canvas_text(&c, 5, 0, -1, "abcdef", RED, RGB_DEFAULT, 0) == 3);
    CHECK_STR(row_str(&c, 0), "     abc");
    CHECK(canvas_text(&c, -2, 1, -1, "abcdef", RED, RGB_DEFAULT, 0) == 6);
    CHECK_STR(row_str(&c, 1), "cdef    ");
    canvas_clear(&c);
    CHECK(canvas_text(&c, 1, 0, 3, "abcdef", RED, RGB_DEFAULT, 0) == 3);
    CHECK_STR(row_str(&c, 0), " abc    ");
    CHECK(canvas_text(&c, 0, 2, -1, "zzz", RED, RGB_DEFAULT, 0) == 3);
    CHECK(canvas_text(&c, 0, -1, -1, "zzz", RED, RGB_DEFAULT, 0) == 3);
    CHECK(canvas_text(&c, 9, 0, -1, "zzz", RED, RGB_DEFAULT, 0) == 0);
    CHECK_STR(row_str(&c, 1), "        ");
    CHECK(canvas_text(&c, 0, 1, 0, "zzz", RED, RGB_DEFAULT, 0) == 0);
    CHECK(canvas_printf(&c, 0, 1, -1, RED, RGB_DEFAULT, 0, "%d=%s", 42,
                        "ok") == 5);
    CHECK_STR(row_str(&c, 1), "42=ok   ");
    CHECK(canvas_sane(&c));
    canvas_free(&c);
}

static void test_sub(void)
{
    canvas c, s, t;
    canvas_init(&c, 10, 5);
    s = canvas_sub(&c, 2, 1, 4, 3);
    CHECK(s.w == 4 && s.h == 3 && s.x0 == 2 && s.y0 == 1 && !s.owner);
    CHECK(canvas_text(&s, 0, 0, -1, "hello", RED, RGB_DEFAULT, 0) == 4);
    CHECK_STR(row_str(&c, 1), "  hell    ");
    canvas_text(&s, -3, 1, -1, "abcdefgh", RED, RGB_DEFAULT, 0);
    CHECK_STR(row_str(&c, 2), "  defg    ");
    canvas_fill(&s, 0, 2, 99, 99, '#', RED, BLUE);
    CHECK_STR(row_str(&c, 3), "  ####    ");
    CHECK_STR(row_str(&c, 4), "          ");
    canvas_put(&s, 4, 0, 'X', RED, BLUE, 0);         /* outside the sub */
    CHECK_STR(row_str(&c, 1), "  hell    ");
    CHECK(canvas_at(&s, 0, 0) == canvas_at(&c, 2, 1));
    CHECK(canvas_at(&s, 4, 0) == NULL);

    t = canvas_sub(&s, 1, 1, 10, 10);                /* clipped to s */
    CHECK(t.w == 3 && t.h == 2 && t.x0 == 3 && t.y0 == 2);
    canvas_clear(&t);
    CHECK_STR(row_str(&c, 2), "  d       ");
    CHECK_STR(row_str(&c, 3), "  #       ");

    t = canvas_sub(&c, -5, -5, 100, 100);
    CHECK(t.x0 == 0 && t.y0 == 0 && t.w == 10 && t.h == 5);
    t = canvas_sub(&c, 20, 20, 5, 5);
    CHECK(t.w == 0 && t.h == 0);
    canvas_text(&t, 0, 0, -1, "x", RED, BLUE, 0);     /* no crash */
    t = canvas_sub(&c, 3, 0, -4, 2);
    CHECK(t.w == 0);
    canvas_free(&s);                                  /* not the owner */
    CHECK(canvas_at(&c, 0, 0) != NULL);
    canvas_free(&c);
}

static void test_wide(void)
{
    canvas c, s;
    int x;

    CHECK(text_width("位置编码") == 8);
    CHECK(text_width("abc") == 3);
    CHECK(text_width("") == 0);
    CHECK(text_width(NULL) == 0);
    CHECK(text_width("e\xcc\x81") == 1);     /* e + combining acute */
    CHECK(text_width("\xe2\x80\x8b") == 0);  /* zero-width space */
    CHECK(text_width("한국") == 4);
    CHECK(text_width("ＡＢ") == 4);
    CHECK(cp_width(0x4F4D) == 2);
    CHECK(cp_width(0x1F600) == 2);
    CHECK(cp_width(0x20000) == 2);
    CHECK(cp_width(0x0301) == 0);
    CHECK(cp_width('a') == 1);
    CHECK(cp_width(0x2580) == 1);
    CHECK(cp_width(0x1B) == 1);

    canvas_init(&c, 7, 3);
    CHECK(canvas_text(&c, 0, 0, -1, "位置编码", RED, RGB_DEFAULT, 0) == 7);
    CHECK_STR(row_str(&c, 0), "位置编 ");
    CHECK(canvas_at(&c, 1, 0)->kind == CELL_WIDE_TAIL);
    CHECK(canvas_at(&c, 6, 0)->ch == ' ');
    CHECK(canvas_at(&c, 6, 0)->kind == CELL_TEXT);
    CHECK(canvas_sane(&c));

    /* maxw odd: the last glyph does not fit, a space takes its place */
    CHECK(canvas_text(&c, 0, 1, 3, "位置", RED, RGB_DEFAULT, 0) == 3);
    CHECK_STR(row_str(&c, 1), "位     ");
    /* starting one cell left of the edge: the cut glyph is a space */
    canvas_text(&c, -1, 2, -1, "位置", RED, RGB_DEFAULT, 0);
    CHECK_STR(row_str(&c, 2), " 置    ");
    CHECK(canvas_sane(&c));

    /* overwriting a tail blanks its head, and a head its tail */
    canvas_clear(&c);
    canvas_text(&c, 0, 0, -1, "位置", RED, RGB_DEFAULT, 0);
    canvas_put(&c, 1, 0, 'a', RED, RGB_DEFAULT, 0);
    CHECK_STR(row_str(&c, 0), " a置   ");
    canvas_put(&c, 2, 0, 'b', RED, RGB_DEFAULT, 0);
    CHECK_STR(row_str(&c, 0), " ab    ");
    CHECK(canvas_sane(&c));
    /* a wide glyph drawn over half of another */
    canvas_text(&c, 3, 0, -1, "码", RED, RGB_DEFAULT, 0);
    canvas_text(&c, 4, 0, -1, "编", RED, RGB_DEFAULT, 0);
    CHECK_STR(row_str(&c, 0), " ab 编 ");
    CHECK(canvas_sane(&c));
    canvas_put(&c, 6, 1, 0x4F4D, RED, RGB_DEFAULT, 0);  /* no room */
    CHECK(canvas_at(&c, 6, 1)->ch == ' ');
    canvas_put(&c, 0, 2, 0x4F4D, RED, RGB_DEFAULT, 0);
    CHECK(canvas_at(&c, 1, 2)->kind == CELL_WIDE_TAIL);
    canvas_fill(&c, 0, 1, 5, 1, 0x4F4D, RED, RGB_DEFAULT);
    CHECK_STR(row_str(&c, 1), "位位   ");
    CHECK(canvas_sane(&c));

    /* a sub-canvas edge cuts a glyph of the parent: the pair is broken
     * cleanly on both sides */
    canvas_clear(&c);
    canvas_text(&c, 0, 0, -1, "位置编", RED, RGB_DEFAULT, 0);
    s = canvas_sub(&c, 3, 0, 4, 1);
    canvas_clear(&s);
    CHECK_STR(row_str(&c, 0), "位     ");
    canvas_text(&s, 2, 0, -1, "位置", RED, RGB_DEFAULT, 0);
    CHECK_STR(row_str(&c, 0), "位   位");
    canvas_text(&s, 3, 0, -1, "置", RED, RGB_DEFAULT, 0);
    CHECK_STR(row_str(&c, 0), "位     ");
    CHECK(canvas_sane(&c));
    for (x = 0; x < 7; x++)
        CHECK(canvas_at(&c, x, 0)->kind != CELL_WIDE_TAIL || x == 1);
    canvas_free(&c);
}

static void test_controls(void)
{
    canvas c;
    int n;

    canvas_init(&c, 16, 6);
    n = canvas_text(&c, 0, 0, -1, "\033]0;pwned\007", RED, RGB_DEFAULT, 0);
    CHECK(n == 10);
    CHECK_STR(row_str(&c, 0), "\xef\xbf\xbd]0;pwned\xef\xbf\xbd      ");
    CHECK_STR(row_resolved(&c, 0, 1, COLOR_256), "?]0;pwned?      ");
    canvas_text(&c, 0, 1, -1, "a\rb\bc\td\x7f" "e", RED, RGB_DEFAULT, 0);
    CHECK_STR(row_resolved(&c, 1, 1, COLOR_NONE), "a?b?c?d?e       ");
    canvas_text(&c, 0, 2, -1, "\033[2J\xc2\x9b" "1m", RED, RGB_DEFAULT, 0);
    CHECK_STR(row_resolved(&c, 2, 1, COLOR_NONE), "?[2J?1m         ");
    /* invalid UTF-8: stray continuation, bad lead, overlong, surrogate,
     * beyond U+10FFFF, truncated at the end */
    canvas_text(&c, 0, 3, -1, "\x80x\xffy\xc0\xafz\xed\xa0\x80w", RED,
                RGB_DEFAULT, 0);
    CHECK_STR(row_resolved(&c, 3, 1, COLOR_NONE), "?x?y??z???w     ");
    canvas_text(&c, 0, 4, -1, "\xf4\x90\x80\x80q\xe4\xbd", RED, RGB_DEFAULT,
                0);
    CHECK_STR(row_resolved(&c, 4, 1, COLOR_NONE), "????q??         ");
    CHECK(text_width("\xe4\xbd") == 2);
    canvas_put(&c, 0, 5, 0x1B, RED, RGB_DEFAULT, 0);
    canvas_put(&c, 1, 5, 0x9B, RED, RGB_DEFAULT, 0);
    canvas_put(&c, 2, 5, 0xD800, RED, RGB_DEFAULT, 0);
    canvas_put(&c, 3, 5, 0x110000, RED, RGB_DEFAULT, 0);
    canvas_put(&c, 4, 5, 0x202E, RED, RGB_DEFAULT, 0);  /* bidi override */
    CHECK_STR(row_resolved(&c, 5, 1, COLOR_NONE), "?????           ");
    CHECK(canvas_sane(&c));
    /* a cell poked directly is still sanitised at output */
    canvas_at(&c, 5, 5)->ch = 0x1B;
    CHECK(canvas_resolve(canvas_at(&c, 5, 5), 0, COLOR_256).ch == 0xFFFD);
    CHECK(canvas_resolve(canvas_at(&c, 5, 5), 1, COLOR_256).ch == '?');
    canvas_free(&c);
}

/* text_scrub: what may reach stderr.  Expected strings written out
 * byte by byte. */
static void test_scrub(void)
{
    char a[] = "8\x9b" "2J\xc2\x9b" "1m\033]0;t\007\x7f\xe4\xb8\xad\xc3\xa9";
    char b[] = "8\x9b" "2J\xc2\x9b" "1m\033]0;t\007\x7f\xe4\xb8\xad\xc3\xa9";
    char c[] = "\x80x\xffy\xc0\xafz\xed\xa0\x80w\xe4\xb8";
    char d[] = "\xef\xbf\xbd\xd9\x9b ok";   /* U+FFFD, U+065B: kept */

    text_scrub(a, 1);       /* UTF-8: raw and encoded C1 alike */
    CHECK_STR(a, "8?2J?1m?]0;t??\xe4\xb8\xad\xc3\xa9");
    text_scrub(b, 0);       /* 8-bit terminal: every byte from 0x80 */
    CHECK_STR(b, "8?2J??1m?]0;t???????");
    text_scrub(c, 1);       /* malformed UTF-8: one mark per bad byte */
    CHECK_STR(c, "?x?y??z???w??");
    text_scrub(d, 1);
    CHECK_STR(d, "\xef\xbf\xbd\xd9\x9b ok");
}

static void test_half(void)
{
    canvas c;
    cell *k, r;

    canvas_init(&c, 4, 2);
    canvas_half(&c, 0, 0, RED, 3);
    canvas_half(&c, 0, 1, BLUE, 7);
    k = canvas_at(&c, 0, 0);
    CHECK(k->ch == 0x2580 && k->kind == CELL_HALF);
    CHECK(k->fg == RED && k->bg == BLUE);
    CHECK(k->level_top == 3 && k->level_bot == 7);
    canvas_half(&c, 0, 2, GREEN, 1);                 /* second cell row */
    CHECK(canvas_at(&c, 0, 1)->fg == GREEN);
    CHECK(canvas_at(&c, 0, 1)->bg == RGB_DEFAULT);
    canvas_half(&c, 0, 4, GREEN, 1);                 /* clipped */
    canvas_half(&c, 0, -1, GREEN, 1);
    canvas_half(&c, -1, 0, GREEN, 1);

    /* only one half drawn: the other keeps the cell's old background */
    canvas_put(&c, 1, 0, 'x', RED, GREEN, ATTR_BOLD);
    canvas_half(&c, 1, 1, BLUE, LEVEL_NONE);
    k = canvas_at(&c, 1, 0);
    CHECK(k->kind == CELL_HALF && k->fg == GREEN && k->bg == BLUE);
    CHECK(k->attr == 0);

    /* resolve: UTF-8 colour keeps the pair */
    r = canvas_resolve(canvas_at(&c, 0, 0), 0, COLOR_256);
    CHECK(r.ch == 0x2580 && r.fg == RED && r.bg == BLUE);
    /* only the bottom pixel set: a lower half block, top left empty */
    canvas_half(&c, 2, 1, BLUE, 5);
    r = canvas_resolve(canvas_at(&c, 2, 0), 0, COLOR_TRUE);
    CHECK(r.ch == 0x2584 && r.fg == BLUE && r.bg == RGB_DEFAULT);
    /* ASCII with colour: a space on the top pixel's colour, never a mix
     * of the two values (red top, blue bottom: not purple) */
    r = canvas_resolve(canvas_at(&c, 0, 0), 1, COLOR_256);
    CHECK(r.ch == ' ' && r.bg == RED);
    r = canvas_resolve(canvas_at(&c, 2, 0), 1, COLOR_256);
    CHECK(r.ch == ' ' && r.bg == BLUE);     /* only a bottom: the bottom */
    /* no colour: the density ramp by the top level (3), colours dropped;
     * the mean of 3 and 7 (5) is no value that was drawn */
    r = canvas_resolve(canvas_at(&c, 0, 0), 1, COLOR_NONE);
    CHECK(r.ch == (uint32_t)CANVAS_RAMP[3]);
    CHECK(r.fg == RGB_DEFAULT && r.bg == RGB_DEFAULT);
    r = canvas_resolve(canvas_at(&c, 0, 0), 0, COLOR_NONE);
    CHECK(r.ch == (uint32_t)CANVAS_RAMP[3]);
    r = canvas_resolve(canvas_at(&c, 2, 0), 0, COLOR_NONE);
    CHECK(r.ch == (uint32_t)CANVAS_RAMP[5]);    /* only a bottom, level 5 */
    CHECK(!canvas_has_halves(1, COLOR_256));
    CHECK(!canvas_has_halves(0, COLOR_NONE));
    CHECK(canvas_has_halves(0, COLOR_8));
    /* LEVEL_NONE falls back to luminance: white top, black bottom */
    canvas_half(&c, 3, 0, RGB(255, 255, 255), LEVEL_NONE);
    canvas_half(&c, 3, 1, RGB(0, 0, 0), LEVEL_NONE);
    r = canvas_resolve(canvas_at(&c, 3, 0), 0, COLOR_NONE);
    CHECK(r.ch == (uint32_t)CANVAS_RAMP[9]);
    canvas_half(&c, 3, 1, RGB(255, 255, 255), LEVEL_NONE);
    r = canvas_resolve(canvas_at(&c, 3, 0), 1, COLOR_NONE);
    CHECK(r.ch == '@');
    CHECK_STR(CANVAS_RAMP, " .:-=+*#%@");
    canvas_free(&c);
}

static void test_braille(void)
{
    static const int pos[8][2] = {
        {0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}, {0, 3}, {1, 3}
    };
    canvas c;
    int i;

    canvas_init(&c, 3, 2);
    for (i = 0; i < 8; i++) {
        canvas_clear(&c);
        canvas_dot(&c, pos[i][0], pos[i][1], RED);
        CHECK(canvas_at(&c, 0, 0)->ch == 0x2800u + (1u << i));
        CHECK(canvas_at(&c, 0, 0)->kind == CELL_BRAILLE);
    }
    canvas_clear(&c);
    for (i = 0; i < 8; i++)
        canvas_dot(&c, 2 + pos[i][0], 4 + pos[i][1], BLUE);
    CHECK(canvas_at(&c, 1, 1)->ch == 0x28FF);
    CHECK(canvas_at(&c, 1, 1)->fg == BLUE);
    canvas_dot(&c, 6, 0, RED);                        /* clipped */
    canvas_dot(&c, 0, 8, RED);
    canvas_dot(&c, -1, 0, RED);
    CHECK(canvas_at(&c, 0, 0)->ch == ' ');

    /* ASCII: dot counts to . * o */
    canvas_clear(&c);
    canvas_dot(&c, 0, 0, RED);
    for (i = 0; i < 4; i++)
        canvas_dot(&c, 2, i, RED);
    for (i = 0; i < 8; i++)
        canvas_dot(&c, 4 + pos[i][0], pos[i][1], RED);
    CHECK_STR(row_resolved(&c, 0, 1, COLOR_256), ".*o");
    CHECK_STR(row_resolved(&c, 0, 0, COLOR_NONE), "⠁⡇⣿");
    CHECK(canvas_resolve(canvas_at(&c, 0, 0), 0, COLOR_NONE).fg ==
          RGB_DEFAULT);
    canvas_free(&c);
}

static int dot_set(const canvas *c, int px, int py)
{
    static const uint8_t bit[4][2] = {
        {0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}
    };
    const cell *k = canvas_at(c, px / 2, py / 4);

    return k && k->kind == CELL_BRAILLE &&
           ((k->ch - 0x2800) & bit[py % 4][px % 2]);
}

static int dots_count(const canvas *c)
{
    int x, y, n = 0;

    for (y = 0; y < c->h * 4; y++)
        for (x = 0; x < c->w * 2; x++)
            n += dot_set(c, x, y) != 0;
    return n;
}

static void test_lines(void)
{
    canvas c;
    int x;

    canvas_init(&c, 10, 5);
    canvas_line(&c, 1, 1, 17, 13, RED);
    CHECK(dot_set(&c, 1, 1));
    CHECK(dot_set(&c, 17, 13));
    CHECK(dots_count(&c) == 17);      /* one dot per step of the long axis */
    canvas_clear(&c);
    canvas_line(&c, 17, 13, 1, 1, RED);
    CHECK(dot_set(&c, 1, 1) && dot_set(&c, 17, 13));
    canvas_clear(&c);
    canvas_line(&c, 0, 5, 19, 5, RED);
    for (x = 0; x < 20; x++)
        CHECK(dot_set(&c, x, 5));
    CHECK(dots_count(&c) == 20);
    canvas_clear(&c);
    canvas_line(&c, 3, 3, 3, 3, RED);
    CHECK(dots_count(&c) == 1);
    /* far outside: clipped quickly, the visible part drawn */
    canvas_clear(&c);
    canvas_line(&c, -2000000000, 7, 2000000000, 7, RED);
    CHECK(dots_count(&c) == 20);
    canvas_clear(&c);
    canvas_line(&c, -2000000000, -2000000000, 2000000000, 2000000000, RED);
    CHECK(dot_set(&c, 0, 0) && dot_set(&c, 19, 19) && dot_set(&c, 10, 10));
    canvas_clear(&c);
    canvas_line(&c, -50, -50, -40, -80, RED);
    CHECK(dots_count(&c) == 0);

    /* circles: the four extreme points, and r = 0 is one dot */
    canvas_clear(&c);
    canvas_circle(&c, 10, 10, 6, 1.0, RED);
    CHECK(dot_set(&c, 16, 10) && dot_set(&c, 4, 10));
    CHECK(dot_set(&c, 10, 16) && dot_set(&c, 10, 4));
    CHECK(!dot_set(&c, 10, 10));
    canvas_clear(&c);
    canvas_circle(&c, 10, 10, 4, 0.5, RED);
    CHECK(dot_set(&c, 14, 10) && dot_set(&c, 10, 12) && dot_set(&c, 10, 8));
    CHECK(!dot_set(&c, 10, 14));
    canvas_clear(&c);
    canvas_circle(&c, 5, 5, 0, 1.0, RED);
    CHECK(dots_count(&c) == 1 && dot_set(&c, 5, 5));
    canvas_clear(&c);
    canvas_circle(&c, 5, 5, 1e300, 1.0, RED);        /* no hang */
    canvas_circle(&c, 5, 5, -1, 1.0, RED);
    canvas_circle(&c, NAN, 5, 3, 1.0, RED);
    CHECK(dots_count(&c) == 0);
    canvas_free(&c);
}

static void test_box(void)
{
    canvas c;

    canvas_init(&c, 12, 4);
    canvas_box(&c, 0, 0, 12, 4, BLUE, "Title");
    CHECK_STR(row_str(&c, 0), "┌─ Title ──┐");
    CHECK_STR(row_str(&c, 1), "│          │");
    CHECK_STR(row_str(&c, 3), "└──────────┘");
    CHECK(canvas_at(&c, 0, 0)->kind == CELL_BOX);
    CHECK(canvas_at(&c, 3, 0)->attr == ATTR_BOLD);
    CHECK_STR(row_resolved(&c, 0, 1, COLOR_NONE), "+- Title --+");
    CHECK_STR(row_resolved(&c, 1, 1, COLOR_NONE), "|          |");
    CHECK_STR(row_resolved(&c, 3, 1, COLOR_NONE), "+----------+");
    canvas_clear(&c);
    /* a long title is clipped inside the corners */
    canvas_box(&c, 0, 0, 9, 2, BLUE, "A very long title");
    CHECK_STR(row_str(&c, 0), "┌─ A … ─┐   ");
    canvas_clear(&c);
    canvas_box(&c, 0, 0, 10, 2, BLUE, "A very long title");
    CHECK_STR(row_str(&c, 0), "┌─ A v… ─┐  ");
    CHECK_STR(row_str(&c, 1), "└────────┘  ");
    /* clipped box and thin boxes */
    canvas_clear(&c);
    canvas_box(&c, 8, 2, 10, 10, BLUE, NULL);
    CHECK_STR(row_str(&c, 2), "        ┌───");
    CHECK_STR(row_str(&c, 3), "        │   ");
    canvas_clear(&c);
    canvas_box(&c, 0, 0, 4, 1, BLUE, "x");
    CHECK_STR(row_str(&c, 0), "────        ");
    canvas_hline(&c, 10, 1, 5, RED);
    canvas_vline(&c, 0, 1, 9, RED);
    CHECK_STR(row_str(&c, 1), "│         ──");
    CHECK_STR(row_str(&c, 3), "│           ");
    canvas_free(&c);
}

static void test_resolve(void)
{
    canvas c;
    cell r;

    canvas_init(&c, 10, 2);
    canvas_text(&c, 0, 0, -1, "位a×ω→", RED, BLUE, ATTR_REVERSE);
    CHECK_STR(row_resolved(&c, 0, 1, COLOR_256), "? axw>    ");
    CHECK_STR(row_resolved(&c, 0, 0, COLOR_256), "位a×ω→    ");
    r = canvas_resolve(canvas_at(&c, 1, 0), 1, COLOR_256);
    CHECK(r.kind == CELL_TEXT && r.ch == ' ' && r.bg == BLUE);
    /* mono keeps reverse and bold, drops colours */
    r = canvas_resolve(canvas_at(&c, 2, 0), 0, COLOR_NONE);
    CHECK(r.attr == ATTR_REVERSE && r.fg == RGB_DEFAULT &&
          r.bg == RGB_DEFAULT);
    r = canvas_resolve(canvas_at(&c, 2, 0), 0, COLOR_16);
    CHECK(r.fg == RED && r.bg == BLUE);
    canvas_put(&c, 0, 1, 0x2588, RED, RGB_DEFAULT, ATTR_BOLD);
    canvas_put(&c, 1, 1, 0xFFFD, RED, RGB_DEFAULT, 0);
    canvas_put(&c, 2, 1, 0x2524, RED, RGB_DEFAULT, 0);
    CHECK_STR(row_resolved(&c, 1, 1, COLOR_NONE), "#?+       ");
    CHECK(canvas_resolve(canvas_at(&c, 0, 1), 1, COLOR_NONE).attr ==
          ATTR_BOLD);
    canvas_free(&c);
}

static void test_utf8(void)
{
    char b[5];

    CHECK(utf8_encode('A', b) == 1 && strcmp(b, "A") == 0);
    CHECK(utf8_encode(0xE9, b) == 2 && strcmp(b, "\xc3\xa9") == 0);
    CHECK(utf8_encode(0x4F4D, b) == 3 && strcmp(b, "位") == 0);
    CHECK(utf8_encode(0x1F600, b) == 4 && strcmp(b, "\xf0\x9f\x98\x80") == 0);
    CHECK(utf8_encode(0xD800, b) == 3 && strcmp(b, "\xef\xbf\xbd") == 0);
    CHECK(utf8_encode(0x110000, b) == 3);
}

/* Random operations keep the grid sane (ASan/UBSan watch the rest). */
static void test_random(void)
{
    static const char *texts[] = {
        "位置编码", "abc", "\033[31m", "é", "ＡＢ", "\xff\xfe", "😀x", ""
    };
    canvas c, s;
    int i, ok = 1;

    srand(7);
    canvas_init(&c, 13, 5);
    for (i = 0; i < 20000; i++) {
        int x = rand() % 19 - 3, y = rand() % 9 - 2;
        s = canvas_sub(&c, rand() % 15 - 1, rand() % 7 - 1, rand() % 15,
                       rand() % 7);
        canvas *t = (rand() & 1) ? &c : &s;
        switch (rand() % 7) {
        case 0:
            canvas_text(t, x, y, rand() % 12 - 1,
                        texts[rand() % 8], RED, BLUE, 0);
            break;
        case 1: canvas_put(t, x, y, (uint32_t)(rand() % 0x30000), RED, BLUE,
                           0); break;
        case 2: canvas_half(t, x, y * 2 + rand() % 2, RED, rand() % 10);
            break;
        case 3: canvas_dot(t, x * 2, y * 4, RED); break;
        case 4: canvas_box(t, x, y, rand() % 8, rand() % 5, RED, "位t"); break;
        case 5: canvas_fill(t, x, y, rand() % 5, rand() % 3, 0x4F4D, RED,
                            BLUE); break;
        default: canvas_clear(t); break;
        }
        if (!canvas_sane(&c))
            ok = 0;
    }
    CHECK(ok);
    canvas_free(&c);
}

/* Quadrant pixels accumulate in a cell into the block with those four
 * bits (1 upper left, 2 upper right, 4 lower left, 8 lower right), any
 * other glyph is replaced, and ASCII shows '#'. */
static void test_quadrants(void)
{
    static const uint32_t WANT[16] = {
        ' ', 0x2598, 0x259D, 0x2580, 0x2596, 0x258C, 0x259E, 0x259B,
        0x2597, 0x259A, 0x2590, 0x259C, 0x2584, 0x2599, 0x259F, 0x2588
    };
    canvas c;
    CHECK(canvas_init(&c, 16, 2) == 0);
    for (int b = 1; b < 16; b++) {
        canvas_put(&c, b, 1, 'x', RED, RGB_DEFAULT, 0);   /* replaced */
        for (int q = 0; q < 4; q++)
            if (b >> q & 1)
                canvas_quad(&c, 2 * b + q % 2, 2 + q / 2, BLUE);
        const cell *k = canvas_at(&c, b, 1);
        CHECK(k->ch == WANT[b] && k->fg == BLUE && k->kind == CELL_TEXT);
        CHECK(canvas_resolve(k, 1, COLOR_NONE).ch == '#');
    }
    canvas_quad(&c, 0, 0, RED);         /* again on a set pixel: same */
    canvas_quad(&c, 0, 0, RED);
    CHECK(canvas_at(&c, 0, 0)->ch == 0x2598);
    canvas_quad(&c, -1, 0, RED);        /* off the canvas: nothing */
    canvas_quad(&c, 32, 0, RED);
    CHECK(canvas_at(&c, 15, 0)->ch == ' ');
    canvas_free(&c);
}

/* Every braille pattern: a quarter of the block is set when any of the
 * dots at its two places was (dot (dx, dy) of the 2x4 grid lies in
 * quarter dx + 2 * (dy / 2)), in the dots' colour. */
static void test_unbraille(void)
{
    static const uint32_t QUAD[16] = {
        ' ', 0x2598, 0x259D, 0x2580, 0x2596, 0x258C, 0x259E, 0x259B,
        0x2597, 0x259A, 0x2590, 0x259C, 0x2584, 0x2599, 0x259F, 0x2588
    };
    canvas c;
    CHECK(canvas_init(&c, 256, 1) == 0);
    for (int p = 1; p < 256; p++) {
        int want = 0;
        for (int dot = 0; dot < 8; dot++) {
            int dx = dot % 2, dy = dot / 2;
            if (p >> dot & 1) {
                canvas_dot(&c, 2 * p + dx, dy, GREEN);
                want |= 1 << (dx + 2 * (dy / 2));
            }
        }
        CHECK(canvas_at(&c, p, 0)->kind == CELL_BRAILLE);
        canvas_unbraille(&c);
        const cell *k = canvas_at(&c, p, 0);
        CHECK(k->ch == QUAD[want] && k->fg == GREEN && k->kind == CELL_TEXT);
    }
    canvas_put(&c, 0, 0, 'x', RED, RGB_DEFAULT, 0);    /* text: kept */
    canvas_unbraille(&c);
    CHECK(canvas_at(&c, 0, 0)->ch == 'x');
    canvas_free(&c);
}

int main(void)
{
    test_basics();
    test_unbraille();
    test_quadrants();
    test_text_clip();
    test_sub();
    test_wide();
    test_controls();
    test_scrub();
    test_half();
    test_braille();
    test_lines();
    test_box();
    test_resolve();
    test_utf8();
    test_random();
    TEST_END("canvas");
}
