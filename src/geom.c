/* SPDX-License-Identifier: ISC */
/*
 * geom.c - the frame's sizes that depend on the cells alone (geom.h).
 */
#include "geom.h"

int geom_split_fits(int W, int H)
{
    if (W >= FRAME_SPLIT_SIDE_W && H >= FRAME_MIN_H)
        return 1;
    return W >= FRAME_MIN_W && H - 1 >= FRAME_SPLIT_STACK_H ? 2 : 0;
}
