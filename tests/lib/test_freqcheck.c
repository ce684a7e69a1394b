/* SPDX-License-Identifier: ISC */
/*
 * test_freqcheck.c - --check-freqs' library part (peviz/freqcheck.h) on
 * files built here, each made with one known port bug from the formulas
 * written again in rope_ref.h and below: YaRN with truncation off, with
 * its betas swapped, with its ramp clamped at d/2-1; llama3 as plain
 * linear scaling; a wrong base; inv_freq in float32 as transformers computes it (the
 * reference's own arithmetic: a match).  Every format
 * (.npy f8/f4, text, safetensors, GGUF divisors), the tolerances, and
 * malformed files.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bytes.h"
#include "harness.h"
#include "peviz/freqcheck.h"
#include "rope_ref.h"

static void npy(struct bytes *b, const double *v, int n, int f32)
{
    char h[128];
    int len = snprintf(h, sizeof h, "{'descr': '<f%d', 'fortran_order': "
                       "False, 'shape': (%d,), }", f32 ? 4 : 8, n);
    while ((10 + len + 1) % 64)
        h[len++] = ' ';
    h[len++] = '\n';
    b_text(b, "\x93NUMPY");
    b_u8(b, 1);
    b_u8(b, 0);
    b_u16(b, (unsigned)len);
    b_put(b, h, (size_t)len);
    for (int i = 0; i < n; i++) {
        if (f32)
            b_f32(b, (float)v[i]);
        else
            b_f64(b, v[i]);
    }
}

static void text(struct bytes *b, const double *v, int n, int banded)
{
    char line[64];
    b_text(b, banded ? "band,omega,wavelength\n" : "inv_freq\n");
    for (int i = 0; i < n; i++) {
        if (banded)
            snprintf(line, sizeof line, "%d,%.17g,%.9g\n", i, v[i],
                     2 * REF_PI / v[i]);
        else
            snprintf(line, sizeof line, "%.17g\n", v[i]);
        b_text(b, line);
    }
}

static void safetensors(struct bytes *b, const double *v, int n)
{
    char h[256];
    int len = snprintf(h, sizeof h, "{\"other\":{\"dtype\":\"F32\",\"shape\":[1],"
                       "\"data_offsets\":[0,4]},\"model.rotary_emb.inv_freq\":"
                       "{\"dtype\":\"F64\",\"shape\":[%d],\"data_offsets\":"
                       "[4,%d]}}", n, 4 + 8 * n);
    b_u64(b, (uint64_t)len);
    b_put(b, h, (size_t)len);
    b_f32(b, 1.0f);
    for (int i = 0; i < n; i++)
        b_f64(b, v[i]);
}

/* A GGUF with one F32 tensor rope_freqs.weight. */
static void gguf(struct bytes *b, const double *v, int n)
{
    b_text(b, "GGUF");
    b_u32(b, 3);
    b_u64(b, 1);
    b_u64(b, 1);
    b_str64(b, "general.architecture");
    b_u32(b, 8);
    b_str64(b, "llama");
    b_str64(b, "rope_freqs.weight");
    b_u32(b, 1);
    b_u64(b, (uint64_t)n);
    b_u32(b, 0);
    b_u64(b, 0);
    b_pad(b, 32, 0);
    for (int i = 0; i < n; i++)
        b_f32(b, (float)v[i]);
}

static rope_scaling yarn(double s, int64_t L)
{
    rope_scaling sc;
    rope_scaling_default(&sc);
    sc.method = ROPE_YARN;
    sc.factor = s;
    sc.original_max = L;
    return sc;
}

/* Check buffer b against the settings: the result, the variant named
 * first (want: the start of its name; equivalent ones may follow). */
static int check(const struct bytes *b, const char *tensor,
                 const rope_scaling *sc, int d, double base, const char *want)
{
    struct freq_file f;
    struct freq_check r;
    char err[300];
    if (freq_file_load_buffer("t", b->b, b->n, tensor, &f, err, sizeof err)) {
        printf("load: %s\n", err);
        return -2;
    }
    int k = freq_check(&f, sc, d, base, 128, &r, err, sizeof err);
    if (want && (strncmp(r.variant, want, strlen(want)) != 0 ||
                 (!*want && *r.variant))) {
        printf("variant '%s', want '%s'\n", r.variant, want);
        return -3;
    }
    return k;
}

