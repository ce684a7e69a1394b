/* SPDX-License-Identifier: ISC */
/*
 * follow_proto.h - the follow-mode protocol: the published state as
 * text, and the framing that carries it.
 *
 * A message is a header line and a body:
 *
 *     PEVIZ-FOLLOW 1 <body length>\n
 *     view compare\n
 *     d 64\n
 *     base 10000\n
 *     ...
 *
 * The first message a follower gets is the whole state: one "name
 * value" line per field, in a fixed order (d and n before what depends
 * on them).  Later ones carry only the lines that changed.  Every value is parsed
 * and range-checked like a typed ':' command: the four parameters go
 * through params_set, the rest through the field table's bounds.  A
 * body longer than FP_BODY_MAX, an unknown or repeated field, a byte
 * outside printable ASCII or a value out of range refuses the whole
 * message; the state is then unchanged.
 *
 * The follower sends the greeting FP_GREETING, then only lines saying
 * its terminal ("term 80x24 256 en", when it changes); a teacher with no
 * room answers the greeting with FP_BUSY_FMT and hangs up.
 */
#ifndef PEVIZ_FOLLOW_PROTO_H
#define PEVIZ_FOLLOW_PROTO_H

#include <stddef.h>

#include "app.h"

#define FP_VERSION 1
#define FP_MAGIC "PEVIZ-FOLLOW"
#define FP_GREETING "PEVIZ-FOLLOW 1\n"
/* A teacher that has no room says so, in place of a header, and hangs
 * up: "PEVIZ-FOLLOW 1 busy N" (N: its connections). */
#define FP_BUSY_FMT "PEVIZ-FOLLOW %d busy %d\n"
#define FP_HEADER_MAX 32       /* "PEVIZ-FOLLOW 1 12345\n" fits */
/* A longer body is refused unread.  The whole state fits with every
 * value at its longest, six longrope factor lists of 256 values
 * included (about 39 KB); without factor lists it is under 2.1 KB. */
#define FP_BODY_MAX 40960
#define FP_MESSAGE_MAX (FP_HEADER_MAX + FP_BODY_MAX)

/*
 * The whole published state of a as a body: one line per field, always
 * the same fields in the same order.  Derived from a through the rows
 * of state_field.h only (the protocol's own, then each view's in the
 * order of VIEW_LIST): a new field is one row in its view's table.  Returns the length, or -1
 * if it does not fit (cannot happen with FP_BODY_MAX bytes).
 */
int fp_body(const struct app *a, char *buf, size_t len);

/* Header and body into buf: the message's length, or -1. */
int fp_frame(const char *body, size_t blen, char *buf, size_t len);

/* fp_body then fp_frame: the whole state as one message. */
int fp_encode(const struct app *a, char *buf, size_t len);

/*
 * An update: the lines of the body cur that differ from the same line
 * of old (both from fp_body), into out (room for clen bytes).  A
 * follower that applied old and then this has applied cur.  Returns
 * the length (0: nothing changed).
 */
size_t fp_diff(const char *old, size_t olen, const char *cur, size_t clen,
               char *out);

/*
 * Apply a message body (without the header) to a.  On any refusal a is
 * left as it was and err holds "line N: why"; returns -1.  Returns 0
 * when every line was accepted.
 */
int fp_apply(struct app *a, const char *body, size_t len,
             char *err, size_t errlen);

/*
 * The --pe-file table as published, so that a follower can read its own
 * copy from the directory its student names (--files): "none", or the
 * file's base name, then " sha256=HEX" (fp_table_digest of the table
 * read), " tensor=NAME" (a binary format's tensor) and " row-offset=K"
 * (rows skipped, when not 0).  A character but letters, digits and
 * ". _ -" is sent as '_' (such a file is then not found).  A follower
 * takes a path too (an older teacher's), but reads only base names.
 */
#define FP_TABLE_PATH_MAX 1023
#define FP_TENSOR_MAX 159
#define FP_TABLE_TEXT_MAX (FP_TABLE_PATH_MAX + FP_TENSOR_MAX + 136)
struct fp_table {
    char path[FP_TABLE_PATH_MAX + 1];   /* the name sent; "": none */
    char tensor[FP_TENSOR_MAX + 1];     /* "": the file's only one */
    long row_offset;
    char sha256[65];                    /* "": none sent */
};
void fp_table_text(const struct app *a, char *v, size_t len);

/* The content hash of a table: SHA-256 of its rows and columns (each 8
 * bytes, little-endian) and its values (binary64, little-endian), as 64
 * hex digits: the same table read from CSV or safetensors has the same
 * hash. */
struct pe_table;
void fp_table_digest(const struct pe_table *t, char hex[65]);

/* A published table text back into t: 0, or -1 with why in err. */
int fp_table_parse(const char *v, struct fp_table *t, char *err,
                   size_t errlen);

/* A tour as the tour field names it: "shipped" (a follower shows its
 * own language's) or its file's base name, odd characters as '_'.  The
 * field is "off" or "STEP/STEPS NAME". */
struct tour;
void fp_tour_name(const struct tour *t, char *v, size_t len);

/* The value of field name in an accepted body, into v: 0, or -1 if the
 * body does not have it. */
int fp_find(const char *body, size_t len, const char *name, char *v,
            size_t vlen);

/* The framing: bytes in, whole bodies out, never more than the limits. */
struct fp_reader {
    char buf[FP_MESSAGE_MAX];
    size_t have;        /* bytes in buf */
    size_t body;        /* body length, once the header is read (else 0) */
    int header_done;
    long busy;          /* after FP_BUSY: the teacher's connections */
};

enum fp_status { FP_BAD = -1, FP_MORE = 0, FP_MESSAGE = 1, FP_BUSY = 2 };

void fp_reader_init(struct fp_reader *r);

/*
 * Feed up to n bytes of data.  *used says how many were taken.  Returns
 * FP_MESSAGE with the body at *body (length *blen, valid until the next
 * call), FP_MORE when more bytes are needed, FP_BUSY when the teacher has
 * no room (r->busy: its connections; it hangs up), or FP_BAD with the
 * reason in err (then the stream is unusable: close it).
 */
int fp_feed(struct fp_reader *r, const char *data, size_t n, size_t *used,
            const char **body, size_t *blen, char *err, size_t errlen);

/* Whether a partial message is waiting for more bytes. */
int fp_partial(const struct fp_reader *r);

#endif
