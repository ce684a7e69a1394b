/* SPDX-License-Identifier: ISC */
/*
 * app_settings.c - the global settings' rows (settings.h): how the
 * program draws and paces itself, whatever the view.  A new global
 * setting is one row here (the recipe is in settings.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "gfx.h"
#include "params.h"
#include "peviz/mpos.h"

#define STR(x) #x
#define XSTR(x) STR(x)
#define LIST_VALUES "1.." XSTR(ROPE_FACTORS_MAX) " finite numbers > 0, " \
    "comma separated, or none"
#define SECTION_VALUES "T,H,W whole numbers summing to d/2, or auto"
#define SECTION_DEFAULT "auto"
#define GRID_VALUES "WxH, each 1.." XSTR(MPOS_GRID_MAX) ", or none"
#define SEQUENCE_VALUES "text:N,image:HxW,video:TxHxW parts or none"

static const char *palette_word(int k)
{
    return k >= 0 && k < PAL_COUNT ? palette_name((enum palette)k) : NULL;
}

static const char *rope_word(int k)
{
    return k >= 0 && k < rope_method_count()
        ? rope_method_name((enum rope_method)k) : NULL;
}

/* --color: auto, then the names of enum color_mode from 0. */
static const char *color_word(int k)
{
    static const char *const W[] = { "auto", "none", "8", "16", "256",
                                     "truecolor" };
    return k >= 0 && k < (int)(sizeof W / sizeof W[0]) ? W[k] : NULL;
}

static const char *gfx_word(int k)
{
    return k >= 0 && k < GFX_MODE_COUNT ? gfx_mode_name((enum gfx_mode)k)
                                        : NULL;
}

/* --lang: auto, then the languages of the shipped tours. */
static const char *lang_word(int k)
{
    static const char *const W[] = { "auto", "en", "zh" };
    return k >= 0 && k < (int)(sizeof W / sizeof W[0]) ? W[k] : NULL;
}

const char *app_lang_word(int k)
{
    return k > 0 ? lang_word(k) : NULL;
}

static const char *view_word(int k)
{
    return k >= 0 && k < VIEW_COUNT ? VIEWS[k]->name : NULL;
}

/* Longrope's factor list id (RO_SHORT_FACTOR, RO_LONG_FACTOR) from
 * text ("none": empty); d/2 of them is params_check_rope's, once all is
 * set. */
static int list_set(struct app *a, enum rope_opt id, const char *text,
                    char *err, size_t errlen)
{
    params p = a->p;
    if (strcmp(text, "none") == 0)
        *(id == RO_SHORT_FACTOR ? &p.rope.nshort : &p.rope.nlong) = 0;
    else if (params_set_rope(&p, id, text, err, errlen)) {
        snprintf(err, errlen, "wants %s", LIST_VALUES);
        return -1;
    }
    a->p.rope = p.rope;
    return 0;
}

/* The list as list_set takes it: each value in the fewest digits that
 * read back as it, comma separated; "none" when empty. */
static void list_text(const double *x, int n, char *buf, size_t len)
{
    size_t k = 0;
    snprintf(buf, len, "none");
    for (int i = 0; i < n && k < len; i++) {
        int prec = 1;
        while (prec < 17 && (snprintf(buf + k, len - k, "%.*g", prec, x[i]),
                             strtod(buf + k, NULL) != x[i]))
            prec++;
        k += (size_t)snprintf(buf + k, len - k, "%.*g%s", prec, x[i],
                              i + 1 < n ? "," : "");
    }
}

static int short_set(struct app *a, const char *text, char *err,
                     size_t errlen)
{
    return list_set(a, RO_SHORT_FACTOR, text, err, errlen);
}

static int long_set(struct app *a, const char *text, char *err,
                    size_t errlen)
{
    return list_set(a, RO_LONG_FACTOR, text, err, errlen);
}

static void short_text(const struct app *a, char *buf, size_t len)
{
    list_text(a->p.rope.short_factor, a->p.rope.nshort, buf, len);
}

static void long_text(const struct app *a, char *buf, size_t len)
{
    list_text(a->p.rope.long_factor, a->p.rope.nlong, buf, len);
}

/* "16,24,24": three whole numbers of slots >= 0, not all 0; "auto": the
 * model's split of d/2 (mpos_default_section). */
