/* SPDX-License-Identifier: ISC */
/*
 * test_textrows: without half blocks (no colour, or ASCII) a cell shows
 * one value, never the mix of two.  The heatmap then gives every
 * dimension whole text rows, labelled "dN"; each glyph must be the
 * density level of that dimension's value, computed here from the
 * formula: PE(p, 2i) = sin(p w_i), PE(p, 2i+1) = cos(p w_i),
 * w_i = base^(-2i/d), averaged over the positions of the column.
 */
#include <math.h>
#include <stdlib.h>

#include "app.h"
#include "frame.h"
#include "harness.h"

static const char RAMP[] = " .:-=+*#%@";

static double pe(int64_t p, int dim, int d, double base)
{
    double w = pow(base, -2.0 * (dim / 2) / d);
    return dim % 2 ? cos((double)p * w) : sin((double)p * w);
}

/* The glyph a cell of positions [p0, p1) of dim shows, or 0 when the
 * value sits on a rounding boundary (either neighbour is fine then). */
static char want_glyph(int64_t p0, int64_t p1, int dim, int d, double base)
{
    double s = 0;
    for (int64_t p = p0; p < p1; p++)
        s += pe(p, dim, d, base);
    double t = (s / (double)(p1 - p0) + 1) / 2 * 9;
    if (fabs(t - floor(t) - 0.5) < 1e-6)
        return 0;
    return RAMP[(int)lround(t)];
}

/* The resolved glyph at (x, y) of a frame drawn without colour. */
static uint32_t glyph(const canvas *c, int x, int y, int ascii)
{
    cell r = canvas_resolve(canvas_at(c, x, y), ascii, COLOR_NONE);
    return r.ch;
}

/* Read "dN" at the start of row y; -1 if the row has no label. */
static int row_label(const canvas *c, int y)
{
    char buf[8] = "";
    int n = 0;
    for (int x = 0; x < 4 && n < 7; x++) {
        uint32_t ch = glyph(c, x, y, 1);
        if (ch != ' ')
            buf[n++] = (char)ch;
    }
    buf[n] = 0;
    return buf[0] == 'd' && buf[1] >= '0' && buf[1] <= '9' ? atoi(buf + 1)
                                                           : -1;
}

static void check_heatmap(int d, int ascii, enum color_mode mode, int w,
                          int h)
{
    struct app a;
    canvas c;
    app_init(&a);
    a.p.d = d;
    a.ascii = ascii;
    a.color = mode;
    a.screen_w = w;
    a.screen_h = h;
    CHECK(canvas_init(&c, w, h) == 0);
    frame_draw(&a, &c);
    /* the map's first column: the cursor mark above position 0 */
    int mx = -1, rows = 0, glyphs = 0, slow_cos = 0;
    for (int x = 0; x < w && mx < 0; x++)
        if (canvas_at(&c, x, 2)->ch == 0x25BC)
            mx = x;
    CHECK(mx > 0);
    /* the map runs to the right edge: n = 128 positions shared out over
     * its W columns, column col holding [col n / W, (col + 1) n / W) */
    int64_t n = a.p.n, W = w - mx;
    CHECK(n == 128 && W < n);
    for (int y = 3; y < h - 4; y++) {
        int dim = row_label(&c, y);
        if (dim < 0)
            continue;
        rows++;
        for (int col = 0; col < W; col++) {
            if (y == 3 && col == 0)
                continue;               /* the cursor's own cell */
            char g = want_glyph(col * n / W, (col + 1) * n / W, dim, d, 1e4);
            uint32_t got = glyph(&c, mx + col, y, ascii);
            if (g == 0)
                continue;
            glyphs++;
            if (got != (uint32_t)g) {
                CHECK(got == (uint32_t)g);
                fprintf(stderr, "  d=%d row %d dim %d col %d: got '%c' "
                        "want '%c'\n", d, y, dim, col, (char)got, g);
                break;
            }
            t_pass++;
        }
        /* a slow cosine row: at the top of the ramp, never '#' */
        if (dim % 2 && pe(2, dim, d, 1e4) > 0.9999) {
            slow_cos++;
            CHECK(glyph(&c, mx + 1, y, ascii) == '@');
        }
    }
    CHECK(rows >= 6);                   /* labelled rows were found */
    CHECK(glyphs > 300);
    CHECK(slow_cos >= 1);
    canvas_free(&c);
}

