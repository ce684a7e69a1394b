# SPDX-License-Identifier: ISC
"""Run a program on a bare pty that never answers the terminal's probes
(DECRQM, DA1): a slow link, or scripted input.  Types bytes at given
times, reads everything the program writes (and drops it), and prints
"EXIT=<status>" once the program ended, or "RUNNING" when it still ran
TIMEOUT seconds after the last bytes (it is then killed).

    rawpty.py [--size 80x24] [--timeout S] [--at MS BYTES]... -- PROGRAM ARGS

BYTES is a Python string literal body: '\\x1b[200~' is ESC [ 2 0 0 ~.
Times count from the start of the program.  Standard library only.
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--size', default='80x24')
    ap.add_argument('--timeout', type=float, default=3.0)
    ap.add_argument('--at', nargs=2, action='append', default=[])
    ap.add_argument('argv', nargs=argparse.REMAINDER)
    o = ap.parse_args()
    argv = o.argv[1:] if o.argv and o.argv[0] == '--' else o.argv
    w, h = (int(x) for x in o.size.split('x'))
    steps = sorted((float(ms) / 1000.0,
                    data.encode('latin-1').decode('unicode_escape')
                    .encode('latin-1')) for ms, data in o.at)
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', h, w, 0, 0))
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(slave, fd)
            os.close(master)
            os.execvp(argv[0], argv)
        finally:
            os._exit(127)
    os.close(slave)
    end = (steps[-1][0] if steps else 0) + o.timeout
    status = None
    while status is None:
        now = time.monotonic() - t0
        while steps and steps[0][0] <= now:
            os.write(master, steps.pop(0)[1])
        if now > end:
            break
        wait = min([0.01] + ([steps[0][0] - now] if steps else []))
        r, _, _ = select.select([master], [], [], max(wait, 0))
        if r:
            try:
                os.read(master, 65536)
            except OSError:
                pass
        p, st = os.waitpid(pid, os.WNOHANG)
        if p == pid:
            status = os.waitstatus_to_exitcode(st)
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        print('RUNNING')
    else:
        print('EXIT=%d' % status)


if __name__ == '__main__':
    main()
