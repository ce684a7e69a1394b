/* SPDX-License-Identifier: ISC */
/*
 * mpos.c - multi-axis positions: the id assignment of get_rope_index,
 * the slot-to-axis maps of M-RoPE and 2-D axial RoPE, and their scores
 * (formulas in peviz/mpos.h).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "peviz/mpos.h"

void mpos_conf_default(struct mpos_conf *c)
{
    memset(c, 0, sizeof *c);
    c->rules.merge = 2;
    c->rules.second_per_grid = 1.0;
}

/* ---- parsing ------------------------------------------------------------- */

/* A whole number 1..max from s up to end (exclusive): 0, or -1. */
static int dim_num(const char *s, const char *end, long max, long *out)
{
    if (s == end || end - s > 9)
        return -1;
    long v = 0;
    for (const char *p = s; p < end; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (*p - '0');
    }
    if (v < 1 || v > max)
        return -1;
    *out = v;
    return 0;
}

/* "16x24" into want numbers, each 1..max: 0, or -1. */
static int dims(const char *s, const char *end, int want, long max, long *v)
{
    for (int k = 0; k < want; k++) {
        const char *x = k + 1 < want ? memchr(s, 'x', (size_t)(end - s)) : end;
        if (!x || dim_num(s, x, max, &v[k]))
            return -1;
        s = x + 1;
    }
    return 0;
}

static const char *const SEG_WANT[] = {
    "text:N with N in 1..16777216",
    "image:HxW, the vision grid before the spatial merge (H, W in 1..4096)",
    "video:TxHxW, frames x the vision grid before the merge (each 1..4096)",
};

/* One item "kind:dims" between s and end into g: 0, or -1 with err. */
static int parse_item(const char *s, const char *end, struct mpos_seg *g,
                      char *err, size_t errlen)
{
    static const char *const KIND[] = { "text:", "image:", "video:" };
    int len = (int)(end - s);
    for (int k = 0; k < 3; k++) {
        size_t kl = strlen(KIND[k]);
        if ((size_t)(end - s) < kl || strncmp(s, KIND[k], kl) != 0)
            continue;
        long v[3] = { 1, 1, 1 };
        int ok = k == MPOS_TEXT ? !dim_num(s + kl, end, MPOS_TOKENS_MAX, v)
                 : !dims(s + kl, end, k == MPOS_IMAGE ? 2 : 3, MPOS_GRID_MAX,
                         k == MPOS_IMAGE ? v + 1 : v);
        if (!ok) {
            snprintf(err, errlen, "'%.*s': want %s", len, s,
                     SEG_WANT[k]);
            return -1;
        }
        memset(g, 0, sizeof *g);
        g->kind = (enum mpos_kind)k;
        if (k == MPOS_TEXT)
            g->len = v[0];
        g->t = (int)v[0];
        g->h = (int)v[1];
        g->w = (int)v[2];
        if (k == MPOS_TEXT)
            g->t = g->h = g->w = 0;
        return 0;
    }
    snprintf(err, errlen, "'%.*s': want text:N, image:HxW or "
             "video:TxHxW", len, s);
    return -1;
}

int mpos_parse_sequence(struct mpos_conf *c, const char *spec, char *err,
                        size_t errlen)
{
    struct mpos_seg seg[MPOS_SEG_MAX];
    int n = 0;
    const char *s = spec;
    if (!*s) {
        snprintf(err, errlen, "empty; want e.g. "
                 "text:12,image:16x24,text:8");
        return -1;
    }
    for (;;) {
        const char *end = strchr(s, ',');
        if (!end)
            end = s + strlen(s);
        if (n == MPOS_SEG_MAX) {
            snprintf(err, errlen, "more than %d parts; want at "
                     "most %d", MPOS_SEG_MAX, MPOS_SEG_MAX);
            return -1;
        }
        if (end == s) {
            snprintf(err, errlen, "part %d is empty; want "
                     "parts joined by single commas", n + 1);
            return -1;
        }
        if (parse_item(s, end, &seg[n], err, errlen))
            return -1;
        n++;
        if (!*end)
            break;
        s = end + 1;
        if (!*s) {
            snprintf(err, errlen, "ends with a comma; want a "
                     "part after it");
            return -1;
        }
    }
    c->mode = MPOS_MROPE;
    c->nseg = n;
    memcpy(c->seg, seg, (size_t)n * sizeof seg[0]);
    return 0;
}

