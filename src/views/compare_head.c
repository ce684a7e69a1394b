/* SPDX-License-Identifier: ISC */
/*
 * compare_head.c - the header over each pane of the compare view: which
 * pane it is, its model and scaling when it has them, base, d_model and
 * n; then what the pane's scheme has (its row's enum scheme_has): the
 * critical band and the turns of the slowest band within n for bands,
 * else its buckets, slope, kernel or rows and its formula, or that it
 * has no position signal; the layout and number format when they are
 * not the defaults.  Each line
 * takes the longest wording that fits the pane, cut at a word, never
 * inside one.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "glyph.h"
#include "text.h"
#include "compare_view.h"

#define HEAD_CANDS 8
#define HEAD_LEN 192

enum head_line { HL_IDENT, HL_CRIT, HL_SLOW, HL_TAG };

/* The pane's model and scaling in a few words: "llama3.1-8b llama3 x8",
 * "ntk x4", "yarn x4 untruncated", "llama3-8b"; "" for neither. */
static void pane_tag(const struct rpane *r, char *buf, size_t len)
{
    const rope_scaling *sc = r->rope;
    char f[32] = "";
    const struct rope_preset *m = r->model >= 0 ? rope_preset_at(r->model)
                                                : NULL;
    if (sc->method != ROPE_NONE) {
        fmt_num(sc->factor, 6, f, sizeof f);
        snprintf(f + strlen(f), sizeof f - strlen(f), "%s",
                 sc->method == ROPE_YARN && !sc->truncate ? " untruncated" : "");
    }
    snprintf(buf, len, "%s%s%s%s%s", m ? m->name : "",
             m && sc->method != ROPE_NONE ? " " : "",
             sc->method != ROPE_NONE ? rope_method_name(sc->method) : "",
             sc->method != ROPE_NONE ? " x" : "", f);
}

/* The pane's scheme when it has one, with its q/k pairs when the
 * pane sets them: " rope half", " alibi"; "" for none. */
static void pane_scheme_tag(const struct app *a, const struct rpane *r,
                            char *buf, size_t len)
{
    char l[24] = "";
    buf[0] = 0;
    if (r->scheme < 0)
        return;
    if (r->layer >= 0)
        snprintf(l, sizeof l, " layer %d", r->layer);
    int pairs = a->cmp.panes[r->id].pairs > 0 &&
                (r->scheme == SCHEME_ROPE || r->scheme == SCHEME_XPOS);
    snprintf(buf, len, "%s %s%s%s", l, scheme_name((enum scheme)r->scheme),
             pairs ? " " : "", pairs ? qk_pairs_name(r->so.qk_pairs) : "");
}

static int cands_ident(const struct app *a, const struct rpane *r,
                       char s[][HEAD_LEN])
{
    char b[24], id[64], t[64], st[48];
    fmt_base(r->base, b, sizeof b);
    pane_scheme_tag(a, r, st, sizeof st);
    snprintf(id, sizeof id, "%s%c%s", a->cmp.active == r->id ? glyph_pick(a->ascii, "\u25B6", ">")
                                                       : " ", 'A' + r->id, st);
    long long n = (long long)r->n;
    pane_tag(r, t, sizeof t);
    if (!t[0] && r->has != SCHEME_HAS_BANDS) {  /* no base: no bands */
        snprintf(s[0], HEAD_LEN, "%s d_model=%d n=%lld", id, r->d, n);
        snprintf(s[1], HEAD_LEN, "%s d=%d n=%lld", id, r->d, n);
        snprintf(s[2], HEAD_LEN, "%s d=%d", id, r->d);
        snprintf(s[3], HEAD_LEN, "%s", id);
        /* narrower: the scheme's family ("kerple" of kerple-log) */
        char *dash = strrchr(s[3], '-'), *sp = strrchr(s[3], ' ');
        if (!dash || (sp && sp > dash))
            return 4;
        size_t cut = (size_t)(dash - s[3]);
        memcpy(s[4], s[3], cut);
        s[4][cut] = 0;
        return 5;
    }
    if (!t[0]) {
        snprintf(s[0], HEAD_LEN, "%s base=%s d_model=%d n=%lld", id, b, r->d, n);
        snprintf(s[1], HEAD_LEN, "%s base=%s d=%d n=%lld", id, b, r->d, n);
        snprintf(s[2], HEAD_LEN, "%s b=%s d=%d n=%lld", id, b, r->d, n);
        snprintf(s[3], HEAD_LEN, "%s b=%s d=%d", id, b, r->d);
        snprintf(s[4], HEAD_LEN, "%s %s", id, b);
        snprintf(s[5], HEAD_LEN, "%s", id);  /* the scheme, if any */
        return 6;
    }
    /* the model and scaling first: base, d and n follow from them */
    snprintf(s[0], HEAD_LEN, "%s %s base=%s d_model=%d n=%lld", id, t, b, r->d, n);
    snprintf(s[1], HEAD_LEN, "%s %s base=%s d=%d n=%lld", id, t, b, r->d, n);
    snprintf(s[2], HEAD_LEN, "%s %s b=%s d=%d n=%lld", id, t, b, r->d, n);
    snprintf(s[3], HEAD_LEN, "%s %s b=%s d=%d", id, t, b, r->d);
    snprintf(s[4], HEAD_LEN, "%s %s d=%d", id, t, r->d);
    snprintf(s[5], HEAD_LEN, "%s %s", id, t);
    if (r->model < 0 || r->rope->method == ROPE_NONE)
        return 6;
    /* narrow: the scaling alone, else the model's name alone */
    snprintf(s[6], HEAD_LEN, "%s %s", id, strchr(t, ' ') + 1);
    snprintf(s[7], HEAD_LEN, "%s %s", id, rope_preset_at(r->model)->name);
    return 8;
}

