/* SPDX-License-Identifier: ISC */
/*
 * attention_settings.c - the attention view's settings' rows
 * (attention_settings.h): the scheme, RoPE's q and k, the heads, the
 * families' settings and the score toggles, each with the prompt's
 * answer after a change.  A new setting of the view is one row here
 * (the recipe is in settings.h).
 */
#include <stdio.h>

#include "app.h"
#include "peviz/fmt.h"
#include "peviz/pe.h"
#include "views/attention_settings.h"

void attention_settings_head(struct app *a, int h)
{
    int heads = a->att.o.heads >= 1 ? a->att.o.heads : 8;
    a->att.o.head = (h % heads + heads) % heads;
    double slopes[SCORES_MAX_HEADS];
    pe_alibi_slopes(heads, slopes);
    char m[32];
    int h1 = a->att.o.head + 1;
    if (a->att.o.scheme == SCHEME_SANDWICH) {
        fmt_num(8.0 * h1 / heads, 4, m, sizeof m);
        app_msg(a, 0, "Sandwich head %d of %d: divisor 8h/H = %s", h1, heads,
                m);
        return;
    }
    fmt_num(slopes[a->att.o.head], 4, m, sizeof m);
    if (a->att.o.scheme == SCHEME_T5)
        app_msg(a, 0, "T5 head %d of %d: column %d of W%s%s", h1, heads, h1,
                a->t5_table ? "" : ", the stand-in's slope m = ",
                a->t5_table ? "" : m);
    else
        app_msg(a, 0, "ALiBi head %d of %d: slope m = %s", h1, heads, m);
}

/* The prompt's answers after a change, by family. */
static void said_scheme(struct app *a)
{
    app_msg(a, 0, "scheme %s", scheme_name(a->att.o.scheme));
}

static void said_q(struct app *a)
{
    app_msg(a, 0, "RoPE q and k: %s", a->att.o.q_random ? "seeded N(0,1)"
                                                        : "all ones");
}

static void said_seed(struct app *a)
{
    app_msg(a, 0, "RoPE random q and k: seed %llu",
            (unsigned long long)a->att.o.seed);
}

/* Fewer heads than the current head moves the head to the last one. */
static void said_head(struct app *a)
{
    if (a->att.o.head >= a->att.o.heads)
        a->att.o.head = a->att.o.heads - 1;
    attention_settings_head(a, a->att.o.head);     /* names it, with its slope */
}

static void said_train(struct app *a)
{
    app_msg(a, 0, "learned: trained length L = %lld",
            (long long)a->att.o.train_len);
}

static void said_t5(struct app *a)
{
    app_msg(a, 0, "t5: %d buckets, max distance %d", a->att.o.buckets,
            a->att.o.max_distance);
}

static void said_kerple(struct app *a)
{
    app_msg(a, 0, "kerple: r1 = %g, r2 = %g", a->att.o.r1, a->att.o.r2);
}

static void said_xpos(struct app *a)
{
    app_msg(a, 0, "xpos: scale base %g", a->att.o.xpos_base);
}

static void said_tuning(struct app *a)
{
    const struct score_opts *t = &a->att.o;
    app_msg(a, 0, "temperature tuning%s: floor_scale %g, attn_scale %g",
            t->temp_tuning ? "" : " (off: --temperature-tuning)",
            t->floor_scale, t->attn_scale);
}

static void said_pairs(struct app *a)
{
    const struct score_opts *t = &a->att.o;
    app_msg(a, 0, "rope pairs %s, rotary dims %d%s",
            qk_pairs_name(t->qk_pairs), t->rotary_dims ? t->rotary_dims
                                                       : a->p.d,
            t->rotary_dims >= a->p.d || !t->rotary_dims ? " (all)" : "");
}

static void said_mask(struct app *a)
{
    const struct score_opts *t = &a->att.o;
    app_msg(a, 0, "mask: window %lld, chunk %lld (0: none), sink %g",
            (long long)t->window, (long long)t->chunk, t->sink);
}

static int t5_check(const struct app *a, char *err, size_t errlen)
{
    return att_t5_check(&a->att.o, err, errlen);
}

