/* SPDX-License-Identifier: ISC */
/*
 * test_compare.c - the compare view (its math is tested with the library
 * in tests/lib/test_layout.c): the pane modes' names, the keys and ':'
 * commands acting on the active pane only, and drawing at every size
 * without a crash.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "app.h"
#include "frame.h"
#include "frames.h"
#include "keys.h"
#include "view.h"
#include "peviz/fmt.h"
#include "peviz/layout.h"
#include "peviz/pe.h"
#include "views/compare.h"
#include "views/compare_view.h"

/* The pane modes' names (app side: the modes are the view's). */
static void test_pane_modes(void)
{
    char buf[128];
    CHECK(pane_mode_parse("diff") == PANE_DIFF);
    CHECK(pane_mode_parse("Diff") < 0);
    CHECK_STR(pane_mode_name(PANE_SPECTRUM), "spectrum");
    /* the list names every mode in the table's order, each parsed back */
    char list[128] = "";
    for (int m = 0; m < PANE_MODE_COUNT; m++) {
        const char *name = pane_mode_name((enum pane_mode)m);
        CHECK(pane_mode_parse(name) == m);
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                 m == 0 ? "" : m == PANE_MODE_COUNT - 1 ? " or " : ", ", name);
    }
    CHECK_STR(pane_mode_list(buf, sizeof buf), list);
    /* the help card's v names every mode in the table's order, and c
     * those that draw scores */
    const struct view *cv = VIEWS[VIEW_COMPARE];
    const struct keybind *v = keys_find(cv->keys, 'v');
    const struct keybind *c = keys_find(cv->keys, 'c');
    const struct keybind *h = keys_find(cv->keys, 'h');
    char want[128] = "mode:", cwant[256] = "", hwant[256] = "", got[256];
    for (int m = 0; m < PANE_MODE_COUNT; m++) {
        const char *name = pane_mode_name((enum pane_mode)m);
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s %s",
                 m ? "," : "", name);
        if (cmp_mode_at(m)->scores)
            snprintf(cwant + strlen(cwant), sizeof cwant - strlen(cwant),
                     "%s%s", cwant[0] ? ", " : "", name);
        if (cmp_mode_at(m)->bands)
            snprintf(hwant + strlen(hwant), sizeof hwant - strlen(hwant),
                     "%s%s", hwant[0] ? ", " : "", name);
    }
    CHECK(v && c && h && cwant[0] && hwant[0]);
    if (v && c && h) {
        CHECK_STR(view_key_help(cv, v, got, sizeof got), want);
        const char *ch = view_key_help(cv, c, got, sizeof got);
        CHECK(strstr(ch, cwant) && ch[strlen(ch) - 1] == ')');
        /* h is the alias row of the arrows' labelled row: the help its
         * label row gives */
        const struct keybind *l = keys_find(cv->keys, PK_LEFT);
        const char *hh = l ? view_key_help(cv, l, got, sizeof got) : "";
        CHECK(strlen(hh) > strlen(hwant) &&
              strcmp(hh + strlen(hh) - strlen(hwant), hwant) == 0);
    }
}

/* ---- the view ----------------------------------------------------------- */

/* The view drawn at w x h; header rows 0..2 into head (3 x 1024). */
static void draw_view(const struct app *a, int w, int h, char head[3][1024])
{
    canvas c;
    char hint[256];
    if (canvas_init(&c, w, h))
        return;
    view_frame(a, VIEW_COMPARE, &c, 1, hint, sizeof hint);
    for (int y = 0; y < 3 && y < h; y++)
        canvas_row_utf8(&c, y, head[y], 1024);
    canvas_free(&c);
}

/* Text of pane k in a header row (split at the pane separator). */
static void pane_part(const char *row, int k, char *out, size_t len)
{
    const char *s = row;
    for (int i = 0; i < k && s; i++) {
        s = strstr(s, "\u2502");
        if (s)
            s += strlen("\u2502");
    }
    if (!s) {
        out[0] = 0;
        return;
    }
    const char *e = strstr(s, "\u2502");
    size_t n = e ? (size_t)(e - s) : strlen(s);
    if (n >= len)
        n = len - 1;
    memcpy(out, s, n);
    out[n] = 0;
}

