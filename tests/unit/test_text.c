/* SPDX-License-Identifier: ISC */
/*
 * test_text.c - the shared text helpers (text.h), the number formatter
 * with a width (params.h) and the glyph table (glyph.h), against strings
 * written out here.
 */
#include <string.h>

#include "glyph.h"
#include "harness.h"
#include "params.h"
#include "canvas.h"
#include "text.h"

static void test_numbers(void)
{
    char b[32];
    fmt_sci(62831.853, 3, b, sizeof b);
    CHECK_STR(b, "6.283e4");
    fmt_sci(-0.00074987, 3, b, sizeof b);
    CHECK_STR(b, "-7.499e-4");
    fmt_sci(9999.7, 3, b, sizeof b);            /* carried, not "10.000e3" */
    CHECK_STR(b, "1.000e4");
    fmt_sci(4.73e12, 1, b, sizeof b);
    CHECK_STR(b, "4.7e12");
    fmt_sci(99.96, 1, b, sizeof b);
    CHECK_STR(b, "1.0e2");
    fmt_num_w(0.316227766, 4, 8, b, sizeof b);
    CHECK_STR(b, "0.3162");
    fmt_num_w(6283.185, 4, 8, b, sizeof b);
    CHECK_STR(b, "6283");
    fmt_num_w(0.000749, 4, 8, b, sizeof b);     /* below 1e-3 */
    CHECK_STR(b, "7.490e-4");
    fmt_num_w(14900, 4, 8, b, sizeof b);        /* 10^4 and up */
    CHECK_STR(b, "1.490e4");
    fmt_num_w(0.0012345, 4, 7, b, sizeof b);    /* "0.001234" is too wide */
    CHECK_STR(b, "1.23e-3");
    fmt_num_w(0.0012345, 4, 5, b, sizeof b);
    CHECK_STR(b, "1e-3");
    fmt_num_w(0.0012345, 4, 6, b, sizeof b);    /* fewer decimals to fit */
    CHECK_STR(b, "1.2e-3");
    fmt_num_w(1e-160, 4, 8, b, sizeof b);       /* not "1.000e-1" clipped */
    CHECK_STR(b, "1.0e-160");
    fmt_num_w(-6.283e160, 4, 8, b, sizeof b);
    CHECK_STR(b, "-6.3e160");
    fmt_num_w(-0.0, 4, 8, b, sizeof b);
    CHECK_STR(b, "0");
    fmt_count(2670176, 8, b, sizeof b);         /* whole while it fits */
    CHECK_STR(b, "2670176");
    fmt_count(123456789, 8, b, sizeof b);
    CHECK_STR(b, "1.235e8");
    fmt_count(2.0213e301, 16, b, sizeof b);     /* no wrapped long long */
    CHECK_STR(b, "2.021e301");
    fmt_count(9007199254740992.0, 20, b, sizeof b);     /* 2^53: inexact */
    CHECK_STR(b, "9.007e15");
    fmt_count(-0.0, 8, b, sizeof b);
    CHECK_STR(b, "0");
}

static void test_place_clear(void)
{
    CHECK(text_place_clear(2, 22, 10, -1) == 7);    /* centred */
    CHECK(text_place_clear(2, 22, 10, 3) == 7);     /* the mark outside */
    CHECK(text_place_clear(2, 22, 10, 6) == 10);    /* a blank cell apart */
    CHECK(text_place_clear(2, 22, 10, 12) == -1);   /* no side holds it */
    CHECK(text_place_clear(2, 40, 10, 20) == 26);   /* the wider side: right */
    CHECK(text_place_clear(2, 40, 10, 25) == 8);    /* ... and left */
    CHECK(text_place_clear(2, 8, 10, -1) == -1);
}

/* The row y of c as text, trailing blanks dropped. */
static void row_text(const canvas *c, int y, char *out, size_t len)
{
    canvas_row_utf8(c, y, out, len);
    size_t n = strlen(out);
    while (n && out[n - 1] == ' ')
        out[--n] = 0;
}

/* When no candidate fits: the last one's whole words, never a cut word
 * or number ("20.37 t" was drawn for "20.37 turns"). */
