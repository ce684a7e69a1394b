/* SPDX-License-Identifier: ISC */
/*
 * clocks_settings.c - the clocks view's settings' rows
 * (clocks_settings.h): the band under the cursor, the ghost hand and its
 * offset k, the binary counter, each with the prompt's answer after a
 * change.  A new setting of the view is one row here (the recipe is in
 * settings.h).
 */
#include "app.h"
#include "views/clocks_settings.h"

void clocks_settings_said_ghost(struct app *a)
{
    if (a->clocks.ghost)
        app_msg(a, 0, "ghost hand at pos+k, k=%lld (:k N sets k)",
                (long long)a->clocks.k);
    else
        app_msg(a, 0, "ghost hand off (k=%lld)", (long long)a->clocks.k);
}

void clocks_settings_said_counter(struct app *a)
{
    app_msg(a, 0, "binary counter %s", a->clocks.counter ? "on" : "off");
}

/* A k given shows the hand it places. */
static void ghost_shown(struct app *a)
{
    a->clocks.ghost = 1;
}

static void said_k(struct app *a)
{
    ghost_shown(a);
    app_msg(a, 0, "ghost hand at pos+k, k=%lld", (long long)a->clocks.k);
}

#define CLK_WHERE (SET_CLI | SET_PROMPT | SET_TOUR | SET_FOLLOW)

const struct setting CLOCKS_SETTINGS[] = {
    { .name = "band", .alias = "i", .type = SET_INT,
      .off = SET_OFF(clocks.band), .lo = 0, .bound = SETB_BAND,
      .aux = SET_OFF(p.d), .bound_name = "d/2-1", .def = "0", .arg = "I",
      .help = "clocks: the band under the cursor", .where = CLK_WHERE,
      .wire = "clk.band" },
    { .name = "ghost", .type = SET_FLAG, .off = SET_OFF(clocks.ghost),
      .help = "clocks: the ghost hand at pos+k", .where = CLK_WHERE,
      .wire = "clk.ghost", .changed = clocks_settings_said_ghost },
    { .name = "ghost-k", .prompt = "k", .type = SET_I64,
      .off = SET_OFF(clocks.k), .lo = -PARAM_N_MAX, .hi = PARAM_N_MAX,
      .def = "1", .arg = "K", .help = "clocks: k of the ghost hand at pos+k (it is shown)",
      .where = CLK_WHERE, .wire = "clk.k", .given = ghost_shown,
      .changed = said_k },
    { .name = "counter", .type = SET_FLAG, .off = SET_OFF(clocks.counter),
      .help = "clocks: the binary counter of pos", .where = CLK_WHERE,
      .wire = "clk.counter", .changed = clocks_settings_said_counter },
    { 0 }
};
