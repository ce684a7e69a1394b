/* SPDX-License-Identifier: ISC */
/*
 * heat_table.c - the heatmap of a loaded table (--pe-file): which table
 * is shown, its colour scale, and the column means of the dimensions on
 * screen, cached per geometry.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "peviz/tables.h"
#include "views/heat_geom.h"
#include "views/heat_table.h"

/*
 * The table the map shows, or NULL.  Only while d_model is the table's
 * width: after d/D the parameters describe sinusoids the file does not
 * hold.  Positions past its rows (after N) are missing, never invented:
 * a real table has no row there (GPT-2 cannot index position 1024).
 */
const struct pe_table *heat_table_shown(const struct app *a)
{
    const struct pe_table *t = a->pe_table;
    return t && t->v && t->d == a->p.d ? t : NULL;
}

struct table_id heat_table_id_of(const struct pe_table *t)
{
    struct table_id id = { t, t->v, t->n, t->d };
    return id;
}

static int table_id_same(const struct table_id *x, const struct table_id *y)
{
    return x->t == y->t && x->v == y->v && x->n == y->n && x->d == y->d;
}

void heat_table_cache_free(struct table_cache *tc)
{
    free(tc->mean);
    free(tc->dims);
    tc->mean = NULL;
    tc->dims = NULL;
    tc->cap = 0;
    tc->ndim_cap = 0;
    tc->have = 0;
}

/* Symmetric colour scale: the largest |value| in the table (1 if all are
 * 0), found once per table when there is a cache tc. */
double heat_table_scale(struct table_cache *tc, const struct pe_table *t)
{
    struct table_id id = heat_table_id_of(t);
    if (tc && tc->have_scale && table_id_same(&tc->scale_id, &id))
        return tc->scale;
    double mx = 0;
    for (int64_t i = 0; i < t->n * t->d; i++)
        mx = fabs(t->v[i]) > mx ? fabs(t->v[i]) : mx;
    mx = mx > 0 ? mx : 1;
    if (tc) {
        tc->scale_id = id;
        tc->scale = mx;
        tc->have_scale = 1;
    }
    return mx;
}

/* The plain mean of table[p, dim] over the table's rows among p in
 * [p0, p1), in order; NAN when none is in the table (missing). */
double heat_table_mean(const struct pe_table *t, int64_t p0, int64_t p1,
                       int dim)
{
    double sum = 0;
    p1 = p1 < t->n ? p1 : t->n;
    if (p0 >= p1)
        return NAN;
    for (int64_t p = p0; p < p1; p++)
        sum += t->v[p * t->d + dim];
    return sum / (double)(p1 - p0);
}

static struct means_key means_key_of(const struct heat_geom *g, int64_t n)
{
    struct means_key k;
    memset(&k, 0, sizeof k);
    k.n = n;
    k.x0 = g->x0;
    k.k = g->k;
    k.m = g->m;
    k.ucols = g->ucols;
    k.nb = g->nb;
    k.j0 = g->j0;
    k.shown = g->shown;
    k.half = g->half;
    return k;
}

int heat_table_key_same(const struct table_cache *tc,
                        const struct heat_geom *g, int64_t n,
                        const struct table_id *id)
{
    struct means_key k = means_key_of(g, n);
    return tc->have && table_id_same(&tc->id, id) &&
           memcmp(&tc->key, &k, sizeof k) == 0;
}

static void table_key_store(struct table_cache *tc, const struct heat_geom *g,
                            int64_t n, const struct table_id *id)
{
    tc->id = *id;
    tc->key = means_key_of(g, n);
    tc->ndim = 2 * g->shown;
    for (int j = 0; j < tc->ndim; j++)
        tc->dims[j] = 2 * heat_geom_band(g, g->j0 + j / 2) + j % 2;
    tc->have = 1;
}

/* Sum each column's rows into its slots: row by row, so a row's values
 * are read front to back, in the order table_mean adds them. */
static void table_fill(struct table_cache *tc, const struct pe_table *t,
                       const struct heat_geom *g, int64_t n, int ncol)
{
    int64_t p0, p1;
    for (int ci = 0; ci < ncol; ci++) {
        double *out = tc->mean + (size_t)ci * (size_t)tc->ndim;
        memset(out, 0, (size_t)tc->ndim * sizeof *out);
        if (heat_geom_col_range(g, n, ci, &p0, &p1))
            continue;
        p1 = p1 < t->n ? p1 : t->n;
        for (int j = 0; p0 >= p1 && j < tc->ndim; j++)
            out[j] = NAN;                   /* past the table: missing */
        for (int64_t p = p0; p < p1; p++) {
            const double *row = t->v + p * t->d;
            for (int j = 0; j < tc->ndim; j++)
                out[j] += row[tc->dims[j]];
        }
        for (int j = 0; p1 > p0 && j < tc->ndim; j++)
            out[j] /= (double)(p1 - p0);
    }
}

/* The means for geometry g, computed into tc when they are not there
 * yet; NULL when out of memory (callers then add the rows up cell by
 * cell). */
const double *heat_table_means(struct table_cache *tc,
                               const struct pe_table *t,
                               const struct heat_geom *g, int64_t n)
{
    struct table_id id = heat_table_id_of(t);
    if (heat_table_key_same(tc, g, n, &id))
        return tc->mean;
    int ncol = g->ucols, ndim = 2 * g->shown;   /* a slot per column */
    size_t need = (size_t)ncol * (size_t)ndim;
    tc->have = 0;
    if (need > tc->cap || ndim > tc->ndim_cap) {
        heat_table_cache_free(tc);
        tc->mean = malloc((need ? need : 1) * sizeof *tc->mean);
        tc->dims = malloc((size_t)(ndim ? ndim : 1) * sizeof *tc->dims);
        if (!tc->mean || !tc->dims) {
            heat_table_cache_free(tc);
            return NULL;
        }
        tc->cap = need;
        tc->ndim_cap = ndim;
    }
    table_key_store(tc, g, n, &id);
    table_fill(tc, t, g, n, ncol);
    return tc->mean;
}

/* What map column col shows in band slot slot (odd: its lower pixel). */
double heat_table_cell(const struct pe_table *t, const double *means,
                       const struct heat_geom *g, int64_t n, int col,
                       int slot, int odd)
{
    int64_t p0, p1;
    if (means)
        return means[(size_t)col * (size_t)(2 * g->shown) +
                     (size_t)(2 * slot + odd)];
    if (heat_geom_col_range(g, n, col, &p0, &p1))
        return 0;
    return heat_table_mean(t, p0, p1, 2 * heat_geom_band(g, g->j0 + slot) + odd);
}
