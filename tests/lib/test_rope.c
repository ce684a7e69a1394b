/* SPDX-License-Identifier: ISC */
/*
 * test_rope.c - the RoPE scaling methods against the formulas written out
 * again here, and the worked values of real models' settings (NTK base,
 * Llama 3.1 band split, YaRN bounds for Qwen2.5, Llama-2-YaRN, DeepSeek-V3,
 * gpt-oss, LongRoPE for Phi-3, dynamic NTK below and above L).
 */
#include "peviz/rope.h"
#include "peviz/scores.h"
#include "harness.h"
#include "rope_ref.h"

#include <stdint.h>


/* ---- plain references --------------------------------------------------- */

static double ref_mscale(double s, double m)
{
    if (s <= 1)
        return 1;
    return 0.1 * m * log(s) + 1;
}

static rope_scaling make(enum rope_method m, double s, int64_t L)
{
    rope_scaling sc;
    rope_scaling_default(&sc);
    sc.method = m;
    sc.factor = s;
    sc.original_max = L;
    return sc;
}

/* Max relative error of the library's omegas against a reference. */
static double rel_err(const double *got, const double *want, int half)
{
    double e = 0;
    for (int i = 0; i < half; i++) {
        double r = fabs(got[i] - want[i]) / fabs(want[i]);
        if (r > e)
            e = r;
    }
    return e;
}

/* ---- methods ------------------------------------------------------------ */

static void test_none_linear(void)
{
    double got[64], want[64];
    rope_scaling sc = make(ROPE_NONE, 1, 0);
    CHECK(rope_inv_freq(&sc, 128, 1e4, 100, got, NULL) == 0);
    for (int i = 0; i < 64; i++)
        want[i] = ref_theta(i, 128, 1e4);
    CHECK(rel_err(got, want, 64) < 1e-12);
    sc = make(ROPE_LINEAR, 8, 0);
    unsigned char rule[64];
    CHECK(rope_inv_freq(&sc, 128, 1e6, 100, got, rule) == 0);
    for (int i = 0; i < 64; i++)
        want[i] = ref_theta(i, 128, 1e6) / 8;
    CHECK(rel_err(got, want, 64) < 1e-12);
    CHECK(rule[0] == ROPE_INTERPOLATED && rule[63] == ROPE_INTERPOLATED);
    CHECK_NEAR(rope_attention_factor(&sc), 1.0, 0);
    CHECK_NEAR(rope_score_multiplier(&sc), 1.0, 0);
}

static void test_ntk(void)
{
    /* ROPE.md: d=128, base 1e4: s=2 -> 20221.26, 4 -> 40889.94, 8 -> 82684.62 */
    static const double s[] = { 2, 4, 8 }, want_b[] = { 20221.26, 40889.94, 82684.62 };
    for (int k = 0; k < 3; k++) {
        rope_scaling sc = make(ROPE_NTK, s[k], 0);
        double b = rope_effective_base(&sc, 128, 1e4, 1);
        CHECK_NEAR(b, want_b[k], 0.006);
        CHECK_NEAR(b, 1e4 * pow(s[k], 128.0 / 126.0), 1e-9 * b);
        double got[64], want[64];
        CHECK(rope_inv_freq(&sc, 128, 1e4, 1, got, NULL) == 0);
        for (int i = 0; i < 64; i++)
            want[i] = ref_theta(i, 128, 1e4 * pow(s[k], 128.0 / 126.0));
        CHECK(rel_err(got, want, 64) < 1e-12);
    }
}

