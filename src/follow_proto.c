/* SPDX-License-Identifier: ISC */
/*
 * follow_proto.c - the published state as "name value" lines, one table
 * of fields for both directions, and the bounded framing around it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "follow_proto.h"
#include "peviz/tables.h"
#include "sha256.h"
#include "state_field.h"
#include "tour.h"

#define LINE_MAX_LEN 128      /* one "name value" line */
#define ROPE_LINE_MAX 512     /* a RoPE line: every setting at its longest */
#define TABLE_LINE_MAX (6 + FP_TABLE_TEXT_MAX)
#define NUM_MAX 24            /* the longest exact_text of a list value */
/* a factor list line: the name, ROPE_FACTORS_MAX values and commas */
#define LIST_LINE_MAX (32 + ROPE_FACTORS_MAX * NUM_MAX)
#define TOUR_STEPS_MAX 100000

/* ---- the field table ---------------------------------------------------- */

#define SPEED_LO 0.125
#define SPEED_HI 1048576.0
#define FIELDS_MAX 256        /* rows of the protocol and of every view */

static const char *view_word(int v)
{
    return (unsigned)v < VIEW_COUNT ? VIEWS[v]->name : "?";
}

#define ROW(nm, t) { .name = nm, .type = t }

/*
 * The published state, in the order it is sent and must be read: these
 * rows, the global settings' rows offered to follow mode that no row of
 * HEAD places, each view's (struct view's fields) in the order of
 * VIEW_LIST, then TAIL.  d and n come before every bound that depends on
 * them.
 * What only changes how a screen looks (palette, help card, colours,
 * glyphs, language) is not here: each follower keeps its own.
 */
static const struct state_field HEAD[] = {
    SF_ROW_ENUM("view", view, view_word, view_parse),
    SF_ROW_INT("split", split, 0, VIEW_COUNT),
    ROW("d", SF_SETTING),               /* APP_SETTINGS' rows */
    ROW("base", SF_SETTING),
    ROW("n", SF_SETTING),
    ROW("pos", SF_SETTING),
    ROW("mpos", SF_MPOS),
    SF_ROWS_ROPE("rope", p.rope, APP_ROPE_MODEL),
    SF_ROW_INT("playing", playing, 0, 1),
    { .name = "speed", .type = SF_SPEED, .off = SF_OFF(speed) },
    { 0 }
};

static const struct state_field TAIL[] = {
    SF_ROW_INT("share.zoom", share_zoom, 0, 1),
    ROW("presenter", SF_PRESENTER),
    SF_ROW_INT("point", point, 0, 1),
    ROW("note", SF_NOTE),
    ROW("tour", SF_TOUR),
    ROW("tour.sha256", SF_TOUR_SHA),
    ROW("table", SF_TABLE),
    { 0 }
};

/* Every row, in the order of the wire. */
struct fields {
    const struct state_field *f[FIELDS_MAX];
    size_t n;
};

static void add_rows(struct fields *t, const struct state_field *rows)
{
    for (; rows && rows->name && t->n < FIELDS_MAX; rows++)
        t->f[t->n++] = rows;
}

/* Whether a row of rows is named name. */
static int rows_name(const struct state_field *rows, const char *name)
{
    for (; rows && rows->name; rows++)
        if (strcmp(rows->name, name) == 0)
            return 1;
    return 0;
}

/* The settings of rows offered to follow mode that no row of placed
 * places: SF_SETTING rows after them, in the settings' order.  first:
 * the first table of a body. */
static void add_settings(struct fields *t, const struct setting *rows,
                         const struct state_field *placed, int first)
{
    static struct state_field extra[FIELDS_MAX];
    static size_t used;
    if (first)
        used = 0;
    for (const struct setting *s = rows; s && s->name; s++)
        if ((s->where & SET_FOLLOW) && s->wire &&
            !rows_name(placed, s->wire) && used < FIELDS_MAX &&
            t->n < FIELDS_MAX) {
            extra[used] = (struct state_field){ .name = s->wire,
                                                .type = SF_SETTING };
            t->f[t->n++] = &extra[used++];
        }
}

static void fields_get(struct fields *t)
{
    t->n = 0;
    add_rows(t, HEAD);
    add_settings(t, APP_SETTINGS, HEAD, 1);
    for (int v = 0; v < VIEW_COUNT; v++) {
        add_rows(t, VIEWS[v]->fields);
        add_settings(t, VIEWS[v]->settings, VIEWS[v]->fields, 0);
    }
    add_rows(t, TAIL);
}

/* The row of rows whose follow row is named name, or NULL. */
static const struct setting *wire_in(const struct setting *rows,
                                     const char *name)
{
    for (const struct setting *s = rows; s && s->name; s++)
        if (s->wire && strcmp(s->wire, name) == 0)
            return s;
    return NULL;
}

/* The setting whose follow row is named name (NULL: none): a global
 * one, or a view's. */
static const struct setting *wire_setting(const char *name)
{
    const struct setting *s = wire_in(APP_SETTINGS, name);
    for (int v = 0; !s && v < VIEW_COUNT; v++)
        s = wire_in(VIEWS[v]->settings, name);
    return s;
}

