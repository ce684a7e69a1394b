/* SPDX-License-Identifier: ISC */
/*
 * docgen_complete.c - shell completions for bash, zsh and fish, from the
 * option table (cli.h): every long option, the words of each option
 * that takes words from a table, files or directories for the options
 * that name one.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "docgen.h"

#define WORDS_MAX 256

/* Option i: its row (its help with the names --help adds), and its
 * words space-separated in buf. */
static struct cli_option option(size_t i, char *buf, size_t len)
{
    static char help[1024];
    char names[512];
    const char *w[WORDS_MAX];
    struct cli_option o = cli_option_at(i, names, sizeof names);
    snprintf(help, sizeof help, "%s%s", o.help, names);
    o.help = help;
    int n = cli_option_words(i, w, WORDS_MAX);
    buf[0] = '\0';
    for (int k = 0; k < n; k++)
        snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", k ? " " : "",
                 w[k]);
    return o;
}

/* s with every character of drop left out and each ' written by esc. */
static void quoted(FILE *out, const char *s, const char *drop,
                   const char *esc)
{
    for (; *s; s++)
        if (*s == '\'')
            fputs(esc, out);
        else if (!strchr(drop, *s))
            fputc(*s, out);
}

/* ---- bash ---------------------------------------------------------------- */

/* The case arm of option o (words w): its argument's completion. */
static void bash_arm(FILE *out, const struct cli_option *o, const char *w)
{
    char pattern[80];
    int n = snprintf(pattern, sizeof pattern, "--%s", o->name);
    if (o->short_name)
        snprintf(pattern + n, sizeof pattern - (size_t)n, "|-%c", o->short_name);
    const char *guard = o->has_arg == 2 ? "[[ $eq ]] && " : "";
    if (o->path)
        fprintf(out, "    %s) %sCOMPREPLY=($(compgen -%c -- \"$cur\")); %sreturn ;;\n",
                pattern, guard, o->path == CLI_PATH_DIR ? 'd' : 'f', guard);
    else if (w[0])
        fprintf(out, "    %s) COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return ;;\n",
                pattern, w);
    else
        fprintf(out, "    %s) return ;;\n", pattern);
}

static void bash(FILE *out)
{
    char w[4096];
    fputs("# bash completion for peviz (written by make docs from the option table)\n"
          "_peviz() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    local opt=$prev eq=\n"
          "    # --opt=value comes as --opt, =, value where = breaks words\n"
          "    if [[ $cur == = ]]; then opt=$prev eq=1 cur=\n"
          "    elif [[ $prev == = ]] && ((COMP_CWORD >= 2)); then\n"
          "        opt=${COMP_WORDS[COMP_CWORD-2]} eq=1\n"
          "    elif [[ $cur == --*=* ]]; then opt=${cur%%=*} eq=1 cur=${cur#*=}\n"
          "    fi\n"
          "    case $opt in\n", out);
    for (size_t i = 0; i < cli_option_count(); i++) {
        struct cli_option o = option(i, w, sizeof w);
        if (o.has_arg)
            bash_arm(out, &o, w);
    }
    fputs("    esac\n"
          "    [[ $cur == -* ]] || return 0\n"
          "    COMPREPLY=($(compgen -W '", out);
    for (size_t i = 0; i < cli_option_count(); i++) {
        struct cli_option o = option(i, w, sizeof w);
        fprintf(out, "%s--%s", i ? " " : "", o.name);
    }
    fputs("' -- \"$cur\"))\n"
          "}\n"
          "complete -F _peviz peviz\n", out);
}

/* ---- zsh ----------------------------------------------------------------- */

static void zsh_spec(FILE *out, const struct cli_option *o, const char *w,
                     const char *flag, const char *eq)
{
    fprintf(out, "    '%s%s[", flag, eq);
    quoted(out, o->help[0] ? o->help : o->name, "[]:\\", "'\\''");
    fputc(']', out);
    if (o->has_arg) {
        fprintf(out, ":%s:", o->arg ? o->arg : "ARG");
        if (o->path)
            fputs(o->path == CLI_PATH_DIR ? "_files -/" : "_files", out);
        else if (w[0])
            fprintf(out, "(%s)", w);
        else
            fputs(" ", out);
    }
    fputs("' \\\n", out);
}

static void zsh(FILE *out)
{
    fputs("#compdef peviz\n"
          "# zsh completion for peviz (written by make docs from the option table)\n"
          "_arguments -s \\\n", out);
    for (size_t i = 0; i < cli_option_count(); i++) {
        char w[4096], flag[80];
        struct cli_option o = option(i, w, sizeof w);
        const char *eq = o.has_arg == 2 ? "=-" : o.has_arg ? "=" : "";
        snprintf(flag, sizeof flag, "--%s", o.name);
        zsh_spec(out, &o, w, flag, eq);
        if (o.short_name) {
            snprintf(flag, sizeof flag, "-%c", o.short_name);
            zsh_spec(out, &o, w, flag, o.has_arg ? "+" : "");
        }
    }
    fputs("    && return 0\n", out);
}

/* ---- fish ---------------------------------------------------------------- */

static void fish(FILE *out)
{
    fputs("# fish completion for peviz (written by make docs from the option table)\n"
          "complete -c peviz -f\n", out);
    for (size_t i = 0; i < cli_option_count(); i++) {
        char w[4096];
        struct cli_option o = option(i, w, sizeof w);
        fputs("complete -c peviz", out);
        if (o.short_name)
            fprintf(out, " -s %c", o.short_name);
        fprintf(out, " -l %s", o.name);
        if (o.path == CLI_PATH_DIR)
            fputs(" -x -a '(__fish_complete_directories)'", out);
        else if (o.path)
            fputs(o.has_arg == 2 ? " -F" : " -r -F", out);
        else if (w[0])
            fprintf(out, " -x -a '%s'", w);
        else if (o.has_arg)
            fputs(" -x", out);
        fputs(" -d '", out);
        quoted(out, o.help[0] ? o.help : o.name, "\\", "\\'");
        fputs("'\n", out);
    }
}

int docgen_complete(FILE *out, const char *shell)
{
    if (strcmp(shell, "bash") == 0)
        bash(out);
    else if (strcmp(shell, "zsh") == 0)
        zsh(out);
    else if (strcmp(shell, "fish") == 0)
        fish(out);
    else {
        fprintf(stderr, "docgen: no completion for %s\n", shell);
        return 2;
    }
    return 0;
}
