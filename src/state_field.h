/* SPDX-License-Identifier: ISC */
/*
 * state_field.h - one row of the state follow mode publishes
 * (follow_proto.h): a name on the wire, where the value lives in
 * struct app, its type and its bounds.
 *
 * The protocol's own rows (the view, the parameters, the tour, ...) are
 * in follow_proto.c; each view exports the rows of its settings (struct
 * view's fields, view.h), and follow_proto.c sends them in the order of
 * VIEW_LIST.  A setting (settings.h) offered to follow mode goes where an
 * SF_SETTING row of its name stands (the protocol's own for a global
 * setting, the view's for a view's), or, when no row names it, after
 * those rows.
 */
#ifndef PEVIZ_STATE_FIELD_H
#define PEVIZ_STATE_FIELD_H

#include <stddef.h>

struct app;

enum sf_type {
    SF_INT,         /* int at off, bounded */
    SF_I64,         /* int64_t at off, bounded */
    SF_LONG,        /* long at off, bounded */
    SF_U32,         /* uint32_t at off, bounded */
    SF_SPEED,       /* double at off: the sweep speed */
    SF_ENUM,        /* int-sized enum at off, by name */
    SF_BASE,        /* a double at off: a base, through params_set_base */
    SF_D0,          /* an int at off: 0 (the global d) or a valid d */
    SF_N0,          /* an int64_t at off: 0 (the global n) or a valid n */
    SF_TOUR,        /* "off" or "STEP/STEPS" */
    SF_TABLE,       /* the --pe-file's name, or "none": not state */
    SF_ROPE,        /* the RoPE scaling at off in one line: the method,
                       then NAME=VALUE for each setting not at its
                       default, each through params_set_rope; the int at
                       aux: 1 + the model preset it was set from */
    SF_LIST,        /* the longrope factor list lo (RO_SHORT_FACTOR,
                       RO_LONG_FACTOR) of the RoPE scaling at off: "-"
                       (none) or a,b,... */
    SF_HOOK,        /* the row's own text and set functions */
    SF_PRESENTER,   /* "-" (each screen its own), else 0 or 1: the
                       teacher's, taken while share.zoom is on */
    SF_NOTE,        /* "-" (none) or ":" and the text */
    SF_TOUR_SHA,    /* the tour file's content hash, or "-": not state */
    SF_MPOS,        /* the multi-axis positions (peviz/mpos.h), one line
                       as mpos_format writes it */
    SF_SETTING      /* the setting (settings.h) whose wire is this row's
                       name, as settings_text writes it and settings_set
                       takes it */
};

/* Upper bounds that depend on values read before them. */
enum sf_bound {
    SF_FIXED,       /* lo .. hi */
    SF_DIM,         /* lo .. d - 1 */
    SF_BAND,        /* lo .. d / 2 - 1 */
    SF_POS,         /* lo .. n - 1 */
    SF_LEN,         /* lo .. n */
    SF_BELOW        /* lo .. the int at aux - 1 */
};

struct state_field {
    const char *name;           /* "heat.dim"; NULL ends a table */
    enum sf_type type;
    size_t off;                 /* offsetof(struct app, ...) of the value */
    long long lo, hi;           /* SF_FIXED: the range; else lo only */
    enum sf_bound bound;
    size_t aux;                 /* SF_ROPE, SF_BELOW: see above */
    const char *(*word)(int);   /* SF_ENUM: value -> name */
    int (*parse)(const char *); /* SF_ENUM: name -> value, -1 */
    /* SF_HOOK: the value as text into v, and the value set from text: 0, or -1 with "name: why" in err. */
    void (*text)(const struct app *a, char *v, size_t len);
    int (*set)(struct app *a, const char *v, char *err, size_t errlen);
};

/* Rows by kind; m is a member path in struct app ("heat.dim"). */
#define SF_OFF(m) offsetof(struct app, m)
#define SF_ROW_INT(nm, m, l, h) \
    { .name = nm, .type = SF_INT, .off = SF_OFF(m), .lo = l, .hi = h }
#define SF_ROW_BOUND(nm, t, m, l, b) \
    { .name = nm, .type = t, .off = SF_OFF(m), .lo = l, .bound = b }
#define SF_ROW_ENUM(nm, m, w, p) \
    { .name = nm, .type = SF_ENUM, .off = SF_OFF(m), .word = w, .parse = p }
/* A RoPE scaling and the preset it came from, then its two factor lists,
 * which travel only when they change. */
#define SF_ROWS_ROPE(nm, m, model) \
    { .name = nm, .type = SF_ROPE, .off = SF_OFF(m), .aux = SF_OFF(model) }, \
    { .name = nm ".sf", .type = SF_LIST, .off = SF_OFF(m), \
      .lo = RO_SHORT_FACTOR }, \
    { .name = nm ".lf", .type = SF_LIST, .off = SF_OFF(m), \
      .lo = RO_LONG_FACTOR }

#endif
