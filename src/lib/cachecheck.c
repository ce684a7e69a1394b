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
    double a;                   /* the factor folded into cos and sin */
    int off_implied;            /* the offset the slowest band implies */
    double off;
    int changes;
    char name[300];
};

struct cctx {
    const struct cache_file *f;
    const struct cache_setup *s;
    double a0;                  /* the settings' attention factor */
    double omega[2][FREQ_BANDS_MAX];    /* at d, and at the file's width */
    double tol;
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
    return v->dims == c->s->d ? c->omega[0] : c->omega[1];
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
    return round(ang / om[band_of(c, v, best)]);
}

/* The largest difference of v from the file, or -1 beyond a tolerance;
 * at (and the values there) when asked. */
static double cvar_fit(const struct cctx *c, const struct cvar *v, int full,
                       struct cache_check *out)
{
    const struct cache_file *f = c->f;
    const double *om = omega_of(c, v);
    double off = v->off_implied ? implied_offset(c, v) : v->off, worst = 0;
    int ok = 1;
    for (int j = 0; j < f->w; j++)
        if (band_of(c, v, j) == -2)
            return -1;
    for (int p = 0; p < f->rows; p++)
        for (int j = 0; j < f->w; j++) {
            int b = band_of(c, v, j);
            double ang = b >= 0 ? ((double)p + off) * om[b] : 0;
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
        if (fabs(a - c->a0) <= c->tol || (k == 2 && fabs(a - 1) <= c->tol))
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

static const int NOPT[4] = { CP_COUNT, 1, 3, 2 };

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
    if (ax == 4) {
        struct cvar v;
        cvar_config(c, &v);
        for (int a = 0; a < 4; a++)
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
    out->rows = f->rows;
    out->w = f->w;
    cvar_config(&c, &v);
    out->worst = -1;
    if (cvar_fit(&c, &v, 1, out) >= 0)
        return 0;
    int pick[4] = { 0 };
    cache_walk(&c, pick, 0, 0, out);
    int keep = 0;               /* a match holding a smaller one: dropped */
    for (int i = 0; i < out->nmatch; i++)
        if (out->match[i].changes == out->match[0].changes)
            out->match[keep++] = out->match[i];
    out->nmatch = keep;
    return 1;
}
