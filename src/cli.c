/* SPDX-License-Identifier: ISC */
/*
 * cli.c - parse the command line.  Numbers are parsed strictly through
 * params.c, the same code the ':' prompt uses; every bad value exits 2
 * with one line on stderr and nothing on stdout.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "follow.h"
#include "config.h"
#include "config_mask.h"
#include "mpos_cli.h"
#include "mpos_config.h"
#include "plans.h"
#include "peviz/cachecheck.h"
#include "peviz/freqcheck.h"
#include "views/compare.h"

/* The options that are not settings' rows (settings.h); a row offered
 * on the command line is O_SET + its index in cli_setting. */
enum {
    O_TOUR = 256, O_EXPORT,
    O_FORMAT, O_SNAPSHOT, O_SIZE,
    O_PE_FILE, O_TENSOR, O_ROW_OFFSET, O_COMPONENTS, O_ROWS,
    O_SERVE, O_FOLLOW, O_SERVE_MODE, O_FILES, O_QK,
    O_MODEL, O_CONFIG, O_LAYER_TYPE,
    O_CHECK, O_SLIDES, O_RECORD, O_AUTOPLAY,
    O_CHECK_FREQS, O_CHECK_CACHE,
    O_SCALE, O_PLAIN, O_NO_USER_SETTINGS, O_PRINT_SETTINGS,
    O_SET                       /* O_SET + k: cli_setting(k) */
};

struct opt {
    const char *name;
    int has_arg;
    int val;
    const char *arg;     /* argument as shown in --help */
    const char *help;    /* for NAME choices, followed by opt_names */
};

static const struct opt OPTS[] = {
    { "plain", 0, O_PLAIN, NULL, "lines of words and numbers for screen readers: no drawing glyphs, no images" },
    { "tour", 2, O_TOUR, "FILE", "start the guided tour (the shipped one, or FILE)" },
    { "check", 0, O_CHECK, NULL, "--tour: check the tour file and its check lines at 80x24, 120x40, 160x48, and exit" },
    { "slides", 1, O_SLIDES, "DIR", "--tour: write every step as SVG and text, and DIR/index.html" },
    { "record", 1, O_RECORD, "FILE", "record the session as an asciicast v3 file (.cast)" },
    { "autoplay", 1, O_AUTOPLAY, "SECONDS", "--tour: go on to the next step every SECONDS, quit after the last" },
    { "export", 1, O_EXPORT, "WHAT", "print and exit: " },
    { "format", 1, O_FORMAT, "FMT", "" },
    { "rows", 1, O_ROWS, "A..B", "--export pe, scores, softmax: rows A to B only, 0 <= A <= B <= n-1" },
    { "pe-file", 1, O_PE_FILE, "FILE", "a position table: .safetensors, .gguf, .npy or .csv" },
    { "tensor", 1, O_TENSOR, "NAME", "--pe-file, --check-freqs, --qk: the tensor to load (default: picked by name)" },
    { "row-offset", 1, O_ROW_OFFSET, "K", "--pe-file: skip K rows (default: 2 for RoBERTa/OPT, else 0)" },
    { "components", 1, O_COMPONENTS, "K", "--export pca/pca-variance: components, 1..min(d, n-1) (default 3)" },
    { "serve", 1, O_SERVE, "PATH", "teach: publish the state on a Unix socket at PATH" },
    { "serve-mode", 1, O_SERVE_MODE, "MODE", "--serve socket permissions, octal (default 0600)" },
    { "follow", 1, O_FOLLOW, "PATH", "follow the teacher at PATH on this terminal" },
    { "files", 1, O_FILES, "DIR", "--follow: read the teacher's table and tour from DIR only" },
    { "model", 1, O_MODEL, "NAME", "RoPE settings of a model (d, base, scaling, n); list: the table" },
    { "config", 1, O_CONFIG, "FILE", "RoPE settings from a config.json or .gguf file" },
    { "check-freqs", 1, O_CHECK_FREQS, "FILE", "compare a dumped inv_freq (.npy, .csv, safetensors, GGUF) with the settings; exit 0 match, 1 differ" },
    { "check-cache", 1, O_CHECK_CACHE, "FILE", "compare a dumped cos/sin cache (.npy (2, n, W), safetensors cos and sin) with the settings; exit 0 match, 1 differ" },
    { "layer-type", 1, O_LAYER_TYPE, "NAME", "config: the layer type shown (per-type rope_parameters, Gemma 3 v4, layer_types; a null entry: no RoPE), and its mask" },
    { "qk", 1, O_QK, "FILE", "rope, xpos, nope: q and k from a 2 x d table (.npy, .csv, .safetensors)" },
    { "snapshot", 0, O_SNAPSHOT, NULL, "print one frame without a terminal and exit" },
    { "size", 1, O_SIZE, "WxH", "snapshot size in cells (default 80x24)" },
    { "scale", 1, O_SCALE, "K", "PNG snapshot: 8K x 16K pixels a cell, K in 1..8 (default 1)" },
    { "no-user-settings", 0, O_NO_USER_SETTINGS, NULL, "ignore the user settings file (peviz.conf)" },
    { "print-settings", 0, O_PRINT_SETTINGS, NULL, "print each setting, its value and where it came from (default, file or command line), and exit" },
    { "help", 0, 'h', NULL, "this help" },
    { "version", 0, 'V', NULL, "version" },
};
#define NOPTS (sizeof OPTS / sizeof OPTS[0])
/* Every option: the table's and the settings' rows. */
#define NALL (NOPTS + CLI_SETTINGS_MAX)

static size_t settings_n(void);
static size_t settings_global_n(void);

/* Row k of the settings as an option. */
static struct opt opt_row(size_t k)
{
    const struct setting *st = cli_setting(k);
    return (struct opt){ st->name, settings_takes_arg(st), O_SET + (int)k,
                         st->arg, st->help };
}

/* The option's one letter ('d' for -d), or 0: a row's, or the table's
 * val below 256. */
static int opt_short(struct opt o)
{
    if (o.val >= O_SET)
        return cli_setting((size_t)(o.val - O_SET))->short_name;
    return o.val < 256 ? o.val : 0;
}

/* Option i in --help's order: the global settings' rows, the table's
 * rows, the views' settings' rows, then the table's last two (--help,
 * --version). */
static struct opt opt_at(size_t i)
{
    size_t ng = settings_global_n(), ns = settings_n(), head = NOPTS - 2;
    if (i < ng)
        return opt_row(i);
    if (i < ng + head)
        return OPTS[i - ng];
    if (i < ns + head)
        return opt_row(i - head);
    return OPTS[i - ns];
}

static size_t opts_n(void)
{
    return NOPTS + settings_n();
}

/* The things --export prints, in the order --help lists them. */
static const char *const EXPORT_WORDS[] = { "pe", "scores", "softmax", "pca",
                                            "pca-variance", "freqs", "bands",
                                            "position-ids", "bound", NULL };

