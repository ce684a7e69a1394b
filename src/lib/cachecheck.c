/* SPDX-License-Identifier: ISC */
/*
 * cachecheck.c - a dumped cos/sin cache against the settings, and the
 * combinations of pairing, width, attention factor and position offset
 * that reproduce it (peviz/cachecheck.h).  The frequencies are
 * rope_inv_freq's, the numbers --export freqs prints.
 */
#include "peviz/cachecheck.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peviz/pi.h"

const char *cache_pairing_name(int p)
{
    static const char *const N[CP_COUNT] = { "(2k, 2k+1) interleaved",
                                             "(k, k+W/2) half",
                                             "(k, k+head_dim/2) wide" };
    return p >= 0 && p < CP_COUNT ? N[p] : "?";
}

/* One combination: the settings with some choices changed. */
struct cvar {
    int pairing;
    int dims;                   /* the rotary dims the bands are for */
    int prop;                   /* the exponent over the width W */
    double a;                   /* the factor folded into cos and sin */
    int map;                    /* M-RoPE: 0 the settings' slot map, 1 the
                                   other layout, 2 1-D ids, 3 found */
    double off;
    int changes;
    char name[300];
};

/* Rows of the file in memory: the head, or a block read after it. */
struct crows {
    const double *cos, *sin;    /* rows x w */
    int64_t p0;                 /* the first row's position */
    int rows;
    int64_t (*ids)[3];          /* M-RoPE: each row's t, h, w ids */
};

/* A combination ready to compare rows with: its frequencies and what the
 * rows compared so far left. */
struct cfit {
    struct cvar v;
    double om[FREQ_BANDS_MAX];
    int bad;                    /* a value beyond its tolerance */
    double res;                 /* the largest difference */
};

#define CACHE_CAND_MAX 160      /* the walk's 70, or freq matches x 6 */

struct cctx {
    const struct cache_file *f;
    const struct cache_setup *s;
    double a0;                  /* the settings' attention factor */
    double omega[3][FREQ_BANDS_MAX];    /* at d, at the file's width, and
                                           d/2 bands over the file's width
                                           (proportional) */
    double tol;
    int64_t rows;               /* compared: the file's, at most the
                                   sequence's tokens */
    int mrope;
    unsigned char axis[4][FREQ_BANDS_MAX];  /* each slot's, per map */
    struct crows head;          /* the first rows, where choices are made */
    int64_t hids[CACHE_HEAD_ROWS][3];
    double *bcos, *bsin;        /* a block of rows after the head */
    int brows;                  /* its capacity */
    int64_t bids[CACHE_HEAD_ROWS][3];
    char *err;                  /* a block that cannot be read */
    size_t errlen;
};

static double dtype_abs(enum freq_dtype t)
{
    switch (t) {
    case FD_F32:  return 0x1p-22;
    case FD_F16:  return 0x1p-10;
    case FD_BF16: return 0x1p-7;
    default:      return 1e-12;
    }
}

/* Column j's band under v (-1: not rotated, -2: no such layout). */
static int band_of(const struct cctx *c, const struct cvar *v, int j)
{
    int w = c->f->w;
    if (v->pairing == CP_INTERLEAVED)
        return w == v->dims ? j / 2 : -2;
    if (v->pairing == CP_HALF)
        return w == v->dims ? j % (w / 2) : -2;
    if (w <= v->dims)
        return -2;
    int b = j % (w / 2);
    return b < v->dims / 2 ? b : -1;
}

static const double *omega_of(const struct cctx *c, const struct cvar *v)
{
    return v->prop ? c->omega[2] : v->dims == c->s->d ? c->omega[0]
                                                      : c->omega[1];
}

/* Row p of r's position for band b under v (the offset left out). */
static double pos_of(const struct cctx *c, const struct cvar *v,
                     const struct crows *r, int p, int b)
{
    if (!c->mrope || v->map == 2)
        return (double)(r->p0 + p);
    return (double)r->ids[p][c->axis[v->map][b]];
}

