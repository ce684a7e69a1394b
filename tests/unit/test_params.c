/* SPDX-License-Identifier: ISC */
/* The parameter module: strict parsing, ranges, clamping, formatting. */
#include "harness.h"
#include "params.h"

static void test_parse(void)
{
    long l;
    double d;
    const char *why;
    CHECK(parse_long("512", &l, &why) == 0 && l == 512);
    CHECK(parse_long(" 37 ", &l, &why) == 0 && l == 37);
    CHECK(parse_long("12abc", &l, &why) == -1);
    CHECK(parse_long("", &l, &why) == -1);
    /* scientific notation for a whole number, as -n 1e3 and :n 1e3 */
    CHECK(parse_long("1e3", &l, &why) == 0 && l == 1000);
    CHECK(parse_long("4.096e3", &l, &why) == 0 && l == 4096);
    CHECK(parse_long("1.5e0", &l, &why) == -1);      /* 1.5: not whole */
    CHECK(parse_long("8.0", &l, &why) == -1);        /* plain decimals: no */
    CHECK(parse_long("1e30", &l, &why) == -1);
    CHECK(parse_long("1e", &l, &why) == -1);
    CHECK(parse_long("99999999999999999999999", &l, &why) == -1);
    CHECK(parse_double("5e5", &d, &why) == 0 && d == 500000);
    CHECK(parse_double("1e4", &d, &why) == 0 && d == 10000);
    CHECK(parse_double("nan", &d, &why) == -1);
    CHECK(parse_double("inf", &d, &why) == -1);
    CHECK(parse_double("1e400", &d, &why) == -1);
    CHECK(parse_double("0x10", &d, &why) == -1);
    CHECK(parse_double("-0", &d, &why) == 0 && d == 0);
}

static void test_set(void)
{
    params p;
    char err[256];
    params_default(&p);
    CHECK(params_set(&p, P_D, "7", err, sizeof err) == -1 && p.d == 64);
    CHECK(strstr(err, "d_model 7") != NULL);
    CHECK(params_set(&p, P_D, "65536", err, sizeof err) == 0 && p.d == 65536);
    CHECK(params_set(&p, P_BASE, "1", err, sizeof err) == -1 && p.base == 10000);
    CHECK(params_set(&p, P_BASE, "-0", err, sizeof err) == -1);
    CHECK(params_set(&p, P_BASE, "1.0000001", err, sizeof err) == 0);
    CHECK(params_set(&p, P_N, "16777216", err, sizeof err) == 0);
    CHECK(params_set(&p, P_N, "16777217", err, sizeof err) == -1);
    CHECK(params_set(&p, P_POS, "16777215", err, sizeof err) == 0);
    CHECK(params_set(&p, P_N, "10", err, sizeof err) == 0 && p.pos == 9);
    CHECK(params_set(&p, P_POS, "10", err, sizeof err) == -1 && p.pos == 9);
    /* control characters never reach the message */
    CHECK(params_set(&p, P_D, "\033]0;x\007", err, sizeof err) == -1);
    CHECK(strchr(err, '\033') == NULL && strchr(err, '\007') == NULL);
}

static void test_scale(void)
{
    params p;
    char msg[256];
    params_default(&p);
    CHECK(params_scale(&p, P_D, 2, msg, sizeof msg) == 0 && p.d == 128);
    p.d = 2;
    CHECK(params_scale(&p, P_D, 0.5, msg, sizeof msg) == 1 && p.d == 2);
    CHECK(strstr(msg, "minimum") != NULL);
    p.d = 65536;
    CHECK(params_scale(&p, P_D, 2, msg, sizeof msg) == 1 && p.d == 65536);
    p.base = 10;
    CHECK(params_scale(&p, P_BASE, 0.1, msg, sizeof msg) == 1 && p.base == 2);
    p.n = 1; p.pos = 0;
    CHECK(params_scale(&p, P_N, 0.5, msg, sizeof msg) == 1 && p.n == 1);
    p.n = 100; p.pos = 99;
    CHECK(params_scale(&p, P_N, 0.5, msg, sizeof msg) == 0 && p.n == 50 && p.pos == 49);
}

static void test_format(void)
{
    char b[64];
    params p;
    fmt_base(10000, b, sizeof b);   CHECK_STR(b, "10000");
    fmt_base(500000, b, sizeof b);  CHECK_STR(b, "500000");
    fmt_base(1e6, b, sizeof b);     CHECK_STR(b, "1000000");
    fmt_base(1e20, b, sizeof b);    CHECK_STR(b, "1e20");
    fmt_base(2.5, b, sizeof b);     CHECK_STR(b, "2.5");
    fmt_num(1.5e-5, 3, b, sizeof b); CHECK_STR(b, "1.5e-5");
    params_default(&p);
    params_format(&p, b, sizeof b);
    CHECK_STR(b, "d_model=64 base=10000 n=128 pos=0");
}

int main(void)
{
    test_parse();
    test_set();
    test_scale();
    test_format();
    TEST_END("test_params");
}
