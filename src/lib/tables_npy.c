/* SPDX-License-Identifier: ISC */
/*
 * tables_npy.c - a table from a NumPy .npy file (numpy's format docs):
 *   "\x93NUMPY" major minor | header length (v1: u16, v2/v3: u32, LE) |
 *   a Python dict literal {'descr': '<f4', 'fortran_order': False,
 *   'shape': (n, d), } padded with spaces and '\n' | the data.
 * The data must be exactly n*d items; only the rows kept are read.
 */
#include "tables_formats.h"

#include <stdio.h>
#include <string.h>

#define NPY_HEADER_MAX 65536

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
        if (++h->ndim > 32)
            return -1;
        skip_ws(p);
        if (peek(p) == ',')
            p->i++;
        else if (peek(p) != ')')
            return -1;
    }
}

static int header_value(struct tload *l, struct scan *p, struct npy_header *h,
                        const char *key)
{
    int seen = strcmp(key, "descr") == 0 ? h->have_descr
               : strcmp(key, "fortran_order") == 0 ? h->have_order
               : strcmp(key, "shape") == 0 ? h->have_shape : 0;
    if (seen)                   /* which one would count is anyone's guess */
        return filesrc_fail(l->src, "header: '%s' given twice", key);
    if (strcmp(key, "descr") == 0) {
        if (scan_string(p, h->descr, sizeof h->descr))
            return filesrc_fail(l->src, "header: 'descr' is not a short "
                                "quoted string");
        h->have_descr = 1;
    } else if (strcmp(key, "fortran_order") == 0) {
        if (scan_word(p, "True"))
            h->fortran = 1;
        else if (scan_word(p, "False"))
            h->fortran = 0;
        else
            return filesrc_fail(l->src, "header: 'fortran_order' is not True "
                                "or False");
        h->have_order = 1;
    } else if (strcmp(key, "shape") == 0) {
        int r = scan_shape(p, h);
        if (r == -3)
            return filesrc_fail(l->src, "header: a dimension of 'shape' is "
                                "too large");
        if (r)
            return filesrc_fail(l->src, "header: 'shape' is not a tuple of "
                                "integers");
        h->have_shape = 1;
    } else {
        char s[40];
        filesrc_shown(key, strlen(key), s, sizeof s);
        return filesrc_fail(l->src, "header: unknown key '%s'", s);
    }
    return 0;
}

/* The header's Python dict literal. */
static int header_parse(struct tload *l, const char *s, size_t len,
                        struct npy_header *h)
{
    struct scan p = { s, 0, len };
    memset(h, 0, sizeof *h);
    skip_ws(&p);
    if (peek(&p) != '{')
        return filesrc_fail(l->src, "header: not a dictionary");
    p.i++;
    for (;;) {
        char key[32];
        skip_ws(&p);
        if (peek(&p) == '}')
            break;
        if (scan_string(&p, key, sizeof key))
            return filesrc_fail(l->src, "header: a key is not a quoted name");
        skip_ws(&p);
        if (peek(&p) != ':')
            return filesrc_fail(l->src, "header: ':' missing after '%s'", key);
        p.i++;
        skip_ws(&p);
        if (header_value(l, &p, h, key))
            return -1;
        skip_ws(&p);
        if (peek(&p) == ',')
            p.i++;
        else if (peek(&p) != '}')
            return filesrc_fail(l->src, "header: ',' or '}' missing after "
                                "'%s'", key);
    }
    p.i++;
    skip_ws(&p);
    if (p.i != p.len)
        return filesrc_fail(l->src, "header: text after the dictionary");
    if (!h->have_descr || !h->have_order || !h->have_shape)
        return filesrc_fail(l->src, "header: 'descr', 'fortran_order' and "
                            "'shape' are all required");
    return 0;
}

