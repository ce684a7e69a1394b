/* SPDX-License-Identifier: ISC */
/*
 * tables_safetensors.c - a table from a safetensors checkpoint (the
 * format's README, validated as its reference reader does):
 *   u64 N (LE) | N bytes of JSON: { "__metadata__": {str: str},
 *   "NAME": {"dtype": "F32", "shape": [n, d], "data_offsets": [B, E]} }
 *   | the data, offsets relative to byte 8 + N, E one past the end.
 * Sorted by B, the tensors tile the data exactly: the first B is 0, each
 * B is the previous E, E - B = prod(shape) * size(dtype), and the last E
 * ends the file.  Only the chosen tensor's rows are read.
 *
 * A sharded checkpoint's model.safetensors.index.json ({"weight_map":
 * {NAME: SHARD}}) is followed to the shard that holds the tensor.
 */
#include "tables_formats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peviz/json.h"

#define ST_HEADER_MAX (UINT64_C(16) << 20)
#define ST_MAX_DIMS 8

struct st_tensor {
    const char *name;
    const char *dtype;
    int size;                       /* bytes per item, 0: unknown dtype */
    int ndims;
    int64_t shape[2];
    uint64_t begin, end;
};

struct st_file {
    json_value *doc;
    size_t count;
    struct st_tensor *t;
    uint64_t data;                  /* absolute offset of the data */
};

static int dtype_size(const char *dt)
{
    static const struct { const char *name; int size; } D[] = {
        { "BOOL", 1 }, { "U8", 1 }, { "I8", 1 }, { "F8_E5M2", 1 },
        { "F8_E4M3", 1 }, { "I16", 2 }, { "U16", 2 }, { "F16", 2 },
        { "BF16", 2 }, { "I32", 4 }, { "U32", 4 }, { "F32", 4 },
        { "F64", 8 }, { "I64", 8 }, { "U64", 8 },
    };
    for (size_t i = 0; i < sizeof D / sizeof D[0]; i++)
        if (strcmp(D[i].name, dt) == 0)
            return D[i].size;
    return 0;
}

/* The JSON header text, bounded and inside the file. */
static char *read_header(struct tload *l, uint64_t *len)
{
    unsigned char b[8];
    if (filesrc_read(l->src, 0, b, 8))
        return NULL;
    *len = filesrc_le(b, 8);
    if (*len > ST_HEADER_MAX) {
        filesrc_fail(l->src, "header of %llu bytes: at most %llu MiB",
                     (unsigned long long)*len,
                     (unsigned long long)(ST_HEADER_MAX >> 20));
        return NULL;
    }
    if (*len + 8 > l->src->size) {
        filesrc_fail(l->src, "truncated: the header needs %llu bytes, the "
                     "file has %llu", (unsigned long long)(*len + 8),
                     (unsigned long long)l->src->size);
        return NULL;
    }
    char *text = malloc(*len ? (size_t)*len : 1);
    if (!text) {
        filesrc_fail(l->src, "out of memory");
        return NULL;
    }
    if (filesrc_read(l->src, 8, text, (size_t)*len)) {
        free(text);
        return NULL;
    }
    return text;
}

static json_value *parse_json(struct tload *l, const char *text, size_t len,
                              const char *what)
{
    char jerr[160];
    struct json_limits lim = { (size_t)ST_HEADER_MAX, 16, 0 };
    json_value *doc = json_parse(text, len, &lim, jerr, sizeof jerr);
    if (!doc)
        filesrc_fail(l->src, "%s: %s", what, jerr);
    else if (doc->type != JSON_OBJECT) {
        filesrc_fail(l->src, "%s: not a JSON object", what);
        json_free(doc);
        doc = NULL;
    }
    return doc;
}

/* prod(shape) * size without overflow (size 0: the product alone). */
static int shape_of(struct tload *l, const char *name, const json_value *sh,
                    struct st_tensor *t, uint64_t *bytes)
{
    uint64_t n = 1;
    if (!sh || sh->type != JSON_ARRAY || json_count(sh) > ST_MAX_DIMS)
        return filesrc_fail(l->src, "tensor '%s': 'shape' is not a list of "
                            "at most %d sizes", name, ST_MAX_DIMS);
    t->ndims = (int)json_count(sh);
    for (size_t i = 0; i < json_count(sh); i++) {
        int64_t v;
        if (json_int64(json_at(sh, i), &v) || v < 0)
            return filesrc_fail(l->src, "tensor '%s': a size in 'shape' is "
                                "not a whole number >= 0", name);
        if (v && n > (UINT64_C(1) << 62) / (uint64_t)v)
            return filesrc_fail(l->src, "tensor '%s': 'shape' too large",
                                name);
        n *= (uint64_t)v;
        if (i < 2)
            t->shape[i] = v;
    }
    *bytes = n * (uint64_t)(t->size ? t->size : 1);
    return 0;
}

