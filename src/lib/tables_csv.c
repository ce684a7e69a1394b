/* SPDX-License-Identifier: ISC */
/*
 * tables_csv.c - a table from CSV text, read in blocks: one position per
 * line, the memory bounded by the table (and one line) whatever the file.
 */
#include "tables_formats.h"

#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK     65536
#define LINE_MAX_BYTES (4u << 20)
#define FIELD_MAX 64

/* The file as lines, through a block buffer. */
struct lines {
    struct tload *l;
    uint64_t pos;                   /* file offset of blk[0] + blen */
    unsigned char blk[BLOCK];
    size_t bpos, blen;
    char *line;
    size_t len, cap;
    long no;                        /* 1-based number of the line */
};

struct csv {
    double *v;
    size_t n, cap;
    int64_t rows, cols;
    char sep;                       /* 0 until the first data line */
    int header_done;
};

static int line_push(struct lines *r, unsigned char c)
{
    if (r->len == r->cap) {
        if (r->cap >= LINE_MAX_BYTES)
            return filesrc_fail(r->l->src, "line %ld: longer than %u MiB",
                                r->no, LINE_MAX_BYTES >> 20);
        size_t cap = r->cap ? 2 * r->cap : 256;
        char *p = realloc(r->line, cap);
        if (!p)
            return filesrc_fail(r->l->src, "out of memory");
        r->line = p;
        r->cap = cap;
    }
    r->line[r->len++] = (char)c;
    return 0;
}

/* The next line without its "\n" or "\r\n": 1, 0 at the end, -1. */
static int next_line(struct lines *r)
{
    const struct filesrc *s = r->l->src;
    if (r->bpos == r->blen && r->pos >= s->size)
        return 0;
    r->len = 0;
    r->no++;
    for (;;) {
        if (r->bpos == r->blen) {
            if (r->pos >= s->size)
                break;
            uint64_t left = s->size - r->pos;
            r->blen = left < BLOCK ? (size_t)left : BLOCK;
            if (filesrc_read(s, r->pos, r->blk, r->blen))
                return -1;
            r->pos += r->blen;
            r->bpos = 0;
        }
        unsigned char c = r->blk[r->bpos++];
        if (c == '\n')
            break;
        if (line_push(r, c))
            return -1;
    }
    if (r->len && r->line[r->len - 1] == '\r')
        r->len--;
    return 1;
}

static int csv_push(struct tload *l, struct csv *c, double val)
{
    if ((int64_t)c->n >= PE_TABLE_MAX_VALUES)
        return filesrc_fail(l->src, "more than %lld values: over the limit",
                            (long long)PE_TABLE_MAX_VALUES);
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 1024;
        double *nv = realloc(c->v, cap * sizeof *nv);
        if (!nv)
            return filesrc_fail(l->src, "out of memory");
        c->v = nv;
        c->cap = cap;
    }
    c->v[c->n++] = val;
    return 0;
}

static int is_blank(char ch, char sep)
{
    return ch == ' ' || (ch == '\t' && sep != '\t');
}

/* s (len bytes) without a sign equals word, ignoring case. */
static int word_is(const char *s, size_t len, const char *word)
{
    if (len && (*s == '+' || *s == '-')) {
        s++;
        len--;
    }
    size_t n = strlen(word);
    if (len != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((s[i] | 0x20) != word[i])
            return 0;
    return 1;
}

/* Why the text is not a plain decimal number, or NULL. */
static const char *not_decimal(const char *s, size_t len, char sep)
{
    if (len == 0)
        return "an empty value";
    if (word_is(s, len, "nan") || word_is(s, len, "inf")
        || word_is(s, len, "infinity"))
        return "not a finite number";
    size_t sign = (*s == '+' || *s == '-');
    if (len > sign + 1 && s[sign] == '0' && (s[sign + 1] | 0x20) == 'x')
        return "a hex float: write it in decimal";
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (ch == ',' && sep != ',')
            return "a decimal comma: want '.'";
        if (ch == ';' || ch == '\t' || ch == ',')
            return "mixed separators: one of ',', ';' or tab per file";
        if (!strchr("0123456789+-.eE", ch))
            return "not a number";
    }
    return NULL;
}

/* One number; '.' is the decimal point whatever LC_NUMERIC says. */
static int parse_number(const char *s, size_t len, char sep, double *out,
                        const char **why)
{
    char buf[FIELD_MAX + 1];
    if ((*why = not_decimal(s, len, sep)))
        return -1;
    if (len > FIELD_MAX) {
        *why = "too long";
        return -1;
    }
    memcpy(buf, s, len);
    buf[len] = 0;
    const char *dp = localeconv()->decimal_point;
    if (dp && dp[0] && dp[0] != '.' && !dp[1])
        for (char *q = buf; *q; q++)
            if (*q == '.')
                *q = dp[0];
    char *end;
    errno = 0;
    *out = strtod(buf, &end);
    if (end == buf || *end) {
        *why = "not a number";
        return -1;
    }
    return 0;
}

