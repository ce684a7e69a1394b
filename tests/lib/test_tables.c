/* SPDX-License-Identifier: ISC */
/*
 * test_tables.c - position tables from files (peviz/tables.h), built here
 * byte by byte as the formats describe them: .npy in every accepted
 * variant, CSV with its separators and headers, GGUF position tables;
 * exact round trips, hostile files of each kind (every truncation, flips,
 * FIFOs, directories, devices, NaN, huge values and shapes), and the
 * peak memory of loading one table out of a large sparse checkpoint.
 */
#define _POSIX_C_SOURCE 200809L   /* mkfifo, fork, ftruncate, getpid */

#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bytes.h"
#include "harness.h"
#include "peviz/tables.h"

static const double V[8] = { 0.5, -1.25, 3.0, 0.0, 1e-3, -2.5, 7.75, 100.0 };
#define DICT(d, o, s) "{'descr': '" d "', 'fortran_order': " o ", 'shape': " s ", }"

/*
 * An .npy file: version major, the dict text padded with spaces and a
 * final newline to a multiple of 64 as numpy writes it (pad < 0: none),
 * then the data bytes.
 */
static void npy(struct bytes *b, int major, const char *dict, int pad,
                const struct bytes *data)
{
    b->n = 0;
    b_text(b, "\x93NUMPY");
    b_u8(b, (unsigned)major);
    b_u8(b, 0);
    size_t pre = major == 1 ? 10 : 12, hl = strlen(dict) + 1;
    if (pad >= 0)
        while ((pre + hl) % 64)
            hl++;
    b_int(b, hl, major == 1 ? 2 : 4, 0);
    b_text(b, dict);
    while (b->n < pre + hl - 1)
        b_text(b, " ");
    b_text(b, "\n");
    if (data)
        b_put(b, data->b, data->n);
}

/* v[0..n-1] as elements of size 2, 4 or 8 (2: binary16 bits given). */
static void data_of(struct bytes *d, const double *v, size_t n, int size,
                    int big)
{
    d->n = 0;
    for (size_t i = 0; i < n; i++)
        b_int(d, size == 8 ? f64_bits(v[i]) : f32_bits((float)v[i]), size,
              big);
}

static int load_buf(const struct bytes *b, const char *name,
                    const struct pe_table_opts *o, struct pe_table *t,
                    struct pe_table_info *info, char *err)
{
    err[0] = 0;
    return tables_load_buffer(name, b->b, b->n, o, t, info, err, 256);
}

static int fails_with(const struct bytes *b, const char *name,
                      const struct pe_table_opts *o, const char *needle)
{
    struct pe_table t;
    char err[256];
    int r = load_buf(b, name, o, &t, NULL, err);
    size_t nl = strlen(name);
    int ok = r == -1 && strncmp(err, name, nl) == 0 && err[nl] == ':'
             && strstr(err, needle) != NULL && t.v == NULL;
    if (!ok)
        fprintf(stderr, "  want failure with '%s', got %d '%s'\n", needle, r,
                err);
    pe_table_free(&t);
    return ok;
}

static int same_values(const struct pe_table *t, const double *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (t->v[i] != want[i])
            return 0;
    return 1;
}

/* ---- .npy ---------------------------------------------------------------- */

static void test_npy_dtypes(void)
{
    struct bytes b = { 0 }, d = { 0 };
    struct pe_table t;
    char err[256];
    double f[8];
    for (int i = 0; i < 8; i++)
        f[i] = (double)(float)V[i];
    data_of(&d, V, 8, 4, 0);
    npy(&b, 1, DICT("<f4", "False", "(2, 4)"), 0, &d);
    CHECK((b.n - d.n) % 64 == 0);
    CHECK(load_buf(&b, "t.npy", NULL, &t, NULL, err) == 0);
    CHECK(t.n == 2 && t.d == 4 && same_values(&t, f, 8));
    pe_table_free(&t);
    data_of(&d, V, 8, 4, 1);
    npy(&b, 1, DICT(">f4", "False", "(2, 4)"), 0, &d);
    CHECK(load_buf(&b, "t.npy", NULL, &t, NULL, err) == 0 && same_values(&t, f, 8));
    pe_table_free(&t);
    data_of(&d, V, 8, 8, 0);
    npy(&b, 2, DICT("<f8", "False", "(4, 2)"), 0, &d);
    CHECK(load_buf(&b, "t.npy", NULL, &t, NULL, err) == 0);
    CHECK(t.n == 4 && t.d == 2 && same_values(&t, V, 8));
    pe_table_free(&t);
    data_of(&d, V, 8, 8, 1);
    npy(&b, 3, "{'shape': (1, 8), 'fortran_order': False, 'descr': '>f8'}",
        -1, &d);
    CHECK(load_buf(&b, "t.npy", NULL, &t, NULL, err) == 0);
    CHECK(t.n == 1 && t.d == 8 && same_values(&t, V, 8));
    pe_table_free(&t);
    /* binary16 bits written by hand: 1, -2, 0.5, 65504, 2^-24, -0 */
    static const uint16_t H[6] = { 0x3c00, 0xc000, 0x3800, 0x7bff, 0x0001,
                                   0x8000 };
    const double HV[6] = { 1, -2, 0.5, 65504, ldexp(1, -24), -0.0 };
    for (int big = 0; big < 2; big++) {
        d.n = 0;
        for (int i = 0; i < 6; i++)
            b_int(&d, H[i], 2, big);
        npy(&b, 1, big ? DICT(">f2", "False", "(3, 2)")
                       : DICT("<f2", "False", "(3, 2)"), 0, &d);
        CHECK(load_buf(&b, "t.npy", NULL, &t, NULL, err) == 0);
        CHECK(t.n == 3 && t.d == 2 && same_values(&t, HV, 6));
        CHECK(t.v && signbit(t.v[5]));
        pe_table_free(&t);
    }
    b_free(&b);
    b_free(&d);
}

