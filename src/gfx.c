/*
 * gfx.c - graphics modes and image encoders (gfx.h).
 */
#include "gfx.h"

#include <string.h>

static const char *const MODE_NAMES[GFX_MODE_COUNT] = {
    "auto", "kitty", "sixel", "iterm2", "cells"
};

int gfx_mode_parse(const char *name)
{
    for (int i = 0; name && i < GFX_MODE_COUNT; i++)
        if (strcmp(name, MODE_NAMES[i]) == 0)
            return i;
    return -1;
}

const char *gfx_mode_name(enum gfx_mode m)
{
    return (unsigned)m < GFX_MODE_COUNT ? MODE_NAMES[m] : "cells";
}
