/* SPDX-License-Identifier: ISC */
/*
 * peviz/mpos.h - positions with more than one axis: the (t, h, w) ids
 * of a vision-language sequence (M-RoPE: Qwen2-VL, Qwen2.5-VL, Qwen3-VL)
 * and the (x, y) of a ViT patch grid (2-D axial RoPE), which frequency
 * slot turns by which axis, and the scores with q = k = ones.
 * Part of libpeviz: libc and libm only, no allocation, no globals.
 *
 * A sequence is a list of segments: text:N (N tokens), image:HxW and
 * video:TxHxW.  H and W are the vision grid before the spatial merge, as
 * image_grid_thw / video_grid_thw hold them (patches of 14 pixels in
 * Qwen2-VL): the language model sees a grid of H/m x W/m tokens per
 * frame, m = spatial_merge_size (2).
 *
 * Position ids (get_rope_index): every segment starts at st = (largest id
 * so far) + 1, or 0 at the start.
 *   text, token k:            t = h = w = st + k
 *   vision, frame a, row b, column c (in that order, c fastest):
 *                             (t, h, w) = (tt(a), b, c) + st
 *   tt(a) = a                                  (Qwen2-VL; images)
 *   tt(a) = trunc(a * second_per_grid * tokens_per_second), each
 *           product rounded to float32 as transformers' tensors are
 *                                              (Qwen2.5-VL videos, when
 *                                               tokens_per_second > 0)
 * Qwen3-VL splits a video into its frames (split_frames): each frame is a
 * segment of its own with T = 1, starting after the largest id so far.
 *
 * Slots (bands) k = 0 .. d/2-1 with omega_k = base^(-2k/d), sections
 * (s_t, s_h, s_w) with s_t + s_h + s_w = d/2:
 *   chunked (Qwen2-VL, 2.5-VL): k < s_t: t; k < s_t + s_h: h; else w
 *   interleaved (Qwen3-VL): h if k mod 3 = 1 and k < 3 s_h,
 *                           w if k mod 3 = 2 and k < 3 s_w, else t
 * 2-D axial (ViT, theta = 100): f_k = theta^(-4k/d), k < d/4; slots
 * 0 .. d/4-1 turn by the column x with f_k, slots d/4 .. d/2-1 by the
 * row y with f_(k - d/4).  Patch p of a W x H grid: x = p mod W,
 * y = p div W.
 *
 * Score with q = k = ones: S(i, j) = sum_k 2 cos((p_i[ax_k] - p_j[ax_k]) omega_k).
 */
#ifndef PEVIZ_MPOS_H
#define PEVIZ_MPOS_H

#include <stddef.h>
#include <stdint.h>

#include "peviz/rope.h"

#define MPOS_SEG_MAX 64                 /* segments in a --sequence */
#define MPOS_TOKENS_MAX (INT64_C(1) << 24)
#define MPOS_GRID_MAX 4096              /* a --grid side, and a vision side */
#define MPOS_SLOTS_MAX 32768

enum mpos_kind { MPOS_TEXT = 0, MPOS_IMAGE, MPOS_VIDEO };
enum mpos_axis { MPOS_T = 0, MPOS_H, MPOS_W };   /* ViT: H = row y, W = column x */
enum mpos_mode { MPOS_OFF = 0, MPOS_MROPE, MPOS_AXIAL };

struct mpos_seg {
    enum mpos_kind kind;
    int64_t len;            /* text: tokens */
    int t, h, w;            /* image (t = 1), video: the vision grid */
};

/* How ids are assigned (the model's vision settings). */
struct mpos_rules {
    int merge;                  /* spatial_merge_size, >= 1 (default 2) */
    double tokens_per_second;   /* > 0: Qwen2.5-VL absolute time; 0: off */
    double second_per_grid;     /* seconds per temporal grid (default 1) */
    int split_frames;           /* Qwen3-VL: a video is one segment per frame */
};

/* Everything a view or an export needs: plain data, copyable. */
struct mpos_conf {
    enum mpos_mode mode;
    int nseg;
    struct mpos_seg seg[MPOS_SEG_MAX];
    struct mpos_rules rules;
    int section[3];             /* t, h, w slots; all 0: mpos_default_section */
    int interleaved;            /* Qwen3-VL slot layout */
    int grid_w, grid_h;         /* MPOS_AXIAL: patches across and down */
};

/* One token's ids and where it sits. */
struct mpos_tok {
    enum mpos_kind kind;
    int seg;                    /* its segment in the conf (0 for a grid) */
    int64_t id[3];              /* t, h, w (ViT: 0, y, x) */
    int frame, row, col;        /* vision: its cell of the LLM grid (ViT:
                                   the patch); text: 0 */
};

/* Off, no segments, merge 2, tokens_per_second 0, second_per_grid 1. */
void mpos_conf_default(struct mpos_conf *c);

/*
 * Parse a --sequence SPEC ("text:12,image:16x24,video:4x8x8") into c's
 * segments (mode MPOS_MROPE).  Returns 0, or -1 with one line in err
 * naming the bad part ("part 2 is empty; ..."; the caller names the
 * option or command); c is then unchanged.
 */
int mpos_parse_sequence(struct mpos_conf *c, const char *spec, char *err,
                        size_t errlen);

