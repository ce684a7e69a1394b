/* SPDX-License-Identifier: ISC */
/*
 * gguf_config.h - RoPE settings from a llama.cpp GGUF file's metadata
 * (ARCH.rope.freq_base, .rope.dimension_count, .context_length,
 * .rope.scaling.type/factor/original_context_length/yarn_beta_fast/
 * yarn_beta_slow/finetuned, DeepSeek's yarn_log_multiplier; see
 * gguf_config.c) and, when present,
 * the rope_freqs.weight tensor of per-band divisors; the layer types
 * and masks of gguf_mask.h.  Reads the header and that one tensor, never
 * the weights.
 */
#ifndef PEVIZ_GGUF_CONFIG_H
#define PEVIZ_GGUF_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "params.h"

/* Set p's d, base and scaling from path, those of layer_type (NULL: the
 * main keys'; gguf_mask.h); 0, or -1 with one line in err naming the
 * file and the key. */
int gguf_config_load(const char *path, const char *layer_type, params *p,
                     char *err, size_t errlen);

/* The same from len bytes of memory (named name in messages). */
int gguf_config_load_buffer(const char *name, const unsigned char *buf,
                            size_t len, params *p, char *err, size_t errlen);

/* The mask of the layer type in force (layer_type; else the full layers
 * when the sliding ones take RoPE settings of their own, else layer 0's)
 * into *m: 0, or -1 when path is not a readable GGUF file. */
struct config_mask;
int gguf_config_mask(const char *path, const char *layer_type,
                     struct config_mask *m);

/* The layer type in force into name when the status line should name it
 * (given, or other than layer 0's): 1 when its layers have no RoPE, 0
 * when they have; -1 otherwise. */
int gguf_config_layer(const char *path, const char *layer_type, char *name,
                      size_t len);

/* The type of layer i into name: 0, or -1 with one line in err. */
int gguf_config_layer_at(const char *path, int64_t i, char *name, size_t len,
                         char *err, size_t errlen);

#endif
