/* SPDX-License-Identifier: ISC */
/*
 * caption.h - the running tour as the frame shows it: the caption panel
 * below the view (its rows are areas.h's), "tour 3/12" and the status
 * line's words in the tour's language.  Below the frame, which only
 * reads what the tour left in struct app (tour_data.h).
 */
#ifndef PEVIZ_CAPTION_H
#define PEVIZ_CAPTION_H

#include <stddef.h>

#include "app.h"
#include "areas.h"
#include "canvas.h"
#include "tour_data.h"

/* Chinese where the tour is and the terminal can show it. */
int caption_zh(const struct app *a);

/* en in the tour's language: Chinese when caption_zh, else en itself. */
const char *caption_say(const struct app *a, const char *en)
    __attribute__((format_arg(2)));

/* The status line's own words (a view's title, "? help") in the tour's
 * language: Chinese while a Chinese tour runs, else en itself. */
const char *caption_word(const struct app *a, const char *en);

/* A view's status hint the same way: into out, in Chinese while a Chinese
 * tour runs (text_zh_hint), else copied. */
void caption_hint(const struct app *a, const char *en, char *out, size_t len);

/* "tour 3/12" into buf when a tour is running; returns 0 if none. */
int caption_status(const struct app *a, char *buf, size_t len);

/* ---- the caption ---------------------------------------------------- */



/* Draw the caption panel into c (its own rows, below the view). */
void caption_draw(const struct app *a, canvas *c);

#endif