static void test_fit_fallback(void)
{
    canvas c;
    char row[128];
    const char *words[] = { "alpha beta gamma delta", "alpha beta gamma" };
    const char *num[] = { "12345678901" };
    CHECK(canvas_init(&c, 20, 3) == 0);
    CHECK(canvas_text_fit(&c, 0, 0, 20, words, 2, 0xFFFFFF, 0) == 1);
    row_text(&c, 0, row, sizeof row);
    CHECK_STR(row, "alpha beta gamma");
    CHECK(canvas_text_fit(&c, 0, 1, 13, words, 2, 0xFFFFFF, 0) == 1);
    row_text(&c, 1, row, sizeof row);
    CHECK_STR(row, "alpha beta");
    CHECK(canvas_text_fit(&c, 0, 2, 8, num, 1, 0xFFFFFF, 0) == 0);
    row_text(&c, 2, row, sizeof row);
    CHECK_STR(row, "");
    /* an "=" whose value does not fit goes with it */
    const char *eq[] = { "w = 2^(-62/64) = 1.334e-4" };
    CHECK(canvas_text_fit(&c, 0, 2, 20, eq, 1, 0xFFFFFF, 0) == 0);
    row_text(&c, 2, row, sizeof row);
    CHECK_STR(row, "w = 2^(-62/64)");
    const char *colon[] = { "slowest band 31: 0.002717 turns in n" };
    CHECK(canvas_text_fit(&c, 0, 2, 20, colon, 1, 0xFFFFFF, 0) == 0);
    row_text(&c, 2, row, sizeof row);
    CHECK_STR(row, "slowest band 31");
    canvas_free(&c);
}

static void test_join(void)
{
    const char *w[] = { "heatmap", "spectrum", "profile", "diff" };
    char b[64];
    CHECK_STR(words_join(w, 4, b, sizeof b),
              "heatmap, spectrum, profile or diff");
    CHECK_STR(words_join(w, 2, b, sizeof b), "heatmap or spectrum");
    CHECK_STR(words_join(w, 1, b, sizeof b), "heatmap");
    CHECK_STR(words_join(w, 0, b, sizeof b), "");
    CHECK_STR(words_join(w, 4, b, 12), "heatmap, sp");    /* truncated */
}

static void test_first_fit(void)
{
    /* U+03C9 is one cell, U+65E5 two */
    const char *c[] = { "a long wording", NULL, "\xcf\x89 short",
                        "\xe6\x97\xa5\xe6\x97\xa5" };
    CHECK(text_first_fit(c, 4, 14) == 0);
    CHECK(text_first_fit(c, 4, 13) == 2);       /* NULL skipped */
    CHECK(text_first_fit(c, 4, 7) == 2);        /* 7 cells, 8 bytes */
    CHECK(text_first_fit(c, 4, 4) == 3);        /* two wide: 4 cells */
    CHECK(text_first_fit(c, 4, 3) == -1);
    char rows[3][16] = { "1 col = 16 pos", "16 pos/col", "x16" };
    CHECK(text_first_fit_rows(rows[0], sizeof rows[0], 3, 20) == 0);
    CHECK(text_first_fit_rows(rows[0], sizeof rows[0], 3, 10) == 1);
    CHECK(text_first_fit_rows(rows[0], sizeof rows[0], 3, 3) == 2);
    CHECK(text_first_fit_rows(rows[0], sizeof rows[0], 3, 2) == -1);
}

static void test_wrap(void)
{
    const char *s = "the quick  brown fox";
    char out[64];
    size_t used = text_wrap_line(s, 9, out, sizeof out);
    CHECK_STR(out, "the quick");
    CHECK(used == 11);                          /* both blanks consumed */
    used += text_wrap_line(s + used, 9, out, sizeof out);
    CHECK_STR(out, "brown fox");
    CHECK(used == strlen(s));
    CHECK(text_wrap_line(s + used, 9, out, sizeof out) == 0 && !out[0]);
    /* a word wider than the line is cut between characters */
    CHECK(text_wrap_line("abcdefghij klm", 4, out, sizeof out) == 4);
    CHECK_STR(out, "abcd");
    CHECK(text_wrap_line("\xcf\x89\xcf\x89\xcf\x89 x", 2, out, sizeof out)
          == 4);
    CHECK_STR(out, "\xcf\x89\xcf\x89");
    /* the output buffer bounds the line too */
    CHECK(text_wrap_line("ab cd ef", 80, out, 5) == 3);
    CHECK_STR(out, "ab");
}