static const char *const EXPORT_FMT[] = { "csv", "f32", "f64", NULL };
static const char *const SNAP_FMT[] = { "text", "ansi", "svg", "png", NULL };

/* words (NULL-terminated) as "a, b" + sep_last + "c".  Returns buf. */
static const char *words_list(const char *const *words, char *buf,
                              size_t len, const char *sep_last)
{
    int n = 0;
    while (words[n])
        n++;
    return fmt_names(buf, len, words, n, sep_last);
}

static const char *words_names(const char *const *words, char *buf,
                               size_t len)
{
    return words_list(words, buf, len, " or ");
}

/* --format's help: the formats of each mode. */
static const char *format_names(char *buf, size_t len)
{
    char e[64], t[64];
    snprintf(buf, len, "export: %s; snapshot: %s",
             words_list(EXPORT_FMT, e, sizeof e, ", "),
             words_list(SNAP_FMT, t, sizeof t, ", "));
    return buf;
}

/* The names an option takes when they come from a table ("" if not);
 * a setting's range and default. */
static const char *opt_names(int val, char *buf, size_t len)
{
    if (val >= O_SET) {
        const struct setting *st = cli_setting((size_t)(val - O_SET));
        char r[160];
        settings_range(st, r, sizeof r);
        snprintf(buf, len, "%s%s", !*r ? "" : st->type == SET_WORD ? ": "
                                               : ", ", r);
        return buf;
    }
    if (val == O_FORMAT)
        return format_names(buf, len);
    if (val == O_EXPORT)
        return words_names(EXPORT_WORDS, buf, len);
    return "";
}

#define fail errline

int cli_option_arg(const char *name)
{
    for (size_t i = 0; i < opts_n(); i++)
        if (strcmp(opt_at(i).name, name) == 0)
            return opt_at(i).has_arg;
    return -1;
}

int cli_option_in_file(const char *name)
{
    const struct setting *s;
    for (size_t k = 0; (s = cli_setting(k)); k++)
        if (strcmp(s->name, name) == 0)
            return (s->where & SET_FILE) != 0;
    return 1;
}

/* The option as the user may have typed it, for messages: "-d/--d-model"
 * or "--pos". */
static const char *opt_label(int val, char *buf, size_t len)
{
    for (size_t i = 0; i < opts_n(); i++)
        if (opt_at(i).val == val) {
            struct opt o = opt_at(i);
            if (opt_short(o))
                snprintf(buf, len, "-%c/--%s", opt_short(o), o.name);
            else
                snprintf(buf, len, "--%s", o.name);
            return buf;
        }
    return "?";
}

/* The option whose one-letter form is ch (getopt's answer for -d), or
 * ch itself. */
static int opt_of_short(int ch)
{
    for (size_t i = 0; ch > 0 && i < opts_n(); i++)
        if (opt_short(opt_at(i)) == ch)
            return opt_at(i).val;
    return ch;
}

/* ---- the settings' rows ------------------------------------------------ */

/* The rows offered on the command line, global ones first, then each
 * view's in the order of VIEW_LIST: k = 0, 1, ... until NULL. */
static const struct setting *cli_rows[CLI_SETTINGS_MAX];
static size_t cli_rows_n, cli_rows_global;

/* The rows are constant tables: list them the first time asked. */
static void cli_rows_list(void)
{
    for (int t = -1; t < VIEW_COUNT; t++)
        for (const struct setting *s = t < 0 ? APP_SETTINGS
                                             : VIEWS[t]->settings;
             s && s->name && cli_rows_n < CLI_SETTINGS_MAX; s++)
            if (s->where & SET_CLI) {
                cli_rows[cli_rows_n++] = s;
                cli_rows_global += t < 0;
            }
}

const struct setting *cli_setting(size_t k)
{
    if (cli_rows_n == 0)
        cli_rows_list();
    return k < cli_rows_n ? cli_rows[k] : NULL;
}

static size_t settings_n(void)
{
    if (cli_rows_n == 0)
        cli_rows_list();
    return cli_rows_n;
}

/* The global rows: the first of cli_setting's. */
static size_t settings_global_n(void)
{
    return settings_n() ? cli_rows_global : 0;
}

/* --NAME VALUE (or --NAME for a flag) of row k: kept, and set once
 * every option is read (cli_apply), in the rows' order. */
static int given(struct cli *c, size_t k, const char *arg)
{
    if (k >= CLI_SETTINGS_MAX)
        return fail("too many settings");
    c->set_text[k] = arg ? arg : "on";
    c->set_at[k] = optind;
    return 0;
}

/* The text given for the row named name, or NULL. */
static const char *given_text(const struct cli *c, const char *name)
{
    for (size_t k = 0; k < CLI_SETTINGS_MAX && cli_setting(k); k++)
        if (strcmp(cli_setting(k)->name, name) == 0)
            return c->set_text[k];
    return NULL;
}

int cli_given(const struct cli *c, const char *name)
{
    return given_text(c, name) != NULL;
}

/* Set each row given, in the rows' order: those of fixed ranges once
 * every option is read, those bounded by n or by another row (heads
 * before head) only once both are final (late: a table may give n and
 * d, or the heads), then every row's check. */
static int cli_apply(struct cli *c, int late)
{
    char err[192], lab[48];
    const struct setting *s;
    for (size_t k = 0; k < CLI_SETTINGS_MAX && (s = cli_setting(k)); k++) {
        if (!c->set_text[k] || late != (s->bound != SETB_FIXED))
            continue;
        opt_label(O_SET + (int)k, lab, sizeof lab);
        if (settings_set(s, &c->app, c->app.p.n, c->set_text[k], err,
                         sizeof err))
            return s->type == SET_FLAG ? fail("%s: %s", lab, err)
                 : fail("%s %s: %s", lab, *c->set_text[k] ? c->set_text[k]
                                                          : "''", err);
        if (s->given)
            s->given(&c->app);
    }
    /* the rows given first: a refused relation names what was typed */
    for (int given_only = 1; late && given_only >= 0; given_only--)
        for (size_t k = 0; (s = cli_setting(k)); k++)
            if ((!given_only || c->set_text[k]) &&
                settings_check(s, &c->app, err, sizeof err)) {
                char v[64];
                settings_show(s, &c->app, v, sizeof v);
                return fail("--%s %s: %s", s->name, v, err);
            }
    return 0;
}

