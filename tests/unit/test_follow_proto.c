/* SPDX-License-Identifier: ISC */
/*
 * test_follow_proto.c - the follow-mode protocol: every published field
 * survives the trip, the text is what the protocol says, a state change
 * fits in 1 KB, and bad messages are refused whole, leaving the state
 * as it was.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "follow_proto.h"
#include "harness.h"
#include "peviz/fmt.h"
#include "peviz/tables.h"
#include "sha256.h"
#include "state_field.h"
#include "tour.h"

static struct pe_table some_table;   /* only its address is used */

static void pane_set(struct pane *p, double base, int d, int64_t n,
                     enum layout l, enum precision prec)
{
    p->base = base;
    p->d = d;
    p->n = n;
    p->layout = l;
    p->prec = prec;
}

/* A state with every published field away from its default. */
static void odd_state(struct app *a)
{
    app_init(a);
    a->view = VIEW_COMPARE;
    a->split = VIEW_CLOCKS + 1;             /* :split clocks */
    a->p.d = 512;
    a->p.base = 123456.789012345;
    a->p.n = 4096;
    a->p.pos = 4000;
    a->playing = 1;
    a->speed = 16.5;
    a->heat = (struct heatmap_state){ 300, 256, 3, 1024, 1, 0, 0 };
    a->clocks = (struct clocks_state){ 200, 192, 1, 1, -77, 1 };
    a->att.o.scheme = SCHEME_ALIBI;
    a->att.o.softmax = a->att.o.causal = a->att.o.temperature = 1;
    a->att.o.content = a->att.split = a->att.o.q_random = 1;
    a->att.o.scale_emb = 0;
    a->att.o.heads = 12;
    a->att.o.seed = 4000000000u;
    a->att.o.head = 11;
    a->att.o.train_len = 333;
    a->att.ci = 4095;
    a->att.cj = 17;
    a->att.zoom = 5;
    a->att.i0 = 2048;
    a->att.j0 = 1;
    /* the families' settings, none at its default; doubles that take
     * 17 digits */
    a->att.o.buckets = 48;
    a->att.o.max_distance = 300;
    a->att.o.bidirectional = 1;
    a->att.o.r1 = 0.1 + 0.2;
    a->att.o.r2 = 1.0 / 3;
    a->att.o.xpos_base = 511.99999999999994;
    a->att.o.qk_pairs = QK_INTERLEAVED;
    a->att.o.rotary_dims = 48;
    a->att.o.temp_tuning = 1;
    a->att.o.floor_scale = 4096.5;
    a->att.o.attn_scale = 0.30000000000000004;
    a->att.o.beta = 0.10000000000000001;    /* Ministral 3's, from a config */
    a->att.o.beta_len = 16384;
    a->cmp.npanes = 3;
    a->cmp.active = 2;
    a->cmp.preset = 3;
    a->cmp.mode = PANE_DIFF;
    pane_set(&a->cmp.panes[0], 500000, 0, 0, LAYOUT_CONCAT, PREC_BF16);
    pane_set(&a->cmp.panes[1], 2.5, 128, 64, LAYOUT_HALF, PREC_F16);
    pane_set(&a->cmp.panes[2], 1e6, 4096, 16777216, LAYOUT_INTERLEAVED,
                                     PREC_F32);
    a->cmp.panes[0].scheme = 1 + SCHEME_KERPLE_POWER;  /* each pane's scores */
    a->cmp.panes[1].scheme = 1 + SCHEME_ROPE;
    a->cmp.panes[1].pairs = 1 + QK_HALF;
    a->cmp.panes[2].scheme = 1 + SCHEME_XPOS;
    a->cmp.panes[2].pairs = 1 + QK_INTERLEAVED;
    a->cmp.panes[2].layer = 1 + 47;
    for (int k = 3; k < COMPARE_MAX_PANES; k++) {  /* D, E, F */
        pane_set(&a->cmp.panes[k], 1e3 * k + 0.5, 16 * k, 100 * k,
                 LAYOUT_HALF, PREC_F32);
        a->cmp.panes[k].scheme = 1 + SCHEME_KERPLE_LOG + (k - 3);
        a->cmp.panes[k].pairs = 1 + QK_HALF;
        a->cmp.panes[k].layer = 1 + k;
    }
    a->cmp.dim = 511;
    a->cmp.band = 255;
    a->cmp.dims_1to1 = 1;
    a->cmp.zoom = 7;
    a->p.rope.method = ROPE_YARN;
    a->p.rope.factor = 4;
    a->p.rope.original_max = 4096;
    a->p.rope.beta_fast = 16;
    a->p.rope.mscale = 0.707;
    a->p.rope.truncate = 0;
}

/* Every published field of x equals y's (local fields are not compared). */
static void check_same_state(const struct app *x, const struct app *y)
{
    CHECK(x->view == y->view);
    CHECK(x->split == y->split);
    CHECK(x->p.d == y->p.d);
    CHECK(x->p.base == y->p.base);          /* exact: %.17g round trips */
    CHECK(x->p.n == y->p.n);
    CHECK(x->p.pos == y->p.pos);
    CHECK(x->playing == y->playing);
    CHECK(x->speed == y->speed);
    CHECK(x->heat.dim == y->heat.dim && x->heat.dim0 == y->heat.dim0);
    CHECK(x->heat.zoom == y->heat.zoom && x->heat.x0 == y->heat.x0);
    CHECK(x->heat.pca == y->heat.pca);
    CHECK(x->heat.pca_i == y->heat.pca_i && x->heat.pca_j == y->heat.pca_j);
    CHECK(x->clocks.band == y->clocks.band && x->clocks.band0 == y->clocks.band0);
    CHECK(x->clocks.zoom == y->clocks.zoom && x->clocks.ghost == y->clocks.ghost);
    CHECK(x->clocks.k == y->clocks.k && x->clocks.counter == y->clocks.counter);
    CHECK(x->att.o.scheme == y->att.o.scheme);
    CHECK(x->att.o.softmax == y->att.o.softmax && x->att.o.causal == y->att.o.causal);
    CHECK(x->att.o.temperature == y->att.o.temperature);
    CHECK(x->att.o.content == y->att.o.content && x->att.split == y->att.split);
    CHECK(x->att.o.scale_emb == y->att.o.scale_emb);
    CHECK(x->att.o.heads == y->att.o.heads && x->att.o.head == y->att.o.head);
    CHECK(x->att.o.q_random == y->att.o.q_random);
    CHECK(x->att.o.seed == y->att.o.seed);
    CHECK(x->att.o.train_len == y->att.o.train_len);
    CHECK(x->att.ci == y->att.ci && x->att.cj == y->att.cj);
    CHECK(x->att.zoom == y->att.zoom);
    CHECK(x->att.i0 == y->att.i0 && x->att.j0 == y->att.j0);
    CHECK(x->att.o.beta == y->att.o.beta && x->att.o.beta_len == y->att.o.beta_len);
    CHECK(x->cmp.npanes == y->cmp.npanes && x->cmp.active == y->cmp.active);
    CHECK(x->cmp.preset == y->cmp.preset && x->cmp.mode == y->cmp.mode);
    for (int k = 0; k < COMPARE_MAX_PANES; k++) {
        CHECK(x->cmp.panes[k].base == y->cmp.panes[k].base);
        CHECK(x->cmp.panes[k].d == y->cmp.panes[k].d);
        CHECK(x->cmp.panes[k].n == y->cmp.panes[k].n);
        CHECK(x->cmp.panes[k].layout == y->cmp.panes[k].layout);
        CHECK(x->cmp.panes[k].prec == y->cmp.panes[k].prec);
        CHECK(x->cmp.panes[k].scheme == y->cmp.panes[k].scheme);
        CHECK(x->cmp.panes[k].pairs == y->cmp.panes[k].pairs);
        CHECK(x->cmp.panes[k].layer == y->cmp.panes[k].layer);
    }
    CHECK(x->cmp.dim == y->cmp.dim && x->cmp.band == y->cmp.band);
    CHECK(x->p.rope.method == y->p.rope.method);
    CHECK(x->p.rope.factor == y->p.rope.factor);
    CHECK(x->p.rope.original_max == y->p.rope.original_max);
    CHECK(x->p.rope.low_freq_factor == y->p.rope.low_freq_factor);
    CHECK(x->p.rope.high_freq_factor == y->p.rope.high_freq_factor);
    CHECK(x->p.rope.beta_fast == y->p.rope.beta_fast);
    CHECK(x->p.rope.beta_slow == y->p.rope.beta_slow);
    CHECK(x->p.rope.truncate == y->p.rope.truncate);
    CHECK(x->p.rope.mscale == y->p.rope.mscale);
    CHECK(x->p.rope.mscale_all_dim == y->p.rope.mscale_all_dim);
    CHECK(x->p.rope.attention_factor == y->p.rope.attention_factor);
    CHECK(x->cmp.dims_1to1 == y->cmp.dims_1to1 && x->cmp.zoom == y->cmp.zoom);
}

