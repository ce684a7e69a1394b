/*
 * term.c - the terminal backend: the one file that includes curses.
 *
 * Opening checks everything that would make curses misbehave (no tty,
 * TERM unset, dumb or unknown, no cursor addressing) before newterm()
 * touches the screen, so the user gets our message and an untouched
 * terminal.  Drawing writes the whole canvas into stdscr and lets curses
 * send only the cells that changed, with one doupdate() per frame.
 */
#include <curses.h>
#include <term.h>         /* curses' own: setupterm, cur_term */

#include <errno.h>
#include <langinfo.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "colormap.h"
#include "gfx_probe.h"
#include "keys.h"
#include "termcaps.h"
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
#define QUERY_MS 400            /* wait at most this for the answers */

static SCREEN *scr;
static struct termios saved_tio;      /* the tty modes before we started */
static volatile sig_atomic_t armed;   /* emergency restore has work to do */
static char reset_buf[512];           /* written on a crash */
static size_t reset_len;
static int direct;                    /* terminfo takes RGB colour values */
static int mouse_on;
static int paste_on;
static int empty_wakes;               /* see input_gone() */
static int sync_ok;                   /* the terminal reported mode 2026 */
/* Input read while the start-up probes waited for their answers: kept
 * in order and taken before anything new.  Escape sequences are decoded
 * here with curses' own table (key_defined), as curses would have. */
#define EARLY_MAX 256
static int early[EARLY_MAX];
static int early_n, early_at;

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
    s = newterm(NULL, stdout, stdin);
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

/*
 * Length of a terminal report starting at s (n bytes): ESC [ ? then
 * digits, ';' and '$' up to a final letter.  0 if s does not start one,
 * -1 if it may but is not complete.
 */
static int report_len(const char *s, size_t n, char *final)
{
    size_t i;

    if (n < 1 || s[0] != '\033')
        return 0;
    if (n < 3)
        return (n < 2 || s[1] == '[') ? -1 : 0;
    if (s[1] != '[' || s[2] != '?')
        return 0;
    for (i = 3; i < n; i++) {
        char ch = s[i];
        if ((ch >= '0' && ch <= '9') || ch == ';' || ch == '$')
            continue;
        *final = ch;
        return (int)i + 1;
    }
    return -1;
}

/* Whether the DECRQM answer r (len bytes) says mode 2026 exists:
 * ESC [ ? 2026 ; Ps $ y with Ps 1 (set), 2 (reset) or 3 (always set). */
static int sync_answer(const char *r, int len)
{
    int ps = 0;

    if (len < 10 || strncmp(r, "\033[?2026;", 8) != 0 ||
        sscanf(r + 8, "%d", &ps) != 1)
        return 0;
    return ps >= 1 && ps <= 3;
}

/* Take the complete reports out of buf[*i..n), from *i on; bytes that
 * start none (keys typed early) are stepped over and kept.  Returns the
 * new length; *done is set once the DA1 answer came. */
static size_t strip_reports(char *buf, size_t n, size_t *i, int *done)
{
    while (*i < n) {
        char fin = 0;
        int l = report_len(buf + *i, n - *i, &fin);

        if (l < 0)
            break;                      /* wait for the rest */
        if (l == 0) {
            (*i)++;
            continue;
        }
        if (fin == 'y' && sync_answer(buf + *i, l))
            sync_ok = 1;
        *done |= fin == 'c';
        memmove(buf + *i, buf + *i + l, n - *i - (size_t)l);
        n -= (size_t)l;
    }
    return n;
}

/* The bytes buf[0..n) as keys appended to early[]: an escape sequence curses
 * knows as its key code, any other byte as itself.  key_defined answers
 * for the first whole sequence a string starts with, so the length is
 * the shortest string it knows. */
static void early_queue(const char *buf, size_t n)
{
    for (size_t i = 0; i < n && early_n < EARLY_MAX;) {
        int code = 0;
        size_t len = 1, most = n - i < 16 ? n - i : 16;
        for (size_t l = 2; buf[i] == '\033' && l <= most; l++) {
            char seq[17];
            memcpy(seq, buf + i, l);
            seq[l] = 0;
            int k = key_defined(seq);
            if (k > 0 && k != KEY_MOUSE) {  /* a click needs curses' own
                                               reading: dropped */
                code = k;
                len = l;
                break;
            }
        }
        early[early_n++] = code ? code : (unsigned char)buf[i];
        i += len;
    }
}

