/* SPDX-License-Identifier: ISC */
/*
 * mpos_config.h - the M-RoPE settings of a transformers config.json:
 * rope_scaling (or rope_parameters).mrope_section and mrope_interleaved,
 * at the top level or in text_config, and vision_config's
 * spatial_merge_size and tokens_per_second.
 */
#ifndef PEVIZ_MPOS_CONFIG_H
#define PEVIZ_MPOS_CONFIG_H

#include <stddef.h>

#include "peviz/mpos.h"

/*
 * Read them from the file at path into m (keys it does not hold keep
 * m's values; a GGUF file holds none).  An interleaved layout is
 * Qwen3-VL's, which also splits videos into frames.  0, or -1 with one
 * line in err naming the file and the key.
 */
int mpos_config_load(const char *path, struct mpos_conf *m, char *err,
                     size_t errlen);

#endif