/* ---- ids ----------------------------------------------------------------- */

void mpos_seg_grid(const struct mpos_conf *c, int s, int *t, int *h, int *w)
{
    const struct mpos_seg *g = &c->seg[s];
    int m = c->rules.merge > 0 ? c->rules.merge : 1;
    if (g->kind == MPOS_TEXT) {
        *t = *h = *w = 0;
        return;
    }
    *t = g->t;
    *h = g->h / m;
    *w = g->w / m;
}

static int64_t seg_tokens(const struct mpos_conf *c, int s)
{
    int t, h, w;
    if (c->seg[s].kind == MPOS_TEXT)
        return c->seg[s].len;
    mpos_seg_grid(c, s, &t, &h, &w);
    return (int64_t)t * h * w;
}

int64_t mpos_count(const struct mpos_conf *c)
{
    if (c->mode == MPOS_AXIAL)
        return (int64_t)c->grid_w * c->grid_h;
    int64_t n = 0;
    for (int s = 0; s < c->nseg; s++)
        n += seg_tokens(c, s);
    return n;
}

int64_t mpos_seg_start(const struct mpos_conf *c, int s)
{
    int64_t n = 0;
    for (int k = 0; k < s && k < c->nseg; k++)
        n += seg_tokens(c, k);
    return n;
}

int mpos_check(const struct mpos_conf *c, char *err, size_t errlen)
{
    int m = c->rules.merge;
    int64_t n = 0;
    for (int s = 0; s < c->nseg; s++) {
        const struct mpos_seg *g = &c->seg[s];
        if (g->kind != MPOS_TEXT && (g->h % m || g->w % m)) {
            char part[64];
            if (g->kind == MPOS_IMAGE)
                snprintf(part, sizeof part, "image:%dx%d", g->h, g->w);
            else
                snprintf(part, sizeof part, "video:%dx%dx%d", g->t, g->h, g->w);
            snprintf(err, errlen, "--sequence: '%s': %d is not a multiple "
                     "of the spatial merge %d (H and W are the grid before "
                     "the merge)", part, g->h % m ? g->h : g->w, m);
            return -1;
        }
        n += seg_tokens(c, s);
        if (n > MPOS_TOKENS_MAX) {
            snprintf(err, errlen, "--sequence: over %lld tokens; want fewer "
                     "or smaller images", (long long)MPOS_TOKENS_MAX);
            return -1;
        }
    }
    return 0;
}

/* The temporal id offset of frame a of a video (images: a).  As
 * transformers forms it: the frame index times second_per_grid (a
 * float32 tensor), times tokens_per_second, each product rounded to
 * float32, then truncated (.long()).  In doubles, 49 x (2/49) x 2 is
 * 3.999... and truncates to 3 where float32 gives 4. */
static int64_t frame_t(const struct mpos_rules *r, enum mpos_kind k, int a)
{
    if (k != MPOS_VIDEO || r->tokens_per_second <= 0)
        return a;
    float t = (float)a * (float)r->second_per_grid;
    t = t * (float)r->tokens_per_second;
    return (int64_t)t;
}

static int64_t max3(int64_t a, int64_t b, int64_t c)
{
    int64_t m = a > b ? a : b;
    return m > c ? m : c;
}

/* Token r (0-based) of vision segment s whose first id is st; *next gets
 * the segment's largest id + 1.  out may be NULL (only *next wanted). */
