/* SPDX-License-Identifier: ISC */
/*
 * test_colormap.c - value maps (endpoints, sign, monotone lightness) and
 * the mapping of RGB down to 256 / 16 / 8 colours.
 */
#include <stdlib.h>

#include "colormap.h"
#include "harness.h"

static int R(rgb c) { return (int)((c >> 16) & 0xFF); }
static int G(rgb c) { return (int)((c >> 8) & 0xFF); }
static int B(rgb c) { return (int)(c & 0xFF); }

static int d2(rgb a, rgb b)
{
    int dr = R(a) - R(b), dg = G(a) - G(b), db = B(a) - B(b);
    return dr * dr + dg * dg + db * db;
}

/* Relative luminance (linear sRGB), for the monotonicity checks. */
static double lum(rgb c)
{
    double ch[3] = { R(c) / 255.0, G(c) / 255.0, B(c) / 255.0 };
    int i;

    for (i = 0; i < 3; i++)
        ch[i] = ch[i] <= 0.04045 ? ch[i] / 12.92
                                 : pow((ch[i] + 0.055) / 1.055, 2.4);
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
}

static void test_256_known(void)
{
    CHECK(rgb_to_256(0xFF0000) == 196);
    CHECK(rgb_to_256(0x000000) == 16);
    CHECK(rgb_to_256(0xFFFFFF) == 231);
    CHECK(rgb_to_256(0x808080) == 244);
    CHECK(rgb_to_256(0x00FF00) == 46);
    CHECK(rgb_to_256(0x0000FF) == 21);
    CHECK(rgb_to_256(0x5F87AF) == 67);       /* exact cube colour */
    CHECK(rgb_to_256(0x121212) == 233);      /* exact grey-ramp colour */
    CHECK(rgb_to_256(0xEEEEEE) == 255);
    CHECK(rgb_to_256(0xFE0101) == 196);      /* near red */
    CHECK(rgb_to_256(0x767676) == 243);      /* grey beats the cube */
    CHECK(rgb_to_256(RGB_DEFAULT) == -1);

    CHECK(rgb_of_256(16) == 0x000000);
    CHECK(rgb_of_256(196) == 0xFF0000);
    CHECK(rgb_of_256(231) == 0xFFFFFF);
    CHECK(rgb_of_256(232) == 0x080808);
    CHECK(rgb_of_256(244) == 0x808080);
    CHECK(rgb_of_256(255) == 0xEEEEEE);
    CHECK(rgb_of_256(67) == 0x5F87AF);
    CHECK(rgb_of_256(9) == 0xFF0000);
    CHECK(rgb_of_256(256) == RGB_DEFAULT);
    CHECK(rgb_of_256(-1) == RGB_DEFAULT);
}

static void test_256_nearest(void)
{
    int i, idx, never_low = 1, nearest = 1, roundtrip = 1;

    /* every index 16..255 maps back to itself */
    for (idx = 16; idx < 256; idx++)
        if (rgb_to_256(rgb_of_256(idx)) != idx)
            roundtrip = 0;
    CHECK(roundtrip);

    /* random colours: never 0..15, and nothing in 16..255 is nearer */
    srand(12345);
    for (i = 0; i < 1000; i++) {
        rgb c = ((rgb)rand() & 0xFFF) << 12 | ((rgb)rand() & 0xFFF);
        int got = rgb_to_256(c), best = 1 << 30, k;
        if (got < 16 || got > 255) {
            never_low = 0;
            continue;
        }
        for (k = 16; k < 256; k++)
            if (d2(c, rgb_of_256(k)) < best)
                best = d2(c, rgb_of_256(k));
        if (d2(c, rgb_of_256(got)) != best)
            nearest = 0;
    }
    CHECK(never_low);
    CHECK(nearest);
}

