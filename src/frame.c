/* SPDX-License-Identifier: ISC */
/*
 * frame.c - one whole frame: the current view, the status line (or the
 * ':' prompt), the help card, or a "too small" notice.  The terminal and
 * --snapshot both call frame_draw, so they show the same thing.
 */
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "areas.h"
#include "caption.h"
#include "frame.h"
#include "plain.h"
#include "glyph.h"
#include "peviz/tables.h"
#include "text.h"

#define HINT_LEN 128
#define HELP_MAX_ITEMS 128
#define HELP_WRITTEN 8      /* view rows whose help the view writes */
#define HELP_MAX_COLS 3
#define HELP_MIN_COLW 30    /* narrower columns would wrap most entries */
#define HELP_LABEL_W 8      /* longer labels push their text right */
#define HELP_ABOUT_W 76     /* the about text wraps at most this wide */
#define HELP_ABOUT_LINES 16

/* ---- too small --------------------------------------------------------- */

/* The first of the candidates that fits, centred on row y (or nothing). */
static void centre_fit(canvas *c, int y, const char *const *cand, int n,
                       rgb fg, int attr)
{
    int i = text_first_fit(cand, n, c->w);
    if (i >= 0)
        canvas_text(c, (c->w - text_width(cand[i])) / 2, y, c->w, cand[i],
                    fg, RGB_DEFAULT, attr);
}

/* s centred in the span [x, x + w) of row y. */
static void centre_in(canvas *c, int x, int w, int y, const char *s, rgb fg)
{
    int tw = text_width(s);
    if (tw <= w)
        canvas_text(c, x + (w - tw) / 2, y, tw, s, fg, RGB_DEFAULT, 0);
}

/* "terminal too small / 10x3, need 20x5", shortened to what fits. */
static void draw_too_small(const struct app *a, canvas *c)
{
    char full[64], have[48], need[16];
    snprintf(full, sizeof full, "too small: %dx%d, need %dx%d", c->w, c->h,
             FRAME_MIN_W, FRAME_MIN_H);
    snprintf(have, sizeof have, "%dx%d, need %dx%d", c->w, c->h,
             FRAME_MIN_W, FRAME_MIN_H);
    snprintf(need, sizeof need, "need %dx%d", FRAME_MIN_W, FRAME_MIN_H);
    const char *line1[] = { "terminal too small", "too small", "small" };
    const char *line2[] = { have, need, need + 5 };
    const char *one[] = { full, have, need, need + 5, "!" };
    rgb warn = ui_color(a->palette, UI_WARN);
    if (c->h >= 2) {
        int y = (c->h - 2) / 2;
        centre_fit(c, y, line1, 3, warn, ATTR_BOLD);
        centre_fit(c, y + 1, line2, 3, ui_color(a->palette, UI_TEXT), 0);
    } else {
        centre_fit(c, 0, one, 5, warn, ATTR_BOLD);
    }
}

/* ---- the status line --------------------------------------------------- */

enum { S_TITLE, S_PARAMS, S_MODEL, S_PLAY, S_HINT, S_FOLLOW, S_MSG, S_HELP,
       S_COUNT };

/* Parts given up, first to last, when the line is too narrow; while a
 * message shows (until the next key) the model gives way first; on the
 * opening screen (until the first key) "? help" outlives the hint.
 * S_COUNT stands for the follow-mode part's short form taking its place. */
#define S_DROPS 7
static const int S_DROP[3][S_DROPS] = {
    { S_HELP, S_HINT, S_COUNT, S_FOLLOW, S_TITLE, S_PLAY, S_MODEL },
    { S_HELP, S_MODEL, S_HINT, S_COUNT, S_FOLLOW, S_TITLE, S_PLAY },
    { S_HINT, S_HELP, S_COUNT, S_FOLLOW, S_TITLE, S_PLAY, S_MODEL },
};

struct status {
    char text[S_COUNT][APP_MSG_LEN];
    char follow_short[APP_MSG_LEN];
    int on[S_COUNT];
    char model_short[APP_MSG_LEN];  /* the model's name alone */
};

static int status_width(const struct status *s)
{
    int w = 0, n = 0;
    for (int i = 0; i < S_COUNT; i++)
        if (s->on[i]) {
            w += text_width(s->text[i]);
            n++;
        }
    return w + 2 * (n > 0 ? n - 1 : 0);
}

