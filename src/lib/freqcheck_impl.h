/* SPDX-License-Identifier: ISC */
/*
 * freqcheck_impl.h - inside libpeviz: the variant search of the
 * frequency check (freqsearch.c), which freqcheck.c calls once the file
 * differs from the settings.
 */
#ifndef PEVIZ_FREQCHECK_IMPL_H
#define PEVIZ_FREQCHECK_IMPL_H

#include "peviz/freqcheck.h"

/* The file's values as one shape reads them. */
struct freq_found {
    int n;
    double v[FREQ_FILE_MAX];
    double tolv[FREQ_FILE_MAX];
    double atol;                /* the absolute floor (f16 subnormals) */
    int f32, bf16;              /* every value a float32 / bf16 number */
    enum freq_shape shape;
};

/* Whether got is within found's tolerance of want at band i, with the
 * relative floor rel_floor. */
int freq_within(const struct freq_found *ff, int i, double want, double got,
                double rel_floor);

/* x rounded to bf16 (to nearest, ties to even). */
double freq_round_bf16(double x);

/* Search the combinations against the nff readings; fills out->match,
 * out->nmatch, out->variant, out->f32_only (and out->shape, out->nfound
 * of the reading the first match fits).  Returns out->nmatch. */
int freq_search(const struct freq_setup *s, const struct freq_found *ff,
                int nff, struct freq_check *out);

#endif
