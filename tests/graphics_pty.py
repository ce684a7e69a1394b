#!/usr/bin/env python3
"""Images on a live terminal, without one: peviz runs on a pty whose other
end answers the start-up probes as kitty, as xterm with sixel, or not at
all.  Checks the mode chosen (status line), that no answer means cells
within 200 ms of the probe, and decodes the images sent (kitty APC: base64
+ zlib; sixel DCS: registers and bands), comparing them with the data area
of a --snapshot --format png of the same state (decoded here with zlib);
a cursor move must cost no image bytes, a parameter change a new image.
Standard library only."""
import base64, fcntl, os, pty, re, select, struct, subprocess, sys, termios, time, zlib

PEVIZ = os.environ.get("PEVIZ", "./peviz")
W, H, CW, CH = 160, 48, 8, 16
ARGS = ["-n", "1024", "-d", "64", "--view", "heatmap", "--pos", "300"]
passed = failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def png_pixels(data):
    """RGB rows of an 8-bit RGB PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, w = 8, b"", 0
    while at < len(data):
        n, = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype == 2
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), w * 3, [], bytearray(w * 3)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 3] if i >= 3 else 0
            b, c = prev[i], prev[i - 3] if i >= 3 else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, rows


def snapshot(extra, args=None):
    out = subprocess.run([PEVIZ, "--snapshot", "--format", "png", "--size", "%dx%d" % (W, H)]
                         + (ARGS if args is None else args) + extra,
                         capture_output=True, check=True).stdout
    return png_pixels(out)


class Term:
    """peviz on a pty of W x H cells of CW x CH pixels; answer(kind) says what
    the far end replies to each query."""

    def __init__(self, answers, extra=(), env_add=None, args=None):
        self.answers, self.out, self.t_probe = answers, bytearray(), None
        pid, fd = pty.fork()
        if pid == 0:
            env = {k: v for k, v in os.environ.items() if k not in ("TMUX", "TERM_PROGRAM", "LC_TERMINAL")}
            env.update(TERM="xterm-256color", LANG="C.UTF-8", LC_ALL="C.UTF-8")
            env.update(env_add or {})
            os.execvpe(PEVIZ, [PEVIZ] + (ARGS if args is None else args) + list(extra), env)
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", H, W, W * CW, H * CH))
        self.pid, self.fd, self.seen = pid, fd, 0

    def pump(self, secs, until=None):
        start, end = len(self.out), time.monotonic() + secs
        while time.monotonic() < end:
            r, _, _ = select.select([self.fd], [], [], 0.01)
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    return
                self.out += data
                self.reply()
            if until and self.out.find(until, max(0, start - 64)) >= 0:
                return

    def reply(self):
        """Answer the queries in order of arrival."""
        pat = re.compile(rb"\x1b_Gi=31,[^\x1b]*\x1b\\|\x1b\[>q|\x1b\[16t|\x1b\[c")
        for m in pat.finditer(self.out, self.seen):
            q = m.group(0)
            if q.startswith(b"\x1b_G") and self.t_probe is None:
                self.t_probe = time.monotonic()
            key = "kitty" if q.startswith(b"\x1b_G") else {b"\x1b[>q": "xtversion", b"\x1b[16t": "cell",
                                                              b"\x1b[c": "da1"}[q]
            if self.answers.get(key):
                os.write(self.fd, self.answers[key])
            if key == "da1" and self.answers.pop("da1_once", None):
                self.answers.pop("da1", None)
            self.seen = m.end()
        self.seen = max(self.seen, len(self.out) - 64)

    def send(self, keys):
        mark = len(self.out)
        os.write(self.fd, keys)
        return mark

    def close(self):
        os.write(self.fd, b"q")
        self.pump(1.0)
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        os.close(self.fd)


def kitty_images(data):
    """(x, y, w, h, rgb) of each kitty transmission in data."""
    imgs = []
    for m in re.finditer(rb"\x1b\[(\d+);(\d+)H\x1b_G(a=T[^;]*);", data):
        keys = dict(kv.split(b"=") for kv in m.group(3).split(b","))
        at, b64 = m.start(3) - 3, b""
        while True:
            semi = data.index(b";", at)
            end = data.index(b"\x1b\\", semi)
            b64 += data[semi + 1:end]
            check(end - semi - 1 <= 4096, "kitty chunk of at most 4096 bytes")
            more = re.search(rb"m=(\d)", data[at:semi]).group(1) == b"1"
            at = end + 2
            if not more:
                break
            check(data[at:at + 3] == b"\x1b_G", "kitty chunks follow each other")
        w, h = int(keys[b"s"]), int(keys[b"v"])
        check(keys[b"f"] == b"24" and keys[b"o"] == b"z" and keys[b"q"] == b"2" and keys[b"C"] == b"1",
              "kitty keys f=24 o=z q=2 C=1")
        rgb = zlib.decompress(base64.b64decode(b64))
        check(len(rgb) == w * h * 3, "kitty payload is w x h RGB")
        imgs.append((int(m.group(2)) - 1, int(m.group(1)) - 1, w, h, rgb))
    return imgs


def sixel_image(data):
    """(x, y, w, h, rgb dict) of the last sixel in data."""
    m = None
    for m in re.finditer(rb"\x1b\[(\d+);(\d+)H\x1bPq\"1;1;(\d+);(\d+)(.*?)\x1b\\", data, re.S):
        pass
    if not m:
        return None
    w, h, body = int(m.group(3)), int(m.group(4)), m.group(5)
    regs, px, k, x, y, i = {}, {}, 0, 0, 0, 0
    while i < len(body):
        c = body[i:i + 1]
        if c == b"#":
            mm = re.match(rb"#(\d+)(;2;(\d+);(\d+);(\d+))?", body[i:])
            k = int(mm.group(1))
            if mm.group(2):
                regs[k] = tuple(round(int(mm.group(j)) * 255 / 100) for j in (3, 4, 5))
            i += mm.end()
            continue
        if c == b"$": x = 0; i += 1; continue
        if c == b"-": x = 0; y += 6; i += 1; continue
        rep = 1
        if c == b"!":
            mm = re.match(rb"!(\d+)", body[i:])
            rep = int(mm.group(1)); i += mm.end(); c = body[i:i + 1]
        bits = c[0] - 63
        for _ in range(rep):
            for r in range(6):
                if bits >> r & 1:
                    px[(x, y + r)] = regs[k]
            x += 1
        i += 1
    return int(m.group(2)) - 1, int(m.group(1)) - 1, w, h, px


def compare(img_px, x0, y0, w, h, snap, tol):
    """Sampled pixels of an image at cell (x0, y0) against the snapshot."""
    sw, sh, rows = snap
    bad = total = 0
    for y in range(1, h, 7):
        for x in range(0, w, 5):
            got = img_px(x, y)
            want = tuple(rows[y0 * CH + y][(x0 * CW + x) * 3:(x0 * CW + x) * 3 + 3])
            total += 1
            if got is None or max(abs(a - b) for a, b in zip(got, want)) > tol:
                bad += 1
    return bad, total


def test_kitty():
    t = Term({"kitty": b"\x1b_Gi=31;OK\x1b\\", "cell": b"\x1b[6;%d;%dt" % (CH, CW), "da1": b"\x1b[?62;22c"})
    t.pump(3.0, until=b"\x1b_Ga=T")
    t.pump(0.5)
    check(b"graphics: kitty (kitty graphics reply)" in t.out, "kitty: the status line says so")
    imgs = kitty_images(t.out)
    check(len(imgs) == 1, "kitty: one image sent (%d)" % len(imgs))
    if imgs:
        x0, y0, w, h, rgb = imgs[-1]
        bad, total = compare(lambda x, y: tuple(rgb[(y * w + x) * 3:(y * w + x) * 3 + 3]), x0, y0, w, h,
                             snapshot([]), 0)
        check(total > 1000 and bad <= total // 100, "kitty image = snapshot data area (%d of %d differ)" % (bad, total))
    mark = t.send(b"l")                 # the cursor one column on
    t.pump(0.6)
    check(b"\x1b_G" not in t.out[mark:] and len(t.out) > mark, "kitty: a cursor move sends no image bytes")
    mark = t.send(b":base 500\r")       # a parameter: a new image
    t.pump(1.5)
    imgs = kitty_images(t.out[mark:])
    check(len(imgs) == 1, "kitty: a parameter change sends one image")
    if imgs:
        x0, y0, w, h, rgb = imgs[-1]
        bad, total = compare(lambda x, y: tuple(rgb[(y * w + x) * 3:(y * w + x) * 3 + 3]), x0, y0, w, h,
                             snapshot(["-b", "500", "--pos", "301"]), 0)
        check(total > 1000 and bad <= total // 100, "kitty image after :base 500 (%d of %d differ)" % (bad, total))
        print("kitty: %d bytes for a parameter change at %dx%d (cell %dx%d px)"
              % (len(t.out) - mark, W, H, CW, CH))
    mark = len(t.out)
    t.close()
    check(b"\x1b_Ga=d,d=I" in t.out[mark:], "kitty: the image is deleted at exit")


def test_attention():
    """The attention matrix as a kitty image, equal to the snapshot's."""
    args = ["-n", "96", "-d", "32", "--view", "attention", "--causal"]
    t = Term({"kitty": b"\x1b_Gi=31;OK\x1b\\", "cell": b"\x1b[6;%d;%dt" % (CH, CW), "da1": b"\x1b[?62;22c"},
             args=args)
    t.pump(3.0, until=b"\x1b_Ga=T")
    t.pump(0.5)
    imgs = kitty_images(t.out)
    check(len(imgs) == 1, "attention: one kitty image (%d)" % len(imgs))
    if imgs:
        x0, y0, w, h, rgb = imgs[-1]
        snap = snapshot([], args)
        bad, total = compare(lambda x, y: tuple(rgb[(y * w + x) * 3:(y * w + x) * 3 + 3]), x0, y0, w, h,
                             snap, 0)
        # masked cells (above the diagonal) are the background in both
        check(total > 1000 and bad <= total // 100, "attention image = snapshot (%d of %d differ)" % (bad, total))
    mark = t.send(b"l")
    t.pump(0.6)
    check(b"\x1b_G" not in t.out[mark:], "attention: a cursor move sends no image bytes")
    t.close()


def test_sixel():
    t = Term({"xtversion": b"\x1bP>|XTerm(390)\x1b\\", "cell": b"\x1b[6;%d;%dt" % (CH, CW),
              "da1": b"\x1b[?63;1;2;4;6;9;15;22c"})
    t.pump(4.0, until=b"\x1bPq")
    t.pump(1.0)
    check(b"graphics: sixel (DA1 attribute 4)" in t.out, "sixel: the status line says so")
    img = sixel_image(t.out)
    check(img is not None, "sixel: an image sent")
    if img:
        x0, y0, w, h, px = img
        bad, total = compare(lambda x, y: px.get((x, y)), x0, y0, w, h, snapshot([]), 10)
        check(total > 1000 and bad <= total // 100, "sixel image ~ snapshot data area (%d of %d differ)" % (bad, total))
    mark = t.send(b"l")
    t.pump(0.6)
    check(b"\x1bPq" not in t.out[mark:], "sixel: a cursor move sends no image bytes")
    t.close()


def test_low_bandwidth():
    """kitty, but --low-bandwidth: an image over the budget gives way to
    cells, and the status line says so."""
    t = Term({"kitty": b"\x1b_Gi=31;OK\x1b\\", "cell": b"\x1b[6;%d;%dt" % (CH, CW), "da1": b"\x1b[?62;22c"},
             extra=["--low-bandwidth"])
    t.pump(3.0, until=b"over the low-bandwidth budget")
    t.pump(0.3)
    check(b"graphics: cells (an image of" in t.out and b"over the low-bandwidth budget" in t.out,
          "low-bandwidth: the status line says images gave way to cells")
    check(b"\x1b_Ga=T" not in t.out, "low-bandwidth: no image bytes")
    t.close()


def test_follow():
    """A teacher on cells and a student on kitty: each probes its own
    terminal and sees its best picture of the same state."""
    import tempfile
    sock = os.path.join(tempfile.mkdtemp(prefix="peviz-gfx-"), "s")
    kitty = {"kitty": b"\x1b_Gi=31;OK\x1b\\", "cell": b"\x1b[6;%d;%dt" % (CH, CW), "da1": b"\x1b[?62;22c"}
    teacher = Term({"da1": b"\x1b[?62;22c"}, extra=["--serve", sock])
    teacher.pump(3.0, until=b"PE heatmap")
    student = Term(kitty, args=["--follow", sock])
    student.pump(4.0, until=b"\x1b_Ga=T")
    student.pump(0.5)
    teacher.pump(0.2)
    check(len(kitty_images(student.out)) >= 1, "follow: the student on kitty gets an image")
    check(b"\x1b_Ga=T" not in teacher.out, "follow: the teacher on cells sends none")
    mark = student.send(b"")
    teacher.send(b":base 500\r")
    teacher.pump(0.5)
    student.pump(2.0)
    imgs = kitty_images(student.out[mark:])
    check(len(imgs) == 1, "follow: the teacher's parameter change gives the student a new image")
    if imgs:
        x0, y0, w, h, rgb = imgs[-1]
        bad, total = compare(lambda x, y: tuple(rgb[(y * w + x) * 3:(y * w + x) * 3 + 3]), x0, y0, w, h,
                             snapshot(["-b", "500"]), 0)
        check(total > 1000 and bad <= total // 100,
              "follow: the student's image = snapshot of the teacher's state (%d of %d differ)" % (bad, total))
    student.close()
    teacher.close()
    try:
        os.unlink(sock)
        os.rmdir(os.path.dirname(sock))
    except OSError:
        pass


def test_silent():
    """Nothing answers: the DA1 peviz asks first goes unanswered, so the
    graphics probe is not sent at all; cells, no image bytes, no word."""
    t0 = time.monotonic()
    t = Term({})
    t.pump(3.0, until=b"PE heatmap")
    shown = time.monotonic()
    t.pump(0.3)
    print("silent: first frame %.0f ms after start" % ((shown - t0) * 1000))
    check(t.t_probe is None, "silent: no graphics probe after an unanswered DA1")
    check(shown - t0 < 1.0, "silent: the first frame within a second")
    check(b"\x1b_Ga=T" not in t.out and b"\x1bPq" not in t.out, "silent: no image bytes")
    check(b"graphics:" not in t.out, "silent: cells, as always, without a word")
    t.close()


def test_deaf():
    """The first DA1 is answered, the graphics probe is not: cells after
    at most 200 ms of waiting."""
    t = Term({"da1": b"\x1b[?62;22c", "da1_once": True})
    t.pump(3.0, until=b"PE heatmap")
    shown = time.monotonic()
    t.pump(0.3)
    check(t.t_probe is not None, "deaf: the graphics probe was sent")
    if t.t_probe is not None:
        took = shown - t.t_probe
        print("deaf: first frame %.0f ms after the graphics probe" % (took * 1000))
        check(took < 0.45, "deaf: cells within 200 ms of the probe (+ drawing): %.0f ms" % (took * 1000))
    check(b"\x1b_Ga=T" not in t.out and b"\x1bPq" not in t.out, "deaf: no image bytes")
    t.close()


if __name__ == "__main__":
    test_kitty()
    test_attention()
    test_sixel()
    test_low_bandwidth()
    test_follow()
    test_silent()
    test_deaf()
    print("graphics: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)
