/* SPDX-License-Identifier: ISC */
/*
 * gfx_live.c - images of the data areas on the live terminal (gfx_live.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "gfx_live.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "app.h"
#include "colormap.h"
#include "areas.h"
#include "gfx_probe.h"
#include "raster.h"
#include "tty.h"
#include "view.h"

#define KITTY_ID 4242u          /* the first image id; part k is KITTY_ID + k */
#define DEFAULT_CW 10           /* kitty scales to the cells: a guess is safe */
#define DEFAULT_CH 20
#define PARTS VIEW_RASTER_PARTS
#define INK_DARK 0x202020u      /* ink on a light background */

/* One image on screen: a data area of the view (view.h's part). */
struct img {
    int shown;                  /* it is on screen */
    int x, y, w, h;             /* its cells */
    uint64_t hash;              /* of its pixels */
    int view;                   /* the view it shows */
    int vw, vh;                 /* the view area it was laid out in */
    cell *seen;                 /* its cells as last drawn (w x h) */
    long frame;                 /* the frame it was last sent in */
    int art;                    /* a line drawing (raster.h) */
};

/* A cell drawn over an image sent this frame (the cursor, marks, the PCA
 * face's hand): sixel and iTerm2 pixels cover what curses wrote before
 * them, so it is drawn again after. */
struct later {
    int x, y;
    cell c;
};

static struct {
    enum gfx_mode mode;
    enum gfx_mode want;         /* --graphics */
    rgb fg, bg;                 /* the terminal's default colours */
    struct gfx_cell cell;       /* pixels a cell, exactly */
    int cw, ch;                 /* ... and whole, as the rasters are drawn */
    struct img im[PARTS];
    struct gbuf out;            /* queued for gfx_live_after */
    struct gbuf pre;            /* blanks, written before curses draws */
    long long bytes;
    int unicode;                /* kitty through tmux: Unicode placeholders */
    unsigned id;                /* their first image id */
    int sent;                   /* image bytes went out since the screen
                                   was last blanked whole */
    long frame;                 /* frames through gfx_live_before */
    int repaint;                /* this frame curses repaints every cell */
    int sweep_cells;            /* cells until the sweep stops: its frames'
                                   images were over the budget */
    int sweep_said;             /* ... and the status line said so */
    canvas *cv;                 /* this frame's, until gfx_live_after */
    int ascii;                  /* ... and how it is drawn */
    enum color_mode color;
    struct later *later;        /* cells to draw again after the images */
    int n_later, cap_later;
} L = { .mode = GFX_CELLS, .id = KITTY_ID, .fg = RASTER_FG,
        .bg = RASTER_BG };

enum gfx_mode gfx_live_mode(void)
{
    return L.mode;
}

long long gfx_live_bytes(void)
{
    return L.bytes;
}

/* Pixels a cell (gfx_probe_cell: the text area over its cells, the cell
 * size, the window's pixels), and the whole pixels a cell is drawn at
 * (at least 1); 0 when nothing says. */
static void cell_pixels(const struct gfx_probe *p, struct gfx_cell *c,
                        int *cw, int *ch)
{
    struct winsize ws;
    memset(&ws, 0, sizeof ws);
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0)
        memset(&ws, 0, sizeof ws);
    gfx_probe_cell(p, ws.ws_col, ws.ws_row, ws.ws_xpixel, ws.ws_ypixel, c);
    *cw = gfx_cell_span(1, c->w_num, c->w_den);
    *ch = gfx_cell_span(1, c->h_num, c->h_den);
    if (c->w_num && *cw < 1)
        *cw = 1;
    if (c->h_num && *ch < 1)
        *ch = 1;
}

/*
 * Inside tmux kitty images go through its passthrough and show where
 * placeholder cells are drawn, the image id their foreground colour: a
 * 24-bit id in direct colour (room for 128 parts), else a palette index
 * (16 .. 255; an image id per part from the first), told
 * apart from another program's by the process id.  Fewer colours:
 * cells.  Returns 0, or -1 having said why.
 */