static void setting_text(const struct app *a, const struct state_field *f,
                         char *v, size_t len)
{
    const struct setting *s = wire_setting(f->name);
    if (s)
        settings_text(s, a, v, len);
    else
        snprintf(v, len, "?");
}

static int setting_set(struct app *a, const struct state_field *f,
                       const char *v, char *err, size_t errlen)
{
    const struct setting *s = wire_setting(f->name);
    char why[160];
    if (!s) {
        snprintf(err, errlen, "%s: not a setting", f->name);
        return -1;
    }
    if (settings_set(s, a, a->p.n, v, why, sizeof why) == 0)
        return 0;
    snprintf(err, errlen, "%s: %s", f->name, why);
    return -1;
}

/* ---- encoding ----------------------------------------------------------- */

static long long int_at(const struct app *a, const struct state_field *f)
{
    const char *p = (const char *)a + f->off;
    switch (f->type) {
    case SF_I64:  return *(const int64_t *)(const void *)p;
    case SF_LONG: return *(const long *)(const void *)p;
    case SF_U32:  return *(const uint32_t *)(const void *)p;
    default:     return *(const int *)(const void *)p;
    }
}

static double dbl_at(const struct app *a, const struct state_field *f)
{
    return *(const double *)(const void *)((const char *)a + f->off);
}

/* The characters a table name may have on the wire. */
static int table_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
}

/* s into v (room for max + 1), each character outside the set as '_'. */
static void safe_copy(const char *s, char *v, size_t max, int slash)
{
    size_t j = 0;
    for (; *s && j < max; s++)
        v[j++] = table_char(*s) || (slash && *s == '/') ? *s : '_';
    v[j] = 0;
}

/* The shortest text that reads back as exactly x.  %.15g already gives
 * the shortest form when that has at most 15 digits (%g drops trailing
 * zeros), so three tries at most. */
static void exact_text(double x, char *v, size_t len)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(v, len, "%.*g", prec, x);
        if (strtod(v, NULL) == x)
            return;
    }
}

/* The RoPE scaling of a SF_ROPE or SF_LIST row, and the preset its
 * SF_ROPE row says it came from. */
static const rope_scaling *rope_in(const struct app *a,
                                   const struct state_field *f)
{
    return (const rope_scaling *)(const void *)((const char *)a + f->off);
}

static rope_scaling *rope_of(struct app *a, const struct state_field *f)
{
    return (rope_scaling *)(void *)((char *)a + f->off);
}

static int *model_of(struct app *a, const struct state_field *f)
{
    return (int *)(void *)((char *)a + f->aux);
}

/* The scalar settings of a rope_scaling, by enum rope_opt (NULL: the
 * method, L, truncate and the lists, which are not doubles). */
static const double *rope_double(const rope_scaling *r, int id)
{
    switch (id) {
    case RO_FACTOR:           return &r->factor;
    case RO_LOW_FREQ:         return &r->low_freq_factor;
    case RO_HIGH_FREQ:        return &r->high_freq_factor;
    case RO_BETA_FAST:        return &r->beta_fast;
    case RO_BETA_SLOW:        return &r->beta_slow;
    case RO_MSCALE:           return &r->mscale;
    case RO_MSCALE_ALL_DIM:   return &r->mscale_all_dim;
    case RO_PROPORTION:       return &r->proportion;
    case RO_ATTENTION_FACTOR: return &r->attention_factor;
    default:                  return NULL;
    }
}

/* Setting id (RO_FACTOR .. RO_ATTENTION_FACTOR) of r as params_set_rope
 * reads it, into v; 0 when it is at its default (nothing to send). */
static int rope_setting(const rope_scaling *r, int id, char *v, size_t len)
{
    rope_scaling def;
    const double *x = rope_double(r, id);
    rope_scaling_default(&def);
    if (id == RO_TRUNCATE)
        snprintf(v, len, "%s", r->truncate ? "on" : "off");
    else if (id == RO_ORIGINAL_MAX)
        snprintf(v, len, "%lld", (long long)r->original_max);
    else
        exact_text(*x, v, len);
    if (id == RO_TRUNCATE)
        return r->truncate != def.truncate;
    if (id == RO_ORIGINAL_MAX)
        return r->original_max != def.original_max;
    return *x != *rope_double(&def, id);
}

/* "yarn factor=4 original-max=32768 truncate=off": the method and the
 * settings away from their defaults, named as on the command line. */
