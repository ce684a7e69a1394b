#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The masks beyond causal from the outside: --export scores and softmax
# with --window and --chunk against an independent Python evaluation of
# the sinusoidal dot product sum_k cos((i-j) w_k) and ALiBi's -m (i-j),
# the mask written again from its definition (key j seen from query i
# when j <= i, i - W < j, and i, j in one chunk of C), and bad values
# (exit 2, one stderr line, nothing on stdout).
set -u
: "${PEVIZ:=./peviz}"
pass=0 fail=0
tmp=$(mktemp -d /tmp/peviz-masks.XXXXXX); trap 'rm -rf "$tmp"' EXIT
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if ! command -v python3 >/dev/null; then
    echo "masks: python3 is needed"; echo "masks: 0 passed, 1 failed"; exit 1
fi

cat >"$tmp/ref.py" <<'PY'
"""ref.py FILE SCHEME N D W C SOFTMAX SINK: the CSV export in FILE against
the formula; prints ok or FAIL: the first difference."""
import math, sys

path, scheme, n, d, w, c, soft, sink = sys.argv[1:9]
n, d, w, c, soft = int(n), int(d), int(w), int(c), soft == "1"
sink = None if sink == "none" else float(sink)

def seen(i, j):
    if j > i:
        return False
    if w and i - j >= w:
        return False
    return not c or i // c == j // c