static int section_set(struct app *a, const char *arg, char *err,
                       size_t errlen)
{
    long v[3];
    const char *s = arg, *why;
    char buf[32];
    if (strcmp(arg, "auto") == 0) {
        memset(a->mp.section, 0, sizeof a->mp.section);
        return 0;
    }
    for (int k = 0; k < 3; k++) {
        const char *e = k < 2 ? strchr(s, ',') : s + strlen(s);
        if (!e || e - s >= (long)sizeof buf || e == s)
            goto bad;
        memcpy(buf, s, (size_t)(e - s));
        buf[e - s] = 0;
        if (parse_long(buf, &v[k], &why) || v[k] < 0 || v[k] > MPOS_SLOTS_MAX)
            goto bad;
        s = e + 1;
    }
    if (v[0] + v[1] + v[2] == 0)
        goto bad;
    for (int k = 0; k < 3; k++)
        a->mp.section[k] = (int)v[k];
    return 0;
bad:
    snprintf(err, errlen, "wants %s", SECTION_VALUES);
    return -1;
}

static void section_text(const struct app *a, char *buf, size_t len)
{
    const int *s = a->mp.section;
    if (s[0] + s[1] + s[2] == 0)
        snprintf(buf, len, "%s", SECTION_DEFAULT);
    else
        snprintf(buf, len, "%d,%d,%d", s[0], s[1], s[2]);
}

/* "16x14": columns x rows, each 1..MPOS_GRID_MAX. */
static int grid_set(struct app *a, const char *arg, char *err,
                    size_t errlen)
{
    long w, h;
    const char *why, *x = strchr(arg, 'x');
    char buf[32];
    if (strcmp(arg, "none") == 0) {
        if (a->mp.mode == MPOS_AXIAL)
            a->mp.mode = MPOS_OFF;
        return 0;
    }
    if (!x || x - arg >= (long)sizeof buf)
        goto bad;
    memcpy(buf, arg, (size_t)(x - arg));
    buf[x - arg] = 0;
    if (parse_long(buf, &w, &why) || parse_long(x + 1, &h, &why) ||
        w < 1 || h < 1 || w > MPOS_GRID_MAX || h > MPOS_GRID_MAX ||
        w * h > MPOS_TOKENS_MAX)
        goto bad;
    a->mp.mode = MPOS_AXIAL;
    a->mp.grid_w = (int)w;
    a->mp.grid_h = (int)h;
    return 0;
bad:
    snprintf(err, errlen, "wants %s", GRID_VALUES);
    return -1;
}

/* --sequence SPEC: the parts of a vision-language sequence (M-RoPE),
 * each refused part named (peviz/mpos.h); none ends one. */
static int sequence_set(struct app *a, const char *arg, char *err,
                        size_t errlen)
{
    if (strcmp(arg, "none") == 0) {
        if (a->mp.mode == MPOS_MROPE)
            a->mp.mode = MPOS_OFF;
        return 0;
    }
    char why[200];
    if (mpos_parse_sequence(&a->mp, arg, why, sizeof why) == 0)
        return 0;
    snprintf(err, errlen, "wants %s; %s", SEQUENCE_VALUES, why);
    return -1;
}

static void sequence_text(const struct app *a, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = 0;
    for (int i = 0; a->mp.mode == MPOS_MROPE && i < a->mp.nseg && k < len;
         i++) {
        const struct mpos_seg *g = &a->mp.seg[i];
        const char *sep = i ? "," : "";
        int w = g->kind == MPOS_TEXT
            ? snprintf(buf + k, len - k, "%stext:%lld", sep, (long long)g->len)
            : g->kind == MPOS_IMAGE
            ? snprintf(buf + k, len - k, "%simage:%dx%d", sep, g->h, g->w)
            : snprintf(buf + k, len - k, "%svideo:%dx%dx%d", sep, g->t, g->h,
                       g->w);
        k += w > 0 ? (size_t)w : 0;
    }
    if (!buf[0])
        snprintf(buf, len, "none");
}

static void grid_text(const struct app *a, char *buf, size_t len)
{
    if (a->mp.mode == MPOS_AXIAL)
        snprintf(buf, len, "%dx%d", a->mp.grid_w, a->mp.grid_h);
    else
        snprintf(buf, len, "none");
}

/* n keeps pos below it. */
static void pos_below_n(struct app *a)
{
    if (a->p.pos >= a->p.n)
        a->p.pos = a->p.n - 1;
}

/* The four parameters (params.h) first: a row bounded by n or d comes
 * after them.  At the prompt a global row's change is checked with the
 * RoPE scaling and then redraws every view (app.c). */
