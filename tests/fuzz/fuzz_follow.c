/* SPDX-License-Identifier: ISC */
/*
 * fuzz_follow.c - libFuzzer harness for the follow-mode protocol: what a
 * hostile or broken teacher could send a follower.
 *
 * Input layout: byte 0 picks the frame width (1..96), byte 1 the height
 * (1..40), byte 2 the read size (1..256 bytes per read, as a socket may
 * split a stream anywhere); the rest is the byte stream from the peer.
 * Every whole message is applied as a follower does.  Whatever the
 * input: a refused message leaves the state exactly as it was, an
 * accepted one leaves a valid state whose own encoding reads back to the
 * same encoding, and a frame of it draws inside the canvas.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "follow_proto.h"
#include "frame.h"
#include "fuzz_app.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The state's own encoding, applied to a fresh program, encodes the same. */
static void check_round_trip(const struct app *a)
{
    static struct app b;
    char x[FP_BODY_MAX], y[FP_BODY_MAX];
    int lx = fp_body(a, x, sizeof x);
    app_init(&b);
    if (lx < 0 || fp_apply(&b, x, (size_t)lx, NULL, 0))
        abort();
    int ly = fp_body(&b, y, sizeof y);
    if (ly != lx || memcmp(x, y, (size_t)lx))
        abort();
}

static void take(struct app *a, const char *body, size_t len)
{
    static struct app before;
    char err[512];

    before = *a;
    if (fp_apply(a, body, len, err, sizeof err)) {
        if (memcmp(a, &before, sizeof *a) || !memchr(err, 0, sizeof err))
            abort();
        return;
    }
    fuzz_check_state(a);
    check_round_trip(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct app a;
    static struct fp_reader r;

    if (size < 3)
        return 0;
    int w = 1 + data[0] % 96, h = 1 + data[1] % 40;
    size_t chunk = 1 + data[2] % 256, at = 3;
    app_init(&a);
    fp_reader_init(&r);
    while (at < size) {
        size_t n = size - at < chunk ? size - at : chunk, used;
        const char *body;
        size_t blen;
        char err[256];
        int s = fp_feed(&r, (const char *)data + at, n, &used, &body, &blen,
                        err, sizeof err);
        if (s == FP_BAD)
            break;
        if (used == 0 && s == FP_MORE)
            break;                  /* cannot happen: n > 0 is taken */
        at += used;
        if (s == FP_MESSAGE)
            take(&a, body, blen);
    }
    fuzz_draw(&a, w, h);
    return 0;
}