static void test_yarn_bugs(void)
{
    double v[64];
    struct bytes b = { 0 };
    rope_scaling sc = yarn(4, 32768);
    /* exact: a match, .npy f8 */
    for (int i = 0; i < 64; i++)
        v[i] = ref_yarn(i, 128, 1e6, 4, 32768, 32, 1, 1);
    npy(&b, v, 64, 0);
    CHECK(check(&b, NULL, &sc, 128, 1e6, "") == 0);
    b_free(&b);
    /* truncation off */
    for (int i = 0; i < 64; i++)
        v[i] = ref_yarn(i, 128, 1e6, 4, 32768, 32, 1, 0);
    npy(&b, v, 64, 0);
    CHECK(check(&b, NULL, &sc, 128, 1e6, "yarn with truncate off") == 1);
    b_free(&b);
    /* betas swapped, as text */
    for (int i = 0; i < 64; i++)
        v[i] = ref_yarn(i, 128, 1e6, 4, 32768, 1, 32, 1);
    text(&b, v, 64, 0);
    CHECK(check(&b, NULL, &sc, 128, 1e6,
                "yarn with beta_fast and beta_slow swapped") == 1);
    b_free(&b);
    /* the ramp's top clamped at d/2 - 1 = 31 (d 64, base 1e4, L 131072:
     * corr(32) = 22.5 -> 22, corr(1) = 34.5 -> 35, clamped to 31) */
    double lo = floor(64 * log(131072 / (32 * 2 * REF_PI)) / (2 * log(1e4)));
    CHECK(lo == 22);
    for (int i = 0; i < 32; i++) {
        double r = (i - lo) / (31 - lo), t = ref_theta(i, 64, 1e4);
        r = r < 0 ? 0 : r > 1 ? 1 : r;
        v[i] = t / 8 * r + t * (1 - r);
    }
    safetensors(&b, v, 32);
    sc = yarn(8, 131072);
    CHECK(check(&b, "model.rotary_emb.inv_freq", &sc, 64, 1e4,
                "yarn with the ramp clamped at d/2-1 = 31 instead of d-1 = 63") == 1);
    /* the only inv_freq tensor is picked without --tensor */
    CHECK(check(&b, NULL, &sc, 64, 1e4, NULL) == 1);
    b_free(&b);
}

static void test_llama3_bugs(void)
{
    double v[64];
    struct bytes b = { 0 };
    rope_scaling sc;
    rope_preset_scaling(rope_preset_find("llama3.1-8b"), &sc);
    /* plain linear: every band divided by 8, as peviz's own export */
    for (int i = 0; i < 64; i++)
        v[i] = ref_theta(i, 128, 5e5) / 8;
    text(&b, v, 64, 1);
    CHECK(check(&b, NULL, &sc, 128, 5e5,
                "llama3 applied as plain linear scaling by 8") == 1);
    b_free(&b);
    /* the base of Llama 2, float32 storage */
    for (int i = 0; i < 64; i++)
        v[i] = ref_llama3(i, 128, 1e4, 8, 8192, 1, 4);
    npy(&b, v, 64, 1);
    CHECK(check(&b, NULL, &sc, 128, 5e5, "base 10000 instead of 500000") == 1);
    b_free(&b);
    /* float32 storage of the right values is within f32's tolerance */
    for (int i = 0; i < 64; i++)
        v[i] = ref_llama3(i, 128, 5e5, 8, 8192, 1, 4);
    npy(&b, v, 64, 1);
    CHECK(check(&b, NULL, &sc, 128, 5e5, "") == 0);
    b_free(&b);
    /* GGUF divisors: theta / omega, float32 */
    for (int i = 0; i < 64; i++)
        v[i] = ref_theta(i, 128, 5e5) / ref_llama3(i, 128, 5e5, 8, 8192, 1, 4);
    gguf(&b, v, 64);
    CHECK(check(&b, NULL, &sc, 128, 5e5, "") == 0);
    b_free(&b);
}