/* The body of an encoded message (after the header line). */
static const char *body_of(const char *m)
{
    const char *nl = strchr(m, '\n');
    return nl ? nl + 1 : m;
}

static void test_round_trip(void)
{
    struct app t, f;
    char m[FP_MESSAGE_MAX + 1], err[512];
    odd_state(&t);
    int len = fp_encode(&t, m, sizeof m);
    CHECK(len > 0);
    m[len > 0 ? len : 0] = 0;
    app_init(&f);
    f.palette = PAL_MONO;                   /* local: must stay */
    f.ascii = 1;
    const char *b = body_of(m);
    CHECK(fp_apply(&f, b, strlen(b), err, sizeof err) == 0);
    check_same_state(&f, &t);
    CHECK(f.palette == PAL_MONO && f.ascii == 1);
    /* the header says the body's length, written out independently */
    char want[64];
    snprintf(want, sizeof want, "PEVIZ-FOLLOW 1 %zu\n", strlen(b));
    CHECK(strncmp(m, want, strlen(want)) == 0);
    /* the text is "name value" lines a person can read */
    CHECK(strstr(m, "\nview compare\n") != NULL);
    CHECK(strstr(m, "\nd 512\n") != NULL);
    CHECK(strstr(m, "\nbase 123456.789012345\n") != NULL);
    CHECK(strstr(m, "\npos 4000\n") != NULL);
    CHECK(strstr(m, "\natt.scheme alibi\n") != NULL);
    CHECK(strstr(m, "\ncmp.0.prec bf16\n") != NULL);
    CHECK(strstr(m, "\nclk.k -77\n") != NULL);
    CHECK(strstr(m, "\nheat.pca 1\n") != NULL);
    /* a scaling: the method and what is not at its default, by the
     * command line's names */
    CHECK(strstr(m, "\nrope yarn factor=4 original-max=4096 beta-fast=16 "
                    "truncate=off mscale=0.707\nrope.sf -\nrope.lf -\n") != NULL);
    CHECK(strstr(m, "\ncmp.1.rope none\ncmp.1.rope.sf -\n") != NULL);
    CHECK(strstr(m, "\ntour off\n") != NULL);
}

/* The largest values every field can take: the message stays <= 1 KB. */
static void test_size(void)
{
    struct app t;
    char m[FP_MESSAGE_MAX];
    odd_state(&t);
    t.p.d = PARAM_D_MAX;
    t.p.n = PARAM_N_MAX;
    t.p.pos = PARAM_N_MAX - 1;
    t.p.base = 1.2345678901234567e-300 + 1.0000000000000002;
    t.speed = 0.12500000000000003;
    t.clocks.k = -PARAM_N_MAX;
    t.heat.x0 = t.att.ci = t.att.cj = t.att.i0 = t.att.j0 = PARAM_N_MAX - 1;
    t.att.o.train_len = PARAM_N_MAX;
    t.att.o.scheme = SCHEME_SINUSOIDAL;
    t.cmp.mode = PANE_SPECTRUM;
    t.pe_table = &some_table;
    t.pe_file_name = "/data/a-very-long-name-for-a-learned-position-table-"
                     "exported-from-a-checkpoint-of-step-123456.npy";
    for (int k = 0; k < 3; k++)
        pane_set(&t.cmp.panes[k], 1.0000000000000002e10 / 3, PARAM_D_MAX,
                                        PARAM_N_MAX, LAYOUT_INTERLEAVED,
                                        PREC_F64);
    int len = fp_encode(&t, m, sizeof m);
    printf("largest state message: %d bytes\n", len);
    CHECK(len > 0 && len <= FP_MESSAGE_MAX);
    /* the defaults; a lecture's state (every field set, RoPE scaling on,
     * a note of 80 characters, a table with its content hash) under
     * 2.2 KB: the whole state, sent once to a follower that connects
     * (a change sends only its own lines: test_delta) */
    app_init(&t);
    len = fp_encode(&t, m, sizeof m);
    printf("the defaults' whole state: %d bytes\n", len);
    odd_state(&t);
    len = fp_encode(&t, m, sizeof m);
    printf("a lecture's whole state: %d bytes\n", len);
    /* + mpos off, grid.*, the attention families' thirteen settings,
     * each compare pane's scheme, q/k pairs and layer, panes D, E, F */
    CHECK(len > 0 && len <= 2100);
    memset(t.note, 'n', APP_NOTE_MAX);
    t.note[APP_NOTE_MAX] = 0;
    memset(t.pe_digest, 'f', 64);
    t.pe_digest[64] = 0;
    len = fp_encode(&t, m, sizeof m);
    printf("... with a note and a table's hash: %d bytes\n", len);
    CHECK(len > 0 && len <= 2180);
}

/* A refused body leaves the state exactly as it was. */
static void refused(const char *body, const char *why_has)
{
    struct app a, before;
    char err[512] = "";
    odd_state(&a);
    before = a;
    int r = fp_apply(&a, body, strlen(body), err, sizeof err);
    CHECK(r == -1);
    CHECK(memcmp(&a, &before, sizeof a) == 0);
    if (why_has && !strstr(err, why_has)) {
        fprintf(stderr, "  body %.40s: err '%s' lacks '%s'\n", body, err, why_has);
        CHECK(0);
    }
}

/* :pca I J travels in heat.pca's line, only when a pair is chosen. */
static void test_pca_pair(void)
{
    struct app t, f;
    char body[8192], err[256];
    odd_state(&t);
    t.heat.pca_i = 2;
    t.heat.pca_j = 5;
    int n = fp_body(&t, body, sizeof body);
    CHECK(n > 0 && strstr(body, "\nheat.pca 1 2 5\n") != NULL);
    odd_state(&f);
    CHECK(fp_apply(&f, body, (size_t)n, err, sizeof err) == 0);
    CHECK(f.heat.pca == 1 && f.heat.pca_i == 2 && f.heat.pca_j == 5);
    CHECK(fp_apply(&f, "heat.pca 0\n", 11, err, sizeof err) == 0);
    CHECK(f.heat.pca == 0 && f.heat.pca_i == 0 && f.heat.pca_j == 0);
}