static int unicode_start(struct app *a, const char *why)
{
    unsigned pid = (unsigned)getpid();
    L.unicode = 1;
    if (a->color < COLOR_256 || a->ascii) {
        L.mode = GFX_CELLS;
        if (!a->msg[0])
            app_msg(a, 0, "graphics: cells (%s, but its placeholders need "
                    "256 colours and UTF-8)", why);
        return -1;
    }
    L.id = a->color == COLOR_TRUE ? 0x400000u | ((pid << 7) & 0x3FFF80u)
                                  : 16u + pid % (240u - PARTS);
    return 0;
}

/* The images' default colours: the terminal's (OSC 11, OSC 10), so
 * that on a light theme a face is not a dark square; without its
 * foreground, ink that shows on its background. */
static void colours(const struct gfx_probe *p)
{
    L.bg = p->has_bg ? p->bg : RASTER_BG;
    if (p->has_fg)
        L.fg = p->fg;
    else
        L.fg = rgb_contrast(INK_DARK, L.bg) > rgb_contrast(RASTER_FG, L.bg)
               ? INK_DARK : RASTER_FG;
}

/* The mode from the probe p; 0, or -1 when it fell back to cells
 * (said, unless another note holds the line).  late: p came after
 * start-up stopped waiting for it (said so). */
static int choose(struct app *a, enum gfx_mode want,
                  const struct gfx_probe *p, char *why, size_t len)
{
    const char *tp = getenv("TERM_PROGRAM"), *lt = getenv("LC_TERMINAL"),
               *tmux = getenv("TMUX");
    L.mode = gfx_choose(want, p, tp, lt, tmux && *tmux, why, len);
    cell_pixels(p, &L.cell, &L.cw, &L.ch);
    colours(p);
    if (L.mode == GFX_KITTY && tmux && *tmux && unicode_start(a, why) < 0)
        return -1;
    if (L.mode == GFX_KITTY && (L.cw < 2 || L.ch < 2)) {
        L.cw = DEFAULT_CW;
        L.ch = DEFAULT_CH;
    }
    if (L.mode != GFX_CELLS && L.mode != GFX_KITTY && (L.cw < 2 || L.ch < 2)) {
        L.mode = GFX_CELLS;
        if (!a->msg[0])
            app_msg(a, 0, "graphics: cells (%s, but the cell size in pixels is "
                    "unknown)", why);
        return -1;
    }
    return 0;
}

void gfx_live_start(struct app *a, enum gfx_mode want)
{
    struct gfx_probe p;
    char why[64];
    term_graphics_probe(&p);
    L.want = want;
    if (choose(a, want, &p, why, sizeof why) < 0)
        return;
    /* once, unless another start-up note holds the line; auto finding
     * nothing says nothing (cells, as always) */
    if (!a->msg[0] && (want != GFX_AUTO || L.mode != GFX_CELLS))
        app_msg(a, 0, "graphics: %s%s (%s)", L.mode == GFX_CELLS ? "cells"
                : gfx_mode_name(L.mode), L.unicode ? " placeholders" : "",
                why);
}

static uint64_t hash_raster(const struct view_raster *r)
{
    uint64_t h = 1469598103934665603ull;
    int meta[6] = { r->x, r->y, r->w, r->h, r->cw, r->ch };
    const unsigned char *m = (const unsigned char *)meta;
    for (size_t i = 0; i < sizeof meta; i++)
        h = (h ^ m[i]) * 1099511628211ull;
    size_t n = (size_t)r->w * (size_t)r->cw * (size_t)r->h * (size_t)r->ch;
    for (size_t i = 0; i < n; i++)
        h = (h ^ r->px[i]) * 1099511628211ull;
    return h;
}

/* Overwrite cells (x, y, w, h), as far as they are on the screen now,
 * with spaces: sixel and iTerm2 pixels are not cleared by ED or EL
 * everywhere.  The spaces go out before curses draws, and curses
 * repaints the whole screen over them. */
static void blank_area(int x, int y, int w, int h)
{
    int sw, sh;
    term_size(&sw, &sh);
    if (x + w > sw)
        w = sw - x;
    if (y + h > sh)
        h = sh - y;
    gbuf_puts(&L.pre, "\0337\033[0m");
    for (int r = 0; r < h; r++) {
        gbuf_printf(&L.pre, "\033[%d;%dH", y + r + 1, x + 1);
        for (int c = 0; c < w; c++)
            gbuf_put(&L.pre, " ", 1);
    }
    gbuf_puts(&L.pre, "\0338");
    term_invalidate();
    L.repaint = 1;
}

