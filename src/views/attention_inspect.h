/* SPDX-License-Identifier: ISC */
/*
 * attention_inspect.h - the attention view's inspector: the lines that
 * explain the cell under the cursor, the scheme's formula with the
 * numbers put in.
 */
#ifndef PEVIZ_VIEWS_ATTENTION_INSPECT_H
#define PEVIZ_VIEWS_ATTENTION_INSPECT_H

#include <stddef.h>

#include "app.h"
#include "peviz/scores.h"
#include "views/attention_layout.h"

#define INSPECT_MAX 8       /* inspector lines */
#define LINE_LEN 256

struct lines {
    char s[INSPECT_MAX][LINE_LEN];
    char brief[INSPECT_MAX][64];    /* shown when s does not fit, if set */
    int n;
};

/* The inspector's lines for the cursor's cell (a->att.ci, a->att.cj). */
void attention_inspect(struct lines *ls, const struct app *a,
                       const struct score_ctx *s, struct att_rt *rt);

/* A term's name as shown: "e.p", or "e·p" outside ASCII mode. */
const char *attention_inspect_term_label(const struct app *a, const char *name,
                                         char *buf, size_t len);

#endif
