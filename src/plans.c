/* SPDX-License-Identifier: ISC */
/*
 * plans.c - the kept frequency plans (plans.h).
 */
#include "plans.h"

static pe_plan slots[PLANS_KEPT];
static long used_at[PLANS_KEPT];    /* 0: empty; else the last request */
static long clock_, computed;

const pe_plan *plans_get(const rope_scaling *sc, int d, double base,
                         int64_t n)
{
    int victim = 0;
    clock_++;
    for (int i = 0; i < PLANS_KEPT; i++) {
        if (used_at[i] && plan_matches(&slots[i], sc, d, base, n)) {
            used_at[i] = clock_;
            return &slots[i];
        }
        if (used_at[i] < used_at[victim])
            victim = i;
    }
    if (plan_compute(&slots[victim], sc, d, base, n)) {
        /* settings no view can show: the default sinusoid stands in */
        plan_compute(&slots[victim], NULL, PARAM_D_DEFAULT,
                     PARAM_BASE_DEFAULT, PARAM_N_DEFAULT);
        used_at[victim] = 0;
        return &slots[victim];
    }
    computed++;
    used_at[victim] = clock_;
    return &slots[victim];
}

const pe_plan *plans_of(const params *p)
{
    return plans_get(&p->rope, p->d, p->base, p->n);
}

const pe_plan *plans_unscaled(const params *p)
{
    return plans_get(NULL, p->d, p->base, p->n);
}

long plans_computed(void)
{
    return computed;
}
