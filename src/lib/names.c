/* SPDX-License-Identifier: ISC */
/*
 * names.c - words of an enum and their values (see names.h).
 */
#include <string.h>

#include "peviz/names.h"

int names_find(const char *const *names, int count, const char *s)
{
    for (int i = 0; s && i < count; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

const char *names_at(const char *const *names, int count, int i,
                     const char *none)
{
    return i >= 0 && i < count ? names[i] : none;
}
