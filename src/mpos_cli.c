/* SPDX-License-Identifier: ISC */
/*
 * mpos_cli.c - the late checks of the multi-axis options (rows),
 * and the exports they change (position-ids; scores and softmax over
 * the sequence or the patch grid).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpos_cli.h"
#include "params.h"
#include "peviz/pe_table.h"
#include "peviz/scores.h"

static const char *const OPT_NAME[MO_COUNT] = {
    "--sequence", "--spatial-merge", "--tokens-per-second",
    "--second-per-grid", "--split-frames", "--mrope-section",
    "--mrope-interleaved", "--grid",
};

const char *mpos_cli_name(enum mpos_opt id)
{
    return (unsigned)id < MO_COUNT ? OPT_NAME[id] : "?";
}

/* The options that shape a sequence, given without one. */
static int check_given(const struct cli *c, char *err, size_t errlen)
{
    unsigned g = c->mpos_given;
    if ((g & 1u << MO_SEQUENCE) && (g & 1u << MO_GRID)) {
        snprintf(err, errlen, "--grid and --sequence: a ViT patch grid or "
                 "a vision-language sequence; give one");
        return -1;
    }
    if ((g & (1u << MO_SEQUENCE | 1u << MO_GRID)) && c->pe_file) {
        snprintf(err, errlen, "%s and --pe-file: the table's rows are "
                 "positions 0..n-1, not a multi-axis sequence; give one",
                 g & 1u << MO_GRID ? "--grid" : "--sequence");
        return -1;
    }
    for (int k = MO_SPATIAL_MERGE; k <= MO_INTERLEAVED; k++)
        if ((g & 1u << k) && !(g & 1u << MO_SEQUENCE)) {
            snprintf(err, errlen, "%s: goes with --sequence", OPT_NAME[k]);
            return -1;
        }
    return 0;
}

int mpos_cli_finish(struct cli *c, char *err, size_t errlen)
{
    struct mpos_conf *m = &c->app.mp;
    params *p = &c->app.p;
    if (check_given(c, err, errlen))
        return -1;
    if (m->mode == MPOS_OFF)
        return 0;
    if (mpos_check(m, err, errlen))
        return -1;
    unsigned char *axis = malloc((size_t)p->d / 2 + 1);
    if (!axis) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int r = mpos_axes(m, p->d / 2, axis, err, errlen);
    free(axis);
    if (r)
        return -1;
    int64_t n = mpos_count(m);
    if (c->n_set && p->n != n) {
        snprintf(err, errlen, "-n/--seq-len: %lld: the %s has %lld tokens; "
                 "leave -n out", (long long)p->n, m->mode == MPOS_AXIAL
                 ? "grid" : "sequence", (long long)n);
        return -1;
    }
    p->n = n;
    if (p->pos >= n)
        p->pos = n - 1;
    if (m->mode == MPOS_AXIAL && !c->base_set)
        p->base = 100;
    return 0;
}

int mpos_export_wanted(const struct cli *c)
{
    return c->what == EXPORT_POSITION_IDS ||
           (c->app.mp.mode != MPOS_OFF &&
            (c->what == EXPORT_SCORES || c->what == EXPORT_SOFTMAX));
}

static int write_done(FILE *out)
{
    if (fflush(out) == 0 && !ferror(out))
        return 0;
    return errline("--export: write error");
}

static const char *kind_name(const struct mpos_conf *m, enum mpos_kind k)
{
    static const char *const N[] = { "text", "image", "video" };
    return m->mode == MPOS_AXIAL ? "patch" : N[k];
}

/* One line per token: token,kind,t,h,w. */
static int export_ids(const struct cli *c, FILE *out)
{
    const struct mpos_conf *m = &c->app.mp;
    if (m->mode == MPOS_OFF)
        return errline("--export position-ids: goes with --sequence SPEC "
                         "or --grid WxH");
    if (c->format && strcmp(c->format, "csv") != 0)
        return errline("--format: '%s': want csv with --export "
                         "position-ids", c->format);
    enum { BLOCK = 512 };
    struct mpos_tok tok[BLOCK];
    int64_t n = mpos_count(m);
    for (int64_t i = 0; i < n && !ferror(out); i += BLOCK) {
        int64_t k = n - i < BLOCK ? n - i : BLOCK;
        mpos_fill(m, i, k, tok);
        for (int64_t j = 0; j < k; j++)
            fprintf(out, "%lld,%s,%lld,%lld,%lld\n", (long long)(i + j),
                    kind_name(m, tok[j].kind), (long long)tok[j].id[0],
                    (long long)tok[j].id[1], (long long)tok[j].id[2]);
    }
    return write_done(out);
}

/* The coefficients of --qk's pair for the head shown into ca, cb
 * (slots each); 0 without --qk (ones). */