static void vision_token(const struct mpos_conf *c, int s, int64_t st,
                         int64_t r, struct mpos_tok *out, int64_t *next)
{
    int T, H, W;
    mpos_seg_grid(c, s, &T, &H, &W);
    enum mpos_kind k = c->seg[s].kind;
    int64_t per = (int64_t)H * W, step = H > W ? H : W;
    if (out)
        memset(out, 0, sizeof *out);
    if (k == MPOS_VIDEO && c->rules.split_frames) {
        *next = st + (int64_t)T * step;
        if (!out)
            return;
        int a = (int)(r / per);
        st += a * step;
        out->id[MPOS_T] = st;
        out->frame = a;
    } else {
        *next = st + max3(frame_t(&c->rules, k, T - 1), H - 1, W - 1) + 1;
        if (!out)
            return;
        out->frame = (int)(r / per);
        out->id[MPOS_T] = st + frame_t(&c->rules, k, out->frame);
    }
    out->row = (int)(r % per / W);
    out->col = (int)(r % W);
    out->id[MPOS_H] = st + out->row;
    out->id[MPOS_W] = st + out->col;
}

static int axial_token(const struct mpos_conf *c, int64_t i,
                       struct mpos_tok *out)
{
    memset(out, 0, sizeof *out);
    out->kind = MPOS_IMAGE;
    out->row = (int)(i / c->grid_w);
    out->col = (int)(i % c->grid_w);
    out->id[MPOS_H] = out->row;
    out->id[MPOS_W] = out->col;
    return 0;
}

/* Token i of segment s, whose first token is first and first id st;
 * *next gets the segment's largest id + 1.  out NULL: only *next. */
static void seg_token(const struct mpos_conf *c, int s, int64_t st,
                      int64_t r, struct mpos_tok *out, int64_t *next)
{
    if (c->seg[s].kind != MPOS_TEXT) {
        vision_token(c, s, st, r, out, next);
        if (out) {
            out->kind = c->seg[s].kind;
            out->seg = s;
        }
        return;
    }
    *next = st + c->seg[s].len;
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    out->seg = s;
    out->id[0] = out->id[1] = out->id[2] = st + r;
}

int mpos_fill(const struct mpos_conf *c, int64_t from, int64_t count,
              struct mpos_tok *out)
{
    if (from < 0 || count < 0 || from + count > mpos_count(c))
        return -1;
    if (c->mode == MPOS_AXIAL) {
        for (int64_t k = 0; k < count; k++)
            axial_token(c, from + k, &out[k]);
        return 0;
    }
    int64_t first = 0, st = 0, next = 0, to = from + count;
    for (int s = 0; s < c->nseg && first < to; s++) {
        int64_t len = seg_tokens(c, s);
        seg_token(c, s, st, 0, NULL, &next);
        for (int64_t i = first > from ? first : from; i < first + len && i < to; i++)
            seg_token(c, s, st, i - first, &out[i - from], &next);
        first += len;
        st = next;
    }
    return 0;
}

int mpos_token(const struct mpos_conf *c, int64_t i, struct mpos_tok *out)
{
    return mpos_fill(c, i, 1, out);
}

/* ---- slots --------------------------------------------------------------- */

void mpos_default_section(int slots, int sec[3])
{
    sec[0] = slots / 4;
    sec[1] = (slots - sec[0]) / 2;
    sec[2] = slots - sec[0] - sec[1];
}

void mpos_default_section_interleaved(int slots, int sec[3])
{
    sec[1] = sec[2] = slots * 5 / 16;
    sec[0] = slots - sec[1] - sec[2];
}

void mpos_section(const struct mpos_conf *c, int slots, int sec[3])
{
    if (c->section[0] + c->section[1] + c->section[2] > 0)
        memcpy(sec, c->section, sizeof c->section);
    else if (c->interleaved)
        mpos_default_section_interleaved(slots, sec);
    else
        mpos_default_section(slots, sec);
}