static void status_fill(const struct app *a, const struct view *v,
                        const char *hint, struct status *s)
{
    memset(s, 0, sizeof *s);
    const char *title = !v ? "peviz" : caption_word(a, v->status_title
                                                 ? v->status_title(a)
                                                 : v->title);
    snprintf(s->text[S_TITLE], APP_MSG_LEN, "%s", title);
    char tour[32];                      /* tour: "tour 3/12 PE heatmap" */
    if (caption_status(a, tour, sizeof tour))
        snprintf(s->text[S_TITLE], APP_MSG_LEN, "%s  %s", tour, title);
    areas_status_params(a, s->text[S_PARAMS], APP_MSG_LEN);
    app_source_format(a, s->text[S_MODEL], APP_MSG_LEN);
    snprintf(s->model_short, sizeof s->model_short, "%s", a->source[0]
             ? a->source : s->text[S_MODEL]);
    if (a->playing) {
        char sp[32];
        fmt_num(a->speed, 6, sp, sizeof sp);
        snprintf(s->text[S_PLAY], APP_MSG_LEN, "\xe2\x96\xb6 %s pos/s", sp);
    }
    caption_hint(a, hint, s->text[S_HINT], APP_MSG_LEN);
    snprintf(s->text[S_FOLLOW], APP_MSG_LEN, "%s", a->follow_status);
    snprintf(s->follow_short, APP_MSG_LEN, "%s", a->follow_short);
    snprintf(s->text[S_MSG], APP_MSG_LEN, "%s", a->msg);
    if (!a->still)
        snprintf(s->text[S_HELP], APP_MSG_LEN, "%s", caption_word(a, "? help"));
    for (int i = 0; i < S_COUNT; i++)
        s->on[i] = s->text[i][0] != 0;
    /* a message that says what the follow part says ("following X" as
     * a follower joins) stands for it: the line says it once */
    size_t fl = strlen(a->follow_status);
    if (fl && strncmp(a->msg, a->follow_status, fl) == 0)
        s->on[S_FOLLOW] = 0;
}

/* Drop parts, then shorten the message and the parameters by words. */
static void status_fit(struct status *s, int w, int opening)
{
    char buf[APP_MSG_LEN];
    const int *drop = S_DROP[s->on[S_MSG] ? 1 : opening ? 2 : 0];
    for (size_t i = 0; i < S_DROPS; i++) {
        if (status_width(s) > w && drop[i] == S_TITLE && s->on[S_MODEL])
            snprintf(s->text[S_MODEL], APP_MSG_LEN, "%s", s->model_short);
        if (status_width(s) <= w)
            continue;
        if (drop[i] == S_COUNT && s->follow_short[0])
            snprintf(s->text[S_FOLLOW], APP_MSG_LEN, "%s", s->follow_short);
        else if (drop[i] < S_COUNT)
            s->on[drop[i]] = 0;
    }
    int shorten[] = { S_MSG, S_PARAMS };
    for (int i = 0; i < 2 && status_width(s) > w; i++) {
        char *t = s->text[shorten[i]];
        if (!s->on[shorten[i]])
            continue;
        int room = w - (status_width(s) - text_width(t));
        text_wrap_line(t, room, buf, sizeof buf);
        snprintf(t, APP_MSG_LEN, "%s", buf);
        s->on[shorten[i]] = buf[0] != 0;
    }
}

/* The message on its own rows [y, y + rows), wrapped at words. */
static void draw_msg_rows(const struct app *a, canvas *c, int y, int rows)
{
    char buf[APP_MSG_LEN];
    const char *m = a->msg;
    rgb fg = a->msg_error ? ui_color(a->palette, UI_WARN)
                          : ui_color(a->palette, UI_STATUS_FG);
    rgb bg = ui_color(a->palette, UI_STATUS_BG);
    canvas_fill(c, 0, y, c->w, rows, ' ', fg, bg);
    for (int i = 0; i < rows && *m; i++) {
        size_t used = text_wrap_line(m, c->w, buf, sizeof buf);
        if (used == 0)
            break;
        canvas_text(c, 0, y + i, c->w, buf, fg, bg,
                    a->msg_error ? ATTR_BOLD : 0);
        m += used;
    }
}

