/* SPDX-License-Identifier: ISC */
/*
 * The settings' rows (settings.h) against the command line: for every
 * row, the range and default --help prints are what the parser takes
 * (the ends accepted, one past them refused with one line on stderr),
 * and the default --help names is the value a run starts with.  The
 * rows are walked through cli_setting; the ranges are read from the
 * help text, never from the row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "cli.h"
#include "settings.h"

static struct cli c;
static char help_now[1200];     /* the help line of the row being checked */

/* cli_parse of argv[0] and the words: its result; *lines: the lines it
 * wrote on stderr, *first the first of them. */
static int parse_words(char **words, int n, int *lines, char *first,
                       size_t len)
{
    char *argv[8] = { "peviz" };
    for (int i = 0; i < n && i < 6; i++)
        argv[i + 1] = words[i];
    fflush(stderr);
    int saved = dup(2);
    FILE *t = tmpfile();
    if (saved < 0 || !t)
        return -100;
    dup2(fileno(t), 2);
    int r = cli_parse(&c, n + 1, argv);
    if (r == 0)
        r = cli_set_late(&c);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(t);
    *lines = 0;
    first[0] = 0;
    for (char buf[512]; fgets(buf, sizeof buf, t); (*lines)++)
        if (*lines == 0)
            snprintf(first, len, "%s", buf);
    fclose(t);
    return r;
}

/* Whether a refusal is of the value's range (the words settings_set
 * writes), not of a relation to other settings ("goes with ...",
 * "wants more than the exact buckets"). */
static int range_refusal(const char *line)
{
    static const char *const RANGE[] = { "wants a whole number",
        "wants a number", "wants a finite number", "wants an even",
        "unknown option", "doesn't allow an argument" };
    const char *w = strstr(line, ": wants ");
    char vals[512];
    for (size_t i = 0; i < sizeof RANGE / sizeof RANGE[0]; i++)
        if (strstr(line, RANGE[i]))
            return 1;
    if (w) {        /* the values as the help line says them */
        snprintf(vals, sizeof vals, "%.*s", (int)strcspn(w + 8, "\n"), w + 8);
        if (*vals && strstr(help_now, vals))
            return 1;
    }
    return w && strstr(w, " or ") && !strstr(w, "more than");
}

/* The one letter of option name (-d), or 0. */
static int short_of(const char *name)
{
    char names[1024];
    for (size_t i = 0; i < cli_option_count(); i++) {
        struct cli_option o = cli_option_at(i, names, sizeof names);
        if (strcmp(o.name, name) == 0)
            return o.short_name;
    }
    return 0;
}

/* --name=value: 0 accepted; 2 refused for its range with one "peviz:
 * --name" line; 3 refused with one line for a relation to the other
 * settings at their defaults. */
static int try_value(const char *name, const char *value)
{
    char opt[256], first[512], want[128];
    char *w[1] = { opt };
    int lines;
    if (value)
        snprintf(opt, sizeof opt, "--%s=%s", name, value);
    else
        snprintf(opt, sizeof opt, "--%s", name);
    int r = parse_words(w, 1, &lines, first, sizeof first);
    if (r == 0 && lines == 0)
        return 0;
    int c1 = short_of(name);
    if (c1)
        snprintf(want, sizeof want, "peviz: -%c/--%s", c1, name);
    else
        snprintf(want, sizeof want, "peviz: --%s", name);
    if (r == 2 && lines == 1 && range_refusal(first))
        return strncmp(first, want, strlen(want)) == 0 ? 2 : -1;
    if (r == 2 && lines == 1)
        return 3;
    fprintf(stderr, "--%s=%s: r %d, %d lines: %s", name, value ? value : "",
            r, lines, first);
    return -1;
}

/* Not refused for its range (a relation may refuse it). */
static int taken(const char *name, const char *value)
{
    int r = try_value(name, value);
    if (r != 0 && r != 3)
        fprintf(stderr, "--%s %s: refused for its range\n", name,
                value ? value : "");
    return r == 0 || r == 3;
}