int mpos_interleave_fit(const int sec[3], int slots, int fit[3])
{
    int cap = (slots + 1) / 3;      /* slots with k mod 3 = 1 below slots */
    fit[1] = sec[1] < cap ? sec[1] : cap;
    fit[2] = sec[2] < slots / 3 ? sec[2] : slots / 3;
    fit[0] = slots - fit[1] - fit[2];
    return fit[1] == sec[1] && fit[2] == sec[2] && fit[0] == sec[0];
}

static int interleaved_axis(int k, const int sec[3])
{
    if (k % 3 == 1 && k < 3 * sec[1])
        return MPOS_H;
    if (k % 3 == 2 && k < 3 * sec[2])
        return MPOS_W;
    return MPOS_T;
}

static int mrope_axes(const struct mpos_conf *c, int slots,
                      unsigned char *axis, char *err, size_t errlen)
{
    int sec[3], got[3] = { 0, 0, 0 };
    mpos_section(c, slots, sec);
    if (sec[0] + sec[1] + sec[2] != slots) {
        snprintf(err, errlen, "--mrope-section %d,%d,%d: sums to %d; want "
                 "d/2 = %d slots", sec[0], sec[1], sec[2],
                 sec[0] + sec[1] + sec[2], slots);
        return -1;
    }
    for (int k = 0; k < slots; k++) {
        int a = c->interleaved ? interleaved_axis(k, sec)
                : k < sec[0] ? MPOS_T : k < sec[0] + sec[1] ? MPOS_H : MPOS_W;
        axis[k] = (unsigned char)a;
        got[a]++;
    }
    if (got[0] != sec[0] || got[1] != sec[1] || got[2] != sec[2]) {
        int fit[3];
        mpos_interleave_fit(sec, slots, fit);
        snprintf(err, errlen, "--mrope-section %d,%d,%d: interleaved over "
                 "%d slots, h and w take at most %d and %d slots; type "
                 "--mrope-section %d,%d,%d", sec[0], sec[1], sec[2], slots,
                 (slots + 1) / 3, slots / 3, fit[0], fit[1], fit[2]);
        return -1;
    }
    return 0;
}

int mpos_axes(const struct mpos_conf *c, int slots, unsigned char *axis,
              char *err, size_t errlen)
{
    if (slots < 1 || slots > MPOS_SLOTS_MAX) {
        snprintf(err, errlen, "d/2 = %d slots: want 1..%d", slots,
                 MPOS_SLOTS_MAX);
        return -1;
    }
    if (c->mode != MPOS_AXIAL)
        return mrope_axes(c, slots, axis, err, errlen);
    if (slots % 2) {
        snprintf(err, errlen, "--grid: d = %d: 2-D RoPE wants d a multiple "
                 "of 4", 2 * slots);
        return -1;
    }
    for (int k = 0; k < slots; k++)
        axis[k] = (unsigned char)(k < slots / 2 ? MPOS_W : MPOS_H);
    return 0;
}

void mpos_axial_freqs(int slots, double theta, double *omega)
{
    int d = 2 * slots;
    for (int k = 0; k < slots / 2; k++)
        omega[k] = omega[slots / 2 + k] = pow(theta, -4.0 * k / d);
}

double mpos_score(const double *omega, const unsigned char *axis, int slots,
                  const int64_t a[3], const int64_t b[3])
{
    double s = 0;
    for (int k = 0; k < slots; k++)
        s += 2 * cos((double)(a[axis[k]] - b[axis[k]]) * omega[k]);
    return s;
}

