/*
 * test_peload.c - the --pe-file loader on good, bad and truncated files.
 * The .npy files are built here byte by byte, as the format describes
 * them: magic, version, little-endian header length, dict, data.
 */
#define _POSIX_C_SOURCE 200809L   /* mkstemp, write, unlink */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "peload.h"

struct buf {
    unsigned char b[8192];
    size_t n;
};

static void put(struct buf *b, const void *p, size_t n)
{
    memcpy(b->b + b->n, p, n);
    b->n += n;
}

/*
 * An .npy file: version major (1 or 2), the dict text, padded with
 * spaces and a final newline to a multiple of 64 as numpy writes it
 * (pad < 0: no padding), then len bytes of data.
 */
static void npy(struct buf *b, int major, const char *dict, int pad,
                const void *data, size_t len)
{
    b->n = 0;
    put(b, "\x93NUMPY", 6);
    unsigned char ver[2] = { (unsigned char)major, 0 };
    put(b, ver, 2);
    size_t pre = major == 1 ? 10 : 12, hl = strlen(dict) + 1;
    if (pad >= 0)
        while ((pre + hl) % 64)
            hl++;
    unsigned char le[4] = { (unsigned char)(hl & 0xff),
                            (unsigned char)((hl >> 8) & 0xff),
                            (unsigned char)((hl >> 16) & 0xff),
                            (unsigned char)((hl >> 24) & 0xff) };
    put(b, le, major == 1 ? 2 : 4);
    put(b, dict, strlen(dict));
    while (b->n < pre + hl - 1)
        put(b, " ", 1);
    put(b, "\n", 1);
    put(b, data, len);
}

/* Little-endian float32 / float64 bytes of v[0..n-1]. */
static size_t f32le(const double *v, size_t n, unsigned char *out)
{
    for (size_t i = 0; i < n; i++) {
        float f = (float)v[i];
        uint32_t u;
        memcpy(&u, &f, 4);
        for (int k = 0; k < 4; k++)
            out[4 * i + (size_t)k] = (unsigned char)(u >> (8 * k));
    }
    return 4 * n;
}

static size_t f64le(const double *v, size_t n, unsigned char *out)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, &v[i], 8);
        for (int k = 0; k < 8; k++)
            out[8 * i + (size_t)k] = (unsigned char)(u >> (8 * k));
    }
    return 8 * n;
}

static const double V[8] = { 0.5, -1.25, 3.0, 0.0, 1e-3, -2.5, 7.75, 100.0 };
#define DICT(d, o, s) "{'descr': '" d "', 'fortran_order': " o ", 'shape': " s ", }"

/* Load b; returns 0 and fills t, or -1 with err filled. */
static int load(const struct buf *b, struct pe_table *t, char *err)
{
    return peload_buffer("t.npy", b->b, b->n, t, err, 256);
}

static int fails_with(const struct buf *b, const char *needle)
{
    struct pe_table t;
    char err[256] = "";
    int r = load(b, &t, err);
    int ok = r == -1 && strncmp(err, "t.npy: ", 7) == 0
             && strstr(err, needle) != NULL && t.v == NULL;
    if (!ok)
        fprintf(stderr, "want failure with '%s', got %d '%s'\n", needle, r,
                err);
    peload_free(&t);
    return ok;
}

static void test_npy_good(void)
{
    struct buf b;
    unsigned char data[64];
    struct pe_table t;
    char err[256];

    size_t n = f32le(V, 8, data);
    npy(&b, 1, DICT("<f4", "False", "(2, 4)"), 0, data, n);
    CHECK((b.n - n) % 64 == 0);
    CHECK(load(&b, &t, err) == 0);
    CHECK(t.n == 2 && t.d == 4);
    int same = 1;
    for (int i = 0; i < 8; i++)
        same &= t.v[i] == (double)(float)V[i];
    CHECK(same);
    peload_free(&t);

    n = f64le(V, 8, data);
    npy(&b, 2, DICT("<f8", "False", "(4, 2)"), 0, data, n);
    CHECK(load(&b, &t, err) == 0);
    CHECK(t.n == 4 && t.d == 2 && memcmp(t.v, V, sizeof V) == 0);
    peload_free(&t);

    /* keys in another order, no trailing comma, no padding, version 3 */
    npy(&b, 3, "{'shape': (1, 8), 'fortran_order': False, 'descr': '<f8'}",
        -1, data, n);
    CHECK(load(&b, &t, err) == 0);
    CHECK(t.n == 1 && t.d == 8 && t.v[7] == 100.0);
    peload_free(&t);
}

