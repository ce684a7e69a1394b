/* SPDX-License-Identifier: ISC */
/*
 * app.c - the application state and the one place keys and ':'
 * commands change it.  Every parameter change goes through params.c, so
 * the keys, the prompt and the command line accept the same values.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "config.h"
#include "config_mask.h"
#include "geom.h"
#include "plans.h"
#include "peviz/fmt.h"
#include "peviz/tables.h"

#define SPEED_MIN 0.125
#define SPEED_MAX 1048576.0

static void views_init(struct app *a)
{
    for (int v = 0; v < VIEW_COUNT; v++)
        if (VIEWS[v]->reset)
            VIEWS[v]->reset(a);
}

void app_init(struct app *a)
{
    memset(a, 0, sizeof *a);
    params_default(&a->p);
    a->view = VIEW_HEATMAP;
    a->speed = 4;
    a->color = COLOR_256;
    settings_reset(APP_SETTINGS, a);
    mpos_conf_default(&a->mp);
    mpos_conf_default(&a->mp_start);
    views_init(a);
}

void app_msg(struct app *a, int error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->msg, sizeof a->msg, fmt, ap);
    va_end(ap);
    a->msg_error = error;
    a->msg_over = app_view_busy(a);
}

void app_params_changed(struct app *a)
{
    for (int v = 0; v < VIEW_COUNT; v++)
        if (VIEWS[v]->params_changed)
            VIEWS[v]->params_changed(a);
}

/* Take next as the parameters if its RoPE scaling fits its d (a
 * LongRoPE list needs d/2 entries); else say why and keep a->p. */
static int commit_params(struct app *a, const params *next)
{
    char err[APP_MSG_LEN];
    if (params_check_rope(next, err, sizeof err)) {
        app_msg(a, 1, "%s", err);
        return -1;
    }
    a->p = *next;
    app_params_changed(a);
    return 0;
}

/* Scale one parameter as the keys do, clamping with a message. */
static void scale(struct app *a, enum param_id id, double factor)
{
    char m[APP_MSG_LEN];
    params next = a->p;
    int clamped = params_scale(&next, id, factor, m, sizeof m);
    if (commit_params(a, &next) == 0 && clamped)
        app_msg(a, 0, "%s", m);
}

static void move_pos(struct app *a, int64_t delta)
{
    int64_t p = a->p.pos + delta;
    a->p.pos = p < 0 ? 0 : p >= a->p.n ? a->p.n - 1 : p;
    a->pos_frac = 0;
}

static void set_speed(struct app *a, double factor)
{
    double s = a->speed * factor;
    if (s < SPEED_MIN || s > SPEED_MAX) {
        app_msg(a, 0, "sweep speed stays at %g pos/s", a->speed);
        return;
    }
    a->speed = s;
    app_msg(a, 0, "sweep speed %g pos/s", s);
}

void app_set_source(struct app *a, const char *name, int is_file)
{
    const char *b = is_file && strrchr(name, '/') ? strrchr(name, '/') + 1
                                                 : name;
    snprintf(a->source, sizeof a->source, "%s", b);
    for (char *q = a->source; *q; q++)     /* a file name shown on screen */
        if ((unsigned char)*q < 0x20 || *q == 0x7f)
            *q = '?';
    a->source_p = a->p;
}

/* Whether p still has the source's d, base and scaling. */
static int source_kept(const struct app *a)
{
    return a->p.d == a->source_p.d && a->p.base == a->source_p.base &&
           memcmp(&a->p.rope, &a->source_p.rope, sizeof a->p.rope) == 0;
}

/* The preset pane A was set from while the settings are still its (a
 * follower knows the model only so), or NULL. */
static const char *pane_a_model(const struct app *a)
{
    const struct rope_preset *m = rope_preset_at(a->cmp.panes[0].model - 1);
    params q = a->p;
    char err[APP_MSG_LEN];
    if (!m || params_set_model(&q, m->name, err, sizeof err))
        return NULL;
    return q.d == a->p.d && q.base == a->p.base &&
           memcmp(&q.rope, &a->p.rope, sizeof q.rope) == 0 ? m->name : NULL;
}

