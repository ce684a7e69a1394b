#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Random-key soak: peviz on a pseudo-terminal, fed random input.

Usage: soak.py PEVIZ SEED KEYS

Starts PEVIZ on a pty of 80x24 (TERM=xterm-256color, UTF-8) and types
KEYS random keys chosen by SEED: every printable ASCII key but q, UTF-8
text and broken UTF-8, control keys (Ctrl-S and Ctrl-Q among them),
arrows, function keys and other escape sequences (modified keys, mouse
reports, bracketed paste, stray and malformed sequences, OSC/CSI text),
':' commands with random and with structured arguments, and resizes of
the terminal from 1x1 to 300x100 in between.  Keys go in bursts; after
each burst the soak waits (bounded) until the program has read them, so
frames are drawn all along the way.

Left out on purpose: q (quits), Ctrl-C, Ctrl-Z and Ctrl-\\ (signals: the
terminal tests cover them).  Any exit before the end is a failure.

At the end: back to 80x24, ':view heatmap', ':d 8' and Ctrl-L must show
d_model=8 within a bounded wait (still responsive), q must end it with
status 0 (under ASan that includes no leak), the tty modes must equal
those before the start, the alternate screen must be left and the cursor
shown, and stderr and the sanitizer logs must hold no report.  Prints
one "ok"/"FAIL" line and exits 0 or 1.

