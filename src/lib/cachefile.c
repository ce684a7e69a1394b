/* SPDX-License-Identifier: ISC */
/*
 * cachefile.c - read a dumped cos/sin cache (peviz/cachecheck.h): a .npy
 * of shape (2, n, W), or safetensors "cos" and "sin".  The headers and
 * the first CACHE_HEAD_ROWS positions are read at load; the file stays
 * open and cache_file_rows reads any other rows by offset.
 */
#include "peviz/cachecheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filesrc.h"
#include "peviz/json.h"

#define CF_HEADER_MAX 100000000

struct cache_src {
    struct filesrc s;           /* its err is set at each read */
    uint64_t at_cos, at_sin;    /* the first value of each tensor */
    enum filesrc_elem e;
    int big;                    /* big-endian values */
    char name[];                /* a copy of the name, for messages */
};

static int cf_alloc(struct cache_file *f, int64_t n, int64_t w,
                    const struct filesrc *s)
{
    if (n < 1 || w < 2 || w % 2 || w > CACHE_WIDTH_MAX)
        return filesrc_fail(s, "a cache of %lld positions x %lld; want "
                            "positions >= 1 and an even width 2..%d",
                            (long long)n, (long long)w, CACHE_WIDTH_MAX);
    f->n = n;
    f->head = n > CACHE_HEAD_ROWS ? CACHE_HEAD_ROWS : (int)n;
    f->w = (int)w;
    f->cos = calloc((size_t)f->head * (size_t)w, sizeof *f->cos);
    f->sin = calloc((size_t)f->head * (size_t)w, sizeof *f->sin);
    if (!f->cos || !f->sin)
        return filesrc_fail(s, "out of memory");
    return 0;
}

static enum freq_dtype cf_dtype(enum filesrc_elem e)
{
    return e == FS_F64 ? FD_F64 : e == FS_F32 ? FD_F32
         : e == FS_F16 ? FD_F16 : FD_BF16;
}

/* Rows from .. from+count-1 of both tensors, from source s. */
static int cf_rows(const struct filesrc *s, const struct cache_src *c,
                   int w, int64_t from, int count, double *cos, double *sin)
{
    uint64_t row = (uint64_t)w * (uint64_t)filesrc_elem_size(c->e);
    uint64_t k = (uint64_t)count * (uint64_t)w;
    return filesrc_read_elems(s, c->at_cos + (uint64_t)from * row, k, c->e,
                              c->big, cos, 1) ||
           filesrc_read_elems(s, c->at_sin + (uint64_t)from * row, k, c->e,
                              c->big, sin, 1) ? -1 : 0;
}

/* Where the values are (into f->src), and the head read from there. */
static int cf_place(const struct filesrc *s, struct cache_file *f,
                    uint64_t at_cos, uint64_t at_sin, enum filesrc_elem e,
                    int big)
{
    size_t len = strlen(s->name) + 1;
    f->src = malloc(sizeof *f->src + len);
    if (!f->src)
        return filesrc_fail(s, "out of memory");
    memcpy(f->src->name, s->name, len);
    f->src->s = *s;
    f->src->s.name = f->src->name;
    f->src->s.fd = -1;          /* the descriptor is handed over in cf_load */
    f->src->at_cos = at_cos;
    f->src->at_sin = at_sin;
    f->src->e = e;
    f->src->big = big;
    return cf_rows(s, f->src, f->w, 0, f->head, f->cos, f->sin);
}

int cache_file_rows(const struct cache_file *f, int64_t from, int count,
                    double *cos, double *sin, char *err, size_t errlen)
{
    struct filesrc s = f->src->s;
    s.err = err;
    s.errlen = errlen;
    if (from < 0 || count < 0 || from > f->n - count)
        return filesrc_fail(&s, "rows %lld..%lld past the %lld positions",
                            (long long)from, (long long)from + count - 1,
                            (long long)f->n);
    return cf_rows(&s, f->src, f->w, from, count, cos, sin);
}

/* ---- .npy --------------------------------------------------------------- */

static int npy_elem(const char *h, enum filesrc_elem *e, int *big)
{
    const char *p = strstr(h, "'descr'");
    if (!p || !(p = strchr(p + 7, '\'')))
        return -1;
    p++;
    *big = p[0] == '>';
    if (!strncmp(p + 1, "f8'", 3))
        *e = FS_F64;
    else if (!strncmp(p + 1, "f4'", 3))
        *e = FS_F32;
    else if (!strncmp(p + 1, "f2'", 3))
        *e = FS_F16;
    else
        return -1;
    return strchr("<>=|", p[0]) ? 0 : -1;
}