void app_source_format(const struct app *a, char *buf, size_t len)
{
    char sc[64];
    const char *m = a->source[0] ? NULL : pane_a_model(a);
    params_format_rope(&a->p, sc, sizeof sc);
    if (a->p.rope.method == ROPE_NONE)      /* words, not the method's name */
        snprintf(sc, sizeof sc, "no scaling");
    if (m)
        snprintf(buf, len, "%s: %s", m, sc);
    else if (!a->source[0])
        snprintf(buf, len, "%s", a->p.rope.method == ROPE_NONE ? ""
                                 : sc);
    else if (source_kept(a))
        snprintf(buf, len, "%s: %s", a->source, sc);
    else
        snprintf(buf, len, "%s (from %s, changed)", sc, a->source);
}

int app_rope_cache(const struct app *a)
{
    return a->source[0] || a->p.rope.method != ROPE_NONE;
}

void app_reset(struct app *a)
{
    char source[APP_SOURCE_LEN];
    params sp = a->source_p;
    int model = a->cmp.panes[0].model;
    snprintf(source, sizeof source, "%s", a->source);
    app_reset_defaults(a);
    if (!source[0])
        return;
    memcpy(a->source, source, sizeof source);
    a->source_p = sp;
    a->p = sp;                          /* the model's settings and n */
    a->p.pos = 0;
    if (a->pe_table) {                  /* a loaded table's d and n win */
        params t = a->p;
        char err[APP_MSG_LEN];
        t.d = a->pe_table->d;
        t.n = a->pe_table->n;
        if (params_check_rope(&t, err, sizeof err) == 0)
            a->p = t;
    }
    a->cmp.panes[0].model = model;
    app_params_changed(a);
}

/* What a reset keeps: how the program is shown, the lecture, the loaded
 * tables and the follow and tour state. */
#define KEEP(f) { offsetof(struct app, f), sizeof ((struct app *)0)->f }
static const struct { size_t off, len; } KEPT[] = {
    KEEP(ascii), KEEP(color), KEEP(palette), KEEP(mouse), KEEP(fps),
    KEEP(low_bandwidth), KEEP(screen_w), KEEP(screen_h), KEEP(split),
    KEEP(presenter), KEEP(share_zoom), KEEP(point), KEEP(note),
    KEEP(pe_table), KEEP(t5_table), KEEP(qk_table), KEEP(pe_file_name),
    KEEP(pe_info), KEEP(pe_digest), KEEP(follow_status), KEEP(follow_short),
    KEEP(tour), KEEP(tour_step), KEEP(tour_active), KEEP(tour_lang),
    KEEP(rt),
};

void app_reset_defaults(struct app *a)
{
    struct app keep = *a;
    app_init(a);
    for (size_t i = 0; i < sizeof KEPT / sizeof KEPT[0]; i++)
        memcpy((char *)a + KEPT[i].off, (const char *)&keep + KEPT[i].off,
               KEPT[i].len);
    a->mp = a->mp_start = keep.mp_start;    /* the sequence sets n */
    if (a->mp.mode != MPOS_OFF)
        a->p.n = mpos_count(&a->mp);
    if (a->pe_table) {                  /* a loaded table sets d and n */
        a->p.d = a->pe_table->d;
        a->p.n = a->pe_table->n;
    }
}

static void reset(struct app *a)
{
    enum view_id v = a->view;
    app_reset(a);
    a->view = v;
    if (a->source[0])
        app_msg(a, 0, "reset to the defaults of %s (R resets everything)",
                a->source);
    else
        app_msg(a, 0, "reset to the defaults");
}

