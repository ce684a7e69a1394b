/* SPDX-License-Identifier: ISC */
/*
 * userconf.c - the user's settings file (userconf.h).
 */
#include "userconf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "errline.h"
#include "peviz/names.h"

#define CONF_MAX_BYTES 65536
#define CONF_MAX_LINES 1024

/* Options that start a job for this run, or name its input or output:
 * the command line's alone. */
static const char *const JOBS[] = {
    "help", "version", "no-user-settings", "export", "snapshot", "format",
    "size", "scale", "rows", "check", "check-freqs", "check-cache", "slides",
    "record", "autoplay", "serve", "serve-mode", "follow", "files", "tour",
    "print-settings",
};

int userconf_path(char *buf, size_t len)
{
    const char *x = getenv("XDG_CONFIG_HOME"), *h = getenv("HOME");
    int n;

    if (x && x[0] == '/')
        n = snprintf(buf, len, "%s/peviz/peviz.conf", x);
    else if (h && *h)
        n = snprintf(buf, len, "%s/.config/peviz/peviz.conf", h);
    else
        return -1;
    return n > 0 && (size_t)n < len ? 0 : -1;
}

/* Whether the command line asks for no file (or for help, a version). */
static int skip_file(int argc, char **argv)
{
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (!strcmp(argv[i], "--no-user-settings") || !strcmp(argv[i], "--help") ||
            !strcmp(argv[i], "-h") || !strcmp(argv[i], "--version") ||
            !strcmp(argv[i], "-V"))
            return 1;
    return 0;
}

static int is_job(const char *name)
{
    return names_find(JOBS, NAMES_COUNT(JOBS), name) >= 0;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && strchr(" \t\r\n", s[n - 1]))
        s[--n] = 0;
    return s;
}

/* Cut a comment: '#' at the start or after a blank. */
static void uncomment(char *s)
{
    for (char *p = s; *p; p++)
        if (*p == '#' && (p == s || p[-1] == ' ' || p[-1] == '\t')) {
            *p = 0;
            return;
        }
}

/* A flag's word: 1 yes, 0 no, -1 neither. */
static int yes_no(const char *v)
{
    static const char *const YES[] = { "", "yes", "on", "true", "1" };
    static const char *const NO[] = { "no", "off", "false", "0" };

    if (names_find(YES, NAMES_COUNT(YES), v) >= 0)
        return 1;
    return names_find(NO, NAMES_COUNT(NO), v) >= 0 ? 0 : -1;
}

/* One line's word for the parser into *word (NULL: nothing to add).
 * 0, or 2 after the refusal. */
static int line_word(char *line, char **word)
{
    char *eq = strchr(line, '='), *name = line, *val = (char *)"";

    *word = NULL;
    if (eq) {
        *eq = 0;
        val = trim(eq + 1);
    }
    name = trim(name);
    if (!*name)
        return errline("a line without a name: want NAME = VALUE");
    int arg = cli_option_arg(name);
    if (arg < 0)
        return errline("%s: not a setting (the names are peviz --help's "
                         "long options without their dashes)", name);
    if (!cli_option_in_file(name))
        return errline("%s: not offered in the settings file (the command "
                         "line takes it)", name);
    if (is_job(name))
        return errline("%s: runs a job for one run, so it is given on the "
                         "command line only", name);
    if (arg == 0) {
        int on = yes_no(val);
        if (on < 0)
            return errline("%s: '%s': want yes or no", name, val);
        if (on && !(*word = malloc(strlen(name) + 3)))
            return errline("out of memory");
        if (on)
            sprintf(*word, "--%s", name);
        return 0;
    }
    if (!*val)
        return errline("%s: needs a value: want %s = VALUE", name, name);
    if (!(*word = malloc(strlen(name) + strlen(val) + 4)))
        return errline("out of memory");
    sprintf(*word, "--%s=%s", name, val);
    return 0;
}

/* The file's bytes, NUL-ended, in *text (NULL: there is none): 0 or 2.
 * Opened without blocking, so that a FIFO is refused, not waited on. */
static int read_file(const char *path, char **text)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    ssize_t got = 0, r = 1;

    *text = NULL;
    if (fd < 0)
        return errno == ENOENT || errno == ENOTDIR ? 0
             : errline("%s: %s", path, strerror(errno));
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > CONF_MAX_BYTES) {
        close(fd);
        return errline("%s: %s", path, S_ISREG(st.st_mode)
                         ? "larger than 64 KB" : "not a regular file");
    }
    if (!(*text = malloc((size_t)st.st_size + 1))) {
        close(fd);
        return errline("out of memory");
    }
    while (got < st.st_size && (r = read(fd, *text + got, (size_t)(st.st_size - got))) > 0)
        got += r;
    close(fd);
    (*text)[got] = 0;
    if (r < 0) {
        free(*text);
        *text = NULL;
        return errline("%s: %s", path, strerror(errno));
    }
    return 0;
}