/* The attention settings that go together. */
static int set_att(struct cli *c)
{
    if (cli_apply(c, 1))
        return 2;
    const struct score_opts *o = &c->app.att.o;
    if ((given_text(c, "floor-scale") || given_text(c, "attn-scale")) &&
        !o->temp_tuning)
        return fail("%s: goes with --temperature-tuning",
                    given_text(c, "floor-scale") ? "--floor-scale"
                                                 : "--attn-scale");
    if (o->temp_tuning && o->scheme != SCHEME_NOPE && o->scheme != SCHEME_ROPE)
        return fail("--temperature-tuning: scales the query of nope and rope "
                    "layers; want --scheme nope or rope");
    return 0;
}

/* --layer-b or --layer-c L with --config and no model for the pane:
 * pane k shows layer L of the file, its type's RoPE settings and scheme
 * (a --base-b, --scheme-b or --rope-layout-b given wins). */
static int pane_of_config(struct cli *c, int k)
{
    struct pane *p = &c->app.cmp.panes[k];
    char name[64], lname[64], err[300], opt[16];
    if (!c->config || p->layer <= 0 || p->model > 0)
        return 0;
    snprintf(opt, sizeof opt, "layer-%c", 'a' + k);
    if (config_layer_at(c->config, p->layer - 1, name, sizeof name, err,
                        sizeof err))
        return fail("--%s %d: %s", opt, p->layer - 1, err);
    params q = c->app.p;
    if (config_load(c->config, name, &q, err, sizeof err))
        return fail("--%s %d: %s", opt, p->layer - 1, err);
    snprintf(opt, sizeof opt, "base-%c", 'a' + k);
    if (!cli_given(c, opt))
        p->base = q.base;
    p->d = q.d;
    p->rope = q.rope;
    snprintf(opt, sizeof opt, "rope-layout-%c", 'a' + k);
    if (!cli_given(c, opt) && config_qk_pairs(c->config) >= 0)
        p->pairs = 1 + config_qk_pairs(c->config);
    snprintf(opt, sizeof opt, "scheme-%c", 'a' + k);
    if (!cli_given(c, opt))
        p->scheme = 1 + (config_layer(c->config, name, lname, sizeof lname)
                         == 1 ? SCHEME_NOPE : SCHEME_ROPE);
    p->cfg = 1;
    return 0;
}

/* Each pane given a layer has a model with NoPE layers, or is a layer
 * of --config. */
static int check_pane_layers(struct cli *c)
{
    for (int k = 1; k < COMPARE_ROPE_PANES; k++)
        if (pane_of_config(c, k))
            return -1;
    for (int k = 0; k < COMPARE_MAX_PANES; k++) {
        const struct pane *p = &c->app.cmp.panes[k];
        const struct rope_preset *m = rope_preset_at(p->model - 1);
        if (p->layer > 0 && !(m && m->nope_every > 0) && !p->cfg &&
            !(k == 0 && c->cfg_layer_a))    /* a config's layer */
            return fail("--layer-%c %d: pane %c's model has no NoPE layers; "
                        "want --model%s llama4-scout%s", 'a' + k, p->layer - 1,
                        'A' + k, k ? k == 1 ? "-b" : "-c" : "",
                        k ? ", or --config FILE" : "");
    }
    return 0;
}

int cli_set_late(struct cli *c)
{
    if (check_pane_layers(c))
        return 2;
    for (int k = COMPARE_ROPE_PANES; k < COMPARE_MAX_PANES; k++)
        c->app.cmp.panes[k].base = c->app.p.base;   /* D, E, F: A's */
    return set_att(c);
}

/* Look a word up in a NULL-ended list; -1 if absent. */
static int word_index(const char *const *words, const char *s)
{
    for (int i = 0; words[i]; i++)
        if (strcmp(words[i], s) == 0)
            return i;
    return -1;
}

/* i: arg's index in its list (-1: not there, and want lists them). */
static int chosen(int i, const char *arg, int val, const char *want, int *out)
{
    char lab[32];
    if (i < 0)
        return fail("%s: '%s': want %s", opt_label(val, lab, sizeof lab),
                    arg, want);
    *out = i;
    return 0;
}

static int choose(const char *const *words, const char *arg, int val,
                  const char *want, int *out)
{
    return chosen(word_index(words, arg), arg, val, want, out);
}


static int parse_size(struct cli *c, const char *arg)
{
    long w, h;
    char *x = strchr(arg, 'x'), buf[64];
    const char *why;
    if (!x || (size_t)(x - arg) >= sizeof buf)
        return fail("--size: '%s': want WxH, e.g. 80x24", arg);
    memcpy(buf, arg, (size_t)(x - arg));
    buf[x - arg] = 0;
    if (parse_long(buf, &w, &why) || parse_long(x + 1, &h, &why) ||
        w < 1 || h < 1 || w > 1000 || h > 1000)
        return fail("--size: '%s': want WxH with W and H in 1..1000", arg);
    c->width = (int)w;
    c->height = (int)h;
    return 0;
}

/* --rows A..B: two positions, A <= B (n checks B, once it is final). */
static int parse_rows(struct cli *c, const char *arg)
{
    long a, b;
    const char *dots = strstr(arg, ".."), *why;
    char buf[32];
    if (!dots || (size_t)(dots - arg) >= sizeof buf)
        return fail("--rows: '%s': want A..B, e.g. 0..9", arg);
    memcpy(buf, arg, (size_t)(dots - arg));
    buf[dots - arg] = 0;
    if (parse_long(buf, &a, &why) || parse_long(dots + 2, &b, &why) ||
        a < 0 || b < a || b >= PARAM_N_MAX)
        return fail("--rows: '%s': want A..B with 0 <= A <= B <= %ld",
                    arg, (long)PARAM_N_MAX - 1);
    c->rows_first = a;
    c->rows_last = b;
    return 0;
}

static int parse_autoplay(struct cli *c, const char *arg)
{
    char *end;
    double v = strtod(arg, &end);
    if (end == arg || *end || !(v >= 0.1 && v <= 3600))
        return fail("--autoplay: '%s': want seconds per step in 0.1..3600",
                    arg);
    c->autoplay = v;
    return 0;
}

static int parse_scale(struct cli *c, const char *arg)
{
    long v;
    const char *why;
    if (parse_long(arg, &v, &why) || v < 1 || v > 8)
        return fail("--scale: '%s': want a whole number in 1..8", arg);
    c->scale = (int)v;
    return 0;
}

/* An octal mode the owner can use: 0600..0777 with u+rw. */
static int parse_mode(struct cli *c, const char *arg)
{
    char *end;
    unsigned long m = strtoul(arg, &end, 8);
    if (!*arg || *end || strspn(arg, "01234567") != strlen(arg) ||
        m > 0777 || (m & 0600) != 0600)
        return fail("--serve-mode: '%s': want an octal mode with owner read "
                    "and write, e.g. 0600 or 0660", arg);
    c->serve_mode = (unsigned)m;
    c->serve_mode_set = 1;
    return 0;
}

