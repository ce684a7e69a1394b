/*
 * freqcheck.c - a dumped inv_freq against the settings, band by band,
 * and the known port bugs that reproduce one (peviz/freqcheck.h).  Every
 * variant is evaluated by rope_inv_freq on changed settings; only the
 * float32 pow variant rescales each band by what float32 makes of
 * theta_i.
 */
#include "peviz/freqcheck.h"
#include "rope_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define FC_PI 3.14159265358979323846

double freq_dtype_tol(enum freq_dtype t)
{
    switch (t) {
    case FD_F32:  return 0x1p-22;
    case FD_F16:  return 0x1p-9;
    case FD_BF16: return 0x1p-6;
    default:      return 1e-12;
    }
}

const char *freq_dtype_name(enum freq_dtype t)
{
    static const char *const N[] = { "f64", "f32", "f16", "bf16", "text" };
    return (unsigned)t <= FD_TEXT ? N[t] : "?";
}

/* theta_i, the unscaled bands, at base (rope.h's: method none). */
static void thetas(int d, double base, double *theta)
{
    rope_scaling none;
    rope_scaling_default(&none);
    rope_inv_freq(&none, d, base, 1, theta, NULL);
}

/* The frequencies the file holds (divisors: theta_i / f_i). */
static void found_of(const struct freq_file *f, int d, double base,
                     double *found)
{
    double theta[FREQ_FILE_MAX];
    if (f->divisors)
        thetas(d, base, theta);
    for (int i = 0; i < f->n; i++)
        found[i] = f->divisors ? theta[i] / f->v[i] : f->v[i];
}

static double rel_err(double want, double got)
{
    double r = fabs(got - want) / fabs(want);
    return isfinite(r) ? r : INFINITY;
}

/* Whether every band of got is within its tolerance of want: tol[i]
 * (NULL: none), at least floor. */
static int all_within(const double *want, const double *got, int nb,
                      const double *tol, double floor_)
{
    for (int i = 0; i < nb; i++) {
        double t = tol && tol[i] > floor_ ? tol[i] : floor_;
        if (!(rel_err(want[i], got[i]) <= t))
            return 0;
    }
    return 1;
}

/* ---- the variants ------------------------------------------------------ */

struct vctx {
    const rope_scaling *sc;
    int d;
    double base;
    int64_t n;
    const double *found;
    const double *tol;          /* each band's */
    const double *expected;
    int f32;                    /* every found value a float32 number */
    int with_f32;               /* set: the variant matched with float32 pow */
};

/* 8 float32 ulp: float32 pow, and a float32 blend (llama3, yarn) that
 * rounds a few times more. */
#define F32_POW_TOL 0x1p-21

/* theta_i as float32 computes it: 1 / powf(base, (float)2i / d). */
static double theta_f32(double base, int i, int d)
{
    float x = (float)(2 * i) / (float)d;
    return (double)(1.0f / powf((float)base, x));
}

/* w (settings v at base) as a float32 program computes it: each band
 * rescaled by what float32 pow makes of theta_i, rounded to float32. */
static void to_f32_pow(const struct vctx *c, const rope_scaling *v,
                       double base, double *w)
{
    double b = rope_effective_base(v, c->d, base, c->n), theta[FREQ_FILE_MAX];
    thetas(c->d, b, theta);
    for (int i = 0; i < c->d / 2; i++)
        w[i] = (double)(float)(w[i] * (theta_f32(b, i, c->d) / theta[i]));
}

/* w from settings v, which may be a known bug's: YaRN's betas given
 * swapped are evaluated as such when the same settings in order pass
 * rope_check (which refuses beta_fast < beta_slow as settings). */
static int variant_eval(const struct vctx *c, const rope_scaling *v,
                        double base, double *w)
{
    rope_scaling ordered = *v;
    if (v->method == ROPE_YARN && v->beta_fast < v->beta_slow) {
        ordered.beta_fast = v->beta_slow;
        ordered.beta_slow = v->beta_fast;
    }
    if (c->n < 1 || rope_check(&ordered, c->d, base, NULL, 0) != 0)
        return -1;
    rope_eval(v, c->d, base, c->n, w, NULL);
    return 0;
}

/* Whether settings v reproduce the file (and differ from the expected);
 * for a file of float32 numbers also as float32 pow computes them. */
static int try_settings(struct vctx *c, const rope_scaling *v, double base)
{
    double w[FREQ_FILE_MAX];
    int nb = c->d / 2;
    if (variant_eval(c, v, base, w) != 0)
        return 0;
    if (!all_within(c->expected, w, nb, NULL, 0) &&
        all_within(w, c->found, nb, c->tol, 0))
        return 1;
    if (!c->f32 || all_within(c->expected, w, nb, NULL, F32_POW_TOL))
        return 0;
    to_f32_pow(c, v, base, w);
    return c->with_f32 = all_within(w, c->found, nb, c->tol, F32_POW_TOL);
}

/* YaRN's beta that puts corr() at dimension x: corr is
 * d ln(L / (2 pi beta)) / (2 ln base). */
static double beta_at(const struct vctx *c, double x)
{
    return (double)c->sc->original_max / (2 * FC_PI) *
           pow(c->base, -2.0 * x / c->d);
}

