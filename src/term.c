/* SPDX-License-Identifier: ISC */
/*
 * term.c - the terminal backend: the one file that includes curses.
 *
 * Opening checks everything that would make curses misbehave (no tty,
 * TERM unset, dumb or unknown, no cursor addressing) before newterm()
 * touches the screen, so the user gets our message and an untouched
 * terminal.  Drawing writes the whole canvas into stdscr and lets curses
 * send only the cells that changed, with one doupdate() per frame.
 * Input is read here, not by curses: the terminal's reports are taken
 * out (termreply.h), whenever they come, and the keys go on in order
 * through a pipe that curses reads and decodes.
 */
#include <curses.h>
#include <term.h>         /* curses' own: setupterm, cur_term */

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "colormap.h"
#include "gfx_probe.h"
#include "keys.h"
#include "termcaps.h"
#include "termreply.h"
#include "tty.h"

/* Written on a crash, whatever curses turned on: every mouse reporting
 * mode (X10/normal, button and any-motion tracking, SGR and UTF-8
 * coordinates) and bracketed paste, off.  Unknown private modes are
 * ignored by terminals. */
#define MODES_OFF "\033[?1000l\033[?1002l\033[?1003l\033[?1005l" \
                  "\033[?1006l\033[?2004l"
#define CAN "\030"             /* cancels an escape sequence cut short */
#define PASTE_ON "\033[?2004h"
#define PASTE_OFF "\033[?2004l"
/* curses key codes for the bracketed paste markers (define_key) */
#define KEY_PASTE_BEGIN (KEY_MAX + 1)
#define KEY_PASTE_END (KEY_MAX + 2)
#define PAIR_CACHE 512          /* direct-mapped (fg, bg) -> pair cache */
#define EOF_WAKES 3             /* readable-but-empty wakes meaning EOF */
#define SYNC_BEGIN "\033[?2026h"  /* DEC mode 2026: hold the frame ... */
#define SYNC_END "\033[?2026l"    /* ... and show it at once */
#define QUERY_MS 400            /* wait at most this for the first answer */
#define ASK_MAX 4               /* text area questions out at once */
#define OWED_MS 10000           /* a DA1 is owed this long by a terminal
                                   that has answered nothing yet */
#define KEY_GAP_MS 40           /* an escape sequence's bytes come together */
#define REPLY_GAP_MS 1500       /* ... a report's, on a slow link, a second
                                   apart at worst */

static SCREEN *scr;
static struct termios saved_tio;      /* the tty modes before we started */
static volatile sig_atomic_t armed;   /* emergency restore has work to do */
static char reset_buf[512];           /* written on a crash */
static size_t reset_len;
static int direct;                    /* terminfo takes RGB colour values */
static int mouse_on;
static int paste_on;
static int empty_wakes;               /* reads of no bytes: see pump() */
static int sync_ok;                   /* the terminal reported mode 2026 */
static int key_pipe[2] = { -1, -1 };  /* keys for curses: see on_input() */
static FILE *key_in;                  /* its read end, curses' input */
static struct pair_slot { int fg, bg, pair; } pcache[PAIR_CACHE];
static long pairs_used;               /* pairs alloc_pair handed out */
static int pairs_full;                /* ... all of them: see pair_for() */

/* ---- opening -------------------------------------------------------- */

static int fail(char *err, size_t errlen, const char *msg)
{
    snprintf(err, errlen, "%s", msg);
    return -1;
}

/* Refuse what curses cannot work with, before it writes anything. */
static int check_env(char *err, size_t errlen)
{
    const char *t = getenv("TERM");

    if (!isatty(STDIN_FILENO))
        return fail(err, errlen, "standard input is not a terminal "
                    "(for output without one use --snapshot or --export)");
    if (!isatty(STDOUT_FILENO))
        return fail(err, errlen, "standard output is not a terminal "
                    "(for output without one use --snapshot or --export)");
    if (!t || !*t)
        return fail(err, errlen, "TERM is not set; set it to your "
                    "terminal's type, e.g. TERM=xterm-256color");
    if (strcmp(t, "dumb") == 0)
        return fail(err, errlen, "TERM=dumb cannot move the cursor; "
                    "use --snapshot or a real terminal");
    return 0;
}

