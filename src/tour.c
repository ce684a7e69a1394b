/* SPDX-License-Identifier: ISC */
/*
 * tour.c - the guided tour: read a tour file, check every step against a
 * scratch copy of the program, and step through it (the caption panel is
 * caption.c's).  The format is described in tour.h.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "charset.h"
#include "sha256.h"
#include "text.h"
#include "tour.h"
#include "peviz/tables.h"

#ifndef PEVIZ_DATADIR
#define PEVIZ_DATADIR "/usr/local/share/peviz"
#endif

#define TOUR_NAME_SHOWN 24      /* bytes of a bad word quoted in an error */
/* ---- UTF-8 ----------------------------------------------------------- */

/*
 * Copy the line s[0 .. n) into out (>= 3n + 1 bytes) with control
 * characters made harmless: a tab becomes a space, any other C0 or C1
 * character or DEL becomes U+FFFD.  Returns -1 on invalid UTF-8.
 */
static int sanitize_line(const char *s, size_t n, char *out)
{
    size_t i = 0, o = 0;
    while (i < n) {
        int l;
        long cp = utf8_decode((const unsigned char *)s + i, n - i, &l);
        if (cp < 0)
            return -1;
        if (cp == '\t') {
            out[o++] = ' ';
        } else if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) {
            memcpy(out + o, "\xef\xbf\xbd", 3);
            o += 3;
        } else {
            memcpy(out + o, s + i, (size_t)l);
            o += (size_t)l;
        }
        i += (size_t)l;
    }
    out[o] = 0;
    return 0;
}

/* ---- errors ---------------------------------------------------------- */

struct parse {
    struct tour *t;
    const char *path;
    int line;
    char *err;
    size_t errlen;
    const struct tour_files *files;     /* NULL: files by any path */
};

