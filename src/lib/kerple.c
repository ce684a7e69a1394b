/*
 * kerple.c - KERPLE's kernelised biases (chijames/KERPLE, NeMo
 * kerple_relative_position_embedding.py): log -r1 ln(1 + r2 |i - j|) and
 * power -r1 |i - j|^r2, r1, r2 > 0 (power: r2 <= 2); learned per head in
 * the model, given here by --r1 and --r2.
 */
#include "peviz/scores.h"
#include "schemes_impl.h"

#include <math.h>

void kerple_setup(struct score_ctx *s)
{
    int power = s->o.scheme == SCHEME_KERPLE_POWER;
    s->r1 = isfinite(s->o.r1) && s->o.r1 > 0 ? s->o.r1 : 1.0;
    s->r2 = isfinite(s->o.r2) && s->o.r2 > 0 && (!power || s->o.r2 <= 2)
            ? s->o.r2 : 0.5;
}

static double dist(int64_t delta)
{
    return (double)(delta < 0 ? -delta : delta);
}

static double log_at(const struct score_ctx *s, int64_t delta)
{
    return -s->r1 * log1p(s->r2 * dist(delta));
}

static double power_at(const struct score_ctx *s, int64_t delta)
{
    return delta == 0 ? 0.0 : -s->r1 * pow(dist(delta), s->r2);
}

const struct dist_ops DIST_KERPLE_LOG = { log_at, NULL, NULL, NULL, NULL };
const struct dist_ops DIST_KERPLE_POWER = { power_at, NULL, NULL, NULL, NULL };