/* Write what is queued in b now. */
static void flush(struct gbuf *b)
{
    if (b->len) {
        term_write_raw(b->p, b->len);
        L.bytes += (long long)b->len;
    }
    b->len = 0;
    b->failed = 0;
}

/* The kitty id of part k's image. */
static unsigned id_of(int k)
{
    return (L.unicode ? L.id : KITTY_ID) + (unsigned)k;
}

static void take_off(int k)
{
    struct img *I = &L.im[k];
    if (!I->shown)
        return;
    if (L.mode == GFX_KITTY && L.unicode) {
        struct gbuf t = { NULL, 0, 0, 0 };
        gfx_kitty_delete(&t, id_of(k));
        gfx_tmux_wrap(&L.out, t.p, t.len);
        gbuf_free(&t);
    } else if (L.mode == GFX_KITTY) {
        gfx_kitty_delete(&L.out, id_of(k));
    } else {
        blank_area(I->x, I->y, I->w, I->h);
    }
    I->shown = 0;
}

static void take_off_all(void)
{
    for (int k = 0; k < PARTS; k++)
        take_off(k);
}

/* The colours of a line drawing, at most 256 into pal: their number,
 * or 0 when it has more. */
static int palette_own(const struct image *im, uint32_t *pal)
{
    int n = 0;
    for (int y = 0; y < im->h; y++)
        for (int x = 0; x < im->w; x++) {
            rgb c = image_get(im, x, y);
            int k = 0;
            while (k < n && pal[k] != c)
                k++;
            if (k == n && (n == 256 || (pal[n++] = c, 0)))
                return 0;
        }
    return n;
}

/* The sixel palette: the view's colour map at 255 levels and the
 * background of empty pixels. */
static void palette_for(const struct app *a, uint32_t *pal)
{
    for (int k = 0; k < 255; k++)
        pal[k] = a->view == VIEW_ATTENTION
                 ? cmap_sequential(a->palette, k / 254.0)
                 : cmap_diverging(a->palette, -1 + 2.0 * k / 254);
    pal[255] = raster_bg();
}

/* The image with a virtual placement, through tmux's passthrough: no
 * cursor, the placeholder cells place it. */
static int encode_virtual(const struct image *im, const struct view_raster *r,
                          int k)
{
    struct gbuf t = { NULL, 0, 0, 0 };
    int rc = gfx_kitty_virtual(&t, im, id_of(k), r->w, r->h);
    if (rc == 0)
        gfx_tmux_wrap(&L.out, t.p, t.len);
    gbuf_free(&t);
    return rc < 0 || L.out.failed ? -1 : 0;
}

/* Sixel and iTerm2 images are shown pixel for pixel: im (drawn at whole
 * pixels a cell) resampled to the pixels of r's cells, floor(cells *
 * area / columns) each way (gfx_cell_span).  kitty scales to the cells
 * itself.  0, or -1 (im freed) when out of memory. */
static int fit_cells(struct image *im, const struct view_raster *r)
{
    struct image fit;
    int w = gfx_cell_span(r->w, L.cell.w_num, L.cell.w_den);
    int h = gfx_cell_span(r->h, L.cell.h_num, L.cell.h_den);
    if (w < 1 || h < 1 || (w == im->w && h == im->h))
        return 0;
    int rc = raster_scale(im, w, h, &fit);
    image_free(im);
    *im = fit;
    return rc;
}

/* The image's escape bytes, at its top-left cell, the cursor kept. */
static int encode(const struct app *a, const struct view_raster *r, int k)
{
    struct image im;
    uint32_t pal[256];
    int rc;
    if (raster_image(r, raster_bg(), &im) < 0)
        return -1;
    if (L.unicode) {
        rc = encode_virtual(&im, r, k);
        image_free(&im);
        return rc;
    }
    if (L.mode != GFX_KITTY && fit_cells(&im, r) < 0)
        return -1;
    gbuf_printf(&L.out, "\0337\033[%d;%dH", r->y + 1, r->x + 1);
    if (L.mode == GFX_KITTY) {
        rc = gfx_kitty(&L.out, &im, id_of(k), r->w, r->h);
    } else if (L.mode == GFX_SIXEL) {
        int n = r->art ? palette_own(&im, pal) : 0;
        if (!n)
            palette_for(a, pal);
        rc = gfx_sixel(&L.out, &im, pal, n ? n : 256);
    } else {
        rc = gfx_iterm2(&L.out, &im);
    }
    gbuf_puts(&L.out, "\0338");
    image_free(&im);
    return rc;
}

