/* SPDX-License-Identifier: ISC */
/*
 * test_clocks.c - the clocks view: hand geometry, the numbers it prints
 * against the formulas, faces drawn where the angle says, the layout at
 * every size, and its keys and ':' commands.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "app.h"
#include "canvas.h"
#include "peviz/pe.h"
#include "views/clocks.h"

#define PI 3.14159265358979323846

/* ---- helpers ------------------------------------------------------------ */

/* Whether braille dot (px, py) is set in c. */
static int dot_set(const canvas *c, int px, int py)
{
    static const unsigned BIT[4][2] = {
        {0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}
    };
    const cell *k = canvas_at(c, px / 2, py / 4);
    if (!k || k->kind != CELL_BRAILLE)
        return 0;
    return (k->ch - 0x2800u) & BIT[py % 4][px % 2] ? 1 : 0;
}

/* Whether any row of c contains s. */
static int canvas_has(const canvas *c, const char *s)
{
    char row[4096];
    for (int y = 0; y < c->h; y++) {
        canvas_row_utf8(c, y, row, sizeof row);
        if (strstr(row, s))
            return 1;
    }
    return 0;
}

/* The row whose text starts with label (the table's row labels). */
static int row_starting(const canvas *c, const char *label, char *buf,
                        size_t len)
{
    for (int y = 0; y < c->h; y++) {
        canvas_row_utf8(c, y, buf, len);
        if (strncmp(buf, label, strlen(label)) == 0)
            return y;
    }
    return -1;
}

static void draw(const struct app *a, canvas *c, int w, int h, char *hint,
                 size_t hlen)
{
    canvas_init(c, w, h);
    view_frame(a, VIEW_CLOCKS, c, 1, hint, hlen);
}

static void app_clocks(struct app *a, int d, long pos)
{
    app_init(a);
    a->view = VIEW_CLOCKS;
    a->p.d = d;
    a->p.pos = pos;
}

/* ---- the hand ------------------------------------------------------------ */

/* The tip lies in the direction of the angle: right is 0, counter-
 * clockwise is positive, and screen y grows downwards. */
static void test_hand_end(void)
{
    int px, py;
    double cx = 40, cy = 30, r = 20;

    clocks_hand_end(cx, cy, r, 0, &px, &py);
    CHECK(px == 60 && py == 30);                    /* 3 o'clock */
    clocks_hand_end(cx, cy, r, PI / 2, &px, &py);
    CHECK(px == 40 && py == 10);                    /* 12 o'clock: up */
    clocks_hand_end(cx, cy, r, PI, &px, &py);
    CHECK(px == 20 && py == 30);                    /* 9 o'clock */
    clocks_hand_end(cx, cy, r, 3 * PI / 2, &px, &py);
    CHECK(px == 40 && py == 50);                    /* 6 o'clock: down */

    /* any angle: the tip is within half a dot of the exact point, so its
     * direction from the centre is the angle */
    for (int k = 0; k < 64; k++) {
        double a = k * 0.7 - 10;
        clocks_hand_end(cx, cy, r, a, &px, &py);
        CHECK(fabs(px - (cx + r * cos(a))) <= 0.5);
        CHECK(fabs(py - (cy - r * sin(a))) <= 0.5);
        double back = atan2(cy - py, px - cx);
        double diff = remainder(back - a, 2 * PI);
        CHECK(fabs(diff) < 0.04);                   /* 0.5 / 20 rad */
    }
    CHECK(clocks_hand_len(21) < 21 && clocks_hand_len(21) > 15);
    CHECK(clocks_hand_len(7) == 5);     /* small faces: clear of the rim */
}

/* The angle of band i at pos is pos * omega_i, with omega_i computed
 * here from the formula; the hand drawn in a face ends in that direction. */
static void test_band_angles(void)
{
    static const long POS[] = { 0, 1, 2, 3, 37, 100, 1000, 65535 };
    params p;
    params_default(&p);
    p.d = 16;
    p.n = 65536;
    for (size_t k = 0; k < sizeof POS / sizeof POS[0]; k++) {
        p.pos = POS[k];
        for (int i = 0; i < p.d / 2; i++) {
            struct clocks_band b;
            double w = pow(10000.0, -2.0 * i / 16);
            double ang = (double)POS[k] * w;
            clocks_band_info(&p, i, &b);
            CHECK_NEAR(b.omega, w, 1e-15);
            CHECK_NEAR(b.angle, ang, 1e-9);
            CHECK_NEAR(b.lambda, 2 * PI / w, 1e-9 * b.lambda);
            /* the hand's sin and cos from the angle in long double: in
             * double pos * omega itself is ~1e-11 off at 65535 */
            long double al = (long double)POS[k] *
                             powl(10000.0L, -2.0L * i / 16);
            CHECK_NEAR(b.s, (double)sinl(al), 1e-12);
            CHECK_NEAR(b.c, (double)cosl(al), 1e-12);
            CHECK(b.turns == floor(ang / (2 * PI)));
            CHECK(b.slow == (2 * PI / w > 65536.0));

            /* draw it: the dot at the expected tip is set */
            canvas c;
            canvas_init(&c, 30, 15);
            struct clock_face f = {
                .cx = 29, .cy = 29, .r = 24, .angle = b.angle,
                .ring = 0x808080, .hand = 0xFF8000,
            };
            int tx, ty;
            clocks_face_draw(&c, &f);
            clocks_hand_end(29, 29, clocks_hand_len(24), ang, &tx, &ty);
            CHECK(dot_set(&c, tx, ty));
            CHECK(canvas_at(&c, tx / 2, ty / 4)->fg == 0xFF8000);
            /* and the hand does not point the opposite way */
            int ox, oy;
            clocks_hand_end(29, 29, clocks_hand_len(24), ang + PI, &ox, &oy);
            CHECK(!dot_set(&c, ox, oy));
            canvas_free(&c);
        }
    }
}

