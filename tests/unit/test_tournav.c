/* SPDX-License-Identifier: ISC */
/*
 * test_tournav: moving around in a tour (:tour N, T resumes, Esc puts
 * back the state from before the tour, q asks once), the tour's own
 * texts in Chinese, and messages too long for the status line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "app.h"
#include "areas.h"
#include "frame.h"
#include "frames.h"
#include "harness.h"
#include "tour.h"
#include "peviz/pe_table.h"

static const char *const EN = "assets/tours/en.tour";
static const char *const ZH = "assets/tours/zh.tour";

static void test_goto_and_restore(void)
{
    struct app a;
    char err[256];
    app_init(&a);
    a.tour_lang = "en";
    CHECK(tour_command(&a, "d 128") == 0);
    CHECK(tour_command(&a, "view clocks") == 0);
    CHECK(tour_command(&a, "pos 17") == 0);
    CHECK(tour_start(&a, EN, err, sizeof err) == 0);
    CHECK(areas_tour_running(&a));
    CHECK(a.tour_step == 0);
    int nsteps = a.tour->nsteps, cmp = -1;
    CHECK(nsteps >= 14);
    for (int i = 0; i < nsteps && cmp < 0; i++)     /* a compare step */
        if (strncmp(a.tour->steps[i].title, "Choosing base: which", 20) == 0)
            cmp = i;
    CHECK(cmp > 0 && cmp + 1 < nsteps);
    char cmd[32], range[32], resume[32];
    snprintf(cmd, sizeof cmd, "tour %d", cmp + 1);
    snprintf(range, sizeof range, "1..%d", nsteps);
    snprintf(resume, sizeof resume, "step %d", cmp + 2);

    CHECK(tour_command(&a, cmd) == 0);           /* :tour N: 1-based */
    CHECK(a.tour_step == cmp);
    CHECK(a.view == VIEW_COMPARE);              /* the step sets it */
    CHECK(a.p.n == 4096);
    CHECK(tour_command(&a, "tour 0") == -1);
    CHECK(a.msg_error);
    CHECK(strstr(a.msg, range) != NULL);        /* the valid range */
    snprintf(cmd, sizeof cmd, "tour %d", nsteps + 1);
    CHECK(tour_command(&a, cmd) == -1);
    CHECK(tour_command(&a, "tour 3x") == -1);
    CHECK(tour_command(&a, "tour") == -1);
    CHECK(a.tour_step == cmp);                  /* unchanged */

    tour_offer_key(&a, PK_ENTER);
    CHECK(a.tour_step == cmp + 1);
    tour_offer_key(&a, PK_ESC);                        /* back to before */
    CHECK(!areas_tour_running(&a));
    CHECK(a.view == VIEW_CLOCKS);
    CHECK(a.p.d == 128);
    CHECK(a.p.pos == 17);
    CHECK(a.p.n == 128);
    CHECK(strstr(a.msg, resume) != NULL);

    CHECK(tour_command(&a, "d 256") == 0);       /* a new state ... */
    tour_offer_key(&a, 'T');                           /* T resumes there */
    CHECK(areas_tour_running(&a));
    CHECK(a.tour_step == cmp + 1);
    tour_offer_key(&a, PK_BACKSPACE);
    CHECK(a.tour_step == cmp);
    tour_offer_key(&a, PK_ESC);                        /* ... is what comes back */
    CHECK(a.p.d == 256);
    CHECK(a.view == VIEW_CLOCKS);
    tour_release(&a);
}

/* --tour starts the tour before the loop makes the views' runtime
 * handle; Esc puts back the state from then, but keeps the handle (it
 * was lost, and leaked, before). */
static void test_esc_keeps_runtime(void)
{
    struct app a;
    char err[256];
    app_init(&a);
    a.tour_lang = "en";
    CHECK(tour_start(&a, EN, err, sizeof err) == 0);
    CHECK(a.rt == NULL);
    struct views_rt *rt = views_rt_new();
    a.rt = rt;
    tour_offer_key(&a, PK_ENTER);
    tour_offer_key(&a, PK_ESC);
    CHECK(!areas_tour_running(&a));
    CHECK(a.rt == rt);
    views_rt_free(rt);
    tour_release(&a);
}

