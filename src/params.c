/* SPDX-License-Identifier: ISC */
/*
 * params.c - parse, validate and format the shared parameters.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "peviz/plan.h"
#include "peviz/scores.h"
#include "peviz/names.h"

void params_default(params *p)
{
    p->d = PARAM_D_DEFAULT;
    p->base = PARAM_BASE_DEFAULT;
    p->n = PARAM_N_DEFAULT;
    p->pos = 0;
    rope_scaling_default(&p->rope);
}

/* s past its leading blanks. */
static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* Why a number is refused, into *why; -1. */
static int refuse(const char **why, const char *what)
{
    *why = what;
    return -1;
}

int parse_double(const char *s, double *out, const char **why)
{
    char *end;
    if (!s || !*(s = skip_blanks(s)))
        return refuse(why, "empty");
    /* strtod also takes "nan", "inf" and hex floats: only decimals here. */
    for (const char *q = s; *q && *q != ' ' && *q != '\t'; q++)
        if (!strchr("0123456789+-.eE", *q))
            return refuse(why, "not a number");
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *skip_blanks(end))
        return refuse(why, "not a number");
    if (errno == ERANGE || !isfinite(v))
        return refuse(why, fabs(v) < 1 ? "too small to represent"
                                       : "too large");
    *out = v;
    return 0;
}

/* A whole number in scientific notation ("1e3", "4.096e3"), taken for
 * d_model, seq_len and pos alike on the command line and the prompt. */
static int parse_whole_float(const char *s, long *out, const char **why)
{
    double v;
    if (parse_double(s, &v, why))
        return -1;
    if (v != floor(v))
        return refuse(why, "not a whole number");
    if (fabs(v) > 9.0e15)
        return refuse(why, "too large");
    *out = (long)v;
    return 0;
}

int parse_long(const char *s, long *out, const char **why)
{
    char *end;
    if (!s || !*(s = skip_blanks(s)))
        return refuse(why, "empty");
    if (!isdigit((unsigned char)*s) && *s != '-' && *s != '+')
        return refuse(why, "not a whole number");
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end != s && (*end == 'e' || *end == 'E' ||
                     (*end == '.' && strpbrk(end, "eE"))))
        return parse_whole_float(s, out, why);  /* 1e3, 4.096e3 */
    if (end == s || *skip_blanks(end))
        return refuse(why, "not a whole number");
    if (errno == ERANGE)
        return refuse(why, "too large");
    *out = v;
    return 0;
}

int params_set_d(params *p, long d, char *err, size_t errlen)
{
    if (d < PARAM_D_MIN || d > PARAM_D_MAX || d % 2) {
        snprintf(err, errlen, "d_model %ld: must be an even number in %d..%d",
                 d, PARAM_D_MIN, PARAM_D_MAX);
        return -1;
    }
    p->d = (int)d;
    return 0;
}

int params_set_base(params *p, double base, char *err, size_t errlen)
{
    if (!isfinite(base) || !(base > 1.0)) {
        char b[32];
        fmt_base(base, b, sizeof b);
        snprintf(err, errlen, "base %s: must be a finite number > 1", b);
        return -1;
    }
    p->base = base;
    return 0;
}

int params_set_n(params *p, long n, char *err, size_t errlen)
{
    if (n < PARAM_N_MIN || n > PARAM_N_MAX) {
        snprintf(err, errlen, "seq_len %ld: must be in %d..%ld",
                 n, PARAM_N_MIN, (long)PARAM_N_MAX);
        return -1;
    }
    p->n = n;
    if (p->pos >= n)
        p->pos = n - 1;
    return 0;
}

int params_set_pos(params *p, long pos, char *err, size_t errlen)
{
    if (pos < 0 || pos >= p->n) {
        snprintf(err, errlen, "pos %ld: must be in 0..%ld (n-1)",
                 pos, (long)(p->n - 1));
        return -1;
    }
    p->pos = pos;
    return 0;
}