static void draw_status(const struct app *a, canvas *c, const struct view *v,
                        const char *hint, int own_rows)
{
    struct status s;
    int y = c->h - 1, x = 0;
    rgb fg = ui_color(a->palette, UI_STATUS_FG);
    rgb bg = ui_color(a->palette, UI_STATUS_BG);
    status_fill(a, v, hint, &s);
    if (own_rows > 0) {
        s.on[S_MSG] = 0;
        draw_msg_rows(a, c, c->h - 1 - own_rows, own_rows);
    }
    status_fit(&s, c->w, a->opening && !areas_tour_running(a));   /* a step: hint */
    canvas_fill(c, 0, y, c->w, 1, ' ', fg, bg);
    for (int i = 0; i < S_HELP; i++) {
        if (!s.on[i])
            continue;
        rgb pf = i == S_MSG && a->msg_error ? ui_color(a->palette, UI_WARN)
                                            : fg;
        int attr = i == S_TITLE || (i == S_MSG && a->msg_error) ? ATTR_BOLD
                                                                : 0;
        x += canvas_text(c, x, y, c->w - x, s.text[i], pf, bg, attr) + 2;
    }
    if (s.on[S_HELP])
        canvas_text(c, c->w - text_width(s.text[S_HELP]), y, -1,
                    s.text[S_HELP], fg, bg, 0);
}

/* ---- the ':' prompt ---------------------------------------------------- */

/* ':' and the end of what was typed, then a block cursor. */
static void draw_prompt(const struct app *a, canvas *c)
{
    int y = c->h - 1, room = c->w - 2;
    const char *s = a->prompt;
    rgb fg = ui_color(a->palette, UI_TEXT);
    canvas_fill(c, 0, y, c->w, 1, ' ', RGB_DEFAULT, RGB_DEFAULT);
    while (*s && text_width(s) > room)  /* keep the cursor end in view */
        utf8_next(&s);
    int x = canvas_text(c, 0, y, 1, ":", ui_color(a->palette, UI_ACCENT),
                        RGB_DEFAULT, ATTR_BOLD);
    x += canvas_text(c, x, y, room, s, fg, RGB_DEFAULT, 0);
    canvas_put(c, x, y, ' ', fg, RGB_DEFAULT, ATTR_REVERSE);
}

/* ---- the help card ------------------------------------------------------ */

enum { H_HEAD, H_KEY };

struct help_item {
    int kind;
    const char *label, *text;
};

struct help {
    struct help_item item[HELP_MAX_ITEMS];
    int nitem;
    int labw;       /* label column: the widest label up to HELP_LABEL_W */
    int natw;       /* the widest item on one line */
    char about[HELP_ABOUT_LINES][HELP_ABOUT_W * 4 + 1];
    int nabout;
    char views_label[32], views_help[APP_MSG_LEN];  /* the 1..N row */
    char prompt_help[1024];     /* the view's ':' row and its settings */
    char written[HELP_WRITTEN][160];    /* rows the view writes (key_help) */
    int nwritten;
    char global_prompt[512];    /* the global ':' row and the global ones */
};

/* How the card is laid out. */
struct help_plan {
    int ncol, colw, rows, iw, about;
};

/* Whether the view's table documents key itself (a row that does a
 * global action its own way leaves the global row in the card). */
static int bound_in(const struct keybind *t, int key)
{
    for (; t && t->key; t++)
        if (t->key == key)
            return t->act == ACT_VIEW_KEY || !t->fn;
    return 0;
}

/* Where an item's text starts: after the label column, or after a label
 * too long for it. */
static int item_text_x(const struct help *h, const struct help_item *it)
{
    int lw = it->label ? text_width(it->label) : 0;
    return (lw > h->labw ? lw : h->labw) + 2;
}

static void help_add(struct help *h, int kind, const char *label,
                     const char *text)
{
    if (h->nitem >= HELP_MAX_ITEMS)
        return;
    h->item[h->nitem++] = (struct help_item){ kind, label, text };
    int lw = label ? text_width(label) : 0;
    if (lw > h->labw && lw <= HELP_LABEL_W)
        h->labw = lw;
}

