/* SPDX-License-Identifier: ISC */
/*
 * snapshot.c - write a canvas as plain text, as text with SGR colour
 * escapes, or as SVG; and save any of them atomically.
 *
 * Every format goes through canvas_resolve, as the terminal backend does,
 * so a snapshot shows the same glyphs the screen would.
 */
#define _POSIX_C_SOURCE 200809L

#include "snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "colormap.h"
#include "png_out.h"
#include "peviz/names.h"

static const char *const FORMAT_NAMES[] = { "text", "ansi", "svg" };

int snap_format_parse(const char *name)
{
    return names_find(FORMAT_NAMES, NAMES_COUNT(FORMAT_NAMES), name);
}

/*
 * Cell x of row y as it will be shown.  Double-width glyphs whose pair
 * is broken (which the canvas never produces, but a cell can be poked
 * directly) are shown as a space, so the row never shifts.
 */
static cell cell_shown(const canvas *c, int x, int y, int ascii,
                       enum color_mode mode)
{
    const cell *k = canvas_at(c, x, y);
    cell r = canvas_resolve(k, ascii, mode);
    const cell *next = canvas_at(c, x + 1, y);

    if (r.kind == CELL_WIDE_TAIL) {
        const cell *prev = canvas_at(c, x - 1, y);
        if (!prev || prev->kind == CELL_WIDE_TAIL || cp_width(prev->ch) != 2) {
            r.ch = ' ';
            r.kind = CELL_TEXT;
        }
    } else if (cp_width(r.ch) == 2 &&
               (!next || next->kind != CELL_WIDE_TAIL)) {
        r.ch = ' ';
    }
    return r;
}

/* A cell that shows nothing (in plain text any space; with escapes a
 * space that has no background, reverse or underline to show): trailing
 * ones are trimmed. */
static int cell_blank(const cell *r, int ansi)
{
    if (r->ch != ' ' || r->kind == CELL_WIDE_TAIL)
        return 0;
    return !ansi || ((r->bg & RGB_DEFAULT) &&
                     !(r->attr & (ATTR_REVERSE | ATTR_UNDERLINE)));
}

/* Number of cells of row y up to the last non-blank one. */
static int row_extent(const canvas *c, int y, int ascii,
                      enum color_mode mode, int ansi)
{
    int x;

    for (x = c->w; x > 0; x--) {
        cell r = cell_shown(c, x - 1, y, ascii, mode);
        if (!cell_blank(&r, ansi))
            break;
    }
    return x;
}

static void put_cp(FILE *f, uint32_t ch)
{
    char buf[5];

    fwrite(buf, 1, (size_t)utf8_encode(ch, buf), f);
}

/* ---- text and ANSI --------------------------------------------------------- */

/* Colour as an SGR key for the mode: -1 default, else what is sent. */
static long sgr_color(rgb c, enum color_mode mode)
{
    if (c & RGB_DEFAULT)
        return -1;
    switch (mode) {
    case COLOR_TRUE: return (long)c;
    case COLOR_256:  return rgb_to_256(c);
    case COLOR_16:   return rgb_to_16(c);
    case COLOR_8:    return rgb_to_8(c);
    default:         return -1;
    }
}

struct sgr {
    long fg, bg;
    int attr;
};

/* Append one ";n" parameter; the first ';' is dropped when written. */
static void sgr_num(char *buf, size_t len, long v)
{
    size_t n = strlen(buf);

    if (n < len)
        snprintf(buf + n, len - n, ";%ld", v);
}

static void sgr_color_param(char *buf, size_t len, long v, int bg,
                            enum color_mode mode)
{
    long base = bg ? 40 : 30;

    if (v < 0) {
        sgr_num(buf, len, base + 9);
    } else if (mode == COLOR_TRUE) {
        sgr_num(buf, len, base + 8);
        sgr_num(buf, len, 2);
        sgr_num(buf, len, (v >> 16) & 0xFF);
        sgr_num(buf, len, (v >> 8) & 0xFF);
        sgr_num(buf, len, v & 0xFF);
    } else if (mode == COLOR_256) {
        sgr_num(buf, len, base + 8);
        sgr_num(buf, len, 5);
        sgr_num(buf, len, v);
    } else {
        sgr_num(buf, len, v < 8 ? base + v : base + 60 + (v - 8));
    }
}

/*
 * Move the terminal from state *cur to want with as few parameters as
 * possible.  Attributes cannot be switched off one by one portably, so
 * losing one resets everything (SGR 0) and sets back what is wanted.
 */