static void setup(struct app *a)
{
    app_init(a);
    a->view = VIEW_COMPARE;
    a->p.n = 4096;
}

/* What mode m draws at 80x24 below the headers (rows 3 .. 21) with
 * pane B's scheme (0: pe), one string. */
static void mode_body(int m, int scheme, char *out, size_t len)
{
    struct app a;
    canvas c;
    char hint[256], row[1024];
    size_t n = 0;
    setup(&a);
    a.p.n = 256;
    a.cmp.mode = m;
    a.cmp.panes[1].scheme = scheme;
    out[0] = 0;
    if (canvas_init(&c, 80, 24))
        return;
    view_frame(&a, VIEW_COMPARE, &c, 1, hint, sizeof hint);
    for (int y = 3; y < 22 && n < len; y++) {
        canvas_row_utf8(&c, y, row, sizeof row);
        n += (size_t)snprintf(out + n, len - n, "%s\n", row);
    }
    canvas_free(&c);
}

/* A mode that says it draws scores (c's help lists it) draws them: pane
 * B's ALiBi scores change its picture, and B shows no card sending the
 * reader to another mode. */
static void test_mode_scores(void)
{
    static char pe[24 * 1024], alibi[24 * 1024];
    int b = 1 + scheme_parse("alibi"), nscores = 0;
    for (int m = 0; m < PANE_MODE_COUNT; m++) {
        if (!cmp_mode_at(m)->scores)
            continue;
        nscores++;
        mode_body(m, 0, pe, sizeof pe);
        mode_body(m, b, alibi, sizeof alibi);
        CHECK(!strstr(alibi, "draws its scores") && strcmp(pe, alibi) != 0);
    }
    CHECK(nscores > 0);
}

static void test_headers(void)
{
    struct app a;
    char h0[3][1024], h1[3][1024], pa[512], pb[512], qa[512], qb[512];
    setup(&a);
    draw_view(&a, 80, 23, h0);
    CHECK(strstr(h0[0], "A base=10000 d_model=64 n=4096") != NULL);
    CHECK(strstr(h0[0], "B base=500000 d_model=64 n=4096") != NULL);
    CHECK(strstr(h0[1], "critical band 23") != NULL);
    CHECK(strstr(h0[1], "critical band 16") != NULL);
    CHECK(strstr(h0[2], "0.08693 turns") != NULL);
    CHECK(strstr(h0[2], "0.001965 turns") != NULL);
    /* ']' then 'B': only pane B's header changes */
    CHECK(app_key(&a, ']') == ACT_VIEW_KEY);
    CHECK(a.cmp.active == 1);
    CHECK(app_key(&a, 'B') == ACT_VIEW_KEY);
    CHECK(a.cmp.panes[1].base == 5e6 && a.cmp.panes[0].base == 10000);
    CHECK(a.p.base == 10000);       /* the global base is not the pane's */
    draw_view(&a, 80, 23, h1);
    for (int y = 0; y < 3; y++) {
        pane_part(h0[y], 0, pa, sizeof pa);
        pane_part(h1[y], 0, qa, sizeof qa);
        pane_part(h0[y], 1, pb, sizeof pb);
        pane_part(h1[y], 1, qb, sizeof qb);
        if (y == 0) {       /* only the active-pane mark moved */
            CHECK(strstr(pa, "\u25B6A base=10000 d_model=64 n=4096") != NULL);
            CHECK(strstr(qa, " A base=10000 d_model=64 n=4096") != NULL);
            CHECK(strstr(qa, "\u25B6") == NULL);
            CHECK(strstr(qb, "\u25B6B base=5000000") != NULL);
        } else {
            CHECK_STR(qa, pa);
            CHECK(strcmp(pb, qb) != 0);
        }
    }
    CHECK(strstr(h1[0], "B base=5000000") != NULL);
    CHECK(strstr(h1[1], "critical band 14") != NULL);
    /* 'd' halves pane B's d_model only */
    CHECK(app_key(&a, 'd') == ACT_VIEW_KEY);
    CHECK(a.cmp.panes[1].d == 32 && a.cmp.panes[0].d <= 0 && a.p.d == 64);
}

