/* SPDX-License-Identifier: ISC */
/*
 * termreply.h - terminal reports told apart from keys.  Every report a
 * terminal sends back to peviz's questions is recognised in the input,
 * wherever it comes in it and however late, so that none is ever read
 * as keys.  The reports, each well formed to its last byte:
 *
 *     CSI ? Pn ; ... c       DA1            CSI > Pn ; ... c   DA2
 *     CSI 4|6|8 ; Pn ; Pn t  window sizes   CSI ? Pn ; Pn $ y  DECRQM
 *     CSI ? Pn ; ... S       XTSMGRAPHICS   CSI Pn ; Pn R      cursor
 *     CSI ? Pn ; Pn ... R    cursor (DEC)   DCS > | text ST    XTVERSION
 *     APC G text ST          kitty graphics OSC 10|11 ; text ST (or BEL)
 *
 * Everything else is keys, byte for byte and in order: a byte that
 * starts no escape sequence, an escape sequence that is none of these
 * (arrows, function keys, mouse reports, paste markers), and a report
 * begun but broken off or too long.  Pure: no I/O, no clock of its own.
 */
#ifndef PEVIZ_TERMREPLY_H
#define PEVIZ_TERMREPLY_H

#include <stddef.h>

#define TERMREPLY_MAX 4096      /* the longest report taken */
#define TERMREPLY_CSI_MAX 64    /* ... of the CSI ones */

enum termreply_kind {
    TERMREPLY_KEYS,             /* *len bytes of keys */
    TERMREPLY_REPORT,           /* a whole report of *len bytes */
    TERMREPLY_MORE              /* an escape sequence not complete yet */
};

/* How sure an incomplete sequence is to become a report: never (ESC O,
 * a key's), maybe (ESC alone, ESC [ 1 ; 5: a key's start too), surely
 * (ESC [ ?, ESC [ >, ESC P >, ESC _ G, ESC ] 1, ESC [ 6 ; 16 ;: no key
 * begins so). */
enum termreply_hold { TERMREPLY_NEVER, TERMREPLY_MAYBE, TERMREPLY_SURELY };

/*
 * What s[0..n) (n > 0) starts with.  KEYS: *len bytes that are keys (one
 * byte starting no escape sequence, or a whole sequence that is no
 * report, or the bytes before the one that broke a report off).  REPORT:
 * a whole report of *len bytes.  MORE: all n bytes may be the start of
 * a sequence; *hold says how surely a report.
 */
enum termreply_kind termreply_scan(const char *s, size_t n, size_t *len,
                                   enum termreply_hold *hold);

/* Where the bytes go: a report (report 1) or keys (0), in order. */
typedef void (*termreply_out)(void *ctx, int report, const char *s,
                              size_t n);

/* An incomplete sequence held back, waiting for its next byte. */
struct termreply {
    char held[TERMREPLY_MAX];
    size_t n;
    long last_ms;               /* when its last byte came */
    enum termreply_hold hold;
};

/* n bytes read at now_ms: keys and reports to out in order; a sequence
 * not complete at the end is held. */
void termreply_feed(struct termreply *t, const char *s, size_t n,
                    long now_ms, termreply_out out, void *ctx);

/*
 * Held bytes give up waiting and go out as keys once their last byte is
 * wait_ms old, wait_ms being never_ms, maybe_ms or surely_ms by their
 * hold.  Returns the ms until held bytes would give up, -1 when none
 * are held.
 */
int termreply_expire(struct termreply *t, long now_ms, int never_ms,
                     int maybe_ms, int surely_ms, termreply_out out,
                     void *ctx);

#endif