static void test_dynamic(void)
{
    rope_scaling sc = make(ROPE_DYNAMIC, 2, 4096);
    /* below and at L: the original base */
    CHECK_NEAR(rope_effective_base(&sc, 128, 1e4, 1000), 1e4, 1e-9);
    CHECK_NEAR(rope_effective_base(&sc, 128, 1e4, 4096), 1e4, 1e-9);
    /* above: ROPE.md 8192 -> 30527.74, 16384 -> 72195.86 */
    CHECK_NEAR(rope_effective_base(&sc, 128, 1e4, 8192), 30527.74, 0.006);
    CHECK_NEAR(rope_effective_base(&sc, 128, 1e4, 16384), 72195.86, 0.006);
    double got[64], want[64];
    CHECK(rope_inv_freq(&sc, 128, 1e4, 10000, got, NULL) == 0);
    double b = 1e4 * pow(2.0 * 10000 / 4096 - 1, 128.0 / 126.0);
    for (int i = 0; i < 64; i++)
        want[i] = ref_theta(i, 128, b);
    CHECK(rel_err(got, want, 64) < 1e-12);
    unsigned char rule[64];
    CHECK(rope_inv_freq(&sc, 128, 1e4, 100, got, rule) == 0);
    for (int i = 0; i < 64; i++)
        want[i] = ref_theta(i, 128, 1e4);
    CHECK(rel_err(got, want, 64) < 1e-12);
    /* below L the base is the model's own: every band kept, none rebased */
    CHECK(rule[1] == ROPE_KEPT && rule[63] == ROPE_KEPT);
    CHECK(rope_inv_freq(&sc, 128, 1e4, 4097, got, rule) == 0);
    CHECK(rule[0] == ROPE_KEPT && rule[1] == ROPE_REBASED &&
          rule[63] == ROPE_REBASED);
}

static void test_llama3(void)
{
    rope_scaling sc = make(ROPE_LLAMA3, 8, 8192);
    sc.low_freq_factor = 1;
    sc.high_freq_factor = 4;
    double got[64];
    unsigned char rule[64];
    CHECK(rope_inv_freq(&sc, 128, 5e5, 131072, got, rule) == 0);
    int split_ok = 1;
    for (int i = 0; i < 64; i++) {
        int want = i <= 28 ? ROPE_KEPT : i <= 34 ? ROPE_BLENDED : ROPE_INTERPOLATED;
        split_ok &= rule[i] == want;
        CHECK_NEAR(got[i], ref_llama3(i, 128, 5e5, 8, 8192, 1, 4), 1e-12 * got[i]);
    }
    CHECK(split_ok);
    CHECK_NEAR(ref_theta(29, 128, 5e5), 2.6160992529e-03, 1e-12);
    CHECK_NEAR(got[29], 2.1665707635e-03, 1e-12);
    CHECK_NEAR(got[63], 3.0689259889e-07, 1e-16);
    CHECK_NEAR(2 * REF_PI / ref_theta(28, 128, 5e5), 1956.5, 0.1);
    CHECK_NEAR(2 * REF_PI / ref_theta(35, 128, 5e5), 8218.7, 0.1);
    /* Llama 3.2 1B: 15 kept, 3 blended, 14 interpolated */
    sc.factor = 32;
    CHECK(rope_inv_freq(&sc, 64, 5e5, 1, got, rule) == 0);
    int count[ROPE_RULE_COUNT] = { 0 };
    for (int i = 0; i < 32; i++)
        count[rule[i]]++;
    CHECK(count[ROPE_KEPT] == 15 && count[ROPE_BLENDED] == 3 &&
          count[ROPE_INTERPOLATED] == 14);
    CHECK_NEAR(rope_score_multiplier(&sc), 1.0, 0);
    /* Llama 4 Scout: factor 16, low = high = 1, L 8192 (transformers only
     * warns): bands faster than L kept, the others divided by 16, none
     * blended */
    sc.factor = 16;
    sc.high_freq_factor = 1;
    CHECK(rope_inv_freq(&sc, 128, 5e5, 1, got, rule) == 0);
    int scout_ok = 1, kept = 0;
    for (int i = 0; i < 64; i++) {
        double t = ref_theta(i, 128, 5e5), want = 2 * REF_PI / t < 8192 ? t : t / 16;
        scout_ok &= fabs(got[i] - want) <= 1e-15 * want &&
                    rule[i] == (want == t ? ROPE_KEPT : ROPE_INTERPOLATED);
        kept += want == t;
    }
    CHECK(scout_ok);
    CHECK(kept == 35);      /* the critical band for 8192 is 35 (ROPE.md) */
    sc.high_freq_factor = 0.5;      /* low > high stays refused */
    CHECK(rope_inv_freq(&sc, 128, 5e5, 1, got, rule) == -1);
}

