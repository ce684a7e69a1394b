/* SPDX-License-Identifier: ISC */
/*
 * clocks_settings.h - the clocks view's settings' rows (settings.h) and
 * the answers its toggles give; what clocks.c takes from
 * clocks_settings.c.
 */
#ifndef PEVIZ_VIEWS_CLOCKS_SETTINGS_H
#define PEVIZ_VIEWS_CLOCKS_SETTINGS_H

#include "settings.h"

struct app;

/* The rows; { 0 } ends them. */
extern const struct setting CLOCKS_SETTINGS[];

/* The answer after the ghost hand or the binary counter is turned on or
 * off (the o and c keys, :ghost, :counter). */
void clocks_settings_said_ghost(struct app *a);
void clocks_settings_said_counter(struct app *a);

#endif
