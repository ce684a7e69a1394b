/* SPDX-License-Identifier: ISC */
/*
 * rope_impl.h - inside libpeviz: RoPE scaling evaluated without the
 * validator, for callers that have checked what they evaluate (the
 * frequency check's models of known bugs, such as YaRN's betas given
 * swapped, which rope_check refuses as settings).
 */
#ifndef PEVIZ_ROPE_IMPL_H
#define PEVIZ_ROPE_IMPL_H

#include "peviz/rope.h"

/* omega[0..d/2-1] and rule (may be NULL) of sc at n; sc's method must
 * be known, d even >= 2, and every list the method reads d/2 long. */
void rope_eval(const rope_scaling *sc, int d, double base, int64_t n,
               double *omega, unsigned char *rule);

#endif
