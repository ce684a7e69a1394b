/* SPDX-License-Identifier: ISC */
/*
 * test_gguf.c - the GGUF reader on files built here byte by byte, as
 * ggml's docs/gguf.md lays them out: every metadata type, the tensor
 * directory, exact tensor values per type, every truncation of a valid
 * file, and hostile headers of each kind.
 */
#define _POSIX_C_SOURCE 200809L   /* mkfifo, getpid, unlink */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bytes.h"
#include "harness.h"
#include "peviz/gguf.h"

/* F16 and BF16 bits of exactly representable values, written by hand. */
#define H_ONE      0x3c00u  /* 1.0 */
#define H_MHALF    0xb800u  /* -0.5 */
#define H_MINSUB   0x0001u  /* 2^-24 */
#define H_MAX      0x7bffu  /* 65504 */
#define BF_ONE     0x3f80u  /* 1.0 */
#define BF_M3      0xc040u  /* -3.0 */
#define BF_PI      0x4049u  /* 3.140625 */
#define BF_TINY    0x0001u  /* 2^-133 (subnormal f32) */

struct tensor_spec {
    const char *name;
    uint32_t n_dims;
    uint64_t ne[4];
    uint32_t type;
    uint64_t offset;
};

static void put_tensor_info(struct bytes *b, const struct tensor_spec *t)
{
    b_str64(b, t->name);
    b_u32(b, t->n_dims);
    for (uint32_t k = 0; k < t->n_dims; k++)
        b_u64(b, k < 4 ? t->ne[k] : 1);
    b_u32(b, t->type);
    b_u64(b, t->offset);
}

static void kv_head(struct bytes *b, const char *key, uint32_t type)
{
    b_str64(b, key);
    b_u32(b, type);
}

static const float POS[12] = { 0.5f, -1.25f, 3.0f, 0.0f, 1e-3f, -2.5f,
                               7.75f, 100.0f, -0.0f, 1e30f, -1e-30f, 2.0f };

/*
 * A version-3 file with one key of every type, general.alignment 64 and
 * three tensors: pos_embd.weight F32 ne [4, 3], rope_freqs.weight F16 ne
 * [4], x BF16 ne [2, 2].  long_len > 0 adds a string of that length.
 */
static void build_valid(struct bytes *b, uint32_t version, size_t long_len)
{
    b->n = 0;
    b_text(b, "GGUF");
    b_u32(b, version);
    b_u64(b, 3);
    b_u64(b, 16 + (long_len > 0));
    kv_head(b, "general.architecture", 8); b_str64(b, "gpt2");
    kv_head(b, "general.alignment", 4); b_u32(b, 64);
    kv_head(b, "k.u8", 0); b_u8(b, 200);
    kv_head(b, "k.i8", 1); b_u8(b, 0xfb);                 /* -5 */
    kv_head(b, "k.u16", 2); b_u16(b, 65535);
    kv_head(b, "k.i16", 3); b_u16(b, 0xfed4);             /* -300 */
    kv_head(b, "k.u32", 4); b_u32(b, 4000000000u);
    kv_head(b, "k.i32", 5); b_u32(b, (uint32_t)-70000);
    kv_head(b, "gpt2.rope.freq_base", 6); b_f32(b, 10000.0f);
    kv_head(b, "k.bool", 7); b_u8(b, 1);
    kv_head(b, "k.u64", 10); b_u64(b, UINT64_C(1) << 40);
    kv_head(b, "k.i64", 11); b_u64(b, (uint64_t)INT64_C(-1000000000000));
    kv_head(b, "k.f64", 12); b_f64(b, 1e-300);
    kv_head(b, "k.farr", 9); b_u32(b, 6); b_u64(b, 3);
    b_f32(b, 1.5f); b_f32(b, -2.0f); b_f32(b, 0.25f);
    kv_head(b, "k.sarr", 9); b_u32(b, 8); b_u64(b, 2);
    b_str64(b, "a"); b_str64(b, "bc");
    kv_head(b, "k.i16arr", 9); b_u32(b, 3); b_u64(b, 2);
    b_u16(b, 0x8000); b_u16(b, 7);
    if (long_len) {
        kv_head(b, "k.long", 8);
        b_u64(b, long_len);
        for (size_t i = 0; i < long_len; i++)
            b_u8(b, 'a' + (unsigned)(i % 26));
    }
    const struct tensor_spec ts[3] = {
        { "pos_embd.weight", 2, { 4, 3 }, 0, 0 },
        { "rope_freqs.weight", 1, { 4 }, 1, 64 },
        { "x", 2, { 2, 2 }, 30, 128 },
    };
    for (int i = 0; i < 3; i++)
        put_tensor_info(b, &ts[i]);
    b_pad(b, 64, 0);
    size_t data = b->n;
    for (int i = 0; i < 12; i++)
        b_f32(b, POS[i]);
    b_pad(b, 64, 0);
    CHECK(b->n == data + 64);
    b_u16(b, H_ONE); b_u16(b, H_MHALF); b_u16(b, H_MINSUB); b_u16(b, H_MAX);
    b_pad(b, 64, 0);
    b_u16(b, BF_ONE); b_u16(b, BF_M3); b_u16(b, BF_PI); b_u16(b, BF_TINY);
}

