/* SPDX-License-Identifier: ISC */
/*
 * app_table.c - :pe-file FILE at the prompt: a position table loaded as
 * --pe-file loads it, with the same checks.  The tables live here, in
 * turn: the one on screen and the ones kept (app_tables_keep) are never
 * freed, another is freed when a new one takes its place (or at exit).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "peviz/tables.h"

struct slot {
    struct pe_table t;
    struct pe_table_info info;
    char name[APP_PROMPT_LEN];
};

/* the one shown, the ones kept, and one to load into */
#define N_SLOTS (APP_KEEP_COUNT + 2)
static struct slot slots[N_SLOTS];
static const struct pe_table *kept[APP_KEEP_COUNT];

static int slot_taken(const struct app *a, const struct slot *s)
{
    if (a->pe_table == &s->t)
        return 1;
    for (int k = 0; k < APP_KEEP_COUNT; k++)
        if (kept[k] == &s->t)
            return 1;
    return 0;
}

/* A slot neither shown nor kept (its table can go), an empty one first. */
static struct slot *free_slot(const struct app *a)
{
    struct slot *any = NULL;
    for (int i = 0; i < N_SLOTS; i++) {
        if (slot_taken(a, &slots[i]))
            continue;
        if (!slots[i].t.v)
            return &slots[i];
        if (!any)
            any = &slots[i];
    }
    return any;
}

void app_tables_keep(enum app_keep which, const struct pe_table *t)
{
    kept[which] = t;
}

int app_table_load(struct app *a, const char *path, char *err, size_t errlen)
{
    struct pe_table_opts o;
    struct slot *s = free_slot(a);
    struct pe_table t = { 0 };
    struct pe_table_info info;
    char abs[PATH_MAX];
    pe_table_opts_init(&o);
    if (!path || !path[0]) {
        snprintf(err, errlen, "pe-file: want a .safetensors, .gguf, .npy "
                 "or .csv file name");
        return -1;
    }
    if (tables_load(path, &o, &t, &info, err, errlen))
        return -1;
    params next = a->p;
    next.d = t.d;
    next.n = t.n;
    if (next.pos >= next.n)
        next.pos = next.n - 1;
    if (params_check_rope(&next, err, errlen)) {   /* a list d no longer fits */
        pe_table_free(&t);
        return -1;
    }
    size_t n;
    if (realpath(info.file, abs) && (n = strlen(abs)) < sizeof info.file)
        memcpy(info.file, abs, n + 1);      /* named in full in captions */
    pe_table_free(&s->t);
    s->t = t;
    s->info = info;
    snprintf(s->name, sizeof s->name, "%s", path);
    a->pe_table = &s->t;
    a->pe_info = &s->info;
    a->pe_file_name = s->name;
    a->pe_digest[0] = 0;        /* a teacher hashes it when it publishes */
    a->p = next;
    return 0;
}

void app_tables_free(void)
{
    for (int i = 0; i < N_SLOTS; i++)
        pe_table_free(&slots[i].t);
    for (int k = 0; k < APP_KEEP_COUNT; k++)
        kept[k] = NULL;
}
