/* SPDX-License-Identifier: ISC */
/*
 * json.c - a strict, bounded JSON reader (see include/peviz/json.h).
 *
 * Recursive descent, depth bounded by the limits; each array or object
 * gathers its entries in a growing buffer, shrunk when it closes.
 */
#include "peviz/json.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
    const unsigned char *s;
    size_t len, pos;
    int depth, max_depth;
    char *err;
    size_t errlen;
    int failed;
    size_t used, budget;    /* bytes of tree allocated, and the most */
};

static void fail_at(struct parser *p, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail_at(struct parser *p, size_t at, const char *fmt, ...)
{
    char what[96];
    va_list ap;
    if (p->failed)
        return;
    p->failed = 1;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (p->err && p->errlen)
        snprintf(p->err, p->errlen, "byte %zu: %s", at, what);
}

static void oom(struct parser *p)
{
    if (p->failed)
        return;
    p->failed = 1;
    if (p->err && p->errlen)
        snprintf(p->err, p->errlen, "out of memory");
}

/* Count an allocation of n bytes as the allocator spends it (a header,
 * 16-byte steps, 32 at least): 0, or -1 once over the budget. */
static int charge(struct parser *p, size_t n)
{
    size_t cost = n < 24 ? 32 : (n + 8 + 15) & ~(size_t)15;
    if (cost > p->budget - p->used) {
        fail_at(p, p->pos, "more than %zu MiB of values: too many for this "
                "reader", p->budget >> 20);
        return -1;
    }
    p->used += cost;
    return 0;
}

static void skip_ws(struct parser *p)
{
    while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
                               p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
        p->pos++;
}

static int peek(const struct parser *p)
{
    return p->pos < p->len ? p->s[p->pos] : -1;
}

/* ---- free ----------------------------------------------------------------- */

static void free_children(json_value *v)
{
    json_value *items = (json_value *)v->items;
    for (size_t i = 0; i < v->count; i++) {
        free_children(&items[i]);
        free((char *)items[i].key);
    }
    if (v->type == JSON_ARRAY || v->type == JSON_OBJECT)
        free(items);
    else
        free((char *)v->str);
    v->items = NULL;
    v->str = NULL;
    v->count = 0;
}

void json_free(json_value *root)
{
    if (!root)
        return;
    free_children(root);
    free(root);
}

/* ---- strings -------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s[0..n-1] (lead byte >= 0x80), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t need;
    unsigned cp, min;
    if (c >= 0xc2 && c <= 0xdf) {
        need = 2; cp = c & 0x1f; min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        need = 3; cp = c & 0x0f; min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        need = 4; cp = c & 0x07; min = 0x10000;
    } else {
        return 0;
    }
    if (n < need)
        return 0;
    for (size_t i = 1; i < need; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return need;
}

static int hex4(const unsigned char *s, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int c = s[i], d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return -1;
        v = v * 16 + (unsigned)d;
    }
    *out = v;
    return 0;
}

static size_t put_utf8(unsigned cp, char *o)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* A \u escape at p->pos (just after the backslash-u): code point or -1. */
static long unicode_escape(struct parser *p, size_t esc)
{
    unsigned hi, lo;
    if (p->len - p->pos < 4 || hex4(p->s + p->pos, &hi)) {
        fail_at(p, esc, "\\u needs four hex digits");
        return -1;
    }
    p->pos += 4;
    if (hi >= 0xdc00 && hi <= 0xdfff) {
        fail_at(p, esc, "lone low surrogate \\u%04X", hi);
        return -1;
    }
    if (hi < 0xd800 || hi > 0xdbff)
        return (long)hi;
    if (p->len - p->pos < 6 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u' ||
        hex4(p->s + p->pos + 2, &lo) || lo < 0xdc00 || lo > 0xdfff) {
        fail_at(p, esc, "high surrogate \\u%04X not followed by a low one", hi);
        return -1;
    }
    p->pos += 6;
    return 0x10000L + (((long)hi - 0xd800) << 10) + ((long)lo - 0xdc00);
}

/* One escape after a backslash; writes its bytes to o, returns how many or -1. */
static int escape(struct parser *p, char *o)
{
    size_t esc = p->pos - 1;
    int c = peek(p);
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *k = c > 0 ? strchr(from, c) : NULL;
    if (k) {
        p->pos++;
        *o = to[k - from];
        return 1;
    }
    if (c < 0) {
        fail_at(p, esc, "unterminated escape");
        return -1;
    }
    if (c != 'u') {
        fail_at(p, esc, "unknown escape");
        return -1;
    }
    p->pos++;
    long cp = unicode_escape(p, esc);
    return cp < 0 ? -1 : (int)put_utf8((unsigned)cp, o);
}

/*
 * A string at p->pos (the opening quote).  The decoded text is never
 * longer than the source, so one buffer of the source's size is enough.
 */
static char *parse_string(struct parser *p, size_t *out_len)
{
    size_t start = p->pos++, end = p->pos, n = 0;
    while (end < p->len && p->s[end] != '"')
        end += p->s[end] == '\\' ? 2 : 1;
    if (charge(p, end - start + 1))
        return NULL;
    char *buf = malloc(end - start + 1);
    if (!buf) {
        oom(p);
        return NULL;
    }
    for (;;) {
        int c = peek(p);
        if (c < 0) {
            fail_at(p, start, "unterminated string");
            break;
        }
        if (c == '"') {
            p->pos++;
            buf[n] = 0;
            *out_len = n;
            return buf;
        }
        if (c < 0x20) {
            fail_at(p, p->pos, "control character in string");
            break;
        }
        if (c == '\\') {
            p->pos++;
            int k = escape(p, buf + n);
            if (k < 0)
                break;
            n += (size_t)k;
        } else if (c < 0x80) {
            buf[n++] = (char)c;
            p->pos++;
        } else {
            size_t k = utf8_len(p->s + p->pos, p->len - p->pos);
            if (!k) {
                fail_at(p, p->pos, "invalid UTF-8 in string");
                break;
            }
            memcpy(buf + n, p->s + p->pos, k);
            n += k;
            p->pos += k;
        }
    }
    free(buf);
    return NULL;
}

/* ---- numbers -------------------------------------------------------------- */

static size_t digits(const struct parser *p, size_t i)
{
    while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9')
        i++;
    return i;
}

/* The end of a number's text at p->pos per the JSON grammar, or 0. */
static size_t number_end(struct parser *p)
{
    size_t i = p->pos, j;
    if (i < p->len && p->s[i] == '-')
        i++;
    if (i < p->len && p->s[i] == '0')
        i++;
    else if ((j = digits(p, i)) > i)
        i = j;
    else
        return 0;
    if (i < p->len && p->s[i] == '.') {
        if ((j = digits(p, i + 1)) == i + 1)
            return 0;
        i = j;
    }
    if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
        i++;
        if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
            i++;
        if ((j = digits(p, i)) == i)
            return 0;
        i = j;
    }
    return i;
}