static void test_keys(void)
{
    struct app a;
    setup(&a);
    CHECK(a.cmp.npanes == 2 && a.cmp.active == 0);
    app_key(&a, '+');
    CHECK(a.cmp.npanes == 3 && a.cmp.active == 2 && a.cmp.panes[2].base == 1e6);
    /* D, E, F start at pane A's base and take its scaling */
    a.p.base = 2e5;
    for (int k = 3; k < 6; k++) {
        app_key(&a, '+');
        CHECK(a.cmp.npanes == k + 1 && a.cmp.active == k &&
              a.cmp.panes[k].base == 2e5);
    }
    a.p.base = 10000;
    app_key(&a, '+');
    CHECK(a.cmp.npanes == 6 && strstr(a.msg, "6 panes is the most"));
    app_key(&a, 's');           /* pane F holds no scaling of its own */
    CHECK(a.msg_error && strstr(a.msg, "pane F takes pane A's"));
    CHECK(a.p.rope.method == ROPE_NONE);
    app_key(&a, '_');
    app_key(&a, '_');
    app_key(&a, '_');
    CHECK(a.cmp.npanes == 3);
    app_key(&a, ']');
    CHECK(a.cmp.active == 0);
    app_key(&a, '[');
    CHECK(a.cmp.active == 2);
    app_key(&a, '_');
    CHECK(a.cmp.npanes == 2 && a.cmp.active == 1);
    app_key(&a, '_');
    CHECK(a.cmp.npanes == 2);
    /* presets cycle and come back */
    const double want[4][2] = { { 10000, 1e6 }, { 500000, 1e6 }, { 100, 10000 },
                                { 10000, 500000 } };
    for (int i = 0; i < 4; i++) {
        app_key(&a, 'p');
        CHECK(a.cmp.panes[0].base == want[i][0] && a.cmp.panes[1].base == want[i][1]);
    }
    for (int i = 0; i < PANE_MODE_COUNT; i++) {
        CHECK(a.cmp.mode == (enum pane_mode)i);
        app_key(&a, 'v');
    }
    CHECK(a.cmp.mode == PANE_HEATMAP);
    /* the base clamps like the global keys do, with a message */
    a.cmp.active = 0;
    for (int i = 0; i < 10; i++)
        app_key(&a, 'b');
    CHECK(a.p.base == 2 && a.msg[0] != 0);     /* the keys stop at 2 */
    CHECK(a.cmp.panes[1].base == 500000);
    /* pane A is the global parameters: its d_model is a->p.d, and the
     * other panes keep theirs */
    app_key(&a, 'D');
    CHECK(a.p.d == 128 && a.cmp.panes[1].d == 64);
    /* the dimension cursor stays inside the widest pane */
    for (int i = 0; i < 200; i++)
        app_key(&a, 'j');
    CHECK(a.cmp.dim == 127);
    app_key(&a, PK_PGUP);
    CHECK(a.cmp.dim < 127);
    /* zoom: = in, - out, never below 8 positions */
    for (int i = 0; i < 20; i++)
        app_key(&a, '=');
    CHECK(a.cmp.zoom > 0 && (4096 >> a.cmp.zoom) >= 8);
    for (int i = 0; i < 20; i++)
        app_key(&a, '-');
    CHECK(a.cmp.zoom == 0);
    /* layouts and formats for the active pane only */
    app_key(&a, 'o');
    CHECK(a.cmp.panes[0].layout == LAYOUT_CONCAT && a.cmp.panes[1].layout == 0);
    app_key(&a, 'f');
    CHECK(a.cmp.panes[0].prec == PREC_F32 && a.cmp.panes[1].prec == PREC_F64);
}