/* The critical band from the pane's scaled plan, the unscaled one
 * beside it when they differ: "critical band 39 (49 unscaled)". */
static int cands_crit(int k, const struct rpane *r, char s[][HEAD_LEN])
{
    int h = r->d / 2;
    char un[32] = "", unl[32] = "";
    (void)k;
    if (r->crit != r->crit_base && r->crit_base >= h) {
        snprintf(un, sizeof un, " (none unscaled)");
        snprintf(unl, sizeof unl, " (none unsc.)");
    } else if (r->crit != r->crit_base) {
        snprintf(un, sizeof un, " (%d unscaled)", r->crit_base);
        snprintf(unl, sizeof unl, " (%d unsc.)", r->crit_base);
    }
    if (r->crit >= h) {
        snprintf(s[0], HEAD_LEN, "no critical band: all %d bands turn%s", h, un);
        snprintf(s[1], HEAD_LEN, "all %d bands turn in n%s", h, unl);
        snprintf(s[2], HEAD_LEN, "all %d bands turn", h);
        snprintf(s[3], HEAD_LEN, "all %d turn", h);
        snprintf(s[4], HEAD_LEN, "all");
        return 5;
    }
    char rng[32];
    if (r->crit == h - 1)
        snprintf(rng, sizeof rng, "%d", r->crit);
    else
        snprintf(rng, sizeof rng, "%d-%d", r->crit, h - 1);
    snprintf(s[0], HEAD_LEN, "critical band %d%s: %s <1 turn in n", r->crit,
             un, rng);
    snprintf(s[1], HEAD_LEN, "critical band %d%s: %s <1 turn", r->crit, un, rng);
    snprintf(s[2], HEAD_LEN, "crit band %d%s: %s <1 turn", r->crit, unl, rng);
    snprintf(s[3], HEAD_LEN, "crit %d%s: %s <1 turn", r->crit, unl, rng);
    snprintf(s[4], HEAD_LEN, "crit %d: %s <1 turn", r->crit, rng);
    snprintf(s[5], HEAD_LEN, "crit %d%s", r->crit, unl);
    snprintf(s[6], HEAD_LEN, "crit %d", r->crit);
    return 7;
}

static int cands_slow(const struct rpane *r, char s[][HEAD_LEN])
{
    char t[32], u[48] = "";
    cmp_num(r->slow_turns, t, sizeof t);
    if (r->plan->scaled && r->slow_turns != r->slow_turns_base) {
        char b[32];
        cmp_num(r->slow_turns_base, b, sizeof b);
        snprintf(u, sizeof u, " (%s unscaled)", b);
    }
    snprintf(s[0], HEAD_LEN, "slowest band %d: %s turns in n%s", r->d / 2 - 1,
             t, u);
    snprintf(s[1], HEAD_LEN, "slowest band: %s turns in n%s", t, u);
    snprintf(s[2], HEAD_LEN, "slowest: %s turns%s", t, u);
    snprintf(s[3], HEAD_LEN, "slowest: %s turns", t);
    snprintf(s[4], HEAD_LEN, "%s turns", t);
    snprintf(s[5], HEAD_LEN, "%.1g turns", r->slow_turns);  /* a narrow pane:
                                                       the unit kept */
    if (r->slow_turns >= 1)
        return 6;
    snprintf(s[6], HEAD_LEN, "%.1g turn", r->slow_turns);   /* narrower */
    return 7;
}

