/* SPDX-License-Identifier: ISC */
/*
 * plans.h - the frequency plans (peviz/plan.h) of the settings on screen,
 * each computed once: a plan is recomputed only when the settings it is
 * asked for differ from every one kept.  Views, headers, legends, the
 * inspector, the tour and the exports read their band numbers here.
 */
#ifndef PEVIZ_PLANS_H
#define PEVIZ_PLANS_H

#include <stdint.h>

#include "params.h"
#include "peviz/plan.h"

/* The plan of sc (NULL: no scaling) at d, base and n.  The pointer
 * stays valid until PLANS_KEPT other settings have been asked for. */
const pe_plan *plans_get(const rope_scaling *sc, int d, double base,
                         int64_t n);

/* The plan of the parameters (d, base, n and their scaling). */
const pe_plan *plans_of(const params *p);

/* The plan of the parameters with no scaling: the sinusoid's bands. */
const pe_plan *plans_unscaled(const params *p);

/* How many plans are computed so far (for the tests: once per change). */
long plans_computed(void);

#define PLANS_KEPT 6

#endif