/* The offset the slowest rotated band of row 0 implies, to a whole
 * position (its angle is below pi for offsets below pi / omega). */
static double implied_offset(const struct cctx *c, const struct cvar *v)
{
    const double *om = omega_of(c, v);
    int best = -1;
    for (int j = 0; j < c->f->w; j++) {
        int b = band_of(c, v, j);
        if (b >= 0 && (best < 0 || om[b] < om[band_of(c, v, best)]))
            best = j;
    }
    if (best < 0)
        return 0;
    double ang = atan2(c->head.sin[best], c->head.cos[best]);
    return round(ang / om[band_of(c, v, best)] -
                 pos_of(c, v, &c->head, 0, band_of(c, v, best)));
}

/* q for v, its frequencies c's: 0, or -1 when the file's width has no
 * such layout. */
static int cfit_make(const struct cctx *c, const struct cvar *v,
                     struct cfit *q)
{
    for (int j = 0; j < c->f->w; j++)
        if (band_of(c, v, j) == -2)
            return -1;
    q->v = *v;
    memcpy(q->om, omega_of(c, v), sizeof q->om);
    q->bad = 0;
    q->res = 0;
    return 0;
}

/* Row p's expected values for each band (only band only when >= 0):
 * a cos, a sin and the tolerance. */
static void cfit_want(const struct cctx *c, const struct cfit *q,
                      const struct crows *r, int p, int nb, int only,
                      double *wc, double *ws, double *wt)
{
    for (int b = only >= 0 ? only : 0; b < (only >= 0 ? only + 1 : nb); b++) {
        double ang = (pos_of(c, &q->v, r, p, b) + q->v.off) * q->om[b];
        wc[b] = q->v.a * cos(ang);
        ws[b] = q->v.a * sin(ang);
        wt[b] = c->tol + fabs(ang) * 0x1p-22;
    }
}

/* A difference e at row p, column j: the worst so far into out. */
static void cfit_worst(struct cache_check *out, const struct crows *r,
                       int p, int j, double dc, double ds, double wc,
                       double ws, size_t k)
{
    double e = dc > ds ? dc : ds;
    if (e <= out->worst)
        return;
    out->worst = e;
    out->worst_pos = r->p0 + p;
    out->worst_col = j;
    out->want = dc >= ds ? wc : ws;
    out->found = dc >= ds ? r->cos[k] : r->sin[k];
}

/* Rows r under q (only band only, when >= 0): q->bad set at a value
 * beyond its tolerance, where the rows stop unless out is given (then the
 * worst difference goes there); q->res the largest difference. */
static void cfit_rows(const struct cctx *c, struct cfit *q,
                      const struct crows *r, int only,
                      struct cache_check *out)
{
    static int band[CACHE_WIDTH_MAX];
    double wc[FREQ_BANDS_MAX], ws[FREQ_BANDS_MAX], wt[FREQ_BANDS_MAX];
    int w = c->f->w, nb = 0;
    for (int j = 0; j < w; j++) {
        band[j] = band_of(c, &q->v, j);
        nb = band[j] >= nb ? band[j] + 1 : nb;
    }
    for (int p = 0; p < r->rows; p++) {
        cfit_want(c, q, r, p, nb, only, wc, ws, wt);
        for (int j = 0; j < w; j++) {
            int b = band[j];
            if (only >= 0 && b != only)
                continue;
            double C = b >= 0 ? wc[b] : 1, S = b >= 0 ? ws[b] : 0;
            size_t k = (size_t)p * (size_t)w + (size_t)j;
            double dc = fabs(r->cos[k] - C), ds = fabs(r->sin[k] - S);
            double e = dc > ds ? dc : ds;
            if (!(e <= (b >= 0 ? wt[b] : c->tol))) {
                q->bad = 1;
                if (!out)
                    return;
            }
            if (out)
                cfit_worst(out, r, p, j, dc, ds, C, S, k);
            q->res = e > q->res ? e : q->res;
        }
    }
}