/* strtod in the C locale's terms: the '.' becomes the locale's point. */
static double c_strtod(char *text)
{
    const char *dp = localeconv()->decimal_point;
    char *dot = strchr(text, '.');
    if (dot && dp && dp[0] && !dp[1])
        *dot = dp[0];
    double v = strtod(text, NULL);
    if (dot)
        *dot = '.';
    return v;
}

static int parse_number(struct parser *p, json_value *v)
{
    size_t end = number_end(p);
    if (!end) {
        fail_at(p, p->pos, "malformed number");
        return -1;
    }
    size_t n = end - p->pos;
    if (charge(p, n + 1))
        return -1;
    char *text = malloc(n + 1);
    if (!text) {
        oom(p);
        return -1;
    }
    memcpy(text, p->s + p->pos, n);
    text[n] = 0;
    v->number = c_strtod(text);
    if (!isfinite(v->number)) {
        free(text);
        fail_at(p, p->pos, "number out of range");
        return -1;
    }
    v->str = text;
    v->len = n;
    v->type = JSON_NUMBER;
    p->pos = end;
    return 0;
}

/* ---- containers ----------------------------------------------------------- */

static int parse_value(struct parser *p, json_value *v);

/* Room for one more entry in a growing array of entries. */
static json_value *grow(struct parser *p, json_value **items, size_t *cap,
                        size_t count)
{
    if (count == *cap) {
        size_t nc = *cap ? *cap * 2 : 4;
        /* the new block counts while the old one is still held */
        if (charge(p, nc * sizeof **items))
            return NULL;
        if (*cap)
            p->used -= (*cap * sizeof **items + 8 + 15) & ~(size_t)15;
        json_value *ni = realloc(*items, nc * sizeof *ni);
        if (!ni) {
            oom(p);
            return NULL;
        }
        *items = ni;
        *cap = nc;
    }
    memset(&(*items)[count], 0, sizeof **items);
    return &(*items)[count];
}

