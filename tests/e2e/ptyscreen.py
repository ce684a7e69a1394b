# SPDX-License-Identifier: ISC
"""A second terminal emulator for the end-to-end tests.

Runs a program on a bare pty of a fixed size, types keys, keeps every
byte the program writes, and renders them with pyte (an emulator that
shares no code with tmux).  Prints the rendered screen (trailing blanks
trimmed) and writes the raw bytes to --bytes.

    ptyscreen.py [--size 80x24] [--env K=V]... [--sync] [--no-da]
                 [--wait TEXT] [--key K]... [--bytes FILE] -- PROGRAM ARGS

--key takes a literal string, or one of Enter, Esc, BSpace, Left, Right,
Up, Down, PgUp, PgDn (arrows as a terminal sends them in keypad mode); after each key the script waits until output has been quiet
for 0.3 s (at most 5 s).  --wait TEXT: before typing, wait (at most 5 s)
for TEXT on the rendered screen.  --sync answers the DECRQM query for
mode 2026 with "reset" (supported); without it the query gets no answer.
--no-da leaves the DA1 query unanswered as well.
The last line printed is "EXIT=<status>" once the program ended, or
"RUNNING" when it was still running after the keys (it is then killed).
"""
import argparse
import fcntl
import os
import select
import signal
import struct
import sys
import termios
import time

try:
    import pyte
except ImportError:             # test_portable asks for it before it runs this
    print("SKIP ptyscreen: no python3 with pyte (Debian: apt-get install python3-pyte)")
    sys.exit(77)

KEYS = {'Enter': b'\r', 'Esc': b'\x1b', 'BSpace': b'\x7f',
        'Up': b'\x1bOA', 'Down': b'\x1bOB', 'Right': b'\x1bOC',
        'Left': b'\x1bOD', 'PgDn': b'\x1b[6~', 'PgUp': b'\x1b[5~'}
DECRQM = b'\x1b[?2026$p'
DA1 = b'\x1b[c'


class Pty:
    def __init__(self, argv, w, h, env, sync, da):
        self.out = bytearray()
        self.scanned = 0
        self.sync, self.da = sync, da
        self.screen = pyte.Screen(w, h)
        self.stream = pyte.ByteStream(self.screen)
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', h, w, 0, 0))
        self.pid = os.fork()
        if self.pid == 0:
            try:
                os.setsid()
                fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
                for fd in (0, 1, 2):
                    os.dup2(slave, fd)
                os.close(master)
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        os.close(slave)
        self.master = master
        self.status = None

    def answer(self):
        """Answer the queries the program sent since the last look."""
        new = bytes(self.out[self.scanned:])
        keep = max(len(DECRQM), len(DA1)) - 1
        if self.sync and DECRQM in new:
            os.write(self.master, b'\x1b[?2026;2$y')
        if self.da and DA1 in new:
            os.write(self.master, b'\x1b[?62;22c')
        self.scanned = max(self.scanned, len(self.out) - keep)
        if DECRQM in new or DA1 in new:
            self.scanned = len(self.out)

    def pump(self, timeout):
        """Read for at most timeout s; True if anything came."""
        got = False
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return got
            r, _, _ = select.select([self.master], [], [], left)
            if not r:
                return got
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                chunk = b''
            if not chunk:
                self.reap(block=True)
                return got
            got = True
            self.out += chunk
            self.stream.feed(chunk)
            self.answer()
            return got

    def quiet(self, settle=0.3, limit=5.0):
        """Read until nothing came for settle s (at most limit s)."""
        end = time.monotonic() + limit
        while time.monotonic() < end and self.status is None:
            if not self.pump(settle):
                return

    def text(self):
        return '\n'.join(l.rstrip() for l in self.screen.display).rstrip('\n')

    def wait_text(self, want, limit=5.0):
        end = time.monotonic() + limit
        while time.monotonic() < end and self.status is None:
            if want in self.text():
                return True
            self.pump(0.1)
        return want in self.text()

    def wait_exit(self, limit=15.0):
        """Once the program has left the alternate screen it is on its way
        out: give it time to end (a sanitizer build checks for leaks at
        exit, which a loaded machine makes slow) before it counts as
        still running."""
        end = time.monotonic() + limit
        while (self.status is None and b'\x1b[?1049l' in self.out
               and time.monotonic() < end):
            self.pump(0.05)
            self.reap()

    def reap(self, block=False):
        if self.status is not None:
            return
        pid, st = os.waitpid(self.pid, 0 if block else os.WNOHANG)
        if pid:
            self.status = os.waitstatus_to_exitcode(st)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--size', default='80x24')
    ap.add_argument('--env', action='append', default=[])
    ap.add_argument('--sync', action='store_true')
    ap.add_argument('--no-da', action='store_true')
    ap.add_argument('--wait')
    ap.add_argument('--key', action='append', default=[])
    ap.add_argument('--bytes')
    ap.add_argument('argv', nargs='+')
    o = ap.parse_args()
    w, h = (int(v) for v in o.size.split('x'))
    env = {'PATH': os.environ.get('PATH', '/usr/bin:/bin'),
           'HOME': os.environ.get('HOME', '/tmp')}
    for kv in o.env:
        k, _, v = kv.partition('=')
        env[k] = v
    p = Pty(o.argv, w, h, env, o.sync, not o.no_da)
    if o.wait and not p.wait_text(o.wait):
        print('ptyscreen: %r never appeared' % o.wait, file=sys.stderr)
    p.quiet()
    for k in o.key:
        if p.status is not None:
            break
        os.write(p.master, KEYS.get(k, k.encode()))
        p.quiet()
    p.reap()
    p.wait_exit()
    print(p.text())
    if p.status is None:
        os.kill(p.pid, signal.SIGKILL)
        p.reap(block=True)
        print('RUNNING')
    else:
        print('EXIT=%d' % p.status)
    if o.bytes:
        with open(o.bytes, 'wb') as f:
            f.write(p.out)


if __name__ == '__main__':
    main()
