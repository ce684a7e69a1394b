/*
 * compare_modes.c - the table of the compare view's pane modes: a row
 * per mode (struct cmp_mode, each in the mode's own file), in the order
 * of enum pane_mode.  The view dispatches through it; the command line,
 * the prompt, follow mode and the help read the modes' names from it.
 */
#include <string.h>

#include "app.h"
#include "text.h"
#include "compare_view.h"
#include "views/compare.h"

static const struct cmp_mode *const MODES[PANE_MODE_COUNT] = {
    [PANE_HEATMAP] = &CMP_HEATMAP, [PANE_SPECTRUM] = &CMP_SPECTRUM,
    [PANE_PROFILE] = &CMP_PROFILE, [PANE_DIFF] = &CMP_DIFF,
    [PANE_RATIO] = &CMP_RATIO, [PANE_DRIFT] = &CMP_DRIFT,
    [PANE_MATRIX] = &CMP_MATRIX
};

const struct cmp_mode *cmp_mode_at(int m)
{
    return MODES[(unsigned)m < PANE_MODE_COUNT ? m : 0];
}

const char *pane_mode_name(enum pane_mode m)
{
    return (unsigned)m < PANE_MODE_COUNT ? MODES[m]->name : "?";
}

int pane_mode_parse(const char *s)
{
    for (int i = 0; s && i < PANE_MODE_COUNT; i++)
        if (strcmp(s, MODES[i]->name) == 0)
            return i;
    return -1;
}

const char *pane_mode_list(char *buf, size_t len)
{
    const char *names[PANE_MODE_COUNT];
    for (int i = 0; i < PANE_MODE_COUNT; i++)
        names[i] = MODES[i]->name;
    return words_join(names, PANE_MODE_COUNT, buf, len);
}
