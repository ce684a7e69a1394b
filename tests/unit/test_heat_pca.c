/* SPDX-License-Identifier: ISC */
/*
 * test_heat_pca.c - the heatmap's principal-component panel (key p) on
 * tables whose components are known without any eigen-solver: a circle
 * of radius 2 over whole turns in a rotated plane (PC1 and PC2 explain
 * 50% each, every position lies at distance 2 from the centre), and the
 * panel's work done in slices while keys still act.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "frame.h"
#include "frames.h"
#include "harness.h"
#include "peviz/tables.h"
#include "view.h"

#define CN 96
#define CD 6

static double circle_v[CN * CD];

/* x_p = 2 cos(p w) a + 2 sin(p w) b + 0.7, a and b orthonormal in R^6. */
static void circle_make(void)
{
    const double a[CD] = { 0.6, 0.8, 0, 0, 0, 0 };
    const double b[CD] = { 0, 0, 0, 0.28, 0.96, 0 };
    for (int p = 0; p < CN; p++)
        for (int j = 0; j < CD; j++)
            circle_v[p * CD + j] = 2 * cos(p * 2 * M_PI / 24) * a[j]
                                   + 2 * sin(p * 2 * M_PI / 24) * b[j] + 0.7;
}

static void app_circle(struct app *a, const struct pe_table *t, int64_t pos)
{
    app_init(a);
    a->p.d = t->d;
    a->p.n = t->n;
    a->p.pos = pos;
    a->pe_table = t;
    a->pe_file_name = "dir/circle.csv";
    a->screen_w = 100;
    a->screen_h = 30;
}

static void test_circle_panel(void)
{
    struct pe_table t = { CN, CD, circle_v };
    struct app a;
    app_circle(&a, &t, 5);
    CHECK(app_key(&a, 'p') != ACT_NONE && a.heat.pca == 1);
    char *f = frame_text(&a, 100, 30);
    CHECK(f && strstr(f, "principal components of circle.csv: PC1 50.0%, "
                         "PC2 50.0%, PC3 0.0% of the variance"));
    /* the readout at pos 5: |(PC1, PC2)| is the radius 2 */
    const char *r = f ? strstr(f, "pos 5: PC1 ") : NULL;
    double y1 = NAN, y2 = NAN;
    CHECK(r && sscanf(r, "pos 5: PC1 %lf PC2 %lf", &y1, &y2) == 2);
    CHECK_NEAR(hypot(y1, y2), 2.0, 1e-3);
    CHECK(f && strstr(f, "PC1 PC2 PC3 against position (PC3 = 0: rank 2)"));
    CHECK(f && strstr(f, "p: back to the map"));
    free(f);
    /* the hand follows the cursor: a quarter turn on, 6 positions later */
    a.p.pos = 11;
    f = frame_text(&a, 100, 30);
    double z1 = NAN, z2 = NAN;
    r = f ? strstr(f, "pos 11: PC1 ") : NULL;
    CHECK(r && sscanf(r, "pos 11: PC1 %lf PC2 %lf", &z1, &z2) == 2);
    CHECK_NEAR(y1 * z1 + y2 * z2, 0.0, 2e-3);       /* orthogonal */
    CHECK_NEAR(fabs(y1 * z2 - y2 * z1), 4.0, 2e-3);  /* a quarter turn */
    free(f);
    CHECK(app_key(&a, 'p') != ACT_NONE && a.heat.pca == 0);
    f = frame_text(&a, 100, 30);
    CHECK(f && !strstr(f, "principal components"));
    free(f);
}

/*
 * A helix as GPT-2's table traces one: a slow turn along c (one over the
 * 96 positions) and a fast ellipse of radii 2 and 1.5 in the plane of a
 * and b (four turns), a, b, c orthonormal.  Over whole turns the three
 * are orthogonal, so the components are known by hand: PC1 = 3 cos(p v)
 * along c, PC2 = 2 cos(p w) along a, PC3 = 1.5 sin(p w) along b, with
 * variances 4.5, 2 and 1.125: 100% in three components.
 */