static void sgr_change(FILE *f, struct sgr *cur, const struct sgr *want,
                       enum color_mode mode)
{
    static const struct { int attr; long code; } ATTRS[] = {
        {ATTR_BOLD, 1}, {ATTR_DIM, 2}, {ATTR_UNDERLINE, 4}, {ATTR_REVERSE, 7}
    };
    char buf[96] = "";
    int i, add;

    if (cur->fg == want->fg && cur->bg == want->bg && cur->attr == want->attr)
        return;
    if (cur->attr & ~want->attr) {
        sgr_num(buf, sizeof buf, 0);
        cur->fg = cur->bg = -1;
        cur->attr = 0;
    }
    add = want->attr & ~cur->attr;
    for (i = 0; i < 4; i++)
        if (add & ATTRS[i].attr)
            sgr_num(buf, sizeof buf, ATTRS[i].code);
    if (cur->fg != want->fg)
        sgr_color_param(buf, sizeof buf, want->fg, 0, mode);
    if (cur->bg != want->bg)
        sgr_color_param(buf, sizeof buf, want->bg, 1, mode);
    fprintf(f, "\033[%sm", buf + 1);
    *cur = *want;
}

static void row_write(FILE *f, const canvas *c, int y, int ascii,
                      enum color_mode mode, int ansi)
{
    struct sgr cur = { -1, -1, 0 };
    int x, end = row_extent(c, y, ascii, mode, ansi);

    for (x = 0; x < end; x++) {
        cell r = cell_shown(c, x, y, ascii, mode);
        if (r.kind == CELL_WIDE_TAIL)
            continue;
        if (ansi) {
            struct sgr want = { sgr_color(r.fg, mode), sgr_color(r.bg, mode),
                                r.attr };
            /* a plain space shows no foreground: keep the current one */
            if (r.ch == ' ' && !(r.attr & (ATTR_REVERSE | ATTR_UNDERLINE)))
                want.fg = (cur.attr & ~want.attr) ? -1 : cur.fg;
            sgr_change(f, &cur, &want, mode);
        }
        put_cp(f, r.ch);
    }
    if (cur.fg != -1 || cur.bg != -1 || cur.attr != 0)
        fputs("\033[0m", f);
    fputc('\n', f);
}

/* ---- SVG ------------------------------------------------------------------- */

#define SVG_CW 8            /* cell width, px */
#define SVG_CH 16           /* cell height, px */
#define SVG_FONT "13.33"    /* px: a monospace advance of 0.6em = 8 px */
#define SVG_BASELINE 12     /* px below the cell top */
#define SVG_BG 0x1E1E1Eu    /* the default colours, as a dark theme */
#define SVG_FG 0xD0D0D0u

/* What a cell looks like in the SVG: two background halves and a glyph. */
struct svg_cell {
    rgb top, bot;           /* RGB_DEFAULT: page background */
    uint32_t ch;            /* ' ': none */
    rgb fg;
    int attr;
    int skip;               /* tail of a wide glyph */
};

static struct svg_cell svg_cell_of(const canvas *c, int x, int y, int ascii,
                                   enum color_mode mode)
{
    const cell *k = canvas_at(c, x, y);
    struct svg_cell s;
    cell r;

    if (k->kind == CELL_HALF && !ascii && mode != COLOR_NONE) {
        /* drawn as two rectangles: exact, whatever the font */
        s.top = k->fg;
        s.bot = k->bg;
        s.ch = ' ';
        s.fg = RGB_DEFAULT;
        s.attr = 0;
        s.skip = 0;
        return s;
    }
    r = cell_shown(c, x, y, ascii, mode);
    s.fg = r.fg;
    s.top = s.bot = r.bg;
    if (r.attr & ATTR_REVERSE) {
        s.fg = (r.bg & RGB_DEFAULT) ? SVG_BG : r.bg;
        s.top = s.bot = (r.fg & RGB_DEFAULT) ? SVG_FG : r.fg;
    }
    s.ch = r.ch;
    /* XML 1.0 cannot carry these two noncharacters */
    if (s.ch == 0xFFFE || s.ch == 0xFFFF)
        s.ch = 0xFFFD;
    s.attr = r.attr & (ATTR_BOLD | ATTR_DIM | ATTR_UNDERLINE);
    s.skip = r.kind == CELL_WIDE_TAIL;
    return s;
}

static void svg_color(FILE *f, rgb c, rgb dflt)
{
    if (c & RGB_DEFAULT)
        c = dflt;
    fprintf(f, "#%06x", (unsigned)(c & 0xFFFFFF));
}

static void svg_rect(FILE *f, int x, int y, int w, int h, rgb col)
{
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"",
            x, y, w, h);
    svg_color(f, col, SVG_BG);
    fputs("\"/>\n", f);
}

