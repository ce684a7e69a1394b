/* SPDX-License-Identifier: ISC */
/*
 * docgen.c - the documentation's lists, printed from the program's own
 * tables (build/docgen, run by `make docs`; not part of peviz itself).
 *
 *   docgen list NAME md|man   one list (the names: docgen list)
 *   docgen fill FILE          FILE with each marked block rewritten:
 *       README:  <!-- BEGIN peviz-docs NAME --> ... <!-- END peviz-docs NAME -->
 *                (on one line: the list inline; on lines of their own:
 *                the list between them)
 *       man:     .\" BEGIN peviz-docs NAME  ...  .\" END peviz-docs NAME
 *                (and the .TH line's version)
 *   docgen completion bash|zsh|fish
 *
 * OPTION-words is the words --OPTION takes, inline ("a, b or c"); a
 * count ("tour-steps", "view-count", ...) is a number.  The command
 * line is docgen_main.c, the completions docgen_complete.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "cli.h"
#include "colormap.h"
#include "docgen.h"
#include "export.h"
#include "follow.h"
#include "peviz/bound.h"
#include "peviz/cachecheck.h"
#include "peviz/freqcheck.h"
#include "text.h"
#include "tour.h"
#include "tour_check.h"
#include "view.h"

/* ---- text in each format ------------------------------------------------- */

/* s as roff text: backslashes, minus signs, quotes and every non-ASCII
 * character escaped (a no-break space unpaddable); a leading '.' or '\''
 * made text. */
void docgen_roff(FILE *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    if (*p == '.' || *p == '\'')
        fputs("\\&", out);
    while (*p) {
        if (*p < 0x80) {
            if (*p == '\\')
                fputs("\\e", out);
            else if (*p == '-')
                fputs("\\-", out);
            else
                fputc(*p, out);
            p++;
            continue;
        }
        if (strncmp((const char *)p, TEXT_GLUE, 2) == 0) {
            fputs("\\ ", out);
            p += 2;
            continue;
        }
        unsigned cp = 0;
        int more = *p >= 0xf0 ? 3 : *p >= 0xe0 ? 2 : 1;
        cp = *p++ & (0x3fu >> more);
        for (; more > 0 && (*p & 0xc0) == 0x80; more--)
            cp = cp << 6 | (*p++ & 0x3fu);
        fprintf(out, "\\[u%04X]", cp);
    }
}

/* s in a markdown table cell: '|' escaped, a no-break space plain. */
static void md_cell(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (strncmp(s, TEXT_GLUE, 2) == 0) {
            fputc(' ', out);
            s++;
            continue;
        }
        if (*s == '|')
            fputc('\\', out);
        fputc(*s, out);
    }
}

static void text(FILE *out, int man, const char *s)
{
    if (man)
        docgen_roff(out, s);
    else
        md_cell(out, s);
}

/* A table row of two or three cells: md "| a | b | c |"; man a .TP
 * entry, a bold, then b and c. */
static void row(FILE *out, int man, const char *a, const char *b,
                const char *c)
{
    if (man) {
        fputs(".TP 16\n.B \"", out);
        docgen_roff(out, a);
        fputs("\"\n", out);
        docgen_roff(out, b);
        if (c && *c) {
            fputs(": ", out);
            docgen_roff(out, c);
        }
        fputc('\n', out);
        return;
    }
    fputs("| `", out);
    md_cell(out, a);
    fputs("` | ", out);
    md_cell(out, b);
    if (c) {
        fputs(" | ", out);
        md_cell(out, c);
    }
    fputs(" |\n", out);
}

static void header(FILE *out, int man, const char *a, const char *b,
                   const char *c)
{
    if (man)
        return;
    fprintf(out, "| %s | %s |%s%s%s\n", a, b, c ? " " : "", c ? c : "",
            c ? " |" : "");
    fprintf(out, "|---|---|%s\n", c ? "---|" : "");
}

/* names[0..n) inline: md `a`, `b` or `c`; man bold, ended by a period. */
static void words(FILE *out, int man, const char *const *names, int n)
{
    for (int i = 0; i < n; i++) {
        fputs(i == 0 ? "" : i == n - 1 ? " or " : ", ", out);
        fputs(man ? "\\fB" : "`", out);
        text(out, man, names[i]);
        fputs(man ? "\\fR" : "`", out);
    }
    fputs(man ? ".\n" : "", out);
}

/* ---- the lists ----------------------------------------------------------- */

