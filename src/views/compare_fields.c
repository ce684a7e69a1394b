/* SPDX-License-Identifier: ISC */
/*
 * compare_fields.c - the compare view's settings as follow mode
 * publishes them (state_field.h): the panes, each one's base, d, n,
 * layout and format, scheme, q/k pairs and layer (panes A to F), panes
 * B's and C's own RoPE
 * scaling, the cursor.
 */
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "peviz/layout.h"
#include "state_field.h"
#include "views/compare.h"

static const char *mode_word(int v) { return pane_mode_name((enum pane_mode)v); }
static const char *layout_word(int v) { return layout_name((enum layout)v); }
static const char *prec_word(int v) { return precision_name((enum precision)v); }

/* A pane's scores: "pe" (0) or 1 + a scheme; its q/k pairs: "global"
 * (0) or 1 + enum qk_pairs. */
static const char *scheme_word(int v)
{
    return v == 0 ? "pe" : scheme_name((enum scheme)(v - 1));
}

static int scheme_word_parse(const char *s)
{
    return s && !strcmp(s, "pe") ? 0
         : scheme_parse(s) < 0 ? -1 : 1 + scheme_parse(s);
}

static const char *pairs_word(int v)
{
    return v == 0 ? "global" : v <= QK_PAIRS_COUNT ? qk_pairs_name(v - 1)
                                                   : "?";
}

static int pairs_word_parse(const char *s)
{
    return s && !strcmp(s, "global") ? 0
         : qk_pairs_parse(s) < 0 ? -1 : 1 + qk_pairs_parse(s);
}