/* One rectangle per run of equal non-default background on row y; a run
 * of half-block cells with two colours gets one for each half. */
static void svg_row_rects(FILE *f, const struct svg_cell *s, int w, int y)
{
    int x = 0;

    while (x < w) {
        int e = x + 1;
        while (e < w && s[e].top == s[x].top && s[e].bot == s[x].bot)
            e++;
        if (s[x].top == s[x].bot) {
            if (!(s[x].top & RGB_DEFAULT))
                svg_rect(f, x * SVG_CW, y * SVG_CH, (e - x) * SVG_CW, SVG_CH,
                         s[x].top);
        } else {
            if (!(s[x].top & RGB_DEFAULT))
                svg_rect(f, x * SVG_CW, y * SVG_CH, (e - x) * SVG_CW,
                         SVG_CH / 2, s[x].top);
            if (!(s[x].bot & RGB_DEFAULT))
                svg_rect(f, x * SVG_CW, y * SVG_CH + SVG_CH / 2,
                         (e - x) * SVG_CW, SVG_CH / 2, s[x].bot);
        }
        x = e;
    }
}

static void svg_escape_cp(FILE *f, uint32_t ch)
{
    switch (ch) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs("&quot;", f); break;
    case '\'': fputs("&apos;", f); break;
    default: put_cp(f, ch); break;
    }
}

static int svg_same_style(const struct svg_cell *a, const struct svg_cell *b)
{
    return a->fg == b->fg && a->attr == b->attr;
}

/*
 * A run of glyphs in one style starting at cell x0: it extends over
 * single spaces (so that copied text keeps its words apart) but stops at
 * two blanks, a style change, or a code point beyond the BMP (SVG
 * viewers disagree on how those count against the x list).  Returns the
 * cell after the run; *last is its last glyph cell.
 */
static int svg_run_end(const struct svg_cell *s, int w, int x0, int *last)
{
    int x = x0 + 1;

    *last = x0;
    if (s[x0].ch > 0xFFFF)
        return x0 + 1;
    while (x < w) {
        if (s[x].skip) {
            x++;
            continue;
        }
        if (s[x].ch == ' ') {
            if (x + 1 >= w || s[x + 1].ch == ' ' || s[x + 1].skip)
                break;
            x++;
            continue;
        }
        if (!svg_same_style(&s[x], &s[x0]) || s[x].ch > 0xFFFF)
            break;
        *last = x;
        x++;
    }
    return *last + 1;
}

static void svg_text_run(FILE *f, const struct svg_cell *s, int x0, int last,
                         int y)
{
    int x;
    const char *sep = "";

    fputs("<text x=\"", f);
    for (x = x0; x <= last; x++) {
        if (s[x].skip)
            continue;
        fprintf(f, "%s%d", sep, x * SVG_CW);
        sep = " ";
    }
    fprintf(f, "\" y=\"%d\" fill=\"", y * SVG_CH + SVG_BASELINE);
    svg_color(f, s[x0].fg, SVG_FG);
    fputc('"', f);
    if (s[x0].attr & ATTR_BOLD)
        fputs(" font-weight=\"bold\"", f);
    if (s[x0].attr & ATTR_DIM)
        fputs(" fill-opacity=\"0.6\"", f);
    if (s[x0].attr & ATTR_UNDERLINE)
        fputs(" text-decoration=\"underline\"", f);
    fputc('>', f);
    for (x = x0; x <= last; x++)
        if (!s[x].skip)
            svg_escape_cp(f, s[x].ch);
    fputs("</text>\n", f);
}

static void svg_row_texts(FILE *f, const struct svg_cell *s, int w, int y)
{
    int x = 0, last;

    while (x < w) {
        if (s[x].skip || s[x].ch == ' ') {
            x++;
            continue;
        }
        int x0 = x;
        x = svg_run_end(s, w, x0, &last);
        svg_text_run(f, s, x0, last, y);
    }
}

static int svg_write(FILE *f, const canvas *c, int ascii,
                     enum color_mode mode)
{
    struct svg_cell *row = malloc(((size_t)c->w + 1) * sizeof *row);
    int W = c->w * SVG_CW, H = c->h * SVG_CH, x, y, pass;

    if (!row)
        return -1;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\"\n"
            "     shape-rendering=\"crispEdges\">\n", W, H, W, H);
    svg_rect(f, 0, 0, W, H, SVG_BG);
    /* backgrounds first, then all text on top of them */
    for (pass = 0; pass < 2; pass++) {
        if (pass == 1)
            fprintf(f, "<g font-family=\"monospace\" font-size=\"" SVG_FONT
                    "px\" xml:space=\"preserve\">\n");
        for (y = 0; y < c->h; y++) {
            for (x = 0; x < c->w; x++)
                row[x] = svg_cell_of(c, x, y, ascii, mode);
            if (pass == 0)
                svg_row_rects(f, row, c->w, y);
            else
                svg_row_texts(f, row, c->w, y);
        }
    }
    fputs("</g>\n</svg>\n", f);
    free(row);
    return 0;
}

