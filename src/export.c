/* SPDX-License-Identifier: ISC */
/*
 * export.c - stream matrices to stdout.
 *
 * CSV: one matrix row per line, values "%.9g", comma separated, no
 * header.  f32/f64: raw little-endian, row-major, no header (load with
 * numpy.fromfile(path, dtype).reshape(rows, cols)).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "mpos_cli.h"
#include "peviz/bound.h"
#include "peviz/pca.h"
#include "peviz/pe.h"
#include "peviz/rope.h"
#include "plans.h"
#include "peviz/tables.h"
#include "peviz/score_grid.h"

#define BLOCK_ROWS 64

static void write_row(FILE *out, const double *row, int64_t cols, int fmt);

static int write_failed(FILE *out)
{
    if (fflush(out) == 0 && !ferror(out))
        return 0;
    errline("--export: write error");
    return 2;
}

static void csv_row(FILE *out, const double *row, int64_t cols)
{
    for (int64_t j = 0; j < cols; j++)
        fprintf(out, j ? ",%.9g" : "%.9g", row[j]);
    fputc('\n', out);
}

/* A block buffer of rows x d values of size bytes each, and the fill
 * plan of p's table (its bands formed once for every block); NULL after
 * saying why. */
static void *pe_blocks_open(const params *p, size_t size, pe_fill *f)
{
    void *buf = malloc((size_t)BLOCK_ROWS * (size_t)p->d * size);
    if (!buf || pe_fill_open(f, p->d, p->base) < 0) {
        free(buf);
        errline("--export: out of memory");
        return NULL;
    }
    return buf;
}

static int pe_blocks_close(void *buf, pe_fill *f, FILE *out)
{
    free(buf);
    pe_fill_close(f);
    return write_failed(out);
}

/* The rows an export prints: positions first .. end-1 (--rows). */
struct row_range {
    int64_t first, end;
};

/* Rows skip..rows-1 of a block of d-wide rows, in the export's format;
 * nonzero when the write failed. */
static int write_block(FILE *out, const void *buf, int64_t skip,
                       int64_t rows, int d, int fmt)
{
    if (fmt == EXPORT_CSV) {
        for (int64_t i = skip; i < rows; i++)
            csv_row(out, (const double *)buf + i * d, d);
        return ferror(out);
    }
    size_t size = fmt == EXPORT_F32 ? sizeof(float) : sizeof(double);
    size_t nval = (size_t)(rows - skip) * (size_t)d;
    return fwrite((const char *)buf + (size_t)skip * (size_t)d * size, size,
                  nval, out) != nval;
}

/*
 * The PE table: the rotation-recurrence fill, block by block.  Blocks
 * start at multiples of BLOCK_ROWS, where the fill re-anchors, from the
 * block that holds rr.first: a row has the same bits with --rows as in
 * the whole table.
 */
static int export_pe_blocks(const params *p, struct row_range rr, int fmt,
                            FILE *out)
{
    pe_fill f;
    void *buf = pe_blocks_open(p, fmt == EXPORT_F32 ? sizeof(float)
                                                    : sizeof(double), &f);
    if (!buf)
        return 2;
    for (int64_t r = rr.first - rr.first % BLOCK_ROWS; r < rr.end;
         r += BLOCK_ROWS) {
        int64_t rows = rr.end - r < BLOCK_ROWS ? rr.end - r : BLOCK_ROWS;
        if (fmt == EXPORT_F32)
            pe_fill_rows_f32(&f, r, rows, buf);
        else
            pe_fill_rows_f64(&f, r, rows, buf);
        if (write_block(out, buf, r < rr.first ? rr.first - r : 0, rows,
                        p->d, fmt))
            break;
    }
    return pe_blocks_close(buf, &f, out);
}

/* A RoPE model's cos/sin cache (app_rope_cache): row p is a sin(p
 * omega_i), a cos(p omega_i) per band, the heatmap's dims, at the plan's
 * omega; the angle in long double. */
