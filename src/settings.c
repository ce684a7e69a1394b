/* SPDX-License-Identifier: ISC */
/*
 * settings.c - a setting's value from text and back, its range and
 * default as words, its reset (settings.h).
 */
#include "settings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"
#include "peviz/fmt.h"

static void *at(struct app *a, const struct setting *s)
{
    return (char *)a + s->off;
}

static const void *at_c(const struct app *a, size_t off)
{
    return (const char *)a + off;
}

static long long int_get(const struct setting *s, const struct app *a)
{
    const void *p = at_c(a, s->off);
    switch (s->type) {
    case SET_U32: return *(const uint32_t *)p;
    case SET_I64: return *(const int64_t *)p;
    default:      return *(const int *)p;
    }
}

static void int_put(const struct setting *s, struct app *a, long long v)
{
    void *p = at(a, s);
    switch (s->type) {
    case SET_U32: *(uint32_t *)p = (uint32_t)v; break;
    case SET_I64: *(int64_t *)p = (int64_t)v; break;
    default:      *(int *)p = (int)v; break;
    }
}

/* The highest value shown, now (bounds that follow other values). */
static long long shown_hi(const struct setting *s, const struct app *a,
                          int64_t n)
{
    switch (s->bound) {
    case SETB_LEN:   return n;
    case SETB_LAST:  return n - 1;
    case SETB_DIM:   return *(const int *)at_c(a, s->aux) - 1;
    case SETB_BAND:  return *(const int *)at_c(a, s->aux) / 2 - 1;
    case SETB_BELOW: {
        int b = *(const int *)at_c(a, s->aux);
        return b >= 1 ? b : 1;
    }
    default:         return s->hi;
    }
}

static int word_parse(const struct setting *s, const char *text)
{
    if (s->parse)
        return s->parse(text);
    for (int k = 0; text && s->word(k); k++)
        if (strcmp(text, s->word(k)) == 0)
            return k;
    return -1;
}

int settings_words(const struct setting *s, const char **w, int max)
{
    int n = 0;
    if (s->zero_word && n < max - 1)
        w[n++] = s->zero_word;
    for (int k = 0; (s->type == SET_WORD || (s->type == SET_HOOK && s->word))
                    && s->word(k) && n < max - 1; k++)
        w[n++] = s->word(k);
    if (s->type == SET_FLAG && max > 2) {
        w[n++] = "on";
        w[n++] = "off";
    }
    w[n] = NULL;
    return n;
}

/* "wants a or b" (or the row's values) into err. */
static int want_words(const struct setting *s, char *err, size_t errlen)
{
    const char *w[64];
    char list[480];
    int n = settings_words(s, w, 64);
    if (s->values) {
        snprintf(err, errlen, "wants %s", s->values);
        return -1;
    }
    snprintf(err, errlen, "wants %s", fmt_names(list, sizeof list, w, n,
                                                " or "));
    return -1;
}

static int set_whole(const struct setting *s, struct app *a, int64_t n,
                     const char *text, char *err, size_t errlen)
{
    long v;
    const char *why;
    long long hi = shown_hi(s, a, n);
    if (parse_long(text, &v, &why) || v < s->lo || v > hi ||
        (s->even && v % 2)) {
        snprintf(err, errlen, "wants %s number %lld..%lld%s",
                 s->even ? "an even" : "a whole", s->lo, hi,
                 s->zero_word ? " or " : "");
        if (s->zero_word)
            snprintf(err + strlen(err), errlen - strlen(err), "%s",
                     s->zero_word);
        return -1;
    }
    int_put(s, a, v - s->shift);
    return 0;
}

static int set_num(const struct setting *s, struct app *a, const char *text,
                   char *err, size_t errlen)
{
    double x;
    const char *why;
    if (parse_double(text, &x, &why) == 0 && isfinite(x) &&
        (s->open ? x > s->min : x >= s->min) &&
        (s->max <= s->min || x <= s->max)) {
        *(double *)at(a, s) = x;
        return 0;
    }
    char lo[32], hi[32];
    fmt_num(s->min, 6, lo, sizeof lo);
    fmt_num(s->max, 6, hi, sizeof hi);
    if (s->max > s->min)
        snprintf(err, errlen, "wants a number %s %s and <= %s",
                 s->open ? ">" : ">=", lo, hi);
    else
        snprintf(err, errlen, "wants a finite number %s %s",
                 s->open ? ">" : ">=", lo);
    if (s->zero_word)
        snprintf(err + strlen(err), errlen - strlen(err), " or %s",
                 s->zero_word);
    return -1;
}

