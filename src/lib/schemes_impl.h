/* SPDX-License-Identifier: ISC */
/*
 * schemes_impl.h - inside libpeviz: the setup each distance scheme runs
 * from its build function (src/lib/schemes.c), reading the options into
 * the context (values out of range become the defaults).
 */
#ifndef PEVIZ_SCHEMES_IMPL_H
#define PEVIZ_SCHEMES_IMPL_H

#include "peviz/scores.h"

void t5_setup(struct score_ctx *s);         /* t5.c */
void kerple_setup(struct score_ctx *s);     /* kerple.c */
void sandwich_setup(struct score_ctx *s);   /* sandwich.c */
void xpos_setup(struct score_ctx *s);       /* xpos.c */

#endif