/* Append a string to the reset buffer, dropping $<..> padding. */
static void reset_add_str(const char *s)
{
    for (; *s && reset_len < sizeof reset_buf - 1; s++) {
        if (s[0] == '$' && s[1] == '<' && strchr(s, '>')) {
            s = strchr(s, '>');
            continue;
        }
        reset_buf[reset_len++] = *s;
    }
}

/* ... a terminfo capability, if the terminal has it. */
static void reset_add(const char *cap)
{
    const char *s = tigetstr(cap);

    if (s && s != (char *)-1)
        reset_add_str(s);
}

/* Prepare what term_emergency_restore() writes: nothing there may
 * allocate or ask terminfo, so it is built now. */
static void reset_prepare(void)
{
    reset_len = 0;
    reset_add_str(CAN);       /* a frame may have been cut mid-sequence */
    reset_add("sgr0");
    reset_add_str(MODES_OFF);
    reset_add("rmkx");        /* application cursor keys and keypad off */
    reset_add("cnorm");
    reset_add("rmcup");
}

/* Look TERM up without letting curses print or exit. */
static int check_terminfo(char *err, size_t errlen)
{
    int e = 0;
    const char *cup;

    if (setupterm(NULL, STDOUT_FILENO, &e) != OK) {
        snprintf(err, errlen, "unknown terminal type TERM=%s "
                 "(no terminfo entry); try TERM=xterm-256color",
                 getenv("TERM"));
        return -1;
    }
    cup = tigetstr("cup");
    if (!cup || cup == (char *)-1) {
        del_curterm(cur_term);
        return fail(err, errlen, "this terminal has no cursor addressing "
                    "(terminfo 'cup'); use --snapshot or a real terminal");
    }
    reset_prepare();
    del_curterm(cur_term);
    return 0;
}

/* Input as keys, no echo, and Ctrl-S / Ctrl-Q as keys rather than
 * flow control (with IXON a stray Ctrl-S freezes all output). */
static void setup_input(void)
{
    struct termios t;

    cbreak();
    noecho();
    nonl();
    intrflush(stdscr, FALSE);
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    leaveok(stdscr, TRUE);
    set_escdelay(25);
    define_key("\033[200~", KEY_PASTE_BEGIN);
    define_key("\033[201~", KEY_PASTE_END);
    curs_set(0);
    if (tcgetattr(STDIN_FILENO, &t) == 0) {
        t.c_iflag &= ~(tcflag_t)(IXON | IXOFF);
        tcsetattr(STDIN_FILENO, TCSANOW, &t);
        def_prog_mode();   /* so resuming after endwin keeps IXON off */
    }
}

/* Deepest colour mode the terminal itself offers. */
static enum color_mode color_max(void)
{
    if (!has_colors())
        return COLOR_NONE;
    if (COLORS >= 0x1000000)
        return COLOR_TRUE;
    if (COLORS >= 256)
        return COLOR_256;
    if (COLORS >= 16)
        return COLOR_16;
    return COLORS >= 8 ? COLOR_8 : COLOR_NONE;
}

/* NO_COLOR, then --color (never beyond the terminal), then COLORTERM
 * with a direct-colour terminfo, then COLORS. */
static enum color_mode color_pick(int flag)
{
    const char *nc = getenv("NO_COLOR"), *ct = getenv("COLORTERM");
    enum color_mode max = color_max(), m;

    if (nc && *nc)
        return COLOR_NONE;
    if (flag >= 0)
        m = (enum color_mode)flag < max ? (enum color_mode)flag : max;
    else if (max == COLOR_TRUE && ct &&
             (strcmp(ct, "truecolor") == 0 || strcmp(ct, "24bit") == 0))
        m = COLOR_TRUE;
    else
        m = max == COLOR_TRUE ? COLOR_256 : max;
    /* direct-colour terminfo reads numbers 8 and up as RGB, so the
     * bright ANSI colours 8..15 cannot be asked for by number there */
    if (direct && m == COLOR_16)
        m = COLOR_8;
    return m;
}

static void setup_color(void)
{
    if (!has_colors())
        return;
    start_color();
    use_default_colors();
    direct = COLORS >= 0x1000000;
    memset(pcache, 0, sizeof pcache);
    pairs_used = 0;
    pairs_full = 0;
}

/*
 * COLUMNS and LINES, when exported, make curses ignore the size the
 * terminal reports and every resize after it.  Where the terminal can
 * say its size they are dropped before curses starts; they count only
 * where it cannot.  (use_env(FALSE) is no help: it drops the terminal's
 * size as well, for terminfo's fixed 80x24, and resizes stop working.)
 */