/* M-RoPE: the ids of the tokens from .. from+count-1 into ids. */
static int cache_ids(const struct cctx *c, int64_t from, int count,
                     int64_t (*ids)[3])
{
    static struct mpos_tok tok[CACHE_HEAD_ROWS];
    if (mpos_fill(c->s->mp, from, count, tok) != 0)
        return -1;
    for (int p = 0; p < count; p++)
        for (int a = 0; a < 3; a++)
            ids[p][a] = tok[p].id[a];
    return 0;
}

/* The rows after the head, a block at a time, to each of q[0..nq-1] not
 * yet bad (to q[0] whatever it holds, with out): 0, or -1 when a block
 * cannot be read (c->err says why). */
static int cache_stream(struct cctx *c, struct cfit *q, int nq, int only,
                        struct cache_check *out)
{
    for (int64_t p0 = c->head.rows; p0 < c->rows; p0 += c->brows) {
        int live = 0;
        for (int i = 0; i < nq; i++)
            live += !q[i].bad || out;
        if (!live)
            return 0;
        int k = c->rows - p0 < c->brows ? (int)(c->rows - p0) : c->brows;
        struct crows r = { c->bcos, c->bsin, p0, k, c->bids };
        if (cache_file_rows(c->f, p0, k, c->bcos, c->bsin, c->err,
                            c->errlen) != 0)
            return -1;
        if (c->mrope && cache_ids(c, p0, k, c->bids) != 0) {
            snprintf(c->err, c->errlen, "the sequence's ids at token %lld "
                     "cannot be had", (long long)p0);
            return -1;
        }
        for (int i = 0; i < nq; i++)
            if (!q[i].bad || out)
                cfit_rows(c, &q[i], &r, only, out);
    }
    return 0;
}

/* The largest difference of v from the head, or -1 past a tolerance
 * (only band only, when >= 0). */
static double cvar_fit_head(const struct cctx *c, const struct cvar *v,
                            int only)
{
    struct cfit q;
    if (cfit_make(c, v, &q) != 0)
        return -1;
    cfit_rows(c, &q, &c->head, only, NULL);
    return q.bad ? -1 : q.res;
}

/* ---- the choices ----------------------------------------------------------- */

static void add_name(struct cvar *v, const char *part)
{
    size_t k = strlen(v->name);
    snprintf(v->name + k, sizeof v->name - k, "%s%s", k ? ", and " : "", part);
    v->changes++;
}

