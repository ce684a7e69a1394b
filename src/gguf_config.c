/*
 * gguf_config.c - RoPE settings from a GGUF file (see gguf_config.h).
 */
#include <stdio.h>

#include "gguf_config.h"

int gguf_config_load(const char *path, params *p, char *err, size_t errlen)
{
    (void)p;
    snprintf(err, errlen, "%s: GGUF files are not read yet", path);
    return -1;
}