static int npy_dims(const char *h, int64_t *shape)
{
    const char *p = strstr(h, "'shape'");
    int nd = 0;
    if (!p || !(p = strchr(p, '(')))
        return -1;
    for (p++; *p && *p != ')';) {
        char *end;
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == ')')
            break;
        long long v = strtoll(p, &end, 10);
        if (end == p || nd >= 3)
            return -1;
        shape[nd++] = v;
        p = end;
    }
    return *p == ')' ? nd : -1;
}

static int load_npy(const struct filesrc *s, struct cache_file *f)
{
    unsigned char h8[12];
    char hdr[4097];
    int64_t sh[3];
    enum filesrc_elem e;
    int big;
    if (filesrc_read(s, 0, h8, 12))
        return -1;
    uint64_t hl = h8[6] == 1 ? filesrc_le(h8 + 8, 2) : filesrc_le(h8 + 8, 4);
    uint64_t at = h8[6] == 1 ? 10 : 12;
    if (h8[6] < 1 || h8[6] > 3 || hl >= sizeof hdr ||
        filesrc_read(s, at, hdr, (size_t)hl))
        return filesrc_fail(s, "a .npy header that cannot be read");
    hdr[hl] = 0;
    if (npy_elem(hdr, &e, &big))
        return filesrc_fail(s, "a .npy dtype other than f2, f4 or f8");
    if (!strstr(hdr, "'fortran_order': False"))
        return filesrc_fail(s, "a .npy in Fortran order; want C order");
    if (npy_dims(hdr, sh) != 3 || sh[0] != 2)
        return filesrc_fail(s, "a .npy cache of another shape; want (2, n, W): "
                            "cos, then sin");
    if (cf_alloc(f, sh[1], sh[2], s))
        return -1;
    f->dtype = cf_dtype(e);
    snprintf(f->what, sizeof f->what, "npy (2, %lld, %lld) %s",
             (long long)sh[1], (long long)sh[2], freq_dtype_name(f->dtype));
    uint64_t half = (uint64_t)sh[1] * (uint64_t)sh[2] *
                    (uint64_t)filesrc_elem_size(e);
    if (at + hl + 2 * half > s->size)
        return filesrc_fail(s, "shorter than its header says");
    return cf_place(s, f, at + hl, at + hl + half, e, big);
}

/* ---- safetensors ---------------------------------------------------------- */

struct st_t { enum filesrc_elem e; int64_t n, w; uint64_t off; };

static int st_elem(const char *name, enum filesrc_elem *e)
{
    static const char *const N[] = { "F16", "BF16", "F32", "F64" };
    for (int k = 0; name && k < 4; k++)
        if (!strcmp(name, N[k])) {
            *e = (enum filesrc_elem)k;
            return 0;
        }
    return -1;
}

static int st_one(const struct filesrc *s, const json_value *root,
                  const char *name, uint64_t base, struct st_t *t)
{
    const json_value *x = json_get(root, name), *sh, *of;
    double v[3], b, e;
    if (!x || x->type != JSON_OBJECT)
        return filesrc_fail(s, "no tensor '%.100s' (name the two with "
                            "--tensor COS,SIN)", name);
    sh = json_get(x, "shape");
    of = json_get(x, "data_offsets");
    size_t nd = sh ? json_count(sh) : 0;
    if (st_elem(json_string(json_get(x, "dtype")), &t->e))
        return filesrc_fail(s, "tensor '%.100s': dtype not F16, BF16, F32 "
                            "or F64", name);
    if (nd < 2 || nd > 3 || !of || json_count(of) != 2 ||
        json_number(json_at(of, 0), &b) || json_number(json_at(of, 1), &e))
        return filesrc_fail(s, "tensor '%.100s': want shape (n, W) or "
                            "(1, n, W)", name);
    for (size_t k = 0; k < nd; k++)
        if (json_number(json_at(sh, k), &v[k]) || !(v[k] >= 0 && v[k] <= 1e9))
            return filesrc_fail(s, "tensor '%.100s': a bad shape", name);
    if (nd == 3 && v[0] != 1)
        return filesrc_fail(s, "tensor '%.100s': want shape (n, W) or "
                            "(1, n, W)", name);
    t->n = (int64_t)v[nd - 2];
    t->w = (int64_t)v[nd - 1];
    if (!(b >= 0) || e - b != v[nd - 2] * v[nd - 1] * filesrc_elem_size(t->e))
        return filesrc_fail(s, "tensor '%.100s': data_offsets do not fit "
                            "its shape", name);
    if (!(e <= (double)(s->size - base)))
        return filesrc_fail(s, "tensor '%.100s': its data runs past the end "
                            "of the file", name);
    t->off = base + (uint64_t)b;
    return 0;
}