static void test_rejections(void)
{
    refused("colour red\n", "unknown field");
    refused("d 64\nd 128\n", "given twice");
    refused("d 64", "newline");
    refused("d 63\n", "d: wants an even number 2..65536");
    refused("d 1e9\n", "d: wants an even number 2..65536");
    refused("n 0\n", "n: wants a whole number 1..16777216");
    refused("base 1\n", "base: wants a finite number > 1");
    refused("base nan\n", "base: wants a finite number > 1");
    refused("pos 4096\n", "pos: wants a whole number 0..4095"); /* n 4096 */
    refused("view \x1b[2J\n", "not printable");
    refused("view compare\r\n", "not printable");
    refused("view teapot\n", "view");
    refused("heat.dim 512\n", "out of range");
    refused("d 64\nheat.dim 64\n", "out of range");
    refused("playing 2\n", "out of range");
    refused("heat.pca 2\n", "want 0 or 1");
    refused("heat.pca 1 3 3\n", "want 0 or 1");
    refused("heat.pca 1 2 65\n", "want 0 or 1");
    refused("heat.pca 1 2\n", "want 0 or 1");
    refused("att.seed 4294967296\n", "att.seed: wants a whole number");
    refused("att.seed -1\n", "att.seed: wants a whole number");
    /* the families' settings, as their options are checked */
    refused("att.buckets 3\n", "att.buckets");
    refused("att.r1 0\n", "att.r1");
    refused("att.r2 nan\n", "att.r2");
    refused("att.scheme kerple-power\natt.r2 2.5\n", "att.r2");
    {   /* the pairs the refusal names are the table's */
        const char *w[QK_PAIRS_COUNT];
        char want[128], list[96];
        for (int k = 0; k < QK_PAIRS_COUNT; k++)
            w[k] = qk_pairs_name(k);
        snprintf(want, sizeof want, "att.pairs: wants %s",
                 fmt_names(list, sizeof list, w, QK_PAIRS_COUNT, " or "));
        refused("att.pairs diagonal\n", want);
    }
    refused("att.rotary 7\n", "att.rotary: wants an even number");
    refused("att.tuning maybe\n", "att.tuning: wants on or off");
    refused("att.floor_scale -1\n", "att.floor_scale");
    refused("att.beta -0.5\n", "att.beta: wants a number >= 0");
    refused("att.beta_len 0\n", "att.beta needs att.beta_len");
    /* longrope wants d/2 = 256 factors in each list (there are none) */
    refused("rope longrope factor=4 original-max=4096\n",
            "rope: short-factor: 0 values; want exactly d/2 = 256");
    refused("rope warp\n", "rope: rope-scaling 'warp': unknown method");
    refused("rope\n", "unknown field");
    refused("rope \n", "rope: rope-scaling '': unknown method");
    refused("rope yarn factor=0 original-max=4096\n", "rope: factor '0'");
    refused("rope yarn factor=4\n", "needs original-max");
    refused("rope yarn original-max=0\n", "rope: original-max '0'");
    refused("rope yarn original-max=4096 truncate=maybe\n", "rope: truncate");
    refused("rope yarn original-max=4096 factor=4 factor=5\n", "each name once");
    refused("rope yarn original-max=4096 factor\n", "NAME=VALUE");
    refused("rope yarn original-max=4096 short-factor=1,2\n", "NAME=VALUE");
    refused("rope yarn original-max=4096 =4\n", "NAME=VALUE");
    refused("rope yarn original-max=4096 factor=nan\n", "factor 'nan'");
    refused("rope llama3 original-max=8192 low-freq-factor=4 "
            "high-freq-factor=1\n", "rope: low-freq-factor 4");
    refused("rope.sf 1,x\n", "rope.sf: short-factor '1,x'");
    refused("rope.lf 1,-2\n", "rope.lf: long-factor");
    refused("rope.lf 0x1p+0\n", "rope.lf: long-factor");
    refused("rope.lf f32:\n", "rope.lf: not a list of float32 numbers");
    refused("rope.lf f32:1,,2\n", "rope.lf: not a list of float32 numbers");
    refused("rope.lf f32:1,2,\n", "rope.lf: not a list of float32 numbers");
    refused("rope.lf f32:0x1p+0\n", "rope.lf: not a list of float32 numbers");
    refused("rope.lf f32:inf\n", "rope.lf: not a list of float32 numbers");
    refused("rope.lf f32:1e39\n", "rope.lf: long-factor: value 1 is inf");
    refused("rope.lf f32:1,-2\n", "rope.lf: long-factor: value 2 is -2");
    refused("rope.sf f32:1.5e\n", "rope.sf: not a list of float32 numbers");
    refused("rope.sf\n", "unknown field");
    refused("rope.sf 1\nrope.sf 2\n", "given twice");
    /* panes B and C: the same checks, against each pane's own d */
    refused("cmp.1.rope linear factor=-1\n", "cmp.1.rope: factor '-1'");
    refused("cmp.1.rope yarn factor=4\n", "cmp.1.rope: rope-scaling yarn: "
            "needs original-max");
    refused("cmp.2.rope longrope factor=4 original-max=4096\n",
            "cmp.2.rope: rope-scaling longrope: d 4096");   /* pinned d */
    refused("cmp.1.rope longrope factor=4 original-max=4096\ncmp.1.rope.sf "
            "1,2\ncmp.1.rope.lf 1,2\n", "want exactly d/2 = 64");
    refused("cmp.1.rope.sf 1,,2\n", "cmp.1.rope.sf");
    refused("speed 0\n", "speed");
    refused("speed inf\n", "speed");
    refused("clk.k 16777217\n", "out of range");
    refused("att.heads 129\n", "att.heads: wants a whole number");
    refused("att.heads 4\n", "att.head");  /* head is 11 */
    refused("cmp.panes 2\n", "cmp.active");     /* active is 2 */
    refused("cmp.1.d 7\n", "d_model");
    refused("cmp.1.n -1\n", "seq_len");
    refused("cmp.2.layout diagonal\n", "unknown value");
    refused("tour 5/5\n", "tour");
    refused("tour -1/5\n", "tour");
    refused("tour 1\n", "tour");
    refused("view\n", "unknown field");
    refused("\n", "unknown field");
    refused(" d 64\n", "unknown field");
    refused("table a b\n", "table: want NAME");
    refused("table \n", "table: want none or a path");
    refused("table /x.csv tensor=a tensor=b\n", "table: want NAME");
    refused("table /x.csv tensor=\n", "table: want NAME");
    refused("table /x.csv tensor=a:b\n", "table: want NAME");
    refused("table /x.csv row-offset=-1\n", "table: want NAME");
    refused("table /x.csv row-offset=1e9\n", "table: want NAME");
    refused("table none tensor=wpe\n", "none has no tensor");
    refused("table x.csv sha256=0123\n", "table: want NAME");     /* short */
    refused("table x.csv sha256=0123456789ABCDEF0123456789abcdef"
            "0123456789abcdef0123456789abcdef\n", "table: want NAME");
    refused("table none sha256=0123456789abcdef0123456789abcdef"
            "0123456789abcdef0123456789abcdef\n", "none has no tensor");
    refused("table /a\\b.csv\n", "table: want none or a path");
    static char longname[1100];
    memcpy(longname, "table /", 7);
    memset(longname + 7, 'x', 1023);
    memcpy(longname + 1030, "\n", 2);
    refused(longname, "table: want none or a path");
    char big[300];
    memset(big, '1', sizeof big);
    memcpy(big, "pos ", 4);
    big[sizeof big - 2] = '\n';
    big[sizeof big - 1] = 0;
    refused(big, "longer than");
    /* the same validation and message as the ':' prompt */
    struct app p;
    char err[512];
    odd_state(&p);
    p.view = VIEW_HEATMAP;
    CHECK(app_command(&p, "d 63") == -1);
    odd_state(&p);
    fp_apply(&p, "d 63\n", 5, err, sizeof err);
    struct app q;
    odd_state(&q);
    q.view = VIEW_HEATMAP;
    app_command(&q, "d 63");
    const char *wants = strstr(q.msg, ": wants ");
    CHECK(wants && strstr(err, wants) && strstr(q.msg, ":d 63: wants "));
}