/* A whole number in lo..hi for option val. */
static int parse_count(int val, const char *arg, long lo, long hi, long *out)
{
    long v;
    const char *why;
    char lab[32];
    if (parse_long(arg, &v, &why) || v < lo || v > hi)
        return fail("%s: '%s': want a whole number in %ld..%ld",
                    opt_label(val, lab, sizeof lab), arg, lo, hi);
    *out = v;
    return 0;
}

static int parse_table_opt(struct cli *c, int val, const char *arg)
{
    long v;
    if (val == O_TENSOR) {
        if (!*arg)
            return fail("--tensor: an empty name; want a tensor's name");
        c->tensor = arg;
        return 0;
    }
    if (val == O_ROW_OFFSET) {
        if (parse_count(val, arg, 0, PARAM_N_MAX, &v))
            return 2;
        c->row_offset = v;
        return 0;
    }
    if (parse_count(val, arg, 1, PARAM_D_MAX, &v))
        return 2;
    c->components = (int)v;
    c->components_set = 1;
    return 0;
}

/* --export and --snapshot each choose what the run prints: one only. */
static int set_mode(struct cli *c, enum cli_mode m)
{
    static const char *const NAME[] = {
        [MODE_EXPORT] = "--export", [MODE_SNAPSHOT] = "--snapshot",
        [MODE_MODELS] = "--model list", [MODE_CHECK] = "--check",
        [MODE_SLIDES] = "--slides",
        [MODE_CHECK_FREQS] = "--check-freqs", [MODE_CHECK_CACHE] = "--check-cache",
    };
    if (c->mode != MODE_INTERACTIVE && c->mode != m)
        return fail("%s and %s cannot be combined: give one",
                    NAME[c->mode], NAME[m]);
    c->mode = m;
    return 0;
}

static int parse_choice(struct cli *c, int val, const char *arg)
{
    int i = 0, r = 0;
    char want[192];
    switch (val) {
    case O_EXPORT:
        if (!(r = choose(EXPORT_WORDS, arg, val,
                         opt_names(val, want, sizeof want), &i))) {
            if (c->mode == MODE_EXPORT && c->what != (enum export_what)i)
                return fail("--export %s: conflicts with --export %s given "
                            "before; give one", arg, EXPORT_WORDS[c->what]);
            c->what = (enum export_what)i;
            r = set_mode(c, MODE_EXPORT);
        }
        break;
    }
    return r;
}

static int parse_one(struct cli *c, int val, const char *arg)
{
    switch (val) {
    case O_PLAIN: c->app.plain_mode = 1; return 0;
    case O_NO_USER_SETTINGS: return 0;      /* read by userconf_args */
    case O_TOUR: c->tour = arg ? arg : ""; return 0;
    case O_FORMAT: c->format = arg; return 0;
    case O_ROWS: return parse_rows(c, arg);
    case O_SNAPSHOT: return set_mode(c, MODE_SNAPSHOT);
    case O_CHECK: return set_mode(c, MODE_CHECK);
    case O_SLIDES:
        c->slides = arg;
        return set_mode(c, MODE_SLIDES);
    case O_RECORD: c->record = arg; return 0;
    case O_AUTOPLAY: return parse_autoplay(c, arg);
    case O_SIZE: return parse_size(c, arg);
    case O_SCALE: return parse_scale(c, arg);
    case O_PE_FILE: c->pe_file = arg; return 0;
    case O_CHECK_FREQS: c->check_freqs = arg; return set_mode(c, MODE_CHECK_FREQS);
    case O_CHECK_CACHE: c->check_cache = arg; return set_mode(c, MODE_CHECK_CACHE);
    case O_SERVE: c->serve = arg; return 0;
    case O_FOLLOW: c->follow = arg; return 0;
    case O_FILES: c->files = arg; return 0;
    case O_SERVE_MODE: return parse_mode(c, arg);
    case O_TENSOR: case O_ROW_OFFSET: case O_COMPONENTS:
        return parse_table_opt(c, val, arg);
    case O_MODEL: case O_CONFIG: case O_LAYER_TYPE:
        return 0;                         /* applied first, see cli_parse */
    case O_QK: c->qk_file = arg; return 0;
    case O_PRINT_SETTINGS: c->print_settings = 1; return 0;
    case 'h': c->help = 1; return 0;
    case 'V': c->version = 1; return 0;
    default:
        if (val >= O_SET)
            return given(c, (size_t)(val - O_SET), arg);
        return parse_choice(c, val, arg);
    }
}

static void build_longopts(struct option *lo, char *shorts)
{
    size_t k = 0;
    shorts[k++] = ':';   /* report a missing value as ':' */
    size_t n = opts_n();
    for (size_t i = 0; i < n; i++) {
        struct opt o = opt_at(i);
        lo[i] = (struct option){ o.name, o.has_arg, NULL, o.val };
        if (opt_short(o)) {
            shorts[k++] = (char)opt_short(o);
            if (o.has_arg)
                shorts[k++] = ':';
        }
    }
    lo[n] = (struct option){ NULL, 0, NULL, 0 };
    shorts[k] = 0;
}

/* --serve, --follow and --serve-mode go together only one way. */
static int check_follow(const struct cli *c)
{
    if (c->serve && c->follow)
        return fail("--serve and --follow: a program teaches or follows, "
                    "not both");
    if (c->serve_mode_set && !c->serve)
        return fail("--serve-mode: goes with --serve");
    if (c->files && !c->follow)
        return fail("--files: goes with --follow");
    if (c->files && !*c->files)
        return fail("--files: needs a directory");
    if ((c->serve || c->follow) && c->mode != MODE_INTERACTIVE &&
        c->mode != MODE_HELP && c->mode != MODE_VERSION)
        return fail("%s: goes with the interactive program, not --export "
                    "or --snapshot", c->serve ? "--serve" : "--follow");
    if ((c->serve && !*c->serve) || (c->follow && !*c->follow))
        return fail("%s: needs a socket path", c->serve ? "--serve" : "--follow");
    return 0;
}

/* --check, --slides, --autoplay and --record go with a tour or the
 * interactive program. */
static int check_tour_opts(const struct cli *c)
{
    if ((c->mode == MODE_CHECK || c->mode == MODE_SLIDES) && !c->tour)
        return fail("%s: goes with --tour (the shipped tour or --tour=FILE)",
                    c->mode == MODE_CHECK ? "--check" : "--slides");
    if (c->mode == MODE_SLIDES && !*c->slides)
        return fail("--slides: needs a directory");
    if (c->autoplay > 0 && !c->tour)
        return fail("--autoplay: goes with --tour");
    if ((c->record || c->autoplay > 0) && c->mode != MODE_INTERACTIVE &&
        c->mode != MODE_HELP && c->mode != MODE_VERSION)
        return fail("%s: goes with the interactive program",
                    c->record ? "--record" : "--autoplay");
    if (c->record && (!*c->record || c->follow))
        return fail("--record: %s", c->follow
                    ? "a follower does not record; record on the teacher's side"
                    : "needs a file name");
    return 0;
}

