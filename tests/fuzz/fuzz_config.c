/* SPDX-License-Identifier: ISC */
/*
 * fuzz_config.c - libFuzzer harness for config.json and GGUF import: any
 * input is refused with one line naming the file, or gives settings that
 * pass params_check_rope and evaluate to finite, positive frequencies with
 * finite wavelengths.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "gguf_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const params *p)
{
    char err[256];
    static double w[PARAM_D_MAX / 2];
    if (params_check_rope(p, err, sizeof err))
        abort();
    if (p->d > 4096)                /* the values of huge d cost time only */
        return;
    for (int64_t n = 1; n <= 1 << 20; n <<= 10) {
        if (rope_inv_freq(&p->rope, p->d, p->base, n, w, NULL))
            abort();
        for (int i = 0; i < p->d / 2; i++)
            if (!(w[i] > 0) || !isfinite(w[i]) || !isfinite(6.283185307179586 / w[i]))
                abort();
        double m = rope_score_multiplier(&p->rope);
        if (!(m > 0) || !isfinite(m))
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const layers[2] = { NULL, "full_attention" };
    for (int k = 0; k < 2; k++) {
        params p;
        char err[512];
        params_default(&p);
        err[0] = 0;
        if (config_load_json("f.json", (const char *)data, size, layers[k], &p,
                             err, sizeof err) == 0)
            check(&p);
        else if (strncmp(err, "f.json: ", 8) != 0 || strchr(err, '\n'))
            abort();               /* one line, naming the file */
    }
    if (size >= 4 && memcmp(data, "GGUF", 4) == 0) {
        params p;
        char err[512];
        params_default(&p);
        err[0] = 0;
        if (gguf_config_load_buffer("f.gguf", data, size, &p, err,
                                    sizeof err) == 0)
            check(&p);
        else if (strncmp(err, "f.gguf: ", 8) != 0 || strchr(err, '\n'))
            abort();
    }
    return 0;
}