static void test_f32_pow(void)
{
    double v[48];
    struct bytes b = { 0 };
    rope_scaling sc;
    rope_scaling_default(&sc);
    /* d 96: 2i/96 is not a float32 number, so float32's pow is off by
     * more than double's rounding; stored as f64 */
    for (int i = 0; i < 48; i++)
        v[i] = 1.0f / powf(10000.0f, (float)(2 * i) / 96.0f);
    npy(&b, v, 48, 0);
    CHECK(check(&b, NULL, &sc, 96, 1e4, "inv_freq computed in float32 as transformers does") == 0);
    b_free(&b);
    /* llama3 in float32 throughout (as a float32 tensor program does it),
     * kept in f64 */
    double v64[64];
    rope_preset_scaling(rope_preset_find("llama3.1-8b"), &sc);
    for (int i = 0; i < 64; i++) {
        float inv = 1.0f / powf(500000.0f, (float)(2 * i) / 128.0f);
        float wl = 2.0f * (float)REF_PI / inv, out = inv;
        if (wl > 8192.0f) {
            out = inv / 8.0f;
        } else if (wl >= 2048.0f) {
            float k = (8192.0f / wl - 1.0f) / 3.0f;
            out = (1.0f - k) * inv / 8.0f + k * inv;
        }
        v64[i] = out;
    }
    npy(&b, v64, 64, 0);
    CHECK(check(&b, NULL, &sc, 128, 5e5, "inv_freq computed in float32 as transformers does") == 0);
    b_free(&b);
    /* the same float32 llama3 kept as float32: within 4 ulp, or named */
    npy(&b, v64, 64, 1);
    int k = check(&b, NULL, &sc, 128, 5e5, NULL);
    CHECK(k == 0 || k == 1);
    if (k == 1)
        CHECK(check(&b, NULL, &sc, 128, 5e5, "inv_freq computed in float32 as transformers does") == 0);
    b_free(&b);
    /* YaRN without truncation, in float32 throughout, kept in f64: both
     * named (d 96, where float32's 2i/d is not exact) */
    rope_scaling y = yarn(4, 32768);
    double lo = 96 * log(32768 / (32 * 2 * REF_PI)) / (2 * log(1e6));
    double hi = 96 * log(32768 / (1 * 2 * REF_PI)) / (2 * log(1e6));
    for (int i = 0; i < 48; i++) {
        float t = 1.0f / powf(1e6f, (float)(2 * i) / 96.0f);
        float r = (float)((i - lo) / (hi - lo));
        r = r < 0 ? 0 : r > 1 ? 1 : r;
        v64[i] = (double)(t / 4.0f * r + t * (1.0f - r));
    }
    npy(&b, v64, 48, 0);
    CHECK(check(&b, NULL, &y, 96, 1e6, "yarn with truncate off, and inv_freq "
                "computed in float32 as transformers does") == 1);
    b_free(&b);
}

/* Text holds what its digits hold: "%.6f" (absolute) and "%.9g"
 * (relative) dumps of the right values match; a "%.9g" dump of float32
 * pow is named, each number being a float32 value to 9 digits. */
static void test_text_precision(void)
{
    struct bytes b = { 0 };
    rope_scaling sc;
    char line[64];
    rope_scaling_default(&sc);
    for (int i = 0; i < 32; i++) {
        snprintf(line, sizeof line, "%.6f\n", ref_theta(i, 64, 1e4));
        b_text(&b, line);
    }
    CHECK(check(&b, NULL, &sc, 64, 1e4, "") == 0);
    b_free(&b);
    for (int i = 0; i < 48; i++) {
        snprintf(line, sizeof line, "%.9g,", ref_theta(i, 96, 1e4));
        b_text(&b, line);
    }
    CHECK(check(&b, NULL, &sc, 96, 1e4, "") == 0);
    b_free(&b);
    for (int i = 0; i < 48; i++) {
        snprintf(line, sizeof line, "%.9g\n",
                 (double)(1.0f / powf(10000.0f, (float)(2 * i) / 96.0f)));
        b_text(&b, line);
    }
    CHECK(check(&b, NULL, &sc, 96, 1e4, "inv_freq computed in float32 as transformers does") == 0);
    b_free(&b);
    /* band 20 printed to 6 digits (one unit: 3.2e-6 of it), off by 3e-5 */
    for (int i = 0; i < 32; i++) {
        double v = ref_theta(i, 64, 1e4) * (i == 20 ? 1 + 3e-5 : 1);
        snprintf(line, sizeof line, i == 20 ? "%.6g\n" : "%.17g\n", v);
        b_text(&b, line);
    }
    CHECK(check(&b, NULL, &sc, 64, 1e4, "") == 1);
    b_free(&b);
}