static int fail(struct parse *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int fail(struct parse *p, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (p->line > 0)
        snprintf(p->err, p->errlen, "%s:%d: %s", p->path, p->line, msg);
    else
        snprintf(p->err, p->errlen, "%s: %s", p->path, msg);
    return -1;
}

/* The first bytes of a word for a message, cut at a character boundary. */
static void shown_word(const char *s, char *out, size_t outlen)
{
    size_t n = strlen(s), cut = n < outlen - 4 ? n : outlen - 4;
    while (cut > 0 && cut < n && ((unsigned char)s[cut] & 0xC0) == 0x80)
        cut--;
    memcpy(out, s, cut);
    strcpy(out + cut, cut < n ? "..." : "");
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* ---- the directives -------------------------------------------------- */

static struct tour_step *cur_step(struct parse *p)
{
    return p->t->nsteps ? &p->t->steps[p->t->nsteps - 1] : NULL;
}

static int add_step(struct parse *p, const char *title)
{
    struct tour *t = p->t;
    if (!*title)
        return fail(p, "title needs the step's title after it");
    if (t->nsteps >= TOUR_MAX_STEPS)
        return fail(p, "more than %d steps", TOUR_MAX_STEPS);
    if (!t->steps) {
        t->steps = calloc(TOUR_MAX_STEPS, sizeof *t->steps);
        if (!t->steps)
            return fail(p, "out of memory");
    }
    struct tour_step *s = &t->steps[t->nsteps];
    s->title = dup_str(title);
    s->text = dup_str("");
    s->line = p->line;
    if (!s->title || !s->text)
        return fail(p, "out of memory");
    t->nsteps++;
    return 0;
}

static int add_cmd(struct parse *p, enum tour_cmd_kind kind, const char *arg,
                   int key)
{
    struct tour_step *s = cur_step(p);
    if (s->ncmd >= TOUR_MAX_CMDS)
        return fail(p, "more than %d set and key actions in one step",
                    TOUR_MAX_CMDS);
    if (!s->cmds) {
        s->cmds = calloc(TOUR_MAX_CMDS, sizeof *s->cmds);
        if (!s->cmds)
            return fail(p, "out of memory");
    }
    struct tour_cmd *c = &s->cmds[s->ncmd];
    c->kind = kind;
    c->key = key;
    c->line = p->line;
    c->arg = dup_str(arg);
    if (!c->arg)
        return fail(p, "out of memory");
    s->ncmd++;
    return 0;
}

/* "set NAME FILE [REST]" where FILE must be one p->files finds: the
 * command kept reads it by the path found. */
static int set_file(struct parse *p, const char *name, char *rest)
{
    char path[APP_PROMPT_LEN], why[256], line[APP_PROMPT_LEN];
    char *more = rest + strcspn(rest, " \t");
    if (*more)
        *more++ = 0;
    if (p->files->fn(p->files->ctx, rest, path, sizeof path, why,
                     sizeof why))
        return fail(p, "set %s: %s", name, why);
    if (snprintf(line, sizeof line, "%s %s%s%s", name, path, *more ? " " : "",
                 more) >= (int)sizeof line)
        return fail(p, "set %s: command longer than %d bytes", name,
                    APP_PROMPT_LEN - 1);
    return add_cmd(p, TOUR_SET, line, 0);
}

static int do_set(struct parse *p, const char *arg)
{
    if (!*arg)
        return fail(p, "set needs a command, e.g. 'set d 512'");
    if (strlen(arg) >= APP_PROMPT_LEN)
        return fail(p, "set: command longer than %d bytes", APP_PROMPT_LEN - 1);
    char word[APP_PROMPT_LEN], *rest;
    snprintf(word, sizeof word, "%s", arg);
    const char *name = app_command_split(word, &rest);
    if (strcmp(name, "tour") == 0)
        return fail(p, "set tour: a tour cannot load or step a tour");
    if (p->files && app_command_file(name))
        return set_file(p, name, rest);
    return add_cmd(p, TOUR_SET, arg, 0);
}

/* Keys a tour may press by name (besides single printable characters). */
static const int NAMED_KEYS[] = {
    ' ', PK_TAB, PK_BTAB, PK_UP, PK_DOWN, PK_LEFT, PK_RIGHT, PK_PGUP,
    PK_PGDN, PK_HOME, PK_END,
};

/* Keys a tour must not press: they belong to the tour, or leave, or
 * open something that would hide the step. */
static int key_forbidden(int key)
{
    switch (keys_lookup(KEYS_GLOBAL, key)) {
    case ACT_QUIT: case ACT_HELP: case ACT_PROMPT: case ACT_TOUR:
    case ACT_EXPORT: case ACT_REDRAW: case ACT_MOUSE: case ACT_RESET:
    case ACT_RESET_ALL:
        return 1;
    default:
        return key == PK_ENTER || key == PK_BACKSPACE || key == PK_ESC;
    }
}

static int key_parse(const char *name)
{
    char buf[16];
    unsigned char c = (unsigned char)name[0];
    if (c > 0x20 && c < 0x7f && name[1] == 0)
        return c;
    for (size_t i = 0; i < sizeof NAMED_KEYS / sizeof NAMED_KEYS[0]; i++)
        if (strcmp(keys_name(NAMED_KEYS[i], buf, sizeof buf), name) == 0)
            return NAMED_KEYS[i];
    return -1;
}

static int do_key(struct parse *p, char *arg)
{
    char shown[TOUR_NAME_SHOWN];
    int any = 0;
    for (char *w = strtok(arg, " "); w; w = strtok(NULL, " ")) {
        int key = key_parse(w);
        shown_word(w, shown, sizeof shown);
        if (key < 0)
            return fail(p, "key: unknown key '%s' (want one character, or "
                        "Space, Tab, S-Tab, Up, Down, Left, Right, PgUp, "
                        "PgDn, Home, End)", shown);
        if (key_forbidden(key))
            return fail(p, "key: '%s' cannot be pressed by a tour", shown);
        if (add_cmd(p, TOUR_KEY, w, key))
            return -1;
        any = 1;
    }
    return any ? 0 : fail(p, "key needs key names, e.g. 'key m a'");
}

/* Append to the step's caption (kept as lines separated by '\n'; an
 * empty line separates paragraphs).  Consecutive text lines join with
 * a blank, except between two double-width characters (Chinese needs
 * none); an empty text line ends the paragraph; a `line` line stands on
 * a line of its own. */
static int caption_add(struct parse *p, const char *sep, const char *arg,
                       const char *end)
{
    struct tour_step *s = cur_step(p);
    size_t have = strlen(s->text);
    size_t need = have + strlen(sep) + strlen(arg) + strlen(end);
    if (need >= TOUR_TEXT_MAX)
        return fail(p, "the step's text is longer than %d bytes",
                    TOUR_TEXT_MAX - 1);
    char *n = realloc(s->text, need + 1);
    if (!n)
        return fail(p, "out of memory");
    strcat(strcat(strcat(n + have, sep), arg), end);
    s->text = n;
    return 0;
}

static int do_text(struct parse *p, const char *arg, int own_line)
{
    const char *t = cur_step(p)->text;
    size_t have = strlen(t);
    int at_break = have == 0 || t[have - 1] == '\n', l;
    if (!*arg && !own_line) {               /* a paragraph break */
        if (have == 0 || (have >= 2 && t[have - 2] == '\n' && at_break))
            return 0;
        return caption_add(p, at_break ? "\n" : "\n\n", "", "");
    }
    if (own_line)
        return caption_add(p, at_break ? "" : "\n", arg, "\n");
    const char *sep = at_break || !text_join_blank(utf8_last(t), utf8_at(arg, &l))
                      ? "" : " ";
    return caption_add(p, sep, arg, "");
}

/* A quantity's name: letters, digits, '.' and '_', not a number. */
static int qty_name(const char *w)
{
    size_t n = strlen(w);
    if (n == 0 || n >= TOUR_QTY_NAME || (w[0] >= '0' && w[0] <= '9'))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                    "0123456789._", w[i]))
            return 0;
    return 1;
}