/* Row k's help: the ':' row's in prompt_help, one the view writes in
 * the next of written (k->help once they are all taken). */
static const char *view_row_help(struct help *h, const struct view *v,
                                 const struct keybind *k)
{
    if (k->act == ACT_PROMPT)
        return view_key_help(v, k, h->prompt_help, sizeof h->prompt_help);
    if (h->nwritten == HELP_WRITTEN)
        return k->help;
    char *buf = h->written[h->nwritten];
    const char *t = view_key_help(v, k, buf, sizeof h->written[0]);
    h->nwritten += t == buf;
    return t;
}

/* The view's own keys, then the global ones it does not take over (the
 * ':' prompt's global commands work in every view: always listed). */
static void help_keys(struct help *h, const struct view *v)
{
    const struct keybind *k;
    if (v && v->keys && v->keys->key) {
        help_add(h, H_HEAD, NULL, "in this view");
        for (k = v->keys; k->key; k++)
            if (k->label)
                help_add(h, H_KEY, k->label, view_row_help(h, v, k));
    }
    help_add(h, H_HEAD, NULL, "in every view");
    views_keys_text(h->views_label, sizeof h->views_label, h->views_help,
                    sizeof h->views_help);
    for (k = KEYS_GLOBAL; k->key; k++)
        if (k->act == ACT_VIEW_N && k->label)
            help_add(h, H_KEY, h->views_label, h->views_help);
        else if (k->label && (k->act == ACT_PROMPT ||   /* its commands */
                              !bound_in(v ? v->keys : NULL, k->key)))
            help_add(h, H_KEY, k->label,
                     view_key_help(NULL, k, h->global_prompt,
                                   sizeof h->global_prompt));
    for (int i = 0; i < h->nitem; i++) {
        const struct help_item *it = &h->item[i];
        int w = text_width(it->text) + (it->kind == H_KEY ? item_text_x(h, it)
                                                           : 0);
        if (w > h->natw)
            h->natw = w;
    }
}

/* Lines an item takes in a column colw wide (its text wraps). */
static int item_lines(const struct help *h, const struct help_item *it,
                      int colw)
{
    char buf[256];
    const char *t = it->text;
    int n = 0, tw = colw - item_text_x(h, it);
    if (it->kind == H_HEAD || !*t || tw < 1)
        return 1;
    while (*t) {
        size_t used = text_wrap_line(t, tw, buf, sizeof buf);
        if (used == 0)
            break;
        t += used;
        n++;
    }
    return n > 0 ? n : 1;
}

static void item_draw(const struct app *a, canvas *c, int x, int y,
                      int colw, const struct help *h,
                      const struct help_item *it)
{
    char buf[256];
    const char *t = it->text;
    if (it->kind == H_HEAD) {
        canvas_text(c, x, y, colw, t, ui_color(a->palette, UI_ACCENT),
                    RGB_DEFAULT, ATTR_BOLD | ATTR_UNDERLINE);
        return;
    }
    int tx = item_text_x(h, it), tw = colw - tx;
    canvas_text(c, x, y, colw, it->label, ui_color(a->palette, UI_ACCENT),
                RGB_DEFAULT, ATTR_BOLD);
    while (*t && tw >= 1) {
        size_t used = text_wrap_line(t, tw, buf, sizeof buf);
        if (used == 0)
            break;
        canvas_text(c, x + tx, y++, tw, buf, ui_color(a->palette, UI_TEXT),
                    RGB_DEFAULT, 0);
        t += used;
    }
}

/*
 * Flow the items top to bottom into columns of rows lines (a heading is
 * never left alone at the bottom of a column).  Draws when c != NULL.
 * Returns how many items were placed.
 */
static int help_flow(const struct app *a, canvas *c, int x, int y,
                     const struct help *h, const struct help_plan *p)
{
    int col = 0, r = 0, i;
    for (i = 0; i < h->nitem; i++) {
        const struct help_item *it = &h->item[i];
        int n = item_lines(h, it, p->colw);
        int need = n + (it->kind == H_HEAD && i + 1 < h->nitem
                        ? item_lines(h, it + 1, p->colw) : 0);
        if (r > 0 && r + need > p->rows) {
            col++;
            r = 0;
        }
        if (col >= p->ncol || n > p->rows)
            break;
        if (c)
            item_draw(a, c, x + col * (p->colw + 3), y + r, p->colw, h, it);
        r += n;
    }
    return i;
}

