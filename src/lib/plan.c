/* SPDX-License-Identifier: ISC */
/*
 * plan.c - the frequency plan (include/peviz/plan.h): the one place that
 * turns base, d, the scaling and n into every band's numbers.
 */
#include "peviz/plan.h"
#include "peviz/pe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peviz/pi.h"

/* The first band with less than one turn in n, and how many turn. */
static void critical(const double *omega, int half, int64_t n, int *crit,
                     int *nturn)
{
    *crit = half;
    *nturn = 0;
    for (int i = 0; i < half; i++) {
        if ((2 * PEVIZ_PI) / omega[i] <= (double)n)
            (*nturn)++;
        else if (*crit == half)
            *crit = i;
    }
}

/* Room for half bands: one block, the four double arrays then rule. */
static int reserve(pe_plan *pl, int half)
{
    size_t each = (size_t)half * sizeof(double);
    char *block;
    if (half <= pl->cap)
        return 0;
    block = malloc(4 * each + (size_t)half);
    if (!block)
        return -1;
    plan_free(pl);
    pl->cap = half;
    pl->omega_base = (double *)block;
    pl->omega = (double *)(block + each);
    pl->wavelength = (double *)(block + 2 * each);
    pl->turns = (double *)(block + 3 * each);
    pl->rule = (unsigned char *)(block + 4 * each);
    return 0;
}

void plan_free(pe_plan *pl)
{
    free(pl->omega_base);
    pl->cap = 0;
    pl->half = pl->d = 0;
    pl->omega_base = pl->omega = pl->wavelength = pl->turns = NULL;
    pl->rule = NULL;
}

int plan_compute(pe_plan *pl, const rope_scaling *sc, int d, double base,
                 int64_t n)
{
    rope_scaling none;
    if (d < 2 || d % 2 || d / 2 > PE_PLAN_MAX_BANDS || !(base > 1.0) ||
        !isfinite(base) || n < 1 || reserve(pl, d / 2))
        return -1;
    if (!sc) {
        rope_scaling_default(&none);
        sc = &none;
    }
    pl->d = d;
    pl->half = d / 2;
    pl->base = base;
    pl->n = n;
    memcpy(&pl->sc, sc, sizeof *sc);
    for (int i = 0; i < pl->half; i++)
        pl->omega_base[i] = pe_omega(i, d, base);
    pl->invalid = rope_inv_freq(sc, d, base, n, pl->omega, pl->rule) != 0;
    pl->scaled = !pl->invalid && sc->method != ROPE_NONE;
    if (pl->invalid) {
        memcpy(pl->omega, pl->omega_base, (size_t)pl->half * sizeof *pl->omega);
        memset(pl->rule, ROPE_KEPT, (size_t)pl->half);
    }
    pl->a = pl->scaled ? rope_attention_factor(sc) : 1.0;
    pl->mult = pl->scaled ? rope_score_multiplier(sc) : 1.0;
    pl->extra = pl->mult / (pl->a * pl->a);
    for (int i = 0; i < pl->half; i++) {
        pl->wavelength[i] = (2 * PEVIZ_PI) / pl->omega[i];
        pl->turns[i] = (double)n * pl->omega[i] / (2 * PEVIZ_PI);  /* finite
                                           even where the wavelength is not */
    }
    critical(pl->omega, pl->half, n, &pl->crit, &pl->nturn);
    critical(pl->omega_base, pl->half, n, &pl->crit_base, &pl->nturn_base);
    return 0;
}

int plan_matches(const pe_plan *pl, const rope_scaling *sc, int d,
                 double base, int64_t n)
{
    rope_scaling none;
    if (!sc) {
        rope_scaling_default(&none);
        sc = &none;
    }
    return pl->d == d && pl->base == base && pl->n == n &&
           memcmp(&pl->sc, sc, sizeof *sc) == 0;   /* every byte: a
                                   setting added later is never missed */
}

int plan_rule_ranges(const pe_plan *pl, const char *dash, const char *sep,
                     char *buf, size_t len)
{
    size_t used = 0;
    int count = 0;
    if (len)
        buf[0] = 0;
    if (!pl->scaled)
        return 0;
    for (int i = 0; i < pl->half;) {
        int j = i;
        while (j + 1 < pl->half && pl->rule[j + 1] == pl->rule[i])
            j++;
        char r[24];
        if (j > i)
            snprintf(r, sizeof r, "%d%s%d", i, dash, j);
        else
            snprintf(r, sizeof r, "%d", i);
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s %s",
                                     count ? sep : "",
                                     rope_rule_abbrev(pl->rule[i]), r);
        count++;
        i = j + 1;
    }
    return count;
}

long double plan_omega_l(const pe_plan *pl, int i)
{
    long double th = powl((long double)pl->base,
                          -2.0L * (long double)i / (long double)pl->d);
    long double r = (long double)pl->omega[i] / (long double)pl->omega_base[i];
    long double s = pl->scaled && pl->sc.factor > 0 ? 1.0L / pl->sc.factor : 1.0L;
    if (fabsl(r - 1.0L) < 1e-13L)
        r = 1.0L;
    else if (fabsl(r / s - 1.0L) < 1e-13L)
        r = s;
    return th * r;
}

double plan_turns_in(const pe_plan *pl, int i, double m)
{
    return m * pl->omega[i] / (2 * PEVIZ_PI);
}