static int export_cache(const params *p, struct row_range rr, int fmt,
                        FILE *out)
{
    const pe_plan *pl = plans_of(p);
    double *row = malloc((size_t)p->d * sizeof *row);
    long double *w = malloc((size_t)pl->half * sizeof *w);
    if (!row || !w) {
        free(row);
        free(w);
        errline("--export: out of memory");
        return 2;
    }
    for (int i = 0; i < pl->half; i++)
        w[i] = plan_omega_l(pl, i);
    for (int64_t r = rr.first; r < rr.end && !ferror(out); r++) {
        for (int i = 0; i < pl->half; i++) {
            long double ang = (long double)r * w[i];
            row[2 * i] = pl->a * (double)sinl(ang);
            row[2 * i + 1] = pl->a * (double)cosl(ang);
        }
        write_row(out, row, p->d, fmt);
    }
    free(row);
    free(w);
    return write_failed(out);
}

/* The loaded table as it is, its rows of rr: row by row. */
static int export_table(const struct pe_table *t, struct row_range rr,
                        int fmt, FILE *out)
{
    for (int64_t i = rr.first; i < rr.end && !ferror(out); i++) {
        write_row(out, t->v + i * t->d, t->d, fmt);
    }
    return write_failed(out);
}

static void write_binary_row(FILE *out, const double *row, int64_t cols, int f64)
{
    if (f64) {
        fwrite(row, sizeof *row, (size_t)cols, out);
        return;
    }
    for (int64_t j = 0; j < cols; j++) {
        float v = (float)row[j];
        fwrite(&v, sizeof v, 1, out);
    }
}

static int export_scores(const struct cli *c, struct row_range rr, int fmt,
                         FILE *out)
{
    struct score_ctx *s = app_scores_new(&c->app);
    int64_t n = c->app.p.n;
    double *row = malloc((size_t)n * sizeof *row);
    if (!s || !row) {
        scores_free(s);
        free(row);
        errline("--export: out of memory");
        return 2;
    }
    int softmax = c->what == EXPORT_SOFTMAX || c->app.att.o.softmax;
    for (int64_t i = rr.first; i < rr.end && !ferror(out); i++) {
        scores_row(s, i, softmax, row);
        if (fmt == EXPORT_CSV)
            csv_row(out, row, n);
        else
            write_binary_row(out, row, n, fmt == EXPORT_F64);
    }
    scores_free(s);
    free(row);
    return write_failed(out);
}

/* The plan of the settings, or NULL after the message when the scaling
 * cannot be evaluated. */
static const pe_plan *export_plan(const params *p, const char *what)
{
    const pe_plan *pl = plans_of(p);
    if (!pl->invalid)
        return pl;
    errline("--export %s: the scaling settings cannot be evaluated", what);
    return NULL;
}

/* One line per band: i, omega_i after scaling, 2 pi / omega_i. */
static int export_freqs(const params *p, FILE *out)
{
    const pe_plan *pl = export_plan(p, "freqs");
    if (!pl)
        return 2;
    for (int i = 0; i < pl->half && !ferror(out); i++)
        fprintf(out, "%d,%.9g,%.9g\n", i, pl->omega[i], pl->wavelength[i]);
    return write_failed(out);
}

/* The plan as a table: a header, then one line per band. */
static int export_bands(const params *p, FILE *out)
{
    const pe_plan *pl = export_plan(p, "bands");
    if (!pl)
        return 2;
    fprintf(out, "band,rule,omega_base,omega,wavelength,turns_in_n\n");
    for (int i = 0; i < pl->half && !ferror(out); i++)
        fprintf(out, "%d,%s,%.9g,%.9g,%.9g,%.9g\n", i,
                rope_rule_name(pl->rule[i]), pl->omega_base[i], pl->omega[i],
                pl->wavelength[i], pl->turns[i]);
    return write_failed(out);
}

/* The horizon's search ends at the longest n peviz takes. */
#define BOUND_EXPORT_LIMIT PARAM_N_MAX

/* The head the bound is for: its dims and the rotary ones (--config's
 * head dim when its rotary part is d, a preset's head_dim likewise, else
 * --rotary-dims R < d).  A partial head's other dims are dead pairs. */