/* The table by its file's base name (the loader's path is absolute),
 * content hash, tensor and row offset; odd characters as '_'. */
static void test_table_text(void)
{
    struct app a;
    struct pe_table_info in;
    struct fp_table t;
    static char v[FP_TABLE_TEXT_MAX + 1];
    char err[256];
    app_init(&a);
    fp_table_text(&a, v, sizeof v);
    CHECK_STR(v, "none");
    a.pe_table = &some_table;
    a.pe_file_name = "/data/my model (v2).npy";
    fp_table_text(&a, v, sizeof v);
    CHECK_STR(v, "my_model__v2_.npy");
    a.pe_file_name = "weights/\x1b[31mred.csv";
    fp_table_text(&a, v, sizeof v);
    CHECK_STR(v, "__31mred.csv");
    memset(&in, 0, sizeof in);
    snprintf(in.file, sizeof in.file, "/srv/course/gpt2.safetensors");
    snprintf(in.tensor, sizeof in.tensor, "wpe.weight");
    in.row_offset = 2;
    a.pe_info = &in;
    snprintf(a.pe_digest, sizeof a.pe_digest, "%s", "0123456789abcdef"
             "0123456789abcdef0123456789abcdef0123456789abcdef");
    fp_table_text(&a, v, sizeof v);
    CHECK_STR(v, "gpt2.safetensors sha256=0123456789abcdef0123456789abcdef"
              "0123456789abcdef0123456789abcdef tensor=wpe.weight row-offset=2");
    CHECK(fp_table_parse(v, &t, err, sizeof err) == 0);
    CHECK_STR(t.path, "gpt2.safetensors");
    CHECK_STR(t.sha256, a.pe_digest);
    CHECK_STR(t.tensor, "wpe.weight");
    CHECK(t.row_offset == 2);
    in.tensor[0] = 0;
    in.row_offset = 0;
    a.pe_digest[0] = 0;
    fp_table_text(&a, v, sizeof v);
    CHECK_STR(v, "gpt2.safetensors");
    CHECK(fp_table_parse("none", &t, err, sizeof err) == 0 && !t.path[0]);
    /* an older teacher's path is taken (a follower reads base names
     * only, from --files) */
    CHECK(fp_table_parse("/srv/x.csv", &t, err, sizeof err) == 0);
    CHECK_STR(t.path, "/srv/x.csv");
    /* a name at its longest is sent whole */
    memset(in.file, 'y', FP_TABLE_PATH_MAX);
    in.file[0] = '/';
    in.file[FP_TABLE_PATH_MAX] = 0;
    fp_table_text(&a, v, sizeof v);
    CHECK(strlen(v) == FP_TABLE_PATH_MAX - 1);
    /* a body names it; fp_find reads it back */
    a.pe_info = NULL;
    a.pe_file_name = "weights/\x1b[31mred.csv";
    static char b[FP_BODY_MAX];
    int len = fp_body(&a, b, sizeof b);
    CHECK(fp_find(b, (size_t)len, "table", v, sizeof v) == 0);
    CHECK_STR(v, "__31mred.csv");
    CHECK(fp_find(b, (size_t)len, "tab", v, sizeof v) == -1);
    CHECK(fp_find(b, (size_t)len, "d", v, sizeof v) == 0);
    CHECK_STR(v, "64");
    struct app f;
    app_init(&f);
    CHECK(fp_apply(&f, b, (size_t)len, err, sizeof err) == 0);
    CHECK(f.pe_table == NULL);          /* a name is not a table */
}

/* Accepted partial bodies change only what they name. */
static void test_partial_body(void)
{
    struct app a;
    char err[256];
    odd_state(&a);
    const char *b = "n 100\npos 99\ntour 0/3 shipped\ncmp.1.d 0\n";
    CHECK(fp_apply(&a, b, strlen(b), err, sizeof err) == 0);
    CHECK(a.p.n == 100 && a.p.pos == 99 && a.p.d == 512);
    CHECK(a.att.ci == 99);              /* clamped into the new n */
    CHECK(a.tour_active == 0);          /* no tour of 3 steps loaded here */
    CHECK(a.cmp.panes[1].d == 0);
    CHECK(fp_apply(&a, "", 0, err, sizeof err) == 0);
}

/* Every view and every compare mode goes by its name, read back from
 * the one table each (a mode added there is published with no change
 * here). */
static void test_enum_names(void)
{
    static struct app t, f;
    static char b[FP_BODY_MAX];
    char err[256], v[64];
    for (int m = 0; m < PANE_MODE_COUNT; m++) {
        odd_state(&t);
        t.cmp.mode = (enum pane_mode)m;
        int len = fp_body(&t, b, sizeof b);
        CHECK(fp_find(b, (size_t)len, "cmp.mode", v, sizeof v) == 0);
        CHECK(strlen(v) > 2 && strcmp(v, "?") != 0);
        app_init(&f);
        CHECK(fp_apply(&f, b, (size_t)len, err, sizeof err) == 0);
        CHECK(f.cmp.mode == (enum pane_mode)m);
    }
    for (int w = 0; w < VIEW_COUNT; w++) {
        odd_state(&t);
        t.view = (enum view_id)w;
        int len = fp_body(&t, b, sizeof b);
        CHECK(fp_find(b, (size_t)len, "view", v, sizeof v) == 0);
        CHECK_STR(v, VIEWS[w]->name);
        app_init(&f);
        CHECK(fp_apply(&f, b, (size_t)len, err, sizeof err) == 0);
        CHECK(f.view == (enum view_id)w);
    }
    refused("cmp.mode sideways\n", "cmp.mode: wants ");
}

/* The preset a pane was set from goes with its scaling, by name (its
 * header names it). */
static void test_pane_model(void)
{
    static struct app t, f;
    static char b[FP_BODY_MAX];
    char err[256], v[512];
    odd_state(&t);
    params q = t.p;
    CHECK(params_set_model(&q, "qwen2.5-7b-yarn", err, sizeof err) == 0);
    t.cmp.panes[1].rope = q.rope;
    t.cmp.panes[1].d = q.d;
    t.cmp.panes[1].base = q.base;
    t.cmp.panes[1].model = 1 + params_model_index("qwen2.5-7b-yarn");
    t.cmp.panes[0].model = 1 + params_model_index("llama2-7b");
    int len = fp_body(&t, b, sizeof b);
    CHECK(fp_find(b, (size_t)len, "cmp.1.rope", v, sizeof v) == 0);
    CHECK_STR(v, "yarn factor=4 original-max=32768 model=qwen2.5-7b-yarn");
    CHECK(fp_find(b, (size_t)len, "rope", v, sizeof v) == 0);
    CHECK(strstr(v, " model=llama2-7b") != NULL);
    app_init(&f);
    CHECK(fp_apply(&f, b, (size_t)len, err, sizeof err) == 0);
    for (int k = 0; k < COMPARE_MAX_PANES; k++)
        CHECK(f.cmp.panes[k].model == t.cmp.panes[k].model);
    CHECK(f.cmp.panes[1].model > 0);
    /* without the token: no model */
    CHECK(fp_apply(&f, "cmp.1.rope none\n", 16, err, sizeof err) == 0);
    CHECK(f.cmp.panes[1].model == 0);
    refused("cmp.1.rope none model=gpt-5\n", "NAME=VALUE");
    refused("cmp.1.rope none model=llama2-7b model=llama2-7b\n", "NAME=VALUE");
}

