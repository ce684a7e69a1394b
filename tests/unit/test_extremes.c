/* SPDX-License-Identifier: ISC */
/*
 * test_extremes.c - frames at extreme but valid settings (n = 1, n = 2^24,
 * narrow terminals): a value is shown whole with what it means, or not
 * at all; never a line cut before its number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "frames.h"
#include "harness.h"
#include "plot.h"

static const int SIZES[][2] = { { 60, 20 }, { 80, 24 }, { 160, 48 },
                                { 50, 16 } };
#define NSIZES (int)(sizeof SIZES / sizeof SIZES[0])

static void app_view(struct app *a, enum view_id v, int64_t n, int64_t pos)
{
    app_init(a);
    a->view = v;
    a->p.n = n;
    a->p.pos = pos;
}

/* Whether the line starting at s (wrapped over rows) reaches "= number". */
static int has_value_after(const char *s)
{
    for (const char *e = strstr(s, "= "); e && e - s < 1200; e = strstr(e + 2, "= "))
        if ((e[2] >= '0' && e[2] <= '9') || e[2] == '-')
            return 1;
    return 0;
}

/* The attention inspector's cell line, whole or in its brief form: at
 * 60x20 with n = 2^24 it stopped after "cell: mean over", value lost. */
static void test_attention_cell_line(void)
{
    static const int64_t N[] = { 128, 4096, 16777216 };
    struct app a;
    for (int k = 0; k < 3; k++)
        for (int z = 0; z < NSIZES; z++) {
            app_view(&a, VIEW_ATTENTION, N[k], 0);
            char *t = frame_text(&a, SIZES[z][0], SIZES[z][1]);
            CHECK(t != NULL);
            const char *line = t ? strstr(t, "cell: mean") : NULL;
            int ok = !line || has_value_after(line);
            /* no room for it: its brief form, the value kept */
            if (N[k] == 16777216 && SIZES[z][0] == 60)
                ok &= line || (t && strstr(t, "cell mean = 0") &&
                               has_value_after(strstr(t, "cell mean = ")));
            if (!ok)
                fprintf(stderr, "n=%lld %dx%d:\n%s", (long long)N[k],
                        SIZES[z][0], SIZES[z][1], t);
            CHECK(ok);
            free(t);
        }
}

/* The code point at cell column col of row y of t (one cell each), or 0. */
static unsigned cp_at(const char *t, int y, int col)
{
    for (; y > 0 && t; y--)
        t = strchr(t, '\n') ? strchr(t, '\n') + 1 : NULL;
    for (int c = 0; t && *t && *t != '\n'; c++) {
        unsigned u = (unsigned char)*t++;
        int more = u >= 0xF0 ? 3 : u >= 0xE0 ? 2 : u >= 0xC0 ? 1 : 0;
        u &= more ? 0x3F >> more : 0x7F;
        for (; more && *t; more--)
            u = (u << 6) | ((unsigned char)*t++ & 0x3F);
        if (c == col)
            return u;
    }
    return 0;
}

static int is_braille(unsigned u)
{
    return u > 0x2800 && u <= 0x28FF;
}

/*
 * A plot of one point (n = 1): the point drawn as a dash, and the axis's
 * one label "0" under it.  Compare's profile drew nothing at all; the
 * attention profile put its point mid-plot and the "0" at the left end.
 */
static void check_lone_point(const char *t, const char *what)
{
    int corner = -1, col0 = -1, dash = 0;
    for (int y = 0; y < 60 && corner < 0; y++)
        for (int c = 0; c < 200 && corner < 0; c++)
            if (cp_at(t, y, c) == 0x2514)         /* the axes' corner */
                corner = y;
    for (int c = 0; corner >= 0 && c < 200 && col0 < 0; c++)
        if (cp_at(t, corner + 1, c) == '0')
            col0 = c;
    for (int y = corner - 1; col0 > 0 && y >= 0 && y > corner - 40; y--)
        dash |= is_braille(cp_at(t, y, col0 - 1)) && is_braille(cp_at(t, y, col0))
                && is_braille(cp_at(t, y, col0 + 1));
    if (!dash)
        fprintf(stderr, "%s: no dash over the \"0\" (column %d):\n%s", what,
                col0, t);
    CHECK(dash);
}

static void test_lone_point(void)
{
    struct app a;
    for (int z = 0; z < NSIZES; z++) {
        app_view(&a, VIEW_COMPARE, 1, 0);
        a.cmp.mode = PANE_PROFILE;
        char *t = frame_text(&a, SIZES[z][0], SIZES[z][1]);
        CHECK(t != NULL);
        if (t)
            check_lone_point(t, "compare profile");
        free(t);
        app_view(&a, VIEW_ATTENTION, 1, 0);
        t = frame_text(&a, SIZES[z][0], SIZES[z][1]);
        CHECK(t != NULL);
        if (t && strstr(t, "\xe2\x94\x94"))
            check_lone_point(t, "attention profile");
        free(t);
    }
}

