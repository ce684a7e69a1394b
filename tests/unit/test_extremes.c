/*
 * test_extremes.c - frames at extreme but valid settings (n = 1, n = 2^24,
 * narrow terminals): a value is shown whole with what it means, or not
 * at all; never a line cut before its number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "frames.h"
#include "harness.h"

static const int SIZES[][2] = { { 60, 20 }, { 80, 24 }, { 160, 48 },
                                { 50, 16 } };
#define NSIZES (int)(sizeof SIZES / sizeof SIZES[0])

static void app_view(struct app *a, enum view_id v, int64_t n, int64_t pos)
{
    app_init(a);
    a->view = v;
    a->p.n = n;
    a->p.pos = pos;
}

/* Whether the line starting at s (wrapped over rows) reaches "= number". */
static int has_value_after(const char *s)
{
    for (const char *e = strstr(s, "= "); e && e - s < 1200; e = strstr(e + 2, "= "))
        if ((e[2] >= '0' && e[2] <= '9') || e[2] == '-')
            return 1;
    return 0;
}

/* The attention inspector's cell line, whole or not at all: at 60x20
 * with n = 2^24 it stopped after "cell: mean over", its value lost. */
static void test_attention_cell_line(void)
{
    static const int64_t N[] = { 128, 4096, 16777216 };
    struct app a;
    for (int k = 0; k < 3; k++)
        for (int z = 0; z < NSIZES; z++) {
            app_view(&a, VIEW_ATTENTION, N[k], 0);
            char *t = frame_text(&a, SIZES[z][0], SIZES[z][1]);
            CHECK(t != NULL);
            const char *line = t ? strstr(t, "cell: mean") : NULL;
            int ok = !line || has_value_after(line);
            if (!ok)
                fprintf(stderr, "n=%lld %dx%d:\n%s", (long long)N[k],
                        SIZES[z][0], SIZES[z][1], t);
            CHECK(ok);
            free(t);
        }
}

int main(void)
{
    test_attention_cell_line();
    TEST_END("test_extremes");
}