/* Checks that need every option first: the rows bounded by n (--pos),
 * formats. */
static int check_final(struct cli *c)
{
    if (check_follow(c) || check_tour_opts(c))
        return 2;
    /* with --pe-file, n comes from the file, and with --qk the heads
     * from its rows: main checks --pos and --head then */
    if (!c->pe_file && !(c->qk_file && c->mode != MODE_HELP
                         && c->mode != MODE_VERSION) && cli_set_late(c))
        return 2;
    if (c->tensor && !c->pe_file && !c->check_freqs && !c->check_cache &&
        !c->qk_file)
        return fail("--tensor: goes with --pe-file, --check-freqs, "
                    "--check-cache or --qk");
    enum scheme sc = c->app.att.o.scheme;
    if (c->qk_file && c->mode == MODE_EXPORT && sc != SCHEME_ROPE
        && sc != SCHEME_XPOS && sc != SCHEME_NOPE)
        return fail("--qk: q and k for --scheme rope, xpos or nope, not %s",
                    scheme_name(sc));
    if (c->row_offset >= 0 && !c->pe_file)
        return fail("--row-offset: goes with --pe-file");
    if ((c->check_freqs || c->check_cache) && c->pe_file)
        return fail("%s and --pe-file: give one file",
                    c->check_freqs ? "--check-freqs" : "--check-cache");
    if (c->components_set && !(c->mode == MODE_EXPORT
                               && (c->what == EXPORT_PCA
                                   || c->what == EXPORT_PCA_VARIANCE)))
        return fail("--components: goes with --export pca or pca-variance");
    if (c->rows_first >= 0 && !(c->mode == MODE_EXPORT
                                && (c->what == EXPORT_PE
                                    || c->what == EXPORT_SCORES
                                    || c->what == EXPORT_SOFTMAX)))
        return fail("--rows: goes with --export pe, scores or softmax");
    if (c->scale && !(c->mode == MODE_SNAPSHOT && c->format &&
                      strcmp(c->format, "png") == 0))
        return fail("--scale: goes with --snapshot --format png");
    if (!c->format)
        return 0;
    char names[96];
    if (c->mode == MODE_EXPORT && word_index(EXPORT_FMT, c->format) < 0)
        return fail("--format: '%s': want %s with --export", c->format,
                    words_names(EXPORT_FMT, names, sizeof names));
    if (c->mode == MODE_SNAPSHOT && word_index(SNAP_FMT, c->format) < 0)
        return fail("--format: '%s': want %s with --snapshot", c->format,
                    words_names(SNAP_FMT, names, sizeof names));
    if (c->mode != MODE_EXPORT && c->mode != MODE_SNAPSHOT)
        return fail("--format: goes with --export or --snapshot");
    return 0;
}

/* --layer-a N with --config: layer N of the file, its type's settings
 * and mask (instead of --layer-type). */
static int layer_a_of_config(struct cli *c, const char *config,
                             const char *layer_a, const char **layer,
                             char *buf, size_t len)
{
    char err[300], *end;
    long i = strtol(layer_a, &end, 10);
    if (end == layer_a || *end || i < 0 || i >= COMPARE_LAYER_MAX)
        return 0;           /* the row's own check says so */
    if (*layer)
        return fail("--layer-a and --layer-type: give one");
    if (config_layer_at(config, i, buf, len, err, sizeof err))
        return fail("--layer-a %ld: %s", i, err);
    *layer = buf;
    c->cfg_layer_a = 1;
    return 0;
}

/* A preset's mask: its sliding window or chunk (the preset's name on the
 * status line says where it came from). */
static void model_mask(struct cli *c, const struct rope_preset *m)
{
    c->app.att.o.window = m->window;
    c->app.att.o.chunk = m->chunk;
}

/* The mask config gives the layer shown (config_mask.h); named means the
 * status line names its layer type already, else it is named when it has
 * a mask. */
static void mask_from_config(struct cli *c, const char *config,
                            const char *layer, int named)
{
    struct config_mask m;
    c->mask_note[0] = 0;
    c->mask_window = c->mask_chunk = 0;
    if (config_mask(config, layer, &m) == 0) {
        c->mask_window = m.window;
        c->mask_chunk = m.chunk;
        snprintf(c->mask_note, sizeof c->mask_note, "%s", m.note);
        size_t k = strlen(c->app.source);   /* the layer type shown */
        if (!named && m.note[0])
            snprintf(c->app.source + k, sizeof c->app.source - k, " %s",
                     m.layer);
    }
    c->app.att.o.window = c->mask_window;
    c->app.att.o.chunk = c->mask_chunk;
}

/* The mask's source beside the model's on the status line, unless
 * --window or --chunk changed it. */
static void mask_source(struct cli *c)
{
    size_t k = strlen(c->app.source);
    if (c->mask_note[0] && k && c->app.att.o.window == c->mask_window &&
        c->app.att.o.chunk == c->mask_chunk)
        snprintf(c->app.source + k, sizeof c->app.source - k, ", %s",
                 c->mask_note);
}

/*
 * --model, --config and --layer-type set the starting point wherever they
 * stand; every other option then changes it (pass two).
 */