#define HN 96
static double helix_v[HN * CD];

static void test_helix_panel(void)
{
    const double a[CD] = { 0.6, 0.8, 0, 0, 0, 0 };
    const double b[CD] = { 0, 0, 0, 0.28, 0.96, 0 };
    const double c[CD] = { 0, 0, 0.6, 0, 0, 0.8 };
    double w = 2 * M_PI / 24, v = 2 * M_PI / HN;
    for (int p = 0; p < HN; p++)
        for (int j = 0; j < CD; j++)
            helix_v[p * CD + j] = 2 * cos(p * w) * a[j]
                                  + 1.5 * sin(p * w) * b[j]
                                  + 3 * cos(p * v) * c[j] + 0.3;
    double tot = 4.5 + 2 + 1.125;
    char want[160];
    snprintf(want, sizeof want, "principal components of helix.csv: PC1 "
             "%.1f%%, PC2 %.1f%%, PC3 %.1f%% of the variance",
             100 * 4.5 / tot, 100 * 2 / tot, 100 * 1.125 / tot);
    struct pe_table t = { HN, CD, helix_v };
    struct app ap;
    app_circle(&ap, &t, 5);
    ap.pe_file_name = "helix.csv";
    CHECK(app_key(&ap, 'p') != ACT_NONE && ap.heat.pca == 1);
    for (int64_t pos = 5; pos < HN; pos += 40) {
        ap.p.pos = pos;
        char *f = frame_text(&ap, 100, 30), at[32];
        CHECK(f && strstr(f, want));
        snprintf(at, sizeof at, "pos %lld: PC1 ", (long long)pos);
        const char *r = f ? strstr(f, at) : NULL;
        double y1 = NAN, y2 = NAN;
        CHECK(r && sscanf(r + strlen(at) - 4, "PC1 %lf PC2 %lf", &y1, &y2)
                   == 2);
        CHECK_NEAR(y1, 3 * cos((double)pos * v), 1e-3);
        CHECK_NEAR(y2, 2 * cos((double)pos * w), 1e-3);
        free(f);
    }
}

/* The pair read off the panel at pos: "pos P: PCi x PCj y". */
static int pair_at(const char *f, int64_t pos, int i, int j, double *x,
                   double *y)
{
    char at[48], mid[16];
    int gi = 0, gj = 0, used = 0;
    snprintf(at, sizeof at, "pos %lld: PC", (long long)pos);
    const char *r = f ? strstr(f, at) : NULL;
    if (!r || sscanf(r + strlen(at), "%d %lf PC%d %n", &gi, x, &gj, &used) != 3)
        return 0;
    snprintf(mid, sizeof mid, "%d", j);
    return gi == i && gj == j && sscanf(r + strlen(at) + used, "%lf", y) == 1
           && mid[0];
}

/*
 * :pca I J draws any pair: on the helix, PC2 against PC3 is the fast
 * ellipse 2 cos(p w), 1.5 sin(p w) (known by hand, as above); the keys
 * step the pair; from another view the command opens the heatmap's
 * panel; components past the table's rank read 0 and say so.
 */