static int st_names(const char *tensor, char *c, char *sn, size_t len)
{
    const char *comma = tensor ? strchr(tensor, ',') : NULL;
    if (!tensor) {
        snprintf(c, len, "cos");
        snprintf(sn, len, "sin");
        return 0;
    }
    if (!comma)
        return -1;
    snprintf(c, len, "%.*s", (int)(comma - tensor), tensor);
    snprintf(sn, len, "%s", comma + 1);
    return 0;
}

static int st_load_root(const struct filesrc *s, const json_value *root,
                        const char *tensor, uint64_t base,
                        struct cache_file *f)
{
    char cn[200], sn[200];
    struct st_t tc, ts;
    if (st_names(tensor, cn, sn, sizeof cn))
        return filesrc_fail(s, "--tensor: want the two names COS,SIN");
    if (st_one(s, root, cn, base, &tc) || st_one(s, root, sn, base, &ts))
        return -1;
    if (tc.n != ts.n || tc.w != ts.w || tc.e != ts.e)
        return filesrc_fail(s, "cos and sin differ in shape or dtype");
    if (cf_alloc(f, tc.n, tc.w, s))
        return -1;
    f->dtype = cf_dtype(tc.e);
    snprintf(f->what, sizeof f->what, "safetensors %.40s/%.40s (%lld, %lld) %s",
             cn, sn, (long long)tc.n, (long long)tc.w, freq_dtype_name(f->dtype));
    return cf_place(s, f, tc.off, ts.off, tc.e, 0);
}

static int load_st(const struct filesrc *s, const char *tensor,
                   struct cache_file *f)
{
    unsigned char b8[8];
    char jerr[160];
    if (filesrc_read(s, 0, b8, 8))
        return -1;
    uint64_t hl = filesrc_le(b8, 8);
    if (hl > CF_HEADER_MAX || hl > s->size - 8)
        return filesrc_fail(s, "a safetensors header length past the file");
    char *h = malloc((size_t)hl + 1);
    if (!h || filesrc_read(s, 8, h, (size_t)hl)) {
        free(h);
        return h ? -1 : filesrc_fail(s, "out of memory");
    }
    struct json_limits lim = { .max_bytes = (size_t)hl + 1, .max_depth = 16 };
    json_value *root = json_parse(h, (size_t)hl, &lim, jerr, sizeof jerr);
    free(h);
    int r = root && root->type == JSON_OBJECT
            ? st_load_root(s, root, tensor, 8 + hl, f)
            : filesrc_fail(s, "a safetensors header that is not a JSON object");
    json_free(root);
    return r;
}

void cache_file_free(struct cache_file *f)
{
    if (f->src)
        filesrc_close(&f->src->s);
    free(f->src);
    free(f->cos);
    free(f->sin);
    f->src = NULL;
    f->cos = f->sin = NULL;
}

/* Read source s (closed here, or its descriptor handed to f->src). */
static int cf_load(struct filesrc *s, const char *tensor, struct cache_file *f)
{
    unsigned char m[9] = { 0 };
    int r = -1;
    if (s->size >= 9 && filesrc_read(s, 0, m, 9) == 0) {
        if (!memcmp(m, "\x93NUMPY", 6))
            r = tensor ? filesrc_fail(s, "--tensor: goes with a safetensors "
                                      "file") : load_npy(s, f);
        else if (m[8] == '{')
            r = load_st(s, tensor, f);
        else
            filesrc_fail(s, "not a .npy or safetensors cache");
    } else
        filesrc_fail(s, "not a .npy or safetensors cache");
    if (r == 0) {
        f->src->s.fd = s->fd;
        s->fd = -1;
    }
    filesrc_close(s);
    if (r)
        cache_file_free(f);
    return r;
}

int cache_file_load_buffer(const char *name, const unsigned char *buf,
                           size_t len, const char *tensor,
                           struct cache_file *f, char *err, size_t errlen)
{
    struct filesrc s;
    memset(f, 0, sizeof *f);
    filesrc_buffer(&s, name, buf, len, err, errlen);
    return cf_load(&s, tensor, f);
}

int cache_file_load(const char *path, const char *tensor,
                    struct cache_file *f, char *err, size_t errlen)
{
    struct filesrc s;
    memset(f, 0, sizeof *f);
    if (filesrc_open(&s, path, err, errlen))
        return -1;
    return cf_load(&s, tensor, f);
}