/* R: ask first; R again resets the model, config and table too. */
static void reset_all(struct app *a, int confirmed)
{
    enum view_id v = a->view;
    if (!confirmed) {
        a->confirm_reset = 1;
        app_msg(a, 0, "R again: reset everything, also %s%s%s; any other "
                "key keeps them", a->source[0] ? a->source : "the model",
                a->pe_table ? " and the table " : "",
                a->pe_table && a->pe_file_name ? a->pe_file_name : "");
        return;
    }
    app_reset_defaults(a);
    a->pe_table = NULL;                 /* main still owns and frees it */
    a->pe_file_name = NULL;
    a->pe_info = NULL;
    a->p.d = PARAM_D_DEFAULT;
    a->p.n = PARAM_N_DEFAULT;
    a->view = v;
    app_params_changed(a);
    app_msg(a, 0, "reset everything to the defaults");
}

static void switch_view(struct app *a, int v)
{
    enum view_id old = a->view;
    a->view = (enum view_id)((v + VIEW_COUNT) % VIEW_COUNT);
    if (a->split == (int)a->view + 1)   /* split: the two trade places */
        a->split = (int)old + 1;
}

/* Presenter mode on or off (z, :zoom). */
static void presenter(struct app *a, int on)
{
    a->presenter = on;
    app_msg(a, 0, on ? "presenter: the panel under the cursor fills the "
                       "screen; z again returns"
                     : "presenter off");
}

/* :split VIEW beside (or below) the current one, :split off. */
static int split_cmd(struct app *a, const char *arg)
{
    char names[96];
    if (strcmp(arg, "off") == 0) {
        a->split = 0;
        app_msg(a, 0, "split off");
        return 0;
    }
    int v = view_parse(arg);
    views_names(names, sizeof names, " or ");
    if (v < 0) {
        app_msg(a, 1, "split: want off or a view: %s", names);
        return -1;
    }
    if (v == (int)a->view) {
        app_msg(a, 1, "split: %s is the view shown; pick another (%s)",
                VIEWS[v]->name, names);
        return -1;
    }
    int how = geom_split_fits(a->screen_w > 0 ? a->screen_w : 80,
                               a->screen_h > 0 ? a->screen_h : 24);
    if (!how) {
        app_msg(a, 1, "split: %dx%d is too small for two views (need %d "
                "columns side by side or %d rows stacked)", a->screen_w,
                a->screen_h, FRAME_SPLIT_SIDE_W, FRAME_SPLIT_STACK_H);
        return -1;
    }
    a->split = v + 1;
    app_msg(a, 0, "split: %s %s %s, sharing position and parameters; "
            ":split off ends it", VIEWS[v]->name,
            how == 1 ? "beside" : "below", VIEWS[a->view]->name);
    return 0;
}

