#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Numeric slips, each against an independent evaluation here: a --head
# past a table's heads is refused (T5 bias tables of any head count,
# odd ones and 128 included; --qk tables of 2H rows); --rows counts the
# cells printed, not the whole matrix; Qwen2.5-VL video time ids in
# float32 as transformers forms them; a model's scores without --scheme
# are RoPE's with its scaling; --qk with --sequence; --qk with nope.
set -u
: "${PEVIZ:=./peviz}"
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
pass=0 fail=0
tmp=${KEEP:-$(mktemp -d /tmp/peviz-slips.XXXXXX)}; [ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if ! command -v python3 >/dev/null; then
    echo "slips: python3 is needed"; echo "slips: 0 passed, 1 failed"; exit 1
fi

# npy NAME ROWS COLS: a float64 table, value r * 0.5 + c * 0.03125 - 1
# (exact in binary, so the export's %.9g text is the value itself)
cat >"$tmp/ref.py" <<'PY'
import math, struct, sys

def val(r, c):
    return r * 0.5 + c * 0.03125 - 1

def npy(name, rows, cols):
    hdr = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }" % (rows, cols)
    hdr += ' ' * (127 - 10 - len(hdr)) + '\n'
    with open(name, 'wb') as f:
        f.write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode())
        for r in range(rows):
            for c in range(cols):
                f.write(struct.pack('<d', val(r, c)))

def t5_bucket(rel, buckets, maxd):
    # causal buckets (transformers' _relative_position_bucket, decoder)
    n = -min(rel, 0)
    exact = buckets // 2
    if n < exact:
        return n
    f = struct.unpack('<f', struct.pack('<f', math.log(n / exact)))[0]
    f = struct.unpack('<f', struct.pack('<f', f / math.log(maxd / exact)))[0]
    b = exact + int(struct.unpack('<f', struct.pack('<f', f * (buckets - exact)))[0])
    return min(b, buckets - 1)

def t5_scores(n, buckets, maxd, head):
    for i in range(n):
        print(",".join("%.9g" % val(t5_bucket(j - i, buckets, maxd), head)
                       for j in range(n)))

def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]