static int qk_coeffs(const struct cli *c, double *ca, double *cb)
{
    const struct pe_table *t = c->app.qk_table;
    int d = c->app.p.d, h = c->app.att.o.head;
    if (!t || t->d != d || h < 0 || 2 * (int64_t)h + 1 >= t->n)
        return 0;
    const double *q = t->v + (size_t)(2 * h) * (size_t)d;
    mpos_qk_coeffs(q, q + d, d / 2, c->app.att.o.qk_pairs == QK_HALF, ca, cb);
    return 1;
}

/* Row i: scores (masked -inf past i when causal), or their softmax;
 * ca NULL: q = k = ones. */
static void score_row(const struct cli *c, const struct mpos_tok *tok,
                      int64_t n, int64_t i, const double *omega,
                      const unsigned char *axis, double mult,
                      const double *ca, const double *cb, double *row)
{
    const struct score_opts *o = &c->app.att.o;
    int slots = c->app.p.d / 2;
    int softmax = c->what == EXPORT_SOFTMAX || o->softmax;
    double scale = o->temperature ? 1.0 / sqrt((double)c->app.p.d) : 1.0;
    double top = -INFINITY, sum = 0;
    for (int64_t j = 0; j < n; j++) {
        row[j] = (o->causal && j > i) ? -INFINITY
                 : scale * mult * mpos_score_qk(omega, axis, slots, ca, cb,
                                                tok[i].id, tok[j].id);
        if (row[j] > top)
            top = row[j];
    }
    if (!softmax)
        return;
    for (int64_t j = 0; j < n; j++)
        sum += row[j] = isinf(row[j]) ? 0 : exp(row[j] - top);
    for (int64_t j = 0; j < n; j++)
        row[j] /= sum;
}

static void put_row(FILE *out, const double *row, int64_t n, const char *f)
{
    int f64 = f && strcmp(f, "f64") == 0, f32 = f && strcmp(f, "f32") == 0;
    for (int64_t j = 0; j < n; j++) {
        if (f64) {
            fwrite(&row[j], sizeof row[j], 1, out);
        } else if (f32) {
            float v = (float)row[j];
            fwrite(&v, sizeof v, 1, out);
        } else {
            fprintf(out, j ? ",%.9g" : "%.9g", row[j]);
        }
    }
    if (!f64 && !f32)
        fputc('\n', out);
}

/* 2 after the message when the export would take more than its bound. */
static int export_too_long(const struct cli *c)
{
    const params *p = &c->app.p;
    double terms = (double)p->n * (double)p->n * (double)(p->d / 2);
    if (terms <= (double)MPOS_EXPORT_MAX_TERMS)
        return 0;
    return errline("--export %s: %lld x %lld tokens x %d frequencies is "
                     "%.3g terms, over the limit of %lld (2^30); lower -d "
                     "or the %s", c->what == EXPORT_SOFTMAX ? "softmax"
                     : "scores", (long long)p->n, (long long)p->n, p->d / 2,
                     terms, MPOS_EXPORT_MAX_TERMS,
                     c->app.mp.mode == MPOS_AXIAL ? "grid" : "sequence");
}

static int export_scores(const struct cli *c, FILE *out)
{
    const params *p = &c->app.p;
    int64_t n = p->n;
    char err[256];
    if (export_too_long(c))
        return 2;
    double mult, *omega = malloc((size_t)(p->d / 2) * sizeof *omega);
    unsigned char *axis = malloc((size_t)(p->d / 2));
    struct mpos_tok *tok = malloc((size_t)n * sizeof *tok);
    double *row = malloc((size_t)n * sizeof *row);
    double *ca = malloc((size_t)p->d * sizeof *ca);
    int r = 0;
    if (!omega || !axis || !tok || !row || !ca)
        r = errline("--export: out of memory");
    else if (mpos_plan(&c->app.mp, p->d, p->base, &p->rope, n, omega, axis,
                       &mult, err, sizeof err))
        r = errline("%s", err);
    if (!r) {
        int qk = qk_coeffs(c, ca, ca + p->d / 2);
        mpos_fill(&c->app.mp, 0, n, tok);
        for (int64_t i = 0; i < n && !ferror(out); i++) {
            score_row(c, tok, n, i, omega, axis, mult, qk ? ca : NULL,
                      ca + p->d / 2, row);
            put_row(out, row, n, c->format);
        }
        r = write_done(out);
    }
    free(omega);
    free(axis);
    free(tok);
    free(row);
    free(ca);
    return r;
}

int mpos_export_run(const struct cli *c, FILE *out)
{
    if (c->what == EXPORT_POSITION_IDS)
        return export_ids(c, out);
    return export_scores(c, out);
}
