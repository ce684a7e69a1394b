/* SPDX-License-Identifier: ISC */
/*
 * The guided tour: the shipped tours load, every step applies and renders
 * at 80x24 and 160x48 with its caption below the picture (never on it),
 * Chinese captions never exceed the width in cells, bad tour files give
 * FILE:LINE: messages, the keys step through the tour, and the numbers
 * the tours quote are the library's.  Runs from the repository root.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "harness.h"
#include "frame.h"
#include "peviz/layout.h"
#include "peviz/pe.h"
#include "text.h"
#include "tour.h"

static const char *const TOURS[] = { "assets/tours/en.tour",
                                     "assets/tours/zh.tour" };

/* ---- helpers ------------------------------------------------------------ */

static char tmpdir[64];

/* Write a tour file with the given content; returns its path. */
static const char *write_tour(const char *name, const char *content)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        return path;
    fputs(content, f);
    fclose(f);
    return path;
}

/* The error tour_load gives for content, "" if it loads. */
static const char *load_error(const char *content, const char **path)
{
    static char err[512];
    struct app a;
    struct tour t;
    app_init(&a);
    *path = write_tour("t.tour", content);
    err[0] = 0;
    if (tour_load(&t, *path, &a, err, sizeof err) == 0)
        tour_free(&t);
    return err;
}

/* err starts with "PATH:LINE: " and contains what. */
static int error_is(const char *err, const char *path, int line,
                    const char *what)
{
    char want[300];
    if (line > 0)
        snprintf(want, sizeof want, "%s:%d: ", path, line);
    else
        snprintf(want, sizeof want, "%s: ", path);
    int ok = strncmp(err, want, strlen(want)) == 0 && strstr(err, what);
    if (!ok)
        fprintf(stderr, "  got \"%s\", want \"%s...%s...\"\n", err, want, what);
    return ok;
}

static int cells_equal(const cell *a, const cell *b)
{
    return a->ch == b->ch && a->fg == b->fg && a->bg == b->bg &&
           a->attr == b->attr && a->kind == b->kind;
}

/* ---- wrapping ------------------------------------------------------------ */

/* The text with blanks and newlines removed. */
static void squeeze(const char *s, int len, char *out, size_t *o)
{
    for (int i = 0; i < len && s[i]; i++)
        if (s[i] != ' ' && s[i] != '\n')
            out[(*o)++] = s[i];
    out[*o] = 0;
}

static int starts_with_closing(const char *s)
{
    static const char *const P[] = { "\xef\xbc\x8c", "\xe3\x80\x82",
                                     "\xef\xbc\x9a", "\xef\xbc\x89",
                                     "\xe2\x80\x9d", "\xe3\x80\x81" };
    for (size_t i = 0; i < sizeof P / sizeof P[0]; i++)
        if (strncmp(s, P[i], strlen(P[i])) == 0)
            return 1;
    return 0;
}

/* Every line fits, its cell count is right, nothing is lost, no line
 * starts with a blank, nor with closing punctuation when the line is wide
 * enough for a character and its punctuation.  Returns the failures. */
static int wrap_check(const char *text, int width)
{
    struct text_line ln[512];
    char all[8192], got[8192], buf[1024];
    size_t na = 0, ng = 0;
    int bad = 0;
    int n = text_wrap_lines(text, width, ln, 512);
    squeeze(text, (int)strlen(text), all, &na);
    if (n > 512)
        return 1;
    for (int i = 0; i < n; i++) {
        memcpy(buf, text + ln[i].off, (size_t)ln[i].len);
        buf[ln[i].len] = 0;
        if (ln[i].cells > width || text_width(buf) != ln[i].cells ||
            (width >= 12 && starts_with_closing(buf)) || buf[0] == ' ')
            bad++;
        squeeze(buf, ln[i].len, got, &ng);
    }
    if (strcmp(all, got) != 0)
        bad++;
    return bad;
}