/*
 * A band whose wavelength is exactly L/low or L/high (in doubles): d 4,
 * base 16 make theta_1 = 1/4 and w_1 = 8 pi exactly; L is searched for
 * one whose L / (L / w) gives w back.  With low = high (Llama 4 Scout's
 * kind) the band is kept (k's limit from the fast side), never 0/0; with
 * low < high, w = L/low is the blend's end (k = 0: theta/s) and w = L/high
 * its start (k = 1: theta).  Every value finite.
 */
static void test_llama3_boundary(void)
{
    double w = 2 * REF_PI / 0.25, got[2], f = 0, L = 0;
    unsigned char rule[2];
    CHECK(pow(16, -2.0 / 4) == 0.25);
    for (int l = 1000; l < 200000 && !f; l++)
        if ((double)l / ((double)l / w) == w) {
            L = l;
            f = L / w;
        }
    CHECK(f > 0);
    rope_scaling sc = make(ROPE_LLAMA3, 8, (int64_t)L);
    sc.low_freq_factor = sc.high_freq_factor = f;
    CHECK(rope_inv_freq(&sc, 4, 16, 1, got, rule) == 0);
    CHECK(isfinite(got[1]) && got[1] == 0.25 && rule[1] == ROPE_KEPT);
    CHECK(got[0] == 1 && rule[0] == ROPE_KEPT);     /* w = 2 pi < L/high */
    CHECK(rope_omega(&sc, 4, 16, 1, 1, NULL) == 0.25);
    sc.high_freq_factor = 2 * f;                    /* w = L/low: k = 0 */
    CHECK(rope_inv_freq(&sc, 4, 16, 1, got, rule) == 0);
    CHECK(isfinite(got[1]) && fabs(got[1] - 0.25 / 8) <= 1e-17);
    sc.low_freq_factor = f / 2;                     /* w = L/high: k = 1 */
    sc.high_freq_factor = f;
    CHECK(rope_inv_freq(&sc, 4, 16, 1, got, rule) == 0);
    CHECK(isfinite(got[1]) && fabs(got[1] - 0.25) <= 1e-16);
}

static void check_yarn_all(const rope_scaling *sc, int d, double base)
{
    double got[256];
    CHECK(rope_inv_freq(sc, d, base, 1, got, NULL) == 0);
    double e = 0;
    for (int i = 0; i < d / 2; i++) {
        double w = ref_yarn(i, d, base, sc->factor, (double)sc->original_max,
                            sc->beta_fast, sc->beta_slow, sc->truncate);
        double r = fabs(got[i] - w) / w;
        e = r > e ? r : e;
    }
    CHECK(e < 1e-12);
}