static void test_npy_bad(void)
{
    struct buf b;
    unsigned char data[128];
    size_t n = f32le(V, 8, data);

    npy(&b, 1, DICT("<f4", "False", "(2, 4)"), 0, data, n - 1);
    CHECK(fails_with(&b, "truncated"));
    npy(&b, 1, DICT("<f4", "False", "(2, 4)"), 0, data, n + 4);
    CHECK(fails_with(&b, "after the data"));
    npy(&b, 1, DICT(">f4", "False", "(2, 4)"), 0, data, n);
    CHECK(fails_with(&b, "big-endian"));
    npy(&b, 1, DICT("<i4", "False", "(2, 4)"), 0, data, n);
    CHECK(fails_with(&b, "data type"));
    npy(&b, 1, DICT("<f4", "True", "(2, 4)"), 0, data, n);
    CHECK(fails_with(&b, "Fortran"));
    npy(&b, 1, DICT("<f4", "False", "(8,)"), 0, data, n);
    CHECK(fails_with(&b, "1-dimensional"));
    npy(&b, 1, DICT("<f4", "False", "(2, 2, 2)"), 0, data, n);
    CHECK(fails_with(&b, "3-dimensional"));
    npy(&b, 1, DICT("<f4", "False", "(8, 1)"), 0, data, n);
    CHECK(fails_with(&b, "even"));
    npy(&b, 1, DICT("<f4", "False", "(0, 4)"), 0, data, 0);
    CHECK(fails_with(&b, "no rows"));
    /* over the value limit: refused from the header, nothing allocated */
    npy(&b, 1, DICT("<f4", "False", "(4194304, 2)"), 0, data, n);
    CHECK(fails_with(&b, "limit"));
    npy(&b, 1, DICT("<f4", "False", "(99999999999999999999, 2)"), 0, data, n);
    CHECK(fails_with(&b, "too large"));
    npy(&b, 1, "{'descr': '<f4', 'fortran_order': False}", 0, data, n);
    CHECK(fails_with(&b, "required"));
    npy(&b, 1, DICT("<f4", "False", "(2, 4)") " junk", 0, data, n);
    CHECK(fails_with(&b, "after the dictionary"));
    npy(&b, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4), "
        "'extra': 1}", 0, data, n);
    CHECK(fails_with(&b, "unknown key"));
    npy(&b, 1, "['not', 'a', 'dict']", 0, data, n);
    CHECK(fails_with(&b, "not a dictionary"));
    npy(&b, 1, "{'descr': '<f4, 'fortran_order': False}", 0, data, n);
    CHECK(fails_with(&b, "header"));

    double bad[8];
    memcpy(bad, V, sizeof bad);
    bad[5] = NAN;
    npy(&b, 1, DICT("<f8", "False", "(2, 4)"), 0, data, f64le(bad, 8, data));
    CHECK(fails_with(&b, "row 1, column 1"));

    /* the preamble itself cut short, and a header longer than the file */
    npy(&b, 1, DICT("<f4", "False", "(2, 4)"), 0, data, n);
    b.n = 9;
    CHECK(fails_with(&b, "truncated"));
    b.n = 40;
    CHECK(fails_with(&b, "truncated"));
    npy(&b, 1, DICT("<f4", "False", "(2, 4)"), 0, data, n);
    b.b[6] = 7;
    CHECK(fails_with(&b, "version"));
}

/* Every truncation and many byte flips of a good file: an error or a
 * table, never a crash (ASan makes this test mean something). */
