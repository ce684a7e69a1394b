/* SPDX-License-Identifier: ISC */
/*
 * test_json.c - the strict JSON reader on documents written out byte by
 * byte: values, escapes and surrogates, numbers in a comma locale,
 * duplicate keys, depth and size limits, and hostile inputs with the
 * byte offset each error must name.
 */
#define _POSIX_C_SOURCE 200809L
#include "peviz/json.h"
#include "harness.h"

#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static json_value *parse(const char *s, char *err)
{
    return json_parse(s, strlen(s), NULL, err, 128);
}

/* The document must be refused with exactly this message. */
static void refused(const char *s, size_t len, const char *want)
{
    char err[128];
    json_value *v = json_parse(s, len, NULL, err, sizeof err);
    CHECK(v == NULL);
    CHECK_STR(err, want);
    json_free(v);
}
#define REFUSED(s, want) refused((s), sizeof(s) - 1, (want))

static void test_config_like(void)
{
    char err[128];
    json_value *doc = parse(
        " {\"rope_theta\": 500000.0, \"head_dim\": 128,\n"
        "  \"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 8.0},\n"
        "  \"tie\": true, \"x\": false, \"n\": null,\r\n"
        "  \"list\": [1, -2.5e-3, 0, -0, 1E2, [], {}]}\t", err);
    CHECK(doc != NULL);
    if (!doc)
        return;
    CHECK(doc->type == JSON_OBJECT && json_count(doc) == 7);
    double t;
    int64_t hd;
    CHECK(json_number(json_get(doc, "rope_theta"), &t) == 0 && t == 500000.0);
    CHECK(json_int64(json_get(doc, "head_dim"), &hd) == 0 && hd == 128);
    const json_value *rs = json_get(doc, "rope_scaling");
    CHECK_STR(json_string(json_get(rs, "rope_type")), "llama3");
    CHECK(json_int64(json_get(rs, "factor"), &hd) == 0 && hd == 8);
    int b = -1;
    CHECK(json_bool(json_get(doc, "tie"), &b) == 0 && b == 1);
    CHECK(json_bool(json_get(doc, "x"), &b) == 0 && b == 0);
    CHECK(json_get(doc, "n")->type == JSON_NULL);
    CHECK(json_bool(json_get(doc, "n"), &b) == -1);
    CHECK(json_get(doc, "missing") == NULL);
    CHECK(json_get(rs, "rope_theta") == NULL);
    /* iteration keeps document order and carries the keys */
    CHECK_STR(json_at(doc, 0)->key, "rope_theta");
    CHECK_STR(json_at(doc, 6)->key, "list");
    CHECK(json_at(doc, 7) == NULL);
    CHECK(json_at(doc, 0)->offset == 16);
    const json_value *l = json_get(doc, "list");
    CHECK(json_count(l) == 7 && json_at(l, 0)->key == NULL);
    double x;
    CHECK(json_number(json_at(l, 1), &x) == 0 && x == -2.5e-3);
    CHECK(json_number(json_at(l, 4), &x) == 0 && x == 100.0);
    CHECK(json_number(json_at(l, 3), &x) == 0 && x == 0 && signbit(x));
    CHECK(json_int64(json_at(l, 1), &hd) == -1);
    CHECK(json_count(json_at(l, 5)) == 0 && json_at(l, 5)->type == JSON_ARRAY);
    CHECK(json_count(json_at(l, 6)) == 0 && json_at(l, 6)->type == JSON_OBJECT);
    CHECK(json_string(json_at(l, 0)) == NULL);
    CHECK(json_number(NULL, &x) == -1 && json_count(NULL) == 0);
    json_free(doc);
}