/* Check the segments against the rules (H, W multiples of the merge,
 * the token count in range): 0, or -1 with one line in err. */
int mpos_check(const struct mpos_conf *c, char *err, size_t errlen);

/* Tokens the model sees: the sum of the segments (W x H for a grid). */
int64_t mpos_count(const struct mpos_conf *c);

/* Token i's ids (0 <= i < mpos_count); -1 if out of range.  O(segments). */
int mpos_token(const struct mpos_conf *c, int64_t i, struct mpos_tok *out);

/* Tokens from .. from+count-1 into out[0..count-1] in one pass: 0, or -1
 * if the range is not inside the sequence. */
int mpos_fill(const struct mpos_conf *c, int64_t from, int64_t count,
              struct mpos_tok *out);

/* The LLM grid of segment s: frames, rows, columns (text: 0s). */
void mpos_seg_grid(const struct mpos_conf *c, int s, int *t, int *h, int *w);

/* The first token of segment s. */
int64_t mpos_seg_start(const struct mpos_conf *c, int s);

/* The default sections for d/2 slots: 16,24,24 at 64 slots, and the same
 * proportions otherwise (t = slots/4, h = (slots - t)/2, w the rest). */
void mpos_default_section(int slots, int sec[3]);

/* The default sections of the interleaved layout: 24,20,20 at 64 slots
 * (Qwen3-VL's), and the same proportions otherwise (h = w = 5 slots/16,
 * t the rest), which the layout can always give. */
void mpos_default_section_interleaved(int slots, int sec[3]);

/* Sections the interleaved layout gives over slots, nearest sec: h and w
 * cut to the slots with k mod 3 = 1 and 2, t the rest, into fit.
 * Returns 1 when sec itself fits. */
int mpos_interleave_fit(const int sec[3], int slots, int fit[3]);

/* The sections in effect (given, or the default of the layout). */
void mpos_section(const struct mpos_conf *c, int slots, int sec[3]);

/*
 * Each slot's axis (enum mpos_axis) into axis[0..slots-1] for c's mode
 * and layout; 0, or -1 with one line in err when the sections do not
 * fit the slots (sum not slots; an interleaved layout that cannot give
 * a section its count; ViT: d/2 odd).
 */
int mpos_axes(const struct mpos_conf *c, int slots, unsigned char *axis,
              char *err, size_t errlen);

/* 2-D axial frequencies: omega[k] = omega[slots/2 + k] = theta^(-4k/d),
 * d = 2 slots, k < slots/2. */
void mpos_axial_freqs(int slots, double theta, double *omega);

/* sum_k 2 cos((a[axis_k] - b[axis_k]) omega_k). */
double mpos_score(const double *omega, const unsigned char *axis, int slots,
                  const int64_t a[3], const int64_t b[3]);

/*
 * The score of a real query q at ids a and key k at ids b:
 *   sum_k ca_k cos(delta_k omega_k) + cb_k sin(delta_k omega_k),
 *   delta_k = a[axis_k] - b[axis_k],
 * with ca, cb from mpos_qk_coeffs (ca = NULL: q = k = ones, 2 cos).
 */
double mpos_score_qk(const double *omega, const unsigned char *axis,
                     int slots, const double *ca, const double *cb,
                     const int64_t a[3], const int64_t b[3]);

/* ca, cb [slots] of q and k (d = 2 slots values each, the model's order):
 * slot k pairs dims (k, k + slots) when half (rotate_half, the Qwen
 * models), else (2k, 2k + 1); ca_k = q.k over the pair, cb_k =
 * q_x k_y - q_y k_x, as pe_rope_coeffs. */
void mpos_qk_coeffs(const double *q, const double *k, int slots, int half,
                    double *ca, double *cb);

/*
 * What the scores need, for d rotary dimensions (slots = d/2): each
 * slot's frequency and axis, and the factor on every score.  M-RoPE:
 * omega from rope_inv_freq (sc's scaling at length n) and the factor
 * rope_score_multiplier; 2-D axial: mpos_axial_freqs(base), factor 1.
 * omega and axis hold d/2 entries.  0, or -1 with one line in err.
 */
int mpos_plan(const struct mpos_conf *c, int d, double base,
              const rope_scaling *sc, int64_t n, double *omega,
              unsigned char *axis, double *mult, char *err, size_t errlen);

/* The M-RoPE settings of a model preset (qwen2-vl-7b, qwen2.5-vl-7b,
 * qwen3-vl: sections, layout, the vision rules) into c, keeping its
 * mode and segments: 0, or -1 (c unchanged) for any other name. */
int mpos_preset(const char *name, struct mpos_conf *c);

/*
 * c as one line of text that mpos_parse_text reads back exactly: "off",
 * "axial WxH", or "mrope SPEC merge=M tps=X spg=S split=0|1
 * sec=T,H,W inter=0|1" (sec 0,0,0: the default).  Returns the length,
 * or -1 if it does not fit (MPOS_TEXT_MAX bytes always do).
 */
#define MPOS_TEXT_MAX 1600
int mpos_format(const struct mpos_conf *c, char *buf, size_t len);
int mpos_parse_text(struct mpos_conf *c, const char *s, char *err,
                    size_t errlen);

/* "t", "h", "w" (ViT with vit set: "-", "y", "x"). */
const char *mpos_axis_name(int axis, int vit);

#endif
