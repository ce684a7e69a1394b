#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# One frequency plan, read everywhere:
#  1. no code of the program outside the library computes a band
#     frequency: the sources call none of the library's per-band
#     evaluators (they read peviz/plan.h), and the objects link none;
#  2. for every preset and three config.json files, the numbers each view
#     shows for a band or a score (heatmap inspector and margin, clocks
#     table and readout, attention inspector and cell, compare headers,
#     spectrum text and readout) agree, to the digits printed, with
#     --export bands and --export scores at the same settings, and
#     --model list's a and score_mult with the exports.
# Ends with "plan: N passed, M failed, K skipped".
set -u
cd "$(dirname "$0")/.."
: "${PEVIZ:=./peviz}" "${BUILD:=build}"
# Under a sanitizer build this suite starts the program hundreds of
# times, and LeakSanitizer's scan at each exit doubles what a start
# costs, so here the sanitizers look for memory errors alone; leaks on
# the same paths are valgrind.sh's (models, a config file, refusals)
# and the fuzzers' to find.
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
pass=0 fail=0 skip=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d /tmp/peviz-plan.XXXXXX); trap 'rm -rf "$tmp"' EXIT

# ---- 1. nobody else computes a band frequency ------------------------------
EVAL='pe_omega|pe_omegas|pe_wavelength|rope_omega|rope_inv_freq|rope_effective_base|rope_yarn_bounds|rope_attention_factor|rope_score_multiplier|spectrum_critical_band|spectrum_turning_bands|spectrum_slowest_wavelength|spectrum_slowest_turns|scores_set_rope_scaling'
hits=$(grep -nE "\\b($EVAL)\\(" src/*.c src/*.h src/views/*.c src/views/*.h)
if [ -z "$hits" ]; then ok; else bad "the program computes band frequencies itself:
$hits"; fi
# a power of the base is a band frequency too
hits=$(grep -nE 'pow[lf]?\([^;]*base' src/*.c src/views/*.c)
if [ -z "$hits" ]; then ok; else bad "pow of a base outside the library:
$hits"; fi
# and the objects: none of them links an evaluator
if command -v nm >/dev/null && ls "$BUILD"/src/*.o >/dev/null 2>&1; then
    hits=$(nm -A -u "$BUILD"/src/*.o "$BUILD"/src/views/*.o 2>/dev/null |
           grep -wE "($EVAL)")
    if [ -z "$hits" ]; then ok; else bad "objects link evaluators:
$hits"; fi
else
    echo "SKIP plan: the objects' symbols: no nm or no objects in $BUILD"
    skip=$((skip + 1))
fi

# ---- 2. every screen against the exports -------------------------------------
cat >"$tmp/llama3.json" <<'EOF'
{"hidden_size": 2048, "num_attention_heads": 32, "head_dim": 64,
 "rope_theta": 500000.0, "max_position_embeddings": 131072,
 "rope_scaling": {"rope_type": "llama3", "factor": 32.0, "low_freq_factor": 1.0,
  "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}
EOF
cat >"$tmp/yarn.json" <<'EOF'
{"hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 131072,
 "rope_parameters": {"rope_type": "yarn", "rope_theta": 1000000.0, "factor": 4.0,
  "original_max_position_embeddings": 32768}}
EOF
cat >"$tmp/linear.json" <<'EOF'
{"hidden_size": 2048, "num_attention_heads": 16, "partial_rotary_factor": 0.5,
 "rope_theta": 10000, "max_position_embeddings": 4096,
 "rope_scaling": {"type": "linear", "factor": 2.0}}
EOF

"$PEVIZ" --model list >"$tmp/list" 2>&1 || bad "--model list failed"
cases=()
while read -r name _; do
    [ "$name" = model ] || cases+=("--model $name")
done <"$tmp/list"
[ "${#cases[@]}" -ge 13 ] && ok || bad "--model list has ${#cases[@]} presets"
for f in llama3 yarn linear; do cases+=("--config $tmp/$f.json"); done
# n from the model: the status line of a small frame
for c in "${cases[@]}"; do
    set -- $c
    n=$("$PEVIZ" "$@" --snapshot --size 200x6 | tail -n 1 |
        sed -nE 's/.* n=([0-9]+) .*/\1/p')
    echo "${2##*/} $n" >>"$tmp/ctx"
done
want="llama3.json 131072
yarn.json 131072
linear.json 4096"
if [ "$(tail -n 3 "$tmp/ctx")" = "$want" ]; then ok
else bad "n from the configs' max_position_embeddings: $(tail -n 3 "$tmp/ctx" | tr '\n' ' ')"; fi

N=256
k=0
for c in "${cases[@]}"; do
    k=$((k + 1)); d="$tmp/c$k"; mkdir "$d"
    set -- $c -n $N
    printf '%s\n' "$c" >"$d/what"
    "$PEVIZ" "$@" --export bands >"$d/bands" 2>"$d/err" &&
    "$PEVIZ" "$@" --export scores --scheme rope >"$d/scores" 2>>"$d/err" &&
    "$PEVIZ" "$@" --export pe >"$d/pe" 2>>"$d/err" || {
        bad "$c: export failed: $(head -c 200 "$d/err")"; continue; }
    for v in heatmap clocks attention; do
        "$PEVIZ" "$@" --scheme rope --view $v --size 160x48 --color none \
            $([ $v = heatmap ] && echo --pos 37) \
            --snapshot >"$d/$v" 2>>"$d/err" || bad "$c: snapshot $v failed"
    done
    for m in spectrum ratio; do
        "$PEVIZ" "$@" --view compare --pane-mode $m --size 160x48 \
            --color none --snapshot >"$d/$m" 2>>"$d/err" ||
            bad "$c: snapshot $m failed"
    done
done

cat >"$tmp/check.py" <<'PY'
"""Read numbers off the frames and compare them with the exports: a
number printed with k digits must be the export's value rounded there."""
import math, os, re, sys

NUM = r"-?[0-9]+(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?"
ABBREV = {"kept": "kept", "blend": "blended", "interp": "interpolated",
          "rebase": "rebased", "rescale": "rescaled", "still": "still"}
fails = []
passes = 0

def agrees(text, value):
    """Whether value rounds to text at text's last printed digit (a still
    band's wavelength is printed inf)."""
    if text == "inf":
        return value == float("inf")
    if not math.isfinite(value):    # a finite text never stands for it
        return False
    m = re.fullmatch(r"(-?)([0-9]+)(?:\.([0-9]+))?(?:e([-+]?[0-9]+))?", text)
    if not m:
        return False
    dec = len(m.group(3) or "")
    exp = int(m.group(4) or 0)
    unit = 10.0 ** (exp - dec)
    return abs(float(text) - value) <= 0.5 * unit * 1.0001 + 1e-12 * abs(value)

def check(what, cond):
    global passes
    if cond:
        passes += 1
    else:
        fails.append(what)

def ranges(rules):
    out, i = [], 0
    while i < len(rules):
        j = i
        while j + 1 < len(rules) and rules[j + 1] == rules[i]:
            j += 1
        short = [k for k, v in ABBREV.items() if v == rules[i]][0]
        out.append("%s %s" % (short, "%d-%d" % (i, j) if j > i else "%d" % i))
        i = j + 1
    return out

def load(d):
    lines = open(os.path.join(d, "bands")).read().split("\n")
    assert lines[0] == "band,rule,omega_base,omega,wavelength,turns_in_n"
    b = [l.split(",") for l in lines[1:] if l]
    S = [[float(x) for x in l.split(",")] for l in
         open(os.path.join(d, "scores")).read().split("\n") if l]
    return dict(rule=[x[1] for x in b], w0=[float(x[2]) for x in b],
                w=[float(x[3]) for x in b], lam=[float(x[4]) for x in b],
                turns=[float(x[5]) for x in b]), S

def frame(d, v):
    return open(os.path.join(d, v), encoding="utf-8").read().split("\n")

def heatmap(c, B, F, n, d):
    top = F[0]
    pe = [float(x) for x in open(os.path.join(d, "pe")).read().split("\n")[37].split(",")]
    m = re.match(r"(?:cache|PE)\(37, 0\) = .* = (%s)   " % NUM, top)
    check("%s heatmap value at pos 37: %r" % (c, top), m is not None)
    if m:
        check("%s heatmap value %s vs --export pe %g" % (c, m.group(1), pe[0]),
              agrees(m.group(1), pe[0]))
    m = re.search(r"band i=0  (?:ω' = [^=]+ = (%s)|omega=(%s) rad/pos)"
                  r"  wavelength=(%s) pos" % (NUM, NUM, NUM), top)
    check("%s heatmap inspector band 0: %r" % (c, top), m is not None)
    if m:
        om = m.group(1) or m.group(2)
        check("%s heatmap ω %s vs %g" % (c, om, B["w"][0]), agrees(om, B["w"][0]))
        check("%s heatmap λ %s vs %g" % (c, m.group(3), B["lam"][0]),
              agrees(m.group(3), B["lam"][0]))
    seen = 0
    for line in F[1:]:
        for dim, lam in re.findall(r"^d *([0-9]+) +λ (%s)" % NUM, line):
            seen += 1
            i = int(dim) // 2
            check("%s heatmap margin d%s λ %s vs %g" % (c, dim, lam, B["lam"][i]),
                  agrees(lam, B["lam"][i]))
    check("%s heatmap margin has wavelengths" % c, seen >= 3)

def clocks(c, B, F, n):
    rows = {}
    for line in F:
        for lab in ("i", "ω rad", "λ pos", "rule"):
            if line.startswith(lab + " ") and lab not in rows:
                rows[lab] = line[len(lab):].split()
    check("%s clocks table rows %s" % (c, sorted(rows)), "i" in rows and "ω rad" in rows)
    if "i" not in rows:
        return
    scaled = any(r != "kept" for r in B["rule"]) or B["w"] != B["w0"]
    for k, i in enumerate(int(x) for x in rows["i"]):
        check("%s clocks band %d ω %s vs %g" % (c, i, rows["ω rad"][k], B["w"][i]),
              agrees(rows["ω rad"][k], B["w"][i]))
        check("%s clocks band %d λ %s vs %g" % (c, i, rows["λ pos"][k], B["lam"][i]),
              agrees(rows["λ pos"][k], B["lam"][i]))
        if "rule" in rows:
            check("%s clocks band %d rule %s vs %s" % (c, i, rows["rule"][k], B["rule"][i]),
                  ABBREV.get(rows["rule"][k]) == B["rule"][i])
    text = "\n".join(F)
    m = re.search(r"bands: (.*)", text)
    if m:
        got = [x.strip() for x in m.group(1).replace("\u2013", "-").split("\u00b7")]
        check("%s clocks ranges %s vs %s" % (c, got, ranges(B["rule"])),
              got == ranges(B["rule"]))
    else:
        check("%s clocks: scaled bands without the ranges line" % c,
              not scaled or "rule" not in rows)

def attention(c, B, S, F, n):
    text = "\n".join(F)
    chain = re.findall(r"^.*  = [^\n]*= (%s) *$" % NUM, text, re.M)
    check("%s attention chain" % c, len(chain) > 0)
    if chain:
        check("%s attention S(0,0) %s vs %g" % (c, chain[-1], S[0][0]),
              agrees(chain[-1], S[0][0]))
    # the mean over the pairs the block shows (a mask's hidden ones are
    # -inf in the export), and their count where a mask cuts the block
    m = re.search(r"cell: mean (?:over ([0-9]+) x \1 positions|of the ([0-9]+) "
                  r"shown pairs of ([0-9]+) x \3) = (%s)" % NUM, text)
    check("%s attention cell line" % c, m is not None)
    if m:
        K = int(m.group(1) or m.group(3))
        shown = [S[i][j] for i in range(K) for j in range(K)
                 if S[i][j] != -math.inf]
        mean = sum(shown) / len(shown)
        check("%s attention cell %s vs %g" % (c, m.group(4), mean),
              agrees(m.group(4), mean))
        check("%s attention cell count %s vs %d" % (c, m.group(2), len(shown)),
              (m.group(2) is None) == (len(shown) == K * K)
              and (m.group(2) is None or int(m.group(2)) == len(shown)))
    m = re.search(r"1 dot = mean of ([0-9]+)[^\n]*\n[^\n]*?(%s)\u2502" % NUM, text)
    check("%s attention profile" % c, m is not None)
    if m:                       # its top: the largest mean of K distances
        K = int(m.group(1))
        T = [S[dd][0] for dd in range(n)]
        top = max(sum(T[k:k + K]) / len(T[k:k + K]) for k in range(0, n, K))
        check("%s attention profile top %s vs %g" % (c, m.group(2), top),
              agrees(m.group(2), top))
    m = re.search(r"S mean of ([0-9]+)x\1 (%s) \S+ (%s)" % (NUM, NUM), text)
    check("%s attention legend" % c, m is not None)
    if m:                       # the colour scale: the least and largest cell
        K, cells = int(m.group(1)), []
        for r in range(0, n, K):
            for q in range(0, n, K):
                rr, cc = range(r, min(r + K, n)), range(q, min(q + K, n))
                seen = [S[i][j] for i in rr for j in cc   # a mask's hidden
                        if S[i][j] != float("-inf")]      # keys: not drawn
                if seen:
                    cells.append(sum(seen) / len(seen))
        check("%s attention legend %s..%s vs %g..%g" % (
              c, m.group(2), m.group(3), min(cells), max(cells)),
              agrees(m.group(2), min(cells)) and agrees(m.group(3), max(cells)))

def spectrum(c, B, F, n):
    A = [l.split("\u2502")[0] for l in F]       # pane A: left of the line
    h = len(B["w"])
    crit = next((i for i in range(h) if B["lam"][i] > n), h)
    crit0 = next((i for i in range(h) if 2 * math.pi / B["w0"][i] > n), h)
    line = A[1]
    if crit < h:
        m = re.search(r"critical band ([0-9]+)(?: \(([0-9]+|none) unscaled\))?", line)
        check("%s spectrum header %r" % (c, line), m is not None)
        if m:
            check("%s critical band %s vs %d" % (c, m.group(1), crit),
                  int(m.group(1)) == crit)
            want0 = None if crit0 == crit else "none" if crit0 >= h else str(crit0)
            check("%s unscaled critical band %s vs %s" % (c, m.group(2), want0),
                  m.group(2) == want0)
    else:
        check("%s spectrum header %r: no critical band" % (c, line),
              "no critical band" in line)
    m = re.search(r"slowest band ([0-9]+): (%s) turns in n" % NUM, A[2])
    check("%s slowest line %r" % (c, A[2]), m is not None)
    if m:
        check("%s slowest turns %s vs %g" % (c, m.group(2), B["turns"][h - 1]),
              int(m.group(1)) == h - 1 and agrees(m.group(2), B["turns"][h - 1]))
    text = "\n".join(A)
    turning = sum(1 for x in B["lam"] if x <= n)
    m = re.search(r"([0-9]+) of ([0-9]+) bands turn", text)
    check("%s spectrum turning bands" % c, m is not None)
    if m:
        check("%s turning %s vs %d" % (c, m.group(1), turning),
              int(m.group(1)) == turning and int(m.group(2)) == h)
    m = re.search(r": (kept [^\n]*?|interp [^\n]*?|blend [^\n]*?) *$", text, re.M)
    scaled = B["w"] != B["w0"] or any(r != "kept" for r in B["rule"])
    if m and scaled:
        got = [x.strip() for x in m.group(1).replace("\u2013", "-").split("\u00b7")]
        check("%s spectrum ranges %s vs %s" % (c, got, ranges(B["rule"])),
              got == ranges(B["rule"]))
    m = re.search(r"band 0 \u2502 A (?:\w+ ω %s\u2192(%s)|λ=(%s))" % (NUM, NUM, NUM), F[-3] + F[-2])
    check("%s spectrum readout %r" % (c, F[-2]), m is not None)
    if m and m.group(1):
        check("%s readout ω %s vs %g" % (c, m.group(1), B["w"][0]), agrees(m.group(1), B["w"][0]))
    elif m:
        check("%s readout λ %s vs %g" % (c, m.group(2), B["lam"][0]), agrees(m.group(2), B["lam"][0]))

def ratio(c, B, F, n):
    """Band 0's readout: A's rule and omega, and B (base 500000, band 0:
    omega 1) over A."""
    text = "\n".join(F)
    m = re.search(r"band 0 \u2502 A (\w+) ω (%s) \u2502 B \w+ ω (%s) \u2502 B/A (%s)"
                  % (NUM, NUM, NUM), text)
    check("%s ratio readout" % c, m is not None)
    if not m:
        return
    scaled = B["w"] != B["w0"] or any(r != "kept" for r in B["rule"])
    want = B["rule"][0] if m.group(1) != "unscaled" else "kept"
    check("%s ratio rule %s vs %s" % (c, m.group(1), B["rule"][0]),
          want == B["rule"][0] and (m.group(1) != "unscaled" or not scaled))
    check("%s ratio ω %s vs %g" % (c, m.group(2), B["w"][0]), agrees(m.group(2), B["w"][0]))
    check("%s ratio B/A %s vs %g" % (c, m.group(4), 1 / B["w"][0]),
          agrees(m.group(4), float(m.group(3)) / B["w"][0]))

def model_list(root):
    lines = open(os.path.join(root, "list")).read().split("\n")
    end = lines[0].index("score_mult") + len("score_mult")
    cend = lines[0].index("max_ctx") + len("max_ctx")
    rows = [l.split()[:2] + [l[end - 10:end].strip(), l[:cend].split()[-1]]
            for l in lines[1:] if l]
    for d in sorted(os.listdir(root)):
        p = os.path.join(root, d)
        if not os.path.isdir(p):
            continue
        what = open(os.path.join(p, "what")).read().split()
        if what[0] != "--model":
            continue
        row = [r for r in rows if r[0] == what[1]][0]
        B, S = load(p)
        mult = S[0][0] / (2 * len(B["w"]))          # S(0,0) = d x multiplier
        check("%s --model list score_mult %s vs %g" % (what[1], row[2], mult),
              agrees(row[2], mult))
        ctx = [l for l in open(os.path.join(root, "ctx")).read().split("\n")
               if l.startswith(what[1] + " ")]
        check("%s --model list max_ctx %s vs n %s" % (what[1], row[3], ctx),
              ctx and ctx[0].split()[1] == row[3])
        check("%s --model list d %s" % (what[1], row[1]), int(row[1]) == 2 * len(B["w"]))

root = sys.argv[1]
n = int(sys.argv[2])
for d in sorted(os.listdir(root)):
    p = os.path.join(root, d)
    if not os.path.isdir(p) or not os.path.exists(os.path.join(p, "ratio")):
        continue
    c = open(os.path.join(p, "what")).read().strip().replace(root + "/", "")
    B, S = load(p)
    heatmap(c, B, frame(p, "heatmap"), n, p)
    clocks(c, B, frame(p, "clocks"), n)
    attention(c, B, S, frame(p, "attention"), n)
    spectrum(c, B, frame(p, "spectrum"), n)
    ratio(c, B, frame(p, "ratio"), n)
model_list(root)
for f in fails:
    print("FAIL: " + f)
print("checked %d %d" % (passes, len(fails)))
PY
out=$(python3 "$tmp/check.py" "$tmp" "$N" 2>&1)
printf '%s\n' "$out" | grep -v '^checked' | head -n 40
line=$(printf '%s\n' "$out" | grep '^checked')
if [ -n "$line" ]; then
    set -- $line
    pass=$((pass + $2)); fail=$((fail + $3))
else
    bad "the frame reader did not finish"
fi
echo "plan: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