def score(i, j):
    if scheme == "alibi":
        return -0.5 * (i - j)       # head 1 of 8: slope 2^-1
    return sum(math.cos((i - j) * 10000.0 ** (-2.0 * k / d))
               for k in range(d // 2))

rows = [line.split(",") for line in open(path).read().split("\n") if line]
if len(rows) != n:
    print("FAIL: %d rows, want %d" % (len(rows), n)); sys.exit()
for i, row in enumerate(rows):
    want = [score(i, j) if seen(i, j) else -math.inf for j in range(n)]
    if soft:
        mx = max(want)
        e = [math.exp(x - mx) if x > -math.inf else 0.0 for x in want]
        z = sum(e) + (math.exp(sink - mx) if sink is not None else 0.0)
        want = [x / z for x in e]
    for j, (g, x) in enumerate(zip(row, want)):
        g = float(g)
        if math.isinf(x) and g == x:
            continue
        if not abs(g - x) <= 1e-8 * max(1.0, abs(x)):
            print("FAIL: (%d,%d) %r, want %r" % (i, j, g, x)); sys.exit()
print("ok")
PY

check() {  # scheme n d window chunk softmax sink
    local what=scores args=(--sink "$7")
    [ "$6" = 1 ] && what=softmax
    [ "$4" != 0 ] && args+=(--window "$4")
    [ "$5" != 0 ] && args+=(--chunk "$5")
    [ "$4$5" = 00 ] && args+=(--causal)     # the triangle the band narrows
    if ! "$PEVIZ" --export "$what" --scheme "$1" -n "$2" -d "$3" "${args[@]}" \
            >"$tmp/out.csv" 2>"$tmp/err"; then
        bad "$*: exit $?: $(head -1 "$tmp/err")"; return
    fi
    local r; r=$(python3 "$tmp/ref.py" "$tmp/out.csv" "$@")
    [ "$r" = ok ] && ok || bad "$1 n $2 d $3 window $4 chunk $5 softmax $6 sink $7: $r"
}

for scheme in sinusoidal alibi; do
    for soft in 0 1; do
        for wc in "1 0" "3 0" "7 0" "0 1" "0 4" "0 5" "4 5" "9 3" "0 0"; do
            check $scheme 17 16 $wc $soft none
        done
    done
done

# Sink logits, below, near and above the rows' scores (the scores are
# the rows' own at sink none).
for scheme in sinusoidal alibi; do
    for sink in -3.5 0 2.25 9 40; do
        for wc in "0 0" "4 0" "0 6"; do
            check $scheme 15 16 $wc 1 $sink
        done
    done
    check $scheme 15 16 3 0 0 7      # scores: the sink weighs nothing there
done

# The band is the same at every row past the window's start: a row far
# down keeps W entries.
"$PEVIZ" --export scores -n 4096 -d 8 --window 100 --rows 4000..4000 \
    >"$tmp/far.csv" 2>/dev/null
live=$(tr ',' '\n' <"$tmp/far.csv" | grep -vc inf)
[ "$live" = 100 ] && ok || bad "window 100 at row 4000: $live keys seen"

# The attention view at one position a cell: the cells drawn in row i are
# the keys the mask lets it see, and the rest are blank.
band() {  # window chunk softmax
    local args=(--window "$1" --chunk "$2")
    [ "$3" = 1 ] && args+=(--softmax)
    "$PEVIZ" --snapshot --view attention -n 24 --size 80x30 "${args[@]}" \
        >"$tmp/frame.txt" 2>"$tmp/err" || { bad "band $*: snapshot"; return; }
    local r; r=$(python3 - "$tmp/frame.txt" "$1" "$2" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
w, c = (0 if x == "none" else int(x) for x in sys.argv[2:4])
for i in range(24):
    line = lines[2 + i].ljust(60)
    drawn = [j for j in range(24) if line[3 + 2 * j:5 + 2 * j].strip()]
    want = [j for j in range(i + 1)
            if (not w or i - j < w) and (not c or i // c == j // c)]
    if drawn != want:
        print("row %d draws %s, want %s" % (i, drawn, want)); sys.exit()
print("ok")
PY
)
    [ "$r" = ok ] && ok || bad "band window $1 chunk $2 softmax $3: $r"
}
band 5 none 0; band 3 none 1; band none 8 1; band 6 7 0

# mistral-7b-v0.1's sliding_window (its config.json: 4096) is its window,
# and --window none takes it away.
seen_keys() { "$PEVIZ" --export scores --scheme rope -n 6000 --rows 5000..5000 \
    "$@" 2>/dev/null | tr ',' '\n' | grep -vc inf; }
[ "$(seen_keys --model mistral-7b-v0.1)" = 4096 ] && ok \
    || bad "mistral-7b-v0.1: $(seen_keys --model mistral-7b-v0.1) keys seen"
[ "$(seen_keys --model mistral-7b-v0.1 --window none --causal)" = 5001 ] && ok \
    || bad "mistral-7b-v0.1 --window none: not the triangle"

# ---- masks read from configs (tests/data/mask-*.json) ----------------------
# Each file's layer types and their masks written again from transformers'
# configuration_*.py and masking_utils.py; --export scores --causal of the
# layer shown (--layer-type, else the one whose settings are read, else
# layer 0) hides exactly causal + the window + the chunk.
cat >"$tmp/cfgmask.py" <<'PY'
"""cfgmask.py PEVIZ FILE...: every layer type of each config against its
mask; prints ok or FAIL lines."""
import json, math, subprocess, sys

DEFAULT = {"mistral": (4096, 0), "gemma2": (4096, 0), "gemma3": (4096, 0),
           "gemma3_text": (4096, 0), "gpt_oss": (128, 0), "qwen2": (4096, 0),
           "llama4": (0, 8192), "llama4_text": (0, 8192)}
N = 23

def text(cfg):
    t = cfg.get("text_config")
    keys = ("rope_theta", "rope_parameters", "rope_scaling", "head_dim", "hidden_size")
    return t if isinstance(t, dict) and not any(k in cfg for k in keys) else cfg

def layers(c):
    return len(c["layer_types"]) if c.get("layer_types") else c.get("num_hidden_layers", 64)

def window_of(c):
    mt = c.get("model_type", "")
    return c["sliding_window"] if "sliding_window" in c else DEFAULT.get(mt, (None,))[0]

def type_at(c, i):
    if c.get("layer_types"):
        return c["layer_types"][i]
    mt, n = c.get("model_type", ""), layers(c)
    if mt.startswith("llama4"):
        k = c.get("no_rope_layer_interval", 4)
        nr = c.get("no_rope_layers") or [int((l + 1) % k != 0) for l in range(n)]
        return "chunked_attention" if nr[i] else "full_attention"
    p = {"gemma2": 2, "gpt_oss": 2}.get(mt, 0)
    if mt.startswith("gemma3"):
        p = c.get("sliding_window_pattern", 6)
    if mt.startswith("gemma4"):
        p = 1 if i == n - 1 else 6
    if p:
        return "sliding_attention" if (i + 1) % p else "full_attention"
    w = window_of(c)
    if "use_sliding_window" in c:
        on = c["use_sliding_window"] and w is not None and i >= c.get("max_window_layers", 28)
        return "sliding_attention" if on else "full_attention"
    return "sliding_attention" if w is not None else "full_attention"

def shown(c):
    rp = c.get("rope_parameters")
    if isinstance(rp, dict):
        for k, v in rp.items():
            if isinstance(v, dict):
                return k
    return "full_attention" if "rope_local_base_freq" in c else type_at(c, 0)

def mask(c, lt):
    mt = c.get("model_type", "")
    w = ch = 0
    both_ways = c.get("use_bidirectional_attention") in (True, "all")
    if lt == "sliding_attention" and c.get("use_sliding_window", True) and not both_ways:
        w = window_of(c) or 0
    if lt == "chunked_attention":
        ch = c["attention_chunk_size"] if "attention_chunk_size" in c \
            else DEFAULT.get(mt, (0, 0))[1]
        ch = ch or 0
    return w, ch

def hidden(i, j, w, ch):
    return j > i or (w and i - j >= w) or (ch and i // ch != j // ch)

peviz, files = sys.argv[1], sys.argv[2:]
for f in files:
    c = text(json.load(open(f)))
    names = []
    for i in range(layers(c)):
        if type_at(c, i) not in names:
            names.append(type_at(c, i))
    picks = [(None, shown(c))] + [(["--layer-type", t], t) for t in names] \
        + [(["--layer-a", str(i)], type_at(c, i)) for i in range(min(layers(c), 8))]
    for pick, lt in picks:
        args = [peviz, "--config", f, "--export", "scores", "--causal", "-n", str(N)]
        args += pick or []
        r = subprocess.run(args, capture_output=True, text=True)
        w, ch = mask(c, lt)
        what = "%s %s (window %d, chunk %d)" % (f, " ".join(pick or ["(shown)"]), w, ch)
        if r.returncode != 0:
            print("FAIL: %s: exit %d %s" % (what, r.returncode, r.stderr.strip()))
            continue
        rows = [l.split(",") for l in r.stdout.split()]
        got = [[math.isinf(float(x)) and float(x) < 0 for x in row] for row in rows]
        want = [[bool(hidden(i, j, w, ch)) for j in range(N)] for i in range(N)]
        print("ok" if got == want else "FAIL: %s: hides other keys" % what)
PY
while read -r line; do
    case $line in ok) ok ;; *) bad "${line#FAIL: }" ;; esac
done < <(python3 "$tmp/cfgmask.py" "$PEVIZ" tests/data/mask-*.json)

# the status line says where the mask came from; --window and --chunk
# given win over the file's (and the note goes)
status() { "$PEVIZ" --snapshot --view attention --size 200x8 -n 12 "$@" 2>&1 | tail -1; }
for fw in "mask-gemma2.json window 6 from sliding_window" \
          "mask-llama4.json chunk 6 from attention_chunk_size" \
          "mask-gptoss.json window 4 from sliding_window; sinks: weights, not in the file" \
          "mask-gemma3-bidir.json window not shown: use_bidirectional_attention"; do
    set -- $fw; f=$1; shift
    case $(status --config "tests/data/$f") in
        *"$f "*", $*"*) ok ;; *) bad "$f: status line without '$*': $(status --config "tests/data/$f")" ;; esac
    case $(status --config "tests/data/$f" --window 3 --chunk none) in
        *"$*"*) bad "$f --window 3: the file's mask still named" ;; *) ok ;; esac