/* The about paragraph wrapped to width; its line count. */
static int help_wrap_about(struct help *h, const char *about, int width)
{
    h->nabout = 0;
    while (about && *about && h->nabout < HELP_ABOUT_LINES) {
        size_t used = text_wrap_line(about, width, h->about[h->nabout],
                                sizeof h->about[0]);
        if (used == 0)
            break;
        about += used;
        h->nabout++;
    }
    return h->nabout;
}

/* Try ncol columns, with or without the about text, and with entries
 * wrapped or not; 1 if all fits. */
static int help_try(struct help *h, const struct view *v, int maxw,
                    int maxrows, int ncol, int about, int wrap,
                    struct help_plan *p)
{
    p->ncol = ncol;
    p->colw = (maxw - 3 * (ncol - 1)) / ncol;
    if (p->colw > h->natw)
        p->colw = h->natw;
    if ((ncol > 1 && p->colw < HELP_MIN_COLW) || (!wrap && p->colw < h->natw))
        return 0;
    p->iw = ncol * p->colw + 3 * (ncol - 1);
    p->about = 0;
    if (about && v && v->about) {
        int aw = maxw < HELP_ABOUT_W ? maxw : HELP_ABOUT_W;
        p->iw = p->iw > aw ? p->iw : aw;
        p->about = help_wrap_about(h, v->about, p->iw) + 1;
    }
    for (p->rows = 1; p->rows <= maxrows - p->about; p->rows++)
        if (help_flow(NULL, NULL, 0, 0, h, p) == h->nitem)
            return 1;
    return 0;
}

/* The most columns that fit and show everything (a wide, low card);
 * else the same without the about text; else cut at the bottom. */
static void help_plan(struct help *h, const struct view *v, int w, int hgt,
                      struct help_plan *p)
{
    int maxw = w - 4, maxrows = hgt - 2;
    for (int about = 1; about >= 0; about--)
        for (int wrap = 0; wrap <= 1; wrap++)
            for (int n = HELP_MAX_COLS; n >= 1; n--)
                if (help_try(h, v, maxw, maxrows, n, about, wrap, p))
                    return;
    for (int n = HELP_MAX_COLS; n >= 1; n--)
        if (n == 1 || (maxw - 3 * (n - 1)) / n >= HELP_MIN_COLW) {
            help_try(h, v, maxw, maxrows, n, 0, 1, p);
            p->rows = maxrows;
            return;
        }
}

static void draw_help(const struct app *a, canvas *c, const struct view *v)
{
    struct help h;
    struct help_plan p;
    char title[64];
    if (c->w < 12 || c->h < 4)
        return;
    memset(&h, 0, sizeof h);
    help_keys(&h, v);
    help_plan(&h, v, c->w, c->h, &p);
    int bw = p.iw + 4, bh = 2 + p.about + p.rows;
    if (c->w - bw < 4)          /* no thin leftovers of the view beside it */
        bw = c->w;
    int x = (c->w - bw) / 2, y = (c->h - bh) / 2;
    snprintf(title, sizeof title, "help: %s", v ? v->title : "peviz");
    canvas_fill(c, x, y, bw, bh, ' ', RGB_DEFAULT, RGB_DEFAULT);
    canvas_box(c, x, y, bw, bh, ui_color(a->palette, UI_AXIS), title);
    for (int i = 0; p.about && i < h.nabout; i++)
        canvas_text(c, x + 2, y + 1 + i, p.iw, h.about[i],
                    ui_color(a->palette, UI_TEXT), RGB_DEFAULT, 0);
    if (help_flow(a, c, x + 2, y + 1 + p.about, &h, &p) < h.nitem)
        canvas_text(c, x + 2, y + bh - 1, bw - 4,
                    " \xe2\x80\xa6 more on a taller screen ",
                    ui_color(a->palette, UI_WARN), RGB_DEFAULT, 0);
    else
        centre_in(c, x, bw, y + bh - 1, " any key closes this card ",
                  ui_color(a->palette, UI_DIM));
}

/* ---- the frame ---------------------------------------------------------- */