static int first_pass(struct cli *c, int argc, char **argv,
                      const struct option *lo, const char *shorts)
{
    const char *model = NULL, *config = NULL, *layer = NULL, *layer_a = NULL;
    int val;
    char err[512], in_order[2 * NALL + 4], lbuf[64];
    /* "-" first: words that are not options come back in place (as 1),
     * so this pass leaves argv in its order for the real one */
    snprintf(in_order, sizeof in_order, "-%s", shorts);
    optind = 0;
    while ((val = getopt_long(argc, argv, in_order, lo, NULL)) != -1) {
        if (val == O_MODEL || val == O_CONFIG)
            c->start_at = optind;
        if (val == O_MODEL)
            model = optarg;
        else if (val == O_CONFIG)
            config = optarg;
        else if (val == O_LAYER_TYPE)
            layer = optarg;
        else if (val >= O_SET &&
                 strcmp(cli_setting((size_t)(val - O_SET))->name, "layer-a") == 0)
            layer_a = optarg;
    }
    if (layer && !config)
        return fail("--layer-type: goes with --config");
    c->config = config;
    if (config && layer_a && layer_a_of_config(c, config, layer_a, &layer,
                                               lbuf, sizeof lbuf))
        return 2;
    if (model && strcmp(model, "list") == 0)
        c->mode = MODE_MODELS;
    else if (model && params_set_model(&c->app.p, model, err, sizeof err))
        return fail("--%s", err);
    else if (model) {   /* compare names pane A's model */
        c->app.cmp.panes[0].model = 1 + params_model_index(model);
        app_set_source(&c->app, model, 0);
        c->app.att.o.qk_pairs = params_model_pairs(model);
        model_mask(c, rope_preset_find(model));
    }
    if (model)          /* a vision-language model: its M-RoPE too */
        mpos_preset(model, &c->app.mp);
    c->base_set = model || config;
    /* a model's settings are RoPE's: its scores (and their scaling) are
     * what an export or the attention view shows unless --scheme says
     * otherwise */
    if ((model && c->mode != MODE_MODELS) || config)
        c->app.att.o.scheme = SCHEME_ROPE;
    if (config && (config_load(config, layer, &c->app.p, err, sizeof err) ||
                   mpos_config_load(config, &c->app.mp, err, sizeof err)))
        return fail("%s", err);
    if (config) {
        app_set_source(&c->app, config, 1);
        config_dims(config, layer, &c->cfg_head_dim, &c->cfg_max_pos);
    }
    char lname[64];
    int nope = config ? config_layer(config, layer, lname, sizeof lname) : -1;
    if (nope >= 0) {    /* the status line names the layer type in force */
        size_t k = strlen(c->app.source);
        snprintf(c->app.source + k, sizeof c->app.source - k, " %s", lname);
    }
    char note[160];
    if (config && config_class_note(config, layer, note, sizeof note)) {
        size_t k = strlen(c->app.source);   /* where the value came from */
        snprintf(c->app.source + k, sizeof c->app.source - k, ", %s", note);
    }
    if (config)
        mask_from_config(c, config, layer, nope >= 0);
    if (nope == 1)      /* a layer type without RoPE */
        c->app.att.o.scheme = SCHEME_NOPE;
    if (config && config_qk_pairs(config) >= 0)     /* --rope-layout wins */
        c->app.att.o.qk_pairs = config_qk_pairs(config);
    if (config && config_llama4_beta(config) > 0) {
        if (c->app.p.rope.original_max <= 0)
            return fail("%s: llama_4_scaling_beta needs the original length "
                        "(original_max_position_embeddings)", config);
        c->app.att.o.beta = config_llama4_beta(config);
        c->app.att.o.beta_len = c->app.p.rope.original_max;
    }
    return 0;
}

/* The rows of the terminal's choices (--color, --graphics, --lang) as
 * the run reads them; --plain draws no images. */
static void terminal_rows(struct cli *c)
{
    c->color_flag = c->app.color_pick - 1;          /* auto: -1 */
    c->graphics = c->app.plain_mode ? GFX_CELLS : c->app.graphics;
    c->lang = app_lang_word(c->app.lang_pick);
}