/* Fortran order: column by column on disk, rows in memory. */
static void test_npy_fortran(void)
{
    struct bytes b = { 0 }, d = { 0 };
    struct pe_table t;
    char err[256];
    const double col_major[8] = { V[0], V[4], V[1], V[5], V[2], V[6], V[3],
                                  V[7] };
    data_of(&d, col_major, 8, 8, 0);
    npy(&b, 1, DICT("<f8", "True", "(2, 4)"), 0, &d);
    CHECK(load_buf(&b, "t.npy", NULL, &t, NULL, err) == 0);
    CHECK(t.n == 2 && t.d == 4 && same_values(&t, V, 8));
    pe_table_free(&t);
    /* with a row offset: rows 1.. of a 4 x 2 Fortran table */
    const double cm2[8] = { 0, 1, 2, 3, 10, 11, 12, 13 };   /* col 0, col 1 */
    const double want[6] = { 1, 11, 2, 12, 3, 13 };
    data_of(&d, cm2, 8, 8, 0);
    npy(&b, 1, DICT("<f8", "True", "(4, 2)"), 0, &d);
    struct pe_table_opts o;
    struct pe_table_info info;
    pe_table_opts_init(&o);
    o.row_offset = 1;
    CHECK(load_buf(&b, "t.npy", &o, &t, &info, err) == 0);
    CHECK(t.n == 3 && t.d == 2 && same_values(&t, want, 6));
    CHECK(info.file_rows == 4 && info.row_offset == 1);
    CHECK_STR(info.format, "npy");
    pe_table_free(&t);
    o.row_offset = 4;
    CHECK(fails_with(&b, "t.npy", &o, "row offset 4: the table has only 4 rows"));
    b_free(&b);
    b_free(&d);
}

static void test_npy_bad(void)
{
    struct bytes b = { 0 }, d = { 0 };
    data_of(&d, V, 8, 4, 0);
    size_t n = d.n;
    d.n = n - 1;
    npy(&b, 1, DICT("<f4", "False", "(2, 4)"), 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "truncated: the data needs 32 bytes"));
    data_of(&d, V, 8, 4, 0);
    b_u32(&d, 0);
    npy(&b, 1, DICT("<f4", "False", "(2, 4)"), 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "4 bytes after the data"));
    d.n = n;
    npy(&b, 1, DICT("<i4", "False", "(2, 4)"), 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "data type '<i4': want a float"));
    npy(&b, 1, DICT("|u1", "False", "(2, 4)"), 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "data type '|u1'"));
    npy(&b, 1, DICT("<f4", "False", "(8,)"), 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "a 1-D array of 8 values: a table needs 2"));
    npy(&b, 1, DICT("<f4", "False", "(2, 2, 2)"), 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "a 3-D array"));
    npy(&b, 1, DICT("<f4", "False", "()"), 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "a 0-D array"));
    npy(&b, 1, DICT("<f4", "False", "(8, 1)"), 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "even"));
    npy(&b, 1, DICT("<f4", "False", "(0, 4)"), 0, NULL);
    CHECK(fails_with(&b, "t.npy", NULL, "no rows"));
    npy(&b, 1, DICT("<f4", "False", "(4194304, 2)"), 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "over the limit"));
    npy(&b, 1, DICT("<f4", "False", "(16777216, 65536)"), 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "over the limit"));
    npy(&b, 1, DICT("<f4", "False", "(99999999999999999999, 2)"), 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "too large"));
    npy(&b, 1, "{'descr': '<f4', 'fortran_order': False}", 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "required"));
    npy(&b, 1, DICT("<f4", "False", "(2, 4)") " junk", 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "after the dictionary"));
    npy(&b, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4), "
        "'extra': 1}", 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "unknown key 'extra'"));
    /* a key given twice is named as such, whichever comes second */
    npy(&b, 1, "{'descr': '<f4', 'descr': '<f8', 'fortran_order': False, "
        "'shape': (2, 4)}", 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "header: 'descr' given twice"));
    npy(&b, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4), "
        "'shape': (2, 4)}", 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "header: 'shape' given twice"));
    npy(&b, 1, "['not', 'a', 'dict']", 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "not a dictionary"));
    npy(&b, 1, "{'descr': '<f4, 'fortran_order': False}", 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "header"));
    npy(&b, 1, DICT("<f4", "False", "(2, 4)"), 0, &d);
    b.n = 9;
    CHECK(fails_with(&b, "t.npy", NULL, "truncated"));
    b.n = 40;
    CHECK(fails_with(&b, "t.npy", NULL, "truncated"));
    npy(&b, 1, DICT("<f4", "False", "(2, 4)"), 0, &d);
    b.b[6] = 7;
    CHECK(fails_with(&b, "t.npy", NULL, "version 7.0"));
    b_free(&b);
    b_free(&d);
}