static void list_views(FILE *out, int man)
{
    header(out, man, "key", "view", "what it shows");
    for (int v = 0; v < VIEW_COUNT; v++) {
        char key[24];
        snprintf(key, sizeof key, "key %d", v + 1);
        if (man)
            row(out, man, VIEWS[v]->name, key, VIEWS[v]->title);
        else {
            snprintf(key, sizeof key, "%d", v + 1);
            fprintf(out, "| %s | `%s` | ", key, VIEWS[v]->name);
            md_cell(out, VIEWS[v]->title);
            fputs(" |\n", out);
        }
    }
}

/* The numbers a tour's check lines can name, view by view. */
static void list_quantities(FILE *out, int man)
{
    header(out, man, "view", "quantities", NULL);
    for (int v = 0; v < VIEW_COUNT; v++)
        if (VIEWS[v]->quantities)
            row(out, man, VIEWS[v]->name, VIEWS[v]->quantities, NULL);
}

static void keys_table(FILE *out, int man, const char *title,
                       const struct view *v, const struct keybind *k)
{
    char vlabel[32], vhelp[1024];
    if (man)
        fprintf(out, ".SS \"%s\"\n", title);
    else
        fprintf(out, "\n**%s**\n\n", title);
    header(out, man, "key", "does", NULL);
    for (; k && k->key; k++) {
        if (!k->label)
            continue;
        const char *help;
        const char *label = view_key_text(v, k, vlabel, sizeof vlabel, vhelp,
                                          sizeof vhelp, &help);
        row(out, man, label, help, NULL);
    }
}

static void list_keys(FILE *out, int man)
{
    keys_table(out, man, "In every view", NULL, KEYS_GLOBAL);
    keys_table(out, man, "In follow mode", NULL, KEYS_FOLLOW);
    for (int v = 0; v < VIEW_COUNT; v++) {
        char title[64];
        snprintf(title, sizeof title, "In the %s view", VIEWS[v]->name);
        keys_table(out, man, title, VIEWS[v], VIEWS[v]->keys);
    }
}

/* One row of the brief table: where, then each key and what it does
 * (view v's keys as it writes them; the global ':' with the global
 * settings' commands, a view's with its own text only). */
static void keys_brief_row(FILE *out, const char *where,
                           const struct view *v, const struct keybind *k)
{
    char vlabel[32], vhelp[256];
    int global = k == KEYS_GLOBAL;
    const char *sep = "";
    fprintf(out, "| %s | ", where);
    for (; k && k->key; k++) {
        if (!k->label)
            continue;
        const char *label = k->label, *help = k->help;
        if (k->act == ACT_VIEW_N) {
            views_keys_text(vlabel, sizeof vlabel, vhelp, sizeof vhelp);
            label = vlabel;
            help = vhelp;
        } else if (v ? k->act != ACT_PROMPT : global && k->act == ACT_PROMPT) {
            help = view_key_help(v, k, vhelp, sizeof vhelp);
        }
        fprintf(out, "%s`%s` ", sep, label);
        md_cell(out, help);
        sep = "; ";
    }
    fprintf(out, " |\n");
}

/* The keys in one short table, a row a view (the README's; the man page
 * has them in full). */
static void list_keys_brief(FILE *out, int man)
{
    if (man) {
        list_keys(out, man);
        return;
    }
    fprintf(out, "| where | keys |\n|---|---|\n");
    keys_brief_row(out, "every view", NULL, KEYS_GLOBAL);
    keys_brief_row(out, "follow mode", NULL, KEYS_FOLLOW);
    for (int v = 0; v < VIEW_COUNT; v++)
        keys_brief_row(out, VIEWS[v]->name, VIEWS[v], VIEWS[v]->keys);
}

static void list_schemes(FILE *out, int man)
{
    header(out, man, "scheme", "score S(i, j)", "has");
    for (int s = 0; s < scheme_count(); s++)
        row(out, man, scheme_info(s)->name, scheme_info(s)->formula,
            scheme_has_name(scheme_info(s)->has));
}

static void list_methods(FILE *out, int man)
{
    header(out, man, "method", "what it is", "frequency");
    for (int m = 0; m < rope_method_count(); m++) {
        const struct rope_method_info *r = rope_method_info(m);
        row(out, man, r->name, r->title, r->formula);
    }
}

/* The rows of --check-freqs' variant table. */
static void list_freq_variants(FILE *out, int man)
{
    header(out, man, "choice", "axis", "what the port did");
    for (int i = 0; i < freq_variant_count(); i++) {
        const struct freq_variant *v = freq_variant_at(i);
        row(out, man, v->name, freq_axis_name(v->axis), v->help);
    }
}

