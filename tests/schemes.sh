#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The distance schemes from the outside: --export scores for t5,
# kerple-log, kerple-power, sandwich and xpos against an independent
# Python evaluation (written again below from the published formulas,
# plain math, float32 emulated with struct for T5's bucket log), T5 bucket
# edges against the reference algorithm and the edges listed for 32/128,
# a bias table loaded with --pe-file, and bad input (exit 2, one stderr
# line, nothing on stdout).
set -u
: "${PEVIZ:=./peviz}"
# Under a sanitizer build this suite starts the program about a hundred
# times, and LeakSanitizer's scan at each exit doubles what a start
# costs, so here the sanitizers look for memory errors alone; leaks on
# the same paths are valgrind.sh's (positions with more than one axis, the
# schemes' exports)
# and the fuzzers' to find.
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
pass=0 fail=0
tmp=$(mktemp -d /tmp/peviz-schemes.XXXXXX); trap 'rm -rf "$tmp"' EXIT
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if ! command -v python3 >/dev/null; then
    echo "schemes: python3 is needed"; echo "schemes: 0 passed, 1 failed"; exit 1
fi

cat >"$tmp/ref.py" <<'PY'
"""Reference values.  ref.py KIND FILE ARGS...: compares the CSV export in
FILE with the formula; prints ok or FAIL: the first difference."""
import functools, math, struct, sys

def f32(x):
    return struct.unpack("f", struct.pack("f", x))[0]

@functools.lru_cache(maxsize=None)
def bucket(rel, bidir, nb, md):
    """T5Attention._relative_position_bucket, its float32 steps."""
    ret, n = 0, nb
    if bidir:
        n //= 2
        ret += n if rel > 0 else 0
        rel = abs(rel)
    else:
        rel = -min(rel, 0)
    me = n // 2
    if rel < me:
        return ret + rel
    x = f32(f32(rel) / f32(me))
    l = f32(math.log(x))
    q = f32(l / f32(math.log(md / me)))
    r = f32(q * f32(n - me))
    return ret + min(me + int(r), n - 1)

def slopes(h):
    def pow2(h):
        start = 2 ** (-2 ** -(math.log2(h) - 3))
        return [start * start ** i for i in range(h)]
    if math.log2(h).is_integer():
        return pow2(h)
    c = 2 ** math.floor(math.log2(h))
    return pow2(c) + pow2(2 * c)[0::2][: h - c]

@functools.lru_cache(maxsize=None)
def first_distance(b, bidir, nb, md):
    side = nb // 2 if bidir else nb
    sb = b % side
    for dist in range(0, 40 * md + 40):
        if bucket(-dist, bidir, nb, md) == sb:
            return dist
    return float("nan")