done
hid() { "$PEVIZ" --export scores --causal -n 12 --rows 11..11 "$@" 2>/dev/null | tr ',' '\n' | grep -c inf; }
[ "$(hid --config tests/data/mask-gemma2.json --window 3)" = 9 ] && ok \
    || bad "mask-gemma2.json --window 3: $(hid --config tests/data/mask-gemma2.json --window 3) keys hidden at row 11"
[ "$(hid --config tests/data/mask-gemma2.json --window none)" = 0 ] && ok \
    || bad "mask-gemma2.json --window none: keys hidden at row 11"
[ "$(hid --window 5 --config tests/data/mask-mistral-null.json)" = 7 ] && ok \
    || bad "--window before --config: the file's none won"

# --print-settings: the file's window, from where --config stands
"$PEVIZ" --no-user-settings --config tests/data/mask-gemma2.json --print-settings >"$tmp/ps" 2>&1
grep -qE '^window +6 +command line$' "$tmp/ps" && ok \
    || bad "--print-settings: $(grep '^window ' "$tmp/ps")"

# a class default when the key is missing: Mistral's 4096
printf '%s' '{"model_type": "mistral", "head_dim": 8, "rope_theta": 10000.0}' >"$tmp/mistral.json"
[ "$(seen_keys --config "$tmp/mistral.json")" = 4096 ] && ok \
    || bad "mistral without sliding_window: $(seen_keys --config "$tmp/mistral.json") keys seen"