/* An ATTR_OVER cell, or a cell of a drawing it moves over, in the
 * image's colours: its background, and its ink for the default
 * foreground (a light terminal's dark text would not show on it). */
static void tint(cell *c)
{
    if (c->fg == RGB_DEFAULT)
        c->fg = raster_fg();
    if (c->bg == RGB_DEFAULT)
        c->bg = raster_bg();
}

/* Cell c at (x, y), to be drawn again after the images. */
static void draw_later(int x, int y, const cell *c)
{
    if (L.n_later == L.cap_later) {
        int cap = L.cap_later ? 2 * L.cap_later : 64;
        struct later *p = realloc(L.later, (size_t)cap * sizeof *p);
        if (!p)
            return;
        L.later = p;
        L.cap_later = cap;
    }
    L.later[L.n_later++] = (struct later){ x, y, *c };
}

/* Cells the image lies under, blanked so that kitty shows it (text glyphs
 * would cover it), or placeholder cells of its row and column; what
 * raster_covers_in leaves (cursor, marks) stays.  A line drawing's cells
 * are blanked in every mode: curses then never repaints its dots over a
 * sixel or iTerm2 image.  Its ATTR_OVER cells (the PCA face's hand) stay
 * text over it in the image's colours.  With sixel and iTerm2 curses
 * writes them over its pixels, and may write unchanged cells between
 * changed ones too: so there the cells of a drawing they move over
 * (RASTER_ART_OVER) keep their drawing, in the image's colours, and a cell
 * the hand has left shows it until the image goes again. */
static void blank_covered(canvas *cv, const struct view_raster *r, int k)
{
    int keep = (r->art & RASTER_ART_OVER) && L.mode != GFX_KITTY;
    for (int y = r->y; y < r->y + r->h; y++)
        for (int x = r->x; x < r->x + r->w; x++) {
            cell *c = canvas_at(cv, x, y);
            if (r->art && c && (c->attr & ATTR_OVER)) {
                tint(c);
                continue;
            }
            if (!raster_covers_in(r, c))
                continue;
            if (keep)
                tint(c);
            else if (L.unicode)
                *c = (cell){ GFX_PLACEHOLDER, id_of(k), RGB_DEFAULT, 0,
                             CELL_IMAGE, (uint8_t)(y - r->y),
                             (uint8_t)(x - r->x) };
            else
                canvas_put(cv, x, y, ' ', RGB_DEFAULT, RGB_DEFAULT, 0);
        }
}

/* The cells text covers in image r, sent this frame (sixel, iTerm2), to
 * be drawn again after it (ATTR_OVER ones as blank_covered tints them):
 * blanks of the default colours are left. */
static void over_later(const canvas *cv, const struct view_raster *r)
{
    for (int y = r->y; y < r->y + r->h; y++)
        for (int x = r->x; x < r->x + r->w; x++) {
            const cell *c = canvas_at(cv, x, y);
            cell t;
            if (!c || raster_covers_in(r, c) ||
                (c->kind == CELL_TEXT && c->ch == ' ' && !c->attr &&
                 c->bg == RGB_DEFAULT))
                continue;
            t = *c;
            if (r->art && (t.attr & ATTR_OVER))
                tint(&t);
            draw_later(x, y, &t);
        }
}

/* Queue part k's image r, or turn images off when it is over the
 * low-bandwidth budget (and say so: returns 1, the frame must be drawn
 * again). */