static struct gguf *open_buf(const struct bytes *b, char *err)
{
    struct gguf *g = NULL;
    err[0] = 0;
    if (gguf_open_buffer("m.gguf", b->b, b->n, &g, err, 256))
        return NULL;
    return g;
}

static double num(const struct gguf *g, const char *key)
{
    double v = NAN;
    CHECK(gguf_kv_number(gguf_find_kv(g, key), &v) == 0);
    return v;
}

static void test_metadata(void)
{
    struct bytes b = { 0 };
    char err[256];
    build_valid(&b, 3, 0);
    struct gguf *g = open_buf(&b, err);
    CHECK(g != NULL);
    if (!g) {
        fprintf(stderr, "  %s\n", err);
        b_free(&b);
        return;
    }
    CHECK(gguf_version(g) == 3);
    CHECK(gguf_alignment(g) == 64);
    CHECK(gguf_kv_count(g) == 16);
    CHECK(gguf_data_offset(g) % 64 == 0);
    CHECK_STR(gguf_find_kv(g, "general.architecture")->str, "gpt2");
    CHECK(gguf_find_kv(g, "general.architecture")->str_len == 4);
    CHECK(num(g, "k.u8") == 200);
    CHECK(num(g, "k.i8") == -5);
    CHECK(num(g, "k.u16") == 65535);
    CHECK(num(g, "k.i16") == -300);
    CHECK(num(g, "k.u32") == 4000000000.0);
    CHECK(num(g, "k.i32") == -70000);
    CHECK(gguf_find_kv(g, "k.i32")->i == -70000);
    CHECK(num(g, "gpt2.rope.freq_base") == 10000.0);
    CHECK(num(g, "k.bool") == 1);
    CHECK(gguf_find_kv(g, "k.u64")->u == UINT64_C(1) << 40);
    CHECK(gguf_find_kv(g, "k.i64")->i == INT64_C(-1000000000000));
    CHECK(num(g, "k.f64") == 1e-300);
    CHECK(gguf_find_kv(g, "nope") == NULL);
    double v;
    CHECK(gguf_kv_number(gguf_find_kv(g, "general.architecture"), &v) < 0);
    const struct gguf_kv *fa = gguf_find_kv(g, "k.farr");
    CHECK(fa->type == GGUF_ARRAY && fa->arr_type == GGUF_FLOAT32);
    CHECK(fa->arr_count == 3);
    CHECK(gguf_kv_array_number(g, fa, 1, &v, err, sizeof err) == 0 && v == -2.0);
    CHECK(gguf_kv_array_number(g, fa, 2, &v, err, sizeof err) == 0 && v == 0.25);
    CHECK(gguf_kv_array_number(g, fa, 3, &v, err, sizeof err) < 0);
    const struct gguf_kv *ia = gguf_find_kv(g, "k.i16arr");
    CHECK(gguf_kv_array_number(g, ia, 0, &v, err, sizeof err) == 0 && v == -32768);
    const struct gguf_kv *sa = gguf_find_kv(g, "k.sarr");
    CHECK(sa->arr_count == 2 && sa->arr_type == GGUF_STRING);
    CHECK(gguf_kv_array_number(g, sa, 0, &v, err, sizeof err) < 0);
    CHECK(strstr(err, "not an array of numbers") != NULL);
    gguf_close(g);
    b_free(&b);
}

