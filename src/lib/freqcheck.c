/* SPDX-License-Identifier: ISC */
/*
 * freqcheck.c - a dumped inv_freq against the settings, band by band
 * (peviz/freqcheck.h): the file read in each shape it can have, the
 * expected bands by rope_inv_freq (the numbers --export freqs prints),
 * and, when they differ, the variant search (freqsearch.c).
 */
#include "freqcheck_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

static double as_f32(double x)  { return (double)(float)x; }

/* Whether every value is a number of the type rounded by to, to the
 * file's own precision (text: what each value's printed digits hold). */
static int all_of(const struct freq_file *f, const double *v, int n,
                  double (*to)(double))
{
    for (int i = 0; i < n; i++) {
        double r = to(v[i]);
        if (r != v[i] && (f->dtype != FD_TEXT ||
                          fabs(r - v[i]) > f->tolv[i] * fabs(v[i])))
            return 0;
    }
    return 1;
}

/* The readings of the file: as it is, and each value twice (cat, or
 * interleaved) when every pair agrees; the frequencies (GGUF divisors:
 * theta_i / f_i at the settings' d). */
static int readings(const struct freq_file *f, int d, double base,
                    struct freq_found *ff)
{
    double theta[FREQ_BANDS_MAX], atol = f->dtype == FD_F16 ? 0x1p-25 : 0;
    int nr = 0, h = f->n / 2;
    struct freq_found *p = &ff[nr++];
    memset(p, 0, sizeof *p);
    p->n = f->n;
    if (f->divisors && f->n == d / 2 && d / 2 <= FREQ_BANDS_MAX)
        thetas(d, base, theta);
    for (int i = 0; i < f->n; i++) {
        p->v[i] = f->divisors && f->n == d / 2 && d / 2 <= FREQ_BANDS_MAX
                  ? theta[i] / f->v[i] : f->v[i];
        p->tolv[i] = f->tolv[i];
    }
    p->atol = atol;
    p->f32 = f->dtype == FD_F32 ||
             (f->dtype != FD_F16 && f->dtype != FD_BF16 &&
              all_of(f, p->v, p->n, as_f32));
    p->bf16 = f->dtype == FD_BF16 || all_of(f, p->v, p->n, freq_round_bf16);
    if (f->n % 2 || f->divisors || h > FREQ_BANDS_MAX)
        return nr;
    for (int shape = FS_CAT; shape <= FS_TWICE; shape++) {
        struct freq_found *q = &ff[nr];
        int ok = 1;
        *q = *p;
        q->n = h;
        q->shape = (enum freq_shape)shape;
        for (int i = 0; i < h && ok; i++) {
            int a = shape == FS_CAT ? i : 2 * i, b = shape == FS_CAT ? i + h : 2 * i + 1;
            ok = freq_within(p, a, p->v[a], p->v[b], 0);
            q->v[i] = p->v[a];
            q->tolv[i] = p->tolv[a];
        }
        nr += ok;
    }
    return nr;
}

/* ---- the check ----------------------------------------------------------- */

/* Compare reading p with the expected bands into out; the number beyond. */
static int compare(const struct freq_found *p, const double *want, int nb,
                   struct freq_check *out)
{
    out->ndiff = 0;
    out->worst = 0;
    for (int i = 0; i < nb; i++) {
        double r = fabs(p->v[i] - want[i]) / fabs(want[i]);
        r = isfinite(r) ? r : INFINITY;
        out->worst = r > out->worst ? r : out->worst;
        if (!freq_within(p, i, want[i], p->v[i], 0))
            out->band[out->ndiff++] = (struct freq_band){ i, want[i],
                                                          p->v[i], r };
    }
    return out->ndiff;
}

int freq_check_setup(const struct freq_file *f, const struct freq_setup *s,
                     struct freq_check *out, char *err, size_t errlen)
{
    static struct freq_found ff[3];
    double want[FREQ_BANDS_MAX];
    int d = s->d, best = -1;
    memset(out, 0, sizeof *out);
    if (d / 2 > FREQ_BANDS_MAX ||
        rope_inv_freq(s->sc, d, s->base, s->n, want, NULL) != 0) {
        snprintf(err, errlen, "the settings cannot be evaluated");
        return -1;
    }
    int nr = readings(f, d, s->base, ff);
    out->nbands = d / 2;
    out->nfound = f->n;
    for (int r = 0; r < nr; r++) {
        if (ff[r].n != d / 2)
            continue;
        if (best < 0 || compare(&ff[r], want, d / 2, out) == 0)
            best = r;
        if (compare(&ff[r], want, d / 2, out) == 0) {
            out->shape = ff[r].shape;
            out->nfound = ff[r].n;
            return 0;
        }
    }
    if (best >= 0) {
        compare(&ff[best], want, d / 2, out);
        out->shape = ff[best].shape;
        out->nfound = ff[best].n;
    }
    freq_search(s, ff, nr, out);
    if (best < 0 && out->nmatch == 0) {
        snprintf(err, errlen, "%s: %d values; the settings have d/2 = %d "
                 "bands (d = %d)", f->what, f->n, d / 2, d);
        return -1;
    }
    if (best < 0 || out->f32_only)
        out->ndiff = 0;
    return out->f32_only ? 0 : 1;
}

int freq_check(const struct freq_file *f, const rope_scaling *sc, int d,
               double base, int64_t n, struct freq_check *out, char *err,
               size_t errlen)
{
    struct freq_setup s = { sc, d, base, n, 0, 0 };
    return freq_check_setup(f, &s, out, err, errlen);
}