static int yarn_variants(struct vctx *c, char *name, size_t len)
{
    rope_scaling v = *c->sc;
    double lo, hi;
    v.truncate = !c->sc->truncate;
    if (try_settings(c, &v, c->base)) {
        snprintf(name, len, "yarn with truncate %s", v.truncate ? "on" : "off");
        return 1;
    }
    v = *c->sc;
    v.beta_fast = c->sc->beta_slow;
    v.beta_slow = c->sc->beta_fast;
    if (try_settings(c, &v, c->base)) {
        snprintf(name, len, "yarn with beta_fast and beta_slow swapped");
        return 1;
    }
    /* the ramp's top clamped at d/2 - 1: the same bounds, given unrounded
     * through the betas that put them there */
    rope_yarn_bounds(c->sc, c->d, c->base, &lo, &hi);
    if (hi > c->d / 2 - 1 && lo < c->d / 2 - 1) {
        v = *c->sc;
        v.truncate = 0;
        v.beta_fast = beta_at(c, lo);
        v.beta_slow = beta_at(c, c->d / 2 - 1);
        if (try_settings(c, &v, c->base)) {
            snprintf(name, len, "yarn with the ramp clamped at d/2-1 = %d "
                     "instead of d-1 = %d", c->d / 2 - 1, c->d - 1);
            return 1;
        }
    }
    return 0;
}

static int scaling_variants(struct vctx *c, char *name, size_t len)
{
    rope_scaling v;
    if (c->sc->method == ROPE_YARN && yarn_variants(c, name, len))
        return 1;
    if (c->sc->method != ROPE_NONE) {
        rope_scaling_default(&v);
        if (try_settings(c, &v, c->base)) {
            snprintf(name, len, "no scaling (%s not applied)",
                     rope_method_name(c->sc->method));
            return 1;
        }
    }
    if (c->sc->method == ROPE_LLAMA3) {
        rope_scaling_default(&v);
        v.method = ROPE_LINEAR;
        v.factor = c->sc->factor;
        if (try_settings(c, &v, c->base)) {
            snprintf(name, len, "llama3 applied as plain linear scaling by %g",
                     c->sc->factor);
            return 1;
        }
    }
    return 0;
}

/* The base bands 0 and 1 imply (their ratio is base^(2/d) whatever
 * uniform scaling there is), to 3 significant digits. */
static double implied_base(const struct vctx *c)
{
    if (c->d < 4 || !(c->found[0] > 0) || !(c->found[1] > 0))
        return 0;
    double b = pow(c->found[0] / c->found[1], c->d / 2.0);
    if (!(b > 1) || !isfinite(b))
        return 0;
    double e = pow(10, floor(log10(b)) - 2);
    return round(b / e) * e;
}

static int base_variants(struct vctx *c, char *name, size_t len)
{
    static const double USUAL[] = { 1e4, 1e5, 1.5e5, 5e5, 1e6, 5e6, 1e7,
                                    1e8, 1e9, 2e4, 5e4 };
    double cand[1 + sizeof USUAL / sizeof USUAL[0]];
    int nc = 0;
    cand[nc++] = implied_base(c);
    for (size_t k = 0; k < sizeof USUAL / sizeof USUAL[0]; k++)
        cand[nc++] = USUAL[k];
    for (int k = 0; k < nc; k++) {
        if (!(cand[k] > 1) || cand[k] == c->base)
            continue;
        if (try_settings(c, c->sc, cand[k])) {
            snprintf(name, len, "base %.10g instead of %.10g", cand[k],
                     c->base);
            return 1;
        }
    }
    return 0;
}

static int f32_pow_variant(const struct vctx *c, char *name, size_t len)
{
    double w[FREQ_FILE_MAX];
    if (!c->f32 || rope_inv_freq(c->sc, c->d, c->base, c->n, w, NULL) != 0)
        return 0;
    to_f32_pow(c, c->sc, c->base, w);
    if (all_within(w, c->found, c->d / 2, c->tol, F32_POW_TOL)) {
        snprintf(name, len, "inv_freq computed by float32 pow");
        return 1;
    }
    return 0;
}

/* Whether every found value is a float32 number (to its precision). */
static int all_f32(const struct vctx *c)
{
    for (int i = 0; i < c->d / 2; i++)
        if (rel_err((double)(float)c->found[i], c->found[i]) > c->tol[i])
            return 0;
    return 1;
}

/* ---- the check ----------------------------------------------------------- */

int freq_check(const struct freq_file *f, const rope_scaling *sc, int d,
               double base, int64_t n, struct freq_check *out, char *err,
               size_t errlen)
{
    double want[FREQ_FILE_MAX], found[FREQ_FILE_MAX];
    memset(out, 0, sizeof *out);
    if (d / 2 > FREQ_FILE_MAX ||
        rope_inv_freq(sc, d, base, n, want, NULL) != 0) {
        snprintf(err, errlen, "the settings cannot be evaluated");
        return -1;
    }
    if (f->n != d / 2) {
        snprintf(err, errlen, "%s: %d values; the settings have d/2 = %d "
                 "bands (d = %d)", f->what, f->n, d / 2, d);
        return -1;
    }
    found_of(f, d, base, found);
    out->nbands = d / 2;
    for (int i = 0; i < d / 2; i++) {
        double r = rel_err(want[i], found[i]);
        out->worst = r > out->worst ? r : out->worst;
        if (!(r <= f->tolv[i]))
            out->band[out->ndiff++] = (struct freq_band){ i, want[i],
                                                          found[i], r };
    }
    if (out->ndiff == 0)
        return 0;
    struct vctx c = { sc, d, base, n, found, f->tolv, want, 0, 0 };
    c.f32 = f->dtype == FD_F32 ||
            (f->dtype != FD_F16 && f->dtype != FD_BF16 && all_f32(&c));
    if (f32_pow_variant(&c, out->variant, sizeof out->variant))
        return 1;
    if ((scaling_variants(&c, out->variant, sizeof out->variant) ||
         base_variants(&c, out->variant, sizeof out->variant)) && c.with_f32) {
        size_t k = strlen(out->variant);
        snprintf(out->variant + k, sizeof out->variant - k,
                 ", and inv_freq by float32 pow");
    }
    return 1;
}
