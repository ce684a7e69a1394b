/* SPDX-License-Identifier: ISC */
/*
 * loop.c - the interactive program's one wait point.
 *
 * Everything that can happen (a key, a resize, a signal, the next
 * animation frame) wakes the same poll(): the terminal, a self-pipe that
 * signal handlers write a byte to, and a timeout that is the time to the
 * next frame, or infinite when nothing animates (0% CPU, 0 bytes idle).
 * Handlers only set flags; the loop acts on them.  A frame is drawn only
 * when something changed.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "charset.h"
#include "follow.h"
#include "errline.h"
#include "frame.h"
#include "frame_export.h"
#include "gfx_live.h"
#include "loop.h"
#include "record.h"
#include "snapshot.h"
#include "tour.h"

static volatile sig_atomic_t got_quit;   /* the signal that ends us */
static volatile sig_atomic_t got_tstp, got_cont;
static int wake[2] = { -1, -1 };         /* the self-pipe */
static struct sigaction winch_prev;      /* curses' SIGWINCH handler */
static struct follow *fol;               /* follow mode, or NULL */
static double autoplay_s;                /* --autoplay: seconds a step */
static double autoplay_next;             /* when the next step is due */
static int autoplay_step = -1;           /* the step it was set for */
static int rec_step = -1;                /* the tour step last marked */

/*
 * Every signal whose default action ends the process is taken over, so
 * that no way out leaves the terminal raw, on the alternate screen or
 * with the cursor hidden.  Two kinds:
 *  - quit: asynchronous requests to stop (Ctrl-C, kill, timers, I/O
 *    and real-time signals).  The handler sets a flag; the loop leaves
 *    through term_close() and exits with 128 + the signal.
 *  - crash: faults, and limits that must stop work at once (CPU time).
 *    The handler restores the terminal with async-signal-safe writes,
 *    removes an unfinished export and dies of the same signal.
 * SIGXFSZ (a file-size limit) is ignored: the write that crossed the
 * limit fails with EFBIG and the export says so.  What each signal did
 * before is put back at exit.
 */
#ifndef SIGSTKFLT
#define SIGSTKFLT 0
#endif
#ifndef SIGPWR
#define SIGPWR 0
#endif
static const int crash_sigs[] = {
    SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGXCPU,
    SIGSTKFLT
};
static const int quit_sigs[] = {
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
    SIGVTALRM, SIGPROF, SIGIO, SIGPWR
};
static const int own_sigs[] = { SIGTSTP, SIGCONT, SIGPIPE, SIGXFSZ, SIGWINCH };
#define MAX_SIG 128                      /* above SIGRTMAX everywhere */
static struct sigaction saved_sa[MAX_SIG];
static unsigned char saved[MAX_SIG];     /* saved_sa[sig] holds a value */

/* ---- signals -------------------------------------------------------- */

static void wake_up(void)
{
    ssize_t r = write(wake[1], "", 1);  /* full pipe: already awake */

    (void)r;
}

static void on_signal(int sig)
{
    int e = errno;

    if (sig == SIGTSTP)
        got_tstp = 1;
    else if (sig == SIGCONT)
        got_cont = 1;
    else
        got_quit = sig;
    wake_up();
    errno = e;
}

/* curses turns SIGWINCH into KEY_RESIZE; chain to it and wake poll()
 * (a signal landing just before poll() would otherwise be missed). */
static void on_winch(int sig)
{
    int e = errno;

    if (!(winch_prev.sa_flags & SA_SIGINFO) &&
        winch_prev.sa_handler != SIG_DFL && winch_prev.sa_handler != SIG_IGN)
        winch_prev.sa_handler(sig);
    wake_up();
    errno = e;
}

/* Fatal: only async-signal-safe work, then die of the same signal. */
static void on_crash(int sig)
{
    term_emergency_restore();
    snapshot_abandon();        /* an export cut short leaves no file */
    raise(sig);                /* the handler was reset to the default */
}

static void handle(int sig, void (*fn)(int), int flags)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

/* Remember what sig did, once; 0 if it is no signal here. */
static int save(int sig)
{
    if (sig <= 0 || sig >= MAX_SIG || saved[sig])
        return sig > 0 && sig < MAX_SIG;
    if (sigaction(sig, NULL, &saved_sa[sig]) < 0)
        return 0;
    saved[sig] = 1;
    return 1;
}

static int was_ignored(int sig)
{
    return saved_sa[sig].sa_handler == SIG_IGN;
}