/* The same rows inline, by axis: "method: `no scaling`, ...; dims: ...". */
static void list_freq_variant_names(FILE *out, int man)
{
    const char *names[32];
    for (int a = 0; a < FA_COUNT; a++) {
        int n = 0;
        for (int i = 0; i < freq_variant_count() && n < 32; i++)
            if (freq_variant_at(i)->axis == (enum freq_axis)a)
                names[n++] = freq_variant_at(i)->name;
        fprintf(out, "%s%s: ", a ? "; " : "", freq_axis_name((enum freq_axis)a));
        words(out, 0, names, n);
    }
    fputs(man ? ".\n" : "", out);
}

/* The --model list table, as it prints. */
static void list_models(FILE *out, int man)
{
    fputs(man ? ".PP\n.nf\n.ft CR\n" : "```\n", out);
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        exit(1);
    cli_models(mem);
    fclose(mem);
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
        if (man)
            docgen_roff(out, line);
        else
            fputs(line, out);
        fputc('\n', out);
    }
    free(buf);
    fputs(man ? ".ft\n.fi\n" : "```\n", out);
}

/* An option's tag in roff: the bold name, the italic argument. */
static void option_tag(FILE *out, const struct cli_option *o)
{
    fputs(".TP\n", out);
    if (o->short_name)
        fprintf(out, "\\fB\\-%c\\fR, ", o->short_name);
    fputs("\\fB\\-\\-", out);
    docgen_roff(out, o->name);
    fputs("\\fR", out);
    if (o->arg) {
        fputs(o->has_arg == 2 ? "[=\\fI" : " \\fI", out);
        docgen_roff(out, o->arg);
        fputs(o->has_arg == 2 ? "\\fR]" : "\\fR", out);
    }
    fputc('\n', out);
}

/* Every option with its help: md a table, man a .TP entry each. */
static void list_settings(FILE *out, int man)
{
    header(out, man, "option", "argument", "meaning");
    for (size_t i = 0; i < cli_option_count(); i++) {
        char names[512], name[64], help[1024];
        struct cli_option o = cli_option_at(i, names, sizeof names);
        snprintf(help, sizeof help, "%s%s", o.help, names);
        if (man) {
            option_tag(out, &o);
            docgen_roff(out, help);
            fputc('\n', out);
            continue;
        }
        if (o.short_name)
            snprintf(name, sizeof name, "-%c, --%s", o.short_name, o.name);
        else
            snprintf(name, sizeof name, "--%s", o.name);
        row(out, man, name, o.arg ? o.arg : "", help);
    }
}

/* A table of rows: md a header and a line each; man a .TP entry each,
 * the name bold, its values, its help and where it is offered. */
static void setting_table(FILE *out, int man, const struct setting *rows)
{
    char range[256], where[256];
    if (!man)
        fputs("| setting | values (default) | meaning | offered |\n"
              "|---|---|---|---|\n", out);
    for (const struct setting *s = rows; s && s->name; s++) {
        settings_range(s, range, sizeof range);
        if (s->type == SET_FLAG)
            snprintf(range, sizeof range, "on or off (default %s)",
                     s->def ? s->def : "off");
        settings_where(s, where, sizeof where);
        fputs(man ? ".TP\n\\fB" : "| `", out);
        text(out, man, s->name);
        fputs(man ? "\\fR " : "` | ", out);
        text(out, man, range);
        fputs(man ? "\n" : " | ", out);
        text(out, man, s->help);
        fputs(man ? ".\n.br\n" : " | ", out);
        text(out, man, where);
        fputs(man ? "\n" : " |\n", out);
    }
}

/* The settings' rows (settings.h), the global ones, then each view's:
 * a title and a table. */
static void list_setting_rows(FILE *out, int man)
{
    for (int v = -1; v < VIEW_COUNT; v++) {
        const struct setting *rows = v < 0 ? APP_SETTINGS : VIEWS[v]->settings;
        if (!rows || !rows->name)
            continue;
        if (man)
            fprintf(out, ".SS \"%s\"\n", v < 0 ? "Every view"
                                                 : VIEWS[v]->name);
        else
            fprintf(out, "%s**%s**\n\n", v < 0 ? "" : "\n",
                    v < 0 ? "Every view" : VIEWS[v]->name);
        setting_table(out, man, rows);
    }
}

/* The words option opt takes, inline; -1 when it takes none. */
static int option_words(FILE *out, int man, const char *opt)
{
    for (size_t i = 0; i < cli_option_count(); i++) {
        char names[512];
        if (strcmp(cli_option_at(i, names, sizeof names).name, opt) == 0) {
            const char *w[256];
            int n = cli_option_words(i, w, 256);
            if (n == 0)
                return -1;
            words(out, man, w, n);
            return 0;
        }
    }
    return -1;
}

