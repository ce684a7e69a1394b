/* SPDX-License-Identifier: ISC */
/*
 * settings.h - one row per setting: the master copy of its name, where
 * its value lives in struct app, its type, range and default, the
 * argument and help --help shows, and where it is offered.  The command
 * line's long option and its parse, the ':' prompt command (which a
 * tour's set lines run), the follow-mode row, the user settings file's
 * name, reset, the --help line, the man page's and README's settings
 * tables and the shell completions are all read from the row.
 *
 * The tables: the global rows (APP_SETTINGS, app_settings.c) and each
 * view's rows (struct view's settings, view.h: ATTENTION_SETTINGS in
 * views/attention_settings.c, COMPARE_SETTINGS in
 * views/compare_fields.c), each ended by a row whose name is NULL.
 * Options that are not settings (the jobs of one run: --export,
 * --snapshot, --serve, ...; the starting points --model and --config;
 * --sequence, whose parser and messages are the library's) are cli.c's
 * own table.
 *
 * Adding a setting (tests/recipes.sh tries it):
 *   1. A member of plain data in struct app or the view's state
 *      (src/views/NAME_state.h) for the value.
 *   2. One row in the table of the view it belongs to (or
 *      APP_SETTINGS), with designated initialisers:
 *          { .name = "heads", .type = SET_INT,
 *            .off = SET_OFF(att.o.heads), .lo = 1, .hi = 64, .def = "8",
 *            .arg = "N", .help = "ALiBi: number of heads",
 *            .where = SET_EVERYWHERE, .wire = "att.heads" },
 *      The order of a table is the order the command line applies them:
 *      a row whose range names another row (SETB_BELOW) comes after it.
 *      A value of a form of its own (a list, WxH) is a SET_HOOK row:
 *      .set, .text and .values (its values in words).  A relation to
 *      other settings is a .check hook (its message says what it
 *      wants); what a change brings with it, .follows (wherever it is
 *      set), .given (command line, file) and .changed (prompt, with the
 *      answer).  A follow row in the view's fields of the .wire name
 *      places it on the wire, else it goes after the view's rows (a
 *      global row: follow_proto.c's head, else after it).  A global row
 *      at the prompt works in every view.
 *   3. make docs, and commit what it wrote.  tests/unit/test_settings.c
 *      then checks the range and default --help prints against the
 *      parser for the new row too.
 * The code that uses the value reads it at its place; nothing else
 * spells its name, range or default.
 */
#ifndef PEVIZ_SETTINGS_H
#define PEVIZ_SETTINGS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct app;

enum set_type {
    SET_INT,        /* int at off: lo .. hi (or the bound) */
    SET_U32,        /* uint32_t at off: lo .. hi */
    SET_I64,        /* int64_t at off: lo .. hi (or the bound) */
    SET_NUM,        /* double at off: finite, > min (>= min when !open),
                       <= max when max > min */
    SET_WORD,       /* int-sized enum at off: word(k) for k = 0, 1, ...
                       until NULL */
    SET_FLAG,       /* int at off, 0 or 1: a bare option on the command
                       line, on|off at the prompt */
    SET_HOOK        /* the row's set and text hooks: a value of its own
                       form (a list, WxH); off unused, so not at the
                       prompt */
};

/* Where a row is offered (bits of .where). */
enum set_where {
    SET_CLI = 1,        /* --NAME on the command line */
    SET_PROMPT = 2,     /* :NAME at the prompt */
    SET_TOUR = 4,       /* set NAME in a tour step (it runs the prompt
                           command) */
    SET_FOLLOW = 8,     /* a follow-mode row named .wire */
    SET_FILE = 16,      /* NAME = VALUE in the user settings file */
    SET_EVERYWHERE = 31
};

/* Upper bounds that depend on other values. */
enum set_bound {
    SETB_FIXED,     /* lo .. hi */
    SETB_LEN,       /* lo .. n, the sequence length */
    SETB_LAST,      /* lo .. n - 1, the last position */
    SETB_DIM,       /* lo .. the int at aux - 1, d - 1 the last dimension */
    SETB_BAND,      /* lo .. the int at aux / 2 - 1, d/2 - 1 the last
                       band */
    SETB_BELOW      /* lo .. the int at aux (shown as bound_name) */
};