#define PANE(k) \
    { .name = "cmp." #k ".base", .type = SF_BASE, \
      .off = SF_OFF(cmp.panes[k].base) }, \
    { .name = "cmp." #k ".d", .type = SF_D0, .off = SF_OFF(cmp.panes[k].d) }, \
    { .name = "cmp." #k ".n", .type = SF_N0, .off = SF_OFF(cmp.panes[k].n) }, \
    SF_ROW_ENUM("cmp." #k ".layout", cmp.panes[k].layout, layout_word, \
                layout_parse), \
    SF_ROW_ENUM("cmp." #k ".prec", cmp.panes[k].prec, prec_word, \
                precision_parse), \
    SF_ROW_ENUM("cmp." #k ".scheme", cmp.panes[k].scheme, scheme_word, \
                scheme_word_parse), \
    SF_ROW_ENUM("cmp." #k ".pairs", cmp.panes[k].pairs, pairs_word, \
                pairs_word_parse), \
    SF_ROW_INT("cmp." #k ".layer", cmp.panes[k].layer, 0, COMPARE_LAYER_MAX)
/* Panes B and C also carry their own scaling (after their d); pane A's
 * is the global one. */
#define PANE_ROPE(k) PANE(k), \
    SF_ROWS_ROPE("cmp." #k ".rope", cmp.panes[k].rope, cmp.panes[k].model), \
    SF_ROW_INT("cmp." #k ".cfg", cmp.panes[k].cfg, 0, 1)

_Static_assert(COMPARE_MAX_PANES == 6 && COMPARE_ROPE_PANES == 3,
               "a row per pane below");

const struct state_field COMPARE_FIELDS[] = {
    SF_ROW_INT("cmp.panes", cmp.npanes, 2, COMPARE_MAX_PANES),
    SF_ROW_INT("cmp.active", cmp.active, 0, COMPARE_MAX_PANES - 1),
    SF_ROW_INT("cmp.preset", cmp.preset, 0, 3),
    { .name = "cmp.mode", .type = SF_SETTING },     /* COMPARE_SETTINGS */
    PANE(0), PANE_ROPE(1), PANE_ROPE(2), PANE(3), PANE(4), PANE(5),
    SF_ROW_INT("cmp.dim", cmp.dim, 0, PARAM_D_MAX - 1),
    SF_ROW_INT("cmp.band", cmp.band, 0, PARAM_D_MAX / 2 - 1),
    SF_ROW_INT("cmp.dims_1to1", cmp.dims_1to1, 0, 1),
    SF_ROW_INT("cmp.zoom", cmp.zoom, 0, 64),
    { 0 }
};

/* ---- the settings' rows (settings.h) ------------------------------------ */

/* The words a row takes, NULL past the last. */
static const char *mode_at(int k)
{
    return k >= 0 && k < PANE_MODE_COUNT ? mode_word(k) : NULL;
}

static const char *scheme_at(int k)
{
    return k >= 0 && k <= scheme_count() ? scheme_word(k) : NULL;
}

static const char *pairs_at(int k)
{
    return k >= 0 && k <= QK_PAIRS_COUNT ? pairs_word(k) : NULL;
}

/* A setting of pane C shows it. */
static void pane_c(struct app *a)
{
    if (a->cmp.npanes < 3)
        a->cmp.npanes = 3;
}

/* A pane's base as the global one is checked at the global d_model
 * (params_set: its bands' wavelengths finite too). */
static int base_check(const struct app *a, double base, char *err,
                      size_t errlen)
{
    params p = a->p;
    char v[40];
    snprintf(v, sizeof v, "%.17g", base);
    if (params_set(&p, P_BASE, v, err, errlen) == 0)
        return 0;
    return -1;
}

static int base_b_check(const struct app *a, char *err, size_t errlen)
{
    return base_check(a, a->cmp.panes[1].base, err, errlen);
}

static int base_c_check(const struct app *a, char *err, size_t errlen)
{
    return base_check(a, a->cmp.panes[2].base, err, errlen);
}

/* A pane's model: "none" (0) or 1 + a preset of --model list. */
static const char *model_word(int v)
{
    return v == 0 ? "none"
         : v <= rope_preset_count() ? rope_preset_at(v - 1)->name : NULL;
}

/* Pane k takes its model's base, d, RoPE scaling and q/k pairs. */
static void pane_model(struct app *a, int k)
{
    struct pane *p = &a->cmp.panes[k];
    params q = a->p;
    char err[256];
    if (p->model == 0 ||
        params_set_model(&q, rope_preset_at(p->model - 1)->name, err,
                         sizeof err))
        return;
    p->base = q.base;
    p->d = q.d;
    p->rope = q.rope;
    p->pairs = 1 + params_model_pairs(rope_preset_at(p->model - 1)->name);
}

static void model_b(struct app *a)
{
    pane_model(a, 1);
}

/* Pane C's model, and C shown. */
static void model_c(struct app *a)
{
    pane_model(a, 2);
    pane_c(a);
}

#define STR(x) #x
#define XSTR(x) STR(x)
#define SCHEMES_VALUES "2 to " XSTR(COMPARE_MAX_PANES) " schemes (pe or a " \
    "--scheme name), comma separated"

/* --schemes S1,S2,...: panes A, B, ... in turn, 2 to 6 of them, in the
 * profile mode (a --pane-mode, a later row, may say another). */
static int schemes_set(struct app *a, const char *text, char *err,
                       size_t errlen)
{
    char buf[512];
    int v[COMPARE_MAX_PANES], k = 0;
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        if (k == COMPARE_MAX_PANES || (v[k++] = scheme_word_parse(t)) < 0)
            goto bad;
    }
    if (k < 2 || text[strlen(text) - 1] == ',' || text[0] == ',')
        goto bad;
    for (int i = 0; i < k; i++)
        a->cmp.panes[i].scheme = v[i];
    a->cmp.npanes = k;
    a->cmp.mode = PANE_PROFILE;
    return 0;
bad:
    snprintf(err, errlen, "wants %s", SCHEMES_VALUES);
    return -1;
}

/* The panes' schemes, comma separated. */
static void schemes_text(const struct app *a, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < a->cmp.npanes && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "",
                              scheme_word(a->cmp.panes[i].scheme));
}

#define CMP_WHERE (SET_CLI | SET_FILE | SET_FOLLOW)
/* Pane k's (letter l) scores, q/k pairs and layer on the command line;
 * who says which pane, then more (what add does: NULL, or pane_c), and
 * lay more of the layer. */
#define PANE_SETTINGS(k, l, who, more, add, lay)                           \
    { .name = "scheme-" l, .type = SET_WORD,                                \
      .off = SET_OFF(cmp.panes[k].scheme), .word = scheme_at, .def = "pe",  \
      .arg = "NAME", .help = "compare view: " who "'s scores, in the "     \
      "modes that draw them (c)" more, .where = CMP_WHERE,                  \
      .wire = "cmp." #k ".scheme",                                          \
      .given = add },                                                       \
    { .name = "rope-layout-" l, .type = SET_WORD,                           \
      .off = SET_OFF(cmp.panes[k].pairs), .word = pairs_at,                 \
      .def = "global", .arg = "L", .help = "compare view: " who "'s q/k "   \
      "pairs (global: --rope-layout's)" more, .where = CMP_WHERE,                \
      .wire = "cmp." #k ".pairs", .given = add },                           \
    { .name = "layer-" l, .type = SET_INT,                                  \
      .off = SET_OFF(cmp.panes[k].layer), .lo = 0,                          \
      .hi = COMPARE_LAYER_MAX - 1, .shift = -1, .def_note = "none",         \
      .arg = "L", .help = "compare view: " who " shows layer L of a model " \
      "with NoPE layers" lay more, .where = CMP_WHERE, .wire = "cmp." #k ".layer",   \
      .given = add }

/* In the order the command line applies them: the panes' schemes and a
 * pane's model before what they set (a pane's scheme, base, pairs, the
 * mode), so that those given win. */
const struct setting COMPARE_SETTINGS[] = {
    { .name = "schemes", .type = SET_HOOK, .set = schemes_set,
      .text = schemes_text, .word = scheme_at, .values = SCHEMES_VALUES,
      .def_note = "pe,pe", .arg = "LIST",
      .help = "compare view: one pane per scheme, A to F, in the profile "
      "mode", .where = SET_CLI | SET_FILE },
    { .name = "model-b", .type = SET_WORD, .off = SET_OFF(cmp.panes[1].model),
      .word = model_word, .values = "a name of --model list or none",
      .def = "none", .arg = "NAME",
      .help = "compare view: pane B takes a model's RoPE settings",
      .where = SET_CLI | SET_FILE, .given = model_b },
    { .name = "model-c", .type = SET_WORD, .off = SET_OFF(cmp.panes[2].model),
      .word = model_word, .values = "a name of --model list or none",
      .def = "none", .arg = "NAME",
      .help = "compare view: add pane C with a model's RoPE settings",
      .where = SET_CLI | SET_FILE, .given = model_c },
    { .name = "base-b", .type = SET_NUM, .off = SET_OFF(cmp.panes[1].base),
      .min = 1, .open = 1, .def = "500000", .arg = "BASE",
      .help = "compare view: pane B's base", .where = CMP_WHERE,
      .wire = "cmp.1.base", .check = base_b_check },
    { .name = "base-c", .type = SET_NUM, .off = SET_OFF(cmp.panes[2].base),
      .min = 1, .open = 1, .def = "1000000", .arg = "BASE",
      .help = "compare view: pane C's base, and C shown", .where = CMP_WHERE,
      .wire = "cmp.2.base", .check = base_c_check, .given = pane_c },
    PANE_SETTINGS(0, "a", "pane A", "", NULL, "; with --config, layer L of "
                  "the file: its type's settings and mask"),
    PANE_SETTINGS(1, "b", "pane B", "", NULL, "; with --config, layer L of "
                  "the file: its type's RoPE settings and scheme"),
    PANE_SETTINGS(2, "c", "pane C", ", and C shown", pane_c, "; with "
                  "--config, layer L of the file: its type's RoPE "
                  "settings and scheme"),
    { .name = "pane-mode", .prompt = "mode", .type = SET_WORD,
      .off = SET_OFF(cmp.mode), .word = mode_at, .parse = pane_mode_parse,
      .def = "heatmap", .arg = "MODE",
      .help = "compare view: what each pane shows (v)",
      .where = SET_EVERYWHERE, .wire = "cmp.mode" },
    { 0 }
};

/*
 * Pane k's scaling against the d_model it is drawn with, as the compare
 * view checks it when it is set.  A pane that follows the global d_model
 * keeps its scaling when that changes, and then may hold factor lists of
 * an earlier d (the view draws it unscaled): there the lists need only
 * be as long as each other and ntk's d >= 4 is not asked.
 */
static int pane_rope_check(const struct app *a, int k, char *why, size_t len)
{
    params p = a->p;
    const rope_scaling *r = &a->cmp.panes[k].rope;
    p.rope = *r;
    if (a->cmp.panes[k].d > 0)
        p.d = a->cmp.panes[k].d;
    else if (r->method == ROPE_LONGROPE)
        p.d = 2 * r->nshort;
    else if (p.d < 4)
        p.d = 4;
    return params_check_rope(&p, why, len);
}

int compare_fields_check(const struct app *a, char *err, size_t errlen)
{
    char why[APP_MSG_LEN];
    for (int k = 1; k < COMPARE_ROPE_PANES; k++)
        if (pane_rope_check(a, k, why, sizeof why)) {
            snprintf(err, errlen, "cmp.%d.rope: %s", k, why);
            return -1;
        }
    if (a->cmp.active < a->cmp.npanes)
        return 0;
    snprintf(err, errlen, "cmp.active beyond cmp.panes");
    return -1;
}
