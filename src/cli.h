/* SPDX-License-Identifier: ISC */
/*
 * cli.h - the command line: one table of options drives getopt_long,
 * --help and the checks in tests/cli.sh.
 */
#ifndef PEVIZ_CLI_H
#define PEVIZ_CLI_H

#include <stdio.h>

#include "app.h"
#include "errline.h"
#include "gfx.h"
#include "snapshot.h"

enum cli_mode { MODE_INTERACTIVE = 0, MODE_EXPORT, MODE_SNAPSHOT,
                MODE_HELP, MODE_VERSION, MODE_MODELS, MODE_CHECK,
                MODE_SLIDES, MODE_CHECK_FREQS, MODE_CHECK_CACHE };
enum export_what { EXPORT_PE = 0, EXPORT_SCORES, EXPORT_SOFTMAX, EXPORT_PCA,
                   EXPORT_PCA_VARIANCE, EXPORT_FREQS, EXPORT_BANDS,
                   EXPORT_POSITION_IDS, EXPORT_BOUND };
enum export_format { EXPORT_CSV = 0, EXPORT_F32, EXPORT_F64 };

/* At most this many settings' rows on the command line. */
#define CLI_SETTINGS_MAX 192

struct cli {
    enum cli_mode mode;
    struct app app;
    int color_flag;            /* -1: auto */
    enum export_what what;
    const char *format;        /* as given, checked per mode */
    int width, height;         /* --size */
    int scale;                 /* --scale K (PNG snapshot), 0: not given */
    int graphics;              /* --graphics: enum gfx_mode */
    const char *pe_file;
    const char *tensor;        /* --tensor NAME, or NULL: pick by name */
    const char *check_freqs;   /* --check-freqs FILE */
    const char *check_cache;   /* --check-cache FILE */
    int cfg_head_dim;          /* --config's head dim (0: none) */
    int64_t cfg_max_pos;       /* its max_position_embeddings (0: none) */
    int64_t mask_window, mask_chunk;    /* the mask --config or --model
                                           gives (0: none) */
    char mask_note[112];       /* where it came from, or "" */
    int cfg_layer_a;           /* --layer-a picked --config's layer type */
    const char *config;        /* --config FILE, or NULL */
    long row_offset;           /* --row-offset K, or -1: the known one */
    long rows_first, rows_last; /* --rows A..B, or -1: every row */
    int components;            /* --components K (PCA exports), default 3 */
    int components_set;
    int n_set;                 /* -n given: it overrides a table's rows */
    int base_set;              /* -b, --model or --config chose the base */
    unsigned mpos_given;       /* bit k: mpos option k given (mpos_cli.h) */
    const char *tour;          /* --tour FILE, "" for the shipped tour */
    const char *lang;
    const char *slides;        /* --slides DIR */
    const char *record;        /* --record FILE.cast */
    double autoplay;           /* --autoplay SECONDS per step, 0: off */
    const char *serve;         /* --serve PATH (follow.h) */
    const char *follow;        /* --follow PATH */
    const char *files;         /* --files DIR: the teacher's files */
    unsigned serve_mode;       /* --serve-mode, default 0600 */
    int serve_mode_set;
    int help, version;         /* --help, --version given */
    const char *qk_file;        /* --qk: the query and key table */
    int print_settings;         /* --print-settings */
    int start_at;               /* the same after --model or --config */
    /* The settings' rows given (cli_setting(k)): the text, and the
     * argv index after it (the user settings file's words come first:
     * userconf.h), set once every option is read. */
    const char *set_text[CLI_SETTINGS_MAX];
    int set_at[CLI_SETTINGS_MAX];
};

/* Whether the row named name was given (on the command line or in the
 * user settings file). */
int cli_given(const struct cli *c, const char *name);

/* The settings' rows offered on the command line (settings.h), global
 * ones first, then each view's: k = 0, 1, ... until NULL. */
const struct setting *cli_setting(size_t k);

/*
 * Parse argv into c.  Returns 0, or 2 after printing one line
 * "peviz: OPTION: VALUE: why; want RANGE" on stderr.
 */
int cli_parse(struct cli *c, int argc, char **argv);

/* Whether long option name takes a value: 0 no, 1 yes, 2 optional; -1
 * when there is no such option. */
int cli_option_arg(const char *name);

/* Whether long option name may stand in the user settings file as far
 * as a setting's row says (SET_FILE); 1 for the other options. */
int cli_option_in_file(const char *name);

/* Apply --pos and --train against the final n (after a --pe-file table
 * set it), and the other attention options: 0, or 2 after the same
 * one-line message. */
int cli_set_late(struct cli *c);

/* errline: the one-line refusal (errline.h). */

/*
 * --check-freqs: compare the file's inv_freq with the settings, one line
 * per differing band on stdout, then the verdict.  Returns 0 (match),
 * 1 (differs) or 2 (a file that cannot be read: one line on stderr).
 */
int cli_check_freqs(const struct cli *c, FILE *out);

/* --check-cache: the same for a dumped cos/sin cache
 * (peviz/cachecheck.h). */
int cli_check_cache(const struct cli *c, FILE *out);

/*
 * --print-settings: each setting's row offered on the command line, its
 * value and where it came from, "NAME VALUE default|file|command line"
 * one a line; the first nfile words after argv[0] came from the user
 * settings file (userconf.h).
 */
void cli_print_settings(const struct cli *c, FILE *f, int nfile);

/* Print the --model table (--model list). */
void cli_models(FILE *f);

/* Print --help (options from the table, keys from KEYS_GLOBAL). */
void cli_usage(FILE *f);

/*
 * The option table row by row, for the generated docs and the shell
 * completions (src/docgen.c).
 */
struct cli_option {
    const char *name;       /* "d-model" */
    int short_name;         /* 'd', or 0 */
    int has_arg;            /* 0 none, 1 required, 2 optional (--tour[=FILE]) */
    const char *arg;        /* "N" as --help shows it, or NULL */
    const char *help;       /* --help's text before the names of a table */
    int path;               /* 0; CLI_PATH_FILE or CLI_PATH_DIR */
};
enum { CLI_PATH_FILE = 1, CLI_PATH_DIR };
size_t cli_option_count(void);
/* Row i (< cli_option_count()); names gets the names --help appends from
 * a table ("a, b or c"), or "". */
struct cli_option cli_option_at(size_t i, char *names, size_t len);
/* The words option i takes, from the tables (views, schemes, palettes,
 * ...), in w, ended by NULL (at most max - 1 words): their number, 0 when
 * it takes no words. */
int cli_option_words(size_t i, const char **w, int max);

#endif