static void test_commands(void)
{
    struct app a;
    setup(&a);
    a.view = VIEW_COMPARE;
    a.cmp.active = 1;
    CHECK(view_command(&a, "layout", "half") == 1 && !a.msg_error);
    CHECK(a.cmp.panes[1].layout == LAYOUT_HALF && a.cmp.panes[0].layout == 0);
    CHECK(view_command(&a, "layout", "diagonal") == 1 && a.msg_error);
    CHECK(a.cmp.panes[1].layout == LAYOUT_HALF);
    a.msg_error = 0;
    CHECK(view_command(&a, "precision", "bf16") == 1 && !a.msg_error);
    CHECK(a.cmp.panes[1].prec == PREC_BF16);
    CHECK(view_command(&a, "precision", "nan") == 1 && a.msg_error);
    CHECK(a.cmp.panes[1].prec == PREC_BF16);
    a.msg_error = 0;
    CHECK(view_command(&a, "base", "1e6") == 1 && !a.msg_error);
    CHECK(a.cmp.panes[1].base == 1e6 && a.p.base == 10000);
    const char *bad_base[] = { "1", "0", "-5", "nan", "inf", "1e400", "12abc", "" };
    for (size_t i = 0; i < sizeof bad_base / sizeof bad_base[0]; i++) {
        a.msg_error = 0;
        CHECK(view_command(&a, "base", bad_base[i]) == 1 && a.msg_error);
        CHECK(a.cmp.panes[1].base == 1e6);
    }
    a.msg_error = 0;
    CHECK(view_command(&a, "d", "128") == 1 && !a.msg_error);
    CHECK(a.cmp.panes[1].d == 128 && a.p.d == 64);
    const char *bad_d[] = { "7", "0", "-2", "131072", "x" };
    for (size_t i = 0; i < sizeof bad_d / sizeof bad_d[0]; i++) {
        a.msg_error = 0;
        CHECK(view_command(&a, "d", bad_d[i]) == 1 && a.msg_error);
        CHECK(a.cmp.panes[1].d == 128);
    }
    a.msg_error = 0;
    /* :mode is the pane-mode row's: the app tries it after the view */
    CHECK(app_command(&a, "mode profile") == 0 && a.cmp.mode == PANE_PROFILE);
    CHECK(app_command(&a, "mode x") != 0 && a.msg_error);
    /* the choices the refusals name are the tables' */
    char want[256], list[200];
    const char *w[16];
    snprintf(want, sizeof want, ":mode x: wants %s", pane_mode_list(list, sizeof list));
    CHECK_STR(a.msg, want);
    CHECK(view_command(&a, "layout", "x") == 1 && a.msg_error);
    for (int k = 0; k < LAYOUT_COUNT; k++)
        w[k] = layout_name((enum layout)k);
    snprintf(want, sizeof want, "layout: want %s",
             fmt_names(list, sizeof list, w, LAYOUT_COUNT, " or "));
    CHECK_STR(a.msg, want);
    CHECK(view_command(&a, "prec", "f8") == 1 && a.msg_error);
    for (int k = 0; k < PREC_COUNT; k++)
        w[k] = precision_name((enum precision)k);
    snprintf(want, sizeof want, "precision: want %s",
             fmt_names(list, sizeof list, w, PREC_COUNT, " or "));
    CHECK_STR(a.msg, want);
    CHECK(a.cmp.mode == PANE_PROFILE);
    CHECK(view_command(&a, "heads", "3") == 0);
}

/* A heatmap cell holds the exact mean of its column's positions: 4096
 * shared out over 36 columns, column c holding [4096 c / 36,
 * 4096 (c + 1) / 36), 113 or 114 of them; the last ends at n. */