/* Printed arrays: a Python list, numpy's print, torch's tensor (4
 * decimals of a mantissa: held to them). */
static void test_printed_arrays(void)
{
    struct bytes b = { 0 };
    rope_scaling sc;
    char line[64];
    rope_scaling_default(&sc);
    b_text(&b, "[");
    for (int i = 0; i < 8; i++) {
        snprintf(line, sizeof line, "%s%.17g", i ? ", " : "", ref_theta(i, 16, 1e4));
        b_text(&b, line);
    }
    b_text(&b, "]\n");
    CHECK(check(&b, NULL, &sc, 16, 1e4, "") == 0);
    b_free(&b);
    b_text(&b, "tensor([");
    for (int i = 0; i < 8; i++) {
        snprintf(line, sizeof line, "%s%.4e", i ? ", " : "", ref_theta(i, 16, 1e4));
        b_text(&b, line);
        if (i == 3)
            b_text(&b, ",\n        ");
    }
    b_text(&b, "], dtype=torch.float64)\n");
    CHECK(check(&b, NULL, &sc, 16, 1e4, "") == 0);
    b_free(&b);
    b_text(&b, "array([1.0, 0.1, 0.01, 0.001])\n");      /* base 1e4 at d 8 */
    CHECK(check(&b, NULL, &sc, 8, 1e4, "") == 0);
    CHECK(check(&b, NULL, &sc, 8, 5e5, "base 10000 instead of 500000") == 1);
    b_free(&b);
}

static void test_tolerance_and_errors(void)
{
    struct freq_file f;
    struct freq_check r;
    char err[300];
    double v[32];
    struct bytes b = { 0 };
    rope_scaling sc;
    rope_scaling_default(&sc);
    /* one band off by 3e-12 in f64 differs; in f32 it would not */
    for (int i = 0; i < 32; i++)
        v[i] = ref_theta(i, 64, 1e4);
    v[7] *= 1 + 3e-12;
    npy(&b, v, 32, 0);
    CHECK(freq_file_load_buffer("t", b.b, b.n, NULL, &f, err, sizeof err) == 0);
    CHECK(f.dtype == FD_F64 && f.tol == 1e-12);
    CHECK(freq_check(&f, &sc, 64, 1e4, 1, &r, err, sizeof err) == 1);
    CHECK(r.ndiff == 1 && r.band[0].band == 7 && r.variant[0] == 0);
    CHECK_NEAR(r.band[0].rel, 3e-12, 1e-15);
    /* the wrong number of bands */
    CHECK(freq_check(&f, &sc, 128, 1e4, 1, &r, err, sizeof err) == -1);
    CHECK(strstr(err, "32 values; the settings have d/2 = 64") != NULL);
    b_free(&b);
    CHECK(freq_dtype_tol(FD_F32) == 0x1p-22 && freq_dtype_tol(FD_BF16) == 0x1p-6);
    /* malformed files: one line each */
    static const char *const BAD[] = {
        "1,2,abc\n", "\x93NUMPY\x01\x00\x10\x00{'descr': '<i4'}",
        "1,nan,2\n", "0x1p-3\n", "", "1\n-2\n"
    };
    for (size_t k = 0; k < sizeof BAD / sizeof BAD[0]; k++) {
        size_t n = k == 1 ? 26 : strlen(BAD[k]);
        err[0] = 0;
        CHECK(freq_file_load_buffer("bad", (const unsigned char *)BAD[k], n,
                                    NULL, &f, err, sizeof err) == -1);
        CHECK(strncmp(err, "bad: ", 5) == 0 && !strchr(err, '\n'));
    }
}

int main(void)
{
    test_yarn_bugs();
    test_llama3_bugs();
    test_f32_pow();
    test_text_precision();
    test_printed_arrays();
    test_tolerance_and_errors();
    TEST_END("test_freqcheck");
}
