/* SPDX-License-Identifier: ISC */
/*
 * caption.c - the running tour as the frame shows it: the caption panel
 * below the view, the status line's "tour 3/12" and its words in the
 * tour's language (caption.h).
 */
#include <stdio.h>
#include <string.h>

#include "caption.h"
#include "colormap.h"
#include "text.h"

#define HINT_DEFAULT_UTF8 "Enter next \xc2\xb7 Backspace back \xc2\xb7 Esc leave the tour"
#define HINT_DEFAULT_ASCII "Enter next | Backspace back | Esc leave the tour"
#define HINT_LAST_UTF8 "last step \xc2\xb7 Backspace back \xc2\xb7 Esc leave the tour"
#define HINT_LAST_ASCII "last step | Backspace back | Esc leave the tour"
#define ELLIPSIS "\xe2\x80\xa6"

int caption_zh(const struct app *a)
{
    return a->tour && a->tour->zh && !a->ascii;
}

const char *caption_say(const struct app *a, const char *en)
{
    return caption_zh(a) ? text_zh(en) : en;
}

const char *caption_word(const struct app *a, const char *en)
{
    return areas_tour_running(a) ? caption_say(a, en) : en;
}

void caption_hint(const struct app *a, const char *en, char *out, size_t len)
{
    if (areas_tour_running(a) && caption_zh(a))
        text_zh_hint(en, out, len);
    else
        snprintf(out, len, "%s", en);
}

int caption_status(const struct app *a, char *buf, size_t len)
{
    if (!areas_tour_running(a))
        return 0;
    snprintf(buf, len, "%s %d/%d", caption_say(a, "tour"), a->tour_step + 1,
             a->tour->nsteps);
    return 1;
}

/* ---- the caption panel ----------------------------------------------- */

#define PANEL_MAX_LINES 64

static const char *panel_hint(const struct app *a)
{
    if (a->tour_step == a->tour->nsteps - 1)    /* no "Enter next" here */
        return a->ascii ? HINT_LAST_ASCII : caption_say(a, HINT_LAST_UTF8);
    if (a->tour->hint)
        return a->tour->hint;
    return a->ascii ? HINT_DEFAULT_ASCII : HINT_DEFAULT_UTF8;
}

/* Line ln of text at (x, y); with more != 0 it ends in an ellipsis.
 * Returns the cells drawn. */
static int draw_line(canvas *c, int x, int y, int width, const char *text,
                      const struct text_line *ln, int more, rgb fg, int attr)
{
    char buf[TOUR_TEXT_MAX];
    int len = ln->len < (int)sizeof buf - 8 ? ln->len : (int)sizeof buf - 8;
    memcpy(buf, text + ln->off, (size_t)len);
    buf[len] = 0;
    if (more) {
        /* drop characters from the end until " ..." fits */
        int cells = ln->cells, l;
        while (len > 0 && cells + 2 > width) {
            int b = len - 1;
            while (b > 0 && ((unsigned char)buf[b] & 0xC0) == 0x80)
                b--;
            cells -= cp_width(utf8_at(buf + b, &l));
            len = b;
        }
        while (len > 0 && buf[len - 1] == ' ')
            len--;
        strcpy(buf + len, " " ELLIPSIS);
    }
    return canvas_text(c, x, y, width, buf, fg, RGB_DEFAULT, attr);
}

/* The rule: "── 3/12 · Title ─────", the title cut at a word if needed. */
static void draw_rule(const struct app *a, canvas *c,
                      const struct tour_step *s)
{
    char count[32];
    struct text_line ln;
    rgb axis = ui_color(a->palette, UI_AXIS);
    rgb acc = ui_color(a->palette, UI_ACCENT);
    canvas_hline(c, 0, 0, c->w, axis);
    snprintf(count, sizeof count, " %d/%d ", a->tour_step + 1,
             a->tour->nsteps);
    int x = 2 + canvas_text(c, 2, 0, c->w - 2, count, acc, RGB_DEFAULT, 0);
    int room = c->w - x - 3;
    if (room < 2)
        return;
    int n = text_wrap_lines(s->title, room - 2, &ln, 1);
    canvas_put(c, x - 1, 0, ' ', acc, RGB_DEFAULT, 0);
    if (n > 0) {
        x += draw_line(c, x, 0, room - 2, s->title, &ln, n > 1, acc,
                       ATTR_BOLD);
        canvas_put(c, x, 0, ' ', acc, RGB_DEFAULT, 0);
    }
}

void caption_draw(const struct app *a, canvas *c)
{
    const struct tour_step *s = areas_shown_step(a);
    struct text_line lines[PANEL_MAX_LINES], hl;
    if (!s || c->w < 8 || c->h < 1)
        return;
    canvas_fill(c, 0, 0, c->w, c->h, ' ', RGB_DEFAULT, RGB_DEFAULT);
    draw_rule(a, c, s);
    int width = areas_text_width(c->w);
    int n = text_wrap_lines(s->text, width, lines, PANEL_MAX_LINES);
    int room = c->h - 1, hint = 1;
    if (n > room - 1) {             /* the text first, the hint if room */
        hint = 0;
    } else {
        room--;
    }
    int shown = n < room ? n : room;
    if (shown > PANEL_MAX_LINES)
        shown = PANEL_MAX_LINES;
    rgb text = ui_color(a->palette, UI_TEXT);
    for (int i = 0; i < shown; i++)
        draw_line(c, 1, 1 + i, width, s->text, &lines[i],
                  i == shown - 1 && shown < n, text, 0);
    const char *h = panel_hint(a);
    if (hint && text_wrap_lines(h, width, &hl, 1) > 0)
        draw_line(c, 1, c->h - 1, width, h, &hl, 0,
                  ui_color(a->palette, UI_DIM), 0);
}
