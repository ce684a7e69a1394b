/* SPDX-License-Identifier: ISC */
/*
 * layout.c - dimension layouts, lower-precision PE and the spectrum
 * numbers (see layout.h for the definitions).
 */
#include <math.h>
#include <string.h>

#include "peviz/layout.h"
#include "peviz/names.h"
#include "peviz/pe.h"

#include "peviz/pi.h"

static const char *const LAYOUT_NAMES[LAYOUT_COUNT] = {
    "interleaved", "concat", "half"
};
static const char *const PREC_NAMES[PREC_COUNT] = {
    "f64", "f32", "bf16", "f16", "all-bf16", "all-f16"
};
static const char *const PREC_PIPELINES[PREC_COUNT] = {
    "f64 throughout", "f32 throughout", "f32 angle, bf16 value",
    "f32 angle, f16 value", "all bf16", "all f16"
};

const char *layout_name(enum layout l)
{
    return names_at(LAYOUT_NAMES, LAYOUT_COUNT, (int)l, "?");
}

int layout_parse(const char *s)
{
    return names_find(LAYOUT_NAMES, LAYOUT_COUNT, s);
}

const char *precision_name(enum precision p)
{
    return names_at(PREC_NAMES, PREC_COUNT, (int)p, "?");
}

int precision_parse(const char *s)
{
    if (s && strcmp(s, "f32-angle-bf16") == 0)
        return PREC_BF16;
    if (s && strcmp(s, "f32-angle-f16") == 0)
        return PREC_F16;
    return names_find(PREC_NAMES, PREC_COUNT, s);
}

const char *precision_pipeline(enum precision p)
{
    return (unsigned)p < PREC_COUNT ? PREC_PIPELINES[p] : "?";
}

enum precision prec_angle_format(enum precision p)
{
    switch (p) {
    case PREC_F32: case PREC_BF16: case PREC_F16: return PREC_F32;
    case PREC_ALL_BF16: return PREC_BF16;
    case PREC_ALL_F16:  return PREC_F16;
    default:            return PREC_F64;
    }
}

enum precision prec_value_format(enum precision p)
{
    switch (p) {
    case PREC_ALL_BF16: return PREC_BF16;
    case PREC_ALL_F16:  return PREC_F16;
    case PREC_F32: case PREC_BF16: case PREC_F16: return p;
    default:            return PREC_F64;
    }
}

/* x rounded to one of the four formats. */
static double round_to(enum precision fmt, double x)
{
    switch (fmt) {
    case PREC_F32:  return pe_round_f32(x);
    case PREC_BF16: return pe_round_bf16(x);
    case PREC_F16:  return pe_round_f16(x);
    default:        return x;
    }
}

/* ---- layouts ---------------------------------------------------------- */

void layout_map(enum layout l, int d, int j, int *band, int *is_cos)
{
    int h = d / 2;
    switch (l) {
    case LAYOUT_CONCAT:
        *band = j < h ? j : j - h;
        *is_cos = j >= h;
        break;
    case LAYOUT_HALF:
        *band = j < h ? j : j - h;
        *is_cos = j < h;
        break;
    case LAYOUT_INTERLEAVED:
    default:
        *band = j / 2;
        *is_cos = j % 2;
        break;
    }
}

int layout_dim(enum layout l, int d, int band, int is_cos)
{
    int h = d / 2;
    switch (l) {
    case LAYOUT_CONCAT:
        return is_cos ? h + band : band;
    case LAYOUT_HALF:
        return is_cos ? band : h + band;
    case LAYOUT_INTERLEAVED:
    default:
        return 2 * band + (is_cos != 0);
    }
}

/* ---- precision -------------------------------------------------------- */

double prec_round(enum precision p, double x)
{
    return round_to(prec_value_format(p), x);
}

double prec_exact_limit(enum precision p)
{
    switch (prec_angle_format(p)) {
    case PREC_F32:  return 16777216.0;          /* 2^24 */
    case PREC_BF16: return 256.0;               /* 2^8 */
    case PREC_F16:  return 2048.0;              /* 2^11 */
    case PREC_F64:
    default:        return 9007199254740992.0;  /* 2^53 */
    }
}

double layout_value(int d, double base, enum layout l, enum precision p,
                    int64_t pos, int j)
{
    int band, is_cos;
    layout_map(l, d, j, &band, &is_cos);
    if (p == PREC_F64)
        return pe_value((double)pos, 2 * band + is_cos, d, base);
    enum precision af = prec_angle_format(p), vf = prec_value_format(p);
    double w = round_to(af, pe_omega(band, d, base));
    double ang = round_to(af, round_to(af, (double)pos) * w);
    if (!isfinite(ang))
        return NAN;
    /* cos/sin come out in the angle's format, then are cast */
    double v = round_to(af, is_cos ? cos(ang) : sin(ang));
    return round_to(vf, v);
}

