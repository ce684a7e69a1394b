/* SPDX-License-Identifier: ISC */
/*
 * test_plan.c - the frequency plan against the formulas written out
 * again here: Llama 3.1's band split and its scaled critical band,
 * DeepSeek-V3's and Qwen2.5-YaRN's factors, the rule ranges, and the
 * unscaled plan against base^(-2i/d).
 */
#include "peviz/plan.h"
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#define TWO_PI 6.28318530717958647692

static pe_plan pl;

static rope_scaling make(enum rope_method m, double s, int64_t L)
{
    rope_scaling sc;
    rope_scaling_default(&sc);
    sc.method = m;
    sc.factor = s;
    sc.original_max = L;
    return sc;
}

/* The first band whose wavelength exceeds n, by brute force. */
static int ref_crit(const double *omega, int half, double n)
{
    for (int i = 0; i < half; i++)
        if (TWO_PI / omega[i] > n)
            return i;
    return half;
}

static void test_unscaled(void)
{
    CHECK(plan_compute(&pl, NULL, 64, 10000, 128) == 0);
    CHECK(pl.half == 32 && !pl.scaled && !pl.invalid);
    for (int i = 0; i < 32; i++) {
        double t = exp(-2.0 * i / 64 * log(10000.0));
        CHECK_NEAR(pl.omega[i] / t, 1, 1e-14);
        CHECK(pl.omega[i] == pl.omega_base[i] && pl.rule[i] == ROPE_KEPT);
        CHECK_NEAR(pl.wavelength[i] * t / TWO_PI, 1, 1e-14);
        CHECK_NEAR(pl.turns[i], 128 * t / TWO_PI, 1e-12 * (1 + pl.turns[i]));
    }
    /* lambda_i = 2 pi 1e4^(i/32) > 128  <=>  i > 32 log10(128/2pi)/4 = 10.47 */
    CHECK(pl.crit == 11 && pl.crit_base == 11 && pl.nturn == 11);
    CHECK(pl.a == 1 && pl.mult == 1 && pl.extra == 1);
    char b[128];
    CHECK(plan_rule_ranges(&pl, "-", " . ", b, sizeof b) == 0);
    CHECK_STR(b, "");
}

static void test_llama31(void)
{
    rope_scaling sc = make(ROPE_LLAMA3, 8, 8192);
    char b[128];
    CHECK(plan_compute(&pl, &sc, 128, 5e5, 131072) == 0);
    CHECK(pl.scaled && pl.half == 64);
    /* ROPE.md: bands 0-28 kept, 29-34 blended, 35-63 divided by 8 */
    CHECK(plan_rule_ranges(&pl, "-", " . ", b, sizeof b) == 3);
    CHECK_STR(b, "kept 0-28 . blend 29-34 . interp 35-63");
    CHECK_NEAR(pl.omega[29] / 2.1665707635e-03, 1, 1e-9);
    CHECK_NEAR(pl.omega[63] / 3.0689259889e-07, 1, 1e-9);
    CHECK_NEAR(pl.omega_base[63] / 2.4551407911e-06, 1, 1e-9);
    /* the scaled critical band differs from the unscaled one */
    CHECK(pl.crit == ref_crit(pl.omega, 64, 131072));
    CHECK(pl.crit_base == ref_crit(pl.omega_base, 64, 131072));
    CHECK(pl.crit == 39 && pl.crit_base == 49);
    CHECK(pl.a == 1 && pl.mult == 1);
    CHECK(plan_matches(&pl, &sc, 128, 5e5, 131072));
    CHECK(!plan_matches(&pl, &sc, 128, 5e5, 131071));
    CHECK(!plan_matches(&pl, NULL, 128, 5e5, 131072));
    CHECK_NEAR(plan_turns_in(&pl, 0, 8192), 8192 / TWO_PI, 1e-9);
}

static void test_factors(void)
{
    rope_scaling sc = make(ROPE_YARN, 40, 4096);
    sc.mscale = 1;
    sc.mscale_all_dim = 1;
    CHECK(plan_compute(&pl, &sc, 64, 1e4, 163840) == 0);
    double m = 0.1 * log(40.0) + 1;     /* ROPE.md: x1.87385 */
    CHECK_NEAR(pl.a, 1, 1e-15);
    CHECK_NEAR(pl.mult, m * m, 1e-12);
    CHECK_NEAR(pl.mult, 1.87385, 5e-6);
    CHECK_NEAR(pl.extra, m * m, 1e-12);
    sc = make(ROPE_YARN, 4, 32768);
    CHECK(plan_compute(&pl, &sc, 128, 1e6, 131072) == 0);
    CHECK_NEAR(pl.a, 1.1386294, 1e-7);
    CHECK_NEAR(pl.mult, 1.2964770, 1e-7);
    CHECK_NEAR(pl.extra, 1, 1e-15);
    CHECK_NEAR(pl.omega[31] / 8.0295972755e-04, 1, 1e-9);
    char b[128];
    CHECK(plan_rule_ranges(&pl, "-", ", ", b, sizeof b) == 3);
    CHECK_STR(b, "kept 0-23, blend 24-39, interp 40-63");
}

static void test_refusals(void)
{
    rope_scaling sc = make(ROPE_YARN, 4, 0);    /* no L: not evaluable */
    CHECK(plan_compute(&pl, NULL, 7, 1e4, 10) == -1);
    CHECK(plan_compute(&pl, NULL, 8, 1, 10) == -1);
    CHECK(plan_compute(&pl, NULL, 8, 1e4, 0) == -1);
    CHECK(plan_compute(&pl, &sc, 8, 1e4, 10) == 0);
    CHECK(pl.invalid && !pl.scaled && pl.omega[3] == pl.omega_base[3]);
}

/* The arrays grow to the largest d, keep their values at a smaller one,
 * and plan_free leaves an empty plan that matches nothing. */
static void test_storage(void)
{
    pe_plan p = { 0 };
    int half = PE_PLAN_MAX_BANDS;
    CHECK(plan_compute(&p, NULL, 8, 1e4, 10) == 0 && p.cap == 4);
    CHECK(plan_compute(&p, NULL, 2 * half, 1e4, 10) == 0 && p.cap == half);
    CHECK(fabs(p.omega[half - 1] / pow(1e4, -(double)(half - 1) / half) - 1) < 1e-12);
    CHECK(p.rule[half - 1] == ROPE_KEPT && p.turns[half - 1] > 0);
    CHECK(plan_compute(&p, NULL, 16, 1e4, 10) == 0 && p.cap == half);
    CHECK(p.half == 8 && fabs(p.omega[7] / pow(1e4, -7.0 / 8) - 1) < 1e-12);
    CHECK(plan_matches(&p, NULL, 16, 1e4, 10));
    plan_free(&p);
    CHECK(p.cap == 0 && p.omega == NULL &&
          !plan_matches(&p, NULL, 16, 1e4, 10));
    plan_free(&p);       /* twice: harmless */
}

int main(void)
{
    test_unscaled();
    test_llama31();
    test_factors();
    test_refusals();
    test_storage();
    TEST_END("test_plan");
}