static void rope_text(const struct app *a, const struct state_field *f,
                      char *v, size_t len)
{
    char x[32];
    const rope_scaling *r = rope_in(a, f);
    int model = *(const int *)(const void *)((const char *)a + f->aux);
    const struct rope_preset *m = rope_preset_at(model - 1);
    size_t n = (size_t)snprintf(v, len, "%s", rope_method_name(r->method));
    for (int id = RO_FACTOR; id <= RO_ATTENTION_FACTOR && n < len; id++)
        if (rope_setting(r, id, x, sizeof x))
            n += (size_t)snprintf(v + n, len - n, " %s=%s", ROPE_OPT_NAMES[id],
                                  x);
    if (r->ext_complement != 0 && n < len) {    /* a GGUF's yarn_ext_factor */
        exact_text(r->ext_complement, x, sizeof x);
        n += (size_t)snprintf(v + n, len - n, " ext-complement=%s", x);
    }
    if (r->plain_softmax && n < len)    /* not DeepSeek's score factor */
        n += (size_t)snprintf(v + n, len - n, " plain-softmax=1");
    if (m && n < len)           /* the preset it was set from: its header
                                   names it while the settings are its */
        snprintf(v + n, len - n, " model=%s", m->name);
}

/* The shortest text that strtof reads back as exactly the float x. */
static void float_text(double x, char *v, size_t len)
{
    for (int prec = 1; prec <= 9; prec++) {
        snprintf(v, len, "%.*g", prec, x);
        if ((double)strtof(v, NULL) == x)
            return;
    }
}

/* Whether every value is a float32 widened (a checkpoint's factors are:
 * config.json spells 1.08 as 1.0800000429153442, GGUF stores f32). */
static int all_float(const double *x, int m)
{
    for (int i = 0; i < m; i++)
        if ((double)(float)x[i] != x[i])
            return 0;
    return m > 0;
}

/* A factor list: "-" when empty, else its values, comma separated; when
 * every value is a float32, "f32:" and each float's shortest text, which
 * is half as long (1.08 rather than 1.0800000429153442). */
static void list_text(const rope_scaling *r, int id, char *v, size_t len)
{
    const double *x = id == RO_SHORT_FACTOR ? r->short_factor : r->long_factor;
    int m = id == RO_SHORT_FACTOR ? r->nshort : r->nlong, f32 = all_float(x, m);
    size_t n = 0;
    snprintf(v, len, "-");
    if (f32 && m > 0)
        n = (size_t)snprintf(v, len, "f32:");
    for (int i = 0; i < m && n + NUM_MAX + 1 < len; i++) {
        if (i)
            v[n++] = ',';
        (f32 ? float_text : exact_text)(x[i], v + n, len - n);
        n += strlen(v + n);
    }
}

/* Which tour t is as published: "shipped" (each follower shows it in
 * its own language) or its absolute path, odd characters as '_'. */
/* The last name of a path. */
static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void fp_tour_name(const struct tour *t, char *v, size_t len)
{
    if (t->shipped)
        snprintf(v, len, "shipped");
    else
        safe_copy(base_name(t->abs ? t->abs : t->path), v,
                  len - 1 < FP_TABLE_PATH_MAX ? len - 1 : FP_TABLE_PATH_MAX, 0);
}

static void tour_text(const struct app *a, char *v, size_t len)
{
    char name[FP_TABLE_PATH_MAX + 1];
    if (!a->tour || !areas_tour_running(a)) {
        snprintf(v, len, "off");
        return;
    }
    fp_tour_name(a->tour, name, sizeof name);
    snprintf(v, len, "%d/%d %s", a->tour_step, a->tour->nsteps, name);
}

void fp_table_text(const struct app *a, char *v, size_t len)
{
    char path[FP_TABLE_PATH_MAX + 1], tensor[FP_TENSOR_MAX + 1] = "";
    const struct pe_table_info *in = a->pe_table ? a->pe_info : NULL;
    const char *s = in ? in->file : a->pe_table ? a->pe_file_name : NULL;
    if (!s || !*s) {
        snprintf(v, len, "none");
        return;
    }
    safe_copy(base_name(s), path, FP_TABLE_PATH_MAX, 0);
    if (in)
        safe_copy(in->tensor, tensor, FP_TENSOR_MAX, 0);
    size_t n = (size_t)snprintf(v, len, "%s", path);
    if (strlen(a->pe_digest) == 64 && n < len)
        n += (size_t)snprintf(v + n, len - n, " sha256=%s", a->pe_digest);
    if (tensor[0] && n < len)
        n += (size_t)snprintf(v + n, len - n, " tensor=%s", tensor);
    if (in && in->row_offset > 0 && n < len)
        snprintf(v + n, len - n, " row-offset=%lld", (long long)in->row_offset);
}

/* Whether s is 1..max characters of the set. */
static int safe_text(const char *s, size_t max, int slash)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!table_char(s[n]) && !(slash && s[n] == '/'))
            return 0;
    return n >= 1 && n <= max;
}

