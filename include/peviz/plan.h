/* SPDX-License-Identifier: ISC */
/*
 * peviz/plan.h - the frequency plan: every band of one setting, once.
 *
 * For one set of RoPE settings (base, rotary dimensions d, scaling,
 * sequence length n) the plan holds, per band i = 0 .. d/2-1:
 *   omega_base[i]  theta_i = base^(-2i/d), before scaling
 *   omega[i]       the frequency the model uses (peviz/rope.h)
 *   rule[i]        what the scaling did (enum rope_rule)
 *   wavelength[i]  2 pi / omega[i] in positions
 *   turns[i]       n / wavelength[i]: full turns within n
 * and for the whole setting the attention factor a (cos and sin are
 * multiplied by it), the score multiplier (a^2, times DeepSeek's
 * m(s, mscale_all_dim)^2 where that architecture applies it: see
 * rope_score_multiplier) and the critical band: the first band with less
 * than one turn in n, scaled and unscaled.
 *
 * The per-band arrays live in one block the plan owns, sized to the
 * bands it holds: a zeroed pe_plan is an empty one, plan_compute grows
 * the block when it needs more, plan_free gives it back.  Keep plans
 * in place (static storage or a struct that owns them); a copy would
 * share the block.  Everything that shows a band frequency reads one of
 * these.
 */
#ifndef PEVIZ_PLAN_H
#define PEVIZ_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "peviz/rope.h"

/* d <= 65536: at most 32768 bands. */
#define PE_PLAN_MAX_BANDS 32768

typedef struct pe_plan {
    /* the settings it was computed for */
    int d;                  /* rotary dimensions */
    int half;               /* d / 2 bands */
    double base;
    int64_t n;
    rope_scaling sc;
    int scaled;             /* a scaling method other than none is used */
    int invalid;            /* the scaling could not be evaluated: omega
                               is the unscaled theta (and scaled is 0) */
    double a;               /* attention factor */
    double extra;           /* DeepSeek's softmax factor (1: none) */
    double mult;            /* score multiplier: a^2 x extra */
    int crit;               /* first band with < 1 turn in n; half: none */
    int crit_base;          /* the same for the unscaled theta */
    int nturn, nturn_base;  /* bands with >= 1 turn in n */
    int cap;                /* bands the arrays below have room for */
    double *omega_base;     /* each [half] */
    double *omega;
    double *wavelength;
    double *turns;
    unsigned char *rule;
} pe_plan;

/*
 * Compute the plan for sc at d, base and n.  Returns 0, or -1 (plan
 * unchanged) when d is odd, < 2 or > 2 PE_PLAN_MAX_BANDS, base <= 1 or
 * n < 1, or when there is no memory for its bands.  Settings the scaling
 * cannot evaluate (rope_inv_freq) give the unscaled plan with invalid
 * set.  sc NULL: no scaling.
 */
int plan_compute(pe_plan *pl, const rope_scaling *sc, int d, double base,
                 int64_t n);

/* Give back the plan's arrays; it is then an empty plan again. */
void plan_free(pe_plan *pl);

/* Whether pl was computed for exactly these settings. */
int plan_matches(const pe_plan *pl, const rope_scaling *sc, int d,
                 double base, int64_t n);

/*
 * The rules as ranges of consecutive bands with the same rule:
 * "kept 0-28 · blend 29-34 · interp 35-63" (dash and sep as given, e.g.
 * "\u2013" and " \u00b7 ").  A range of one band is written "7".
 * Returns the number of ranges; buf gets "" when the plan is unscaled.
 */
int plan_rule_ranges(const pe_plan *pl, const char *dash, const char *sep,
                     char *buf, size_t len);

/*
 * omega_i in long double, for angles at far positions (p omega near 1.6e7
 * at 2^24, where a double omega's rounding alone is ~1e-9 of angle): the
 * unscaled theta_i = base^(-2i/d) in long double, times the scaling's
 * ratio omega_i / theta_i, taken as exactly 1 for a kept band and 1/s
 * for an interpolated one (linear, the far bands of YaRN and Llama 3),
 * else as the doubles give it (2^-52 relative).
 */
long double plan_omega_l(const pe_plan *pl, int i);

/* Full turns of band i in m positions: m omega_i / 2 pi. */
double plan_turns_in(const pe_plan *pl, int i, double m);

#endif /* PEVIZ_PLAN_H */