/* A quit signal that was ignored stays ignored (nohup, background jobs). */
static void quit_install(int sig)
{
    if (save(sig) && !was_ignored(sig))
        handle(sig, on_signal, 0);
}

/* Installed before curses starts, so curses leaves these to us. */
static void signals_install(void)
{
    size_t i;
    int s;

    for (i = 0; i < sizeof quit_sigs / sizeof quit_sigs[0]; i++)
        quit_install(quit_sigs[i]);
    for (s = SIGRTMIN; s <= SIGRTMAX; s++)
        quit_install(s);
    for (i = 0; i < sizeof crash_sigs / sizeof crash_sigs[0]; i++) {
        s = crash_sigs[i];
        /* a fault is always ours; a limit signal ignored stays so */
        if (save(s) && !(s == SIGXCPU && was_ignored(s)))
            handle(s, on_crash, SA_RESETHAND | SA_NODEFER);
    }
    for (i = 0; i < sizeof own_sigs / sizeof own_sigs[0]; i++)
        save(own_sigs[i]);
    handle(SIGTSTP, on_signal, 0);
    handle(SIGCONT, on_signal, 0);
    handle(SIGPIPE, SIG_IGN, 0);
    handle(SIGXFSZ, SIG_IGN, 0);
}

/* After curses started (it installs its SIGWINCH handler then). */
static void winch_install(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_winch;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGWINCH, &sa, &winch_prev);
}

static void signals_restore(void)
{
    int s;

    for (s = 1; s < MAX_SIG; s++)
        if (saved[s]) {
            sigaction(s, &saved_sa[s], NULL);
            saved[s] = 0;
        }
}

static int wake_open(void)
{
    int i;

    if (pipe(wake) < 0)
        return -1;
    for (i = 0; i < 2; i++) {
        fcntl(wake[i], F_SETFL, fcntl(wake[i], F_GETFL) | O_NONBLOCK);
        fcntl(wake[i], F_SETFD, FD_CLOEXEC);
    }
    return 0;
}

static void wake_drain(void)
{
    char buf[64];

    while (read(wake[0], buf, sizeof buf) > 0)
        ;
}

static void wake_close(void)
{
    close(wake[0]);
    close(wake[1]);
    wake[0] = wake[1] = -1;
}

/* ---- frames and time ------------------------------------------------ */

struct clockw {
    int animating;      /* was animating after the last wake */
    double last;        /* time of the last tick (s, monotonic) */
    double next;        /* when the next frame is due */
    double shown;       /* when a frame was last sent to the terminal */
    int pending;        /* a frame was skipped: the screen is behind */
    int lag;            /* animation frames in a row the terminal lagged */
    double lag_s;       /* ... and the time they were held up, in s */
    double hold;        /* paced (pace_rate): no animation frame before this */
    int stalled;        /* busy frames in a row that did no work */
};

/* --low-bandwidth: at most this many frames per second, and animation
 * frames paced so that they send at most this many bytes per second
 * (a frame of B bytes holds the next one back B / LOWBW_RATE seconds,
 * at most LOWBW_HOLD). */
#define LOWBW_FPS 5
#define LOWBW_RATE 1500.0
#define LOWBW_HOLD 2.0
/* Animation frames in a row that found the terminal behind, or the time
 * they were held up, before low-bandwidth mode switches itself on: one
 * slow write is a hiccup, a run of them (or a write blocked for a whole
 * second) is a link slower than the animation. */
#define LAG_FRAMES 5
#define LAG_SECONDS 1.0

