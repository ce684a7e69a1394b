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
    int off_implied;            /* the offset the slowest band implies */
    int map;                    /* M-RoPE: 0 the settings' slot map, 1 the
                                   other layout, 2 1-D ids, 3 found */
    double off;
    int changes;
    char name[300];
};

struct cctx {
    const struct cache_file *f;
    const struct cache_setup *s;
    double a0;                  /* the settings' attention factor */
    double omega[3][FREQ_BANDS_MAX];    /* at d, at the file's width, and
                                           d/2 bands over the file's width
                                           (proportional) */
    double tol;
    int rows;                   /* compared: the file's, at most the
                                   sequence's tokens */
    int mrope;
    unsigned char axis[4][FREQ_BANDS_MAX];  /* each slot's, per map */
    int64_t ids[CACHE_ROWS_MAX][3];
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

/* Row p's position for band b under v (the offset left out). */
static double pos_of(const struct cctx *c, const struct cvar *v, int p, int b)
{
    if (!c->mrope || v->map == 2)
        return p;
    return (double)c->ids[p][c->axis[v->map][b]];
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
    double ang = atan2(c->f->sin[best], c->f->cos[best]);
    return round(ang / om[band_of(c, v, best)] -
                 pos_of(c, v, 0, band_of(c, v, best)));
}

/* The largest difference of v from the file, or -1 beyond a tolerance;
 * at (and the values there) when asked; only band only (-1: all). */
static double cvar_fit_band(const struct cctx *c, const struct cvar *v,
                            int full, struct cache_check *out, int only)
{
    const struct cache_file *f = c->f;
    const double *om = omega_of(c, v);
    double off = v->off_implied ? implied_offset(c, v) : v->off, worst = 0;
    int ok = 1;
    for (int j = 0; j < f->w; j++)
        if (band_of(c, v, j) == -2)
            return -1;
    for (int p = 0; p < c->rows; p++)
        for (int j = 0; j < f->w; j++) {
            int b = band_of(c, v, j);
            if (only >= 0 && b != only)
                continue;
            double ang = b >= 0 ? (pos_of(c, v, p, b) + off) * om[b] : 0;
            double t = c->tol + fabs(ang) * 0x1p-22;
            double wc = b >= 0 ? v->a * cos(ang) : 1;
            double ws = b >= 0 ? v->a * sin(ang) : 0;
            size_t k = (size_t)p * (size_t)f->w + (size_t)j;
            double dc = fabs(f->cos[k] - wc), ds = fabs(f->sin[k] - ws);
            double e = dc > ds ? dc : ds;
            if (!(e <= t)) {
                if (!full)
                    return -1;
                ok = 0;
            }
            if (full && !(e <= worst)) {
                worst = e;
                out->worst_pos = p;
                out->worst_col = j;
                out->want = dc >= ds ? wc : ws;
                out->found = dc >= ds ? f->cos[k] : f->sin[k];
            }
            worst = e > worst ? e : worst;
        }
    if (full)
        out->worst = worst;
    return ok ? worst : -1;
}

static double cvar_fit(const struct cctx *c, const struct cvar *v, int full,
                       struct cache_check *out)
{
    return cvar_fit_band(c, v, full, out, -1);
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
        struct cvar t = *v;
        t.off_implied = 0;
        double off = k == 0 ? implied_offset(c, &t) : 1;
        if (off == 0 || (k == 1 && implied_offset(c, &t) == 1))
            return 0;
        snprintf(part, sizeof part, "positions offset by %.0f", off);
        v->off = off;
    }
    add_name(v, part);
    return 1;
}

#define CAXES 5
static const int NOPT[CAXES] = { CP_COUNT, 2, 3, 2, 2 };

/* M-RoPE: the tokens' ids and each map's slot axes; 0, or -1 when the
 * sections do not fit. */