def value(kind, a, i, j):
    dl = i - j
    if kind == "t5":                       # table W[b, h] = b + 1000 h
        b = bucket(j - i, a["bidir"], a["nb"], a["md"])
        if a["table"]:
            return b + 1000 * (a["head"] - 1)
        m = slopes(a["heads"])[a["head"] - 1]
        return -m * first_distance(b, a["bidir"], a["nb"], a["md"])
    if kind == "kerple-log":
        return -a["r1"] * math.log(1 + a["r2"] * abs(dl))
    if kind == "kerple-power":
        return -a["r1"] * abs(dl) ** a["r2"]
    d = a["d"]
    if kind == "sandwich":
        s = sum(math.cos(dl / a["base"] ** (2 * k / d))
                for k in range(1, d // 2 + 1))
        return (s - d / 2) / (a["head"] * 8 / a["heads"])
    if kind == "xpos":                     # q = k = ones
        s = 0.0
        for k in range(d // 2):
            z = (2 * k + 0.4 * d) / (1.4 * d)
            s += 2 * z ** (dl / a["g"]) * math.cos(dl * a["base"] ** (-2 * k / d))
        return s
    raise SystemExit("kind?")

def main():
    kind, path = sys.argv[1], sys.argv[2]
    a = dict(bidir=0, nb=32, md=128, table=0, head=1, heads=8, r1=1.0,
             r2=0.5, d=64, base=10000.0, g=512.0)
    for kv in sys.argv[3:]:
        k, v = kv.split("=")
        a[k] = float(v) if k in ("r1", "r2", "base", "g") else int(v)
    rows = [list(map(float, l.split(","))) for l in open(path)]
    for i, row in enumerate(rows):
        for j, got in enumerate(row):
            want = value(kind, a, i, j)
            if abs(got - want) > 1e-8 * max(1.0, abs(want)):
                print("FAIL: %s %s: S(%d,%d) = %r, want %r"
                      % (kind, " ".join(sys.argv[3:]), i, j, got, want))
                return
    print("ok")

main()
PY

# check NAME KIND "REF ARGS" PEVIZ ARGS...: export, then compare
check() {
    local name=$1 kind=$2 refargs=$3; shift 3
    if ! "$PEVIZ" --export scores --scheme "$kind" "$@" >"$tmp/out.csv" 2>"$tmp/err"; then
        bad "$name: exit $? ($(head -c 200 "$tmp/err"))"; return
    fi
    local r; r=$(python3 "$tmp/ref.py" "$kind" "$tmp/out.csv" $refargs)
    [ "$r" = ok ] && ok || bad "$name: $r"
}

# ---- T5: a table whose entries name their bucket ------------------------------
python3 - "$tmp" <<'PY'
import sys
for nb in (8, 16, 32, 64, 100):
    with open("%s/w%d.csv" % (sys.argv[1], nb), "w") as f:
        for b in range(nb):
            f.write(",".join(str(b + 1000 * h) for h in range(4)) + "\n")
PY
for set in "32 128 0" "32 128 1" "64 256 1" "16 40 0" "100 1000 1" "8 20 0" "8 5 1"; do
    read -r nb md bi <<<"$set"
    flag=; [ "$bi" = 1 ] && flag=--bidirectional
    check "t5 table $set" t5 "nb=$nb md=$md bidir=$bi table=1 head=3" \
        -n 300 --buckets "$nb" --max-distance "$md" $flag \
        --pe-file "$tmp/w$nb.csv" --head 3
done
check "t5 stand-in 32/128" t5 "head=3" -n 200 --head 3
check "t5 stand-in bidirectional 16 heads" t5 "bidir=1 nb=24 md=77 heads=16 head=11" \
    -n 160 --bidirectional --buckets 24 --max-distance 77 --heads 16 --head 11

# The edges listed for 32/128 (first distance of each bucket), from the
# last row: distance i - 0 = i.
"$PEVIZ" --export scores --scheme t5 -n 200 --pe-file "$tmp/w32.csv" >"$tmp/c.csv" 2>/dev/null
edges=$(python3 - "$tmp/c.csv" <<'PY'
import sys
rows = [l.split(",") for l in open(sys.argv[1])]
col = [int(float(r[0])) for r in rows]      # S(i, 0): distance i
print(" ".join("%d->%d" % (i, b) for i, b in enumerate(col)
               if i >= 16 and b != col[i - 1]))
PY
)
want="16->16 19->17 21->18 24->19 27->20 31->21 35->22 40->23 46->24 52->25 59->26 67->27 77->28 87->29 99->30 113->31"
[ "$edges" = "$want" ] && ok || bad "t5 causal edges: $edges"
"$PEVIZ" --export scores --scheme t5 --bidirectional -n 200 --pe-file "$tmp/w32.csv" >"$tmp/c.csv" 2>/dev/null
edges=$(python3 - "$tmp/c.csv" <<'PY'
import sys
rows = [l.split(",") for l in open(sys.argv[1])]
past = [int(float(r[0])) for r in rows]     # S(i, 0): the past at i
fut = [int(float(x)) for x in rows[0]]      # S(0, j): the future at j
p = " ".join("%d->%d" % (i, b) for i, b in enumerate(past) if i >= 8 and b != past[i - 1])
f = " ".join("%d->%d" % (i, b) for i, b in enumerate(fut) if i >= 8 and b != fut[i - 1])
print(p + " | " + f)
PY
)
want="8->8 12->9 16->10 23->11 32->12 46->13 64->14 91->15 | 8->24 12->25 16->26 23->27 32->28 46->29 64->30 91->31"
[ "$edges" = "$want" ] && ok || bad "t5 bidirectional edges: $edges"

# ---- KERPLE, Sandwich, xPos ----------------------------------------------------
check "kerple-log" kerple-log "r1=1.7 r2=0.23" -n 90 --r1 1.7 --r2 0.23
check "kerple-log defaults" kerple-log "" -n 40
check "kerple-power" kerple-power "r1=0.61 r2=1.37" -n 90 --r1 0.61 --r2 1.37
check "sandwich d128 head 1" sandwich "d=128" -n 70 -d 128
check "sandwich head 5 of 12" sandwich "d=48 heads=12 head=5 base=500" \
    -n 70 -d 48 --heads 12 --head 5 -b 500
check "xpos" xpos "d=32 g=512" -n 120 -d 32
check "xpos gamma 37" xpos "d=16 g=37 base=900" -n 80 -d 16 --xpos-scale-base 37 -b 900

# The values listed for Sandwich, d' = 128, head 1 of 8.
got=$("$PEVIZ" --export scores --scheme sandwich -d 128 -n 1001 | head -1 |
      python3 -c 'import sys; r=sys.stdin.read().split(","); print(" ".join("%.4g" % float(r[k]) for k in (1, 10, 100, 1000)))')
[ "$got" = "-1.447 -19.34 -33.32 -53.39" ] && ok || bad "sandwich listed values: $got"

# ---- RoPE layouts, partial rotary, q and k from a file -------------------------
cat >"$tmp/rope.py" <<'PY'
"""rope.py FILE QK d base R pairs scheme [head] [g]: the export in FILE
against q and k rotated directly (pairs interleaved (2k, 2k+1) or half
(k, k + R/2), band k at base^(-2k/R), dims >= R unrotated; xpos also
scales band k of q by zeta^(i/g) and of k by zeta^(-j/g))."""
import math, sys
path, qkf, d, base, R, pairs, scheme = sys.argv[1:8]
d, base, R = int(d), float(base), int(R)
head = int(sys.argv[8]) if len(sys.argv) > 8 else 0
g = float(sys.argv[9]) if len(sys.argv) > 9 else 512.0
rows = [list(map(float, l.split(","))) for l in open(qkf)]
q, k = rows[2 * head], rows[2 * head + 1]
def pair(b):
    return (2 * b, 2 * b + 1) if pairs == "interleaved" else (b, b + R // 2)
def turn(v, p, sign):
    v = list(v)
    for b in range(R // 2):
        x, y = pair(b)
        t = p * base ** (-2 * b / R)
        c, s = math.cos(t), math.sin(t)
        v[x], v[y] = v[x] * c - v[y] * s, v[x] * s + v[y] * c
        if scheme == "xpos":
            z = ((2 * b + 0.4 * R) / (1.4 * R)) ** (sign * p / g)
            v[x] *= z; v[y] *= z
    return v
out = [list(map(float, l.split(","))) for l in open(path)]
for i, row in enumerate(out):
    qi = turn(q, i, 1)
    for j, got in enumerate(row):
        want = sum(a * b for a, b in zip(qi, turn(k, j, -1)))
        if abs(got - want) > 1e-8 * max(1, abs(want)):
            print("FAIL: S(%d,%d) = %r, want %r" % (i, j, got, want)); sys.exit()
print("ok")
PY
python3 - "$tmp" <<'PY'
import json, random, struct, sys
random.seed(7)
t = sys.argv[1]
def rows(n, d):
    return [[round(random.gauss(0, 1), 6) for _ in range(d)] for _ in range(n)]
for d in (8, 16, 24):
    with open("%s/qk%d.csv" % (t, d), "w") as f:
        for r in rows(2, d):
            f.write(",".join(map(str, r)) + "\n")
with open("%s/qk3.csv" % t, "w") as f:       # 3 rows: no whole pair
    for r in rows(3, 8):
        f.write(",".join(map(str, r)) + "\n")
# per-head pairs: 3 heads of d = 16
with open("%s/qkh.csv" % t, "w") as f:
    for r in rows(6, 16):
        f.write(",".join(map(str, r)) + "\n")
# the same 2 x 16 rows as .npy (f8) and .safetensors (F64, tensor "qk")
r = [list(map(float, l.split(","))) for l in open("%s/qk16.csv" % t)]
flat = [x for row in r for x in row]
hdr = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 16), }"
hdr += " " * (118 - len(hdr)) + "\n"
with open("%s/qk16.npy" % t, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode())
    f.write(struct.pack("<32d", *flat))
h = json.dumps({"qk": {"dtype": "F64", "shape": [2, 16],
                       "data_offsets": [0, 256]}}).encode()
with open("%s/qk16.safetensors" % t, "wb") as f:
    f.write(struct.pack("<Q", len(h)) + h + struct.pack("<32d", *flat))
PY
# rope_check NAME FILE d base R pairs scheme head g -- PEVIZ ARGS
rope_check() {
    local name=$1 qkf=$2 d=$3 base=$4 R=$5 pairs=$6 scheme=$7 head=$8 g=$9
    shift 10
    if ! "$PEVIZ" --export scores --scheme "$scheme" -d "$d" -b "$base" \
         --rope-layout "$pairs" "$@" >"$tmp/r.csv" 2>"$tmp/err"; then
        bad "$name: exit ($(head -c 200 "$tmp/err"))"; return
    fi
    local r; r=$(python3 "$tmp/rope.py" "$tmp/r.csv" "$tmp/$qkf" "$d" "$base" "$R" "$pairs" "$scheme" "$head" "$g")
    [ "$r" = ok ] && ok || bad "$name: $r"
}
for pairs in interleaved half; do
    rope_check "rope $pairs d8" qk8.csv 8 10000 8 $pairs rope 0 512 -- -n 40 --qk "$tmp/qk8.csv"
    rope_check "rope $pairs d16 base 500 R 12" qk16.csv 16 500 12 $pairs rope 0 512 -- \
        -n 50 --qk "$tmp/qk16.csv" --rotary-dims 12
    rope_check "rope $pairs d24 R 8" qk24.csv 24 10000 8 $pairs rope 0 512 -- \
        -n 30 --qk "$tmp/qk24.csv" --rotary-dims 8
    rope_check "xpos $pairs d16 g 40" qk16.csv 16 300 16 $pairs xpos 0 40 -- \
        -n 30 --qk "$tmp/qk16.csv" --xpos-scale-base 40
    rope_check "rope $pairs head 3 of 3" qkh.csv 16 10000 16 $pairs rope 2 512 -- \
        -n 30 --qk "$tmp/qkh.csv" --heads 3 --head 3
done
rope_check "rope npy" qk16.csv 16 10000 16 half rope 0 512 -- -n 30 --qk "$tmp/qk16.npy"
rope_check "rope safetensors" qk16.csv 16 10000 16 half rope 0 512 -- \
    -n 30 --qk "$tmp/qk16.safetensors" --tensor qk
# The wrong layout changes the scores with real q and k, not with ones.
"$PEVIZ" --export scores --scheme rope -d 16 -n 20 --qk "$tmp/qk16.csv" >"$tmp/a.csv"
"$PEVIZ" --export scores --scheme rope -d 16 -n 20 --qk "$tmp/qk16.csv" --rope-layout half >"$tmp/b.csv"
cmp -s "$tmp/a.csv" "$tmp/b.csv" && bad "layouts agree on real q and k" || ok
"$PEVIZ" --export scores --scheme rope -d 16 -n 20 >"$tmp/a.csv"
"$PEVIZ" --export scores --scheme rope -d 16 -n 20 --rope-layout half >"$tmp/b.csv"
cmp -s "$tmp/a.csv" "$tmp/b.csv" && ok || bad "layouts differ on q = k = ones"
# The mismatch demo in the compare view: with q and k from the file, the
# drift pane's B - A at the cursor's distance is the difference of the
# two layouts' exports at row pos, column 0 (to the 4 digits shown).
"$PEVIZ" --export scores --scheme rope -d 16 -n 20 --qk "$tmp/qk16.csv" >"$tmp/a.csv"
"$PEVIZ" --export scores --scheme rope -d 16 -n 20 --qk "$tmp/qk16.csv" --rope-layout half >"$tmp/b.csv"
for pos in 3 11; do
    "$PEVIZ" --view compare --pane-mode drift -d 16 -n 20 --qk "$tmp/qk16.csv" \
        --base-b 10000 --scheme-a rope --scheme-b rope --rope-layout-b half \
        --pos $pos --snapshot --size 120x30 --ascii >"$tmp/drift.txt" 2>&1
    r=$(python3 - "$tmp" $pos <<'PY'
import re, sys
t, pos = sys.argv[1], int(sys.argv[2])
a = float(open(t + "/a.csv").read().split("\n")[pos].split(",")[0])
b = float(open(t + "/b.csv").read().split("\n")[pos].split(",")[0])
m = re.search(r"distance %d: .*?B-A (\S+)" % pos, open(t + "/drift.txt").read())
if not m:
    print("FAIL: no B-A in the readout")
elif abs(float(m.group(1)) - (b - a)) > 5e-4 * max(1, abs(b - a)):
    print("FAIL: B-A %s, exports give %.9g" % (m.group(1), b - a))
elif abs(b - a) < 1e-3:
    print("FAIL: the layouts agree at %d: no drift to see" % pos)
else:
    print("ok")
PY
)
    [ "$r" = ok ] && ok || bad "compare drift pos $pos: $r"
done

# Config and presets set the family's pairs; --rope-layout overrides.
printf '{"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4, "rope_theta": 10000}\n' >"$tmp/llama.json"
printf '{"model_type": "gptj", "hidden_size": 128, "num_attention_heads": 4, "rotary_dim": 16, "rope_theta": 10000}\n' >"$tmp/gptj.json"
same_as() {     # NAME PAIRS CONFIG-ARGS...: equal to -d 16 --rope-layout PAIRS
    local name=$1 pairs=$2; shift 2
    "$PEVIZ" --export scores --scheme rope -n 24 --qk "$tmp/qk16.csv" "$@" >"$tmp/a.csv" 2>&1
    "$PEVIZ" --export scores --scheme rope -n 24 --qk "$tmp/qk16.csv" -d 16 \
        --rope-layout "$pairs" >"$tmp/b.csv" 2>&1
    cmp -s "$tmp/a.csv" "$tmp/b.csv" && ok || bad "$name: not $pairs pairs"
}
same_as "llama config: half" half --config "$tmp/llama.json"
same_as "gptj config: interleaved, rotary_dim 16" interleaved --config "$tmp/gptj.json"
same_as "gptj config, --rope-layout half" half --config "$tmp/gptj.json" --rope-layout half
python3 - "$tmp" <<'PY'
import random, sys
random.seed(11)
with open(sys.argv[1] + "/qk64.csv", "w") as f:
    for _ in range(2):
        f.write(",".join("%.5f" % random.gauss(0, 1) for _ in range(64)) + "\n")
PY
"$PEVIZ" --export scores --scheme rope -n 24 --model deepseek-v3 --qk "$tmp/qk64.csv" >"$tmp/a.csv"
"$PEVIZ" --export scores --scheme rope -n 24 --model deepseek-v3 --qk "$tmp/qk64.csv" --rope-layout interleaved >"$tmp/b.csv"
"$PEVIZ" --export scores --scheme rope -n 24 --model qwen2.5-7b -d 64 --qk "$tmp/qk64.csv" >"$tmp/c.csv"
"$PEVIZ" --export scores --scheme rope -n 24 --model qwen2.5-7b -d 64 --qk "$tmp/qk64.csv" --rope-layout half >"$tmp/e.csv"
cmp -s "$tmp/a.csv" "$tmp/b.csv" && cmp -s "$tmp/c.csv" "$tmp/e.csv" && ok \
    || bad "presets: deepseek-v3 interleaved, qwen2.5 half"

# ---- query scales: Llama 4 temperature tuning, Ministral 3 beta ----------------
# ratio.py A B KIND P1 P2: every entry of A is B's times g(i)
cat >"$tmp/ratio.py" <<'PY'
import math, sys
a = [list(map(float, l.split(","))) for l in open(sys.argv[1])]
b = [list(map(float, l.split(","))) for l in open(sys.argv[2])]
kind, p1, p2 = sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
def g(i):
    if kind == "llama4":                      # floor_scale p1, attn_scale p2
        return math.log(math.floor((i + 1) / p1) + 1) * p2 + 1
    return 1 + p1 * math.log(1 + math.floor(i / p2))   # beta p1, L p2
seen = set()
for i, (ra, rb) in enumerate(zip(a, b)):
    seen.add(round(g(i), 12))
    for j, (x, y) in enumerate(zip(ra, rb)):
        if abs(x - g(i) * y) > 1e-8 * max(1, abs(x)):
            print("FAIL: S(%d,%d) = %r, want %r x %r" % (i, j, x, g(i), y)); sys.exit()
print("ok" if len(seen) > 2 else "FAIL: g takes %d values" % len(seen))
PY
for fa in "4 0.1" "3 0.37" "7 2.5"; do
    read -r fs as <<<"$fa"
    "$PEVIZ" --export scores --scheme nope --content --temperature-tuning \
        --floor-scale "$fs" --attn-scale "$as" -n 40 -d 8 >"$tmp/a.csv"
    "$PEVIZ" --export scores --scheme nope --content -n 40 -d 8 >"$tmp/b.csv"
    r=$(python3 "$tmp/ratio.py" "$tmp/a.csv" "$tmp/b.csv" llama4 "$fs" "$as")
    [ "$r" = ok ] && ok || bad "nope temperature tuning $fa: $r"
done
# the defaults 8192 and 0.1: row 8191 is the first scaled one
# (binary rows: the last three of 8193, p = 8190, 8191 and 8192)
"$PEVIZ" --export scores --scheme nope --content --temperature-tuning -n 8193 -d 2 \
    --format f64 | tail -c $((3 * 8193 * 8)) >"$tmp/a.bin"
"$PEVIZ" --export scores --scheme nope --content -n 8193 -d 2 --format f64 \
    | tail -c $((3 * 8193 * 8)) >"$tmp/b.bin"
r=$(python3 -c '
import math, struct, sys
def col0(path):
    raw = open(path, "rb").read()
    return [struct.unpack_from("<d", raw, r * 8193 * 8)[0] for r in range(2)]
a = col0(sys.argv[1]); b = col0(sys.argv[2])
ok = abs(a[0] - b[0]) < 1e-12 and abs(a[1] - (math.log(2) * 0.1 + 1) * b[1]) < 1e-8 * abs(a[1])
print("ok" if ok else "FAIL: %r %r" % (a, b))' "$tmp/a.bin" "$tmp/b.bin")
[ "$r" = ok ] && ok || bad "temperature tuning defaults: $r"
for beta in 0.1 0.35; do
    printf '{"model_type": "ministral3", "hidden_size": 64, "num_attention_heads": 4, "max_position_embeddings": 256, "rope_parameters": {"rope_type": "yarn", "rope_theta": 10000, "factor": 4, "original_max_position_embeddings": 7, "llama_4_scaling_beta": %s}}\n' "$beta" >"$tmp/m.json"
    printf '{"model_type": "ministral3", "hidden_size": 64, "num_attention_heads": 4, "max_position_embeddings": 256, "rope_parameters": {"rope_type": "yarn", "rope_theta": 10000, "factor": 4, "original_max_position_embeddings": 7}}\n' >"$tmp/m0.json"
    "$PEVIZ" --export scores --scheme rope --config "$tmp/m.json" -n 40 --qk "$tmp/qk16.csv" >"$tmp/a.csv"
    "$PEVIZ" --export scores --scheme rope --config "$tmp/m0.json" -n 40 --qk "$tmp/qk16.csv" >"$tmp/b.csv"
    r=$(python3 "$tmp/ratio.py" "$tmp/a.csv" "$tmp/b.csv" ministral "$beta" 7)
    [ "$r" = ok ] && ok || bad "ministral beta $beta: $r"
done

# ---- bad input ------------------------------------------------------------------
refuse() {
    local name=$1; shift
    "$PEVIZ" "$@" >"$tmp/o" 2>"$tmp/e"; local rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/e")" -eq 1 ]; then ok
    else bad "$name: rc=$rc, stdout $(wc -c <"$tmp/o") bytes, stderr: $(cat "$tmp/e")"; fi
}
refuse "buckets 3" --export scores --scheme t5 --buckets 3 -n 4
refuse "max-distance at the exact buckets" --export scores --scheme t5 --max-distance 16 -n 4
refuse "bidirectional max-distance" --export scores --scheme t5 --bidirectional --buckets 64 --max-distance 16 -n 4
refuse "r2 over 2 for power" --export scores --scheme kerple-power --r2 2.5 -n 4
refuse "r1 zero" --export scores --scheme kerple-log --r1 0 -n 4
refuse "r1 nan" --export scores --scheme kerple-log --r1 nan -n 4
refuse "xpos base negative" --export scores --scheme xpos --xpos-scale-base -3 -n 4
refuse "t5 table rows" --export scores --scheme t5 --buckets 16 --pe-file "$tmp/w32.csv" -n 4
refuse "qk columns" --export scores --scheme rope -d 16 --qk "$tmp/qk8.csv" -n 4
refuse "qk odd rows" --export scores --scheme rope -d 8 --qk "$tmp/qk3.csv" -n 4
refuse "rope-layout word" --export scores --scheme rope --rope-layout rotate -n 4
refuse "rotary-dims odd" --export scores --scheme rope --rotary-dims 7 -n 4
refuse "tensor without a file" --export scores --scheme rope --tensor qk -n 4
refuse "floor-scale without tuning" --export scores --scheme nope --floor-scale 4 -n 4
refuse "tuning on alibi" --export scores --scheme alibi --temperature-tuning -n 4
refuse "attn-scale zero" --export scores --scheme nope --temperature-tuning --attn-scale 0 -n 4
refuse "qk with alibi" --export scores --scheme alibi -d 8 --qk "$tmp/qk8.csv" -n 4
refuse "t5 table heads" --export scores --scheme t5 --pe-file "$tmp/w32.csv" --buckets 32 --heads 2 --head 3 -n 4

echo "schemes: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