/* The rule between the two views of a split, the second one's title on
 * it when stacked, and the second view itself. */
static void draw_second(const struct app *a, canvas *c,
                        const struct areas *r, int finish)
{
    char hint[HINT_LEN] = "", title[96];
    rgb axis = ui_color(a->palette, UI_AXIS);
    if (r->side) {
        canvas_vline(c, r->w, 0, r->h2, axis);
    } else {
        canvas_hline(c, 0, r->h, r->w2, axis);
        snprintf(title, sizeof title, " %s ", VIEWS[r->second]->title);
        canvas_text(c, 2, r->h, r->w2 - 2, title,
                    ui_color(a->palette, UI_ACCENT), RGB_DEFAULT, ATTR_BOLD);
    }
    canvas sub = canvas_sub(c, r->x2, r->y2, r->w2, r->h2);
    int busy = view_frame(a, (enum view_id)r->second, &sub, finish, hint,
                          sizeof hint);
    if (a->rt)
        a->rt->busy[r->second] = busy;
}

/* What the cursor is on, as :point shows it. */
static void point_text(const struct app *a, char *t, size_t len)
{
    const struct view *v = view_current(a);
    if (v && v->point_text)
        v->point_text(a, t, len);
    else
        snprintf(t, len, "the cursor");
}

/* Follow mode's lines for the class, over the view's last rows from y
 * up: the teacher's :note, and with :point what the cursor is on. */
static void draw_class(const struct app *a, canvas *c, int y)
{
    char t[APP_MSG_LEN], what[64];
    rgb fg = ui_color(a->palette, UI_ACCENT);
    if (c->w < FRAME_MIN_W || c->h < FRAME_MIN_H || a->help)
        return;
    if (a->note[0] && y >= 1) {
        snprintf(t, sizeof t, "%s %s", glyph(a->ascii, GL_PLAY), a->note);
        canvas_fill(c, 0, y, c->w, 1, ' ', RGB_DEFAULT, RGB_DEFAULT);
        canvas_text(c, 0, y--, c->w, t, fg, RGB_DEFAULT, ATTR_BOLD);
    }
    if (a->point && y >= 1) {
        point_text(a, what, sizeof what);
        snprintf(t, sizeof t, "%s look here: %s", glyph(a->ascii, GL_PLAY),
                 what);
        canvas_fill(c, 0, y, c->w, 1, ' ', RGB_DEFAULT, RGB_DEFAULT);
        canvas_text(c, 0, y, c->w, t, fg, RGB_DEFAULT,
                    ATTR_BOLD | ATTR_REVERSE);
    }
}

static void compose(const struct app *a, canvas *c, int finish)
{
    char hint[HINT_LEN] = "";
    canvas_clear(c);
    if (c->w < 1 || c->h < 1)
        return;
    if (c->w < FRAME_MIN_W || c->h < FRAME_MIN_H) {
        draw_too_small(a, c);
        return;
    }
    const struct view *v = view_current(a);
    int vw, vh, mrows = areas_msg_rows(a, c->w, c->h);
    struct areas ar;
    areas_compute(a, c->w, c->h, &vw, &vh, &ar);
    canvas body = canvas_sub(c, 0, 0, ar.w, ar.h);
    if (v) {
        int busy = view_frame(a, a->view, &body, finish, hint, sizeof hint);
        if (a->rt)
            a->rt->busy[a->view] = busy;
    }
    if (ar.second >= 0)
        draw_second(a, c, &ar, finish);
    if (vh < c->h - 1 - mrows) {
        canvas panel = canvas_sub(c, 0, vh, c->w, c->h - 1 - mrows - vh);
        caption_draw(a, &panel);
    }
    draw_class(a, c, c->h - 2 - mrows);
    if (a->prompt_open)
        draw_prompt(a, c);
    else
        draw_status(a, c, v, hint, mrows);
    if (a->help)                /* may cover the status line when tall */
        draw_help(a, c, v);
    if (a->plain_mode)
        plain_rewrite(c);
    else if (a->no_braille)
        canvas_unbraille(c);
}

void frame_draw(const struct app *a, canvas *c)
{
    compose(a, c, 0);
}

void frame_draw_finished(const struct app *a, canvas *c)
{
    compose(a, c, 1);
}