/* Actions of the global table; returns 0 if the action means nothing here. */
static int do_action(struct app *a, enum action act, int key)
{
    switch (act) {
    case ACT_QUIT:       a->quit = 1; break;
    case ACT_HELP:       a->help = 1; break;
    case ACT_VIEW_N:
        if (key - '1' >= VIEW_COUNT)
            return 0;
        switch_view(a, key - '1'); break;
    case ACT_NEXT_VIEW:  switch_view(a, (int)a->view + 1); break;
    case ACT_PREV_VIEW:  switch_view(a, (int)a->view - 1); break;
    case ACT_D_HALF:     scale(a, P_D, 0.5); break;
    case ACT_D_DOUBLE:   scale(a, P_D, 2); break;
    case ACT_BASE_DIV:   scale(a, P_BASE, 0.1); break;
    case ACT_BASE_MUL:   scale(a, P_BASE, 10); break;
    case ACT_N_HALF:     scale(a, P_N, 0.5); break;
    case ACT_N_DOUBLE:   scale(a, P_N, 2); break;
    case ACT_LEFT: case ACT_STEP_BACK:  move_pos(a, -1); break;
    case ACT_RIGHT: case ACT_STEP_FWD:  move_pos(a, 1); break;
    case ACT_FAST_LEFT:  move_pos(a, -(a->p.n / 16 + 1)); break;
    case ACT_FAST_RIGHT: move_pos(a, a->p.n / 16 + 1); break;
    case ACT_HOME:       move_pos(a, -a->p.n); break;
    case ACT_END:        move_pos(a, a->p.n); break;
    case ACT_PLAY:
        a->playing = !a->playing;
        app_msg(a, 0, a->playing ? "sweep playing" : "sweep paused");
        break;
    case ACT_SLOWER:     set_speed(a, 0.5); break;
    case ACT_FASTER:     set_speed(a, 2); break;
    case ACT_RESET:      reset(a); break;
    case ACT_RESET_ALL:  reset_all(a, 0); break;
    case ACT_PROMPT:
        a->prompt_open = 1;
        a->prompt_len = 0;
        a->prompt[0] = 0;
        break;
    case ACT_MOUSE:
        a->mouse = !a->mouse;
        if (keys_find(VIEWS[a->view]->keys, PK_MOUSE))
            app_msg(a, 0, "mouse %s", a->mouse ? "on" : "off");
        else
            app_msg(a, 0, "mouse %s: clicks move the cursor in the heatmap "
                    "view; here they do nothing", a->mouse ? "on" : "off");
        break;
    case ACT_PALETTE:
        a->palette = (enum palette)((a->palette + 1) % PAL_COUNT);
        app_msg(a, 0, "palette %s", palette_name(a->palette));
        break;
    case ACT_PRESENTER:
        presenter(a, !a->presenter);
        break;
    case ACT_POINT:
        app_command(a, a->point ? "point off" : "point on");
        break;
    case ACT_REDRAW: case ACT_EXPORT:
        break;               /* the loop acts on these: it owns the screen */
    case ACT_TOUR:
        break;               /* the tour acts on it: it feeds the keys */
    default:
        return 0;
    }
    return 1;
}

/* Append the UTF-8 encoding of key to the prompt, if it fits. */
static void prompt_add(struct app *a, int key)
{
    char buf[8];
    int len = utf8_encode((uint32_t)key, buf);
    if (a->prompt_len + len >= APP_PROMPT_LEN)
        return;
    memcpy(a->prompt + a->prompt_len, buf, (size_t)len);
    a->prompt_len += len;
    a->prompt[a->prompt_len] = 0;
}

static void prompt_backspace(struct app *a)
{
    /* step back over UTF-8 continuation bytes */
    while (a->prompt_len > 0 &&
           ((unsigned char)a->prompt[--a->prompt_len] & 0xC0) == 0x80)
        ;
    a->prompt[a->prompt_len] = 0;
}

/* Inside a bracketed paste everything is text: Enter and Tab become a
 * space, what cannot be text (Esc, arrows) is dropped, and nothing
 * submits or closes the prompt. */
static void paste_key(struct app *a, int key)
{
    if (key == PK_ENTER || key == PK_TAB)
        key = ' ';
    if (key >= 0x20 && key < PK_BASE && key != 0x7f)
        prompt_add(a, key);
}

static enum action prompt_key(struct app *a, int key)
{
    if (key == PK_PASTE_BEGIN || key == PK_PASTE_END) {
        a->pasting = key == PK_PASTE_BEGIN;
    } else if (a->pasting) {
        paste_key(a, key);
    } else if (key == PK_ENTER) {
        a->prompt_open = 0;
        app_command(a, a->prompt);
    } else if (key == PK_ESC || key == PK_CTRL_C) {
        a->prompt_open = 0;
    } else if (key == PK_BACKSPACE) {
        if (a->prompt_len == 0)
            a->prompt_open = 0;
        prompt_backspace(a);
    } else if (key >= 0x20 && key < PK_BASE && key != 0x7f) {
        prompt_add(a, key);
    }
    return ACT_PROMPT;
}

void app_paste_cut(struct app *a)
{
    a->pasting = 0;
}