static int mrope_setup(struct cctx *c)
{
    static struct mpos_tok tok[CACHE_ROWS_MAX];
    const struct mpos_conf *mp = c->s->mp;
    int slots = c->s->d / 2;
    if (!mp || mp->mode != MPOS_MROPE || mp->nseg == 0 ||
        slots > FREQ_BANDS_MAX)
        return 0;
    int64_t count = mpos_count(mp);
    if (count < c->rows)
        c->rows = (int)count;
    if (mpos_fill(mp, 0, c->rows, tok) != 0 ||
        mpos_axes(mp, slots, c->axis[0], NULL, 0) != 0)
        return -1;
    struct mpos_conf other = *mp;
    other.interleaved = !mp->interleaved;
    if (mpos_axes(&other, slots, c->axis[1], NULL, 0) != 0)
        memcpy(c->axis[1], c->axis[0], sizeof c->axis[0]);
    for (int p = 0; p < c->rows; p++)
        for (int a = 0; a < 3; a++)
            c->ids[p][a] = tok[p].id[a];
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

/* Try every pick of up to two changes: pick[ax] = option + 1, 0 none. */
static void cache_walk(const struct cctx *c, int *pick, int ax, int changes,
                       struct cache_check *out)
{
    if (ax == CAXES) {
        struct cvar v;
        cvar_config(c, &v);
        for (int a = 0; a < CAXES; a++)
            if (pick[a] && !cvar_apply(c, a, pick[a] - 1, &v))
                return;
        double r = v.changes ? cvar_fit(c, &v, 0, NULL) : -1;
        if (r >= 0)
            cache_record(out, &v, r);
        return;
    }
    pick[ax] = 0;
    cache_walk(c, pick, ax + 1, changes, out);
    for (int k = 0; changes < 2 && k < NOPT[ax]; k++) {
        pick[ax] = k + 1;
        cache_walk(c, pick, ax + 1, changes + 1, out);
    }
    pick[ax] = 0;
}

/* M-RoPE, when no combination fits: each slot's axis alone, under the
 * settings' pairing, factor and no offset; a match when every slot
 * follows one. */
static void cache_slots(struct cctx *c, struct cache_check *out)
{
    struct cvar v;
    cvar_config(c, &v);
    v.map = 3;
    for (int b = 0; b < c->s->d / 2; b++) {
        int found = -1;
        for (int a = 0; a < 3 && found < 0; a++) {
            c->axis[3][b] = (unsigned char)a;
            if (cvar_fit_band(c, &v, 0, NULL, b) >= 0)
                found = a;
        }
        if (found < 0)
            return;
        c->axis[3][b] = (unsigned char)found;
    }
    double r = cvar_fit(c, &v, 0, NULL);
    if (r < 0)
        return;
    char map[220];
    int sec[3];
    slots_text(c, 3, map, sizeof map);
    mpos_section(c->s->mp, c->s->d / 2, sec);
    snprintf(v.name, sizeof v.name, "%.220s (the settings: %s t, h, w "
             "%d, %d, %d)", map, c->s->mp->interleaved ? "interleaved"
             : "chunked", sec[0], sec[1], sec[2]);
    v.changes = 1;
    cache_record(out, &v, r);
}

/* The wrapped difference of two angles, in (-pi, pi]. */
static double cache_wrap(double x)
{
    return x - 2 * PEVIZ_PI * round(x / (2 * PEVIZ_PI));
}

/* The cache under frequency match m (with the settings' pairing at the
 * file's width), alone or with one change of factor or offset: each that
 * reproduces every value is named. */
static void cache_refit(const struct cctx *c, const struct freq_match *m,
                        struct cache_check *out)
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
            double r = cvar_fit(&t, &v, 0, NULL);
            if (r >= 0) {
                v.changes += m->changes + (c->f->w != c->s->d);
                cache_record(out, &v, r);
            }
        }
}

/* When no layout fits: the frequencies the cache turns by (its phase
 * unwrapped down the rows, for the settings' pairing at the file's
 * width) put to the frequency check, whose matches are named. */