struct setting {
    const char *name;           /* "heads"; NULL ends a table */
    const char *prompt;         /* the ':' command's name when it is not
                                   .name ("mode" for pane-mode), or NULL */
    const char *alias;          /* a second ':' name ("i" for band), or
                                   NULL */
    int short_name;             /* the command line's one-letter option
                                   ('d' for -d), or 0 */
    enum set_type type;
    size_t off;                 /* SET_OFF(att.o.heads) */
    long long lo, hi;           /* whole numbers: the range as shown */
    double min, max;            /* SET_NUM */
    int open;                   /* SET_NUM: > min rather than >= min */
    int shortest;               /* SET_NUM: settings_text writes the fewest
                                   digits that read back exactly (as
                                   settings_show), not 17 */
    enum set_bound bound;
    size_t aux;                 /* SETB_BELOW, SETB_DIM, SETB_BAND: SET_OFF
                                   of the bound (SET_OFF(p.d): d_model) */
    const char *bound_name;     /* the bound as --help shows it: "heads",
                                   "n", "n-1", "d-1", "d/2-1" */
    int shift;                  /* shown = stored + shift (1: 1-based) */
    int even;                   /* whole numbers: even only */
    int invert;                 /* SET_FLAG: on stores 0 (no-truncate) */
    const char *zero_word;      /* a word that means 0 ("all"), or NULL;
                                   SET_NUM: -inf ("none") */
    const char *(*word)(int);   /* SET_WORD: value -> name, NULL past the
                                   end; SET_HOOK: the words of its value
                                   (completions), or NULL */
    int (*parse)(const char *); /* SET_WORD: name -> value, -1 (NULL:
                                   a search of word) */
    const char *values;         /* the values as --help says them when
                                   the type's words would not do ("a
                                   model of --model list"), or NULL */
    int (*set)(struct app *a, const char *text, char *err, size_t errlen);
                                /* SET_HOOK: the value from text: 0, or -1
                                   with "wants ..." in err, a unchanged */
    void (*text)(const struct app *a, char *buf, size_t len);
                                /* SET_HOOK: the value as set takes it */
    const char *def;            /* the default as text; reset sets it
                                   (NULL: reset leaves the view's own) */
    const char *def_note;       /* the default as --help says it when
                                   .def is NULL ("n/2", "unset"), and the
                                   value's text while it is below the
                                   range (not given) */
    const char *arg;            /* "N" as --help shows it */
    const char *help;           /* one line, before the range */
    unsigned where;             /* enum set_where bits */
    const char *wire;           /* SET_FOLLOW: the follow-mode row's name */
    /* A relation to other settings, checked after each change: 0, or -1
     * with "wants ..." in err (the value is then put back). */
    int (*check)(const struct app *a, char *err, size_t errlen);
    /* What a new value brings with it wherever it is set (settings_set
     * runs it): n keeps pos below it; NULL: nothing. */
    void (*follows)(struct app *a);
    /* After it is set from the command line or the settings file: what
     * follows from it (a pane it names is shown); NULL: nothing. */
    void (*given)(struct app *a);
    /* After a change at the prompt: what follows from it (a clamp) and
     * the answer (app_msg); NULL: "NAME VALUE". */
    void (*changed)(struct app *a);
};

#define SET_OFF(m) offsetof(struct app, m)

/*
 * Set row s of a from text, for sequence length n, and run its follows
 * hook: 0, or -1 with "wants ..." (the values it takes) in err and a
 * unchanged.  The check hook is not run (settings_check).
 */
int settings_set(const struct setting *s, struct app *a, int64_t n,
                 const char *text, char *err, size_t errlen);

/* The bytes of the value at the row's place (to keep and put back). */
size_t settings_size(const struct setting *s);

/* The ':' command's name of the row. */
const char *settings_prompt(const struct setting *s);

/* The row's check hook (0 when it has none). */
int settings_check(const struct setting *s, const struct app *a, char *err,
                   size_t errlen);

/* The value as settings_set takes it back exactly ("8", "half", "on",
 * a double to 17 digits, or in the fewest digits for a shortest row). */
void settings_text(const struct setting *s, const struct app *a, char *buf,
                   size_t len);

/* The value as a person reads it: settings_text, but a number in the
 * fewest digits that read back as it ("0.1"). */
void settings_show(const struct setting *s, const struct app *a, char *buf,
                   size_t len);

/* The values it takes and its default, as --help shows them:
 * "1..64 (default 8)", "> 0 (default 512)", "ones or random (default
 * ones)", "" for a flag. */
void settings_range(const struct setting *s, char *buf, size_t len);

/* Whether the row's default is on (flags), for --help's wording. */
int settings_takes_arg(const struct setting *s);

/* The row named name offered at where (any bit), or NULL; at the
 * prompt (SET_PROMPT, SET_TOUR) its prompt name or its alias. */
const struct setting *settings_find(const struct setting *rows,
                                    const char *name, unsigned where);

/* Each row with a default set to it. */
void settings_reset(const struct setting *rows, struct app *a);

/* The rows in a table. */
size_t settings_count(const struct setting *rows);

/* Where row s is offered, in words: "--heads, :heads, follow att.heads,
 * peviz.conf". */
void settings_where(const struct setting *s, char *buf, size_t len);

/* The words of a SET_WORD row (and a zero_word) in w, NULL-ended (at
 * most max - 1): their number. */
int settings_words(const struct setting *s, const char **w, int max);

#endif