static const char *const PARAM_NAMES[] = { "d_model", "base", "seq_len", "pos" };
static const char *const PARAM_RANGES[] = {
    "an even number in 2..65536", "a finite number > 1",
    "a whole number in 1..16777216", "a whole number in 0..n-1"
};

/* Printable copy of user text for an error message (clipped, no controls). */
static void quote_input(const char *s, char *out, size_t len)
{
    size_t j = 0;
    for (; *s && j + 4 < len; s++)
        out[j++] = ((unsigned char)*s < 0x20 || *s == 0x7f) ? '?' : *s;
    if (*s && j + 4 >= len) {
        memcpy(out + j, "...", 3);
        j += 3;
    }
    out[j] = 0;
}

int params_set(params *p, enum param_id id, const char *text,
               char *err, size_t errlen)
{
    const char *why;
    char q[40];
    long l = 0;
    double v = 0;
    int bad = id == P_BASE ? parse_double(text, &v, &why)
                           : parse_long(text, &l, &why);
    if (bad) {
        quote_input(text ? text : "", q, sizeof q);
        snprintf(err, errlen, "%s '%s': %s; want %s", PARAM_NAMES[id], q,
                 why, PARAM_RANGES[id]);
        return -1;
    }
    switch (id) {
    case P_D:    return params_set_d(p, l, err, errlen);
    case P_BASE: return params_set_base(p, v, err, errlen);
    case P_N:    return params_set_n(p, l, err, errlen);
    case P_POS:  return params_set_pos(p, l, err, errlen);
    }
    return -1;
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

int params_scale(params *p, enum param_id id, double factor,
                 char *msg, size_t msglen)
{
    double want, got;
    char b[32];
    msg[0] = 0;
    switch (id) {
    case P_D:
        want = p->d * factor;
        got = clampd(want, PARAM_D_MIN, PARAM_D_MAX);
        p->d = (int)got & ~1;
        if (got != want)
            snprintf(msg, msglen, "d_model stays at its %s %d",
                     factor < 1 ? "minimum" : "maximum", p->d);
        break;
    case P_BASE:
        want = p->base * factor;
        /* base must stay > 1: the smallest base the keys reach is 2 */
        got = clampd(want, 2.0, 1e300);
        p->base = got;
        fmt_base(got, b, sizeof b);
        if (got != want)
            snprintf(msg, msglen, "base stays at %s (keys keep it in 2..1e300)", b);
        break;
    case P_N:
        want = floor(p->n * factor);
        got = clampd(want, PARAM_N_MIN, (double)PARAM_N_MAX);
        p->n = (int64_t)got;
        if (p->pos >= p->n)
            p->pos = p->n - 1;
        if (got != want)
            snprintf(msg, msglen, "seq_len stays at its %s %ld",
                     factor < 1 ? "minimum" : "maximum", (long)p->n);
        break;
    case P_POS:
        want = floor((double)p->pos * factor);
        got = clampd(want, 0, (double)(p->n - 1));
        p->pos = (int64_t)got;
        break;
    }
    return msg[0] != 0;
}

/* ---- RoPE scaling ------------------------------------------------------ */

const char *const ROPE_OPT_NAMES[RO_COUNT] = {
    "rope-scaling", "factor", "original-max", "low-freq-factor",
    "high-freq-factor", "beta-fast", "beta-slow", "truncate", "mscale",
    "mscale-all-dim", "proportion", "attention-factor", "short-factor",
    "long-factor"
};

static const char *const ROPE_OPT_RANGES[RO_COUNT] = {
    NULL,       /* the method names: rope_method_names */
    "a finite number > 0", "a whole number in 1..2147483647",
    "a finite number > 0", "a finite number > 0", "a finite number > 0",
    "a finite number > 0", "on or off", "a finite number > 0",
    "a finite number > 0", "a number in (0, 1]", "a finite number > 0",
    "1..256 finite numbers > 0, comma separated",
    "1..256 finite numbers > 0, comma separated"
};

/* What option id takes, for its messages. */
static const char *rope_opt_range(int id, char *buf, size_t len)
{
    if (id == RO_SCALING)
        return rope_method_names(buf, len, " or ");
    return (unsigned)id < RO_COUNT ? ROPE_OPT_RANGES[id] : "?";
}

int params_rope_opt_parse(const char *name)
{
    if (name && strcmp(name, "scaling") == 0)
        return RO_SCALING;
    return names_find(ROPE_OPT_NAMES, RO_COUNT, name);
}

/* "a,b,c" into out[]: each a finite number > 0.  Count, or -1. */
static int parse_list(const char *text, double *out, const char **why)
{
    char item[64];
    int n = 0;
    const char *s = text;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        if (n == ROPE_FACTORS_MAX) {
            *why = "too many values";
            return -1;
        }
        if (len >= sizeof item) {
            *why = "not a number";
            return -1;
        }
        memcpy(item, s, len);
        item[len] = 0;
        if (parse_double(item, &out[n], why))
            return -1;
        if (!(out[n] > 0)) {
            *why = "a value is not > 0";
            return -1;
        }
        n++;
        if (!comma)
            return n;
        s = comma + 1;
    }
}

