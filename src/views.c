/* SPDX-License-Identifier: ISC */
/*
 * views.c - the list of views (view.h), the names the command line, the
 * prompt and the help use, and the views' runtime objects (scheme names
 * live in libpeviz's SCHEMES table).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "areas.h"
#include "text.h"

#define VIEW_ENTRY_(id, name, type, member) [VIEW_##id] = &VIEW_##id##_DEF,
const struct view *const VIEWS[VIEW_COUNT] = { VIEW_LIST(VIEW_ENTRY_) };
#undef VIEW_ENTRY_

int view_parse(const char *name)
{
    for (int i = 0; i < VIEW_COUNT; i++)
        if (strcmp(name, VIEWS[i]->name) == 0)
            return i;
    return -1;
}

const struct view *view_current(const struct app *a)
{
    return (unsigned)a->view < VIEW_COUNT ? VIEWS[a->view] : NULL;
}

/* The view names joined by ", ", the last two by sep_last. */
static void join_names(char *buf, size_t len, const char *sep_last)
{
    const char *names[VIEW_COUNT];
    for (int i = 0; i < VIEW_COUNT; i++)
        names[i] = VIEWS[i]->name;
    words_join_last(names, VIEW_COUNT, sep_last, buf, len);
}

void views_names(char *buf, size_t len, const char *sep_last)
{
    join_names(buf, len, sep_last);
}

void views_keys_text(char *label, size_t llen, char *help, size_t hlen)
{
    size_t used = 0;
    label[0] = 0;
    if (VIEW_COUNT > 4)
        snprintf(label, llen, "1..%d", VIEW_COUNT < 9 ? VIEW_COUNT : 9);
    else
        for (int i = 0; i < VIEW_COUNT && used < llen; i++)
            used += (size_t)snprintf(label + used, llen - used, "%s%d",
                                     i ? " " : "", i + 1);
    join_names(help, hlen, ", ");
}

/* ---- runtime objects ---------------------------------------------------- */

static void *rt_new(enum view_id v)
{
    size_t size = VIEWS[v]->rt_size;
    return calloc(1, size ? size : 1);
}

static void rt_free(enum view_id v, void *rt)
{
    if (rt && VIEWS[v]->fini)
        VIEWS[v]->fini(rt);
    free(rt);
}

struct views_rt *views_rt_new(void)
{
    struct views_rt *r = calloc(1, sizeof *r);
    for (int v = 0; r && v < VIEW_COUNT; v++)
        if (!(r->rt[v] = rt_new((enum view_id)v))) {
            views_rt_free(r);
            return NULL;
        }
    return r;
}

void views_rt_free(struct views_rt *r)
{
    for (int v = 0; r && v < VIEW_COUNT; v++)
        rt_free((enum view_id)v, r->rt[v]);
    free(r);
}

void *view_rt_get(const struct app *a, enum view_id v, void **tmp)
{
    *tmp = NULL;
    if (a->rt && a->rt->rt[v])
        return a->rt->rt[v];
    return *tmp = rt_new(v);
}

void view_rt_done(enum view_id v, void *tmp)
{
    rt_free(v, tmp);
}

/* ---- the hooks in a frame, a key, a command ---------------------------- */

int view_raster_parts(enum view_id id)
{
    const struct view *v = (unsigned)id < VIEW_COUNT ? VIEWS[id] : NULL;
    if (!v || !v->raster)
        return 0;
    int n = v->raster_parts ? v->raster_parts : VIEW_RASTER_PARTS_DEFAULT;
    return n < VIEW_RASTER_PARTS ? n : VIEW_RASTER_PARTS;
}

int view_raster(const struct app *a, enum view_id id, int w, int h, int cw,
                int ch, int finish, int part, struct view_raster *r)
{
    const struct view *v = VIEWS[id];
    void *tmp, *rt;
    int got = -1;
    if (!v->raster || cw < 1 || ch < 1 || !(rt = view_rt_get(a, id, &tmp)))
        return -1;
    if (v->layout)
        v->layout(a, rt, w, h);
    if (v->work && finish)
        while (v->work(a, rt, VIEW_WORK_SLICE))
            ;
    got = v->raster(a, rt, cw, ch, part, r);
    view_rt_done(id, tmp);
    return got;
}

int view_frame(const struct app *a, enum view_id id, canvas *c, int finish,
               char *hint, size_t hintlen)
{
    const struct view *v = VIEWS[id];
    void *tmp, *rt = view_rt_get(a, id, &tmp);
    int busy = 0;
    if (!rt)
        return 0;
    if (v->layout)
        v->layout(a, rt, c->w, c->h);
    if (v->work)
        while ((busy = v->work(a, rt, VIEW_WORK_SLICE)) && finish)
            ;
    if (v->draw)
        v->draw(a, rt, c, hint, hintlen);
    view_rt_done(id, tmp);
    return busy;
}

/* The current view's runtime object, laid out for the size the view
 * gets on the screen now (so keys step by what is drawn). */
static void *view_ready(struct app *a, void **tmp)
{
    const struct view *v = VIEWS[a->view];
    void *rt = view_rt_get(a, a->view, tmp);
    int w, h;
    if (rt && v->layout) {
        areas_view_size(a, a->screen_w > 0 ? a->screen_w : 80,
                        a->screen_h > 0 ? a->screen_h : 24, &w, &h);
        v->layout(a, rt, w, h);
    }
    return rt;
}

int view_key(struct app *a, int key)
{
    enum view_id id = a->view;
    const struct keybind *k = keys_find(VIEWS[id]->keys, key);
    void *tmp;
    if (!k || !k->fn)
        return 0;
    void *rt = view_ready(a, &tmp);
    int r = rt && k->fn(a, rt, key);
    view_rt_done(id, tmp);
    return r;
}

const char *view_key_help(const struct view *v, const struct keybind *k,
                          char *buf, size_t len)
{
    size_t n;
    const struct setting *rows = v ? v->settings : APP_SETTINGS;
    const char *written = v && v->key_help ? v->key_help(k, buf, len) : NULL;
    if (written)
        return written;
    if (!rows || k->act != ACT_PROMPT)
        return k->help ? k->help : "";
    n = (size_t)snprintf(buf, len, "%s", k->help ? k->help : "");
    for (const struct setting *s = rows; s->name && n < len; s++)
        if (s->where & SET_PROMPT)
            n += (size_t)snprintf(buf + n, len - n, "%s:%s" TEXT_GLUE "%s",
                                  !n ? "" : buf[n - 1] == ':' ? " " : "  ",
                                  settings_prompt(s),
                                  s->arg ? s->arg : "on|off");
    return buf;
}

const char *view_key_text(const struct view *v, const struct keybind *k,
                          char *label, size_t llen, char *buf, size_t len,
                          const char **help)
{
    if (k->act != ACT_VIEW_N) {
        *help = view_key_help(v, k, buf, len);
        return k->label;
    }
    views_keys_text(label, llen, buf, len);
    *help = buf;
    return label;
}

int view_command(struct app *a, const char *name, const char *arg)
{
    enum view_id id = a->view;
    void *tmp;
    if (!VIEWS[id]->command)
        return 0;
    void *rt = view_ready(a, &tmp);
    int r = rt && VIEWS[id]->command(a, rt, name, arg);
    view_rt_done(id, tmp);
    return r;
}
