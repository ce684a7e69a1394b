/* SPDX-License-Identifier: ISC */
/*
 * tables.c - position tables from files (peviz/tables.h): the format
 * from the first bytes, then its reader (tables_formats.h).
 */
#include "tables_formats.h"
#include "peviz/tables.h"

#include <stdio.h>
#include <string.h>

/* A regular file's descriptor (filesrc.h does the opening). */
int tables_open_regular(const char *path, char *why, size_t len)
{
    return filesrc_open_regular(path, why, len);
}

/* ---- entry points -------------------------------------------------------- */

/* A safetensors file: a u64 header length, so bytes 6 and 7 are zero
 * (no text file has them), then the JSON. */
static int looks_safetensors(const unsigned char *m, size_t k)
{
    return k == 8 && m[6] == 0 && m[7] == 0;
}

static int dispatch(struct tload *l, struct pe_table *t)
{
    unsigned char m[8] = { 0 };
    size_t k = l->src->size < 8 ? (size_t)l->src->size : 8;
    if (l->src->size == 0)
        return filesrc_fail(l->src, "empty file");
    if (filesrc_read(l->src, 0, m, k))
        return -1;
    if (k >= 6 && memcmp(m, "\x93NUMPY", 6) == 0)
        return l->info->format = "npy", tables_npy(l, t);
    if (k >= 4 && memcmp(m, "GGUF", 4) == 0)
        return l->info->format = "gguf", tables_gguf(l, t);
    if (looks_safetensors(m, k) && l->src->size > 8)
        return l->info->format = "safetensors", tables_safetensors(l, t);
    if (m[0] == '{')
        return l->info->format = "safetensors", tables_st_index(l, t);
    return l->info->format = "csv", tables_csv(l, t);
}

static int load(struct tload *l, struct pe_table *t)
{
    memset(t, 0, sizeof *t);
    memset(l->info, 0, sizeof *l->info);
    snprintf(l->info->file, sizeof l->info->file, "%s", l->src->name);
    int r = dispatch(l, t);
    if (r)
        pe_table_free(t);
    return r;
}

static void init_load(struct tload *l, struct filesrc *s,
                      const struct pe_table_opts *o,
                      struct pe_table_info *info, const char *path)
{
    l->src = s;
    if (o)
        l->o = *o;
    else
        pe_table_opts_init(&l->o);
    l->info = info;
    l->path = path;
}

/* Load from an open file source, which is closed after. */
static int load_file(struct filesrc *s, const struct pe_table_opts *o,
                     struct pe_table *t, struct pe_table_info *info,
                     const char *path)
{
    struct pe_table_info local;
    struct tload l;
    init_load(&l, s, o, info ? info : &local, path);
    s->cancel = l.o.cancel;
    int r = load(&l, t);
    filesrc_close(s);
    return r;
}

int tables_load(const char *path, const struct pe_table_opts *o,
                struct pe_table *t, struct pe_table_info *info, char *err,
                size_t errlen)
{
    struct filesrc s;
    memset(t, 0, sizeof *t);
    if (filesrc_open(&s, path, err, errlen))
        return -1;
    return load_file(&s, o, t, info, path);
}

int tables_load_fd(int fd, const char *name, const struct pe_table_opts *o,
                   struct pe_table *t, struct pe_table_info *info,
                   char *err, size_t errlen)
{
    struct filesrc s;
    memset(t, 0, sizeof *t);
    if (filesrc_adopt(&s, fd, name, err, errlen))
        return -1;
    return load_file(&s, o, t, info, NULL);
}

int tables_load_buffer(const char *name, const unsigned char *buf,
                       size_t len, const struct pe_table_opts *o,
                       struct pe_table *t, struct pe_table_info *info,
                       char *err, size_t errlen)
{
    struct pe_table_info local;
    struct filesrc s;
    struct tload l;
    filesrc_buffer(&s, name, buf, len, err, errlen);
    init_load(&l, &s, o, info ? info : &local, NULL);
    return load(&l, t);
}