static int send(struct app *a, const struct view_raster *r, uint64_t hash,
                int k)
{
    struct img *I = &L.im[k];
    size_t before = L.out.len;
    if (encode(a, r, k) < 0) {
        L.out.len = before;
        return 0;
    }
    size_t cost = L.out.len - before;
    if (a->low_bandwidth && cost > GFX_LOWBW_IMAGE) {
        L.out.len = before;
        take_off_all();
        app_msg(a, 0, "graphics: cells (an image of %zu KB is over the "
                "low-bandwidth budget)", (cost + 1023) / 1024);
        L.mode = GFX_CELLS;
        return 1;
    }
    I->shown = 1;
    I->frame = L.frame;
    L.sent = 1;
    I->hash = hash;
    I->x = r->x;
    I->y = r->y;
    I->w = r->w;
    I->h = r->h;
    I->art = r->art;
    return 0;
}

/* Cells that may change kind between frames without the data changing:
 * the cursor's old and new cell, and marks beside it. */
#define KIND_CHANGES_MAX 8

/* Whether test(k, o, ctx) holds for every cell k of frame cv under
 * image I and the cell o it showed when sent. */
static int seen_all(const struct img *I, const canvas *cv,
                    int (*test)(const cell *k, const cell *o, void *ctx),
                    void *ctx)
{
    for (int y = 0; y < I->h; y++)
        for (int x = 0; x < I->w; x++) {
            const cell *k = canvas_at(cv, I->x + x, I->y + y);
            if (!k || !test(k, &I->seen[y * I->w + x], ctx))
                return 0;
        }
    return 1;
}

/* A half block then and now keeps its colours; at most
 * KIND_CHANGES_MAX cells (counted in *ctx) turn to or from one. */
static int cell_kept(const cell *k, const cell *o, void *ctx)
{
    int *kinds = ctx;
    if (raster_covers(k) != raster_covers(o) && ++*kinds > KIND_CHANGES_MAX)
        return 0;
    return !(raster_covers(k) && raster_covers(o) &&
             (k->fg != o->fg || k->bg != o->bg));
}

/* Whether image I's cells still show what they showed when it was
 * sent: the view area has the same size, every cell that is a half block
 * now and was one then has the same colours, and only a few cells turned
 * from half blocks to text or back (the cursor moving; not a view that
 * replaced its picture with a progress line).  Cheap: the raster is
 * computed only when not. */
static int cells_same(const struct img *I, const struct app *a,
                      const canvas *cv, int vw, int vh)
{
    int kinds = 0;
    if (!I->shown || !I->seen || (int)a->view != I->view || vw != I->vw ||
        vh != I->vh)
        return 0;
    return seen_all(I, cv, cell_kept, &kinds);
}

static void cells_keep(struct img *I, const struct app *a, const canvas *cv,
                       int vw, int vh)
{
    I->vw = vw;
    I->vh = vh;
    free(I->seen);
    I->seen = malloc((size_t)I->w * (size_t)I->h * sizeof *I->seen + 1);
    I->view = (int)a->view;
    for (int y = 0; I->seen && y < I->h; y++)
        for (int x = 0; x < I->w; x++)
            I->seen[y * I->w + x] = *canvas_at(cv, I->x + x, I->y + y);
}

/* Placeholders say rows and columns up to 255 (a cell's levels), in
 * 256 colours at least. */
#define UNICODE_MAX 255

static int wanted(const struct app *a)
{
    if (L.unicode && (a->color < COLOR_256 || a->ascii))
        return 0;
    return !a->help && a->split == 0 &&
           (a->view == VIEW_HEATMAP || a->view == VIEW_ATTENTION ||
            a->view == VIEW_COMPARE || a->view == VIEW_CLOCKS);
}

/* A cell that text covers (in raster *ctx) is the same as it was;
 * ATTR_OVER cells are left to blank_covered. */
static int mark_kept(const cell *k, const cell *o, void *ctx)
{
    const struct view_raster *r = ctx;
    if ((k->attr | o->attr) & ATTR_OVER)
        return 1;
    return raster_covers_in(r, k) == raster_covers_in(r, o) &&
           (raster_covers_in(r, k) || !memcmp(k, o, sizeof *k));
}

/* Whether the cells of line drawing I that text covers (marks, a tip)
 * are those it had when sent: with sixel and iTerm2 a cell that turns
 * from text back to a blank is written by curses over the image's
 * pixels, so the image must go again.  ATTR_OVER cells do not count:
 * blank_covered keeps the cells they leave drawn. */