/* settings_set without the follows hook. */
static int set_value(const struct setting *s, struct app *a, int64_t n,
                     const char *text, char *err, size_t errlen)
{
    int k;
    if (!text)
        text = "";
    if (s->zero_word && strcmp(text, s->zero_word) == 0) {
        if (s->type == SET_NUM)         /* a logit that weighs nothing */
            *(double *)at(a, s) = -INFINITY;
        else
            int_put(s, a, 0);
        return 0;
    }
    switch (s->type) {
    case SET_NUM:
        return set_num(s, a, text, err, errlen);
    case SET_WORD:
        if ((k = word_parse(s, text)) < 0)
            return want_words(s, err, errlen);
        *(int *)at(a, s) = k;
        return 0;
    case SET_FLAG:
        if (strcmp(text, "on") && strcmp(text, "off"))
            return want_words(s, err, errlen);
        *(int *)at(a, s) = (strcmp(text, "on") == 0) != s->invert;
        return 0;
    case SET_HOOK:
        return s->set(a, text, err, errlen);
    default:
        return set_whole(s, a, n, text, err, errlen);
    }
}

int settings_set(const struct setting *s, struct app *a, int64_t n,
                 const char *text, char *err, size_t errlen)
{
    if (set_value(s, a, n, text, err, errlen))
        return -1;
    if (s->follows)
        s->follows(a);
    return 0;
}

const char *settings_prompt(const struct setting *s)
{
    return s->prompt ? s->prompt : s->name;
}

size_t settings_size(const struct setting *s)
{
    if (s->type == SET_HOOK)
        return 0;
    return s->type == SET_I64 ? sizeof(int64_t) : s->type == SET_NUM
         ? sizeof(double) : s->type == SET_U32 ? sizeof(uint32_t) : sizeof(int);
}

int settings_check(const struct setting *s, const struct app *a, char *err,
                   size_t errlen)
{
    return s->check ? s->check(a, err, errlen) : 0;
}

/* x (finite) in the fewest digits that read back as it: "0.1",
 * "500000" rather than "5e+05". */
static void num_shortest(double x, char *buf, size_t len)
{
    if (x == floor(x) && fabs(x) < 1e15) {
        snprintf(buf, len, "%.0f", x);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            return;
    }
}

void settings_text(const struct setting *s, const struct app *a, char *buf,
                   size_t len)
{
    switch (s->type) {
    case SET_NUM: {
        double x = *(const double *)at_c(a, s->off);
        if (s->zero_word && x == -INFINITY)
            snprintf(buf, len, "%s", s->zero_word);
        else if (s->def_note && (s->open ? !(x > s->min) : !(x >= s->min)))
            snprintf(buf, len, "%s", s->def_note);  /* not given */
        else if (s->shortest)
            num_shortest(x, buf, len);
        else
            snprintf(buf, len, "%.17g", x);
        return;
    }
    case SET_WORD: {
        const char *w = s->word(*(const int *)at_c(a, s->off));
        snprintf(buf, len, "%s", w ? w : "?");
        return;
    }
    case SET_FLAG:
        snprintf(buf, len, (*(const int *)at_c(a, s->off) != 0) != s->invert
                           ? "on" : "off");
        return;
    case SET_HOOK:
        s->text(a, buf, len);
        return;
    default:
        if (s->zero_word && int_get(s, a) == 0)
            snprintf(buf, len, "%s", s->zero_word);
        else if (s->def_note && int_get(s, a) + s->shift < s->lo)
            snprintf(buf, len, "%s", s->def_note);  /* the view's own */
        else
            snprintf(buf, len, "%lld", int_get(s, a) + s->shift);
    }
}