/* NaN, infinity and values whose products would overflow, by place. */
static void test_npy_values(void)
{
    struct bytes b = { 0 }, d = { 0 };
    double bad[8];
    memcpy(bad, V, sizeof bad);
    bad[5] = NAN;
    data_of(&d, bad, 8, 8, 0);
    npy(&b, 1, DICT("<f8", "False", "(2, 4)"), 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "row 1, column 1 is not a finite number"));
    bad[5] = -INFINITY;
    data_of(&d, bad, 8, 4, 0);
    npy(&b, 1, DICT("<f4", "False", "(2, 4)"), 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "row 1, column 1 is not a finite number"));
    bad[5] = V[5];
    bad[2] = 1.7e308;
    data_of(&d, bad, 8, 8, 0);
    npy(&b, 1, DICT("<f8", "False", "(2, 4)"), 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "row 0, column 2 is 1.7e+308: beyond"));
    bad[2] = -1e151;
    data_of(&d, bad, 8, 8, 0);
    npy(&b, 1, DICT("<f8", "False", "(2, 4)"), 0, &d);
    CHECK(fails_with(&b, "t.npy", NULL, "row 0, column 2 is -1e+151"));
    bad[2] = 1e150;                       /* the bound itself is fine */
    data_of(&d, bad, 8, 8, 0);
    npy(&b, 1, DICT("<f8", "False", "(2, 4)"), 0, &d);
    struct pe_table t;
    char err[256];
    CHECK(load_buf(&b, "t.npy", NULL, &t, NULL, err) == 0);
    pe_table_free(&t);
    b_free(&b);
    b_free(&d);
}

/* Every truncation and many byte flips of a good file: an error with a
 * message or a table, never a crash (ASan makes this mean something). */
static void test_npy_mutations(void)
{
    struct bytes good = { 0 }, b = { 0 }, d = { 0 };
    data_of(&d, V, 8, 8, 0);
    npy(&good, 1, DICT("<f8", "False", "(2, 4)"), 0, &d);
    int all_fail = 1;
    for (size_t cut = 0; cut < good.n; cut++) {
        struct pe_table t;
        char err[256];
        b.n = 0;
        b_put(&b, good.b, cut);
        all_fail &= load_buf(&b, "t.npy", NULL, &t, NULL, err) == -1
                    && t.v == NULL && err[0];
        pe_table_free(&t);
    }
    CHECK(all_fail);
    uint64_t x = 12345;
    int loaded = 0, failed = 0;
    for (int round = 0; round < 5000; round++) {
        struct pe_table t;
        char err[256];
        b.n = 0;
        b_put(&b, good.b, good.n);
        for (int f = 0; f < 3; f++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            b.b[(x >> 33) % good.n] ^= (unsigned char)(1u << ((x >> 20) % 8));
        }
        if (load_buf(&b, "t.npy", NULL, &t, NULL, err) == 0)
            loaded += t.n * t.d > 0 && t.v != NULL;
        else
            failed += err[0] != 0;
        pe_table_free(&t);
    }
    CHECK(loaded + failed == 5000);
    b_free(&good);
    b_free(&b);
    b_free(&d);
}

/* ---- CSV ----------------------------------------------------------------- */

static int csv_load(const char *text, struct pe_table *t,
                    struct pe_table_info *info)
{
    struct bytes b = { 0 };
    char err[256];
    b_text(&b, text);
    int r = load_buf(&b, "p.csv", NULL, t, info, err);
    if (r)
        fprintf(stderr, "  %s\n", err);
    b_free(&b);
    return r;
}

static int csv_fails(const char *text, const char *needle)
{
    struct bytes b = { 0 };
    b_put(&b, text, strlen(text));
    int ok = fails_with(&b, "p.csv", NULL, needle);
    b_free(&b);
    return ok;
}

static void test_csv_good(void)
{
    struct pe_table t;
    struct pe_table_info info;
    CHECK(csv_load("0.5, -1.25,3,0\r\n\n1e-3,-2.5 ,7.75,100\n\n", &t, &info) == 0);
    CHECK(t.n == 2 && t.d == 4 && same_values(&t, V, 8));
    CHECK_STR(info.note, "");
    CHECK_STR(info.format, "csv");
    pe_table_free(&t);
    CHECK(csv_load("\xef\xbb\xbfpos_a,pos_b,c,d\n0.5,-1.25,3,0\n"
                   "1e-3,-2.5,7.75,100", &t, &info) == 0);
    CHECK(t.n == 2 && t.d == 4 && same_values(&t, V, 8));
    CHECK_STR(info.note, "skipped a UTF-8 byte-order mark; skipped the "
              "header line 1 ('pos_a,pos_b,c,d')");
    pe_table_free(&t);
    CHECK(csv_load("0.5\t-1.25\t3\t0\n1e-3\t-2.5\t7.75\t100\n", &t, &info) == 0);
    CHECK(t.n == 2 && t.d == 4 && same_values(&t, V, 8));
    CHECK_STR(info.note, "values separated by tabs");
    pe_table_free(&t);
    CHECK(csv_load("0.5; -1.25;3;0\n1e-3;-2.5;7.75;100\n", &t, &info) == 0);
    CHECK(t.n == 2 && t.d == 4 && same_values(&t, V, 8));
    CHECK_STR(info.note, "values separated by semicolons");
    pe_table_free(&t);
}

static void test_csv_bad(void)
{
    CHECK(csv_fails("1,2\n3\n", "line 2: 1 values, the first row has 2"));
    CHECK(csv_fails("1,2\n3,x\n", "line 2, column 1: 'x' is not a number"));
    CHECK(csv_fails("1,,2,3\n", "line 1, column 1: '' is an empty value"));
    CHECK(csv_fails("1,2\nnan,2\n", "line 2, column 0: 'nan' is not a finite"));
    CHECK(csv_fails("1,2\n-Infinity,2\n", "'-Infinity' is not a finite"));
    CHECK(csv_fails("1,2\n1e999,2\n", "line 2, column 0 is not a finite"));
    CHECK(csv_fails("1,2\n2,1e200\n", "line 2, column 1 is 1e+200: beyond"));
    CHECK(csv_fails("1,2\n0x1p3,2\n", "'0x1p3' is a hex float"));
    CHECK(csv_fails("0,5;1,25\n", "'0,5' is a decimal comma"));
    CHECK(csv_fails("1,2\n3;4\n", "mixed separators"));
    CHECK(csv_fails("1,2,3\n", "even"));
    CHECK(csv_fails("\n\n  \n", "no rows"));
    CHECK(csv_fails("a,b\n", "no rows"));
    CHECK(csv_fails("a,b\nc,d\n", "line 2, column 0: 'c' is not a number"));
    CHECK(csv_fails("1,2\n\x1b[2J,2\n", "'?[2J' is not a number"));
    CHECK(csv_fails("", "empty file"));
    struct bytes b = { 0 };
    b_put(&b, "1,\0\n", 4);
    CHECK(fails_with(&b, "p.csv", NULL, "line 1: a NUL byte"));
    b_free(&b);
}