static int set_rope_number(rope_scaling *r, enum rope_opt id, double v,
                           const char **why)
{
    if (id == RO_ORIGINAL_MAX) {
        if (v != floor(v) || v < 1 || v > ROPE_ORIGINAL_MAX_MAX) {
            *why = v != floor(v) ? "not a whole number" : "out of range";
            return -1;
        }
        r->original_max = (int64_t)v;
        return 0;
    }
    if (!(v > 0)) {
        *why = "not > 0";
        return -1;
    }
    switch (id) {
    case RO_FACTOR:           r->factor = v; break;
    case RO_LOW_FREQ:         r->low_freq_factor = v; break;
    case RO_HIGH_FREQ:        r->high_freq_factor = v; break;
    case RO_BETA_FAST:        r->beta_fast = v; break;
    case RO_BETA_SLOW:        r->beta_slow = v; break;
    case RO_MSCALE:           r->mscale = v; break;
    case RO_MSCALE_ALL_DIM:   r->mscale_all_dim = v; break;
    case RO_PROPORTION:
        if (v > 1) {
            *why = "over 1";
            return -1;
        }
        r->proportion = v;
        break;
    case RO_ATTENTION_FACTOR: r->attention_factor = v; break;
    default: break;
    }
    return 0;
}

static int set_rope_value(rope_scaling *r, enum rope_opt id, const char *text,
                          const char **why)
{
    double list[ROPE_FACTORS_MAX], v;
    int m;
    switch (id) {
    case RO_SCALING:
        if ((m = rope_method_parse(skip_blanks(text))) < 0) {
            *why = "unknown method";
            return -1;
        }
        r->method = (enum rope_method)m;
        return 0;
    case RO_TRUNCATE:
        text = skip_blanks(text);
        if (strcmp(text, "on") && strcmp(text, "off")) {
            *why = "not on or off";
            return -1;
        }
        r->truncate = strcmp(text, "on") == 0;
        return 0;
    case RO_SHORT_FACTOR:
    case RO_LONG_FACTOR:
        if ((m = parse_list(text, list, why)) < 0)
            return -1;
        memcpy(id == RO_SHORT_FACTOR ? r->short_factor : r->long_factor,
               list, (size_t)m * sizeof list[0]);
        *(id == RO_SHORT_FACTOR ? &r->nshort : &r->nlong) = m;
        return 0;
    default:
        if (parse_double(text, &v, why))
            return -1;
        return set_rope_number(r, id, v, why);
    }
}