static void bound_head(const struct cli *c, int *head, int *rot)
{
    const params *p = &c->app.p;
    const struct rope_preset *m = rope_preset_at(c->app.APP_ROPE_MODEL - 1);
    int r = c->app.att.o.rotary_dims;
    *head = p->d;
    *rot = r >= 2 && r < p->d ? r & ~1 : p->d;
    if (c->cfg_head_dim > p->d && c->cfg_head_dim % 2 == 0 &&
        p->d == c->app.source_p.d) {
        *head = c->cfg_head_dim;
        *rot = p->d;
    } else if (m && m->d == p->d && m->head_dim > p->d) {
        *head = m->head_dim;
        *rot = p->d;
    }
}

/* The head's frequencies into w[head/2]: the plan's at the rotary dims,
 * then the dims that do not rotate (omega 0); -1 when the scaling cannot
 * be evaluated. */
static int bound_omegas(const params *p, int head, int rot, double *w)
{
    const pe_plan *pl = plans_get(&p->rope, rot, p->base, p->n);
    if (pl->invalid || pl->d != rot)
        return -1;
    for (int i = 0; i < head / 2; i++)
        w[i] = i < pl->half ? pl->omega[i] : 0.0;
    return 0;
}

/* The lines of --export bound, in the order they are printed. */
enum bound_line { BL_HEAD_DIM, BL_ROTARY_DIMS, BL_LIVE, BL_DEAD, BL_TRIVIAL,
                  BL_HORIZON, BL_HORIZON_LIMIT, BL_LENGTH, BL_LOWEST,
                  BL_LOWEST_INDEX, BL_FINE_BELOW, BL_COARSE, BL_FINE,
                  BL_COUNT };
static const char *const BOUND_LABELS[BL_COUNT] = {
    [BL_HEAD_DIM] = "head_dim", [BL_ROTARY_DIMS] = "rotary_dims",
    [BL_LIVE] = "live_pairs", [BL_DEAD] = "dead_pairs",
    [BL_TRIVIAL] = "trivial", [BL_HORIZON] = "horizon",
    [BL_HORIZON_LIMIT] = "horizon_limit", [BL_LENGTH] = "length",
    [BL_LOWEST] = "lowest_base", [BL_LOWEST_INDEX] = "lowest_base_index",
    [BL_FINE_BELOW] = "fine_below", [BL_COARSE] = "coarse_per_decade",
    [BL_FINE] = "fine_per_decade",
};

const char *export_bound_label(int k)
{
    return k >= 0 && k < BL_COUNT ? BOUND_LABELS[k] : NULL;
}

/* "label,v": a count, or "none" when v < 0. */
static void bound_int(FILE *out, enum bound_line k, long long v)
{
    if (v < 0)
        fprintf(out, "%s,none\n", BOUND_LABELS[k]);
    else
        fprintf(out, "%s,%lld\n", BOUND_LABELS[k], v);
}

/* "label,v" to 9 digits, or "none" when v is NAN. */
static void bound_num(FILE *out, enum bound_line k, double v)
{
    if (isnan(v))
        fprintf(out, "%s,none\n", BOUND_LABELS[k]);
    else
        fprintf(out, "%s,%.9g\n", BOUND_LABELS[k], v);
}

/*
 * --export bound: labelled lines "label,value".  The horizon of the
 * settings' frequencies (scaling applied, dead pairs at omega 0), and
 * with -n L the lowest base for length L at the head dim (peviz/bound.h;
 * at L = 2^20 it takes seconds, so only when asked for).
 */
