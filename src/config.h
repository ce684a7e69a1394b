/* SPDX-License-Identifier: ISC */
/*
 * config.h - RoPE settings from a model's files: a transformers
 * config.json (v4 rope_theta + rope_scaling, v5 rope_parameters, also per
 * layer type) or a llama.cpp GGUF file's metadata.
 */
#ifndef PEVIZ_CONFIG_H
#define PEVIZ_CONFIG_H

#include <stddef.h>

#include "params.h"

/* Largest config.json read (bytes). */
#define CONFIG_MAX_BYTES (16L << 20)

/*
 * Read path and set p's d (rotary dimensions), base and scaling; every
 * value goes through params.c.  layer_type picks an entry of a per-layer
 * rope_parameters (NULL: the first with RoPE); a null entry is a layer
 * without RoPE (d from the head dim, the base kept unless given).  Returns 0, or -1 with one line in
 * err naming the file and the key ("config.json: key 'rope_theta':
 * missing"); p is then unchanged.
 */
int config_load(const char *path, const char *layer_type, params *p,
                char *err, size_t errlen);

/*
 * The layer type in force of a config.json whose RoPE settings differ by
 * layer type (layer_type, or NULL: the first with RoPE) into name:
 * 0 a layer type with RoPE, 1 one whose entry is null (no RoPE, a NoPE
 * layer), -1 when the file has one set of settings for every layer (or
 * is not a readable config.json).
 */
int config_layer(const char *path, const char *layer_type, char *name,
                 size_t len);

/*
 * Where a value came from when config.json was silent and the model's
 * class sets it (a table keyed by model_type: glm4_moe's rotary 0.5):
 * 1 with "rotary 0.5 (glm4_moe class default)" in note ("head_dim 512,
 * rotary 0.125 (deepseek_v4 class defaults)" for several), else 0.
 */
int config_class_note(const char *path, const char *layer_type, char *note,
                      size_t len);

/*
 * The head dim of a config.json's layer type (qk_rope_head_dim, else
 * global_head_dim for Gemma 4's full layers, else head_dim, else
 * hidden_size / num_attention_heads) into *hd, and its
 * max_position_embeddings into *max_pos, each 0 when the file has none;
 * -1 when it has neither (or is not a readable config.json).
 */
int config_dims(const char *path, const char *layer_type, int *hd,
                int64_t *max_pos);

/*
 * The pairing of q and k dims the model family uses (enum qk_pairs in
 * peviz/scores.h): interleaved for GPT-J, CodeGen, ChatGLM, DeepSeek V4
 * and configs with rope_interleave true (DeepSeek V2/V3's checkpoints), half
 * (rotate_half) for the rest of transformers' families; -1 when path is
 * not a readable config.json (a GGUF file: its pairs are not read).
 */
int config_qk_pairs(const char *path);

/*
 * The attention mask config.json gives the layer type in force
 * (layer_type, or the one config_load reads, or layer 0's; see
 * config_mask.h) into *m: 0, or -1 when path is not a readable
 * config.json or its settings are refused (*m then holds no mask).
 */
struct config_mask;
int config_mask(const char *path, const char *layer_type,
                struct config_mask *m);

/*
 * The type of layer i of a config.json (its layer_types, or the types its
 * class makes; see config_mask.h) into name: 0, or -1 with one line in
 * err (not a config.json, a file that says nothing of its layers, i past
 * its layers).
 */
int config_layer_at(const char *path, int64_t i, char *name, size_t len,
                    char *err, size_t errlen);

/* Ministral 3's llama_4_scaling_beta (rope_parameters or rope_scaling,
 * also under text_config), or 0 when the config has none. */
double config_llama4_beta(const char *path);

/* The regular file at path (opened without waiting; a FIFO or device is
 * refused) in a new buffer of *n bytes, at most CONFIG_MAX_BYTES + 1 of
 * them, or only the magic "GGUF" of a GGUF file; NULL with one line in
 * err. */
char *config_read(const char *path, size_t *n, char *err, size_t errlen);

/* config.json text parsed within the config limits, a UTF-8 byte-order
 * mark skipped; NULL with the reason in jerr. */
struct json_value;
struct json_value *config_json(const char *text, size_t len, char *jerr,
                               size_t jerrlen);

/* The same on a config.json already in memory (name: for messages). */
int config_load_json(const char *name, const char *text, size_t len,
                     const char *layer_type, params *p,
                     char *err, size_t errlen);

#endif