/* ---- entry points ---------------------------------------------------------- */

int snapshot_write(FILE *f, const canvas *c, enum snap_format fmt,
                   int ascii, enum color_mode mode)
{
    int y;

    if (fmt == SNAP_SVG) {
        if (svg_write(f, c, ascii, mode) < 0)
            return -1;
    } else {
        for (y = 0; y < c->h; y++)
            row_write(f, c, y, ascii, mode, fmt == SNAP_ANSI);
    }
    if (fflush(f) != 0 || ferror(f))
        return -1;
    return 0;
}

/* Make the file readable like any other new file (mkstemp gives 0600). */
static void file_mode_default(int fd)
{
    mode_t um = umask(022);

    umask(um);
    (void)fchmod(fd, 0666 & ~um);
}

/*
 * The temporary file being written, for snapshot_abandon(): a signal
 * that ends the program mid-write must not leave it behind.  Set only
 * while the name is complete (pending_set is written last).
 */
static char pending[4096];
static volatile sig_atomic_t pending_set;

static void pending_begin(const char *tmp)
{
    size_t n = strlen(tmp);

    if (n < sizeof pending) {
        memcpy(pending, tmp, n + 1);
        pending_set = 1;
    }
}

void snapshot_abandon(void)
{
    if (pending_set) {
        pending_set = 0;
        unlink(pending);
    }
}

/* Give tmp the name path, never replacing a file there: a hard link
 * fails with EEXIST.  Where the file system has no hard links, an empty
 * file made with O_EXCL claims the name and the rename fills it. */
static int publish(const char *tmp, const char *path)
{
    int fd;

    if (link(tmp, path) == 0)
        return 0;
    if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOSYS &&
        errno != EMLINK && errno != EXDEV)
        return -1;
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0)
        return -1;
    close(fd);
    return rename(tmp, path);
}

/* "dir/.name.XXXXXX" for mkstemp, next to path. */
static char *temp_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = slash ? slash + 1 : path;
    size_t n = strlen(path) + 16;
    char *t = malloc(n);

    if (t)
        snprintf(t, n, "%.*s.%s.XXXXXX", (int)dirlen, path, base);
    return t;
}

/* What a save writes into its temporary file: 0, or -1 on an error. */
typedef int (*save_fn)(FILE *f, const void *ctx);

struct canvas_save {
    const canvas *c;
    enum snap_format fmt;
    int ascii;
    enum color_mode mode;
};

static int write_canvas(FILE *f, const void *ctx)
{
    const struct canvas_save *cs = ctx;
    return snapshot_write(f, cs->c, cs->fmt, cs->ascii, cs->mode);
}

static int write_png(FILE *f, const void *ctx)
{
    return png_write(f, ctx);
}

/* Write through fn into a temporary file next to path, then publish it
 * under path (never replacing a file). */
static int save_atomic(const char *path, save_fn fn, const void *ctx)
{
    char *tmp;
    FILE *f;
    int fd, err = 0;

    if (!path || !*path || path[strlen(path) - 1] == '/') {
        errno = EINVAL;
        return -1;
    }
    tmp = temp_name(path);
    if (!tmp)
        return -1;
    fd = mkstemp(tmp);
    if (fd < 0) {
        err = errno;
        free(tmp);
        errno = err;
        return -1;
    }
    pending_begin(tmp);
    file_mode_default(fd);
    f = fdopen(fd, "w");
    if (!f) {
        err = errno;
        close(fd);
    } else {
        errno = 0;
        if (fn(f, ctx) < 0 || fflush(f) != 0 || ferror(f) || fsync(fd) < 0)
            err = errno ? errno : EIO;
        errno = 0;
        if (fclose(f) != 0 && !err)
            err = errno ? errno : EIO;
    }
    if (!err && publish(tmp, path) < 0)
        err = errno;
    unlink(tmp);               /* published as path, or failed */
    pending_set = 0;
    free(tmp);
    errno = err;
    return err ? -1 : 0;
}

int snapshot_save(const char *path, const canvas *c, enum snap_format fmt,
                  int ascii, enum color_mode mode)
{
    struct canvas_save cs = { c, fmt, ascii, mode };
    return save_atomic(path, write_canvas, &cs);
}

int snapshot_save_png(const char *path, const struct image *im)
{
    return save_atomic(path, write_png, im);
}