static int tensor_of(struct tload *l, const json_value *m, struct st_tensor *t)
{
    const char *name = m->key;
    const json_value *off = json_get(m, "data_offsets");
    int64_t b, e;
    uint64_t bytes = 0;
    memset(t, 0, sizeof *t);
    t->name = name;
    if (m->type != JSON_OBJECT)
        return filesrc_fail(l->src, "tensor '%s': not an object", name);
    t->dtype = json_string(json_get(m, "dtype"));
    if (!t->dtype)
        return filesrc_fail(l->src, "tensor '%s': no 'dtype' string", name);
    t->size = dtype_size(t->dtype);
    if (shape_of(l, name, json_get(m, "shape"), t, &bytes))
        return -1;
    if (json_count(off) != 2 || off->type != JSON_ARRAY
        || json_int64(json_at(off, 0), &b) || json_int64(json_at(off, 1), &e)
        || b < 0 || e < b)
        return filesrc_fail(l->src, "tensor '%s': 'data_offsets' is not "
                            "[BEGIN, END] with 0 <= BEGIN <= END", name);
    t->begin = (uint64_t)b;
    t->end = (uint64_t)e;
    if (t->size && t->end - t->begin != bytes)
        return filesrc_fail(l->src, "tensor '%s': %llu bytes of data, its "
                            "shape and %s need %llu", name,
                            (unsigned long long)(t->end - t->begin), t->dtype,
                            (unsigned long long)bytes);
    return 0;
}

static int metadata_ok(struct tload *l, const json_value *m)
{
    if (m->type != JSON_OBJECT)
        return filesrc_fail(l->src, "'__metadata__' is not an object");
    for (size_t i = 0; i < json_count(m); i++)
        if (json_at(m, i)->type != JSON_STRING)
            return filesrc_fail(l->src, "'__metadata__': a value is not a "
                                "string");
    return 0;
}

static int cmp_begin(const void *a, const void *b)
{
    const struct st_tensor *x = a, *y = b;
    return x->begin < y->begin ? -1 : x->begin > y->begin;
}

/* Sorted by BEGIN the tensors tile the data, which ends the file. */
static int check_tiling(struct tload *l, struct st_file *f)
{
    struct st_tensor *by = malloc((f->count + 1) * sizeof *by);
    if (!by)
        return filesrc_fail(l->src, "out of memory");
    memcpy(by, f->t, f->count * sizeof *by);
    qsort(by, f->count, sizeof *by, cmp_begin);
    uint64_t at = 0;
    int r = 0;
    for (size_t i = 0; i < f->count && !r; i++) {
        if (by[i].begin != at)
            r = filesrc_fail(l->src, "tensor '%s' begins at %llu, where %s "
                             "%llu: %s (offsets must tile the data)",
                             by[i].name, (unsigned long long)by[i].begin,
                             i ? "the previous one ends at"
                               : "the data starts at",
                             (unsigned long long)at,
                             by[i].begin < at ? "an overlap" : "a gap");
        at = by[i].end;
    }
    free(by);
    if (!r && at != l->src->size - f->data)
        r = filesrc_fail(l->src, "%s: the tensors cover %llu bytes of data, "
                         "the file has %llu",
                         at > l->src->size - f->data ? "truncated"
                                                     : "bytes after the data",
                         (unsigned long long)at,
                         (unsigned long long)(l->src->size - f->data));
    return r;
}

static int parse_file(struct tload *l, struct st_file *f)
{
    uint64_t len;
    char *text = read_header(l, &len);
    if (!text)
        return -1;
    f->data = 8 + len;
    f->doc = parse_json(l, text, (size_t)len, "header");
    free(text);
    if (!f->doc)
        return -1;
    f->t = malloc((json_count(f->doc) + 1) * sizeof *f->t);
    if (!f->t)
        return filesrc_fail(l->src, "out of memory");
    for (size_t i = 0; i < json_count(f->doc); i++) {
        const json_value *m = json_at(f->doc, i);
        if (strcmp(m->key, "__metadata__") == 0) {
            if (metadata_ok(l, m))
                return -1;
            continue;
        }
        if (tensor_of(l, m, &f->t[f->count]))
            return -1;
        f->count++;
    }
    return check_tiling(l, f);
}

static const char *st_name(const void *ctx, size_t i)
{
    return ((const struct st_file *)ctx)->t[i].name;
}

static int st_ndims(const void *ctx, size_t i)
{
    return ((const struct st_file *)ctx)->t[i].ndims;
}

