/* SPDX-License-Identifier: ISC */
/*
 * docgen_main.c - the command line of build/docgen (docgen.c says what
 * it prints).
 */
#include <stdio.h>
#include <string.h>

#include "docgen.h"

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "list") == 0
        && (strcmp(argv[3], "md") == 0 || strcmp(argv[3], "man") == 0)) {
        if (docgen_list(stdout, argv[2], argv[3][1] == 'a') == 0)
            return 0;
        fprintf(stderr, "docgen: no list %s\n", argv[2]);
        return 2;
    }
    if (argc == 2 && strcmp(argv[1], "list") == 0) {
        docgen_names(stdout);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "fill") == 0)
        return docgen_fill(stdout, argv[2]);
    if (argc == 3 && strcmp(argv[1], "completion") == 0)
        return docgen_complete(stdout, argv[2]);
    fputs("usage: docgen list [NAME md|man] | fill FILE"
          " | completion bash|zsh|fish\n", stderr);
    return 2;
}