/* Option k of axis ax applied to v: 0 when it does not apply. */
static int cvar_apply(const struct cctx *c, int ax, int k, struct cvar *v)
{
    char part[200];
    const struct cache_setup *s = c->s;
    if (ax == 0) {              /* the pairing */
        if (k == s->pairing)
            return 0;
        if (k == CP_WIDE)
            snprintf(part, sizeof part, "the (k, k+%d) pairing across a head "
                     "of %d", c->f->w / 2, c->f->w);
        else
            snprintf(part, sizeof part, "the %s pairing instead of %s",
                     cache_pairing_name(k), cache_pairing_name(s->pairing));
        v->pairing = k;
    } else if (ax == 1 && k == 1) {     /* proportional */
        if (c->f->w <= s->d || c->f->w / 2 > FREQ_BANDS_MAX)
            return 0;
        snprintf(part, sizeof part, "proportional (the exponent over head_dim "
                 "%d, not the %d rotary dims)", c->f->w, s->d);
        v->prop = 1;
    } else if (ax == 1) {       /* the width as the rotary dims */
        if (c->f->w == s->d || c->f->w / 2 > FREQ_BANDS_MAX)
            return 0;
        snprintf(part, sizeof part, "width %d: the cache built for %d rotary "
                 "dims instead of %d", c->f->w, c->f->w, s->d);
        v->dims = c->f->w;
    } else if (ax == 2) {       /* the attention factor */
        double a = k == 0 ? 1 : k == 1 ? c->a0 * c->a0
                 : hypot(c->f->cos[0], c->f->sin[0]);
        if (k < 2 && c->a0 == 1)
            return 0;
        if (fabs(a - c->a0) <= c->tol ||
            (k == 2 && (fabs(a - 1) <= c->tol ||
                        fabs(a - c->a0 * c->a0) <= c->tol)))
            return 0;
        if (k == 0)
            snprintf(part, sizeof part, "the attention factor %.6g not "
                     "folded into cos and sin", c->a0);
        else if (k == 1)
            snprintf(part, sizeof part, "the attention factor folded in twice "
                     "(%.6g)", a);
        else
            snprintf(part, sizeof part, "attention factor %.6g instead of "
                     "%.6g", a, c->a0);
        v->a = a;
    } else if (ax == 4) {       /* M-RoPE's slot map */
        if (!c->mrope || (k == 0 && !memcmp(c->axis[1], c->axis[0],
                                             sizeof c->axis[0])))
            return 0;
        if (k == 0)
            snprintf(part, sizeof part, "the %s slot map instead of %s",
                     c->s->mp->interleaved ? "chunked" : "interleaved",
                     c->s->mp->interleaved ? "interleaved" : "chunked");
        else
            snprintf(part, sizeof part, "1-D positions (every slot turning "
                     "by the token's index, not its t, h, w ids)");
        v->map = k + 1;
    } else {                    /* the position offset */
        double off = k == 0 ? implied_offset(c, v) : 1;
        if (off == 0 || (k == 1 && implied_offset(c, v) == 1))
            return 0;
        snprintf(part, sizeof part, "positions offset by %.0f", off);
        v->off = off;
    }
    add_name(v, part);
    return 1;
}

#define CAXES 5
static const int NOPT[CAXES] = { CP_COUNT, 2, 3, 2, 2 };

/* M-RoPE: the head's ids and each map's slot axes; 0, or -1 when the
 * sections do not fit. */
static int mrope_setup(struct cctx *c)
{
    const struct mpos_conf *mp = c->s->mp;
    int slots = c->s->d / 2;
    if (!mp || mp->mode != MPOS_MROPE || mp->nseg == 0 ||
        slots > FREQ_BANDS_MAX)
        return 0;
    int64_t count = mpos_count(mp);
    if (count < c->rows)
        c->rows = count;
    if (c->head.rows > c->rows)
        c->head.rows = (int)c->rows;
    if (cache_ids(c, 0, c->head.rows, c->hids) != 0 ||
        mpos_axes(mp, slots, c->axis[0], NULL, 0) != 0)
        return -1;
    struct mpos_conf other = *mp;
    other.interleaved = !mp->interleaved;
    if (mpos_axes(&other, slots, c->axis[1], NULL, 0) != 0)
        memcpy(c->axis[1], c->axis[0], sizeof c->axis[0]);
    c->mrope = 1;
    return 0;
}

/* Slots t 0-15, h 16-39, ...: the runs of each axis in map m. */
static void slots_text(const struct cctx *c, int m, char *buf, size_t len)
{
    int slots = c->s->d / 2;
    size_t k = (size_t)snprintf(buf, len, "slots");
    for (int a = 0; a < 3 && k < len; a++) {
        k += (size_t)snprintf(buf + k, len - k, "%s %s", a ? ";" : "",
                              mpos_axis_name(a, 0));
        int first = 1;
        for (int i = 0; i < slots && k < len; i++) {
            if (c->axis[m][i] != a || (i > 0 && c->axis[m][i - 1] == a))
                continue;
            int e = i;
            while (e + 1 < slots && c->axis[m][e + 1] == a)
                e++;
            k += (size_t)(e > i ? snprintf(buf + k, len - k, "%s%d-%d",
                                           first ? " " : ",", i, e)
                                : snprintf(buf + k, len - k, "%s%d",
                                           first ? " " : ",", i));
            first = 0;
        }
    }
}