static void size_source(void)
{
    struct winsize ws;

    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 &&
        ws.ws_row > 0) {
        unsetenv("COLUMNS");
        unsetenv("LINES");
    }
}

/*
 * Open the screen on a copy of the terminfo entry without REP and
 * scrolling (termcaps.h), so the bytes suit every emulator that claims
 * to be an xterm; curses then repaints changed rows instead of
 * scrolling them.  TERMINFO points at the copy only while curses reads
 * it.  Where no compiled entry is found, the entry is used as it is.
 */
static SCREEN *open_portable(void)
{
    const char *term = getenv("TERM"), *old = getenv("TERMINFO");
    char dir[512], *keep = old ? strdup(old) : NULL;
    SCREEN *s;
    int patched = termcaps_portable(term, dir, sizeof dir) == 0;

    if (patched)
        setenv("TERMINFO", dir, 1);
    s = newterm(NULL, stdout, key_in);
    if (patched) {
        if (keep)
            setenv("TERMINFO", keep, 1);
        else
            unsetenv("TERMINFO");
        termcaps_remove(dir, term);
    }
    free(keep);
    return s;
}

/* ---- asking the terminal -------------------------------------------- */

/* Write s straight to the terminal, after what curses has sent. */
void term_write_raw(const char *s, size_t n)
{
    ssize_t r;

    fflush(stdout);
    while (n > 0 && (r = write(STDOUT_FILENO, s, n)) != 0) {
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        s += r;
        n -= (size_t)r;
    }
}

static void send_raw(const char *s)
{
    term_write_raw(s, strlen(s));
}