case $(status --config "$tmp/mistral.json") in
    *"window 4096 (mistral class default)"*) ok ;; *) bad "class default not named: $(status --config "$tmp/mistral.json")" ;; esac

# GGUF files: the layer types and masks llama.cpp's load_hparams gives
# each architecture (written again here from its rules), the sliding
# layers' own base where llama.cpp gives them one, by --layer-type and
# --layer-a, and a layer type the file lacks refused in one line
cat >"$tmp/ggufmask.py" <<'PY'
"""ggufmask.py PEVIZ DIR: write GGUF files, then check peviz's masks,
layer types and bases against llama.cpp's rules; ok or FAIL lines."""
import math, os, struct, subprocess, sys
peviz, d = sys.argv[1], sys.argv[2]
N = 12

sys.path.insert(0, "tests")
from gguf_write import gguf, kv_bools, kv_f32, kv_str, kv_u32

def model(arch, base, layers, extra):
    return gguf([kv_str("general.architecture", arch),
                 kv_f32(arch + ".rope.freq_base", base),
                 kv_u32(arch + ".rope.dimension_count", 16),
                 kv_u32(arch + ".context_length", 4096),
                 kv_u32(arch + ".block_count", layers)] + extra)

pat4 = [1, 0, 1, 1, 0, 1, 1]
files = {   # name: (bytes, rule)
  "g2.gguf": (model("gemma2", 10000, 6, [kv_u32("gemma2.attention.sliding_window", 5)]),
              ("period", 2, 5, None)),
  "g2-default.gguf": (model("gemma2", 10000, 4, []), ("period", 2, 4096, None)),
  "g3.gguf": (model("gemma3", 1e6, 12, [kv_u32("gemma3.attention.sliding_window", 4),
                                        kv_str("gemma3.rope.scaling.type", "linear"),
                                        kv_f32("gemma3.rope.scaling.factor", 8.0)]),
              ("period", 6, 4, 10000.0)),
  "g3-nowin.gguf": (model("gemma3", 1e6, 12, []), ("period", 6, 0, 10000.0)),
  "olmo2.gguf": (model("olmo2", 5e5, 8, [kv_u32("olmo2.attention.sliding_window", 3)]),
                 ("period", 4, 3, None)),
  "g4.gguf": (model("gemma4", 1e6, 7, [kv_u32("gemma4.attention.sliding_window", 6),
                                       kv_f32("gemma4.rope.freq_base_swa", 10000.0),
                                       kv_bools("gemma4.attention.sliding_window_pattern", pat4)]),
              ("list", pat4, 6, 10000.0)),
  "llama.gguf": (model("llama", 5e5, 8, [kv_u32("llama.attention.sliding_window", 4)]),
                 ("none",)),
}

def masked(rule, i):
    if rule[0] == "period":
        p = rule[1]
        return i % p < p - 1
    return bool(rule[1][i]) if rule[0] == "list" else False

def types(rule, layers):
    if rule[0] == "none" or rule[2] == 0:
        return ["full_attention"] * layers if rule[0] != "none" else []
    return ["sliding_attention" if masked(rule, i) else "full_attention"
            for i in range(layers)]

def run(args):
    return subprocess.run([peviz] + args, capture_output=True, text=True)