/* ---- GGUF position tables ------------------------------------------------ */

/* A GGUF file with the given 2-D F32 tensors of d x rows (ne = {d, rows}),
 * values v(tensor, k) = 1000 * tensor + k. */
static void gguf_tables(struct bytes *b, int count, const char *const *names,
                        const uint64_t *d, const uint64_t *rows,
                        const uint32_t *types)
{
    b->n = 0;
    b_text(b, "GGUF");
    b_u32(b, 3);
    b_u64(b, (uint64_t)count);
    b_u64(b, 0);
    uint64_t off = 0;
    for (int i = 0; i < count; i++) {
        b_str64(b, names[i]);
        b_u32(b, 2);
        b_u64(b, d[i]);
        b_u64(b, rows[i]);
        b_u32(b, types[i]);
        b_u64(b, off);
        off += (d[i] * rows[i] * (types[i] == 0 ? 4 : 2) + 31) / 32 * 32;
    }
    b_pad(b, 32, 0);
    for (int i = 0; i < count; i++) {
        for (uint64_t k = 0; k < d[i] * rows[i]; k++) {
            if (types[i] == 0)
                b_f32(b, (float)(1000 * i + (int)k));
            else
                b_u16(b, 0x3c00);       /* F16 1.0 */
        }
        b_pad(b, 32, 0);
    }
}

static void test_gguf_tables(void)
{
    struct bytes b = { 0 };
    struct pe_table t;
    struct pe_table_info info;
    struct pe_table_opts o;
    char err[256];
    const char *names[3] = { "token_embd.weight", "pos_embd.weight",
                             "output.weight" };
    const uint64_t d[3] = { 4, 4, 2 }, rows[3] = { 5, 3, 2 };
    const uint32_t ty[3] = { 0, 0, 1 };
    gguf_tables(&b, 3, names, d, rows, ty);
    CHECK(load_buf(&b, "m.gguf", NULL, &t, &info, err) == 0);
    CHECK(t.n == 3 && t.d == 4);
    int exact = t.v != NULL;
    for (int k = 0; exact && k < 12; k++)
        exact = t.v[k] == 1000.0 + k;
    CHECK(exact);
    CHECK_STR(info.tensor, "pos_embd.weight");
    CHECK_STR(info.format, "gguf");
    pe_table_free(&t);
    pe_table_opts_init(&o);
    o.tensor = "output.weight";
    CHECK(load_buf(&b, "m.gguf", &o, &t, &info, err) == 0);
    CHECK(t.n == 2 && t.d == 2 && t.v[3] == 1.0);
    pe_table_free(&t);
    o.tensor = "nope";
    CHECK(fails_with(&b, "m.gguf", &o, "no tensor 'nope'; 2-D tensors: "
                     "token_embd.weight, pos_embd.weight, output.weight"));
    /* OPT's table starts at row 2: applied and said; --row-offset 0 wins */
    const char *opt[1] = { "model.decoder.embed_positions.weight" };
    const uint64_t od[1] = { 2 }, orows[1] = { 5 };
    gguf_tables(&b, 1, opt, od, orows, ty);
    CHECK(load_buf(&b, "m.gguf", NULL, &t, &info, err) == 0);
    CHECK(t.n == 3 && t.v[0] == 4.0 && info.row_offset == 2);
    CHECK(info.file_rows == 5);
    CHECK(strstr(info.note, "starts at row 2") != NULL);
    pe_table_free(&t);
    pe_table_opts_init(&o);
    o.row_offset = 0;
    CHECK(load_buf(&b, "m.gguf", &o, &t, &info, err) == 0);
    CHECK(t.n == 5 && t.v[0] == 0.0 && info.note[0] == 0);
    pe_table_free(&t);
    b_free(&b);
}

static void test_gguf_pick_refusals(void)
{
    struct bytes b = { 0 };
    const char *two[2] = { "pos_embd.weight", "blk.0.pos_bias" };
    const uint64_t d[2] = { 2, 2 }, rows[2] = { 2, 2 };
    const uint32_t f32[2] = { 0, 0 }, f16[2] = { 1, 1 };
    gguf_tables(&b, 2, two, d, rows, f32);
    CHECK(fails_with(&b, "m.gguf", NULL, "2 position tables: pos_embd.weight, "
                     "blk.0.pos_bias; choose one with --tensor NAME"));
    const char *none[1] = { "token_embd.weight" };
    gguf_tables(&b, 1, none, d, rows, f16);
    CHECK(fails_with(&b, "m.gguf", NULL, "no 2-D tensor named like a position "
                     "table (wpe, pos, position); 2-D tensors: token_embd.weight"));
    const char *q[1] = { "pos_embd.weight" };
    const uint64_t qd[1] = { 32 }, qrows[1] = { 1 };
    const uint32_t q40[1] = { 2 };
    b.n = 0;
    b_text(&b, "GGUF");
    b_u32(&b, 3); b_u64(&b, 1); b_u64(&b, 0);
    b_str64(&b, q[0]); b_u32(&b, 2); b_u64(&b, qd[0]); b_u64(&b, qrows[0]);
    b_u32(&b, q40[0]); b_u64(&b, 0);
    b_pad(&b, 32, 0);
    for (int i = 0; i < 18; i++)
        b_u8(&b, 0);
    CHECK(fails_with(&b, "m.gguf", NULL, "tensor 'pos_embd.weight' is Q4_0: "
                     "want F32, F16, BF16 or F64"));
    b_free(&b);
}