static void test_16_8(void)
{
    int i, ok16 = 1, ok8 = 1;

    CHECK(rgb_to_16(0xFF0000) == 9);
    CHECK(rgb_to_16(0xCD0000) == 1);
    CHECK(rgb_to_16(0x000000) == 0);
    CHECK(rgb_to_16(0xFFFFFF) == 15);
    CHECK(rgb_to_16(0x808080) == 8);
    CHECK(rgb_to_16(0x0000F0) == 4);
    CHECK(rgb_to_8(0xFF0000) == 1);
    CHECK(rgb_to_8(0xFFFFFF) == 7);
    CHECK(rgb_to_8(0x0000FF) == 4);
    CHECK(rgb_to_8(0x00FFFF) == 6);
    CHECK(rgb_to_8(0x202020) == 0);
    CHECK(rgb_to_16(RGB_DEFAULT) == -1);
    CHECK(rgb_to_8(RGB_DEFAULT) == -1);
    for (i = 0; i < 16; i++)
        if (rgb_to_16(rgb_of_256(i)) != i)
            ok16 = 0;
    for (i = 0; i < 8; i++)
        if (rgb_to_8(rgb_of_256(i)) != i)
            ok8 = 0;
    CHECK(ok16);
    CHECK(ok8);
}

static void test_diverging(void)
{
    int p, i, sign_ok = 1, sign256 = 1, distinct = 0, seen[256] = { 0 };

    CHECK(cmap_diverging(PAL_DEFAULT, -1) == 0x053061);
    CHECK(cmap_diverging(PAL_DEFAULT, 0) == 0xF7F7F7);
    CHECK(cmap_diverging(PAL_DEFAULT, 1) == 0x7F3B08);
    CHECK(cmap_diverging(PAL_DEFAULT, -7) == 0x053061);   /* clamped */
    CHECK(cmap_diverging(PAL_DEFAULT, 7) == 0x7F3B08);
    CHECK(cmap_diverging(PAL_DEFAULT, NAN) == 0xF7F7F7);
    CHECK(cmap_diverging(PAL_CONTRAST, 0) == 0xFFFFFF);
    CHECK(cmap_diverging(PAL_MONO, -1) == 0x121212);
    CHECK(cmap_diverging(PAL_MONO, 1) == 0xF2F2F2);
    CHECK(cmap_diverging((enum palette)99, 1) == 0x7F3B08);

    for (p = 0; p < PAL_COUNT; p++) {
        /* lightness falls away from zero on both sides; in mono it falls
         * below zero and rises above it */
        double prev_neg = lum(cmap_diverging(p, 0));
        double prev_pos = prev_neg;
        for (i = 1; i <= 20; i++) {
            double v = i / 20.0;
            double ln = lum(cmap_diverging(p, -v));
            double lp = lum(cmap_diverging(p, v));
            int pos_ok = p == PAL_MONO ? lp > prev_pos : lp < prev_pos;
            if (!(ln < prev_neg && pos_ok))
                sign_ok = 0;
            prev_neg = ln;
            prev_pos = lp;
        }
    }
    CHECK(sign_ok);
    sign_ok = 1;

    /* hue carries the sign: blue below zero, orange above, also after
     * mapping to 256 colours (where the palest shades near zero become
     * grey) */
    for (i = 1; i <= 20; i++) {
        double v = i / 20.0;
        rgb n = cmap_diverging(PAL_DEFAULT, -v), q = cmap_diverging(PAL_DEFAULT, v);
        rgb n256 = rgb_of_256(rgb_to_256(n)), q256 = rgb_of_256(rgb_to_256(q));
        if (!(B(n) > R(n) && R(q) > B(q)))
            sign_ok = 0;
        if (v >= 0.2 && !(B(n256) > R(n256) && R(q256) > B(q256)))
            sign256 = 0;
    }
    CHECK(sign_ok);
    CHECK(sign256);

    /* enough distinct 256-colour shades to read values */
    for (i = -20; i <= 20; i++) {
        int k = rgb_to_256(cmap_diverging(PAL_DEFAULT, i / 20.0));
        if (!seen[k]++)
            distinct++;
    }
    CHECK(distinct >= 10);

    /* mono is grey */
    for (i = -10; i <= 10; i++) {
        rgb c = cmap_diverging(PAL_MONO, i / 10.0);
        CHECK(R(c) == G(c) && G(c) == B(c));
    }
}

