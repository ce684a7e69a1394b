/* SPDX-License-Identifier: ISC */
/*
 * test_layout.c - libpeviz's layouts, precisions and spectrum numbers
 * (peviz/layout.h): the critical band, the turning bands and the slowest
 * band's turns against a direct computation; the three layouts as
 * permutations of one PE row; lower-precision PE against rounding done
 * here with C floats; exact column means.  Links only build/libpeviz.a.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "peviz/layout.h"
#include "peviz/pe.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---- direct computations ------------------------------------------------ */

static double direct_wavelength(int i, int d, double base)
{
    return 2 * M_PI * pow(base, 2.0 * i / d);
}

static int direct_critical(int d, double base, int64_t n)
{
    for (int i = 0; i < d / 2; i++)
        if (direct_wavelength(i, d, base) > (double)n)
            return i;
    return d / 2;
}

static int direct_turning(int d, double base, int64_t n)
{
    int count = 0;
    for (int i = 0; i < d / 2; i++)
        count += (double)n * pow(base, -2.0 * i / d) >= 2 * M_PI;
    return count;
}

static void test_spectrum(void)
{
    const double bases[] = { 1.5, 100, 10000, 500000, 1e6, 1e8 };
    const int ds[] = { 2, 4, 8, 64, 128, 512, 4096 };
    const int64_t ns[] = { 1, 6, 7, 100, 4096, 8192, 131072, 1 << 24 };
    for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++)
        for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++)
            for (size_t m = 0; m < sizeof ns / sizeof ns[0]; m++) {
                int d = ds[k];
                double base = bases[b];
                int64_t n = ns[m];
                CHECK(spectrum_critical_band(d, base, n) ==
                      direct_critical(d, base, n));
                CHECK(spectrum_turning_bands(d, base, n) ==
                      direct_turning(d, base, n));
                double slow = (double)n / direct_wavelength(d / 2 - 1, d, base);
                CHECK_NEAR(spectrum_slowest_turns(d, base, n), slow,
                           1e-9 * fmax(1, slow));
            }
    /* the teacher's case: 10000 against 500000 at n = 4096, d = 64 */
    CHECK(spectrum_critical_band(64, 10000, 4096) == 23);
    CHECK(spectrum_critical_band(64, 500000, 4096) == 16);
    CHECK_NEAR(spectrum_slowest_wavelength(64, 10000),
               2 * M_PI * pow(10000, 62.0 / 64), 1e-9 * 5e4);
    CHECK_NEAR(spectrum_wavelength_limit(500000), 2 * M_PI * 500000, 1e-6);
    /* the slowest band never reaches the 2*pi*base limit */
    CHECK(spectrum_slowest_wavelength(64, 10000) < spectrum_wavelength_limit(10000));
    /* a wavelength exactly n completes its turn: band 0 has wavelength 2pi,
     * so with n = 6 band 0 has not turned and with n = 7 it has */
    CHECK(spectrum_turning_bands(8, 10000, 6) == 0);
    CHECK(spectrum_turning_bands(8, 10000, 7) == 1);
}

