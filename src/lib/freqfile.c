/* SPDX-License-Identifier: ISC */
/*
 * freqfile.c - read a dumped inv_freq vector (peviz/freqcheck.h) from
 * .npy, safetensors, GGUF or text.  Binary files are read by offset:
 * only the header and the chosen tensor's bytes, so a model checkpoint
 * holding a rotary inv_freq buffer opens at once.
 */
#define _POSIX_C_SOURCE 200809L   /* fdopen */
#include "peviz/freqcheck.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "peviz/gguf.h"
#include "peviz/json.h"
#include "peviz/tables.h"

#define TEXT_MAX (1 << 20)          /* a text dump: at most 1 MiB */
#define ST_HEADER_MAX (100000000)

struct src {
    const char *name;
    FILE *f;
    const unsigned char *buf;
    size_t len;
};

static int rd(const struct src *s, uint64_t off, void *out, size_t n)
{
    if (off > s->len || n > s->len - off)
        return -1;
    if (s->buf) {
        memcpy(out, s->buf + off, n);
        return 0;
    }
    if (fseek(s->f, (long)off, SEEK_SET) != 0)
        return -1;
    return fread(out, 1, n, s->f) == n ? 0 : -1;
}

static int ferr(const struct src *s, char *err, size_t errlen,
                const char *why)
{
    snprintf(err, errlen, "%s: %s", s->name, why);
    for (char *q = err; *q; q++)
        if ((unsigned char)*q < 0x20 || *q == 0x7f)
            *q = '?';
    return -1;
}

/* ---- element decoding ---------------------------------------------------- */

static double half_to_double(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY)
                                                : ldexp(m + 1024, e - 25);
    return h & 0x8000 ? -v : v;
}

static double decode(const unsigned char *p, enum freq_dtype t, int big)
{
    unsigned char b[8];
    int sz = t == FD_F64 ? 8 : t == FD_F32 ? 4 : 2;
    for (int k = 0; k < sz; k++)
        b[k] = big ? p[sz - 1 - k] : p[k];
    if (t == FD_F64) {
        uint64_t u = 0;
        double v;
        for (int k = 7; k >= 0; k--)
            u = u << 8 | b[k];
        memcpy(&v, &u, 8);
        return v;
    }
    uint32_t u = 0;
    for (int k = sz - 1; k >= 0; k--)
        u = u << 8 | b[k];
    if (t == FD_F16)
        return half_to_double((uint16_t)u);
    if (t == FD_BF16)
        u <<= 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static int dtype_size(enum freq_dtype t)
{
    return t == FD_F64 ? 8 : t == FD_F32 ? 4 : 2;
}

/* count values of type t at off into f->v; finite and >= 0 (0: a band
 * that does not rotate, as proportional RoPE pads its bands). */
static int read_values(const struct src *s, uint64_t off, int64_t count,
                       enum freq_dtype t, int big, struct freq_file *f,
                       char *err, size_t errlen)
{
    unsigned char b[8];
    char why[96];
    if (count < 1 || count > FREQ_FILE_MAX) {
        snprintf(why, sizeof why, "%lld values; want 1..%d (d/2 bands, or each twice)",
                 (long long)count, FREQ_FILE_MAX);
        return ferr(s, err, errlen, why);
    }
    for (int64_t i = 0; i < count; i++) {
        if (rd(s, off + (uint64_t)i * (uint64_t)dtype_size(t), b,
               (size_t)dtype_size(t)))
            return ferr(s, err, errlen, "shorter than its header says");
        f->v[i] = decode(b, t, big);
        if (!isfinite(f->v[i]) || f->v[i] < 0) {
            snprintf(why, sizeof why, "value %lld is %g; want a finite "
                     "frequency >= 0", (long long)i, f->v[i]);
            return ferr(s, err, errlen, why);
        }
    }
    f->n = (int)count;
    f->dtype = t;
    f->tol = freq_dtype_tol(t);
    for (int i = 0; i < f->n; i++)
        f->tolv[i] = f->tol;
    return 0;
}

/* The one dimension > 1 of a shape (a vector, a row or a column). */
static int64_t vector_len(const int64_t *shape, int nd)
{
    int64_t len = 1;
    int big = 0;
    for (int k = 0; k < nd; k++) {
        if (shape[k] < 1)
            return -1;
        if (shape[k] > 1) {
            big++;
            len = shape[k];
        }
    }
    return big <= 1 ? len : -1;
}

/* ---- .npy ------------------------------------------------------------------ */

static int npy_descr(const char *h, enum freq_dtype *t, int *big)
{
    const char *p = strstr(h, "'descr'");
    if (!p || !(p = strchr(p + 7, '\'')))
        return -1;
    p++;
    *big = p[0] == '>';
    if (p[0] != '<' && p[0] != '>' && p[0] != '=' && p[0] != '|')
        return -1;
    if (!strncmp(p + 1, "f8'", 3))
        *t = FD_F64;
    else if (!strncmp(p + 1, "f4'", 3))
        *t = FD_F32;
    else if (!strncmp(p + 1, "f2'", 3))
        *t = FD_F16;
    else
        return -1;
    return 0;
}

static int npy_shape(const char *h, int64_t *shape, int *nd)
{
    const char *p = strstr(h, "'shape'");
    if (!p || !(p = strchr(p, '(')))
        return -1;
    *nd = 0;
    for (p++; *p && *p != ')';) {
        while (*p == ' ' || *p == ',')
            p++;
        if (*p == ')')
            break;
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || *nd >= 4)
            return -1;
        shape[(*nd)++] = v;
        p = end;
        while (*p == 'L' || *p == ' ')
            p++;
        if (*p != ',' && *p != ')')
            return -1;
    }
    return *p == ')' ? 0 : -1;
}