static void test_npy_mutations(void)
{
    struct buf good, b;
    unsigned char data[64];
    size_t n = f64le(V, 8, data);
    npy(&good, 1, DICT("<f8", "False", "(2, 4)"), 0, data, n);
    int all_fail = 1;
    for (size_t cut = 0; cut < good.n; cut++) {
        struct pe_table t;
        char err[256];
        b = good;
        b.n = cut;
        all_fail &= load(&b, &t, err) == -1 && t.v == NULL;
        peload_free(&t);
    }
    CHECK(all_fail);
    uint64_t x = 12345;
    int loaded = 0, failed = 0;
    for (int round = 0; round < 5000; round++) {
        struct pe_table t;
        char err[256];
        b = good;
        for (int f = 0; f < 3; f++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            b.b[(x >> 33) % good.n] ^= (unsigned char)(1u << ((x >> 20) % 8));
        }
        if (load(&b, &t, err) == 0)
            loaded += t.n * t.d > 0 && t.v != NULL;
        else
            failed += err[0] != 0;
        peload_free(&t);
    }
    CHECK(loaded + failed == 5000);
}

static int csv_fails(const char *text, const char *needle)
{
    struct pe_table t;
    char err[256] = "";
    int r = peload_buffer("p.csv", (const unsigned char *)text, strlen(text),
                          &t, err, sizeof err);
    int ok = r == -1 && strncmp(err, "p.csv: ", 7) == 0
             && strstr(err, needle) != NULL;
    if (!ok)
        fprintf(stderr, "want '%s', got %d '%s'\n", needle, r, err);
    peload_free(&t);
    return ok;
}

static void test_csv(void)
{
    struct pe_table t;
    char err[256];
    const char *good = "0.5, -1.25,3,0\r\n\n1e-3,-2.5 ,7.75,100\n\n";
    CHECK(peload_buffer("p.csv", (const unsigned char *)good, strlen(good),
                        &t, err, sizeof err) == 0);
    CHECK(t.n == 2 && t.d == 4 && memcmp(t.v, V, sizeof V) == 0);
    peload_free(&t);

    CHECK(csv_fails("1,2\n3\n", "line 2: 1 values, the first row has 2"));
    CHECK(csv_fails("1,2\n3,x\n", "line 2: 'x' is not a number"));
    CHECK(csv_fails("1,,2,3\n", "empty value"));
    CHECK(csv_fails("1,2\nnan,2\n", "not a finite"));
    CHECK(csv_fails("1,2\ninf,2\n", "not a finite"));
    CHECK(csv_fails("1,2,3\n", "even"));
    CHECK(csv_fails("\n\n  \n", "no rows"));
    CHECK(csv_fails("1,2\n1e999,2\n", "not a finite"));
    CHECK(csv_fails("pos,dim\n1,2\n", "line 1: 'pos' is not a number"));
    CHECK(csv_fails("1,2\n\x1b[2J,2\n", "'?[2J' is not a number"));
    CHECK(csv_fails("", "empty file"));
    char nul[] = { '1', ',', '\0', '\n' };
    struct pe_table t2;
    CHECK(peload_buffer("p.csv", (const unsigned char *)nul, sizeof nul, &t2,
                        err, sizeof err) == -1 && strstr(err, "NUL"));
}

static void test_files(void)
{
    struct pe_table t;
    char err[256], path[] = "/tmp/peviz-peload-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    const char *text = "1,2\n3,4\n5,6\n";
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    CHECK(peload_file(path, &t, err, sizeof err) == 0);
    CHECK(t.n == 3 && t.d == 2 && t.v[5] == 6);
    peload_free(&t);
    unlink(path);
    CHECK(peload_file(path, &t, err, sizeof err) == -1);
    CHECK(strncmp(err, path, strlen(path)) == 0 && strstr(err, "cannot open"));
    CHECK(peload_file("/tmp", &t, err, sizeof err) == -1 && t.v == NULL);
}

int main(void)
{
    test_npy_good();
    test_npy_bad();
    test_npy_mutations();
    test_csv();
    test_files();
    TEST_END("test_peload");
}