int app_key_take(struct app *a, int key, enum action *act)
{
    *act = ACT_NONE;
    if (key == PK_RESIZE || key == PK_NONE)
        return 1;
    if (a->prompt_open) {
        *act = prompt_key(a, key);
        return 1;
    }
    a->pasting = 0;
    if (key == PK_PASTE_BEGIN || key == PK_PASTE_END)
        return 1;               /* a paste marker outside the prompt */
    if (a->help) {
        a->help = 0;
        *act = key == 'q' ? ACT_NONE : ACT_HELP;
        return 1;
    }
    a->msg[0] = 0;
    int confirm = a->confirm_reset;     /* R asked: only R again confirms */
    a->confirm_reset = 0;
    if (confirm && keys_lookup(KEYS_GLOBAL, key) == ACT_RESET_ALL) {
        reset_all(a, 1);
        *act = ACT_RESET_ALL;
        return 1;
    }
    return 0;
}

enum action app_key_act(struct app *a, int key)
{
    if (view_key(a, key))
        return ACT_VIEW_KEY;
    enum action act = keys_lookup(KEYS_GLOBAL, key);
    if (act == ACT_NONE || !do_action(a, act, key)) {
        char b[16];
        if (key != PK_MOUSE)
            app_msg(a, 0, "key %s does nothing here; ? lists the keys",
                    keys_name(key, b, sizeof b));
        return ACT_NONE;
    }
    return act;
}

enum action app_key(struct app *a, int key)
{
    enum action act;
    return app_key_take(a, key, &act) ? act : app_key_act(a, key);
}

/* ---- ':' commands ---------------------------------------------------- */

/* Split "name  arg..." in place: returns the name, *arg the rest. */
char *app_command_split(char *line, char **arg)
{
    while (*line == ' ' || *line == '\t' || *line == ':')
        line++;
    char *sp = line;
    while (*sp && *sp != ' ' && *sp != '\t')
        sp++;
    if (*sp)
        *sp++ = 0;
    while (*sp == ' ' || *sp == '\t')
        sp++;
    *arg = sp;
    return line;
}

int app_command_file(const char *name)
{
    return strcmp(name, "config") == 0 || strcmp(name, "pe-file") == 0;
}

/* :model NAME, :scaling METHOD, :factor S, ... (params.h names). */
static int rope_command(struct app *a, const char *name, const char *arg)
{
    int id = params_rope_opt_parse(name), model = strcmp(name, "model") == 0;
    char err[APP_MSG_LEN], sc[64];
    params next = a->p;
    if (id < 0 && !model)
        return 1;
    if (model ? params_set_model(&next, arg, err, sizeof err)
              : params_set_rope(&next, (enum rope_opt)id, arg, err, sizeof err)) {
        app_msg(a, 1, "%s", err);
        return -1;
    }
    if (commit_params(a, &next))
        return -1;
    if (model) {        /* compare names pane A's model; its mask too */
        a->cmp.panes[0].model = 1 + params_model_index(arg);
        app_set_source(a, arg, 0);
        a->att.o.window = rope_preset_find(arg)->window;
        a->att.o.chunk = rope_preset_find(arg)->chunk;
    }
    params_format_rope(&a->p, sc, sizeof sc);
    app_msg(a, 0, "%s set: RoPE scaling %s", model ? "model" : ROPE_OPT_NAMES[id], sc);
    return 0;
}

/* :note TEXT shows TEXT on every follower's screen; :note alone clears
 * it.  Printable ASCII, as the protocol carries it. */
static int note_cmd(struct app *a, const char *arg)
{
    size_t n = strlen(arg);
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)arg[i] < 0x20 || (unsigned char)arg[i] > 0x7e) {
            app_msg(a, 1, "note: letters, digits, spaces and ASCII "
                    "punctuation only");
            return -1;
        }
    if (n > APP_NOTE_MAX) {
        app_msg(a, 1, "note: at most %d characters (this one has %zu)",
                APP_NOTE_MAX, n);
        return -1;
    }
    memcpy(a->note, arg, n + 1);
    app_msg(a, 0, n ? "note shown" : "note cleared");
    return 0;
}