static void cache_freqs(const struct cctx *c, struct cache_check *out)
{
    static struct freq_file ff;
    static struct freq_check fr;
    const struct cache_file *f = c->f;
    char err[200];
    int nb = f->w / 2;
    if (c->mrope || c->rows < 2 || nb > FREQ_BANDS_MAX || c->s->pairing == CP_WIDE)
        return;
    memset(&ff, 0, sizeof ff);
    for (int b = 0; b < nb; b++) {
        int j = c->s->pairing == CP_INTERLEAVED ? 2 * b : b;
        double total = 0, prev = atan2(f->sin[j], f->cos[j]);
        for (int p = 1; p < c->rows; p++) {
            size_t k = (size_t)p * (size_t)f->w + (size_t)j;
            double ph = atan2(f->sin[k], f->cos[k]);
            total += cache_wrap(ph - prev);
            prev = ph;
        }
        double om = total / (c->rows - 1);
        if (!(om > 0))
            return;
        ff.v[b] = om;
        /* the phase's error at both ends, over the rows between */
        ff.tolv[b] = 4 * (c->tol + (c->rows - 1) * om * 0x1p-22) /
                     ((c->rows - 1) * om) + 0x1p-22;
        ff.tol = ff.tolv[b] > ff.tol ? ff.tolv[b] : ff.tol;
    }
    ff.n = nb;
    ff.dtype = FD_TEXT;
    snprintf(ff.what, sizeof ff.what, "the cache's frequencies");
    struct freq_setup fs = { c->s->sc, f->w, c->s->base, c->s->n,
                             c->s->head_dim, c->s->n };
    if (freq_check_setup(&ff, &fs, &fr, err, sizeof err) != 1)
        return;
    for (int i = 0; i < fr.nmatch; i++)
        if (fr.match[i].nb == nb)
            cache_refit(c, &fr.match[i], out);
}

int cache_check(const struct cache_file *f, const struct cache_setup *s,
                struct cache_check *out, char *err, size_t errlen)
{
    static struct cctx c;
    struct cvar v;
    memset(out, 0, sizeof *out);
    memset(&c, 0, sizeof c);
    c.f = f;
    c.s = s;
    c.a0 = rope_attention_factor(s->sc);
    c.tol = dtype_abs(f->dtype) * (c.a0 > 1 ? c.a0 : 1);
    if (s->d / 2 > FREQ_BANDS_MAX ||
        rope_inv_freq(s->sc, s->d, s->base, s->n, c.omega[0], NULL) != 0) {
        snprintf(err, errlen, "the settings cannot be evaluated");
        return -1;
    }
    if (f->w / 2 <= FREQ_BANDS_MAX &&
        rope_inv_freq(s->sc, f->w, s->base, s->n, c.omega[1], NULL) != 0)
        memcpy(c.omega[1], c.omega[0], sizeof c.omega[0]);
    memcpy(c.omega[2], c.omega[1], sizeof c.omega[1]);
    c.rows = f->rows;
    if (mrope_setup(&c) != 0) {
        snprintf(err, errlen, "the M-RoPE sections do not fit d/2 = %d "
                 "slots", s->d / 2);
        return -1;
    }
    out->rows = c.rows;
    out->w = f->w;
    cvar_config(&c, &v);
    out->worst = -1;
    if (cvar_fit(&c, &v, 1, out) >= 0)
        return 0;
    int pick[CAXES] = { 0 };
    cache_walk(&c, pick, 0, 0, out);
    if (out->nmatch == 0 && c.mrope)
        cache_slots(&c, out);
    if (out->nmatch == 0)
        cache_freqs(&c, out);
    int keep = 0;               /* a match holding a smaller one: dropped */
    for (int i = 0; i < out->nmatch; i++)
        if (out->match[i].changes == out->match[0].changes)
            out->match[keep++] = out->match[i];
    out->nmatch = keep;
    return 1;
}