int fp_table_parse(const char *v, struct fp_table *t, char *err,
                   size_t errlen)
{
    char buf[FP_TABLE_TEXT_MAX + 1], *save = NULL, *tok;
    const char *why = NULL;
    memset(t, 0, sizeof *t);
    snprintf(buf, sizeof buf, "%s", v);
    tok = strtok_r(buf, " ", &save);
    if (!tok || !safe_text(tok, FP_TABLE_PATH_MAX, 1))
        why = "want none or a path of letters, digits, . _ - /";
    else if (strcmp(tok, "none"))
        snprintf(t->path, sizeof t->path, "%s", tok);
    while (!why && (tok = strtok_r(NULL, " ", &save))) {
        long k;
        const char *w;
        if (!strncmp(tok, "tensor=", 7) && !t->tensor[0] &&
            safe_text(tok + 7, FP_TENSOR_MAX, 0))
            snprintf(t->tensor, sizeof t->tensor, "%s", tok + 7);
        else if (!strncmp(tok, "sha256=", 7) && !t->sha256[0] &&
                 strlen(tok + 7) == 64 && strspn(tok + 7, "0123456789abcdef") == 64)
            snprintf(t->sha256, sizeof t->sha256, "%s", tok + 7);
        else if (!strncmp(tok, "row-offset=", 11) && t->row_offset == 0 &&
                 !parse_long(tok + 11, &k, &w) && k > 0 && k < PARAM_N_MAX)
            t->row_offset = k;
        else
            why = "want NAME [sha256=HEX] [tensor=NAME] [row-offset=K]";
    }
    if (!why && !t->path[0] && (t->tensor[0] || t->row_offset || t->sha256[0]))
        why = "none has no tensor";
    if (why && err)
        snprintf(err, errlen, "table: %s", why);
    return why ? -1 : 0;
}

void fp_table_digest(const struct pe_table *t, char hex[65])
{
    struct sha256 h;
    unsigned char b[8 * 512];
    uint64_t dims[2] = { (uint64_t)t->n, (uint64_t)t->d };
    size_t total = (size_t)t->n * (size_t)t->d, k = 0;
    sha256_init(&h);
    for (int i = 0; i < 2; i++, k = 0) {
        for (int j = 0; j < 8; j++)
            b[k++] = (unsigned char)(dims[i] >> (8 * j));
        sha256_add(&h, b, 8);
    }
    for (size_t i = 0; i < total;) {
        for (k = 0; k < sizeof b && i < total; i++) {
            uint64_t u;
            memcpy(&u, &t->v[i], 8);
            for (int j = 0; j < 8; j++)
                b[k++] = (unsigned char)(u >> (8 * j));
        }
        sha256_add(&h, b, k);
    }
    sha256_hex(&h, hex);
}

/* The value of one field as text. */
static void field_text(const struct app *a, const struct state_field *f,
                       char *v, size_t len)
{
    switch (f->type) {
    case SF_SPEED: case SF_BASE: exact_text(dbl_at(a, f), v, len); break;
    case SF_ENUM:  snprintf(v, len, "%s", f->word((int)int_at(a, f))); break;
    case SF_TOUR:  tour_text(a, v, len); break;
    case SF_TABLE: fp_table_text(a, v, len); break;
    case SF_PRESENTER:
        snprintf(v, len, "%s", !a->share_zoom ? "-" : a->presenter ? "1" : "0");
        break;
    case SF_NOTE:  snprintf(v, len, "%s%s", a->note[0] ? ":" : "-", a->note); break;
    case SF_TOUR_SHA:
        snprintf(v, len, "%s", a->tour && areas_tour_running(a) && !a->tour->shipped &&
                 strlen(a->tour->sha256) == 64 ? a->tour->sha256 : "-");
        break;
    case SF_ROPE:  rope_text(a, f, v, len); break;
    case SF_LIST:  list_text(rope_in(a, f), (int)f->lo, v, len); break;
    case SF_MPOS:  mpos_format(&a->mp, v, len); break;
    case SF_HOOK:  f->text(a, v, len); break;
    case SF_SETTING: setting_text(a, f, v, len); break;
    default:      snprintf(v, len, "%lld", int_at(a, f)); break;
    }
}

int fp_body(const struct app *a, char *buf, size_t len)
{
    char v[LIST_LINE_MAX];
    size_t n = 0;
    struct fields t;
    fields_get(&t);
    for (size_t i = 0; i < t.n; i++) {
        field_text(a, t.f[i], v, sizeof v);
        int w = snprintf(buf + n, len - n, "%s %s\n", t.f[i]->name, v);
        if (w < 0 || (size_t)w >= len - n)
            return -1;
        n += (size_t)w;
    }
    return (int)n;
}

int fp_frame(const char *body, size_t blen, char *buf, size_t len)
{
    int h = snprintf(buf, len, "%s %d %zu\n", FP_MAGIC, FP_VERSION, blen);
    if (h < 0 || blen > FP_BODY_MAX || (size_t)h + blen > len)
        return -1;
    memcpy(buf + h, body, blen);
    return h + (int)blen;
}

int fp_encode(const struct app *a, char *buf, size_t len)
{
    char body[FP_BODY_MAX];
    int n = fp_body(a, body, sizeof body);
    return n < 0 ? -1 : fp_frame(body, (size_t)n, buf, len);
}

/* The length of the line at s (with its newline), within end. */
static size_t line_len(const char *s, const char *end)
{
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    return nl ? (size_t)(nl - s) + 1 : (size_t)(end - s);
}