static long now_ms(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Whether the DECRQM answer r (len bytes) says mode 2026 exists:
 * ESC [ ? 2026 ; Ps $ y with Ps 1 (set), 2 (reset) or 3 (always set). */
static int sync_answer(const char *r, size_t len)
{
    int ps = 0;

    if (len < 10 || strncmp(r, "\033[?2026;", 8) != 0 ||
        sscanf(r + 8, "%d", &ps) != 1)
        return 0;
    return ps >= 1 && ps <= 3;
}

static int is_da1(const char *r, size_t len)
{
    return len > 3 && r[2] == '?' && r[len - 1] == 'c';
}

/*
 * The questions, in two rounds: DECRQM for mode 2026 and DA1, which
 * every terminal answers; then, once that DA1 is answered, the graphics
 * probe (gfx_probe.h).  Answers are taken whenever they come: start-up
 * waits for them a while (QUERY_MS for the first round, gfx_wait for
 * the second), and what comes later still counts (graphics may start
 * late; term_graphics_late).
 */
enum probe_stage { PROBE_SYNC, PROBE_GFX, PROBE_DONE };

static struct {
    enum probe_stage stage;
    int want;               /* enum gfx_mode; GFX_CELLS: no graphics round */
    int tmux;               /* inside tmux: the graphics round through it */
    long t0;                /* when the first round was asked */
    long sent;              /* when the round in progress was asked */
    int da1_owed;           /* DA1 questions not answered yet */
    int rtt;                /* ms the first DA1 took, -1 before it */
    int answers;            /* the terminal has answered something */
    int asked[ASK_MAX][2];  /* the cells when the text area was asked again
                               (term_ask_cell), oldest first */
    int n_asked;
    int open;               /* term_open returned: answers now are late */
    int late;               /* graphics answers came late, not yet taken */
} pr;

static struct gfx_probe gprobe;

/* ms the graphics round waits at start-up, after a first round trip of
 * rtt ms. */
static int gfx_wait(int rtt)
{
    int ms = 2 * rtt + 50;

    ms = ms > GFX_PROBE_MS ? ms : GFX_PROBE_MS;
    return ms < GFX_PROBE_MAX_MS ? ms : GFX_PROBE_MAX_MS;
}

static void ask_graphics(void)
{
    struct winsize ws;

    memset(&gprobe, 0, sizeof gprobe);
    gprobe.tmux = pr.tmux;
    gprobe.wait_ms = gfx_wait(pr.rtt);
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) {
        gprobe.cols = ws.ws_col;
        gprobe.rows = ws.ws_row;
    }
    pr.stage = PROBE_GFX;
    pr.sent = now_ms();
    pr.da1_owed++;
    send_raw(pr.tmux ? GFX_PROBE_QUERY_TMUX : GFX_PROBE_QUERY);
}

/* A report from the terminal: what it answers. */
static void on_report(const char *r, size_t len)
{
    long t = now_ms();

    pr.answers = 1;
    if (r[1] == '[' && r[len - 1] == 'y' && sync_answer(r, len))
        sync_ok = 1;
    if (is_da1(r, len) && pr.da1_owed > 0)
        pr.da1_owed--;
    if (pr.stage == PROBE_SYNC && is_da1(r, len)) {
        pr.rtt = (int)(t - pr.sent);
        if (pr.want != GFX_CELLS)
            ask_graphics();
        else
            pr.stage = PROBE_DONE;
        return;
    }
    if (pr.stage == PROBE_SYNC ||
        gfx_probe_report(&gprobe, r, len) <= 0)
        return;
    if (pr.n_asked && r[1] == '[' && r[2] == '4' && r[len - 1] == 't') {
        gprobe.cols = pr.asked[0][0];   /* the area is of the cells then */
        gprobe.rows = pr.asked[0][1];
        memmove(pr.asked, pr.asked + 1, --pr.n_asked * sizeof pr.asked[0]);
    }
    gprobe.ms = (int)(t - pr.t0);
    if (pr.stage == PROBE_GFX && gfx_probe_done(&gprobe))
        pr.stage = PROBE_DONE;
    if (pr.open)
        pr.late = 1;
}

/*
 * Keys: everything read that is no report goes, in order, into a pipe
 * that curses reads as its input, so curses decodes keys as it always
 * does and never sees a report.  What the pipe cannot take at once waits
 * in spill (it is written before anything else is read).
 */
static struct termreply replies;
static struct { char *p; size_t n, cap; } spill;

static void spill_flush(void)
{
    size_t off = 0;

    while (off < spill.n) {
        ssize_t w = write(key_pipe[1], spill.p + off, spill.n - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    spill.n -= off;
    memmove(spill.p, spill.p + off, spill.n);
}

static void spill_add(const char *s, size_t n)
{
    if (spill.n + n > spill.cap) {
        size_t cap = spill.cap ? spill.cap : 4096;
        char *p;

        while (cap < spill.n + n)
            cap *= 2;
        if (!(p = realloc(spill.p, cap)))
            return;                 /* out of memory: these keys are lost */
        spill.p = p;
        spill.cap = cap;
    }
    memcpy(spill.p + spill.n, s, n);
    spill.n += n;
}

static void on_input(void *ctx, int report, const char *s, size_t n)
{
    (void)ctx;
    if (report) {
        on_report(s, n);
        return;
    }
    spill_add(s, n);
    spill_flush();
}

/* A report may still be on its way: a DA1 asked is unanswered, and
 * the terminal has answered before (however slowly: a byte a second) or
 * was asked lately.  Then a lone ESC (or ESC [ 6 and the like) waits
 * longer for the rest of a report. */
static int reply_owed(long t)
{
    return pr.da1_owed > 0 && (pr.answers || t - pr.sent < OWED_MS);
}

/* Held bytes that waited long enough go out as keys: ms until the next
 * would, or -1. */
static int expire_held(void)
{
    long t = now_ms();

    return termreply_expire(&replies, t, KEY_GAP_MS,
                            reply_owed(t) ? REPLY_GAP_MS : KEY_GAP_MS,
                            REPLY_GAP_MS, on_input, NULL);
}

/* Read what the terminal sent, waiting at most ms for it: reports to
 * on_report, keys into the pipe.  -1 when the terminal is gone. */
static int pump(int ms)
{
    struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
    char buf[4096];
    ssize_t n;
    int r;

    if (spill.n)
        spill_flush();
    if (spill.n && pr.open) {
        expire_held();
        return 0;                   /* curses reads first */
    }
    r = poll(&p, 1, ms);
    if (r > 0 && (p.revents & POLLIN)) {
        n = read(STDIN_FILENO, buf, sizeof buf);
        if (n > 0) {
            empty_wakes = 0;
            termreply_feed(&replies, buf, (size_t)n, now_ms(), on_input, NULL);
        } else if ((n == 0 && ++empty_wakes >= EOF_WAKES) ||
                   (n < 0 && errno == EIO)) {
            return -1;
        }
    } else if (r > 0 && (p.revents & (POLLHUP | POLLERR | POLLNVAL))) {
        return -1;
    }
    expire_held();
    return 0;
}

/* Read until done() or ms have passed since from. */
static void wait_for(int (*done)(void), long from, int ms)
{
    long left;

    while (!done() && (left = from + ms - now_ms()) > 0)
        if (pump(left < 20 ? (int)left : 20) < 0)
            break;
}

static int sync_done(void)
{
    return pr.stage != PROBE_SYNC;
}

static int gfx_done(void)
{
    return pr.stage != PROBE_GFX;
}

/*
 * Ask (DECRQM, DA1; then the graphics probe unless want is GFX_CELLS)
 * and wait for the answers a while.  A terminal that does not answer
 * DA1 in QUERY_MS starts in cells; its answer, when it comes, still
 * starts the graphics round.
 */
static void probe_start(int want, const char *typed, size_t ntyped)
{
    const char *tmux = getenv("TMUX");

    memset(&pr, 0, sizeof pr);
    memset(&gprobe, 0, sizeof gprobe);
    memset(&replies, 0, sizeof replies);
    pr.want = want;
    pr.tmux = tmux && *tmux;
    pr.rtt = -1;
    pr.stage = PROBE_SYNC;
    pr.t0 = pr.sent = now_ms();
    pr.da1_owed = 1;
    termreply_feed(&replies, typed, ntyped, pr.t0, on_input, NULL);
    send_raw("\033[?2026$p\033[c");
    wait_for(sync_done, pr.sent, QUERY_MS);
    if (pr.stage == PROBE_GFX)
        wait_for(gfx_done, pr.sent, gprobe.wait_ms);
    if (pr.stage == PROBE_GFX)
        gprobe.ms = (int)(now_ms() - pr.t0);
    pr.open = 1;
}

/* The pipe curses reads keys from: non-blocking to write (spill keeps
 * the rest), close-on-exec both ends.  0, or -1. */
static int keys_open(void)
{
    if (pipe(key_pipe) < 0)
        return -1;
    for (int i = 0; i < 2; i++)
        fcntl(key_pipe[i], F_SETFD, FD_CLOEXEC);
    fcntl(key_pipe[1], F_SETFL, fcntl(key_pipe[1], F_GETFL) | O_NONBLOCK);
    key_in = fdopen(key_pipe[0], "r");
    if (!key_in) {
        close(key_pipe[0]);
        close(key_pipe[1]);
        key_pipe[0] = key_pipe[1] = -1;
        return -1;
    }
    return 0;
}

static void keys_close(void)
{
    if (key_in)
        fclose(key_in);
    if (key_pipe[1] >= 0)
        close(key_pipe[1]);
    key_in = NULL;
    key_pipe[0] = key_pipe[1] = -1;
    free(spill.p);
    spill.p = NULL;
    spill.n = spill.cap = 0;
}

int term_queued(void)
{
    int n = 0;

    if (!scr)
        return 0;
    expire_held();
    return spill.n > 0 ||
           (ioctl(key_pipe[0], FIONREAD, &n) == 0 && n > 0);
}

int term_wait_ms(void)
{
    return scr ? expire_held() : -1;
}

void term_ask_cell(void)
{
    struct winsize ws;

    if (!scr || pr.stage != PROBE_DONE || pr.n_asked == ASK_MAX ||
        ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0)
        return;
    pr.asked[pr.n_asked][0] = ws.ws_col;
    pr.asked[pr.n_asked++][1] = ws.ws_row;
    send_raw("\033[14t\033[16t");
}

int term_graphics_late(void)
{
    int late = pr.late;

    pr.late = 0;
    return late;
}

void term_graphics_probe(struct gfx_probe *out)
{
    *out = gprobe;
}


int term_open(const struct term_opts *o, enum color_mode *mode, int *ascii,
              char *err, size_t errlen)
{
    /* the caller set LC_CTYPE (charset.h) */
    int utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;

    if (check_env(err, errlen) < 0 || check_terminfo(err, errlen) < 0)
        return -1;
    if (tcgetattr(STDIN_FILENO, &saved_tio) < 0)
        return fail(err, errlen, "cannot read the terminal's modes");
    size_source();
    if (keys_open() < 0)
        return fail(err, errlen, "cannot make a pipe for the keys");
    scr = open_portable();
    if (!scr) {
        keys_close();
        return fail(err, errlen, "cannot start the terminal (newterm)");
    }
    set_term(scr);
    armed = 1;
    setup_input();
    setup_color();
    sync_ok = 0;
    probe_start(o->graphics, o->typed, o->ntyped);
    *mode = color_pick(o->color_flag);
    *ascii = !utf8 || o->ascii_flag;
    term_mouse(o->mouse);
    return 0;
}

void term_close(void)
{
    if (!scr)
        return;
    term_mouse(0);
    term_paste(0);
    endwin();
    delscreen(scr);
    scr = NULL;
    keys_close();
    tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_tio);
    armed = 0;
}

void term_emergency_restore(void)
{
    ssize_t r;

    if (!armed)
        return;
    armed = 0;
    tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
    r = write(STDOUT_FILENO, reset_buf, reset_len);
    (void)r;
}

void term_size(int *w, int *h)
{
    int y = 1, x = 1;

    if (scr)
        getmaxyx(stdscr, y, x);
    *w = x > 0 ? x : 1;
    *h = y > 0 ? y : 1;
}

int term_fd(void)
{
    return STDIN_FILENO;
}

int term_ready(void)
{
    struct pollfd p = { STDOUT_FILENO, POLLOUT, 0 };

    if (!scr)
        return 1;
    return poll(&p, 1, 0) == 1 && (p.revents & POLLOUT);
}

/* Linux keeps the count in /proc/self/io ("wchar: N"). */
long long term_written(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    char line[64];
    long long v = -1;

    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "wchar: %lld", &v) == 1)
            break;
    fclose(f);
    return v;
}

