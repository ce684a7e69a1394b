/* SPDX-License-Identifier: ISC */
/*
 * cpu.c - which vector kernels the processor takes (see cpu_impl.h).
 */
#include "cpu_impl.h"

#include <stdlib.h>
#include <string.h>

int pv_cpu_avx2(void)
{
    const char *v = getenv("PEVIZ_SIMD");
    if (v && strcmp(v, "sse2") == 0)
        return 0;
#if defined(__x86_64__) && defined(__GNUC__)
    return __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}