/* The help line of option name (its text and the names appended). */
static int help_of(const char *name, char *buf, size_t len)
{
    for (size_t i = 0; i < cli_option_count(); i++) {
        char names[1024];
        struct cli_option o = cli_option_at(i, names, sizeof names);
        if (strcmp(o.name, name) == 0) {
            snprintf(buf, len, "%s%s", o.help, names);
            return 0;
        }
    }
    return -1;
}

/* The "(default X)" of option name's help into def; 0, or -1 if none. */
static int help_default(const char *name, char *def, size_t len)
{
    char h[1200];
    const char *p;
    if (help_of(name, h, sizeof h) || !(p = strstr(h, "(default ")))
        return -1;
    p += strlen("(default ");
    size_t n = strcspn(p, ")");
    snprintf(def, len, "%.*s", (int)n, p);
    return 0;
}

/* A bound as the help names it: a number, or another option's default
 * ("heads"), or n (the sequence length's), n-1 (the last position), d-1
 * (the last dimension) or d/2-1 (the last band). */
static long long bound_value(const char *word)
{
    char def[64];
    if (strcmp(word, "n-1") == 0)
        return bound_value("n") - 1;
    if (strcmp(word, "d-1") == 0)
        return bound_value("d-model") - 1;
    if (strcmp(word, "d/2-1") == 0)
        return bound_value("d-model") / 2 - 1;
    if (strcmp(word, "n") == 0)
        word = "seq-len";
    if (word[0] >= '0' && word[0] <= '9')
        return atoll(word);
    CHECK(help_default(word, def, sizeof def) == 0);
    return atoll(def);
}

/* "lo..hi" in the help: both ends taken, one past each refused. */
static void check_whole(const char *name, const char *h)
{
    const char *dots = strstr(h, "..");
    const char *p = dots;
    char lo_w[64], hi_w[64], v[64];
    while (p > h && p[-1] >= '0' && p[-1] <= '9')
        p--;
    if (p > h && p[-1] == '-' && (p - 1 == h || p[-2] == ' '))
        p--;                                    /* "-16777216..16777216" */
    snprintf(lo_w, sizeof lo_w, "%.*s", (int)(dots - p), p);
    snprintf(hi_w, sizeof hi_w, "%.*s", (int)strcspn(dots + 2, " ,()"),
             dots + 2);
    long long lo = atoll(lo_w), hi = bound_value(hi_w);
    int even = strstr(h, "even") != NULL;
    snprintf(v, sizeof v, "%lld", lo);
    CHECK(taken(name, v));
    snprintf(v, sizeof v, "%lld", hi - (even && hi % 2));
    CHECK(taken(name, v));
    snprintf(v, sizeof v, "%lld", lo - 1 - (even ? 1 : 0));
    CHECK(try_value(name, v) == 2);
    snprintf(v, sizeof v, "%lld", hi + 1 + (even ? 1 : 0));
    CHECK(try_value(name, v) == 2);
    if (even) {
        snprintf(v, sizeof v, "%lld", lo + 1);
        CHECK(try_value(name, v) == 2);
    }
}

/* "> X" or ">= X" in the help: X refused or taken, below it refused. */
static void check_num(const char *name, const char *h)
{
    const char *p = strstr(h, ">");
    int open = p[1] != '=';
    double x = atof(p + (open ? 1 : 2));
    char v[64];
    snprintf(v, sizeof v, "%.17g", x);
    CHECK(open ? try_value(name, v) == 2 : taken(name, v));
    snprintf(v, sizeof v, "%.17g", x - 1);
    CHECK(try_value(name, v) == 2);
    snprintf(v, sizeof v, "%.17g", x + 0.5);
    CHECK(taken(name, v));
    CHECK(try_value(name, "nan") == 2);
}

/* "a, b or c (default a)" after the help's ": ": each taken. */
static void check_words(const char *name, const char *h)
{
    const char *p = strrchr(h, ':');
    char list[1024];
    int n = 0;
    snprintf(list, sizeof list, "%.*s", (int)strcspn(p + 2, "("), p + 2);
    for (char *save = NULL, *t = strtok_r(list, ", ", &save); t;
         t = strtok_r(NULL, ", ", &save))
        if (strcmp(t, "or") != 0) {
            CHECK(taken(name, t));
            n++;
        }
    CHECK(n >= 2);
    CHECK(try_value(name, "not-one-of-them") == 2);
}

