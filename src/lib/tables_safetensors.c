/*
 * tables_safetensors.c - a table from a safetensors file (placeholder
 * until the JSON reader lands).
 */
#include "tables_impl.h"

int tables_safetensors(struct tload *l, struct pe_table *t)
{
    (void)t;
    return filesrc_fail(l->src, "safetensors: not supported yet");
}

int tables_st_index(struct tload *l, struct pe_table *t)
{
    (void)t;
    return filesrc_fail(l->src, "a JSON file: not supported yet");
}
