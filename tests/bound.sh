#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The base bound from the outside: --export bound against a brute force
# written again below (plain math.cos at every distance, no rotation, no
# blocks): the horizon exactly, for several head dims, bases, a scaling
# (its frequencies read from --export freqs), dead pairs and a preset;
# the lowest base for several head dims and lengths: it passes, the fine
# grid point below it fails, and so does every coarse grid point below
# it; the published anchors; and bad input (exit 2, one stderr line,
# nothing on stdout).
# Ends with "bound: N passed, M failed".
set -u
cd "$(dirname "$0")/.."
: "${PEVIZ:=./peviz}"
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

if ! command -v python3 >/dev/null; then
    echo "bound: python3 is needed"; echo "bound: 0 passed, 1 failed"; exit 1
fi

PEVIZ="$PEVIZ" python3 - <<'PY'
import math, os, subprocess, sys

peviz = os.environ["PEVIZ"]
passed = failed = 0

def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)

def run(*args):
    return subprocess.run([peviz, *args], capture_output=True, text=True)

def bound(*args):
    r = run("--export", "bound", *args)
    if r.returncode != 0:
        return None
    return dict(line.split(",", 1) for line in r.stdout.splitlines())

def omegas(base, d):
    return [base ** (-2.0 * i / d) for i in range(d // 2)]

def horizon(w, limit):
    """The first m in [0, limit) with sum cos(m w_i) < 0, else None."""
    for m in range(limit):
        if sum(math.cos(m * x) for x in w) < 0:
            return m
    return None

def passes(base, d, L):
    return horizon(omegas(base, d), L) is None

def fmt_h(h):
    return "none" if h is None else str(h)

# ---- the horizon -----------------------------------------------------------
for d, base in ((32, 1e4), (64, 1e4), (96, 3e4), (128, 1e4), (128, 5e5),
                (64, 777.0), (48, 2.5e5)):
    b = bound("-d", str(d), "-b", repr(base))
    if b is None:
        check(False, "--export bound -d %d -b %g refused" % (d, base))
        continue
    limit = int(b["horizon_limit"])
    ref = horizon(omegas(base, d), limit)
    check(b["horizon"] == fmt_h(ref),
          "d %d base %g: horizon %s, brute force %s" % (d, base, b["horizon"],
                                                       fmt_h(ref)))
    check(b["head_dim"] == str(d) and b["dead_pairs"] == "0"
          and b["live_pairs"] == str(d // 2) and b["trivial"] == "0",
          "d %d base %g: the head's pairs %r" % (d, base, b))

# the published anchor: Llama 2, theta 1e4 at head dim 128
b = bound("-d", "128", "-b", "10000")
check(b is not None and b["horizon"] == "1707",
      "the horizon of base 1e4 at head dim 128 is 1707, got %r" % b)

# a scaling: the frequencies --export freqs prints for the same settings
for args in (("-d", "64", "-b", "10000", "--rope-scaling", "linear",
              "--factor", "4"),
             ("--model", "llama3.1-8b")):
    r = run("--export", "freqs", *args)
    w = [float(line.split(",")[1]) for line in r.stdout.splitlines()]
    b = bound(*args)
    if b is None or not w:
        check(False, "%s: no export" % " ".join(args))
        continue
    ref = horizon(w, int(b["horizon_limit"]))
    check(b["horizon"] == fmt_h(ref), "%s: horizon %s, brute force %s"
          % (" ".join(args), b["horizon"], fmt_h(ref)))

# dead pairs: --rotary-dims R < d leaves (d - R) / 2 pairs at omega 0
for d, R, base in ((64, 48, 1e4), (96, 40, 2e4), (64, 32, 1e4)):
    b = bound("-d", str(d), "-b", repr(base), "--scheme", "rope",
              "--rotary-dims", str(R))
    if b is None:
        check(False, "-d %d --rotary-dims %d refused" % (d, R))
        continue
    dead = (d - R) // 2
    w = omegas(base, R) + [0.0] * dead
    trivial = dead >= R // 2
    ref = None if trivial else horizon(w, int(b["horizon_limit"]))
    check(b["dead_pairs"] == str(dead) and b["live_pairs"] == str(R // 2)
          and b["trivial"] == str(int(trivial)) and b["horizon"] == fmt_h(ref),
          "-d %d --rotary-dims %d: %r, brute force horizon %s, trivial %d"
          % (d, R, b, fmt_h(ref), trivial))
    if trivial:     # B(m) >= dead - live >= 0 at every m: check a stretch
        check(all(sum(math.cos(m * x) for x in w) >= 0 for m in range(5000)),
              "-d %d --rotary-dims %d: B goes negative" % (d, R))

# a preset whose head_dim is past its rotary dims
r = run("--model", "list")
lines = r.stdout.splitlines()
ctx_end = lines[0].index("max_ctx") + len("max_ctx")   # right-aligned
rows = [l.split() for l in lines[1:]]
contexts = {l.split()[0]: int(l[:ctx_end].split()[-1]) for l in lines[1:]}
for row in rows:
    if len(row) > 2 and row[1].isdigit() and row[2].isdigit() \
            and int(row[2]) >= 2 * int(row[1]):
        b = bound("--model", row[0])
        check(b is not None and b["trivial"] == "1"
              and b["horizon"] == "none" and b["head_dim"] == row[2]
              and b["dead_pairs"] == str((int(row[2]) - int(row[1])) // 2),
              "--model %s: a partial head holds trivially: %r" % (row[0], b))

# a partial config (tests/data/partial-*.json): head_dim (or hidden_size /
# heads) is the head, int(head * fraction) its rotary dims at
# theta^(-2i/rotary), every other pair dead; the brute force sums the
# live cosines and adds 1 a dead pair
import json
for name in ("partial-075", "partial-glm", "partial-neox"):
    path = "tests/data/%s.json" % name
    cfg = json.load(open(path))
    rp = cfg.get("rope_parameters") or {}
    head = cfg.get("head_dim") or cfg["hidden_size"] // cfg["num_attention_heads"]
    frac = rp.get("partial_rotary_factor", cfg.get("partial_rotary_factor",
                                                   cfg.get("rotary_pct")))
    theta = rp.get("rope_theta", cfg.get("rope_theta", cfg.get("rotary_emb_base")))
    rot = int(head * frac)
    live, dead = rot // 2, head // 2 - rot // 2
    b = bound("--config", path)
    if b is None:
        check(False, "--config %s refused" % path)
        continue
    w = omegas(theta, rot)
    if dead >= live:
        ref = None
    else:
        ref = next((m for m in range(int(b["horizon_limit"]))
                    if sum(math.cos(m * x) for x in w) + dead < 0), None)
    check(b["head_dim"] == str(head) and b["rotary_dims"] == str(rot)
          and b["live_pairs"] == str(live) and b["dead_pairs"] == str(dead)
          and b["trivial"] == str(int(dead >= live))
          and b["horizon"] == fmt_h(ref),
          "--config %s: %r, want head %d rotary %d dead %d horizon %s"
          % (path, b, head, rot, dead, fmt_h(ref)))

# ---- the lowest base -------------------------------------------------------
for d in (32, 64, 96, 128):
    for L in (300, 1000, 2500):
        b = bound("-d", str(d), "-n", str(L))
        if b is None or b["lowest_base"] == "none":
            check(False, "d %d L %d: no lowest base %r" % (d, L, b))
            continue
        C, F = int(b["coarse_per_decade"]), int(b["fine_per_decade"])
        j = int(b["lowest_base_index"])
        base, below = 10 ** (j / F), 10 ** ((j - 1) / F)
        check(abs(float(b["lowest_base"]) / base - 1) < 1e-8
              and abs(float(b["fine_below"]) / below - 1) < 1e-8
              and b["length"] == str(L),
              "d %d L %d: lowest_base %s is not 10^(%d/%d)"
              % (d, L, b["lowest_base"], j, F))
        check(passes(base, d, L), "d %d L %d: base %.9g fails"
              % (d, L, base))
        check(not passes(below, d, L), "d %d L %d: the fine point below, "
              "%.9g, passes" % (d, L, below))
        step = F // C
        coarse = [k for k in range(step, j, step) if passes(10 ** (k / F), d, L)]
        check(not coarse, "d %d L %d: coarse points below %.9g pass: %s"
              % (d, L, base, coarse[:3]))

# the lowest base is searched only for a length asked for with -n
b = bound("-d", "64")
check(b is not None and "lowest_base" not in b and "fine_below" not in b,
      "--export bound without -n: lowest base lines %r" % b)

# the published anchor: about 4.3e3 for 1k at head dim 128
b = bound("-d", "128", "-n", "1000")
check(b is not None and 4.1e3 < float(b["lowest_base"]) < 4.4e3,
      "the lowest base for 1000 at head dim 128 is about 4.3e3, got %r" % b)

# ---- on screen: the compare spectrum and profile ---------------------------
# Each preset's horizon beside its context, as --export bound prints it.
import re
for row in rows:
    name, ctx = row[0], contexts[row[0]]
    b = bound("--model", name)
    if b["trivial"] == "1":
        want = "no horizon, trivially: %s dead pairs" % b["dead_pairs"]
    elif b["horizon"] != "none" and int(b["horizon"]) < ctx:
        want = "horizon {:,} < context {:,}".format(int(b["horizon"]), ctx)
    else:
        want = "horizon \u2265 context {:,}".format(ctx)
    for mode in ("spectrum", "profile"):
        r = run("--snapshot", "--view", "compare", "--pane-mode", mode,
                "--model", name, "--size", "200x40")
        check(want in r.stdout, "--model %s, %s: no %r on screen"
              % (name, mode, want))

# ---- bad input -------------------------------------------------------------
for args in (("--format", "f64"), ("--rows", "1..2")):
    r = run("--export", "bound", *args)
    check(r.returncode == 2 and r.stdout == ""
          and len(r.stderr.splitlines()) == 1,
          "--export bound %s: exit %d, stdout %r, stderr %r"
          % (" ".join(args), r.returncode, r.stdout, r.stderr))

print("bound: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