static void test_sequential(void)
{
    int p, i;

    CHECK(cmap_sequential(PAL_DEFAULT, 0) == 0x440154);
    CHECK(cmap_sequential(PAL_DEFAULT, 1) == 0xFDE725);
    CHECK(cmap_sequential(PAL_DEFAULT, -3) == 0x440154);
    CHECK(cmap_sequential(PAL_DEFAULT, 3) == 0xFDE725);
    CHECK(cmap_sequential(PAL_DEFAULT, NAN) == 0x440154);
    for (p = 0; p < PAL_COUNT; p++) {
        int mono = 1;
        double prev = -1;
        int up = 1;
        for (i = 0; i <= 200; i++) {
            rgb c = cmap_sequential(p, i / 200.0);
            double l = lum(c);
            if (!(l > prev))
                up = 0;
            prev = l;
            if (!(R(c) == G(c) && G(c) == B(c)))
                mono = 0;
        }
        CHECK(up);
        CHECK(mono == (p == PAL_MONO));
        /* the ends are far apart in lightness */
        CHECK(lum(cmap_sequential(p, 1)) - lum(cmap_sequential(p, 0)) > 0.5);
    }
}

static void test_levels_names(void)
{
    int i, prev = 0, mono = 1, p, c;

    CHECK(cmap_level(0) == 0);
    CHECK(cmap_level(1) == 9);
    CHECK(cmap_level(0.5) == 5);
    CHECK(cmap_level(0.05) == 0);
    CHECK(cmap_level(0.06) == 1);
    CHECK(cmap_level(-1) == 0);
    CHECK(cmap_level(5) == 9);
    CHECK(cmap_level(NAN) == 0);
    for (i = 0; i <= 100; i++) {
        int l = cmap_level(i / 100.0);
        if (l < prev)
            mono = 0;
        prev = l;
    }
    CHECK(mono);

    for (p = 0; p < PAL_COUNT; p++)
        CHECK(palette_parse(palette_name(p)) == p);
    CHECK_STR(palette_name(PAL_CONTRAST), "contrast");
    CHECK(palette_parse("mono") == PAL_MONO);
    CHECK(palette_parse("Mono") == -1);
    CHECK(palette_parse("") == -1);
    CHECK(palette_parse(NULL) == -1);

    for (p = 0; p < PAL_COUNT; p++) {
        int valid = 1;
        for (c = 0; c < UI_COUNT; c++) {
            rgb u = ui_color(p, c);
            if (u != RGB_DEFAULT && (u & ~0xFFFFFFu))
                valid = 0;
        }
        CHECK(valid);
        CHECK(ui_color(p, UI_TEXT) == RGB_DEFAULT);
        CHECK(d2(ui_color(p, UI_STATUS_FG), ui_color(p, UI_STATUS_BG)) >
              3 * 100 * 100);
        CHECK(ui_color(p, UI_PLOT_A) != ui_color(p, UI_PLOT_B));
        CHECK(ui_color(p, UI_PLOT_B) != ui_color(p, UI_PLOT_C));
        CHECK(ui_color(p, UI_PLOT_A) != ui_color(p, UI_PLOT_C));
    }
    CHECK(ui_color(PAL_DEFAULT, UI_COUNT) == RGB_DEFAULT);
}

/* WCAG 2 contrast: the published values (white on black 21, #767676 on
 * white 4.54, #777777 on white 4.48), symmetry, and every palette's text
 * and status line at AA (4.5) or better on a black and on a #1E1E1E
 * background. */
static void test_contrast(void)
{
    CHECK_NEAR(rgb_contrast(0xFFFFFF, 0x000000), 21.0, 1e-9);
    CHECK_NEAR(rgb_contrast(0x123456, 0x123456), 1.0, 1e-12);
    CHECK_NEAR(rgb_contrast(0x767676, 0xFFFFFF), 4.54, 0.005);
    CHECK_NEAR(rgb_contrast(0x777777, 0xFFFFFF), 4.48, 0.005);
    CHECK_NEAR(rgb_contrast(0xFFFFFF, 0x777777), rgb_contrast(0x777777, 0xFFFFFF),
               1e-12);
    for (int p = 0; p < PAL_COUNT; p++) {
        CHECK(palette_text_contrast((enum palette)p, 0x000000) >= 4.5);
        CHECK(palette_text_contrast((enum palette)p, 0x1E1E1E) >= 4.5);
        CHECK(palette_status_contrast((enum palette)p) >= 4.5);
        CHECK(palette_text_contrast((enum palette)p, 0x000000) <=
              rgb_contrast(ui_color((enum palette)p, UI_DIM), 0x000000));
    }
}

int main(void)
{
    test_contrast();
    test_256_known();
    test_256_nearest();
    test_16_8();
    test_diverging();
    test_sequential();
    test_levels_names();
    TEST_END("colormap");
}