static void test_wrap(void)
{
    const char *zh = "每根指针的长度都是 1，因为任何角度下 sin² + cos² = 1。"
                     "位置之间只有方向不同，长度完全一样：没有哪个位置“嗓门"
                     "更大”。\n\n第二段：PE(pos + k) = M_k PE(pos)，"
                     "M_k 把每一对维度 (2i, 2i+1) 旋转 k·ω_i。";
    const char *en = "The ghost hands show PE(pos + 3). Each has moved on by "
                     "3 * omega_i, an angle that does not depend on pos.\n"
                     "A_very_long_word_that_cannot_fit_on_a_narrow_line here.";
    int bad = 0;
    for (int w = 2; w <= 100; w++)
        bad += wrap_check(zh, w) + wrap_check(en, w);
    CHECK(bad == 0);

    /* Latin words break at blanks when they fit. */
    struct text_line ln[16];
    const char *s = "alpha beta gamma delta";
    CHECK(text_wrap_lines(s, 11, ln, 16) == 2);
    CHECK(ln[0].len == 10 && strncmp(s + ln[0].off, "alpha beta", 10) == 0);
    CHECK(ln[1].cells == 11);
    /* a lone operator stays with the word before it */
    s = "ab = cd";
    CHECK(text_wrap_lines(s, 4, ln, 16) == 2);
    CHECK(ln[0].len == 4 && strncmp(s + ln[0].off, "ab =", 4) == 0);
    /* CJK breaks between characters, never before ，or 。 */
    s = "一二三，四五。";
    CHECK(text_wrap_lines(s, 6, ln, 16) == 3);
    CHECK(ln[0].cells == 4 && ln[1].cells == 6);  /* 一二 / 三，四 / 五。 */
    /* paragraphs: a blank line between them */
    CHECK(text_wrap_lines("a\n\nb", 10, ln, 16) == 3);
    CHECK(ln[1].len == 0);
    CHECK(text_wrap_lines("a\nb", 10, ln, 16) == 2);
    CHECK(text_wrap_lines("abc", 1, ln, 16) == 0);
    CHECK(text_wrap_lines("", 10, ln, 16) == 0);
}

/* ---- the shipped tours ------------------------------------------------- */

/* One step at one size: caption below the view, never on it. */
static void check_step(struct app *a, int w, int h, const char *tourname)
{
    canvas full, alone;
    char hint[128], row[4096];
    const struct tour_step *s = &a->tour->steps[a->tour_step];
    int k = areas_panel_rows(a, w, h - 1);
    int view_h = h - 1 - k;
    if (canvas_init(&full, w, h) || canvas_init(&alone, w, view_h)) {
        CHECK(0);
        return;
    }
    /* both finished: a view may spread long work over several frames */
    frame_draw_finished(a, &full);
    view_frame(a, a->view, &alone, 1, hint, sizeof hint);
    int same = 1;
    for (int y = 0; y < view_h; y++)
        for (int x = 0; x < w; x++)
            same &= cells_equal(canvas_at(&full, x, y),
                                canvas_at(&alone, x, y));
    int lines = text_wrap_lines(s->text, areas_text_width(w), NULL, 0);
    int fits = k == lines + 2;          /* rule, text, key hint */
    char count[32];
    snprintf(count, sizeof count, "%d/%d", a->tour_step + 1,
             a->tour->nsteps);
    canvas_row_utf8(&full, view_h, row, sizeof row);
    int rule = strstr(row, count) && strstr(row, s->title);
    canvas_row_utf8(&full, h - 1, row, sizeof row);
    snprintf(count, sizeof count, "tour %d/%d", a->tour_step + 1,
             a->tour->nsteps);
    int status = strstr(row, count) != NULL;
    int room = view_h >= (h * 55) / 100;    /* the picture keeps most rows */
    if (!(same && fits && rule && status && room && k > 0))
        fprintf(stderr, "  %s step %d (%s) at %dx%d: same=%d fits=%d "
                "rule=%d status=%d room=%d (panel %d rows, text %d lines)\n",
                tourname, a->tour_step + 1, s->title, w, h, same, fits,
                rule, status, room, k, lines);
    CHECK(same);
    CHECK(fits);
    CHECK(rule);
    CHECK(status);
    CHECK(room);
    /* the caption's rows: nothing reaches the last column (margin) */
    int margin = 1;
    for (int y = view_h + 1; y < h - 1; y++) {
        const cell *c = canvas_at(&full, w - 1, y);
        if (c->ch != ' ')
            margin = 0;
    }
    CHECK(margin);
    canvas_free(&full);
    canvas_free(&alone);
}

