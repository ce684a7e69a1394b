/* SPDX-License-Identifier: ISC */
/*
 * png_out.h - an RGB image (raster.h) as PNG, through libpng.
 */
#ifndef PEVIZ_PNG_OUT_H
#define PEVIZ_PNG_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "raster.h"

/* PNG bytes of im into a new buffer *buf (free it), *len bytes: 0, or
 * -1 when libpng fails or memory runs out. */
int png_encode(const struct image *im, uint8_t **buf, size_t *len);

/* PNG of im written to f: 0, or -1 on an encoding or write error. */
int png_write(FILE *f, const struct image *im);

#endif