static void test_yarn(void)
{
    double lo, hi;
    /* Qwen2.5: d=128, base 1e6, s=4, L=32768 */
    rope_scaling sc = make(ROPE_YARN, 4, 32768);
    CHECK_NEAR(rope_yarn_corr_dim(32, 128, 1e6, 32768), 23.5959, 1e-4);
    CHECK_NEAR(rope_yarn_corr_dim(1, 128, 1e6, 32768), 39.6509, 1e-4);
    rope_yarn_bounds(&sc, 128, 1e6, &lo, &hi);
    CHECK(lo == 23 && hi == 40);
    CHECK_NEAR(rope_attention_factor(&sc), 1.1386294, 1e-7);
    CHECK_NEAR(rope_attention_factor(&sc), 0.1 * log(4) + 1, 1e-15);
    CHECK_NEAR(rope_score_multiplier(&sc), 1.2964770, 1e-7);
    double got[64];
    unsigned char rule[64];
    CHECK(rope_inv_freq(&sc, 128, 1e6, 1, got, rule) == 0);
    CHECK_NEAR(got[31], 8.0295972755e-04, 1e-14);
    CHECK(rule[23] == ROPE_KEPT && rule[24] == ROPE_BLENDED &&
          rule[39] == ROPE_BLENDED && rule[40] == ROPE_INTERPOLATED);
    check_yarn_all(&sc, 128, 1e6);
    int r1;
    CHECK(rope_omega(&sc, 128, 1e6, 1, 31, &r1) == got[31] && r1 == ROPE_BLENDED);
    CHECK(isnan(rope_omega(&sc, 128, 1e6, 1, 64, NULL)));
    /* untruncated */
    sc.truncate = 0;
    rope_yarn_bounds(&sc, 128, 1e6, &lo, &hi);
    CHECK_NEAR(lo, 23.5959, 1e-4);
    CHECK_NEAR(hi, 39.6509, 1e-4);
    check_yarn_all(&sc, 128, 1e6);

    /* Llama-2-YaRN-64k: d=128, base 1e4, s=16, L=4096 */
    sc = make(ROPE_YARN, 16, 4096);
    rope_yarn_bounds(&sc, 128, 1e4, &lo, &hi);
    CHECK(lo == 20 && hi == 46);
    CHECK_NEAR(rope_attention_factor(&sc), 1.2772589, 1e-7);
    check_yarn_all(&sc, 128, 1e4);

    /* DeepSeek-V3: d=64, base 1e4, s=40, L=4096, mscale 1/1 */
    sc = make(ROPE_YARN, 40, 4096);
    sc.mscale = sc.mscale_all_dim = 1;
    rope_yarn_bounds(&sc, 64, 1e4, &lo, &hi);
    CHECK(lo == 10 && hi == 23);
    CHECK_NEAR(rope_attention_factor(&sc), 1.0, 1e-15);
    CHECK_NEAR(rope_score_multiplier(&sc), 1.87385, 1e-5);
    CHECK_NEAR(rope_score_multiplier(&sc), pow(ref_mscale(40, 1), 2), 1e-12);
    check_yarn_all(&sc, 64, 1e4);
    /* DeepSeek-V2: mscale 0.707 both -> x1.58963 */
    sc.mscale = sc.mscale_all_dim = 0.707;
    CHECK_NEAR(rope_score_multiplier(&sc), 1.58963, 1e-5);
    /* mscale alone is ignored (HF needs both) */
    sc.mscale_all_dim = 0;
    CHECK_NEAR(rope_attention_factor(&sc), ref_mscale(40, 1), 1e-15);
    /* an explicit attention factor wins */
    sc.attention_factor = 0.75;
    CHECK_NEAR(rope_attention_factor(&sc), 0.75, 0);
    CHECK_NEAR(rope_score_multiplier(&sc), 0.5625, 1e-15);
    /* s <= 1: m(s) = 1 */
    CHECK_NEAR(rope_get_mscale(1, 1), 1.0, 0);
    CHECK_NEAR(rope_get_mscale(0.5, 1), 1.0, 0);

    /* gpt-oss: d=64, base 150000, s=32, L=4096, no truncation */
    sc = make(ROPE_YARN, 32, 4096);
    sc.truncate = 0;
    rope_yarn_bounds(&sc, 64, 150000, &lo, &hi);
    CHECK_NEAR(lo, 8.092779, 1e-6);
    CHECK_NEAR(hi, 17.398025, 1e-6);
    CHECK_NEAR(rope_attention_factor(&sc), 1.346574, 1e-6);
    check_yarn_all(&sc, 64, 150000);

    /* clamps: a tiny L puts both bounds below 0, lo == hi gets +0.001 */
    sc = make(ROPE_YARN, 4, 6);
    rope_yarn_bounds(&sc, 64, 1e4, &lo, &hi);
    CHECK(lo == 0);
    CHECK_NEAR(hi, 0.001, 1e-15);
    check_yarn_all(&sc, 64, 1e4);
    /* a huge L: hi clamps to d - 1, not d/2 - 1 */
    sc = make(ROPE_YARN, 4, 1000000000000LL);
    rope_yarn_bounds(&sc, 16, 10, &lo, &hi);
    CHECK(hi == 15);
}