static void test_shipped(void)
{
    static const int SIZES[][2] = { { 80, 24 }, { 160, 48 } };
    for (size_t i = 0; i < sizeof TOURS / sizeof TOURS[0]; i++) {
        struct app a;
        char err[512] = "";
        app_init(&a);
        a.color = COLOR_NONE;
        int r = tour_start(&a, TOURS[i], err, sizeof err);
        if (r)
            fprintf(stderr, "  %s\n", err);
        CHECK(r == 0);
        if (r)
            continue;
        CHECK(a.tour->nsteps >= 12);
        for (int s = 0; s < a.tour->nsteps; s++) {
            CHECK(tour_apply(&a, a.tour, s) == 0);
            a.tour_step = s;
            CHECK(a.msg_error == 0);
            for (size_t z = 0; z < 2; z++)
                check_step(&a, SIZES[z][0], SIZES[z][1], TOURS[i]);
            /* Chinese (and English) captions fit every width in cells */
            int bad = 0;
            for (int w = 20; w <= 200; w += 3)
                bad += wrap_check(a.tour->steps[s].text, w);
            CHECK(bad == 0);
        }
        tour_release(&a);
        CHECK(a.tour == NULL);
    }
}

/* The two tours teach the same steps with the same settings. */
static void test_same_steps(void)
{
    struct tour t[2];
    struct app a;
    char err[512];
    app_init(&a);
    int ok = tour_load(&t[0], TOURS[0], &a, err, sizeof err) == 0 &&
             tour_load(&t[1], TOURS[1], &a, err, sizeof err) == 0;
    CHECK(ok);
    if (!ok)
        return;
    CHECK(t[0].nsteps == t[1].nsteps);
    for (int s = 0; s < t[0].nsteps && s < t[1].nsteps; s++) {
        struct app x, y;
        app_init(&x);
        app_init(&y);
        tour_apply(&x, &t[0], s);
        tour_apply(&y, &t[1], s);
        CHECK(x.view == y.view && x.p.d == y.p.d && x.p.n == y.p.n &&
              x.p.pos == y.p.pos && x.p.base == y.p.base &&
              memcmp(&x.att, &y.att, sizeof x.att) == 0 &&
              memcmp(&x.clocks, &y.clocks, sizeof x.clocks) == 0 &&
              x.cmp.mode == y.cmp.mode);
    }
    tour_free(&t[0]);
    tour_free(&t[1]);
}

/* ---- the numbers the tours quote --------------------------------------- */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *b = calloc(1, 1 << 17);
    if (f && b)
        (void)!fread(b, 1, (1 << 17) - 1, f);
    if (f)
        fclose(f);
    return b;
}

/* value printed as text is what the library computes (to its digits). */
static void quoted(const char *tour, const char *text, double value,
                   double got, double tol)
{
    int there = strstr(tour, text) != NULL;
    if (!there)
        fprintf(stderr, "  the tour no longer says \"%s\"\n", text);
    CHECK(there);
    CHECK_NEAR(got, value, tol);
}