/* ---- files --------------------------------------------------------------- */

static int file_fails(const char *path, const char *needle)
{
    struct pe_table t;
    char err[256] = "";
    int r = tables_load(path, NULL, &t, NULL, err, sizeof err);
    int ok = r == -1 && strncmp(err, path, strlen(path)) == 0
             && strstr(err, needle) && t.v == NULL;
    if (!ok)
        fprintf(stderr, "  %s: want '%s', got %d '%s'\n", path, needle, r, err);
    return ok;
}

/* ---- safetensors -------------------------------------------------------- */

struct st_spec {
    const char *name;
    const char *dtype;
    int rows, cols;         /* cols 0: a 1-D tensor of rows items */
    int size;               /* bytes per item */
};

/*
 * A safetensors file: the JSON header (padded with spaces to a multiple
 * of 8, as writers do) with contiguous data_offsets, then each tensor's
 * items: F32/F64 value 1000*tensor + k, F16/BF16 the bits of 1.0 and -2.0
 * alternating, others zero bytes.  extra is spliced into the JSON object.
 */
static void st_build(struct bytes *b, int count, const struct st_spec *t,
                     const char *extra)
{
    struct bytes h = { 0 };
    char part[256];
    uint64_t off = 0;
    b_text(&h, "{");
    if (extra)
        b_text(&h, extra);
    for (int i = 0; i < count; i++) {
        uint64_t items = (uint64_t)t[i].rows * (uint64_t)(t[i].cols ? t[i].cols : 1);
        uint64_t end = off + items * (uint64_t)t[i].size;
        if (t[i].cols)
            snprintf(part, sizeof part, "%s\"%s\":{\"dtype\":\"%s\",\"shape\":[%d,%d],"
                     "\"data_offsets\":[%llu,%llu]}", (i || extra) ? "," : "", t[i].name,
                     t[i].dtype, t[i].rows, t[i].cols, (unsigned long long)off,
                     (unsigned long long)end);
        else
            snprintf(part, sizeof part, "%s\"%s\":{\"dtype\":\"%s\",\"shape\":[%d],"
                     "\"data_offsets\":[%llu,%llu]}", (i || extra) ? "," : "", t[i].name,
                     t[i].dtype, t[i].rows, (unsigned long long)off,
                     (unsigned long long)end);
        b_text(&h, part);
        off = end;
    }
    b_text(&h, "}");
    while ((h.n + 8) % 8)
        b_text(&h, " ");
    b->n = 0;
    b_u64(b, h.n);
    b_put(b, h.b, h.n);
    for (int i = 0; i < count; i++) {
        int items = t[i].rows * (t[i].cols ? t[i].cols : 1);
        for (int k = 0; k < items; k++) {
            if (!strcmp(t[i].dtype, "F32"))
                b_f32(b, (float)(1000 * i + k));
            else if (!strcmp(t[i].dtype, "F64"))
                b_f64(b, 1000.0 * i + k + 0.125);
            else if (!strcmp(t[i].dtype, "F16"))
                b_u16(b, k % 2 ? 0xc000 : 0x3c00);
            else if (!strcmp(t[i].dtype, "BF16"))
                b_u16(b, k % 2 ? 0xc000 : 0x3f80);
            else
                b_int(b, 0, t[i].size, 0);
        }
    }
    b_free(&h);
}

static const struct st_spec GPT2[3] = {
    { "wte.weight", "F32", 6, 4, 4 },
    { "wpe.weight", "F32", 3, 4, 4 },
    { "h.0.ln_1.bias", "F32", 4, 0, 4 },
};

static void test_st_load(void)
{
    struct bytes b = { 0 };
    struct pe_table t;
    struct pe_table_info info;
    struct pe_table_opts o;
    char err[256];
    st_build(&b, 3, GPT2, "\"__metadata__\":{\"format\":\"pt\"}");
    CHECK(load_buf(&b, "m.safetensors", NULL, &t, &info, err) == 0);
    CHECK(t.n == 3 && t.d == 4);
    int exact = t.v != NULL;
    for (int k = 0; exact && k < 12; k++)
        exact = t.v[k] == 1000.0 + k;
    CHECK(exact);
    CHECK_STR(info.tensor, "wpe.weight");
    CHECK_STR(info.format, "safetensors");
    pe_table_free(&t);
    pe_table_opts_init(&o);
    o.tensor = "wte.weight";
    CHECK(load_buf(&b, "m.safetensors", &o, &t, &info, err) == 0);
    CHECK(t.n == 6 && t.d == 4 && t.v[23] == 23.0);
    pe_table_free(&t);
    o.tensor = "h.0.ln_1.bias";
    CHECK(fails_with(&b, "m.safetensors", &o, "tensor 'h.0.ln_1.bias' has 1 "
                     "dimensions: a table needs 2"));
    o.tensor = "wpe";
    CHECK(fails_with(&b, "m.safetensors", &o, "no tensor 'wpe'; 2-D tensors: "
                     "wte.weight, wpe.weight"));
    /* each float dtype, exactly */
    static const char *const DT[3] = { "F16", "BF16", "F64" };
    for (int i = 0; i < 3; i++) {
        struct st_spec one = { "transformer.wpe.weight", DT[i], 2, 2,
                               i == 2 ? 8 : 2 };
        st_build(&b, 1, &one, NULL);
        CHECK(load_buf(&b, "m.safetensors", NULL, &t, &info, err) == 0);
        if (i < 2)
            CHECK(t.v && t.v[0] == 1.0 && t.v[1] == -2.0 && t.v[3] == -2.0);
        else
            CHECK(t.v && t.v[0] == 0.125 && t.v[3] == 3.125);
        pe_table_free(&t);
    }
    /* RoBERTa: the offset of 2 applied and said */
    struct st_spec rob = { "roberta.embeddings.position_embeddings.weight",
                           "F32", 5, 2, 4 };
    st_build(&b, 1, &rob, NULL);
    CHECK(load_buf(&b, "r.safetensors", NULL, &t, &info, err) == 0);
    CHECK(t.n == 3 && t.v && t.v[0] == 4.0 && info.row_offset == 2);
    CHECK(strstr(info.note, "'roberta.embeddings.position_embeddings.weight' "
                 "starts at row 2") != NULL);
    pe_table_free(&t);
    b_free(&b);
}