/* The layout and number format, said accurately. */
static int cands_tag(const struct app *a, const struct rpane *r,
                     char s[][HEAD_LEN])
{
    char pr[32];
    /* bf16 and f16 are the f32-angle pipelines: say so */
    snprintf(pr, sizeof pr, "%s%s", precision_name(r->prec),
             prec_angle_format(r->prec) == PREC_F32 && r->prec != PREC_F32
             ? " (f32 angle)" : "");
    switch (r->layout) {
    case LAYOUT_CONCAT:
        snprintf(s[0], HEAD_LEN, "concat [sin|cos] %s; t2t's order, not its %s spacing",
                 pr, glyph_pick(a->ascii, "\u03C9", "omega"));
        snprintf(s[1], HEAD_LEN, "concat [sin|cos] %s (t2t order only)", pr);
        break;
    case LAYOUT_HALF:
        snprintf(s[0], HEAD_LEN, "half: pairs (i, i+d/2) as rotate_half, [cos|sin] %s", pr);
        snprintf(s[1], HEAD_LEN, "half (rotate_half pairs) %s", pr);
        break;
    case LAYOUT_INTERLEAVED:
    default:
        snprintf(s[0], HEAD_LEN, "interleaved sin/cos (paper) %s", pr);
        snprintf(s[1], HEAD_LEN, "interleaved %s", pr);
        break;
    }
    snprintf(s[2], HEAD_LEN, "%s %s", layout_name(r->layout), pr);
    snprintf(s[3], HEAD_LEN, "%.4s %s", layout_name(r->layout), pr);
    return 4;
}

/* T5: the buckets on one side, how many of them exact, up to where. */
static int cands_buckets(const struct rpane *r, char s[][HEAD_LEN])
{
    int b = r->so.buckets, side = r->so.bidirectional ? b / 2 : b;
    snprintf(s[0], HEAD_LEN, "%d buckets%s: %d exact, log-spaced to %d",
             b, r->so.bidirectional ? " (both sides)" : "", side / 2,
             r->so.max_distance);
    snprintf(s[1], HEAD_LEN, "%d buckets: %d exact, to %d", b, side / 2,
             r->so.max_distance);
    snprintf(s[2], HEAD_LEN, "%d buckets, to %d", b, r->so.max_distance);
    snprintf(s[3], HEAD_LEN, "%d buckets", b);
    return 4;
}

/* ALiBi: the slope of the head shown. */
static int cands_slopes(const struct rpane *r, char s[][HEAD_LEN])
{
    double m[SCORES_MAX_HEADS];
    int h = r->so.heads >= 1 && r->so.heads <= SCORES_MAX_HEADS ? r->so.heads : 1;
    int head = r->so.head >= 0 && r->so.head < h ? r->so.head : 0;
    char t[32];
    pe_alibi_slopes(h, m);
    fmt_num(m[head], 4, t, sizeof t);
    snprintf(s[0], HEAD_LEN, "slope m = %s: head %d of %d", t, head + 1, h);
    snprintf(s[1], HEAD_LEN, "slope %s, head %d/%d", t, head + 1, h);
    snprintf(s[2], HEAD_LEN, "slope %s", t);
    snprintf(s[3], HEAD_LEN, "m=%s", t);
    return 4;
}

/* KERPLE: its two parameters. */
static int cands_kernel(const struct rpane *r, char s[][HEAD_LEN])
{
    char a[32], b[32];
    fmt_num(r->so.r1, 4, a, sizeof a);
    fmt_num(r->so.r2, 4, b, sizeof b);
    snprintf(s[0], HEAD_LEN, "kernel r1 = %s, r2 = %s", a, b);
    snprintf(s[1], HEAD_LEN, "r1=%s r2=%s", a, b);
    snprintf(s[2], HEAD_LEN, "r1=%s", a);
    return 3;
}

/* A learned table: its rows and the length they were trained to. */
static int cands_rows(const struct rpane *r, char s[][HEAD_LEN])
{
    long long l = (long long)scores_train_len(&r->so, r->n);
    snprintf(s[0], HEAD_LEN, "learned rows, trained to L = %lld", l);
    snprintf(s[1], HEAD_LEN, "rows trained to %lld", l);
    snprintf(s[2], HEAD_LEN, "L=%lld", l);
    return 3;
}

