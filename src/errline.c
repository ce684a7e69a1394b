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

int cli_error(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    /* a file name or argument must not reach the user's terminal as
     * an escape sequence, even on stderr */
    text_scrub(buf, stderr_utf8());
    fprintf(stderr, "peviz: %s\n", buf);
    return 2;
}
