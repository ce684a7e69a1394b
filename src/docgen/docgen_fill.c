/* SPDX-License-Identifier: ISC */
/*
 * docgen_fill.c - a file with its marked blocks filled from the lists
 * (docgen.c), and a man page's .TH line given this version.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docgen.h"

#define MD_BEGIN "<!-- BEGIN peviz-docs "
#define MD_END "<!-- END peviz-docs "
#define MAN_BEGIN ".\\\" BEGIN peviz-docs "
#define MAN_END ".\\\" END peviz-docs "
#define LINE_MAX_ 4096

struct fill {
    const char *path;
    int line;
    char block[64];     /* the open block's name, "" outside one */
    int man;
};

static int fill_error(const struct fill *f, const char *what)
{
    fprintf(stderr, "docgen: %s:%d: %s\n", f->path, f->line, what);
    return 2;
}

/* The name after marker in s, up to a blank or "-->", into name. */
static int marker_name(const char *s, const char *marker, char *name,
                       size_t len)
{
    const char *p = strstr(s, marker);
    if (!p)
        return 0;
    p += strlen(marker);
    size_t n = strcspn(p, " \n");
    if (n == 0 || n >= len)
        return 0;
    memcpy(name, p, n);
    name[n] = '\0';
    return 1;
}

static int print_list(FILE *out, struct fill *f, const char *name)
{
    if (docgen_list(out, name, f->man) == 0)
        return 0;
    char why[128];
    snprintf(why, sizeof why, "no list named %s", name);
    return fill_error(f, why);
}

/* A README line: an inline block, the start of a block, or text. */
static int fill_md(FILE *out, struct fill *f, const char *s)
{
    char name[64], end[96];
    if (!marker_name(s, MD_BEGIN, name, sizeof name)) {
        fputs(s, out);
        return 0;
    }
    snprintf(end, sizeof end, MD_END "%s -->", name);
    const char *b = strstr(s, "-->"), *e = strstr(s, end);
    if (!e) {
        fputs(s, out);
        snprintf(f->block, sizeof f->block, "%s", name);
        return print_list(out, f, name);
    }
    fwrite(s, 1, (size_t)(b + 3 - s), out);
    int rc = print_list(out, f, name);
    fputs(e, out);
    return rc;
}

static int fill_man(FILE *out, struct fill *f, const char *s)
{
    char name[64];
    if (strncmp(s, ".TH ", 4) == 0) {
        /* .TH NAME SECTION DATE "peviz VERSION" ... */
        const char *v = strstr(s, "\"peviz ");
        const char *rest = v ? strchr(v + 1, '"') : NULL;
        if (rest) {
            fprintf(out, "%.*s\"peviz %s%s", (int)(v - s), s, PEVIZ_VERSION,
                    rest);
            return 0;
        }
    }
    fputs(s, out);
    if (strncmp(s, MAN_BEGIN, strlen(MAN_BEGIN)) == 0
        && marker_name(s, MAN_BEGIN, name, sizeof name)) {
        snprintf(f->block, sizeof f->block, "%s", name);
        return print_list(out, f, name);
    }
    return 0;
}

/* Whether s ends the open block. */
static int block_end(const struct fill *f, const char *s)
{
    char name[64];
    return marker_name(s, f->man ? MAN_END : MD_END, name, sizeof name)
           && strcmp(name, f->block) == 0;
}

int docgen_fill(FILE *out, const char *path)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(stderr, "docgen: %s: cannot open\n", path);
        return 2;
    }
    const char *dot = strrchr(path, '.');
    struct fill f = { path, 0, "", dot && strcmp(dot, ".1") == 0 };
    char s[LINE_MAX_];
    int rc = 0;
    while (rc == 0 && fgets(s, sizeof s, in)) {
        f.line++;
        if (f.block[0] && !block_end(&f, s))
            continue;
        if (f.block[0]) {
            f.block[0] = '\0';
            fputs(s, out);
            continue;
        }
        rc = f.man ? fill_man(out, &f, s) : fill_md(out, &f, s);
    }
    fclose(in);
    if (rc == 0 && f.block[0])
        rc = fill_error(&f, "a block without its END line");
    return rc;
}
