#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Start-up on slow and silent terminals: peviz on a pty whose far end
answers like an xterm with sixel (DECRQM, DA1 with attribute 4,
XTVERSION, the text area and cell sizes, OSC 11) but each answer a
while after its question, or one byte at a time, or not at all, while
keys are typed at moments during start-up.  Checks that no answer is
read as keys (the screen is the heatmap asked for, no view or setting
changed by the bytes of a report), that every key typed is taken in
order, that a late answer still turns images on and the status line
says so once.  Standard library only.

    slowterm.py          run every case; prints "test_slowterm: N passed, M failed"
"""
import os
import pty
import re
import select
import signal
import struct
import sys
import tempfile
import time
import fcntl
import termios

PEVIZ = os.path.abspath(os.environ.get("PEVIZ", "./peviz"))
W, H = 100, 30
AREA = (W * 8425 // 1000, H * 16)       # xterm.js: 8.425 x 16 pixels a cell
ANSWERS = [
    (b"\x1b[?2026$p", b"\x1b[?2026;2$y"),
    (b"\x1b[c", b"\x1b[?63;1;2;4;6;9;15;22c"),
    (b"\x1b[>q", b"\x1bP>|XTerm(390)\x1b\\"),
    (b"\x1b[14t", b"\x1b[4;%d;%dt" % (AREA[1], AREA[0])),
    (b"\x1b[16t", b"\x1b[6;16;8t"),
    (b"\x1b]11;?\x1b\\", b"\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\"),
]
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
        print("  ok  ", what)
    else:
        failed += 1
        print("  FAIL", what)


class Run:
    """peviz on a pty; the far end answers each question delay s after
    it came (None: never), gap s between the bytes of an answer (0: all
    at once), and types keys at given times from the start."""

    def __init__(self, delay, keys=(), gap=0.0, args=(), cwd=None, answers=ANSWERS, env_add=None):
        self.delay, self.gap, self.out, self.seen = delay, gap, bytearray(), 0
        self.answers = answers
        self.pending = []                   # (time, bytes) to write, in order
        self.keys = sorted(keys)
        self.t0 = time.monotonic()
        pid, fd = pty.fork()
        if pid == 0:
            if cwd:
                os.chdir(cwd)
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", H, W, 0, 0))
            env = {k: v for k, v in os.environ.items()
                   if k not in ("TMUX", "TERM_PROGRAM", "LC_TERMINAL", "COLUMNS", "LINES")}
            env.update(TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
            env.update(env_add or {})
            os.execve(PEVIZ, [PEVIZ] + list(args), env)
        self.pid, self.fd, self.status = pid, fd, None

    def answer(self, now):
        """Queue the answers to the questions seen since last time."""
        if self.delay is None:
            return
        pat = re.compile(b"|".join(re.escape(q) for q, _ in self.answers))
        end = self.seen
        for m in pat.finditer(self.out, self.seen):
            reply = dict(self.answers)[m.group(0)]
            reply = reply() if callable(reply) else reply
            at = max([now + self.delay] + [t for t, _ in self.pending[-1:]])
            if self.gap:
                self.pending += [(at + i * self.gap, reply[i:i + 1]) for i in range(len(reply))]
            else:
                self.pending.append((at, reply))
            end = m.end()
        # a question cut by the read ends in the last bytes: read again
        self.seen = max(end, len(self.out) - 16)

    def pump(self, secs, until=None, quiet=0.5):
        """Run secs at most; with until, only until it is in the output
        and nothing came for quiet s."""
        end, last = time.monotonic() + secs, time.monotonic()
        while time.monotonic() < end and self.status is None:
            if until and until in self.out and time.monotonic() - last > quiet and not self.pending:
                return
            now = time.monotonic()
            while self.pending and self.pending[0][0] <= now:
                os.write(self.fd, self.pending.pop(0)[1])
            while self.keys and self.t0 + self.keys[0][0] <= now:
                os.write(self.fd, self.keys.pop(0)[1])
            r, _, _ = select.select([self.fd], [], [], 0.005)
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    data = b""
                if data:
                    self.out += data
                    last = time.monotonic()
                    self.answer(last)
            p, st = os.waitpid(self.pid, os.WNOHANG)
            if p == self.pid:
                self.status = os.waitstatus_to_exitcode(st)

    def quit(self):
        if self.status is None:
            os.write(self.fd, b"q")
            self.pump(3.0)
        if self.status is None:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)
        return self.status


def text(out):
    """The printable text peviz wrote, escape sequences and images out."""
    s = re.sub(rb"\x1bP.*?\x1b\\|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][0-9A-B]|\x1b.", b"", bytes(out), flags=re.S)
    return s.decode("utf-8", "replace")


# A kitty-like terminal: the graphics reply, the cell size, DA1 without sixel.
KITTY = [(b"\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\", b"\x1b_Gi=31;OK\x1b\\"),
         (b"\x1b[?2026$p", b"\x1b[?2026;2$y"), (b"\x1b[c", b"\x1b[?62;22c"),
         (b"\x1b[>q", b"\x1bP>|kitty(0.35.2)\x1b\\"), (b"\x1b[16t", b"\x1b[6;16;8t")]


def late_case(delay, gap=0.0, answers=ANSWERS, mode=("sixel", b"\x1bPq")):
    """Answers delay s late (gap s between their bytes): the heatmap,
    images, one note, the keys typed before and after taken."""
    home = tempfile.mkdtemp(prefix="peviz-slowterm.")
    # l at 100 ms: the cursor one step right (pos=1); w saves the frame
    name = "%s answers %.0f ms late%s" % (mode[0], delay * 1000,
                                         ", a byte every %.0f ms" % (gap * 1000) if gap else "")
    r = Run(delay, keys=[(0.1, b"l")], gap=gap, cwd=home, answers=answers)
    r.pump(3 + delay * 3 + gap * sum(len(a) for _, a in answers), until=mode[1])
    os.write(r.fd, b"w")
    r.pump(3.0, until=b"wrote ", quiet=0.2)
    out = bytes(r.out)
    status = r.quit()
    saved = sorted(f for f in os.listdir(home) if f.endswith(".txt"))
    frame = open(os.path.join(home, saved[0]), encoding="utf-8").read() if saved else ""
    for f in os.listdir(home):
        os.unlink(os.path.join(home, f))
    os.rmdir(home)
    shown = text(out)
    check(status == 0, name + ": q quits (exit %r)" % status)
    check(saved and saved[0].startswith("peviz-heatmap-"),
          name + ": still the heatmap when w saves (%s)" % (saved[0] if saved else "nothing saved"))
    check("pos=1 " in frame and "counter" not in shown,
          name + ": the l typed at 100 ms moved the cursor, no report's byte was a key")
    check(mode[1] in out, name + ": %s images" % mode[0])
    notes = shown.count("graphics: " + mode[0])
    late = "answered late" in shown
    check(notes == 1, name + ": the status line says the mode once (%d)" % notes)
    return late


def test_late():
    # waited for: the first answer in 400 ms, the graphics round in twice
    # the round trip; later than that, images start late and say so
    for delay in (0.0, 0.15, 0.3):
        late = late_case(delay)
        check(not late, "sixel answers %.0f ms late: waited for at start-up" % (delay * 1000))
    for delay in (0.65, 1.2):
        late = late_case(delay)
        check(late, "sixel answers %.0f ms late: images start late, the note says so" % (delay * 1000))
    # kitty or WezTerm 250 ms late: the heatmap, not the clocks with the
    # counter on
    late_case(0.25, answers=KITTY, mode=("kitty", b"\x1b_Ga=T"))
    # (a terminal sends a report's bytes together in its stream: a key
    # comes before or after them, never between, so none is typed then)
    late_case(0.2, gap=0.12)


def exits(keys, delay=None, secs=3.0, args=(), env_add=None):
    r = Run(delay, keys=keys, args=args, env_add=env_add)
    r.pump(max(t for t, _ in keys) + secs)
    status = r.status
    if status is None:
        os.kill(r.pid, signal.SIGKILL)
        os.waitpid(r.pid, 0)
    os.close(r.fd)
    return status


def test_silent():
    """Nothing answers: a key at any moment of start-up is taken."""
    lost = []
    for ms in (0, 20, 50, 90, 120, 160, 200, 260, 330, 400, 450, 600):
        for _ in range(2):
            if exits([(ms / 1000.0, b"q")], secs=2.0) != 0:
                lost.append(ms)
    check(not lost, "silent terminal: q at every moment quits (lost at %s ms)" % lost)
    # a lone Esc while DA1 is owed closes the prompt; q then quits
    check(exits([(0.1, b":"), (0.2, b"\x1b"), (2.5, b"q")]) == 0,
          "silent terminal: Esc typed while DA1 is owed reaches the prompt")
    check(exits([(0.1, b":"), (0.15, b"\x1b"), (0.3, b"q")]) == 0,
          "silent terminal: Esc then q at once: both taken, in order")
    # the Chinese tour under LANG=C first asks whether the terminal takes
    # UTF-8 (a cursor report): a key typed then is kept too
    zh = dict(args=["--tour", "--lang", "zh"], env_add={"LANG": "C", "LC_ALL": "C"})
    lost = [ms for ms in (50, 150, 250) if exits([(ms / 1000.0, b"qq")], secs=2.0, **zh) != 0]
    check(not lost, "the Chinese tour's UTF-8 question: q q (in a tour) typed meanwhile quits (lost at %s ms)" % lost)


def test_light():
    """A light theme (OSC 11 answers white): the clock faces' images
    have the terminal's background, not the dark #1E1E1E."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from graphics_pty import sixel_image
    for bg, want in ((b"ffff/ffff/ffff", (255, 255, 255)), (b"1e1e/1e1e/1e1e", None)):
        answers = [(q, b"\x1b]11;rgb:%s\x1b\\" % bg if q.startswith(b"\x1b]11") else a)
                   for q, a in ANSWERS]
        r = Run(0.0, args=["--view", "clocks"], answers=answers)
        r.pump(4.0, until=b"\x1bPq")
        img = sixel_image(bytes(r.out))
        r.quit()
        corner = img[4].get((0, 0)) if img else None
        if want:
            check(corner == want, "light theme: a face's corner is the terminal's background (%r)" % (corner,))
        else:
            check(corner and corner != (255, 255, 255) and max(corner) < 40,
                  "dark theme: a face's corner is dark (%r)" % (corner,))


