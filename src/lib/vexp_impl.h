/* SPDX-License-Identifier: ISC */
/*
 * vexp_impl.h - inside libpeviz: exp over an array, two or four at a
 * time.
 */
#ifndef PEVIZ_VEXP_IMPL_H
#define PEVIZ_VEXP_IMPL_H

#include <stddef.h>

/* e[i] = exp(e[i] - shift) for i < n, within a few units in the last
 * place of exp; 0 where the argument is under under (at most -708, past
 * which exp leaves the normal numbers; -746 and below it is 0 anyway). */
void pv_exp_shift(double *e, size_t n, double shift, double under);

#endif