static void cvar_config(const struct cctx *c, struct cvar *v)
{
    memset(v, 0, sizeof *v);
    v->pairing = c->s->pairing;
    v->dims = c->s->d;
    v->a = c->a0;
}

static int cache_before(const struct cache_match *a, const struct cache_match *b)
{
    return a->changes != b->changes ? a->changes < b->changes
                                    : a->residual < b->residual;
}

static void cache_record(struct cache_check *out, const struct cvar *v,
                         double res)
{
    if (out->nmatch >= CACHE_MATCH_MAX)
        return;
    struct cache_match m;
    snprintf(m.name, sizeof m.name, "%s", v->name);
    m.changes = v->changes;
    m.residual = res;
    int i = out->nmatch++;
    for (; i > 0 && cache_before(&m, &out->match[i - 1]); i--)
        out->match[i] = out->match[i - 1];
    out->match[i] = m;
}

/* Combinations that fit the head, to be held to the other rows. */
struct clist {
    int n;
    struct cfit q[CACHE_CAND_MAX];
};

/* v, its frequencies c's, into l when it fits the head. */
static void clist_try(const struct cctx *c, const struct cvar *v,
                      struct clist *l)
{
    if (l->n >= CACHE_CAND_MAX || cfit_make(c, v, &l->q[l->n]) != 0)
        return;
    cfit_rows(c, &l->q[l->n], &c->head, -1, NULL);
    l->n += !l->q[l->n].bad;
}

/* l's combinations held to the rows after the head; those that hold go
 * to out: 0, or -1 when a block cannot be read. */
static int clist_verify(struct cctx *c, struct clist *l,
                        struct cache_check *out)
{
    if (cache_stream(c, l->q, l->n, -1, NULL) != 0)
        return -1;
    for (int i = 0; i < l->n; i++)
        if (!l->q[i].bad)
            cache_record(out, &l->q[i].v, l->q[i].res);
    l->n = 0;
    return 0;
}

/* Try every pick of up to two changes: pick[ax] = option + 1, 0 none. */
static void cache_walk(const struct cctx *c, int *pick, int ax, int changes,
                       struct clist *l)
{
    if (ax == CAXES) {
        struct cvar v;
        cvar_config(c, &v);
        for (int a = 0; a < CAXES; a++)
            if (pick[a] && !cvar_apply(c, a, pick[a] - 1, &v))
                return;
        if (v.changes)
            clist_try(c, &v, l);
        return;
    }
    pick[ax] = 0;
    cache_walk(c, pick, ax + 1, changes, l);
    for (int k = 0; changes < 2 && k < NOPT[ax]; k++) {
        pick[ax] = k + 1;
        cache_walk(c, pick, ax + 1, changes + 1, l);
    }
    pick[ax] = 0;
}

/* M-RoPE, when no combination fits: each slot's axis alone, under the
 * settings' pairing, factor and no offset, found on the head; a
 * candidate into l when every slot follows one. */
static void cache_slots(struct cctx *c, struct clist *l)
{
    struct cvar v;
    cvar_config(c, &v);
    v.map = 3;
    for (int b = 0; b < c->s->d / 2; b++) {
        int found = -1;
        for (int a = 0; a < 3 && found < 0; a++) {
            c->axis[3][b] = (unsigned char)a;
            if (cvar_fit_head(c, &v, b) >= 0)
                found = a;
        }
        if (found < 0)
            return;
        c->axis[3][b] = (unsigned char)found;
    }
    char map[220];
    int sec[3];
    slots_text(c, 3, map, sizeof map);
    mpos_section(c->s->mp, c->s->d / 2, sec);
    snprintf(v.name, sizeof v.name, "%.220s (the settings: %s t, h, w "
             "%d, %d, %d)", map, c->s->mp->interleaved ? "interleaved"
             : "chunked", sec[0], sec[1], sec[2]);
    v.changes = 1;
    clist_try(c, &v, l);
}

