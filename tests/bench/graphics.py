#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""Bytes on the wire with images, at 160x48 cells of 10x20 pixels: peviz
on a pty whose far end answers the probes as kitty, as xterm with sixel,
as iTerm2 (TERM_PROGRAM), as tmux (with allow-passthrough) in a kitty
(Unicode placeholders; the cell size from the window's pixels), or with
--graphics cells; for each, the bytes a
cursor move (Right) and a parameter change (b, D, N) cost, medians of a
few presses, and whether --low-bandwidth falls back to cells.
Usage: graphics.py PEVIZ [quick].  Prints a table; never fails."""
import os, sys, time

# tests/, not tests/bench/ (whose pty.py would hide the standard module)
sys.path[0] = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
import graphics_pty as gp  # noqa: E402

gp.PEVIZ = sys.argv[1] if len(sys.argv) > 1 else "./peviz"
QUICK = len(sys.argv) > 2 and sys.argv[2] == "quick"
gp.W, gp.H, gp.CW, gp.CH = 160, 48, 10, 20
ARGS = ["-n", "4096", "-d", "128", "--view", "heatmap"]
CELL = b"\x1b[6;20;10t"
TMUX = {"TMUX": "/tmp/tmux-1/default,1,0"}
MODES = [
    ("kitty", {"kitty": b"\x1b_Gi=31;OK\x1b\\", "cell": CELL, "da1": b"\x1b[?62;22c"}, {}, []),
    ("tmux", {"kitty": b"\x1b_Gi=31;OK\x1b\\"}, TMUX, []),
    ("sixel", {"cell": CELL, "da1": b"\x1b[?63;1;2;4;6;9;15;22c"}, {}, []),
    ("iterm2", {"cell": CELL, "da1": b"\x1b[?62;22c"}, {"TERM_PROGRAM": "iTerm.app"}, []),
    ("cells", {"da1": b"\x1b[?62;22c"}, {}, ["--graphics", "cells"]),
]
# the arrow as the terminal sends it in keypad mode (curses asks for it):
# ESC [ C would be an unknown key, costing only its status message
KEYS = [("Right", b"\x1bOC"), ("b", b"b"), ("D", b"D"), ("N", b"N")]


def burst(t, key):
    """Bytes the key caused: from the first byte of its frame until 300 ms
    of silence (at most 5 s).  The silence is counted from the first byte,
    not from the key: on a loaded machine the frame may take longer than
    300 ms to compute, and its image would then be counted with the next
    key's."""
    mark = len(t.out)
    os.write(t.fd, key)
    end = time.monotonic() + 5
    last = len(t.out)
    quiet_since = None
    while time.monotonic() < end:
        t.pump(0.05)
        if len(t.out) != last:
            last, quiet_since = len(t.out), time.monotonic()
        elif quiet_since is not None and time.monotonic() - quiet_since > 0.3:
            break
    return len(t.out) - mark


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if v else 0


def main():
    reps = 2 if QUICK else 4
    print("Bytes per key with images at %dx%d cells of %dx%d px, heatmap d 128 n 4096 (median of %d presses)"
          % (gp.W, gp.H, gp.CW, gp.CH, reps))
    print("  %-7s %-28s %9s %9s %9s %9s" % ("mode", "status line", "Right", "b", "D", "N"))
    for name, answers, env, extra in MODES:
        term = gp.TmuxTerm if "TMUX" in env else gp.Term
        t = term(dict(answers), extra=extra, env_add=env, args=ARGS)
        t.pump(3.0, until=b"PE heatmap")
        t.pump(1.0)
        said = b""
        i = t.out.find(b"graphics: ")
        if i >= 0:
            said = t.out[i:i + 28].split(b"\x1b")[0]
        row = []
        for _, key in KEYS:
            row.append(median([burst(t, key) for _ in range(reps)]))
        t.close()
        print("  %-7s %-28s %9d %9d %9d %9d" % (name, said.decode("ascii", "replace"), *row))
    # --low-bandwidth: an image over the budget gives way to cells, said once
    t = gp.Term(dict(MODES[0][1]), extra=["--low-bandwidth"], args=ARGS)
    t.pump(3.0, until=b"PE heatmap")
    t.pump(1.0)
    fell = b"low-bandwidth budget" in t.out and b"\x1b_Ga=T" not in t.out
    b = median([burst(t, b"b") for _ in range(reps)])
    t.close()
    print("  kitty --low-bandwidth: %s; b costs %d bytes" %
          ("cells (said so), no image sent" if fell else "images still sent: MISSED", b))


def sweep(t, secs):
    """Bytes, frames (bursts of output after 15 ms of silence) and images
    while the sweep runs for secs."""
    start, end, frames, last = len(t.out), time.monotonic() + secs, 0, time.monotonic()
    while time.monotonic() < end:
        n = len(t.out)
        t.pump(0.005)
        now = time.monotonic()
        if len(t.out) != n:
            if now - last > 0.015:
                frames += 1
            last = now
    data = bytes(t.out[start:])
    return len(data), frames, data.count(b"\x1b_Ga=T") + data.count(b"\x1bPq")


def clocks():
    """The clock faces: the bytes of a frame that turns them by 1 and by 2
    positions (a frame of the sweep at 4 and at 16 pos/s, --fps 10: 0.4
    and 1.6 positions a frame), medians of a few; then the sweep itself,
    whose frames' images are over the budget and give way to cells."""
    secs, reps = (3, 2) if QUICK else (6, 4)
    args = ["-d", "64", "-n", "4096", "--view", "clocks", "--fps", "10"]
    print("Clock faces at %dx%d cells of %dx%d px, d 64 (33 faces), --fps 10" % (gp.W, gp.H, gp.CW, gp.CH))
    print("  %-7s %10s %10s %7s | %-6s %7s %9s %9s %6s" % ("mode", "1 pos B", "2 pos B", "faces1", "sweep",
                                                       "frames", "B/frame", "B/s", "img/fr"))
    for name, answers, env, extra in MODES[:1] + MODES[2:3] + MODES[4:5]:
        t = gp.Term(dict(answers), extra=extra, env_add=env, args=args)
        t.pump(3.0, until=b"PE clocks")
        gp.quiet(t, 0.5)
        one, two, faces, pos = [], [], [], 0
        for _ in range(reps):
            mark = len(t.out)
            one.append(burst(t, b"."))
            faces.append(t.out[mark:].count(b"\x1b_Ga=T") + t.out[mark:].count(b"\x1bPq"))
            pos += 3
            two.append(burst(t, b":pos %d\r" % pos))
        row = "  %-7s %10d %10d %7d |" % (name, median(one), median(two), median(faces))
        for speed, keys in ((4, b" "), (16, b">>")):
            os.write(t.fd, keys)
            t.pump(1.0)
            n, frames, imgs = sweep(t, secs)
            print(row + " %-6s %7d %9.0f %9.0f %6.1f" % ("%d/s" % speed, frames, n / max(frames, 1), n / secs,
                                                        imgs / max(frames, 1)))
            row = " " * len(row)
        said = b"cells while the sweep plays" in t.out
        t.close()
        if name != "cells":
            print("  %s: the sweep %s" % (name, "gave way to cells (said)" if said else "kept its images"))


def pca():
    """The heatmap with its PCA panel open (p): the bytes of a cursor move
    (Right; the face's hand is cells over its image, no image goes) and of
    a change of the pair (] and [: the face's curve, its image again),
    medians of a few, and the images each sent."""
    reps = 2 if QUICK else 4
    print("PCA panel at %dx%d cells of %dx%d px, heatmap d 128 n 4096 (median of %d presses)"
          % (gp.W, gp.H, gp.CW, gp.CH, reps))
    print("  %-7s %9s %7s %9s %7s" % ("mode", "Right B", "images", "] [ B", "images"))
    for name, answers, env, extra in MODES:
        term = gp.TmuxTerm if "TMUX" in env else gp.Term
        t = term(dict(answers), extra=extra, env_add=env, args=ARGS)
        t.pump(3.0, until=b"PE heatmap")
        gp.quiet(t, 0.5)
        os.write(t.fd, b"p")
        t.pump(20.0, until=b"PC1 ")
        gp.quiet(t, 1.0, 20.0)
        row = []
        for seq in ([b"\x1bOC"], [b"]", b"["]):    # ] then [: PC3, back to PC2
            sizes, imgs = [], []
            for _ in range(reps):
                for k in seq:
                    mark = len(t.out)
                    sizes.append(burst(t, k))
                    d = bytes(t.out[mark:])
                    imgs.append(d.count(b"\x1b_Ga=T") + d.count(b"\x1bPq") + d.count(b"\x1b]1337;File"))
            row += [median(sizes), median(imgs)]
        t.close()
        print("  %-7s %9d %7d %9d %7d" % (name, *row))


if __name__ == "__main__":
    main()
    clocks()
    pca()
