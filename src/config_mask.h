/* SPDX-License-Identifier: ISC */
/*
 * config_mask.h - the attention mask a transformers config.json gives a
 * layer type, as transformers applies it (masking_utils.py):
 *   sliding_attention   key j seen from query i when i - W < j <= i,
 *                       W = sliding_window
 *   chunked_attention   j <= i and floor(j / C) = floor(i / C),
 *                       C = attention_chunk_size (Llama 4's RoPE layers)
 *   full_attention and any other type: causal only.
 * Without layer_types each layer's type is the one its class makes:
 *   gemma2, gpt_oss       sliding when (i + 1) % 2, else full
 *   gemma3(_text)         sliding when (i + 1) % sliding_window_pattern
 *                         (default 6), else full
 *   gemma4(_text)         the same with 6, the last layer full
 *   llama4(_text)         no_rope_layers[i] 1: chunked, 0: full (NoPE);
 *                         without it layers (i + 1) % 4 == 0 are NoPE
 *   use_sliding_window    (Qwen2 and its kin) sliding when it is true and
 *                         i >= max_window_layers (default 28), else full
 *   any other             sliding when sliding_window is a number
 *                         (Mistral: every layer), else full
 * Qwen2's sliding_window counts only when use_sliding_window is true; a
 * Gemma that attends both ways (use_bidirectional_attention true or
 * "all") has no causal window to show, and its note says so.
 * A null sliding_window or attention_chunk_size is no mask; a missing one
 * is the class's default (mistral, gemma2, gemma3 4096; gpt_oss 128;
 * llama4 8192); any other value than a whole number in 1..PARAM_N_MAX
 * is no size (config_mask.bad).  gpt-oss's sink logits are weights, not
 * settings: a config has none, and a gpt_oss file's note says so.
 */
#ifndef PEVIZ_CONFIG_MASK_H
#define PEVIZ_CONFIG_MASK_H

#include <stddef.h>
#include <stdint.h>

#include "peviz/json.h"

/* The mask of one layer type, and where it came from. */
struct config_mask {
    int64_t window, chunk;      /* 0: none */
    int nope;                   /* the type's layers have no RoPE
                                   (Llama 4's full_attention) */
    char layer[64];             /* the layer type */
    char note[112];             /* "window 1024 from sliding_window", or "" */
    const char *bad;            /* the key whose value is no size (not a
                                   whole number in 1..PARAM_N_MAX), or NULL:
                                   then no mask */
};

/* Whether some layer of the config (its text part, root) is of type
 * name; never for a file that says nothing of its layers (no
 * layer_types, sliding or chunk settings, nor a family above). */
int config_mask_has_layer(const json_value *root, const char *name);

/* The type of layer i, and the layers the file has into *layers (0 when
 * it says nothing of them); NULL past them. */
const char *config_mask_layer_name(const json_value *root, int64_t i,
                                   int64_t *layers);

/* Layer i's type t (of layers) into name, or why there is none into err
 * (what: "config.json" or "GGUF file" when the file was unreadable,
 * nothing: what a file without layers lacks): 0, or -1. */
int config_mask_answer(const char *path, const char *t, int64_t i,
                       int64_t layers, int readable, const char *what,
                       const char *nothing, char *name, size_t len,
                       char *err, size_t errlen);

/* The config's layer types, each once in the order of its layers,
 * ", " between, into buf ("" for a file that says nothing of its
 * layers). */
void config_mask_names(const json_value *root, char *buf, size_t len);

/* The mask of layer type name (NULL: layer 0's) into *m. */
void config_mask_of(const json_value *root, const char *name,
                    struct config_mask *m);

#endif