/* A tour by name: its steps are shown only with the same tour here. */
static void test_tour_name(void)
{
    struct app a;
    struct tour t;
    char err[256], v[64];
    static char b[FP_BODY_MAX];
    odd_state(&a);
    memset(&t, 0, sizeof t);
    t.nsteps = 3;
    t.shipped = 1;
    a.tour = &t;
    CHECK(fp_apply(&a, "tour 2/3 shipped\n", 17, err, sizeof err) == 0);
    CHECK(a.tour_active == 1 && a.tour_step == 2);
    /* published back the same way */
    int len = fp_body(&a, b, sizeof b);
    CHECK(fp_find(b, (size_t)len, "tour", v, sizeof v) == 0);
    CHECK_STR(v, "2/3 shipped");
    const char *other = "tour 1/3 lecture.tour\n";
    CHECK(fp_apply(&a, other, strlen(other), err, sizeof err) == 0);
    CHECK(a.tour_active == 0);          /* another tour: no captions */
    t.shipped = 0;
    t.path = "lecture.tour";
    t.abs = "/home/t/lecture.tour";
    CHECK(fp_apply(&a, other, strlen(other), err, sizeof err) == 0);
    CHECK(a.tour_active == 1 && a.tour_step == 1);
    len = fp_body(&a, b, sizeof b);
    CHECK(fp_find(b, (size_t)len, "tour", v, sizeof v) == 0);
    CHECK_STR(v, "1/3 lecture.tour");      /* its base name */
    t.nsteps = 4;                       /* the same name, other steps */
    CHECK(fp_apply(&a, other, strlen(other), err, sizeof err) == 0);
    CHECK(a.tour_active == 0);
    a.tour = NULL;
    refused("tour 1/5\n", "STEP/STEPS NAME");
    refused("tour 1/5 my tour\n", "STEP/STEPS NAME");
    refused("tour 1/5 \n", "STEP/STEPS NAME");
    refused("tour 1 /5 x\n", "STEP/STEPS NAME");
    refused("tour 9/5 shipped\n", "STEP/STEPS NAME");
}

/* ---- framing ------------------------------------------------------------ */

struct got { int messages, bad; char last[FP_BODY_MAX + 1]; char err[256]; };

static void feed_all(struct fp_reader *r, const char *data, size_t n,
                     size_t chunk, struct got *g)
{
    size_t at = 0;
    while (at < n && !g->bad) {
        size_t len = n - at < chunk ? n - at : chunk, used = 0;
        const char *body;
        size_t blen;
        while (len > 0 && !g->bad) {
            int s = fp_feed(r, data + at, len, &used, &body, &blen, g->err,
                            sizeof g->err);
            at += used;
            len -= used;
            if (s == FP_BAD)
                g->bad = 1;
            if (s == FP_MESSAGE) {
                g->messages++;
                memcpy(g->last, body, blen);
                g->last[blen] = 0;
            }
            if (s == FP_MORE && used == 0)
                break;
        }
    }
}

static void test_framing(void)
{
    struct app t;
    char m[2 * FP_MESSAGE_MAX];
    odd_state(&t);
    int len = fp_encode(&t, m, FP_MESSAGE_MAX);
    char first_body[FP_MESSAGE_MAX];
    snprintf(first_body, sizeof first_body, "%.*s", len, m);
    t.p.pos = 7;
    int len2 = fp_encode(&t, m + len, FP_MESSAGE_MAX);
    CHECK(len > 0 && len2 > 0);
    for (size_t chunk = 1; chunk <= 4096; chunk *= 7) {
        struct fp_reader r;
        struct got g = { 0 };
        fp_reader_init(&r);
        feed_all(&r, m, (size_t)(len + len2), chunk, &g);
        CHECK(g.messages == 2 && !g.bad);
        CHECK(strstr(g.last, "\npos 7\n") != NULL);   /* the second one */
        CHECK(!fp_partial(&r));
    }
    static const struct { const char *in; const char *why; } BAD[] = {
        { "PEVIZ-FOLLOW 1 1073741824\n", "at most" },
        { "PEVIZ-FOLLOW 1 -5\n", "at most" },
        { "PEVIZ-FOLLOW 2 10\n", "version 2" },
        { "SSH-2.0-OpenSSH_9.2\r\n", "not a peviz" },
        { "HTTP/1.1 200 OK\n", "not a peviz" },
        { "PEVIZ-FOLLOW 1 10 extra\n", "not a peviz" },
        { "PEVIZ-FOLLOW 1 10", NULL },                     /* no end yet */
        { "PEVIZ-FOLLOW 1 1000000000000000000000000000000000\n", "not a peviz" },
        { "\x1b]0;owned\x07\n", "not a peviz" },
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        struct fp_reader r;
        struct got g = { 0 };
        fp_reader_init(&r);
        feed_all(&r, BAD[i].in, strlen(BAD[i].in), 3, &g);
        CHECK(g.messages == 0);
        CHECK(g.bad == (BAD[i].why != NULL));
        CHECK(!BAD[i].why || strstr(g.err, BAD[i].why));
    }
    /* one byte over the largest body */
    char over[64];
    snprintf(over, sizeof over, "PEVIZ-FOLLOW 1 %d\n", FP_BODY_MAX + 1);
    {
        struct fp_reader r;
        struct got g = { 0 };
        fp_reader_init(&r);
        feed_all(&r, over, strlen(over), 5, &g);
        CHECK(g.bad && strstr(g.err, "at most 40960"));
    }
    /* a header line that never ends is refused after FP_HEADER_MAX bytes */
    char endless[200];
    memset(endless, 'A', sizeof endless);
    struct fp_reader r;
    struct got g = { 0 };
    fp_reader_init(&r);
    feed_all(&r, endless, sizeof endless, 1, &g);
    CHECK(g.bad);
    /* a body still coming is partial */
    fp_reader_init(&r);
    memset(&g, 0, sizeof g);
    feed_all(&r, "PEVIZ-FOLLOW 1 5\nd 6", 20, 100, &g);
    CHECK(g.messages == 0 && !g.bad && fp_partial(&r));
    feed_all(&r, "4\n", 2, 100, &g);
    CHECK(g.messages == 1 && strcmp(g.last, "d 64\n") == 0);
}

/* An update carries the changed lines only, and applying it after the
 * whole state gives the new state. */
static void test_delta(void)
{
    struct app t, f;
    char b0[FP_BODY_MAX], b1[FP_BODY_MAX], d[FP_BODY_MAX], err[256];
    odd_state(&t);
    int l0 = fp_body(&t, b0, sizeof b0);
    t.p.pos = 12;
    t.att.o.head = 3;
    t.view = VIEW_CLOCKS;
    int l1 = fp_body(&t, b1, sizeof b1);
    size_t dl = fp_diff(b0, (size_t)l0, b1, (size_t)l1, d);
    d[dl] = 0;
    CHECK_STR(d, "view clocks\npos 12\natt.head 3\n");
    CHECK(fp_diff(b1, (size_t)l1, b1, (size_t)l1, d) == 0);
    /* against nothing: the whole body */
    CHECK(fp_diff("", 0, b1, (size_t)l1, d) == (size_t)l1);
    app_init(&f);
    CHECK(fp_apply(&f, b0, (size_t)l0, err, sizeof err) == 0);
    dl = fp_diff(b0, (size_t)l0, b1, (size_t)l1, d);
    CHECK(fp_apply(&f, d, dl, err, sizeof err) == 0);
    check_same_state(&f, &t);
    /* one key on the teacher costs a follower a few dozen bytes */
    char m[FP_MESSAGE_MAX];
    int ml = fp_frame(d, dl, m, sizeof m);
    CHECK(ml > 0 && ml < 80);
}


