/* SPDX-License-Identifier: ISC */
/*
 * gguf_mask.h - the layer types and attention masks llama.cpp gives a
 * GGUF file's layers: its load_hparams sets them by architecture from
 * ARCH.block_count, ARCH.attention.sliding_window and, for Gemma 4,
 * the per-layer list ARCH.attention.sliding_window_pattern.
 *   arch     layers                            mask, when the file has it
 *   gemma2   sliding when i % 2 == 0            window (default 4096)
 *   gemma3   sliding unless i % 6 == 5          window > 0, else none
 *   gemma3n  sliding unless i % 5 == 4          window > 0
 *   cohere2  sliding unless i % 4 == 3          window > 0
 *   olmo2    sliding unless i % 4 == 3          window > 0, else none
 *   llama4   chunked unless i % 4 == 3 (those   chunk 8192, unless the
 *            full layers have no RoPE)          window key is 0
 *   gemma4   sliding where the list says 1      window > 0
 * The other layers are full_attention, causal only; another architecture
 * says nothing of its layers.  llama.cpp's sliding and chunked masks are
 * transformers' (config_mask.h): i - W < j <= i, and j in i's chunk.
 */
#ifndef PEVIZ_GGUF_MASK_H
#define PEVIZ_GGUF_MASK_H

#include <stddef.h>
#include <stdint.h>

#include "config_mask.h"

struct gguf;

/* The type of layer i of g and its layer count into *layers (0 when the
 * file says nothing of its layers); NULL past them. */
const char *gguf_mask_layer_name(const struct gguf *g, int64_t i,
                                 int64_t *layers);

/* Whether some layer of g is of type name. */
int gguf_mask_has_layer(const struct gguf *g, const char *name);

/* Its layer types (two at most), each once in the order of its layers,
 * ", " between ("" when it has none). */
void gguf_mask_names(const struct gguf *g, char *buf, size_t len);

/* The mask of layer type name (NULL: layer 0's) into *m. */
void gguf_mask_of(const struct gguf *g, const char *name,
                  struct config_mask *m);

/*
 * The RoPE base the sliding layers use, given the file's main one: 10000
 * for gemma3 and gemma3n (llama.cpp's, whatever the file says), Gemma 4's
 * ARCH.rope.freq_base_swa when the file has it, else the main base;
 * *unscaled is 1 when the sliding layers take no scaling (gemma3 and
 * gemma3n), else 0.
 */
double gguf_mask_swa_base(const struct gguf *g, double base, int *unscaled);

#endif
