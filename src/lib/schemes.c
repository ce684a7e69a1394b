/* SPDX-License-Identifier: ISC */
/*
 * schemes.c - the attention schemes: the SCHEMES table (names, formula
 * text, properties) and each scheme's build function, which says what S
 * is made of (see peviz/scores.h).  The rest of the library, the command
 * line, the prompt and the views go by the table.
 *
 * Adding a scheme (tests/recipes.sh tries it with a bias):
 *   1. Its build function, void build_NAME(struct score_ctx *s), here or
 *      in src/lib/NAME.c (declared in schemes_impl.h): the terms of S
 *      through scores_term_add / scores_terms_additive, or a function of
 *      i - j through scores_dist_add and a struct dist_ops row.  A bias
 *      of i - j alone (e.e beside it with content) needs no function of
 *      its own: its struct dist_ops row (const struct dist_ops DIST_NAME
 *      in src/lib/NAME.c, only .at required, declared in schemes_impl.h),
 *      a row [SCHEME_NAME] = { setup or NULL, &DIST_NAME } in BIASES
 *      below, and build_bias in step 2.
 *   2. Its row at the end of SCHEMES: [SCHEME_NAME] = { the --scheme
 *      name, the formula of S in UTF-8 and ASCII (without and with
 *      content), toeplitz, split, build_NAME, what it has (enum
 *      scheme_has: the compare view's pane headers say only that) and
 *      heads (1 when its bias differs per head) }.
 *   3. SCHEME_NAME at the end of enum scheme (peviz/scores.h), in the
 *      row's place: BIASES is indexed by it, and tests/lib/test_scores.c's
 *      direct_at switch names the scheme to check its scores against
 *      the formula written out there (a case SCHEME_NAME: return ...).
 *   4. make docs (every list of schemes in the README and the man page);
 *      a command-line case in tests/schemes.sh.
 * A program can add one at run time instead: scheme_register.
 */
#include <stdio.h>
#include <string.h>

#include "peviz/fmt.h"
#include "peviz/scores.h"
#include "registry_impl.h"
#include "schemes_impl.h"

/* U+00B7 middle dot, subscript i (U+1D62) and j (U+2C7C). */
#define DOT "\xc2\xb7"
#define SUB_I "\xe1\xb5\xa2"
#define SUB_J "\xe2\xb1\xbc"
#define X_DOT_X "x" SUB_I DOT "x" SUB_J ", x = e + p"
#define X_DOT_X_ASCII "x_i.x_j, x = e + p"
#define SUB_1 "\xe2\x82\x81"
#define SUB_2 "\xe2\x82\x82"
#define SUB_K "\xe2\x82\x96"
#define SIGMA "\xce\xa3"
#define ZETA "\xce\xb6"
#define GAMMA "\xce\xb3"
#define OMEGA "\xcf\x89"
#define EE "e" SUB_I DOT "e" SUB_J " + "
#define T5_F "W[bucket(j-i), h]"
#define KL_F "-r" SUB_1 " ln(1 + r" SUB_2 "|i-j|)"
#define KL_A "-r1 ln(1 + r2|i-j|)"
#define KP_F "-r" SUB_1 "|i-j|^r" SUB_2
#define KP_A "-r1 |i-j|^r2"
#define SW_F "(" SIGMA SUB_K " cos((i-j)" OMEGA SUB_K ") - d/2) / (8h/H)"
#define SW_A "(sum_k cos((i-j)w_k) - d/2) / (8h/H)"
#define XP_F SIGMA SUB_K " " ZETA SUB_K "^((i-j)/" GAMMA ") [(R(i)q)" DOT \
             "(R(j)k)]" SUB_K
#define XP_A "sum_k zeta_k^((i-j)/gamma) [(R(i)q).(R(j)k)]_k"

/* PE(i).PE(j); with content x = e + PE in four terms. */
static void build_sinusoidal(struct score_ctx *s)
{
    scores_terms_additive(s, SK_PSIN, 1);
}