/* descr: '<' or '>' (or '=' for little-endian) then f2, f4 or f8. */
static int dtype_of(struct tload *l, const char *descr, enum filesrc_elem *e,
                    int *big)
{
    char s[40];
    filesrc_shown(descr, strlen(descr), s, sizeof s);
    if (strlen(descr) == 3 && strchr("<>=", descr[0]) && descr[1] == 'f'
        && strchr("248", descr[2])) {
        *big = descr[0] == '>';
        *e = descr[2] == '2' ? FS_F16 : descr[2] == '4' ? FS_F32 : FS_F64;
        return 0;
    }
    return filesrc_fail(l->src, "data type '%s': want a float: '<f2', '<f4', "
                        "'<f8', '>f2', '>f4' or '>f8'", s);
}

/* Where the header starts and how long it is, from the preamble. */
static int preamble(struct tload *l, size_t *hstart, size_t *hlen)
{
    unsigned char b[12];
    uint64_t size = l->src->size;
    if (size < 10 || filesrc_read(l->src, 0, b, size < 12 ? 10 : 12))
        return filesrc_fail(l->src, "truncated: shorter than a .npy "
                            "preamble");
    int major = b[6], minor = b[7];
    if (major == 1) {
        *hstart = 10;
        *hlen = (size_t)filesrc_le(b + 8, 2);
    } else if ((major == 2 || major == 3) && size >= 12) {
        *hstart = 12;
        *hlen = (size_t)filesrc_le(b + 8, 4);
    } else if (major == 2 || major == 3) {
        return filesrc_fail(l->src, "truncated: shorter than a .npy "
                            "preamble");
    } else {
        return filesrc_fail(l->src, ".npy version %d.%d: want 1.0, 2.0 or "
                            "3.0", major, minor);
    }
    if (*hlen > NPY_HEADER_MAX)
        return filesrc_fail(l->src, "header of %zu bytes: at most %d", *hlen,
                            NPY_HEADER_MAX);
    if (*hstart + *hlen > size)
        return filesrc_fail(l->src, "truncated: the header needs %zu bytes, "
                            "the file has %llu", *hstart + *hlen,
                            (unsigned long long)size);
    return 0;
}

static int check_dims(struct tload *l, const struct npy_header *h)
{
    if (h->ndim == 2)
        return 0;
    if (h->ndim == 1)
        return filesrc_fail(l->src, "a 1-D array of %lld values: a table "
                            "needs 2 dimensions (positions x d_model)",
                            (long long)h->shape[0]);
    return filesrc_fail(l->src, "a %d-D array: a table needs 2 dimensions "
                        "(positions x d_model)", h->ndim);
}

int tables_npy(struct tload *l, struct pe_table *t)
{
    size_t hstart = 0, hlen = 0;
    struct npy_header h;
    char text[NPY_HEADER_MAX];
    enum filesrc_elem e = FS_F64;
    int big = 0;
    if (preamble(l, &hstart, &hlen) || filesrc_read(l->src, hstart, text, hlen)
        || header_parse(l, text, hlen, &h)
        || dtype_of(l, h.descr, &e, &big) || check_dims(l, &h))
        return -1;
    int64_t n = h.shape[0], d = h.shape[1];
    /* the limits first (d bounded keeps the byte count below), unless
     * an offset will drop rows */
    if ((l->o.row_offset <= 0 || n < 1 || d < tables_d_min(l)
         || d > PE_TABLE_D_MAX) && tables_check_shape(l, n, d))
        return -1;
    uint64_t need = (uint64_t)n * (uint64_t)d * (uint64_t)filesrc_elem_size(e);
    uint64_t have = l->src->size - hstart - hlen;
    if (have < need)
        return filesrc_fail(l->src, "truncated: the data needs %llu bytes, "
                            "the file has %llu", (unsigned long long)need,
                            (unsigned long long)have);
    if (have > need)
        return filesrc_fail(l->src, "%llu bytes after the data (%llu "
                            "expected)", (unsigned long long)(have - need),
                            (unsigned long long)need);
    return tables_read_matrix(l, hstart + hlen, n, d, e, big, h.fortran, 0, t);
}
