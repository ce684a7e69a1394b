/* SPDX-License-Identifier: ISC */
/*
 * test_rope_params.c - the RoPE scaling settings through params.c and the
 * ':' commands: ranges, cross checks, presets, refusals that change
 * nothing, and config.json files given in memory.
 */
#include "app.h"
#include "config.h"
#include "frame.h"
#include "views/clocks.h"
#include "frames.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int set(params *p, enum rope_opt id, const char *v)
{
    char err[256];
    return params_set_rope(p, id, v, err, sizeof err);
}

static void test_ranges(void)
{
    params p;
    char err[256];
    params_default(&p);
    CHECK(p.rope.method == ROPE_NONE && p.rope.factor == 1 && p.rope.truncate);
    CHECK(set(&p, RO_SCALING, "yarn") == 0 && p.rope.method == ROPE_YARN);
    CHECK(set(&p, RO_SCALING, "default") == 0 && p.rope.method == ROPE_NONE);
    CHECK(set(&p, RO_SCALING, "Yarn") == -1 && p.rope.method == ROPE_NONE);
    CHECK(set(&p, RO_FACTOR, "0") == -1 && p.rope.factor == 1);
    CHECK(set(&p, RO_FACTOR, "1e400") == -1);
    CHECK(set(&p, RO_FACTOR, "2.5") == 0 && p.rope.factor == 2.5);
    CHECK(set(&p, RO_ORIGINAL_MAX, "2147483648") == -1);
    CHECK(set(&p, RO_ORIGINAL_MAX, "2147483647") == 0);
    CHECK(set(&p, RO_ORIGINAL_MAX, "8192") == 0 && p.rope.original_max == 8192);
    CHECK(set(&p, RO_TRUNCATE, "off") == 0 && !p.rope.truncate);
    CHECK(set(&p, RO_TRUNCATE, "no") == -1 && !p.rope.truncate);
    CHECK(set(&p, RO_SHORT_FACTOR, "1, 2 ,3") == 0 && p.rope.nshort == 3 &&
          p.rope.short_factor[2] == 3);
    CHECK(set(&p, RO_SHORT_FACTOR, "1,0") == -1 && p.rope.nshort == 3);
    params_set_rope(&p, RO_FACTOR, "-1", err, sizeof err);
    CHECK_STR(err, "factor '-1': not > 0; want a finite number > 0");
    /* cross checks */
    params_default(&p);
    set(&p, RO_SCALING, "llama3");
    CHECK(params_check_rope(&p, err, sizeof err) == -1);
    CHECK(strstr(err, "needs original-max") != NULL);
    set(&p, RO_ORIGINAL_MAX, "8192");
    set(&p, RO_FACTOR, "8");
    CHECK(params_check_rope(&p, err, sizeof err) == 0);
    set(&p, RO_HIGH_FREQ, "0.5");
    CHECK(params_check_rope(&p, err, sizeof err) == -1);
    CHECK_STR(err, "low-freq-factor 1: want a number at most high-freq-factor 0.5");
    set(&p, RO_HIGH_FREQ, "1");     /* Llama 4 Scout: low = high = 1 */
    CHECK(params_check_rope(&p, err, sizeof err) == 0);
}

static void test_commands(void)
{
    struct app a;
    app_init(&a);
    CHECK(app_command(&a, "model llama3.1-8b") == 0);
    CHECK(a.p.d == 128 && a.p.base == 5e5 && a.p.rope.method == ROPE_LLAMA3 &&
          a.p.rope.factor == 8 && a.p.rope.original_max == 8192);
    CHECK(a.msg_error == 0 && strstr(a.msg, "llama3 s=8 L=8192") != NULL);
    params before = a.p;
    CHECK(app_command(&a, "factor 0.5") == -1);        /* llama3 needs >= 1 */
    CHECK(a.msg_error && memcmp(&a.p, &before, sizeof before) == 0);
    CHECK(app_command(&a, "model nope") == -1 && a.p.d == 128);
    CHECK(app_command(&a, "scaling yarn") == 0 && a.p.rope.method == ROPE_YARN);
    CHECK(app_command(&a, "rope-scaling linear") == 0);
    CHECK(app_command(&a, "truncate off") == 0 && !a.p.rope.truncate);
    /* longrope lists must fit d: a change of d they do not fit is refused */
    app_init(&a);
    CHECK(app_command(&a, "d 8") == 0);
    CHECK(app_command(&a, "original-max 16") == 0);
    CHECK(app_command(&a, "short-factor 1,2,3,4") == 0);
    CHECK(app_command(&a, "long-factor 2,3,4,5") == 0);
    CHECK(app_command(&a, "factor 4") == 0);
    CHECK(app_command(&a, "scaling longrope") == 0);
    CHECK(app_command(&a, "d 16") == -1 && a.p.d == 8);
    CHECK(strstr(a.msg, "short-factor: 4 values; want exactly d/2 = 8") != NULL);
    app_key(&a, 'D');                                    /* the d key too */
    CHECK(a.p.d == 8 && a.msg_error);
}