size_t fp_diff(const char *old, size_t olen, const char *cur, size_t clen,
               char *out)
{
    const char *o = old, *oe = old + olen, *c = cur, *ce = cur + clen;
    size_t n = 0;
    while (c < ce) {
        size_t cl = line_len(c, ce), ol = o < oe ? line_len(o, oe) : 0;
        if (cl != ol || memcmp(c, o, cl)) {
            memcpy(out + n, c, cl);
            n += cl;
        }
        c += cl;
        o += ol;
    }
    return n;
}

/* ---- decoding ----------------------------------------------------------- */

static long long bound_hi(const struct app *a, const struct state_field *f)
{
    switch (f->bound) {
    case SF_DIM:  return a->p.d - 1;
    case SF_BAND: return a->p.d / 2 - 1;
    case SF_POS:  return a->p.n - 1;
    case SF_LEN:  return a->p.n;
    case SF_BELOW: return *(const int *)(const void *)((const char *)a +
                                                       f->aux) - 1;
    default:     return f->hi;
    }
}

static void set_int(struct app *a, const struct state_field *f, long long v)
{
    char *p = (char *)a + f->off;
    switch (f->type) {
    case SF_I64:  *(int64_t *)(void *)p = (int64_t)v; break;
    case SF_LONG: *(long *)(void *)p = (long)v; break;
    case SF_U32:  *(uint32_t *)(void *)p = (uint32_t)v; break;
    default:     *(int *)(void *)p = (int)v; break;
    }
}

static int set_bounded(struct app *a, const struct state_field *f, const char *v,
                       char *err, size_t errlen)
{
    long x;
    const char *why;
    long long hi = bound_hi(a, f);
    if (parse_long(v, &x, &why)) {
        snprintf(err, errlen, "%s: %s", f->name, why);
        return -1;
    }
    if (x < f->lo || x > hi) {
        snprintf(err, errlen, "%s: %ld out of range %lld..%lld", f->name, x,
                 f->lo, hi);
        return -1;
    }
    set_int(a, f, x);
    return 0;
}

static int set_speed(struct app *a, const struct state_field *f, const char *v,
                     char *err, size_t errlen)
{
    double x;
    const char *why;
    if (parse_double(v, &x, &why) || x < SPEED_LO || x > SPEED_HI) {
        snprintf(err, errlen, "speed: want %g..%g", SPEED_LO, SPEED_HI);
        return -1;
    }
    *(double *)(void *)((char *)a + f->off) = x;
    return 0;
}

static int set_enum(struct app *a, const struct state_field *f, const char *v,
                    char *err, size_t errlen)
{
    int x = f->parse(v);
    if (x < 0) {
        snprintf(err, errlen, "%s: unknown value", f->name);
        return -1;
    }
    set_int(a, f, x);
    return 0;
}

/* A base, d or n of its own, validated as the global one would be; d
 * and n may also be 0 (it follows the global value). */
