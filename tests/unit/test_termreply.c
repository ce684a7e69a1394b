/* SPDX-License-Identifier: ISC */
/*
 * test_termreply.c - terminal reports told apart from keys: every form
 * of report, between keys and split at every byte, comes out as one
 * report and the keys around it as keys, in order; key sequences that
 * look like reports (function keys, modified arrows, mouse reports,
 * paste markers, Alt keys) and broken reports are keys; a sequence held
 * for its rest gives up after its wait, by how surely it is a report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "termreply.h"

/* What came out: keys and reports, each list in order. */
struct got {
    char keys[16384];
    size_t nk;
    char reports[16384];    /* each report followed by '|' */
    size_t nr;
    int count;
};

static void out(void *ctx, int report, const char *s, size_t n)
{
    struct got *g = ctx;
    if (report) {
        if (g->nr + n + 1 < sizeof g->reports) {
            memcpy(g->reports + g->nr, s, n);
            g->nr += n;
            g->reports[g->nr++] = '|';
        }
        g->count++;
    } else if (g->nk + n < sizeof g->keys) {
        memcpy(g->keys + g->nk, s, n);
        g->nk += n;
    }
}

/* Feed s in pieces of k bytes at one time, then let held bytes give up. */
static void run(const char *s, size_t len, size_t k, struct got *g)
{
    static struct termreply t;
    memset(&t, 0, sizeof t);
    memset(g, 0, sizeof *g);
    for (size_t at = 0; at < len; at += k)
        termreply_feed(&t, s + at, len - at < k ? len - at : k, 0, out, g);
    termreply_expire(&t, 100000, 40, 40, 40, out, g);
}

static const char *REPORTS[] = {
    "\033[?62;22c", "\033[?1;2c", "\033[>0;276;0c", "\033[>41;390;0c",
    "\033[4;384;674t", "\033[6;16;8t", "\033[8;24;80t",
    "\033[?2026;2$y", "\033[?1;0;256S", "\033[12;40R", "\033[?12;40;1R",
    "\033P>|XTerm(390)\033\\", "\033P>|WezTerm 20240203\033\\",
    "\033_Gi=31;OK\033\\", "\033_Gi=31;ENOTSUPPORTED:no\033\\",
    "\033]11;rgb:ffff/ffff/ffff\033\\", "\033]10;rgb:0000/0000/0000\a",
    "\033]11;rgb:1e1e/1e1e/1e1e\a",
};

/* Key sequences that are none: each comes out as keys, whole. */
static const char *KEYS[] = {
    "\033[A", "\033OB", "\033[15~", "\033[1;5A", "\033[1;2P",
    "\033[<0;10;5M", "\033[<0;10;5m", "\033[M #!", "\033[200~",
    "\033[201~", "\033p", "\033P", "\033_", "\033]", "\033x", "q",
    "\033[2;3;4t", "\033[?62;22", "\033[6;16t", "\xe4\xb8\xad",
    "\033[>c", "\033[?2026$y", "\033]12;rgb:0/0/0\033\\",
};

/* Every report between keys, fed in pieces of every size up to its own. */
static void test_reports(void)
{
    int bad = 0;
    for (size_t r = 0; r < sizeof REPORTS / sizeof REPORTS[0]; r++) {
        char s[256], want[256];
        struct got g;
        int n = snprintf(s, sizeof s, "a\033[B%sq", REPORTS[r]);
        snprintf(want, sizeof want, "%s|", REPORTS[r]);
        for (size_t k = 1; k <= (size_t)n; k++) {
            run(s, (size_t)n, k, &g);
            int ok = g.count == 1 && g.nr == strlen(want) &&
                     memcmp(g.reports, want, g.nr) == 0 && g.nk == 5 &&
                     memcmp(g.keys, "a\033[Bq", 5) == 0;
            if (!ok && !bad)
                fprintf(stderr, "report %zu in pieces of %zu: %d reports, "
                        "keys %.*s\n", r, k, g.count, (int)g.nk, g.keys);
            bad += !ok;
        }
    }
    CHECK(bad == 0);
}

static void test_keys(void)
{
    int bad = 0;
    for (size_t r = 0; r < sizeof KEYS / sizeof KEYS[0]; r++) {
        struct got g;
        size_t n = strlen(KEYS[r]);
        for (size_t k = 1; k <= n; k++) {
            run(KEYS[r], n, k, &g);
            int ok = g.count == 0 && g.nk == n &&
                     memcmp(g.keys, KEYS[r], n) == 0;
            if (!ok && !bad)
                fprintf(stderr, "key %zu in pieces of %zu: %d reports\n", r,
                        k, g.count);
            bad += !ok;
        }
    }
    CHECK(bad == 0);
}