SOAK_DEBUG=PREFIX: on a failure, show where the program sleeps (and its
stack, with gdb) and write what was typed to PREFIX.in (one burst a
line; resizes are not in it) and the output's tail to PREFIX.out.
"""
import fcntl
import os
import random
import select
import signal
import struct
import sys
import tempfile
import termios
import time

WAIT_S = 60          # bound on any wait (a sanitized build at 300x100)
OUT_KEEP = 1 << 20   # output kept for the checks at the end

# ---- the key alphabet ------------------------------------------------------

PRINTABLE = [chr(c) for c in range(0x20, 0x7F) if chr(c) != 'q']
UTF8 = ['é', 'ß', '中', '文', '😀', '\u00a0', '\u200b', '\ufeff', '\u0301',
        '\u2028', '\u0085', '\u009b', 'ｑ', '\U0010ffff']
BROKEN = [b'\xff', b'\xfe', b'\xc3', b'\x80', b'\xed\xa0\x80', b'\xf4\x90\x80\x80',
          b'\xe4\xb8', b'\xc0\xaf']
# C0 controls but Ctrl-C (SIGINT), Ctrl-Z (SIGTSTP), Ctrl-\ (SIGQUIT) and
# Esc (the sequences below); Ctrl-S and Ctrl-Q are in, on purpose.
CONTROLS = [bytes([c]) for c in range(0x20) if c not in (0x03, 0x1a, 0x1c, 0x1b)]
CONTROLS += [b'\x7f', b'\x13', b'\x11', b'\r', b'\t']

SEQUENCES = [
    b'\x1b[A', b'\x1b[B', b'\x1b[C', b'\x1b[D',          # arrows
    b'\x1bOA', b'\x1bOB', b'\x1bOC', b'\x1bOD',
    b'\x1b[H', b'\x1b[F', b'\x1bOH', b'\x1bOF', b'\x1b[1~', b'\x1b[4~',
    b'\x1b[5~', b'\x1b[6~', b'\x1b[2~', b'\x1b[3~', b'\x1b[Z',
    b'\x1bOP', b'\x1bOQ', b'\x1bOR', b'\x1bOS',           # F1-F4
    b'\x1b[15~', b'\x1b[17~', b'\x1b[18~', b'\x1b[19~', b'\x1b[20~',
    b'\x1b[21~', b'\x1b[23~', b'\x1b[24~',                # F5-F12
    b'\x1b[1;2A', b'\x1b[1;5C', b'\x1b[1;3D', b'\x1b[1;6B', b'\x1b[5;5~',
    b'\x1b[1;2P', b'\x1b[I', b'\x1b[O',                   # focus in/out
    b'\x1b', b'\x1b[', b'\x1bO', b'\x1b[1;', b'\x1b[99999999999999999999~',
    b'\x1b]0;pwned\x07', b'\x1b]0;pwned\x1b\\', b'\x1b[2J', b'\x1bP1$r\x1b\\',
    b'\x1b[?1049l', b'\x1bc',
]


# X10 mouse bytes: a button, then x and y plus 33; never q, which ncurses
# passes on as a key when it does not take the report as a mouse event.
MOUSE_BYTES = [b for b in range(32, 256) if b != ord('q')]
CSI_FINALS = [c for c in range(0x40, 0x7f) if c != ord('q')]


def rand_mouse(r):
    """An X10 or an SGR mouse report at a random cell."""
    if r.random() < 0.5:
        return b'\x1b[M' + bytes(r.choice(MOUSE_BYTES) for _ in range(3))
    return ('\x1b[<%d;%d;%d%s' % (r.choice([0, 1, 2, 3, 32, 64, 65]),
                                   r.randrange(0, 400), r.randrange(0, 200),
                                   r.choice('Mm'))).encode()


def rand_csi(r):
    """A CSI sequence with random parameters and final byte."""
    params = ';'.join(str(r.choice([0, 1, 2, 5, 99, 65535, 2 ** 31]))
                      for _ in range(r.randrange(0, 4)))
    return ('\x1b[' + params + chr(r.choice(CSI_FINALS))).encode()


def rand_key(r):
    """One key: bytes as a terminal would send them."""
    x = r.random()
    if x < 0.55:
        return r.choice(PRINTABLE).encode()
    if x < 0.62:
        return r.choice(UTF8).encode()
    if x < 0.65:
        return r.choice(BROKEN)
    if x < 0.75:
        return r.choice(CONTROLS)
    if x < 0.92:
        return r.choice(SEQUENCES)
    if x < 0.95:
        return rand_mouse(r)
    if x < 0.97:
        return b'\x1b' + r.choice(PRINTABLE).encode()  # Alt-key
    if x < 0.99:
        return rand_csi(r)
    return b'\x1b[200~' + rand_text(r, 20).encode() + b'\x1b[201~'


NAMES = ['d', 'd_model', 'base', 'b', 'n', 'seq_len', 'pos', 'p', 'view',
         'k', 'band', 'i', 'j', 'heads', 'head', 'train', 'scheme', 'layout',
         'precision', 'prec', 'mode', 'xyz', '']
VALUES = ['512', '5e5', '4096', '37', '0', '-0', '-1', '1', '2', '3', '7',
          '65536', '65538', '16777216', '1e308', '1e400', 'nan', 'inf',
          '-inf', '0x40', '12abc', '', ' ', '99999999999999999999',
          'heatmap', 'clocks', 'attention', 'compare', 'sinusoidal', 'rope',
          'alibi', 'learned', 'nope', 'interleaved', 'concat', 'half', 'f64',
          'f32', 'bf16', 'f16', 'spectrum', 'profile', 'diff', '\x1b]0;pwned\x07',
          '\x1b[2J', '\r', '\b', 'é中😀', '\u009b2J']


def rand_text(r, n):
    """Random text without q (a closed prompt would take it as quit)."""
    pool = PRINTABLE * 4 + UTF8 + ['\x07', '\x08', '\x7f', '\x00', '\x13', '\x11']
    return ''.join(r.choice(pool) for _ in range(r.randrange(n + 1)))


def rand_command(r):
    """':' and a command line, ended by Enter, Esc or nothing at all."""
    if r.random() < 0.6:
        line = r.choice(NAMES) + r.choice(['', ' ', '  ', '\t']) + r.choice(VALUES)
    elif r.random() < 0.8:
        line = rand_text(r, 30)
    else:
        line = rand_text(r, 300)         # longer than the prompt holds
    line = line.replace('q', '')
    end = r.choice(['\r', '\r', '\r', '\x1b', '\x7f' * 3, ''])
    return b':' + line.encode('utf-8', 'surrogateescape') + end.encode()


def quit_safe_q_command(r):
    """:q ones|random: Esc Esc first, so the prompt surely opens."""
    return b'\x1b\x1b:q ' + r.choice([b'ones', b'random', b'x']) + b'\r'


# poll and ppoll on x86_64, ppoll elsewhere (aarch64, riscv64); read
POLL_CALLS = {'7', '271', '73'}
READ_CALLS = {'0', '63'}

# ---- the pty ---------------------------------------------------------------

def set_size(fd, w, h):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', h, w, 0, 0))


def unread(fd):
    """Bytes typed but not yet read by the program."""
    buf = fcntl.ioctl(fd, termios.FIONREAD, b'\0\0\0\0')
    return struct.unpack('i', buf)[0]


class Run:
    def __init__(self, peviz, tmp):
        self.tmp = tmp
        self.out = bytearray()          # the last OUT_KEEP bytes written
        self.dropped = 0                # bytes dropped from the front
        self.master, self.slave = os.openpty()
        set_size(self.slave, 80, 24)
        self.modes = termios.tcgetattr(self.slave)
        self.err = os.path.join(tmp, 'stderr')
        env = {
            'PATH': os.environ.get('PATH', '/usr/bin:/bin'),
            'HOME': tmp, 'TERM': 'xterm-256color', 'LC_ALL': 'C.UTF-8',
            'ASAN_OPTIONS': os.environ.get('ASAN_OPTIONS', '') +
            ':log_path=%s/asan:detect_leaks=1' % tmp,
            'UBSAN_OPTIONS': os.environ.get('UBSAN_OPTIONS', '') +
            ':print_stacktrace=1:log_path=%s/ubsan' % tmp,
        }
        # the shipped tour (T) is found through ./assets; frames written
        # with w land in the scratch directory
        os.symlink(os.path.abspath('assets'), os.path.join(tmp, 'assets'))
        peviz = os.path.abspath(peviz)
        self.pid = os.fork()
        if self.pid == 0:
            try:
                os.setsid()
                fcntl.ioctl(self.slave, termios.TIOCSCTTY, 0)
                os.dup2(self.slave, 0)
                os.dup2(self.slave, 1)
                e = os.open(self.err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
                os.dup2(e, 2)
                os.close(self.master)
                os.chdir(tmp)
                os.execve(peviz, [peviz], env)
            finally:
                os._exit(127)
        os.set_blocking(self.master, False)
        self.status = None
        self.typed = []                 # what was typed, for SOAK_DEBUG

    def pump(self, timeout):
        """Read what the program wrote, waiting at most timeout s."""
        r, _, _ = select.select([self.master], [], [], timeout)
        if not r:
            return
        try:
            while True:
                chunk = os.read(self.master, 65536)
                if not chunk:
                    return
                self.out += chunk
                if len(self.out) > 2 * OUT_KEEP:
                    cut = len(self.out) - OUT_KEEP
                    del self.out[:cut]
                    self.dropped += cut
        except (BlockingIOError, OSError):
            pass

    def mark(self):
        """A position in the output, for since()."""
        return self.dropped + len(self.out)

    def since(self, mark):
        """The output written after mark."""
        return self.out[max(0, mark - self.dropped):]

    def alive(self):
        if self.status is None:
            pid, st = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = st
        return self.status is None

    def write(self, data):
        """Type data, reading the output meanwhile (no side may block)."""
        self.typed.append(data)
        deadline = time.monotonic() + WAIT_S
        while data:
            if not self.alive():
                return False
            try:
                n = os.write(self.master, data)
                data = data[n:]
            except BlockingIOError:
                pass
            self.pump(0.01 if data else 0)
            if time.monotonic() > deadline:
                return False
        return True

    def until(self, cond):
        """Wait, reading output, until cond() holds (at most WAIT_S)."""
        deadline = time.monotonic() + WAIT_S
        while not cond():
            if not self.alive() or time.monotonic() > deadline:
                return cond()
            self.pump(0.02)
        return True

    def idle(self):
        """Every key read and the program asleep in its main poll() (two
        descriptors: the terminal and its signal pipe), so the frame for
        them is drawn; or asleep in read() on the terminal: ncurses reads
        the rest of a mouse report that way, and a burst may end inside
        one (the next burst completes it).  Where /proc/PID/syscall
        cannot be read, only the first half is checked."""
        if unread(self.slave):
            return False
        try:
            with open('/proc/%d/syscall' % self.pid) as f:
                call = f.read().split()
        except OSError:
            return True
        if call[0] in READ_CALLS and int(call[1], 16) == 0:
            return True
        return call[0] in POLL_CALLS and int(call[2], 16) == 2

    def sleeps(self):
        """How many times the program went to sleep (it wakes for each)."""
        try:
            with open('/proc/%d/status' % self.pid) as f:
                for line in f:
                    if line.startswith('voluntary_ctxt_switches'):
                        return int(line.split()[1])
        except OSError:
            pass
        return -1

    def caught_up(self, before=-2):
        """Wait until the program has dealt with every key typed and, when
        before (a sleeps() count) is given, has woken since then."""
        return self.until(lambda: self.idle() and self.sleeps() != before)

    def wait_exit(self):
        deadline = time.monotonic() + WAIT_S
        while self.alive() and time.monotonic() < deadline:
            self.pump(0.05)
        self.pump(0)
        return self.status

    def kill(self):
        if self.alive():
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)


# ---- checks ----------------------------------------------------------------

def reports(tmp):
    """Sanitizer reports and anything alarming on stderr."""
    found = []
    for name in sorted(os.listdir(tmp)):
        path = os.path.join(tmp, name)
        if name.startswith(('asan', 'ubsan')) or name == 'stderr':
            with open(path, errors='replace') as f:
                text = f.read()
            if name != 'stderr' or any(w in text for w in (
                    'Sanitizer', 'runtime error', 'LeakSanitizer')):
                found.append('%s:\n%s' % (name, text[:3000]))
    return found


def restored(out):
    """The alternate screen left and the cursor shown after last entering."""
    return (out.rfind(b'\x1b[?1049l') > out.rfind(b'\x1b[?1049h') and
            out.rfind(b'\x1b[?25h') > out.rfind(b'\x1b[?25l'))


def stuck(run, what):
    """Why a wait failed: the program ended, or did not answer."""
    if not run.alive():
        return 'exited while ' + what
    return 'no answer within %d s while %s' % (WAIT_S, what)


def resize(run, size):
    """A new size; then wait until the program has drawn for it."""
    before = run.sleeps()
    set_size(run.slave, *size)
    return run.caught_up(before)


def soak(run, r, nkeys, counts):
    """Type nkeys random keys in bursts; None, or why it failed."""
    sent = 0
    size = (80, 24)
    while sent < nkeys:
        burst = bytearray()
        before = run.sleeps()
        for _ in range(r.randrange(1, 48)):
            x = r.random()
            if x < 0.03:
                if burst and not (run.write(bytes(burst)) and
                                  run.caught_up(before)):
                    return stuck(run, 'typing')
                burst = bytearray()
                new = (r.randrange(1, 301), r.randrange(1, 101))
                if new != size and not resize(run, new):
                    return stuck(run, 'resizing')
                size = new
                before = run.sleeps()
                counts['resizes'] += 1
            elif x < 0.07:
                cmd = rand_command(r) if r.random() < 0.9 else quit_safe_q_command(r)
                burst += cmd
                counts['commands'] += 1
                sent += len(cmd.decode('utf-8', 'replace'))
            else:
                burst += rand_key(r)
                sent += 1
        counts['keys'] = sent
        if burst and not run.write(bytes(burst)):
            return stuck(run, 'typing')
        if not run.caught_up(before if burst else -2):
            return stuck(run, 'typing')
    return None


def finish(run):
    """Still responsive, quits clean, terminal restored."""
    resize(run, (80, 24))
    mark = run.mark()
    # ~ ends a mouse report the last burst may have left unfinished (and
    # means nothing as a key); Esc closes the prompt, the help, the tour
    if not run.write(b'~\x1b\x1b\x1b:view heatmap\r:d 8\r\x0c'):
        return 'exited before the final check'
    if not run.until(lambda: b'd_model=8 ' in run.since(mark)):
        return 'no frame with d_model=8 within %d s after :d 8' % WAIT_S
    if not run.write(b'q'):
        return 'exited before q'
    st = run.wait_exit()
    if st is None:
        return 'still running %d s after q' % WAIT_S
    if not os.WIFEXITED(st) or os.WEXITSTATUS(st) != 0:
        return 'q: exit status %s' % (os.WEXITSTATUS(st) if os.WIFEXITED(st)
                                      else 'signal %d' % os.WTERMSIG(st))
    if termios.tcgetattr(run.slave) != run.modes:
        return 'tty modes differ from those before the start'
    if not restored(run.out):
        return 'alternate screen not left or cursor not shown'
    return None


def debug(run):
    """Where a program that stopped answering sleeps, and its stack."""
    with open('/proc/%d/syscall' % run.pid) as f:
        print('unread %d, syscall %s' % (unread(run.slave), f.read().strip()))
    os.system('gdb -q -batch -p %d -ex bt 2>/dev/null | grep "^#"' % run.pid)


def dump(run, prefix):
    """The output's tail to PREFIX.out, the bursts typed to PREFIX.in."""
    with open(prefix + '.out', 'wb') as f:
        f.write(run.out)
    with open(prefix + '.in', 'w') as f:
        f.write('\n'.join(repr(x) for x in run.typed))


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    peviz, seed, nkeys = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    r = random.Random(seed)
    counts = {'keys': 0, 'resizes': 0, 'commands': 0}
    with tempfile.TemporaryDirectory(prefix='peviz-soak.') as tmp:
        run = Run(peviz, tmp)
        why = None
        if not run.until(lambda: b'd_model=' in run.out):
            why = 'did not start'
        why = why or soak(run, r, nkeys, counts) or finish(run)
        if why and why.startswith('exited'):
            st = run.status
            why += ' (exit %s)' % (os.WEXITSTATUS(st) if os.WIFEXITED(st)
                                   else 'signal %d' % os.WTERMSIG(st))
        if why and run.alive() and os.environ.get('SOAK_DEBUG'):
            debug(run)
        run.kill()
        found = reports(tmp)
        if (why or found) and os.environ.get('SOAK_DEBUG'):
            dump(run, os.environ['SOAK_DEBUG'])
    what = 'seed %d: %d keys, %d commands, %d resizes' % (
        seed, counts['keys'], counts['commands'], counts['resizes'])
    if why or found:
        print('FAIL soak %s: %s' % (what, why or 'sanitizer report'))
        for f in found:
            print('\n'.join('     | ' + line for line in f.splitlines()))
        sys.exit(1)
    print('ok   soak %s, no report, quit clean' % what)


if __name__ == '__main__':
    main()