static int load_npy(const struct src *s, struct freq_file *f, char *err,
                    size_t errlen)
{
    unsigned char h8[12];
    char hdr[4097];
    if (rd(s, 0, h8, 12))
        return ferr(s, err, errlen, "a truncated .npy header");
    int major = h8[6];
    uint64_t hl = major == 1 ? (uint64_t)(h8[8] | h8[9] << 8)
                             : (uint64_t)h8[8] | (uint64_t)h8[9] << 8 |
                               (uint64_t)h8[10] << 16 | (uint64_t)h8[11] << 24;
    uint64_t at = major == 1 ? 10 : 12;
    if (major < 1 || major > 3 || hl >= sizeof hdr || rd(s, at, hdr, hl))
        return ferr(s, err, errlen, "a .npy header that cannot be read");
    hdr[hl] = 0;
    enum freq_dtype t;
    int big, nd;
    int64_t shape[4];
    if (npy_descr(hdr, &t, &big))
        return ferr(s, err, errlen, "a .npy dtype other than f2, f4 or f8");
    if (strstr(hdr, "'fortran_order': True") == NULL &&
        strstr(hdr, "'fortran_order': False") == NULL)
        return ferr(s, err, errlen, "a .npy header without fortran_order");
    if (npy_shape(hdr, shape, &nd))
        return ferr(s, err, errlen, "a .npy header whose shape cannot be read");
    int64_t n = nd == 0 ? 1 : vector_len(shape, nd);
    if (n < 0)
        return ferr(s, err, errlen, "not a vector: want shape (d/2,), "
                    "(1, d/2) or (d/2, 1)");
    snprintf(f->what, sizeof f->what, "npy %s", freq_dtype_name(t));
    return read_values(s, at + hl, n, t, big, f, err, errlen);
}

/* ---- safetensors ----------------------------------------------------------- */

static const json_value *st_pick(const struct src *s, const json_value *root,
                                 const char *tensor, char *err, size_t errlen)
{
    const json_value *one = NULL, *named = NULL;
    int count = 0;
    char why[300];
    if (tensor) {
        const json_value *t = json_get(root, tensor);
        if (!t || !strcmp(tensor, "__metadata__")) {
            snprintf(why, sizeof why, "no tensor '%.200s'", tensor);
            ferr(s, err, errlen, why);
        }
        return t && strcmp(tensor, "__metadata__") ? t : NULL;
    }
    for (size_t i = 0; i < json_count(root); i++) {
        const json_value *t = json_at(root, i);
        if (!strcmp(t->key, "__metadata__"))
            continue;
        count++;
        one = t;
        if (strstr(t->key, "inv_freq") && !named)
            named = t;
    }
    if (count == 1)
        return one;
    if (named)
        return named;
    ferr(s, err, errlen, count ? "several tensors and none named inv_freq: "
                                 "name one with --tensor" : "no tensors");
    return NULL;
}

static int st_dtype(const char *name, enum freq_dtype *t)
{
    static const struct { const char *n; enum freq_dtype t; } T[] = {
        { "F64", FD_F64 }, { "F32", FD_F32 }, { "F16", FD_F16 },
        { "BF16", FD_BF16 }
    };
    for (size_t k = 0; name && k < sizeof T / sizeof T[0]; k++)
        if (!strcmp(name, T[k].n)) {
            *t = T[k].t;
            return 0;
        }
    return -1;
}

