/* SPDX-License-Identifier: ISC */
/*
 * termreply.c - terminal reports told apart from keys (termreply.h).
 */
#include "termreply.h"

#include <string.h>

#define ESC '\033'

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Numbers separated by ';' in p[0..n): how many, or -1 if p holds
 * anything else or an empty number. */
static int numbers(const char *p, size_t n)
{
    int count = 1, digits = 0;
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (is_digit(p[i])) {
            digits++;
        } else if (p[i] == ';' && digits) {
            count++;
            digits = 0;
        } else {
            return -1;
        }
    }
    return digits ? count : -1;
}

/* A whole CSI sequence (parameters p[0..np), intermediates im[0..ni),
 * final f) is a report. */
static int csi_is_report(const char *p, size_t np, const char *im, size_t ni,
                         char f)
{
    char lead = np ? p[0] : 0;
    int priv = lead == '?' || lead == '>';
    int k = numbers(p + priv, np - (size_t)priv);
    if (ni)
        return ni == 1 && im[0] == '$' && f == 'y' && lead == '?' && k == 2;
    switch (f) {
    case 'c':
        return priv && k >= 1;
    case 'S':
        return lead == '?' && k >= 1;
    case 't':
        return !priv && k == 3 && (lead == '4' || lead == '6' || lead == '8') &&
               p[1] == ';';
    case 'R':
        return (!priv && k == 2) || (lead == '?' && (k == 2 || k == 3));
    default:
        return 0;
    }
}

/* How surely the incomplete CSI parameters p[0..np) become a report. */
static enum termreply_hold csi_hold(const char *p, size_t np, size_t ni)
{
    size_t semis = 0;
    if (np && (p[0] == '?' || p[0] == '>'))
        return TERMREPLY_SURELY;
    for (size_t i = 0; i < np; i++) {
        if (!is_digit(p[i]) && p[i] != ';')
            return TERMREPLY_NEVER;
        semis += p[i] == ';';
    }
    if (ni)
        return TERMREPLY_NEVER;
    /* three numbers after 4, 6 or 8: a window size, no key's */
    if (semis >= 2 && (p[0] == '4' || p[0] == '6' || p[0] == '8') &&
        p[1] == ';')
        return TERMREPLY_SURELY;
    return TERMREPLY_MAYBE;
}

static enum termreply_kind csi_scan(const char *s, size_t n, size_t *len,
                                    enum termreply_hold *hold)
{
    size_t j = 2, k;
    while (j < n && s[j] >= 0x30 && s[j] <= 0x3F)
        j++;
    for (k = j; k < n && s[k] >= 0x20 && s[k] <= 0x2F; k++)
        ;
    if (k == n) {
        if (n >= TERMREPLY_CSI_MAX) {
            *len = n;               /* too long for a report: keys */
            return TERMREPLY_KEYS;
        }
        *hold = csi_hold(s + 2, j - 2, k - j);
        return TERMREPLY_MORE;
    }
    if (s[k] < 0x40 || s[k] > 0x7E) {
        *len = k;                   /* broken off: keys up to here */
        return TERMREPLY_KEYS;
    }
    *len = k + 1;
    return csi_is_report(s + 2, j - 2, s + j, k - j, s[k]) ? TERMREPLY_REPORT
                                                           : TERMREPLY_KEYS;
}

/*
 * A string report: intro (after ESC) then text to ST (ESC \) or BEL.
 * Text is printable ASCII or bytes of UTF-8; anything else breaks it off.
 */
static enum termreply_kind string_scan(const char *s, size_t n,
                                       const char *intro, size_t *len,
                                       enum termreply_hold *hold)
{
    size_t m = strlen(intro), i;
    for (i = 1; i <= m; i++) {
        if (i == n) {
            *hold = i > 2 ? TERMREPLY_SURELY : TERMREPLY_MAYBE;
            return TERMREPLY_MORE;
        }
        if (s[i] != intro[i - 1]) {
            *len = 2;               /* ESC P, ESC _, ESC ]: an Alt key */
            return TERMREPLY_KEYS;
        }
    }
    for (; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\a') {
            *len = i + 1;
            return TERMREPLY_REPORT;
        }
        if (c == ESC) {
            if (i + 1 == n)
                break;
            *len = s[i + 1] == '\\' ? i + 2 : i;
            return s[i + 1] == '\\' ? TERMREPLY_REPORT : TERMREPLY_KEYS;
        }
        if (c < 0x20 || c == 0x7F) {
            *len = i;
            return TERMREPLY_KEYS;
        }
    }
    if (n >= TERMREPLY_MAX) {
        *len = n;
        return TERMREPLY_KEYS;
    }
    *hold = TERMREPLY_SURELY;
    return TERMREPLY_MORE;
}

