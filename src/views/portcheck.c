/* SPDX-License-Identifier: ISC */
/*
 * portcheck.c - :check FILE in the clocks view and the compare spectrum
 * (portcheck.h): the file read once, checked by freq_check_setup at the
 * settings shown, the verdict worded as --check-freqs words it.
 */
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "portcheck.h"


static void portcheck_clear(struct app *a, struct portcheck *pc)
{
    pc->on = 0;
    app_msg(a, 0, "check off");
}

int portcheck_key(struct app *a, void *rt, int key)
{
    struct portcheck *pc = rt;
    (void)key;
    if (!pc || !pc->on)
        return 0;
    portcheck_clear(a, pc);
    return 1;
}

static int portcheck_same(const struct portcheck *pc,
                          const struct portcheck_set *s)
{
    return s->d == pc->d && s->base == pc->base && s->n == pc->n &&
           s->model == pc->model && memcmp(s->sc, &pc->sc, sizeof pc->sc) == 0;
}

static void portcheck_word(struct portcheck *pc, const char *err)
{
    const struct freq_check *r = &pc->r;
    int m = pc->r.nmatch;
    if (pc->k < 0)
        snprintf(pc->verdict, sizeof pc->verdict, "check %s: %s", pc->path, err);
    else if (pc->k == 0)
        snprintf(pc->verdict, sizeof pc->verdict, "check %s: match, %d bands "
                 "(%s)", pc->path, r->nbands, pc->f.what);
    else if (r->nfound != r->nbands)
        snprintf(pc->verdict, sizeof pc->verdict, "check %s: differs, %d values "
                 "for %d bands; %s%s", pc->path, pc->f.n, r->nbands,
                 m ? "matches " : "no known variant", m ? r->match[0].name : "");
    else
        snprintf(pc->verdict, sizeof pc->verdict, "check %s: differs, %d of %d "
                 "bands (!); %s%s", pc->path, r->ndiff, r->nbands,
                 m ? "matches " : "no known variant", m ? r->match[0].name : "");
}

/* Check the loaded file at s. */
static void portcheck_run(struct portcheck *pc, const struct portcheck_set *s)
{
    char err[300] = "";
    const struct rope_preset *m = rope_preset_at(s->model);
    struct freq_setup fs = { s->sc, s->d, s->base, s->n, 0, s->n };
    if (m) {
        fs.head_dim = m->head_dim;
        fs.max_pos = m->max_context;
    }
    pc->sc = *s->sc;
    pc->d = s->d;
    pc->base = s->base;
    pc->n = s->n;
    pc->model = s->model;
    pc->k = freq_check_setup(&pc->f, &fs, &pc->r, err, sizeof err);
    portcheck_word(pc, err);
}

int portcheck_command(struct app *a, struct portcheck *pc,
                      const struct portcheck_set *s, const char *arg)
{
    char err[600];
    if (!arg || !*arg) {
        app_msg(a, 1, ":check: want a file (a dumped inv_freq) or off");
        return 1;
    }
    if (strcmp(arg, "off") == 0) {
        portcheck_clear(a, pc);
        return 1;
    }
    if (freq_file_load(arg, NULL, &pc->f, err, sizeof err) != 0) {
        pc->on = 0;
        app_msg(a, 1, ":check: %s", err);
        return 1;
    }
    pc->on = 1;
    snprintf(pc->path, sizeof pc->path, "%s", arg);
    portcheck_run(pc, s);
    app_msg(a, pc->k != 0, "%s", pc->verdict);
    return 1;
}

const struct freq_check *portcheck_at(struct portcheck *pc,
                                      const struct portcheck_set *s,
                                      const char **verdict)
{
    if (!pc->on)
        return NULL;
    if (!portcheck_same(pc, s))
        portcheck_run(pc, s);
    *verdict = pc->verdict;
    return &pc->r;
}

int portcheck_band(const struct freq_check *r, int band, double *found)
{
    for (int i = 0; r && i < r->ndiff; i++)
        if (r->band[i].band == band) {
            *found = r->band[i].found;
            return 1;
        }
    return 0;
}