static double rounding_mean(int d, double base, enum layout l,
                            enum precision p, int64_t p0, int64_t p1, int j,
                            int64_t stride);

double layout_value_mean(int d, double base, enum layout l,
                         enum precision p, int64_t p0, int64_t p1, int j,
                         int64_t stride)
{
    int band, is_cos;
    if (p1 <= p0)
        return 0.0;
    layout_map(l, d, j, &band, &is_cos);
    double exact = pe_value_mean(p0, p1, 2 * band + is_cos, d, base);
    if (p == PREC_F64)
        return exact;
    return exact + rounding_mean(d, base, l, p, p0, p1, j, stride);
}

void layout_value_means(int d, double base, enum layout l, enum precision p,
                        const int64_t *p0, const int64_t *p1, int cols, int j,
                        int64_t stride, double *out)
{
    int band, is_cos;
    layout_map(l, d, j, &band, &is_cos);
    pe_value_means(p0, p1, cols, 2 * band + is_cos, d, base, out);
    if (p == PREC_F64)
        return;
    for (int c = 0; c < cols; c++)
        out[c] += rounding_mean(d, base, l, p, p0[c], p1[c], j, stride);
}

/* The mean rounding error of format p over every stride-th position of
 * [p0, p1) (stride 1: exact): layout_value less pe_value, the rounded
 * frequency and the exact one formed once per range. */
static double rounding_mean(int d, double base, enum layout l,
                            enum precision p, int64_t p0, int64_t p1, int j,
                            int64_t stride)
{
    int band, is_cos;
    layout_map(l, d, j, &band, &is_cos);
    if (stride < 1)
        stride = 1;
    enum precision af = prec_angle_format(p), vf = prec_value_format(p);
    double w = round_to(af, pe_omega(band, d, base)), ex[256];
    /* Centre the sample in the range so a coarse stride is not biased
     * towards its start. */
    int64_t start = p0 + ((p1 - p0 - 1) % stride) / 2;
    int64_t count = (p1 - 1 - start) / stride + 1;
    double err = 0.0, last_q = NAN, last_v = NAN;
    double exact_q = prec_exact_limit(p);   /* integers below: unrounded */
    for (int64_t i0 = 0; i0 < count; i0 += 256) {
        int m = count - i0 < 256 ? (int)(count - i0) : 256;
        int64_t q0 = start + i0 * stride;
        pe_values_step(q0, stride, m, 2 * band + is_cos, d, base, ex);
        for (int i = 0; i < m; i++) {
            double q = (double)(q0 + (int64_t)i * stride);
            double qr = q < exact_q ? q : round_to(af, q);
            if (qr != last_q) {     /* a short format holds runs of q */
                double ang = round_to(af, qr * w);
                last_q = qr;
                if (!isfinite(ang))
                    last_v = NAN;
                else    /* as layout_value: sin/cos in the angle's format */
                    last_v = round_to(vf, round_to(af, is_cos ? cos(ang)
                                                              : sin(ang)));
            }
            err += last_v - ex[i];
        }
    }
    return err / (double)count;
}

/* ---- the spectrum ----------------------------------------------------- */

int spectrum_critical_band(int d, double base, int64_t n)
{
    int h = d / 2;
    double dn = (double)n;
    /* wavelength_i > n  <=>  i > h * log(n / 2pi) / log(base); the closed
     * form gives a start, the loops make the answer exact at the edges. */
    double guess = floor((double)h * log(dn / (2 * PEVIZ_PI)) / log(base));
    int i = guess < 0 ? 0 : guess > h ? h : (int)guess;
    while (i > 0 && pe_wavelength(i - 1, d, base) > dn)
        i--;
    while (i < h && pe_wavelength(i, d, base) <= dn)
        i++;
    return i;
}

int spectrum_turning_bands(int d, double base, int64_t n)
{
    return spectrum_critical_band(d, base, n);
}

double spectrum_slowest_wavelength(int d, double base)
{
    return pe_wavelength(d / 2 - 1, d, base);
}

double spectrum_slowest_turns(int d, double base, int64_t n)
{
    return (double)n / spectrum_slowest_wavelength(d, base);
}

double spectrum_wavelength_limit(double base)
{
    return (2 * PEVIZ_PI) * base;
}
