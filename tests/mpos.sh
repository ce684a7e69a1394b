#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Positions with more than one axis from the outside: --export
# position-ids against an independent Python copy of the reference id
# assignment (a scan over token ids as get_rope_index does it, for
# Qwen2-VL, Qwen2.5-VL absolute time and Qwen3-VL split frames), over
# fixed and seeded random sequences; --export scores for M-RoPE (chunked
# and interleaved sections) and 2-D axial RoPE against the sum of cosines
# evaluated here; presets, config.json import, and bad input (exit 2,
# one stderr line naming the bad part, nothing on stdout).
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
tmp=$(mktemp -d /tmp/peviz-mpos.XXXXXX); trap 'rm -rf "$tmp"' EXIT
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if ! command -v python3 >/dev/null; then
    echo "mpos: python3 is needed"; echo "mpos: 0 passed, 1 failed"; exit 1
fi

cat >"$tmp/ref.py" <<'PY'
"""Reference ids and scores.  ids SPEC MERGE TPS SPG SPLIT: the lines
token,kind,t,h,w; ids-each DIR: the same for each line of stdin, into
DIR/ids.N (one start for every case).  scores MODE ...: the score matrix
as %.9g CSV rows."""
import math, struct, sys

IMG, VID, TXT = 151655, 151656, 1

