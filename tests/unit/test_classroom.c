/* SPDX-License-Identifier: ISC */
/*
 * test_classroom: what the tour's screens show at 80x24, the size of a
 * projector in a lecture hall: the term maps of the embedding-scaling
 * step, label collisions, the clocks' presenter zoom, profiles without
 * colour.
 */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "app.h"
#include "frame.h"
#include "frames.h"
#include "harness.h"
#include "params.h"
#include "plot.h"
#include "record.h"
#include "tour.h"

static const char *const EN = "assets/tours/en.tour";

/* Start the English tour at the step whose title starts with title. */
static int tour_at(struct app *a, const char *title)
{
    char err[256], cmd[32];
    app_init(a);
    a->tour_lang = "en";
    if (tour_start(a, EN, err, sizeof err))
        return -1;
    for (int i = 0; i < a->tour->nsteps; i++)
        if (strncmp(a->tour->steps[i].title, title, strlen(title)) == 0) {
            snprintf(cmd, sizeof cmd, "tour %d", i + 1);
            return tour_command(a, cmd);
        }
    return -1;
}

/* frame_text with the blanks at the end of each row taken off. */
static char *frame_trim(const struct app *a, int w, int h)
{
    char *f = frame_text(a, w, h), *o = f;
    if (!f)
        return NULL;
    for (const char *i = f; *i; i++) {
        if (*i == '\n')
            while (o > f && o[-1] == ' ')
                o--;
        *o++ = *i;
    }
    *o = 0;
    return f;
}

/* p.p of positions i and j: sum over the bands of cos((i - j) omega_b). */
static double pp(int64_t i, int64_t j, int d, double base)
{
    double s = 0;
    for (int b = 0; b < d / 2; b++)
        s += cos((double)(i - j) * pow(base, -2.0 * b / d));
    return s;
}

/* The largest |mean| of p.p over the k x k blocks of n positions. */
static double pp_block_max(int64_t n, int64_t k, int d, double base)
{
    double best = 0;
    for (int64_t i0 = 0; i0 < n; i0 += k)
        for (int64_t j0 = 0; j0 < n; j0 += k) {
            double sum = 0;
            int64_t cnt = 0;
            for (int64_t i = i0; i < i0 + k && i < n; i++)
                for (int64_t j = j0; j < j0 + k && j < n; j++, cnt++)
                    sum += pp(i, j, d, base);
            if (fabs(sum / (double)cnt) > best)
                best = fabs(sum / (double)cnt);
        }
    return best;
}

/* The number right after the first label in t that has one ("e·e
 * 509.3"), NAN when none has. */
static double number_after(const char *t, const char *label)
{
    for (const char *p = t ? strstr(t, label) : NULL; p;
         p = strstr(p + 1, label)) {
        char *end;
        const char *at = p + strlen(label);
        double v = strtod(at, &end);
        if (end != at && *at != ' ')
            return v;
    }
    return NAN;
}

/* Step 8: the four term maps.  Their maxima are whole (not cut to
 * "e·e max|·"), the maxima of block means say so, the cells on the
 * diagonal hold the mean over i = j (where e.e lives), so the maps bear
 * out the caption, e.e about twice p.p, at every size; the shared legend
 * scales the terms, not S. */