static void test_numbers(void)
{
    double row[4];
    for (size_t i = 0; i < sizeof TOURS / sizeof TOURS[0]; i++) {
        char *t = slurp(TOURS[i]);
        if (!t) {
            CHECK(0);
            continue;
        }
        pe_row(1, 4, 10000, row);
        quoted(t, "[0.8415, 0.5403, 0.0100, 1.0000]", 0.8415, row[0], 5e-5);
        CHECK_NEAR(row[1], 0.5403, 5e-5);
        CHECK_NEAR(row[2], 0.0100, 5e-5);
        CHECK_NEAR(row[3], 1.0000, 5e-5);
        pe_row(2, 4, 10000, row);
        quoted(t, "[0.9093, -0.4161, 0.0200, 0.9998]", 0.9093, row[0], 5e-5);
        CHECK_NEAR(row[1], -0.4161, 5e-5);
        CHECK_NEAR(row[3], 0.9998, 5e-5);
        pe_row(3, 4, 10000, row);
        quoted(t, "[0.1411, -0.9900, 0.0300, 0.9996]", 0.1411, row[0], 5e-5);
        CHECK_NEAR(row[1], -0.9900, 5e-5);
        CHECK_NEAR(row[2], 0.0300, 5e-5);
        CHECK_NEAR(row[3], 0.9996, 5e-5);
        quoted(t, "6283", 6283, pe_wavelength(3, 8, 10000), 0.5);
        quoted(t, "628.3", 628.3, pe_wavelength(2, 8, 10000), 0.05);
        quoted(t, "62.83", 62.83, pe_wavelength(1, 8, 10000), 0.005);
        quoted(t, "6.283", 6.283, pe_wavelength(0, 8, 10000), 5e-4);
        quoted(t, "1.965", 1.965, pe_score(3, 8, 10000), 5e-4);
        quoted(t, "2.267", 2.267, pe_score(4, 8, 10000), 5e-4);
        quoted(t, "3.160", 3.160, pe_score(5, 8, 10000), 5e-4);
        quoted(t, "0.644", 0.644, pe_score(2000, 64, 10000), 5e-4);
        quoted(t, "14.84", 14.84, pe_score(2000, 64, 500000), 5e-3);
        quoted(t, "22.6", 22.6, sqrt(512), 0.05);
        quoted(t, "1/256", 1.0 / 256, 0, 1);
        double slopes[8];
        pe_alibi_slopes(8, slopes);
        CHECK_NEAR(slopes[0], 0.5, 1e-12);
        CHECK_NEAR(slopes[7], 1.0 / 256, 1e-12);
        /* the critical bands of the base lesson */
        CHECK(spectrum_critical_band(64, 10000, 4096) == 23);
        CHECK(spectrum_critical_band(64, 500000, 4096) == 16);
        CHECK(strstr(t, "23") && strstr(t, "16"));
        free(t);
    }
}

/* ---- bad tour files ------------------------------------------------------ */