static void test_cells(void)
{
    struct app a;
    canvas c;
    char hint[256];
    setup(&a);
    if (canvas_init(&c, 80, 23))
        return;
    view_frame(&a, VIEW_COMPARE, &c, 1, hint, sizeof hint);
    /* 80 wide, d = 64: 4-cell label gutter, panes of 37 with a 1-cell
     * mark gutter, so pane A has 36 columns from x = 5; 3 header rows */
    for (int col = 0; col < 36; col += 35) {
        int64_t p0 = 4096 * col / 36, p1 = 4096 * (col + 1) / 36;
        double sum0 = 0, sum1 = 0;
        for (int64_t q = p0; q < p1; q++) {
            sum0 += sin((double)q);
            sum1 += cos((double)q);
        }
        const cell *k = canvas_at(&c, 5 + col, 3);
        CHECK(p1 - p0 == (col ? 114 : 113));
        CHECK(k && k->kind == CELL_HALF);
        CHECK(k && k->fg == cmap_diverging(a.palette, sum0 / (double)(p1 - p0)));
        CHECK(k && k->bg == cmap_diverging(a.palette, sum1 / (double)(p1 - p0)));
    }
    CHECK(canvas_at(&c, 5 + 36, 3)->kind != CELL_HALF);   /* the gutter */
    CHECK(strstr(hint, "1 col = 113-114 pos") != NULL);
    canvas_free(&c);
}

/* h and l move the position to the first of the next drawn column
 * (column c of the 36 of an 80x24 screen starts at 4096 c / 36), H and
 * L by an eighth of the columns (4); in the spectrum they move the band. */
static void test_pos_keys(void)
{
    struct app a;
    setup(&a);
    a.screen_w = 80;
    a.screen_h = 24;
    app_key(&a, 'l');
    CHECK(a.p.pos == 4096 * 1 / 36);        /* 113 */
    app_key(&a, 'L');
    CHECK(a.p.pos == 4096 * 5 / 36);        /* 568 */
    app_key(&a, 'h');
    CHECK(a.p.pos == 4096 * 4 / 36);        /* 455 */
    app_key(&a, PK_HOME);
    CHECK(a.p.pos == 0);
    a.cmp.mode = PANE_SPECTRUM;
    app_key(&a, 'l');
    CHECK(a.p.pos == 0 && a.cmp.band == 1);
}

/* Every mode, every size, with odd panes: no crash, something drawn. */
static void test_sizes(void)
{
    const int sizes[][2] = { { 1, 1 }, { 2, 2 }, { 10, 3 }, { 19, 4 },
                             { 24, 5 }, { 30, 8 }, { 40, 12 }, { 80, 23 },
                             { 160, 47 }, { 300, 99 } };
    struct app a;
    setup(&a);
    a.p.n = 70000;
    a.cmp.npanes = 3;
    a.cmp.panes[1].prec = PREC_F16;         /* overflows past 65504 */
    a.cmp.panes[2].prec = PREC_BF16;
    a.cmp.panes[2].layout = LAYOUT_HALF;
    a.cmp.panes[2].d = 8;
    a.cmp.dim = 40;
    a.p.pos = 69999;
    int drawn = 1;
    for (int m = 0; m < PANE_MODE_COUNT; m++) {
        a.cmp.mode = (enum pane_mode)m;
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            canvas c;
            char hint[256];
            if (canvas_init(&c, sizes[i][0], sizes[i][1]))
                continue;
            view_frame(&a, VIEW_COMPARE, &c, 1, hint, sizeof hint);
            char row[2048];
            canvas_row_utf8(&c, 0, row, sizeof row);
            drawn &= strchr(row, 'A') != NULL;    /* pane A named */
            canvas_free(&c);
        }
    }
    CHECK(drawn);
}

/* "10", "100", "1000" or "1eN" as a tick label: N, else -1. */
static int tick_exp(const char *t)
{
    if (!strcmp(t, "10") || !strcmp(t, "100") || !strcmp(t, "1000"))
        return (int)strlen(t) - 1;
    if (t[0] == '1' && t[1] == 'e' && t[2] && strspn(t + 2, "0123456789") ==
        strlen(t + 2))
        return atoi(t + 2);
    return -1;
}

/* The spectrum at base 1e308, d_model 65536: the slowest wavelength
 * (6.1e308) and 2*pi*base overflow a double.  The old code turned -inf
 * into an int (undefined), drew a "0" tick and cut labels to "e291";
 * the text showed inf.  Every tick must be a whole label, rising, and
 * the numbers must match logs computed here in long double. */