static void test_term_maps(void)
{
    struct app a;
    char want[64], m[32];
    CHECK(tour_at(&a, "Why embeddings are scaled") == 0);
    char *f = frame_text(&a, 80, 24);
    CHECK(f && strstr(f, "e\xc2\xb7" "e max|") == NULL);   /* not cut */
    CHECK(f && strstr(f, "max |mean|, diag i=j:") != NULL);
    CHECK(f && strstr(f, "cell: mean over 22 x 22 positions") != NULL);
    /* off the diagonal no block mean of p.p passes |PE|^2 = d/2, which
     * every diagonal cell holds */
    CHECK(pp_block_max(128, 22, 512, 10000) < 256);
    fmt_num(256, 4, m, sizeof m);
    snprintf(want, sizeof want, "p\xc2\xb7p %s", m);
    CHECK(f && strstr(f, want) != NULL);
    static const int SZ[3][2] = { { 80, 24 }, { 120, 40 }, { 160, 48 } };
    for (int z = 0; z < 3; z++) {
        char *g = frame_text(&a, SZ[z][0], SZ[z][1]);
        double ee = number_after(g, "e\xc2\xb7" "e "), pp = number_after(g,
                                                            "p\xc2\xb7p ");
        if (isnan(ee))
            ee = number_after(g, "e\xc2\xb7" "e max|mean|=");
        if (isnan(pp))
            pp = number_after(g, "p\xc2\xb7p max|mean|=");
        if (!(pp == 256 && ee > 1.5 * pp && ee < 2.5 * pp))
            printf("  step 8 at %dx%d: e.e %g, p.p %g\n", SZ[z][0], SZ[z][1],
                   ee, pp);
        CHECK(pp == 256 && ee > 1.5 * pp && ee < 2.5 * pp);
        free(g);
    }
    CHECK(f && strstr(f, "\nterms ") != NULL);              /* the legend */
    CHECK(f && strstr(f, "\nS ") == NULL);
    free(f);
    /* wide enough: the whole header on each map, no note */
    f = frame_text(&a, 160, 48);
    CHECK(f && strstr(f, "p\xc2\xb7p max|mean|=") != NULL);
    CHECK(f && strstr(f, "per term:") == NULL);
    free(f);
    tour_release(&a);
}

/* The row of text t that starts with prefix (a pointer into t), or NULL. */
static const char *row_starting(const char *t, const char *prefix)
{
    for (const char *r = t; r && *r; r = strchr(r, '\n') ? strchr(r, '\n') + 1
                                                        : NULL)
        if (strncmp(r, prefix, strlen(prefix)) == 0)
            return r;
    return NULL;
}

/* On the legend row "S ... hi   label│": at least two blanks between
 * the legend's last number and the profile's y label. */
static int legend_apart(const char *row)
{
    const char *bar = strstr(row, "\xe2\x94\x82"), *nl = strchr(row, '\n');
    if (!bar || (nl && bar > nl))
        return 1;               /* no profile beside the legend */
    const char *p = bar;
    while (p > row && p[-1] != ' ')
        p--;                    /* the label before the axis */
    if (p == bar)
        return 1;               /* no label on this row */
    int blanks = 0;
    while (p > row && p[-1] == ' ') {
        p--;
        blanks++;
    }
    return p == row || blanks >= 2;
}

/* The attention legend never runs into the profile's y label. */
static void test_legend_apart(void)
{
    static const char *const NAMES[] = { "sinusoidal", "rope", "alibi",
                                           "learned" };
    int bad = 0, seen = 0;
    for (int h = 20; h <= 30; h++)
        for (int sc = 0; sc < 4; sc++)
            for (int col = 0; col < 2; col++) {
                struct app a;
                char cmd[32];
                app_init(&a);
                a.color = col ? COLOR_256 : COLOR_NONE;
                snprintf(cmd, sizeof cmd, "scheme %s", NAMES[sc]);
                tour_command(&a, "view attention");
                tour_command(&a, cmd);
                char *f = frame_text(&a, 80, h);
                const char *r = f ? row_starting(f, "S ") : NULL;
                if (r) {
                    seen++;
                    if (!legend_apart(r)) {
                        bad++;
                        fprintf(stderr, "80x%d %s: %.*s\n", h, cmd,
                                (int)(strchr(r, '\n') - r), r);
                    }
                }
                free(f);
            }
    CHECK(seen > 40);
    CHECK(bad == 0);
}

/* Presenter zoom at 80x24: the clocks' readout keeps whole phrases
 * (wrapped, not cut) and names no table it hides; the attention matrix,
 * which the height limits as much without zoom, says so. */
