/* SPDX-License-Identifier: ISC */
/*
 * tables_io.c - what the format readers share (tables_io.h): notes, the
 * shape and value rules, reading a stored matrix by offset and choosing
 * a tensor by name.
 */
#include "tables_io.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIST_SHOWN 6

void tables_note(struct tload *l, const char *fmt, ...)
{
    char *note = l->info->note;
    size_t len = strlen(note), cap = sizeof l->info->note;
    if (len && len + 2 < cap) {
        memcpy(note + len, "; ", 3);
        len += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note + len, cap - len, fmt, ap);
    va_end(ap);
}

int tables_d_min(const struct tload *l)
{
    return l->o.any_columns ? 1 : PE_TABLE_D_MIN;
}

int tables_check_shape(struct tload *l, int64_t n, int64_t d)
{
    if (n < 1)
        return filesrc_fail(l->src, "no rows: want one row per position");
    if (l->o.any_columns && (d < 1 || d > PE_TABLE_D_MAX))
        return filesrc_fail(l->src, "%lld columns: want 1..%d",
                            (long long)d, PE_TABLE_D_MAX);
    if (!l->o.any_columns && (d < PE_TABLE_D_MIN || d > PE_TABLE_D_MAX || d % 2))
        return filesrc_fail(l->src, "%lld columns: d_model must be even, "
                            "%d..%d", (long long)d, PE_TABLE_D_MIN,
                            PE_TABLE_D_MAX);
    if (n > PE_TABLE_N_MAX)
        return filesrc_fail(l->src, "%lld rows: at most %lld positions",
                            (long long)n, (long long)PE_TABLE_N_MAX);
    if ((double)n * (double)d > (double)PE_TABLE_MAX_VALUES)
        return filesrc_fail(l->src, "%lld x %lld = %.0f values: over the "
                            "limit of %lld", (long long)n, (long long)d,
                            (double)n * (double)d,
                            (long long)PE_TABLE_MAX_VALUES);
    return 0;
}

int tables_check_value(struct tload *l, double v, const char *where)
{
    if (!isfinite(v))
        return filesrc_fail(l->src, "%s is not a finite number", where);
    if (fabs(v) > PE_TABLE_VALUE_MAX)
        return filesrc_fail(l->src, "%s is %.3g: beyond +-%g, where products "
                            "of rows would overflow", where, v,
                            PE_TABLE_VALUE_MAX);
    return 0;
}

int64_t tables_known_offset(const char *name)
{
    if (strstr(name, "roberta") && strstr(name, "position_embeddings"))
        return 2;
    if (strstr(name, "embed_positions"))
        return 2;
    return 0;
}

int tables_offset(struct tload *l, int64_t file_rows, int64_t known,
                  int64_t *offset)
{
    *offset = l->o.row_offset >= 0 ? l->o.row_offset : known;
    if (*offset >= file_rows && file_rows > 0)
        return filesrc_fail(l->src, "row offset %lld: the table has only "
                            "%lld rows", (long long)*offset,
                            (long long)file_rows);
    if (l->o.row_offset < 0 && known > 0)
        tables_note(l, "'%s' starts at row %lld (rows before it are "
                    "padding): skipped them; --row-offset 0 keeps them",
                    l->info->tensor, (long long)known);
    l->info->file_rows = file_rows;
    l->info->row_offset = *offset;
    return 0;
}

static int check_values(struct tload *l, const struct pe_table *t,
                        int64_t first)
{
    for (int64_t r = 0; r < t->n; r++)
        for (int c = 0; c < t->d; c++) {
            double v = t->v[r * t->d + c];
            if (isfinite(v) && fabs(v) <= PE_TABLE_VALUE_MAX)
                continue;
            char where[64];
            snprintf(where, sizeof where, "row %lld, column %d",
                     (long long)(first + r), c);
            return tables_check_value(l, v, where);
        }
    return 0;
}

static int read_rows(struct tload *l, uint64_t data_off, int64_t file_rows,
                     enum filesrc_elem e, int big, int fortran, int64_t first,
                     struct pe_table *t)
{
    uint64_t size = (uint64_t)filesrc_elem_size(e);
    if (!fortran)
        return filesrc_read_elems(l->src, data_off + (uint64_t)first
                                  * (uint64_t)t->d * size,
                                  (uint64_t)t->n * (uint64_t)t->d, e, big,
                                  t->v, 1);
    for (int c = 0; c < t->d; c++) {
        uint64_t at = data_off + ((uint64_t)c * (uint64_t)file_rows
                                  + (uint64_t)first) * size;
        if (filesrc_read_elems(l->src, at, (uint64_t)t->n, e, big, t->v + c,
                               (size_t)t->d))
            return -1;
    }
    return 0;
}

