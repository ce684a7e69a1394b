/* SPDX-License-Identifier: ISC */
/*
 * attention_keys.c - the attention view's keys (the scheme, the toggles,
 * the head, the cursor by whole drawn blocks, zoom) and its : commands.
 */
#include <string.h>

#include "app.h"
#include "axis.h"
#include "params.h"
#include "text.h"
#include "views/attention_keys.h"
#include "views/attention_layout.h"
#include "views/attention_settings.h"

#define FAST_CELLS 8        /* H J K L move this many cells */

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* ---- keys and commands ---------------------------------------------------- */

/* Keep the window where the layout put it (after a fresh layout). */
static void refit(struct app *a, struct att_rt *r)
{
    attention_layout_fit(a, r, r->w, r->h);
    if (r->L.px >= 4) {
        a->att.i0 = r->L.i0;
        a->att.j0 = r->L.j0;
    }
}

/* Positions in `blocks` drawn blocks (of m pixels each); a position
 * per block when no matrix is drawn. */
static int64_t block_step(const struct att_layout *L, int64_t blocks)
{
    return L->px < 4 ? blocks : axis_step(&L->ai, blocks * L->ai.m);
}

/* Move the cursor by di, dj drawn blocks. */
static void move(struct app *a, struct att_rt *r, int64_t di, int64_t dj)
{
    int64_t n = a->p.n;
    a->att.ci = clamp64(a->att.ci + (di ? block_step(&r->L, di) : 0), 0,
                        n - 1);
    a->att.cj = clamp64(a->att.cj + (dj ? block_step(&r->L, dj) : 0), 0,
                        n - 1);
    refit(a, r);
}

static void toggle(struct app *a, int *flag, const char *what,
                   const char *on, const char *off)
{
    *flag = !*flag;
    app_msg(a, 0, "%s %s", what, *flag ? on : off);
}

static int key_zoom(struct app *a, void *rt, int key)
{
    int in = key != '-';
    int zmax = axis_zoom_max(a->p.n, MIN_SPAN);
    int z = a->att.zoom + (in ? 1 : -1);
    if (z < 0 || z > zmax) {
        app_msg(a, 0, in ? "zoomed in as far as it goes" : "the whole "
                "sequence is shown");
        return 1;
    }
    a->att.zoom = z;
    a->att.i0 = a->att.ci;      /* centre-ish on the cursor */
    a->att.j0 = a->att.cj;
    refit(a, rt);
    app_msg(a, 0, "%lld positions across",
            (long long)axis_span(a->p.n, z, MIN_SPAN));
    return 1;
}

static int key_scheme(struct app *a, void *rt, int key)
{
    struct score_opts *t = &a->att.o;
    (void)rt;
    (void)key;
    t->scheme = (enum scheme)((t->scheme + 1) % scheme_count());
    app_msg(a, 0, "scheme %s", scheme_name(t->scheme));
    return 1;
}

/* m a t e E: the toggles. */
static int key_toggle(struct app *a, void *rt, int key)
{
    struct score_opts *t = &a->att.o;
    (void)rt;
    switch (key) {
    case 'm':
        toggle(a, &t->softmax, "softmax per row", "on: each row sums to 1",
               "off");
        break;
    case 'a':
        toggle(a, &t->causal, "causal mask", "on: keys after the query are "
               "hidden", "off");
        break;
    case 't':
        toggle(a, &t->temperature, "temperature", "on: scores divided by "
               "sqrt(d_model)", "off");
        break;
    case 'e':
        toggle(a, &t->content, "content", "on: random word embeddings added",
               "off: positions only");
        break;
    default:    /* E */
        toggle(a, &t->scale_emb, "embedding scale sqrt(d_model)",
               "on: entries N(0,1)", "off: entries N(0,1/d)");
        break;
    }
    return 1;
}

/* The names of the schemes whose row says heads (or else split), in
 * the table's order, into w (SCHEME_MAX); their count. */
static int schemes_with(const char **w, int heads)
{
    int n = 0;
    for (int s = 0; s < scheme_count() && n < SCHEME_MAX; s++) {
        const struct scheme_info *si = scheme_info(s);
        if (heads ? si->heads : si->split)
            w[n++] = si->name;
    }
    return n;
}

static int key_split(struct app *a, void *rt, int key)
{
    const struct score_opts *t = &a->att.o;
    (void)key;
    if (!a->att.split && !(t->content && scheme_info(t->scheme)->split)) {
        const char *w[SCHEME_MAX];
        char names[128];
        app_msg(a, 0, "the four-term split needs content on (e) and %s",
                words_join(w, schemes_with(w, 0), names, sizeof names));
        return 1;
    }
    toggle(a, &a->att.split, "four-term split", "on: e.e, e.p, p.e, p.p",
           "off");
    refit(a, rt);
    return 1;
}

/* u: the T5 bucket map in the inspector. */
static int key_buckets(struct app *a, void *rt, int key)
{
    (void)rt;
    (void)key;
    if (a->att.o.scheme != SCHEME_T5) {
        app_msg(a, 0, "u shows the T5 bucket map: only with scheme t5 "
                "(s cycles the schemes)");
        return 1;
    }
    toggle(a, &a->att.bucket_map, "bucket map", "on: distance -> bucket "
           "edges in the inspector", "off");
    return 1;
}

/* The schemes with a head: ALiBi's slope, T5's column, Sandwich's
 * divisor. */
/* The schemes whose bias differs per head, from their rows: "alibi, t5
 * or sandwich" (last the word between the last two). */
