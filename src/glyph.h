/* SPDX-License-Identifier: ISC */
/*
 * glyph.h - the one table of UTF-8 symbols and their ASCII stand-ins
 * (--ascii, or a terminal without UTF-8).  Where a symbol has two ASCII
 * spellings, they are separate entries named by where they fit.
 */
#ifndef PEVIZ_GLYPH_H
#define PEVIZ_GLYPH_H

enum glyph {
    GL_OMEGA,           /* ω      w      frequency */
    GL_OMEGA_K,         /* ωₖ     w_k */
    GL_SUB_K,           /* ₖ      _k */
    GL_LAMBDA,          /* λ      lam    wavelength */
    GL_LAMBDA_WL,       /* λ      wl     (compare's narrow labels) */
    GL_LAMBDA_L,        /* λ      L      (one cell; "l" reads as 1) */
    GL_PI,              /* π      pi */
    GL_SIGMA,           /* Σ      sum */
    GL_DEG,             /* °      " deg" */
    GL_CCW,             /* ↺      ccw */
    GL_DOT,             /* ·      .      dot product */
    GL_MUL,             /* ·      *      product */
    GL_TIMES,           /* ×      x */
    GL_MINUS,           /* −      - */
    GL_VBAR,            /* │      | */
    GL_VDOTS,           /* ┊      : */
    GL_TRI_RIGHT,       /* ▸      > */
    GL_PLAY,            /* ▶      > */
    GL_PLAY_LEFT,       /* ◀      < */
    GL_TRI_UP,          /* ▲      ^ */
    GL_MISSING,         /* ╱      /      no value: past a table's rows */
    GL_COUNT
};

/* The symbol, or its ASCII stand-in when ascii is set. */
const char *glyph(int ascii, enum glyph g);

/* The same choice for text that is not in the table (a phrase). */
const char *glyph_pick(int ascii, const char *utf8, const char *asc);

#endif
