/*
 * schemes.c - the attention schemes: the SCHEMES table (names, formula
 * text, properties) and each scheme's build function, which says what S
 * is made of (see peviz/scores.h).  Adding a scheme: a value in enum
 * scheme, its entry here and its build function (here or in a file of
 * its own under src/lib/); the rest of the library, the command line,
 * the prompt and the views go by the table.
 */
#include <stdio.h>
#include <string.h>

#include "peviz/scores.h"

/* U+00B7 middle dot, subscript i (U+1D62) and j (U+2C7C). */
#define DOT "\xc2\xb7"
#define SUB_I "\xe1\xb5\xa2"
#define SUB_J "\xe2\xb1\xbc"
#define X_DOT_X "x" SUB_I DOT "x" SUB_J ", x = e + p"
#define X_DOT_X_ASCII "x_i.x_j, x = e + p"

/* PE(i).PE(j); with content x = e + PE in four terms. */
static void build_sinusoidal(struct score_ctx *s)
{
    scores_terms_additive(s, SK_PSIN, 1);
}

/* (R(i)q).(R(j)k); with content the embeddings are rotated. */
static void build_rope(struct score_ctx *s)
{
    if (s->o.content)
        scores_term_add(s, TERM_DOT, SK_RE, SK_RE, "Re.Re");
    else    /* q = k (ones): one kind, so the term is symmetric */
        scores_term_add(s, TERM_DOT, SK_RQ, s->o.q_random ? SK_RK : SK_RQ,
                        "Rq.Rk");
}

/* -m|i-j|, added to e.e with content. */
static void build_alibi(struct score_ctx *s)
{
    if (s->o.content)
        scores_term_add(s, TERM_DOT, SK_E, SK_E, "e.e");
    scores_term_add(s, TERM_ALIBI, SK_E, SK_E, "bias");
}

/* P(i).P(j), P the loaded table or the stand-in. */
static void build_learned(struct score_ctx *s)
{
    scores_terms_additive(s, SK_PL, 1);
}

/* Nothing from the positions: 0, or e.e with content. */
static void build_nope(struct score_ctx *s)
{
    scores_terms_additive(s, SK_PSIN, 0);
}

const struct scheme_info SCHEMES[SCHEME_COUNT] = {
    [SCHEME_SINUSOIDAL] = { "sinusoidal",
        "PE(i)" DOT "PE(j)", "PE(i).PE(j)", X_DOT_X, X_DOT_X_ASCII,
        1, 1, build_sinusoidal },
    [SCHEME_ROPE] = { "rope",
        "(R(i)q)" DOT "(R(j)k)", "(R(i)q).(R(j)k)",
        "(R(i)e" SUB_I ")" DOT "(R(j)e" SUB_J ")", "(R(i)e_i).(R(j)e_j)",
        1, 0, build_rope },
    [SCHEME_ALIBI] = { "alibi",
        "-m|i-j|", "-m|i-j|",
        "e" SUB_I DOT "e" SUB_J " - m|i-j|", "e_i.e_j - m|i-j|",
        1, 0, build_alibi },
    [SCHEME_LEARNED] = { "learned",
        "P(i)" DOT "P(j)", "P(i).P(j)", X_DOT_X, X_DOT_X_ASCII,
        0, 1, build_learned },
    [SCHEME_NOPE] = { "nope",
        "0 (no position signal)", "0 (no position signal)",
        X_DOT_X, X_DOT_X_ASCII, 1, 0, build_nope },
};

const char *scheme_name(enum scheme s)
{
    return (unsigned)s < SCHEME_COUNT ? SCHEMES[s].name : "?";
}

int scheme_parse(const char *name)
{
    for (int i = 0; name && i < SCHEME_COUNT; i++)
        if (strcmp(name, SCHEMES[i].name) == 0)
            return i;
    return -1;
}

const char *scheme_list(char *buf, size_t len)
{
    size_t used = 0;
    if (len)
        buf[0] = 0;
    for (int i = 0; i < SCHEME_COUNT && used < len; i++) {
        const char *sep = i == 0 ? "" : i == SCHEME_COUNT - 1 ? " or " : ", ";
        int w = snprintf(buf + used, len - used, "%s%s", sep, SCHEMES[i].name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return buf;
}

const char *scores_formula(const struct score_ctx *s, int ascii)
{
    const struct scheme_info *si = &SCHEMES[s->o.scheme];
    if (s->o.content)
        return ascii ? si->formula_content_ascii : si->formula_content;
    return ascii ? si->formula_ascii : si->formula;
}