/* The value a run starts with is the default the help names. */
static void check_default(const struct setting *s)
{
    char def[64], now[128], first[512];
    int lines;
    if (help_default(s->name, def, sizeof def))
        return;
    CHECK(parse_words(NULL, 0, &lines, first, sizeof first) == 0);
    settings_show(s, &c.app, now, sizeof now);
    if (strcmp(now, def) != 0)
        fprintf(stderr, "--%s: starts at %s, help says %s\n", s->name, now,
                def);
    CHECK(strcmp(now, def) == 0);
}

/* Values in words of the help's own ("a name of --model list", "T,H,W
 * whole numbers"): the default taken when it is one word, a word it does
 * not know refused. */
static void check_values(const char *name)
{
    char def[64];
    if (help_default(name, def, sizeof def) == 0 && !strchr(def, ' '))
        CHECK(taken(name, def));
    CHECK(try_value(name, "not-one-of-them") == 2);
}

static void check_row(const struct setting *s)
{
    char h[1200];
    CHECK(help_of(s->name, h, sizeof h) == 0);
    snprintf(help_now, sizeof help_now, "%s", h);
    check_default(s);
    if (!settings_takes_arg(s)) {
        CHECK(taken(s->name, NULL));
        CHECK(try_value(s->name, "on") == 2);  /* a flag takes no value */
        return;
    }
    if (s->values)
        check_values(s->name);
    else if (s->type == SET_WORD)
        check_words(s->name, h);
    else if (s->type == SET_NUM)
        check_num(s->name, h);
    else
        check_whole(s->name, h);
}

/* At the prompt: a value a relation refuses is put back, and a row's
 * answer does what follows from the change. */
static void check_prompt(void)
{
    static struct app a;
    char want[64];
    app_init(&a);
    a.view = VIEW_ATTENTION;
    int side = a.att.o.buckets;     /* causal: every bucket on one side */
    snprintf(want, sizeof want, ":max-distance 1: wants more than %d", side / 2);
    CHECK(app_command(&a, "max-distance 1") == -1);
    CHECK(strstr(a.msg, want) != NULL);
    CHECK(a.att.o.max_distance > side / 2);     /* as it was */
    a.att.o.heads = 8;
    a.att.o.head = 5;
    CHECK(app_command(&a, "heads 2") == 0);
    CHECK(a.att.o.heads == 2 && a.att.o.head == 1);   /* the last head */
    CHECK(app_command(&a, "rotary-dims all") == 0 && a.att.o.rotary_dims == 0);
    CHECK(app_command(&a, "rotary-dims 7") == -1 && a.att.o.rotary_dims == 0);
    a.view = VIEW_HEATMAP;
    CHECK(app_command(&a, "heads 3") == -1 && a.att.o.heads == 2);
    CHECK(strstr(a.msg, "attention only") != NULL);
}

/* A flag that stores its opposite (--no-truncate: YaRN's truncate 0). */
static void check_invert(void)
{
    static struct app a;
    char err[160], v[32];
    app_init(&a);
    const struct setting *s = settings_find(APP_SETTINGS, "no-truncate",
                                            SET_CLI);
    CHECK(s != NULL && s->invert && a.p.rope.truncate == 1);
    if (!s)
        return;
    settings_text(s, &a, v, sizeof v);
    CHECK(strcmp(v, "off") == 0);
    CHECK(settings_set(s, &a, a.p.n, "on", err, sizeof err) == 0);
    CHECK(a.p.rope.truncate == 0);
    settings_text(s, &a, v, sizeof v);
    CHECK(strcmp(v, "on") == 0);
    settings_reset(APP_SETTINGS, &a);
    CHECK(a.p.rope.truncate == 1);
}

int main(void)
{
    check_prompt();
    check_invert();
    size_t k = 0;
    for (const struct setting *s; (s = cli_setting(k)); k++)
        check_row(s);
    CHECK(k > 0);
    TEST_END("test_settings");
}