static int elem_of(struct tload *l, const struct st_tensor *t,
                   enum filesrc_elem *e)
{
    static const char *const NAMES[] = { "F16", "BF16", "F32", "F64" };
    for (int i = 0; i < 4; i++)
        if (strcmp(t->dtype, NAMES[i]) == 0) {
            *e = (enum filesrc_elem)i;
            return 0;
        }
    char sh[40];
    filesrc_shown(t->dtype, strlen(t->dtype), sh, sizeof sh);
    return filesrc_fail(l->src, "tensor '%s' is %s: want F32, F16, BF16 or "
                        "F64", t->name, sh);
}

static int load_tensor(struct tload *l, const struct st_file *f,
                       struct pe_table *t)
{
    struct tables_list ls = { f->count, st_name, st_ndims, f };
    size_t i = 0;
    enum filesrc_elem e = FS_F32;
    if (tables_pick(l, &ls, &i))
        return -1;
    const struct st_tensor *st = &f->t[i];
    snprintf(l->info->tensor, sizeof l->info->tensor, "%s", st->name);
    if (elem_of(l, st, &e))
        return -1;
    return tables_read_matrix(l, f->data + st->begin, st->shape[0],
                              st->shape[1], e, 0, 0,
                              tables_known_offset(st->name), t);
}

int tables_safetensors(struct tload *l, struct pe_table *t)
{
    struct st_file f = { 0 };
    int r = parse_file(l, &f);
    if (!r)
        r = load_tensor(l, &f, t);
    free(f.t);
    json_free(f.doc);
    return r;
}

/* ---- sharded checkpoints ------------------------------------------------- */

static const char *map_name(const void *ctx, size_t i)
{
    return json_at(ctx, i)->key;
}

/* The index names tensors only: their dimensions are checked in the shard. */
static int map_ndims(const void *ctx, size_t i)
{
    (void)ctx;
    (void)i;
    return 2;
}

/* dir of the index + "/" + shard, the shard a plain file name. */
static int shard_path(struct tload *l, const char *shard, char *out,
                      size_t len)
{
    char sh[40];
    filesrc_shown(shard, strlen(shard), sh, sizeof sh);
    if (!*shard || strchr(shard, '/') || strchr(shard, '\\')
        || strcmp(shard, ".") == 0 || strcmp(shard, "..") == 0)
        return filesrc_fail(l->src, "weight_map names shard '%s': want a file "
                            "name in the index's directory", sh);
    const char *slash = strrchr(l->path, '/');
    int dir = slash ? (int)(slash - l->path) : 0;
    int w = slash ? snprintf(out, len, "%.*s/%s", dir, l->path, shard)
                  : snprintf(out, len, "%s", shard);
    if (w < 0 || (size_t)w >= len)
        return filesrc_fail(l->src, "shard path too long");
    return 0;
}

static int load_shard(struct tload *l, const char *tensor, const char *path,
                      struct pe_table *t)
{
    struct filesrc s;
    struct tload sl = *l;
    if (filesrc_open(&s, path, l->src->err, l->src->errlen))
        return -1;
    sl.src = &s;
    sl.path = path;
    sl.o.tensor = tensor;
    snprintf(l->info->file, sizeof l->info->file, "%s", path);
    int r = tables_safetensors(&sl, t);
    filesrc_close(&s);
    return r;
}

static int follow_index(struct tload *l, const json_value *doc,
                        struct pe_table *t)
{
    const json_value *map = json_get(doc, "weight_map");
    if (!map || map->type != JSON_OBJECT)
        return filesrc_fail(l->src, "a JSON file without a \"weight_map\" "
                            "object: not a safetensors index");
    struct tables_list ls = { json_count(map), map_name, map_ndims, map };
    size_t i = 0;
    char path[1024];
    if (tables_pick(l, &ls, &i))
        return -1;
    const json_value *m = json_at(map, i);
    const char *shard = json_string(m);
    if (!shard)
        return filesrc_fail(l->src, "weight_map: '%s' does not name a file",
                            m->key);
    if (!l->path)
        return filesrc_fail(l->src, "a safetensors index: load it from a "
                            "file to follow its shards");
    if (shard_path(l, shard, path, sizeof path))
        return -1;
    tables_note(l, "'%s' is in %s", m->key, path);
    return load_shard(l, m->key, path, t);
}

int tables_st_index(struct tload *l, struct pe_table *t)
{
    if (l->src->size > ST_HEADER_MAX)
        return filesrc_fail(l->src, "%llu bytes: a safetensors index is at "
                            "most %llu MiB", (unsigned long long)l->src->size,
                            (unsigned long long)(ST_HEADER_MAX >> 20));
    size_t len = (size_t)l->src->size;
    char *text = malloc(len ? len : 1);
    if (!text)
        return filesrc_fail(l->src, "out of memory");
    json_value *doc = NULL;
    if (!filesrc_read(l->src, 0, text, len))
        doc = parse_json(l, text, len, "index");
    free(text);
    if (!doc)
        return -1;
    int r = follow_index(l, doc, t);
    json_free(doc);
    return r;
}