static double now_s(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double frame_period(const struct app *a)
{
    int fps = a->fps;

    if (fps < 1)
        fps = 1;
    if (fps > 120)
        fps = 120;
    if (a->low_bandwidth && fps > LOWBW_FPS)
        fps = LOWBW_FPS;
    return 1.0 / fps;
}

/* poll() timeout: until the next frame, or forever when idle. */
static int wait_ms(const struct app *a, struct clockw *k)
{
    double t = now_s(), ms;

    if (app_view_busy(a))              /* work left: keys, then the next slice, */
        return k->stalled < 3 ? 0  /* unless the view is not drawn (a */
               : (int)ceil(frame_period(a) * 1000.0);  /* help card...) */
    if (!app_animating(a)) {
        k->animating = 0;
        /* a skipped frame still owes the screen an update */
        return k->pending ? (int)ceil(frame_period(a) * 1000.0) : -1;
    }
    if (!k->animating) {           /* just started: count from now */
        k->animating = 1;
        k->last = t;
        k->next = t + frame_period(a);
    }
    ms = ceil(((k->next > k->hold ? k->next : k->hold) - t) * 1000.0);
    return ms < 0 ? 0 : (int)ms;
}

/* Advance the animation if a frame is due; 1 if something moved. */
static int tick(struct app *a, struct clockw *k)
{
    double t = now_s();
    int moved;

    if (!k->animating || !app_animating(a) || t < k->next || t < k->hold)
        return 0;
    moved = app_tick(a, t - k->last);
    k->last = t;
    k->next += frame_period(a);
    if (k->next < t)               /* fell behind: skip, do not catch up */
        k->next = t + frame_period(a);
    return moved;
}

/* Whether the screen needs a frame no key asked for: a skipped frame,
 * or unfinished work the view does in slices. */
static int owed(const struct app *a, const struct clockw *k)
{
    return k->pending || app_view_busy(a);
}

/* The byte rate animation frames are paced to: --low-bandwidth's, or
 * the view's own for this screen (0: none). */
static double pace_rate(const struct app *a, const canvas *cv)
{
    const struct view *v = view_current(a);
    if (a->low_bandwidth)
        return LOWBW_RATE;
    return v && v->pace > 0 ? v->pace * (double)cv->w * (double)cv->h : 0.0;
}

/* Make the canvas match the terminal. */
static int canvas_fit(canvas *cv)
{
    int w, h;

    term_size(&w, &h);
    if (cv->cells && cv->w == w && cv->h == h)
        return 0;
    canvas_free(cv);
    return canvas_init(cv, w, h);
}

/*
 * Lag: an animation frame skipped because the terminal had not taken the
 * last one yet, or one whose output took longer than a frame period to
 * write (the write blocked: the link is slower than the animation).  A
 * run of LAG_FRAMES turns low-bandwidth mode on, once, and says so.
 */
static void lag_count(struct app *a, struct clockw *k, int lagged,
                      double held)
{
    k->lag = lagged ? k->lag + 1 : 0;
    k->lag_s = lagged ? k->lag_s + held : 0;
    if ((k->lag < LAG_FRAMES && k->lag_s < LAG_SECONDS) ||
        a->low_bandwidth || !a->playing)
        return;
    a->low_bandwidth = 1;
    app_msg(a, 0, "the terminal cannot keep up: low-bandwidth mode on "
            "(%d frames/s, small updates)", LOWBW_FPS);
}

/* --record: the frame as shown, with a marker when a tour step is
 * shown for the first time since the last marker. */
static void record_shown(const struct app *a, const canvas *cv)
{
    char label[160];
    const char *mark = NULL;
    if (!record_active())
        return;
    int step = areas_tour_running(a) ? a->tour_step : -1;
    if (step >= 0 && step != rec_step) {
        snprintf(label, sizeof label, "%d/%d %s", step + 1, a->tour->nsteps,
                 a->tour->steps[step].title);
        mark = label;
    }
    rec_step = step;
    record_frame(cv, a->ascii, a->color, mark);
}

/* A recording that could not be written says so at once, on the frame
 * shown again with the message. */
static void record_told(struct app *a, canvas *cv)
{
    char msg[APP_MSG_LEN];
    if (!record_lost(msg, sizeof msg))
        return;
    app_msg(a, 1, "%s", msg);
    canvas_clear(cv);
    frame_draw(a, cv);
    term_draw(cv, a->ascii, a->color);
}

/*
 * Compute the frame and show it.  A frame a key asked for is shown at
 * once.  Otherwise (the sweep moved, or a slice of unfinished work was
 * done) it is skipped while the terminal is still behind, and slices are
 * shown at most at the frame rate: the work goes on in between.
 */
static void redraw(struct app *a, canvas *cv, struct clockw *k, int keyed)
{
    double t0 = now_s(), t1, rate = pace_rate(a, cv);
    long long bytes;
    int busy;

    a->screen_w = cv->w;        /* views size their key steps by it */
    a->screen_h = cv->h;
    canvas_clear(cv);
    frame_draw(a, cv);
    busy = app_view_busy(a);
    /* a slice takes milliseconds; a busy frame that took next to nothing
     * did no work (too small a screen: the view is not drawn), and the
     * loop must not spin on it */
    k->stalled = busy && now_s() - t0 < 1e-3 ? k->stalled + 1 : 0;
    if (!keyed && busy && t0 < k->shown + frame_period(a))
        return;                 /* a later frame shows this work */
    if (!keyed && !term_ready()) {
        k->pending = 1;
        lag_count(a, k, 1, frame_period(a));
        return;
    }
    t1 = now_s();
    bytes = rate > 0 && !keyed ? term_written() : -1;
    if (gfx_live_before(a, cv)) {   /* images off: the message shows */
        canvas_clear(cv);
        frame_draw(a, cv);
    }
    term_draw(cv, a->ascii, a->color);
    record_shown(a, cv);
    record_told(a, cv);
    gfx_live_after();
    k->shown = now_s();
    k->pending = 0;
    if (bytes >= 0 && (bytes = term_written() - bytes) >= 0)
        k->hold = k->shown + fmin((double)bytes / rate, LOWBW_HOLD);
    if (!keyed && !busy)
        lag_count(a, k, k->shown - t1 > frame_period(a), k->shown - t1);
}

/* ---- keys ----------------------------------------------------------- */

/* One key; returns 1 (every key may change what is shown). */
static int on_key(struct app *a, int key, int mx, int my)
{
    enum action act;

    if (key == PK_RESIZE) {
        gfx_live_forget();      /* the screen is repainted: images too */
        return 1;               /* the canvas is fitted before drawing */
    }
    a->opening = 0;             /* the first key ends the opening screen */
    if (key == PK_CTRL_L) {
        term_invalidate();
        gfx_live_forget();
        return 1;
    }
    if (follow_key(fol, a, key))    /* a follower: read-only keys */
        return 1;
    if (key == PK_MOUSE) {
        a->mouse_x = mx;
        a->mouse_y = my;
    }
    act = tour_offer_key(a, key);
    if (act == ACT_REDRAW) {
        term_invalidate();
        gfx_live_forget();
    } else if (act == ACT_EXPORT) {   /* the frame as this screen shows it */
        int w, h;

        term_size(&w, &h);
        frame_export(a, w, h);
    }
    return 1;
}

/* A terminal sends a paste in one burst: a key this long after the last
 * one inside a paste was typed, and the paste's end marker was lost. */
#define PASTE_GAP_S 0.3

/* Read every waiting key.  Returns -1 when the terminal is gone. */
static int drain_keys(struct app *a, int *dirty)
{
    static double last;         /* when the last key came */
    int k, mx = 0, my = 0;

    while (!a->quit && (k = term_key(&mx, &my)) != PK_NONE) {
        double t = now_s();

        if (k == -2)
            return -1;
        if (a->pasting && t - last > PASTE_GAP_S)
            app_paste_cut(a);
        last = t;
        *dirty |= on_key(a, k, mx, my);
    }
    return 0;
}

/* ---- the loop ------------------------------------------------------- */

/* What signals asked for.  Returns an exit status, or -1 to go on. */
static int on_signals(int *dirty)
{
    if (got_quit)
        return 128 + got_quit;
    if (got_tstp) {
        got_tstp = 0;
        gfx_live_hide();
        term_suspend();
        *dirty = 1;
    }
    if (got_cont) {
        got_cont = 0;
        term_invalidate();
        gfx_live_forget();
        *dirty = 1;
    }
    return -1;
}

/* The sooner of two poll() timeouts (-1: none). */
static int wait_min(int x, int y)
{
    return x < 0 ? y : y < 0 ? x : x < y ? x : y;
}

/* --autoplay: the next tour step every autoplay_s seconds, and the end
 * of the program after the last one has been shown as long.  A step
 * reached by hand restarts the count.  1 if the step changed. */
static int autoplay_tick(struct app *a)
{
    double t = now_s();
    if (autoplay_s <= 0 || !areas_tour_running(a))
        return 0;
    if (a->tour_step != autoplay_step) {
        autoplay_step = a->tour_step;
        autoplay_next = t + autoplay_s;
        return 0;
    }
    if (t < autoplay_next)
        return 0;
    if (a->tour_step + 1 >= a->tour->nsteps) {
        a->quit = 1;
        return 1;
    }
    tour_key(a, PK_ENTER);
    return 1;
}

/* Milliseconds until autoplay_tick has work, or -1. */
static int autoplay_wait_ms(const struct app *a)
{
    if (autoplay_s <= 0 || !areas_tour_running(a))
        return -1;
    if (a->tour_step != autoplay_step)
        return 0;
    double ms = ceil((autoplay_next - now_s()) * 1000.0);
    return ms < 0 ? 0 : (int)ms;
}

void loop_autoplay(double seconds)
{
    autoplay_s = seconds;
    autoplay_step = -1;
}

static int run(struct app *a, canvas *cv)
{
    struct clockw k;
    int dirty = 1, keyed = 1, rc, mouse = a->mouse;

    memset(&k, 0, sizeof k);
    for (;;) {
        struct pollfd p[2 + FOLLOW_MAX_FDS] = { { term_fd(), POLLIN, 0 },
                                                { wake[0], POLLIN, 0 } };
        int nf, fev, ms;

        if (a->quit)
            return 0;
        if (a->mouse != mouse)
            term_mouse(mouse = a->mouse);
        term_paste(a->prompt_open);    /* a paste into the prompt is text */
        follow_status(fol, a);
        if ((dirty || owed(a, &k)) && canvas_fit(cv) == 0)
            redraw(a, cv, &k, keyed);  /* canvas_fit: a new size */
        follow_publish(fol, a, keyed);
        dirty = keyed = 0;
        nf = follow_pollfds(fol, p + 2);
        ms = wait_min(wait_min(wait_ms(a, &k), follow_wait_ms(fol)),
                      wait_min(autoplay_wait_ms(a), term_wait_ms()));
        if (poll(p, (nfds_t)(2 + nf), term_queued() ? 0 : ms) < 0 &&
            errno != EINTR)
            return 1;
        wake_drain();
        /* a teacher's update is drawn like an animation frame: at once
         * unless the terminal is behind */
        fev = follow_events(fol, a, p + 2, nf);
        if ((rc = on_signals(&dirty)) >= 0)
            return rc;
        if (p[0].revents & (POLLHUP | POLLERR | POLLNVAL))
            return 1;                      /* the terminal hung up */
        if (drain_keys(a, &dirty) < 0)
            return 1;
        if (term_graphics_late())  /* answers after start-up: images now */
            dirty |= gfx_live_late(a);
        keyed = dirty;             /* keys, resizes, signals: show at once */
        dirty |= tick(a, &k) | fev | autoplay_tick(a);
    }
}

void loop_follow(struct follow *f)
{
    fol = f;
}

/*
 * The shipped Chinese tour in a locale that is not UTF-8 (LANG=C): if
 * the terminal itself takes UTF-8 and a UTF-8 locale is installed, use
 * that locale, so the tour shows in Chinese; otherwise the terminal
 * opens in ASCII and tour_fit_terminal runs the English tour.
 */
static void zh_terminal(const struct app *a, struct term_opts *o,
                        int utf8, char *note, size_t len)
{
    static char typed[256];     /* keys typed while it asked: term_open's */
    char was[48];
    if (utf8 || o->ascii_flag || !a->tour || !a->tour->zh ||
        !a->tour->shipped)
        return;
    charset_why_not_utf8(was, sizeof was);
    int yes = charset_probe_terminal(300, typed, sizeof typed, &o->ntyped);
    o->typed = typed;
    if (!yes)
        return;
    const char *loc = charset_use_utf8();
    if (loc)
        snprintf(note, len, "%s, but the terminal takes UTF-8: the Chinese "
                 "tour uses %s", was, loc);
}

int loop_run(struct app *a, const struct term_opts *opts)
{
    struct term_opts to = *opts, *o = &to;
    char err[256], note[APP_MSG_LEN];
    canvas cv;
    int rc;

    memset(&cv, 0, sizeof cv);
    got_quit = got_tstp = got_cont = 0;
    if (wake_open() < 0) {
        perror("peviz: pipe");
        return 2;
    }
    int utf8 = charset_setup(note, sizeof note);
    zh_terminal(a, o, utf8, note, sizeof note);
    signals_install();
    if (term_open(o, &a->color, &a->ascii, err, sizeof err) < 0) {
        signals_restore();
        wake_close();
        errline("%s", err);   /* it may quote TERM */
        return 2;
    }
    if (record_start(err, sizeof err)) {    /* now that it can run */
        term_close();
        signals_restore();
        wake_close();
        errline("%s", err);
        return 2;
    }
    a->mouse = o->mouse;
    a->opening = 1;
    tour_fit_terminal(a);       /* now that a->ascii is known */
    if (note[0] && !a->msg[0])
        app_msg(a, 0, "%s", note);
    gfx_live_start(a, (enum gfx_mode)o->graphics);
    winch_install();
    rc = run(a, &cv);
    gfx_live_stop();
    term_close();
    signals_restore();
    wake_close();
    canvas_free(&cv);
    if (rc == 1)
        fprintf(stderr, "peviz: the terminal went away\n");
    return rc;
}
