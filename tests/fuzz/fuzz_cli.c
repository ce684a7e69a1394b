/* SPDX-License-Identifier: ISC */
/*
 * fuzz_cli.c - libFuzzer harness for the command line (cli_parse).
 *
 * The input is argv[1..]: the bytes split on NUL.  Whatever they hold,
 * cli_parse must return 0 or 2 (printing its one line on stderr) and
 * never read or write out of bounds.  Run by `make fuzz`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct cli c;        /* holds a struct app: off the stack */
    char *buf = malloc(size + 1), *argv[MAX_ARGS + 2];
    int argc = 0;

    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = 0;
    argv[argc++] = (char *)"peviz";
    for (size_t i = 0; i <= size && argc <= MAX_ARGS; ) {
        argv[argc++] = buf + i;
        i += strlen(buf + i) + 1;
    }
    argv[argc] = NULL;
    int r = cli_parse(&c, argc, argv);
    if (r != 0 && r != 2)
        abort();               /* the contract: 0, or 2 after a message */
    free(buf);
    return 0;
}