static void test_presenter_80x24(void)
{
    struct app a;
    app_init(&a);
    CHECK(tour_command(&a, "view clocks") == 0);
    CHECK(tour_command(&a, "d 8") == 0);
    char *f = frame_text(&a, 80, 24);
    CHECK(f && strstr(f, "table: ") != NULL);   /* the table is shown */
    free(f);
    CHECK(tour_command(&a, "zoom") == 0 && a.presenter);
    a.msg[0] = 0;
    f = frame_trim(&a, 80, 24);
    CHECK(f && strstr(f, "table: ") == NULL);   /* no table, no legend */
    CHECK(f && strstr(f, "up =\n") == NULL);   /* never cut mid-phrase */
    CHECK(f && strstr(f, "o'clock,\n") == NULL);
    CHECK(f && strstr(f, "PE(pos,2i+1),\n") == NULL);
    free(f);
    /* the key numbers in the block font, with colour and without: pos 37
     * ("3" then "7"), the label on the middle row, font rows 2 and 3 */
    CHECK(tour_command(&a, "pos 37") == 0);
    for (int colour = 0; colour < 2; colour++) {
        a.color = colour ? COLOR_256 : COLOR_NONE;
        a.msg[0] = 0;
        f = frame_trim(&a, 80, 24);
        CHECK(f && strstr(f, "pos \xe2\x96\x80\xe2\x96\x80\xe2\x96\x88   "
                            "\xe2\x96\x88\n") != NULL);
        free(f);
    }
    CHECK(tour_command(&a, "view attention") == 0 && a.presenter);
    a.msg[0] = 0;
    CHECK(frame_has(&a, 80, 24, "zoom: the window's height limits"));
    f = frame_text(&a, 80, 48);                 /* taller: it grows */
    CHECK(f && strstr(f, "zoom: the window") == NULL);
    free(f);
}

/* Braille dots set in the canvas. */
static int braille_dots(const canvas *c)
{
    int n = 0;
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            uint32_t ch = canvas_at(c, x, y)->ch;
            if (ch >= 0x2800 && ch <= 0x28FF)
                n += __builtin_popcount(ch - 0x2800);
        }
    return n;
}

/* A flat curve of 80 points in each line style: solid sets every dot
 * column of the plot, dotted every other, sparse one in three; so two
 * curves that cross stay apart without colour. */
static void test_line_styles(void)
{
    double y[80];
    int count[PLOT_STYLES];
    for (int i = 0; i < 80; i++)
        y[i] = 1.0;
    for (int st = 0; st < PLOT_STYLES; st++) {
        canvas c;
        struct plot_spec sp;
        struct plot_series ser = { y, 80, RGB_DEFAULT, 0, st };
        memset(&sp, 0, sizeof sp);
        sp.xmin = 0;
        sp.xmax = 79;
        sp.dx = 1;
        sp.mark_x = NAN;            /* no cursor line */
        CHECK(canvas_init(&c, 45, 8) == 0);
        plot_lines(&c, 0, 0, 45, 8, &sp, &ser, 1, PAL_DEFAULT);
        count[st] = braille_dots(&c);
        canvas_free(&c);
    }
    int pw = 45 - 3 - 1;            /* the labels "1.5" and "0.5" */
    CHECK(count[PLOT_SOLID] == 2 * pw);
    CHECK(abs(count[PLOT_DOTTED] - pw) <= 1);
    CHECK(abs(count[PLOT_SPARSE] - 2 * pw / 3) <= 1);
    if (t_fail)
        fprintf(stderr, "dots: %d %d %d\n", count[0], count[1], count[2]);
}

/* The last step says what T does, and T does it: after Esc it comes
 * back to the step left, it does not start over. */
static void test_last_step_t(void)
{
    struct app a;
    CHECK(tour_at(&a, "Your turn") == 0);
    int last = a.tour->nsteps - 1;
    CHECK(a.tour_step == last);
    const char *text = a.tour->steps[last].text;
    CHECK(strstr(text, "T comes back to this step") != NULL);
    CHECK(strstr(text, "T starts the tour again") == NULL);
    tour_offer_key(&a, PK_ESC);
    CHECK(!areas_tour_running(&a));
    tour_offer_key(&a, 'T');
    CHECK(areas_tour_running(&a) && a.tour_step == last);
    CHECK(tour_command(&a, "tour 1") == 0 && a.tour_step == 0);
    tour_release(&a);
}

/* :help opens the help card; a view's own command elsewhere says
 * which view takes it, not "unknown command". */