static void test_scalars_and_int64(void)
{
    char err[128];
    json_value *v = parse("9223372036854775807", err);
    int64_t i;
    CHECK(v && json_int64(v, &i) == 0 && i == INT64_MAX);
    json_free(v);
    v = parse("9223372036854775808", err);       /* a double, not an int64 */
    CHECK(v && json_int64(v, &i) == -1);
    json_free(v);
    v = parse("1e3", err);
    CHECK(v && json_int64(v, &i) == 0 && i == 1000);
    json_free(v);
    v = parse("1e-400", err);                    /* underflow: 0 */
    CHECK(v && v->number == 0);
    json_free(v);
    v = parse("\"\"", err);
    CHECK(v && json_string(v) && v->len == 0);
    json_free(v);
    CHECK_STR(json_type_name(JSON_OBJECT), "object");
}

static void test_escapes(void)
{
    char err[128];
    json_value *v = parse("\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\u20AC"
                          "\\ud83d\\ude00\\u0000z\"", err);
    static const char want[] = "a\"b\\c/d\b\f\n\r\t\xc3\xa9\xe2\x82\xac"
                               "\xf0\x9f\x98\x80\0z";
    CHECK(v != NULL);
    if (v) {
        CHECK(v->len == sizeof want - 1);
        CHECK(memcmp(v->str, want, sizeof want) == 0);
    }
    json_free(v);
    /* raw UTF-8 passes through */
    v = parse("{\"\xe4\xb8\xad\": \"\xf0\x9f\x98\x80\"}", err);
    CHECK(v && json_get(v, "\xe4\xb8\xad") &&
          strcmp(json_string(json_get(v, "\xe4\xb8\xad")), "\xf0\x9f\x98\x80") == 0);
    json_free(v);
}

/*
 * A locale whose decimal point is ',' (only LC_NUMERIC defined), compiled
 * into a temporary directory with localedef; 0 if that is not possible.
 */
static int comma_locale(char *dir, size_t len)
{
    snprintf(dir, len, "/tmp/peviz-json-XXXXXX");
    if (!mkdtemp(dir))
        return 0;
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "cd %s && printf 'LC_NUMERIC\\ndecimal_point \",\"\\n"
             "thousands_sep \".\"\\ngrouping 3;3\\nEND LC_NUMERIC\\n' > src && "
             "localedef -c -i ./src -f UTF-8 ./comma >/dev/null 2>&1; "
             "test -f comma/LC_NUMERIC", dir);
    if (system(cmd) != 0)
        return 0;
    setenv("LOCPATH", dir, 1);
    return setlocale(LC_NUMERIC, "comma") != NULL;
}

static void test_comma_locale(void)
{
    /* strtod honours LC_NUMERIC; the reader must not */
    char dir[64], err[128], cmd[128];
    if (!comma_locale(dir, sizeof dir)) {
        printf("test_json: no comma locale (localedef), locale check skipped\n");
    } else {
        CHECK_STR(localeconv()->decimal_point, ",");
        CHECK(strtod("0.5", NULL) == 0.0);      /* the trap is armed */
        json_value *v = parse("[0.5, 1.25e2, -7.75]", err);
        CHECK(v && json_at(v, 0)->number == 0.5 && json_at(v, 1)->number == 125.0 &&
              json_at(v, 2)->number == -7.75);
        CHECK(v && strcmp(json_at(v, 0)->str, "0.5") == 0);
        json_free(v);
        setlocale(LC_NUMERIC, "C");
    }
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (strncmp(dir, "/tmp/peviz-json-", 16) == 0 && system(cmd) != 0)
        printf("test_json: could not remove %s\n", dir);
}