static void test_deg_mod(void)
{
    CHECK_NEAR(clocks_deg_mod(0), 0, 1e-12);
    CHECK_NEAR(clocks_deg_mod(PI), 180, 1e-9);
    CHECK_NEAR(clocks_deg_mod(-PI / 2), 270, 1e-9);
    CHECK_NEAR(clocks_deg_mod(37), fmod(37 * 180 / PI, 360), 1e-9);
    CHECK(clocks_deg_mod(2 * PI) < 360);
}

/* ---- the view ------------------------------------------------------------- */

/* At pos 0 every hand points at angle 0: sin 0, cos 1 everywhere, and the
 * big face's tip is straight right of its centre. */
static void test_pos0(void)
{
    struct app a;
    canvas c;
    char hint[256], row[4096];
    struct clocks_layout l;

    app_clocks(&a, 8, 0);
    draw(&a, &c, 80, 23, hint, sizeof hint);
    CHECK(canvas_has(&c, "sin =  0.0000"));
    CHECK(canvas_has(&c, "cos =  1.0000"));
    CHECK(row_starting(&c, "sin ", row, sizeof row) >= 0);
    CHECK(strstr(row, " 0.0000   0.0000   0.0000   0.0000") != NULL);
    CHECK(row_starting(&c, "cos ", row, sizeof row) >= 0);
    CHECK(strstr(row, " 1.0000   1.0000   1.0000   1.0000") != NULL);
    CHECK(row_starting(&c, "turns", row, sizeof row) >= 0);
    CHECK(strstr(row, "0 λ>n") != NULL);            /* bands 2, 3: n=128 */

    clocks_layout(80, 23, 4, 0, 0, &l);
    CHECK(l.mode == CLOCKS_BIG);
    int dots = 4 * l.face_rows, cx = dots / 2 - 1, cy = 4 + dots / 2 - 1;
    int r = dots / 2 - 1, len = clocks_hand_len(r);
    CHECK(dot_set(&c, cx + len, cy));               /* the tip */
    CHECK(dot_set(&c, cx + len / 2, cy));           /* along the hand */
    CHECK(canvas_has(&c, "cos"));
    CHECK_STR(hint, "bands 0..3 of 4");
    canvas_free(&c);

    /* ASCII: braille turns into dot-count glyphs, so the tip gets a mark */
    a.ascii = 1;
    draw(&a, &c, 80, 23, hint, sizeof hint);
    const cell *tip = canvas_at(&c, (cx + len) / 2, cy / 4);
    CHECK(tip && tip->ch == '@');
    CHECK(canvas_has(&c, "sin =  0.0000"));
    CHECK(canvas_has(&c, "w rad"));
    CHECK(!canvas_has(&c, "ω"));
    canvas_free(&c);
}

/* d_model 8, pos 37: the printed values are the formula's. */
static void test_pos37_values(void)
{
    struct app a;
    canvas c;
    char hint[256], row[4096], want[64];

    app_clocks(&a, 8, 37);
    a.clocks.band = 1;
    draw(&a, &c, 80, 23, hint, sizeof hint);
    snprintf(want, sizeof want, "sin = % .4f", sin(37 * 0.1));
    CHECK(canvas_has(&c, want));                    /* band 1, w = 0.1 */
    snprintf(want, sizeof want, "cos = % .4f", cos(37 * 0.1));
    CHECK(canvas_has(&c, want));
    CHECK(canvas_has(&c, "PE(37,2)"));
    CHECK(canvas_has(&c, "PE(37,3)"));
    CHECK(row_starting(&c, "sin ", row, sizeof row) >= 0);
    for (int i = 0; i < 4; i++) {
        snprintf(want, sizeof want, "% .4f", sin(37 * pow(10000, -i / 4.0)));
        CHECK(strstr(row, want) != NULL);
    }
    CHECK(row_starting(&c, "turns", row, sizeof row) >= 0);
    CHECK(strncmp(row + 8, "5 ", 2) == 0);          /* floor(37 / 2pi) */
    canvas_free(&c);
}

/* The counter strip: pos in binary, lowest bit first, as many bits as
 * n - 1 needs (37 = 100101b; n = 128: 7 bits). */
static void test_counter(void)
{
    struct app a;
    canvas c;
    char hint[256], row[4096];

    app_clocks(&a, 8, 37);
    draw(&a, &c, 80, 23, hint, sizeof hint);
    CHECK(row_starting(&c, "bits", row, sizeof row) < 0);   /* off */
    canvas_free(&c);
    a.clocks.counter = 1;
    draw(&a, &c, 80, 23, hint, sizeof hint);
    CHECK(row_starting(&c, "bits", row, sizeof row) >= 0);
    CHECK(strncmp(row, "bits    1 0 1 0 0 1 0  ", 23) == 0);
    canvas_free(&c);
    a.p.pos = 64;
    a.p.n = 1000;                                           /* 10 bits */
    draw(&a, &c, 80, 23, hint, sizeof hint);
    CHECK(row_starting(&c, "bits", row, sizeof row) >= 0);
    CHECK(strncmp(row, "bits    0 0 0 0 0 0 1 0 0 0  ", 29) == 0);
    canvas_free(&c);
}

/* Moving pos changes hands and values, never the labels or the layout. */
static void test_stable_layout(void)
{
    struct app a;
    canvas c1, c2;
    char hint[256], r1[4096], r2[4096];
    int changed = 0;

    app_clocks(&a, 64, 37);
    draw(&a, &c1, 80, 23, hint, sizeof hint);
    a.p.pos = 38;
    draw(&a, &c2, 80, 23, hint, sizeof hint);
    for (int y = 0; y < 23; y++)
        for (int x = 0; x < 80; x++) {
            const cell *p = canvas_at(&c1, x, y), *q = canvas_at(&c2, x, y);
            changed += p->ch != q->ch || p->fg != q->fg;
        }
    CHECK(changed > 0);
    CHECK(changed < 240);           /* hands and numbers, not the screen */
    static const char *const FIXED[] = { "i ", "dims", "ω rad", "λ pos" };
    for (size_t k = 0; k < 4; k++) {
        int y1 = row_starting(&c1, FIXED[k], r1, sizeof r1);
        int y2 = row_starting(&c2, FIXED[k], r2, sizeof r2);
        CHECK(y1 >= 0 && y1 == y2);
        CHECK_STR(r1, r2);
    }
    canvas_free(&c1);
    canvas_free(&c2);
}

