/*
 * text.c - small text helpers (see text.h).
 */
#include <stdio.h>

#include "text.h"

const char *words_join(const char *const *words, int n, char *buf,
                       size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = 0;
    for (int i = 0; i < n && used < len; i++) {
        const char *sep = i == 0 ? "" : i == n - 1 ? " or " : ", ";
        int w = snprintf(buf + used, len - used, "%s%s", sep, words[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return buf;
}