for name, (data, rule) in files.items():
    f = os.path.join(d, name)
    open(f, "wb").write(data)
    layers = struct.unpack("<I", data[data.index(b"block_count") + 15:][:4])[0]
    ts = types(rule, layers)
    own = rule[0] != "none" and rule[3] is not None and "sliding_attention" in ts
    shown = "full_attention" if own else (ts[0] if ts else None)
    picks = [(None, shown)] + [(["--layer-type", t], t) for t in sorted(set(ts))] \
        + [(["--layer-a", str(i)], ts[i]) for i in range(len(ts))]
    for pick, lt in picks:
        what = "%s %s" % (name, " ".join(pick or ["(shown)"]))
        r = run(["--config", f, "--export", "scores", "--causal", "-n", str(N)] + (pick or []))
        if r.returncode != 0:
            print("FAIL: %s: exit %d %s" % (what, r.returncode, r.stderr.strip())); continue
        w = rule[2] if lt == "sliding_attention" else 0
        got = [[math.isinf(float(x)) for x in l.split(",")] for l in r.stdout.split()]
        want = [[j > i or bool(w and i - j >= w) for j in range(N)] for i in range(N)]
        print("ok" if got == want else "FAIL: %s: hides other keys (window %d)" % (what, w))
        ps = run(["--no-user-settings", "--config", f] + (pick or []) + ["--print-settings"]).stdout
        base = float(ps.split("\nbase", 1)[1].split()[0])
        method = ps.split("\nrope-scaling", 1)[1].split()[0]
        main = struct.unpack("<f", data[data.index(b"rope.freq_base") + 18:][:4])[0]
        wb = rule[3] if lt == "sliding_attention" and rule[0] != "none" and rule[3] else main
        wm = "none" if lt == "sliding_attention" and name.startswith("g3") else \
            ("linear" if name == "g3.gguf" else "none")
        if base != wb or method != wm:
            print("FAIL: %s: base %r %s, want %r %s" % (what, base, method, wb, wm))
        else:
            print("ok")
    for lt in ("chunked_attention", "attention"):   # absent; a part of a name
        r = run(["--config", f, "--layer-type", lt, "--export", "scores", "-n", "4"])
        print("ok" if r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 1
              and "--layer-type" in r.stderr else "FAIL: %s: %s: exit %d %s"
              % (name, lt, r.returncode, r.stderr.strip()))

# Llama 4: chunks of 8192 on three layers of four, the fourth full and
# without RoPE; a sliding_window of 0 switches the chunks off
f = os.path.join(d, "l4.gguf")
open(f, "wb").write(model("llama4", 5e5, 8, []))
for i in range(8):
    r = run(["--config", f, "--layer-a", str(i), "--export", "scores", "-n", "9000",
             "--rows", "8999..8999"])
    vals = r.stdout.strip().split(",")
    seen = [v for v in vals if not math.isinf(float(v))] if r.returncode == 0 else []
    full = i % 4 == 3
    want = 9000 if full else 8999 - 8192 + 1
    zero = all(float(v) == 0.0 for v in seen)
    print("ok" if len(seen) == want and zero == full else
          "FAIL: l4.gguf --layer-a %d: %d keys seen (want %d), NoPE %s" % (i, len(seen), want, zero))
f = os.path.join(d, "l4-off.gguf")
open(f, "wb").write(model("llama4", 5e5, 8, [kv_u32("llama4.attention.sliding_window", 0)]))
r = run(["--config", f, "--layer-a", "0", "--export", "scores", "-n", "9000", "--rows", "8999..8999"])
seen = [v for v in r.stdout.strip().split(",") if v and not math.isinf(float(v))]
print("ok" if len(seen) == 9000 else "FAIL: l4-off.gguf: %d keys seen, want 9000" % len(seen))
PY
while read -r line; do
    case $line in ok) ok ;; *) bad "${line#FAIL: }" ;; esac
done < <(python3 "$tmp/ggufmask.py" "$PEVIZ" "$tmp")

# --layer-b and --layer-c with --config: the pane shows that layer's
# RoPE settings and scheme (Gemma 3 with sliding_window_pattern 3: layers
# 0, 1 sliding, base 10000 unscaled; layer 2 full, 1e6 linear x8; Llama 4's
# layer 2 without RoPE); a layer past the file, and one with no config
cmphead() { "$PEVIZ" --snapshot --view compare --size 160x6 --pane-mode profile "$@" 2>&1 | head -1; }
for i in 0 1 2 3 4 5; do
    h=$(cmphead --config tests/data/mask-gemma3.json --layer-b "$i")
    if [ $(((i + 1) % 3)) = 0 ]; then want="B layer $i rope half linear x8 base=1000000"
    else want="B layer $i rope half base=10000 "; fi
    case $h in *"$want"*) ok ;; *) bad "gemma3 --layer-b $i: '$h', want '$want'" ;; esac