/* Every size from 1x1 up draws something sensible and never crashes;
 * the modes degrade in order as the screen shrinks. */
static void test_sizes(void)
{
    struct app a;
    char hint[256];
    static const int D[] = { 2, 8, 64, 4096 };

    for (size_t k = 0; k < sizeof D / sizeof D[0]; k++) {
        app_clocks(&a, D[k], 5);
        a.clocks.ghost = (int)(k & 1);
        a.clocks.counter = 1;
        for (int w = 1; w <= 170; w += (w < 24 ? 1 : 13))
            for (int h = 1; h <= 50; h += (h < 14 ? 1 : 7)) {
                canvas c;
                draw(&a, &c, w, h, hint, sizeof hint);
                CHECK(canvas_at(&c, 0, 0) != NULL);
                canvas_free(&c);
            }
    }
    struct clocks_layout l;
    clocks_layout(80, 23, 32, 0, 1, &l);
    CHECK(l.mode == CLOCKS_BIG);
    CHECK(l.tiles == 8 && l.cpr == 8);
    clocks_layout(160, 47, 32, 0, 1, &l);
    CHECK(l.mode == CLOCKS_BIG && l.tiles == 32);
    clocks_layout(50, 20, 32, 0, 1, &l);
    CHECK(l.mode == CLOCKS_SMALL);
    clocks_layout(80, 8, 32, 0, 1, &l);
    CHECK(l.mode == CLOCKS_TEXT && l.tiles == 6);
    clocks_layout(10, 3, 32, 0, 1, &l);
    CHECK(l.mode == CLOCKS_TOO_SMALL);
    clocks_layout(1, 1, 32, 0, 1, &l);
    CHECK(l.mode == CLOCKS_TOO_SMALL);

    canvas c;
    app_clocks(&a, 64, 5);
    draw(&a, &c, 10, 3, hint, sizeof hint);
    CHECK(canvas_has(&c, "need 20x2"));
    canvas_free(&c);
}

/* The overview includes the fastest and the slowest band, in order. */
static void test_overview(void)
{
    struct clocks_state s;
    memset(&s, 0, sizeof s);
    for (int half = 2; half <= 300; half += 7)
        for (int tiles = 2; tiles <= 40; tiles += 3) {
            int prev = -1, ok = 1, n = half < tiles ? half : tiles;
            for (int t = 0; t < n; t++) {
                int b = clocks_tile_band(&s, half, n, t);
                ok &= b > prev && b < half;
                prev = b;
            }
            CHECK(ok);
            CHECK(clocks_tile_band(&s, half, n, 0) == 0);
            CHECK(clocks_tile_band(&s, half, n, n - 1) == half - 1);
        }
    /* zoomed in: consecutive, and the cursor band is among them */
    s.zoom = 1;
    s.band = 20;
    s.band0 = 0;
    CHECK(clocks_tile_band(&s, 32, 8, 7) == 20);
    CHECK(clocks_tile_band(&s, 32, 8, 0) == 13);
}

/* ---- the RoPE rule row ---------------------------------------------------- */

/* Llama 3.1's rule for band i, from Meta's apply_scaling written again:
 * 0 kept, 1 blended, 2 interpolated. */
static int llama31_rule(int i)
{
    double w = 2 * PI * pow(5e5, 2.0 * i / 128);
    return w < 8192.0 / 4 ? 0 : w > 8192.0 ? 2 : 1;
}

static void app_llama31(struct app *a, long pos)
{
    app_clocks(a, 128, pos);
    a->p.base = 5e5;
    rope_preset_scaling(rope_preset_find("llama3.1-8b"), &a->p.rope);
}

/* The words of the row that starts with label, after it, into w[]. */
static int row_words(const canvas *c, const char *label, char w[][32], int max)
{
    char row[4096];
    int n = 0;
    if (row_starting(c, label, row, sizeof row) < 0)
        return -1;
    for (char *t = strtok(row + strlen(label), " "); t && n < max;
         t = strtok(NULL, " "))
        snprintf(w[n++], 32, "%s", t);
    return n;
}

/* Under every face its band's rule, as the formula gives it. */
static void test_rule_row(void)
{
    static const char *const WORD[3] = { "kept", "blend", "interp" };
    struct app a;
    char hint[256], bands[64][32], rules[64][32];
    canvas c;

    app_llama31(&a, 0);
    for (int zoom = 0; zoom < 2; zoom++)
        for (int b0 = 0; b0 < 64; b0 += 9) {
            a.clocks.zoom = zoom;
            a.clocks.band = b0;
            draw(&a, &c, 160, 48, hint, sizeof hint);
            int nb = row_words(&c, "i ", bands, 64);
            int nr = row_words(&c, "rule ", rules, 64);
            CHECK(nb >= 16 && nr >= 16);
            int ok = 1;
            for (int t = 0; t < nb && t < nr; t++)
                ok &= strcmp(rules[t], WORD[llama31_rule(atoi(bands[t]))]) == 0;
            CHECK(ok);
            canvas_free(&c);
        }
    /* the split ROPE.md computes: 0..28 kept, 29..34 blended, 35.. */
    CHECK(llama31_rule(28) == 0 && llama31_rule(29) == 1 &&
          llama31_rule(34) == 1 && llama31_rule(35) == 2);
    /* the legend at 80x24 names the three rules */
    draw(&a, &c, 80, 23, hint, sizeof hint);
    CHECK(canvas_has(&c, "rule: kept = \xce\xb8, blend = \xce\xb8..\xce\xb8/s, "
                         "interp = \xce\xb8/s"));
    canvas_free(&c);
    /* no scaling: no rule row, the table as before */
    app_clocks(&a, 128, 0);
    draw(&a, &c, 80, 23, hint, sizeof hint);
    CHECK(row_words(&c, "rule ", rules, 64) < 0 && !canvas_has(&c, "rule:"));
    canvas_free(&c);
}

