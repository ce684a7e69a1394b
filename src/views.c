/*
 * views.c - the list of views and the names the command line uses.
 */
#include <string.h>

#include "app.h"

const struct view *const VIEWS[VIEW_COUNT] = {
    [VIEW_HEATMAP] = &VIEW_HEATMAP_DEF,
    [VIEW_CLOCKS] = &VIEW_CLOCKS_DEF,
    [VIEW_ATTENTION] = &VIEW_ATTENTION_DEF,
    [VIEW_COMPARE] = &VIEW_COMPARE_DEF,
};

int view_parse(const char *name)
{
    for (int i = 0; i < VIEW_COUNT; i++)
        if (strcmp(name, VIEWS[i]->name) == 0)
            return i;
    return -1;
}

static const char *const SCHEME_NAMES[SCHEME_COUNT] = {
    "sinusoidal", "rope", "alibi", "learned", "nope"
};

const char *scheme_name(enum scheme s)
{
    return (unsigned)s < SCHEME_COUNT ? SCHEME_NAMES[s] : "?";
}

int scheme_parse(const char *name)
{
    for (int i = 0; i < SCHEME_COUNT; i++)
        if (strcmp(name, SCHEME_NAMES[i]) == 0)
            return i;
    return -1;
}