/* peviz's parse of argv0 and the n words: 0, or 2 after its refusal;
 * the parameters it set in *p when p is not NULL. */
static int parse_words(char *argv0, char **words, int n, params *p)
{
    static struct cli c;
    char **v = malloc(((size_t)n + 1) * sizeof *v);

    if (!v)
        return errline("out of memory");
    v[0] = argv0;
    memcpy(v + 1, words, (size_t)n * sizeof *v);
    int r = cli_parse(&c, n + 1, v);
    free(v);
    if (p)
        *p = c.app.p;
    return r;
}

/* The file's lines as words, each checked with those before it. */
static int file_words(char *argv0, const char *path, char *text, char **words,
                      int *n)
{
    char where[4200];
    int line = 0, r = 0;

    *n = 0;
    for (char *s = text, *next; s && !r; s = next) {
        next = strchr(s, '\n');
        if (next)
            *next++ = 0;
        snprintf(where, sizeof where, "%s:%d", path, ++line);
        errline_where(where);
        uncomment(s);
        if (!*trim(s))
            continue;
        if (*n == CONF_MAX_LINES)
            r = errline("more than %d settings", CONF_MAX_LINES);
        else if (!(r = line_word(s, &words[*n])) && words[*n] &&
                 !(r = parse_words(argv0, words, *n + 1, NULL)))
            (*n)++;
        else if (r)
            free(words[*n]);
    }
    errline_where(NULL);
    return r;
}

/* Whether word i of argv names a starting point (--model, --config,
 * --layer-type); *take: the words it spans. */
static int starting_point(char **argv, int argc, int i, int *take)
{
    static const char *const START[] = { "--model", "--config", "--layer-type" };

    for (size_t k = 0; k < sizeof START / sizeof START[0]; k++) {
        size_t l = strlen(START[k]);
        if (strncmp(argv[i], START[k], l) == 0 &&
            (argv[i][l] == '=' || (argv[i][l] == 0 && i + 1 < argc))) {
            *take = argv[i][l] == '=' ? 1 : 2;
            return 1;
        }
    }
    return 0;
}

/* Leave out the file's words that would change the parameters the
 * command line's model or config sets. */
static void keep_under_model(int argc, char **argv, char **words, int *n)
{
    char **start = malloc(((size_t)argc + 1) * sizeof *start);
    int ns = 0, take, kept = 0;
    params p0, p1;

    if (!start)
        return;
    for (int i = 1; i < argc; i++)
        if (starting_point(argv, argc, i, &take))
            for (int k = 0; k < take; k++)
                start[ns++] = argv[i + k];
    if (ns && parse_words(argv[0], start, ns, &p0) == 0)
        for (int i = 0; i < *n; i++) {
            start[ns] = words[i];
            if (parse_words(argv[0], start, ns + 1, &p1) == 0 &&
                memcmp(&p0, &p1, sizeof p0) == 0)
                words[kept++] = words[i];
            else
                free(words[i]);
        }
    else
        kept = *n;
    *n = kept;
    free(start);
}

int userconf_args(int argc, char **argv, int *outc, char ***out)
{
    char path[4096], *text = NULL;
    char **words = calloc(CONF_MAX_LINES, sizeof *words);
    int n = 0, r = 0;

    *outc = argc;
    *out = argv;
    if (!words)
        return errline("out of memory");
    if (!skip_file(argc, argv) && userconf_path(path, sizeof path) == 0 &&
        !(r = read_file(path, &text)) && text &&
        !(r = file_words(argv[0], path, text, words, &n)))
        keep_under_model(argc, argv, words, &n);
    free(text);
    if (r || n == 0) {
        for (int i = 0; i < n; i++)
            free(words[i]);
        free(words);
        return r;
    }
    char **v = malloc(((size_t)argc + (size_t)n + 1) * sizeof *v);
    if (!v) {
        free(words);
        return errline("out of memory");
    }
    v[0] = argv[0];
    memcpy(v + 1, words, (size_t)n * sizeof *v);
    memcpy(v + 1 + n, argv + 1, (size_t)argc * sizeof *v);  /* and NULL */
    free(words);
    *outc = argc + n;
    *out = v;
    return 0;
}

void userconf_free(int outc, char **out, int argc, char **argv)
{
    if (out == argv)
        return;
    for (int i = 1; i <= outc - argc; i++)
        free(out[i]);
    free(out);
}
