/* SPDX-License-Identifier: ISC */
/*
 * glyph.c - UTF-8 symbols and their ASCII stand-ins (see glyph.h).
 */
#include "glyph.h"

static const char *const GLYPHS[GL_COUNT][2] = {
    [GL_OMEGA] = { "\xcf\x89", "w" },
    [GL_OMEGA_K] = { "\xcf\x89\xe2\x82\x96", "w_k" },
    [GL_SUB_K] = { "\xe2\x82\x96", "_k" },
    [GL_LAMBDA] = { "\xce\xbb", "lam" },
    [GL_LAMBDA_WL] = { "\xce\xbb", "wl" },
    [GL_LAMBDA_L] = { "\xce\xbb", "L" },
    [GL_PI] = { "\xcf\x80", "pi" },
    [GL_SIGMA] = { "\xce\xa3", "sum" },
    [GL_DEG] = { "\xc2\xb0", " deg" },
    [GL_CCW] = { "\xe2\x86\xba", "ccw" },
    [GL_DOT] = { "\xc2\xb7", "." },
    [GL_MUL] = { "\xc2\xb7", "*" },
    [GL_TIMES] = { "\xc3\x97", "x" },
    [GL_MINUS] = { "\xe2\x88\x92", "-" },
    [GL_VBAR] = { "\xe2\x94\x82", "|" },
    [GL_VDOTS] = { "\xe2\x94\x8a", ":" },
    [GL_TRI_RIGHT] = { "\xe2\x96\xb8", ">" },
    [GL_PLAY] = { "\xe2\x96\xb6", ">" },
    [GL_PLAY_LEFT] = { "\xe2\x97\x80", "<" },
    [GL_TRI_UP] = { "\xe2\x96\xb2", "^" },
    [GL_MISSING] = { "\xe2\x95\xb1", "/" },
};

const char *glyph(int ascii, enum glyph g)
{
    return (unsigned)g < GL_COUNT ? GLYPHS[g][ascii ? 1 : 0] : "?";
}

const char *glyph_pick(int ascii, const char *utf8, const char *asc)
{
    return ascii ? asc : utf8;
}