static void test_refusals(void)
{
    REFUSED("", "byte 0: unexpected end of input");
    REFUSED("   ", "byte 3: unexpected end of input");
    REFUSED("{", "byte 1: expected a string key in object");
    REFUSED("{\"a\" 1}", "byte 5: expected ':' after object key");
    REFUSED("{\"a\":1,}", "byte 7: expected a string key in object");
    REFUSED("[1,]", "byte 3: unexpected character");
    REFUSED("[1 2]", "byte 3: expected ',' or ']' in array");
    REFUSED("{\"a\":1 \"b\":2}", "byte 7: expected ',' or '}' in object");
    REFUSED("{\"a\":1,\"b\":2,\"a\":3}", "byte 17: duplicate key \"a\"");
    REFUSED("{\"k\":{}, \"k\":[]}", "byte 13: duplicate key \"k\"");
    REFUSED("01", "byte 1: unexpected text after the value");
    REFUSED("-", "byte 0: malformed number");
    REFUSED("1.", "byte 0: malformed number");
    REFUSED("1e+", "byte 0: malformed number");
    REFUSED("+1", "byte 0: unexpected character");
    REFUSED(".5", "byte 0: unexpected character");
    REFUSED("1e400", "byte 0: number out of range");
    REFUSED("NaN", "byte 0: unexpected character");
    REFUSED("Infinity", "byte 0: unexpected character");
    REFUSED("tru", "byte 0: unexpected character");
    REFUSED("nulls", "byte 4: unexpected text after the value");
    REFUSED("\"abc", "byte 0: unterminated string");
    REFUSED("\"a\\", "byte 2: unterminated escape");
    REFUSED("\"a\tb\"", "byte 2: control character in string");
    REFUSED("\"\\x\"", "byte 1: unknown escape");
    REFUSED("\"\\u12G4\"", "byte 1: \\u needs four hex digits");
    REFUSED("\"\\u12\"", "byte 1: \\u needs four hex digits");
    REFUSED("\"\\udc00\"", "byte 1: lone low surrogate \\uDC00");
    REFUSED("\"\\ud83d\"", "byte 1: high surrogate \\uD83D not followed by a low one");
    REFUSED("\"\\ud83d\\u0041\"", "byte 1: high surrogate \\uD83D not followed by a low one");
    REFUSED("\"\xc0\xaf\"", "byte 1: invalid UTF-8 in string");          /* overlong */
    REFUSED("\"\xed\xa0\x80\"", "byte 1: invalid UTF-8 in string");      /* surrogate */
    REFUSED("\"\xf4\x90\x80\x80\"", "byte 1: invalid UTF-8 in string");  /* > U+10FFFF */
    REFUSED("\"\xe2\x82\"", "byte 1: invalid UTF-8 in string");          /* cut short */
    REFUSED("\xef\xbb\xbf{}", "byte 0: unexpected character");           /* BOM */
    REFUSED("{} {}", "byte 3: unexpected text after the value");
    REFUSED("// c\n{}", "byte 0: unexpected character");
    REFUSED("[1]\0", "byte 3: unexpected text after the value");
    REFUSED("{\"a\":\0}", "byte 5: unexpected character");
}

static void test_limits(void)
{
    char err[128], deep[200];
    struct json_limits lim = { 1000, 8, 0 };
    memset(deep, '[', 8);
    memset(deep + 8, ']', 8);
    json_value *v = json_parse(deep, 16, &lim, err, sizeof err);
    CHECK(v != NULL);
    json_free(v);
    memset(deep, '[', 9);
    memset(deep + 9, ']', 9);
    v = json_parse(deep, 18, &lim, err, sizeof err);
    CHECK(v == NULL);
    CHECK_STR(err, "byte 8: nested deeper than 8");
    lim.max_bytes = 10;
    v = json_parse("[1,2,3,4,5]", 11, &lim, err, sizeof err);
    CHECK(v == NULL);
    CHECK_STR(err, "byte 10: input longer than 10 bytes");
    /* the default depth: 64 fine, 65 refused; 100000 levels cannot crash */
    size_t big = 100000;
    char *b = malloc(2 * big);
    if (!b)
        return;
    memset(b, '[', big);
    memset(b + big, ']', big);
    v = json_parse(b + big - 64, 128, NULL, err, sizeof err);
    CHECK(v != NULL);
    json_free(v);
    v = json_parse(b + big - 65, 130, NULL, err, sizeof err);
    CHECK(v == NULL);
    CHECK_STR(err, "byte 64: nested deeper than 64");
    v = json_parse(b, 2 * big, NULL, err, sizeof err);
    CHECK(v == NULL);
    free(b);
}

