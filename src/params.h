/* SPDX-License-Identifier: ISC */
/*
 * params.h - the four shared parameters and the one place that
 * validates them.  The command line, the keys and the ':' prompt all go
 * through these functions, so a value is accepted or refused the same
 * way everywhere.
 */
#ifndef PEVIZ_PARAMS_H
#define PEVIZ_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "peviz/fmt.h"     /* fmt_num, fmt_base, ... */
#include "peviz/rope.h"

#define PARAM_D_MIN 2
#define PARAM_D_MAX 65536
#define PARAM_N_MIN 1
#define PARAM_N_MAX (1L << 24)
#define PARAM_D_DEFAULT 64
#define PARAM_BASE_DEFAULT 10000.0
#define PARAM_N_DEFAULT 128

typedef struct params {
    int d;          /* d_model: even, PARAM_D_MIN .. PARAM_D_MAX */
    double base;    /* finite, > 1 */
    int64_t n;      /* seq_len: PARAM_N_MIN .. PARAM_N_MAX */
    int64_t pos;    /* 0 .. n-1 */
    rope_scaling rope;  /* RoPE frequency scaling (peviz/rope.h); d is
                           then the number of rotary dimensions */
} params;

enum param_id { P_D, P_BASE, P_N, P_POS };

void params_default(params *p);

/*
 * Strict number parsing: the whole string must be a number (leading and
 * trailing blanks allowed), no overflow, finite.  Return 0, or -1 with
 * *why set to a short reason ("not a number", "out of range", ...).
 */
int parse_long(const char *s, long *out, const char **why);
int parse_double(const char *s, double *out, const char **why);

/*
 * Parse text and set one parameter.  On error leave p unchanged, write a
 * one-line message naming the parameter, the value and the valid range
 * into err, and return -1.  Setting n clamps pos into range.
 */
int params_set(params *p, enum param_id id, const char *text,
               char *err, size_t errlen);

/* Set from a number, validated the same way. */
int params_set_d(params *p, long d, char *err, size_t errlen);
int params_set_base(params *p, double base, char *err, size_t errlen);
int params_set_n(params *p, long n, char *err, size_t errlen);
int params_set_pos(params *p, long pos, char *err, size_t errlen);

struct score_opts;

/* T5: the message when max_distance is not past the exact buckets of a
 * side (buckets/4 bidirectional, buckets/2 causal); 0 when it is. */
int att_t5_check(const struct score_opts *o, char *err, size_t errlen);

/*
 * Multiply a parameter by factor (0.5, 2, 0.1, 10, ...) as the keys do.
 * A result outside the range is clamped; then msg says so ("d_model is
 * at its maximum 65536") and the return is 1; 0 when unclamped.
 * d stays even, n stays an integer, base stays > 1.
 */
int params_scale(params *p, enum param_id id, double factor,
                 char *msg, size_t msglen);

/* ---- RoPE scaling ------------------------------------------------------ */

/* The scaling settings, named as the options and ':' commands are. */
enum rope_opt {
    RO_SCALING = 0,     /* "rope-scaling" (":scaling") METHOD */
    RO_FACTOR, RO_ORIGINAL_MAX, RO_LOW_FREQ, RO_HIGH_FREQ, RO_BETA_FAST,
    RO_BETA_SLOW, RO_TRUNCATE, RO_MSCALE, RO_MSCALE_ALL_DIM, RO_PROPORTION,
    RO_ATTENTION_FACTOR, RO_SHORT_FACTOR, RO_LONG_FACTOR, RO_COUNT
};

/* "rope-scaling", "factor", "original-max", ..., "long-factor". */
extern const char *const ROPE_OPT_NAMES[RO_COUNT];

/* The option by name (also "scaling" for rope-scaling), or -1. */
int params_rope_opt_parse(const char *name);

#define ROPE_ORIGINAL_MAX_MAX 2147483647L

/*
 * Parse text and set one scaling setting, checking its own range
 * (RO_TRUNCATE takes on/off).  On error leave p unchanged, write
 * "NAME 'VALUE': why; want RANGE" into err and return -1.  Settings that
 * depend on each other (low <= high, beta_fast >= beta_slow, factor >= 1
 * for some methods, L given, d/2 list entries) are checked by
 * params_check_rope once all are set.
 */
int params_set_rope(params *p, enum rope_opt id, const char *text,
                    char *err, size_t errlen);

/* The same from a number (RO_TRUNCATE: v != 0 is on) or a list of n
 * numbers (RO_SHORT_FACTOR, RO_LONG_FACTOR), for files that carry them. */
int params_set_rope_number(params *p, enum rope_opt id, double v,
                           char *err, size_t errlen);
int params_set_rope_list(params *p, enum rope_opt id, const double *v, int n,
                         char *err, size_t errlen);

/* Whether p's scaling can be used with its d: 0, or -1 with a message
 * naming the setting, its value and the valid range. */
int params_check_rope(const params *p, char *err, size_t errlen);

/* Apply a model preset (peviz/rope.h): d, base and the scaling.  -1 with
 * a message listing the names when unknown. */
int params_set_model(params *p, const char *name, char *err, size_t errlen);

/* Take a model's context length (max_position_embeddings) as n, clamped
 * into 1..PARAM_N_MAX (pos follows); ctx <= 0 or not whole: no change. */
void params_set_context(params *p, double ctx);

/* The index of the model preset called name (rope_preset_at), or -1. */
int params_model_index(const char *name);

/* The q/k pairs (enum qk_pairs) of a preset's family as transformers
 * runs it: rotate_half (half), but DeepSeek's checkpoints interleave. */
int params_model_pairs(const char *name);

/* The scaling in a few words: "yarn s=4 L=32768", "none". */
void params_format_rope(const params *p, char *buf, size_t len);

/* The parameters as "d_model=64 base=10000 n=128 pos=0". */
void params_format(const params *p, char *buf, size_t len);

#endif