static void test_longrope(void)
{
    rope_scaling sc = make(ROPE_LONGROPE, 32, 4096);
    sc.nshort = sc.nlong = 48;
    for (int i = 0; i < 48; i++) {
        sc.short_factor[i] = 1.0 + 0.01 * i;
        sc.long_factor[i] = 1.0 + 0.5 * i;
    }
    /* Phi-3-mini-128k: sqrt(1 + ln 32 / ln 4096) */
    CHECK_NEAR(rope_attention_factor(&sc), 1.190238, 1e-6);
    CHECK_NEAR(rope_attention_factor(&sc), sqrt(1 + log(32) / log(4096)), 1e-15);
    double got[48], want[48];
    CHECK(rope_inv_freq(&sc, 96, 1e4, 4096, got, NULL) == 0);
    for (int i = 0; i < 48; i++)
        want[i] = 1 / (sc.short_factor[i] * pow(1e4, 2.0 * i / 96));
    CHECK(rel_err(got, want, 48) < 1e-12);
    CHECK(rope_inv_freq(&sc, 96, 1e4, 4097, got, NULL) == 0);
    for (int i = 0; i < 48; i++)
        want[i] = 1 / (sc.long_factor[i] * pow(1e4, 2.0 * i / 96));
    CHECK(rel_err(got, want, 48) < 1e-12);
    sc.attention_factor = 1.5;
    CHECK_NEAR(rope_attention_factor(&sc), 1.5, 0);
    sc.attention_factor = 0;
    sc.factor = 1;
    CHECK_NEAR(rope_attention_factor(&sc), 1.0, 0);
    /* rules: f = 1 kept, f = s interpolated, between blended, else rescaled */
    unsigned char rule[48];
    sc.factor = 8;
    sc.short_factor[0] = 1;
    sc.short_factor[1] = 8;
    sc.short_factor[2] = 3;
    sc.short_factor[3] = 9;
    sc.short_factor[4] = 0.5;
    CHECK(rope_inv_freq(&sc, 96, 1e4, 10, got, rule) == 0);
    CHECK(rule[0] == ROPE_KEPT && rule[1] == ROPE_INTERPOLATED &&
          rule[2] == ROPE_BLENDED && rule[3] == ROPE_RESCALED &&
          rule[4] == ROPE_RESCALED);
    /* a list of the wrong length cannot be evaluated */
    sc.nlong = 47;
    CHECK(rope_inv_freq(&sc, 96, 1e4, 4097, got, NULL) == -1);
}

static void test_refusals(void)
{
    double w[64];
    rope_scaling sc = make(ROPE_YARN, 4, 0);
    CHECK(rope_inv_freq(&sc, 128, 1e4, 1, w, NULL) == -1);   /* no L */
    sc = make(ROPE_LINEAR, 0, 0);
    CHECK(rope_inv_freq(&sc, 128, 1e4, 1, w, NULL) == -1);   /* factor 0 */
    sc = make(ROPE_NTK, 2, 0);
    CHECK(rope_inv_freq(&sc, 2, 1e4, 1, w, NULL) == -1);     /* d/(d-2) */
    CHECK(rope_inv_freq(&sc, 7, 1e4, 1, w, NULL) == -1);
    sc = make(ROPE_LLAMA3, 8, 8192);
    sc.low_freq_factor = 4;
    sc.high_freq_factor = 1;
    CHECK(rope_inv_freq(&sc, 128, 1e4, 1, w, NULL) == -1);
}

/*
 * One rule for YaRN's betas, transformers' (it warns when beta_fast <
 * beta_slow): beta_fast >= beta_slow > 0.  The evaluation and the
 * program's check once disagreed: rope_inv_freq computed an inverted
 * ramp for betas 1/32 that the command line refused.  Now whatever
 * rope_check refuses is not evaluated, and its message is the one the
 * program prints.
 */
