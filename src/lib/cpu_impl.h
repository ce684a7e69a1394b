/* SPDX-License-Identifier: ISC */
/*
 * cpu_impl.h - inside libpeviz: which vector kernels the processor
 * takes.
 */
#ifndef PEVIZ_CPU_IMPL_H
#define PEVIZ_CPU_IMPL_H

/* 1 when the four-lane (AVX2) kernels are to run: the processor has
 * AVX2 and the environment's PEVIZ_SIMD is not "sse2" (which keeps the
 * two-lane ones everywhere, to compare them or test them). */
int pv_cpu_avx2(void);

#endif