static int st_tensor(const struct src *s, const json_value *t, uint64_t base,
                     struct freq_file *f, char *err, size_t errlen)
{
    const json_value *sh = json_get(t, "shape"), *of = json_get(t, "data_offsets");
    enum freq_dtype dt;
    int64_t shape[4];
    double b, e, x;
    int nd = sh ? (int)json_count(sh) : 0;
    if (t->type != JSON_OBJECT || st_dtype(json_string(json_get(t, "dtype")), &dt))
        return ferr(s, err, errlen, "the tensor's dtype is not F16, BF16, "
                    "F32 or F64");
    if (!sh || sh->type != JSON_ARRAY || nd > 4 || !of ||
        json_count(of) != 2 || json_number(json_at(of, 0), &b) ||
        json_number(json_at(of, 1), &e))
        return ferr(s, err, errlen, "the tensor's shape or data_offsets "
                    "cannot be read");
    for (int k = 0; k < nd; k++) {
        if (json_number(json_at(sh, (size_t)k), &x) || x < 0 || x > 1e9)
            return ferr(s, err, errlen, "the tensor's shape cannot be read");
        shape[k] = (int64_t)x;
    }
    int64_t n = nd == 0 ? 1 : vector_len(shape, nd);
    if (n < 0)
        return ferr(s, err, errlen, "not a vector: want shape [d/2] (or "
                    "one dimension > 1)");
    if (!(b >= 0) || e - b != (double)n * dtype_size(dt))
        return ferr(s, err, errlen, "data_offsets do not fit the shape");
    snprintf(f->what, sizeof f->what, "safetensors %.40s %s", t->key,
             freq_dtype_name(dt));
    return read_values(s, base + (uint64_t)b, n, dt, 0, f, err, errlen);
}

static int load_safetensors(const struct src *s, const char *tensor,
                            struct freq_file *f, char *err, size_t errlen)
{
    unsigned char b8[8];
    uint64_t hl = 0;
    if (rd(s, 0, b8, 8))
        return ferr(s, err, errlen, "not a safetensors file");
    for (int k = 7; k >= 0; k--)
        hl = hl << 8 | b8[k];
    if (hl > ST_HEADER_MAX || hl > s->len - 8)
        return ferr(s, err, errlen, "a safetensors header length past the file");
    char *h = malloc((size_t)hl + 1), jerr[160];
    if (!h || rd(s, 8, h, (size_t)hl)) {
        free(h);
        return ferr(s, err, errlen, "cannot read the safetensors header");
    }
    struct json_limits lim = { .max_bytes = (size_t)hl + 1, .max_depth = 16 };
    json_value *root = json_parse(h, (size_t)hl, &lim, jerr, sizeof jerr);
    free(h);
    int r = -1;
    if (!root || root->type != JSON_OBJECT) {
        ferr(s, err, errlen, "a safetensors header that is not a JSON object");
    } else {
        const json_value *t = st_pick(s, root, tensor, err, errlen);
        if (t)
            r = st_tensor(s, t, 8 + hl, f, err, errlen);
    }
    json_free(root);
    return r;
}

/* ---- GGUF ------------------------------------------------------------------ */

static int load_gguf(const struct src *s, const char *tensor,
                     struct freq_file *f, char *err, size_t errlen)
{
    struct gguf *g;
    double v[FREQ_FILE_MAX];
    char why[200], tn[32];
    if (s->buf ? gguf_open_buffer(s->name, s->buf, s->len, &g, err, errlen)
               : gguf_open(s->name, &g, err, errlen))
        return -1;
    const char *want = tensor ? tensor : "rope_freqs.weight";
    const struct gguf_tensor *t = gguf_find_tensor(g, want);
    int r = -1;
    if (!t) {
        snprintf(why, sizeof why, "no tensor '%.100s'", want);
        ferr(s, err, errlen, why);
    } else if (t->nelements < 1 || t->nelements > FREQ_FILE_MAX) {
        snprintf(why, sizeof why, "%s: %llu values; want 1..%d", t->name,
                 (unsigned long long)t->nelements, FREQ_FILE_MAX);
        ferr(s, err, errlen, why);
    } else if (gguf_read_tensor(g, t, v, err, errlen) == 0) {
        enum freq_dtype dt = t->type == GGML_TYPE_F64 ? FD_F64
                           : t->type == GGML_TYPE_F16 ? FD_F16
                           : t->type == GGML_TYPE_BF16 ? FD_BF16 : FD_F32;
        r = 0;
        for (uint64_t i = 0; i < t->nelements; i++)
            if (!(v[i] > 0)) {
                snprintf(why, sizeof why, "%s: value %llu is %g; want > 0",
                         t->name, (unsigned long long)i, v[i]);
                r = ferr(s, err, errlen, why);
                break;
            }
        if (r == 0) {
            memcpy(f->v, v, (size_t)t->nelements * sizeof *v);
            f->n = (int)t->nelements;
            f->dtype = dt;
            f->tol = freq_dtype_tol(dt);
            for (int i = 0; i < f->n; i++)
                f->tolv[i] = f->tol;
            f->divisors = !strcmp(t->name, "rope_freqs.weight");
            snprintf(f->what, sizeof f->what, "gguf %s %s", t->name,
                     gguf_type_name(t->type, tn, sizeof tn));
        }
    }
    gguf_close(g);
    return r;
}