/* The line under the scheme's own facts: its formula, "S = 0" for a
 * scheme with nothing and no content. */
static int cands_formula(const struct app *a, const struct rpane *r,
                         char s[][HEAD_LEN])
{
    const struct scheme_info *si = scheme_info(r->scheme);
    const char *f = !si ? "" : r->so.content
        ? (a->ascii ? si->formula_content_ascii : si->formula_content)
        : (a->ascii ? si->formula_ascii : si->formula);
    if (r->has == SCHEME_HAS_NOTHING && !r->so.content)
        f = "0";
    snprintf(s[0], HEAD_LEN, "S = %s", f);
    snprintf(s[1], HEAD_LEN, "%s", f);
    s[2][0] = 0;                /* a formula whole, or none */
    return 3;
}

/* The first fact line: what the pane's scheme has, never bands it has
 * not. */
static int cands_has(int k, const struct rpane *r, char s[][HEAD_LEN])
{
    switch (r->has) {
    case SCHEME_HAS_BANDS:   return cands_crit(k, r, s);
    case SCHEME_HAS_BUCKETS: return cands_buckets(r, s);
    case SCHEME_HAS_SLOPES:  return cands_slopes(r, s);
    case SCHEME_HAS_KERNEL:  return cands_kernel(r, s);
    case SCHEME_HAS_ROWS:    return cands_rows(r, s);
    }
    snprintf(s[0], HEAD_LEN, "no position signal: no bands, no bias");
    snprintf(s[1], HEAD_LEN, "no position signal");
    snprintf(s[2], HEAD_LEN, "no positions");
    snprintf(s[3], HEAD_LEN, "no signal");
    snprintf(s[4], HEAD_LEN, "none");
    return 5;
}

static int head_cands(const struct app *a, enum head_line line, int k,
                      const struct rpane *r, char s[][HEAD_LEN])
{
    switch (line) {
    case HL_IDENT: return cands_ident(a, r, s);
    case HL_CRIT:  return cands_has(k, r, s);
    case HL_SLOW:  return r->has == SCHEME_HAS_BANDS ? cands_slow(r, s)
                                                     : cands_formula(a, r, s);
    case HL_TAG:   return cands_tag(a, r, s);
    }
    return 0;
}

static const enum ui_color HEAD_COLOUR[] = {
    [HL_IDENT] = UI_TEXT, [HL_CRIT] = UI_WARN, [HL_SLOW] = UI_TEXT,
    [HL_TAG] = UI_DIM
};

/*
 * One header row across the panes, each in the longest wording that fits
 * its pane.  Each pane's text depends on that pane alone, so changing
 * one pane never rewrites another's header.
 */
static void head_row(const struct app *a, canvas *c, const struct geom *g,
                     const struct rpane *rp, enum head_line line, int y)
{
    char s[HEAD_CANDS][HEAD_LEN];
    int indent = line == HL_IDENT ? 0 : 1;
    for (int k = 0; k < g->np; k++) {
        const char *cand[HEAD_CANDS];
        int n = head_cands(a, line, k, &rp[k], s);
        for (int i = 0; i < n; i++)
            cand[i] = s[i];
        /* nothing fits: the shortest wording's whole words */
        canvas_text_fit(c, g->px[k] + indent, y, g->pw - indent, cand, n,
                        cmp_uc(a, HEAD_COLOUR[line]), 0);
        if (line == HL_IDENT) {     /* the pane letter in its plot colour */
            int attr = a->cmp.active == rp[k].id ? ATTR_BOLD | ATTR_REVERSE : ATTR_BOLD;
            canvas_printf(c, g->px[k] + 1, y, 1, cmp_pane_rgb(a, rp[k].id), RGB_DEFAULT,
                          attr, "%c", 'A' + rp[k].id);
        }
    }
}

void cmp_draw_headers(const struct app *a, canvas *c, const struct geom *g,
                      const struct rpane *rp)
{
    int y = 0;
    head_row(a, c, g, rp, HL_IDENT, y++);
    if (y < g->head_h - g->tags)
        head_row(a, c, g, rp, HL_CRIT, y++);
    if (y < g->head_h - g->tags)
        head_row(a, c, g, rp, HL_SLOW, y++);
    if (g->tags)
        head_row(a, c, g, rp, HL_TAG, y);
    cmp_separators(a, c, g, 0, g->head_h);
}

