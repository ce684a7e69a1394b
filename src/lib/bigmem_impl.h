/* SPDX-License-Identifier: ISC */
/*
 * bigmem_impl.h - inside libpeviz: buffers of 192 KB or more in huge
 * pages where the system gives them on request.  Touched first as 4 KB
 * pages such a buffer costs dozens to thousands of page faults, each
 * dear on a virtual machine (some 25 us each on the reference machine).
 */
#ifndef PEVIZ_BIGMEM_IMPL_H
#define PEVIZ_BIGMEM_IMPL_H

#include <stddef.h>

/* Like malloc (free it with free); NULL when out of memory. */
void *pv_big_alloc(size_t bytes);

#endif