static int export_bound(const struct cli *c, FILE *out)
{
    const params *p = &c->app.p;
    int head, rot;
    bound_head(c, &head, &rot);
    double *w = malloc((size_t)head / 2 * sizeof *w);
    if (!w)
        return errline("--export: out of memory");
    if (bound_omegas(p, head, rot, w)) {
        free(w);
        return errline("--export bound: the scaling settings cannot be "
                         "evaluated");
    }
    int half = head / 2, dead = bound_dead_pairs(w, half);
    int trivial = bound_trivial(w, half);
    int64_t h = trivial ? -1 : bound_horizon(w, half, BOUND_EXPORT_LIMIT);
    struct bound_base lb = { NAN, NAN, -1 };
    if (c->n_set)       /* a length asked for: its lowest base */
        bound_lowest_base(head, p->n, w, &lb);
    bound_int(out, BL_HEAD_DIM, head);
    bound_int(out, BL_ROTARY_DIMS, rot);
    bound_int(out, BL_LIVE, half - dead);
    bound_int(out, BL_DEAD, dead);
    bound_int(out, BL_TRIVIAL, trivial);
    bound_int(out, BL_HORIZON, h);
    bound_int(out, BL_HORIZON_LIMIT, BOUND_EXPORT_LIMIT);
    bound_int(out, BL_LENGTH, p->n);
    if (c->n_set) {
        bound_num(out, BL_LOWEST, lb.base);
        bound_int(out, BL_LOWEST_INDEX, lb.j);
        bound_num(out, BL_FINE_BELOW, lb.below);
    }
    bound_int(out, BL_COARSE, BOUND_COARSE_PER_DECADE);
    bound_int(out, BL_FINE, BOUND_FINE_PER_DECADE);
    free(w);
    return write_failed(out);
}

/* One row of k values in the export's format. */
static void write_row(FILE *out, const double *row, int64_t cols, int fmt)
{
    if (fmt == EXPORT_CSV)
        csv_row(out, row, cols);
    else
        write_binary_row(out, row, cols, fmt == EXPORT_F64);
}

/* The PCA's lines: ratios (pca-variance) or each row's projections. */
static void write_pca(const struct cli *c, const struct pe_pca *pca,
                      const double *v, int fmt, FILE *out)
{
    double y[1];
    if (c->what == EXPORT_PCA_VARIANCE) {
        for (int i = 0; i < pca->k && !ferror(out); i++) {
            y[0] = pca_ratio(pca, i);
            write_row(out, y, 1, fmt);
        }
        return;
    }
    double *proj = malloc((size_t)pca->k * sizeof *proj);
    for (int64_t i = 0; proj && i < pca->n && !ferror(out); i++) {
        pca_project(pca, v + i * pca->d, proj);
        write_row(out, proj, pca->k, fmt);
    }
    free(proj);
}

/*
 * --export pca / pca-variance: the principal components of the table
 * (the loaded one, or the sinusoid at -d, -n), at most 2^22 values.
 */
static int export_pca(const struct cli *c, int fmt, FILE *out)
{
    const params *p = &c->app.p;
    const struct pe_table *t = c->app.pe_table;
    int64_t n = p->n;           /* a table's first n rows (table_short) */
    int d = t ? t->d : p->d, k = c->components;
    if ((double)n * d > (double)PE_TABLE_MAX_VALUES)
        return errline("--export %s: %ld x %d values is over the limit of "
                         "%lld (2^22); lower -n or -d", c->what == EXPORT_PCA
                         ? "pca" : "pca-variance", (long)n, d,
                         (long long)PE_TABLE_MAX_VALUES);
    if (n < 2)
        return errline("--export %s: one position has no variance; want "
                         "n >= 2", c->what == EXPORT_PCA ? "pca"
                                                          : "pca-variance");
    if (k > d || k > n - 1)
        return errline("--components: %d: want 1..%lld for a %ld x %d "
                         "table", k, (long long)(n - 1 < d ? n - 1 : d),
                         (long)n, d);
    double *own = NULL;
    if (!t && !(own = malloc((size_t)n * (size_t)d * sizeof *own)))
        return errline("--export: out of memory");
    if (own)
        pe_fill_f64(0, n, d, p->base, own);
    const double *v = t ? t->v : own;
    struct pe_pca pca;
    int r = pca_compute(v, n, d, k, &pca);
    if (r == 0 && pca.rank < k)
        fprintf(stderr, "peviz: --export %s: the table has rank %d: "
                "component%s %d%s%.0d %s variance 0 and project%s to 0\n",
                c->what == EXPORT_PCA ? "pca" : "pca-variance", pca.rank,
                k - pca.rank > 1 ? "s" : "", pca.rank + 1,
                k - pca.rank > 1 ? ".." : "", k - pca.rank > 1 ? k : 0,
                k - pca.rank > 1 ? "have" : "has",
                k - pca.rank > 1 ? "" : "s");
    if (r == 0)
        write_pca(c, &pca, v, fmt, out);
    pca_free(&pca);
    free(own);
    if (r)
        return errline("--export: out of memory or no convergence");
    return write_failed(out);
}