def tokens(spec, merge, split):
    """input_ids and the grids as the processor hands them over."""
    ids, igrid, vgrid = [], [], []
    for part in spec.split(","):
        kind, dims = part.split(":")
        if kind == "text":
            ids += [TXT] * int(dims)
            continue
        g = [int(x) for x in dims.split("x")]
        if kind == "image":
            g = [1] + g
        (igrid if kind == "image" else vgrid).append(g)
        ids += [IMG if kind == "image" else VID] * (g[0] * (g[1] // merge) * (g[2] // merge))
    if split:                       # Qwen3-VL: one grid per frame
        vgrid = [[1, h, w] for t, h, w in vgrid for _ in range(t)]
    return ids, igrid, vgrid

def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]

def rope_index(ids, igrid, vgrid, merge, tps, spg):
    out, st, ii, vi = [], 0, 0, 0
    for _ in range(len(igrid) + len(vgrid)):
        ed_i = ids.index(IMG, st) if ii < len(igrid) and IMG in ids[st:] else len(ids) + 1
        ed_v = ids.index(VID, st) if vi < len(vgrid) and VID in ids[st:] else len(ids) + 1
        if ed_i < ed_v:
            (t, h, w), ed, sec = igrid[ii], ed_i, 0.0
            ii += 1
        else:
            (t, h, w), ed, sec = vgrid[vi], ed_v, spg
            vi += 1
        h, w = h // merge, w // merge
        st_idx = max(max(p) for p in out) + 1 if out else 0
        for k in range(ed - st):
            out.append((st_idx + k,) * 3)
        base = ed - st + st_idx
        for a in range(t):
            # float32 tensors: each product rounded to float32
            ta = int(f32(f32(a * f32(sec)) * tps)) if tps > 0 else a
            for b in range(h):
                for c in range(w):
                    out.append((base + ta, base + b, base + c))
        st = ed + t * h * w
    if st < len(ids):
        st_idx = max(max(p) for p in out) + 1 if out else 0
        for k in range(len(ids) - st):
            out.append((st_idx + k,) * 3)
    return out

def kinds(ids):
    return ["image" if x == IMG else "video" if x == VID else "text" for x in ids]

def cmd_ids(spec, merge, tps, spg, split):
    merge, tps, spg, split = int(merge), float(tps), float(spg), int(split)
    ids, ig, vg = tokens(spec, merge, split)
    pos = rope_index(ids, ig, vg, merge, tps, spg)
    for i, (k, p) in enumerate(zip(kinds(ids), pos)):
        print("%d,%s,%d,%d,%d" % (i, k, p[0], p[1], p[2]))

def cmd_ids_each(outdir):
    for i, line in enumerate(sys.stdin):
        with open("%s/ids.%d" % (outdir, i), "w") as sys.stdout:
            cmd_ids(*line.split())

def axes_mrope(slots, sec, inter):
    if not inter:
        return [0] * sec[0] + [1] * sec[1] + [2] * sec[2]
    return [1 if k % 3 == 1 and k < 3 * sec[1] else
            2 if k % 3 == 2 and k < 3 * sec[2] else 0 for k in range(slots)]

def print_scores(pos, omega, axis):
    for p in pos:
        print(",".join("%.9g" % sum(2 * math.cos((p[a] - q[a]) * w)
                                    for w, a in zip(omega, axis)) for q in pos))

def cmd_mrope(spec, merge, tps, spg, split, d, base, sec, inter):
    d, base = int(d), float(base)
    ids, ig, vg = tokens(spec, int(merge), int(split))
    pos = rope_index(ids, ig, vg, int(merge), float(tps), float(spg))
    omega = [base ** (-2.0 * k / d) for k in range(d // 2)]
    print_scores(pos, omega, axes_mrope(d // 2, [int(x) for x in sec.split(",")], int(inter)))

def cmd_axial(W, H, d, theta):
    W, H, d, theta = int(W), int(H), int(d), float(theta)
    f = [1.0 / theta ** (4.0 * k / d) for k in range(d // 4)]
    # pairs 0..d/4-1 turn by x, d/4..d/2-1 by y: positions (0, y, x)
    pos = [(0, p // W, p % W) for p in range(W * H)]
    print_scores(pos, f + f, [2] * (d // 4) + [1] * (d // 4))

{"ids": cmd_ids, "ids-each": cmd_ids_each, "mrope": cmd_mrope,
 "axial": cmd_axial}[sys.argv[1]](*sys.argv[2:])
PY

cat >"$tmp/cmp.py" <<'PY'
"""cmp.py A B: two CSV files equal, numbers to 1e-7 relative + 1e-7."""
import sys
a = open(sys.argv[1]).read().split("\n")
b = open(sys.argv[2]).read().split("\n")
if len(a) != len(b):
    print("lines %d vs %d" % (len(a), len(b))); sys.exit(1)
for i, (x, y) in enumerate(zip(a, b)):
    fx, fy = x.split(","), y.split(",")
    if len(fx) != len(fy):
        print("line %d: %r vs %r" % (i, x, y)); sys.exit(1)
    for u, v in zip(fx, fy):
        try:
            fu, fv = float(u), float(v)
        except ValueError:
            if u != v:
                print("line %d: %r vs %r" % (i, x, y)); sys.exit(1)
            continue
        if abs(fu - fv) > 1e-7 * abs(fv) + 1e-7:
            print("line %d: %s vs %s" % (i, u, v)); sys.exit(1)
PY

ref() { python3 "$tmp/ref.py" "$@"; }

# check_ids SPEC MERGE TPS SPG SPLIT [peviz options]: the case is queued;
# ids_checks computes every reference in one python3, then compares.
IDS_REF=() IDS_ARGS=()
check_ids() {
    IDS_REF+=("$1 $2 $3 $4 $5")
    IDS_ARGS+=("--sequence $1${6:+ ${*:6}}")
}
ids_checks() {
    local i args
    printf '%s\n' "${IDS_REF[@]}" | ref ids-each "$tmp" || { bad "ref ids"; return; }
    for i in "${!IDS_REF[@]}"; do
        read -ra args <<<"${IDS_ARGS[i]}"
        if ! "$PEVIZ" --export position-ids "${args[@]}" >"$tmp/got" 2>"$tmp/err"; then
            bad "ids ${IDS_ARGS[i]}: $(cat "$tmp/err")"; continue
        fi
        if cmp -s "$tmp/ids.$i" "$tmp/got"; then ok; else
            bad "ids ${IDS_ARGS[i]}: $(diff "$tmp/ids.$i" "$tmp/got" | head -3 | tr '\n' ' ')"
        fi
    done
}

# ---- position ids ----------------------------------------------------------
check_ids text:12,image:16x24,text:8 2 0 1 0
check_ids text:5,video:4x8x8,text:3 2 0 1 0
check_ids image:4x4 2 0 1 0
check_ids image:4x6,image:6x4,text:2 2 0 1 0
check_ids text:1,image:28x4,text:3,video:3x4x12,text:2,image:2x2 2 0 1 0
check_ids text:3,image:6x9,text:2 3 0 1 0 --spatial-merge 3
check_ids text:2,image:5x3,text:1 1 0 1 0 --spatial-merge 1
# Qwen2.5-VL: t = trunc(frame x seconds per grid x tokens per second)
check_ids text:5,video:4x8x8,text:3 2 2 1 0 --tokens-per-second 2
check_ids text:5,video:6x4x4,text:3,image:4x4 2 2 0.7 0 --tokens-per-second 2 --second-per-grid 0.7
check_ids video:5x2x2,text:1 2 25 0.08 0 --tokens-per-second 25 --second-per-grid 0.08
check_ids text:4,video:3x4x4,text:1 2 2 1 0 --model qwen2.5-vl-7b
# Qwen3-VL: each frame its own block
check_ids text:5,video:4x8x8,text:3 2 0 1 1 --split-frames
check_ids text:2,video:3x2x6,image:4x2,text:1 2 0 1 1 --model qwen3-vl

# seeded random sequences: several images, videos, text between
python3 - >"$tmp/random" <<'PY'
import random
r = random.Random(2718)
for _ in range(30):
    merge = r.choice([1, 2, 2, 2, 3])
    parts = []
    for _ in range(r.randint(1, 7)):
        k = r.choice(["text", "text", "image", "video"])
        if k == "text":
            parts.append("text:%d" % r.randint(1, 9))
        elif k == "image":
            parts.append("image:%dx%d" % (merge * r.randint(1, 6), merge * r.randint(1, 6)))
        else:
            parts.append("video:%dx%dx%d" % (r.randint(1, 4), merge * r.randint(1, 4), merge * r.randint(1, 4)))
    mode = r.choice(["qwen2", "qwen25", "qwen3"])
    tps, spg, split = (0, 1, 0)
    if mode == "qwen25":
        tps, spg = r.choice([1, 2, 4]), r.choice([0.5, 1, 1.5, 2, 0.25])
    if mode == "qwen3":
        split = 1
    print(",".join(parts), merge, tps, spg, split)
PY
while read -r spec merge tps spg split; do
    set -- --spatial-merge "$merge"
    [ "$tps" != 0 ] && set -- "$@" --tokens-per-second "$tps" --second-per-grid "$spg"
    [ "$split" = 1 ] && set -- "$@" --split-frames
    check_ids "$spec" "$merge" "$tps" "$spg" "$split" "$@"
done <"$tmp/random"
ids_checks

# ---- scores -----------------------------------------------------------------
check_scores() {   # name, reference args..., -- peviz args...
    local name=$1; shift
    local args=()
    while [ "$1" != -- ]; do args+=("$1"); shift; done; shift
    ref "${args[@]}" >"$tmp/want" || { bad "ref $name"; return; }
    if ! "$PEVIZ" --export scores "$@" >"$tmp/got" 2>"$tmp/err"; then
        bad "scores $name: $(cat "$tmp/err")"; return
    fi
    if python3 "$tmp/cmp.py" "$tmp/want" "$tmp/got" >"$tmp/why"; then ok; else
        bad "scores $name: $(cat "$tmp/why")"; fi
}
S1=text:3,image:4x6,text:2,video:2x4x4,text:1
check_scores chunked-128 mrope $S1 2 0 1 0 128 1000000 16,24,24 0 -- \
    --sequence $S1 -d 128 -b 1000000
check_scores chunked-default-64 mrope $S1 2 0 1 0 64 10000 8,12,12 0 -- \
    --sequence $S1 -d 64
check_scores chunked-uneven mrope $S1 2 0 1 0 40 500 3,10,7 0 -- \
    --sequence $S1 -d 40 -b 500 --mrope-section 3,10,7
check_scores interleaved-qwen3 mrope $S1 2 0 1 1 128 5000000 24,20,20 1 -- \
    --sequence $S1 --model qwen3-vl
check_scores interleaved-24 mrope $S1 2 0 1 0 24 10000 6,3,3 1 -- \
    --sequence $S1 -d 24 --mrope-section 6,3,3 --mrope-interleaved
check_scores interleaved-default-128 mrope $S1 2 0 1 0 128 10000 24,20,20 1 -- \
    --sequence $S1 -d 128 --mrope-interleaved
check_scores qwen25-time mrope text:2,video:3x4x4 2 2 0.5 0 128 1000000 16,24,24 0 -- \
    --sequence text:2,video:3x4x4 --model qwen2.5-vl-7b --second-per-grid 0.5
check_scores axial-6x4 axial 6 4 64 100 -- --grid 6x4 -d 64
check_scores axial-5x7-d32-b10 axial 5 7 32 10 -- --grid 5x7 -d 32 -b 10
check_scores axial-1x9 axial 1 9 16 100 -- --grid 1x9 -d 16

# softmax rows sum to 1; causal masks the future
"$PEVIZ" --export softmax --causal --sequence text:2,image:4x4,text:1 -d 32 >"$tmp/sm" 2>/dev/null
python3 - "$tmp/sm" <<'PY' && ok || bad "softmax rows"
import sys
rows = [[float(x) for x in l.split(",")] for l in open(sys.argv[1])]
good = len(rows) == 7 and all(abs(sum(r) - 1) < 1e-9 for r in rows) \
    and all(r[j] == 0 for i, r in enumerate(rows) for j in range(i + 1, 7))
sys.exit(0 if good else 1)
PY

# ---- config.json ------------------------------------------------------------
cat >"$tmp/qwen3vl.json" <<'JSON'
{"model_type": "qwen3_vl",
 "text_config": {"head_dim": 128, "hidden_size": 4096, "num_attention_heads": 32,
   "rope_scaling": {"mrope_interleaved": true, "mrope_section": [24, 20, 20], "rope_type": "default"},
   "rope_theta": 5000000},
 "vision_config": {"spatial_merge_size": 2}}
JSON
check_scores config-qwen3 mrope $S1 2 0 1 1 128 5000000 24,20,20 1 -- \
    --sequence $S1 --config "$tmp/qwen3vl.json"
cat >"$tmp/qwen2vl.json" <<'JSON'
{"model_type": "qwen2_vl", "hidden_size": 3584, "num_attention_heads": 28,
 "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
 "rope_theta": 1000000.0,
 "vision_config": {"spatial_merge_size": 2, "tokens_per_second": 2}}
JSON
check_scores config-qwen2 mrope text:2,video:3x4x4 2 2 1 0 128 1000000 16,24,24 0 -- \
    --sequence text:2,video:3x4x4 --config "$tmp/qwen2vl.json"

# ---- bad input ----------------------------------------------------------------
refuse() {   # pattern, args...: exit 2, one stderr line matching, no stdout
    local pat=$1; shift
    "$PEVIZ" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
       grep -q -- "$pat" "$tmp/err"; then ok; else
        bad "refuse $*: rc=$rc err=$(cat "$tmp/err")"; fi
}
refuse "'text:0'" --export position-ids --sequence text:0
refuse "'image:16y24'" --export position-ids --sequence text:3,image:16y24
refuse "'video:2x8'" --export position-ids --sequence video:2x8
refuse "'audio:3'" --export position-ids --sequence text:1,audio:3
refuse "part 2 is empty" --export position-ids --sequence text:1,,text:2
refuse "ends with a comma" --export position-ids --sequence text:1,
refuse "--sequence '': wants" --export position-ids --sequence ''
refuse "'image:15x24': 15 is not a multiple" --export position-ids --sequence image:15x24
refuse "'image:6x6': 6 is not a multiple of the spatial merge 4" --export position-ids --sequence image:6x6 --spatial-merge 4
refuse "'image:4x4x4'" --export position-ids --sequence image:4x4x4
refuse "'text:-3'" --export position-ids --sequence text:-3
refuse "'text:3x'" --export position-ids --sequence text:3x
refuse "--mrope-section 16,24,20: sums to 60" --export scores --sequence text:2 -d 128 --mrope-section 16,24,20
refuse "--mrope-section 16,24: wants T,H,W whole numbers" --export scores --sequence text:2 --mrope-section 16,24
refuse "interleaved over 32 slots, h and w take at most 11 and 10 slots; type --mrope-section 19,11,2" --export scores --sequence text:2 -d 64 --mrope-section 2,28,2 --mrope-interleaved
refuse "--mrope-interleaved: goes with --sequence" --export scores --mrope-interleaved
refuse "--spatial-merge: goes with --sequence" --export scores --spatial-merge 2
refuse "--grid and --sequence" --export scores --grid 4x4 --sequence text:3
refuse "--grid 4x: wants WxH, each 1..4096" --export scores --grid 4x
refuse "--grid 0x4: wants WxH, each 1..4096" --export scores --grid 0x4
refuse "multiple of 4" --export scores --grid 4x4 -d 30
refuse "the sequence has 8 tokens" --export scores --sequence text:8 -n 9
refuse "--export position-ids: goes with --sequence" --export position-ids
refuse "--tokens-per-second -1: wants a number >= 0 and <= 1000" --export position-ids --sequence text:1 --tokens-per-second -1
refuse "--second-per-grid 0: wants a number > 0 and <= 3600" --export position-ids --sequence text:1 --second-per-grid 0
refuse "--sequence and --pe-file" --export scores --sequence text:3 --pe-file /nonexistent.csv
refuse "--grid and --pe-file" --export scores --grid 3x3 --pe-file /nonexistent.csv
refuse "4096 x 4096 tokens x 32768 frequencies is 5.5e+11 terms, over the limit of" --export scores --grid 64x64 -d 65536
refuse "lower -d or the sequence" --export softmax --sequence text:8,image:64x64 -d 8192
refuse "want csv with --export position-ids" --export position-ids --sequence text:1 --format f32

echo "mpos: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