int cli_parse(struct cli *c, int argc, char **argv)
{
    struct option lo[NALL + 1];
    char shorts[2 * NALL + 3], err[256];
    int val, r;

    memset(c, 0, sizeof *c);
    app_init(&c->app);
    c->width = 80;
    c->height = 24;
    c->serve_mode = 0600;
    c->row_offset = -1;
    c->rows_first = c->rows_last = -1;
    c->components = 3;
    build_longopts(lo, shorts);
    opterr = 0;
    if ((r = first_pass(c, argc, argv, lo, shorts)))
        return r;
    optind = 0;   /* GNU: a full reset (1 keeps a pointer into the last argv) */
    while ((val = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        if (val == ':')
            return fail("%s: needs a value (see peviz --help)", argv[optind - 1]);
        if (val == '?')
            return fail("%s: unknown option (see peviz --help)", argv[optind - 1]);
        val = opt_of_short(val);
        /* --tour [FILE]: also take the file as the next word */
        if (val == O_TOUR && !optarg && optind < argc && argv[optind][0] != '-')
            optarg = argv[optind++];
        if ((r = parse_one(c, val, optarg)))
            return r;
    }
    if (optind < argc)
        return fail("'%s': unexpected argument (see peviz --help)", argv[optind]);
    /* --help and --version answer whatever else is given */
    if (c->help || c->version) {
        c->mode = c->help ? MODE_HELP : MODE_VERSION;
        return 0;
    }
    if (c->print_settings && c->mode != MODE_INTERACTIVE)
        return fail("--print-settings: prints the settings and exits; give "
                    "it without --export, --snapshot or --check");
    if (cli_apply(c, 0))
        return 2;
    mask_source(c);
    c->n_set = cli_given(c, "seq-len");
    c->base_set |= cli_given(c, "base");
    terminal_rows(c);
    if (params_check_rope(&c->app.p, err, sizeof err))
        return fail("--%s", err);
    for (int k = 0; k < MO_COUNT; k++)  /* the rows among them */
        if (cli_given(c, mpos_cli_name((enum mpos_opt)k) + 2))
            c->mpos_given |= 1u << k;
    if (mpos_cli_finish(c, err, sizeof err))
        return fail("%s", err);
    c->app.mp_start = c->app.mp;
    return check_final(c);
}

/* ---- --print-settings --------------------------------------------------- */

/* Where a word at argv index at (0: none) came from. */
static const char *source(int at, int nfile)
{
    return !at ? "default" : at <= nfile + 1 ? "file" : "command line";
}

/* The argv index row k's value came from: its option, else the --model
 * or --config that moved it off its default, else 0 (the default). */
static int row_at(const struct cli *c, size_t k, const char *shown)
{
    const struct setting *s = cli_setting(k);
    if (c->set_text[k])
        return c->set_at[k];
    return s->def && strcmp(shown, s->def) != 0 ? c->start_at : 0;
}

void cli_print_settings(const struct cli *c, FILE *f, int nfile)
{
    const struct setting *s;
    char v[128];
    for (size_t k = 0; (s = cli_setting(k)); k++) {
        settings_show(s, &c->app, v, sizeof v);
        fprintf(f, "%-20s %-16s %s\n", s->name, v,
                source(row_at(c, k, v), nfile));
    }
}

/* ---- --check-freqs and --check-cache ----------------------------------- */

/* What the settings are, for the verdict: "yarn factor=4 ..." or "none". */
static void verdict_text(const struct cli *c, char *buf, size_t len)
{
    char sc[160], b[32];
    params_format_rope(&c->app.p, sc, sizeof sc);
    fmt_base(c->app.p.base, b, sizeof b);
    snprintf(buf, len, "d %d, base %s, %s", c->app.p.d, b, sc);
}

/* What the check knows of the model besides the settings: its
 * head_dim and max_position_embeddings (--config's, else --model's),
 * else none. */
static void check_setup(const struct cli *c, struct freq_setup *s)
{
    const params *p = &c->app.p;
    const struct rope_preset *m = rope_preset_at(c->app.cmp.panes[0].model - 1);
    int head_dim = c->cfg_head_dim > 0 ? c->cfg_head_dim
                   : m                 ? m->head_dim
                                       : 0;
    int64_t max_pos = c->cfg_max_pos > 0 ? c->cfg_max_pos
                      : m                ? m->max_context
                                         : p->n;
    *s = (struct freq_setup){ &p->rope, p->d, p->base, p->n, head_dim,
                              max_pos };
}

/* The cache check's setup: the frequency check's, with the pairing of
 * --qk-pairs and the positions of --sequence. */
static void cache_setup_of(const struct cli *c, struct cache_setup *s)
{
    struct freq_setup fs;
    check_setup(c, &fs);
    *s = (struct cache_setup){ fs.sc, fs.d, fs.base, fs.n, fs.head_dim,
                               c->app.att.o.qk_pairs == QK_HALF
                                   ? CP_HALF : CP_INTERLEAVED,
                               &c->app.mp };
}

/* One variant that reproduces a checked file, and what it costs. */
static void match_line(FILE *out, const char *name, int changes,
                       double residual)
{
    fprintf(out, "matches %s (%d change%s, residual %.3g)\n", name, changes,
            changes == 1 ? "" : "s", residual);
}

static void check_freqs_verdict(const struct cli *c, const struct freq_file *f,
                                const struct freq_check *r, int k, FILE *out)
{
    static const char *const SHAPE[] = { "", ", read as cat(inv, inv)",
                                         ", read as each value twice" };
    char set[240];
    verdict_text(c, set, sizeof set);
    const char *shape = SHAPE[r->shape % 3];
    if (k == 0 && r->f32_only)
        fprintf(out, "match: %d bands within %.3g (%s%s) of %s, in float32 "
                "as transformers computes them; residual %.3g\n", r->nbands,
                0x1p-20, f->what, shape, set, r->f32_residual);
    else if (k == 0)
        fprintf(out, "match: %d bands within %.3g (%s%s) of %s\n", r->nbands,
                f->tol, f->what, shape, set);
    else if (r->nfound != r->nbands)
        fprintf(out, "differs: %d values (%s) where %s has d/2 = %d bands\n",
                f->n, f->what, set, r->nbands);
    else
        fprintf(out, "differs: %d of %d bands beyond %.3g (%s%s) of %s; "
                "worst relative error %.3g\n", r->ndiff, r->nbands, f->tol,
                f->what, shape, set, r->worst);
    for (int i = 0; k && i < r->nmatch; i++)
        match_line(out, r->match[i].name, r->match[i].changes,
                   r->match[i].residual);
    if (k && r->nmatch == 0)
        fprintf(out, "no known variant reproduces it\n");
}

static void check_cache_verdict(const struct cli *c, const struct cache_file *f,
                                const struct cache_check *r,
                                const struct cache_setup *s, int k, FILE *out)
{
    char set[240];
    verdict_text(c, set, sizeof set);
    if (k == 0)
        fprintf(out, "match: %lld positions x %d within their tolerance (%s) "
                "of %s, %s pairing\n", (long long)r->rows, r->w, f->what, set,
                cache_pairing_name(s->pairing));
    else if (r->worst >= 0)
        fprintf(out, "differs: %lld positions x %d (%s) from %s, %s pairing; "
                "worst difference %.3g at position %lld, column %d "
                "(expected %.10g, found %.10g)\n", (long long)r->rows, r->w,
                f->what, set, cache_pairing_name(s->pairing), r->worst,
                (long long)r->worst_pos, r->worst_col, r->want, r->found);
    else
        fprintf(out, "differs: width %d (%s) where %s, %s pairing, has %d\n",
                r->w, f->what, set, cache_pairing_name(s->pairing), s->d);
    for (int i = 0; k && i < r->nmatch; i++)
        match_line(out, r->match[i].name, r->match[i].changes,
                   r->match[i].residual);
    if (k && r->nmatch == 0)
        fprintf(out, "no known variant reproduces it\n");
}

int cli_check_freqs(const struct cli *c, FILE *out)
{
    static struct freq_file f;
    static struct freq_check r;
    struct freq_setup s;
    char err[600];
    if (freq_file_load(c->check_freqs, c->tensor, &f, err, sizeof err))
        return errline("--check-freqs: %s", err);
    check_setup(c, &s);
    int k = freq_check_setup(&f, &s, &r, err, sizeof err);
    if (k < 0)
        return errline("--check-freqs: %s", err);
    for (int i = 0; i < r.ndiff; i++)
        fprintf(out, "band %d: expected %.10g, found %.10g, relative error "
                "%.3g\n", r.band[i].band, r.band[i].expected, r.band[i].found,
                r.band[i].rel);
    check_freqs_verdict(c, &f, &r, k, out);
    if (fflush(out) != 0 || ferror(out))
        return errline("--check-freqs: cannot write to standard output");
    return k;
}

int cli_check_cache(const struct cli *c, FILE *out)
{
    static struct cache_file f;
    static struct cache_check r;
    struct cache_setup s;
    cache_setup_of(c, &s);
    char err[600];
    if (cache_file_load(c->check_cache, c->tensor, &f, err, sizeof err))
        return errline("--check-cache: %s", err);
    int k = cache_check(&f, &s, &r, err, sizeof err);
    cache_file_free(&f);
    if (k < 0)
        return errline("--check-cache: %s", err);
    check_cache_verdict(c, &f, &r, &s, k, out);
    if (fflush(out) != 0 || ferror(out))
        return errline("--check-cache: cannot write to standard output");
    return k;
}

/* The ramp's settings of a scaling for --model list: "low 1 high 4"
 * (llama3), "beta 32/1" (yarn), "-" otherwise. */
static void ramp_text(const rope_scaling *r, char *buf, size_t len)
{
    char x[24], y[24];
    if (r->method != ROPE_LLAMA3 && r->method != ROPE_YARN) {
        snprintf(buf, len, "-");
        return;
    }
    fmt_num(r->method == ROPE_LLAMA3 ? r->low_freq_factor : r->beta_fast, 6,
            x, sizeof x);
    fmt_num(r->method == ROPE_LLAMA3 ? r->high_freq_factor : r->beta_slow, 6,
            y, sizeof y);
    snprintf(buf, len, r->method == ROPE_LLAMA3 ? "low %s high %s"
                                                : "beta %s/%s", x, y);
}

/* A preset's layer types, the one it shows first ("full_attention,
 * sliding_attention"), or "-" for a model with one kind of layer. */
static void layers_text(const struct rope_preset *m, char *buf, size_t len)
{
    if (!m->layer_type)
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%s%s%s", m->layer_type,
                 m->other_layers ? "," : "",
                 m->other_layers ? m->other_layers : "");
}

/* --model list: the presets, their settings, what the plan of each at
 * its maximum context gives (a, the score multiplier) and the layer
 * types of a model that has several. */