/* OSC 10 or 11: ESC ] 1 then 0 or 1, then ';'. */
static enum termreply_kind osc_scan(const char *s, size_t n, size_t *len,
                                    enum termreply_hold *hold)
{
    if (n > 3 && s[3] == '0')
        return string_scan(s, n, "]10;", len, hold);
    return string_scan(s, n, "]11;", len, hold);
}

enum termreply_kind termreply_scan(const char *s, size_t n, size_t *len,
                                   enum termreply_hold *hold)
{
    *len = 1;
    *hold = TERMREPLY_MAYBE;
    if (s[0] != ESC)
        return TERMREPLY_KEYS;
    if (n < 2)
        return TERMREPLY_MORE;
    switch (s[1]) {
    case '[':
        return csi_scan(s, n, len, hold);
    case 'P':
        return string_scan(s, n, "P>|", len, hold);
    case '_':
        return string_scan(s, n, "_G", len, hold);
    case ']':
        return osc_scan(s, n, len, hold);
    case 'O':                       /* SS3: an arrow or function key */
        if (n < 3) {
            *hold = TERMREPLY_NEVER;
            return TERMREPLY_MORE;
        }
        *len = 3;
        return TERMREPLY_KEYS;
    default:                        /* ESC and a key: Alt, or ESC alone */
        *len = (unsigned char)s[1] >= 0x20 && (unsigned char)s[1] < 0x7F ? 2
                                                                        : 1;
        return TERMREPLY_KEYS;
    }
}

/* Send out what held[0..n) holds in whole sequences; keep the rest. */
static void drain(struct termreply *t, termreply_out out, void *ctx)
{
    size_t i = 0, keys = 0;
    while (i < t->n) {
        size_t len;
        enum termreply_hold hold;
        enum termreply_kind k = termreply_scan(t->held + i, t->n - i, &len,
                                               &hold);
        if (k == TERMREPLY_MORE) {
            t->hold = hold;
            break;
        }
        if (k == TERMREPLY_REPORT) {
            if (i > keys)
                out(ctx, 0, t->held + keys, i - keys);
            out(ctx, 1, t->held + i, len);
            keys = i + len;
        }
        i += len;
    }
    if (i > keys)
        out(ctx, 0, t->held + keys, i - keys);
    t->n -= i;
    memmove(t->held, t->held + i, t->n);
}

void termreply_feed(struct termreply *t, const char *s, size_t n,
                    long now_ms, termreply_out out, void *ctx)
{
    while (n > 0) {
        size_t room = sizeof t->held - t->n, m = n < room ? n : room;
        memcpy(t->held + t->n, s, m);
        t->n += m;
        s += m;
        n -= m;
        t->last_ms = now_ms;
        drain(t, out, ctx);
    }
}

int termreply_expire(struct termreply *t, long now_ms, int never_ms,
                     int maybe_ms, int surely_ms, termreply_out out,
                     void *ctx)
{
    int wait = t->hold == TERMREPLY_NEVER ? never_ms
             : t->hold == TERMREPLY_MAYBE ? maybe_ms : surely_ms;
    long left;
    if (t->n == 0)
        return -1;
    left = t->last_ms + wait - now_ms;
    if (left > 0)
        return (int)left;
    /* given up: its first byte is a key, what follows is read again */
    out(ctx, 0, t->held, 1);
    t->n--;
    memmove(t->held, t->held + 1, t->n);
    drain(t, out, ctx);
    return t->n ? termreply_expire(t, now_ms, never_ms, maybe_ms, surely_ms,
                                   out, ctx)
                : -1;
}
