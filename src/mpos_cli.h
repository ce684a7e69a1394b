/* SPDX-License-Identifier: ISC */
/*
 * mpos_cli.h - the command line of multi-axis positions: the late
 * checks of the settings' rows for them (--sequence, --grid, the M-RoPE
 * sections and rules, app_settings.c), and their exports: position-ids,
 * and scores or softmax over the sequence (peviz/mpos.h).
 */
#ifndef PEVIZ_MPOS_CLI_H
#define PEVIZ_MPOS_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"

enum mpos_opt {
    MO_SEQUENCE = 0, MO_SPATIAL_MERGE, MO_TOKENS_PER_SECOND,
    MO_SECOND_PER_GRID, MO_SPLIT_FRAMES, MO_SECTION, MO_INTERLEAVED,
    MO_GRID, MO_COUNT
};

/* The option's name ("--grid"). */
const char *mpos_cli_name(enum mpos_opt id);

/* The options are settings' rows (app_settings.c); cli.c sets their
 * bits of c->mpos_given. */

/*
 * Once every option is read: the checks that need them all (one layout
 * of positions, the sections against d), n from the sequence, and base
 * 100 for a --grid when no base was chosen.  0, or -1 with err.
 */
int mpos_cli_finish(struct cli *c, char *err, size_t errlen);

/* Whether the export is this module's: position-ids, or scores and
 * softmax while a sequence or grid is set. */
int mpos_export_wanted(const struct cli *c);

/*
 * Largest M-RoPE or 2-D score export in terms, tokens x tokens x d/2
 * (each a cosine): 2^30, about ten seconds.  A larger one is refused.
 */
#define MPOS_EXPORT_MAX_TERMS (1LL << 30)

/* Run it to out: 0, or 2 after a one-line message on stderr. */
int mpos_export_run(const struct cli *c, FILE *out);

#endif