/* The next input: an early one, else curses'. */
static int next_in(void)
{
    return early_at < early_n ? early[early_at++] : wgetch(stdscr);
}

/* Put back b, the last next_in() gave. */
static void put_back(int b)
{
    if (early_at > 0 && early[early_at - 1] == b)
        early_at--;
    else
        ungetch(b);
}

/*
 * Ask the terminal whether it has synchronized output (DECRQM for mode
 * 2026), then for its attributes (DA1), which every terminal answers:
 * the DA1 answer ends the wait, so a terminal that ignores DECRQM costs
 * one round trip.  Anything else read meanwhile (keys typed early) goes
 * back to curses in order.  Returns 1 if the DA1 answer came.
 */
static int query_sync(void)
{
    char buf[256];
    size_t n = 0, i = 0;
    int done = 0, left = QUERY_MS;

    early_n = early_at = 0;
    send_raw("\033[?2026$p\033[c");
    while (!done && n < sizeof buf && left > 0) {
        struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
        ssize_t r;

        left -= 20;
        if (poll(&p, 1, 20) <= 0)
            continue;
        r = read(STDIN_FILENO, buf + n, sizeof buf - n);
        if (r <= 0)
            break;
        n = strip_reports(buf, n + (size_t)r, &i, &done);
    }
    early_queue(buf, n);
    return done;
}

int term_queued(void)
{
    return scr && early_at < early_n;
}

/* The graphics probe (gfx_probe.c does the asking and parsing); keys
 * typed meanwhile join the early queue.  A terminal that did not answer
 * DA1 just now will not answer it again: it is not asked.  A mode named
 * on the command line is asked too, for the cell size in pixels. */
static struct gfx_probe gprobe;

static void query_graphics(int want)
{
    char keys[256];
    size_t n = 0;
    const char *tmux;

    memset(&gprobe, 0, sizeof gprobe);
    if (want == GFX_CELLS)
        return;
    fflush(stdout);
    tmux = getenv("TMUX");
    if (gfx_probe_run(STDIN_FILENO, STDOUT_FILENO, tmux && *tmux, &gprobe, keys,
                      sizeof keys, &n) < 0)
        return;
    early_queue(keys, n);
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
    scr = open_portable();
    if (!scr)
        return fail(err, errlen, "cannot start the terminal (newterm)");
    set_term(scr);
    armed = 1;
    setup_input();
    setup_color();
    sync_ok = 0;
    query_graphics(query_sync() ? o->graphics : GFX_CELLS);
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

/*
 * After a read found nothing: is the terminal gone?  A hung-up tty polls
 * as POLLHUP; a tty at end of file polls readable with no bytes waiting,
 * which a live non-canonical tty never does.  Seen a few wakes in a row
 * it is taken as EOF rather than spun on.
 */
static int input_gone(void)
{
    struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
    int n = 0;

    if (poll(&p, 1, 0) <= 0)
        return 0;
    if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
        return 1;
    if ((p.revents & POLLIN) && ioctl(STDIN_FILENO, FIONREAD, &n) == 0 &&
        n == 0)
        return ++empty_wakes >= EOF_WAKES;
    return 0;
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
    wtimeout(stdscr, 50);         /* a character's bytes come together */
    for (i = 0; i < need; i++) {
        b = next_in();
        if (b == ERR)
            break;
        if (b < 0x80 || b > 0xBF) {
            put_back(b);          /* the next key: keep it */
            break;
        }
        cp = cp << 6 | (b & 0x3F);
    }
    nodelay(stdscr, TRUE);
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
        errno = 0;
        r = next_in();
        if (r == ERR) {
            if (errno == EIO || input_gone())
                return -2;
            return PK_NONE;
        }
        empty_wakes = 0;
        k = r >= KEY_MIN ? key_of_code((wint_t)r, mx, my)
          : r >= 0x80 ? utf8_key(r) : key_of_char((wint_t)r);
        if (k != PK_NONE)
            return k;         /* else skip it and read on */
    }
}
