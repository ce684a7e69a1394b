/* SPDX-License-Identifier: ISC */
/*
 * portcheck.h - :check FILE at the prompt of the clocks view and the
 * compare spectrum: a dumped inv_freq checked against the settings shown
 * (the check of --check-freqs, peviz/freqcheck.h), its differing bands
 * marked next to the expected values and its verdict on the status line.
 * Each view checks one file at a time; its check is run again when the
 * settings it is held to change.
 */
#ifndef PEVIZ_VIEWS_PORTCHECK_H
#define PEVIZ_VIEWS_PORTCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "peviz/freqcheck.h"

struct app;

/* The settings a check is held to. */
struct portcheck_set {
    const rope_scaling *sc;
    int d;
    double base;
    int64_t n;
    int model;              /* the preset (rope_preset_at) or -1: its
                               head_dim and max_position_embeddings */
};

/* A check in a view's runtime object (view.h): the file and its last
 * result.  All zero: none on. */
struct portcheck {
    int on;
    char path[256];
    struct freq_file f;
    struct freq_check r;
    int k;                  /* 0 match, 1 differs, -1 cannot be checked */
    rope_scaling sc;        /* the settings of r */
    int d, model;
    double base;
    int64_t n;
    char verdict[1200];
};

/* :check FILE (load it and check it at s) or :check off; the verdict or
 * the reason in a's message.  Returns 1 (the command is taken). */
int portcheck_command(struct app *a, struct portcheck *pc,
                      const struct portcheck_set *s, const char *arg);

/* A key row's fn (keys.h) that stops the check (Esc), for a view whose
 * runtime object rt begins with its struct portcheck: 1 when one was
 * on, else 0 (the key is left to the global table). */
int portcheck_key(struct app *a, void *rt, int key);

/* The check at s (run again when s differs from the last), or NULL when
 * none is on.  *verdict: one line for the status line. */
const struct freq_check *portcheck_at(struct portcheck *pc,
                                      const struct portcheck_set *s,
                                      const char **verdict);

/* Whether band differs in r; its found value in *found. */
int portcheck_band(const struct freq_check *r, int band, double *found);

#endif