/* (R(i)q).(R(j)k); with content the embeddings are rotated.  A query
 * scale that varies (Ministral 3) scales the query side. */
static void build_rope(struct score_ctx *s)
{
    if (!s->o.content && scores_qscaled(s))
        scores_term_add(s, TERM_DOT, SK_RQG, s->o.q_random ? SK_RK : SK_RQ,
                        "gRq.Rk");
    else if (s->o.content)
        scores_term_add(s, TERM_DOT, SK_RE, SK_RE, "Re.Re");
    else    /* q = k (ones): one kind, so the term is symmetric */
        scores_term_add(s, TERM_DOT, SK_RQ, s->o.q_random ? SK_RK : SK_RQ,
                        "Rq.Rk");
}

/* The schemes whose S is a bias of i - j: the setup that reads their
 * options into the context (none for ALiBi), then their distance row. */
struct bias_row {
    void (*setup)(struct score_ctx *s);
    const struct dist_ops *dist;
};

static const struct bias_row BIASES[] = {
    [SCHEME_ALIBI] = { NULL, &DIST_ALIBI },
    [SCHEME_T5] = { t5_setup, &DIST_T5 },
    [SCHEME_KERPLE_LOG] = { kerple_setup, &DIST_KERPLE_LOG },
    [SCHEME_KERPLE_POWER] = { kerple_setup, &DIST_KERPLE_POWER },
    [SCHEME_SANDWICH] = { sandwich_setup, &DIST_SANDWICH },
};

/* The scheme's bias of i - j (its BIASES row), added to e.e with
 * content. */
static void build_bias(struct score_ctx *s)
{
    const struct bias_row *b = &BIASES[s->o.scheme];
    if (b->setup)
        b->setup(s);
    if (s->o.content)
        scores_term_add(s, TERM_DOT, SK_E, SK_E, "e.e");
    scores_dist_add(s, b->dist, "bias");
}

/* RoPE with a per-band decay; with content the scaled, rotated
 * embeddings themselves. */
static void build_xpos(struct score_ctx *s)
{
    xpos_setup(s);
    if (s->o.content)
        scores_term_add(s, TERM_DOT, SK_XQ, SK_XK, "Xe.Xe");
    else
        scores_dist_add(s, &DIST_XPOS, "xpos");
}

/* P(i).P(j), P the loaded table or the stand-in. */
static void build_learned(struct score_ctx *s)
{
    scores_terms_additive(s, SK_PL, 1);
}

/* Nothing from the positions: 0, or e.e with content, whose query side
 * Llama 4's temperature tuning scales (g(i) e_i).e_j. */
static void build_nope(struct score_ctx *s)
{
    if (s->o.content && scores_qscaled(s))
        scores_term_add(s, TERM_DOT, SK_EG, SK_E, "ge.e");
    else
        scores_terms_additive(s, SK_PSIN, 0);
}