def test_zoom():
    """A resize that comes with another font (the terminal zoomed): the
    cell size is asked again, and the next images are of the new cell,
    10 x 20 pixels where it was 8.425 x 16."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from graphics_pty import sixel_image
    term = {"size": (W, H), "cell": (8.425, 16)}

    def area():
        (c, r), (cw, ch) = term["size"], term["cell"]
        return b"\x1b[4;%d;%dt" % (int(r * ch), int(c * cw))

    def cell():
        return b"\x1b[6;%d;%dt" % (term["cell"][1], int(term["cell"][0]))
    answers = [(q, area if q == b"\x1b[14t" else cell if q == b"\x1b[16t" else a) for q, a in ANSWERS]
    r = Run(0.0, answers=answers)
    r.pump(4.0, until=b"\x1bPq")
    before = sixel_image(bytes(r.out))
    term.update(size=(80, 24), cell=(10, 20))
    mark = len(r.out)
    fcntl.ioctl(r.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    r.pump(4.0, until=b"\x1bPq", quiet=0.8)
    after = sixel_image(bytes(r.out[mark:]))
    r.quit()
    check(before and after and after[2] % 10 == 0 and after[3] % 20 == 0 and before[3] % 16 == 0,
          "zoomed: the images after it are of whole 10x20 cells (%s, before %s)"
          % (after and "%dx%d" % after[2:4], before and "%dx%d" % before[2:4]))


def main():
    test_zoom()
    test_silent()
    test_light()
    test_late()
    print("test_slowterm: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
