/* SPDX-License-Identifier: ISC */
/*
 * test_compare_keys.c - the compare view's scaling keys: s (next method
 * the settings allow), x X (factor /2, x2), t (YaRN truncate), m (next
 * model preset) act on the active pane only, through the params checks:
 * a refused key says why in the status line and changes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "app.h"
#include "frames.h"

static void setup(struct app *a)
{
    app_init(a);
    a->view = VIEW_COMPARE;
    a->p.n = 4096;
}

/* Header row 0 of a w x 24 frame. */
static void header(const struct app *a, int w, char *row, size_t len)
{
    char *t = frame_text(a, w, 24);
    snprintf(row, len, "%.*s", t ? (int)strcspn(t, "\n") : 0, t ? t : "");
    free(t);
}

/* The method s moves to after m: the next row of the table that p's
 * settings pass, or none after the last (the built-in rows after ntk
 * all need L). */
static int next_allowed(const params *p, int m)
{
    for (int k = m + 1; k < rope_method_count(); k++) {
        params q = *p;
        q.rope.method = (enum rope_method)k;
        if (rope_check(&q.rope, q.d, q.base, NULL, 0) == 0)
            return k;
    }
    return ROPE_NONE;
}

static void test_method_factor(void)
{
    struct app a;
    char row[1024];
    setup(&a);
    /* no scaling: x is refused, nothing changes */
    CHECK(app_key(&a, 'x') == ACT_VIEW_KEY && a.msg_error);
    CHECK(strstr(a.msg, "no scaling") != NULL);
    CHECK(a.p.rope.method == ROPE_NONE && a.p.rope.factor == 1);
    /* s: linear (factor 1 allowed), then ntk; no L, so dynamic, yarn,
     * llama3 and longrope are skipped back to none, saying why */
    a.msg_error = 0;
    app_key(&a, 's');
    CHECK(!a.msg_error && a.p.rope.method == ROPE_LINEAR);
    app_key(&a, 'X');
    app_key(&a, 'X');
    CHECK(!a.msg_error && a.p.rope.factor == 4);
    app_key(&a, 's');
    CHECK(a.p.rope.method == ROPE_NTK && a.p.rope.factor == 4);
    header(&a, 80, row, sizeof row);
    CHECK(strstr(row, "A ntk x4 base=10000") != NULL);
    CHECK(strstr(row, "B base=500000") != NULL);     /* B untouched */
    app_key(&a, 's');
    CHECK((int)a.p.rope.method == next_allowed(&a.p, ROPE_NTK));
    CHECK(strstr(a.msg, "skipped dynamic yarn llama3 longrope") != NULL);
    CHECK(strstr(a.msg, "original-max") != NULL);
    CHECK(a.cmp.panes[1].rope.method == ROPE_NONE);
}

static void test_model_keys(void)
{
    struct app a;
    char row[1024];
    setup(&a);
    app_key(&a, ']');
    CHECK(a.cmp.active == 1);
    /* m from no model: the first preset, then the next */
    app_key(&a, 'm');
    CHECK(!a.msg_error && a.cmp.panes[1].model == 1);
    CHECK(strcmp(rope_preset_at(0)->name, "llama2-7b") == 0);
    CHECK(a.cmp.panes[1].d == 128 && a.cmp.panes[1].base == 10000);
    app_key(&a, 'm');
    app_key(&a, 'm');
    CHECK(a.cmp.panes[1].model == 3);       /* llama3.1-8b */
    CHECK(a.cmp.panes[1].rope.method == ROPE_LLAMA3);
    CHECK(a.cmp.panes[1].rope.factor == 8);
    CHECK(a.p.d == 64 && a.p.rope.method == ROPE_NONE);   /* A untouched */
    header(&a, 80, row, sizeof row);
    CHECK(strstr(row, "B llama3.1-8b llama3 x8") != NULL);
    /* factor x2: still llama3, no longer the preset: the name goes */
    app_key(&a, 'X');
    CHECK(a.cmp.panes[1].rope.factor == 16);
    header(&a, 80, row, sizeof row);
    CHECK(strstr(row, "B llama3 x16") != NULL && strstr(row, "llama3.1") == NULL);
    app_key(&a, 'x');
    header(&a, 80, row, sizeof row);
    CHECK(strstr(row, "B llama3.1-8b llama3 x8") != NULL);
    /* x down to 1, then below: refused, llama3 wants s >= 1 */
    app_key(&a, 'x');
    app_key(&a, 'x');
    app_key(&a, 'x');
    CHECK(a.cmp.panes[1].rope.factor == 1 && !a.msg_error);
    app_key(&a, 'x');
    CHECK(a.msg_error && strstr(a.msg, "factor") != NULL);
    CHECK(a.cmp.panes[1].rope.factor == 1);
    /* t: not YaRN: refused */
    a.msg_error = 0;
    app_key(&a, 't');
    CHECK(a.msg_error && a.cmp.panes[1].rope.truncate == 1);
    /* :model qwen2.5-7b-yarn then t: truncate off, named in the header */
    a.msg_error = 0;
    CHECK(view_command(&a, "model", "qwen2.5-7b-yarn") == 1 && !a.msg_error);
    app_key(&a, 't');
    CHECK(!a.msg_error && a.cmp.panes[1].rope.truncate == 0);
    CHECK(a.p.rope.truncate == 1);
    header(&a, 120, row, sizeof row);
    CHECK(strstr(row, "B yarn x4 untruncated") != NULL);
}

/* The heatmap, diff and profile modes draw the sinusoidal PE at each
 * pane's base: with a scaled pane their legend says it is unscaled. */
static void test_unscaled_modes(void)
{
    struct app a;
    setup(&a);
    CHECK(frame_has(&a, 80, 24, "PE value, one scale:"));
    a.cmp.active = 1;
    CHECK(view_command(&a, "model", "llama3.1-8b") == 1 && !a.msg_error);
    CHECK(frame_has(&a, 80, 24, "unscaled PE value:"));
    a.cmp.mode = PANE_DIFF;
    CHECK(frame_has(&a, 80, 24, "unscaled PE difference:"));
    a.cmp.mode = PANE_PROFILE;
    a.p.n = 100;                    /* one distance a point: the formula */
    CHECK(frame_has(&a, 160, 48, "cos(\xce\xb4\xc2\xb7\xcf\x89_i), unscaled"));
    a.cmp.mode = PANE_SPECTRUM;     /* the mode that shows the scaling */
    char *t = frame_text(&a, 80, 24);
    CHECK(t && !strstr(t, "unscaled PE"));
    free(t);
}

int main(void)
{
    test_method_factor();
    test_model_keys();
    test_unscaled_modes();
    TEST_END("test_compare_keys");
}
