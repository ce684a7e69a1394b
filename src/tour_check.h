/* SPDX-License-Identifier: ISC */
/*
 * tour_check.h - a tour's check lines, tried where a class sees them:
 * every step that has them at each classroom size, with colour and
 * without (peviz --tour[=FILE] --check).
 */
#ifndef PEVIZ_TOUR_CHECK_H
#define PEVIZ_TOUR_CHECK_H

#include <stdio.h>

#include "app.h"

/* The sizes a step is checked at, in cells, and how many there are. */
extern const int TOUR_CHECK_SIZES[][2];
extern const int TOUR_CHECK_NSIZES;

/*
 * Every step of a's loaded tour drawn at each size of TOUR_CHECK_SIZES,
 * in full colour and in none, and each check line tried there: the step
 * applied and drawn, then its key
 * pressed, its ':' command run, or its relation read off the numbers the
 * view showed (struct view's quantity).  One line per failure on out,
 * "PATH:LINE: step N at WxH, colour|no colour: what failed".  Returns the
 * failures (0: all hold), -1 when out of memory; *tried gets the claims
 * tried (checks times sizes times colour modes).
 */
int tour_check_run(struct app *a, FILE *out, int *tried);

#endif