static void test_errors(void)
{
    const char *p, *e;
    e = load_error("title A\ntext x\nfrobnicate 3\n", &p);
    CHECK(error_is(e, p, 3, "unknown directive 'frobnicate'"));
    e = load_error("# c\n\ntitle A\nset d 3\n", &p);
    CHECK(error_is(e, p, 4, "set d 3:"));
    e = load_error("title A\nset base 1\n", &p);
    CHECK(error_is(e, p, 2, "set base 1:"));
    e = load_error("title A\nset frob 1\n", &p);
    CHECK(error_is(e, p, 2, "unknown command"));
    e = load_error("title A\nset view clocks\nset scheme rope\n", &p);
    CHECK(error_is(e, p, 3, "set scheme rope"));
    e = load_error("set d 8\ntitle A\n", &p);
    CHECK(error_is(e, p, 1, "before the first title"));
    e = load_error("title\n", &p);
    CHECK(error_is(e, p, 1, "title needs"));
    e = load_error("title A\nset\n", &p);
    CHECK(error_is(e, p, 2, "set needs"));
    e = load_error("title A\nkey zz\n", &p);
    CHECK(error_is(e, p, 2, "unknown key 'zz'"));
    e = load_error("title A\nkey q\n", &p);
    CHECK(error_is(e, p, 2, "cannot be pressed"));
    e = load_error("title A\nset view heatmap\nkey x\n", &p);
    CHECK(error_is(e, p, 3, "does nothing"));
    e = load_error("title A\ntext ok\ntitle B\nhint late\n", &p);
    CHECK(error_is(e, p, 4, "hint goes once"));
    e = load_error("title A\ntext caf\xc3\n", &p);
    CHECK(error_is(e, p, 2, "not valid UTF-8"));
    e = load_error("title A\ntext \xc0\xaf overlong\n", &p);
    CHECK(error_is(e, p, 2, "not valid UTF-8"));
    e = load_error("title A\ntext \xed\xa0\x80 surrogate\n", &p);
    CHECK(error_is(e, p, 2, "not valid UTF-8"));
    e = load_error("# nothing\n\n", &p);
    CHECK(error_is(e, p, 0, "no steps"));
    e = load_error("", &p);
    CHECK(error_is(e, p, 0, "no steps"));

    char big[TOUR_LINE_MAX + 64];
    memset(big, 'x', sizeof big);
    memcpy(big, "title A\ntext ", 13);
    big[sizeof big - 1] = 0;
    e = load_error(big, &p);
    CHECK(error_is(e, p, 2, "longer than"));

    char err[512] = "";
    struct app a;
    struct tour t;
    app_init(&a);
    CHECK(tour_load(&t, "/nonexistent/dir/x.tour", &a, err, sizeof err) < 0);
    CHECK(error_is(err, "/nonexistent/dir/x.tour", 0, "cannot open"));
    /* a failed start leaves the program as it was */
    tour_command(&a, "d 128");
    CHECK(tour_start(&a, "/nonexistent/x.tour", err, sizeof err) < 0);
    CHECK(a.tour == NULL && a.p.d == 128);
}

/* Control characters in text never reach the screen; CRLF and a BOM are
 * fine. */
static void test_sanitise(void)
{
    struct app a;
    struct tour t;
    char err[512];
    app_init(&a);
    const char *p = write_tour("s.tour",
        "\xef\xbb\xbftitle T\x1b]0;pwned\x07\r\n"
        "text a\x1b[2J b\rc\bd\x7f e\xc2\x9b f\tg\r\n");
    int r = tour_load(&t, p, &a, err, sizeof err);
    CHECK(r == 0);
    if (r) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    int clean = 1;
    for (const char *s = t.steps[0].text; *s; s++)
        clean &= (unsigned char)*s >= 0x20 && *s != 0x7f;
    for (const char *s = t.steps[0].title; *s; s++)
        clean &= (unsigned char)*s >= 0x20 && *s != 0x7f;
    CHECK(clean);
    CHECK(strstr(t.steps[0].text, "\xc2\x9b") == NULL);    /* C1 CSI */
    CHECK(strstr(t.steps[0].text, "\xef\xbf\xbd[2J") != NULL);
    CHECK(strstr(t.steps[0].text, "f g") != NULL);          /* tab */
    CHECK(strncmp(t.steps[0].title, "T\xef\xbf\xbd]0;pwned", 12) == 0);
    tour_free(&t);

    /* text joining: blanks between English lines, none inside Chinese */
    p = write_tour("j.tour",
        "title J\ntext one\ntext two\ntext\ntext 中文\ntext 接着，\n"
        "text d D\nline L1\nline L2\ntext after\n");
    CHECK(tour_load(&t, p, &a, err, sizeof err) == 0);
    CHECK_STR(t.steps[0].text, "one two\n\n中文接着，d D\nL1\nL2\nafter");
    tour_free(&t);
}

/* ---- running a tour ---------------------------------------------------- */