static int load(const char *json, const char *layer, params *p, char *err)
{
    return config_load_json("c.json", json, strlen(json), layer, p, err, 256);
}

static void test_config(void)
{
    params p;
    char err[256];
    params_default(&p);
    CHECK(load("{\"head_dim\": 128, \"rope_theta\": 1e6, \"rope_scaling\": "
               "{\"rope_type\": \"yarn\", \"factor\": 4, "
               "\"original_max_position_embeddings\": 32768}}", NULL, &p, err) == 0);
    CHECK(p.d == 128 && p.base == 1e6 && p.rope.method == ROPE_YARN &&
          p.rope.factor == 4 && p.rope.original_max == 32768 && p.rope.truncate);
    /* yarn without factor: max_position_embeddings / L */
    CHECK(load("{\"head_dim\": 64, \"rope_theta\": 1e4, \"max_position_embeddings\": "
               "163840, \"rope_scaling\": {\"type\": \"yarn\", "
               "\"original_max_position_embeddings\": 4096}}", NULL, &p, err) == 0);
    CHECK(p.rope.factor == 40);
    /* a refused file leaves p as it was */
    params before = p;
    CHECK(load("{\"head_dim\": 64}", NULL, &p, err) == -1);
    CHECK_STR(err, "c.json: key 'rope_theta': missing");
    CHECK(memcmp(&p, &before, sizeof p) == 0);
    CHECK(load("{\"head_dim\": 64, \"rope_theta\": \"1e4\"}", NULL, &p, err) == -1);
    CHECK_STR(err, "c.json: key 'rope_theta': not a number");
    CHECK(load("{\"head_dim\": 63, \"rope_theta\": 1e4}", NULL, &p, err) == -1);
    CHECK_STR(err, "c.json: key 'head_dim': d_model 63: must be an even number in 2..65536");
    CHECK(load("{\"hidden_size\": 100, \"num_attention_heads\": 3, \"rope_theta\": 1e4}",
               NULL, &p, err) == -1);
    CHECK_STR(err, "c.json: key 'num_attention_heads': does not divide hidden_size");
    CHECK(load("{\"head_dim\": 64, \"rope_theta\": 1e4, \"partial_rotary_factor\": 1.5}",
               NULL, &p, err) == -1);
    CHECK_STR(err, "c.json: key 'partial_rotary_factor': want a number in (0, 1]");
    CHECK(load("{\"head_dim\": 64, \"rope_theta\": 1e4, \"rope_scaling\": "
               "{\"type\": \"yarn\", \"factor\": 4, \"original_max_position_embeddings\""
               ": 4096, \"truncate\": 0}}", NULL, &p, err) == -1);
    CHECK_STR(err, "c.json: key 'rope_scaling.truncate': not true or false");
    /* v5 per layer type, first entry by default */
    const char *g = "{\"head_dim\": 256, \"rope_parameters\": {\"sliding_attention\": "
                    "{\"rope_theta\": 1e4}, \"full_attention\": {\"rope_theta\": 1e6, "
                    "\"rope_type\": \"linear\", \"factor\": 8}}}";
    CHECK(load(g, NULL, &p, err) == 0 && p.base == 1e4 && p.rope.method == ROPE_NONE);
    CHECK(load(g, "full_attention", &p, err) == 0 && p.base == 1e6 &&
          p.rope.method == ROPE_LINEAR && p.rope.factor == 8);
    /* a UTF-8 byte-order mark (Windows editors write one) is skipped */
    CHECK(load("\xef\xbb\xbf{\"head_dim\": 96, \"rope_theta\": 5e5}", NULL,
               &p, err) == 0 && p.d == 96 && p.base == 5e5);
    CHECK(load("\xef\xbb{\"head_dim\": 96, \"rope_theta\": 5e5}", NULL,
               &p, err) == -1);                      /* half a mark is not */
}

/* --config on a FIFO is refused at once, without waiting for a writer
 * (the alarm ends a test that would hang). */
static void test_config_fifo(void)
{
    char dir[] = "/tmp/peviz-cfg-XXXXXX", path[64], err[256];
    params p, before;
    params_default(&p);
    before = p;
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/config.json", dir);
    CHECK(mkfifo(path, 0600) == 0);
    alarm(5);
    CHECK(config_load(path, NULL, &p, err, sizeof err) == -1);
    alarm(0);
    CHECK(strstr(err, "a FIFO (pipe), not a regular file") != NULL);
    CHECK(memcmp(&p, &before, sizeof p) == 0);
    unlink(path);
    rmdir(dir);
}