/* ---- every pane's RoPE scaling, factor lists included -------------------- */

/* n values as a checkpoint stores them: float32 numbers near 1..s, which
 * take 17 digits as doubles (1.0800000429153442). */
static void float_factors(double *v, int n, double s)
{
    for (int i = 0; i < n; i++)
        v[i] = (double)(float)(1.0 + (s - 1.0) * i / (n > 1 ? n - 1 : 1) + 0.01);
}

/* A lecture with a scaling in each pane: A longrope (d 512, 256 factors
 * a list), B yarn with every setting given, C longrope (d 96: 48). */
static void scaled_state(struct app *a)
{
    odd_state(a);
    rope_scaling *r = &a->p.rope;
    rope_scaling_default(r);
    r->method = ROPE_LONGROPE;
    r->factor = 32;
    r->original_max = 4096;
    r->attention_factor = 1.1902380714238083;
    r->nshort = r->nlong = 256;
    float_factors(r->short_factor, 256, 1.5);
    float_factors(r->long_factor, 256, 40);
    r = &a->cmp.panes[1].rope;
    *r = (rope_scaling){ ROPE_YARN, 40, 4096, 1.5, 6, 24, 2, 0, 0.707, 1,
                         1.25, 0, 0, { 0 }, { 0 }, 0, 0, 1 };
    a->cmp.panes[2].d = 96;
    r = &a->cmp.panes[2].rope;
    rope_scaling_default(r);
    r->method = ROPE_LONGROPE;
    r->factor = 32;
    r->original_max = 4096;
    r->nshort = r->nlong = 48;
    float_factors(r->short_factor, 48, 1.2);
    float_factors(r->long_factor, 48, 30);
}

static void check_same_rope(const rope_scaling *x, const rope_scaling *y)
{
    CHECK(x->method == y->method && x->factor == y->factor);
    CHECK(x->original_max == y->original_max);
    CHECK(x->low_freq_factor == y->low_freq_factor);
    CHECK(x->high_freq_factor == y->high_freq_factor);
    CHECK(x->beta_fast == y->beta_fast && x->beta_slow == y->beta_slow);
    CHECK(x->truncate == y->truncate && x->mscale == y->mscale);
    CHECK(x->mscale_all_dim == y->mscale_all_dim);
    CHECK(x->attention_factor == y->attention_factor);
    CHECK(x->ext_complement == y->ext_complement);
    CHECK(x->plain_softmax == y->plain_softmax);
    CHECK(x->nshort == y->nshort && x->nlong == y->nlong);
    for (int i = 0; i < x->nshort && i < ROPE_FACTORS_MAX; i++)
        CHECK(x->short_factor[i] == y->short_factor[i]);   /* exact */
    for (int i = 0; i < x->nlong && i < ROPE_FACTORS_MAX; i++)
        CHECK(x->long_factor[i] == y->long_factor[i]);
}

/* What only files give travels too: a GGUF's yarn_ext_factor (as
 * 1 - e) and a non-DeepSeek config's plain softmax. */
static void test_file_only_rope(void)
{
    static struct app t, f;
    static char m[FP_MESSAGE_MAX + 1];
    char err[512];
    odd_state(&t);
    rope_scaling *r = &t.p.rope;
    rope_scaling_default(r);
    r->method = ROPE_YARN;
    r->factor = 16;
    r->original_max = 16384;
    r->mscale = r->mscale_all_dim = 1;
    r->ext_complement = 0.7;
    r->plain_softmax = 1;
    int len = fp_encode(&t, m, sizeof m);
    CHECK(len > 0);
    m[len > 0 ? len : 0] = 0;
    CHECK(strstr(m, "\nrope yarn factor=16 original-max=16384 mscale=1 "
                    "mscale-all-dim=1 ext-complement=0.7 plain-softmax=1\n"));
    app_init(&f);
    const char *b = body_of(m);
    CHECK(fp_apply(&f, b, strlen(b), err, sizeof err) == 0);
    check_same_rope(&f.p.rope, &t.p.rope);
    refused("rope yarn factor=4 original-max=64 ext-complement=2\n", "NAME=VALUE");
    refused("rope yarn factor=4 original-max=64 plain-softmax=0\n", "NAME=VALUE");
}

static void test_pane_rope(void)
{
    static struct app t, f;
    static char m[FP_MESSAGE_MAX + 1];
    char err[512];
    scaled_state(&t);
    int len = fp_encode(&t, m, sizeof m);
    CHECK(len > 0);
    m[len > 0 ? len : 0] = 0;
    app_init(&f);
    const char *b = body_of(m);
    CHECK(fp_apply(&f, b, strlen(b), err, sizeof err) == 0);
    check_same_state(&f, &t);
    check_same_rope(&f.p.rope, &t.p.rope);
    for (int k = 1; k < COMPARE_MAX_PANES; k++)
        check_same_rope(&f.cmp.panes[k].rope, &t.cmp.panes[k].rope);
    /* pane B's line: every setting away from its default, by name */
    CHECK(strstr(m, "\ncmp.1.rope yarn factor=40 original-max=4096 "
                    "low-freq-factor=1.5 high-freq-factor=6 beta-fast=24 "
                    "beta-slow=2 truncate=off mscale=0.707 mscale-all-dim=1 "
                    "attention-factor=1.25\ncmp.1.rope.sf -\n"));
    /* a list line of float32 factors: "f32:" and 48 decimals, each read
     * back here as a float, widened, exactly the value */
    const char *at = strstr(m, "\ncmp.2.rope.lf f32:");
    CHECK(at != NULL);
    int nv = 0;
    for (const char *q = at ? at + 19 : "\n"; *q != '\n'; nv++) {
        char *end;
        double x = (double)strtof(q, &end);
        CHECK(nv < 48 && x == t.cmp.panes[2].rope.long_factor[nv < 48 ? nv : 0]);
        CHECK(end - q <= 12 && (*end == ',' || *end == '\n'));
        if (*end != ',' && *end != '\n')
            break;
        q = *end == ',' ? end + 1 : end;
    }
    CHECK(nv == 48);
    /* a list of dyadic values takes their short decimal form */
    t.cmp.panes[2].rope.short_factor[0] = 1.015625;
    t.cmp.panes[2].rope.short_factor[1] = 3;
    len = fp_encode(&t, m, sizeof m);
    m[len > 0 ? len : 0] = 0;
    CHECK(strstr(m, "\ncmp.2.rope.sf f32:1.015625,3,") != NULL);
    /* one value that is no float32 makes the whole list doubles, exact */
    t.cmp.panes[2].rope.short_factor[1] = 0.1;
    len = fp_encode(&t, m, sizeof m);
    m[len > 0 ? len : 0] = 0;
    CHECK(strstr(m, "\ncmp.2.rope.sf 1.015625,0.1,") != NULL);
    app_init(&f);
    CHECK(fp_apply(&f, body_of(m), strlen(body_of(m)), err, sizeof err) == 0);
    CHECK(f.cmp.panes[2].rope.short_factor[1] == 0.1);
    /* a pane following the global d keeps lists of an earlier d, as the
     * teacher's compare view does after a global :d (drawn unscaled) */
    t.cmp.panes[2].d = 0;
    len = fp_encode(&t, m, sizeof m);
    CHECK(len > 0);
    app_init(&f);
    CHECK(fp_apply(&f, body_of(m), (size_t)len - (size_t)(body_of(m) - m),
                   err, sizeof err) == 0);
    CHECK(f.cmp.panes[2].rope.nshort == 48 && f.p.d == 512);
    /* ... but still two lists of one length */
    refused("cmp.2.rope longrope factor=4 original-max=4096\ncmp.2.d 0\n"
            "cmp.2.rope.sf 1,2\ncmp.2.rope.lf 1,2,3\n", "cmp.2.rope: ");
}