/* Field [a, b) of s trimmed; returns the end of the field. */
static size_t field(const char *s, size_t i, size_t len, char sep,
                    size_t *a, size_t *b)
{
    *a = i;
    while (i < len && s[i] != sep)
        i++;
    *b = i;
    while (*a < *b && is_blank(s[*a], sep))
        (*a)++;
    while (*b > *a && is_blank(s[*b - 1], sep))
        (*b)--;
    return i;
}

static char choose_sep(const char *s, size_t len)
{
    if (memchr(s, ';', len))
        return ';';
    if (memchr(s, ',', len))
        return ',';
    return memchr(s, '\t', len) ? '\t' : ',';
}

static int bad_field(struct tload *l, long line, int64_t col, const char *s,
                     size_t len, const char *why)
{
    char sh[40];
    filesrc_shown(s, len, sh, sizeof sh);
    return filesrc_fail(l->src, "line %ld, column %lld: '%s' is %s", line,
                        (long long)col, sh, why);
}

/* The values of one data line. */
static int data_line(struct tload *l, struct csv *c, const char *s,
                     size_t len, long line)
{
    int64_t cols = 0;
    size_t i = 0, a, b;
    for (;;) {
        i = field(s, i, len, c->sep, &a, &b);
        double v;
        const char *why;
        char where[64];
        snprintf(where, sizeof where, "line %ld, column %lld", line,
                 (long long)cols);
        if (parse_number(s + a, b - a, c->sep, &v, &why))
            return bad_field(l, line, cols, s + a, b - a, why);
        if (tables_check_value(l, v, where) || csv_push(l, c, v))
            return -1;
        if (++cols > PE_TABLE_D_MAX)
            return filesrc_fail(l->src, "line %ld: more than %d values",
                                line, PE_TABLE_D_MAX);
        if (i >= len)
            break;
        i++;                        /* the separator */
    }
    if (c->rows == 0)
        c->cols = cols;
    else if (cols != c->cols)
        return filesrc_fail(l->src, "line %ld: %lld values, the first row "
                            "has %lld", line, (long long)cols,
                            (long long)c->cols);
    c->rows++;
    return 0;
}

static const char *sep_name(char sep)
{
    return sep == ';' ? "semicolons" : sep == '\t' ? "tabs" : "commas";
}

/* The first non-blank line: a header when its first field is not a
 * number (skipped and said); otherwise it decides the separator. */
static int first_line(struct tload *l, struct csv *c, const char *s,
                      size_t len, long line)
{
    char sep = choose_sep(s, len), sh[40];
    size_t a, b;
    double v;
    const char *why;
    field(s, 0, len, sep, &a, &b);
    if (!c->header_done && parse_number(s + a, b - a, sep, &v, &why)
        && strcmp(why, "not a number") == 0) {
        c->header_done = 1;
        filesrc_shown(s, len, sh, sizeof sh);
        tables_note(l, "skipped the header line %ld ('%s')", line, sh);
        return 0;
    }
    c->sep = sep;
    if (sep != ',')
        tables_note(l, "values separated by %s", sep_name(sep));
    return data_line(l, c, s, len, line);
}

static int blank_line(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return 0;
    return 1;
}

static int parse_lines(struct tload *l, struct lines *r, struct csv *c)
{
    int got;
    while ((got = next_line(r)) > 0) {
        const char *s = r->line;
        size_t len = r->len;
        if (r->no == 1 && len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
            s += 3;
            len -= 3;
            tables_note(l, "skipped a UTF-8 byte-order mark");
        }
        if (s && memchr(s, 0, len))
            return filesrc_fail(l->src, "line %ld: a NUL byte (a binary "
                                "file?)", r->no);
        if (blank_line(s, len))
            continue;
        if ((c->sep ? data_line(l, c, s, len, r->no)
                    : first_line(l, c, s, len, r->no)))
            return -1;
    }
    return got;
}

int tables_csv(struct tload *l, struct pe_table *t)
{
    if (l->src->size > (uint64_t)PE_TABLE_CSV_MAX_BYTES)
        return filesrc_fail(l->src, "%llu bytes: a CSV table is at most "
                            "%lld MiB", (unsigned long long)l->src->size,
                            (long long)(PE_TABLE_CSV_MAX_BYTES >> 20));
    struct lines *r = calloc(1, sizeof *r);
    struct csv c = { 0 };
    if (!r)
        return filesrc_fail(l->src, "out of memory");
    r->l = l;
    int e = parse_lines(l, r, &c);
    free(r->line);
    free(r);
    int64_t first = 0;
    if (!e && c.rows == 0)
        e = filesrc_fail(l->src, "no rows: want one row per position");
    if (!e)
        e = tables_offset(l, c.rows, 0, &first)
            || tables_check_shape(l, c.rows - first, c.cols);
    if (e) {
        free(c.v);
        return -1;
    }
    if (first)
        memmove(c.v, c.v + first * c.cols,
                (size_t)((c.rows - first) * c.cols) * sizeof *c.v);
    t->n = c.rows - first;
    t->d = (int)c.cols;
    t->v = c.v;
    return 0;
}
