/* SPDX-License-Identifier: ISC */
/*
 * tour_check.c - a tour's check lines at each classroom size, with and
 * without colour (see tour_check.h; the lines are parsed in tour.c).
 */
#include <stdio.h>
#include <string.h>

#include "canvas.h"
#include "frame.h"
#include "keys.h"
#include "tour.h"
#include "tour_check.h"
#include "view.h"

const int TOUR_CHECK_SIZES[][2] = { { 80, 24 }, { 120, 40 }, { 160, 48 } };
const int TOUR_CHECK_NSIZES =
    (int)(sizeof TOUR_CHECK_SIZES / sizeof TOUR_CHECK_SIZES[0]);

static const enum color_mode MODES[2] = { COLOR_TRUE, COLOR_NONE };

/* Step i as a class sees it on c in colour mode m. */
static void tour_check_draw(struct app *a, int i, canvas *c,
                            enum color_mode m)
{
    a->tour_step = i;
    a->tour_active = 1;
    tour_apply(a, a->tour, i);
    a->color = m;
    a->screen_w = c->w;
    a->screen_h = c->h;
    canvas_clear(c);
    frame_draw_finished(a, c);
}

/* The number the view showed by name; -1 with why when it showed none. */
static int tour_check_qty(const struct app *a, const char *name, double *v,
                          char *why, size_t len)
{
    const struct view *vw = view_current(a);
    if (vw && vw->quantity && a->rt &&
        vw->quantity(a, a->rt->rt[a->view], name, v) == 0)
        return 0;
    if (vw && vw->quantities)
        snprintf(why, len, "the %s view shows no '%s' here (it names: %s)",
                 vw->name, name, vw->quantities);
    else
        snprintf(why, len, "the %s view names no quantities",
                 vw ? vw->name : "?");
    return -1;
}

static int tour_check_holds(enum tour_check_op op, double l, double r)
{
    switch (op) {
    case TOUR_LT: return l < r;
    case TOUR_LE: return l <= r;
    case TOUR_GT: return l > r;
    case TOUR_GE: return l >= r;
    case TOUR_EQ: return l == r;
    case TOUR_OP_COUNT: break;
    }
    return 0;
}

/* The relation of c on the screen just drawn: 0, or -1 with why. */
static int tour_check_rel(const struct app *a, const struct tour_check *c,
                          char *why, size_t len)
{
    double l, r = 1;
    if (tour_check_qty(a, c->lhs, &l, why, len) ||
        (c->rhs[0] && tour_check_qty(a, c->rhs, &r, why, len)))
        return -1;
    if (tour_check_holds(c->op, l, c->factor * r))
        return 0;
    if (c->rhs[0])
        snprintf(why, len, "%s does not hold: %s = %.4g, %s = %.4g",
                 c->arg, c->lhs, l, c->rhs, r);
    else
        snprintf(why, len, "%s does not hold: %s = %.4g", c->arg, c->lhs, l);
    return -1;
}

/* Check c on the step just drawn: 0, or -1 with why. */
static int tour_check_one(struct app *a, const struct tour_check *c,
                          char *why, size_t len)
{
    char b[16];
    a->msg[0] = 0;
    a->msg_error = 0;
    switch (c->kind) {
    case TOUR_CHECK_KEY:
        if (app_key(a, c->key) != ACT_NONE && !a->msg_error)
            return 0;
        snprintf(why, len, "key %s is refused in the %s view%s%s",
                 keys_name(c->key, b, sizeof b), VIEWS[a->view]->name,
                 a->msg[0] ? ": " : "", a->msg);
        return -1;
    case TOUR_CHECK_SET:
        if (tour_command(a, c->arg + 4) == 0 && !a->msg_error)
            return 0;
        snprintf(why, len, "%s is refused%s%s", c->arg, a->msg[0] ? ": " : "",
                 a->msg);
        return -1;
    case TOUR_CHECK_REL:
        return tour_check_rel(a, c, why, len);
    }
    return -1;
}

/* Step i drawn on c in colour mode m and each of its checks tried; the
 * failures. */
static int tour_check_step(struct app *a, int i, canvas *c, int m, FILE *out)
{
    const struct tour_step *s = &a->tour->steps[i];
    int bad = 0;
    if (s->nchecks == 0)        /* drawn all the same: every step runs */
        tour_check_draw(a, i, c, MODES[m]);
    for (int j = 0; j < s->nchecks; j++) {
        char why[APP_MSG_LEN + 256];
        tour_check_draw(a, i, c, MODES[m]);
        if (tour_check_one(a, &s->checks[j], why, sizeof why) == 0)
            continue;
        fprintf(out, "%s:%d: step %d at %dx%d, %s: %s\n", a->tour->path,
                s->checks[j].line, i + 1, c->w, c->h,
                m == 0 ? "colour" : "no colour", why);
        bad++;
    }
    return bad;
}

int tour_check_run(struct app *a, FILE *out, int *tried)
{
    int bad = 0, own = !a->rt;
    *tried = 0;
    if (own && !(a->rt = views_rt_new()))
        return -1;
    for (int z = 0; z < TOUR_CHECK_NSIZES && bad >= 0; z++) {
        canvas c;
        if (canvas_init(&c, TOUR_CHECK_SIZES[z][0], TOUR_CHECK_SIZES[z][1])) {
            bad = -1;
            break;
        }
        for (int i = 0; i < a->tour->nsteps; i++)
            for (int m = 0; m < 2; m++) {
                bad += tour_check_step(a, i, &c, m, out);
                *tried += a->tour->steps[i].nchecks;
            }
        canvas_free(&c);
    }
    if (own) {
        views_rt_free(a->rt);
        a->rt = NULL;
    }
    return bad;
}