static void test_pairs(void)
{
    struct pe_table t = { HN, CD, helix_v };
    struct app a;
    double w = 2 * M_PI / 24, x = NAN, y = NAN;
    app_circle(&a, &t, 7);
    a.view = VIEW_CLOCKS;
    CHECK(app_command(&a, "pca 2 3") == 0);
    CHECK(a.view == VIEW_HEATMAP && a.heat.pca == 1);
    char *f = frame_text(&a, 100, 30);
    CHECK(pair_at(f, 7, 2, 3, &x, &y));
    CHECK_NEAR(x, 2 * cos(7 * w), 1e-3);
    CHECK_NEAR(y, 1.5 * sin(7 * w), 1e-3);
    CHECK(f && strstr(f, "PC2 PC3 against position") != NULL &&
          strstr(f, "principal components: PC2 against PC3") != NULL);
    free(f);
    /* ] steps the second one: PC2 against PC4, nothing there (rank 3) */
    CHECK(app_key(&a, ']') != ACT_NONE && a.heat.pca_j == 4);
    f = frame_text(&a, 100, 30);
    CHECK(pair_at(f, 7, 2, 4, &x, &y));
    CHECK_NEAR(x, 2 * cos(7 * w), 1e-3);
    CHECK(y == 0);
    CHECK(f && strstr(f, "(PC4: beyond rank 3, 0)") != NULL);
    free(f);
    /* { steps the first one down to PC1, [ the second back to PC3 */
    CHECK(app_key(&a, '{') != ACT_NONE && a.heat.pca_i == 1);
    CHECK(app_key(&a, '[') != ACT_NONE && a.heat.pca_j == 3);
    f = frame_text(&a, 100, 30);
    CHECK(pair_at(f, 7, 1, 3, &x, &y));
    CHECK_NEAR(x, 3 * cos(7 * 2 * M_PI / HN), 1e-3);
    CHECK_NEAR(y, 1.5 * sin(7 * w), 1e-3);
    free(f);
    /* refusals change nothing; :pca off closes the panel */
    CHECK(app_command(&a, "pca 3 3") == -1 && a.heat.pca_i == 1);
    CHECK(app_command(&a, "pca 0 2") == -1);
    CHECK(app_command(&a, "pca 2 x") == -1 && a.heat.pca_j == 3);
    CHECK(app_command(&a, "pca off") == 0 && a.heat.pca == 0);
}

/* Without a file: the sinusoidal table's components; too big: said. */
static void test_sinusoid_and_limits(void)
{
    struct app a;
    app_init(&a);
    a.p.d = 16;
    a.p.n = 64;
    a.heat.pca = 1;
    char *f = frame_text(&a, 80, 24);
    CHECK(f && strstr(f, "PCs of the sinusoidal table: PC1 "));
    free(f);
    f = frame_text(&a, 100, 24);
    CHECK(f && strstr(f, "principal components of the sinusoidal table: "));
    free(f);
    a.p.d = 4096;
    a.p.n = 4096;
    f = frame_text(&a, 80, 24);
    CHECK(f && strstr(f, "n x d_model <= 2^22 values"));
    free(f);
    for (int w = 1; w <= 12; w += 11)      /* tiny screens: no crash */
        for (int h = 1; h <= 5; h += 4) {
            a.p.d = 8;
            a.p.n = 32;
            f = frame_text(&a, w, h);
            CHECK(f != NULL);
            free(f);
        }
}

/* The first row of a frame, as text. */
static void first_row(const char *f, char *out, size_t len)
{
    snprintf(out, len, "%.*s", f ? (int)strcspn(f, "\n") : 0, f ? f : "");
}

/*
 * n = 3: two directions at most, so two components, not "out of memory"
 * (three were asked of pca_begin, which refuses k > n - 1).  And the
 * title is a whole wording at every width, its last share never cut:
 * "... PC2" at 60 columns, "... of t" at 80.
 */
static void test_few_rows_and_title(void)
{
    static const int W[] = { 40, 50, 60, 80, 100, 160 };
    struct app a;
    app_init(&a);
    a.p.d = 64;
    a.p.n = 3;
    a.heat.pca = 1;
    char *f = frame_text(&a, 80, 24), row[512];
    CHECK(f && !strstr(f, "out of memory") && strstr(f, "PC1 "));
    free(f);
    a.p.n = 128;
    for (int i = 0; i < 6; i++) {
        f = frame_text(&a, W[i], 24);
        first_row(f, row, sizeof row);
        size_t n = strlen(row);
        while (n && row[n - 1] == ' ')
            row[--n] = 0;
        int whole = n > 1 && (row[n - 1] == '%' || strcmp(row + n - 8, "variance") == 0);
        if (!whole)
            fprintf(stderr, "%d columns: \"%s\"\n", W[i], row);
        CHECK(whole);
        free(f);
    }
}

int main(void)
{
    circle_make();
    test_circle_panel();
    test_helix_panel();
    test_pairs();
    test_sinusoid_and_limits();
    test_few_rows_and_title();
    TEST_END("test_heat_pca");
}