static void test_commands(void)
{
    struct app a;
    app_init(&a);
    CHECK(tour_command(&a, "help") == 0 && a.help);
    a.help = 0;
    CHECK(tour_command(&a, "k 3") == -1 && a.msg_error);
    CHECK_STR(a.msg, ":k: clocks only (2 or :view clocks shows it)");
    CHECK(tour_command(&a, "scheme rope") == -1);
    CHECK_STR(a.msg, ":scheme: attention and compare only");
    CHECK(tour_command(&a, "i 3") == -1);
    CHECK_STR(a.msg, ":i: clocks and attention only");
    CHECK(tour_command(&a, "frobnicate") == -1);
    CHECK(strstr(a.msg, "unknown command :frobnicate") != NULL);
    CHECK(tour_command(&a, "view clocks") == 0);
    CHECK(tour_command(&a, "k 3") == 0 && a.clocks.k == 3);
}

/* Each command a view lists as its own: from the heatmap, a refusal that
 * names the view. */
static void test_view_commands(void)
{
    struct app a;
    app_init(&a);
    for (int v = 0; v < VIEW_COUNT; v++)
        for (const char *const *c = VIEWS[v]->commands; c && *c; c++) {
            CHECK(tour_command(&a, *c) == -1 && a.msg_error);
            CHECK(strstr(a.msg, VIEWS[v]->name) != NULL);
            CHECK(strstr(a.msg, " only") != NULL);
            CHECK(a.view == VIEW_HEATMAP);
        }
}

/* A Chinese tour: the status line's own words are Chinese too. */
static void test_zh_status(void)
{
    struct app a;
    char err[256];
    app_init(&a);
    a.tour_lang = "zh";
    CHECK(tour_start(&a, "assets/tours/zh.tour", err, sizeof err) == 0);
    char *f = frame_trim(&a, 100, 30);
    const char *last = f ? strrchr(f, '\n') : NULL;
    while (last && last > f && last[-1] != '\n')
        last--;
    CHECK(last && strncmp(last, "\xe5\xaf\xbc\xe8\xa7\x88 1/", 9) == 0);
    CHECK(last && strstr(last, "\xe6\xb3\xa8\xe6\x84\x8f\xe5\x8a\x9b") != NULL);
    CHECK(last && strstr(last, "? \xe5\xb8\xae\xe5\x8a\xa9") != NULL);
    CHECK(last && strstr(last, "? help") == NULL);
    free(f);
    tour_release(&a);
    app_init(&a);                   /* no tour: English */
    CHECK(frame_has(&a, 100, 30, "? help"));
}

/* A view's status hint in Chinese: each part with a Chinese form, its
 * numbers kept, ", " after a Chinese part a full-width comma; parts
 * without one (numbers, file names) stay. */
static void test_zh_hint_parts(void)
{
    static const char *const T[][2] = {
        { "1 px = 12x12 pos", "1 像素 = 12x12 个位置" },
        { "1 col = 1-2 pos, every 5th band",
          "1 列 = 1-2 个位置，每 5 个频段取一个" },
        { "1 pos = 4-5 cols, every 2nd dim pair, dims 0-33",
          "1 个位置 = 4-5 列，每 2 对维度取一对，维度 0-33" },
        { "bands 0..3 of 4", "频段 0..3（共 4 个）" },
        { "bands 4..7 of 32 (- for overview)",
          "频段 4..7（共 32 个，- 看全部）" },
        { "band 3 of 32", "第 3 个频段（共 32 个）" },
        { "8 of 32 bands, evenly spread", "8/32 个频段，均匀分布" },
        { "1 col = 2 pos, 17 of 32 dim pairs", "1 列 = 2 个位置，17/32 对维度" },
        { "1 px = 8x8 pos  |e|=23.49 |p|=16",
          "1 像素 = 8x8 个位置  |e|=23.49 |p|=16" },
        { "Q 30  k 0", "Q 30  k 0" },
        { "table 40x6 from wpe.csv, 1 col = 2 pos",
          "表 40x6，来自 wpe.csv，1 列 = 2 个位置" },
        { "every 21st band", "每 21 个频段取一个" },
        { "every second band", "every second band" },
    };
    char out[256];
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        text_zh_hint(T[i][0], out, sizeof out);
        CHECK_STR(out, T[i][1]);
    }
    /* cut short: never half a character */
    text_zh_hint("1 px = 12x12 pos", out, 11);
    CHECK_STR(out, "1 像素 =");
    text_zh_hint("1 px = 12x12 pos", out, 9);
    CHECK_STR(out, "1 像素");
    text_zh_hint("1 px = 12x12 pos", out, 8);
    CHECK_STR(out, "1 像");
}

