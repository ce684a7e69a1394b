/* SPDX-License-Identifier: ISC */
/*
 * errline.c - the one-line refusal on stderr (errline.h).
 */
#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "errline.h"
#include "text.h"

/* Whether the terminal reading stderr takes UTF-8 (the locale says). */
static int stderr_utf8(void)
{
    return strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
}

static const char *where_now;

void errline_where(const char *where)
{
    where_now = where;
}

/* "-b/--base: x" or "--base: x" as "base: x" */
static const char *unoption(const char *m)
{
    const char *dd = strstr(m, "--"), *colon = strchr(m, ':');

    if (m[0] != '-' || !dd || !colon || dd > colon)
        return m;
    return dd + 2;
}

int errline(const char *fmt, ...)
{
    char msg[1024], buf[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (where_now)
        snprintf(buf, sizeof buf, "%s: %s", where_now, unoption(msg));
    else
        snprintf(buf, sizeof buf, "%s", msg);
    /* a file name or argument must not reach the user's terminal as
     * an escape sequence, even on stderr */
    text_scrub(buf, stderr_utf8());
    fprintf(stderr, "peviz: %s\n", buf);
    return 2;
}