/* A glued pair (":pos" TEXT_GLUE "P") wraps as one word, a cell shows
 * the glue as a space, and text_unglue makes it one for a file. */
static void test_glue(void)
{
    const char *s = ":n" TEXT_GLUE "N  :pos" TEXT_GLUE "P";
    char out[64];
    size_t used = text_wrap_line(s, 8, out, sizeof out);
    CHECK_STR(out, ":n" TEXT_GLUE "N");
    CHECK(text_width(out) == 4);
    text_wrap_line(s + used, 8, out, sizeof out);
    CHECK_STR(out, ":pos" TEXT_GLUE "P");
    CHECK(cp_sanitize(CP_GLUE) == ' ');
    char plain[64];
    snprintf(plain, sizeof plain, "%s", s);
    text_unglue(plain);
    CHECK_STR(plain, ":n N  :pos P");
}

static void test_glyphs(void)
{
    CHECK_STR(glyph(0, GL_OMEGA), "\xcf\x89");
    CHECK_STR(glyph(1, GL_OMEGA), "w");
    CHECK_STR(glyph(1, GL_LAMBDA_L), "L");
    CHECK_STR(glyph(0, GL_MINUS), "\xe2\x88\x92");
    CHECK_STR(glyph(1, GL_COUNT), "?");
    CHECK_STR(glyph_pick(1, "\xe2\x88\x9a" "d", "sqrt(d)"), "sqrt(d)");
    int ok = 1;
    for (int g = 0; g < GL_COUNT; g++) {     /* ASCII really is ASCII */
        const char *u = glyph(0, (enum glyph)g), *s = glyph(1, (enum glyph)g);
        ok &= u && s && u[0] && s[0] && (unsigned char)u[0] >= 0x80;
        for (; s && *s; s++)
            ok &= (unsigned char)*s < 0x80;
    }
    CHECK(ok);
}

/* The printf conversions of fmt in order ("%s%d"), "%%" left out. */
static void conversions(const char *fmt, char *out, size_t len)
{
    size_t o = 0;
    for (const char *p = fmt; *p && o + 3 < len; p++) {
        if (*p != '%')
            continue;
        if (p[1] == '%') {
            p++;
            continue;
        }
        out[o++] = '%';
        while (p[1] && !strchr("sdfgiuxc", p[1]))
            p++;
        out[o++] = p[1];
    }
    out[o] = 0;
}

/* The Chinese texts: every one used has its own, a format keeps its
 * conversions, and a text without one comes back as itself. */
static void test_zh(void)
{
    static const char *const EN[] = {
        "PE heatmap", "? help", "tour",
        "last step: Backspace goes back, Esc leaves the tour",
        "tour: step %s is not in 1..%d",
        "left the tour, back to where you were; T resumes at step %d",
    };
    for (size_t i = 0; i < sizeof EN / sizeof EN[0]; i++) {
        char ce[32], cz[32];
        const char *zh = text_zh(EN[i]);
        CHECK(zh != EN[i] && strcmp(zh, EN[i]) != 0);
        conversions(EN[i], ce, sizeof ce);
        conversions(zh, cz, sizeof cz);
        CHECK_STR(cz, ce);
    }
    CHECK_STR(text_zh("tour"), "\xe5\xaf\xbc\xe8\xa7\x88");   /* 导览 */
    const char *none = "no such text";
    CHECK(text_zh(none) == none);
}

int main(void)
{
    test_glyphs();
    test_numbers();
    test_place_clear();
    test_fit_fallback();
    test_join();
    test_first_fit();
    test_wrap();
    test_glue();
    test_zh();
    TEST_END("test_text");
}