/* :share zoom [off]: followers' presenter mode follows this one's. */
static int share_cmd(struct app *a, const char *arg)
{
    if (strncmp(arg, "zoom", 4) || (arg[4] && strcmp(arg + 4, " off") &&
                                    strcmp(arg + 4, " on"))) {
        app_msg(a, 1, "share: want zoom, zoom on or zoom off");
        return -1;
    }
    a->share_zoom = strcmp(arg + 4, " off") != 0;
    app_msg(a, 0, a->share_zoom ? "share zoom: followers' presenter mode "
            "follows yours" : "share zoom off");
    return 0;
}

/* :config FILE [LAYER]: the settings of a config.json or .gguf file,
 * checked as --config checks them; a refusal changes nothing. */
static int config_command(struct app *a, const char *arg)
{
    char err[APP_MSG_LEN], path[APP_PROMPT_LEN], sc[64];
    params next = a->p;
    snprintf(path, sizeof path, "%s", arg);
    char *layer = strchr(path, ' ');
    if (layer) {
        *layer++ = 0;
        while (*layer == ' ')
            layer++;
    }
    if (!path[0]) {
        app_msg(a, 1, "config: want a config.json or .gguf file name");
        return -1;
    }
    if (config_load(path, layer && *layer ? layer : NULL, &next, err,
                    sizeof err)) {
        app_msg(a, 1, "%s", err);
        return -1;
    }
    if (commit_params(a, &next))
        return -1;
    struct config_mask m;       /* the layer's mask, as --config sets it */
    if (config_mask(path, layer && *layer ? layer : NULL, &m) == 0) {
        a->att.o.window = m.window;
        a->att.o.chunk = m.chunk;
    }
    a->cmp.panes[0].model = 0;
    app_set_source(a, path, 1);
    params_format_rope(&a->p, sc, sizeof sc);
    app_msg(a, 0, "config %s: d=%d n=%ld RoPE scaling %s%s%s", a->source,
            a->p.d, (long)a->p.n, sc, m.note[0] ? ", " : "", m.note);
    return 0;
}

int app_load_table(struct app *a, const char *path, char *err, size_t errlen)
{
    if (app_table_load(a, path, err, errlen))
        return -1;
    app_params_changed(a);
    return 0;
}

/* :pe-file FILE: a table as --pe-file loads it; a refusal changes
 * nothing. */
static int table_command(struct app *a, const char *arg)
{
    char err[APP_MSG_LEN];
    if (app_load_table(a, arg, err, sizeof err)) {
        app_msg(a, 1, "%s", err);
        return -1;
    }
    app_msg(a, 0, "pe-file %s: %lld x %d table (d_model=%d n=%lld)",
            a->pe_file_name, (long long)a->pe_table->n, a->pe_table->d,
            a->p.d, (long long)a->p.n);
    return 0;
}

/* What the user typed, for a message: controls as '?', clipped. */
static void typed_text(const char *s, char *out, size_t len)
{
    size_t j = 0;
    for (; *s && j + 4 < len; s++)
        out[j++] = ((unsigned char)*s < 0x20 || *s == 0x7f) ? '?' : *s;
    if (*s) {
        memcpy(out + j, "...", 3);
        j += 3;
    }
    out[j] = 0;
}

/* The row's value and, for a global row, the parameters, kept to be
 * put back. */
struct row_was {
    char v[16];
    params p;
};

/* The new value's checks: the row's, and for a global row the RoPE
 * scaling against the new parameters. */
static int row_refused(const struct setting *s, struct app *a, int global,
                       char *err, size_t errlen)
{
    return settings_check(s, a, err, errlen) ||
           (global && params_check_rope(&a->p, err, errlen));
}

/* :NAME VALUE for a settings' row of rows (the view's, or the global
 * ones): its checks too, else the value is put back; a global row's
 * change then redraws every view; then the row's answer.  0: no row of
 * that name. */