/* The wrapped difference of two angles, in (-pi, pi]. */
static double cache_wrap(double x)
{
    return x - 2 * PEVIZ_PI * round(x / (2 * PEVIZ_PI));
}

/* The cache under frequency match m (with the settings' pairing at the
 * file's width), alone or with one change of factor or offset: each that
 * fits the head into l. */
static void cache_refit(const struct cctx *c, const struct freq_match *m,
                        struct clist *l)
{
    static struct cctx t;
    t = *c;
    memcpy(t.omega[0], m->omega, sizeof m->omega[0] * (size_t)m->nb);
    memcpy(t.omega[1], m->omega, sizeof m->omega[0] * (size_t)m->nb);
    for (int ax = 1; ax <= 3; ax++)
        for (int k = 0; k < (ax == 1 ? 1 : NOPT[ax]); k++) {
            struct cvar v;
            cvar_config(&t, &v);
            v.dims = c->f->w;
            snprintf(v.name, sizeof v.name, "frequencies: %.200s", m->name);
            if (ax > 1 && !cvar_apply(&t, ax, k, &v))
                continue;
            v.changes += m->changes + (c->f->w != c->s->d);
            clist_try(&t, &v, l);
        }
}

/* When no layout fits: the frequencies the cache turns by (its phase
 * unwrapped down the head's rows, for the settings' pairing at the
 * file's width) put to the frequency check, whose matches go to l. */
static void cache_freqs(const struct cctx *c, struct clist *l)
{
    static struct freq_file ff;
    static struct freq_check fr;
    const struct crows *h = &c->head;
    char err[200];
    int nb = c->f->w / 2, w = c->f->w;
    if (c->mrope || h->rows < 2 || nb > FREQ_BANDS_MAX ||
        c->s->pairing == CP_WIDE)
        return;
    memset(&ff, 0, sizeof ff);
    for (int b = 0; b < nb; b++) {
        int j = c->s->pairing == CP_INTERLEAVED ? 2 * b : b;
        double total = 0, prev = atan2(h->sin[j], h->cos[j]);
        for (int p = 1; p < h->rows; p++) {
            size_t k = (size_t)p * (size_t)w + (size_t)j;
            double ph = atan2(h->sin[k], h->cos[k]);
            total += cache_wrap(ph - prev);
            prev = ph;
        }
        double om = total / (h->rows - 1);
        if (!(om > 0))
            return;
        ff.v[b] = om;
        /* the phase's error at both ends, over the rows between */
        ff.tolv[b] = 4 * (c->tol + (h->rows - 1) * om * 0x1p-22) /
                     ((h->rows - 1) * om) + 0x1p-22;
        ff.tol = ff.tolv[b] > ff.tol ? ff.tolv[b] : ff.tol;
    }
    ff.n = nb;
    ff.dtype = FD_TEXT;
    snprintf(ff.what, sizeof ff.what, "the cache's frequencies");
    struct freq_setup fs = { c->s->sc, w, c->s->base, c->s->n,
                             c->s->head_dim, c->s->n };
    if (freq_check_setup(&ff, &fs, &fr, err, sizeof err) != 1)
        return;
    for (int i = 0; i < fr.nmatch; i++)
        if (fr.match[i].nb == nb)
            cache_refit(c, &fr.match[i], l);
}

/* The settings' own combination over every row, its worst into out:
 * 0 it holds, 1 it does not, -1 a block cannot be read. */
static int cache_config(struct cctx *c, struct cache_check *out)
{
    static struct cfit q;
    struct cvar v;
    cvar_config(c, &v);
    out->worst = -1;
    if (cfit_make(c, &v, &q) != 0)
        return 1;
    out->worst = 0;
    cfit_rows(c, &q, &c->head, -1, out);
    if (cache_stream(c, &q, 1, -1, out) != 0)
        return -1;
    return q.bad;
}