void cli_models(FILE *f)
{
    fprintf(f, "%-16s %4s %8s %8s  %-12s %6s %7s %-13s %8s %10s %8s  %-32s  %s\n",
            "model", "d", "head_dim", "base", "scaling", "factor",
            "orig_L", "ramp", "a", "score_mult", "max_ctx", "layers", "note");
    for (int i = 0; i < rope_preset_count(); i++) {
        const struct rope_preset *m = rope_preset_at(i);
        params p;
        char b[32], s[32], L[24], ramp[40], fa[24], fm[24], lt[80];
        params_default(&p);
        params_set_model(&p, m->name, b, sizeof b);
        const pe_plan *pl = plans_of(&p);
        fmt_base(p.base, b, sizeof b);
        fmt_num(p.rope.factor, 6, s, sizeof s);
        snprintf(L, sizeof L, "%ld", (long)p.rope.original_max);
        ramp_text(&p.rope, ramp, sizeof ramp);
        fmt_num(pl->a, 6, fa, sizeof fa);
        fmt_num(pl->mult, 6, fm, sizeof fm);
        layers_text(m, lt, sizeof lt);
        fprintf(f, "%-16s %4d %8d %8s  %-12s %6s %7s %-13s %8s %10s %8ld  %-32s  %s\n",
                m->name, m->d, m->head_dim, b, rope_method_name(p.rope.method),
                s, p.rope.original_max > 0 ? L : "-", ramp, fa, fm,
                (long)m->max_context, lt, m->note);
    }
}

/* One key table for --help: labelled rows only (the rest are aliases). */
static void print_keys(FILE *f, const char *title, const struct view *v,
                       const struct keybind *k)
{
    char vlabel[32], vhelp[1024], plain[1024];
    if (!k)
        return;
    fprintf(f, "\n%s:\n", title);
    for (; k->key; k++)
        if (k->label) {
            const char *help;
            const char *label = view_key_text(v, k, vlabel, sizeof vlabel,
                                              vhelp, sizeof vhelp, &help);
            int pad = 15 - text_width(label);   /* cells, not bytes */
            snprintf(plain, sizeof plain, "%s", help);
            text_unglue(plain);
            fprintf(f, "  %s%*s %s\n", label, pad > 0 ? pad : 0, "", plain);
        }
}

void cli_usage(FILE *f)
{
    fputs("usage: peviz [options]           explore positional encodings\n"
          "       peviz --export pe|scores|softmax [--format csv|f32|f64] [--rows A..B] [options]\n"
          "       peviz --export freqs|bands [--model NAME|--config FILE] [options]\n"
          "       peviz --model list\n"
          "       peviz --check-freqs FILE [--tensor NAME] [--model NAME|--config FILE] [options]\n"
          "       peviz --check-cache FILE [--tensor COS,SIN] [--model NAME|--config FILE] [options]\n"
          "       peviz --export position-ids|scores --sequence SPEC|--grid WxH [options]\n"
          "       peviz --export pca|pca-variance [--pe-file FILE] [--components K]\n"
          "       peviz --tour[=FILE] --check      check a tour file\n"
          "       peviz --tour[=FILE] --slides DIR [--size WxH] [--lang L]\n"
          "       peviz --tour --record FILE.cast [--autoplay SECONDS]\n"
          "       peviz --snapshot [--view NAME] [--size WxH] [--format text|ansi|svg|png [--scale K]]\n"
          "       peviz --serve PATH [options]     teach: publish the state at PATH\n"
          "       peviz --follow PATH              follow a teacher on this terminal\n\n"
          "options:\n", f);
    for (size_t i = 0; i < opts_n(); i++) {
        struct opt o = opt_at(i);
        char left[48];
        int n = opt_short(o) ? snprintf(left, sizeof left, "-%c, ",
                                        opt_short(o))
                             : snprintf(left, sizeof left, "    ");
        snprintf(left + n, sizeof left - (size_t)n, "--%s%s%s%s", o.name,
                 o.has_arg == 2 ? "[=" : o.arg ? " " : "",
                 o.arg ? o.arg : "", o.has_arg == 2 ? "]" : "");
        char names[192];
        fprintf(f, "  %-26s %s%s\n", left, o.help,
                opt_names(o.val, names, sizeof names));
    }
    print_keys(f, "keys in every view", NULL, KEYS_GLOBAL);
    print_keys(f, "keys in follow mode", NULL, KEYS_FOLLOW);
    for (int v = 0; v < VIEW_COUNT; v++) {
        char title[64];
        snprintf(title, sizeof title, "keys in the %s view", VIEWS[v]->name);
        print_keys(f, title, VIEWS[v], VIEWS[v]->keys);
    }
}

size_t cli_option_count(void)
{
    return opts_n();
}

static int opt_path(int val)
{
    switch (val) {
    case O_TOUR: case O_RECORD: case O_PE_FILE: case O_CONFIG:
    case O_CHECK_FREQS: case O_CHECK_CACHE: case O_QK: case O_SERVE:
    case O_FOLLOW:
        return CLI_PATH_FILE;
    case O_SLIDES: case O_FILES:
        return CLI_PATH_DIR;
    default:
        return 0;
    }
}

struct cli_option cli_option_at(size_t i, char *names, size_t len)
{
    struct opt o = opt_at(i);
    const char *got = opt_names(o.val, names, len);
    if (got != names)
        snprintf(names, len, "%s", got);
    return (struct cli_option){ o.name, opt_short(o),
                                o.has_arg, o.arg, o.help, opt_path(o.val) };
}

/* Appends words[0..] (NULL-ended) to w from *n; keeps room for the NULL. */
static void words_add(const char **w, int max, int *n,
                      const char *const *words)
{
    for (; *words && *n < max - 1; words++)
        w[(*n)++] = *words;
}

/* Appends name(0) .. name(count - 1). */
static void names_add(const char **w, int max, int *n, int count,
                      const char *(*name)(int))
{
    for (int k = 0; k < count && *n < max - 1; k++)
        w[(*n)++] = name(k);
}

static const char *model_word(int k) { return rope_preset_at(k)->name; }

int cli_option_words(size_t i, const char **w, int max)
{
    static const char *const LIST[] = { "list", NULL };
    int val = opt_at(i).val, n = 0;
    if (val >= O_SET) {
        const struct setting *st = cli_setting((size_t)(val - O_SET));
        return st->type == SET_FLAG ? (w[0] = NULL, 0)
                                    : settings_words(st, w, max);
    }
    switch (val) {
    case O_EXPORT:
        words_add(w, max, &n, EXPORT_WORDS); break;
    case O_FORMAT:
        words_add(w, max, &n, EXPORT_FMT);
        words_add(w, max, &n, SNAP_FMT); break;
    case O_MODEL:
        words_add(w, max, &n, LIST);
        names_add(w, max, &n, rope_preset_count(), model_word); break;
    default: break;
    }
    w[n] = NULL;
    return n;
}