const struct setting APP_SETTINGS[] = {
    { .name = "d-model", .prompt = "d", .alias = "d_model", .short_name = 'd',
      .type = SET_INT, .off = SET_OFF(p.d), .lo = PARAM_D_MIN,
      .hi = PARAM_D_MAX, .even = 1, .def = "64", .arg = "N",
      .help = "d_model", .where = SET_EVERYWHERE, .wire = "d" },
    { .name = "base", .alias = "b", .short_name = 'b', .type = SET_NUM,
      .off = SET_OFF(p.base), .min = 1, .open = 1, .shortest = 1,
      .def = "10000", .arg = "BASE", .help = "frequency base",
      .where = SET_EVERYWHERE, .wire = "base" },
    { .name = "seq-len", .prompt = "n", .alias = "seq_len", .short_name = 'n',
      .type = SET_I64, .off = SET_OFF(p.n), .lo = PARAM_N_MIN,
      .hi = PARAM_N_MAX, .def = "128", .arg = "N", .help = "sequence length",
      .where = SET_EVERYWHERE, .wire = "n", .follows = pos_below_n },
    /* set once n is final (a table may give it) */
    { .name = "pos", .alias = "p", .type = SET_I64, .off = SET_OFF(p.pos),
      .lo = 0, .bound = SETB_LAST, .bound_name = "n-1", .def = "0",
      .arg = "P", .help = "position under the cursor",
      .where = SET_EVERYWHERE, .wire = "pos" },
    { .name = "view", .type = SET_WORD, .off = SET_OFF(view),
      .word = view_word, .def = "heatmap", .arg = "NAME",
      .help = "the view to start in", .where = SET_CLI | SET_FILE },
    { .name = "ascii", .type = SET_FLAG, .off = SET_OFF(ascii),
      .help = "draw with ASCII only", .where = SET_CLI | SET_FILE },
    { .name = "no-braille", .type = SET_FLAG, .off = SET_OFF(no_braille),
      .help = "clock faces and line plots in blocks instead of braille dots",
      .where = SET_CLI | SET_FILE },
    { .name = "fps", .type = SET_INT, .off = SET_OFF(fps), .lo = 1, .hi = 60,
      .def = "30", .arg = "N", .help = "animation frames per second",
      .where = SET_CLI | SET_FILE },
    { .name = "mouse", .type = SET_FLAG, .off = SET_OFF(mouse),
      .help = "react to mouse clicks", .where = SET_CLI | SET_FILE },
    { .name = "low-bandwidth", .type = SET_FLAG, .off = SET_OFF(low_bandwidth),
      .help = "at most 5 frames per second, small updates",
      .where = SET_CLI | SET_FILE },
    { .name = "palette", .type = SET_WORD, .off = SET_OFF(palette),
      .word = palette_word, .def = "default", .arg = "NAME",
      .help = "colours of the maps and the chrome",
      .where = SET_CLI | SET_FILE },
    { .name = "color", .type = SET_WORD, .off = SET_OFF(color_pick),
      .word = color_word, .def = "auto", .arg = "MODE",
      .help = "colours the terminal is drawn in (auto: what it says)",
      .where = SET_CLI | SET_FILE },
    { .name = "graphics", .type = SET_WORD, .off = SET_OFF(graphics),
      .word = gfx_word, .parse = gfx_mode_parse, .def = "auto",
      .arg = "MODE", .help = "images", .where = SET_CLI | SET_FILE },
    { .name = "lang", .type = SET_WORD, .off = SET_OFF(lang_pick),
      .word = lang_word, .def = "auto", .arg = "LANG",
      .help = "tour language (auto: from LC_ALL, LC_MESSAGES or LANG)",
      .where = SET_CLI | SET_FILE },
    /* RoPE scaling (peviz/rope.h); their relations (low <= high,
     * beta-fast >= beta-slow, factor >= 1 for some methods, L given)
     * are params_check_rope's once all are set */
    { .name = "rope-scaling", .type = SET_WORD, .off = SET_OFF(p.rope.method),
      .word = rope_word, .parse = rope_method_parse, .def = "none",
      .arg = "METHOD", .help = "how the RoPE frequencies are scaled",
      .where = SET_CLI | SET_FILE },
    { .name = "factor", .type = SET_NUM, .off = SET_OFF(p.rope.factor),
      .open = 1, .def = "1", .arg = "S",
      .help = "scaling factor s (some methods want >= 1)",
      .where = SET_CLI | SET_FILE },
    { .name = "original-max", .type = SET_I64,
      .off = SET_OFF(p.rope.original_max), .lo = 1,
      .hi = ROPE_ORIGINAL_MAX_MAX, .def_note = "unset", .arg = "L",
      .help = "original trained length L", .where = SET_CLI | SET_FILE },
    { .name = "low-freq-factor", .type = SET_NUM,
      .off = SET_OFF(p.rope.low_freq_factor), .open = 1, .def = "1",
      .arg = "X", .help = "llama3: low frequency factor",
      .where = SET_CLI | SET_FILE },
    { .name = "high-freq-factor", .type = SET_NUM,
      .off = SET_OFF(p.rope.high_freq_factor), .open = 1, .def = "4",
      .arg = "Y", .help = "llama3: high frequency factor, at least X",
      .where = SET_CLI | SET_FILE },
    { .name = "beta-fast", .type = SET_NUM, .off = SET_OFF(p.rope.beta_fast),
      .open = 1, .def = "32", .arg = "A",
      .help = "yarn: rotations kept, at least B", .where = SET_CLI | SET_FILE },
    { .name = "beta-slow", .type = SET_NUM, .off = SET_OFF(p.rope.beta_slow),
      .open = 1, .def = "1", .arg = "B",
      .help = "yarn: rotations interpolated", .where = SET_CLI | SET_FILE },
    { .name = "no-truncate", .type = SET_FLAG, .off = SET_OFF(p.rope.truncate),
      .invert = 1, .def = "off", .help = "yarn: keep the ramp bounds unrounded",
      .where = SET_CLI | SET_FILE },
    { .name = "mscale", .type = SET_NUM, .off = SET_OFF(p.rope.mscale),
      .open = 1, .def_note = "unset", .arg = "M", .help = "yarn: mscale",
      .where = SET_CLI | SET_FILE },
    { .name = "mscale-all-dim", .type = SET_NUM,
      .off = SET_OFF(p.rope.mscale_all_dim), .open = 1,
      .def_note = "unset", .arg = "M", .help = "yarn: mscale_all_dim",
      .where = SET_CLI | SET_FILE },
    { .name = "proportion", .type = SET_NUM, .off = SET_OFF(p.rope.proportion),
      .open = 1, .max = 1, .def = "1", .arg = "P",
      .help = "proportional: the share of bands that turn",
      .where = SET_CLI | SET_FILE },
    { .name = "attention-factor", .type = SET_NUM,
      .off = SET_OFF(p.rope.attention_factor), .open = 1,
      .def_note = "unset", .arg = "F",
      .help = "yarn, longrope: attention factor", .where = SET_CLI | SET_FILE },
    { .name = "short-factor", .type = SET_HOOK, .set = short_set,
      .text = short_text, .values = LIST_VALUES, .def_note = "none",
      .arg = "LIST", .help = "longrope: factors for n <= L, d/2 of them",
      .where = SET_CLI | SET_FILE },
    { .name = "long-factor", .type = SET_HOOK, .set = long_set,
      .text = long_text, .values = LIST_VALUES, .def_note = "none",
      .arg = "LIST", .help = "longrope: factors for n > L, d/2 of them",
      .where = SET_CLI | SET_FILE },
    /* multi-axis positions (peviz/mpos.h): --sequence is cli.c's (its
     * parser and messages are the library's); what goes with it is
     * checked once all are set (mpos_cli.c) */
    { .name = "sequence", .type = SET_HOOK, .set = sequence_set,
      .text = sequence_text, .values = SEQUENCE_VALUES, .def_note = "none",
      .arg = "SPEC",
      .help = "M-RoPE: text:N,image:HxW,video:TxHxW (grid before merge)",
      .where = SET_CLI | SET_FILE },
    { .name = "spatial-merge", .type = SET_INT, .off = SET_OFF(mp.rules.merge),
      .lo = 1, .hi = 16, .def = "2", .arg = "M",
      .help = "--sequence: spatial merge size", .where = SET_CLI | SET_FILE },
    { .name = "tokens-per-second", .type = SET_NUM,
      .off = SET_OFF(mp.rules.tokens_per_second), .min = 0, .max = 1000,
      .def = "0", .arg = "X", .help = "--sequence: video t = frame x S x X",
      .where = SET_CLI | SET_FILE },
    { .name = "second-per-grid", .type = SET_NUM,
      .off = SET_OFF(mp.rules.second_per_grid), .min = 0, .open = 1,
      .max = 3600, .def = "1", .arg = "S",
      .help = "--sequence: seconds per video frame grid",
      .where = SET_CLI | SET_FILE },
    { .name = "split-frames", .type = SET_FLAG,
      .off = SET_OFF(mp.rules.split_frames),
      .help = "each video frame a block of its own (Qwen3-VL; with "
      "--sequence)",
      .where = SET_CLI | SET_FILE },
    { .name = "mrope-section", .type = SET_HOOK, .set = section_set,
      .text = section_text, .values = SECTION_VALUES,
      .def_note = SECTION_DEFAULT, .arg = "T,H,W",
      .help = "--sequence: slots per axis (auto: 16,24,24 at d 128)",
      .where = SET_CLI | SET_FILE },
    { .name = "mrope-interleaved", .type = SET_FLAG,
      .off = SET_OFF(mp.interleaved),
      .help = "slots interleaved t,h,w (Qwen3-VL; with --sequence)",
      .where = SET_CLI | SET_FILE },
    { .name = "grid", .type = SET_HOOK, .set = grid_set,
      .text = grid_text, .values = GRID_VALUES,
      .def_note = "none", .arg = "WxH",
      .help = "2-D axial RoPE over W x H ViT patches (base 100 unless "
      "given)",
      .where = SET_CLI | SET_FILE },
    { 0 }
};