/* Bytes on the socket for going from state x to state y. */
static int change_cost(const struct app *x, const struct app *y)
{
    static char b0[FP_BODY_MAX], b1[FP_BODY_MAX], d[FP_BODY_MAX],
                m[FP_MESSAGE_MAX];
    int l0 = fp_body(x, b0, sizeof b0), l1 = fp_body(y, b1, sizeof b1);
    if (l0 < 0 || l1 < 0)
        return -1;
    size_t dl = fp_diff(b0, (size_t)l0, b1, (size_t)l1, d);
    return dl ? fp_frame(d, dl, m, sizeof m) : 0;
}

/* Is key one a follower test may press (no files, prompt, tour, quit)? */
static int plain_key(const struct keybind *k)
{
    return k->key && k->act != ACT_QUIT && k->act != ACT_EXPORT &&
           k->act != ACT_TOUR && k->act != ACT_PROMPT && k->act != ACT_HELP &&
           k->act != ACT_MOUSE;
}

/* Every key of every view, from a lecture with a scaling in each pane
 * and no factor lists: each costs a follower under 1 KB. */
static void test_key_costs(void)
{
    static struct app t, u;
    int worst = 0, keys = 0, total = 0;
    for (int v = 0; v < VIEW_COUNT; v++) {
        const struct keybind *tables[2] = { KEYS_GLOBAL, VIEWS[v]->keys };
        for (int ti = 0; ti < 2; ti++)
            for (const struct keybind *k = tables[ti]; k && k->key; k++) {
                if (!plain_key(k))
                    continue;
                app_init(&t);
                t.view = (enum view_id)v;
                t.p.d = 128;
                t.p.n = 1024;
                t.p.pos = 500;
                t.cmp.npanes = 3;
                t.p.rope = (rope_scaling){ ROPE_YARN, 4, 32768, 1, 4, 32, 1,
                                           1, 0, 0, 0, 0, 0, { 0 }, { 0 },
                                           0, 0, 1 };
                t.cmp.panes[1].rope = t.p.rope;
                t.cmp.panes[2].rope.method = ROPE_LINEAR;
                t.cmp.panes[2].rope.factor = 8;
                u = t;
                app_key(&u, k->key);
                int c = change_cost(&t, &u);
                CHECK(c >= 0 && c < 1024);
                worst = c > worst ? c : worst;
                total += c;
                keys++;
            }
    }
    printf("%d keys in %d views: at most %d bytes a key, %d on average\n",
           keys, VIEW_COUNT, worst, keys ? total / keys : 0);
    CHECK(keys > 50);
}

/*
 * The costliest changes: a pane taking a checkpoint's longrope scaling
 * (two lists of 64 float32 factors: under 1 KB, since a float32 travels
 * as its own shortest text), any float32 factors, and the
 * whole state at its largest (three panes, six lists of 256 factors of
 * 23 digits each, every other value at its longest), which must still
 * be one message.
 */
static void test_worst_costs(void)
{
    static struct app t, u;
    static char m[FP_MESSAGE_MAX];
    odd_state(&t);
    u = t;
    u.cmp.panes[1].d = 128;
    rope_scaling *r = &u.cmp.panes[1].rope;
    r->method = ROPE_LONGROPE;
    r->factor = 32;
    r->original_max = 4096;
    r->nshort = r->nlong = 64;
    /* a checkpoint's factors: config.json's float32 spellings of numbers
     * with two decimals (Phi-3's 1.0800000429153442 for 1.08) */
    for (int i = 0; i < 64; i++) {
        r->short_factor[i] = (double)(float)(1.0 + 0.01 * (i % 7));
        r->long_factor[i] = (double)(float)(1.0 + 0.37 * i);
    }
    int c = change_cost(&t, &u);
    printf("a pane takes a checkpoint's longrope, 2 x 64 factors: %d bytes\n",
           c);
    CHECK(c > 2 * 64 * 2 && c < 1024);
    /* any float32 factors: at most 9 digits, a sign, a point and an
     * exponent (13 bytes) a value, the RoPE line, the header */
    float_factors(r->short_factor, 64, 1.2);
    float_factors(r->long_factor, 64, 30);
    c = change_cost(&t, &u);
    printf("a pane takes longrope with 2 x 64 any float32: %d bytes\n", c);
    CHECK(c > 2 * 64 * 8 && c <= 2 * (20 + 64 * 14) + 512 + 32);
    /* taking it off costs only the RoPE line (the lists stay) */
    t = u;
    u.cmp.panes[1].rope.method = ROPE_NONE;
    c = change_cost(&t, &u);
    CHECK(c > 0 && c < 100);

    scaled_state(&t);
    t.p.d = 512;
    t.cmp.panes[1].d = t.cmp.panes[2].d = 512;
    for (int k = 0; k < COMPARE_MAX_PANES; k++) {
        r = k ? &t.cmp.panes[k].rope : &t.p.rope;
        r->nshort = r->nlong = ROPE_FACTORS_MAX;
        for (int i = 0; i < ROPE_FACTORS_MAX; i++)
            r->short_factor[i] = r->long_factor[i] = 2.2250738585072014e-308 *
                                                     (1e300 + i);
    }
    t.p.rope.method = ROPE_YARN;                /* every setting given */
    t.p.rope.beta_fast = t.p.rope.factor = 1.2345678901234567e-300 + 33;
    t.p.rope.low_freq_factor = t.p.rope.high_freq_factor = 1.0000000000000002;
    t.p.rope.beta_slow = t.p.rope.mscale = t.p.rope.mscale_all_dim =
        t.p.rope.attention_factor = 2.2250738585072014e-300;
    t.p.rope.original_max = 2147483647;
    t.p.rope.truncate = 0;
    t.cmp.panes[1].rope = t.cmp.panes[2].rope = t.p.rope;
    for (int k = 0; k < COMPARE_MAX_PANES; k++)     /* the longest name */
        for (int i = 0; i < rope_preset_count(); i++)
            if (!t.cmp.panes[k].model || strlen(rope_preset_at(i)->name) >
                strlen(rope_preset_at(t.cmp.panes[k].model - 1)->name))
                t.cmp.panes[k].model = i + 1;
    static struct pe_table_info in;             /* a table, every name long */
    memset(in.file, 'y', FP_TABLE_PATH_MAX);
    in.file[0] = '/';
    memset(in.tensor, 'w', FP_TENSOR_MAX);
    in.row_offset = PARAM_N_MAX - 1;
    t.pe_table = &some_table;
    t.pe_info = &in;
    int len = fp_encode(&t, m, sizeof m);
    printf("the largest whole state: %d bytes (at most %d)\n", len,
           FP_MESSAGE_MAX);
    CHECK(len > 6 * 256 * 20 + FP_TABLE_PATH_MAX && len <= FP_MESSAGE_MAX);
    /* it is read back whole */
    app_init(&u);
    char err[512];
    const char *b = body_of(m);
    CHECK(fp_apply(&u, b, (size_t)len - (size_t)(b - m), err, sizeof err) == 0);
    check_same_rope(&u.cmp.panes[2].rope, &t.cmp.panes[2].rope);
}