double mpos_score_qk(const double *omega, const unsigned char *axis,
                     int slots, const double *ca, const double *cb,
                     const int64_t a[3], const int64_t b[3])
{
    if (!ca)
        return mpos_score(omega, axis, slots, a, b);
    double s = 0;
    for (int k = 0; k < slots; k++) {
        double t = (double)(a[axis[k]] - b[axis[k]]) * omega[k];
        s += ca[k] * cos(t) + cb[k] * sin(t);
    }
    return s;
}

void mpos_qk_coeffs(const double *q, const double *k, int slots, int half,
                    double *ca, double *cb)
{
    for (int s = 0; s < slots; s++) {
        int x = half ? s : 2 * s, y = half ? s + slots : 2 * s + 1;
        ca[s] = q[x] * k[x] + q[y] * k[y];
        cb[s] = q[x] * k[y] - q[y] * k[x];
    }
}

int mpos_plan(const struct mpos_conf *c, int d, double base,
              const rope_scaling *sc, int64_t n, double *omega,
              unsigned char *axis, double *mult, char *err, size_t errlen)
{
    int slots = d / 2;
    if (mpos_axes(c, slots, axis, err, errlen))
        return -1;
    if (c->mode == MPOS_AXIAL) {
        mpos_axial_freqs(slots, base, omega);
        *mult = 1;
        return 0;
    }
    if (rope_inv_freq(sc, d, base, n, omega, NULL)) {
        snprintf(err, errlen, "the RoPE scaling settings cannot be "
                 "evaluated at d = %d", d);
        return -1;
    }
    *mult = rope_score_multiplier(sc);
    return 0;
}

const char *mpos_axis_name(int axis, int vit)
{
    static const char *const N[] = { "t", "h", "w" }, *const V[] = { "-", "y", "x" };
    return axis >= 0 && axis < 3 ? (vit ? V : N)[axis] : "?";
}

/* Sections, layout and vision rules of the models with M-RoPE: their
 * config.json (rope_scaling.mrope_section, mrope_interleaved,
 * vision_config.spatial_merge_size, tokens_per_second). */
static const struct {
    const char *name;
    int sec[3], interleaved, merge;
    double tps;
    int split;
} PRESETS[] = {
    { "qwen2-vl-7b", { 16, 24, 24 }, 0, 2, 0, 0 },
    { "qwen2.5-vl-7b", { 16, 24, 24 }, 0, 2, 2, 0 },
    { "qwen3-vl", { 24, 20, 20 }, 1, 2, 0, 1 },
    /* Qwen3.5: text_config.rope_parameters mrope_section [11, 11, 10],
     * mrope_interleaved true; vision_config.spatial_merge_size 2 */
    { "qwen3.5", { 11, 11, 10 }, 1, 2, 0, 0 },
};

int mpos_preset(const char *name, struct mpos_conf *c)
{
    for (size_t i = 0; i < sizeof PRESETS / sizeof PRESETS[0]; i++)
        if (strcmp(PRESETS[i].name, name) == 0) {
            memcpy(c->section, PRESETS[i].sec, sizeof c->section);
            c->interleaved = PRESETS[i].interleaved;
            c->rules.merge = PRESETS[i].merge;
            c->rules.tokens_per_second = PRESETS[i].tps;
            c->rules.second_per_grid = 1.0;
            c->rules.split_frames = PRESETS[i].split;
            return 0;
        }
    return -1;
}

/* ---- as text ---------------------------------------------------------------- */

static int put(char *buf, size_t len, size_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *at, *at < len ? len - *at : 0, fmt, ap);
    va_end(ap);
    if (n < 0 || *at + (size_t)n >= len)
        return -1;
    *at += (size_t)n;
    return 0;
}

