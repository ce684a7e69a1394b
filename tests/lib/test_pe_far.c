/* SPDX-License-Identifier: ISC */
/*
 * test_pe_far.c - PE values at the largest positions (n = 2^24) within
 * 1e-9 of the formula on every path: pe_value (the screen), pe_row (CSV),
 * pe_fill_f64, the export's block plan (pe_fill_rows_f64/f32),
 * pe_value_mean over one position.
 *
 * In double, pos * omega near 1.6e7 radians carries ~1e-9 of error
 * (omega's own rounding and the product's), which the old code passed to
 * sin.  The reference here is computed differently from the library and
 * more precisely than double: omega = exp(-(2i/d) ln base) in long
 * double, the angle reduced by hand against 2*pi split in three parts
 * (each part times the turn count exact), then sinl/cosl.  It is checked
 * first against values worked out to 40 digits with decimal arithmetic.
 */
#include "peviz/pe.h"
#include "harness.h"

#include <float.h>
#include <string.h>
#include <stdint.h>

#define FAR 16777216                 /* 2^24 */

/* 2*pi = P1 + P2 + P3: P1 and P2 have 32 significant bits, so k * P1 and
 * k * P2 are exact in long double for turn counts k < 2^32. */
static const long double P1 = 0x1.921fb544p+2L;
static const long double P2 = 0x1.0b4611a6p-32L;
static const long double P3 = 0x1.3198a2e037073p-67L;

static long double ref_angle(double pos, int i, int d, double base)
{
    long double w = expl(-(2.0L * i / d) * logl((long double)base));
    long double a = (long double)pos * w;
    long double k = nearbyintl(a / (P1 + P2 + P3));
    return ((a - k * P1) - k * P2) - k * P3;
}

static double ref_value(double pos, int dim, int d, double base)
{
    long double a = ref_angle(pos, dim / 2, d, base);
    return (double)(dim % 2 == 0 ? sinl(a) : cosl(a));
}

/* The reference itself against 40-digit decimal values (Python's decimal:
 * omega from exp and ln, a 60-digit pi, the sine series). */
static void test_reference(void)
{
    CHECK(LDBL_MANT_DIG >= 64);     /* the method needs extended precision */
    /* -d 16 -b 1.5, position 16777152, dim 10: the example */
    CHECK_NEAR(ref_value(16777152, 10, 16, 1.5),
               -0.10012870946747271578, 2e-12);
    CHECK_NEAR(ref_value(16777215, 3, 4, 1.875),
               -0.57297461827976537321, 2e-12);
}

static void check_row(double pos, int d, double base, const double *got,
                      double *worst)
{
    for (int j = 0; j < d; j++) {
        double e = fabs(got[j] - ref_value(pos, j, d, base));
        if (e > *worst)
            *worst = e;
    }
}

/* One (d, base) on every path at the last 64 positions below 2^24. */
static void test_paths(int d, double base)
{
    static double fill[64 * 64], row[64];
    double w_value = 0, w_row = 0, w_fill = 0, w_mean = 0;
    int64_t p0 = FAR - 64;
    pe_fill_f64(p0, 64, d, base, fill);
    for (int r = 0; r < 64; r++) {
        double pos = (double)(p0 + r);
        pe_row(pos, d, base, row);
        check_row(pos, d, base, row, &w_row);
        check_row(pos, d, base, fill + r * d, &w_fill);
        for (int j = 0; j < d; j++) {
            double ref = ref_value(pos, j, d, base);
            w_value = fmax(w_value, fabs(pe_value(pos, j, d, base) - ref));
            w_mean = fmax(w_mean, fabs(pe_value_mean(p0 + r, p0 + r + 1, j,
                                                     d, base) - ref));
        }
    }
    CHECK_NEAR(w_value, 0, 1e-9);
    CHECK_NEAR(w_row, 0, 1e-9);
    CHECK_NEAR(w_fill, 0, 1e-9);
    CHECK_NEAR(w_mean, 0, 1e-9);
}

/* The export's plan, formed once and used block after block, against
 * the one-shot fill of the same block (bit for bit) and the reference,
 * at d 600: 300 bands, a chunk of 256 and one of 44 padded to 48. */
static void test_plan(double base)
{
    enum { D = 600, ROWS = 37 };
    static double once[ROWS * D], rows[ROWS * D];
    static float rows32[ROWS * D];
    double worst = 0, worst32 = 0;
    pe_fill f;
    CHECK(pe_fill_open(&f, D, base) == 0);
    for (int64_t p0 = FAR - 3 * ROWS; p0 < FAR; p0 += ROWS) {
        pe_fill_f64(p0, ROWS, D, base, once);
        pe_fill_rows_f64(&f, p0, ROWS, rows);
        pe_fill_rows_f32(&f, p0, ROWS, rows32);
        CHECK(memcmp(once, rows, sizeof once) == 0);
        for (int r = 0; r < ROWS; r++) {
            check_row((double)(p0 + r), D, base, rows + r * D, &worst);
            for (int j = 0; j < D; j++)
                worst32 = fmax(worst32, fabs(rows32[r * D + j] - rows[r * D + j]));
        }
    }
    pe_fill_close(&f);
    CHECK_NEAR(worst, 0, 1e-9);
    CHECK_NEAR(worst32, 0, 1e-7);       /* float rounding: half an ulp of 1 */
}

int main(void)
{
    test_reference();
    test_plan(10000);
    test_plan(1.5);
    test_paths(16, 1.5);
    test_paths(4, 1.875);
    test_paths(64, 10000);
    test_paths(8, 1.0001);
    test_paths(2, 1e308);
    TEST_END("pe_far");
}