/* SHA-256 against digests computed elsewhere (FIPS 180-4's "abc", the
 * empty message, 1000 'a's across block boundaries); the table hash is
 * the same for the same values however they were read, and differs for
 * one value changed by one ulp or for the same values in another shape. */
static void test_digest(void)
{
    struct sha256 h;
    char hex[65];
    static char a1000[1000];
    sha256_init(&h);
    sha256_add(&h, "abc", 3);
    sha256_hex(&h, hex);
    CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    sha256_init(&h);
    sha256_hex(&h, hex);
    CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    memset(a1000, 'a', sizeof a1000);
    sha256_init(&h);
    sha256_add(&h, a1000, 100);         /* in pieces: the same */
    sha256_add(&h, a1000, 900);
    sha256_hex(&h, hex);
    CHECK_STR(hex, "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
    double v[4] = { 0.5, -1.0, 2.0, 3.0 }, w[4];
    struct pe_table t = { 2, 2, v }, u = { 2, 2, w }, r = { 1, 4, v };
    char h1[65], h2[65], h3[65];
    memcpy(w, v, sizeof v);
    fp_table_digest(&t, h1);
    fp_table_digest(&u, h2);
    CHECK_STR(h1, h2);
    w[3] = nextafter(3.0, 4.0);
    fp_table_digest(&u, h2);
    fp_table_digest(&r, h3);
    CHECK(strcmp(h1, h2) != 0 && strcmp(h1, h3) != 0 && strlen(h1) == 64);
}

/* :note, :share zoom and :point travel as fields of their own; a
 * follower takes the teacher's presenter mode only while it is shared. */
static void test_class_fields(void)
{
    struct app a;
    char err[256], body[300];
    app_init(&a);
    CHECK(fp_apply(&a, "note :Look at band 3, slow!\n", 28, err, sizeof err) == 0);
    CHECK_STR(a.note, "Look at band 3, slow!");
    CHECK(fp_apply(&a, "note -\n", 7, err, sizeof err) == 0 && !a.note[0]);
    a.presenter = 0;
    CHECK(fp_apply(&a, "presenter 1\n", 12, err, sizeof err) == 0);
    CHECK(a.presenter == 0);            /* not shared: each its own */
    CHECK(fp_apply(&a, "share.zoom 1\npresenter 1\n", 25, err, sizeof err) == 0);
    CHECK(a.presenter == 1 && a.share_zoom == 1);
    CHECK(fp_apply(&a, "point 1\n", 8, err, sizeof err) == 0 && a.point == 1);
    refused("note hello\n", "note: want - or :TEXT");
    snprintf(body, sizeof body, "note :%081d\n", 0);
    refused(body, "note: want - or :TEXT of at most 80");
    refused("note :caf\xc3\xa9\n", "not printable ASCII");
    refused("presenter 2\n", "presenter: want -, 0 or 1");
    refused("point 2\n", "point");
    refused("share.zoom -1\n", "share.zoom");
}

/*
 * The wire's fields, in order, as the protocol has always sent them: the
 * protocol's own, each view's rows (struct view's fields) in the order
 * of VIEW_LIST, then the protocol's tail.  A view added to the list
 * adds its rows among the views' and moves nothing else.
 */
static const char *const WIRE[] = {
    "view", "split", "d", "base", "n", "pos", "mpos", "rope", "rope.sf",
    "rope.lf", "playing", "speed", "heat.dim", "heat.dim0", "heat.zoom",
    "heat.x0", "heat.pca", "clk.band", "clk.band0", "clk.zoom", "clk.ghost",
    "clk.k", "clk.counter", "att.scheme", "att.softmax", "att.causal",
    "att.temperature", "att.content", "att.scale_emb", "att.split",
    "att.heads", "att.head", "att.q_random", "att.seed", "att.train", "att.i",
    "att.j", "att.zoom", "att.i0", "att.j0", "cmp.panes", "cmp.active",
    "cmp.preset", "cmp.mode", "cmp.0.base", "cmp.0.d", "cmp.0.n",
    "cmp.0.layout", "cmp.0.prec", "cmp.1.base", "cmp.1.d", "cmp.1.n",
    "cmp.1.layout", "cmp.1.prec", "cmp.1.rope", "cmp.1.rope.sf",
    "cmp.1.rope.lf", "cmp.2.base", "cmp.2.d", "cmp.2.n", "cmp.2.layout",
    "cmp.2.prec", "cmp.2.rope", "cmp.2.rope.sf", "cmp.2.rope.lf", "cmp.dim",
    "cmp.band", "cmp.dims_1to1", "cmp.zoom", "grid.key", "grid.one_d",
    "share.zoom", "presenter", "point", "note", "tour", "tour.sha256",
    "table",
};

#define WIRE_N (sizeof WIRE / sizeof WIRE[0])

/* The index of name in names[0 .. n), or n. */
static size_t name_at(const char *const *names, size_t n, const char *name)
{
    size_t i = 0;
    while (i < n && strcmp(names[i], name))
        i++;
    return i;
}

static void test_wire_order(void)
{
    struct app a;
    static char body[FP_BODY_MAX + 1];
    const char *names[512];
    size_t n = 0, w = 0, k;
    app_init(&a);
    int len = fp_body(&a, body, sizeof body - 1);
    CHECK(len > 0);
    body[len > 0 ? len : 0] = 0;
    for (char *at = body, *nl; *at && n < 512; at = nl + 1) {
        nl = strchr(at, '\n');
        *strchr(at, ' ') = 0;
        names[n++] = at;
    }
    /* every field of WIRE, in its order */
    for (size_t i = 0; i < n && w < WIRE_N; i++)
        w += strcmp(names[i], WIRE[w]) == 0;
    CHECK(w == WIRE_N);
    /* the protocol's head and tail exactly, the views' rows between */
    size_t s = name_at(names, n, "speed"), e = name_at(names, n, "share.zoom");
    size_t ws = name_at(WIRE, WIRE_N, "speed");
    size_t we = name_at(WIRE, WIRE_N, "share.zoom");
    CHECK(s == ws && s < n && e < n && n - e == WIRE_N - we);
    for (k = 0; k <= s && k < n; k++)
        CHECK(strcmp(names[k], WIRE[k]) == 0);
    for (k = 0; e + k < n && we + k < WIRE_N; k++)
        CHECK(strcmp(names[e + k], WIRE[we + k]) == 0);
    k = s + 1;
    for (int v = 0; v < VIEW_COUNT; v++)
        for (const struct state_field *f = VIEWS[v]->fields; f && f->name;
             f++, k++)
            CHECK(k < e && strcmp(f->name, names[k]) == 0);
    CHECK(k == e);
}

int main(void)
{
    test_wire_order();
    test_digest();
    test_class_fields();
    test_round_trip();
    test_size();
    test_rejections();
    test_pca_pair();
    test_file_only_rope();
    test_partial_body();
    test_framing();
    test_delta();
    test_table_text();
    test_tour_name();
    test_enum_names();
    test_pane_model();
    test_pane_rope();
    test_key_costs();
    test_worst_costs();
    TEST_END("follow_proto");
}