void settings_show(const struct setting *s, const struct app *a, char *buf,
                   size_t len)
{
    double x;
    settings_text(s, a, buf, len);
    if (s->type != SET_NUM || (s->def_note && strcmp(buf, s->def_note) == 0))
        return;
    x = *(const double *)at_c(a, s->off);
    if (!isinf(x))
        num_shortest(x, buf, len);
}

int settings_takes_arg(const struct setting *s)
{
    return s->type != SET_FLAG;
}

/* The values as words: "1..64", "even, 2..65536 or all", "> 0". */
static void values_text(const struct setting *s, char *buf, size_t len)
{
    const char *w[64];
    char lo[32], hi[32];
    if (s->values) {
        snprintf(buf, len, "%s", s->values);
        return;
    }
    switch (s->type) {
    case SET_NUM:
        fmt_num(s->min, 6, lo, sizeof lo);
        fmt_num(s->max, 6, hi, sizeof hi);
        if (s->max > s->min)
            snprintf(buf, len, "%s %s, <= %s%s%s", s->open ? ">" : ">=", lo,
                     hi, s->zero_word ? " or " : "",
                     s->zero_word ? s->zero_word : "");
        else
            snprintf(buf, len, "%s %s%s%s", s->open ? ">" : ">=", lo,
                     s->zero_word ? " or " : "",
                     s->zero_word ? s->zero_word : "");
        return;
    case SET_WORD:
        fmt_names(buf, len, w, settings_words(s, w, 64), " or ");
        return;
    case SET_FLAG:
        buf[0] = 0;
        return;
    default:
        if (s->bound != SETB_FIXED)
            snprintf(hi, sizeof hi, "%s", s->bound_name);
        else
            snprintf(hi, sizeof hi, "%lld", s->hi);
        snprintf(buf, len, "%s%lld..%s%s%s", s->even ? "even, " : "", s->lo,
                 hi, s->zero_word ? " or " : "",
                 s->zero_word ? s->zero_word : "");
    }
}

void settings_range(const struct setting *s, char *buf, size_t len)
{
    const char *def = s->def ? s->def : s->def_note;
    values_text(s, buf, len);
    if (s->type == SET_FLAG || !def)
        return;
    size_t k = strlen(buf);
    snprintf(buf + k, len - k, " (default %s)", def);
}

const struct setting *settings_find(const struct setting *rows,
                                    const char *name, unsigned where)
{
    int prompt = (where & (SET_PROMPT | SET_TOUR)) != 0;
    for (; rows && rows->name; rows++)
        if ((rows->where & where) &&
            (strcmp(prompt ? settings_prompt(rows) : rows->name, name) == 0 ||
             (prompt && rows->alias && strcmp(rows->alias, name) == 0)))
            return rows;
    return NULL;
}

void settings_reset(const struct setting *rows, struct app *a)
{
    char err[160];
    /* a default the row refuses is the unit test's to find */
    for (; rows && rows->name; rows++)
        if (rows->def)
            (void)settings_set(rows, a, INT64_MAX, rows->def, err, sizeof err);
}

size_t settings_count(const struct setting *rows)
{
    size_t n = 0;
    while (rows && rows[n].name)
        n++;
    return n;
}

/* ---- documentation ------------------------------------------------------ */

/* Where the row is offered, in words: "--heads, :heads, follow
 * att.heads, file". */
void settings_where(const struct setting *s, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = 0;
    if (s->where & SET_CLI)
        k += (size_t)snprintf(buf + k, len - k, "--%s, ", s->name);
    if ((s->where & SET_PROMPT) && k < len)
        k += (size_t)snprintf(buf + k, len - k, ":%s, ", settings_prompt(s));
    if ((s->where & SET_PROMPT) && s->alias && k < len)
        k += (size_t)snprintf(buf + k, len - k, ":%s, ", s->alias);
    if ((s->where & SET_TOUR) && k < len)
        k += (size_t)snprintf(buf + k, len - k, "tour set, ");
    if ((s->where & SET_FOLLOW) && s->wire && k < len)
        k += (size_t)snprintf(buf + k, len - k, "follow %s, ", s->wire);
    if ((s->where & SET_FILE) && k < len)
        k += (size_t)snprintf(buf + k, len - k, "peviz.conf, ");
    if (k >= 2 && k < len)
        buf[k - 2] = 0;
}