/* The frame as ASCII text without colour, rows joined by newlines. */
static char *frame_ascii(struct app *a, int w, int h)
{
    canvas c;
    char *out = calloc((size_t)h * ((size_t)w + 1) + 1, 1), *p = out;   /* + NUL */
    if (!out || canvas_init(&c, w, h)) {
        free(out);
        return NULL;
    }
    a->screen_w = w;
    a->screen_h = h;
    frame_draw(a, &c);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++)
            *p++ = (char)glyph(&c, x, y, 1);
        *p++ = '\n';
    }
    canvas_free(&c);
    return out;
}

static int count_char(const char *s, const char *end, char ch)
{
    int n = 0;
    for (; s < end; s++)
        n += *s == ch;
    return n;
}

/* Overlaid series have marks of their own, shown in the legend, with no
 * colour at all: the profile's curves carry A and B and their line
 * styles (-- and . .), the spectrum's bands that never turn are '~'. */
static void check_marks(void)
{
    struct app a;
    app_init(&a);
    a.view = VIEW_COMPARE;
    a.ascii = 1;
    a.color = COLOR_NONE;
    CHECK(app_command(&a, "mode profile") == 0);
    char *t = frame_ascii(&a, 80, 24);
    CHECK(t != NULL);
    if (t) {
        char *legend = strstr(t, "distance 0:");
        CHECK(legend != NULL);
        if (legend) {
            CHECK(strstr(legend, "--A base=10000") != NULL);
            CHECK(strstr(legend, ". .B base=500000") != NULL);
            /* the plot above the legend: letters on both curves */
            char *plot = strchr(t, '\n') + 1;
            plot = strchr(plot, '\n') + 1;
            plot = strchr(plot, '\n') + 1;   /* below the pane headers */
            CHECK(count_char(plot, legend, 'A') >= 3);
            CHECK(count_char(plot, legend, 'B') >= 3);
        }
        free(t);
    }
    CHECK(app_command(&a, "mode spectrum") == 0);
    t = frame_ascii(&a, 80, 24);
    if (t) {
        char *legend = strstr(t, "bands turning in n");
        CHECK(legend != NULL);
        CHECK(strstr(t, "~~ <1 turn") != NULL);
        if (legend)     /* bands 11.. of A and 8.. of B do not turn */
            CHECK(count_char(t, legend, '~') >= 20);
        free(t);
    }
}

/* The big face's "cos" label never runs into the readout beside it. */
static void check_no_collisions(void)
{
    static const int S[][2] = { {80, 24}, {100, 40}, {120, 30}, {160, 48} };
    for (size_t i = 0; i < sizeof S / sizeof S[0]; i++) {
        struct app a;
        app_init(&a);
        a.view = VIEW_CLOCKS;
        a.color = COLOR_NONE;
        char *t = frame_ascii(&a, S[i][0], S[i][1]);
        CHECK(t != NULL);
        if (!t)
            continue;
        CHECK(strstr(t, "cos turns") == NULL);
        CHECK(strstr(t, "cos cos") == NULL);
        CHECK(strstr(t, "cos   ") != NULL);     /* the label, then blanks */
        free(t);
    }
}

int main(void)
{
    check_no_collisions();
    check_marks();
    check_heatmap(8, 0, COLOR_NONE, 80, 24);
    check_heatmap(8, 1, COLOR_NONE, 80, 24);
    check_heatmap(64, 0, COLOR_NONE, 80, 24);
    check_heatmap(64, 1, COLOR_NONE, 80, 24);
    check_heatmap(64, 1, COLOR_NONE, 80, 40);
    TEST_END("test_textrows");
}