/*
 * Compare's dimension labels when a dimension is several rows tall
 * (d_model 2 or 4): each once, rising.  They read "0 0 0 0 1 1 1 1".
 */
static void test_compare_dim_labels(void)
{
    static const int D[] = { 2, 4, 8 };
    struct app a;
    for (int k = 0; k < 3; k++)
        for (int z = 0; z < NSIZES; z++) {
            app_view(&a, VIEW_COMPARE, 128, 0);
            a.p.d = D[k];
            char *t = frame_text(&a, SIZES[z][0], SIZES[z][1]);
            int last = -1, rising = 1, y = 0;
            for (char *r = t; r && *r; y++) {
                char line[16];
                int dim;
                snprintf(line, sizeof line, "%.*s", (int)strcspn(r, "\n"), r);
                /* a label: digits at the line's start, before the panes */
                if (y >= 3 && sscanf(line, "%d", &dim) == 1 && line[0] == ' ') {
                    rising &= dim > last;
                    last = dim;
                }
                r = strchr(r, '\n');
                r = r ? r + 1 : NULL;
            }
            if (!rising)
                fprintf(stderr, "d=%d %dx%d:\n%s", D[k], SIZES[z][0],
                        SIZES[z][1], t);
            CHECK(t && rising);
            free(t);
        }
}

/*
 * An inspector line wrapped over three rows keeps its indent on the third
 * (at 60x20, ALiBi head 64 of 64: "m =" then "0.003906" flush with the
 * lines' starts, read as a statement of its own).  The grid ends two
 * blanks before the panel; continuation rows start 4 further in.
 */
static void test_wrap_indent(void)
{
    struct app a;
    app_view(&a, VIEW_ATTENTION, 16777216, 0);
    a.att.o.scheme = SCHEME_ALIBI;
    a.att.o.heads = 64;
    a.att.o.head = 63;
    char *t = frame_text(&a, 60, 20);
    CHECK(t && strstr(t, "head 64"));
    int ok = t && strstr(t, "      0.003906 ");
    if (!ok)
        fprintf(stderr, "%s", t);
    CHECK(ok);
    free(t);
}

/*
 * A colour legend too narrow for its caption ("S mean of 137x137") keeps
 * the brief one ("S"): it showed "-0.4786 [strip] 17.99", two numbers of
 * nothing in particular.
 */
static void test_legend_brief(void)
{
    canvas c;
    char row[256];
    struct plot_legend lg = { "S mean of 137x137", "S", -0.4786, 17.99, 0, 4 };
    CHECK(canvas_init(&c, 60, 3) == 0);
    CHECK(plot_legend_draw(&c, 0, 0, 60, PAL_DEFAULT, &lg) > 0);
    canvas_row_utf8(&c, 0, row, sizeof row);
    CHECK(strncmp(row, "S mean of 137x137 -0.4786 ", 26) == 0);
    CHECK(plot_legend_draw(&c, 0, 1, 30, PAL_DEFAULT, &lg) > 0);
    canvas_row_utf8(&c, 1, row, sizeof row);
    CHECK(strncmp(row, "S -0.4786 ", 10) == 0);
    lg.brief = NULL;                    /* no brief form: no caption */
    CHECK(plot_legend_draw(&c, 0, 2, 30, PAL_DEFAULT, &lg) > 0);
    canvas_row_utf8(&c, 2, row, sizeof row);
    CHECK(strncmp(row, "-0.4786 ", 8) == 0);
    canvas_free(&c);
}

/* Compare's legend at 60 to 79 columns names both of the gutter's marks:
 * it said "▸ crit" and left "┊" (bands under one turn) unexplained. */
static void test_compare_legend_marks(void)
{
    struct app a;
    for (int w = 60; w < 80; w += 4) {
        app_view(&a, VIEW_COMPARE, 128, 0);
        char *t = frame_text(&a, w, 20);
        CHECK(t && strstr(t, "\xe2\x96\xb8 crit") &&
              strstr(t, "\xe2\x94\x8a <1 turn"));
        free(t);
    }
}

int main(void)
{
    test_attention_cell_line();
    test_lone_point();
    test_compare_dim_labels();
    test_wrap_indent();
    test_legend_brief();
    test_compare_legend_marks();
    TEST_END("test_extremes");
}
