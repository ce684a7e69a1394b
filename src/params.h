/*
 * params.h - the four shared parameters and the one place that
 * validates them.  The command line, the keys and the ':' prompt all go
 * through these functions, so a value is accepted or refused the same
 * way everywhere.
 */
#ifndef PEVIZ_PARAMS_H
#define PEVIZ_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#define PARAM_D_MIN 2
#define PARAM_D_MAX 65536
#define PARAM_N_MIN 1
#define PARAM_N_MAX (1L << 24)
#define PARAM_D_DEFAULT 64
#define PARAM_BASE_DEFAULT 10000.0
#define PARAM_N_DEFAULT 128

typedef struct params {
    int d;          /* d_model: even, PARAM_D_MIN .. PARAM_D_MAX */
    double base;    /* finite, > 1 */
    int64_t n;      /* seq_len: PARAM_N_MIN .. PARAM_N_MAX */
    int64_t pos;    /* 0 .. n-1 */
} params;

enum param_id { P_D, P_BASE, P_N, P_POS };

void params_default(params *p);

/*
 * Strict number parsing: the whole string must be a number (leading and
 * trailing blanks allowed), no overflow, finite.  Return 0, or -1 with
 * *why set to a short reason ("not a number", "out of range", ...).
 */
int parse_long(const char *s, long *out, const char **why);
int parse_double(const char *s, double *out, const char **why);

/*
 * Parse text and set one parameter.  On error leave p unchanged, write a
 * one-line message naming the parameter, the value and the valid range
 * into err, and return -1.  Setting n clamps pos into range.
 */
int params_set(params *p, enum param_id id, const char *text,
               char *err, size_t errlen);

/* Set from a number, validated the same way. */
int params_set_d(params *p, long d, char *err, size_t errlen);
int params_set_base(params *p, double base, char *err, size_t errlen);
int params_set_n(params *p, long n, char *err, size_t errlen);
int params_set_pos(params *p, long pos, char *err, size_t errlen);

/*
 * Multiply a parameter by factor (0.5, 2, 0.1, 10, ...) as the keys do.
 * A result outside the range is clamped; then msg says so ("d_model is
 * at its maximum 65536") and the return is 1; 0 when unclamped.
 * d stays even, n stays an integer, base stays > 1.
 */
int params_scale(params *p, enum param_id id, double factor,
                 char *msg, size_t msglen);

/* A base as a user would type it: "10000", "500000", "1e6" style never
 * "1e+06"; integers up to 1e7 in full, otherwise short exponent form. */
void fmt_base(double base, char *buf, size_t len);

/* A real number for display with up to sig significant digits, without
 * "e+" noise: "0.3871", "1.2e-5", "6.2832e4". */
void fmt_num(double v, int sig, char *buf, size_t len);

/*
 * The number formatter with a width: v as fmt_num with sig digits when
 * |v| is in [1e-3, 10^sig) and that takes at most width characters,
 * else fmt_sci with sig - 1 decimals: "0.3162", "6283", "7.499e-4",
 * "1.490e4" for sig 4, width 8.  Zero and non-finite values as fmt_num.
 */
void fmt_num_w(double v, int sig, int width, char *buf, size_t len);

/* v as a mantissa with dec decimals (0..6) and a plain exponent,
 * "6.283e4", "-7.5e-4", the mantissa never rounded up to 10.  v finite,
 * non-zero. */
void fmt_sci(double v, int dec, char *buf, size_t len);

/* Decimal digits of a non-negative whole number (1 for 0..9). */
int fmt_digits(int64_t v);

/* The parameters as "d_model=64 base=10000 n=128 pos=0". */
void params_format(const params *p, char *buf, size_t len);

#endif