static void test_tensors(void)
{
    struct bytes b = { 0 };
    char err[256];
    build_valid(&b, 2, 0);
    struct gguf *g = open_buf(&b, err);
    CHECK(g != NULL);
    if (!g) {
        b_free(&b);
        return;
    }
    CHECK(gguf_version(g) == 2);
    CHECK(gguf_tensor_count(g) == 3);
    const struct gguf_tensor *t = gguf_find_tensor(g, "pos_embd.weight");
    CHECK(t && t->n_dims == 2 && t->ne[0] == 4 && t->ne[1] == 3);
    CHECK(t && t->ne[2] == 1 && t->nelements == 12 && t->nbytes == 48);
    double out[12];
    CHECK(gguf_read_tensor(g, t, out, err, sizeof err) == 0);
    for (int i = 0; i < 12; i++)
        CHECK(out[i] == (double)POS[i]);
    CHECK(signbit(out[8]));                               /* -0.0 kept */
    t = gguf_find_tensor(g, "rope_freqs.weight");
    CHECK(t && t->type == GGML_TYPE_F16 && t->nbytes == 8);
    CHECK(gguf_read_tensor(g, t, out, err, sizeof err) == 0);
    CHECK(out[0] == 1.0 && out[1] == -0.5);
    CHECK(out[2] == ldexp(1.0, -24) && out[3] == 65504.0);
    t = gguf_find_tensor(g, "x");
    CHECK(gguf_read_tensor(g, t, out, err, sizeof err) == 0);
    CHECK(out[0] == 1.0 && out[1] == -3.0 && out[2] == 3.140625);
    CHECK(out[3] == ldexp(1.0, -133));
    char tn[24];
    CHECK_STR(gguf_type_name(30, tn, sizeof tn), "BF16");
    CHECK_STR(gguf_type_name(12, tn, sizeof tn), "Q4_K");
    CHECK_STR(gguf_type_name(99, tn, sizeof tn), "type 99");
    gguf_close(g);
    b_free(&b);
}

/* A string longer than GGUF_KEPT_STRING stays on disk, located exactly. */
static void test_long_string(void)
{
    struct bytes b = { 0 };
    char err[256];
    build_valid(&b, 3, 5000);
    struct gguf *g = open_buf(&b, err);
    CHECK(g != NULL);
    if (g) {
        const struct gguf_kv *kv = gguf_find_kv(g, "k.long");
        CHECK(kv && kv->str == NULL && kv->str_len == 5000);
        CHECK(kv && b.b[kv->str_offset] == 'a' && b.b[kv->str_offset + 27] == 'b');
        double out[12];
        CHECK(gguf_read_tensor(g, gguf_find_tensor(g, "pos_embd.weight"), out,
                               err, sizeof err) == 0 && out[7] == 100.0);
    }
    gguf_close(g);
    b_free(&b);
}

/* Every proper prefix of a valid file is refused with a message. */
static void test_truncations(void)
{
    struct bytes b = { 0 };
    char err[256];
    build_valid(&b, 3, 0);
    int refused = 0, said = 0;
    for (size_t n = 0; n < b.n; n++) {
        struct gguf *g = NULL;
        err[0] = 0;
        if (gguf_open_buffer("m.gguf", b.b, n, &g, err, sizeof err) < 0) {
            refused++;
            said += strncmp(err, "m.gguf: ", 8) == 0 && strstr(err, "truncated");
        } else {
            gguf_close(g);
        }
    }
    CHECK(refused == (int)b.n);
    CHECK(said == (int)b.n);
    b_free(&b);
}

/* A minimal file: the given tensors after one optional key. */
static void build_min(struct bytes *b, uint32_t version, uint64_t nt,
                      uint64_t nkv)
{
    b->n = 0;
    b_text(b, "GGUF");
    b_u32(b, version);
    b_u64(b, nt);
    b_u64(b, nkv);
}

struct hostile {
    const char *what;
    const char *expect;     /* substring of the message */
};

static void expect_refused(const struct bytes *b, const char *what,
                           const char *expect)
{
    char err[256] = "";
    struct gguf *g = NULL;
    int r = gguf_open_buffer("h.gguf", b->b, b->n, &g, err, sizeof err);
    CHECK(r < 0 && g == NULL);
    if (r == 0 || !strstr(err, expect) || strncmp(err, "h.gguf: ", 8))
        fprintf(stderr, "  %s: got '%s', want '%s'\n", what, err, expect);
    CHECK(strstr(err, expect) != NULL);
    gguf_close(g);
}

static void pad_data(struct bytes *b, size_t bytes)
{
    b_pad(b, 32, 0);
    for (size_t i = 0; i < bytes; i++)
        b_u8(b, 0);
}