static int marks_same(const struct img *I, const canvas *cv,
                      const struct view_raster *r)
{
    if (!I->seen || r->x != I->x || r->y != I->y || r->w != I->w ||
        r->h != I->h)
        return 0;
    return seen_all(I, cv, mark_kept, (void *)r);
}

/* Part k of the view area (w x h) in frame cv: kept while its cells
 * are the same, else its raster sent when its pixels changed.  1: images
 * were turned off (draw the frame again). */
static int part(struct app *a, canvas *cv, int w, int h, int k)
{
    struct img *I = &L.im[k];
    struct view_raster r;
    int again = 0;
    /* a line drawing's cells cannot say whether a hand moved by less
     * than a dot: its pixels are computed (cheap) and hashed each frame */
    if (!I->art && cells_same(I, a, cv, w, h)) {
        struct view_raster same = { I->x, I->y, I->w, I->h, L.cw, L.ch, NULL,
                                     0 };
        if (L.mode == GFX_KITTY)
            blank_covered(cv, &same, k);
        return 0;
    }
    if (view_raster(a, a->view, w, h, L.cw, L.ch, 0, k, &r) < 0) {
        take_off(k);
        return 0;
    }
    if (L.unicode && (r.w > UNICODE_MAX || r.h > UNICODE_MAX)) {
        free(r.px);
        take_off(k);
        return 0;
    }
    uint64_t hash = hash_raster(&r);
    if (I->shown && L.mode != GFX_KITTY &&
        (r.x != I->x || r.y != I->y || r.w != I->w || r.h != I->h))
        take_off(k);
    if (!I->shown || hash != I->hash ||
        (r.art && L.mode != GFX_KITTY && !marks_same(I, cv, &r)))
        again = send(a, &r, hash, k);
    if (I->shown)
        cells_keep(I, a, cv, w, h);
    if (I->shown && I->frame == L.frame && L.mode != GFX_KITTY &&
        (!r.art || (r.art & RASTER_ART_OVER)))
        over_later(cv, &r);
    if ((L.mode == GFX_KITTY || r.art) && I->shown)
        blank_covered(cv, &r, k);
    free(r.px);
    return again;
}

/* The images of one frame (the clock faces turning) together over the
 * budget give way to cells: with --low-bandwidth for the run, else while
 * the sweep plays; said once.  1: the frame must be drawn again.  start:
 * where this frame's images begin in out. */
static int over_budget(struct app *a, size_t start)
{
    size_t cost = L.out.len - start;
    if (cost <= GFX_LOWBW_IMAGE || (!a->low_bandwidth && !a->playing))
        return 0;
    L.out.len = start;
    L.n_later = 0;
    take_off_all();
    if (a->low_bandwidth) {
        app_msg(a, 0, "graphics: cells (the images of one frame, %zu KB, are "
                "over the low-bandwidth budget)", (cost + 1023) / 1024);
        L.mode = GFX_CELLS;
    } else {
        if (!L.sweep_said)
            app_msg(a, 0, "graphics: cells while the sweep plays (its images, "
                    "%zu KB a frame, are over the budget of %d bytes)",
                    (cost + 1023) / 1024, GFX_LOWBW_IMAGE);
        L.sweep_said = 1;
        L.sweep_cells = 1;
    }
    return 1;
}

static int before(struct app *a, canvas *cv)
{
    int w, h, parts = view_raster_parts(a->view);
    size_t start;
    L.cv = cv;
    L.ascii = a->ascii;
    L.color = a->color;
    if (L.mode == GFX_CELLS)
        return 0;
    if (!a->playing)
        L.sweep_cells = 0;
    if (!wanted(a) || L.sweep_cells) {
        take_off_all();
        return 0;
    }
    areas_view_size(a, cv->w, cv->h, &w, &h);
    for (int k = parts; k < PARTS; k++)
        take_off(k);
    start = L.out.len;          /* this frame's images from here */
    for (int k = 0; k < parts; k++)
        if (part(a, cv, w, h, k))
            return 1;
    /* one image taken off (blanked) has curses repaint every cell: sixel
     * and iTerm2 images it paints over go again */
    for (int k = 0; L.repaint && L.mode != GFX_KITTY && k < parts; k++)
        if (L.im[k].shown && L.im[k].frame != L.frame) {
            L.im[k].shown = 0;
            if (part(a, cv, w, h, k))
                return 1;
        }
    return over_budget(a, start);
}