int tables_read_matrix(struct tload *l, uint64_t data_off, int64_t file_rows,
                       int64_t d, enum filesrc_elem e, int big_endian,
                       int fortran, int64_t known_offset, struct pe_table *t)
{
    int64_t first;
    if (file_rows < 1)
        return filesrc_fail(l->src, "no rows: want one row per position");
    if (tables_offset(l, file_rows, known_offset, &first)
        || tables_check_shape(l, file_rows - first, d))
        return -1;
    t->n = file_rows - first;
    t->d = (int)d;
    t->v = malloc((size_t)t->n * (size_t)d * sizeof *t->v);
    if (!t->v)
        return filesrc_fail(l->src, "out of memory");
    if (read_rows(l, data_off, file_rows, e, big_endian, fortran, first, t)
        || check_values(l, t, first)) {
        pe_table_free(t);
        return -1;
    }
    return 0;
}

/* ---- choosing a tensor --------------------------------------------------- */

static int name_has(const char *name, const char *part)
{
    size_t n = strlen(part);
    for (; *name; name++) {
        size_t i = 0;
        while (i < n && name[i]
               && tolower((unsigned char)name[i]) == part[i])
            i++;
        if (i == n)
            return 1;
    }
    return 0;
}

static int is_candidate(const struct tables_list *ls, size_t i)
{
    const char *n = ls->name(ls->ctx, i);
    return ls->ndims(ls->ctx, i) == 2
           && (name_has(n, "wpe") || name_has(n, "pos")
               || name_has(n, "position"));
}

/* "a, b, c (and N more)" of the tensors that pass keep (or all 2-D). */
static void list_names(const struct tables_list *ls, int only_candidates,
                       char *out, size_t len)
{
    size_t shown = 0, more = 0, j = 0;
    out[0] = 0;
    for (size_t i = 0; i < ls->count; i++) {
        if (only_candidates ? !is_candidate(ls, i) : ls->ndims(ls->ctx, i) != 2)
            continue;
        if (shown == LIST_SHOWN) {
            more++;
            continue;
        }
        int w = snprintf(out + j, len - j, "%s%s", shown ? ", " : "",
                         ls->name(ls->ctx, i));
        if (w < 0 || (size_t)w >= len - j)
            break;
        j += (size_t)w;
        shown++;
    }
    if (more && j < len)
        snprintf(out + j, len - j, " (and %zu more)", more);
    if (!shown)
        snprintf(out, len, "none");
}

static int pick_named(struct tload *l, const struct tables_list *ls,
                      size_t *chosen)
{
    char names[200];
    for (size_t i = 0; i < ls->count; i++) {
        if (strcmp(ls->name(ls->ctx, i), l->o.tensor) != 0)
            continue;
        if (ls->ndims(ls->ctx, i) != 2)
            return filesrc_fail(l->src, "tensor '%s' has %d dimensions: a "
                                "table needs 2 (positions x d_model)",
                                l->o.tensor, ls->ndims(ls->ctx, i));
        *chosen = i;
        return 0;
    }
    list_names(ls, 0, names, sizeof names);
    return filesrc_fail(l->src, "no tensor '%s'; 2-D tensors: %s",
                        l->o.tensor, names);
}

int tables_pick(struct tload *l, const struct tables_list *ls, size_t *chosen)
{
    char names[200];
    if (l->o.tensor)
        return pick_named(l, ls, chosen);
    size_t found = 0;
    for (size_t i = 0; i < ls->count; i++)
        if (is_candidate(ls, i)) {
            if (!found++)
                *chosen = i;
        }
    if (found == 1)
        return 0;
    if (found > 1) {
        list_names(ls, 1, names, sizeof names);
        return filesrc_fail(l->src, "%zu position tables: %s; choose one with "
                            "--tensor NAME", found, names);
    }
    list_names(ls, 0, names, sizeof names);
    return filesrc_fail(l->src, "no 2-D tensor named like a position table "
                        "(wpe, pos, position); 2-D tensors: %s; choose one "
                        "with --tensor NAME", names);
}