static void test_hostile_preamble(void)
{
    struct bytes b = { 0 };
    build_min(&b, 3, 0, 0);
    b.b[0] = 'X';
    expect_refused(&b, "magic", "no \"GGUF\" magic");
    build_min(&b, 1, 0, 0);
    expect_refused(&b, "v1", "version 1: want 2 or 3");
    build_min(&b, 0x03000000u, 0, 0);
    expect_refused(&b, "big-endian", "big-endian");
    build_min(&b, 3, UINT64_C(1) << 60, 0);
    expect_refused(&b, "tensors", "tensors declared");
    build_min(&b, 3, 0, UINT64_MAX);
    expect_refused(&b, "keys", "metadata keys declared");
    build_min(&b, 3, 0, 1);            /* declares a key that is not there */
    expect_refused(&b, "missing key", "truncated");
    b_free(&b);
}

static void test_hostile_kv(void)
{
    struct bytes b = { 0 };
    build_min(&b, 3, 0, 1);
    b_u64(&b, UINT64_C(1) << 62);
    expect_refused(&b, "key length",
                   "metadata key 0: a name of 4611686018427387904 bytes");
    build_min(&b, 3, 0, 1);
    kv_head(&b, "s", 8); b_u64(&b, UINT64_MAX);
    expect_refused(&b, "string length", "a string of");
    build_min(&b, 3, 0, 1);
    kv_head(&b, "s", 8); b_u64(&b, 100); b_text(&b, "short");
    expect_refused(&b, "string past the end", "truncated");
    build_min(&b, 3, 0, 1);
    kv_head(&b, "a", 9); b_u32(&b, 6); b_u64(&b, UINT64_C(1) << 40);
    expect_refused(&b, "array count", "an array of");
    build_min(&b, 3, 0, 1);
    kv_head(&b, "a", 9); b_u32(&b, 6); b_u64(&b, UINT64_C(1) << 27);
    expect_refused(&b, "array past the end", "truncated");
    build_min(&b, 3, 0, 1);
    kv_head(&b, "a", 9); b_u32(&b, 9); b_u64(&b, 1);
    expect_refused(&b, "nested array", "array of arrays");
    build_min(&b, 3, 0, 1);
    kv_head(&b, "a", 9); b_u32(&b, 8); b_u64(&b, 2);
    b_str64(&b, "x"); b_u64(&b, UINT64_C(1) << 50);
    expect_refused(&b, "array string", "item 1 is a string");
    build_min(&b, 3, 0, 1);
    kv_head(&b, "t", 13); b_u32(&b, 0);
    expect_refused(&b, "value type", "value type 13");
    build_min(&b, 3, 0, 1);
    kv_head(&b, "t", 7); b_u8(&b, 2);
    expect_refused(&b, "bool", "a bool of value 2");
    build_min(&b, 3, 0, 2);
    kv_head(&b, "k", 4); b_u32(&b, 1);
    kv_head(&b, "k", 4); b_u32(&b, 2);
    expect_refused(&b, "duplicate key", "'k' appears twice");
    build_min(&b, 3, 0, 1);
    kv_head(&b, "a\033[2J", 4); b_u32(&b, 1);
    expect_refused(&b, "escape in key", "control character");
    build_min(&b, 3, 0, 1);
    kv_head(&b, "general.alignment", 4); b_u32(&b, 48);
    expect_refused(&b, "alignment", "not a power of two");
    build_min(&b, 3, 0, 1);
    kv_head(&b, "general.alignment", 10); b_u64(&b, 32);
    expect_refused(&b, "alignment type", "want uint32");
    b_free(&b);
}

static void test_hostile_tensors(void)
{
    struct bytes b = { 0 };
    struct tensor_spec t = { "w", 2, { 4, 2 }, 0, 0 };
    build_min(&b, 3, 1, 0);
    t.n_dims = 5;
    put_tensor_info(&b, &t);
    expect_refused(&b, "dims", "5 dimensions");
    t.n_dims = 2;
    build_min(&b, 3, 1, 0);
    t.ne[0] = UINT64_C(1) << 40; t.ne[1] = UINT64_C(1) << 40;
    put_tensor_info(&b, &t);
    expect_refused(&b, "ne overflow", "dimensions too large");
    t.ne[0] = 4; t.ne[1] = 2;
    build_min(&b, 3, 1, 0);
    put_tensor_info(&b, &t);
    pad_data(&b, 31);                 /* 32 bytes needed */
    expect_refused(&b, "short data", "truncated: tensor 'w'");
    build_min(&b, 3, 1, 0);
    t.ne[1] = UINT64_C(1) << 40;      /* huge declared shape */
    put_tensor_info(&b, &t);
    pad_data(&b, 32);
    expect_refused(&b, "huge shape", "truncated: tensor 'w'");
    t.ne[1] = 2;
    build_min(&b, 3, 1, 0);
    t.offset = 8;
    put_tensor_info(&b, &t);
    pad_data(&b, 64);
    expect_refused(&b, "misaligned", "not a multiple of the alignment");
    t.offset = 0;
    build_min(&b, 3, 2, 0);
    put_tensor_info(&b, &t);
    put_tensor_info(&b, &t);
    pad_data(&b, 64);
    expect_refused(&b, "duplicate", "tensor 'w' appears twice");
    struct tensor_spec u = { "u", 1, { 16 }, 0, 0 };
    build_min(&b, 3, 2, 0);
    put_tensor_info(&b, &t);
    put_tensor_info(&b, &u);
    pad_data(&b, 64);
    expect_refused(&b, "overlap", "overlap");
    struct tensor_spec q = { "q", 1, { 33 }, 2, 0 };   /* Q4_0, 32 per block */
    build_min(&b, 3, 1, 0);
    put_tensor_info(&b, &q);
    pad_data(&b, 64);
    expect_refused(&b, "block", "not a multiple of the Q4_0 block of 32");
    build_min(&b, 3, 1, 0);
    b_str64(&b, "an-overly-long-tensor-name-of-more-than-sixty-four-bytes-in-all-x");
    expect_refused(&b, "long name", "a name of 65 bytes");
    b_free(&b);
}