static void test_quit_asks_once(void)
{
    struct app a;
    char err[256];
    app_init(&a);
    CHECK(tour_start(&a, EN, err, sizeof err) == 0);
    tour_offer_key(&a, 'q');
    CHECK(!a.quit);
    CHECK(strstr(a.msg, "q again quits") != NULL);
    tour_offer_key(&a, 'q');
    CHECK(a.quit);
    a.quit = 0;
    tour_offer_key(&a, 'q');                           /* asks again ... */
    CHECK(!a.quit);
    tour_offer_key(&a, PK_ENTER);                      /* ... another key forgets */
    tour_offer_key(&a, 'q');
    CHECK(!a.quit);
    tour_release(&a);
    app_init(&a);                               /* no tour: q quits */
    tour_offer_key(&a, 'q');
    CHECK(a.quit);
}

static void test_chinese_texts(void)
{
    struct app a;
    char err[256], st[64], want[64], cmd[32];
    app_init(&a);
    a.tour_lang = "zh";
    CHECK(tour_start(&a, ZH, err, sizeof err) == 0);
    int n = a.tour->nsteps;
    CHECK(caption_status(&a, st, sizeof st));
    snprintf(want, sizeof want, "导览 1/%d", n);
    CHECK_STR(st, want);
    snprintf(cmd, sizeof cmd, "tour %d", n);
    CHECK(tour_command(&a, cmd) == 0);
    CHECK(frame_has(&a, 100, 40, "最后一步 · Backspace 上一步"));
    CHECK(!frame_has(&a, 100, 40, "Enter 下一步"));   /* not on the last */
    tour_offer_key(&a, PK_ENTER);
    CHECK(strstr(a.msg, "最后一步") != NULL);
    tour_offer_key(&a, PK_ESC);
    snprintf(want, sizeof want, "T 从第 %d 步继续", n);
    CHECK(strstr(a.msg, want) != NULL);
    CHECK(tour_command(&a, "tour 99") == -1);
    snprintf(want, sizeof want, "1..%d", n);
    CHECK(strstr(a.msg, want) != NULL);
    a.ascii = 1;                                /* no Chinese in ASCII */
    tour_offer_key(&a, 'T');
    CHECK(caption_status(&a, st, sizeof st));
    snprintf(want, sizeof want, "tour %d/%d", n, n);
    CHECK_STR(st, want);
    tour_release(&a);
}

/* A message longer than the status line gets rows of its own, whole. */
static void test_long_messages(void)
{
    struct app a;
    app_init(&a);
    a.view = VIEW_COMPARE;
    CHECK(tour_command(&a, "d 7") == -1);
    CHECK(strstr(a.msg, "2..65536") != NULL);
    CHECK(frame_has(&a, 80, 24, "2..65536"));
    CHECK(frame_has(&a, 80, 24, "d_model=64"));  /* the status line too */
    app_msg(&a, 0, "wrote peviz-compare-20261201-021027.svg and "
            "peviz-compare-20261201-021027.txt");
    CHECK(frame_has(&a, 80, 24, "021027.txt"));
    CHECK(frame_has(&a, 80, 24, "and"));
    app_msg(&a, 0, "short");                     /* fits: one line */
    char *t = frame_text(&a, 80, 24);
    CHECK(t && strstr(t, "d_model=64 base=10000 n=128 pos=0  short") != NULL);
    free(t);
}

/* Keys that do nothing in the current mode say why. */
static void test_inert_keys(void)
{
    struct app a;
    app_init(&a);
    a.view = VIEW_ATTENTION;
    tour_offer_key(&a, ' ');
    CHECK(!a.playing);
    CHECK(strstr(a.msg, "Space moves pos") != NULL);
    tour_offer_key(&a, ',');
    CHECK(strstr(a.msg, "does not use") != NULL);
    tour_offer_key(&a, '}');
    CHECK(strstr(a.msg, "only with scheme alibi") != NULL);
    CHECK(tour_command(&a, "scheme alibi") == 0);
    tour_offer_key(&a, '}');
    CHECK(a.att.o.head == 1);
    a.view = VIEW_COMPARE;
    CHECK(tour_command(&a, "mode spectrum") == 0);
    const char *keys = "ofy=";
    for (const char *k = keys; *k; k++) {
        struct compare_state before = a.cmp;
        tour_offer_key(&a, *k);
        CHECK(strstr(a.msg, "the spectrum does not show") != NULL);
        CHECK(memcmp(&before, &a.cmp, sizeof before) == 0);
    }
    /* M where clicks do nothing says so; the help lists M only where
     * they work (the heatmap) */
    tour_offer_key(&a, 'M');
    CHECK(a.mouse && strstr(a.msg, "in the heatmap view") != NULL);
    tour_offer_key(&a, 'M');
    a.help = 1;
    a.msg[0] = 0;
    CHECK(!frame_has(&a, 120, 48, "mouse clicks on / off"));
    a.view = VIEW_HEATMAP;
    CHECK(frame_has(&a, 120, 48, "mouse clicks on / off"));
    a.help = 0;
    a.view = VIEW_COMPARE;
    /* whole numbers in scientific notation, as on the command line */
    CHECK(tour_command(&a, "n 1e3") == 0 && a.p.n == 1000);
    CHECK(tour_command(&a, "n 2.5") == -1 && a.p.n == 1000);
}