static int cmp_keys(const void *a, const void *b)
{
    const json_value *x = *(const json_value *const *)a;
    const json_value *y = *(const json_value *const *)b;
    size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
    int c = memcmp(x->key, y->key, n);
    if (c)
        return c;
    return x->key_len < y->key_len ? -1 : x->key_len > y->key_len;
}

/* Refuse an object with a key twice: sort pointers, compare neighbours. */
static int check_duplicates(struct parser *p, const json_value *items, size_t n)
{
    if (n < 2)
        return 0;
    const json_value **order = malloc(n * sizeof *order);
    if (!order) {
        oom(p);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = &items[i];
    qsort(order, n, sizeof *order, cmp_keys);
    int r = 0;
    for (size_t i = 1; i < n && !r; i++)
        if (cmp_keys(&order[i - 1], &order[i]) == 0) {
            const json_value *later = order[i]->offset > order[i - 1]->offset
                                      ? order[i] : order[i - 1];
            fail_at(p, later->offset, "duplicate key \"%.40s\"", later->key);
            r = -1;
        }
    free(order);
    return r;
}

/* A member's key and colon; the value follows. */
static int parse_key(struct parser *p, json_value *m)
{
    skip_ws(p);
    if (peek(p) != '"') {
        fail_at(p, p->pos, "expected a string key in object");
        return -1;
    }
    m->key = parse_string(p, &m->key_len);
    if (!m->key)
        return -1;
    skip_ws(p);
    if (peek(p) != ':') {
        fail_at(p, p->pos, "expected ':' after object key");
        return -1;
    }
    p->pos++;
    return 0;
}

static int parse_container(struct parser *p, json_value *v, int object)
{
    int close = object ? '}' : ']';
    json_value *items = NULL;
    size_t cap = 0, n = 0;
    v->type = object ? JSON_OBJECT : JSON_ARRAY;
    if (++p->depth > p->max_depth) {
        fail_at(p, p->pos, "nested deeper than %d", p->max_depth);
        return -1;
    }
    p->pos++;
    skip_ws(p);
    if (peek(p) == close) {
        p->pos++;
        p->depth--;
        return 0;
    }
    for (;;) {
        json_value *e = grow(p, &items, &cap, n);
        if (!e)
            break;
        n++;
        if ((object && parse_key(p, e)) || parse_value(p, e))
            break;
        skip_ws(p);
        int c = peek(p);
        if (c == ',') {
            p->pos++;
            continue;
        }
        if (c == close) {
            p->pos++;
            p->depth--;
            json_value *shrunk = realloc(items, n * sizeof *items);
            v->items = shrunk ? shrunk : items;
            v->count = n;
            return object ? check_duplicates(p, v->items, n) : 0;
        }
        fail_at(p, p->pos, object ? "expected ',' or '}' in object"
                                  : "expected ',' or ']' in array");
        break;
    }
    v->items = items;
    v->count = n;
    return -1;
}

static int literal(struct parser *p, const char *word, enum json_type t,
                   json_value *v)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n)) {
        fail_at(p, p->pos, "unexpected character");
        return -1;
    }
    p->pos += n;
    v->type = t;
    return 0;
}

