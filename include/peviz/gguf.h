/* SPDX-License-Identifier: ISC */
/*
 * peviz/gguf.h - read a GGUF file's header: metadata and the tensor
 * directory, and one tensor's values, without reading the weights.
 *
 * Format (ggml docs/gguf.md), all little-endian:
 *   "GGUF"  u32 version (2 or 3)  u64 tensor_count  u64 kv_count
 *   kv_count times:  string key, u32 value type, value
 *   tensor_count times:  string name, u32 n_dims, u64 ne[n_dims]
 *                        (innermost first: ne[0] is the row length),
 *                        u32 ggml type, u64 offset (from the data start)
 *   padding to general.alignment (u32, a power of two, default 32)
 *   the tensor data
 * A string is u64 length + bytes (no terminator); an array is u32 item
 * type + u64 count + items (arrays of arrays are refused).
 *
 * Everything is bounded before it is allocated: keys and tensor names,
 * string lengths, array counts, the number of keys and tensors and the
 * total header size; a tensor must lie inside the file.  A file that
 * breaks a rule gets one line "FILE: what is wrong" in err and -1.
 *
 * Opening reads the header only (sequentially, in small blocks).  Long
 * strings and arrays are not kept in memory: an entry records where in
 * the file they are, and gguf_kv_array_number() reads one item by offset.
 */
#ifndef PEVIZ_GGUF_H
#define PEVIZ_GGUF_H

#include <stddef.h>
#include <stdint.h>

/* Metadata value types (the u32 in the file). */
enum gguf_type {
    GGUF_UINT8 = 0, GGUF_INT8 = 1, GGUF_UINT16 = 2, GGUF_INT16 = 3,
    GGUF_UINT32 = 4, GGUF_INT32 = 5, GGUF_FLOAT32 = 6, GGUF_BOOL = 7,
    GGUF_STRING = 8, GGUF_ARRAY = 9, GGUF_UINT64 = 10, GGUF_INT64 = 11,
    GGUF_FLOAT64 = 12
};

/* ggml tensor types gguf_read_tensor() converts (others are listed in the
 * directory and refused when read). */
#define GGML_TYPE_F32  0
#define GGML_TYPE_F16  1
#define GGML_TYPE_F64  28
#define GGML_TYPE_BF16 30

#define GGUF_MAX_DIMS        4
#define GGUF_MAX_NAME        64            /* tensor name bytes (ggml) */
#define GGUF_MAX_KEY         1024          /* metadata key bytes */
#define GGUF_MAX_STRING      (1u << 24)    /* one string value: 16 MiB */
#define GGUF_KEPT_STRING     4096          /* longer strings stay on disk */
#define GGUF_MAX_ARRAY       (UINT64_C(1) << 28)
#define GGUF_MAX_KV          65536
#define GGUF_MAX_TENSORS     65536
#define GGUF_MAX_HEADER      (UINT64_C(256) << 20)   /* bytes */
#define GGUF_DEFAULT_ALIGNMENT 32

struct gguf_kv {
    const char *key;            /* NUL-terminated */
    enum gguf_type type;
    /* Scalars (type is not STRING or ARRAY): the value in every form that
     * holds it exactly: u for unsigned and bool, i for signed, f for all
     * numbers (exact for 8..32-bit integers and floats). */
    uint64_t u;
    int64_t i;
    double f;
    /* STRING: str (NUL-terminated, NULL when longer than
     * GGUF_KEPT_STRING), its length, and where its bytes start. */
    const char *str;
    uint64_t str_len;
    uint64_t str_offset;
    /* ARRAY: item type, count, and the file offset of the first item. */
    enum gguf_type arr_type;
    uint64_t arr_count;
    uint64_t arr_offset;
};

struct gguf_tensor {
    char name[GGUF_MAX_NAME + 1];
    uint32_t n_dims;
    uint64_t ne[GGUF_MAX_DIMS];     /* innermost first; unused dims are 1 */
    uint32_t type;                  /* ggml type */
    uint64_t offset;                /* from the data start */
    uint64_t nelements;             /* product of ne */
    uint64_t nbytes;                /* 0 when the type's size is unknown */
};

struct gguf;

/* Open and parse path's header (the file stays open for reads). */
int gguf_open(const char *path, struct gguf **out, char *err, size_t errlen);

/* The same over len bytes of memory (not copied; keep it alive). */
int gguf_open_buffer(const char *name, const unsigned char *buf, size_t len,
                     struct gguf **out, char *err, size_t errlen);

void gguf_close(struct gguf *g);                    /* NULL is fine */

uint32_t gguf_version(const struct gguf *g);
uint32_t gguf_alignment(const struct gguf *g);
uint64_t gguf_data_offset(const struct gguf *g);    /* absolute */

size_t gguf_kv_count(const struct gguf *g);
const struct gguf_kv *gguf_kv_at(const struct gguf *g, size_t i);
const struct gguf_kv *gguf_find_kv(const struct gguf *g, const char *key);

/* A numeric or bool scalar as a double: 0, or -1 if kv is NULL or not a
 * number (strings and arrays). */
int gguf_kv_number(const struct gguf_kv *kv, double *out);

/* Item idx of a numeric or bool array, read from the file: 0, or -1 with
 * err (not such an array, idx out of range, a read error). */
int gguf_kv_array_number(const struct gguf *g, const struct gguf_kv *kv,
                         uint64_t idx, double *out, char *err, size_t errlen);

size_t gguf_tensor_count(const struct gguf *g);
const struct gguf_tensor *gguf_tensor_at(const struct gguf *g, size_t i);
const struct gguf_tensor *gguf_find_tensor(const struct gguf *g,
                                           const char *name);

/* "F32", "Q4_K", ... or "type N" for an unknown ggml type (buf holds it). */
const char *gguf_type_name(uint32_t ggml_type, char *buf, size_t len);

/*
 * The tensor's values as doubles (exact), in file order (ne[0] fastest),
 * into out[0 .. t->nelements-1]; only its bytes are read, in blocks.
 * Types F32, F16, BF16 and F64; a NaN or infinity is refused naming its
 * place ("row R, column C" for 2-D: row = index / ne[0]).
 * Returns 0, or -1 with err.
 */
int gguf_read_tensor(const struct gguf *g, const struct gguf_tensor *t,
                     double *out, char *err, size_t errlen);

#endif
