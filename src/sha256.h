/* SPDX-License-Identifier: ISC */
/*
 * sha256.h - SHA-256 (FIPS 180-4), for the content hash by which a
 * follower checks that its copy of a teacher's file is the same.
 */
#ifndef PEVIZ_SHA256_H
#define PEVIZ_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
    uint32_t h[8];
    uint64_t bytes;             /* message length so far */
    unsigned char block[64];
    size_t used;                /* bytes waiting in block */
};

void sha256_init(struct sha256 *s);
void sha256_add(struct sha256 *s, const void *data, size_t len);
/* The digest as 64 lowercase hex digits and a NUL, into hex. */
void sha256_hex(struct sha256 *s, char hex[65]);

#endif