static int set_own(struct app *a, const struct state_field *f, const char *v,
                    char *err, size_t errlen)
{
    params p = a->p;
    char why[APP_MSG_LEN];
    char *dst = (char *)a + f->off;
    int zero = f->type != SF_BASE && strcmp(v, "0") == 0;
    int id = f->type == SF_BASE ? P_BASE : f->type == SF_D0 ? P_D : P_N;
    if (!zero && params_set(&p, (enum param_id)id, v, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", f->name, why);
        return -1;
    }
    if (id == P_BASE)
        *(double *)(void *)dst = p.base;
    else if (id == P_D)
        *(int *)(void *)dst = zero ? 0 : p.d;
    else
        *(int64_t *)(void *)dst = zero ? 0 : p.n;
    return 0;
}

/* "off" or "S/N NAME": shown only when this program has that tour of N
 * steps loaded (the shipped one perhaps in another language; follow.c
 * loads the one named). */
static int set_tour(struct app *a, const char *v, char *err, size_t errlen)
{
    long s, n;
    char num[16], name[FP_TABLE_PATH_MAX + 1];
    const char *slash = strchr(v, '/'), *sp = strchr(v, ' '), *why;
    if (strcmp(v, "off") == 0) {
        a->tour_active = 0;
        return 0;
    }
    if (!slash || !sp || slash > sp || (size_t)(slash - v) >= sizeof num ||
        (size_t)(sp - slash) >= sizeof num || !safe_text(sp + 1,
                                                         FP_TABLE_PATH_MAX, 1))
        goto bad;
    memcpy(num, v, (size_t)(slash - v));
    num[slash - v] = 0;
    if (parse_long(num, &s, &why))
        goto bad;
    memcpy(num, slash + 1, (size_t)(sp - slash - 1));
    num[sp - slash - 1] = 0;
    if (parse_long(num, &n, &why) || n < 1 || n > TOUR_STEPS_MAX || s < 0 ||
        s >= n)
        goto bad;
    if (a->tour)
        fp_tour_name(a->tour, name, sizeof name);
    a->tour_active = a->tour && a->tour->nsteps == n && !strcmp(name, sp + 1);
    if (a->tour_active)
        a->tour_step = (int)s;
    return 0;
bad:
    snprintf(err, errlen, "tour: want off or STEP/STEPS NAME");
    return -1;
}

/* A table changes nothing here (follow.c reads it); it must only be
 * a plain path. */
static int check_table(const char *v, char *err, size_t errlen)
{
    struct fp_table t;
    return fp_table_parse(v, &t, err, errlen);
}

/* Every setting back to its default; the factor lists (fields of
 * their own) stay. */
static void scalars_default(rope_scaling *r)
{
    rope_scaling d;
    rope_scaling_default(&d);
    d.nshort = r->nshort;
    d.nlong = r->nlong;
    memcpy(d.short_factor, r->short_factor, sizeof d.short_factor);
    memcpy(d.long_factor, r->long_factor, sizeof d.long_factor);
    *r = d;
}

/* "METHOD NAME=VALUE ... [model=PRESET]": the settings not named are at
 * their defaults; each named one goes through params_set_rope, as it
 * would from the command line (--factor 4) or the prompt (:factor 4),
 * and a preset's name through the --model lookup. */
/* The two settings only files give (no option names them):
 * ext-complement=C (1 - YaRN's extrapolation factor, 0..1) and
 * plain-softmax=1 (no DeepSeek score factor); 0 when tok is one of them,
 * read; -1 otherwise. */
static int rope_extra(rope_scaling *r, const char *tok, const char *v,
                      char *seen)
{
    double x;
    const char *why;
    if (!strcmp(tok, "ext-complement") && !seen[0]++ &&
        !parse_double(v, &x, &why) && x > 0 && x <= 1) {
        r->ext_complement = x;
        return 0;
    }
    if (!strcmp(tok, "plain-softmax") && !seen[1]++ && !strcmp(v, "1")) {
        r->plain_softmax = 1;
        return 0;
    }
    return -1;
}

static int set_rope(struct app *a, const struct state_field *f, const char *v,
                    char *err, size_t errlen)
{
    char buf[ROPE_LINE_MAX + 1], why[APP_MSG_LEN], seen[RO_COUNT] = { 0 };
    char seen_x[2] = { 0, 0 };
    char *save = NULL, *tok;
    params p = a->p;
    p.rope = *rope_of(a, f);
    scalars_default(&p.rope);
    snprintf(buf, sizeof buf, "%s", v);
    tok = strtok_r(buf, " ", &save);
    if (params_set_rope(&p, RO_SCALING, tok ? tok : "", why, sizeof why))
        goto bad;
    int model = 0;
    while ((tok = strtok_r(NULL, " ", &save))) {
        char *eq = strchr(tok, '=');
        int id = eq ? (*eq = 0, params_rope_opt_parse(tok)) : -1;
        if (eq && !strcmp(tok, "model") && !model &&
            (model = 1 + params_model_index(eq + 1)) > 0)
            continue;
        if (eq && rope_extra(&p.rope, tok, eq + 1, seen_x) == 0)
            continue;
        if (id < RO_FACTOR || id > RO_ATTENTION_FACTOR || seen[id]++) {
            snprintf(why, sizeof why, "want NAME=VALUE, each name once");
            goto bad;
        }
        if (params_set_rope(&p, (enum rope_opt)id, eq + 1, why, sizeof why))
            goto bad;
    }
    *rope_of(a, f) = p.rope;
    *model_of(a, f) = model;
    return 0;
bad:
    snprintf(err, errlen, "%s: %s", f->name, why);
    return -1;
}

/* The values of an "f32:" list: plain decimals (no hex, inf or nan), each
 * read as a float and widened; -1 when one is not. */
static int float_list(const char *v, double *x, int max)
{
    int m = 0;
    for (;;) {
        size_t k = strspn(v, "0123456789.eE+-");
        char *end;
        if (k == 0 || m == max)
            return -1;
        x[m++] = (double)strtof(v, &end);
        if (end != v + k || (*end && *end != ','))
            return -1;
        if (!*end)
            return m;
        v = end + 1;
    }
}

/* A factor list: "-" (none), what --short-factor takes, or "f32:" and
 * float32 values. */
static int set_list(struct app *a, const struct state_field *f, const char *v,
                    char *err, size_t errlen)
{
    char why[APP_MSG_LEN];
    rope_scaling *r = rope_of(a, f);
    params p = a->p;
    if (strcmp(v, "-") == 0) {
        *(f->lo == RO_SHORT_FACTOR ? &r->nshort : &r->nlong) = 0;
        return 0;
    }
    p.rope = *r;
    int rc;
    if (strncmp(v, "f32:", 4) == 0) {
        double x[ROPE_FACTORS_MAX];
        int m = float_list(v + 4, x, ROPE_FACTORS_MAX);
        rc = m < 0 ? (snprintf(why, sizeof why, "not a list of float32 "
                               "numbers"), -1)
                   : params_set_rope_list(&p, (enum rope_opt)f->lo, x, m,
                                          why, sizeof why);
    } else {
        rc = params_set_rope(&p, (enum rope_opt)f->lo, v, why, sizeof why);
    }
    if (rc) {
        snprintf(err, errlen, "%s: %s", f->name, why);
        return -1;
    }
    *r = p.rope;
    return 0;
}

static int set_field(struct app *a, const struct state_field *f, const char *v,
                     char *err, size_t errlen)
{
    char why[APP_MSG_LEN];
    switch (f->type) {
    case SF_SPEED: return set_speed(a, f, v, err, errlen);
    case SF_ENUM:  return set_enum(a, f, v, err, errlen);
    case SF_BASE: case SF_D0: case SF_N0:
        return set_own(a, f, v, err, errlen);
    case SF_TOUR:  return set_tour(a, v, err, errlen);
    case SF_TABLE: return check_table(v, err, errlen);
    case SF_PRESENTER:
        if (strcmp(v, "-") && strcmp(v, "0") && strcmp(v, "1")) {
            snprintf(err, errlen, "presenter: want -, 0 or 1");
            return -1;
        }
        if (a->share_zoom && *v != '-')
            a->presenter = *v == '1';
        return 0;
    case SF_TOUR_SHA:
        if (strcmp(v, "-") && (strlen(v) != 64 ||
                               strspn(v, "0123456789abcdef") != 64)) {
            snprintf(err, errlen, "tour.sha256: want - or 64 hex digits");
            return -1;
        }
        return 0;
    case SF_NOTE:
        if ((strcmp(v, "-") && *v != ':') || strlen(v) > APP_NOTE_MAX + 1) {
            snprintf(err, errlen, "note: want - or :TEXT of at most %d "
                     "characters", APP_NOTE_MAX);
            return -1;
        }
        snprintf(a->note, sizeof a->note, "%s", *v == ':' ? v + 1 : "");
        return 0;
    case SF_ROPE:  return set_rope(a, f, v, err, errlen);
    case SF_LIST:  return set_list(a, f, v, err, errlen);
    case SF_MPOS:
        if (mpos_parse_text(&a->mp, v, why, sizeof why)) {
            snprintf(err, errlen, "mpos: %s", why);
            return -1;
        }
        return 0;
    case SF_HOOK:  return f->set(a, v, err, errlen);
    case SF_SETTING: return setting_set(a, f, v, err, errlen);
    default:      return set_bounded(a, f, v, err, errlen);
    }
}

static int field_find(const struct fields *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->f[i]->name, name) == 0)
            return (int)i;
    return -1;
}