static void test_huge_base(void)
{
    struct app a;
    canvas c;
    char hint[256], row[2048], want[64];
    int last = 1 << 30, ticks = 0, bad = 0, found_l = 0, found_t = 0;
    setup(&a);
    a.p.n = 128;
    a.p.base = 1e308;
    a.p.d = 65536;
    a.cmp.mode = PANE_SPECTRUM;
    long double l = log10l(2 * 3.14159265358979323846264338327950288L) +
                    65534.0L / 65536.0L * 308.0L;
    long double e = floorl(l);
    snprintf(want, sizeof want, "%.4Lge%.0Lf", powl(10, l - e), e);
    CHECK_STR(want, "6.149e308");              /* the test's own figure */
    CHECK(canvas_init(&c, 80, 24) == 0);
    view_frame(&a, VIEW_COMPARE, &c, 1, hint, sizeof hint);
    for (int y = 0; y < 24; y++) {
        canvas_row_utf8(&c, y, row, sizeof row);
        bad |= strstr(row, "inf") != NULL || strstr(row, "nan") != NULL;
        found_l |= strstr(row, want) != NULL;
        long double turns = log10l(128.0L) - l;
        char tw[32];
        snprintf(tw, sizeof tw, "%.4Lge%.0Lf", powl(10, turns - floorl(turns)),
                 floorl(turns));
        found_t |= strstr(row, tw) != NULL;
        if (y < 3 || y > 17)
            continue;
        char lab[16] = "";
        if (sscanf(row, "%15s", lab) != 1 || strspn(lab, "0123456789e") !=
            strlen(lab))
            continue;                          /* no tick on this row */
        int x = tick_exp(lab);                 /* a whole label, rising */
        ticks++;
        CHECK(x >= 1 && x < last);
        last = x >= 0 ? x : last;
    }
    CHECK(!bad);
    CHECK(found_l);
    CHECK(found_t);                             /* 2.082e-307 turns */
    CHECK(ticks >= 3);
    canvas_free(&c);
}

/*
 * The spectrum's y labels at base 1e300: powers of ten one round step
 * apart, each on the row of its value.  They were the first power to land
 * on each row: 1e284, 1e261, ..., 1e32, 1e10, 10, uneven, "1e10" some 11
 * decades from the row it stood on.
 */
static void test_spectrum_ticks_even(void)
{
    static const double BASE[] = { 1e300, 1e100, 1e30 };
    static const int SZ[][2] = { { 80, 24 }, { 60, 20 }, { 160, 48 } };
    struct app a;
    for (int b = 0; b < 3; b++)
        for (int z = 0; z < 3; z++) {
            setup(&a);
            a.p.n = 128;
            a.p.base = BASE[b];
            a.cmp.mode = PANE_SPECTRUM;
            char *t = frame_text(&a, SZ[z][0], SZ[z][1]);
            int e[64], rows[64], n = 0, y = 0;
            for (char *r = t; r && *r && n < 64; y++) {
                char lab[16] = "", line[64];
                snprintf(line, sizeof line, "%.*s", (int)strcspn(r, "\n"), r);
                if (sscanf(line, "%15s", lab) == 1 && tick_exp(lab) > 0 && y > 2) {
                    rows[n] = y;
                    e[n++] = tick_exp(lab);
                }
                r = strchr(r, '\n');
                r = r ? r + 1 : NULL;
            }
            CHECK(n >= 3);
            /* the rows from the top: 4 dots each over [lo, hi] decades */
            for (int i = 2; i < n; i++) {
                CHECK(e[i - 1] - e[i] == e[0] - e[1]);
                double per_row = (double)(e[0] - e[i]) / (rows[i] - rows[0]);
                CHECK(fabs((e[i - 1] - e[i]) / per_row - (rows[i] - rows[i - 1]))
                      <= 1.01);
            }
            free(t);
        }
}

/* The readout row (the one starting "pos ") of an 80x24 frame. */
static void readout_row(const struct app *a, char *row, size_t len)
{
    canvas c;
    row[0] = 0;
    if (canvas_init(&c, 80, 24))
        return;
    frame_draw_finished(a, &c);
    for (int y = 0; y < c.h; y++) {
        canvas_row_utf8(&c, y, row, len);
        if (strncmp(row, "pos ", 4) == 0)
            break;
        row[0] = 0;
    }
    canvas_free(&c);
}

