/* SPDX-License-Identifier: ISC */
/*
 * compare_modes.c - the table of the compare view's pane modes: a row
 * per mode (struct cmp_mode, each in the mode's own file), in the order
 * of enum pane_mode.  The view dispatches through it; the command line,
 * the prompt, follow mode and the help read the modes' names from it.
 *
 * Adding a pane mode (tests/recipes.sh tries it):
 *   1. src/views/compare_NAME.c: includes compare_view.h and exports
 *      const struct cmp_mode CMP_NAME (name, grid, bands, noun, vs_a,
 *      scores and the hooks: layout, draw and readout required, work
 *      and more optional; a layout without the grid sets f->g by
 *      cmp_geom_make);
 *      it calls only what lies below the modes (compare_grid.c,
 *      compare_scores.c, compare_common.c), never another mode's file.
 *   2. Its extern beside the others in compare_view.h (extern const
 *      struct cmp_mode CMP_HEATMAP, ...).
 *   3. A value before PANE_MODE_COUNT in enum pane_mode
 *      (src/views/compare_state.h) and its row in MODES below.
 *   4. make docs (the help of v, c and --pane-mode, and every list of
 *      modes, come from this table); golden cases in
 *      tests/golden/cases.txt.
 */
#include <stdio.h>
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

const char *cmp_mode_names(char *buf, size_t len, enum cmp_modes which)
{
    const char *names[PANE_MODE_COUNT];
    int n = 0;
    for (int i = 0; i < PANE_MODE_COUNT; i++)
        if (which == CMP_ALL || (which == CMP_SCORES && MODES[i]->scores) ||
            (which == CMP_BANDS && MODES[i]->bands))
            names[n++] = MODES[i]->name;
    return words_join_last(names, n, ", ", buf, len);
}

const char *pane_mode_list(char *buf, size_t len)
{
    const char *names[PANE_MODE_COUNT];
    for (int i = 0; i < PANE_MODE_COUNT; i++)
        names[i] = MODES[i]->name;
    return words_join(names, PANE_MODE_COUNT, buf, len);
}