/* ---- text ------------------------------------------------------------------ */

/* One unit of a decimal number's last printed digit (0: an integer
 * without exponent, whose precision the text does not say). */
static double last_unit(const char *p, const char *end)
{
    int frac = 0, dot = 0, exp = 0;
    for (; p < end && *p != 'e' && *p != 'E'; p++) {
        if (*p == '.')
            dot = 1;
        else if (dot && isdigit((unsigned char)*p))
            frac++;
    }
    if (p < end)
        exp = atoi(p + 1);
    else if (!dot)
        return 0;
    return pow(10, exp - frac);
}

struct text_state {
    int line, lines, first_is_band, header_skipped;
};

/* One line's fields into f (or its omega for "band,omega" lines). */
#define TEXT_SEP " \t,;\r[]()"

/* The words a printed array carries around its numbers: Python's and
 * numpy's "array(", torch's "tensor(" and its "dtype=...",
 * "device=...", "requires_grad=..."; their length, or 0. */
static size_t array_word(const char *p)
{
    static const char *const W[] = { "tensor", "array", "dtype=", "device=",
                                      "requires_grad=", "grad_fn=" };
    for (size_t k = 0; k < sizeof W / sizeof W[0]; k++)
        if (!strncmp(p, W[k], strlen(W[k])))
            return strlen(W[k]) + strcspn(p + strlen(W[k]), TEXT_SEP);
    return 0;
}

/* One line's nv numbers (and the unit of each one's last digit) into f;
 * of "band,omega[,...]" lines, whose first field counts 0, 1, 2, ...,
 * the omega alone. */
static int text_store(const struct src *s, struct text_state *st,
                      const double *vals, const double *unit, int nv,
                      struct freq_file *f, char *err, size_t errlen)
{
    char why[160];
    if (st->lines == 0)
        st->first_is_band = nv >= 2 && vals[0] == 0;
    int banded = st->first_is_band && vals[0] == st->lines && nv >= 2;
    if (st->first_is_band && !banded)
        return ferr(s, err, errlen, "lines 'band,omega' out of order");
    st->lines++;
    for (int k = banded ? 1 : 0; k < (banded ? 2 : nv); k++) {
        if (f->n >= FREQ_FILE_MAX)
            return ferr(s, err, errlen, "more than 256 values");
        if (!isfinite(vals[k]) || !(vals[k] > 0)) {
            snprintf(why, sizeof why, "line %d: %g; want a finite "
                     "frequency > 0", st->line, vals[k]);
            return ferr(s, err, errlen, why);
        }
        f->tolv[f->n] = unit[k] / vals[k];  /* 0: an integer, see below */
        f->v[f->n++] = vals[k];
    }
    return 0;
}

static int text_line(const struct src *s, char *ln, struct text_state *st,
                     struct freq_file *f, char *err, size_t errlen)
{
    double vals[FREQ_FILE_MAX + 1], unit[FREQ_FILE_MAX + 1];
    int nv = 0;
    char why[160], *p = ln;
    for (;;) {
        p += strspn(p, TEXT_SEP);
        if (!*p)
            break;
        size_t w = array_word(p);
        if (w) {
            p += w;
            continue;
        }
        char *end;
        double v = strtod(p, &end);
        const char *odd = strpbrk(p, "xXnNiI");     /* hex, nan, inf */
        int bad = end == p || (*end && !strchr(TEXT_SEP, *end)) ||
                  (odd && odd < end);
        if (bad) {
            if (st->lines == 0 && nv == 0 && !st->header_skipped) {
                st->header_skipped = 1;     /* one header line */
                return 0;
            }
            snprintf(why, sizeof why, "line %d: '%.20s' is not a number",
                     st->line, p);
            return ferr(s, err, errlen, why);
        }
        if (nv > FREQ_FILE_MAX)
            return ferr(s, err, errlen, "more than 256 values on a line");
        unit[nv] = last_unit(p, end);
        vals[nv++] = v;
        p = end;
    }
    return nv ? text_store(s, st, vals, unit, nv, f, err, errlen) : 0;
}