static int parse_value(struct parser *p, json_value *v)
{
    skip_ws(p);
    v->offset = p->pos;
    switch (peek(p)) {
    case -1:
        fail_at(p, p->pos, "unexpected end of input");
        return -1;
    case '{': return parse_container(p, v, 1);
    case '[': return parse_container(p, v, 0);
    case '"':
        v->type = JSON_STRING;
        v->str = parse_string(p, &v->len);
        return v->str ? 0 : -1;
    case 't': return literal(p, "true", JSON_TRUE, v);
    case 'f': return literal(p, "false", JSON_FALSE, v);
    case 'n': return literal(p, "null", JSON_NULL, v);
    default:
        if (peek(p) != '-' && (peek(p) < '0' || peek(p) > '9')) {
            fail_at(p, p->pos, "unexpected character");
            return -1;
        }
        return parse_number(p, v);
    }
}

json_value *json_parse(const char *text, size_t len,
                       const struct json_limits *lim, char *err, size_t errlen)
{
    struct parser p = { (const unsigned char *)text, len, 0, 0,
                        JSON_DEFAULT_MAX_DEPTH, err, errlen, 0, 0,
                        JSON_DEFAULT_MAX_MEMORY };
    size_t max_bytes = lim ? lim->max_bytes : JSON_DEFAULT_MAX_BYTES;
    if (lim)
        p.max_depth = lim->max_depth;
    if (lim && lim->max_memory)
        p.budget = lim->max_memory;
    if (err && errlen)
        err[0] = 0;
    if (!text && len) {
        fail_at(&p, 0, "no input");
        return NULL;
    }
    if (len > max_bytes) {
        fail_at(&p, max_bytes, "input longer than %zu bytes", max_bytes);
        return NULL;
    }
    json_value *root = calloc(1, sizeof *root);
    if (!root) {
        oom(&p);
        return NULL;
    }
    if (parse_value(&p, root) == 0) {
        skip_ws(&p);
        if (p.pos == p.len)
            return root;
        fail_at(&p, p.pos, "unexpected text after the value");
    }
    json_free(root);
    return NULL;
}

/* ---- navigation and getters ------------------------------------------- */

const char *json_type_name(enum json_type t)
{
    static const char *const names[] = { "null", "false", "true", "number",
                                         "string", "array", "object" };
    return (unsigned)t <= JSON_OBJECT ? names[t] : "?";
}

const json_value *json_get(const json_value *obj, const char *key)
{
    if (!obj || obj->type != JSON_OBJECT || !key)
        return NULL;
    size_t n = strlen(key);
    for (size_t i = 0; i < obj->count; i++)
        if (obj->items[i].key_len == n && memcmp(obj->items[i].key, key, n) == 0)
            return &obj->items[i];
    return NULL;
}

size_t json_count(const json_value *v)
{
    return v && (v->type == JSON_ARRAY || v->type == JSON_OBJECT) ? v->count : 0;
}

const json_value *json_at(const json_value *v, size_t i)
{
    return i < json_count(v) ? &v->items[i] : NULL;
}

int json_number(const json_value *v, double *out)
{
    if (!v || v->type != JSON_NUMBER)
        return -1;
    *out = v->number;
    return 0;
}

int json_int64(const json_value *v, int64_t *out)
{
    if (!v || v->type != JSON_NUMBER)
        return -1;
    if (!strpbrk(v->str, ".eE")) {
        errno = 0;
        long long x = strtoll(v->str, NULL, 10);
        if (errno == ERANGE)
            return -1;
        *out = (int64_t)x;
        return 0;
    }
    double d = v->number;
    if (d != floor(d) || fabs(d) > 9007199254740992.0)
        return -1;
    *out = (int64_t)d;
    return 0;
}

int json_bool(const json_value *v, int *out)
{
    if (!v || (v->type != JSON_TRUE && v->type != JSON_FALSE))
        return -1;
    *out = v->type == JSON_TRUE;
    return 0;
}

const char *json_string(const json_value *v)
{
    return v && v->type == JSON_STRING ? v->str : NULL;
}