/* Every word a rule row or its legend may show, whole. */
static int allowed_word(const char *w)
{
    static const char *const OK[] = {
        "kept", "blend", "interp", "rebase", "rescale", "-", "rule:", "=",
        "between", "and", "(unchanged);", "(unchanged),", "(unchanged)",
        "(interpolated)", "(interpolated);", "(interpolated),", "(a", "new",
        "base", "b')", "b'^(-2i/d)", "(f_i", "outside", "1..s)",
        "1..s);", "b'", "b',", "b';", "b')",
        NULL
    };
    static const char *const TH[] = { "\xce\xb8", "theta", NULL };
    static const char *const FORM[] = {     /* '@' is theta */
        "@", "@,", "@;", "@/s", "@/s,", "@/s;", "@..@/s", "@..@/s,",
        "@/f_i", "@/f_i,", "kept=@", "blend=@..@/s", "interp=@/s",
        "rescale=@/f_i", "rebase=b'", NULL
    };
    char buf[64];
    for (int k = 0; OK[k]; k++)
        if (strcmp(w, OK[k]) == 0)
            return 1;
    for (int t = 0; TH[t]; t++)
        for (int f = 0; FORM[f]; f++) {
            size_t k = 0;
            for (const char *q = FORM[f]; *q && k + 8 < sizeof buf; q++)
                k += (size_t)snprintf(buf + k, sizeof buf - k, "%s",
                                      *q == '@' ? TH[t] : (char[2]){ *q, 0 });
            if (strcmp(w, buf) == 0)
                return 1;
        }
    return 0;
}

/* Where the rule legend starts in a row, or NULL. */
static const char *legend_at(const char *row)
{
    static const char *const START[] = { "rule: ", " kept=", " blend=",
                                         " interp=", " rebase=", " rescale=" };
    for (size_t k = 0; k < sizeof START / sizeof START[0]; k++) {
        const char *p = strstr(row, START[k]);
        if (p)
            return p;
    }
    return NULL;
}

/* Whether every word of the rule row and of the legend is whole. */
static int words_whole(const canvas *c)
{
    char row[4096];
    int ok = 1;
    for (int y = 0; y < c->h; y++) {
        canvas_row_utf8(c, y, row, sizeof row);
        const char *from = strncmp(row, "rule ", 5) == 0 ? row + 5
                         : legend_at(row);
        if (!from)
            continue;
        char tmp[4096];
        snprintf(tmp, sizeof tmp, "%s", from);
        for (char *t = strtok(tmp, " "); t; t = strtok(NULL, " "))
            if (!allowed_word(t)) {
                printf("  clipped word '%s' in row %d: %s\n", t, y, row);
                ok = 0;
            }
    }
    return ok;
}

/* At every size, in ASCII too, the rule words and the legend are never cut
 * inside a word, for methods with every kind of rule. */
static void test_rule_words_whole(void)
{
    struct app a;
    char hint[256];
    for (int m = 0; m < 4; m++)
        for (int ascii = 0; ascii < 2; ascii++) {
            app_llama31(&a, 3000);
            a.p.n = 16384;
            if (m == 1) {       /* ntk: kept and rebased */
                a.p.rope.method = ROPE_NTK;
                a.p.rope.factor = 4;
            } else if (m == 2) { /* longrope: every other kind */
                static const double F[4] = { 1, 1.5, 8, 0.5 };
                a.p.d = 8;
                a.p.rope.method = ROPE_LONGROPE;
                a.p.rope.original_max = 64;
                a.p.rope.nshort = a.p.rope.nlong = 4;
                memcpy(a.p.rope.short_factor, F, sizeof F);
                memcpy(a.p.rope.long_factor, F, sizeof F);
            } else if (m == 3) { /* linear: interpolated alone */
                a.p.rope.method = ROPE_LINEAR;
            }
            a.ascii = ascii;
            int ok = 1;
            for (int w = 20; w <= 200; w += 9)
                for (int h = 5; h <= 60; h += 5) {
                    canvas c;
                    a.clocks.ghost = (w / 9) & 1;
                    draw(&a, &c, w, h, hint, sizeof hint);
                    ok &= words_whole(&c);
                    canvas_free(&c);
                }
            CHECK(ok);
        }
}

/* ---- keys and commands ---------------------------------------------------- */

static int key(struct app *a, int k)
{
    a->view = VIEW_CLOCKS;
    return view_key(a, k);
}

static void test_keys(void)
{
    struct app a;
    canvas c;
    char hint[256];

    app_clocks(&a, 64, 37);
    draw(&a, &c, 80, 23, hint, sizeof hint);    /* 8 tiles, evenly spread */
    CHECK_STR(hint, "8 of 32 bands, evenly spread");
    CHECK(key(&a, PK_RIGHT) && a.clocks.band == 4);
    CHECK(key(&a, 'l') && a.clocks.band == 9);
    CHECK(key(&a, 'h') && a.clocks.band == 4);
    CHECK(key(&a, PK_LEFT) && a.clocks.band == 0);
    CHECK(key(&a, PK_LEFT) && a.clocks.band == 0);      /* stays */
    CHECK(key(&a, 'L') && a.clocks.band == 31);
    CHECK(key(&a, 'H') && a.clocks.band == 0);
    CHECK(key(&a, '+') && a.clocks.zoom == 1);
    canvas_free(&c);
    draw(&a, &c, 80, 23, hint, sizeof hint);
    CHECK_STR(hint, "bands 0..7 of 32 (- for overview)");
    CHECK(key(&a, PK_RIGHT) && a.clocks.band == 1);
    CHECK(key(&a, PK_PGDN) && a.clocks.band == 9);
    canvas_free(&c);
    draw(&a, &c, 80, 23, hint, sizeof hint);
    CHECK_STR(hint, "bands 2..9 of 32 (- for overview)");
    CHECK(key(&a, PK_PGUP) && a.clocks.band == 1);
    CHECK(key(&a, '-') && a.clocks.zoom == 0 && a.clocks.band == 0);
    CHECK(key(&a, 'o') && a.clocks.ghost == 1);
    CHECK(key(&a, 'o') && a.clocks.ghost == 0);
    int cnt = a.clocks.counter;
    CHECK(key(&a, 'c') && a.clocks.counter == !cnt);
    CHECK(!key(&a, 'q'));                  /* global keys pass through */
    CHECK(!key(&a, ' '));
    a.playing = 1;
    canvas_free(&c);
    draw(&a, &c, 80, 23, hint, sizeof hint);
    CHECK_STR(hint, "8 of 32 bands, evenly spread");  /* speed: status line */
    canvas_free(&c);
}

