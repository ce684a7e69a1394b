/* SPDX-License-Identifier: ISC */
/*
 * bigmem.c - large buffers in huge pages where the system has them
 * (see bigmem_impl.h).
 */
#define _DEFAULT_SOURCE         /* madvise, posix_memalign */
#include "bigmem_impl.h"

#include <stdlib.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)
#define BIG_MIN ((size_t)192 << 10)

void *pv_big_alloc(size_t bytes)
{
#ifdef MADV_HUGEPAGE
    /* whole huge pages: a buffer under 2 MB takes one */
    size_t len = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    void *p;
    if (bytes >= BIG_MIN && len >= bytes
        && posix_memalign(&p, HUGE_PAGE, len) == 0) {
        madvise(p, len, MADV_HUGEPAGE);     /* a hint: failing is fine */
        return p;
    }
#endif
    return malloc(bytes);
}
