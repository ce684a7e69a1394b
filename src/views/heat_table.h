/* SPDX-License-Identifier: ISC */
/*
 * heat_table.h - the table the heatmap shows (--pe-file) and the cache of
 * its column means.
 */
#ifndef PEVIZ_VIEWS_HEAT_TABLE_H
#define PEVIZ_VIEWS_HEAT_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "app.h"
#include "views/heat_geom.h"

/* Which table a cached result was computed from.  The loaded table never
 * changes under its pointer; the other fields catch a new one at the
 * same address. */
struct table_id {
    const struct pe_table *t;
    const double *v;
    int64_t n;
    int d;
};

/* The geometry column means belong to. */
struct means_key {
    int64_t n, x0, k;
    int m, ucols, nb, j0, shown, half;
};

/*
 * Column means of the dimensions on screen, [column][2 * slot + odd],
 * for one geometry: computing them reads every visible table row once
 * (at most the table's 2^22 values); frames that only move the cursor or
 * sweep inside the window reuse them.  Part of the view's runtime object.
 */
struct table_cache {
    struct table_id id;
    int have;
    struct means_key key;
    int ndim;                   /* 2 * shown: dims per column */
    int *dims;                  /* [ndim]: the dimension of each slot */
    double *mean;
    size_t cap;                 /* columns x dims allocated in mean */
    int ndim_cap;               /* entries allocated in dims */
    struct table_id scale_id;   /* max |v| of the whole table */
    double scale;
    int have_scale;
};

/*
 * The table the map shows, or NULL.  Only while d_model is the table's
 * width: after d/D the parameters describe sinusoids the file does not
 * hold.  Positions past its rows (after N) are missing, never invented:
 * a real table has no row there (GPT-2 cannot index position 1024).
 */
const struct pe_table *heat_table_shown(const struct app *a);

struct table_id heat_table_id_of(const struct pe_table *t);

void heat_table_cache_free(struct table_cache *tc);

/* Symmetric colour scale: the largest |value| in the table (1 if all are
 * 0), found once per table when there is a cache tc. */
double heat_table_scale(struct table_cache *tc, const struct pe_table *t);

/* The plain mean of table[p, dim] over the table's rows among p in
 * [p0, p1), in order; NAN when none is in the table (missing). */
double heat_table_mean(const struct pe_table *t, int64_t p0, int64_t p1,
                       int dim);

int heat_table_key_same(const struct table_cache *tc,
                        const struct heat_geom *g, int64_t n,
                        const struct table_id *id);

/* The means for geometry g, computed into tc when they are not there
 * yet; NULL when out of memory (callers then add the rows up cell by
 * cell). */
const double *heat_table_means(struct table_cache *tc,
                               const struct pe_table *t,
                               const struct heat_geom *g, int64_t n);

/* What map column col shows in band slot slot (odd: its lower pixel). */
double heat_table_cell(const struct pe_table *t, const double *means,
                       const struct heat_geom *g, int64_t n, int col,
                       int slot, int odd);

#endif