static const char *head_schemes(char *buf, size_t len, const char *last)
{
    const char *w[SCHEME_MAX];
    return words_join_last(w, schemes_with(w, 1), last, buf, len);
}

static int key_head(struct app *a, void *rt, int key)
{
    (void)rt;
    const struct scheme_info *si = scheme_info(a->att.o.scheme);
    if (!si || !si->heads) {
        char list[160];
        app_msg(a, 0, "%c picks the head: only with scheme %s (s cycles the "
                "schemes)", key, head_schemes(list, sizeof list, " or "));
        return 1;
    }
    attention_settings_head(a, a->att.o.head + (key == '}' ? 1 : -1));
    return 1;
}

/* Space , . move pos, which this view does not show: say so. */
static int key_inert(struct app *a, void *rt, int key)
{
    (void)rt;
    app_msg(a, 0, "%s moves pos, which this view does not use: it shows "
            "every i and j at once; arrows move the cursor",
            key == ' ' ? "Space" : key == ',' ? "," : ".");
    return 1;
}

/* Arrows and hjkl: one drawn block; HJKL PgUp PgDn: FAST_CELLS blocks. */
static int key_move(struct app *a, void *rt, int key)
{
    int64_t f = FAST_CELLS;
    switch (key) {
    case PK_UP: case 'k': move(a, rt, -1, 0); break;
    case PK_DOWN: case 'j': move(a, rt, 1, 0); break;
    case PK_LEFT: case 'h': move(a, rt, 0, -1); break;
    case PK_RIGHT: case 'l': move(a, rt, 0, 1); break;
    case 'K': case PK_PGUP: move(a, rt, -f, 0); break;
    case 'J': case PK_PGDN: move(a, rt, f, 0); break;
    case 'H': move(a, rt, 0, -f); break;
    default: move(a, rt, 0, f); break;      /* L */
    }
    return 1;
}

static int key_ends(struct app *a, void *rt, int key)
{
    a->att.ci = a->att.cj = key == PK_HOME ? 0 : a->p.n - 1;
    refit(a, rt);
    return 1;
}

const char *const ATTENTION_COMMANDS[] = { "i", "j", NULL };

/* A whole number in [lo, hi] from arg, or an error message naming what. */
static int number_arg(struct app *a, const char *what, const char *arg,
                      long lo, long hi, long *out)
{
    const char *why;
    if (parse_long(arg, out, &why) || *out < lo || *out > hi) {
        app_msg(a, 1, ":%s wants a whole number %ld..%ld", what, lo, hi);
        return 0;
    }
    return 1;
}

int attention_keys_command(struct app *a, void *rt, const char *name,
                           const char *arg)
{
    long v, n = (long)a->p.n;
    if (strcmp(name, "i") && strcmp(name, "j"))
        return 0;
    if (number_arg(a, name, arg, 0, n - 1, &v)) {
        *(name[0] == 'i' ? &a->att.ci : &a->att.cj) = v;
        refit(a, rt);
        app_msg(a, 0, "cursor i = %lld, j = %lld", (long long)a->att.ci,
                (long long)a->att.cj);
    }
    return 1;
}

/* The view's keys: what each does, and the help card.  Rows without a
 * label do a global action (cursor, zoom) by whole drawn blocks. */
const char *attention_keys_help(const struct keybind *k, char *buf,
                                size_t len)
{
    char list[160];
    if (k->key != '{')
        return NULL;
    snprintf(buf, len, "%s (%s)", k->help, head_schemes(list, sizeof list,
                                                         ", "));
    return buf;
}

const struct keybind ATTENTION_KEYS[] = {
    { 's', ACT_VIEW_KEY, "s", "next scheme, in the order --scheme lists "
      "them", key_scheme },
    { 'm', ACT_VIEW_KEY, "m", "softmax per row on / off", key_toggle },
    { 'a', ACT_VIEW_KEY, "a", "causal mask on / off", key_toggle },
    { 't', ACT_VIEW_KEY, "t", "divide scores by sqrt(d_model) on / off",
      key_toggle },
    { 'e', ACT_VIEW_KEY, "e", "content: add random word embeddings",
      key_toggle },
    { 'E', ACT_VIEW_KEY, "E", "scale embeddings by sqrt(d_model) on / off",
      key_toggle },
    { 'f', ACT_VIEW_KEY, "f", "split S into e.e e.p p.e p.p (content on)",
      key_split },
    { '{', ACT_VIEW_KEY, "{ }", "previous / next head",   /* key_help */
      key_head },
    { 'u', ACT_VIEW_KEY, "u", "t5: bucket map (distance -> bucket edges)",
      key_buckets },
    { '}', ACT_VIEW_KEY, NULL, NULL, key_head },
    { ' ', ACT_VIEW_KEY, NULL, NULL, key_inert },
    { ',', ACT_VIEW_KEY, NULL, NULL, key_inert },
    { '.', ACT_VIEW_KEY, NULL, NULL, key_inert },
    { ':', ACT_PROMPT, ":", ":i N  :j N", NULL },
    KEYS_ARROWS(ACT_LEFT, ACT_RIGHT, ACT_UP, ACT_DOWN, NULL, NULL, key_move),
    KEYS_FAST(ACT_FAST_LEFT, ACT_FAST_RIGHT, ACT_FAST_UP, ACT_FAST_DOWN,
              NULL, NULL, key_move),
    KEYS_HOME_END(ACT_HOME, ACT_END, NULL, NULL, key_ends),
    KEYS_ZOOM(ACT_ZOOM_IN, ACT_ZOOM_OUT, NULL, NULL, key_zoom),
    { 0, ACT_NONE, NULL, NULL, NULL }
};