/*
 * The cursor on the last dimension at d_model 64, then d_model halved
 * twice in another view: back in compare, the cursor is on a dimension
 * that exists (15, the last of 16) and the readout shows its values,
 * not "dim 63" with "A -" for a dimension no pane has.
 */
static void test_cursor_clamped_elsewhere(void)
{
    struct app a;
    char row[1024];
    app_init(&a);
    a.view = VIEW_COMPARE;
    for (int i = 0; i < 70; i++)
        app_key(&a, 'j');
    CHECK(a.cmp.dim == 63);
    app_key(&a, '1');
    app_key(&a, 'd');
    app_key(&a, 'd');
    app_key(&a, '4');
    CHECK(a.view == VIEW_COMPARE && a.p.d == 16);
    CHECK(a.cmp.dim == 15);
    readout_row(&a, row, sizeof row);
    CHECK(strstr(row, "dim 15 ") != NULL);
    CHECK(strstr(row, "dim 63") == NULL && strstr(row, "A -") == NULL);
    /* the value shown is PE(0, 15) = cos(0) = 1 in both panes */
    CHECK(strstr(row, "A cos band 7 = 1") != NULL);
    if (!strstr(row, "dim 15 "))
        fprintf(stderr, "  readout: %s\n", row);
}

/* Whether every cursor mark of the frame's axis rows stands clear: the
 * word before it blank or the whole last position hi, a blank after it. */
static int marks_clear(const char *t, const char *hi)
{
    static const char MARK[] = "\xe2\x96\xb2";        /* the cursor's mark */
    for (const char *m = strstr(t, MARK); m; m = strstr(m + 3, MARK)) {
        const char *w = m;
        while (w > t && w[-1] != ' ' && w[-1] != '\n' && (w[-1] & 0xC0) != 0x80
               && (unsigned char)w[-1] < 0x80)
            w--;
        char after = m[3];
        if ((w != m && ((size_t)(m - w) != strlen(hi) || strncmp(w, hi, m - w)))
            || (after != ' ' && after != '\n' && (unsigned char)after < 0x80)) {
            fprintf(stderr, "mark over a label near \"%.*s\"\n", (int)(m - w) + 4, w);
            return 0;
        }
    }
    return 1;
}

/* The position axis under the panes: the cursor's mark never covers a
 * digit of an end label or a letter of the note between them. */
static void test_axis_labels_whole(void)
{
    static const long CASE[][2] = {         /* n, pos */
        { 16777216, 16777215 }, { 128, 127 }, { 4096, 1000 }, { 1, 0 },
        { 2, 1 }, { 16777216, 8000000 },
    };
    static const int SZ[][2] = { { 80, 24 }, { 60, 20 }, { 160, 48 } };
    struct app a;
    char hi[24];
    for (size_t k = 0; k < sizeof CASE / sizeof CASE[0]; k++)
        for (size_t z = 0; z < 3; z++) {
            setup(&a);
            a.p.n = CASE[k][0];
            a.p.pos = CASE[k][1];
            snprintf(hi, sizeof hi, "%ld", CASE[k][0] - 1);
            char *t = frame_text(&a, SZ[z][0], SZ[z][1]);
            CHECK(t && marks_clear(t, hi));
            if (CASE[k][1] == CASE[k][0] - 1 && CASE[k][0] >= 128) {
                strcat(hi, "\xe2\x96\xb2");       /* the last label, whole */
                CHECK(t && strstr(t, hi));
            }
            free(t);
        }
}

/* The band axis of the spectrum and ratio modes: the mark at the last
 * band left "204▲" of 2047; now "2047▲", whole. */
static void test_band_axis_whole(void)
{
    static const enum pane_mode M[] = { PANE_SPECTRUM, PANE_RATIO };
    static const int BAND[] = { 0, 700, 1024, 2047 };
    struct app a;
    for (int m = 0; m < 2; m++)
        for (int b = 0; b < 4; b++) {
            setup(&a);
            a.p.d = 4096;
            a.cmp.mode = M[m];
            a.cmp.band = BAND[b];
            char *t = frame_text(&a, 80, 24);
            CHECK(t && marks_clear(t, "2047"));
            if (BAND[b] == 2047)
                CHECK(t && strstr(t, "2047\xe2\x96\xb2"));
            free(t);
        }
}