static int number_word(const char *w, double *v)
{
    char *end;
    *v = strtod(w, &end);
    return *w && !*end && *v == *v;
}

/* "A OP B", "A OP F * B" or "A OP F" into c; -1 if it is none of them. */
static int relation_parse(char *arg, struct tour_check *c)
{
    static const char *const OPS[TOUR_OP_COUNT] = {
        [TOUR_LT] = "<", [TOUR_LE] = "<=", [TOUR_GT] = ">", [TOUR_GE] = ">=",
        [TOUR_EQ] = "=" };
    char *w[6];
    int n = 0;
    for (char *t = strtok(arg, " "); t; t = strtok(NULL, " "))
        if (n < 6)
            w[n++] = t;
        else
            return -1;
    if (n < 3 || !qty_name(w[0]))
        return -1;
    int op = -1;
    for (int i = 0; i < TOUR_OP_COUNT; i++)
        if (strcmp(w[1], OPS[i]) == 0)
            op = i;
    if (op < 0)
        return -1;
    c->op = (enum tour_check_op)op;
    snprintf(c->lhs, sizeof c->lhs, "%s", w[0]);
    c->factor = 1;
    if (n == 3 && qty_name(w[2])) {
        snprintf(c->rhs, sizeof c->rhs, "%s", w[2]);
        return 0;
    }
    if (n == 3)
        return number_word(w[2], &c->factor) ? 0 : -1;
    if (n == 5 && !strcmp(w[3], "*") && qty_name(w[4]) &&
        number_word(w[2], &c->factor)) {
        snprintf(c->rhs, sizeof c->rhs, "%s", w[4]);
        return 0;
    }
    return -1;
}

/* check key K, check set COMMAND, or check A OP [F *] B. */
static int do_check(struct parse *p, const char *arg)
{
    struct tour_step *s = cur_step(p);
    char shown[TOUR_NAME_SHOWN], buf[TOUR_LINE_MAX + 1];
    if (s->nchecks >= TOUR_MAX_CHECKS)
        return fail(p, "more than %d check lines in one step",
                    TOUR_MAX_CHECKS);
    if (!s->checks && !(s->checks = calloc(TOUR_MAX_CHECKS,
                                           sizeof *s->checks)))
        return fail(p, "out of memory");
    struct tour_check c = { .line = p->line };
    snprintf(buf, sizeof buf, "%s", arg);
    if (!strncmp(arg, "key ", 4)) {
        c.kind = TOUR_CHECK_KEY;
        c.key = key_parse(arg + 4);
        shown_word(arg + 4, shown, sizeof shown);
        if (c.key < 0 || key_forbidden(c.key))
            return fail(p, "check key: '%s' is not a key a tour can press "
                        "(one character, or Space, Tab, S-Tab, Up, Down, "
                        "Left, Right, PgUp, PgDn, Home, End)", shown);
    } else if (!strncmp(arg, "set ", 4) && arg[4]) {
        c.kind = TOUR_CHECK_SET;
    } else if (relation_parse(buf, &c)) {
        shown_word(arg, shown, sizeof shown);
        return fail(p, "check '%s': want 'check key K', 'check set "
                    "COMMAND' or 'check A < F * B' (A, B the view's "
                    "quantities; <, <=, >, >= or =; F * optional)", shown);
    } else {
        c.kind = TOUR_CHECK_REL;
    }
    if (!(c.arg = dup_str(arg)))
        return fail(p, "out of memory");
    s->checks[s->nchecks++] = c;
    return 0;
}