/* The multi-axis positions' slot layout against d. */
static int mpos_fits(const struct app *a, char *why, size_t len)
{
    unsigned char *axis;
    int r;
    if (a->mp.mode == MPOS_OFF)
        return 0;
    if (!(axis = malloc((size_t)a->p.d / 2 + 1))) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    r = mpos_axes(&a->mp, a->p.d / 2, axis, why, len);
    free(axis);
    return r;
}

/* Relations between fields that one line at a time cannot check. */
static int consistent(const struct app *a, char *err, size_t errlen)
{
    char why[APP_MSG_LEN];
    if (params_check_rope(&a->p, why, sizeof why)) {
        snprintf(err, errlen, "rope: %s", why);
        return -1;
    }
    for (int v = 0; v < VIEW_COUNT; v++)
        if (VIEWS[v]->fields_check && VIEWS[v]->fields_check(a, err, errlen))
            return -1;
    if (mpos_fits(a, why, sizeof why)) {
        snprintf(err, errlen, "mpos: %s", why);
        return -1;
    }
    return 0;
}

/* The longest line a field may take: its name, a space and its value. */
static size_t line_max(const struct state_field *f)
{
    return f->type == SF_LIST ? LIST_LINE_MAX
           : f->type == SF_ROPE ? ROPE_LINE_MAX
           : f->type == SF_TABLE || f->type == SF_TOUR ? TABLE_LINE_MAX
           : f->type == SF_MPOS ? MPOS_TEXT_MAX + 8
           : LINE_MAX_LEN;
}

/* The field a line names (the text before its first space), or -1. */
static int line_field(const struct fields *t, const char *line, size_t len)
{
    char name[LINE_MAX_LEN];
    const char *sp = memchr(line, ' ', len);
    size_t n = sp ? (size_t)(sp - line) : sizeof name;
    if (n >= sizeof name)
        return -1;
    memcpy(name, line, n);
    name[n] = 0;
    return field_find(t, name);
}

/* One line "name value" (no newline) into a; seen marks fields read. */
static int apply_line(struct app *a, const struct fields *t, const char *line,
                      size_t len, char *seen, char *err, size_t errlen)
{
    char buf[LIST_LINE_MAX + 1];
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)line[i] < 0x20 || (unsigned char)line[i] > 0x7e) {
            snprintf(err, errlen, "byte 0x%02x is not printable ASCII",
                     (unsigned char)line[i]);
            return -1;
        }
    int i = line_field(t, line, len);
    if (i < 0) {
        snprintf(err, errlen, "unknown field");
        return -1;
    }
    const struct state_field *f = t->f[i];
    if (len > line_max(f)) {
        snprintf(err, errlen, "line longer than %zu bytes", line_max(f));
        return -1;
    }
    if (seen[i]++) {
        snprintf(err, errlen, "%s given twice", f->name);
        return -1;
    }
    memcpy(buf, line, len);
    buf[len] = 0;
    return set_field(a, f, buf + strlen(f->name) + 1, err, errlen);
}