int mpos_format(const struct mpos_conf *c, char *buf, size_t len)
{
    size_t at = 0;
    int r = 0;
    if (c->mode == MPOS_OFF)
        r = put(buf, len, &at, "off");
    else if (c->mode == MPOS_AXIAL)
        r = put(buf, len, &at, "axial %dx%d", c->grid_w, c->grid_h);
    else {
        r = put(buf, len, &at, "mrope ");
        for (int k = 0; !r && k < c->nseg; k++) {
            const struct mpos_seg *g = &c->seg[k];
            const char *sep = k ? "," : "";
            if (g->kind == MPOS_TEXT)
                r = put(buf, len, &at, "%stext:%lld", sep, (long long)g->len);
            else if (g->kind == MPOS_IMAGE)
                r = put(buf, len, &at, "%simage:%dx%d", sep, g->h, g->w);
            else
                r = put(buf, len, &at, "%svideo:%dx%dx%d", sep, g->t, g->h, g->w);
        }
        if (!r)
            r = put(buf, len, &at, " merge=%d tps=%.17g spg=%.17g split=%d "
                    "sec=%d,%d,%d inter=%d", c->rules.merge,
                    c->rules.tokens_per_second, c->rules.second_per_grid,
                    c->rules.split_frames, c->section[0], c->section[1],
                    c->section[2], c->interleaved);
    }
    return r ? -1 : (int)at;
}

/* The mrope settings after the sequence: every one, in order. */
static int parse_rules(struct mpos_conf *c, const char *s)
{
    int merge, split, inter, sec[3], used = -1;
    double tps, spg;
    if (sscanf(s, " merge=%d tps=%lf spg=%lf split=%d sec=%d,%d,%d inter=%d%n",
               &merge, &tps, &spg, &split, &sec[0], &sec[1], &sec[2], &inter,
               &used) != 8 || used < 0 || s[used])
        return -1;
    if (merge < 1 || merge > 16 || !(tps >= 0 && tps <= 1000) ||
        !(spg > 0 && spg <= 3600) || (split != 0 && split != 1) ||
        (inter != 0 && inter != 1))
        return -1;
    for (int k = 0; k < 3; k++)
        if (sec[k] < 0 || sec[k] > MPOS_SLOTS_MAX)
            return -1;
    c->rules.merge = merge;
    c->rules.tokens_per_second = tps;
    c->rules.second_per_grid = spg;
    c->rules.split_frames = split;
    memcpy(c->section, sec, sizeof sec);
    c->interleaved = inter;
    return 0;
}

int mpos_parse_text(struct mpos_conf *c, const char *s, char *err,
                    size_t errlen)
{
    struct mpos_conf next;
    char spec[MPOS_TEXT_MAX];
    int w, h, used = -1;
    mpos_conf_default(&next);
    if (strcmp(s, "off") == 0) {
        *c = next;
        return 0;
    }
    if (sscanf(s, "axial %dx%d%n", &w, &h, &used) == 2 && used > 0 &&
        !s[used] && w >= 1 && h >= 1 && w <= MPOS_GRID_MAX &&
        h <= MPOS_GRID_MAX && (int64_t)w * h <= MPOS_TOKENS_MAX) {
        next.mode = MPOS_AXIAL;
        next.grid_w = w;
        next.grid_h = h;
        *c = next;
        return 0;
    }
    const char *sp = strncmp(s, "mrope ", 6) == 0 ? strchr(s + 6, ' ') : NULL;
    if (!sp || (size_t)(sp - s - 6) >= sizeof spec) {
        snprintf(err, errlen, "want off, axial WxH or mrope SPEC merge=M "
                 "tps=X spg=S split=0|1 sec=T,H,W inter=0|1");
        return -1;
    }
    memcpy(spec, s + 6, (size_t)(sp - s - 6));
    spec[sp - s - 6] = 0;
    if (mpos_parse_sequence(&next, spec, err, errlen))
        return -1;
    if (parse_rules(&next, sp)) {
        snprintf(err, errlen, "want merge=M tps=X spg=S split=0|1 "
                 "sec=T,H,W inter=0|1 after the sequence");
        return -1;
    }
    if (mpos_check(&next, err, errlen))
        return -1;
    *c = next;
    return 0;
}