static int row_setting(struct app *a, const struct setting *rows,
                       int global, const char *name, const char *arg)
{
    const struct setting *s = settings_find(rows, name,
                                            SET_PROMPT | SET_TOUR);
    char now[128], err[APP_MSG_LEN / 2], typed[48];
    struct row_was was = { .p = a->p };
    if (!s)
        return 0;
    memcpy(was.v, (char *)a + s->off, settings_size(s));
    if (settings_set(s, a, a->p.n, arg, err, sizeof err) ||
        row_refused(s, a, global, err, sizeof err)) {
        memcpy((char *)a + s->off, was.v, settings_size(s));
        a->p = was.p;
        typed_text(arg, typed, sizeof typed);
        app_msg(a, 1, ":%s %s%s%s", name, typed, *typed ? ": " : "", err);
        return 1;
    }
    if (global)
        app_params_changed(a);
    if (s->changed)
        s->changed(a);
    else {
        settings_show(s, a, now, sizeof now);
        app_msg(a, 0, "%s %s", name, now);
    }
    return 1;
}

/* :NAME VALUE in the current view: its own command, else one of its
 * settings' rows. */
static int app_view_command(struct app *a, const char *name, const char *arg)
{
    return view_command(a, name, arg) ||
           row_setting(a, VIEWS[a->view]->settings, 0, name, arg);
}

static int global_command(struct app *a, const char *name, const char *arg)
{
    if (row_setting(a, APP_SETTINGS, 1, name, arg))
        return a->msg_error ? -1 : 0;
    if (strcmp(name, "split") == 0)
        return split_cmd(a, arg);
    if (strcmp(name, "config") == 0)
        return config_command(a, arg);
    if (strcmp(name, "pe-file") == 0)
        return table_command(a, arg);
    if (strcmp(name, "help") == 0 || strcmp(name, "h") == 0) {
        a->help = 1;            /* the help card of this view, as ? */
        return 0;
    }
    if (strcmp(name, "pca") == 0) {     /* the heatmap's panel, from any view */
        switch_view(a, VIEW_HEATMAP);
        return app_view_command(a, name, arg) && !a->msg_error ? 0 : -1;
    }
    if (strcmp(name, "zoom") == 0) {
        presenter(a, strcmp(arg, "off") != 0 && !(a->presenter && !*arg));
        return 0;
    }
    if (strcmp(name, "note") == 0)
        return note_cmd(a, arg);
    if (strcmp(name, "share") == 0)
        return share_cmd(a, arg);
    if (strcmp(name, "point") == 0) {
        a->point = strcmp(arg, "off") != 0 && !(a->point && !*arg);
        app_msg(a, 0, a->point ? "point: followers see what the cursor is on"
                               : "point off");
        return 0;
    }
    int r = rope_command(a, name, arg);
    if (r <= 0)
        return r;
    if (strcmp(name, "view") == 0) {
        int v = view_parse(arg);
        if (v < 0) {
            char names[APP_MSG_LEN / 2];
            views_names(names, sizeof names, " or ");
            app_msg(a, 1, "view: want %s", names);
            return -1;
        }
        switch_view(a, v);
        return 0;
    }
    return 1;   /* not a global command */
}

/* Whether view v offers :name beside the global commands: one of its
 * commands or a settings' row at the prompt. */
static int view_offers(int v, const char *name)
{
    for (const char *const *c = VIEWS[v]->commands; c && *c; c++)
        if (strcmp(*c, name) == 0)
            return 1;
    return settings_find(VIEWS[v]->settings, name,
                         SET_PROMPT | SET_TOUR) != NULL;
}

/* The ':' commands that make the positions their view draws: from any
 * other view they switch to it, and back when refused. */
static const struct { const char *name; enum view_id v; } VIEW_BRINGS[] = {
    { "grid", VIEW_GRID }, { "sequence", VIEW_GRID },
};