static void test_keys(void)
{
    struct app a;
    char err[512];
    app_init(&a);
    a.palette = PAL_CONTRAST;
    a.ascii = 1;
    const char *p = write_tour("k.tour",
        "title One\nset view clocks\nset d 8\nset k 3\ntext first\n"
        "title Two\nset view attention\nset scheme alibi\nkey a m\n"
        "text second\n"
        "title Three\nset view compare\nset mode spectrum\ntext third\n");
    CHECK(tour_start(&a, p, err, sizeof err) == 0);
    CHECK(areas_tour_running(&a) && a.tour_step == 0);
    CHECK(a.view == VIEW_CLOCKS && a.p.d == 8 && a.clocks.k == 3 &&
          a.clocks.ghost == 1);
    CHECK(a.palette == PAL_CONTRAST && a.ascii == 1);   /* kept */
    CHECK(a.msg[0] == 0);
    tour_offer_key(&a, PK_ENTER);
    CHECK(a.tour_step == 1 && a.view == VIEW_ATTENTION);
    CHECK(a.att.o.scheme == SCHEME_ALIBI && a.att.o.causal && a.att.o.softmax);
    CHECK(a.p.d == 64);                 /* each step starts from defaults */
    tour_offer_key(&a, PK_ENTER);
    CHECK(a.tour_step == 2 && a.view == VIEW_COMPARE &&
          a.cmp.mode == PANE_SPECTRUM);
    tour_offer_key(&a, PK_ENTER);              /* the last step stays */
    CHECK(a.tour_step == 2 && strstr(a.msg, "last step"));
    tour_offer_key(&a, PK_BACKSPACE);
    CHECK(a.tour_step == 1 && a.att.o.scheme == SCHEME_ALIBI);
    tour_offer_key(&a, 'D');                   /* other keys keep working */
    CHECK(a.p.d == 128 && areas_tour_running(&a));
    tour_offer_key(&a, 'r');                   /* reset keeps the tour */
    CHECK(a.tour != NULL && areas_tour_running(&a));
    tour_offer_key(&a, PK_BACKSPACE);
    tour_offer_key(&a, PK_BACKSPACE);
    CHECK(a.tour_step == 0 && strstr(a.msg, "first step"));
    tour_offer_key(&a, PK_ESC);
    CHECK(!areas_tour_running(&a) && a.tour != NULL);
    CHECK(areas_panel_rows(&a, 80, 23) == 0);
    char st[32];
    CHECK(caption_status(&a, st, sizeof st) == 0);
    tour_offer_key(&a, PK_ENTER);              /* no longer the tour's */
    CHECK(a.tour_step == 0);
    tour_offer_key(&a, 'T');                   /* T starts it again */
    CHECK(areas_tour_running(&a) && a.tour_step == 0 && a.view == VIEW_CLOCKS);
    CHECK(caption_status(&a, st, sizeof st) && strcmp(st, "tour 1/3") == 0);
    /* the prompt takes Enter and Backspace while open */
    tour_offer_key(&a, ':');
    tour_offer_key(&a, 'x');
    tour_offer_key(&a, PK_BACKSPACE);
    tour_offer_key(&a, 'p');
    tour_offer_key(&a, ' ');
    tour_offer_key(&a, '5');
    tour_offer_key(&a, PK_ENTER);
    CHECK(a.tour_step == 0 && a.p.pos == 5);
    tour_release(&a);
    CHECK(a.tour == NULL && !areas_tour_running(&a));

    /* a tiny screen: no panel when there is no room, never a crash */
    CHECK(tour_start(&a, p, err, sizeof err) == 0);
    for (int w = 1; w <= 30; w += 7)
        for (int h = 1; h <= 12; h += 3) {
            canvas c;
            if (canvas_init(&c, w, h) == 0) {
                frame_draw(&a, &c);
                canvas_free(&c);
            }
            int k = areas_panel_rows(&a, w, h - 1);
            CHECK(k >= 0 && k <= (h - 1) / 2);
        }
    tour_release(&a);
}