int params_set_rope(params *p, enum rope_opt id, const char *text,
                    char *err, size_t errlen)
{
    const char *why;
    char q[40], range[256];
    rope_scaling r = p->rope;
    if ((unsigned)id >= RO_COUNT)
        return -1;
    if (set_rope_value(&r, id, text ? text : "", &why)) {
        quote_input(text ? text : "", q, sizeof q);
        snprintf(err, errlen, "%s '%s': %s; want %s", ROPE_OPT_NAMES[id], q,
                 why, rope_opt_range(id, range, sizeof range));
        return -1;
    }
    p->rope = r;
    return 0;
}

int params_set_rope_number(params *p, enum rope_opt id, double v,
                           char *err, size_t errlen)
{
    const char *why = "not a number";
    char b[40], range[256];
    rope_scaling r = p->rope;
    if (id == RO_TRUNCATE) {
        p->rope.truncate = v != 0;
        return 0;
    }
    if (id == RO_SCALING || id == RO_SHORT_FACTOR || id == RO_LONG_FACTOR ||
        (unsigned)id >= RO_COUNT || !isfinite(v) ||
        set_rope_number(&r, id, v, &why)) {
        fmt_num(v, 17, b, sizeof b);
        snprintf(err, errlen, "%s %s: %s; want %s", (unsigned)id < RO_COUNT ?
                 ROPE_OPT_NAMES[id] : "?", b, why,
                 rope_opt_range(id, range, sizeof range));
        return -1;
    }
    p->rope = r;
    return 0;
}

int params_set_rope_list(params *p, enum rope_opt id, const double *v, int n,
                         char *err, size_t errlen)
{
    const char *name = id == RO_SHORT_FACTOR ? "short-factor" : "long-factor";
    if ((id != RO_SHORT_FACTOR && id != RO_LONG_FACTOR) || n < 1 ||
        n > ROPE_FACTORS_MAX) {
        snprintf(err, errlen, "%s: %d values; want 1..%d", name, n,
                 ROPE_FACTORS_MAX);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i]) || !(v[i] > 0)) {
            char b[40];
            fmt_num(v[i], 17, b, sizeof b);
            snprintf(err, errlen, "%s: value %d is %s; want finite numbers > 0",
                     name, i + 1, b);
            return -1;
        }
    memcpy(id == RO_SHORT_FACTOR ? p->rope.short_factor : p->rope.long_factor,
           v, (size_t)n * sizeof *v);
    *(id == RO_SHORT_FACTOR ? &p->rope.nshort : &p->rope.nlong) = n;
    return 0;
}

/* check_finite's message: the band, and what to make smaller. */
static void finite_error(const params *p, int band, int64_t n, char *err,
                         size_t errlen)
{
    const rope_scaling *r = &p->rope;
    char f[32], b[32];
    fmt_num(r->factor, 6, f, sizeof f);
    fmt_num(p->base, 6, b, sizeof b);
    if (r->method == ROPE_NONE) {
        snprintf(err, errlen, "base %s: band %d's frequency leaves the range "
                 "of a double at d_model %d; want a smaller base", b, band, p->d);
        return;
    }
    snprintf(err, errlen, "rope-scaling %s: band %d's frequency leaves the "
             "range of a double at n=%ld with base %s and factor %s; want a "
             "smaller %s or base", rope_method_name(r->method), band, (long)n,
             b, f, r->method != ROPE_LONGROPE ? "factor"
             : n > r->original_max ? "long-factor" : "short-factor");
}

/* Every band's frequency and wavelength 2pi/omega finite and > 0 (but
 * the still bands of proportional RoPE, at zero frequency), at the
 * shortest and the longest n where n matters (dynamic's frequencies only
 * fall as n grows; longrope reads its short list at n = 1, its long one
 * at n > L): a huge base or factor could otherwise overflow the effective
 * base, or take a band's frequency to 0 or its wavelength to inf. */