static void test_commands(void)
{
    struct app a;
    static const char *const BAD[] = {
        "k 12abc", "k", "k nan", "k 1e30", "k 99999999999999999999",
        "k 16777217", "k -16777217", "k 0x10", "k 3 4", "k \x1b[2J",
    };

    app_clocks(&a, 8, 37);
    CHECK(app_command(&a, "k 5") == 0);
    CHECK(a.clocks.k == 5 && a.clocks.ghost == 1 && !a.msg_error);
    CHECK(app_command(&a, "k -3") == 0 && a.clocks.k == -3);
    CHECK(app_command(&a, "k 16777216") == 0 && a.clocks.k == 16777216);
    CHECK(app_command(&a, "k 4") == 0);
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        struct clocks_state before = a.clocks;
        CHECK(app_command(&a, BAD[i]) == -1);
        CHECK(a.msg_error == 1);
        CHECK(strstr(a.msg, ":k") != NULL);
        CHECK(memcmp(&before, &a.clocks, sizeof before) == 0);
    }
    CHECK(app_command(&a, "band 3") == 0 && a.clocks.band == 3);
    CHECK(app_command(&a, "band 4") == -1 && a.clocks.band == 3);
    CHECK(app_command(&a, "band -1") == -1 && a.msg_error);
    a.view = VIEW_CLOCKS;
    CHECK(view_command(&a, "nosuch", "1") == 0);

    /* the ghost: its lead k*omega in degrees, printed */
    canvas c;
    char hint[256], want[64];
    a.clocks.band = 1;
    draw(&a, &c, 80, 23, hint, sizeof hint);
    snprintf(want, sizeof want, "ghost k=4: %5.1f°", 0.4 * 180 / PI);
    CHECK(canvas_has(&c, want));
    CHECK(canvas_has(&c, "kω deg"));
    canvas_free(&c);
}

/* More full turns than a long long holds (linear s = 1e-300: omega =
 * 1e300 rad/pos): the count in exponent form, never a wrapped integer. */
static void test_huge_turns(void)
{
    struct app a;
    char hint[256], err[200], want[32];
    canvas c;

    app_clocks(&a, 64, 127);
    CHECK(params_set_rope(&a.p, RO_SCALING, "linear", err, sizeof err) == 0);
    CHECK(params_set_rope(&a.p, RO_FACTOR, "1e-300", err, sizeof err) == 0);
    /* band 0: floor(127 * 1e300 / 2pi) = 2.0213e301 full turns */
    snprintf(want, sizeof want, "turns %.3e", floor(127e300 / (2 * PI)));
    CHECK_STR(want, "turns 2.021e+301");
    draw(&a, &c, 80, 24, hint, sizeof hint);
    CHECK(canvas_has(&c, "turns 2.021e301 + "));
    CHECK(canvas_has(&c, "turns   2.02e301 "));     /* the table's cell */
    CHECK(!canvas_has(&c, "-922337"));
    canvas_free(&c);
}

/*
 * The readout's omega line at every width from 62 to 100 columns, at the
 * longest base and d_model: its value is always there.  At 68, 70 and 72
 * columns it read "ω = 1.234567891e299^(-65534/65536) =", the number cut
 * off with the last word.
 */
static void test_omega_line_widths(void)
{
    struct app a;
    char hint[256];
    canvas c;
    double want = pow(1.234567891e299, -65534.0 / 65536);
    app_clocks(&a, 65536, 16777215);
    a.p.n = 16777216;
    a.p.base = 1.234567891e299;
    a.clocks.band = 32767;
    int shown = 0;
    for (int w = 62; w <= 100; w++) {
        char row[512];
        int has = 0;                    /* narrow: a table without readout */
        double got = 0;
        draw(&a, &c, w, 24, hint, sizeof hint);
        for (int y = 0; y < c.h && !has; y++) {
            canvas_row_utf8(&c, y, row, sizeof row);
            char *om = strstr(row, "\xcf\x89 = ");
            has = om != NULL;
            if (has && strrchr(om, '=') && strstr(om, "rad/pos"))
                got = strtod(strrchr(om, '=') + 1, NULL);
        }
        shown += has;
        if (has && fabs(got / want - 1) > 1e-3)
            fprintf(stderr, "%d columns: omega %g, want %g\n", w, got, want);
        CHECK(!has || fabs(got / want - 1) <= 1e-3);
        canvas_free(&c);
    }
    CHECK(shown >= 30);
}

/* ---- faces in block cells ------------------------------------------------ */

/* Whether cell (x, y) shows quadrant pixels (U+2580..U+259F). */
static int is_block(const canvas *c, int x, int y)
{
    const cell *k = canvas_at(c, x, y);
    return k && k->kind == CELL_TEXT && k->ch >= 0x2580 && k->ch <= 0x259F;
}

/* Whether quadrant pixel (qx, qy) is set: 2 x 2 a cell. */
static int quad_set(const canvas *c, int qx, int qy)
{
    static const uint32_t CP[16] = {
        ' ', 0x2598, 0x259D, 0x2580, 0x2596, 0x258C, 0x259E, 0x259B,
        0x2597, 0x259A, 0x2590, 0x259C, 0x2584, 0x2599, 0x259F, 0x2588
    };
    const cell *k = canvas_at(c, qx / 2, qy / 2);
    for (int b = 1; b < 16 && k; b++)
        if (CP[b] == k->ch)
            return b >> ((qy % 2) * 2 + qx % 2) & 1;
    return 0;
}