/* :split VIEW: both views, each laid out for its half. */
static void test_split(void)
{
    struct app a;
    int w, h;
    app_init(&a);
    a.screen_w = 160;
    a.screen_h = 48;
    CHECK(tour_command(&a, "split heatmap") == -1);      /* the one shown */
    CHECK(strstr(a.msg, "pick another") != NULL);
    CHECK(tour_command(&a, "split nosuch") == -1);
    CHECK(strstr(a.msg, "compare") != NULL);             /* the choices */
    CHECK(tour_command(&a, "split clocks") == 0);
    CHECK(strstr(a.msg, "clocks beside heatmap") != NULL);
    a.msg[0] = 0;
    areas_view_size(&a, 160, 48, &w, &h);
    CHECK(w == 79 && h == 47);          /* the left half, a rule between */
    CHECK(frame_has(&a, 160, 48, "PE(0, 0) = sin(0"));  /* heatmap */
    CHECK(frame_has(&a, 160, 48, "band i=0 of 0..31")); /* clocks */
    /* the heatmap's cursor column and the clocks turn together */
    CHECK(tour_command(&a, "pos 3") == 0);
    a.msg[0] = 0;
    CHECK(frame_has(&a, 160, 48, "PE(3, 0) = sin(3"));
    CHECK(frame_has(&a, 160, 48, "= PE(3,0)"));
    /* 80x24: stacked, the second view's title on the rule */
    a.screen_w = 80;
    a.screen_h = 24;
    CHECK(tour_command(&a, "split clocks") == 0);
    CHECK(strstr(a.msg, "below") != NULL);
    a.msg[0] = 0;
    areas_view_size(&a, 80, 24, &w, &h);
    CHECK(w == 80 && h == 11);
    CHECK(frame_has(&a, 80, 24, " PE clocks "));
    /* too small for two: refused with what it needs */
    a.screen_w = 100;
    a.screen_h = 20;
    CHECK(tour_command(&a, "split attention") == -1);
    CHECK(strstr(a.msg, "120 columns") && strstr(a.msg, "21 rows"));
    CHECK(a.split == VIEW_CLOCKS + 1);                   /* unchanged */
    CHECK(tour_command(&a, "split off") == 0 && a.split == 0);
    areas_view_size(&a, 80, 24, &w, &h);
    CHECK(w == 80 && h == 23);
}

/* z / :zoom: the panel under the cursor alone. */
static void test_presenter(void)
{
    struct app a;
    app_init(&a);
    a.view = VIEW_CLOCKS;
    CHECK(tour_command(&a, "band 9") == 0);
    a.msg[0] = 0;
    CHECK(frame_has(&a, 80, 24, "dims    0,1"));         /* the table */
    tour_offer_key(&a, 'z');
    CHECK(a.presenter);
    a.msg[0] = 0;
    CHECK(!frame_has(&a, 80, 24, "dims    0,1"));        /* one face */
    CHECK(frame_has(&a, 80, 24, "band 9 of 32"));
    tour_offer_key(&a, 'z');
    CHECK(!a.presenter);
    a.view = VIEW_ATTENTION;
    CHECK(tour_command(&a, "zoom") == 0 && a.presenter);
    a.msg[0] = 0;
    CHECK(!frame_has(&a, 80, 24, "S against"));          /* no panel */
    a.view = VIEW_COMPARE;
    tour_offer_key(&a, ']');                                    /* pane B */
    a.msg[0] = 0;
    CHECK(frame_has(&a, 80, 24, "B base=500000"));
    CHECK(!frame_has(&a, 80, 24, "A base=10000"));
    CHECK(tour_command(&a, "zoom off") == 0 && !a.presenter);
    a.msg[0] = 0;
    CHECK(frame_has(&a, 80, 24, "A base=10000"));
}