done
case $(cmphead --config tests/data/mask-gemma3.json --layer-c 2) in
    *"C layer 2 rope half linear x8 b=1000000"*) ok ;;
    *) bad "gemma3 --layer-c 2: $(cmphead --config tests/data/mask-gemma3.json --layer-c 2)" ;; esac
case $(cmphead --config tests/data/mask-llama4.json --layer-b 2) in
    *"B layer 2 nope"*) ok ;; *) bad "llama4 --layer-b 2: not NoPE" ;; esac
case $(cmphead --config tests/data/mask-llama4.json --layer-b 2 --scheme-b rope) in
    *"B layer 2 rope"*) ok ;; *) bad "llama4 --layer-b 2 --scheme-b rope: the given scheme lost" ;; esac
for args in "--config tests/data/mask-gemma3.json --layer-b 6" "--layer-b 1"; do
    # shellcheck disable=SC2086
    "$PEVIZ" --view compare --snapshot $args >"$tmp/o" 2>"$tmp/e"; rc=$?
    if [ $rc = 2 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/e")" = 1 ]; then ok
    else bad "$args: exit $rc, $(cat "$tmp/e")"; fi
done

# the presets of such models carry their mask
[ "$(seen_keys --model gemma4-sliding)" = 1024 ] && ok || bad "gemma4-sliding: $(seen_keys --model gemma4-sliding) keys seen"
[ "$(seen_keys --model gemma3-local)" = 1024 ] && ok || bad "gemma3-local: $(seen_keys --model gemma3-local) keys seen"
[ "$(seen_keys --model gemma3-global --causal)" = 5001 ] && ok || bad "gemma3-global: a window"
n9=$("$PEVIZ" --export scores --model llama4-scout -n 9000 --rows 8999..8999 2>/dev/null | tr ',' '\n' | grep -vc inf)
[ "$n9" = $((8999 - 8192 + 1)) ] && ok || bad "llama4-scout row 8999: $n9 keys seen, want its chunk's"

# --layer-a past the file's layers, or in a file that says nothing of them
for bad_a in "mask-gemma4.json 4" "partial-glm.json 0"; do
    set -- $bad_a
    "$PEVIZ" --config "tests/data/$1" --layer-a "$2" --export scores -n 4 >"$tmp/o" 2>"$tmp/e"; rc=$?
    if [ $rc = 2 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/e")" = 1 ]; then ok
    else bad "--config $1 --layer-a $2: rc $rc $(cat "$tmp/e")"; fi
done

# a layer type the file does not have: one line naming the ones it has
"$PEVIZ" --config tests/data/mask-gptoss.json --layer-type chunked_attention --export scores -n 4 >"$tmp/o" 2>"$tmp/e"; rc=$?
if [ $rc = 2 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/e")" = 1 ] &&
   grep -q "sliding_attention, full_attention" "$tmp/e"; then ok
else bad "--layer-type chunked_attention on gpt-oss: rc $rc $(cat "$tmp/e")"; fi

# a size that is no size: one line naming the key, exit 2, nothing out
for key in sliding_window attention_chunk_size; do
    for v in -5 0 4096.5 '"x"' 1e30 true 16777217; do
        printf '{"model_type": "llama4_text", "head_dim": 8, "rope_theta": 1e4, "%s": %s}' \
            "$key" "$v" >"$tmp/badmask.json"
        "$PEVIZ" --config "$tmp/badmask.json" --export scores -n 4 >"$tmp/o" 2>"$tmp/e"; rc=$?
        if [ $rc = 2 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/e")" = 1 ] &&
           grep -q "key '$key'" "$tmp/e"; then ok
        else bad "$key $v: exit $rc, $(head -c 200 "$tmp/e")"; fi
    done
done
# Past the sizes the attention view once took row by row (n = 8192 with
# mistral's window of 4096 needs some 2^32 products that way): the
# export's rows at the window's edge and at a chunk's start against the
# formula, and the view draws the map (no refusal) with its first cell
# the mean of the export's rows over that block, to the digits shown.
cat >"$tmp/rows.py" <<'PY'
"""rows.py FILE N D W C SINK FIRST: each exported row (from FIRST on)
against the formula; prints ok or FAIL: the first difference."""
import math, sys