static void test_st_pick_refusals(void)
{
    struct bytes b = { 0 };
    const struct st_spec two[2] = { { "wpe.weight", "F32", 2, 2, 4 },
                                    { "position_ids", "F32", 1, 2, 4 } };
    st_build(&b, 2, two, NULL);
    CHECK(fails_with(&b, "m.safetensors", NULL, "2 position tables: "
                     "wpe.weight, position_ids; choose one with --tensor"));
    st_build(&b, 1, GPT2, NULL);
    CHECK(fails_with(&b, "m.safetensors", NULL, "no 2-D tensor named like a "
                     "position table (wpe, pos, position); 2-D tensors: "
                     "wte.weight"));
    const struct st_spec i32 = { "wpe.weight", "I32", 2, 2, 4 };
    st_build(&b, 1, &i32, NULL);
    CHECK(fails_with(&b, "m.safetensors", NULL, "tensor 'wpe.weight' is I32: "
                     "want F32, F16, BF16 or F64"));
    b_free(&b);
}

/* A header (as text) with data bytes after it. */
static void st_raw(struct bytes *b, const char *json, size_t data)
{
    b->n = 0;
    b_u64(b, strlen(json));
    b_text(b, json);
    for (size_t i = 0; i < data; i++)
        b_u8(b, 0);
}

static void test_st_hostile(void)
{
    struct bytes b = { 0 };
    const char *n = "m.safetensors";
    st_raw(&b, "{}", 0);
    b.b[0] = 0xff; b.b[5] = 0x7f;
    CHECK(fails_with(&b, n, NULL, ""));          /* not safetensors: CSV */
    b.n = 0;
    b_u64(&b, UINT64_C(200000000));
    b_text(&b, "{}");
    CHECK(fails_with(&b, n, NULL, ""));
    b.n = 0;
    b_u64(&b, 20000000);
    b_text(&b, "{\"a\":1}");
    CHECK(fails_with(&b, n, NULL, "header of 20000000 bytes: at most 16 MiB"));
    st_raw(&b, "{\"a\":", 0);
    CHECK(fails_with(&b, n, NULL, "header: byte"));
    st_raw(&b, "{\"wpe\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,8]},"
           "\"wpe\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[8,16]}}", 16);
    CHECK(fails_with(&b, n, NULL, "duplicate"));
    st_raw(&b, "{\"wpe\":{\"shape\":[1,2],\"data_offsets\":[0,8]}}", 8);
    CHECK(fails_with(&b, n, NULL, "tensor 'wpe': no 'dtype' string"));
    st_raw(&b, "{\"wpe\":{\"dtype\":\"F32\",\"shape\":[1,-2],\"data_offsets\":[0,8]}}", 8);
    CHECK(fails_with(&b, n, NULL, "a size in 'shape' is not a whole number"));
    st_raw(&b, "{\"wpe\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296],"
           "\"data_offsets\":[0,8]}}", 8);
    CHECK(fails_with(&b, n, NULL, "'shape' too large"));
    st_raw(&b, "{\"wpe\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,12]}}", 12);
    CHECK(fails_with(&b, n, NULL, "12 bytes of data, its shape and F32 need 8"));
    st_raw(&b, "{\"wpe\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[8,0]}}", 8);
    CHECK(fails_with(&b, n, NULL, "'data_offsets' is not [BEGIN, END]"));
    st_raw(&b, "{\"wpe\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[4,12]}}", 12);
    CHECK(fails_with(&b, n, NULL, "tensor 'wpe' begins at 4, where the data "
                     "starts at 0: a gap"));
    st_raw(&b, "{\"a\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,8]},"
           "\"wpe\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[4,12]}}", 12);
    CHECK(fails_with(&b, n, NULL, "tensor 'wpe' begins at 4, where the previous "
                     "one ends at 8: an overlap"));
    st_raw(&b, "{\"wpe\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,8]}}", 4);
    CHECK(fails_with(&b, n, NULL, "truncated: the tensors cover 8 bytes of data, the file has 4"));
    st_raw(&b, "{\"wpe\":{\"dtype\":\"F32\",\"shape\":[1,2],\"data_offsets\":[0,8]}}", 9);
    CHECK(fails_with(&b, n, NULL, "bytes after the data"));
    st_raw(&b, "{\"__metadata__\":{\"a\":1},\"wpe\":{\"dtype\":\"F32\",\"shape\":[1,2],"
           "\"data_offsets\":[0,8]}}", 8);
    CHECK(fails_with(&b, n, NULL, "'__metadata__': a value is not a string"));
    st_raw(&b, "[1]", 0);
    CHECK(fails_with(&b, n, NULL, "header: not a JSON object"));
    /* a huge declared shape whose bytes are not in the file */
    st_raw(&b, "{\"wpe\":{\"dtype\":\"F32\",\"shape\":[1000000,768],"
           "\"data_offsets\":[0,3072000000]}}", 8);
    CHECK(fails_with(&b, n, NULL, "truncated: the tensors cover 3072000000 bytes"));
    /* NaN in the chosen table, named by row and column */
    struct st_spec w = { "wpe.weight", "F32", 2, 2, 4 };
    st_build(&b, 1, &w, NULL);
    memcpy(b.b + b.n - 4, "\x00\x00\xc0\x7f", 4);
    CHECK(fails_with(&b, n, NULL, "row 1, column 1 is not a finite number"));
    /* every proper prefix of a valid file is refused */
    struct bytes good = { 0 };
    st_build(&good, 3, GPT2, NULL);
    int all = 1;
    for (size_t cut = 9; cut < good.n; cut++) {
        struct pe_table t;
        char err[256];
        b.n = 0;
        b_put(&b, good.b, cut);
        all &= load_buf(&b, n, NULL, &t, NULL, err) == -1 && err[0] && !t.v;
        pe_table_free(&t);
    }
    CHECK(all);
    b_free(&good);
    b_free(&b);
}