/* ---- layouts ------------------------------------------------------------- */

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static void test_layouts(void)
{
    const int ds[] = { 2, 4, 8, 10, 64, 512 };
    for (size_t k = 0; k < sizeof ds / sizeof ds[0]; k++) {
        int d = ds[k];
        double *row = malloc(sizeof(double) * (size_t)d);
        double *got = malloc(sizeof(double) * (size_t)d);
        for (int l = 0; l < LAYOUT_COUNT; l++) {
            /* a bijection of dims onto (band, sin/cos) */
            int ok = 1;
            char *seen = calloc((size_t)d, 1);
            for (int j = 0; j < d; j++) {
                int band, is_cos;
                layout_map((enum layout)l, d, j, &band, &is_cos);
                ok &= band >= 0 && band < d / 2 && (is_cos == 0 || is_cos == 1);
                ok &= layout_dim((enum layout)l, d, band, is_cos) == j;
                int slot = 2 * band + is_cos;
                ok &= !seen[slot];
                seen[slot] = 1;
            }
            free(seen);
            CHECK(ok);
            /* the same values in another order */
            for (int pos = 0; pos < 300; pos += 37) {
                pe_row(pos, d, 10000, row);
                for (int j = 0; j < d; j++)
                    got[j] = layout_value(d, 10000, (enum layout)l, PREC_F64,
                                          pos, j);
                qsort(row, (size_t)d, sizeof *row, cmp_double);
                qsort(got, (size_t)d, sizeof *got, cmp_double);
                int same = 1;
                for (int j = 0; j < d; j++)
                    same &= got[j] == row[j];
                CHECK(same);
            }
        }
        free(row);
        free(got);
    }
    /* where each layout puts band 1 of d = 8 */
    CHECK(layout_dim(LAYOUT_INTERLEAVED, 8, 1, 0) == 2);
    CHECK(layout_dim(LAYOUT_INTERLEAVED, 8, 1, 1) == 3);
    CHECK(layout_dim(LAYOUT_CONCAT, 8, 1, 0) == 1);
    CHECK(layout_dim(LAYOUT_CONCAT, 8, 1, 1) == 5);
    CHECK(layout_dim(LAYOUT_HALF, 8, 1, 1) == 1);
    CHECK(layout_dim(LAYOUT_HALF, 8, 1, 0) == 5);
    /* values at those dims */
    CHECK_NEAR(layout_value(8, 10000, LAYOUT_CONCAT, PREC_F64, 37, 5),
               cos(37 * pow(10000, -2.0 / 8)), 1e-12);
    CHECK_NEAR(layout_value(8, 10000, LAYOUT_HALF, PREC_F64, 37, 5),
               sin(37 * pow(10000, -2.0 / 8)), 1e-12);
    CHECK(layout_parse("half") == LAYOUT_HALF);
    CHECK(layout_parse("Half") < 0);
    CHECK(layout_parse("") < 0);
    CHECK_STR(layout_name(LAYOUT_CONCAT), "concat");
    CHECK(precision_parse("bf16") == PREC_BF16);
    CHECK(precision_parse("f8") < 0);
}

/* ---- precision ------------------------------------------------------------ */

/* The f32-angle pipelines against C float arithmetic: position, omega,
 * angle and cos/sin in float, then the value cast (bf16: keep the top 16
 * bits of the float, rounded to nearest even; f16: within half its
 * spacing of the float value). */
static float bf16_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    u = (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;
    memcpy(&f, &u, sizeof f);
    return f;
}

static void test_f32_angle(int d, double base)
{
    int same = 1, close16 = 1;
    for (int64_t pos = 0; pos < 200000; pos += 1237)
        for (int j = 0; j < d; j += 5) {
            float w = (float)pe_omega(j / 2, d, base);
            float ang = (float)pos * w;
            float v = (float)(j % 2 ? cos((double)ang) : sin((double)ang));
            same &= layout_value(d, base, LAYOUT_INTERLEAVED, PREC_BF16, pos, j)
                    == (double)bf16_of(v);
            double h = layout_value(d, base, LAYOUT_INTERLEAVED, PREC_F16, pos, j);
            /* f16: 11 significant bits, half an ulp is 2^-11 relative */
            close16 &= fabs(h - v) <= fabs(v) * ldexp(1, -11) + ldexp(1, -25);
        }
    CHECK(same);
    CHECK(close16);
    /* the real pipeline keeps long positions apart: 4097 is not 4096, and
     * its error at 30001 is a value rounding (< 2^-8), not a wrong angle */
    CHECK(layout_value(d, base, LAYOUT_INTERLEAVED, PREC_BF16, 4097, 0) !=
          layout_value(d, base, LAYOUT_INTERLEAVED, PREC_BF16, 4096, 0));
    CHECK(fabs(layout_value(d, base, LAYOUT_INTERLEAVED, PREC_BF16, 30001, 0)
               - sin(30001.0)) < 1.0 / 256);
    CHECK(!isnan(layout_value(d, base, LAYOUT_INTERLEAVED, PREC_F16, 70000, 0)));
    CHECK(prec_exact_limit(PREC_BF16) == 16777216.0);
    CHECK(prec_angle_format(PREC_BF16) == PREC_F32 &&
          prec_value_format(PREC_BF16) == PREC_BF16);
    CHECK(precision_parse("f32-angle-bf16") == PREC_BF16);
    CHECK(precision_parse("all-f16") == PREC_ALL_F16);
    CHECK_STR(precision_pipeline(PREC_BF16), "f32 angle, bf16 value");
}

