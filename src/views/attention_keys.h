/* SPDX-License-Identifier: ISC */
/*
 * attention_keys.h - the attention view's keys and its : commands.
 */
#ifndef PEVIZ_VIEWS_ATTENTION_KEYS_H
#define PEVIZ_VIEWS_ATTENTION_KEYS_H

#include "app.h"

/* What each key does, and the help card. */
extern const struct keybind ATTENTION_KEYS[];

/* The help { } gives, with the schemes that have heads (struct view's
 * key_help); NULL for the other rows. */
const char *attention_keys_help(const struct keybind *k, char *buf,
                                size_t len);

/* The names attention_keys_command takes (struct view's commands). */
extern const char *const ATTENTION_COMMANDS[];

/* :i N and :j N, the cursor; 0 for a name that is not the view's. */
int attention_keys_command(struct app *a, void *rt, const char *name,
                           const char *arg);

#endif