/* A sharded checkpoint: the index leads to the shard holding the table. */
static void test_st_sharded(void)
{
    char dir[64], path[160], err[256];
    struct bytes b = { 0 };
    struct pe_table t;
    struct pe_table_info info;
    struct pe_table_opts o;
    snprintf(dir, sizeof dir, "/tmp/peviz-shards-%ld", (long)getpid());
    CHECK(mkdir(dir, 0700) == 0);
    st_build(&b, 1, GPT2, NULL);
    snprintf(path, sizeof path, "%s/model-00001-of-00002.safetensors", dir);
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(b.b, 1, b.n, f) == b.n && fclose(f) == 0);
    const struct st_spec second[2] = { { "h.0.ln_1.bias", "F32", 4, 0, 4 },
                                       { "wpe.weight", "F32", 3, 4, 4 } };
    st_build(&b, 2, second, NULL);
    snprintf(path, sizeof path, "%s/model-00002-of-00002.safetensors", dir);
    f = fopen(path, "wb");
    CHECK(f && fwrite(b.b, 1, b.n, f) == b.n && fclose(f) == 0);
    snprintf(path, sizeof path, "%s/model.safetensors.index.json", dir);
    f = fopen(path, "w");
    CHECK(f != NULL);
    fputs("{\"metadata\": {\"total_size\": 156},\n \"weight_map\": {\n"
          "  \"wte.weight\": \"model-00001-of-00002.safetensors\",\n"
          "  \"h.0.ln_1.bias\": \"model-00002-of-00002.safetensors\",\n"
          "  \"wpe.weight\": \"model-00002-of-00002.safetensors\"}}\n", f);
    fclose(f);
    CHECK(tables_load(path, NULL, &t, &info, err, sizeof err) == 0);
    CHECK(t.n == 3 && t.d == 4 && t.v && t.v[0] == 1000.0 && t.v[11] == 1011.0);
    CHECK(strstr(info.file, "model-00002-of-00002.safetensors") != NULL);
    CHECK_STR(info.tensor, "wpe.weight");
    pe_table_free(&t);
    pe_table_opts_init(&o);
    o.tensor = "wte.weight";
    CHECK(tables_load(path, &o, &t, &info, err, sizeof err) == 0);
    CHECK(t.n == 6 && t.v && t.v[5] == 5.0);
    pe_table_free(&t);
    o.tensor = "h.0.ln_1.bias";
    CHECK(tables_load(path, &o, &t, &info, err, sizeof err) == -1);
    CHECK(strstr(err, "model-00002-of-00002.safetensors: tensor 'h.0.ln_1.bias' has 1 dimensions") != NULL);
    f = fopen(path, "w");
    fputs("{\"weight_map\": {\"wpe.weight\": \"../etc/passwd\"}}", f);
    fclose(f);
    CHECK(file_fails(path, "weight_map names shard '../etc/passwd': want a file name"));
    f = fopen(path, "w");
    fputs("{\"weight_map\": {\"wpe.weight\": \"gone.safetensors\"}}", f);
    fclose(f);
    CHECK(tables_load(path, NULL, &t, &info, err, sizeof err) == -1);
    CHECK(strstr(err, "gone.safetensors: cannot open") != NULL);
    f = fopen(path, "w");
    fputs("{\"weights\": {}}", f);
    fclose(f);
    CHECK(file_fails(path, "without a \"weight_map\" object"));
    unlink(path);
    snprintf(path, sizeof path, "%s/model-00001-of-00002.safetensors", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/model-00002-of-00002.safetensors", dir);
    unlink(path);
    rmdir(dir);
    b_free(&b);
}