void term_invalidate(void)
{
    if (scr)
        clearok(curscr, TRUE);
}

void term_mouse(int on)
{
    if (!scr || on == mouse_on)
        return;
    mouseinterval(0);
    /* Every button, though only a left press means something (term_key
     * filters): for a report outside the mask ncurses reads on for the
     * next report, so a right or middle click blocked the program in
     * read() until the next left click. */
    mousemask(on ? ALL_MOUSE_EVENTS : 0, NULL);
    mouse_on = on;
}

/* Written straight to the terminal: between frames curses has nothing
 * buffered, so the order is kept. */
static void send(const char *s)
{
    size_t len = strlen(s), off = 0;
    ssize_t r;

    while (off < len && ((r = write(STDOUT_FILENO, s + off, len - off)) > 0 ||
                         (r < 0 && errno == EINTR)))
        off += r > 0 ? (size_t)r : 0;
}

void term_paste(int on)
{
    if (!scr || on == paste_on)
        return;
    send(on ? PASTE_ON : PASTE_OFF);
    paste_on = on;
}

void term_suspend(void)
{
    int paste = paste_on;

    if (!scr)
        return;
    term_paste(0);             /* the shell gets its own paste mode */
    endwin();
    tcsetattr(STDIN_FILENO, TCSADRAIN, &saved_tio);
    raise(SIGSTOP);            /* cannot be caught: the shell sees a stop */
    /* continued: the next doupdate() re-enters program mode */
    clearok(curscr, TRUE);
    doupdate();
    term_paste(paste);
}