/* The diff mode fills its pane: at 160x48 the 64 dims of d_model 64 are
 * stretched over all 41 body rows (82 half-block pixel rows, a dim one
 * or two of them), with the position axis right under them on row 44,
 * above the legend, the readout and the status line; none empty; and
 * its 128 positions over all 76 columns of pane B. */
static void test_diff_fills_rows(void)
{
    struct app a;
    canvas c;
    char hint[256];
    setup(&a);
    a.p.n = 128;
    a.cmp.mode = PANE_DIFF;
    if (canvas_init(&c, 160, 47))
        return;
    view_frame(&a, VIEW_COMPARE, &c, 1, hint, sizeof hint);
    int filled = 0, axis = -1;
    for (int y = 0; y < 47; y++) {
        int halves = 0;
        for (int x = 0; x < 160; x++) {
            halves += canvas_at(&c, x, y)->kind == CELL_HALF;
            if (canvas_at(&c, x, y)->ch == 0x25B2 && axis < 0)
                axis = y;
        }
        filled += y >= 3 && y < 44 && halves == 76;     /* pane B's row */
    }
    CHECK(filled == 41);
    CHECK(axis == 44);
    CHECK(strstr(hint, "dims") == NULL);    /* every dim shown */
    canvas_free(&c);
}

/* :check FILE in the spectrum, against a dump written here by pow
 * (theta_i = 500^(-2i/16)): a '!' atop pane A over each of the 7 bands
 * that differ from base 10000, the file's omega beside the readout's,
 * the verdict in the hint; Esc clears it; the other modes refuse it. */
static void test_check(void)
{
    struct app a;
    char path[512], cmd[600], want[64];
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(path, sizeof path, "%s/peviz-cmpcheck-%ld.csv", dir, (long)getpid());
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    for (int i = 0; i < 8; i++)
        fprintf(f, "%.17g\n", pow(500, -2.0 * i / 16));
    fclose(f);
    setup(&a);
    a.p.d = 16;
    a.rt = views_rt_new();
    snprintf(cmd, sizeof cmd, "check %s", path);
    CHECK(app_command(&a, cmd) == -1 && strstr(a.msg, "spectrum mode only"));
    a.cmp.mode = PANE_SPECTRUM;
    CHECK(app_command(&a, cmd) == -1);
    CHECK(strstr(a.msg, "differs, 7 of 8 bands (!); matches base 500 instead "
                 "of 10000") != NULL);
    a.cmp.band = 2;
    char *t = frame_text(&a, 100, 30);
    int marks = 0;
    for (const char *q = t; q && *q; q++)
        marks += *q == '!';
    CHECK(marks == 7 + 1);              /* the bands, the verdict's "(!)" */
    snprintf(want, sizeof want, "A file \xcf\x89 %.6g", pow(500, -0.25));
    CHECK(t && strstr(t, want) != NULL);
    free(t);
    CHECK(app_key(&a, PK_ESC) != ACT_NONE);
    t = frame_text(&a, 100, 30);
    CHECK(t && !strchr(t, '!') && !strstr(t, "file \xcf\x89"));
    free(t);
    a.view = VIEW_ATTENTION;
    CHECK(app_command(&a, cmd) == -1 && strstr(a.msg, "clocks and compare only"));
    views_rt_free(a.rt);
    remove(path);
}

int main(void)
{
    test_check();
    test_pane_modes();
    test_mode_scores();
    test_huge_base();
    test_headers();
    test_keys();
    test_diff_fills_rows();
    test_commands();
    test_cells();
    test_sizes();
    test_cursor_clamped_elsewhere();
    test_pos_keys();
    test_axis_labels_whole();
    test_spectrum_ticks_even();
    test_band_axis_whole();
    TEST_END("test_compare");
}
