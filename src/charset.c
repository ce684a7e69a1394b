/* SPDX-License-Identifier: ISC */
/*
 * charset.c - LC_CTYPE from the environment, LC_NUMERIC at "C", and a
 * UTF-8 fallback when the named UTF-8 locale is missing (charset.h).
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <langinfo.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charset.h"

/* UTF-8 locales tried, in order, when the one asked for is missing. */
static const char *const FALLBACK[] = { "C.UTF-8", "C.utf8", "en_US.UTF-8" };

static const char *const VARS[] = { "LC_ALL", "LC_CTYPE", "LANG" };

/* The first of VARS that is set and not empty, or -1. */
static int env_index(void)
{
    for (size_t i = 0; i < sizeof VARS / sizeof VARS[0]; i++) {
        const char *v = getenv(VARS[i]);
        if (v && *v)
            return (int)i;
    }
    return -1;
}

const char *charset_env_name(void)
{
    int i = env_index();
    return i < 0 ? "" : getenv(VARS[i]);
}

void charset_why_not_utf8(char *buf, size_t len)
{
    const char *cs = nl_langinfo(CODESET);
    int i = env_index();
    char val[40];
    size_t n = 0;

    if (strcmp(cs, "ANSI_X3.4-1968") == 0)
        cs = "ASCII";
    if (i < 0) {
        snprintf(buf, len, "no locale is set (LC_ALL, LC_CTYPE and LANG "
                 "are empty): %s", cs);
        return;
    }
    /* the value as the user set it, printable ASCII only */
    for (const char *v = getenv(VARS[i]); *v && n < sizeof val - 1; v++)
        val[n++] = *v > 0x20 && *v < 0x7f ? *v : '?';
    val[n] = 0;
    snprintf(buf, len, "%s=%s is %s", VARS[i], val, cs);
}

int charset_wants_utf8(const char *name)
{
    const char *dot = name ? strchr(name, '.') : NULL;
    char cs[8];
    size_t n = 0;

    if (!dot)
        return 0;
    for (dot++; *dot && *dot != '@' && n < sizeof cs - 1; dot++)
        if (*dot != '-')
            cs[n++] = (char)tolower((unsigned char)*dot);
    cs[n] = 0;
    return strcmp(cs, "utf8") == 0;
}

static int is_utf8(void)
{
    return strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

int charset_setup(char *note, size_t notelen)
{
    const char *want = charset_env_name();

    if (note && notelen)
        note[0] = 0;
    setlocale(LC_ALL, "C");
    if (setlocale(LC_CTYPE, "") || !charset_wants_utf8(want))
        return is_utf8();
    for (size_t i = 0; i < sizeof FALLBACK / sizeof FALLBACK[0]; i++)
        if (setlocale(LC_CTYPE, FALLBACK[i]) && is_utf8()) {
            if (note && notelen)
                snprintf(note, notelen, "locale %s is not installed: "
                         "characters use %s", want, FALLBACK[i]);
            return 1;
        }
    setlocale(LC_CTYPE, "C");
    return 0;
}

const char *charset_use_utf8(void)
{
    for (size_t i = 0; i < sizeof FALLBACK / sizeof FALLBACK[0]; i++)
        if (setlocale(LC_CTYPE, FALLBACK[i]) && is_utf8())
            return FALLBACK[i];
    setlocale(LC_CTYPE, "");
    return NULL;
}

/* Write all of s; -1 on an error. */
static int put_all(const char *s, size_t n)
{
    while (n > 0) {
        ssize_t r = write(STDOUT_FILENO, s, n);
        if (r <= 0)
            return -1;
        s += r;
        n -= (size_t)r;
    }
    return 0;
}

/* The column of the first report "ESC [ row ; col R" in buf, or -1;
 * the report is taken out of buf (*n shrinks), the rest stays. */
static int report_col(char *buf, size_t *n)
{
    for (size_t i = 0; i + 1 < *n; i++) {
        int row, col, len = 0;
        char end;
        if (buf[i] == '\033' && buf[i + 1] == '[' &&
            sscanf(buf + i + 2, "%d;%d%c%n", &row, &col, &end, &len) == 3 &&
            end == 'R') {
            size_t k = i + 2 + (size_t)len;
            memmove(buf + i, buf + k, *n - k);
            *n -= k - i;
            buf[*n] = 0;
            return col;
        }
    }
    return -1;
}

int charset_probe_terminal(int ms, char *keys, size_t cap, size_t *nkeys)
{
    struct termios old, raw;
    char buf[256];
    size_t n = 0;
    *nkeys = 0;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) ||
        tcgetattr(STDIN_FILENO, &old) != 0)
        return 0;
    raw = old;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 0;
    if (tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0)
        return 0;
    /* U+4E2D, two columns wide; then where is the cursor? */
    static const char PROBE[] = "\r\xe4\xb8\xad\033[6n";
    int ok = put_all(PROBE, sizeof PROBE - 1) == 0;
    for (int left = ms; ok && left > 0 && n < sizeof buf - 1; left -= 20) {
        struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
        if (poll(&p, 1, 20) <= 0)
            continue;
        ssize_t r = read(STDIN_FILENO, buf + n, sizeof buf - 1 - n);
        if (r <= 0)
            break;
        n += (size_t)r;
        buf[n] = 0;
        if (memchr(buf, 'R', n))
            break;
    }
    buf[n] = 0;
    put_all("\r\033[K", sizeof "\r\033[K" - 1);
    tcsetattr(STDIN_FILENO, TCSANOW, &old);
    int col = report_col(buf, &n);
    *nkeys = n < cap ? n : cap;
    memcpy(keys, buf, *nkeys);
    return col == 3;
}
