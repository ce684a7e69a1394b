#!/usr/bin/env python3
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


if __name__ == "__main__":
    main()