static int do_hint(struct parse *p, const char *arg)
{
    if (p->t->nsteps > 0 || p->t->hint)
        return fail(p, "hint goes once, before the first title");
    if (!*arg)
        return fail(p, "hint needs the text of the key hint line");
    p->t->hint = dup_str(arg);
    return p->t->hint ? 0 : fail(p, "out of memory");
}

/* One sanitised line: "directive argument". */
static int parse_line(struct parse *p, char *s)
{
    char shown[TOUR_NAME_SHOWN];
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == ' ')
        s[--n] = 0;
    while (*s == ' ')
        s++;
    if (!*s || *s == '#')
        return 0;
    char *arg = s;
    while (*arg && *arg != ' ')
        arg++;
    if (*arg)
        *arg++ = 0;
    while (*arg == ' ')
        arg++;
    if (strcmp(s, "title") == 0)
        return add_step(p, arg);
    if (strcmp(s, "hint") == 0)
        return do_hint(p, arg);
    int known = !strcmp(s, "set") || !strcmp(s, "key") ||
                !strcmp(s, "text") || !strcmp(s, "line") ||
                !strcmp(s, "check");
    shown_word(s, shown, sizeof shown);
    if (!known)
        return fail(p, "unknown directive '%s' (want title, set, key, text, "
                    "line, check or hint)", shown);
    if (!cur_step(p))
        return fail(p, "%s before the first title (a step starts with "
                    "'title')", shown);
    if (*s == 'c')
        return do_check(p, arg);
    if (*s == 's')
        return do_set(p, arg);
    if (*s == 'k')
        return do_key(p, arg);
    return do_text(p, arg, *s == 'l');
}

