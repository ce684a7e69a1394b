/*
 * peload.c - position-embedding tables from .npy or CSV (see peload.h).
 *
 * Every read is bounds-checked against the buffer length; sizes are
 * checked against the limits before anything is allocated, so a hostile
 * file costs at most its own size in memory and one pass of work.
 */
#include "peload.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"

#define NPY_MAGIC "\x93NUMPY"
#define NPY_HEADER_MAX 65536
#define FIELD_MAX 64
#define SHOWN_MAX 16

struct ctx {
    const char *name;
    char *err;
    size_t errlen;
};

static int fail(const struct ctx *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail(const struct ctx *x, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (x->err && x->errlen)
        snprintf(x->err, x->errlen, "%s: %s", x->name, msg);
    return -1;
}

/* Up to SHOWN_MAX bytes of file text, control bytes and non-ASCII as '?'. */
static void shown(const char *s, size_t len, char *out, size_t outlen)
{
    size_t j = 0;
    for (size_t i = 0; i < len && j + 4 < outlen && i < SHOWN_MAX; i++) {
        unsigned char ch = (unsigned char)s[i];
        out[j++] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
    }
    if (len > SHOWN_MAX && j + 4 < outlen) {
        memcpy(out + j, "...", 3);
        j += 3;
    }
    out[j] = 0;
}

/* The shape rules shared by both formats. */
static int check_shape(const struct ctx *x, int64_t n, int64_t d)
{
    if (n < 1)
        return fail(x, "no rows: want one row per position");
    if (d < PARAM_D_MIN || d > PARAM_D_MAX || d % 2)
        return fail(x, "%lld columns: d_model must be even, %d..%d",
                    (long long)d, PARAM_D_MIN, PARAM_D_MAX);
    if (n > PARAM_N_MAX)
        return fail(x, "%lld rows: at most %ld positions", (long long)n,
                    (long)PARAM_N_MAX);
    if ((double)n * (double)d > (double)PELOAD_MAX_VALUES)
        return fail(x, "%lld x %lld = %.0f values: over the limit of %lld",
                    (long long)n, (long long)d, (double)n * (double)d,
                    (long long)PELOAD_MAX_VALUES);
    return 0;
}

void peload_free(struct pe_table *t)
{
    if (!t)
        return;
    free(t->v);
    t->v = NULL;
    t->n = 0;
    t->d = 0;
}

/* ---- .npy -------------------------------------------------------------- */

struct npy_header {
    int have_descr, have_order, have_shape;
    char descr[16];
    int fortran;
    int ndim;
    int64_t shape[3];
};

struct scan {
    const char *s;
    size_t i, len;
};

static void skip_ws(struct scan *p)
{
    while (p->i < p->len && (p->s[p->i] == ' ' || p->s[p->i] == '\t'
                             || p->s[p->i] == '\n' || p->s[p->i] == '\r'))
        p->i++;
}

static int peek(const struct scan *p)
{
    return p->i < p->len ? (unsigned char)p->s[p->i] : -1;
}

/* A quoted Python string ('...' or "...", no escapes) into out. */
static int scan_string(struct scan *p, char *out, size_t outlen)
{
    int q = peek(p);
    if (q != '\'' && q != '"')
        return -1;
    size_t start = ++p->i;
    while (p->i < p->len && p->s[p->i] != q && p->s[p->i] != '\\')
        p->i++;
    if (p->i >= p->len || p->s[p->i] != q)
        return -1;
    size_t n = p->i - start;
    p->i++;
    if (n >= outlen)
        return -2;
    memcpy(out, p->s + start, n);
    out[n] = 0;
    return 0;
}

static int scan_word(struct scan *p, const char *w)
{
    size_t n = strlen(w);
    if (p->len - p->i < n || memcmp(p->s + p->i, w, n) != 0)
        return 0;
    p->i += n;
    return 1;
}

/* (n, d) with optional trailing comma; at most 3 dims recorded. */
static int scan_shape(struct scan *p, struct npy_header *h)
{
    if (peek(p) != '(')
        return -1;
    p->i++;
    h->ndim = 0;
    for (;;) {
        skip_ws(p);
        if (peek(p) == ')') {
            p->i++;
            return 0;
        }
        if (peek(p) < '0' || peek(p) > '9')
            return -1;
        int64_t v = 0;
        while (peek(p) >= '0' && peek(p) <= '9') {
            if (v > (INT64_C(1) << 40))
                return -3;
            v = v * 10 + (peek(p) - '0');
            p->i++;
        }
        if (h->ndim < 3)
            h->shape[h->ndim] = v;
        h->ndim++;
        skip_ws(p);
        if (peek(p) == ',')
            p->i++;
        else if (peek(p) != ')')
            return -1;
    }
}

static int header_value(const struct ctx *x, struct scan *p,
                        struct npy_header *h, const char *key)
{
    if (strcmp(key, "descr") == 0) {
        if (scan_string(p, h->descr, sizeof h->descr))
            return fail(x, "header: 'descr' is not a short quoted string");
        h->have_descr = 1;
    } else if (strcmp(key, "fortran_order") == 0) {
        if (scan_word(p, "True"))
            h->fortran = 1;
        else if (scan_word(p, "False"))
            h->fortran = 0;
        else
            return fail(x, "header: 'fortran_order' is not True or False");
        h->have_order = 1;
    } else if (strcmp(key, "shape") == 0) {
        int r = scan_shape(p, h);
        if (r == -3)
            return fail(x, "header: a dimension of 'shape' is too large");
        if (r)
            return fail(x, "header: 'shape' is not a tuple of integers");
        h->have_shape = 1;
    } else {
        char s[32];
        shown(key, strlen(key), s, sizeof s);
        return fail(x, "header: unknown key '%s'", s);
    }
    return 0;
}

/* The header's Python dict literal. */
static int header_parse(const struct ctx *x, const char *s, size_t len,
                        struct npy_header *h)
{
    struct scan p = { s, 0, len };
    memset(h, 0, sizeof *h);
    skip_ws(&p);
    if (peek(&p) != '{')
        return fail(x, "header: not a dictionary");
    p.i++;
    for (;;) {
        char key[32];
        skip_ws(&p);
        if (peek(&p) == '}')
            break;
        if (scan_string(&p, key, sizeof key))
            return fail(x, "header: a key is not a quoted name");
        skip_ws(&p);
        if (peek(&p) != ':')
            return fail(x, "header: ':' missing after '%s'", key);
        p.i++;
        skip_ws(&p);
        if (header_value(x, &p, h, key))
            return -1;
        skip_ws(&p);
        if (peek(&p) == ',')
            p.i++;
        else if (peek(&p) != '}')
            return fail(x, "header: ',' or '}' missing after '%s'", key);
    }
    p.i++;
    skip_ws(&p);
    if (p.i != p.len)
        return fail(x, "header: text after the dictionary");
    if (!h->have_descr || !h->have_order || !h->have_shape)
        return fail(x, "header: 'descr', 'fortran_order' and 'shape' are "
                    "all required");
    return 0;
}

/* Element size for the dtype, or -1 with a message. */
static int dtype_size(const struct ctx *x, const char *descr)
{
    if (strcmp(descr, "<f4") == 0)
        return 4;
    if (strcmp(descr, "<f8") == 0)
        return 8;
    char s[32];
    shown(descr, strlen(descr), s, sizeof s);
    if (descr[0] == '>' && (strcmp(descr + 1, "f4") == 0
                            || strcmp(descr + 1, "f8") == 0))
        return fail(x, "big-endian data ('%s'): save it little-endian", s);
    return fail(x, "data type '%s': want float32 ('<f4') or float64 ('<f8')",
                s);
}

static double le_value(const unsigned char *b, int size)
{
    if (size == 4) {
        uint32_t u = (uint32_t)b[0] | (uint32_t)b[1] << 8
                     | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    uint64_t u = 0;
    for (int i = 7; i >= 0; i--)
        u = u << 8 | b[i];
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* Where the header starts and how long it is, from the preamble. */
static int npy_preamble(const struct ctx *x, const unsigned char *buf,
                        size_t len, size_t *hstart, size_t *hlen)
{
    if (len < 10)
        return fail(x, "truncated: shorter than a .npy preamble");
    int major = buf[6], minor = buf[7];
    if (major == 1) {
        *hstart = 10;
        *hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
    } else if (major == 2 || major == 3) {
        if (len < 12)
            return fail(x, "truncated: shorter than a .npy preamble");
        *hstart = 12;
        *hlen = (size_t)buf[8] | (size_t)buf[9] << 8
                | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
    } else {
        return fail(x, ".npy version %d.%d: want 1.0, 2.0 or 3.0", major,
                    minor);
    }
    if (*hlen > NPY_HEADER_MAX)
        return fail(x, "header of %zu bytes: at most %d", *hlen,
                    NPY_HEADER_MAX);
    if (*hstart + *hlen > len)
        return fail(x, "truncated: the header needs %zu bytes, the file has "
                    "%zu", *hstart + *hlen, len);
    return 0;
}

static int npy_load(const struct ctx *x, const unsigned char *buf, size_t len,
                    struct pe_table *t)
{
    size_t hstart = 0, hlen = 0;
    struct npy_header h;
    if (npy_preamble(x, buf, len, &hstart, &hlen)
        || header_parse(x, (const char *)buf + hstart, hlen, &h))
        return -1;
    int size = dtype_size(x, h.descr);
    if (size < 0)
        return -1;
    if (h.fortran)
        return fail(x, "Fortran-order array: save it in C order");
    if (h.ndim != 2)
        return fail(x, "%d-dimensional array: want 2 (positions x d_model)",
                    h.ndim);
    if (check_shape(x, h.shape[0], h.shape[1]))
        return -1;
    size_t nval = (size_t)h.shape[0] * (size_t)h.shape[1];
    size_t need = nval * (size_t)size, have = len - hstart - hlen;
    if (have < need)
        return fail(x, "truncated: the data needs %zu bytes, the file has %zu",
                    need, have);
    if (have > need)
        return fail(x, "%zu bytes after the data (%zu expected)", have - need,
                    need);
    double *v = malloc(nval * sizeof *v);
    if (!v)
        return fail(x, "out of memory");
    const unsigned char *data = buf + hstart + hlen;
    for (size_t i = 0; i < nval; i++) {
        v[i] = le_value(data + i * (size_t)size, size);
        if (!isfinite(v[i])) {
            free(v);
            return fail(x, "row %zu, column %zu is not a finite number",
                        i / (size_t)h.shape[1], i % (size_t)h.shape[1]);
        }
    }
    t->n = h.shape[0];
    t->d = (int)h.shape[1];
    t->v = v;
    return 0;
}

/* ---- CSV ----------------------------------------------------------------- */

struct csv {
    double *v;
    size_t n, cap;
    int64_t rows, cols;
};

static int csv_push(const struct ctx *x, struct csv *c, double val)
{
    if ((int64_t)c->n >= PELOAD_MAX_VALUES)
        return fail(x, "more than %lld values: over the limit",
                    (long long)PELOAD_MAX_VALUES);
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 1024;
        double *nv = realloc(c->v, cap * sizeof *nv);
        if (!nv)
            return fail(x, "out of memory");
        c->v = nv;
        c->cap = cap;
    }
    c->v[c->n++] = val;
    return 0;
}

/* One number; '.' is the decimal point whatever LC_NUMERIC says. */
static int csv_number(const struct ctx *x, const char *s, size_t len,
                      long line, double *out)
{
    char buf[FIELD_MAX + 1], sh[32];
    shown(s, len, sh, sizeof sh);
    if (len == 0)
        return fail(x, "line %ld: an empty value", line);
    if (len > FIELD_MAX)
        return fail(x, "line %ld: value '%s' is too long", line, sh);
    memcpy(buf, s, len);
    buf[len] = 0;
    if (memchr(s, 0, len))
        return fail(x, "line %ld: a NUL byte in a value", line);
    const char *dp = localeconv()->decimal_point;
    if (dp && dp[0] && dp[0] != '.' && !dp[1])
        for (char *q = buf; *q; q++)
            if (*q == '.')
                *q = dp[0];
    char *end;
    errno = 0;
    double v = strtod(buf, &end);
    if (end == buf || *end)
        return fail(x, "line %ld: '%s' is not a number", line, sh);
    if (!isfinite(v))
        return fail(x, "line %ld: '%s' is not a finite number", line, sh);
    *out = v;
    return 0;
}

/* Values of one line [s, s+len) separated by commas. */
static int csv_line(const struct ctx *x, struct csv *c, const char *s,
                    size_t len, long line)
{
    int64_t cols = 0;
    size_t i = 0;
    for (;;) {
        size_t a = i;
        while (i < len && s[i] != ',')
            i++;
        size_t b = i;
        while (a < b && (s[a] == ' ' || s[a] == '\t'))
            a++;
        while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'))
            b--;
        double v = 0.0;
        if (csv_number(x, s + a, b - a, line, &v) || csv_push(x, c, v))
            return -1;
        cols++;
        if (i >= len)
            break;
        i++;                    /* the comma */
    }
    if (c->rows == 0)
        c->cols = cols;
    else if (cols != c->cols)
        return fail(x, "line %ld: %lld values, the first row has %lld", line,
                    (long long)cols, (long long)c->cols);
    c->rows++;
    return 0;
}

static int blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return 0;
    return 1;
}

static int csv_load(const struct ctx *x, const unsigned char *buf, size_t len,
                    struct pe_table *t)
{
    struct csv c = { 0 };
    const char *s = (const char *)buf;
    long line = 0;
    size_t i = 0;
    while (i < len) {
        size_t a = i;
        while (i < len && s[i] != '\n')
            i++;
        size_t b = i;
        if (b > a && s[b - 1] == '\r')
            b--;
        line++;
        i++;
        if (blank(s + a, b - a))
            continue;
        if (csv_line(x, &c, s + a, b - a, line)) {
            free(c.v);
            return -1;
        }
    }
    if (check_shape(x, c.rows, c.cols)) {
        free(c.v);
        return -1;
    }
    t->n = c.rows;
    t->d = (int)c.cols;
    t->v = c.v;
    return 0;
}

/* ---- entry points -------------------------------------------------------- */

int peload_buffer(const char *name, const unsigned char *buf, size_t len,
                  struct pe_table *t, char *err, size_t errlen)
{
    struct ctx x = { name, err, errlen };
    memset(t, 0, sizeof *t);
    if (len == 0)
        return fail(&x, "empty file");
    if (len >= 6 && memcmp(buf, NPY_MAGIC, 6) == 0)
        return npy_load(&x, buf, len, t);
    return csv_load(&x, buf, len, t);
}

int peload_file(const char *path, struct pe_table *t, char *err,
                size_t errlen)
{
    struct ctx x = { path, err, errlen };
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(&x, "cannot open: %s", strerror(errno));
    size_t cap = 0, len = 0;
    unsigned char *buf = NULL;
    int r = 0;
    for (;;) {
        if (len == cap) {
            if ((int64_t)cap > PELOAD_MAX_BYTES) {
                r = fail(&x, "larger than the limit of %lld MiB",
                         (long long)(PELOAD_MAX_BYTES >> 20));
                break;
            }
            size_t ncap = cap ? 2 * cap : 65536;
            if ((int64_t)ncap > PELOAD_MAX_BYTES)
                ncap = (size_t)PELOAD_MAX_BYTES + 1;    /* one byte over */
            unsigned char *nb = realloc(buf, ncap + 1);
            if (!nb) {
                r = fail(&x, "out of memory");
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f))
                r = fail(&x, "cannot read: %s", strerror(errno));
            break;
        }
    }
    fclose(f);
    if (r == 0 && (int64_t)len > PELOAD_MAX_BYTES)
        r = fail(&x, "larger than the limit of %lld MiB",
                 (long long)(PELOAD_MAX_BYTES >> 20));
    if (r == 0)
        r = peload_buffer(path, buf, len, t, err, errlen);
    free(buf);
    return r;
}