/* ---- drawing -------------------------------------------------------- */

/* A colour number for curses in the chosen mode (-1: default). */
static int color_num(rgb c, enum color_mode m)
{
    if (c == RGB_DEFAULT)
        return -1;
    switch (m) {
    case COLOR_TRUE:
        return c < 8 ? 8 : (int)c;  /* 0..7 would mean the ANSI palette */
    case COLOR_256:
        if (direct) {
            c = rgb_of_256(rgb_to_256(c));
            return c < 8 ? 8 : (int)c;
        }
        return rgb_to_256(c);
    case COLOR_16:
        return rgb_to_16(c);
    case COLOR_8:
        return rgb_to_8(c);
    default:
        return -1;
    }
}

/*
 * alloc_pair() for (fg, bg), with a small cache in front: a frame asks
 * for the same few pairs thousands of times.  Once the pair table is
 * full alloc_pair() recycles the least recently used pair (and curses
 * repaints cells on screen that showed it), so cached numbers can go
 * stale: from then on every lookup goes to alloc_pair() itself.
 */
static int pair_for(int fg, int bg)
{
    unsigned h = ((unsigned)fg * 2654435761u ^ (unsigned)bg * 40503u)
                 % PAIR_CACHE;
    struct pair_slot *s = &pcache[h];
    int p;

    if (fg == -1 && bg == -1)
        return 0;
    if (pairs_full)
        return (p = alloc_pair(fg, bg)) > 0 ? p : 0;
    if (s->pair > 0 && s->fg == fg && s->bg == bg)
        return s->pair;
    p = find_pair(fg, bg);
    if (p < 0) {
        p = alloc_pair(fg, bg);
        pairs_full = ++pairs_used >= COLOR_PAIRS - 1;
    }
    if (p <= 0)
        return 0;
    *s = (struct pair_slot){ fg, bg, p };
    return p;
}