int fp_apply(struct app *a, const char *body, size_t len, char *err,
             size_t errlen)
{
    char seen[FIELDS_MAX], why[2 * APP_MSG_LEN];
    struct app t = *a;
    struct fields rows;
    int line = 0;
    fields_get(&rows);
    memset(seen, 0, sizeof seen);
    if (len > FP_BODY_MAX || (len && body[len - 1] != '\n')) {
        snprintf(err, errlen, "body not ended by a newline");
        return -1;
    }
    for (size_t at = 0; at < len; line++) {
        const char *nl = memchr(body + at, '\n', len - at);
        size_t l = (size_t)(nl - (body + at));
        if (apply_line(&t, &rows, body + at, l, seen, why, sizeof why)) {
            snprintf(err, errlen, "line %d: %s", line + 1, why);
            return -1;
        }
        at += l + 1;
    }
    if (consistent(&t, why, sizeof why)) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    app_params_changed(&t);
    *a = t;
    return 0;
}

int fp_find(const char *body, size_t len, const char *name, char *v,
            size_t vlen)
{
    size_t nl = strlen(name);
    for (size_t at = 0; at < len;) {
        const char *e = memchr(body + at, '\n', len - at);
        size_t l = e ? (size_t)(e - (body + at)) : len - at;
        if (l > nl && !memcmp(body + at, name, nl) && body[at + nl] == ' ') {
            size_t k = l - nl - 1 < vlen - 1 ? l - nl - 1 : vlen - 1;
            memcpy(v, body + at + nl + 1, k);
            v[k] = 0;
            return 0;
        }
        at += l + 1;
    }
    return -1;
}

/* ---- framing ------------------------------------------------------------ */

void fp_reader_init(struct fp_reader *r)
{
    r->have = r->body = 0;
    r->header_done = 0;
}

int fp_partial(const struct fp_reader *r)
{
    return r->header_done ? r->have < r->body : r->have > 0;
}

/* "PEVIZ-FOLLOW V LEN" (no newline): the body length, or -1. */
static long header_parse(const char *h, char *err, size_t errlen)
{
    char magic[16];
    long ver, len;
    int end = 0;
    if (sscanf(h, "%15s %ld %ld%n", magic, &ver, &len, &end) != 3 ||
        h[end] || strcmp(magic, FP_MAGIC)) {
        snprintf(err, errlen, "not a peviz teacher");
        return -1;
    }
    if (ver != FP_VERSION) {
        snprintf(err, errlen, "protocol version %ld, this program speaks %d",
                 ver, FP_VERSION);
        return -1;
    }
    if (len < 0 || len > FP_BODY_MAX) {
        snprintf(err, errlen, "message of %ld bytes, at most %d", len,
                 FP_BODY_MAX);
        return -1;
    }
    return len;
}

/* Take header bytes; FP_MORE, FP_BAD, or FP_MESSAGE when it is whole. */
static int feed_header(struct fp_reader *r, const char *data, size_t n,
                       size_t *used, char *err, size_t errlen)
{
    while (*used < n) {
        char c = data[(*used)++];
        if (c != '\n') {
            if (r->have >= FP_HEADER_MAX - 1 || (unsigned char)c < 0x20 ||
                (unsigned char)c > 0x7e) {
                snprintf(err, errlen, "not a peviz teacher");
                return FP_BAD;
            }
            r->buf[r->have++] = c;
            continue;
        }
        r->buf[r->have] = 0;
        long ver, cnt;
        int end = 0;
        if (sscanf(r->buf, "PEVIZ-FOLLOW %ld busy %ld%n", &ver, &cnt, &end) == 2 &&
            !r->buf[end] && ver == FP_VERSION && cnt >= 0 && cnt <= 1000000) {
            fp_reader_init(r);
            r->busy = cnt;
            return FP_BUSY;
        }
        long len = header_parse(r->buf, err, errlen);
        if (len < 0)
            return FP_BAD;
        r->body = (size_t)len;
        r->have = 0;
        r->header_done = 1;
        return FP_MESSAGE;
    }
    return FP_MORE;
}

int fp_feed(struct fp_reader *r, const char *data, size_t n, size_t *used,
            const char **body, size_t *blen, char *err, size_t errlen)
{
    *used = 0;
    if (r->header_done && r->have == r->body) /* the last one was taken */
        fp_reader_init(r);
    if (!r->header_done) {
        int s = feed_header(r, data, n, used, err, errlen);
        if (s != FP_MESSAGE)
            return s;   /* FP_BUSY too */
    }
    size_t take = r->body - r->have;
    if (take > n - *used)
        take = n - *used;
    memcpy(r->buf + r->have, data + *used, take);
    r->have += take;
    *used += take;
    if (r->have < r->body)
        return FP_MORE;
    *body = r->buf;
    *blen = r->body;
    return FP_MESSAGE;
}