/* Reading: a NaN is named by row and column; other types are refused. */
static void test_read_refusals(void)
{
    struct bytes b = { 0 };
    char err[256];
    struct tensor_spec t = { "pos_embd.weight", 2, { 3, 2 }, 0, 0 };
    struct tensor_spec q = { "q", 1, { 32 }, 2, 32 };
    build_min(&b, 3, 2, 0);
    put_tensor_info(&b, &t);
    put_tensor_info(&b, &q);
    b_pad(&b, 32, 0);
    for (int i = 0; i < 6; i++)
        b_f32(&b, i == 5 ? INFINITY : (float)i);
    b_pad(&b, 32, 0);
    for (int i = 0; i < 18; i++)
        b_u8(&b, 0);
    struct gguf *g = open_buf(&b, err);
    CHECK(g != NULL);
    if (g) {
        double out[32];
        CHECK(gguf_read_tensor(g, gguf_tensor_at(g, 0), out, err, sizeof err) < 0);
        CHECK(strstr(err, "row 1, column 2 is not a finite number") != NULL);
        CHECK(gguf_read_tensor(g, gguf_tensor_at(g, 1), out, err, sizeof err) < 0);
        CHECK(strstr(err, "is Q4_0: want F32, F16, BF16 or F64") != NULL);
    }
    gguf_close(g);
    b_free(&b);
}

/* Files: a regular file reads the same; a FIFO and a directory are
 * refused at once, before any read. */
static void test_files(void)
{
    struct bytes b = { 0 };
    char path[64], err[256];
    build_valid(&b, 3, 0);
    CHECK(b_tempfile(&b, path, ".gguf") == 0);
    struct gguf *g = NULL;
    CHECK(gguf_open(path, &g, err, sizeof err) == 0);
    if (g) {
        double out[12];
        CHECK(gguf_read_tensor(g, gguf_find_tensor(g, "pos_embd.weight"), out,
                               err, sizeof err) == 0);
        CHECK(out[9] == (double)1e30f);
        CHECK(gguf_find_kv(g, "k.farr")->arr_offset > 0);
        double v;
        CHECK(gguf_kv_array_number(g, gguf_find_kv(g, "k.farr"), 0, &v, err,
                                   sizeof err) == 0 && v == 1.5);
    }
    gguf_close(g);
    unlink(path);
    snprintf(path, sizeof path, "/tmp/peviz-fifo-%ld", (long)getpid());
    CHECK(mkfifo(path, 0600) == 0);
    g = NULL;
    CHECK(gguf_open(path, &g, err, sizeof err) < 0 && !g);
    CHECK(strstr(err, "a FIFO (pipe), not a regular file") != NULL);
    unlink(path);
    CHECK(gguf_open("/tmp", &g, err, sizeof err) < 0);
    CHECK(strstr(err, "/tmp: a directory, not a regular file") != NULL);
    CHECK(gguf_open("/nonexistent/x.gguf", &g, err, sizeof err) < 0);
    CHECK(strstr(err, "cannot open: No such file") != NULL);
    b_free(&b);
}

int main(void)
{
    test_metadata();
    test_tensors();
    test_long_string();
    test_truncations();
    test_hostile_preamble();
    test_hostile_kv();
    test_hostile_tensors();
    test_read_refusals();
    test_files();
    TEST_END("test_gguf");
}