/* 1 if name is one of VIEW_BRINGS (then run in its view), else 0. */
static int brought_command(struct app *a, const char *name, const char *arg)
{
    for (size_t i = 0; i < sizeof VIEW_BRINGS / sizeof VIEW_BRINGS[0]; i++) {
        enum view_id old = a->view;
        if (strcmp(name, VIEW_BRINGS[i].name) != 0 || old == VIEW_BRINGS[i].v)
            continue;
        switch_view(a, (int)VIEW_BRINGS[i].v);
        if (!app_view_command(a, name, arg) || a->msg_error)
            switch_view(a, (int)old);
        return 1;
    }
    return 0;
}

/* Outside the views that offer :name, say where it works instead of
 * "unknown command". */
static int other_view_command(struct app *a, const char *name)
{
    const char *w[VIEW_COUNT];
    char list[160];
    int n = 0, only = -1;
    for (int v = 0; v < VIEW_COUNT; v++)
        if (view_offers(v, name)) {
            w[n++] = VIEWS[v]->name;
            only = v;
        }
    if (n == 0)
        return 0;
    if (n == 1)
        app_msg(a, 1, ":%s: %s only (%d or :view %s shows it)", name,
                VIEWS[only]->name, only + 1, VIEWS[only]->name);
    else
        app_msg(a, 1, ":%s: %s only", name,
                fmt_names(list, sizeof list, w, n, " and "));
    return 1;
}

int app_command(struct app *a, const char *line)
{
    char buf[APP_PROMPT_LEN], *arg;
    snprintf(buf, sizeof buf, "%s", line);
    char *name = app_command_split(buf, &arg);
    if (!*name)
        return 0;
    a->msg[0] = 0;
    a->msg_error = 0;
    /* The view first: the compare view points :base and :d at its
     * active pane. */
    if (app_view_command(a, name, arg))
        return a->msg_error ? -1 : 0;
    int r = global_command(a, name, arg);
    if (r <= 0)
        return r;
    if (brought_command(a, name, arg))
        return a->msg_error ? -1 : 0;
    if (other_view_command(a, name))
        return -1;
    char shown[24];
    typed_text(name, shown, sizeof shown);
    app_msg(a, 1, "unknown command :%s (try :d 512, :base 5e5, :n 4096, :pos 37)",
            shown);
    return -1;
}

/* ---- animation ------------------------------------------------------- */

int app_tick(struct app *a, double dt)
{
    if (!a->playing || dt <= 0)
        return 0;
    a->pos_frac += a->speed * dt;
    if (a->pos_frac < 1)
        return 0;
    int64_t step = (int64_t)a->pos_frac;
    a->pos_frac -= (double)step;
    a->p.pos = (a->p.pos + step % a->p.n) % a->p.n;
    return 1;
}

int app_view_busy(const struct app *a)
{
    int second = a->split - 1;
    return a->rt && (a->rt->busy[a->view] ||
                     (second >= 0 && second < VIEW_COUNT &&
                      second != (int)a->view && a->rt->busy[second]));
}

int app_animating(const struct app *a)
{
    return a->playing || app_view_busy(a);
}

struct score_ctx *app_scores_new(const struct app *a)
{
    return app_scores_new_for(a, &a->p, &a->att.o);
}

struct score_ctx *app_scores_new_for(const struct app *a, const params *p,
                                     const struct score_opts *o)
{
    struct score_table t = { 0 }, *tp = NULL;
    if (a->pe_table) {
        t = (struct score_table){ a->pe_table->v, a->pe_table->n,
                                  a->pe_table->d };
        tp = &t;
    }
    struct score_ctx *s = scores_new(p->d, p->base, p->n, o, tp);
    if (s)
        scores_set_plan(s, plans_of(p));
    const struct pe_table *qk = a->qk_table;
    if (s && qk && qk->d == s->d && qk->n >= 2) {
        int64_t h = qk->n / 2 > s->head ? s->head : qk->n / 2 - 1;
        scores_set_qk(s, qk->v + 2 * h * qk->d, qk->v + (2 * h + 1) * qk->d);
    }
    if (s && a->t5_table)   /* a bucket count that differs keeps the stand-in */
        t5_set_scores_table(s, a->t5_table->v, (int)a->t5_table->n,
                            a->t5_table->d);
    return s;
}