static void test_env(void)
{
    char buf[512];
    setenv("LC_ALL", "zh_CN.UTF-8", 1);
    CHECK_STR(tour_lang_from_env(), "zh");
    setenv("LC_ALL", "", 1);
    setenv("LC_MESSAGES", "en_GB.UTF-8", 1);
    setenv("LANG", "zh_TW.UTF-8", 1);
    CHECK_STR(tour_lang_from_env(), "en");
    unsetenv("LC_MESSAGES");
    CHECK_STR(tour_lang_from_env(), "zh");
    unsetenv("LC_ALL");
    unsetenv("LANG");
    CHECK_STR(tour_lang_from_env(), "en");
    const char *p = tour_default_path("en", buf, sizeof buf);
    CHECK(p && strstr(p, "/en.tour") && access(p, R_OK) == 0);
    p = tour_default_path("zh", buf, sizeof buf);
    CHECK(p && strstr(p, "/zh.tour"));
    CHECK(tour_default_path("xx", buf, sizeof buf) == NULL);

    /* the shipped tour by language */
    struct app a;
    char err[512];
    app_init(&a);
    a.tour_lang = "zh";
    CHECK(tour_start(&a, NULL, err, sizeof err) == 0);
    CHECK(a.tour && strstr(a.tour->path, "zh.tour"));
    tour_release(&a);
    a.tour_lang = "xx";
    CHECK(tour_start(&a, NULL, err, sizeof err) < 0 &&
          strstr(err, "no xx.tour"));
    a.tour_lang = NULL;
    tour_offer_key(&a, 'T');                   /* lazily loads the shipped one */
    CHECK(areas_tour_running(&a) && strstr(a.tour->path, "en.tour"));
    tour_release(&a);
}

/* ---- keys step by what a tour step draws -------------------------------- */

/* K from "1 px = KxK pos" in the status line of an 80x24 frame, or -1. */
static long long px_positions(const struct app *a)
{
    canvas c;
    char row[1024];
    long long k = -1, k2 = -1;
    if (canvas_init(&c, 80, 24))
        return -1;
    frame_draw_finished(a, &c);
    canvas_row_utf8(&c, 23, row, sizeof row);
    const char *at = strstr(row, "1 px = ");
    if (!at || sscanf(at, "1 px = %lldx%lld pos", &k, &k2) != 2 || k != k2)
        fprintf(stderr, "  status line: %s\n", row);
    canvas_free(&c);
    return k;
}

/*
 * A tour step shows the attention view at n = 4096 with its caption
 * below: the status line says what a pixel holds, and j, l, J move the
 * cursor by exactly that many positions (one, one and eight drawn
 * blocks), not by the blocks of a screen without the caption.
 */
static void test_keys_step_drawn_cells(void)
{
    const char *path = write_tour("k.tour",
        "title  Attention over 4096 positions\n"
        "set    view attention\n"
        "set    n 4096\n"
        "text   A caption of a few lines takes rows from the view, so the\n"
        "text   matrix is smaller than on a screen without it: one pixel\n"
        "text   then holds more positions, and the keys must know it.\n");
    struct app a;
    char err[512] = "";
    app_init(&a);
    a.screen_w = 80;
    a.screen_h = 24;
    int r = tour_start(&a, path, err, sizeof err);
    CHECK(r == 0);
    if (r) {
        fprintf(stderr, "  %s\n", err);
        return;
    }
    CHECK(a.view == VIEW_ATTENTION && a.p.n == 4096);
    long long k = px_positions(&a);
    CHECK(k > 1);
    tour_offer_key(&a, 'j');
    CHECK(a.att.ci == k && a.att.cj == 0);
    tour_offer_key(&a, 'l');
    CHECK(a.att.ci == k && a.att.cj == k);
    tour_offer_key(&a, 'J');
    CHECK(a.att.ci == 9 * k);
    CHECK(px_positions(&a) == k);       /* moving does not rescale */
    if (a.att.ci != 9 * k)
        fprintf(stderr, "  1 px = %lld pos, but j then J moved to i = %lld\n",
                k, (long long)a.att.ci);
    tour_release(&a);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/peviz-tour.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    test_wrap();
    test_shipped();
    test_same_steps();
    test_numbers();
    test_errors();
    test_sanitise();
    test_keys();
    test_env();
    test_keys_step_drawn_cells();
    const char *names[] = { "t.tour", "s.tour", "j.tour", "k.tour" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        unlink(path);
    }
    rmdir(tmpdir);
    TEST_END("test_tour");
}