static void test_files(void)
{
    struct bytes b = { 0 };
    struct pe_table t;
    char err[256], path[64];
    b_text(&b, "1,2\n3,4\n5,6\n");
    CHECK(b_tempfile(&b, path, ".csv") == 0);
    CHECK(tables_load(path, NULL, &t, NULL, err, sizeof err) == 0);
    CHECK(t.n == 3 && t.d == 2 && t.v[5] == 6);
    pe_table_free(&t);
    unlink(path);
    CHECK(file_fails(path, "cannot open: No such file"));
    CHECK(file_fails("/tmp", "a directory, not a regular file"));
    CHECK(file_fails("/dev/zero", "a character device, not a regular file"));
    CHECK(file_fails("/dev/urandom", "a character device"));
    /* a FIFO with no writer: refused at once instead of a blocked open */
    snprintf(path, sizeof path, "/tmp/peviz-fifo-%ld", (long)getpid());
    CHECK(mkfifo(path, 0600) == 0);
    CHECK(file_fails(path, "a FIFO (pipe), not a regular file"));
    unlink(path);
    /* unreadable (meaningless as root, who reads anything) */
    b.n = 0;
    b_text(&b, "1,2\n");
    CHECK(b_tempfile(&b, path, ".csv") == 0);
    chmod(path, 0);
    if (geteuid() != 0)
        CHECK(file_fails(path, "cannot open: Permission denied"));
    unlink(path);
    /* a CSV over the size limit is refused from its size, unread */
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0 && write(fd, "0.5,1.5\n2,3\n", 12) == 12);
    CHECK(ftruncate(fd, PE_TABLE_CSV_MAX_BYTES + 1) == 0);
    close(fd);
    CHECK(file_fails(path, "a CSV table is at most 256 MiB"));
    unlink(path);
    b_free(&b);
}

/* ---- peak memory ----------------------------------------------------------- */

/* Peak RSS in KiB of a child that loads path (-1 if the load failed). */
static long child_peak_kib(const char *path)
{
    pid_t pid = fork();
    if (pid == 0) {
        struct pe_table t;
        char err[256];
        struct rusage ru;
        if (tables_load(path, NULL, &t, NULL, err, sizeof err))
            _exit(255);
        getrusage(RUSAGE_SELF, &ru);
        /* report in units of 1 MiB through the exit status (0..254) */
        long mib = ru.ru_maxrss / 1024;
        _exit(mib > 254 ? 254 : (int)mib);
    }
    int st = 0;
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st) == 255 ? -1 : (long)WEXITSTATUS(st) * 1024;
}

/*
 * A 1 GiB sparse GGUF: a 1 GiB token table, then GPT-2's 1024 x 768 F32
 * position table.  Loading reads the header and the 3 MiB table only:
 * the peak stays within the table as doubles (6 MiB) plus a few MiB of
 * the small file's baseline, far from the file's size.
 */
static void test_peak_memory(void)
{
    struct bytes b = { 0 };
    char small[64], big[64];
    const uint64_t tok = UINT64_C(1) << 28;        /* 2^28 f32 = 1 GiB */
    b_text(&b, "GGUF");
    b_u32(&b, 3); b_u64(&b, 2); b_u64(&b, 0);
    b_str64(&b, "token_embd.weight"); b_u32(&b, 2); b_u64(&b, 1024);
    b_u64(&b, tok / 1024); b_u32(&b, 0); b_u64(&b, 0);
    b_str64(&b, "pos_embd.weight"); b_u32(&b, 2); b_u64(&b, 768);
    b_u64(&b, 1024); b_u32(&b, 0); b_u64(&b, tok * 4);
    b_pad(&b, 32, 0);
    uint64_t data = b.n;
    CHECK(b_tempfile(&b, big, ".gguf") == 0);
    int fd = open(big, O_WRONLY);
    CHECK(fd >= 0 && ftruncate(fd, (off_t)(data + tok * 4 + 768 * 1024 * 4)) == 0);
    close(fd);
    struct bytes s = { 0 };
    b_text(&s, "1,2\n");
    CHECK(b_tempfile(&s, small, ".csv") == 0);
    long base = child_peak_kib(small), peak = child_peak_kib(big);
    CHECK(base > 0 && peak > 0);
    long table_kib = 1024L * 768 * 8 / 1024;
    printf("peak memory: %ld KiB for a 4-value CSV, %ld KiB for the 1 GiB "
           "sparse GGUF (table %ld KiB)\n", base, peak, table_kib);
    CHECK(peak - base <= table_kib + 8 * 1024);
    unlink(big);
    /* the same as safetensors: wte 1 GiB, then wpe */
    char json[256];
    snprintf(json, sizeof json, "{\"wte.weight\":{\"dtype\":\"F32\",\"shape\":"
             "[262144,1024],\"data_offsets\":[0,%llu]},\"wpe.weight\":{\"dtype\":"
             "\"F32\",\"shape\":[1024,768],\"data_offsets\":[%llu,%llu]}}",
             (unsigned long long)(tok * 4), (unsigned long long)(tok * 4),
             (unsigned long long)(tok * 4 + 768 * 1024 * 4));
    st_raw(&b, json, 0);
    data = b.n;
    CHECK(b_tempfile(&b, big, ".safetensors") == 0);
    fd = open(big, O_WRONLY);
    CHECK(fd >= 0 && ftruncate(fd, (off_t)(data + tok * 4 + 768 * 1024 * 4)) == 0);
    close(fd);
    peak = child_peak_kib(big);
    printf("peak memory: %ld KiB for the 1 GiB sparse safetensors\n", peak);
    CHECK(peak > 0 && peak - base <= table_kib + 8 * 1024);
    unlink(big);
    unlink(small);
    b_free(&b);
    b_free(&s);
}

int main(void)
{
    test_npy_dtypes();
    test_npy_fortran();
    test_npy_bad();
    test_npy_values();
    test_npy_mutations();
    test_csv_good();
    test_csv_bad();
    test_gguf_tables();
    test_gguf_pick_refusals();
    test_st_load();
    test_st_pick_refusals();
    test_st_hostile();
    test_st_sharded();
    test_files();
    test_peak_memory();
    TEST_END("test_tables");
}