/* What reproduces the cache, into out: 0, or -1 when a block cannot be
 * read. */
static int cache_search(struct cctx *c, struct cache_check *out)
{
    static struct clist l;
    int pick[CAXES] = { 0 };
    l.n = 0;
    cache_walk(c, pick, 0, 0, &l);
    if (clist_verify(c, &l, out) != 0)
        return -1;
    if (out->nmatch == 0 && c->mrope) {
        cache_slots(c, &l);
        if (clist_verify(c, &l, out) != 0)
            return -1;
    }
    if (out->nmatch == 0) {
        cache_freqs(c, &l);
        if (clist_verify(c, &l, out) != 0)
            return -1;
    }
    int keep = 0;               /* a match holding a smaller one: dropped */
    for (int i = 0; i < out->nmatch; i++)
        if (out->match[i].changes == out->match[0].changes)
            out->match[keep++] = out->match[i];
    out->nmatch = keep;
    return 0;
}

/* The block buffer for the rows after the head: 0, or -1. */
static int cache_block(struct cctx *c)
{
    int w = c->f->w, rows = (1 << 18) / w;
    c->brows = rows < 1 ? 1 : rows > CACHE_HEAD_ROWS ? CACHE_HEAD_ROWS : rows;
    if (c->rows <= c->head.rows)
        return 0;
    c->bcos = malloc((size_t)c->brows * (size_t)w * sizeof *c->bcos);
    c->bsin = malloc((size_t)c->brows * (size_t)w * sizeof *c->bsin);
    return c->bcos && c->bsin ? 0 : -1;
}

/* The settings' frequencies into c: 0, or -1. */
static int cache_omegas(struct cctx *c)
{
    const struct cache_setup *s = c->s;
    if (s->d / 2 > FREQ_BANDS_MAX ||
        rope_inv_freq(s->sc, s->d, s->base, s->n, c->omega[0], NULL) != 0)
        return -1;
    if (c->f->w / 2 <= FREQ_BANDS_MAX &&
        rope_inv_freq(s->sc, c->f->w, s->base, s->n, c->omega[1], NULL) != 0)
        memcpy(c->omega[1], c->omega[0], sizeof c->omega[0]);
    memcpy(c->omega[2], c->omega[1], sizeof c->omega[1]);
    return 0;
}

static int cache_run(struct cctx *c, struct cache_check *out)
{
    if (cache_omegas(c) != 0) {
        snprintf(c->err, c->errlen, "the settings cannot be evaluated");
        return -1;
    }
    if (mrope_setup(c) != 0) {
        snprintf(c->err, c->errlen, "the M-RoPE sections do not fit d/2 = "
                 "%d slots", c->s->d / 2);
        return -1;
    }
    if (cache_block(c) != 0) {
        snprintf(c->err, c->errlen, "out of memory");
        return -1;
    }
    out->rows = c->rows;
    out->w = c->f->w;
    int k = cache_config(c, out);
    if (k != 1)
        return k;
    return cache_search(c, out) != 0 ? -1 : 1;
}

int cache_check(const struct cache_file *f, const struct cache_setup *s,
                struct cache_check *out, char *err, size_t errlen)
{
    static struct cctx c;
    memset(out, 0, sizeof *out);
    memset(&c, 0, sizeof c);
    c.f = f;
    c.s = s;
    c.a0 = rope_attention_factor(s->sc);
    c.tol = dtype_abs(f->dtype) * (c.a0 > 1 ? c.a0 : 1);
    c.rows = f->n;
    c.head = (struct crows){ f->cos, f->sin, 0, f->head, c.hids };
    c.err = err;
    c.errlen = errlen;
    int k = cache_run(&c, out);
    free(c.bcos);
    free(c.bsin);
    c.bcos = c.bsin = NULL;
    return k;
}