/* A block face: the same geometry as the braille one (a quadrant pixel
 * is one dot wide and two tall), the hand solid from the hub to the tip
 * in its direction and three dots wide, the rim round and closed; '#' in
 * ASCII. */
static void test_block_face(void)
{
    static const double ANG[] = { 0, 0.9, 2.3, 3.1416, 4.0, 5.5 };
    for (size_t i = 0; i < sizeof ANG / sizeof ANG[0]; i++) {
        canvas c;
        canvas_init(&c, 30, 15);
        struct clock_face f = {
            .cx = 29, .cy = 29, .r = 24, .angle = ANG[i], .axes = 1,
            .ring = 0x808080, .hand = 0xFF8000, .axis = 0x404040,
            .thick = 2, .blocks = 1,
        };
        clocks_face_draw(&c, &f);
        int len = clocks_hand_len(24), tx, ty, miss = 0, wide = 0;
        /* along the hand, in dots: every point's pixel is set, and so is
         * a pixel one dot to a side across the hand */
        for (int k = 2; k <= len; k++) {
            double px = 29.5 + k * cos(ANG[i]), py = 29.5 - k * sin(ANG[i]);
            miss += !quad_set(&c, (int)floor(px), (int)floor(py / 2));
            double nx = sin(ANG[i]), ny = cos(ANG[i]);  /* across */
            wide += quad_set(&c, (int)floor(px + nx), (int)floor((py + ny) / 2))
                 || quad_set(&c, (int)floor(px - nx), (int)floor((py - ny) / 2));
        }
        CHECK(miss == 0);
        CHECK(wide == len - 1);     /* never a one-dot line */
        clocks_hand_end(29, 29, len, ANG[i], &tx, &ty);
        CHECK(canvas_at(&c, tx / 2, ty / 4)->fg == 0xFF8000);
        /* the opposite direction is empty inside the rim */
        int ox, oy;
        clocks_hand_end(29, 29, len * 3 / 4, ANG[i] + PI, &ox, &oy);
        CHECK(!quad_set(&c, ox, oy / 2));
        /* the rim: closed all round, on radius 24 dots */
        int rim = 0;
        for (int deg = 0; deg < 360; deg += 5) {
            double t = deg * PI / 180;
            double px = 29.5 + 23.5 * cos(t), py = 29.5 - 23.5 * sin(t);
            rim += quad_set(&c, (int)floor(px), (int)floor(py / 2));
        }
        CHECK(rim == 72);
        CHECK(!is_block(&c, 14, 7) || canvas_at(&c, 14, 7)->fg == 0xFF8000);
        /* in ASCII every block cell is '#' */
        int hashes = 0, blocks = 0;
        for (int y = 0; y < 15; y++)
            for (int x = 0; x < 30; x++)
                if (is_block(&c, x, y)) {
                    blocks++;
                    hashes += canvas_resolve(canvas_at(&c, x, y), 1,
                                             COLOR_NONE).ch == '#';
                }
        CHECK(blocks > 40 && hashes == blocks);
        canvas_free(&c);
    }
}

/* The big face is drawn in blocks with --palette contrast and in
 * presenter zoom, in braille otherwise; the small faces stay braille. */
static void test_block_views(void)
{
    struct app a;
    canvas c;
    char hint[256];
    for (int mode = 0; mode < 3; mode++) {
        app_clocks(&a, 8, 1);
        a.palette = mode == 1 ? PAL_CONTRAST : a.palette;
        a.presenter = mode == 2;
        draw(&a, &c, 80, 23, hint, sizeof hint);
        /* the big face: 20 x 11 cells at the top left at 80x24 */
        int blocks = 0, braille = 0, tiles = 0, tile_dots = 0;
        for (int y = 0; y < 11; y++)
            for (int x = 0; x < 20; x++) {
                blocks += is_block(&c, x, y);
                braille += canvas_at(&c, x, y)->kind == CELL_BRAILLE;
            }
        for (int y = 12; y < 23 && mode < 2; y++)  /* the table's faces */
            for (int x = 0; x < 80; x++) {
                tiles += is_block(&c, x, y);
                tile_dots += canvas_at(&c, x, y)->kind == CELL_BRAILLE;
            }
        if (mode) {
            CHECK(blocks > 30);
        } else {
            CHECK(blocks == 0 && braille > 30);
        }
        CHECK(tiles == 0);
        CHECK(mode == 2 || tile_dots > 30);
        canvas_free(&c);
    }
}

/* ---- presenter's big numbers --------------------------------------------- */

/* The test's own 3x5 font (bit 2 = left), for the characters drawn. */
static const char *big_rows_of(char ch)
{
    switch (ch) {
    case '1': return "\2\6\2\2\7";
    case '2': return "\7\1\7\4\7";
    case '3': return "\7\1\7\1\7";
    case '6': return "\7\4\7\5\7";
    case '7': return "\7\1\1\1\1";
    case '8': return "\7\5\7\5\7";
    default:  return NULL;          /* '.': one column, bottom pixel */
    }
}

/* Whether big pixel (px, py) is lit, as text: the bitmap text would draw
 * with the font above, 1 blank column between characters. */
static int big_expect(const char *text, int px, int py)
{
    for (const char *p = text; *p; p++) {
        const char *r = big_rows_of(*p);
        int w = r ? 3 : 1;
        if (px < w)
            return r ? (r[py] & (4 >> px)) != 0 : py == 4;
        px -= w + 1;
        if (px < 0)
            return 0;
    }
    return 0;
}

/* Big pixel (px, py) read off the canvas from cell (x0, y0): half-block
 * glyphs (two pixels a cell) or, in ASCII, '#' (one). */
static int big_seen(const canvas *c, int x0, int y0, int px, int py,
                    int halves)
{
    const cell *k = canvas_at(c, x0 + px, y0 + (halves ? py / 2 : py));
    if (!k || k->kind != CELL_TEXT)
        return 0;
    if (!halves)
        return k->ch == '#';
    if (k->ch == 0x2588)
        return 1;
    return k->ch == (py % 2 ? 0x2584u : 0x2580u);
}

