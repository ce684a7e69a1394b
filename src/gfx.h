/*
 * gfx.h - images in the terminal: the graphics modes, and encoders of an
 * RGB image (raster.h) as a kitty graphics APC, a sixel DCS, or an iTerm2
 * OSC 1337 inline file.  The encoders write escape bytes into a growing
 * buffer; nothing here touches the terminal.
 */
#ifndef PEVIZ_GFX_H
#define PEVIZ_GFX_H

#include <stddef.h>
#include <stdint.h>

enum gfx_mode { GFX_AUTO = 0, GFX_KITTY, GFX_SIXEL, GFX_ITERM2, GFX_CELLS,
                GFX_MODE_COUNT };

/* Mode by name ("auto", "kitty", "sixel", "iterm2", "cells"), or -1. */
int gfx_mode_parse(const char *name);
const char *gfx_mode_name(enum gfx_mode m);

#endif
