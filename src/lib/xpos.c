/*
 * xpos.c - xPos (torchscale xpos_relative_position.py): RoPE whose band k
 * is also scaled, the query at m by zeta_k^(m/gamma) and the key at n by
 * zeta_k^(-n/gamma), zeta_k = (2k + 0.4 d) / (1.4 d), gamma the scale
 * base (512).  Each band's term of the score is multiplied by
 * zeta_k^((m - n)/gamma), so S depends on i - j alone:
 *   S = sum_k zeta_k^((i-j)/gamma) (a_k cos((i-j) w_k) + b_k sin(..)),
 * a_k, b_k RoPE's coefficients of q and k (q = k = ones: a_k = 2).
 * zeta < 1: the past decays; the future (j > i) grows, which is why
 * xPos is meant for causal attention.
 */
#include "peviz/scores.h"
#include "schemes_impl.h"

#include <math.h>

void xpos_setup(struct score_ctx *s)
{
    s->xpos_gamma = isfinite(s->o.xpos_base) && s->o.xpos_base > 0
                    ? s->o.xpos_base : 512.0;
    double r = s->rotary;       /* partial rotary: the rest do not decay */
    for (int k = 0; k < s->half; k++)
        s->dband[k] = k < s->rotary / 2 ? (2.0 * k + 0.4 * r) / (1.4 * r)
                                        : 1.0;
}

static double xpos_at(const struct score_ctx *s, int64_t delta)
{
    double sum = 0.0, dl = (double)delta, e = dl / s->xpos_gamma;
    for (int k = 0; k < s->half; k++) {
        double t = dl * s->omega[k];
        sum += pow(s->dband[k], e) * (s->ra[k] * cos(t) + s->rb[k] * sin(t));
    }
    return sum;
}

const struct dist_ops DIST_XPOS = { xpos_at, NULL, NULL, NULL, NULL };
