/* SPDX-License-Identifier: ISC */
/*
 * areas.c - where things go in a frame (areas.h): the rows a long
 * message takes, the tour's caption panel, the view area and a split's
 * two views.
 */
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "areas.h"
#include "peviz/tables.h"
#include "text.h"
#include "tour_data.h"

#define MSG_MAX_ROWS 3      /* a long message wraps onto at most these */

void areas_status_params(const struct app *a, char *buf, size_t len)
{
    int table = a->pe_table && a->pe_table->d == a->p.d &&
                (a->view == VIEW_HEATMAP ||
                 (a->view == VIEW_ATTENTION &&
                  a->att.o.scheme == SCHEME_LEARNED));
    if (!table) {
        params_format(&a->p, buf, len);
        return;
    }
    snprintf(buf, len, "d_model=%d n=%ld pos=%ld", a->p.d, (long)a->p.n,
             (long)a->p.pos);
}

/*
 * A message that does not fit on the status line next to the parameters
 * gets rows of its own above it, wrapped at words, so it never loses its
 * end (an error keeps its valid range).  Returns how many (0: it fits).
 */
static int msg_rows(const struct app *a, int w)
{
    char pf[APP_MSG_LEN], buf[APP_MSG_LEN];
    const char *m = a->msg;
    int n = 0;
    if (!*m || a->prompt_open)
        return 0;
    areas_status_params(a, pf, sizeof pf);
    if (text_width(m) + 2 + text_width(pf) <= w)
        return 0;
    while (*m && n < MSG_MAX_ROWS) {
        size_t used = text_wrap_line(m, w, buf, sizeof buf);
        if (used == 0)
            break;
        m += used;
        n++;
    }
    return n;
}

int areas_msg_rows(const struct app *a, int W, int H)
{
    int m = W >= FRAME_MIN_W && H >= FRAME_MIN_H ? msg_rows(a, W) : 0;
    return H - 1 - m < FRAME_MIN_H - 1 ? 0 : m;
}

/* The view area: the frame minus the status line, a long message's rows
 * and the tour caption. */
static void view_area(const struct app *a, int W, int H, int *w, int *h)
{
    /* a long message: rows of its own above the status line, unless it
     * came while the view computed (a new size would start that over) */
    int mrows = a->msg_over ? 0 : areas_msg_rows(a, W, H);
    /* tour: the caption panel takes the rows below the view (tour.h) */
    int cap = W >= FRAME_MIN_W && H >= FRAME_MIN_H
              ? areas_panel_rows(a, W, H - 1 - mrows) : 0;
    *w = W;
    *h = H - 1 - mrows - cap;
}

static void split_areas(const struct app *a, int vw, int vh, int W, int H,
                        struct areas *r)
{
    memset(r, 0, sizeof *r);
    r->w = vw;
    r->h = vh;
    r->second = -1;
    int sv = a->split - 1, how = geom_split_fits(W, H);
    if (sv < 0 || sv >= VIEW_COUNT || sv == (int)a->view || a->presenter ||
        !how || (how == 2 && vh < FRAME_SPLIT_STACK_H))
        return;
    r->second = sv;
    r->side = how == 1;
    if (r->side) {
        r->w = (vw - 1) / 2;
        r->x2 = r->w + 1;
        r->w2 = vw - r->x2;
        r->h2 = vh;
    } else {
        r->h = (vh - 1) / 2;
        r->y2 = r->h + 1;
        r->w2 = vw;
        r->h2 = vh - r->y2;
    }
}

void areas_compute(const struct app *a, int W, int H, int *vw, int *vh,
                 struct areas *r)
{
    view_area(a, W, H, vw, vh);
    split_areas(a, *vw, *vh, W, H, r);
}

void areas_view_size(const struct app *a, int W, int H, int *w, int *h)
{
    struct areas r;
    int vw, vh;
    areas_compute(a, W, H, &vw, &vh, &r);
    *w = r.w;
    *h = r.h;
}

/* ---- the tour's caption panel ------------------------------------------ */

int areas_tour_running(const struct app *a)
{
    return a->tour && a->tour_active && a->tour->nsteps > 0;
}

const struct tour_step *areas_shown_step(const struct app *a)
{
    return areas_tour_running(a) && a->tour_step >= 0 &&
           a->tour_step < a->tour->nsteps ? &a->tour->steps[a->tour_step]
                                          : NULL;
}

int areas_text_width(int w)
{
    return w - 2 < TOUR_TEXT_COLS ? w - 2 : TOUR_TEXT_COLS;
}

int areas_panel_rows(const struct app *a, int w, int h)
{
    const struct tour_step *s = areas_shown_step(a);
    int cap = h / 2;
    if (!s || a->still || w < 8 || cap < 2)
        return 0;
    int rows = 2 + text_wrap_lines(s->text, areas_text_width(w), NULL, 0);
    return rows < cap ? rows : cap;
}
