/* SPDX-License-Identifier: ISC */
/*
 * view_mark.c - the inspected cell's mark, which every view draws the
 * same way (view.h): a reverse-video dot between two arrows, and the
 * terminal's cursor left on it.  Below the list of views (views.c), so
 * that the views and the list do not use each other.
 */
#include "app.h"
#include "colormap.h"
#include "glyph.h"

void view_point_mark(const struct app *a, canvas *c, int x, int y, int w)
{
    rgb fg = ui_color(a->palette, UI_ACCENT);
    if (!a->point) {
        canvas_cursor(c, x, y);
        return;
    }
    if (!canvas_at(c, x, y))
        return;
    for (int i = 0; i < w; i++) {
        cell *k = canvas_at(c, x + i, y);
        if (!k)
            break;
        uint32_t dot = a->ascii ? 'X' : 0x25CF, ch = k->ch;
        if (k->kind != CELL_TEXT || (w == 1 && ch == ' '))
            ch = dot;               /* a pixel pair, or one blank: a dot */
        canvas_put(c, x + i, y, ch, fg, RGB_DEFAULT, ATTR_BOLD | ATTR_REVERSE);
    }
    canvas_cursor(c, x, y);
    if (x > 0)
        canvas_text(c, x - 1, y, 1, glyph(a->ascii, GL_PLAY), fg, RGB_DEFAULT,
                    ATTR_BOLD);
    canvas_text(c, x + w, y, 1, glyph(a->ascii, GL_PLAY_LEFT), fg, RGB_DEFAULT,
                ATTR_BOLD);
}
