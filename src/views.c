/*
 * views.c - the list of views and the names the command line uses
 * (scheme names live in libpeviz's SCHEMES table).
 */
#include <string.h>

#include "app.h"
#include "text.h"

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

static const char *const MODE_NAMES[PANE_MODE_COUNT] = {
    "heatmap", "spectrum", "profile", "diff"
};

const char *pane_mode_name(enum pane_mode m)
{
    return (unsigned)m < PANE_MODE_COUNT ? MODE_NAMES[m] : "?";
}

int pane_mode_parse(const char *s)
{
    for (int i = 0; s && i < PANE_MODE_COUNT; i++)
        if (strcmp(s, MODE_NAMES[i]) == 0)
            return i;
    return -1;
}

const char *pane_mode_list(char *buf, size_t len)
{
    return words_join(MODE_NAMES, PANE_MODE_COUNT, buf, len);
}