static int check_finite(const params *p, char *err, size_t errlen)
{
    static const int64_t at[2] = { PARAM_N_MIN, PARAM_N_MAX };
    static pe_plan pl;      /* the plan the views will read, checked */
    const rope_scaling *r = &p->rope;
    const struct rope_method_info *mi = rope_method_info((int)r->method);
    int nat = mi && mi->reads_n ? 2 : 1;
    for (int k = 0; k < nat; k++) {
        int bad = plan_compute(&pl, r, p->d, p->base, at[k]) ? 0
                  : pl.invalid ? 0 : -1;
        for (int i = 0; bad < 0 && i < p->d / 2; i++)
            if (pl.rule[i] != ROPE_STILL &&     /* proportional's still
                                                   bands: omega 0 */
                !(pl.omega[i] > 0 && isfinite(pl.omega[i]) &&
                  isfinite(pl.wavelength[i])))
                bad = i;
        if (bad >= 0) {
            finite_error(p, bad, at[k], err, errlen);
            return -1;
        }
    }
    return 0;
}

int params_check_rope(const params *p, char *err, size_t errlen)
{
    if (rope_check(&p->rope, p->d, p->base, err, errlen))
        return -1;
    return check_finite(p, err, errlen);
}

int params_set_model(params *p, const char *name, char *err, size_t errlen)
{
    const struct rope_preset *m = rope_preset_find(name);
    if (!m) {
        char q[40];
        quote_input(name ? name : "", q, sizeof q);
        snprintf(err, errlen, "model '%s': unknown; want one of the names "
                 "peviz --model list prints", q);
        return -1;
    }
    p->d = m->d;
    p->base = m->base;
    rope_preset_scaling(m, &p->rope);
    params_set_context(p, (double)m->max_context);
    return 0;
}

void params_set_context(params *p, double ctx)
{
    if (!(ctx >= 1) || ctx != floor(ctx))
        return;
    p->n = ctx > (double)PARAM_N_MAX ? PARAM_N_MAX : (int64_t)ctx;
    if (p->pos >= p->n)
        p->pos = p->n - 1;
}

int params_model_index(const char *name)
{
    for (int i = 0; name && i < rope_preset_count(); i++)
        if (strcmp(rope_preset_at(i)->name, name) == 0)
            return i;
    return -1;
}

int params_model_pairs(const char *name)
{
    return name && (strncmp(name, "deepseek", 8) == 0 ||
                    strncmp(name, "llama4", 6) == 0) ? QK_INTERLEAVED
                                                      : QK_HALF;
}

void params_format_rope(const params *p, char *buf, size_t len)
{
    const rope_scaling *r = &p->rope;
    char f[32];
    if (r->method == ROPE_NONE) {
        snprintf(buf, len, "none");
        return;
    }
    fmt_num(r->factor, 6, f, sizeof f);
    if (r->method == ROPE_PROPORTIONAL) {   /* the bands that turn */
        char pr[32];
        fmt_num(r->proportion, 6, pr, sizeof pr);
        snprintf(buf, len, "proportional s=%s p=%s", f, pr);
        return;
    }
    if (r->original_max > 0)
        snprintf(buf, len, "%s s=%s L=%ld", rope_method_name(r->method), f,
                 (long)r->original_max);
    else
        snprintf(buf, len, "%s s=%s", rope_method_name(r->method), f);
}

void params_format(const params *p, char *buf, size_t len)
{
    char b[32];
    fmt_base(p->base, b, sizeof b);
    snprintf(buf, len, "d_model=%d base=%s n=%ld pos=%ld", p->d, b,
             (long)p->n, (long)p->pos);
}

/* ---- attention options (their rows: src/views/attention.c) ----------- */

int att_t5_check(const struct score_opts *o, char *err, size_t errlen)
{
    int side = o->bidirectional ? o->buckets / 2 : o->buckets;
    if (o->max_distance > side / 2)
        return 0;
    snprintf(err, errlen, "wants more than %d, the exact buckets of a side "
             "(%d buckets, %s)", side / 2, o->buckets,
             o->bidirectional ? "bidirectional" : "causal");
    return -1;
}