/* At 80x24 the Chinese tour's status line carries the view's hint in
 * Chinese, whole characters within 80 cells; an English tour keeps it. */
static void test_zh_hint_frame(void)
{
    struct app a;
    char err[256], row[1024];
    canvas c;
    app_init(&a);
    a.tour_lang = "zh";
    CHECK(tour_start(&a, "assets/tours/zh.tour", err, sizeof err) == 0);
    CHECK(canvas_init(&c, 80, 24) == 0);
    frame_draw(&a, &c);
    canvas_row_utf8(&c, 23, row, sizeof row);
    CHECK(strstr(row, "1 \xe5\x83\x8f\xe7\xb4\xa0 = ") != NULL);
    CHECK(strstr(row, "\xe4\xb8\xaa\xe4\xbd\x8d\xe7\xbd\xae") != NULL);
    if (!strstr(row, "\xe4\xb8\xaa\xe4\xbd\x8d\xe7\xbd\xae"))
        fprintf(stderr, "  status: %s\n", row);
    CHECK(strstr(row, "1 px") == NULL);
    CHECK(text_width(row) <= 80);
    for (int x = 0; x < 80; x++)    /* a wide glyph's tail follows it */
        if (canvas_at(&c, x, 23)->kind == CELL_WIDE_TAIL)
            CHECK(x > 0 && cp_width(canvas_at(&c, x - 1, 23)->ch) == 2);
    canvas_free(&c);
    tour_release(&a);
    app_init(&a);
    CHECK(tour_start(&a, "assets/tours/en.tour", err, sizeof err) == 0);
    CHECK(frame_has(&a, 80, 24, "1 px = 8x8 pos"));
    tour_release(&a);
}