/* Split the file into lines (LF or CRLF) and parse each. */
static int parse_buffer(struct parse *p, const char *buf, size_t n)
{
    static char clean[3 * TOUR_LINE_MAX + 1];
    size_t i = 0;
    if (n >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
        i = 3;                          /* a byte-order mark: skip it */
    for (p->line = 1; i < n; p->line++) {
        const char *nl = memchr(buf + i, '\n', n - i);
        size_t len = (nl ? (size_t)(nl - buf) : n) - i;
        size_t next = i + len + 1;
        if (len > 0 && buf[i + len - 1] == '\r')
            len--;
        if (len > TOUR_LINE_MAX)
            return fail(p, "line longer than %d bytes", TOUR_LINE_MAX);
        if (sanitize_line(buf + i, len, clean))
            return fail(p, "not valid UTF-8 (save the file as UTF-8)");
        if (parse_line(p, clean))
            return -1;
        i = next;
    }
    for (int k = 0; k < p->t->nsteps; k++) {     /* no trailing breaks */
        char *t = p->t->steps[k].text;
        size_t len = strlen(t);
        while (len > 0 && t[len - 1] == '\n')
            t[--len] = 0;
    }
    if (p->t->nsteps == 0) {
        p->line = 0;
        return fail(p, "no steps (a step starts with a 'title' line)");
    }
    return 0;
}

static int read_file(struct parse *p, char **buf, size_t *n)
{
    char why[160];
    /* FIFOs refused */
    int fd = tables_open_regular(p->path, why, sizeof why);
    FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (fd < 0)
        return fail(p, "%s", why);
    if (!f) {
        close(fd);
        return fail(p, "cannot open the tour: %s", strerror(errno));
    }
    *buf = malloc(TOUR_FILE_MAX + 1);
    if (!*buf) {
        fclose(f);
        return fail(p, "out of memory");
    }
    *n = fread(*buf, 1, TOUR_FILE_MAX + 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return fail(p, "cannot read the tour: %s", strerror(errno));
    if (*n > TOUR_FILE_MAX)
        return fail(p, "larger than %d bytes: not a tour", TOUR_FILE_MAX);
    return 0;
}

/* ---- applying steps -------------------------------------------------- */

/* Run one command; -1 if the program refused it (a->msg says why). */
static int run_cmd(struct app *a, const struct tour_cmd *c)
{
    if (c->kind == TOUR_SET)
        return tour_command(a, c->arg);
    if (app_key(a, c->key) != ACT_NONE)
        return 0;
    char b[16];
    app_msg(a, 1, "key %s does nothing in the %s view",
            keys_name(c->key, b, sizeof b), VIEWS[a->view]->name);
    return -1;
}

/* Apply a step; on a refusal *bad is the command (else NULL). */
static int apply_step(struct app *a, const struct tour_step *s,
                      const struct tour_cmd **bad)
{
    *bad = NULL;
    app_reset_defaults(a);
    for (int i = 0; i < s->ncmd; i++)
        if (run_cmd(a, &s->cmds[i])) {
            *bad = &s->cmds[i];
            return -1;
        }
    a->msg[0] = 0;              /* "set: d_model=..." is noise here */
    a->msg_error = 0;
    return 0;
}

int tour_apply(struct app *a, const struct tour *t, int step)
{
    const struct tour_cmd *bad;
    if (!t || step < 0 || step >= t->nsteps)
        return -1;
    return apply_step(a, &t->steps[step], &bad);
}

/* Every step on a scratch copy, so a bad command is found now. */
static int check_steps(struct parse *p, const struct app *a)
{
    struct app tmp = *a;
    tmp.tour = NULL;
    tmp.tour_active = 0;
    app_tables_keep(APP_KEEP_CHECK, a->pe_table);   /* a's table stays */
    int r = 0;
    for (int i = 0; i < p->t->nsteps && r == 0; i++) {
        const struct tour_cmd *bad;
        if (apply_step(&tmp, &p->t->steps[i], &bad) == 0)
            continue;
        p->line = bad->line;
        r = fail(p, "%s %s: %s", bad->kind == TOUR_SET ? "set" : "key",
                 bad->arg, tmp.msg[0] ? tmp.msg : "refused");
    }
    app_tables_keep(APP_KEEP_CHECK, NULL);
    return r;
}

static int tour_load_with(struct tour *t, const char *path,
                          const struct tour_files *fs, const struct app *a,
                          char *err, size_t errlen)
{
    struct parse p = { t, path, 0, err, errlen, fs };
    char *buf = NULL;
    size_t n = 0;
    memset(t, 0, sizeof *t);
    int r = read_file(&p, &buf, &n);
    if (r == 0) {
        struct sha256 h;
        sha256_init(&h);
        sha256_add(&h, buf, n);
        sha256_hex(&h, t->sha256);
        r = parse_buffer(&p, buf, n);
    }
    free(buf);
    if (r == 0)
        r = check_steps(&p, a);
    if (r == 0 && !(t->path = dup_str(path)))
        r = fail(&p, "out of memory");
    if (r == 0)
        t->abs = realpath(path, NULL);      /* followers load it by this */
    if (r)
        tour_free(t);
    return r;
}

int tour_load(struct tour *t, const char *path, const struct app *a,
              char *err, size_t errlen)
{
    return tour_load_with(t, path, NULL, a, err, errlen);
}

void tour_free(struct tour *t)
{
    for (int i = 0; t->steps && i < t->nsteps; i++) {
        struct tour_step *s = &t->steps[i];
        for (int j = 0; j < s->ncmd; j++)
            free(s->cmds[j].arg);
        free(s->cmds);
        for (int j = 0; j < s->nchecks; j++)
            free(s->checks[j].arg);
        free(s->checks);
        free(s->title);
        free(s->text);
    }
    free(t->steps);
    free(t->hint);
    free(t->path);
    free(t->abs);
    memset(t, 0, sizeof *t);
}

/* ---- running the tour ------------------------------------------------ */

/* app_msg in the tour's language: fmt is the English, and its Chinese
 * (text_zh) takes the same arguments in the same order. */
static void say(struct app *a, int error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(struct app *a, int error, const char *fmt, ...)
{
    char buf[APP_MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, caption_say(a, fmt), ap);
    va_end(ap);
    app_msg(a, error, "%s", buf);
}

static void tour_goto(struct app *a, int step)
{
    a->tour_step = step;
    a->tour_active = 1;
    tour_apply(a, a->tour, step);
}

/* Keep the state the tour starts from, for Esc. */
static void save_before(struct app *a)
{
    struct tour *t = a->tour;
    if (!t || (a->tour_active && t->nsteps > 0))
        return;                 /* running: the first state is kept */
    if (!t->before && !(t->before = malloc(sizeof *t->before)))
        return;
    *t->before = *a;
    t->before->tour_active = 0;
    app_tables_keep(APP_KEEP_BEFORE, a->pe_table);  /* for Esc */
}

/*
 * Put back the state from before the tour, keeping what the user chose
 * for output meanwhile (as app_reset does) and the tour itself, which
 * stays loaded at the step it was left at.
 */
static void restore_before(struct app *a)
{
    struct tour *t = a->tour;
    struct app now = *a;
    if (t->before) {
        *a = *t->before;
        a->ascii = now.ascii;
        a->color = now.color;
        a->palette = now.palette;
        a->mouse = now.mouse;
        a->low_bandwidth = now.low_bandwidth;
        a->fps = now.fps;
        a->screen_w = now.screen_w;
        a->screen_h = now.screen_h;
        a->tour = now.tour;
        a->tour_step = now.tour_step;
        a->tour_lang = now.tour_lang;
        a->rt = now.rt;         /* made after a --tour started */
    }
    a->tour_active = 0;
    a->help = 0;
    a->prompt_open = 0;
}

/* Load the shipped tour (or path) as a->tour; the step is not shown. */
static int tour_load_into(struct app *a, const char *path_or_null,
                          const struct tour_files *fs, char *err,
                          size_t errlen)
{
    char buf[1024];
    const char *path = path_or_null;
    const char *lang = a->tour_lang ? a->tour_lang : tour_lang_from_env();
    int fell_back = 0;
    if (!path || !*path) {
        if (strcmp(lang, "zh") == 0 && a->ascii) {
            lang = "en";        /* the terminal cannot show Chinese */
            fell_back = 1;
        }
        path = tour_default_path(lang, buf, sizeof buf);
        if (!path) {
            snprintf(err, errlen, "%s: no %s.tour installed (looked next to "
                     "the program, in " PEVIZ_DATADIR "/tours and in "
                     "./assets/tours)", buf, lang);
            return -1;
        }
    }
    struct tour *t = malloc(sizeof *t);
    if (!t) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    if (tour_load_with(t, path, fs, a, err, errlen)) {
        free(t);
        return -1;
    }
    t->zh = strcmp(lang, "zh") == 0;
    t->shipped = path != path_or_null;
    t->fell_back = fell_back;
    tour_release(a);
    a->tour = t;
    return 0;
}

int tour_load_as(struct app *a, const char *path_or_null, char *err,
                 size_t errlen)
{
    return tour_load_into(a, path_or_null, NULL, err, errlen);
}

int tour_load_files(struct app *a, const char *path,
                    const struct tour_files *fs, char *err, size_t errlen)
{
    return tour_load_into(a, path, fs, err, errlen);
}

/* Say once why the English tour runs where Chinese was asked for. */
static void say_fell_back(struct app *a)
{
    char why[96];
    if (!a->tour || !a->tour->fell_back)
        return;
    a->tour->fell_back = 0;
    if (strcmp(nl_langinfo(CODESET), "UTF-8") == 0)
        snprintf(why, sizeof why, "--ascii draws ASCII only");
    else
        charset_why_not_utf8(why, sizeof why);
    app_msg(a, 0, "the Chinese tour needs a UTF-8 terminal; %s", why);
}

int tour_start(struct app *a, const char *path_or_null, char *err,
               size_t errlen)
{
    if (tour_load_into(a, path_or_null, NULL, err, errlen))
        return -1;
    save_before(a);
    tour_goto(a, 0);
    say_fell_back(a);
    return 0;
}

void tour_fit_terminal(struct app *a)
{
    char err[APP_MSG_LEN];
    struct tour *t = a->tour;
    if (!t || !t->zh || !t->shipped || !a->ascii)
        return;
    struct app *before = t->before;
    int step = a->tour_step, active = a->tour_active;
    t->before = NULL;           /* kept across the reload, for Esc */
    if (tour_load_into(a, NULL, NULL, err, sizeof err)) {
        t->before = before;     /* no English tour: keep what there is */
        return;
    }
    a->tour->before = before;
    a->tour_step = step < a->tour->nsteps ? step : 0;
    if (active)
        tour_goto(a, a->tour_step);
    say_fell_back(a);
}

void tour_release(struct app *a)
{
    if (a->tour) {
        free(a->tour->before);
        tour_free(a->tour);
        free(a->tour);
    }
    a->tour = NULL;
    a->tour_active = 0;
    a->tour_step = 0;
}

void tour_begin(struct app *a)
{
    char err[APP_MSG_LEN];
    if (!a->tour) {
        if (tour_start(a, NULL, err, sizeof err))
            app_msg(a, 1, "tour: %s", err);
        return;
    }
    save_before(a);
    tour_goto(a, a->tour_step >= 0 && a->tour_step < a->tour->nsteps
                 ? a->tour_step : 0);
}

int tour_goto_step(struct app *a, const char *arg)
{
    char err[APP_MSG_LEN], *end;
    if (!a->tour && tour_load_into(a, NULL, NULL, err, sizeof err)) {
        app_msg(a, 1, "tour: %s", err);
        return -1;
    }
    long n = strtol(arg, &end, 10);
    while (*end == ' ')
        end++;
    if (end == arg || *end || n < 1 || n > a->tour->nsteps) {
        char shown[24];
        snprintf(shown, sizeof shown, "%.20s", *arg ? arg : "(none)");
        for (char *c = shown; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
        say(a, 1, "tour: step %s is not in 1..%d", shown, a->tour->nsteps);
        return -1;
    }
    save_before(a);
    tour_goto(a, (int)n - 1);
    return 0;
}

int tour_key(struct app *a, int key)
{
    if (!areas_tour_running(a))
        return 0;
    struct tour *t = a->tour;
    int last = t->nsteps - 1, asked = t->quit_asked;
    t->quit_asked = 0;
    switch (key) {
    case PK_ENTER:
        if (a->tour_step < last)
            tour_goto(a, a->tour_step + 1);
        else
            say(a, 0, "last step: Backspace goes back, Esc leaves the tour");
        return 1;
    case PK_BACKSPACE:
        if (a->tour_step > 0)
            tour_goto(a, a->tour_step - 1);
        else
            say(a, 0, "first step: Enter goes on, Esc leaves the tour");
        return 1;
    case PK_ESC:
        restore_before(a);
        say(a, 0, "left the tour, back to where you were; T resumes at "
            "step %d", a->tour_step + 1);
        return 1;
    case 'q':
        if (asked)
            return 0;           /* the second q quits */
        t->quit_asked = 1;
        say(a, 0, "q again quits peviz; Esc leaves the tour");
        return 1;
    default:
        return 0;
    }
}

/* ---- finding the shipped tours --------------------------------------- */

static int readable(const char *dir, const char *lang, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s/%s.tour", dir, lang);
    return n > 0 && (size_t)n < len && access(buf, R_OK) == 0;
}

int tour_command(struct app *a, const char *line)
{
    char buf[APP_PROMPT_LEN], *arg;
    snprintf(buf, sizeof buf, "%s", line);
    if (strcmp(app_command_split(buf, &arg), "tour") != 0)
        return app_command(a, line);
    a->msg[0] = 0;
    a->msg_error = 0;
    return tour_goto_step(a, arg);
}

enum action tour_offer_key(struct app *a, int key)
{
    enum action act;
    if (a->prompt_open && !a->pasting && key == PK_ENTER) {
        a->prompt_open = 0;     /* the prompt's line, :tour N included */
        tour_command(a, a->prompt);
        return ACT_PROMPT;
    }
    if (app_key_take(a, key, &act))
        return act;
    if (tour_key(a, key))
        return ACT_TOUR;
    act = app_key_act(a, key);
    if (act == ACT_TOUR)
        tour_begin(a);          /* T: (re)start the tour */
    return act;
}

const char *tour_default_path(const char *lang, char *buf, size_t len)
{
    char exe[1024], dir[1100];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = 0;
        snprintf(dir, sizeof dir, "%s/../share/peviz/tours", exe);
        if (readable(dir, lang, buf, len))
            return buf;
        snprintf(dir, sizeof dir, "%s/assets/tours", exe);
        if (readable(dir, lang, buf, len))
            return buf;
    }
    if (readable(PEVIZ_DATADIR "/tours", lang, buf, len))
        return buf;
    if (readable("assets/tours", lang, buf, len))
        return buf;
    return NULL;
}

const char *tour_lang_from_env(void)
{
    static const char *const VARS[] = { "LC_ALL", "LC_MESSAGES", "LANG" };
    for (size_t i = 0; i < sizeof VARS / sizeof VARS[0]; i++) {
        const char *v = getenv(VARS[i]);
        if (v && *v)
            return strncmp(v, "zh", 2) == 0 ? "zh" : "en";
    }
    return "en";
}
