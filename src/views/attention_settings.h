/* SPDX-License-Identifier: ISC */
/*
 * attention_settings.h - the attention view's settings' rows
 * (settings.h) and the head they name; what attention.c takes from
 * attention_settings.c.
 */
#ifndef PEVIZ_VIEWS_ATTENTION_SETTINGS_H
#define PEVIZ_VIEWS_ATTENTION_SETTINGS_H

#include "settings.h"

struct app;

/* The rows, in the order the command line applies them; { 0 } ends
 * them. */
extern const struct setting ATTENTION_SETTINGS[];

/* Head h (taken modulo the heads) shown, and named with its slope or
 * divisor in the status line. */
void attention_settings_head(struct app *a, int h);

#endif