int gfx_live_before(struct app *a, canvas *cv)
{
    L.frame++;
    L.repaint = 0;
    L.n_later = 0;
    raster_ink(L.fg, L.bg);     /* this frame's images in the terminal's */
    int again = before(a, cv);
    raster_ink(RASTER_FG, RASTER_BG);
    if (again)                  /* no image goes: nothing to draw after */
        L.n_later = 0;
    /* the blanks went out after anything curses drew since they were
     * queued (wgetch refreshes a window a resize touched): curses is told
     * now that the screen no longer shows what it drew */
    if (L.pre.len)
        term_invalidate();
    flush(&L.pre);
    return again;
}

/* The cells of draw_later, over the pixels just written: curses is told
 * they changed (drawn blank, then as they are), so it writes them. */
static void redraw_later(void)
{
    static const cell blank = { ' ', RGB_DEFAULT, RGB_DEFAULT, 0, CELL_TEXT,
                                LEVEL_NONE, LEVEL_NONE };
    if (!L.n_later || !L.cv)
        return;
    for (int i = 0; i < L.n_later; i++)
        *canvas_at(L.cv, L.later[i].x, L.later[i].y) = blank;
    term_draw(L.cv, L.ascii, L.color);
    for (int i = 0; i < L.n_later; i++)
        *canvas_at(L.cv, L.later[i].x, L.later[i].y) = L.later[i].c;
    term_draw(L.cv, L.ascii, L.color);
}

void gfx_live_after(void)
{
    flush(&L.pre);
    flush(&L.out);
    redraw_later();
    L.n_later = 0;
    L.cv = NULL;
}

void gfx_live_hide(void)
{
    take_off_all();
    gfx_live_after();
}

/* The screen is repainted (resized, Ctrl-L, resumed): sixel and iTerm2
 * pixels of an image sent before may stay, and a terminal may have moved
 * them when it resized (scrolled, reflowed), so every cell of the screen
 * is written with a space first: w x h bytes, next to nothing beside an
 * image. */
static void forget(void)
{
    if (L.mode != GFX_KITTY && L.mode != GFX_CELLS && L.sent) {
        int w, h;
        term_size(&w, &h);
        blank_area(0, 0, w, h);
        L.sent = 0;
    }
    for (int k = 0; k < PARTS; k++)
        L.im[k].shown = 0;
}

/* ... and sixel and iTerm2, shown pixel for pixel, ask the cell's size
 * again: a resize may come with another font (gfx_live_late takes it). */
void gfx_live_forget(void)
{
    forget();
    if (L.mode == GFX_SIXEL || L.mode == GFX_ITERM2)
        term_ask_cell();
}

int gfx_live_late(struct app *a)
{
    struct gfx_probe p;
    struct gfx_cell was = L.cell;
    char why[64];
    term_graphics_probe(&p);
    if (L.want == GFX_CELLS)
        return 0;
    if (L.mode != GFX_CELLS) {      /* images already: only their size */
        int cw = L.cw, ch = L.ch;
        cell_pixels(&p, &L.cell, &L.cw, &L.ch);
        if (L.cw < 2 || L.ch < 2 || L.mode == GFX_KITTY) {
            L.cell = was;
            L.cw = cw;
            L.ch = ch;
            return 0;
        }
        if (!memcmp(&was, &L.cell, sizeof was))
            return 0;
        forget();
        return 1;
    }
    if (choose(a, L.want, &p, why, sizeof why) < 0 || L.mode == GFX_CELLS)
        return 0;
    app_msg(a, 0, "graphics: %s%s (%s, answered late, %d ms after start)",
            gfx_mode_name(L.mode), L.unicode ? " placeholders" : "", why,
            p.ms);
    return 1;
}

void gfx_live_stop(void)
{
    take_off_all();
    gfx_live_after();
    gbuf_free(&L.out);
    gbuf_free(&L.pre);
    for (int k = 0; k < PARTS; k++) {
        free(L.im[k].seen);
        L.im[k].seen = NULL;
    }
    free(L.later);
    L.later = NULL;
    L.n_later = L.cap_later = 0;
    L.mode = GFX_CELLS;
}
