/* SPDX-License-Identifier: ISC */
/*
 * png_out.c - PNG through libpng into memory (png_out.h): 8-bit RGB, no
 * interlace, zlib's default compression.
 */
#include "png_out.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

struct membuf {
    uint8_t *p;
    size_t len, cap;
    int failed;
};

static void mem_write(png_structp png, png_bytep data, png_size_t n)
{
    struct membuf *m = png_get_io_ptr(png);
    if (m->failed)
        return;
    if (m->len + n > m->cap) {
        size_t cap = m->cap ? m->cap : 4096;
        while (cap < m->len + n)
            cap *= 2;
        uint8_t *q = realloc(m->p, cap);
        if (!q) {
            m->failed = 1;
            return;
        }
        m->p = q;
        m->cap = cap;
    }
    memcpy(m->p + m->len, data, n);
    m->len += n;
}

static void mem_flush(png_structp png)
{
    (void)png;
}

/* The rows of im into png (setjmp'd by the caller). */
static void encode_rows(png_structp png, png_infop info, const struct image *im)
{
    png_set_IHDR(png, info, (png_uint_32)im->w, (png_uint_32)im->h, 8,
                 PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < im->h; y++)
        png_write_row(png, im->rgb + (size_t)y * (size_t)im->w * 3);
    png_write_end(png, NULL);
}

/* One encoding into m: 0, or -1.  The longjmp of a libpng error lands
 * here, where nothing but png's own state lives. */
static int encode_into(struct membuf *m, const struct image *im)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL,
                                              NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_set_write_fn(png, m, mem_write, mem_flush);
    encode_rows(png, info, im);
    png_destroy_write_struct(&png, &info);
    return m->failed ? -1 : 0;
}

int png_encode(const struct image *im, uint8_t **buf, size_t *len)
{
    struct membuf m = { NULL, 0, 0, 0 };
    *buf = NULL;
    *len = 0;
    if (im->w < 1 || im->h < 1 || encode_into(&m, im) < 0) {
        free(m.p);
        return -1;
    }
    *buf = m.p;
    *len = m.len;
    return 0;
}

int png_write(FILE *f, const struct image *im)
{
    uint8_t *buf;
    size_t len;
    if (png_encode(im, &buf, &len) < 0)
        return -1;
    int r = fwrite(buf, 1, len, f) == len ? 0 : -1;
    free(buf);
    return r;
}