/* Type a line at the prompt: ':', its characters, Enter. */
static void type_line(struct app *a, const char *line, int through_tour)
{
    enum action (*key)(struct app *, int) = through_tour ? tour_offer_key
                                                         : app_key;
    key(a, ':');
    for (const char *c = line; *c; c++)
        key(a, (unsigned char)*c);
    key(a, PK_ENTER);
}

/* The tour feeds the app, never the other way round: :tour N typed at
 * the prompt reaches the tour only through tour_offer_key; the app alone
 * does not know the command, and its T only names the action. */
static void test_command_source(void)
{
    struct app a;
    char err[256];
    app_init(&a);
    a.tour_lang = "en";
    CHECK(tour_start(&a, EN, err, sizeof err) == 0);
    type_line(&a, "tour 3", 1);
    CHECK(!a.prompt_open);
    CHECK(a.tour_step == 2);
    CHECK(!a.msg_error);
    type_line(&a, "tour 2", 0);                 /* the app alone */
    CHECK(a.tour_step == 2);
    CHECK(a.msg_error && strstr(a.msg, "unknown command :tour"));
    type_line(&a, "d 256", 1);                  /* other lines: the app's */
    CHECK(a.p.d == 256 && !a.msg_error);
    tour_offer_key(&a, PK_ESC);
    CHECK(!areas_tour_running(&a));
    CHECK(app_key(&a, 'T') == ACT_TOUR);        /* named, not done */
    CHECK(!areas_tour_running(&a));
    CHECK(tour_offer_key(&a, 'T') == ACT_TOUR); /* the tour does it */
    CHECK(areas_tour_running(&a) && a.tour_step == 2);
    tour_release(&a);
}

/* A file of rows x cols values, value (r, c) = 100 * tag + c + r / 100. */
static void write_table(const char *path, int tag, int rows, int cols)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            fprintf(f, "%g%c", 100.0 * tag + c + r / 100.0,
                    c + 1 < cols ? ',' : '\n');
    fclose(f);
}

/* The user's own table (:pe-file, loaded between two runs of a tour whose
 * steps load tables of their own) is what Esc puts back, value for value. */
static void test_esc_keeps_own_table(void)
{
    char dir[] = "/tmp/test_tournav.XXXXXX", u[64], ta[64], tb[64], tour[64];
    char line[200], err[256];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(u, sizeof u, "%s/u.csv", dir);
    snprintf(ta, sizeof ta, "%s/a.csv", dir);
    snprintf(tb, sizeof tb, "%s/b.csv", dir);
    snprintf(tour, sizeof tour, "%s/t.tour", dir);
    write_table(u, 1, 10, 4);
    write_table(ta, 2, 12, 6);
    write_table(tb, 3, 14, 8);
    FILE *f = fopen(tour, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fprintf(f, "title a\nset pe-file %s\ntitle b\nset pe-file %s\n", ta, tb);
    fclose(f);
    struct app a;
    app_init(&a);
    a.tour_lang = "en";
    CHECK(tour_start(&a, tour, err, sizeof err) == 0);
    tour_offer_key(&a, PK_ESC);
    snprintf(line, sizeof line, "pe-file %s", u);
    CHECK(tour_command(&a, line) == 0);
    for (int round = 0; round < 3; round++) {
        tour_offer_key(&a, 'T');
        CHECK(areas_tour_running(&a));
        tour_offer_key(&a, round == 1 ? PK_BACKSPACE : PK_ENTER);
        CHECK(a.pe_table && a.pe_table->d != 4);    /* a step's table */
        tour_offer_key(&a, PK_ESC);
        CHECK(!areas_tour_running(&a));
        const struct pe_table *t = a.pe_table;
        CHECK(t && t->n == 10 && t->d == 4 && a.p.d == 4 && a.p.n == 10);
        CHECK(t && t->v && t->v[0] == 100.0 && t->v[9 * 4 + 3] == 103.09);
        CHECK(a.pe_file_name && strcmp(a.pe_file_name, u) == 0);
    }
    tour_release(&a);
    unlink(u);
    unlink(ta);
    unlink(tb);
    unlink(tour);
    rmdir(dir);
}

int main(void)
{
    test_split();
    test_presenter();
    test_inert_keys();
    test_goto_and_restore();
    test_esc_keeps_runtime();
    test_quit_asks_once();
    test_chinese_texts();
    test_long_messages();
    test_command_source();
    test_esc_keeps_own_table();
    TEST_END("test_tournav");
}
