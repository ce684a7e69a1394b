#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""pty.py - measure peviz on a real pseudo-terminal, as a user's terminal
sees it: keypress-to-frame latency, bytes per frame and per second while
animating, bytes and CPU while idle, CPU while animating, peak memory.

How it measures (printed with the table too):
- peviz runs on a pty of a fixed size (TIOCSWINSZ set before exec),
  TERM=xterm-256color, LC_ALL=C.UTF-8, no NO_COLOR/COLORTERM.
- Output is read as fast as it comes; each read is time-stamped.  A burst
  (one frame) ends when no byte arrives for 15 ms.
- Latency: time from writing the key to the pty (taken just before the
  write) to the last byte of the burst it caused.  Nothing is subtracted
  (the figure includes the pty and this reader's reaction).
- CPU: utime + stime of the child from /proc/PID/stat (clock ticks).
- Peak RSS: ru_maxrss from wait4 of --snapshot runs (through the small
  helper peak_rss), and VmHWM from /proc/PID/status of the interactive
  program.

Never fails: prints MISSED next to a figure over its target; exit 0.
Usage: BUILD=build pty.py PEVIZ [quick]   (BUILD: where bench/peak_rss is)
PTY_ONLY="latency bandwidth tour slow rss" picks sections; PTY_VIEWS="clocks"
picks the views of the tables that go view by view.
"""
import os
import sys

# This file is called pty.py: keep its own folder off the module path so
# that "import pty" finds the standard library's module, not this file.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or '.') != _HERE]

import fcntl     # noqa: E402
import pty       # noqa: E402
import select    # noqa: E402
import signal    # noqa: E402
import struct    # noqa: E402
import termios   # noqa: E402
import time      # noqa: E402

BURST_GAP = 0.015       # a frame's bytes end after this much silence
SETTLE_GAP = 0.12       # the screen is settled after this much silence
TICK = os.sysconf('SC_CLK_TCK')

PEVIZ = sys.argv[1] if len(sys.argv) > 1 else './peviz'
BUILD = os.environ.get('BUILD', 'build')
QUICK = len(sys.argv) > 2 and sys.argv[2] == 'quick'
SAMPLES = 8 if QUICK else 20
ANIM_S = 2.0 if QUICK else 4.0
IDLE_S = 2.0 if QUICK else 5.0

VIEWS = ['heatmap', 'clocks', 'attention', 'compare']
if os.environ.get('PTY_VIEWS'):
    VIEWS = [v for v in VIEWS if v in os.environ['PTY_VIEWS'].split()]
# Views where Space runs the sweep of pos; attention shows every i and j
# at once and answers Space with a message only, so it has no sweep row.
SWEEPS = ['heatmap', 'clocks', 'compare']
SMALL = ['-d', '64', '-n', '128']
LARGE = ['-d', '4096', '-n', str(1 << 20)]
RIGHT, LEFT = b'\x1bOC', b'\x1bOD'   # what xterm sends in keypad mode
# Frames per second a view keeps at 16 pos/s, --fps 10, 80x24, within
# its B/s target: the clocks send only the hands of such a sweep, so
# its bytes do not cost it the frame rate.
FAST_FPS = {'clocks': 6}
CLEAR = b'\x1b[2J'      # the first frame clears the screen


def verdict(ok):
    return 'ok' if ok else 'MISSED'


class Child:
    """peviz on a pty of w x h cells."""

    def __init__(self, args, w, h):
        env = {k: v for k, v in os.environ.items()
               if k not in ('NO_COLOR', 'COLORTERM', 'TMUX', 'COLORS')}
        env.update(TERM='xterm-256color', LC_ALL='C.UTF-8')
        pid, fd = pty.fork()
        if pid == 0:
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ,
                            struct.pack('HHHH', h, w, 0, 0))
                os.execve(PEVIZ, [PEVIZ] + args, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.total = 0
        self.recent = b''       # the latest output, for checks on its text

    def keep(self, data):
        self.recent = (self.recent + data)[-(1 << 16):]

    def read_chunk(self):
        """One read of what the program wrote, counted; None at its end."""
        try:
            data = os.read(self.fd, 1 << 16)
        except OSError:
            return None
        if not data:
            return None
        self.total += len(data)
        return data

    def read_for(self, timeout):
        """Bytes that arrive within timeout s: [(t, n), ...]."""
        out = []
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return out
            r, _, _ = select.select([self.fd], [], [], left)
            if not r:
                return out
            data = self.read_chunk()
            if data is None:
                return out
            self.keep(data)
            out.append((time.monotonic(), len(data)))

    def burst(self, first_timeout=2.0):
        """The next burst: (t_first, t_last, bytes), or None."""
        r, _, _ = select.select([self.fd], [], [], first_timeout)
        if not r:
            return None
        t_first, t_last, n = None, None, 0
        while True:
            chunk = self.read_for_one(BURST_GAP)
            if chunk is None:
                return (t_first, t_last, n)
            t, k = chunk
            if t_first is None:
                t_first = t
            t_last, n = t, n + k

    def read_for_one(self, gap):
        r, _, _ = select.select([self.fd], [], [], gap)
        if not r:
            return None
        data = self.read_chunk()
        if data is None:
            return None
        self.keep(data)
        return (time.monotonic(), len(data))

    def settle(self, gap=SETTLE_GAP, limit=30.0):
        """Read until gap s of silence; the time of the last byte."""
        last = None
        end = time.monotonic() + limit
        while time.monotonic() < end:
            c = self.read_for_one(gap)
            if c is None:
                return last
            last = c[0]
        return last

    def first_frame(self, limit=20.0):
        """Read until the first full screen has arrived (the screen clear
        of the first frame, then SETTLE_GAP of silence): the program may
        wait for its terminal probes first, and keys sent before that
        frame would measure nothing.  The bytes so far, or None when no
        frame came within limit s."""
        end = time.monotonic() + limit
        tail = b''
        while time.monotonic() < end:
            r, _, _ = select.select([self.fd], [], [], 0.05)
            if not r:
                continue
            data = self.read_chunk()
            if data is None:
                return None
            if CLEAR in tail + data:
                self.settle()
                return self.total
            tail = data[-(len(CLEAR) - 1):]
        return None

    def send(self, keys):
        # The time is taken before the write: the write wakes peviz, which
        # may run on this very core before this process runs again, and a
        # time taken after the write would then miss its whole frame.
        t = time.monotonic()
        os.write(self.fd, keys)
        return t

    def ticks(self):
        with open('/proc/%d/stat' % self.pid) as f:
            fields = f.read().rsplit(')', 1)[1].split()
        return int(fields[11]) + int(fields[12])    # utime + stime

    def hwm_kb(self):
        try:
            with open('/proc/%d/status' % self.pid) as f:
                for line in f:
                    if line.startswith('VmHWM:'):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def close(self):
        try:
            os.write(self.fd, b'q')
        except OSError:
            pass
        end = time.monotonic() + 3
        while time.monotonic() < end:
            self.read_for(0.05)
            p, _ = os.waitpid(self.pid, os.WNOHANG)
            if p:
                break
        else:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


def pct(v, p):
    v = sorted(v)
    if not v:
        return float('nan')
    i = min(len(v) - 1, max(0, int(round(p / 100.0 * (len(v) - 1)))))
    return v[i]


def median(v):
    return pct(v, 50)


# ---- latency ----------------------------------------------------------------

KEYS = [('D', b'd', b'D'), ('N', b'n', b'N'), ('b', b'B', b'b'),
        ('Right', LEFT, RIGHT)]


def press(c, key):
    """Latency of one key, ms: (to the end of its first burst, to
    settled, to the burst's first byte, the burst's bytes).  Bytes still
    on their way from the previous key are read first, so that they
    cannot pass for this key's frame."""
    c.settle()
    t0 = c.send(key)
    b = c.burst()
    done = c.settle()
    if b is None:
        return None
    return ((b[1] - t0) * 1e3, ((done or b[1]) - t0) * 1e3,
            (b[0] - t0) * 1e3, b[2])


def latency(view, case, params):
    """Each measured key lands on the case's parameters: its inverse is
    pressed first (and waited for), so D is 2048 -> 4096 in the large
    case, b is 100000 -> 10000, and so on.  Per key: the presses'
    (first byte, last byte, settled, bytes)."""
    c = Child(['--view', view] + params, 200, 60)
    if c.first_frame(limit=60) is None:
        c.close()
        return [(name, []) for name, _, _ in KEYS], 0
    rows = []
    for name, inv, key in KEYS:
        got = []
        for _ in range(SAMPLES):
            press(c, inv)
            r = press(c, key)
            if r:
                got.append((r[2], r[0], r[1], r[3]))
        rows.append((name, got))
    hwm = c.hwm_kb()
    c.close()
    return rows, hwm


def missed(got, target):
    """Whether a row's presses miss: one drew nothing, or the first
    byte's p99 is over target."""
    return len(got) < SAMPLES or pct([g[0] for g in got], 99) > target


def latency_row(view, case, name, got, target, note=''):
    """One row: the verdict is on the first byte's p99, the end of the
    program's own work; the last byte adds the pty's transfer."""
    if not got:
        print('  %-10s %-6s %-6s %6s %6s %6s %6s %6s %8s  NO DATA (no press '
              'drew a frame)' % ((view, case, name) + ('-',) * 6))
        return
    first, last, done, size = [[g[i] for g in got] for i in range(4)]
    lost = SAMPLES - len(got)
    print('  %-10s %-6s %-6s %6.1f %6.1f %6.1f %6.1f %6.0f %8.1f  <= %d: %s%s%s' % (
        view, case, name, median(first), pct(first, 99), median(last),
        pct(last, 99), median(size) / 1024.0, median(done), target,
        verdict(not missed(got, target)),
        ' (%d of %d presses drew nothing)' % (lost, SAMPLES) if lost else '',
        note))
    sys.stdout.flush()


def run_latency():
    print('Keypress to frame at 200x60 (ms; %d presses each; from writing the '
          'key to the pty to the first and to the last byte of the burst it '
          'caused, a burst ending after %d ms of silence; nothing subtracted)'
          % (SAMPLES, BURST_GAP * 1e3))
    print('  %-10s %-6s %-6s %13s %13s %6s %8s  %s' % (
        'view', 'case', 'key', 'first byte', 'last byte', '', '', 'target'))
    print('  %-10s %-6s %-6s %6s %6s %6s %6s %6s %8s  %s' % (
        '', '', '', 'p50', 'p99', 'p50', 'p99', 'KB', 'settled',
        'first byte p99'))
    hwms = []
    for view in VIEWS:
        for case, params, target in (('small', SMALL, 16),
                                     ('large', LARGE, 33)):
            rows, hwm = latency(view, case, params)
            hwms.append((view, case, hwm))
            again = None
            if any(missed(got, target) for _, got in rows):
                again, _ = latency(view, case, params)
            for k, (name, got) in enumerate(rows):
                note = ''
                if again and missed(got, target):
                    note = ' (measured again: the first run\'s p99 was %s)' % (
                        '%.1f ms' % pct([g[0] for g in got], 99) if got
                        else 'nothing')
                    got = again[k][1]
                latency_row(view, case, name, got, target, note)
    print('  (first byte: the program has read the key, computed the frame '
          'and begun to write it; the target is read there.  last byte: the '
          'whole frame through the pty, whose transfer is the machine\'s: on '
          'this virtual machine 100 KB written on a key took 1-2 ms, but '
          '32-83 ms in 3 of 60 writes by a trivial writer, when a CPU had to '
          'wake from halt.  A case with a row over its target is measured '
          'once more, in a new process, and such a row is judged on that '
          'second run, which it names with the first run\'s p99: a pause of '
          'the virtual machine misses one run, a slower program both.  '
          'settled: p50 to the last byte before %d ms of '
          'silence, i.e. work spread over several frames included)'
          % (SETTLE_GAP * 1e3))
    return hwms


# ---- the tour ----------------------------------------------------------------

def run_tour():
    """Enter to the next step's frame, for every step of the shipped tour
    at 200x60: the end of the first burst after Enter (the step drawn)
    and the last byte before SETTLE_GAP of silence (work in slices
    done)."""
    print()
    print('Tour: Enter to the next step at 200x60 (ms; first burst, settled)')
    c = Child(['--tour'], 200, 60)
    if c.first_frame(limit=60) is None:
        c.close()
        print('  NO DATA: no first frame within 60 s')
        return
    step, rows = 1, []
    while True:
        t0 = c.send(b'\r')
        b = c.burst(first_timeout=3.0)
        done = c.settle()
        if b is None:
            break
        step += 1
        rows.append((step, (b[1] - t0) * 1e3, ((done or b[1]) - t0) * 1e3))
        if b'last step' in c.recent:
            break
        c.recent = b''
    c.close()
    if not rows:
        print('  NO DATA: Enter drew no step')
        return
    for step, drawn, settled in rows:
        print('  step %2d  drawn %7.1f  settled %7.1f  target drawn <= 100: %s'
              % (step, drawn, settled, verdict(drawn <= 100)))
    worst = max(rows, key=lambda r: r[1])
    print('  (%d steps; slowest: step %d, %.1f ms)' % (len(rows) + 1,
                                                     worst[0], worst[1]))


# ---- bytes and CPU -----------------------------------------------------------

def measure_anim(c):
    """Bytes, frames and CPU over ANIM_S seconds of animation."""
    c.read_for(0.5)             # frames of the change itself
    t0, k0, b0 = time.monotonic(), c.ticks(), c.total
    got = c.read_for(ANIM_S)
    dt = time.monotonic() - t0
    ticks, nbytes = c.ticks() - k0, c.total - b0
    frames, last = 0, None
    for t, _ in got:
        if last is None or t - last > BURST_GAP:
            frames += 1
        last = t
    return dict(bps=nbytes / dt, fps=frames / dt,
                bpf=nbytes / frames if frames else 0,
                cpu=100.0 * ticks / TICK / dt)


def animate(view, w, h, low):
    """Bytes and CPU while the sweep runs at --fps 10: at the default
    4 pos/s, then at 16 pos/s (every frame moves); then idle."""
    args = ['--view', view, '--fps', '10'] + (['--low-bandwidth'] if low
                                              else [])
    c = Child(args, w, h)
    first = c.first_frame()
    if first is None:
        c.close()
        return None, None, None, None
    slow = fast = None
    if view in SWEEPS:
        c.send(b' ')
        slow = measure_anim(c)
        c.send(b'>>')           # 4 -> 16 positions per second
        c.recent = b''
        fast = measure_anim(c)
        fast['speed_ok'] = b'16 pos/s' in c.recent
        c.send(b' ')
        c.settle()
    idle = None
    if not low:
        k1, b1 = c.ticks(), c.total
        c.read_for(IDLE_S)
        idle = (c.total - b1, c.ticks() - k1)
    c.close()
    return first, slow, fast, idle


def run_bandwidth():
    print()
    print('Animating: Space starts the sweep, --fps 10; %.0f s at the default '
          '4 pos/s, then %.0f s at 16 pos/s\n(every frame moves); idle: %.0f s '
          'after Space again.  B/s and CPU targets are read at 80x24.'
          % (ANIM_S, ANIM_S, IDLE_S))
    print('  %-10s %-7s %-8s %8s | %5s %6s %6s %5s | %5s %6s %6s %5s | %8s'
          % ('', '', '', '', '4 pos', '/s', '', '', '16 pos', '/s', '', '',
             ''))
    print('  %-10s %-7s %-8s %8s | %5s %6s %6s %5s | %5s %6s %6s %5s | %8s  %s'
          % ('view', 'size', 'mode', 'frame0 B', 'fps', 'B/fr', 'B/s',
             'CPU%', 'fps', 'B/fr', 'B/s', 'CPU%', 'idle B/t', 'targets'))
    for view in VIEWS:
        for w, h in ((80, 24), (160, 48)):
            for low in (False, True):
                first, sl, fa, idle = animate(view, w, h, low)
                mode = 'low-bw' if low else 'default'
                if first is None:
                    print('  %-10s %-7s %-8s NO DATA: no first frame within '
                          '20 s' % (view, '%dx%d' % (w, h), mode))
                    continue
                notes = []
                if sl is None:
                    istr = '%d/%d' % idle if idle is not None else '-'
                    if idle is not None:
                        notes.append('idle 0/0: %s' % verdict(idle == (0, 0)))
                    print('  %-10s %-7s %-8s %8d | %-26s | %-26s | %8s  %s'
                          % (view, '%dx%d' % (w, h), mode, first,
                             '(no sweep in this view)', '', istr,
                             '; '.join(notes)))
                    continue
                if not fa['speed_ok']:
                    notes.append('MISSED: no "16 pos/s" on the screen after >>')
                for what, m in (('4', sl), ('16', fa)):
                    if m['fps'] == 0:
                        notes.append('NO DATA at %s pos/s (no frame while '
                                     'sweeping)' % what)
                if w == 80:
                    lim = 2048 if (low or view == 'clocks') else 20480
                    notes.append('B/s <= %d: %s, %s' % (
                        lim, verdict(sl['bps'] <= lim),
                        verdict(fa['bps'] <= lim)))
                    notes.append('CPU <= 3%%: %s, %s' % (
                        verdict(sl['cpu'] <= 3), verdict(fa['cpu'] <= 3)))
                    if view in FAST_FPS and not low:
                        notes.append('16 pos/s fps >= %d: %s' % (
                            FAST_FPS[view], verdict(fa['fps'] >= FAST_FPS[view])))
                istr = '-'
                if idle is not None:
                    istr = '%d/%d' % idle
                    notes.append('idle 0/0: %s' % verdict(idle == (0, 0)))
                print('  %-10s %-7s %-8s %8d | %5.1f %6.0f %6.0f %5.2f | '
                      '%5.1f %6.0f %6.0f %5.2f | %8s  %s'
                      % (view, '%dx%d' % (w, h), mode, first, sl['fps'], sl['bpf'], sl['bps'],
                         sl['cpu'], fa['fps'], fa['bpf'], fa['bps'],
                         fa['cpu'], istr, '; '.join(notes)))
                sys.stdout.flush()
    print('  (frame0 B: the first full screen; B/fr: bytes per frame, a frame '
          'being a burst of output;\n   CPU%%: child utime+stime per second '
          'of animation, %d ticks/s; idle B/t: bytes/ticks over %.0f s;\n'
          '   targets: verdicts at 4 and at 16 pos/s, and for %s the frames/s '
          'at 16 pos/s;\n   a row with no frame where '
          'one was due says so and fails;\n   attention has no sweep (it shows '
          'every i and j at once; Space only says so): first screen and '
          'idle only)' % (TICK, IDLE_S, ', '.join(sorted(FAST_FPS))))


def slow_link(view, rate, secs):
    """A link of rate B/s: read at most rate/10 bytes every 100 ms while
    the sweep runs at 16 pos/s, 30 fps.  Then catch up and count the
    frames per second: 5 or fewer means low-bandwidth mode came on."""
    c = Child(['--view', view], 160, 48)
    if c.first_frame() is None:
        c.close()
        return None
    c.send(b'>>')
    c.settle()
    c.send(b' ')
    end = time.monotonic() + secs
    while time.monotonic() < end:
        time.sleep(0.1)
        r, _, _ = select.select([c.fd], [], [], 0)
        if r:
            try:
                c.total += len(os.read(c.fd, max(1, rate // 10)))
            except OSError:
                break
    c.read_for(2.0)             # catch up with what waited in the buffer
    got = c.read_for(2.0)
    frames, last = 0, None
    for t, _ in got:
        if last is None or t - last > BURST_GAP:
            frames += 1
        last = t
    c.close()
    return frames / 2.0


def run_slow_link():
    print()
    print('Automatic low-bandwidth mode: a link of 500 B/s for 15 s, the sweep '
          'at 16 pos/s, 30 fps, 160x48.\n  (The switch needs the terminal\'s '
          'buffer, about 64 KB on this pty, to fill first; attention and '
          'compare\n  send less than such a link carries while sweeping, so '
          'they have nothing to switch for.)')
    for view in ('heatmap', 'clocks'):
        fps = slow_link(view, 500, 15.0)
        if fps is None:
            print('  %-10s NO DATA: no first frame within 20 s' % view)
            continue
        print('  %-10s frames/s afterwards %5.1f: switched itself on: %s'
              % (view, fps, 'yes' if fps <= 5.5 else 'no  MISSED'))
        sys.stdout.flush()


# ---- memory ------------------------------------------------------------------

def snapshot_rss(args):
    """Peak RSS (KB), seconds and exit status of one run, by peak_rss (a
    small C helper: a child forked from Python would count Python's own
    pages in its peak)."""
    helper = os.path.join(BUILD, 'bench', 'peak_rss')
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.dup2(w, 1)
            os.execv(helper, [helper, PEVIZ] + args)
        finally:
            os._exit(127)
    os.close(w)
    out = b''
    while True:
        chunk = os.read(r, 4096)
        if not chunk:
            break
        out += chunk
    os.close(r)
    os.waitpid(pid, 0)
    try:
        kb, secs, st = out.split()
        return int(kb), float(secs), int(st)
    except ValueError:
        return 0, 0.0, -1


def run_rss(hwms):
    print()
    print('Peak RSS (KB; target <= 65536 KB = 64 MB)')
    runs = [(v, []) for v in VIEWS] + [('attention', ['--softmax']),
                                       ('attention', ['--scheme', 'rope'])]
    biggest = ['-d', '65536', '-n', str(1 << 24)]
    runs = [(v, e, LARGE, 'd 4096 n 2^20') for v, e in runs] + \
        [(v, [], biggest, 'd 65536 n 2^24') for v in VIEWS] + \
        [('attention', ['--softmax'], biggest, 'd 65536 n 2^24')]
    for view, extra, params, what in runs:
        args = ['--snapshot', '--view', view, '--size', '200x60'] + params + \
            extra
        kb, secs, st = snapshot_rss(args)
        print('  --snapshot %-10s %-16s %s: %8d KB (%.2f s, exit %d)  %s'
              % (view, ' '.join(extra), what, kb, secs, st,
                 verdict(0 < kb <= 65536)))
        sys.stdout.flush()
    for view, case, kb in hwms:
        print('  interactive %-9s %-5s after the latency run (VmHWM): '
              '%8d KB  %s' % (view, case, kb, verdict(kb <= 65536)))


def main():
    only = os.environ.get('PTY_ONLY', '')     # e.g. "latency rss"
    hwms = run_latency() if not only or 'latency' in only else []
    if not only or 'bandwidth' in only:
        run_bandwidth()
    if not only or 'tour' in only:
        run_tour()
    if not only or 'slow' in only:
        run_slow_link()
    if not only or 'rss' in only:
        run_rss(hwms)


if __name__ == '__main__':
    main()
