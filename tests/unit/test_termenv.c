/* SPDX-License-Identifier: ISC */
/*
 * test_termenv: the terminfo copy without REP and scrolling (termcaps.c)
 * and the locale set-up (charset.c).
 *
 * The entries are built here byte by byte from term(5), so the offsets
 * the patch must clear are known independently of the code under test.
 */
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "charset.h"
#include "harness.h"
#include "termcaps.h"

#define NSTR 140

static size_t put16(unsigned char *b, size_t at, unsigned v)
{
    b[at] = (unsigned char)(v & 0xFF);
    b[at + 1] = (unsigned char)(v >> 8);
    return at + 2;
}

/*
 * An entry "t|test": 3 booleans (an odd total with the 7-byte names, so
 * a pad byte), 2 numbers of numw bytes, NSTR strings of which those
 * with present[i] point at "x" + i.  Returns its length; *strs_at gets
 * where the string offsets start.
 */
static size_t build(unsigned char *b, int magic, int numw,
                    const int *present, size_t *strs_at)
{
    static const char names[] = "t|test";       /* 7 bytes with NUL */
    size_t at = 0, tab;
    at = put16(b, at, (unsigned)magic);
    at = put16(b, at, sizeof names);
    at = put16(b, at, 3);
    at = put16(b, at, 2);
    at = put16(b, at, NSTR);
    at = put16(b, at, 2 * NSTR);
    memcpy(b + at, names, sizeof names);
    at += sizeof names;
    b[at++] = 1; b[at++] = 0; b[at++] = 1;       /* booleans */
    CHECK(at % 2 == 0);                          /* 12 + 7 + 3: even */
    if (at % 2)
        b[at++] = 0;
    for (int i = 0; i < 2 * numw; i++)
        b[at++] = 0x50;                          /* numbers */
    *strs_at = at;
    tab = at + 2 * NSTR;
    for (int i = 0; i < NSTR; i++)
        put16(b, at + 2 * (size_t)i, present[i] ? (unsigned)(2 * i) : 0xFFFF);
    for (int i = 0; i < NSTR; i++) {
        b[tab + 2 * (size_t)i] = 'x';
        b[tab + 2 * (size_t)i + 1] = 0;
    }
    return tab + 2 * NSTR;
}

static int unsafe(int i)
{
    static const int U[] = { 3, 22, 53, 106, 109, 110, 113, 121, 129, 130 };
    for (size_t k = 0; k < sizeof U / sizeof U[0]; k++)
        if (U[k] == i)
            return 1;
    return 0;
}

static void test_patch(int magic, int numw)
{
    static unsigned char b[4096], orig[4096];
    int present[NSTR];
    size_t at, len;
    int want = 0;
    for (int i = 0; i < NSTR; i++) {
        present[i] = i % 3 != 1 || i == 121 || i == 3;
        want += present[i] && unsafe(i);
    }
    len = build(b, magic, numw, present, &at);
    memcpy(orig, b, len);
    CHECK(termcaps_has(b, len, 121) == 1);      /* rep */
    CHECK(termcaps_has(b, len, 1) == 0);        /* absent by construction */
    CHECK(termcaps_patch(b, len) == want);
    for (int i = 0; i < NSTR; i++) {
        unsigned v = b[at + 2 * (size_t)i] | b[at + 2 * (size_t)i + 1] << 8;
        if (unsafe(i))
            CHECK(v == 0xFFFF);
        else
            CHECK(v == (present[i] ? (unsigned)(2 * i) : 0xFFFFu));
    }
    for (size_t k = 0; k < at; k++)             /* header and the rest */
        if (b[k] != orig[k])
            CHECK(!"a byte before the string offsets changed");
    CHECK(memcmp(b + at + 2 * NSTR, orig + at + 2 * NSTR,
                 len - at - 2 * NSTR) == 0);
    CHECK(termcaps_patch(b, len) == 0);         /* nothing left to clear */
    CHECK(termcaps_patch(b, 11) == -1);         /* too short */
    b[0] = 0x1A; b[1] = 0x02;                   /* not a magic number */
    CHECK(termcaps_patch(b, len) == -1);
}

static void test_portable_copy(void)
{
    char dir[512], path[1024];
    const char *term = "xterm-256color";
    if (termcaps_find(term, path, sizeof path) < 0) {
        printf("skip: no compiled %s entry here\n", term);
        return;
    }
    setenv("TMPDIR", "/tmp", 1);
    CHECK(termcaps_portable(term, dir, sizeof dir) == 0);
    snprintf(path, sizeof path, "%s/x/%s", dir, term);
    CHECK(access(path, R_OK) == 0);
    FILE *f = fopen(path, "rb");
    static unsigned char b[65536];
    size_t n = f ? fread(b, 1, sizeof b, f) : 0;
    if (f)
        fclose(f);
    CHECK(n > 12);
    CHECK(termcaps_has(b, n, 121) == 0);        /* rep */
    CHECK(termcaps_has(b, n, 3) == 0);          /* csr */
    CHECK(termcaps_has(b, n, 109) == 0);        /* indn */
    CHECK(termcaps_has(b, n, 10) == 1);         /* cup stays */
    termcaps_remove(dir, term);
    CHECK(access(dir, F_OK) != 0);
    CHECK(termcaps_portable("no-such-terminal-type", dir, sizeof dir) == -1);
    CHECK(termcaps_find("../etc", path, sizeof path) == -1);
}

static void test_charset(void)
{
    char note[256];
    CHECK(charset_wants_utf8("zh_CN.UTF-8"));
    CHECK(charset_wants_utf8("en_US.utf8"));
    CHECK(charset_wants_utf8("de_DE.UTF-8@euro"));
    CHECK(!charset_wants_utf8("C"));
    CHECK(!charset_wants_utf8("de_DE.ISO-8859-1"));
    CHECK(!charset_wants_utf8(""));

    unsetenv("LC_ALL");
    unsetenv("LC_CTYPE");
    setenv("LANG", "zz_ZZ.UTF-8", 1);           /* no such locale */
    CHECK_STR(charset_env_name(), "zz_ZZ.UTF-8");
    int u = charset_setup(note, sizeof note);
    if (setlocale(LC_CTYPE, NULL) && strstr(setlocale(LC_CTYPE, NULL), "UTF")) {
        CHECK(u == 1);
        CHECK(strstr(note, "zz_ZZ.UTF-8 is not installed") != NULL);
    }
    CHECK_STR(localeconv()->decimal_point, ".");
    CHECK_STR(setlocale(LC_NUMERIC, NULL), "C");

    setenv("LC_ALL", "C", 1);
    CHECK(charset_setup(note, sizeof note) == 0);
    CHECK_STR(note, "");
    setenv("LC_ALL", "C.UTF-8", 1);
    CHECK(charset_setup(note, sizeof note) == 1);
    CHECK_STR(note, "");
    CHECK_STR(setlocale(LC_NUMERIC, NULL), "C");
}

int main(void)
{
    test_patch(0432, 2);
    test_patch(01036, 4);
    test_portable_copy();
    test_charset();
    TEST_END("test_termenv");
}
