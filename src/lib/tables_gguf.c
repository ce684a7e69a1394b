/* SPDX-License-Identifier: ISC */
/*
 * tables_gguf.c - a table from a GGUF file's tensor directory (gguf.h):
 * the chosen 2-D tensor, ne[0] = d (innermost) and ne[1] = positions, so
 * its rows are the table's rows as stored.
 */
#include "tables_formats.h"

#include <stdio.h>
#include <string.h>

#include "peviz/gguf.h"

static const char *tensor_name(const void *ctx, size_t i)
{
    return gguf_tensor_at(ctx, i)->name;
}

static int tensor_ndims(const void *ctx, size_t i)
{
    return (int)gguf_tensor_at(ctx, i)->n_dims;
}

static int elem_of(struct tload *l, const struct gguf_tensor *t,
                   enum filesrc_elem *e)
{
    char tn[24];
    switch (t->type) {
    case GGML_TYPE_F32: *e = FS_F32; return 0;
    case GGML_TYPE_F16: *e = FS_F16; return 0;
    case GGML_TYPE_BF16: *e = FS_BF16; return 0;
    case GGML_TYPE_F64: *e = FS_F64; return 0;
    default:
        return filesrc_fail(l->src, "tensor '%s' is %s: want F32, F16, BF16 "
                            "or F64", t->name,
                            gguf_type_name(t->type, tn, sizeof tn));
    }
}

static int load_from(struct tload *l, const struct gguf *g,
                     struct pe_table *t)
{
    struct tables_list ls = { gguf_tensor_count(g), tensor_name,
                              tensor_ndims, g };
    size_t i = 0;
    enum filesrc_elem e = FS_F32;
    if (tables_pick(l, &ls, &i))
        return -1;
    const struct gguf_tensor *gt = gguf_tensor_at(g, i);
    snprintf(l->info->tensor, sizeof l->info->tensor, "%s", gt->name);
    if (elem_of(l, gt, &e))
        return -1;
    if (gt->ne[0] < (uint64_t)tables_d_min(l) || gt->ne[0] > PE_TABLE_D_MAX)
        return tables_check_shape(l, (int64_t)gt->ne[1], (int64_t)gt->ne[0])
               ? -1 : filesrc_fail(l->src, "%llu columns: out of range",
                                   (unsigned long long)gt->ne[0]);
    if (gt->ne[1] > (uint64_t)INT64_MAX / 2)
        return tables_check_shape(l, INT64_MAX / 2, (int64_t)gt->ne[0]);
    return tables_read_matrix(l, gguf_data_offset(g) + gt->offset,
                              (int64_t)gt->ne[1], (int64_t)gt->ne[0], e, 0, 0,
                              tables_known_offset(gt->name), t);
}

int tables_gguf(struct tload *l, struct pe_table *t)
{
    struct gguf *g = NULL;
    int r = l->path ? gguf_open(l->path, &g, l->src->err, l->src->errlen)
                    : gguf_open_buffer(l->src->name, l->src->buf,
                                       (size_t)l->src->size, &g,
                                       l->src->err, l->src->errlen);
    if (r)
        return -1;
    r = load_from(l, g, t);
    gguf_close(g);
    return r;
}
