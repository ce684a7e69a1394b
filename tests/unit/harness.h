/* SPDX-License-Identifier: ISC */
/*
 * A tiny test harness: CHECK macros count passes and failures; main()
 * comes from the test file and ends with TEST_END, which prints
 * "<name>: N passed, M failed" and returns non-zero on any failure.
 */
#ifndef PEVIZ_HARNESS_H
#define PEVIZ_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int t_pass, t_fail;

#define CHECK(cond) do { \
    if (cond) t_pass++; \
    else { t_fail++; fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

/* |a - b| <= tol, reporting both values on failure. */
#define CHECK_NEAR(a, b, tol) do { \
    double ca_ = (a), cb_ = (b); \
    if (fabs(ca_ - cb_) <= (tol)) t_pass++; \
    else { t_fail++; fprintf(stderr, "%s:%d: FAIL: %s = %.17g, %s = %.17g (tol %g)\n", \
                             __FILE__, __LINE__, #a, ca_, #b, cb_, (double)(tol)); } \
} while (0)

#define CHECK_STR(a, b) do { \
    const char *ca_ = (a), *cb_ = (b); \
    if (ca_ && cb_ && strcmp(ca_, cb_) == 0) t_pass++; \
    else { t_fail++; fprintf(stderr, "%s:%d: FAIL: %s = \"%s\", want \"%s\"\n", \
                             __FILE__, __LINE__, #a, ca_ ? ca_ : "(null)", cb_ ? cb_ : "(null)"); } \
} while (0)

#define TEST_END(name) do { \
    printf("%s: %d passed, %d failed\n", (name), t_pass, t_fail); \
    return t_fail ? 1 : 0; \
} while (0)

#endif