const struct scheme_info SCHEMES[] = {
    [SCHEME_SINUSOIDAL] = { "sinusoidal",
        "PE(i)" DOT "PE(j)", "PE(i).PE(j)", X_DOT_X, X_DOT_X_ASCII,
        1, 1, build_sinusoidal,
        SCHEME_HAS_BANDS, 0 },
    [SCHEME_ROPE] = { "rope",
        "(R(i)q)" DOT "(R(j)k)", "(R(i)q).(R(j)k)",
        "(R(i)e" SUB_I ")" DOT "(R(j)e" SUB_J ")", "(R(i)e_i).(R(j)e_j)",
        1, 0, build_rope,
        SCHEME_HAS_BANDS, 0 },
    [SCHEME_ALIBI] = { "alibi",
        "-m|i-j|", "-m|i-j|",
        "e" SUB_I DOT "e" SUB_J " - m|i-j|", "e_i.e_j - m|i-j|",
        1, 0, build_bias,
        SCHEME_HAS_SLOPES, 1 },
    [SCHEME_LEARNED] = { "learned",
        "P(i)" DOT "P(j)", "P(i).P(j)", X_DOT_X, X_DOT_X_ASCII,
        0, 1, build_learned,
        SCHEME_HAS_ROWS, 0 },
    [SCHEME_NOPE] = { "nope",
        "0 (no position signal)", "0 (no position signal)",
        X_DOT_X, X_DOT_X_ASCII, 1, 0, build_nope,
        SCHEME_HAS_NOTHING, 0 },
    [SCHEME_T5] = { "t5", T5_F, T5_F, EE T5_F, "e_i.e_j + " T5_F,
        1, 0, build_bias,
        SCHEME_HAS_BUCKETS, 1 },
    [SCHEME_KERPLE_LOG] = { "kerple-log", KL_F, KL_A, EE KL_F,
        "e_i.e_j + " KL_A, 1, 0, build_bias,
        SCHEME_HAS_KERNEL, 0 },
    [SCHEME_KERPLE_POWER] = { "kerple-power", KP_F, KP_A, EE KP_F,
        "e_i.e_j + " KP_A, 1, 0, build_bias,
        SCHEME_HAS_KERNEL, 0 },
    [SCHEME_SANDWICH] = { "sandwich", SW_F, SW_A, EE SW_F, "e_i.e_j + " SW_A,
        1, 0, build_bias,
        SCHEME_HAS_BANDS, 1 },
    [SCHEME_XPOS] = { "xpos", XP_F, XP_A,
        "(R" ZETA "(i)e" SUB_I ")" DOT "(R" ZETA "(j)e" SUB_J ")",
        "(Rz(i)e_i).(Rz(j)e_j)", 1, 0, build_xpos,
        SCHEME_HAS_BANDS, 0 },
};

/* The built-in rows, then those registered at run time. */
static const void *extra[SCHEME_MAX];
static struct registry table = {
    SCHEMES, sizeof SCHEMES[0], sizeof SCHEMES / sizeof SCHEMES[0], extra,
    SCHEME_MAX, 0
};

int scheme_count(void)
{
    return registry_count(&table);
}

const struct scheme_info *scheme_info(int s)
{
    return registry_row(&table, s);
}

int scheme_register(const struct scheme_info *si)
{
    if (!si || !si->name || !si->name[0] || !si->build
        || scheme_parse(si->name) >= 0)
        return -1;
    return registry_add(&table, si);
}

const char *scheme_has_name(int has)
{
    static const char *const NAMES[SCHEME_HAS_COUNT] = {
        [SCHEME_HAS_NOTHING] = "nothing", [SCHEME_HAS_BANDS] = "bands",
        [SCHEME_HAS_BUCKETS] = "buckets", [SCHEME_HAS_SLOPES] = "slopes",
        [SCHEME_HAS_KERNEL] = "kernel", [SCHEME_HAS_ROWS] = "rows",
    };
    return has >= 0 && has < SCHEME_HAS_COUNT ? NAMES[has] : "?";
}

const char *scheme_name(enum scheme s)
{
    const struct scheme_info *si = scheme_info((int)s);
    return si ? si->name : "?";
}

int scheme_parse(const char *name)
{
    for (int i = 0; name && i < scheme_count(); i++)
        if (strcmp(name, scheme_info(i)->name) == 0)
            return i;
    return -1;
}

const char *scheme_list(char *buf, size_t len)
{
    const char *names[SCHEME_MAX];
    for (int i = 0; i < scheme_count(); i++)
        names[i] = scheme_info(i)->name;
    return fmt_names(buf, len, names, scheme_count(), " or ");
}

const char *schemes_formula(const struct score_ctx *s, int ascii)
{
    const struct scheme_info *si = scheme_info(s->o.scheme);
    if (s->o.scheme == SCHEME_NOPE && s->qk_given && !s->o.content)
        return scores_qscaled(s) ? ascii ? "g(i) q.k" : "g(i) q" DOT "k"
                                 : ascii ? "q.k" : "q" DOT "k";
    if (s->o.content)
        return ascii ? si->formula_content_ascii : si->formula_content;
    return ascii ? si->formula_ascii : si->formula;
}