static attr_t attrs_of(int a)
{
    attr_t r = WA_NORMAL;

    if (a & ATTR_BOLD)
        r |= WA_BOLD;
    if (a & ATTR_REVERSE)
        r |= WA_REVERSE;
    if (a & ATTR_DIM)
        r |= WA_DIM;
    if (a & ATTR_UNDERLINE)
        r |= WA_UNDERLINE;
    return r;
}

/* The glyph to send: never a control character, ASCII only when asked,
 * and as wide as the canvas laid it out (wide = 2 cells). */
static wchar_t glyph_of(uint32_t ch, int ascii, int wide)
{
    int w;

    if (ch < 0x20 || (ch >= 0x7f && ch < 0xa0))
        return L'?';
    if (ascii && ch > 0x7e)
        return L'?';
    if (ch < 0x80)
        return (wchar_t)ch;
    w = wcwidth((wchar_t)ch);
    if (w < 1 || (w == 2) != (wide != 0))
        return L'?';
    return (wchar_t)ch;
}

/*
 * A kitty Unicode placeholder: U+10EEEE with its row and column
 * diacritics, the image id as the foreground colour (an RGB number
 * where the terminfo entry takes them, else a palette index: the id is
 * below 256 then).
 */
static void draw_placeholder(int x, int y, const cell *c)
{
    wchar_t wc[4] = { (wchar_t)GFX_PLACEHOLDER,
                      (wchar_t)gfx_diacritic(c->level_top),
                      (wchar_t)gfx_diacritic(c->level_bot), L'\0' };
    int pair = pair_for(direct ? (int)c->fg : (int)(c->fg & 0xFF), -1);
    cchar_t cc;

    setcchar(&cc, wc, WA_NORMAL, 0, &pair);
    mvwadd_wch(stdscr, y, x, &cc);
}

/* Write one cell; returns 1 if it drew a glyph two cells wide. */
static int draw_cell(int x, int y, const cell *c, int wide, int ascii,
                     enum color_mode mode)
{
    cell r = canvas_resolve(c, ascii, mode);
    wchar_t wc[2] = { glyph_of(r.ch, ascii, wide), L'\0' };
    int pair = mode == COLOR_NONE ? 0
               : pair_for(color_num(r.fg, mode), color_num(r.bg, mode));
    cchar_t cc;

    if (c->kind == CELL_IMAGE && !ascii && mode >= COLOR_256) {
        draw_placeholder(x, y, c);
        return 0;
    }
    if (c->kind == CELL_WIDE_TAIL)
        wc[0] = L' ';           /* its wide glyph could not be shown */
    /* ncurses extension: opts points at an int pair, beyond short */
    setcchar(&cc, wc, attrs_of(r.attr), 0, &pair);
    mvwadd_wch(stdscr, y, x, &cc);
    return wide && wc[0] != L'?' && wc[0] != L' ';
}

void term_draw(const canvas *c, int ascii, enum color_mode mode)
{
    int w, h, x, y, cx = -1, cy = -1;

    if (!scr)
        return;
    term_size(&w, &h);
    if (w > c->w)
        w = c->w;
    if (h > c->h)
        h = c->h;
    for (y = 0; y < h; y++) {
        int covered = 0;        /* this cell is the right half of a glyph */

        for (x = 0; x < w; x++) {
            const cell *cl = canvas_at(c, x, y);
            const cell *next = x + 1 < w ? canvas_at(c, x + 1, y) : NULL;
            int wide = next && next->kind == CELL_WIDE_TAIL;

            if (covered && cl->kind == CELL_WIDE_TAIL) {
                covered = 0;
                continue;
            }
            covered = draw_cell(x, y, cl, wide, ascii, mode);
            if (cl->attr & ATTR_CURSOR) {
                cx = x;
                cy = y;
            }
        }
    }
    leaveok(stdscr, cx < 0);    /* else the cursor ends where the last
                                   change did */
    if (cx >= 0)            /* the inspected cell, for magnifiers and readers */
        wmove(stdscr, cy, cx);
    wnoutrefresh(stdscr);
    if (sync_ok)
        send_raw(SYNC_BEGIN);
    doupdate();
    if (sync_ok)
        send_raw(SYNC_END);
}