/* Each compare pane holds its own model; the spectrum names the rule of
 * the band under the cursor and its omega before and after, exactly. */
static void test_compare_panes(void)
{
    struct app a;
    app_init(&a);
    a.view = VIEW_COMPARE;
    CHECK(app_command(&a, "model llama3.1-8b") == 0);      /* pane A: global */
    CHECK(a.p.rope.method == ROPE_LLAMA3 && a.p.d == 128);
    app_key(&a, ']');
    CHECK(a.cmp.active == 1);
    CHECK(app_command(&a, "model gpt-oss-20b") == 0);
    CHECK(a.cmp.panes[1].rope.method == ROPE_YARN && a.cmp.panes[1].d == 64 &&
          a.cmp.panes[1].base == 150000 && !a.cmp.panes[1].rope.truncate);
    CHECK(a.p.rope.method == ROPE_LLAMA3 && a.p.d == 128);  /* A unchanged */
    CHECK(app_command(&a, "factor 0.5") == -1 && a.cmp.panes[1].rope.factor == 32);
    CHECK(strstr(a.msg, "pane B: factor 0.5") != NULL);
    CHECK(app_command(&a, "mode spectrum") == 0);
    CHECK(app_command(&a, "n 131072") == 0);
    a.cmp.band = 29;
    /* llama3.1 band 29: 2.6160992529e-03 -> 2.1665707635e-03 (%.10g rounds up) */
    CHECK(frame_has(&a, 160, 48, "A blended \u03C9 0.002616099253\u21920.002166570764"));
    CHECK(frame_has(&a, 160, 48, "llama3 s=8 L=8192: kept 0\u201328 \u00b7 blend 29\u201334 \u00b7 interp 35\u201363"));
    CHECK(frame_has(&a, 160, 48, "kept 0\u20138 \u00b7 blend 9\u201317 \u00b7 interp 18\u201331"));
    CHECK(frame_has(&a, 160, 48, "L=8192"));
}

/* Two implementations of one model side by side: YaRN truncated (A) or
 * not (B); the readout gives B/A for the cursor band. */
static void test_compare_ratio(void)
{
    struct app a;
    char want[64];
    app_init(&a);
    a.view = VIEW_COMPARE;
    CHECK(app_command(&a, "model qwen2.5-7b-yarn") == 0);
    app_key(&a, ']');
    CHECK(app_command(&a, "model qwen2.5-7b-yarn") == 0);
    CHECK(app_command(&a, "truncate off") == 0 && !a.cmp.panes[1].rope.truncate);
    CHECK(app_command(&a, "mode spectrum") == 0);
    a.cmp.band = 24;
    /* corr(r) = d ln(L / (2 pi r)) / (2 ln base); r_i = (i - lo)/(hi - lo);
     * omega = theta (1 - r + r/s), so B/A = (1 - 0.75 r_B) / (1 - 0.75 r_A) */
    double pi = 3.14159265358979323846;
    double lo = 128 * log(32768 / (32 * 2 * pi)) / (2 * log(1e6));
    double hi = 128 * log(32768 / (1 * 2 * pi)) / (2 * log(1e6));
    double rb = (24 - lo) / (hi - lo), ra = (24 - floor(lo)) / (ceil(hi) - floor(lo));
    snprintf(want, sizeof want, "B/A \u03C9 %.10g", (1 - 0.75 * rb) / (1 - 0.75 * ra));
    CHECK(frame_has(&a, 160, 48, want));
}

/* The clocks turn at the scaled frequencies and name the band's rule. */
static void test_clocks(void)
{
    struct app a;
    struct clocks_band b;
    app_init(&a);
    CHECK(app_command(&a, "model llama3.1-8b") == 0);
    a.p.pos = 1000;
    clocks_band_info(&a.p, 29, &b);
    CHECK_NEAR(b.omega, 2.1665707635e-03, 1e-13);
    CHECK(b.scaled && b.rule == ROPE_BLENDED);
    CHECK_NEAR(b.angle, 1000 * 2.1665707635e-03, 1e-10);
    CHECK_NEAR(b.s, sin(1000 * 2.1665707635e-03), 1e-9);
    CHECK_NEAR(b.lambda, 2 * 3.14159265358979323846 / 2.1665707635e-03, 1e-5);
    clocks_band_info(&a.p, 63, &b);
    CHECK_NEAR(b.omega, 3.0689259889e-07, 1e-17);
    CHECK(b.rule == ROPE_INTERPOLATED);
    a.view = VIEW_CLOCKS;
    a.clocks.band = 29;
    CHECK(frame_has(&a, 120, 30, "llama3 s=8 L=8192, band blended"));
}

int main(void)
{
    test_clocks();
    test_compare_ratio();
    test_compare_panes();
    test_ranges();
    test_commands();
    test_config();
    test_config_fifo();
    TEST_END("test_rope_params");
}