/* Broken reports are keys, byte for byte; the report after one is still
 * a report; one longer than 512 bytes is a report; one past the most
 * held is keys. */
static void test_broken(void)
{
    struct got g;
    const char *s = "\033P>|Xt\rerm\033\\\033[?62c";
    run(s, strlen(s), 1, &g);
    CHECK(g.count == 1 && g.nk == strlen(s) - 6 &&
          memcmp(g.keys, s, g.nk) == 0);
    s = "\033[?62;\0071c";
    run(s, strlen(s), 64, &g);
    CHECK(g.count == 0 && g.nk == strlen(s));
    static char big[TERMREPLY_MAX + 64];
    size_t n = (size_t)sprintf(big, "\033P>|");
    memset(big + n, 'x', 600);
    n += 600;
    n += (size_t)sprintf(big + n, "\033\\z");
    run(big, n, 7, &g);
    CHECK(g.count == 1 && g.nk == 1 && g.keys[0] == 'z');
    n = (size_t)sprintf(big, "\033_G");
    memset(big + n, 'y', TERMREPLY_MAX);
    n += TERMREPLY_MAX;
    run(big, n, 512, &g);
    CHECK(g.count == 0 && g.nk == n);
    /* a CSI too long for a report */
    memset(big, 0, sizeof big);
    n = (size_t)sprintf(big, "\033[?");
    memset(big + n, '1', TERMREPLY_CSI_MAX);
    n += TERMREPLY_CSI_MAX;
    big[n++] = 'c';
    run(big, n, 3, &g);
    CHECK(g.count == 0 && g.nk == n);
}

/* Held bytes and their waits: ESC alone may be a report's start (maybe),
 * ESC [ ? surely is, ESC O never; each gives up after its own wait, and
 * the rest is read again. */
static void test_hold(void)
{
    static struct termreply t;
    struct got g;
    memset(&t, 0, sizeof t);
    memset(&g, 0, sizeof g);
    termreply_feed(&t, "j\033", 2, 1000, out, &g);
    CHECK(g.nk == 1 && t.n == 1 && t.hold == TERMREPLY_MAYBE);
    CHECK_NEAR(termreply_expire(&t, 1010, 40, 1500, 3000, out, &g), 1490, 0);
    CHECK_NEAR(termreply_expire(&t, 1010, 40, 40, 3000, out, &g), 30, 0);
    CHECK(termreply_expire(&t, 1040, 40, 40, 3000, out, &g) == -1 &&
          g.nk == 2 && g.keys[1] == '\033' && t.n == 0);
    /* a key after ESC settles it at once: ESC, then the key */
    memset(&g, 0, sizeof g);
    termreply_feed(&t, "\033", 1, 0, out, &g);
    termreply_feed(&t, "q", 1, 5, out, &g);
    CHECK(g.nk == 2 && memcmp(g.keys, "\033q", 2) == 0 && t.n == 0);
    /* a report at one byte a second: held, byte by byte, as a report */
    memset(&g, 0, sizeof g);
    const char *slow = "\033[?62;22c";
    for (size_t i = 0; slow[i]; i++) {
        termreply_feed(&t, slow + i, 1, (long)i * 1000, out, &g);
        if (t.n)
            CHECK(termreply_expire(&t, (long)i * 1000 + 999, 40, 1500, 1500,
                                   out, &g) > 0);
    }
    CHECK(g.count == 1 && g.nk == 0);
    /* surely a report: waits the longest; given up, its bytes are keys */
    memset(&g, 0, sizeof g);
    termreply_feed(&t, "\033[?6", 4, 0, out, &g);
    CHECK(t.hold == TERMREPLY_SURELY);
    CHECK(termreply_expire(&t, 100, 40, 40, 3000, out, &g) == 2900);
    CHECK(termreply_expire(&t, 3000, 40, 40, 3000, out, &g) == -1 &&
          g.nk == 4 && memcmp(g.keys, "\033[?6", 4) == 0);
    /* ESC O: a key's start, never a report's */
    memset(&g, 0, sizeof g);
    termreply_feed(&t, "\033O", 2, 0, out, &g);
    CHECK(t.hold == TERMREPLY_NEVER);
    CHECK(termreply_expire(&t, 50, 40, 1500, 1500, out, &g) == -1 &&
          g.nk == 2);
    /* a window size's third number: surely a report */
    termreply_feed(&t, "\033[6;16;", 7, 0, out, &g);
    CHECK(t.hold == TERMREPLY_SURELY);
    termreply_feed(&t, "8t", 2, 0, out, &g);
    CHECK(g.count == 1 && t.n == 0);
}

int main(void)
{
    test_reports();
    test_keys();
    test_broken();
    test_hold();
    TEST_END("test_termreply");
}
