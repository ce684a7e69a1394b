/* SPDX-License-Identifier: ISC */
/*
 * fuzz_app.h: what the harnesses that drive a whole program share: a
 * frame drawn at a given size, and the invariants every state must keep.
 */
#ifndef PEVIZ_FUZZ_APP_H
#define PEVIZ_FUZZ_APP_H

#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "frame.h"

static inline void fuzz_draw(struct app *a, int w, int h)
{
    canvas c;

    if (canvas_init(&c, w, h))
        return;
    a->screen_w = w;
    a->screen_h = h;
    frame_draw(a, &c);
    canvas_free(&c);
}

/* Aborts, so the fuzzer reports it, when a state breaks an invariant. */
static inline void fuzz_check_state(const struct app *a)
{
    if (a->p.d < 2 || a->p.d > 65536 || a->p.d % 2 || a->p.n < 1 ||
        a->p.pos < 0 || a->p.pos >= a->p.n || !(a->p.base > 1) ||
        a->view < 0 || a->view >= VIEW_COUNT ||
        a->heat.dim < 0 || a->heat.dim >= a->p.d ||
        a->clocks.band < 0 || a->clocks.band >= a->p.d / 2 ||
        a->att.ci < 0 || a->att.ci >= a->p.n ||
        a->att.cj < 0 || a->att.cj >= a->p.n ||
        a->att.o.head < 0 || a->att.o.head >= a->att.o.heads ||
        a->cmp.active < 0 || a->cmp.active >= a->cmp.npanes ||
        !memchr(a->msg, 0, sizeof a->msg))
        abort();
}

#endif