static int r2_check(const struct app *a, char *err, size_t errlen)
{
    if (a->att.o.scheme != SCHEME_KERPLE_POWER || a->att.o.r2 <= 2)
        return 0;
    snprintf(err, errlen, "wants a number > 0 and <= 2 for kerple-power");
    return -1;
}

static const char *scheme_at(int k)
{
    return k >= 0 && k < scheme_count() ? scheme_info(k)->name : NULL;
}

static const char *q_word(int k)
{
    return k == 0 ? "ones" : k == 1 ? "random" : NULL;
}

static const char *pairs_word(int k)
{
    return k >= 0 && k < QK_PAIRS_COUNT ? qk_pairs_name(k) : NULL;
}

#define ATT_EVERY (SET_EVERYWHERE)
#define ATT_FLAG (SET_CLI | SET_FILE | SET_FOLLOW)

/* In the order the command line applies them: the scheme first (r2's
 * range is the scheme's), heads before head. */
const struct setting ATTENTION_SETTINGS[] = {
    { .name = "scheme", .type = SET_WORD, .off = SET_OFF(att.o.scheme),
      .word = scheme_at, .parse = scheme_parse, .def = "sinusoidal",
      .arg = "NAME", .help = "what the attention view scores",
      .where = ATT_EVERY, .wire = "att.scheme", .changed = said_scheme },
    { .name = "q", .type = SET_WORD, .off = SET_OFF(att.o.q_random),
      .word = q_word, .def = "ones", .arg = "Q",
      .help = "RoPE query and key", .where = ATT_EVERY,
      .wire = "att.q_random", .changed = said_q },
    { .name = "seed", .type = SET_U32, .off = SET_OFF(att.o.seed), .lo = 0,
      .hi = 4294967295LL, .def = "0", .arg = "S",
      .help = "RoPE random q and k: which draw", .where = ATT_EVERY,
      .wire = "att.seed", .changed = said_seed },
    { .name = "heads", .type = SET_INT, .off = SET_OFF(att.o.heads), .lo = 1,
      .hi = SCORES_MAX_HEADS, .def = "8", .arg = "N",
      .help = "ALiBi: number of heads", .where = ATT_EVERY,
      .wire = "att.heads", .changed = said_head },
    { .name = "head", .type = SET_INT, .off = SET_OFF(att.o.head), .lo = 1,
      .bound = SETB_BELOW, .aux = SET_OFF(att.o.heads), .bound_name = "heads",
      .shift = 1, .def = "1", .arg = "H",
      .help = "ALiBi, T5, --qk: the head shown",
      .where = ATT_EVERY, .wire = "att.head", .changed = said_head },
    { .name = "train", .type = SET_I64, .off = SET_OFF(att.o.train_len),
      .lo = 0, .bound = SETB_LEN, .bound_name = "n", .def_note = "n/2",
      .arg = "L", .help = "learned: trained length", .where = ATT_EVERY,
      .wire = "att.train", .changed = said_train },
    { .name = "buckets", .type = SET_INT, .off = SET_OFF(att.o.buckets),
      .lo = 4, .hi = SCORES_T5_MAX_BUCKETS, .def = "32", .arg = "N",
      .help = "t5: relative buckets (max-distance past the exact ones)",
      .where = ATT_EVERY,
      .wire = "att.buckets", .check = t5_check, .changed = said_t5 },
    { .name = "max-distance", .type = SET_INT,
      .off = SET_OFF(att.o.max_distance), .lo = 1, .hi = PARAM_N_MAX,
      .def = "128", .arg = "M", .help = "t5: distance of the last bucket, "
      "past the exact buckets of a side (buckets/4 bidirectional, /2 causal)",
      .where = ATT_EVERY, .wire = "att.max_distance", .check = t5_check,
      .changed = said_t5 },
    { .name = "bidirectional", .type = SET_FLAG,
      .off = SET_OFF(att.o.bidirectional),
      .help = "t5: encoder buckets, the future has its own half",
      .where = ATT_FLAG, .wire = "att.bidirectional", .check = t5_check },
    { .name = "r1", .type = SET_NUM, .off = SET_OFF(att.o.r1), .open = 1,
      .def = "1", .arg = "R", .help = "kerple: r1", .where = ATT_EVERY,
      .wire = "att.r1", .changed = said_kerple },
    { .name = "r2", .type = SET_NUM, .off = SET_OFF(att.o.r2), .open = 1,
      .def = "0.5", .arg = "R", .help = "kerple: r2, <= 2 for kerple-power",
      .where = ATT_EVERY, .wire = "att.r2", .check = r2_check,
      .changed = said_kerple },
    { .name = "xpos-scale-base", .type = SET_NUM,
      .off = SET_OFF(att.o.xpos_base), .open = 1, .def = "512", .arg = "G",
      .help = "xpos: scale base gamma", .where = ATT_EVERY,
      .wire = "att.xpos_base", .changed = said_xpos },
    { .name = "rope-layout", .type = SET_WORD, .off = SET_OFF(att.o.qk_pairs),
      .word = pairs_word, .def = "interleaved", .arg = "L",
      .help = "rope, xpos: q/k pairs (2k,2k+1) or (k,k+R/2)",
      .where = ATT_EVERY, .wire = "att.pairs", .changed = said_pairs },
    { .name = "rotary-dims", .type = SET_INT,
      .off = SET_OFF(att.o.rotary_dims), .lo = 2, .hi = PARAM_D_MAX,
      .even = 1, .zero_word = "all", .def = "all", .arg = "R",
      .help = "rope, xpos: rotate the first R dims", .where = ATT_EVERY,
      .wire = "att.rotary", .changed = said_pairs },
    { .name = "temperature-tuning", .type = SET_FLAG,
      .off = SET_OFF(att.o.temp_tuning),
      .help = "nope, rope: Llama 4's query scale log(floor((i+1)/F)+1) A + 1",
      .where = ATT_EVERY, .wire = "att.tuning", .changed = said_tuning },
    { .name = "floor-scale", .type = SET_NUM, .off = SET_OFF(att.o.floor_scale),
      .open = 1, .def = "8192", .arg = "F",
      .help = "--temperature-tuning: floor_scale", .where = ATT_EVERY,
      .wire = "att.floor_scale", .changed = said_tuning },
    { .name = "attn-scale", .type = SET_NUM, .off = SET_OFF(att.o.attn_scale),
      .open = 1, .def = "0.1", .arg = "A",
      .help = "--temperature-tuning: attn_scale", .where = ATT_EVERY,
      .wire = "att.attn_scale", .changed = said_tuning },
    { .name = "softmax", .type = SET_FLAG, .off = SET_OFF(att.o.softmax),
      .help = "export/attention: softmax per row", .where = ATT_FLAG,
      .wire = "att.softmax" },
    { .name = "causal", .type = SET_FLAG, .off = SET_OFF(att.o.causal),
      .help = "export/attention: causal mask", .where = ATT_FLAG,
      .wire = "att.causal" },
    { .name = "window", .type = SET_I64, .off = SET_OFF(att.o.window),
      .lo = 1, .hi = PARAM_N_MAX, .zero_word = "none", .def = "none",
      .arg = "W", .help = "export/attention: sliding window, key j seen "
      "from query i when i-W < j <= i", .where = ATT_EVERY,
      .wire = "att.window", .changed = said_mask },
    { .name = "chunk", .type = SET_I64, .off = SET_OFF(att.o.chunk),
      .lo = 1, .hi = PARAM_N_MAX, .zero_word = "none", .def = "none",
      .arg = "C", .help = "export/attention: chunked, key j seen from "
      "query i when j <= i in i's chunk of C", .where = ATT_EVERY,
      .wire = "att.chunk", .changed = said_mask },
    { .name = "sink", .type = SET_NUM, .off = SET_OFF(att.o.sink),
      .min = -1000, .max = 1000, .zero_word = "none", .def = "none",
      .arg = "X", .help = "export/attention: a sink logit in each softmax "
      "row's denominator, P = e^S / (sum e^S + e^X)", .where = ATT_EVERY,
      .wire = "att.sink", .changed = said_mask },
    { .name = "temperature", .type = SET_FLAG,
      .off = SET_OFF(att.o.temperature),
      .help = "export/attention: divide scores by sqrt(d_model)",
      .where = ATT_FLAG, .wire = "att.temperature" },
    { .name = "content", .type = SET_FLAG, .off = SET_OFF(att.o.content),
      .help = "export/attention: add the seeded word embeddings (e)",
      .where = ATT_FLAG, .wire = "att.content" },
    { 0 }
};