static void test_yarn_beta_rule(void)
{
    double w[64], lo, hi;
    char err[160];
    rope_scaling sc = make(ROPE_YARN, 4, 32768);
    sc.beta_fast = 1;
    sc.beta_slow = 32;
    CHECK(rope_inv_freq(&sc, 128, 1e6, 1, w, NULL) == -1);
    CHECK(isnan(rope_omega(&sc, 128, 1e6, 1, 31, NULL)));
    CHECK(rope_check(&sc, 128, 1e6, err, sizeof err) == -1);
    CHECK_STR(err, "beta-fast 1: want a number at least beta-slow 32");
    sc.beta_fast = 32;      /* equal betas: allowed, the ramp is a step */
    CHECK(rope_check(&sc, 128, 1e6, err, sizeof err) == 0);
    CHECK(rope_inv_freq(&sc, 128, 1e6, 1, w, NULL) == 0);
    rope_yarn_bounds(&sc, 128, 1e6, &lo, &hi);
    CHECK(lo == 23 && hi == 24);    /* floor and ceil of 23.5959 */
    sc.beta_slow = 0;
    CHECK(rope_check(&sc, 128, 1e6, err, sizeof err) == -1);
    CHECK_STR(err, "beta-slow 0: want a finite number > 0");
    /* the other methods' rules, with their messages */
    sc = make(ROPE_LLAMA3, 8, 8192);
    sc.low_freq_factor = 4;
    sc.high_freq_factor = 1;
    CHECK(rope_check(&sc, 128, 5e5, err, sizeof err) == -1);
    CHECK_STR(err, "low-freq-factor 4: want a number at most "
              "high-freq-factor 1");
    sc = make(ROPE_DYNAMIC, 0.5, 4096);
    CHECK(rope_check(&sc, 128, 1e4, err, sizeof err) == -1);
    CHECK_STR(err, "factor 0.5: want a number >= 1 with rope-scaling dynamic");
    CHECK(rope_inv_freq(&sc, 128, 1e4, 1, w, NULL) == -1);
    sc = make(ROPE_NTK, 2, 0);
    CHECK(rope_check(&sc, 2, 1e4, err, sizeof err) == -1);
    CHECK_STR(err, "rope-scaling ntk: d 2; want d >= 4 (it uses d/(d-2))");
    sc = make(ROPE_YARN, 4, 0);
    CHECK(rope_check(&sc, 128, 1e4, NULL, 0) == -1);    /* err may be NULL */
}