/* Many members, one duplicated at the end: found without O(n^2) work. */
static void test_many_keys(void)
{
    enum { N = 20000 };
    char *s = malloc((size_t)N * 16 + 64), err[128];
    if (!s)
        return;
    size_t n = 0;
    s[n++] = '{';
    for (int i = 0; i < N; i++)
        n += (size_t)sprintf(s + n, "%s\"k%d\":%d", i ? "," : "", i, i);
    s[n++] = '}';
    json_value *v = json_parse(s, n, NULL, err, sizeof err);
    int64_t x;
    CHECK(v && json_count(v) == N && json_int64(json_get(v, "k19999"), &x) == 0 &&
          x == 19999);
    json_free(v);
    n--;
    n += (size_t)sprintf(s + n, ",\"k7\":1}");
    v = json_parse(s, n, NULL, err, sizeof err);
    CHECK(v == NULL && strstr(err, "duplicate key \"k7\"") != NULL);
    free(s);
}

/*
 * Peak memory of parsing 16 MiB made of one element repeated inside one
 * array ("[0,0,...]"), in a child of its own: its peak RSS in KiB (input
 * included) and whether the parse was refused, with the message.
 */
static long child_parse_peak(const char *elem, int *refused, char *err,
                             size_t errlen)
{
    int fd[2];
    if (pipe(fd))
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        size_t max = (size_t)16 << 20, el = strlen(elem), n = 1;
        char *t = malloc(max), e[128] = "";
        struct rusage ru;
        if (!t)
            _exit(1);
        t[0] = '[';
        while (n + el + 2 < max) {
            memcpy(t + n, elem, el);
            n += el;
            t[n++] = ',';
        }
        t[n - 1] = ']';
        struct json_limits lim = { max, 32, 0 };
        json_value *v = json_parse(t, n, &lim, e, sizeof e);
        getrusage(RUSAGE_SELF, &ru);
        dprintf(fd[1], "%ld %d %s", ru.ru_maxrss, v == NULL, e);
        _exit(0);
    }
    close(fd[1]);
    char buf[256];
    ssize_t r = pid > 0 ? read(fd[0], buf, sizeof buf - 1) : -1;
    close(fd[0]);
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid || r <= 0)
        return -1;
    buf[r] = 0;
    long kib = -1;
    int off = 0;
    if (sscanf(buf, "%ld %d %n", &kib, refused, &off) < 2)
        return -1;
    snprintf(err, errlen, "%s", buf + off);
    return kib;
}

/* A sanitizer's redzones and quarantine are not the reader's memory:
 * there the peak is printed, not held to 64 MB. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

/* Every JSON input within 64 MB: a 16 MiB array of small values is
 * refused once its values would need more than the budget, instead of
 * costing 50 times its size. */
static void test_memory_budget(void)
{
    static const char *const ELEMS[] = { "0", "\"\"", "[]", "{}", "1.5e3" };
    for (size_t i = 0; i < sizeof ELEMS / sizeof ELEMS[0]; i++) {
        char err[128];
        int refused = 0;
        long kib = child_parse_peak(ELEMS[i], &refused, err, sizeof err);
        printf("16 MiB array of %s: peak %ld KiB, %s\n", ELEMS[i], kib,
               refused ? err : "parsed");
        CHECK(kib > 0 && (kib <= 64L * 1024 || SANITIZED));
        CHECK(refused && strstr(err, "MiB of values") != NULL);
    }
}

int main(void)
{
    test_config_like();
    test_scalars_and_int64();
    test_escapes();
    test_comma_locale();
    test_refusals();
    test_limits();
    test_many_keys();
    test_memory_budget();
    TEST_END("test_json");
}