/* Count of needle in the row of t that holds mark. */
static int count_in_row(const char *t, const char *mark, const char *needle)
{
    const char *m = t ? strstr(t, mark) : NULL;
    if (!m)
        return -1;
    while (m > t && m[-1] != '\n')
        m--;
    const char *end = strchr(m, '\n');
    int n = 0;
    for (const char *p = strstr(m, needle); p && (!end || p < end);
         p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The compare panes share the position axis: they name its columns
 * alike, whatever else each pane's axis row says. */
static void test_compare_axis_alike(void)
{
    struct app a;
    app_init(&a);
    CHECK(tour_command(&a, "view compare") == 0);
    char *f = frame_text(&a, 80, 24);
    CHECK(count_in_row(f, "\xe2\x96\xb2", "1 col = 3-4 pos") == 2);
    CHECK(count_in_row(f, "\xe2\x96\xb2", "pos/col") == 0);
    free(f);
    a.color = COLOR_NONE;
    f = frame_text(&a, 80, 24);
    CHECK(count_in_row(f, "\xe2\x96\xb2", "1 col = 3-4 pos") == 2);
    free(f);
}

/* Quadrant block pixels (2 x 2 a cell) in the canvas. */
static int quad_pixels(const canvas *c)
{
    static const uint32_t CP[16] = {
        ' ', 0x2598, 0x259D, 0x2580, 0x2596, 0x258C, 0x259E, 0x259B,
        0x2597, 0x259A, 0x2590, 0x259C, 0x2584, 0x2599, 0x259F, 0x2588
    };
    int n = 0;
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++)
            for (int b = 1; b < 16; b++)
                if (canvas_at(c, x, y)->kind == CELL_TEXT &&
                    canvas_at(c, x, y)->ch == CP[b])
                    n += __builtin_popcount((unsigned)b);
    return n;
}

/* The ink of the frame's faces, in braille dots: a dot each, and a
 * quadrant pixel (one dot wide, two tall) two; *blocks gets the pixels. */
static int frame_dots(const struct app *a, int w, int h, int *blocks)
{
    canvas c;
    int n = 0;
    if (canvas_init(&c, w, h))
        return -1;
    frame_draw_finished(a, &c);
    *blocks = quad_pixels(&c);
    n = braille_dots(&c) + 2 * *blocks;
    canvas_free(&c);
    return n;
}

/* --palette contrast and presenter zoom draw the faces thick, the big
 * one in block cells: the same faces take much more ink than the thin
 * braille ones. */
static void test_thick_faces(void)
{
    struct app a;
    int b0, b1, b2;
    app_init(&a);
    CHECK(tour_command(&a, "view clocks") == 0);
    CHECK(tour_command(&a, "d 8") == 0);
    CHECK(tour_command(&a, "pos 37") == 0);
    int thin = frame_dots(&a, 80, 24, &b0);
    a.palette = PAL_CONTRAST;
    int thick = frame_dots(&a, 80, 24, &b1);
    CHECK(thin > 100 && thick > thin * 3 / 2);
    CHECK(b0 == 0 && b1 > 100);
    a.palette = PAL_DEFAULT;
    CHECK(tour_command(&a, "zoom") == 0);
    int zthin = frame_dots(&a, 80, 24, &b2);
    CHECK(zthin > thin);        /* the big face alone, thick */
    CHECK(b2 > b1);             /* larger than beside the table */
    if (t_fail)
        fprintf(stderr, "dots: thin %d contrast %d zoom %d\n", thin, thick,
                zthin);
}

/* A legend of one value keeps the value: "all = 0", never "all =". */
static void test_legend_one_value(void)
{
    int bad = 0;
    for (int h = 10; h <= 30; h++) {
        struct app a;
        app_init(&a);
        a.color = COLOR_NONE;
        a.ascii = 1;
        tour_command(&a, "view attention");
        tour_command(&a, "scheme nope");
        char *f = frame_text(&a, 80, h);
        const char *r = f ? strstr(f, "all =") : NULL;
        if (r && strncmp(r, "all = 0", 7) != 0) {
            bad++;
            fprintf(stderr, "80x%d: %.30s\n", h, r);
        }
        free(f);
    }
    CHECK(bad == 0);
}

/* Lines of file path that contain needle. */
static int lines_with(const char *path, const char *needle)
{
    char line[65536];
    int n = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        n += strstr(line, needle) != NULL;
    fclose(f);
    return n;
}

/* The recording: a header, one output event per changed frame (none for
 * an equal one), the marker after its frame, a quote and an escape
 * escaped, the exit status last; an existing file is never replaced, and
 * the file is made by record_start, not before. */
static void test_record_events(void)
{
    char path[] = "/tmp/peviz-rec-XXXXXX", err[256];
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    CHECK(record_open(path, err, sizeof err) == -1);    /* it exists */
    CHECK(strstr(err, "exists") != NULL);
    unlink(path);
    CHECK(record_open(path, err, sizeof err) == 0);
    CHECK(access(path, F_OK) != 0);     /* nothing until the start */
    CHECK(record_start(err, sizeof err) == 0);
    CHECK(access(path, F_OK) == 0);
    canvas c;
    CHECK(canvas_init(&c, 20, 3) == 0);
    canvas_text(&c, 0, 0, 20, "say \"hi\"", RGB_DEFAULT, RGB_DEFAULT, 0);
    record_frame(&c, 0, COLOR_256, "1/2 first");
    record_frame(&c, 0, COLOR_256, NULL);              /* the same: nothing */
    canvas_text(&c, 0, 1, 20, "next", RGB_DEFAULT, RGB_DEFAULT, 0);
    record_frame(&c, 0, COLOR_256, "2/2 second");
    CHECK(record_close(3, err, sizeof err) == 0);
    canvas_free(&c);
    CHECK(lines_with(path, "{\"version\": 3, \"term\": {\"cols\": 20, "
                           "\"rows\": 3") == 1);
    CHECK(lines_with(path, "\"o\", ") == 2);
    CHECK(lines_with(path, "\"m\", \"1/2 first\"]") == 1);
    CHECK(lines_with(path, "say \\\"hi\\\"") == 2);   /* say \"hi\" */
    CHECK(lines_with(path, "\\u001b[H") == 2);
    CHECK(lines_with(path, "\"x\", \"3\"]") == 1);
    /* the order: o m o m x */
    FILE *f = fopen(path, "r");
    char line[65536], order[16] = "";
    size_t k = 0;
    while (f && fgets(line, sizeof line, f) && k < sizeof order - 1)
        if (line[0] == '[')
            order[k++] = strstr(line, "\"o\"") ? 'o' : strstr(line, "\"m\"")
                         ? 'm' : strstr(line, "\"x\"") ? 'x' : '?';
    if (f)
        fclose(f);
    CHECK_STR(order, "omomx");
    unlink(path);
}

/* :point marks what the cursor is on in every view, at two sizes: the
 * cursor's own cells in reverse, an arrow either side; none when off
 * (the grid view's: test_grid). */
static void test_point_marks(void)
{
    static const struct { const char *cmd, *mark; } V[] = {
        { "view heatmap", "\xe2\x96\xb6\xe2\x97\x8f\xe2\x97\x80" },   /* ▶●◀ */
        { "view clocks", "\xe2\x96\xb6\xe2\x97\x8f\xe2\x97\x80" },    /* the hub */
        { "view attention", "\xe2\x96\xb6\xe2\x97\x8f\xe2\x97\x80" },
        { "view compare", "\xe2\x96\xb6\xe2\x96\xb2\xe2\x97\x80" },   /* ▶▲◀ */
    };
    static const int SZ[2][2] = { { 80, 24 }, { 120, 40 } };
    struct app a;
    for (size_t v = 0; v < sizeof V / sizeof V[0]; v++)
        for (int z = 0; z < 2; z++) {
            app_init(&a);
            CHECK(app_command(&a, V[v].cmd) == 0);
            if (v == 1)
                CHECK(app_command(&a, "band 3") == 0);
            char *off = frame_text(&a, SZ[z][0], SZ[z][1]);
            CHECK(off && !strstr(off, V[v].mark));
            free(off);
            CHECK(app_command(&a, "point on") == 0);
            CHECK(frame_has(&a, SZ[z][0], SZ[z][1], V[v].mark));
        }
}

/* The softmax row profile (tour step 18's screen) where a dot covers k
 * keys: its title says so, and its peak is P(0|0) = 1 (the inspector's
 * value) shared by those k keys, 1/k, at every classroom size. */
static void test_softmax_profile_mean(void)
{
    static const int W[3] = { 80, 120, 160 }, H[3] = { 24, 40, 48 };
    for (int z = 0; z < 3; z++) {
        struct app a;
        app_init(&a);
        CHECK(tour_command(&a, "view attention") == 0);
        CHECK(tour_command(&a, "scheme nope") == 0);
        CHECK(tour_command(&a, "floor-scale 4") == 0);
        CHECK(tour_command(&a, "temperature-tuning on") == 0);
        app_key(&a, 'e');
        app_key(&a, 'm');
        a.msg[0] = 0;
        char *f = frame_trim(&a, W[z], H[z]), *t;
        long long k = 0;
        t = f ? strstr(f, "P(j|i) of row i=0, 1 dot = mean of ") : NULL;
        CHECK(t && sscanf(t, "P(j|i) of row i=0, 1 dot = mean of %lld keys",
                          &k) == 1 && k > 1);
        CHECK(f && strstr(f, "softmax of row i at j = 1\n") != NULL);
        /* the plot's top label, on the row under the title */
        char *nl = t ? strchr(t, '\n') : NULL, *bar = NULL;
        double top = NAN;
        if (nl && (bar = strstr(nl + 1, "\xe2\x94\x82")) != NULL) {
            char *p = bar;
            while (p > nl + 1 && p[-1] != ' ')
                p--;
            top = strtod(p, NULL);
        }
        CHECK(k > 1 && fabs(top - 1.0 / (double)k) < 1e-3);
        free(f);
    }
}

int main(void)
{
    test_softmax_profile_mean();
    test_record_events();
    test_point_marks();
    test_legend_one_value();
    test_thick_faces();
    test_compare_axis_alike();
    test_commands();
    test_view_commands();
    test_zh_status();
    test_zh_hint_parts();
    test_zh_hint_frame();
    test_last_step_t();
    test_line_styles();
    test_presenter_80x24();
    test_legend_apart();
    test_term_maps();
    TEST_END("test_classroom");
}