path, n, d, w, c, sink, first = sys.argv[1:8]
n, d, w, c, first = int(n), int(d), int(w), int(c), int(first)
sink = None if sink == "none" else float(sink)
om = [10000.0 ** (-2.0 * k / d) for k in range(d // 2)]
for r, line in enumerate(open(path).read().split("\n")[:-1]):
    i = first + r
    lo = max(0, i - w + 1 if w else 0, i // c * c if c else 0)
    s = {j: sum(math.cos((i - j) * x) for x in om) for j in range(lo, i + 1)}
    mx = max(list(s.values()) + ([sink] if sink is not None else []))
    z = sum(math.exp(v - mx) for v in s.values())
    z += math.exp(sink - mx) if sink is not None else 0.0
    for j, g in enumerate(line.split(",")):
        want = math.exp(s[j] - mx) / z if j in s else 0.0
        if not abs(float(g) - want) <= 1e-8 * want + 1e-300:  # 9 digits
            print("FAIL: (%d,%d) %s, want %r" % (i, j, g, want)); sys.exit()
print("ok")
PY
cat >"$tmp/cell.py" <<'PY'
"""cell.py FRAME EXPORT: the frame's first cell (the inspector's value,
its block from the legend) against the mean of the export's rows."""
import re, sys

text = " ".join(open(sys.argv[1], encoding="utf-8").read().split())
k = re.search(r"mean of (\d+)x(\d+)", text)
v = re.search(r"cell(?:: mean over \d+ x \d+ positions| mean).*? = "
              r"([0-9.e+-]+)", text)   # the map's own rows between
if not k or not v:
    print("FAIL: no cell value or block in the frame"); sys.exit()
a, b, shown = int(k.group(1)), int(k.group(2)), v.group(1)
rows = [line.split(",") for line in open(sys.argv[2]).read().split("\n")[:-1]]
mean = sum(float(x) for row in rows[:a] for x in row[:b]) / (a * b)
digits = len(shown.split("e")[0].replace(".", "").lstrip("0"))
if abs(float(shown) - mean) > 0.6 * 10 ** -digits * abs(float(shown)) * 10:
    print("FAIL: cell %s, the export's mean %r" % (shown, mean)); sys.exit()
print("ok")
PY
wide() {  # window chunk sink first last [view: the frame's first cell too]
    local args=(-n 8192 -d 16 --sink "$3")
    [ "$1" != 0 ] && args+=(--window "$1")
    [ "$2" != 0 ] && args+=(--chunk "$2")
    if ! "$PEVIZ" --export softmax "${args[@]}" --rows "$4..$5" \
            >"$tmp/wide.csv" 2>"$tmp/err"; then
        bad "wide $*: exit $?: $(head -1 "$tmp/err")"; return
    fi
    local r; r=$(python3 "$tmp/rows.py" "$tmp/wide.csv" 8192 16 "$1" "$2" "$3" "$4")
    [ "$r" = ok ] && ok || bad "export softmax n 8192 window $1 chunk $2 sink $3: $r"
    [ -z "${6:-}" ] && return
    "$PEVIZ" --snapshot --view attention --softmax --size 80x24 "${args[@]}" \
        >"$tmp/wide.txt" 2>"$tmp/err" || { bad "wide $*: snapshot"; return; }
    if grep -q "limit" "$tmp/wide.txt"; then
        bad "view n 8192 window $1 chunk $2: $(grep -m1 limit "$tmp/wide.txt")"
        return
    fi
    "$PEVIZ" --export softmax "${args[@]}" --rows 0..431 >"$tmp/top.csv" 2>/dev/null
    r=$(python3 "$tmp/cell.py" "$tmp/wide.txt" "$tmp/top.csv")
    [ "$r" = ok ] && ok || bad "view n 8192 window $1 chunk $2 sink $3: $r"
}
wide 4096 0 none 6000 6001; wide 4096 0 1.5 4095 4096 view
wide 0 1000 none 1999 2001 view; wide 300 1000 2.25 2000 2000

for opt in "--window 0" "--window -3" "--chunk x" "--chunk 0" "--sink inf" \
           "--sink x" "--sink 1e9"; do
    # shellcheck disable=SC2086
    "$PEVIZ" --export scores -n 8 $opt >"$tmp/o" 2>"$tmp/e"; rc=$?
    if [ $rc = 2 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/e")" = 1 ]; then
        ok
    else
        bad "$opt: exit $rc, $(wc -l <"$tmp/e") stderr lines"
    fi
done

echo "masks: $pass passed, $fail failed"
[ "$fail" = 0 ]
