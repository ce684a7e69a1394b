/* SPDX-License-Identifier: ISC */
/*
 * gguf_config.h - RoPE settings from a llama.cpp GGUF file's metadata
 * (ARCH.rope.freq_base, .rope.dimension_count, .context_length,
 * .rope.scaling.type/factor/original_context_length/yarn_beta_fast/
 * yarn_beta_slow/finetuned, DeepSeek's yarn_log_multiplier; see
 * gguf_config.c) and, when present,
 * the rope_freqs.weight tensor of per-band divisors.  Reads the header
 * and that one tensor, never the weights.
 */
#ifndef PEVIZ_GGUF_CONFIG_H
#define PEVIZ_GGUF_CONFIG_H

#include <stddef.h>

#include "params.h"

/* Set p's d, base and scaling from path; 0, or -1 with one line in err
 * naming the file and the key. */
int gguf_config_load(const char *path, params *p, char *err, size_t errlen);

/* The same from len bytes of memory (named name in messages). */
int gguf_config_load_buffer(const char *name, const unsigned char *buf,
                            size_t len, params *p, char *err, size_t errlen);

#endif
