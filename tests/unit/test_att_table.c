/* SPDX-License-Identifier: ISC */
/*
 * test_att_table.c - the attention view with a loaded table shorter than
 * n: positions past its rows are hatched, said in the legend and the
 * inspector, never filled with the stand-in; the numbers before the end
 * are the table's own dot products, computed here from its values.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "frames.h"
#include "harness.h"
#include "peviz/tables.h"

#define R 10
#define D 4
#define HATCH "\xe2\x95\xb1"

static double tab_v[R * D];

static void app_short(struct app *a, const struct pe_table *t, int64_t n)
{
    app_init(a);
    a->p.d = t->d;
    a->p.n = n;
    a->pe_table = t;
    a->pe_file_name = "short.csv";
    a->view = VIEW_ATTENTION;
    a->att.o.scheme = SCHEME_LEARNED;
    a->screen_w = 80;
    a->screen_h = 24;
}

/* The number after the first "S = " that starts a number. */
static double score_shown(const char *f)
{
    for (const char *p = f; p && (p = strstr(p, "S = ")); p += 4) {
        double v;
        if ((p[4] == '-' || (p[4] >= '0' && p[4] <= '9'))
            && sscanf(p + 4, "%lf", &v) == 1)
            return v;
    }
    return NAN;
}

/* The legend's row (its caption "S ..." or its low end first) with the
 * entry "╱ no row" followed by blanks or the panel's border. */
static int legend_entry(const char *f)
{
    for (const char *p = f; p && (p = strstr(p, HATCH " no row")); p++) {
        const char *eol = strchr(p, '\n'), *sol = p;
        while (sol > f && sol[-1] != '\n')
            sol--;
        const char *rest = p + strlen(HATCH " no row");
        if (*sol == 'S' || (*sol >= '0' && *sol <= '9') || *sol == '-')
            if (rest == eol || *rest == ' ')
                return 1;
    }
    return 0;
}

static int count(const char *f, const char *needle)
{
    int n = 0;
    for (const char *p = f; p && (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void test_short_table(void)
{
    for (int i = 0; i < R * D; i++)
        tab_v[i] = sin(0.9 * i) + 0.25 * (i % 3);
    struct pe_table t = { R, D, tab_v };
    struct app a;
    app_short(&a, &t, 24);
    a.att.ci = a.att.cj = 3;
    char *f = frame_text(&a, 80, 24);
    double want = 0;
    for (int k = 0; k < D; k++)
        want += tab_v[3 * D + k] * tab_v[3 * D + k];
    CHECK(f && strstr(f, "P: the --pe-file table"));
    CHECK(f && strstr(f, HATCH " no row: table has 10 rows"));
    CHECK(legend_entry(f));
    CHECK_NEAR(score_shown(f), want, 5e-4 * want);
    /* 14 of 24 positions missing: most of the matrix is hatched */
    CHECK(f && count(f, HATCH) > 100);
    CHECK(f && !strstr(f, "nan") && !strstr(f, "inf"));
    free(f);
    /* on a missing cell the inspector says so, with no number */
    a.att.ci = 15;
    a.att.cj = 2;
    f = frame_text(&a, 80, 24);
    CHECK(f && strstr(f, "i-j = 13  (missing)"));
    CHECK(f && strstr(f, "S: missing (" HATCH "). Position 15 has no row"));
    CHECK(f && strstr(f, "row i=15: missing"));
    CHECK(f && !strstr(f, "nan") && !strstr(f, "inf"));
    free(f);
    /* causal, softmax, ASCII without colour: '/' never blank (masked) */
    a.att.o.causal = a.att.o.softmax = 1;
    a.ascii = 1;
    a.color = COLOR_NONE;
    a.att.ci = a.att.cj = 0;
    f = frame_text(&a, 80, 24);
    CHECK(f && count(f, "/") > 100 && strstr(f, "/ no row: table has 10 rows"));
    CHECK(f && !strstr(f, "nan") && !strstr(f, "inf"));
    free(f);
    /* n within the table: nothing missing, nothing said */
    app_short(&a, &t, R);
    f = frame_text(&a, 80, 24);
    CHECK(f && !strstr(f, "no row") && !strstr(f, HATCH));
    free(f);
}

int main(void)
{
    test_short_table();
    TEST_END("test_att_table");
}
