/* SPDX-License-Identifier: ISC */
/*
 * fmt.c - numbers as text for messages and labels (see peviz/fmt.h).
 */
#include "peviz/fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Drop a "+" and leading zeros from an exponent: "1e+06" -> "1e6". */
static void tidy_exponent(char *s)
{
    char *e = strchr(s, 'e');
    if (!e)
        return;
    char *src = e + 1, *dst = e + 1;
    if (*src == '+')
        src++;
    else if (*src == '-')
        *dst++ = *src++;
    while (*src == '0' && src[1])
        src++;
    memmove(dst, src, strlen(src) + 1);
}

void fmt_base(double base, char *buf, size_t len)
{
    if (isfinite(base) && base == floor(base) && fabs(base) < 1e7)
        snprintf(buf, len, "%.0f", base);
    else if (isfinite(base) && fabs(base) < 1e7)
        snprintf(buf, len, "%.10g", base);
    else {
        snprintf(buf, len, "%.10g", base);
        tidy_exponent(buf);
    }
}

int fmt_digits(int64_t v)
{
    int n = 1;
    for (; v >= 10; v /= 10)
        n++;
    return n;
}

void fmt_num(double v, int sig, char *buf, size_t len)
{
    if (v == 0)
        v = 0;          /* never print "-0" */
    snprintf(buf, len, "%.*g", sig, v);
    tidy_exponent(buf);
}

void fmt_sci(double v, int dec, char *buf, size_t len)
{
    /* the mantissa rounds to 10.0..0 from here on */
    static const double CARRY[] = { 9.5, 9.95, 9.995, 9.9995, 9.99995,
                                    9.999995, 9.9999995 };
    dec = dec < 0 ? 0 : dec > 6 ? 6 : dec;
    int e = (int)floor(log10(fabs(v)));
    double m = v / pow(10, e);
    if (fabs(m) >= CARRY[dec]) {
        m /= 10;
        e++;
    }
    snprintf(buf, len, "%.*fe%d", dec, m, e);
}

void fmt_num_w(double v, int sig, int width, char *buf, size_t len)
{
    double a = fabs(v);
    fmt_num(v, sig, buf, len);
    if (!isfinite(v) || v == 0 || (a >= 1e-3 && a < pow(10, sig)
                                   && strlen(buf) <= (size_t)width))
        return;
    for (int dec = sig - 1; dec >= 0; dec--) {  /* never clipped mid-number */
        fmt_sci(v, dec, buf, len);
        if (strlen(buf) <= (size_t)width)
            return;
    }
}

void fmt_count(double v, int width, char *buf, size_t len)
{
    if (isfinite(v) && fabs(v) < 9007199254740992.0) {     /* 2^53 */
        snprintf(buf, len, "%.0f", v == 0 ? 0 : v);
        if (strlen(buf) <= (size_t)width)
            return;
    }
    fmt_num_w(v, 4, width, buf, len);
}

const char *fmt_names(char *buf, size_t len, const char *const *names, int n,
                      const char *sep_last)
{
    size_t used = 0;
    if (len)
        buf[0] = 0;
    for (int i = 0; i < n && used < len; i++) {
        const char *sep = i == 0 ? "" : i == n - 1 ? sep_last : ", ";
        int w = snprintf(buf + used, len - used, "%s%s", sep, names[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return buf;
}
