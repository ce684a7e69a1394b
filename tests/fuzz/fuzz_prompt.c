/* SPDX-License-Identifier: ISC */
/*
 * fuzz_prompt.c - libFuzzer harness for the ':' prompt and the keys.
 *
 * Input layout: byte 0 picks the frame width (1..96), byte 1 the height
 * (1..40), byte 2 the view; the bytes up to the first '\n' are run as a
 * ':' command line through app_command; every byte after it is a key for
 * app_key (bytes 0xF0..0xFF stand for the special keys: arrows, PgUp,
 * Enter, Esc, Tab, resize, mouse, F1...; a lead byte 0xC0..0xEF starts a
 * UTF-8 sequence that becomes one code point).  A frame is drawn after
 * the command and after the keys.  Whatever the input, the state must
 * stay valid (params_check) and drawing must stay inside the canvas.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "frame.h"
#include "fuzz_app.h"
#include "tour.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_KEYS 2000

/* Next key from the bytes at *p; advances *p. */
static int next_key(const uint8_t *d, size_t n, size_t *p)
{
    uint8_t b = d[(*p)++];
    int more, cp;

    if (b >= 0xF0)
        return b == 0xFF ? PK_RESIZE : PK_BASE + 1 + (b - 0xF0);
    if (b < 0xC0)
        return b;
    more = b < 0xE0 ? 1 : 2;
    cp = b & (more == 1 ? 0x1F : 0x0F);
    while (more-- && *p < n)
        cp = cp << 6 | (d[(*p)++] & 0x3F);
    return cp;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct app a;
    char line[APP_PROMPT_LEN * 2];
    size_t p = 3, k = 0;

    if (size < 3)
        return 0;
    int w = 1 + data[0] % 96, h = 1 + data[1] % 40;
    app_init(&a);
    a.view = (enum view_id)(data[2] % VIEW_COUNT);
    while (p < size && data[p] != '\n' && k < sizeof line - 1)
        line[k++] = (char)data[p++];
    line[k] = 0;
    app_command(&a, line);
    fuzz_check_state(&a);
    fuzz_draw(&a, w, h);
    p++;                             /* past the '\n' */
    for (int nkeys = 0; p < size && nkeys < MAX_KEYS; nkeys++) {
        int key = next_key(data, size, &p);
        a.mouse_x = key % w;
        a.mouse_y = key % h;
        app_key(&a, key);
        fuzz_check_state(&a);
        a.quit = 0;
    }
    fuzz_draw(&a, w, h);
    tour_release(&a);
    return 0;
}