static void test_precision(void)
{
    const int d = 64;
    const double base = 10000;
    /* f32 against C float arithmetic: the product of two floats is exact
     * in double, so one rounding equals the float multiply */
    int same = 1;
    for (int64_t pos = 0; pos < 70000; pos += 997)
        for (int j = 0; j < d; j += 3) {
            int band = j / 2;
            float w = (float)pe_omega(band, d, base);
            float ang = (float)pos * w;
            float v = (float)(j % 2 ? cos((double)ang) : sin((double)ang));
            same &= layout_value(d, base, LAYOUT_INTERLEAVED, PREC_F32, pos, j)
                    == (double)v;
        }
    CHECK(same);
    /* f64 is the exact formula */
    CHECK(layout_value(d, base, LAYOUT_INTERLEAVED, PREC_F64, 37, 6) ==
          pe_value(37, 6, d, base));
    /* all-bf16 holds positions in 8 significant bits: 4097 becomes 4096 */
    CHECK(layout_value(d, base, LAYOUT_INTERLEAVED, PREC_ALL_BF16, 4097, 0) ==
          layout_value(d, base, LAYOUT_INTERLEAVED, PREC_ALL_BF16, 4096, 0));
    CHECK(prec_round(PREC_ALL_BF16, 257) != 257 && prec_round(PREC_ALL_BF16, 256) == 256);
    CHECK(prec_round(PREC_ALL_F16, 2049) != 2049 && prec_round(PREC_ALL_F16, 2048) == 2048);
    CHECK(prec_round(PREC_F32, 16777217.0) != 16777217.0);
    CHECK(prec_exact_limit(PREC_ALL_BF16) == 256 && prec_exact_limit(PREC_ALL_F16) == 2048);
    /* and its error at long context is large (the old all-bf16 bug) */
    double err = fabs(layout_value(d, base, LAYOUT_INTERLEAVED, PREC_ALL_BF16, 30001, 0)
                      - sin(30001.0));
    CHECK(err > 0.05);
    /* all-f16 cannot hold position 70000: the value is NaN, never made up */
    CHECK(isnan(layout_value(d, base, LAYOUT_INTERLEAVED, PREC_ALL_F16, 70000, 0)));
    CHECK(!isnan(layout_value(d, base, LAYOUT_INTERLEAVED, PREC_ALL_F16, 60000, 0)));
    test_f32_angle(d, base);
}

/* Exact column means: closed form for f64, full sums for other formats. */
static void test_means(void)
{
    const int d = 16;
    const double base = 500000;
    for (int l = 0; l < LAYOUT_COUNT; l++)
        for (int p = 0; p < PREC_COUNT; p++)
            for (int j = 0; j < d; j += 5) {
                int64_t p0 = 1000, p1 = 1377;
                double sum = 0;
                for (int64_t q = p0; q < p1; q++)
                    sum += layout_value(d, base, (enum layout)l,
                                        (enum precision)p, q, j);
                CHECK_NEAR(layout_value_mean(d, base, (enum layout)l,
                                             (enum precision)p, p0, p1, j, 1),
                           sum / (double)(p1 - p0), 1e-12);
            }
    /* a coarse stride stays within the size of the rounding error */
    double exact = layout_value_mean(d, base, LAYOUT_INTERLEAVED, PREC_BF16,
                                     0, 100000, 0, 1);
    double sampled = layout_value_mean(d, base, LAYOUT_INTERLEAVED, PREC_BF16,
                                       0, 100000, 0, 97);
    CHECK(fabs(exact - sampled) < 0.2);
}

int main(void)
{
    test_spectrum();
    test_layouts();
    test_precision();
    test_means();
    TEST_END("test_layout");
}
