/* SPDX-License-Identifier: ISC */
/*
 * write_floor.c - the write floor for the binary export: write BYTES
 * bytes to standard output from one buffer that is already filled, in
 * chunks of CHUNK bytes (default 1 MiB, what the export hands to stdio
 * per block at d 4096, f32).  The export cannot be faster than this to
 * the same destination; make bench prints the export time over this time.
 *
 * Usage: write_floor BYTES [CHUNK]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    long long left = argc > 1 ? atoll(argv[1]) : 0;
    size_t chunk = argc > 2 ? (size_t)atoll(argv[2]) : (size_t)1 << 20;
    char *buf;

    if (left < 0 || chunk == 0 || !(buf = malloc(chunk))) {
        fprintf(stderr, "usage: write_floor BYTES [CHUNK]\n");
        return 2;
    }
    memset(buf, 0x3f, chunk);       /* touched: no page faults while timed */
    while (left > 0) {
        size_t n = (size_t)left < chunk ? (size_t)left : chunk;
        ssize_t w = write(STDOUT_FILENO, buf, n);
        if (w <= 0) {
            perror("write_floor");
            free(buf);
            return 1;
        }
        left -= w;
    }
    free(buf);
    return 0;
}
