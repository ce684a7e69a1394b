/* SPDX-License-Identifier: ISC */
/*
 * clocks_state.h - the clocks view's settings in struct app (a->clocks):
 * plain data, included by app.h through the view list.
 */
#ifndef PEVIZ_VIEWS_CLOCKS_STATE_H
#define PEVIZ_VIEWS_CLOCKS_STATE_H

#include <stdint.h>

struct clocks_state {
    int band;           /* band under the cursor */
    int band0;          /* first band shown when paging */
    int zoom;           /* 0 = evenly spaced overview, 1 = consecutive */
    int ghost;          /* ghost hand at pos + k shown */
    int64_t k;          /* offset of the ghost hand */
    int counter;        /* binary counter strip shown */
};

#endif