/*
 * A loaded table has no row past its length (GPT-2 cannot index position
 * 1024): an export that reads it at more positions (-n over its rows)
 * refuses rather than invent the rest.  The table is read by pe, pca,
 * pca-variance, and scores and softmax of the learned scheme.
 */
static int table_short(const struct cli *c)
{
    const struct pe_table *t = c->app.pe_table;
    int reads = c->what == EXPORT_PE || c->what == EXPORT_PCA
                || c->what == EXPORT_PCA_VARIANCE
                || c->app.att.o.scheme == SCHEME_LEARNED;
    if (!t || !reads || c->app.p.n <= t->n)
        return 0;
    return errline("%s: table has %lld rows, n=%lld: positions from %lld "
                     "have no row to export; want -n 1..%lld",
                     c->app.pe_file_name ? c->app.pe_file_name : "--pe-file",
                     (long long)t->n, (long long)c->app.p.n, (long long)t->n,
                     (long long)t->n);
}

/* --rows against the final n (every row without it); 2 after the
 * message when B is past the last position. */
static int row_range_of(const struct cli *c, struct row_range *rr)
{
    int64_t n = c->app.p.n;
    *rr = (struct row_range){ 0, n };
    if (c->rows_first < 0)
        return 0;
    if (mpos_export_wanted(c))
        return errline("--rows: not with --sequence or --grid");
    if (c->rows_last >= n)
        return errline("--rows: %ld..%ld: n=%lld has positions 0..%lld; "
                         "want B <= %lld", c->rows_first, c->rows_last,
                         (long long)n, (long long)(n - 1),
                         (long long)(n - 1));
    *rr = (struct row_range){ c->rows_first, c->rows_last + 1 };
    return 0;
}

static int format_of(const char *f)
{
    if (!f || strcmp(f, "csv") == 0)
        return EXPORT_CSV;
    return strcmp(f, "f32") == 0 ? EXPORT_F32 : EXPORT_F64;
}

int export_run(const struct cli *c, FILE *out)
{
    const params *p = &c->app.p;
    int64_t cols = c->what == EXPORT_PE ? p->d : p->n;
    int fmt = format_of(c->format);
    if (c->what == EXPORT_FREQS || c->what == EXPORT_BANDS) {
        const char *w = c->what == EXPORT_FREQS ? "freqs" : "bands";
        if (fmt != EXPORT_CSV)
            return errline("--format: '%s': want csv with --export %s",
                             c->format, w);
        return c->what == EXPORT_FREQS ? export_freqs(p, out)
                                       : export_bands(p, out);
    }
    if (c->what == EXPORT_POSITION_IDS)
        return mpos_export_run(c, out);
    if (c->what == EXPORT_BOUND) {
        if (fmt != EXPORT_CSV)
            return errline("--format: '%s': want csv with --export bound",
                             c->format);
        return export_bound(c, out);
    }
    struct row_range rr;
    if (row_range_of(c, &rr))
        return 2;
    /* the cells printed: --rows A..B of an n x n score matrix is
     * (B - A + 1) x n, however large n is */
    if ((double)(rr.end - rr.first) * (double)cols > (double)EXPORT_MAX_CELLS) {
        fprintf(stderr, "peviz: --export: %ld x %ld cells is over the limit of "
                "%lld (2^28); lower -n or -d, or print fewer --rows\n",
                (long)(rr.end - rr.first), (long)cols, EXPORT_MAX_CELLS);
        return 2;
    }
    if (mpos_export_wanted(c))
        return mpos_export_run(c, out);
    if (table_short(c))
        return 2;
    if (c->what == EXPORT_PCA || c->what == EXPORT_PCA_VARIANCE)
        return export_pca(c, fmt, out);
    if (c->what != EXPORT_PE)
        return export_scores(c, rr, fmt, out);
    if (c->app.pe_table)
        return export_table(c->app.pe_table, rr, fmt, out);
    if (app_rope_cache(&c->app))
        return export_cache(p, rr, fmt, out);
    return export_pe_blocks(p, rr, fmt, out);
}
