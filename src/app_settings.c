/* SPDX-License-Identifier: ISC */
/*
 * app_settings.c - the global settings' rows (settings.h): how the
 * program draws and paces itself, whatever the view.  A new global
 * setting is one row here (the recipe is in settings.h).
 */
#include "app.h"

static const char *palette_word(int k)
{
    return k >= 0 && k < PAL_COUNT ? palette_name((enum palette)k) : NULL;
}

static const char *view_word(int k)
{
    return k >= 0 && k < VIEW_COUNT ? VIEWS[k]->name : NULL;
}

const struct setting APP_SETTINGS[] = {
    { .name = "view", .type = SET_WORD, .off = SET_OFF(view),
      .word = view_word, .def = "heatmap", .arg = "NAME",
      .help = "the view to start in", .where = SET_CLI | SET_FILE },
    { .name = "ascii", .type = SET_FLAG, .off = SET_OFF(ascii),
      .help = "draw with ASCII only", .where = SET_CLI | SET_FILE },
    { .name = "no-braille", .type = SET_FLAG, .off = SET_OFF(no_braille),
      .help = "clock faces and line plots in blocks instead of braille dots",
      .where = SET_CLI | SET_FILE },
    { .name = "fps", .type = SET_INT, .off = SET_OFF(fps), .lo = 1, .hi = 60,
      .def = "30", .arg = "N", .help = "animation frames per second",
      .where = SET_CLI | SET_FILE },
    { .name = "mouse", .type = SET_FLAG, .off = SET_OFF(mouse),
      .help = "react to mouse clicks", .where = SET_CLI | SET_FILE },
    { .name = "low-bandwidth", .type = SET_FLAG, .off = SET_OFF(low_bandwidth),
      .help = "at most 5 frames per second, small updates",
      .where = SET_CLI | SET_FILE },
    { .name = "palette", .type = SET_WORD, .off = SET_OFF(palette),
      .word = palette_word, .def = "default", .arg = "NAME",
      .help = "colours of the maps and the chrome",
      .where = SET_CLI | SET_FILE },
    { 0 }
};
