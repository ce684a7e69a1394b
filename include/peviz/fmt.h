/* SPDX-License-Identifier: ISC */
/*
 * peviz/fmt.h - numbers as text: the one formatter for messages,
 * captions and labels, so a value reads the same everywhere.
 * Part of libpeviz: libc and libm only.
 */
#ifndef PEVIZ_FMT_H
#define PEVIZ_FMT_H

#include <stddef.h>
#include <stdint.h>

/* A base as a user would type it: "10000", "500000", "1e6" style never
 * "1e+06"; integers up to 1e7 in full, otherwise short exponent form. */
void fmt_base(double base, char *buf, size_t len);

/* A real number for display with up to sig significant digits, without
 * "e+" noise: "0.3871", "1.2e-5", "6.2832e4". */
void fmt_num(double v, int sig, char *buf, size_t len);

/*
 * The number formatter with a width: v as fmt_num with sig digits when
 * |v| is in [1e-3, 10^sig) and that takes at most width characters,
 * else fmt_sci with sig - 1 decimals, fewer while it is wider than width
 * (a cell clips text, and a clipped exponent is a wrong number):
 * "0.3162", "6283", "7.499e-4", "1.490e4", "1.0e-160" for sig 4, width 8.
 * Zero and non-finite values as fmt_num.
 */
void fmt_num_w(double v, int sig, int width, char *buf, size_t len);

/* v as a mantissa with dec decimals (0..6) and a plain exponent,
 * "6.283e4", "-7.5e-4", the mantissa never rounded up to 10.  v finite,
 * non-zero. */
void fmt_sci(double v, int dec, char *buf, size_t len);

/* A whole count (e.g. full turns) in at most width characters: in full
 * when its digits fit and a double holds it exactly (< 2^53), else as
 * fmt_num_w with 4 digits: "2670176", "2.021e301".  Never a wrapped
 * integer conversion. */
void fmt_count(double v, int width, char *buf, size_t len);

/* Decimal digits of a non-negative whole number (1 for 0..9). */
int fmt_digits(int64_t v);

/* n names as a list for messages and help: "a, b" + sep_last + "c"
 * (sep_last ", " or " or "), truncated to len.  Returns buf. */
const char *fmt_names(char *buf, size_t len, const char *const *names, int n,
                      const char *sep_last);

#endif
