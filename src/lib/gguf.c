/* SPDX-License-Identifier: ISC */
/*
 * gguf.c - GGUF header, metadata and tensor directory (peviz/gguf.h).
 *
 * The header is read front to back through a small block buffer; numeric
 * arrays are skipped by length, string arrays by walking their lengths.
 * Nothing is allocated from a declared count: the key and tensor tables
 * grow as entries are actually read, within the GGUF_MAX_* bounds.
 */
#include "peviz/gguf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filesrc.h"

#define BLOCK 65536           /* header read-ahead */
#define KEPT_TOTAL (UINT64_C(16) << 20)    /* bytes of kept keys/strings */

struct gguf {
    struct filesrc src;
    uint32_t version;
    uint32_t alignment;
    uint64_t data_offset;
    size_t nkv, kv_cap;
    struct gguf_kv *kv;
    size_t ntensors, t_cap;
    struct gguf_tensor *t;
    uint64_t kept;                  /* bytes kept for keys and strings */
};

/* A sequential reader over the source. */
struct rd {
    struct gguf *g;
    uint64_t pos;                   /* next byte to hand out */
    uint64_t boff;                  /* file offset of buf[0] */
    size_t blen;
    unsigned char buf[BLOCK];
};

static int fail(const struct gguf *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail(const struct gguf *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    filesrc_vfail(&g->src, fmt, ap);
    va_end(ap);
    return -1;
}

static int rd_bytes(struct rd *r, void *dst, size_t n)
{
    unsigned char *p = dst;
    if (r->pos + n > GGUF_MAX_HEADER)
        return fail(r->g, "header longer than %llu MiB",
                    (unsigned long long)(GGUF_MAX_HEADER >> 20));
    while (n) {
        if (r->pos >= r->boff && r->pos < r->boff + r->blen) {
            size_t at = (size_t)(r->pos - r->boff), k = r->blen - at;
            if (k > n)
                k = n;
            memcpy(p, r->buf + at, k);
            p += k;
            n -= k;
            r->pos += k;
            continue;
        }
        if (r->pos >= r->g->src.size)
            return fail(r->g, "truncated: the header goes past the end of "
                        "the file (%llu bytes)",
                        (unsigned long long)r->g->src.size);
        uint64_t left = r->g->src.size - r->pos;
        size_t want = left < BLOCK ? (size_t)left : BLOCK;
        if (filesrc_read(&r->g->src, r->pos, r->buf, want))
            return -1;
        r->boff = r->pos;
        r->blen = want;
    }
    return 0;
}

static int rd_skip(struct rd *r, uint64_t n)
{
    if (n > r->g->src.size || r->pos + n > r->g->src.size)
        return fail(r->g, "truncated: the header goes past the end of the "
                    "file (%llu bytes)", (unsigned long long)r->g->src.size);
    if (r->pos + n > GGUF_MAX_HEADER)
        return fail(r->g, "header longer than %llu MiB",
                    (unsigned long long)(GGUF_MAX_HEADER >> 20));
    r->pos += n;
    return 0;
}

static int rd_u(struct rd *r, int nbytes, uint64_t *out)
{
    unsigned char b[8];
    if (rd_bytes(r, b, (size_t)nbytes))
        return -1;
    *out = filesrc_le(b, nbytes);
    return 0;
}

static int rd_u32(struct rd *r, uint32_t *out)
{
    uint64_t v;
    if (rd_u(r, 4, &v))
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Item size of a scalar type, 0 for STRING/ARRAY, -1 if unknown. */
static int type_size(uint32_t t)
{
    static const signed char SIZE[13] = { 1, 1, 2, 2, 4, 4, 4, 1, 0, 0,
                                          8, 8, 8 };
    return t < 13 ? SIZE[t] : -1;
}

static const char *const TYPE_NAMES[13] = {
    "uint8", "int8", "uint16", "int16", "uint32", "int32", "float32",
    "bool", "string", "array", "uint64", "int64", "float64"
};

/* Keep n bytes (+ NUL) of header text, within the kept-bytes budget. */
static char *keep(struct gguf *g, struct rd *r, uint64_t n)
{
    if (g->kept + n + 1 > KEPT_TOTAL) {
        fail(g, "header: more than %llu MiB of keys and strings",
             (unsigned long long)(KEPT_TOTAL >> 20));
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        fail(g, "out of memory");
        return NULL;
    }
    if (rd_bytes(r, s, (size_t)n)) {
        free(s);
        return NULL;
    }
    s[n] = 0;
    g->kept += n + 1;
    return s;
}

/* NUL, C0 controls and DEL: names and keys are shown in messages. */
static int has_control(const char *s, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return 1;
    return 0;
}

/* Decode a scalar of type t from b into kv. */
static void scalar_from(struct gguf_kv *kv, uint32_t t, const unsigned char *b)
{
    uint64_t u = filesrc_le(b, type_size(t));
    int bits = 8 * type_size(t);
    kv->u = u;
    switch (t) {
    case GGUF_INT8: case GGUF_INT16: case GGUF_INT32: case GGUF_INT64:
        kv->i = bits == 64 ? (int64_t)u
                : (int64_t)(u ^ (UINT64_C(1) << (bits - 1)))
                  - (int64_t)(UINT64_C(1) << (bits - 1));
        kv->f = (double)kv->i;
        break;
    case GGUF_FLOAT32:
        kv->f = filesrc_f32((uint32_t)u);
        break;
    case GGUF_FLOAT64:
        kv->f = filesrc_f64(u);
        break;
    default:
        kv->i = (int64_t)u;
        kv->f = (double)u;
        break;
    }
}

static int read_string_value(struct gguf *g, struct rd *r, struct gguf_kv *kv)
{
    uint64_t len;
    if (rd_u(r, 8, &len))
        return -1;
    if (len > GGUF_MAX_STRING)
        return fail(g, "key '%s': a string of %llu bytes (at most %u)",
                    kv->key, (unsigned long long)len, GGUF_MAX_STRING);
    kv->str_len = len;
    kv->str_offset = r->pos;
    if (len > GGUF_KEPT_STRING)
        return rd_skip(r, len);
    char *s = keep(g, r, len);
    if (!s)
        return -1;
    kv->str = s;
    return 0;
}

static int read_array(struct gguf *g, struct rd *r, struct gguf_kv *kv)
{
    uint32_t at;
    uint64_t count;
    if (rd_u32(r, &at) || rd_u(r, 8, &count))
        return -1;
    if (at == GGUF_ARRAY)
        return fail(g, "key '%s': an array of arrays (not supported)",
                    kv->key);
    if (type_size(at) < 0)
        return fail(g, "key '%s': array item type %u (want 0..12)", kv->key,
                    at);
    if (count > GGUF_MAX_ARRAY)
        return fail(g, "key '%s': an array of %llu items (at most %llu)",
                    kv->key, (unsigned long long)count,
                    (unsigned long long)GGUF_MAX_ARRAY);
    kv->arr_type = (enum gguf_type)at;
    kv->arr_count = count;
    kv->arr_offset = r->pos;
    if (at != GGUF_STRING)
        return rd_skip(r, count * (uint64_t)type_size(at));
    for (uint64_t k = 0; k < count; k++) {
        uint64_t len;
        if (rd_u(r, 8, &len))
            return -1;
        if (len > GGUF_MAX_STRING)
            return fail(g, "key '%s': item %llu is a string of %llu bytes "
                        "(at most %u)", kv->key, (unsigned long long)k,
                        (unsigned long long)len, GGUF_MAX_STRING);
        if (rd_skip(r, len))
            return -1;
    }
    return 0;
}

/* Item n of an array of sz-byte items, grown as needed and zeroed; NULL
 * after the failure is said. */
static void *new_item(struct gguf *g, void **arr, size_t *cap, size_t n,
                      size_t sz)
{
    if (n >= *cap) {
        size_t nc = *cap ? 2 * *cap : 16;
        void *p = realloc(*arr, nc * sz);
        if (!p) {
            fail(g, "out of memory");
            return NULL;
        }
        *arr = p;
        *cap = nc;
    }
    unsigned char *item = (unsigned char *)*arr + n * sz;
    memset(item, 0, sz);
    return item;
}

/* The length of the name that starts item n of what ("tensor"): 1..max
 * bytes.  0 with *len, or -1 after the failure is said. */
static int name_length(struct gguf *g, struct rd *r, const char *what,
                       size_t n, uint64_t max, uint64_t *len)
{
    if (rd_u(r, 8, len))
        return -1;
    if (*len == 0 || *len > max)
        return fail(g, "%s %zu: a name of %llu bytes (want 1..%llu)", what,
                    n, (unsigned long long)*len, (unsigned long long)max);
    return 0;
}

static int read_kv(struct gguf *g, struct rd *r)
{
    uint64_t klen;
    uint32_t t;
    struct gguf_kv *kv = new_item(g, (void **)&g->kv, &g->kv_cap, g->nkv,
                                  sizeof *g->kv);
    if (!kv || name_length(g, r, "metadata key", g->nkv, GGUF_MAX_KEY, &klen))
        return -1;
    char *key = keep(g, r, klen);
    if (!key)
        return -1;
    kv->key = key;
    g->nkv++;                   /* owned from here: freed by gguf_close */
    if (has_control(key, klen))
        return fail(g, "metadata key %zu: a control character in it",
                    g->nkv - 1);
    const char *shown = key;
    if (rd_u32(r, &t))
        return -1;
    if (type_size(t) < 0)
        return fail(g, "key '%s': value type %u (want 0..12)", shown, t);
    kv->type = (enum gguf_type)t;
    if (t == GGUF_STRING)
        return read_string_value(g, r, kv);
    if (t == GGUF_ARRAY)
        return read_array(g, r, kv);
    unsigned char b[8];
    if (rd_bytes(r, b, (size_t)type_size(t)))
        return -1;
    scalar_from(kv, t, b);
    if (t == GGUF_BOOL && kv->u > 1)
        return fail(g, "key '%s': a bool of value %llu (want 0 or 1)", shown,
                    (unsigned long long)kv->u);
    return 0;
}

/* ---- tensor types ------------------------------------------------------ */

struct ggml_type_info {
    uint32_t type;
    const char *name;
    uint32_t block;         /* values per block */
    uint32_t bytes;         /* bytes per block */
};

static const struct ggml_type_info GGML_TYPES[] = {
    { 0, "F32", 1, 4 },      { 1, "F16", 1, 2 },     { 2, "Q4_0", 32, 18 },
    { 3, "Q4_1", 32, 20 },   { 6, "Q5_0", 32, 22 },  { 7, "Q5_1", 32, 24 },
    { 8, "Q8_0", 32, 34 },   { 9, "Q8_1", 32, 36 },  { 10, "Q2_K", 256, 84 },
    { 11, "Q3_K", 256, 110 }, { 12, "Q4_K", 256, 144 },
    { 13, "Q5_K", 256, 176 }, { 14, "Q6_K", 256, 210 },
    { 15, "Q8_K", 256, 292 }, { 24, "I8", 1, 1 },    { 25, "I16", 1, 2 },
    { 26, "I32", 1, 4 },     { 27, "I64", 1, 8 },    { 28, "F64", 1, 8 },
    { 30, "BF16", 1, 2 },
};

static const struct ggml_type_info *type_info(uint32_t type)
{
    for (size_t i = 0; i < sizeof GGML_TYPES / sizeof GGML_TYPES[0]; i++)
        if (GGML_TYPES[i].type == type)
            return &GGML_TYPES[i];
    return NULL;
}

const char *gguf_type_name(uint32_t ggml_type, char *buf, size_t len)
{
    const struct ggml_type_info *ti = type_info(ggml_type);
    if (ti)
        return ti->name;
    snprintf(buf, len, "type %u", ggml_type);
    return buf;
}

/* ne[] checked and multiplied without overflow into t->nelements. */
static int tensor_shape(struct gguf *g, struct rd *r, struct gguf_tensor *t)
{
    if (rd_u32(r, &t->n_dims))
        return -1;
    if (t->n_dims < 1 || t->n_dims > GGUF_MAX_DIMS)
        return fail(g, "tensor '%s': %u dimensions (want 1..%d)", t->name,
                    t->n_dims, GGUF_MAX_DIMS);
    uint64_t n = 1;
    for (uint32_t k = 0; k < GGUF_MAX_DIMS; k++) {
        t->ne[k] = 1;
        if (k < t->n_dims && rd_u(r, 8, &t->ne[k]))
            return -1;
        if (t->ne[k] > (UINT64_C(1) << 62)
            || (t->ne[k] && n > (UINT64_C(1) << 62) / t->ne[k]))
            return fail(g, "tensor '%s': dimensions too large", t->name);
        n *= t->ne[k];
    }
    t->nelements = n;
    return 0;
}

static int read_tensor_info(struct gguf *g, struct rd *r)
{
    uint64_t len;
    struct gguf_tensor *t = new_item(g, (void **)&g->t, &g->t_cap,
                                     g->ntensors, sizeof *g->t);
    if (!t || name_length(g, r, "tensor", g->ntensors, GGUF_MAX_NAME, &len))
        return -1;
    if (rd_bytes(r, t->name, (size_t)len))
        return -1;
    if (has_control(t->name, len))
        return fail(g, "tensor %zu: a control character in its name",
                    g->ntensors);
    if (tensor_shape(g, r, t) || rd_u32(r, &t->type) || rd_u(r, 8, &t->offset))
        return -1;
    const struct ggml_type_info *ti = type_info(t->type);
    if (ti) {
        if (t->ne[0] % ti->block)
            return fail(g, "tensor '%s': %llu values per row, not a multiple "
                        "of the %s block of %u", t->name,
                        (unsigned long long)t->ne[0], ti->name, ti->block);
        t->nbytes = t->nelements / ti->block * ti->bytes;
    }
    g->ntensors++;
    return 0;
}

/* ---- duplicates, layout ------------------------------------------------ */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The first name that appears twice among n, or NULL (sorted copy). */
static int find_duplicate(struct gguf *g, const char **names, size_t n,
                          const char *what)
{
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 1; i < n; i++)
        if (strcmp(names[i - 1], names[i]) == 0)
            return fail(g, "%s '%s' appears twice", what, names[i]);
    return 0;
}

static int check_duplicates(struct gguf *g)
{
    size_t n = g->nkv > g->ntensors ? g->nkv : g->ntensors;
    const char **names = malloc((n ? n : 1) * sizeof *names);
    if (!names)
        return fail(g, "out of memory");
    for (size_t i = 0; i < g->nkv; i++)
        names[i] = g->kv[i].key;
    int r = find_duplicate(g, names, g->nkv, "metadata key");
    for (size_t i = 0; !r && i < g->ntensors; i++)
        names[i] = g->t[i].name;
    if (!r)
        r = find_duplicate(g, names, g->ntensors, "tensor");
    free(names);
    return r;
}

static int set_alignment(struct gguf *g)
{
    const struct gguf_kv *kv = gguf_find_kv(g, "general.alignment");
    g->alignment = GGUF_DEFAULT_ALIGNMENT;
    if (!kv)
        return 0;
    if (kv->type != GGUF_UINT32)
        return fail(g, "general.alignment is a %s (want uint32)",
                    kv->type <= GGUF_FLOAT64 ? TYPE_NAMES[kv->type] : "?");
    if (kv->u == 0 || (kv->u & (kv->u - 1)))
        return fail(g, "general.alignment %llu is not a power of two",
                    (unsigned long long)kv->u);
    g->alignment = (uint32_t)kv->u;
    return 0;
}

static int cmp_offset(const void *a, const void *b)
{
    const struct gguf_tensor *x = *(const struct gguf_tensor *const *)a;
    const struct gguf_tensor *y = *(const struct gguf_tensor *const *)b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Sorted by offset, each tensor of known size ends before the next. */
static int check_overlap(struct gguf *g)
{
    const struct gguf_tensor **by = malloc((g->ntensors + 1) * sizeof *by);
    if (!by)
        return fail(g, "out of memory");
    for (size_t i = 0; i < g->ntensors; i++)
        by[i] = &g->t[i];
    qsort(by, g->ntensors, sizeof *by, cmp_offset);
    int r = 0;
    for (size_t i = 1; i < g->ntensors && !r; i++)
        if (by[i - 1]->offset + by[i - 1]->nbytes > by[i]->offset)
            r = fail(g, "tensors '%s' and '%s' overlap", by[i - 1]->name,
                     by[i]->name);
    free(by);
    return r;
}

/* Every tensor aligned and inside the data; sizes known are checked to
 * follow each other as writers lay them out (no overlap). */
static int check_layout(struct gguf *g)
{
    uint64_t data = g->src.size - g->data_offset;
    for (size_t i = 0; i < g->ntensors; i++) {
        const struct gguf_tensor *t = &g->t[i];
        if (t->offset % g->alignment)
            return fail(g, "tensor '%s': offset %llu is not a multiple of the "
                        "alignment %u", t->name,
                        (unsigned long long)t->offset, g->alignment);
        if (t->offset > data || t->nbytes > data - t->offset)
            return fail(g, "truncated: tensor '%s' needs bytes %llu..%llu of "
                        "the data, which has %llu", t->name,
                        (unsigned long long)t->offset,
                        (unsigned long long)(t->offset + t->nbytes),
                        (unsigned long long)data);
    }
    return check_overlap(g);
}

/* ---- open -------------------------------------------------------------- */

static int parse_preamble(struct gguf *g, struct rd *r, uint64_t *nt,
                          uint64_t *nkv)
{
    unsigned char magic[4];
    if (g->src.size < 24)
        return fail(g, "truncated: %llu bytes, shorter than a GGUF header",
                    (unsigned long long)g->src.size);
    if (rd_bytes(r, magic, 4) || memcmp(magic, "GGUF", 4) != 0)
        return fail(g, "not a GGUF file (no \"GGUF\" magic)");
    if (rd_u32(r, &g->version))
        return -1;
    /* The format's files are little-endian; big-endian ones (written for
     * big-endian machines) are told by their byte-swapped version.
     * Version 1 had 32-bit lengths and counts and is obsolete. */
    if (g->version >= 0x01000000u && (g->version & 0xFFFFFFu) == 0)
        return fail(g, "a big-endian GGUF file (version %u byte-swapped): "
                    "not supported; peviz reads little-endian GGUF only",
                    g->version >> 24);
    if (g->version == 1)
        return fail(g, "GGUF version 1: want 2 or 3 (version 1, with 32-bit "
                    "lengths and counts, is obsolete: re-save the file)");
    if (g->version != 2 && g->version != 3)
        return fail(g, "GGUF version %u: want 2 or 3", g->version);
    if (rd_u(r, 8, nt) || rd_u(r, 8, nkv))
        return -1;
    if (*nt > GGUF_MAX_TENSORS)
        return fail(g, "%llu tensors declared (at most %d)",
                    (unsigned long long)*nt, GGUF_MAX_TENSORS);
    if (*nkv > GGUF_MAX_KV)
        return fail(g, "%llu metadata keys declared (at most %d)",
                    (unsigned long long)*nkv, GGUF_MAX_KV);
    return 0;
}

static int parse(struct gguf *g)
{
    struct rd *r = calloc(1, sizeof *r);
    uint64_t nt = 0, nkv = 0;
    if (!r)
        return fail(g, "out of memory");
    r->g = g;
    int e = parse_preamble(g, r, &nt, &nkv);
    for (uint64_t i = 0; !e && i < nkv; i++)
        e = read_kv(g, r);
    if (!e)
        e = set_alignment(g);
    for (uint64_t i = 0; !e && i < nt; i++)
        e = read_tensor_info(g, r);
    uint64_t end = r->pos;
    free(r);
    if (e || check_duplicates(g))
        return -1;
    g->data_offset = end + (g->alignment - end % g->alignment) % g->alignment;
    if (g->ntensors && g->data_offset > g->src.size)
        return fail(g, "truncated: the data would start at byte %llu, the "
                    "file has %llu", (unsigned long long)g->data_offset,
                    (unsigned long long)g->src.size);
    if (g->data_offset > g->src.size)
        g->data_offset = g->src.size;
    return check_layout(g);
}

static int finish_open(struct gguf *g, struct gguf **out)
{
    if (parse(g)) {
        gguf_close(g);
        return -1;
    }
    *out = g;
    return 0;
}

int gguf_open(const char *path, struct gguf **out, char *err, size_t errlen)
{
    *out = NULL;
    struct gguf *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    if (filesrc_open(&g->src, path, err, errlen)) {
        free(g);
        return -1;
    }
    return finish_open(g, out);
}

int gguf_open_buffer(const char *name, const unsigned char *buf, size_t len,
                     struct gguf **out, char *err, size_t errlen)
{
    *out = NULL;
    struct gguf *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    filesrc_buffer(&g->src, name, buf, len, err, errlen);
    return finish_open(g, out);
}

void gguf_close(struct gguf *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->nkv; i++) {
        free((char *)g->kv[i].key);
        free((char *)g->kv[i].str);
    }
    free(g->kv);
    free(g->t);
    filesrc_close(&g->src);
    free(g);
}

/* ---- queries ----------------------------------------------------------- */

uint32_t gguf_version(const struct gguf *g) { return g->version; }
uint32_t gguf_alignment(const struct gguf *g) { return g->alignment; }
uint64_t gguf_data_offset(const struct gguf *g) { return g->data_offset; }
size_t gguf_kv_count(const struct gguf *g) { return g->nkv; }
size_t gguf_tensor_count(const struct gguf *g) { return g->ntensors; }

const struct gguf_kv *gguf_kv_at(const struct gguf *g, size_t i)
{
    return i < g->nkv ? &g->kv[i] : NULL;
}

const struct gguf_kv *gguf_find_kv(const struct gguf *g, const char *key)
{
    for (size_t i = 0; i < g->nkv; i++)
        if (strcmp(g->kv[i].key, key) == 0)
            return &g->kv[i];
    return NULL;
}

const struct gguf_tensor *gguf_tensor_at(const struct gguf *g, size_t i)
{
    return i < g->ntensors ? &g->t[i] : NULL;
}

const struct gguf_tensor *gguf_find_tensor(const struct gguf *g,
                                           const char *name)
{
    for (size_t i = 0; i < g->ntensors; i++)
        if (strcmp(g->t[i].name, name) == 0)
            return &g->t[i];
    return NULL;
}

int gguf_kv_number(const struct gguf_kv *kv, double *out)
{
    if (!kv || kv->type == GGUF_STRING || kv->type == GGUF_ARRAY)
        return -1;
    *out = kv->f;
    return 0;
}

static struct filesrc src_with(const struct gguf *g, char *err, size_t errlen)
{
    struct filesrc s = g->src;
    s.err = err;
    s.errlen = errlen;
    return s;
}

int gguf_kv_array_number(const struct gguf *g, const struct gguf_kv *kv,
                         uint64_t idx, double *out, char *err, size_t errlen)
{
    struct filesrc s = src_with(g, err, errlen);
    if (!kv || kv->type != GGUF_ARRAY || kv->arr_type == GGUF_STRING)
        return filesrc_fail(&s, "key '%s' is not an array of numbers",
                            kv ? kv->key : "?");
    if (idx >= kv->arr_count)
        return filesrc_fail(&s, "key '%s': item %llu of %llu", kv->key,
                            (unsigned long long)idx,
                            (unsigned long long)kv->arr_count);
    int size = type_size(kv->arr_type);
    unsigned char b[8];
    if (filesrc_read(&s, kv->arr_offset + idx * (uint64_t)size, b,
                     (size_t)size))
        return -1;
    struct gguf_kv v = { 0 };
    scalar_from(&v, kv->arr_type, b);
    *out = v.f;
    return 0;
}

/* ---- tensor data ------------------------------------------------------- */

static enum filesrc_elem elem_of(uint32_t type)
{
    return type == GGML_TYPE_F32 ? FS_F32 : type == GGML_TYPE_F16 ? FS_F16
           : type == GGML_TYPE_BF16 ? FS_BF16 : FS_F64;
}

static int not_finite(const struct filesrc *s, const struct gguf_tensor *t,
                      uint64_t k)
{
    if (t->n_dims == 2)
        return filesrc_fail(s, "tensor '%s': row %llu, column %llu is not a "
                            "finite number", t->name,
                            (unsigned long long)(k / t->ne[0]),
                            (unsigned long long)(k % t->ne[0]));
    return filesrc_fail(s, "tensor '%s': value %llu is not a finite number",
                        t->name, (unsigned long long)k);
}

int gguf_read_tensor(const struct gguf *g, const struct gguf_tensor *t,
                     double *out, char *err, size_t errlen)
{
    struct filesrc s = src_with(g, err, errlen);
    char tn[24];
    if (t->type != GGML_TYPE_F32 && t->type != GGML_TYPE_F16
        && t->type != GGML_TYPE_BF16 && t->type != GGML_TYPE_F64)
        return filesrc_fail(&s, "tensor '%s' is %s: want F32, F16, BF16 or "
                            "F64", t->name, gguf_type_name(t->type, tn,
                                                            sizeof tn));
    if (filesrc_read_elems(&s, g->data_offset + t->offset, t->nelements,
                           elem_of(t->type), 0, out, 1))
        return -1;
    for (uint64_t k = 0; k < t->nelements; k++)
        if (!isfinite(out[k]))
            return not_finite(&s, t, k);
    return 0;
}