static int load_text(const struct src *s, struct freq_file *f, char *err,
                     size_t errlen)
{
    if (s->len > TEXT_MAX)
        return ferr(s, err, errlen, "larger than 1 MiB; not an inv_freq dump");
    char *t = malloc(s->len + 1);
    if (!t || rd(s, 0, t, s->len)) {
        free(t);
        return ferr(s, err, errlen, "cannot read");
    }
    t[s->len] = 0;
    if (memchr(t, 0, s->len)) {
        free(t);
        return ferr(s, err, errlen, "not text, .npy, safetensors or GGUF");
    }
    struct text_state st = { 0, 0, 0, 0 };
    int r = 0;
    char *save = t, *ln;
    while (r == 0 && (ln = save) != NULL && *ln) {
        char *nl = strchr(ln, '\n');
        save = nl ? nl + 1 : NULL;
        if (nl)
            *nl = 0;
        st.line++;
        r = text_line(s, ln, &st, f, err, errlen);
    }
    free(t);
    if (r)
        return -1;
    if (f->n == 0)
        return ferr(s, err, errlen, "no numbers");
    /* integers ("1" from %g) take the finest precision in the file */
    double fine = INFINITY;
    for (int i = 0; i < f->n; i++)
        if (f->tolv[i] > 0 && f->tolv[i] < fine)
            fine = f->tolv[i];
    f->dtype = FD_TEXT;
    f->tol = 0;
    for (int i = 0; i < f->n; i++) {
        double u = f->tolv[i] > 0 ? f->tolv[i] : isfinite(fine) ? fine : 1e-12;
        f->tolv[i] = u > 1e-12 ? u : 1e-12;
        f->tol = f->tolv[i] > f->tol ? f->tolv[i] : f->tol;
    }
    snprintf(f->what, sizeof f->what, "text, to its last digits");
    return 0;
}

/* ---- by the first bytes ---------------------------------------------------- */

static int load(const struct src *s, const char *tensor, struct freq_file *f,
                char *err, size_t errlen)
{
    unsigned char m[9];
    uint64_t hl = 0;
    memset(f, 0, sizeof *f);
    memset(m, 0, sizeof m);
    rd(s, 0, m, s->len < 9 ? s->len : 9);
    for (int k = 7; k >= 0; k--)
        hl = hl << 8 | m[k];
    if (s->len >= 6 && !memcmp(m, "\x93NUMPY", 6))
        return load_npy(s, f, err, errlen);
    if (s->len >= 4 && !memcmp(m, "GGUF", 4))
        return load_gguf(s, tensor, f, err, errlen);
    if (s->len >= 9 && m[8] == '{' && hl >= 2 && hl <= s->len - 8)
        return load_safetensors(s, tensor, f, err, errlen);
    if (tensor)
        return ferr(s, err, errlen, "--tensor: goes with a safetensors or "
                    "GGUF file");
    return load_text(s, f, err, errlen);
}

int freq_file_load_buffer(const char *name, const unsigned char *buf,
                          size_t len, const char *tensor, struct freq_file *f,
                          char *err, size_t errlen)
{
    struct src s = { name, NULL, buf, len };
    return load(&s, tensor, f, err, errlen);
}

int freq_file_load(const char *path, const char *tensor, struct freq_file *f,
                   char *err, size_t errlen)
{
    char why[160];
    int fd = tables_open_regular(path, why, sizeof why);
    struct src s = { path, fd >= 0 ? fdopen(fd, "rb") : NULL, NULL, 0 };
    if (!s.f) {
        if (fd >= 0)
            close(fd);
        snprintf(err, errlen, "%s: %s", path, fd < 0 ? why : "cannot open");
        return -1;
    }
    if (fseek(s.f, 0, SEEK_END) != 0 || ftell(s.f) < 0) {
        fclose(s.f);
        snprintf(err, errlen, "%s: not a regular file", path);
        return -1;
    }
    s.len = (size_t)ftell(s.f);
    int r = load(&s, tensor, f, err, errlen);
    fclose(s.f);
    return r;
}