static void test_tables(void)
{
    for (int m = 0; m < rope_method_count(); m++) {
        const struct rope_method_info *mi = rope_method_info(m);
        CHECK(m > ROPE_LONGROPE || mi->method == (enum rope_method)m);
        CHECK(rope_method_parse(mi->name) == m);
        int ascii = 1;
        for (const char *c = mi->formula_ascii; *c; c++)
            ascii &= (unsigned char)*c < 0x80;
        CHECK(ascii);
    }
    CHECK(rope_method_parse("default") == ROPE_NONE);
    CHECK(rope_method_parse("su") == ROPE_LONGROPE);
    CHECK(rope_method_parse("YARN") == -1);
    char list[160];
    CHECK(strncmp(rope_method_names(list, sizeof list, " or "),
                  "none, linear, ntk, dynamic, yarn, llama3", 40) == 0);
    CHECK(strcmp(strrchr(list, ' ') + 1,
                 rope_method_name((enum rope_method)(rope_method_count() - 1)))
          == 0 && strstr(list, " or ") != NULL);
    CHECK_STR(rope_method_names(list, 12, " or "), "none, linea");
    CHECK(rope_method_info(-1) == NULL
          && rope_method_info(rope_method_count()) == NULL);
    CHECK_STR(rope_method_name((enum rope_method)rope_method_count()), "?");
    /* short rule names: at most 7 characters, each the start of its
     * full name, all different */
    static const char *const full[] = { "kept", "blended", "interpolated",
                                        "rebased", "rescaled", "still" };
    static const char *const abbr[] = { "kept", "blend", "interp", "rebase",
                                        "rescale", "still" };
    for (int r = 0; r < ROPE_RULE_COUNT; r++) {
        CHECK_STR(rope_rule_name((enum rope_rule)r), full[r]);
        CHECK_STR(rope_rule_abbrev((enum rope_rule)r), abbr[r]);
    }
    CHECK_STR(rope_rule_abbrev(ROPE_RULE_COUNT), "?");
    static const char *const names[] = {
        "llama2-7b", "llama3-8b", "llama3.1-8b", "llama3.2-1b",
        "mistral-7b-v0.1", "mistral-7b-v0.2", "qwen2.5-7b", "qwen2.5-7b-yarn",
        "gemma3-global", "gemma3-local", "gpt-oss-20b", "gpt-neox-20b",
        "deepseek-v3"
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        CHECK(rope_preset_find(names[k]) != NULL);
    CHECK(rope_preset_find("gpt-5") == NULL);
    /* presets as ROPE.md gives them */
    rope_scaling sc;
    const struct rope_preset *p = rope_preset_find("deepseek-v3");
    rope_preset_scaling(p, &sc);
    CHECK(p->d == 64 && p->base == 1e4 && sc.method == ROPE_YARN &&
          sc.factor == 40 && sc.original_max == 4096 && sc.truncate &&
          sc.mscale == 1 && sc.mscale_all_dim == 1);
    CHECK_NEAR(rope_score_multiplier(&sc), 1.87385, 1e-5);
    p = rope_preset_find("gpt-oss-20b");
    rope_preset_scaling(p, &sc);
    CHECK(p->d == 64 && p->base == 150000 && sc.factor == 32 && !sc.truncate &&
          sc.beta_fast == 32 && sc.beta_slow == 1 && sc.original_max == 4096);
    p = rope_preset_find("llama3.1-8b");
    rope_preset_scaling(p, &sc);
    CHECK(p->d == 128 && p->base == 5e5 && sc.method == ROPE_LLAMA3 &&
          sc.factor == 8 && sc.low_freq_factor == 1 &&
          sc.high_freq_factor == 4 && sc.original_max == 8192);
    p = rope_preset_find("gpt-neox-20b");
    CHECK(p->d == 24 && p->head_dim == 96);
    p = rope_preset_find("gemma3-global");
    rope_preset_scaling(p, &sc);
    CHECK(p->d == 256 && p->base == 1e6 && sc.method == ROPE_LINEAR && sc.factor == 8);
}

/* The RoPE scores with scaling: S(i, j) = a^2 sum_k 2 cos((i-j) omega_k)
 * for q = k = ones; other schemes are left alone. */
static void test_scores(void)
{
    struct score_opts o;
    scores_defaults(&o);
    o.scheme = SCHEME_ROPE;
    rope_scaling sc = make(ROPE_YARN, 16, 512);
    sc.mscale = sc.mscale_all_dim = 1;
    struct score_ctx *s = scores_new(32, 1e4, 64, &o, NULL);
    CHECK(s != NULL);
    if (!s)
        return;
    uint64_t before = s->freq_key;
    CHECK(scores_set_rope_scaling(s, &sc) == 0);
    CHECK(s->freq_key != before);
    double m = pow(0.1 * log(16) + 1, 2), worst = 0;
    for (int delta = -5; delta <= 40; delta += 5) {
        double want = 0;
        for (int k = 0; k < 16; k++)
            want += 2 * cos(delta * ref_yarn(k, 32, 1e4, 16, 512, 32, 1, 1));
        double e = fabs(scores_at(s, delta > 0 ? delta : 0,
                                  delta > 0 ? 0 : -delta) - m * want);
        worst = e > worst ? e : worst;
    }
    CHECK(worst < 1e-9);
    scores_free(s);
    o.scheme = SCHEME_SINUSOIDAL;
    s = scores_new(32, 1e4, 64, &o, NULL);
    if (!s)
        return;
    before = s->freq_key;
    CHECK(scores_set_rope_scaling(s, &sc) == 0 && s->freq_key == before);
    CHECK_NEAR(scores_at(s, 3, 0), scores_at(s, 0, 3), 1e-12);
    scores_free(s);
}

int main(void)
{
    test_scores();
    test_none_linear();
    test_ntk();
    test_dynamic();
    test_llama3();
    test_llama3_boundary();
    test_yarn();
    test_longrope();
    test_refusals();
    test_yarn_beta_rule();
    test_tables();
    TEST_END("test_rope");
}
