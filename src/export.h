/* SPDX-License-Identifier: ISC */
/*
 * export.h - the PE table and score matrices as CSV or raw binary,
 * streamed row by row (never the whole matrix in memory).
 */
#ifndef PEVIZ_EXPORT_H
#define PEVIZ_EXPORT_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"

/* Largest export in cells (rows x columns): 2^28, about 3 GB of CSV. */
#define EXPORT_MAX_CELLS (1LL << 28)

/* Run c's export to out.  Returns 0, or 2 after a one-line message. */
int export_run(const struct cli *c, FILE *out);

/* The label of line k of --export bound ("head_dim", ...), in the
 * order printed; NULL past the last. */
const char *export_bound_label(int k);

#endif
