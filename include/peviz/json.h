/* SPDX-License-Identifier: ISC */
/*
 * peviz/json.h - a strict, bounded JSON reader (RFC 8259).
 *
 * json_parse reads a whole document into a tree the caller frees with
 * json_free.  Strict: exactly one value with optional blanks (space, tab,
 * CR, LF) around it; no comments, no trailing commas, no NaN/Infinity, no
 * leading zeros or '+', no raw control characters in strings, input and
 * strings must be valid UTF-8 (no overlongs, no encoded surrogates);
 * \uXXXX escapes, surrogate pairs combined, a lone surrogate refused.
 * Numbers are converted as strtod does in the C locale, whatever the
 * process locale; a number beyond the double range is refused (one that
 * underflows becomes 0 or a subnormal).  A duplicate key in one object is
 * refused.  Nesting deeper than max_depth and input longer than max_bytes
 * are refused.  Errors: "byte N: what" (N counts from 0).
 *
 *   char err[128];
 *   json_value *doc = json_parse(text, len, NULL, err, sizeof err);
 *   if (!doc) { puts(err); return; }
 *   const json_value *v = json_get(doc, "rope_theta");
 *   double theta;
 *   if (json_number(v, &theta) == 0) ...
 *   for (size_t i = 0; i < json_count(doc); i++)
 *       printf("%s\n", json_at(doc, i)->key);
 *   json_free(doc);
 */
#ifndef PEVIZ_JSON_H
#define PEVIZ_JSON_H

#include <stddef.h>
#include <stdint.h>

enum json_type {
    JSON_NULL = 0, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING,
    JSON_ARRAY, JSON_OBJECT
};

typedef struct json_value {
    enum json_type type;
    size_t offset;          /* byte offset of the value in the input */
    const char *key;        /* object members: the key (NUL-ended UTF-8);
                               NULL for array elements and the root */
    size_t key_len;         /* bytes of key (may hold \0 from \u0000) */
    double number;          /* JSON_NUMBER: the value */
    const char *str;        /* JSON_STRING: the decoded text, NUL-ended;
                               JSON_NUMBER: the number as written */
    size_t len;             /* bytes of str (a string may hold \0) */
    size_t count;           /* JSON_ARRAY / JSON_OBJECT: entries */
    const struct json_value *items;   /* the entries, in document order */
} json_value;

struct json_limits {
    size_t max_bytes;       /* longest input accepted */
    int max_depth;          /* deepest nesting of arrays and objects */
    size_t max_memory;      /* bytes the tree may take (0: the default) */
};

#define JSON_DEFAULT_MAX_BYTES 100000000u
#define JSON_DEFAULT_MAX_DEPTH 64
/* A value takes some 70 bytes of tree for as little as 2 bytes of text:
 * the tree's allocations are counted (with the allocator's overhead) and
 * a document that would need more is refused ("byte N: more than 24 MiB
 * of values").  24 MiB holds 130,000 values in one array, more in small
 * containers: a config.json has hundreds, a safetensors header about ten
 * per tensor. */
#define JSON_DEFAULT_MAX_MEMORY ((size_t)24 << 20)

/*
 * Parse text[0..len-1] (need not be NUL-ended).  lim NULL: the defaults
 * above.  Returns the root, or NULL with a one-line message in err
 * ("byte 17: expected ',' or '}' in object"; "out of memory").
 */
json_value *json_parse(const char *text, size_t len,
                       const struct json_limits *lim, char *err, size_t errlen);

/* Free a tree from json_parse (NULL is fine). */
void json_free(json_value *root);

/* "null", "false", "true", "number", "string", "array", "object". */
const char *json_type_name(enum json_type t);

/* ---- navigation (every function takes NULL and returns NULL / 0 / -1) -- */

/* Member of an object by key (keys are unique), or NULL. */
const json_value *json_get(const json_value *obj, const char *key);

/* Entries of an array or object (0 for anything else), and entry i
 * (NULL past the end); an object's entries carry their ->key. */
size_t json_count(const json_value *v);
const json_value *json_at(const json_value *v, size_t i);

/* ---- typed getters: 0 on success, -1 if v is NULL or of another type -- */

int json_number(const json_value *v, double *out);

/*
 * A whole number in int64_t range: exact from the text when written
 * without fraction or exponent ("131072"), else a double that is whole
 * and within +-2^53 ("8.0", "1e3").  -1 otherwise.
 */
int json_int64(const json_value *v, int64_t *out);

int json_bool(const json_value *v, int *out);

/* The decoded string, or NULL when v is not a string. */
const char *json_string(const json_value *v);

#endif /* PEVIZ_JSON_H */