def sin_scores(n, d, base, rows):
    w = [base ** (-2 * k / d) for k in range(d // 2)]
    for i in rows:
        print(",".join("%.9g" % sum(math.cos((i - j) * x) for x in w)
                       for j in range(n)))

cmd = sys.argv[1]
if cmd == "npy":
    npy(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
elif cmd == "t5":
    t5_scores(*map(int, sys.argv[2:6]))
elif cmd == "time":       # frame a's t: a * S * X in float32, truncated
    a, s, x = int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
    print(int(f32(f32(a * f32(s)) * f32(x))))
elif cmd == "sin":
    n, d, base, r0, r1 = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
    sin_scores(n, d, base, range(r0, r1 + 1))
PY
ref() { python3 "$tmp/ref.py" "$@"; }

# close A B: every value of two CSV files within 1e-9 (relative)
close() {
    python3 - "$1" "$2" <<'PY'
import sys
a = [l.split(",") for l in open(sys.argv[1]).read().split()]
b = [l.split(",") for l in open(sys.argv[2]).read().split()]
ok = len(a) == len(b) and len(a) > 0 and all(len(x) == len(y) for x, y in zip(a, b))
for x, y in zip(a, b):
    for u, v in zip(x, y):
        if abs(float(u) - float(v)) > 1e-9 * max(1.0, abs(float(v))):
            ok = False
sys.exit(0 if ok else 1)
PY
}

# refuse WORDS... : exit 2, one stderr line, empty stdout
refuse() {
    local want=$1; shift
    "$PEVIZ" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; local rc=$?
    mapfile err <"$tmp/err"
    if [ $rc -eq 2 ] && [ ${#err[@]} -eq 1 ] && [ ! -s "$tmp/out" ] &&
       grep -q -- "$want" "$tmp/err"; then ok
    else bad "peviz $*: rc=$rc stderr=$(head -c 200 "$tmp/err") stdout=$(head -c 80 "$tmp/out")"; fi
}

# ---- D1: a head past the table's heads --------------------------------
for heads in 3 6 7 128; do
    ref npy "$tmp/w$heads.npy" 24 "$heads"
    refuse "1\.\.$heads" --scheme t5 --pe-file "$tmp/w$heads.npy" --buckets 24 \
        --head $((heads + 1)) --export scores -n 4
    for head in 1 $heads $(((heads + 1) / 2)); do
        "$PEVIZ" --scheme t5 --pe-file "$tmp/w$heads.npy" --buckets 24 --head $head \
            --max-distance 64 --export scores -n 40 >"$tmp/got" 2>"$tmp/err"
        ref t5 40 24 64 $((head - 1)) >"$tmp/want"
        if cmp -s "$tmp/got" "$tmp/want"; then ok
        else bad "t5 table of $heads heads, head $head: $(head -c 200 "$tmp/err")"; fi
    done
done
# a --qk table of H pairs: heads 1..H, H past 8 included
for pairs in 5 12; do
    ref npy "$tmp/qk$pairs.npy" $((2 * pairs)) 8
    refuse "1\.\.$pairs" --qk "$tmp/qk$pairs.npy" --scheme rope -d 8 \
        --head $((pairs + 1)) --export scores -n 4
    "$PEVIZ" --qk "$tmp/qk$pairs.npy" --scheme rope -d 8 --head $pairs \
        --export scores -n 3 >"$tmp/got" 2>"$tmp/err"
    if [ -s "$tmp/got" ]; then ok; else bad "--qk $pairs pairs, last head: $(cat "$tmp/err")"; fi
done

# ---- D2: the cap counts the rows printed ------------------------------
"$PEVIZ" --export pe -n 16777216 --rows 16777152..16777215 --format f64 >"$tmp/pe" 2>"$tmp/err"
if [ "$(wc -c <"$tmp/pe")" -eq $((64 * 64 * 8)) ]; then ok
else bad "--export pe --rows at 2^24: $(cat "$tmp/err")"; fi
"$PEVIZ" --export scores -d 8 -b 977 -n 40000 --rows 39997..39999 >"$tmp/got" 2>"$tmp/err"
ref sin 40000 8 977 39997 39999 >"$tmp/want"
if close "$tmp/got" "$tmp/want"; then ok
else bad "--export scores -n 40000 --rows: $(head -c 200 "$tmp/err")"; fi
refuse "2^28" --export scores -n 40000 -d 8
refuse "2^28" --export scores -n 40000 --rows 0..7000 -d 8

# ---- D3: Qwen2.5-VL video time in float32 -------------------------------
for case in "0.04081632653061224 2 50" "0.3333333333333333 3 16" "0.1 10 40" "0.07 3 33"; do
    set -- $case
    "$PEVIZ" --export position-ids --sequence "video:${3}x2x2" --second-per-grid "$1" \
        --tokens-per-second "$2" >"$tmp/ids" 2>"$tmp/err"
    okc=1
    for a in $(seq 0 $(($3 - 1))); do
        want=$(ref time "$a" "$1" "$2")
        got=$(awk -F, -v a="$a" '$1 == a { print $3 }' "$tmp/ids")
        [ "$got" = "$want" ] || { okc=0; bad "S=$1 X=$2 frame $a: t $got, want $want"; break; }
    done
    [ $okc -eq 1 ] && ok
done

# ---- D4: a model's scores without --scheme are RoPE's -------------------
for m in llama3.1-8b deepseek-v3; do
    "$PEVIZ" --export scores --model $m -n 24 >"$tmp/a" 2>&1
    "$PEVIZ" --export scores --model $m -n 24 --scheme rope >"$tmp/b" 2>&1
    "$PEVIZ" --export scores --model $m -n 24 --scheme sinusoidal >"$tmp/c" 2>&1
    if cmp -s "$tmp/a" "$tmp/b" && ! cmp -s "$tmp/a" "$tmp/c"; then ok
    else bad "--model $m --export scores without --scheme is not rope's"; fi
done
printf '{"rope_theta": 5000, "head_dim": 16, "max_position_embeddings": 64,
  "rope_scaling": {"rope_type": "linear", "factor": 2}}' >"$tmp/lin.json"
"$PEVIZ" --export scores --config "$tmp/lin.json" -n 6 >"$tmp/got" 2>&1
# linear x2: omega_k = 5000^(-2k/16) / 2, scores sum_k 2 cos(delta omega_k)
python3 -c "
import math
w=[5000**(-2*k/16)/2 for k in range(8)]
for i in range(6): print(','.join('%.9g'%sum(2*math.cos((i-j)*x) for x in w) for j in range(6)))" >"$tmp/want"
if close "$tmp/got" "$tmp/want"; then ok; else bad "--config linear x2 scores: $(head -c 200 "$tmp/got")"; fi

# ---- D5: --qk with --sequence ------------------------------------------
# M-RoPE with real q and k: rotate each by its token's ids (slot k turns
# by id[axis_k] omega_k, rotate_half pairs (k, k + 8)) and take the dot,
# the ids from --export position-ids (checked against transformers' scan
# in mpos.sh), sections 2,3,3 chunked: slots 0-1 t, 2-4 h, 5-7 w.
ref npy "$tmp/qk16.npy" 4 16
for head in 1 2; do
    args=(--sequence text:2,image:4x6,text:2 -d 16 -b 700 --mrope-section 2,3,3
          --qk "$tmp/qk16.npy" --head $head --scheme rope --rope-layout half)
    "$PEVIZ" --export position-ids "${args[@]}" >"$tmp/ids" 2>"$tmp/err"
    "$PEVIZ" --export scores "${args[@]}" >"$tmp/got" 2>>"$tmp/err"
    python3 - "$tmp/ids" $head >"$tmp/want" <<'PY'
import math, sys
sys.path.insert(0, sys.argv[0].rsplit("/", 1)[0])
ids = [tuple(map(int, l.split(",")[2:5])) for l in open(sys.argv[1]).read().split()]
h = int(sys.argv[2]) - 1
val = lambda r, c: r * 0.5 + c * 0.03125 - 1
q = [val(2 * h, c) for c in range(16)]
k = [val(2 * h + 1, c) for c in range(16)]
axis = [0, 0, 1, 1, 1, 2, 2, 2]
w = [700 ** (-2 * s / 16) for s in range(8)]
def rot(v, p):
    out = list(v)
    for s in range(8):
        t = p[axis[s]] * w[s]
        x, y = v[s], v[s + 8]
        out[s], out[s + 8] = x * math.cos(t) - y * math.sin(t), x * math.sin(t) + y * math.cos(t)
    return out
for pi in ids:
    rq = rot(q, pi)
    print(",".join("%.9g" % sum(a * b for a, b in zip(rq, rot(k, pj))) for pj in ids))
PY
    if close "$tmp/got" "$tmp/want"; then ok
    else bad "--qk --sequence head $head: $(head -c 200 "$tmp/err")"; fi
done

# ---- D6: --qk with --scheme nope: S(i, j) = tau(i) q.k ------------------
for case in "1 4 0.5" "2 3 0.25"; do
    set -- $case
    "$PEVIZ" --export scores --scheme nope --qk "$tmp/qk16.npy" -d 16 -n 20 --head $1 \
        --temperature-tuning --floor-scale $2 --attn-scale $3 --temperature \
        >"$tmp/got" 2>"$tmp/err"
    python3 - $1 $2 $3 >"$tmp/want" <<'PY'
import math, sys
h, F, A = int(sys.argv[1]) - 1, float(sys.argv[2]), float(sys.argv[3])
val = lambda r, c: r * 0.5 + c * 0.03125 - 1
qk = sum(val(2 * h, c) * val(2 * h + 1, c) for c in range(16)) / math.sqrt(16)
for i in range(20):
    tau = math.log(math.floor((i + 1) / F) + 1) * A + 1
    print(",".join("%.9g" % (tau * qk) for j in range(20)))
PY
    if close "$tmp/got" "$tmp/want"; then ok
    else bad "--scheme nope --qk head $1 F $2 A $3: $(head -c 200 "$tmp/err")"; fi
done

# ---- D7: a model's table at 2^24 as exact as the plain one --------------
# f64 rows near 2^24 against sin and cos in 50-digit decimal arithmetic:
# within 1e-12 through --model (kept bands) and --rope-scaling linear
# (interpolated bands), as the plain table is.
cat >"$tmp/exact.py" <<'PY'
import struct, sys
from decimal import Decimal as D, getcontext
getcontext().prec = 50
PI = D('3.14159265358979323846264338327950288419716939937510582097494')
def sincos(x):
    x = x % (2 * PI)
    out = []
    for term, n in ((x, 1), (D(1), 0)):
        s = term
        while abs(term) > D('1e-45'):
            term = -term * x * x / ((n + 1) * (n + 2)); n += 2; s += term
        out.append(s)
    return out
f, d, base, fac, p0 = sys.argv[1], int(sys.argv[2]), D(sys.argv[3]), D(sys.argv[4]), int(sys.argv[5])
b = open(f, 'rb').read()
v = struct.unpack('<%dd' % (len(b) // 8), b)
worst = 0
for r in range(len(v) // d):
    for k in range(d // 2):
        s, c = sincos(D(p0 + r) * (-(D(2 * k) / D(d)) * base.ln()).exp() / fac)
        worst = max(worst, abs(float(D(v[r * d + 2 * k]) - s)), abs(float(D(v[r * d + 2 * k + 1]) - c)))
print("%.3g" % worst)
sys.exit(0 if worst < 1e-12 and len(v) == 4 * d else 1)
PY
for case in "--model llama3-8b|500000|1" "-d 128 -b 500000 --rope-scaling linear --factor 1|500000|1" \
            "-d 64 -b 30000 --rope-scaling linear --factor 4|30000|4"; do
    IFS='|' read -r args base fac <<<"$case"
    d=$(echo "$args" | awk '{ for (i = 1; i < NF; i++) if ($i == "-d") print $(i + 1) }'); d=${d:-128}
    # shellcheck disable=SC2086
    "$PEVIZ" --export pe $args -n 16777216 --rows 16777212..16777215 --format f64 >"$tmp/far" 2>"$tmp/err"
    if err=$(python3 "$tmp/exact.py" "$tmp/far" "$d" "$base" "$fac" 16777212); then ok
    else bad "--export pe $args at 2^24: $err off $(head -c 200 "$tmp/err")"; fi
done

echo "slips: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
