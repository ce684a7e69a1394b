#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""follow.py - the teacher's keypress-to-frame time in follow mode, with
no follower, with 60 followers of which one is stopped (connected,
never reading), and with 256 idle peers besides (connecting, never
greeting nor reading, made again as soon as dropped); what a follower
receives per key; how soon a follower joining amid the idle peers is
served.

How it measures (printed with the table too):
- The teacher (peviz --serve) runs on a pty of 200x60, as in pty.py;
  keypress-to-frame is measured the same way (pty.py's press()).
- Followers are protocol clients in this process: each connects, sends
  the greeting and (59 of them) reads everything in a thread, counting
  bytes and messages.  The stopped one never reads.  Real followers
  would also draw; that costs their machines, not the teacher's.
- After the latency runs, 400 more keys are sent one at a time (each
  after the frame of the one before, so that each is its own state
  change) to fill the stopped follower's buffers; then it is checked for
  having been dropped (EOF after what was buffered).

- Last, a follower's q under a flood: a teacher at d 65536 changes d
  and n as fast as its frames allow (each key after the frame of the
  one before), and a real follower (peviz --follow on a pty of 80x24)
  is sent q QUIT_RUNS times, each a new follower: the time from q to
  the follower's exit.

Never fails: prints MISSED next to a figure over its target; exit 0.
Usage: BUILD=build follow.py PEVIZ [quick]
"""
import importlib.util
import os
import select
import socket
import sys
import tempfile
import threading
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location('peviz_pty',
                                               os.path.join(_HERE, 'pty.py'))
P = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(P)

FOLLOWERS = 60
IDLE = 256          # peers that connect and never greet nor read
SAMPLES = 10 if P.QUICK else 30
FLOOD = 400
GREETING = b'PEVIZ-FOLLOW 1\n'


class Readers:
    """Follower sockets read in a thread; counts bytes and messages."""

    def __init__(self, socks):
        self.socks = socks
        self.bytes = 0
        self.messages = 0
        self.closed = 0
        self.stop = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        live = list(self.socks)
        while not self.stop and live:
            r, _, _ = select.select(live, [], [], 0.1)
            for s in r:
                try:
                    data = s.recv(1 << 16)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b''
                if not data:
                    live.remove(s)
                    self.closed += 1
                    continue
                self.bytes += len(data)
                self.messages += data.count(b'PEVIZ-FOLLOW 1 ')

    def finish(self):
        self.stop = True
        self.thread.join()


def connect(path):
    end = time.monotonic() + 5
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            s.sendall(GREETING)
            s.setblocking(False)
            return s
        except OSError:
            s.close()
            if time.monotonic() > end:
                raise
            time.sleep(0.05)


class Idle:
    """IDLE connections that never greet nor read; with again, each made
    again as soon as the teacher drops it (a peer trying to lock
    followers out)."""

    def __init__(self, path, again):
        self.path = path
        self.again = again      # made again once dropped
        self.stop = False
        self.made = 0
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def one(self):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.connect(self.path)
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            s.close()
            return None
        self.made += 1
        return s

    def run(self):
        live = [x for x in (self.one() for _ in range(IDLE)) if x]
        while not self.stop:
            r, _, _ = select.select(live, [], [], 0.05)
            for s in r:             # readable: closed by the teacher
                live.remove(s)
                s.close()
                n = self.one() if self.again else None
                if n:
                    live.append(n)
            while self.again and len(live) < IDLE and not self.stop:
                n = self.one()
                if not n:
                    time.sleep(0.01)
                    break
                live.append(n)
        for s in live:
            s.close()

    def finish(self):
        self.stop = True
        self.thread.join()


def dropped(s):
    """Whether the teacher closed s: EOF once the buffered bytes are read."""
    end = time.monotonic() + 3
    while time.monotonic() < end:
        r, _, _ = select.select([s], [], [], 0.2)
        if not r:
            return False
        try:
            if not s.recv(1 << 16):
                return True
        except OSError:
            return True
    return False


def latencies(c):
    out = []
    for _ in range(SAMPLES):
        P.press(c, P.LEFT)
        r = P.press(c, P.RIGHT)
        if r:
            out.append(r[0])
    return out


def row(name, v, target):
    p99 = P.pct(v, 99)
    print('  %-34s %8.2f %8.2f  %s' % (name, P.median(v), p99,
                                       '<= %d ms %s' % (target,
                                                        P.verdict(p99 <= target))))


QUIT_RUNS = 4 if P.QUICK else 8
QUIT_TARGET = 500   # ms


class Flood:
    """The teacher's d and n changed in a thread, each key once the
    frame of the one before has come."""

    def __init__(self, teacher):
        self.c = teacher
        self.stop = False
        self.keys = 0
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        seq = [b'd', b'n', b'D', b'N']
        while not self.stop:
            self.c.send(seq[self.keys % len(seq)])
            self.keys += 1
            self.c.burst(first_timeout=1.0)

    def finish(self):
        self.stop = True
        self.thread.join()


def drawn(f, limit=20.0):
    """Whether f began its first frame (the screen clear) within limit s;
    under a flood its screen never goes quiet, so no settling is waited."""
    end, tail = time.monotonic() + limit, b''
    while time.monotonic() < end:
        for _ in f.read_for(0.05):
            pass
        if P.CLEAR in tail + f.recent:
            return True
        tail = f.recent[-8:]
    return False


def quit_time(path):
    """ms from q to the exit of a follower half a second after its first
    frame began, or None when it did not start or did not exit in 10 s."""
    f = P.Child(['--follow', path], 80, 24)
    if not drawn(f):
        f.close()
        return None
    f.read_for(0.5)
    t0 = f.send(b'q')
    end = t0 + 10
    while time.monotonic() < end:
        f.read_for(0.01)
        p, _ = os.waitpid(f.pid, os.WNOHANG)
        if p:
            os.close(f.fd)
            return (time.monotonic() - t0) * 1e3
    f.close()
    return None


def run_follower_quit(d):
    path = os.path.join(d, 'q.sock')
    t = P.Child(['--serve', path, '--view', 'heatmap', '-d', '65536',
                 '-n', '128'], 120, 40)
    t.settle(limit=30)
    flood = Flood(t)
    got = [q for q in (quit_time(path) for _ in range(QUIT_RUNS))
           if q is not None]
    flood.finish()
    print("Follow mode: a follower's q while its teacher (d 65536 n 128) "
          'changes d and n\n  (ms from q to exit; %d followers, each new; '
          '%d teacher keys)' % (QUIT_RUNS, flood.keys))
    if not got:
        print('  follower q                          NO DATA')
    else:
        row('follower q (%d of %d exited)' % (len(got), QUIT_RUNS), got,
            QUIT_TARGET)
    t.close()


def main():
    d = tempfile.mkdtemp(prefix='peviz-bench-follow.')
    path = os.path.join(d, 'l.sock')
    args = ['--serve', path, '--view', 'heatmap'] + P.SMALL
    print('Follow mode: teacher keypress to frame at 200x60, heatmap, %s '
          '(ms; %d presses of Right; pty.py\'s method)'
          % (' '.join(P.SMALL), SAMPLES))
    print('  %-34s %8s %8s  %s' % ('followers', 'p50', 'p99', 'target p99'))
    c = P.Child(args, 200, 60)
    c.settle(limit=30)
    alone = latencies(c)
    row('none', alone, 16)
    socks = [connect(path) for _ in range(FOLLOWERS)]
    stopped = socks[-1]
    readers = Readers(socks[:-1])
    c.settle()
    before_b, before_m = readers.bytes, readers.messages
    busy = latencies(c)
    row('%d (one stopped)' % FOLLOWERS, busy, 16)
    keys = 2 * SAMPLES
    per = (readers.bytes - before_b) / float(FOLLOWERS - 1)
    msgs = (readers.messages - before_m) / float(FOLLOWERS - 1)
    print('  a follower received %.0f bytes in %.0f messages for %d keys: '
          '%.1f bytes per key  %s' % (per, msgs, keys, per / keys,
                                      '<= 1024 ' + P.verdict(per / keys <= 1024)))
    for i in range(FLOOD):
        c.send(P.RIGHT if i % 2 else P.LEFT)
        c.burst()
    gone = dropped(stopped)
    print('  after %d more keys the stopped follower was %s; %d of %d '
          'reading followers still connected' % (
              FLOOD, 'dropped' if gone else 'NOT dropped (still buffered)',
              FOLLOWERS - 1 - readers.closed, FOLLOWERS - 1))
    after = latencies(c)
    row('%d, the stopped one dropped' % (FOLLOWERS - 1), after, 16)
    idle = Idle(path, False)
    with_idle = latencies(c)
    row('%d + %d idle peers' % (FOLLOWERS - 1, IDLE), with_idle, 16)
    idle.finish()
    idle = Idle(path, True)
    time.sleep(1.5)
    with_idle = latencies(c)
    row('%d + %d idle, made again' % (FOLLOWERS - 1, IDLE), with_idle, 16)
    t0 = time.monotonic()
    late = connect(path)
    r, _, _ = select.select([late], [], [], 5)
    served = (time.monotonic() - t0) * 1000
    got = b''
    try:
        got = late.recv(1 << 16) if r else b''
    except OSError:
        pass
    print('  a follower joining amid them got the state in %.1f ms %s; '
          '%d idle connections were made' % (
              served, P.verdict(got.startswith(b'PEVIZ-FOLLOW 1 ') and
                                served < 1000), idle.made))
    late.close()
    idle.finish()
    print('  teacher peak memory (VmHWM): %d KB' % c.hwm_kb())
    readers.finish()
    for s in socks:
        s.close()
    c.close()
    run_follower_quit(d)
    try:
        os.rmdir(d)
    except OSError:
        pass


if __name__ == '__main__':
    main()