/* ---- input ---------------------------------------------------------- */

/* The next input from curses, read from the pipe; when it has none,
 * what the terminal sent meanwhile is read into it first.  ERR: none;
 * *gone: the terminal went away. */
static int next_in(int *gone)
{
    int r = wgetch(stdscr);

    if (r != ERR)
        return r;
    if (pump(0) < 0) {
        *gone = 1;
        return ERR;
    }
    return wgetch(stdscr);
}

/* The same, waiting up to ms for it (the rest of a character). */
static int next_in_wait(int ms, int *gone)
{
    long end = now_ms() + ms, left;
    int r;

    while ((r = next_in(gone)) == ERR && !*gone &&
           (left = end - now_ms()) > 0) {
        struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
        poll(&p, 1, (int)left);
    }
    return r;
}

static int key_of_code(wint_t k, int *mx, int *my)
{
    MEVENT ev;

    switch (k) {
    case KEY_UP: return PK_UP;
    case KEY_DOWN: return PK_DOWN;
    case KEY_LEFT: return PK_LEFT;
    case KEY_RIGHT: return PK_RIGHT;
    case KEY_PPAGE: return PK_PGUP;
    case KEY_NPAGE: return PK_PGDN;
    case KEY_HOME: return PK_HOME;
    case KEY_END: return PK_END;
    case KEY_ENTER: return PK_ENTER;
    case KEY_BACKSPACE: return PK_BACKSPACE;
    case KEY_DC: return PK_DELETE;
    case KEY_BTAB: return PK_BTAB;
    case KEY_RESIZE: return PK_RESIZE;
    case KEY_F(1): return PK_F1;
    case KEY_PASTE_BEGIN: return PK_PASTE_BEGIN;
    case KEY_PASTE_END: return PK_PASTE_END;
    case KEY_MOUSE:
        if (getmouse(&ev) != OK || !(ev.bstate & BUTTON1_PRESSED))
            return PK_NONE;
        if (mx)
            *mx = ev.x;
        if (my)
            *my = ev.y;
        return PK_MOUSE;
    default:
        return PK_NONE;       /* a key peviz has no use for */
    }
}

static int key_of_char(wint_t c)
{
    switch (c) {
    case '\r': case '\n': return PK_ENTER;
    case 127: case 8: return PK_BACKSPACE;
    case 27: return PK_ESC;
    case '\t': return PK_TAB;
    default: return (int)c;
    }
}

/*
 * The rest of a UTF-8 character whose first byte was lead; PK_NONE if
 * the bytes do not make one.  Decoded here, not by wget_wch: after a
 * byte that cannot start or continue a character, wget_wch reads on
 * through everything waiting (up to 145 bytes) and drops it all, so one
 * stray byte (a Latin-1 terminal, line noise) swallowed the keys typed
 * after it.  Here a broken sequence costs only its own bytes.
 */
static int utf8_key(int lead)
{
    int need = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : 1, i, b;
    long cp = lead & (0x3F >> need);
    static const long MIN[] = { 0, 0x80, 0x800, 0x10000 };

    if (lead < 0xC2 || lead > 0xF4)
        return PK_NONE;           /* a continuation byte, or never valid */
    for (i = 0; i < need; i++) {
        int gone = 0;

        b = next_in_wait(50, &gone);  /* a character's bytes come together */
        if (b == ERR)
            break;
        if (b < 0x80 || b > 0xBF) {
            ungetch(b);           /* the next key: keep it */
            break;
        }
        cp = cp << 6 | (b & 0x3F);
    }
    if (i < need || cp < MIN[need] || cp > 0x10FFFF ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return PK_NONE;           /* cut short, overlong or a surrogate */
    return (int)cp;
}

int term_key(int *mx, int *my)
{
    int r, k;

    if (!scr)
        return -2;
    for (;;) {
        int gone = 0;

        r = next_in(&gone);
        if (r == ERR)
            return gone ? -2 : PK_NONE;
        k = r >= KEY_MIN ? key_of_code((wint_t)r, mx, my)
          : r >= 0x80 ? utf8_key(r) : key_of_char((wint_t)r);
        if (k != PK_NONE)
            return k;         /* else skip it and read on */
    }
}