/* The row whose cells from column x read the big number's label: lab0
 * and, for a one-letter label, blanks to the number (-1: not found). */
static int label_row(const canvas *c, int x, unsigned lab0)
{
    for (int y = 0; y < c->h; y++) {
        if (x + 3 >= c->w || canvas_at(c, x, y)->ch != lab0)
            continue;
        int one = lab0 != 'p', gap = one;
        for (int i = 1; i < 4 && one; i++)
            gap &= canvas_at(c, x + i, y)->ch == ' ';
        if (gap || (!one && canvas_at(c, x + 2, y)->ch == 's'))
            return y;
    }
    return -1;
}

/* Presenter zoom of the clocks: pos, omega and lambda each in the big
 * font beside its label, in half-block characters with colour and
 * without; in ASCII in '#', as many as fit (pos at least). */
static void test_presenter_numbers(void)
{
    static const struct { unsigned lab; const char *v; } NUM[] = {
        { 'p', "37" }, { 0x03C9, "1" }, { 0x03BB, "6.283" },
    };
    for (int mode = 0; mode < 3; mode++) {
        struct app a;
        canvas c;
        char hint[256];
        app_clocks(&a, 64, 37);
        a.presenter = 1;
        a.color = mode == 1 ? COLOR_256 : COLOR_NONE;
        a.ascii = mode == 2;
        draw(&a, &c, 80, 23, hint, sizeof hint);
        int rx = -1, halves = mode < 2;
        for (int x = 41; x < 78 && rx < 0; x++)
            if (label_row(&c, x, 'p') >= 0)
                rx = x;
        CHECK(rx > 40);
        int h = halves ? 3 : 5, lit = 0;
        size_t nums = halves ? sizeof NUM / sizeof NUM[0] : 1;
        for (size_t i = 0; i < nums; i++) {
            int y = label_row(&c, rx, NUM[i].lab) - h / 2, bad = 0;
            CHECK(y >= 0);
            for (int py = 0; py < 5 && y >= 0; py++)
                for (int px = 0; px < 20; px++) {
                    int e = big_expect(NUM[i].v, px, py);
                    bad += e != big_seen(&c, rx + 4, y, px, py, halves);
                    lit += e;
                }
            CHECK(bad == 0);
        }
        CHECK(lit > (halves ? 40 : 10));
        canvas_free(&c);
    }
}

/*
 * The ghost hand on the small faces of a table (7 cells: r = 6 dots):
 * cells drawn in the ghost's colour alone (the hand is drawn over it, a
 * braille cell takes one colour), for a ghost 30, 90 and 172 degrees
 * ahead of the hand.  A line one dot wide leaves it a dot or two.
 */
static int ghost_cells(double lead_deg)
{
    canvas c;
    int n = 0;
    rgb ring = 0x808080, hand = 0xFFFFFF, ghost = 0x3366FF;
    struct clock_face f = { .cx = 7, .cy = 8, .r = 6, .angle = -0.7,
                            .ghost = 1, .ring = ring, .hand = hand,
                            .ghost_col = ghost, .axis = ring };
    f.ghost_angle = f.angle + lead_deg * PI / 180;
    CHECK(canvas_init(&c, 8, 4) == 0);
    clocks_face_draw(&c, &f);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 8; x++)
            n += canvas_at(&c, x, y)->fg == ghost;
    canvas_free(&c);
    return n;
}

static void test_small_ghost(void)
{
    CHECK(ghost_cells(172) >= 3);
    CHECK(ghost_cells(90) >= 3);
    CHECK(ghost_cells(30) >= 2);
}

/* A dumped inv_freq written here, theta_i = base^(-2i/d) by pow, as
 * text: the file :check reads. */
static void write_freqs(const char *path, int d, double base)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fprintf(f, "inv_freq\n");
    for (int i = 0; i < d / 2; i++)
        fprintf(f, "%.17g\n", pow(base, -2.0 * i / d));
    fclose(f);
}

/* :check FILE: the verdict on the status line, a '!' by each differing
 * band's number and its expected omega marked; Esc and :check off clear
 * it; a change of the settings checks the file again. */
static void test_check(void)
{
    struct app a;
    canvas c;
    char hint[1400], cmd[600], path[512];
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(path, sizeof path, "%s/peviz-check-%ld.csv", dir, (long)getpid());
    write_freqs(path, 8, 500);
    app_clocks(&a, 8, 37);
    a.rt = views_rt_new();              /* the view keeps the check there */
    CHECK(a.rt != NULL);
    snprintf(cmd, sizeof cmd, "check %s", path);
    CHECK(app_command(&a, cmd) == -1);
    CHECK(strstr(a.msg, "differs, 3 of 4 bands (!); matches base 500 "
                 "instead of 10000") != NULL);
    draw(&a, &c, 80, 23, hint, sizeof hint);
    CHECK(strstr(hint, "differs, 3 of 4 bands") != NULL);
    CHECK(strstr(hint, "band") == strstr(hint, "bands"));  /* band 0 agrees */
    canvas_free(&c);
    a.clocks.band = 2;                  /* 500^(-2*2/8) */
    draw(&a, &c, 80, 23, hint, sizeof hint);
    snprintf(cmd, sizeof cmd, "; band 2 found %.6g", pow(500, -0.5));
    CHECK(strstr(hint, cmd) != NULL);
    snprintf(cmd, sizeof cmd, "check %s", path);
    CHECK(canvas_has(&c, "1!") && canvas_has(&c, "3!") && !canvas_has(&c, "0!"));
    canvas_free(&c);
    CHECK(app_key(&a, PK_ESC) != ACT_NONE);
    draw(&a, &c, 80, 23, hint, sizeof hint);
    CHECK(strstr(hint, "check") == NULL && !canvas_has(&c, "1!"));
    canvas_free(&c);
    CHECK(app_command(&a, cmd) == -1);
    a.p.base = 500;                     /* the settings the file was made at */
    draw(&a, &c, 80, 23, hint, sizeof hint);
    CHECK(strstr(hint, "match, 4 bands") != NULL && !canvas_has(&c, "1!"));
    canvas_free(&c);
    CHECK(app_command(&a, "check off") == 0);
    draw(&a, &c, 80, 23, hint, sizeof hint);
    CHECK(strstr(hint, "check") == NULL);
    canvas_free(&c);
    CHECK(app_command(&a, "check") == -1 && strstr(a.msg, ":check") != NULL);
    snprintf(cmd, sizeof cmd, "check %s.none", path);
    CHECK(app_command(&a, cmd) == -1 && strstr(a.msg, ":check: ") != NULL);
    views_rt_free(a.rt);
    remove(path);
}