/* The labels of --export bound's lines, in their order: "a, b and c". */
static void list_bound_labels(FILE *out, int man)
{
    int n = 0;
    while (export_bound_label(n))
        n++;
    for (int i = 0; i < n; i++) {
        fputs(i == 0 ? "" : i == n - 1 ? " and " : ", ", out);
        fputs(man ? "\\fB" : "`", out);
        text(out, man, export_bound_label(i));
        fputs(man ? "\\fR" : "`", out);
    }
    fputs(man ? "\n" : "", out);
}

static int tour_steps(void)
{
    static struct app a;
    struct tour t;
    char path[4096], err[512];
    app_init(&a);
    if (tour_load(&t, tour_default_path("en", path, sizeof path), &a, err,
                  sizeof err) < 0) {
        fprintf(stderr, "docgen: %s\n", err);
        exit(2);
    }
    int n = t.nsteps;
    tour_free(&t);
    return n;
}

/* ---- by name ------------------------------------------------------------- */

struct list {
    const char *name;
    void (*print)(FILE *out, int man);
    int (*count)(void);         /* a count */
};

/* Each palette's text contrast (WCAG 2), on black, on #1E1E1E and in its
 * status line. */
static void list_palettes(FILE *out, int man)
{
    header(out, man, "palette", "text on black, on #1E1E1E", "status line");
    for (int p = 0; p < PAL_COUNT; p++) {
        char on[64], st[32];
        snprintf(on, sizeof on, "%.1f:1, %.1f:1",
                 palette_text_contrast((enum palette)p, 0x000000),
                 palette_text_contrast((enum palette)p, 0x1E1E1E));
        snprintf(st, sizeof st, "%.1f:1", palette_status_contrast((enum palette)p));
        row(out, man, palette_name((enum palette)p), on, st);
    }
}

/* The sizes --check draws a tour at, inline: "80x24, 120x40 and
 * 160x48". */
static void list_check_sizes(FILE *out, int man)
{
    for (int z = 0; z < TOUR_CHECK_NSIZES; z++)
        fprintf(out, "%s%dx%d", z == 0 ? "" : z == TOUR_CHECK_NSIZES - 1
                ? " and " : ", ", TOUR_CHECK_SIZES[z][0],
                TOUR_CHECK_SIZES[z][1]);
    if (man)
        fputc('\n', out);
}

static int view_count(void) { return VIEW_COUNT; }
static int cache_rows(void) { return CACHE_HEAD_ROWS; }
static int scheme_total(void) { return scheme_count(); }
static int bound_coarse(void) { return BOUND_COARSE_PER_DECADE; }
static int bound_fine(void) { return BOUND_FINE_PER_DECADE; }
static int bound_block_len(void) { return BOUND_BLOCK; }

static const struct list LISTS[] = {
    { "views", list_views, NULL },
    { "keys", list_keys, NULL },
    { "keys-brief", list_keys_brief, NULL },
    { "schemes", list_schemes, NULL },
    { "tour-quantities", list_quantities, NULL },
    { "check-sizes", list_check_sizes, NULL },
    { "methods", list_methods, NULL },
    { "models", list_models, NULL },
    { "freq-variants", list_freq_variants, NULL },
    { "freq-variant-names", list_freq_variant_names, NULL },
    { "settings", list_settings, NULL },
    { "setting-rows", list_setting_rows, NULL },
    { "palettes", list_palettes, NULL },
    { "tour-steps", NULL, tour_steps },
    { "view-count", NULL, view_count },
    { "cache-rows", NULL, cache_rows },
    { "scheme-count", NULL, scheme_total },
    { "bound-labels", list_bound_labels, NULL },
    { "bound-coarse", NULL, bound_coarse },
    { "bound-fine", NULL, bound_fine },
    { "bound-block", NULL, bound_block_len },
};
#define NLISTS (sizeof LISTS / sizeof LISTS[0])

/* Print list name in md or man; -1 when there is no such list. */
int docgen_list(FILE *out, const char *name, int man)
{
    size_t len = strlen(name);
    if (len > 6 && strcmp(name + len - 6, "-words") == 0) {
        char opt[64];
        snprintf(opt, sizeof opt, "%.*s", (int)(len - 6), name);
        return option_words(out, man, opt);
    }
    for (size_t i = 0; i < NLISTS; i++) {
        const struct list *l = &LISTS[i];
        if (strcmp(l->name, name) != 0)
            continue;
        if (l->print)
            l->print(out, man);
        else
            fprintf(out, man ? "%d\n" : "%d", l->count());
        return 0;
    }
    return -1;
}

void docgen_names(FILE *out)
{
    for (size_t i = 0; i < NLISTS; i++)
        fprintf(out, "%s\n", LISTS[i].name);
    fputs("OPTION-words (the words of --OPTION)\n", out);
}