/* The distinct foreground colours of the braille cells in rows y0..y1
 * (at most 8 counted). */
static int braille_colours(const canvas *c, int y0, int y1)
{
    rgb seen[8];
    int n = 0;
    for (int y = y0; y <= y1; y++)
        for (int x = 0; x < c->w; x++) {
            const cell *k = canvas_at(c, x, y);
            int j = 0;
            if (!k || k->kind != CELL_BRAILLE)
                continue;
            while (j < n && seen[j] != k->fg)
                j++;
            if (j == n && n < 8)
                seen[n++] = k->fg;
        }
    return n;
}

/* d, pos, and the sweep playing at speed pos/s. */
static void app_sweeping(struct app *a, int d, long pos, double speed)
{
    app_clocks(a, d, pos);
    a->playing = 1;
    a->speed = speed;
}

/* Whether the table row labelled label holds "..." and no number. */
static int row_waits(const canvas *c, const char *label)
{
    char row[4096];
    if (row_starting(c, label, row, sizeof row) < 0)
        return 0;
    return strstr(row, " ...") != NULL && strpbrk(row + 4, "0123456789") == NULL;
}

/*
 * A sweep over 4 pos/s (d 64, pos 37, 16 pos/s) sends the hands: they
 * stand at pos (the big face's tip where 37 rad says), each face in one
 * colour; the table's sin and cos rows wait; the readout shows the last
 * multiple of the speed, 32, and says so, with the formula's values.
 * Paused, at 4 pos/s, or after the sweep, every number is pos's again
 * and the faces have their colours; low-bandwidth mode holds at 4 pos/s.
 */
static void test_fast_sweep(void)
{
    struct app a;
    struct clocks_layout l;
    char want[96], hint[256];
    canvas c;

    app_sweeping(&a, 64, 37, 16);
    draw(&a, &c, 80, 23, hint, sizeof hint);
    snprintf(want, sizeof want, "sin = % .4f (height)  = PE(32,0)", sin(32.0));
    CHECK(canvas_has(&c, want));
    snprintf(want, sizeof want, "cos = % .4f (reach)   = PE(32,1)", cos(32.0));
    CHECK(canvas_has(&c, want));
    snprintf(want, sizeof want, "turns  %d + %5.1f°  (angle 32·ω = 32 rad)",
             (int)floor(32 / (2 * PI)), fmod(32.0, 2 * PI) * 180 / PI);
    CHECK(canvas_has(&c, want));
    CHECK(!canvas_has(&c, "PE(37,"));
    CHECK(row_waits(&c, "sin "));
    CHECK(row_waits(&c, "cos "));
    clocks_layout(80, 23, 32, 0, 0, &l);
    int dots = 4 * l.face_rows, cx = dots / 2 - 1, cy = 4 + dots / 2 - 1, tx, ty;
    clocks_hand_end(cx, cy, clocks_hand_len(dots / 2 - 1), 37.0, &tx, &ty);
    CHECK(dot_set(&c, tx, ty));                     /* the hand at pos 37 */
    CHECK(braille_colours(&c, 1, l.face_rows) == 1);
    CHECK(braille_colours(&c, l.table_y, l.table_y + l.fr - 1) == 1);
    canvas_free(&c);

    for (int k = 0; k < 2; k++) {       /* paused at 16 pos/s; 4 pos/s */
        a.playing = k;
        a.speed = k ? 4 : 16;
        draw(&a, &c, 80, 23, hint, sizeof hint);
        snprintf(want, sizeof want, "sin = % .4f (height)  = PE(37,0)",
                 sin(37.0));
        CHECK(canvas_has(&c, want));
        CHECK(!row_waits(&c, "sin ") && !row_waits(&c, "cos "));
        CHECK(!canvas_has(&c, "at pos 3") && !canvas_has(&c, "32·ω"));
        CHECK(braille_colours(&c, 1, l.face_rows) > 1);
        CHECK(braille_colours(&c, l.table_y, l.table_y + l.fr - 1) > 1);
        canvas_free(&c);
    }

    a.low_bandwidth = 1;                /* 4 pos/s: held at 36 */
    draw(&a, &c, 80, 23, hint, sizeof hint);
    CHECK(canvas_has(&c, "PE(36,0)") && row_waits(&c, "sin "));
    canvas_free(&c);

    /* narrow: the short wordings name the position too */
    a.low_bandwidth = 0;
    a.speed = 16;
    draw(&a, &c, 30, 40, hint, sizeof hint);
    snprintf(want, sizeof want, "sin = % .4f at pos 32", sin(32.0));
    CHECK(canvas_has(&c, want));
    snprintf(want, sizeof want, "cos = % .4f at pos 32", cos(32.0));
    CHECK(canvas_has(&c, want));
    canvas_free(&c);
}

int main(void)
{
    test_hand_end();
    test_band_angles();
    test_deg_mod();
    test_pos0();
    test_pos37_values();
    test_counter();
    test_stable_layout();
    test_sizes();
    test_overview();
    test_rule_row();
    test_rule_words_whole();
    test_keys();
    test_commands();
    test_huge_turns();
    test_omega_line_widths();
    test_block_face();
    test_block_views();
    test_presenter_numbers();
    test_small_ghost();
    test_check();
    test_fast_sweep();
    TEST_END("test_clocks");
}
