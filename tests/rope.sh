#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# RoPE scaling from the outside: --export freqs and --export scores
# --scheme rope against an independent Python evaluation of the formulas
# (written again below, plain math, no numpy) for every method, real
# models' settings, config.json files in v4 and v5 form (written here),
# presets against the same flags, and bad input (exit 2, one stderr line
# naming the option or the file and key, nothing on stdout).
set -u
: "${PEVIZ:=./peviz}"
# Under a sanitizer build this suite starts the program hundreds of
# times, and LeakSanitizer's scan at each exit doubles what a start
# costs, so here the sanitizers look for memory errors alone; leaks on
# the same paths are valgrind.sh's (models, a config file, refusals)
# and the fuzzers' to find.
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
pass=0 fail=0
tmp=$(mktemp -d /tmp/peviz-rope.XXXXXX); trap 'rm -rf "$tmp"' EXIT
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if ! command -v python3 >/dev/null; then
    echo "rope: python3 is needed"; echo "rope: 0 passed, 1 failed"; exit 1
fi

# ---- the reference ---------------------------------------------------------
cat >"$tmp/ref.py" <<'PY'
"""Reference RoPE scaling, from the formulas (transformers, Meta, YaRN,
LongRoPE as documented in assets/doc/rope-scaling.md).  Usage: ref.py MANIFEST; each
line of it names an export of peviz and the settings it was made with
(d base n m(ethod) s L low high bf bs trunc ef ms msad mla af sf lf; mla=0:
an architecture whose attention does not add DeepSeek's m(s, msad)^2).  Prints
"ok" or "FAIL: ..." (the first difference) per line.  Values are printed
by peviz with %.9g: they must be the reference rounded to 9 digits."""
import math, sys
from fractions import Fraction

def settings(args):
    c = dict(d=64, base=10000.0, n=128, m="none", s=1.0, L=0, low=1.0,
             high=4.0, bf=32.0, bs=1.0, trunc=1, ef=1.0, ms=0.0, msad=0.0, mla=1, af=0.0,
             sf="", lf="")
    for a in args:
        k, v = a.split("=", 1)
        c[k] = v if k in ("m", "sf", "lf") else float(v)
    c["d"] = int(c["d"]); c["n"] = int(c["n"]); c["trunc"] = int(c["trunc"])
    return c

def mscale(s, k=1.0):
    return 1.0 if s <= 1 else 0.1 * k * math.log(s) + 1.0

def omegas(c):
    d, base, s, L, m = c["d"], c["base"], c["s"], c["L"], c["m"]
    half = d // 2
    if m == "ntk":
        base = base * s ** (d / (d - 2))
    if m == "dynamic":
        seq = max(c["n"], L)
        # in exact rationals: floats cancel s*seq/L - (s-1) to 0 for a
        # huge s even where it is 1 (seq = L)
        inner = Fraction(s) * Fraction(seq) / Fraction(L) - (Fraction(s) - 1)
        base = base * float(inner) ** (d / (d - 2))
    inv = [1.0 / base ** (2 * i / d) for i in range(half)]
    if m == "linear":
        return [w / s for w in inv]
    if m == "yarn":
        def corr(r):
            return d * math.log(L / (r * 2 * math.pi)) / (2 * math.log(base))
        lo, hi = corr(c["bf"]), corr(c["bs"])
        if c["trunc"]:
            lo, hi = math.floor(lo), math.ceil(hi)
        lo, hi = max(lo, 0), min(hi, d - 1)
        if lo == hi:
            hi += 0.001
        out = []
        for i in range(half):
            ramp = min(max((i - lo) / (hi - lo), 0.0), 1.0)
            extrap = c["ef"] * (1 - ramp)     # llama.cpp's ext_factor
            out.append(inv[i] / s * (1 - extrap) + inv[i] * extrap)
        return out
    if m == "llama3":
        out = []
        for w in inv:
            wl = 2 * math.pi / w
            if wl < L / c["high"]:
                out.append(w)
            elif wl > L / c["low"]:
                out.append(w / s)
            else:
                k = (L / wl - c["low"]) / (c["high"] - c["low"])
                out.append((1 - k) * w / s + k * w)
        return out
    if m == "longrope":
        f = [float(x) for x in (c["lf"] if c["n"] > L else c["sf"]).split(",")]
        return [inv[i] / f[i] for i in range(half)]
    return inv

def multiplier(c):
    s, m = c["s"], c["m"]
    a = 1.0
    if m == "yarn":
        if c["af"] > 0:
            a = c["af"]
        elif c["ms"] > 0 and c["msad"] > 0:
            a = mscale(s, c["ms"]) / mscale(s, c["msad"])
        else:
            a = mscale(s)
        if c["msad"] > 0 and c["mla"]:
            a *= mscale(s, c["msad"])
    if m == "longrope":
        a = c["af"] if c["af"] > 0 else (
            1.0 if s <= 1 else math.sqrt(1 + math.log(s) / math.log(c["L"])))
    return a * a

def close(got, want):
    """got is want printed with %.9g: within half a unit of the 9th digit."""
    if want == 0:
        return got == 0
    unit = 10.0 ** (math.floor(math.log10(abs(want))) - 8)
    return abs(got - want) <= 0.5 * unit * 1.000001 + abs(want) * 1e-13

def check_freqs(c, text):
    w = omegas(c)
    lines = [l for l in text.split("\n") if l]
    if len(lines) != len(w):
        return "%d lines, want %d" % (len(lines), len(w))
    for i, line in enumerate(lines):
        f = line.split(",")
        if int(f[0]) != i or not close(float(f[1]), w[i]) or \
                not close(float(f[2]), 2 * math.pi / w[i]):
            return "band %d: got %s, want %d,%.12g,%.12g" % (
                i, line, i, w[i], 2 * math.pi / w[i])
    return None

def check_scores(c, text):
    w, mul = omegas(c), multiplier(c)
    rows = [l for l in text.split("\n") if l]
    n = c["n"]
    if len(rows) != n:
        return "%d rows, want %d" % (len(rows), n)
    for i, row in enumerate(rows):
        for j, v in enumerate(float(x) for x in row.split(",")):
            want = mul * sum(2 * math.cos((i - j) * x) for x in w)
            if not close(v, want) and abs(v - want) > 1e-9 * c["d"] * mul:
                return "S(%d,%d) = %.12g, want %.12g" % (i, j, v, want)
    return None

def ref_rule(c, w0, w):
    """The rule from the numbers alone: kept, interpolated (w0 / s),
    rebased (ntk, dynamic), else blended (between w0 / s and w0)."""
    if c["m"] in ("ntk", "dynamic") and w != w0:
        return "rebased"
    if abs(w / w0 - 1) < 1e-12:
        return "kept"
    if abs(w * c["s"] / w0 - 1) < 1e-12:
        return "interpolated"
    return "blended"

def check_bands(c, text):
    w = omegas(c)
    d, base, n = c["d"], c["base"], c["n"]
    lines = [l for l in text.split("\n") if l]
    if not lines or lines[0] != "band,rule,omega_base,omega,wavelength,turns_in_n":
        return "header %r" % (lines[0] if lines else "")
    if len(lines) != len(w) + 1:
        return "%d lines, want %d" % (len(lines), len(w) + 1)
    for i, line in enumerate(lines[1:]):
        f = line.split(",")
        w0 = 1.0 / base ** (2 * i / d)
        lam = 2 * math.pi / w[i]
        want = [float(i), w0, w[i], lam, n / lam]
        got = [float(f[0])] + [float(x) for x in f[2:]]
        if len(f) != 6 or f[1] != ref_rule(c, w0, w[i]) or \
                not all(close(g, x) for g, x in zip(got, want)):
            return "band %d: got %s, want %d,%s,%.12g,%.12g,%.12g,%.12g" % (
                i, line, i, ref_rule(c, w0, w[i]), w0, w[i], lam, n / lam)
    return None

# The manifest: "kind<TAB>output file<TAB>settings<TAB>what" per case.
bad = 0
for line in open(sys.argv[1]):
    kind, out, ref, what = line.rstrip("\n").split("\t")
    c = settings(ref.split())
    text = open(out).read()
    why = dict(freqs=check_freqs, bands=check_bands,
               scores=check_scores)[kind](c, text)
    if why:
        bad += 1
        print("FAIL: %s %s vs %s: %s" % (kind, what, ref, why))
    else:
        print("ok")
PY

# freqs "peviz args" "reference settings": run peviz now, check the output
# against the reference later, in one Python run (see check_all).
ncase=0
case_of() {
    local kind=$1 args=$2 ref=$3
    ncase=$((ncase + 1))
    eval "set -- $args"
    if [ "$kind" != scores ]; then
        "$PEVIZ" --export "$kind" "$@" >"$tmp/case$ncase" 2>"$tmp/err"
    else
        "$PEVIZ" --export scores --scheme rope "$@" >"$tmp/case$ncase" 2>"$tmp/err"
    fi || { bad "peviz --export $kind $args: exit $? $(head -c 200 "$tmp/err")"; return; }
    printf '%s\t%s\t%s\t%s\n' "$kind" "$tmp/case$ncase" "$ref" "$args" >>"$tmp/manifest"
}
freqs()  { case_of freqs "$1" "$2"; }
scores() { case_of scores "$1" "$2"; }
bands()  { case_of bands "$1" "$2"; }
check_all() {
    local line
    while IFS= read -r line; do
        if [ "$line" = ok ]; then ok; else bad "${line#FAIL: }"; fi
    done < <(python3 "$tmp/ref.py" "$tmp/manifest" 2>&1)
}

# ---- every method, with flags ----------------------------------------------
freqs "-d 128 -b 10000" "d=128 base=10000"
freqs "-d 128 -b 500000 --rope-scaling linear --factor 4" "d=128 base=500000 m=linear s=4"
freqs "-d 128 -b 10000 --rope-scaling linear --factor 0.5" "d=128 base=10000 m=linear s=0.5"
for s in 2 4 8; do
    freqs "-d 128 -b 10000 --rope-scaling ntk --factor $s" "d=128 base=10000 m=ntk s=$s"
done
for n in 1000 4096 8192 16384 100000; do
    freqs "-d 128 -b 10000 --rope-scaling dynamic --factor 2 --original-max 4096 -n $n" \
          "d=128 base=10000 m=dynamic s=2 L=4096 n=$n"
done
# a factor so large that s - 1 rounds to s: still the unscaled base at n <= L
for n in 100 4096 4097; do
    freqs "-d 64 -b 10000 --rope-scaling dynamic --factor 1e20 --original-max 4096 -n $n" \
          "d=64 base=10000 m=dynamic s=1e20 L=4096 n=$n"
done
freqs "-d 128 -b 1000000 --rope-scaling yarn --factor 4 --original-max 32768" \
      "d=128 base=1000000 m=yarn s=4 L=32768"
freqs "-d 128 -b 1000000 --rope-scaling yarn --factor 4 --original-max 32768 --no-truncate" \
      "d=128 base=1000000 m=yarn s=4 L=32768 trunc=0"
freqs "-d 128 -b 10000 --rope-scaling yarn --factor 16 --original-max 4096" \
      "d=128 base=10000 m=yarn s=16 L=4096"
freqs "-d 96 -b 10000 --rope-scaling yarn --factor 8 --original-max 2048 --beta-fast 16 --beta-slow 2" \
      "d=96 base=10000 m=yarn s=8 L=2048 bf=16 bs=2"
freqs "-d 64 -b 10000 --rope-scaling yarn --factor 4 --original-max 6" \
      "d=64 base=10000 m=yarn s=4 L=6"
freqs "-d 128 -b 500000 --rope-scaling llama3 --factor 8 --original-max 8192" \
      "d=128 base=500000 m=llama3 s=8 L=8192"
freqs "-d 128 -b 500000 --rope-scaling llama3 --factor 16 --original-max 8192 --low-freq-factor 2 --high-freq-factor 8" \
      "d=128 base=500000 m=llama3 s=16 L=8192 low=2 high=8"
SF="1,1.05,1.1,1.2,1.3,1.5,1.7,2"; LF="1,2,3,4,6,8,12,16"
freqs "-d 16 -b 10000 --rope-scaling longrope --factor 32 --original-max 4096 -n 4096 --short-factor $SF --long-factor $LF" \
      "d=16 base=10000 m=longrope s=32 L=4096 n=4096 sf=$SF lf=$LF"
freqs "-d 16 -b 10000 --rope-scaling longrope --factor 32 --original-max 4096 -n 4097 --short-factor $SF --long-factor $LF" \
      "d=16 base=10000 m=longrope s=32 L=4096 n=4097 sf=$SF lf=$LF"

# ---- bands: the plan as a table (rule, omega before and after, turns) ------
bands "-d 64 -b 10000" "d=64 base=10000"
bands "--model llama3.1-8b -n 131072" "d=128 base=500000 m=llama3 s=8 L=8192 n=131072"
bands "--model qwen2.5-7b-yarn -n 100000" "d=128 base=1000000 m=yarn s=4 L=32768 n=100000"
bands "--model gpt-oss-20b -n 4096" "d=64 base=150000 m=yarn s=32 L=4096 trunc=0 n=4096"
bands "-d 96 -b 10000 --rope-scaling linear --factor 4 -n 500" "d=96 base=10000 m=linear s=4 n=500"
bands "-d 128 -b 10000 --rope-scaling dynamic --factor 2 --original-max 4096 -n 16384" \
      "d=128 base=10000 m=dynamic s=2 L=4096 n=16384"

# ---- scores: scaled frequencies and the squared attention factor -----------
scores "-d 32 -n 24 -b 10000" "d=32 n=24 base=10000"
scores "-d 32 -n 24 -b 10000 --rope-scaling linear --factor 4" "d=32 n=24 base=10000 m=linear s=4"
scores "-d 32 -n 24 -b 10000 --rope-scaling ntk --factor 8" "d=32 n=24 base=10000 m=ntk s=8"
scores "-d 32 -n 24 -b 10000 --rope-scaling yarn --factor 16 --original-max 512 --no-truncate --beta-fast 20 --beta-slow 2" \
       "d=32 n=24 base=10000 m=yarn s=16 L=512 trunc=0 bf=20 bs=2"
scores "-d 32 -n 24 -b 10000 --rope-scaling yarn --factor 16 --original-max 512" \
       "d=32 n=24 base=10000 m=yarn s=16 L=512"
scores "-d 32 -n 24 -b 10000 --rope-scaling yarn --factor 40 --original-max 512 --mscale 1 --mscale-all-dim 1" \
       "d=32 n=24 base=10000 m=yarn s=40 L=512 ms=1 msad=1"
scores "-d 32 -n 24 -b 10000 --rope-scaling yarn --factor 4 --original-max 512 --attention-factor 0.8" \
       "d=32 n=24 base=10000 m=yarn s=4 L=512 af=0.8"
scores "-d 32 -n 24 -b 500000 --rope-scaling llama3 --factor 8 --original-max 64" \
       "d=32 n=24 base=500000 m=llama3 s=8 L=64"
scores "-d 32 -n 24 -b 10000 --rope-scaling dynamic --factor 2 --original-max 16" \
       "d=32 n=24 base=10000 m=dynamic s=2 L=16"
scores "-d 8 -n 24 -b 10000 --rope-scaling longrope --factor 32 --original-max 16 --short-factor 1,2,3,4 --long-factor 2,4,6,8" \
       "d=8 n=24 base=10000 m=longrope s=32 L=16 sf=1,2,3,4 lf=2,4,6,8"
scores "--model deepseek-v3 -n 20" "d=64 n=20 base=10000 m=yarn s=40 L=4096 ms=1 msad=1"

# ---- presets: the same as their flags, and as the reference ---------------
preset() {
    local name=$1 flags=$2 ref=$3 n
    for n in 1000 200000; do
        eval "set -- $flags"
        "$PEVIZ" --export freqs -n "$n" "$@" >"$tmp/flags" 2>&1
        "$PEVIZ" --export freqs -n "$n" --model "$name" >"$tmp/model" 2>&1
        if cmp -s "$tmp/flags" "$tmp/model" && [ -s "$tmp/model" ]; then ok
        else bad "--model $name differs from $flags at n=$n"; fi
        scores_same "$name" "$flags"
    done
    freqs "--model $name" "$ref"
}
scores_same() {
    local name=$1 flags=$2
    eval "set -- $flags"
    "$PEVIZ" --export scores --scheme rope -n 16 "$@" >"$tmp/sf" 2>&1
    "$PEVIZ" --export scores --scheme rope -n 16 --model "$name" >"$tmp/sm" 2>&1
    if cmp -s "$tmp/sf" "$tmp/sm" && [ -s "$tmp/sm" ]; then ok
    else bad "--model $name scores differ from $flags"; fi
}
preset llama2-7b "-d 128 -b 10000 --original-max 4096" "d=128 base=10000"
preset llama3-8b "-d 128 -b 500000 --original-max 8192" "d=128 base=500000"
preset llama3.1-8b "-d 128 -b 500000 --rope-scaling llama3 --factor 8 --low-freq-factor 1 --high-freq-factor 4 --original-max 8192" \
       "d=128 base=500000 m=llama3 s=8 L=8192 low=1 high=4"
preset llama3.2-1b "-d 64 -b 500000 --rope-scaling llama3 --factor 32 --low-freq-factor 1 --high-freq-factor 4 --original-max 8192" \
       "d=64 base=500000 m=llama3 s=32 L=8192"
preset mistral-7b-v0.1 "-d 128 -b 10000 --window 4096" "d=128 base=10000"
preset mistral-7b-v0.2 "-d 128 -b 1000000 --original-max 32768" "d=128 base=1000000"
preset qwen2.5-7b "-d 128 -b 1000000 --original-max 32768" "d=128 base=1000000"
preset qwen2.5-7b-yarn "-d 128 -b 1000000 --rope-scaling yarn --factor 4 --original-max 32768" \
       "d=128 base=1000000 m=yarn s=4 L=32768"
preset gemma3-global "-d 256 -b 1000000 --rope-scaling linear --factor 8" "d=256 base=1000000 m=linear s=8"
preset gemma3-local "-d 256 -b 10000 --window 1024" "d=256 base=10000"
preset gpt-oss-20b "-d 64 -b 150000 --rope-scaling yarn --factor 32 --original-max 4096 --beta-fast 32 --beta-slow 1 --no-truncate" \
       "d=64 base=150000 m=yarn s=32 L=4096 trunc=0"
preset gpt-neox-20b "-d 24 -b 10000 --original-max 2048" "d=24 base=10000"
preset deepseek-v3 "-d 64 -b 10000 --rope-scaling yarn --factor 40 --original-max 4096 --beta-fast 32 --beta-slow 1 --mscale 1 --mscale-all-dim 1" \
       "d=64 base=10000 m=yarn s=40 L=4096 ms=1 msad=1"
# a flag after --model changes the preset; --model anywhere is the start
"$PEVIZ" --export freqs --factor 16 --model llama3.1-8b >"$tmp/a" 2>&1
"$PEVIZ" --export freqs --model llama3.1-8b --factor 16 >"$tmp/b" 2>&1
if cmp -s "$tmp/a" "$tmp/b"; then ok; else bad "--model is not applied first"; fi
freqs "--model llama3.1-8b --factor 16" "d=128 base=500000 m=llama3 s=16 L=8192"
n=$("$PEVIZ" --model list | grep -cE '^(llama2-7b|llama3-8b|llama3\.1-8b|llama3\.2-1b|mistral-7b-v0\.[12]|qwen2\.5-7b|qwen2\.5-7b-yarn|gemma3-(global|local)|gpt-oss-20b|gpt-neox-20b|deepseek-v3) ')
if [ "$n" -eq 13 ]; then ok; else bad "--model list shows $n of the 13 presets"; fi

# ---- config.json, v4 and v5 ------------------------------------------------
cfg() { printf '%s\n' "$2" >"$tmp/$1"; }
cfg llama31-v4.json '{"architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
 "num_attention_heads": 32, "max_position_embeddings": 131072, "rope_theta": 500000.0,
 "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
 "original_max_position_embeddings": 8192, "rope_type": "llama3"}}'
cfg llama31-v5.json '{"hidden_size": 4096, "num_attention_heads": 32, "head_dim": 128,
 "max_position_embeddings": 131072, "rope_parameters": {"rope_theta": 500000.0,
 "rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
 "original_max_position_embeddings": 8192}}'
cfg qwen-yarn-old.json '{"hidden_size": 3584, "num_attention_heads": 28,
 "max_position_embeddings": 32768, "rope_theta": 1000000.0,
 "rope_scaling": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}'
cfg gptoss.json '{"head_dim": 64, "hidden_size": 2880, "num_attention_heads": 64,
 "rope_theta": 150000, "max_position_embeddings": 131072, "rope_scaling": {"rope_type": "yarn",
 "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0, "truncate": false,
 "original_max_position_embeddings": 4096}}'
cfg deepseek.json '{"hidden_size": 7168, "num_attention_heads": 128, "qk_rope_head_dim": 64,
 "qk_nope_head_dim": 128, "max_position_embeddings": 163840, "rope_theta": 10000,
 "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0,
 "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096, "type": "yarn"}}'
LF48=$(awk 'BEGIN { for (i = 0; i < 48; i++) printf "%s%.6f", i ? "," : "", 1 + 0.37 * i }')
SF48=$(awk 'BEGIN { for (i = 0; i < 48; i++) printf "%s%.6f", i ? "," : "", 1 + 0.01 * i }')
cfg phi3.json "{\"hidden_size\": 3072, \"num_attention_heads\": 32,
 \"max_position_embeddings\": 131072, \"original_max_position_embeddings\": 4096,
 \"rope_theta\": 10000.0, \"rope_scaling\": {\"type\": \"longrope\",
 \"long_factor\": [$LF48], \"short_factor\": [$SF48]}}"
cfg phi2-v5.json '{"hidden_size": 2560, "num_attention_heads": 32, "max_position_embeddings": 2048,
 "rope_parameters": {"partial_rotary_factor": 0.4, "rope_theta": 10000.0, "rope_type": "default"}}'
cfg neox.json '{"hidden_size": 6144, "num_attention_heads": 64, "rotary_pct": 0.25,
 "rotary_emb_base": 10000, "max_position_embeddings": 2048}'
cfg gemma3-v5.json '{"head_dim": 256, "hidden_size": 2560, "num_attention_heads": 8,
 "max_position_embeddings": 131072, "rope_parameters": {"full_attention":
 {"rope_theta": 1000000.0, "rope_type": "linear", "factor": 8.0},
 "sliding_attention": {"rope_theta": 10000.0, "rope_type": "default"}}}'
cfg gemma3-v4.json '{"head_dim": 256, "hidden_size": 2560, "num_attention_heads": 8,
 "rope_theta": 1000000.0, "rope_local_base_freq": 10000.0,
 "rope_scaling": {"factor": 8.0, "rope_type": "linear"}}'
cfg dynamic.json '{"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 4096,
 "rope_theta": 10000.0, "rope_scaling": {"type": "dynamic", "factor": 2.0}}'

freqs "--config $tmp/llama31-v4.json" "d=128 base=500000 m=llama3 s=8 L=8192"
freqs "--config $tmp/llama31-v5.json" "d=128 base=500000 m=llama3 s=8 L=8192"
freqs "--config $tmp/qwen-yarn-old.json" "d=128 base=1000000 m=yarn s=4 L=32768"
freqs "--config $tmp/gptoss.json" "d=64 base=150000 m=yarn s=32 L=4096 trunc=0"
freqs "--config $tmp/deepseek.json" "d=64 base=10000 m=yarn s=40 L=4096 ms=1 msad=1"
freqs "--config $tmp/phi3.json -n 4096" "d=96 base=10000 m=longrope s=32 L=4096 n=4096 sf=$SF48 lf=$LF48"
freqs "--config $tmp/phi3.json -n 5000" "d=96 base=10000 m=longrope s=32 L=4096 n=5000 sf=$SF48 lf=$LF48"
scores "--config $tmp/phi3.json -n 12" "d=96 base=10000 m=longrope s=32 L=4096 n=12 sf=$SF48 lf=$LF48"
scores "--config $tmp/deepseek.json -n 12" "d=64 n=12 base=10000 m=yarn s=40 L=4096 ms=1 msad=1"
freqs "--config $tmp/phi2-v5.json" "d=32 base=10000"
freqs "--config $tmp/neox.json" "d=24 base=10000"
freqs "--config $tmp/gemma3-v5.json" "d=256 base=1000000 m=linear s=8"
freqs "--config $tmp/gemma3-v5.json --layer-type sliding_attention" "d=256 base=10000"
freqs "--config $tmp/gemma3-v4.json" "d=256 base=1000000 m=linear s=8"
freqs "--config $tmp/gemma3-v4.json --layer-type full_attention" "d=256 base=1000000 m=linear s=8"
freqs "--config $tmp/gemma3-v4.json --layer-type sliding_attention" "d=256 base=10000"
freqs "--config $tmp/dynamic.json -n 10000" "d=128 base=10000 m=dynamic s=2 L=4096 n=10000"
# the same model in v4 and v5 form, and as its preset
"$PEVIZ" --export freqs --config "$tmp/llama31-v4.json" >"$tmp/v4" 2>&1
"$PEVIZ" --export freqs --config "$tmp/llama31-v5.json" >"$tmp/v5" 2>&1
"$PEVIZ" --export freqs --model llama3.1-8b >"$tmp/pr" 2>&1
if cmp -s "$tmp/v4" "$tmp/v5" && cmp -s "$tmp/v4" "$tmp/pr"; then ok
else bad "llama3.1 v4, v5 and preset differ"; fi
s00x() { "$PEVIZ" --export scores --scheme rope -n 1 "$@" 2>&1; }
# ---- more real models (ROPE.md's tables), configs as their files write them
cfg scout-v4.json '{"architectures": ["Llama4ForConditionalGeneration"], "text_config": {
 "head_dim": 128, "hidden_size": 5120, "num_attention_heads": 40,
 "max_position_embeddings": 10485760, "rope_theta": 500000.0, "no_rope_layers": [1, 1, 1, 0],
 "rope_scaling": {"factor": 16.0, "high_freq_factor": 1.0, "low_freq_factor": 1.0,
 "original_max_position_embeddings": 8192, "rope_type": "llama3"}}, "vision_config": {"hidden_size": 1408}}'
cfg scout-v5.json '{"model_type": "llama4", "text_config": {"head_dim": 128,
 "max_position_embeddings": 10485760, "rope_parameters": {"rope_type": "llama3", "factor": 16.0,
 "original_max_position_embeddings": 8192, "high_freq_factor": 1.0, "low_freq_factor": 1.0,
 "rope_theta": 500000.0}}}'
cfg qwen3-v5.json '{"head_dim": 128, "hidden_size": 4096, "num_attention_heads": 32,
 "max_position_embeddings": 131072, "rope_parameters": {"rope_theta": 1000000,
 "rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}'
cfg gptoss-v5.json '{"head_dim": 64, "hidden_size": 2880, "num_attention_heads": 64,
 "max_position_embeddings": 131072, "rope_parameters": {"rope_type": "yarn", "rope_theta": 150000,
 "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0, "truncate": false,
 "original_max_position_embeddings": 4096}}'
cfg deepseek-v2.json '{"hidden_size": 2048, "num_attention_heads": 16, "qk_rope_head_dim": 64,
 "qk_nope_head_dim": 128, "max_position_embeddings": 163840, "rope_theta": 10000,
 "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 0.707,
 "mscale_all_dim": 0.707, "original_max_position_embeddings": 4096, "type": "yarn"}}'
cfg yarn-llama2-64k.json '{"hidden_size": 4096, "num_attention_heads": 32,
 "max_position_embeddings": 65536, "rope_theta": 10000.0, "rope_scaling": {"factor": 16.0,
 "finetuned": true, "original_max_position_embeddings": 4096, "type": "yarn"}}'
cfg pythia.json '{"hidden_size": 4096, "num_attention_heads": 32, "rotary_pct": 0.25,
 "rotary_emb_base": 10000, "max_position_embeddings": 2048}'
cfg phi2-v4.json '{"hidden_size": 2560, "num_attention_heads": 32, "partial_rotary_factor": 0.4,
 "rope_theta": 10000.0, "max_position_embeddings": 2048, "rope_scaling": null}'
cfg smollm3.json '{"hidden_size": 2048, "num_attention_heads": 16, "rope_theta": 5000000.0,
 "max_position_embeddings": 65536, "no_rope_layers": [1, 1, 1, 0]}'
cfg gemma3-4b-v4.json '{"architectures": ["Gemma3ForConditionalGeneration"], "text_config": {
 "head_dim": 256, "hidden_size": 2560, "num_attention_heads": 8, "rope_theta": 1000000.0,
 "rope_local_base_freq": 10000.0, "rope_scaling": {"factor": 8.0, "rope_type": "linear"}}}'
# dynamic NTK reads max_position_embeddings even when the scaling names
# an original length (transformers' Lm), at the current n
cfg dynamic-both.json '{"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 8192,
 "rope_theta": 10000.0, "rope_scaling": {"rope_type": "dynamic", "factor": 2.0,
 "original_max_position_embeddings": 4096}}'
for n in 4096 8192 12000 65536; do
    freqs "--config $tmp/dynamic-both.json -n $n" "d=128 base=10000 m=dynamic s=2 L=8192 n=$n"
done
freqs "--config $tmp/scout-v4.json" "d=128 base=500000 m=llama3 s=16 L=8192 low=1 high=1"
freqs "--config $tmp/scout-v5.json" "d=128 base=500000 m=llama3 s=16 L=8192 low=1 high=1"
freqs "-d 128 -b 500000 --rope-scaling llama3 --factor 16 --original-max 8192 --low-freq-factor 1 --high-freq-factor 1" \
      "d=128 base=500000 m=llama3 s=16 L=8192 low=1 high=1"
scores "--config $tmp/scout-v4.json -n 12" "d=128 n=12 base=500000 m=llama3 s=16 L=8192 low=1 high=1"
freqs "--config $tmp/qwen3-v5.json" "d=128 base=1000000 m=yarn s=4 L=32768"
scores "--config $tmp/qwen3-v5.json -n 12" "d=128 n=12 base=1000000 m=yarn s=4 L=32768"
freqs "--config $tmp/gptoss-v5.json" "d=64 base=150000 m=yarn s=32 L=4096 trunc=0"
scores "--config $tmp/gptoss-v5.json -n 12" "d=64 n=12 base=150000 m=yarn s=32 L=4096 trunc=0"
freqs "--config $tmp/deepseek-v2.json" "d=64 base=10000 m=yarn s=40 L=4096 ms=0.707 msad=0.707"
scores "--config $tmp/deepseek-v2.json -n 12" "d=64 n=12 base=10000 m=yarn s=40 L=4096 ms=0.707 msad=0.707"
freqs "--config $tmp/yarn-llama2-64k.json" "d=128 base=10000 m=yarn s=16 L=4096"
scores "--config $tmp/yarn-llama2-64k.json -n 12" "d=128 n=12 base=10000 m=yarn s=16 L=4096"
freqs "--config $tmp/pythia.json" "d=32 base=10000"
freqs "--config $tmp/phi2-v4.json" "d=32 base=10000"
freqs "--config $tmp/smollm3.json" "d=128 base=5000000"
freqs "--config $tmp/gemma3-4b-v4.json" "d=256 base=1000000 m=linear s=8"
freqs "--config $tmp/gemma3-4b-v4.json --layer-type sliding_attention" "d=256 base=10000"
freqs "-d 128 -b 500000 --rope-scaling llama3 --factor 32 --original-max 8192" \
      "d=128 base=500000 m=llama3 s=32 L=8192"
for n in 1 4096 4097 131072; do     # Phi-3's switch: long factors past L
    freqs "--config $tmp/phi3.json -n $n" "d=96 base=10000 m=longrope s=32 L=4096 n=$n sf=$SF48 lf=$LF48"
done
# the scores of a LongRoPE model past L: long factors, x a^2 (L = 16 here)
scores "-d 8 -n 20 -b 10000 --rope-scaling longrope --factor 4 --original-max 16 --short-factor 1,1,2,2 --long-factor 1,3,5,9" \
       "d=8 n=20 base=10000 m=longrope s=4 L=16 sf=1,1,2,2 lf=1,3,5,9"
# DeepSeek's extra m(s, mscale_all_dim)^2 belongs to its attention (MLA):
# a Ministral 3 config (transformers 5, YaRN with mscale = mscale_all_dim)
# scores a^2 = 1 times q.k, as transformers' Ministral3Attention does;
# DeepSeek-V3, Kimi K2 and GLM-4.7-Flash configs keep the factor, and so
# does a config that names no architecture but has MLA's qk_rope_head_dim
cfg ministral3.json '{"architectures": ["Mistral3ForConditionalGeneration"], "model_type": "mistral3",
 "text_config": {"model_type": "ministral3", "head_dim": 128, "hidden_size": 5120,
 "num_attention_heads": 32, "max_position_embeddings": 262144, "rope_parameters": {
 "rope_type": "yarn", "rope_theta": 1000000000.0, "factor": 16.0, "original_max_position_embeddings": 16384,
 "beta_fast": 32.0, "beta_slow": 1.0, "mscale": 1.0, "mscale_all_dim": 1.0, "llama_4_scaling_beta": 0.1}}}'
cfg yarn-llama-msad.json '{"architectures": ["LlamaForCausalLM"], "head_dim": 64, "rope_theta": 10000,
 "max_position_embeddings": 65536, "rope_scaling": {"rope_type": "yarn", "factor": 8.0,
 "original_max_position_embeddings": 8192, "mscale": 0.8, "mscale_all_dim": 0.5}}'
cfg ds-v3-named.json '{"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3",
 "qk_rope_head_dim": 64, "max_position_embeddings": 163840, "rope_theta": 10000,
 "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0,
 "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096, "type": "yarn"}}'
cfg kimi-k2.json '{"architectures": ["DeepseekV3ForCausalLM"], "model_type": "kimi_k2",
 "qk_rope_head_dim": 64, "max_position_embeddings": 131072, "rope_theta": 50000.0,
 "rope_scaling": {"beta_fast": 1.0, "beta_slow": 1.0, "factor": 32.0, "mscale": 1.0,
 "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096, "type": "yarn"}}'
cfg glm-flash.json '{"architectures": ["Glm4MoeLiteForCausalLM"], "model_type": "glm4_moe_lite",
 "qk_rope_head_dim": 64, "max_position_embeddings": 202752, "rope_parameters": {"rope_theta": 1000000,
 "rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768, "mscale_all_dim": 0.9}}'
scores "--config $tmp/ministral3.json -n 12" "d=128 n=12 base=1000000000 m=yarn s=16 L=16384 ms=1 msad=1 mla=0"
scores "--config $tmp/yarn-llama-msad.json -n 12" "d=64 n=12 base=10000 m=yarn s=8 L=8192 ms=0.8 msad=0.5 mla=0"
scores "--config $tmp/ds-v3-named.json -n 12" "d=64 n=12 base=10000 m=yarn s=40 L=4096 ms=1 msad=1"
scores "--config $tmp/glm-flash.json -n 12" "d=64 n=12 base=1000000 m=yarn s=4 L=32768 msad=0.9"
if [ "$(s00x --config "$tmp/ministral3.json")" = 128 ]; then ok
else bad "Ministral 3 S(0,0) = $(s00x --config "$tmp/ministral3.json"), want 128 (q.k = d, a = 1)"; fi
# Kimi K2 as DeepSeek-V3: a = 1, scores x (0.1 ln 32 + 1)^2 = 1.81161
if awk -v v="$(s00x --config "$tmp/kimi-k2.json")" 'BEGIN { m = 0.1 * log(32) + 1;
        exit !(v / (64 * m * m) - 1 < 1e-8 && v / (64 * m * m) - 1 > -1e-8) }'
then ok; else bad "Kimi K2 S(0,0) = $(s00x --config "$tmp/kimi-k2.json"), want 64 x 1.81161"; fi

# the worked figures of ROPE.md, from the exports: DeepSeek-V2 scores x
# (0.1 * 0.707 ln 40 + 1)^2 = 1.58963, Phi-3-mini-128k a^2 = 1.190238^2
s00() { "$PEVIZ" --export scores --scheme rope -n 1 "$@" 2>&1; }
if awk -v v="$(s00 --config "$tmp/deepseek-v2.json")" 'BEGIN { exit !(v / 64 > 1.589625 && v / 64 < 1.589635) }'
then ok; else bad "DeepSeek-V2 S(0,0)/64 = $(s00 --config "$tmp/deepseek-v2.json"), want 1.58963"; fi
if awk -v v="$(s00 --config "$tmp/phi3.json")" 'BEGIN { a = sqrt(v / 96); exit !(a > 1.1902375 && a < 1.1902385) }'
then ok; else bad "Phi-3 attention factor from S(0,0) = $(s00 --config "$tmp/phi3.json"), want 1.190238"; fi

# options after --config change it
freqs "--config $tmp/qwen-yarn-old.json --no-truncate --factor 8" \
      "d=128 base=1000000 m=yarn s=8 L=32768 trunc=0"

# ---- GGUF: metadata and rope_freqs.weight, files written byte by byte -------
cat >"$tmp/gguf.py" <<'PY'
"""Write GGUF v3 files (ggml docs/gguf.md) for the test, and the f32
divisors of Llama 3.1's llama3 rule as the file holds them."""
import math, struct, sys
out = sys.argv[1]

sys.path.insert(0, "tests")
from gguf_write import gguf, kv_bool, kv_f32, kv_f64, kv_str, kv_u32

def f32(x): return struct.unpack("<f", struct.pack("<f", x))[0]

# llama3 divisors: 1 (fast), 8 (slow), 1/((1-k)/8 + k) between
div = []
for i in range(64):
    w = 1 / 500000 ** (2 * i / 128); wl = 2 * math.pi / w
    if wl < 8192 / 4: div.append(1.0)
    elif wl > 8192 / 1: div.append(8.0)
    else:
        k = (8192 / wl - 1) / (4 - 1)
        div.append(1 / ((1 - k) / 8 + k))
div = [f32(x) for x in div]
open(out + "/div.txt", "w").write(",".join("%.17g" % x for x in div))

llama = [kv_str("general.architecture", "llama"),
         kv_f32("llama.rope.freq_base", 500000.0),
         kv_u32("llama.rope.dimension_count", 128),
         kv_u32("llama.context_length", 131072)]
files = {
  "llama31.gguf": gguf(llama, [("token_embd.weight", [0.5] * 8),
                               ("rope_freqs.weight", div)]),
  "llama3.gguf": gguf(llama, [("token_embd.weight", [0.5] * 8)]),
  "qwen-yarn.gguf": gguf([kv_str("general.architecture", "qwen2"),
                          kv_f32("qwen2.rope.freq_base", 1e6),
                          kv_u32("qwen2.embedding_length", 3584),
                          kv_u32("qwen2.attention.head_count", 28),
                          kv_str("qwen2.rope.scaling.type", "yarn"),
                          kv_f32("qwen2.rope.scaling.factor", 4.0),
                          kv_u32("qwen2.rope.scaling.original_context_length", 32768)], []),
  "linear-legacy.gguf": gguf([kv_str("general.architecture", "llama"),
                              kv_u32("llama.rope.dimension_count", 64),
                              kv_f32("llama.rope.scale_linear", 4.0)], []),
  "badtype.gguf": gguf([kv_str("general.architecture", "llama"),
                        kv_u32("llama.rope.dimension_count", 64),
                        kv_str("llama.rope.scaling.type", "su")], []),
  "noarch.gguf": gguf([kv_u32("llama.rope.dimension_count", 64)], []),
  "nodims.gguf": gguf([kv_str("general.architecture", "gpt2")], []),
  "shortfreqs.gguf": gguf(llama, [("rope_freqs.weight", div[:63])]),
  "nanfreqs.gguf": gguf(llama, [("rope_freqs.weight", div[:5] + [float("nan")] + div[6:])]),
  "yarn-noL.gguf": gguf([kv_str("general.architecture", "llama"),
                         kv_u32("llama.rope.dimension_count", 64),
                         kv_str("llama.rope.scaling.type", "yarn"),
                         kv_f32("llama.rope.scaling.factor", 4.0)], []),
}
# YaRN with every key llama.cpp writes for it (betas, finetuned), and
# DeepSeek-V2/V3 as llama.cpp's converter writes it: yarn_log_multiplier
# = 0.1 * mscale_all_dim, stored as f32
def yarn_file(arch, extra):
    return gguf([kv_str("general.architecture", arch),
                 kv_f32(arch + ".rope.freq_base", 10000.0),
                 kv_u32(arch + ".rope.dimension_count", 64),
                 kv_str(arch + ".rope.scaling.type", "yarn"),
                 kv_f32(arch + ".rope.scaling.factor", 40.0),
                 kv_u32(arch + ".rope.scaling.original_context_length", 4096)]
                + extra, [])
files["yarn-betas.gguf"] = yarn_file("qwen3", [
    kv_f32("qwen3.rope.scaling.yarn_beta_fast", 16.0),
    kv_f32("qwen3.rope.scaling.yarn_beta_slow", 2.0),
    kv_bool("qwen3.rope.scaling.finetuned", True),
    kv_f32("qwen3.rope.scaling.yarn_ext_factor", -1.0),
    kv_f32("qwen3.rope.scaling.attn_factor", 1.0)])
files["deepseek2.gguf"] = yarn_file("deepseek2", [
    kv_f32("deepseek2.rope.scaling.yarn_log_multiplier", 0.1)])
files["deepseek2-v2.gguf"] = yarn_file("deepseek2", [
    kv_f64("deepseek2.rope.scaling.yarn_log_multiplier", 0.0707)])
files["betas-swapped.gguf"] = yarn_file("qwen3", [
    kv_f32("qwen3.rope.scaling.yarn_beta_fast", 1.0),
    kv_f32("qwen3.rope.scaling.yarn_beta_slow", 2.0)])
files["beta-zero.gguf"] = yarn_file("qwen3", [
    kv_f32("qwen3.rope.scaling.yarn_beta_slow", 0.0)])
files["beta-string.gguf"] = yarn_file("qwen3", [
    kv_str("qwen3.rope.scaling.yarn_beta_fast", "32")])
files["finetuned-str.gguf"] = yarn_file("qwen3", [
    kv_str("qwen3.rope.scaling.finetuned", "yes")])
files["logmul-llama.gguf"] = yarn_file("llama", [
    kv_f32("llama.rope.scaling.yarn_log_multiplier", 0.5)])
# Ministral 3 from Mistral's own format: yarn_log_multiplier = mscale_all_dim
# (1), mscale 1: a = 1, and no DeepSeek score factor
files["ministral3.gguf"] = yarn_file("mistral3", [
    kv_f32("mistral3.rope.scaling.yarn_log_multiplier", 1.0)])
files["logmul-linear.gguf"] = gguf([kv_str("general.architecture", "llama"),
                                   kv_u32("llama.rope.dimension_count", 64),
                                   kv_str("llama.rope.scaling.type", "linear"),
                                   kv_f32("llama.rope.scaling.factor", 2.0),
                                   kv_f32("llama.rope.scaling.yarn_log_multiplier", 0.1)], [])
files["attnfactor.gguf"] = yarn_file("olmo2", [
    kv_f32("olmo2.rope.scaling.attn_factor", 1.5)])
files["attnfactor-linear.gguf"] = gguf([kv_str("general.architecture", "llama"),
                                       kv_u32("llama.rope.dimension_count", 64),
                                       kv_str("llama.rope.scaling.type", "linear"),
                                       kv_f32("llama.rope.scaling.factor", 2.0),
                                       kv_f32("llama.rope.scaling.attn_factor", 1.5)], [])
# Phi-3-mini-128k as llama.cpp's converter writes it: no scaling type, the
# two LongRoPE lists as tensors, the attention factor as a key
lf = [f32(1 + 0.37 * i) for i in range(48)]
sf = [f32(1 + 0.01 * i) for i in range(48)]
af = f32(math.sqrt(1 + math.log(32) / math.log(4096)))
phi3 = [kv_str("general.architecture", "phi3"),
        kv_f32("phi3.rope.freq_base", 10000.0),
        kv_u32("phi3.rope.dimension_count", 96),
        kv_u32("phi3.context_length", 131072),
        kv_u32("phi3.rope.scaling.original_context_length", 4096)]
files["phi3.gguf"] = gguf(phi3 + [kv_f32("phi3.rope.scaling.attn_factor", af)],
                          [("rope_factors_long.weight", lf), ("rope_factors_short.weight", sf)])
files["phi3-noaf.gguf"] = gguf(phi3, [("rope_factors_long.weight", lf),
                                      ("rope_factors_short.weight", sf)])
files["phi3-typed.gguf"] = gguf(phi3 + [kv_str("phi3.rope.scaling.type", "longrope")],
                                [("rope_factors_long.weight", lf), ("rope_factors_short.weight", sf)])
files["phi3-onelist.gguf"] = gguf(phi3, [("rope_factors_long.weight", lf)])
files["phi3-noL.gguf"] = gguf(phi3[:4], [("rope_factors_long.weight", lf),
                                         ("rope_factors_short.weight", sf)])
files["phi3-yarn.gguf"] = gguf(phi3 + [kv_str("phi3.rope.scaling.type", "yarn")],
                               [("rope_factors_long.weight", lf), ("rope_factors_short.weight", sf)])
files["longrope-notensors.gguf"] = gguf(phi3 + [kv_str("phi3.rope.scaling.type", "longrope")], [])
open(out + "/phi3.txt", "w").write("%s %s %.17g" % (
    ",".join("%.17g" % x for x in lf), ",".join("%.17g" % x for x in sf), af))
files["extfactor.gguf"] = yarn_file("qwen3", [
    kv_f32("qwen3.rope.scaling.yarn_ext_factor", 1.5)])
# every YaRN key llama.cpp's converter writes, away from its default: the
# betas, yarn_attn_factor (transformers' attention_factor) and
# yarn_ext_factor (the kept share of each band's ramp)
files["yarn-all.gguf"] = yarn_file("qwen3", [
    kv_f32("qwen3.rope.scaling.yarn_beta_fast", 8.0),
    kv_f32("qwen3.rope.scaling.yarn_beta_slow", 0.5),
    kv_f32("qwen3.rope.scaling.yarn_attn_factor", 1.25),
    kv_f32("qwen3.rope.scaling.yarn_ext_factor", 0.5)])
files["yarn-twoaf.gguf"] = yarn_file("qwen3", [
    kv_f32("qwen3.rope.scaling.yarn_attn_factor", 1.25),
    kv_f32("qwen3.rope.scaling.attn_factor", 1.5)])
files["extfactor-linear.gguf"] = gguf([kv_str("general.architecture", "llama"),
                                      kv_u32("llama.rope.dimension_count", 64),
                                      kv_str("llama.rope.scaling.type", "linear"),
                                      kv_f32("llama.rope.scaling.factor", 2.0),
                                      kv_f32("llama.rope.scaling.yarn_ext_factor", 0.5)], [])
# dimension counts no long holds, and NaN (the fuzzer's find)
for v, nm in ((-1.0384e34, "dims-huge"), (float("nan"), "dims-nan"), (64.5, "dims-half")):
    files[nm + ".gguf"] = gguf([kv_str("general.architecture", "llama"),
                                kv_f32("llama.rope.dimension_count", v)], [])
files["linear.gguf"] = gguf([kv_str("general.architecture", "gemma3"),
                            kv_f32("gemma3.rope.freq_base", 1e6),
                            kv_u32("gemma3.attention.key_length", 256),
                            kv_str("gemma3.rope.scaling.type", "linear"),
                            kv_f32("gemma3.rope.scaling.factor", 8.0)], [])
# mscale_all_dim as peviz must read it back: the f32 value / 0.1
open(out + "/ms.txt", "w").write("%.17g %.17g" % (f32(0.1) / 0.1, 0.0707 / 0.1))
for name, data in files.items():
    open(out + "/" + name, "wb").write(data)
full = files["llama31.gguf"]
open(out + "/truncated.gguf", "wb").write(full[:len(full) // 3])
PY
python3 "$tmp/gguf.py" "$tmp"
DIV=$(cat "$tmp/div.txt")
freqs "--config $tmp/llama31.gguf" "d=128 base=500000 m=longrope s=8 L=131072 n=128 sf=$DIV lf=$DIV af=1"
freqs "--config $tmp/llama31.gguf -n 200000" "d=128 base=500000 m=longrope s=8 L=131072 n=200000 sf=$DIV lf=$DIV af=1"
freqs "--config $tmp/llama3.gguf" "d=128 base=500000"
# n is the file's context_length (turns_in_n at n = 131072)
bands "--config $tmp/llama3.gguf" "d=128 base=500000 n=131072"
freqs "--config $tmp/qwen-yarn.gguf" "d=128 base=1000000 m=yarn s=4 L=32768"
freqs "--config $tmp/linear-legacy.gguf" "d=64 base=10000 m=linear s=4"
read -r MS MS2 <"$tmp/ms.txt"
freqs "--config $tmp/linear.gguf" "d=256 base=1000000 m=linear s=8"
scores "--config $tmp/attnfactor.gguf -n 12" "d=64 n=12 base=10000 m=yarn s=40 L=4096 af=1.5"
read -r PLF PSF PAF <"$tmp/phi3.txt"
for n in 12 4096 4097 131072; do
    freqs "--config $tmp/phi3.gguf -n $n" "d=96 base=10000 m=longrope s=32 L=4096 n=$n sf=$PSF lf=$PLF af=$PAF"
done
freqs "--config $tmp/phi3-typed.gguf -n 5000" "d=96 base=10000 m=longrope s=32 L=4096 n=5000 sf=$PSF lf=$PLF"
scores "--config $tmp/phi3.gguf -n 12" "d=96 n=12 base=10000 m=longrope s=32 L=4096 sf=$PSF lf=$PLF af=$PAF"
scores "--config $tmp/phi3-noaf.gguf -n 12" "d=96 n=12 base=10000 m=longrope s=32 L=4096 sf=$PSF lf=$PLF"
freqs "--config $tmp/yarn-all.gguf" "d=64 base=10000 m=yarn s=40 L=4096 bf=8 bs=0.5 ef=0.5"
scores "--config $tmp/yarn-all.gguf -n 12" "d=64 n=12 base=10000 m=yarn s=40 L=4096 bf=8 bs=0.5 ef=0.5 af=1.25"
freqs "--config $tmp/yarn-betas.gguf" "d=64 base=10000 m=yarn s=40 L=4096 bf=16 bs=2"
scores "--config $tmp/yarn-betas.gguf -n 12" "d=64 n=12 base=10000 m=yarn s=40 L=4096 bf=16 bs=2 af=1"
freqs "--config $tmp/deepseek2.gguf" "d=64 base=10000 m=yarn s=40 L=4096 ms=$MS msad=$MS"
scores "--config $tmp/deepseek2.gguf -n 12" "d=64 n=12 base=10000 m=yarn s=40 L=4096 ms=$MS msad=$MS"
scores "--config $tmp/logmul-llama.gguf -n 12" "d=64 n=12 base=10000 m=yarn s=40 L=4096 ms=1 msad=0.5 mla=0"
scores "--config $tmp/ministral3.gguf -n 12" "d=64 n=12 base=10000 m=yarn s=40 L=4096 ms=1 msad=1 mla=0"
scores "--config $tmp/deepseek2-v2.gguf -n 12" "d=64 n=12 base=10000 m=yarn s=40 L=4096 ms=$MS2 msad=$MS2"
# the DeepSeek-V3 file scores as the preset: S(0,0) = 64 x (0.1 ln 40 + 1)^2
"$PEVIZ" --export scores --scheme rope -n 1 --config "$tmp/deepseek2.gguf" >"$tmp/g" 2>&1
"$PEVIZ" --export scores --scheme rope -n 1 --model deepseek-v3 >"$tmp/m" 2>&1
if awk -v a="$(cat "$tmp/g")" -v b="$(cat "$tmp/m")" 'BEGIN { r = a / b - 1;
        exit !(r < 1e-7 && r > -1e-7 && b > 119.92 && b < 119.93) }'; then ok
else bad "deepseek2.gguf scores $(cat "$tmp/g"), preset $(cat "$tmp/m")"; fi
scores "--config $tmp/llama31.gguf -n 12" "d=128 base=500000 m=longrope s=8 L=131072 n=12 sf=$DIV lf=$DIV af=1"
# the file's divisors give the llama3 rule's frequencies (to f32 storage)
"$PEVIZ" --export freqs --config "$tmp/llama31.gguf" >"$tmp/g" 2>&1
"$PEVIZ" --export freqs --model llama3.1-8b >"$tmp/m" 2>&1
if paste -d, "$tmp/g" "$tmp/m" | awk -F, '{ r = ($2 - $5) / $5; if (r < 0) r = -r;
        if (r > 1e-7) bad = 1 } END { exit bad }'; then ok
else bad "rope_freqs.weight does not reproduce llama3.1-8b to f32 precision"; fi

# ---- bad input: exit 2, one line naming the option / file and key ----------
cfg notjson.json '{"rope_theta": 10000,'
cfg unknown.json '{"head_dim": 128, "rope_theta": 1e6, "rope_scaling": {"type": "spiral", "factor": 2}}'
cfg notheta.json '{"head_dim": 128}'
cfg nodims.json '{"rope_theta": 10000}'
cfg yarnhalf.json '{"head_dim": 64, "rope_theta": 10000, "rope_scaling": {"rope_type": "yarn", "factor": 0.5, "original_max_position_embeddings": 4096}}'
cfg shortlist.json '{"head_dim": 8, "rope_theta": 10000, "original_max_position_embeddings": 16, "rope_scaling": {"type": "longrope", "factor": 4, "short_factor": [1, 1, 1], "long_factor": [1, 1, 1, 1]}}'
cfg dupkey.json '{"head_dim": 64, "rope_theta": 10000, "rope_theta": 500000}'
cfg llama3nolow.json '{"head_dim": 64, "rope_theta": 5e5, "rope_scaling": {"rope_type": "llama3", "factor": 8, "high_freq_factor": 4, "original_max_position_embeddings": 8192}}'
cfg array.json '[1, 2, 3]'
cfg hugehidden.json '{"hidden_size": 4.096e131, "num_attention_heads": 32, "rope_theta": 1e4}'
cfg hugehead.json '{"head_dim": 1e300, "rope_theta": 1e4}'
: >"$tmp/empty.json"
# one byte over the limit (sparse): read as far as the limit, and refused
truncate -s $((16 * 1024 * 1024 + 1)) "$tmp/big.json"
while IFS='|' read -r args want; do
    [ -z "$args" ] && continue
    args=${args//@/$tmp}
    eval "set -- $args"
    "$PEVIZ" --export freqs "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
    mapfile err <"$tmp/err"     # one whole line holding $want, read in the shell
    if [ $rc -eq 2 ] && [ ${#err[@]} -eq 1 ] && [[ ${err[0]} == *"$want"*$'\n' ]] &&
       [ ! -s "$tmp/out" ]; then ok
    else bad "peviz $args: rc=$rc stderr=$(head -c 300 "$tmp/err") (want '$want')"; fi
done <<'TABLE'
--rope-scaling foo|--rope-scaling foo: wants 
--factor 0|--factor 0: wants a finite number > 0
--factor -1|--factor -1: wants a finite number > 0
--factor nan|--factor nan: wants a finite number > 0
--rope-scaling yarn --factor 0.5 --original-max 4096|--factor 0.5: want a number >= 1
--rope-scaling yarn --factor 4|--rope-scaling yarn: needs original-max
--original-max 0|--original-max 0: wants a whole number 1..2147483647
--original-max 4096.5|--original-max 4096.5: wants a whole number 1..
--original-max 3000000000|--original-max 3000000000: wants a whole number 1..2147483647
--rope-scaling llama3 --factor 8 --original-max 8192 --low-freq-factor 5 --high-freq-factor 4|--low-freq-factor 5: want a number at most high-freq-factor 4
--low-freq-factor 0|--low-freq-factor 0: wants a finite number > 0
--rope-scaling yarn --factor 4 --original-max 4096 --beta-fast 1 --beta-slow 2|--beta-fast 1: want a number at least beta-slow 2
--beta-slow 0|--beta-slow 0: wants a finite number > 0
--mscale -1|--mscale -1: wants a finite number > 0
--attention-factor 0|--attention-factor 0: wants a finite number > 0
--rope-scaling longrope --factor 4 --original-max 16 -d 8 --short-factor 1,1,1 --long-factor 1,1,1,1|--short-factor: 3 values; want exactly d/2 = 4
--rope-scaling longrope --factor 4 --original-max 16 -d 8 --short-factor 1,1,1,1 --long-factor 1,1,1,1,1|--long-factor: 5 values; want exactly d/2 = 4
--short-factor 1,,2|--short-factor 1,,2: wants 1..256 finite numbers > 0, comma separated, or none
--short-factor 1,inf|--short-factor 1,inf: wants 1..256 finite numbers > 0
--long-factor ''|--long-factor '': wants 1..256 finite numbers > 0
--model nosuch|--model 'nosuch': unknown
--rope-scaling ntk --factor 2 -d 2|--rope-scaling ntk: d 2; want d >= 4
--rope-scaling ntk --factor 1e300|--rope-scaling ntk: band 1's frequency leaves the range of a double at n=1 with base 10000 and factor 1e300; want a smaller factor or base
--rope-scaling dynamic --factor 1e200 --original-max 4096 -d 4|--rope-scaling dynamic: band 1's frequency leaves the range of a double at n=16777216
--rope-scaling longrope --factor 4 --original-max 16 -d 4 -b 1e300 --short-factor 1,1e308 --long-factor 1,1|--rope-scaling longrope: band 1's frequency leaves the range of a double at n=1 with base 1e300 and factor 4; want a smaller short-factor or base
--rope-scaling longrope --factor 4 --original-max 16 -d 4 -b 1e300 --short-factor 1,1 --long-factor 1,1e308|want a smaller long-factor or base
-b 1e308 -d 65536|--base 1e308: band 32711's frequency leaves the range of a double at d_model 65536; want a smaller base
--rope-scaling linear --factor 1e160 -d 4 -b 1e300|--rope-scaling linear: band 1's frequency leaves the range of a double at n=1 with base 1e300 and factor 1e160
--layer-type full_attention|--layer-type: goes with --config
--config @/missing.json|missing.json: cannot open
--config @/notjson.json|notjson.json: not JSON: byte 22: expected a string key
--config @/unknown.json|unknown.json: key 'rope_scaling.type': unknown method 'spiral'
--config @/notheta.json|notheta.json: key 'rope_theta': missing
--config @/nodims.json|nodims.json: key 'hidden_size': missing
--config @/yarnhalf.json|yarnhalf.json: factor 0.5: want a number >= 1 with rope-scaling yarn
--config @/shortlist.json|shortlist.json: short-factor: 3 values; want exactly d/2 = 4
--config @/dupkey.json|dupkey.json: not JSON: byte 52: duplicate key "rope_theta"
--config @/llama3nolow.json|llama3nolow.json: key 'rope_scaling.low_freq_factor': missing
--config @/array.json|array.json: not a config.json
--config @/empty.json|empty.json: not JSON: byte 0: unexpected end of input
--config @/big.json|big.json: larger than 16777216 bytes; not a config.json
--config @/hugehidden.json|hugehidden.json: key 'hidden_size': 1.28e+130 rotary dimensions: out of range; want an even number in 2..65536
--config @/hugehead.json|hugehead.json: key 'head_dim': 1e+300 rotary dimensions: out of range
--config @/gemma3-v5.json --layer-type global|gemma3-v5.json: key 'rope_parameters.global': no such layer type; the file has full_attention, sliding_attention
--config @/llama31-v4.json --layer-type full_attention|llama31-v4.json: key 'rope_parameters': missing
--config @/gemma3-v4.json --layer-type local|gemma3-v4.json: key 'local': no such layer type; the file has full_attention, sliding_attention
--format f32|--format: 'f32': want csv with --export freqs
--config @/badtype.gguf|badtype.gguf: key 'llama.rope.scaling.type': unknown type 'su'; want none, linear, yarn or longrope
--config @/noarch.gguf|noarch.gguf: key 'general.architecture': missing
--config @/nodims.gguf|nodims.gguf: key 'gpt2.rope.dimension_count': missing
--config @/shortfreqs.gguf|shortfreqs.gguf: key 'rope_freqs.weight': 63 values; want d/2 = 64
--config @/nanfreqs.gguf|nanfreqs.gguf
--config @/yarn-noL.gguf|yarn-noL.gguf: key 'llama.rope.scaling.original_context_length': missing
--config @/truncated.gguf|truncated.gguf
--config @/dims-huge.gguf|dims-huge.gguf: key 'llama.rope.dimension_count': -1.0384e+34: out of range; want an even number in 2..65536
--config @/dims-nan.gguf|dims-nan.gguf: key 'llama.rope.dimension_count': not a whole number
--config @/dims-half.gguf|dims-half.gguf: key 'llama.rope.dimension_count': not a whole number
--config @/betas-swapped.gguf|betas-swapped.gguf: beta-fast 1: want a number at least beta-slow 2
--config @/beta-zero.gguf|beta-zero.gguf: key 'qwen3.rope.scaling.yarn_beta_slow': beta-slow 0: not > 0
--config @/beta-string.gguf|beta-string.gguf: key 'qwen3.rope.scaling.yarn_beta_fast': not a number
--config @/finetuned-str.gguf|finetuned-str.gguf: key 'qwen3.rope.scaling.finetuned': not true or false
--config @/logmul-linear.gguf|logmul-linear.gguf: key 'llama.rope.scaling.yarn_log_multiplier': 0.1: peviz models only 0
--config @/attnfactor-linear.gguf|attnfactor-linear.gguf: key 'llama.rope.scaling.attn_factor': 1.5: peviz models only 1
--config @/phi3-onelist.gguf|phi3-onelist.gguf: key 'rope_factors_short.weight': missing (LongRoPE needs both factor lists)
--config @/phi3-noL.gguf|phi3-noL.gguf: key 'phi3.rope.scaling.original_context_length': missing (LongRoPE's L)
--config @/phi3-yarn.gguf|phi3-yarn.gguf: key 'rope_factors_long.weight': present with a scaling type other than longrope
--config @/longrope-notensors.gguf|longrope-notensors.gguf: key 'rope_factors_long.weight': missing (LongRoPE needs both factor lists)
--config @/extfactor.gguf|extfactor.gguf: key 'qwen3.rope.scaling.yarn_ext_factor': want a number in 0..1 (or -1, the default)
--config @/extfactor-linear.gguf|extfactor-linear.gguf: key 'llama.rope.scaling.yarn_ext_factor': 0.5: peviz models only 1 (or the default)
--config @/yarn-twoaf.gguf|yarn-twoaf.gguf: key 'qwen3.rope.scaling.yarn_attn_factor': differs from rope.scaling.attn_factor; want one attention factor
TABLE

# ---- --check-freqs: dumps written here with each known port bug ------------
cat >"$tmp/dumps.py" <<'PY'
import math, struct, sys, json
out = sys.argv[1]
def f32(x): return struct.unpack("<f", struct.pack("<f", x))[0]
def npy(name, v, code):
    h = "{'descr': '<%s', 'fortran_order': False, 'shape': (%d,), }" % (code, len(v))
    h += " " * ((64 - (10 + len(h) + 1) % 64) % 64) + "\n"
    open(out + "/" + name, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h))
        + h.encode() + struct.pack("<%d%s" % (len(v), "d" if code == "f8" else "f"), *v))
def text(name, v):
    open(out + "/" + name, "w").write("inv_freq\n" + "".join("%.17g\n" % x for x in v))
def theta(i, d, b): return 1.0 / b ** (2 * i / d)
def yarn(d, b, s, L, bf=32, bs=1, trunc=True, top=None):
    c = lambda r: d * math.log(L / (r * 2 * math.pi)) / (2 * math.log(b))
    lo, hi = c(bf), c(bs)
    if trunc: lo, hi = math.floor(lo), math.ceil(hi)
    lo, hi = max(lo, 0), min(hi, d - 1 if top is None else top)
    if lo == hi: hi += 0.001
    v = []
    for i in range(d // 2):
        r = min(max((i - lo) / (hi - lo), 0), 1)
        v.append(theta(i, d, b) / s * r + theta(i, d, b) * (1 - r))
    return v
def llama3(d, b, s, L, lf=1, hf=4):
    v = []
    for i in range(d // 2):
        t = theta(i, d, b); w = 2 * math.pi / t
        if w < L / hf: v.append(t)
        elif w > L / lf: v.append(t / s)
        else:
            k = (L / w - lf) / (hf - lf); v.append((1 - k) * t / s + k * t)
    return v
npy("qwen-ok.npy", yarn(128, 1e6, 4, 32768), "f8")
npy("qwen-notrunc.npy", yarn(128, 1e6, 4, 32768, trunc=False), "f8")
text("qwen-swapped.csv", yarn(128, 1e6, 4, 32768, bf=1, bs=32))
npy("ds-top.npy", yarn(64, 1e4, 8, 131072, top=31), "f8")
npy("l31-linear.npy", [theta(i, 128, 5e5) / 8 for i in range(64)], "f4")
text("l31-base.csv", llama3(128, 1e4, 8, 8192))
npy("l31-ok.npy", llama3(128, 5e5, 8, 8192), "f4")
# float32 pow, d 96 (2i/96 is no float32 number), kept in f64
npy("f32pow.npy", [f32(1.0 / f32(f32(1e4) ** f32(2 * i / 96))) for i in range(48)], "f8")
# a safetensors checkpoint's rotary buffer next to another tensor
v = yarn(64, 1e4, 8, 131072, top=31)
hdr = json.dumps({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
                  "layers.0.rotary_emb.inv_freq": {"dtype": "F64", "shape": [32],
                  "data_offsets": [8, 8 + 8 * 32]}}).encode()
open(out + "/top.safetensors", "wb").write(struct.pack("<Q", len(hdr)) + hdr
    + struct.pack("<2f", 1, 2) + struct.pack("<32d", *v))
open(out + "/bad.csv", "w").write("1e-3,2e-3\nabc,1\n")
# the issue's cases: each with an independent generator
def f16(x): return struct.unpack("<e", struct.pack("<e", x))[0]
def npy2(name, v, code):
    h = "{'descr': '<%s', 'fortran_order': False, 'shape': (%d,), }" % (code, len(v))
    h += " " * ((64 - (10 + len(h) + 1) % 64) % 64) + "\n"
    fmt = {"f8": "d", "f4": "f", "f2": "e"}[code]
    open(out + "/" + name, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h))
        + h.encode() + struct.pack("<%d%s" % (len(v), fmt), *v))
# transformers' arithmetic in float32: every operation rounded
def llama3_f32(d, b, s, L, lf, hf):
    v = []
    for i in range(d // 2):
        inv = f32(1.0 / f32(f32(b) ** f32(f32(2 * i) / f32(d))))
        wl = f32(f32(2 * math.pi) / inv)
        lw, hw = f32(L / lf), f32(L / hf)
        x = f32(inv / f32(s)) if wl > lw else inv
        if not (wl < hw) and not (wl > lw):
            k = f32(f32(f32(f32(L) / wl) - f32(lf)) / f32(hf - lf))
            x = f32(f32(f32(f32(1 - k) * x) / f32(s)) + f32(k * x))
        v.append(x)
    return v
def yarn_f32(d, b, s, L):
    c = lambda r: d * math.log(L / (r * 2 * math.pi)) / (2 * math.log(b))
    lo, hi = max(math.floor(c(32)), 0), min(math.ceil(c(1)), d - 1)
    v = []
    for i in range(d // 2):
        pos = f32(f32(b) ** f32(f32(2 * i) / f32(d)))
        ex, it = f32(1 / pos), f32(1 / f32(f32(s) * pos))
        e = f32(1 - min(max(f32(f32(f32(i) - f32(lo)) / f32(hi - lo)), 0), 1))
        v.append(f32(f32(it * f32(1 - e)) + f32(ex * e)))
    return v
npy2("neox.npy", [1e4 ** (-i / 96) for i in range(0, 24, 2)], "f8")
npy2("l3-f16.npy", [f16(theta(i, 128, 5e5)) for i in range(64)], "f2")
npy2("l3f32.npy", llama3_f32(120, 3e5, 10, 5000, 0.8, 4.5), "f4")
npy2("yarn-linear.npy", [theta(i, 128, 1e6) / 4 for i in range(64)], "f8")
npy2("yarn-maxpos.npy", yarn(128, 1e6, 4, 131072), "f8")
v = [theta(i, 128, 5e5) for i in range(64)]
npy2("cat.npy", v + v, "f4")
npy2("twice.npy", [x for x in v for _ in (0, 1)], "f4")
npy2("two.npy", [theta(i, 128, 1e4) for i in range(64)], "f8")
npy2("glm.npy", [theta(i, 128, 1e6) for i in range(64)], "f8")
# YaRN's paper: the ramp linear in rotations r = L theta / (2 pi)
def yarn_paper(d, b, s, L, bf=32, bs=1):
    v = []
    for i in range(d // 2):
        t = theta(i, d, b); g = min(max((L * t / (2 * math.pi) - bs) / (bf - bs), 0), 1)
        v.append(t / s * (1 - g) + t * g)
    return v
npy2("yarn-paper.npy", yarn_paper(128, 1e6, 4, 32768), "f8")
# proportional (Gemma 4): 128 bands over head_dim 256, the last 96 zero
npy2("prop.npy", [1e6 ** (-2 * i / 256) if i < 32 else 0.0 for i in range(128)], "f4")
# a correct bf16 checkpoint buffer (upper halves of float32, rounded)
def bf16(x):
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    return (u + 0x7fff + ((u >> 16) & 1)) >> 16
hdr = json.dumps({"inv_freq": {"dtype": "BF16", "shape": [64], "data_offsets": [0, 128]}}).encode()
open(out + "/bf16.safetensors", "wb").write(struct.pack("<Q", len(hdr)) + hdr
    + struct.pack("<64H", *[bf16(x) for x in llama3(128, 5e5, 8, 8192)]))
# truncation off, in transformers' float32
def yarn_f32_nt(d, b, s, L):
    c = lambda r: d * math.log(L / (r * 2 * math.pi)) / (2 * math.log(b))
    lo, hi = max(c(32), 0), min(c(1), d - 1)
    v = []
    for i in range(d // 2):
        pos = f32(f32(b) ** f32(f32(2 * i) / f32(d)))
        ex, it = f32(1 / pos), f32(1 / f32(f32(s) * pos))
        e = f32(1 - min(max(f32(f32(f32(i) - f32(lo)) / f32(hi - lo)), 0), 1))
        v.append(f32(f32(it * f32(1 - e)) + f32(ex * e)))
    return v
npy2("yarn-nt-f32.npy", yarn_f32_nt(128, 1e6, 4, 32768), "f8")   # float32 numbers kept in f64
# Gemma 4's proportional RoPE (transformers' _compute_proportional_rope_parameters:
# int(p * head_dim // 2) bands at base^(-2i/head_dim), zeros to head_dim/2,
# all over factor) and a port that took it for partial rotary
hd, lv = 512, int(0.25 * 512 // 2)
npy2("g4-prop.npy", [f32(1 / f32(f32(1e6) ** f32(f32(2 * i) / hd))) if i < lv else 0.0
                     for i in range(hd // 2)], "f4")
npy2("g4-all.npy", [1e6 ** (-2 * i / hd) for i in range(hd // 2)], "f4")
npy2("g4-partial.npy", [1e6 ** (-2 * i / (2 * lv)) for i in range(lv)], "f4")
npy2("g4-partial-pad.npy", [1e6 ** (-2 * i / (2 * lv)) if i < lv else 0.0
                            for i in range(hd // 2)], "f4")
# head_dim from config.json: 256 (given, or 2560 / 10), rotary 0.375 of it,
# which no guess from d = 96 reaches
for name, head in (("cfg-hd.json", {"head_dim": 256, "hidden_size": 2048}),
                   ("cfg-hs.json", {"hidden_size": 2560})):
    cfg = dict(model_type="llama", num_attention_heads=16 if "head_dim" in head else 10,
               partial_rotary_factor=0.375, rope_theta=1e6, max_position_embeddings=32768)
    cfg.update(head)
    json.dump(cfg, open(out + "/" + name, "w"))
npy2("exp256.npy", [1e6 ** (-2 * i / 256) for i in range(48)], "f8")
npy2("prop256.npy", [1e6 ** (-2 * i / 256) if i < 48 else 0.0 for i in range(128)], "f8")
# every operation rounded to bf16 (to nearest, ties to even, by its bits)
def bfr(x):
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    u = (u + 0x7fff + ((u >> 16) & 1)) & 0xffff0000
    return struct.unpack("<f", struct.pack("<I", u))[0]
npy2("bf16-ops.npy", [bfr(1 / bfr(bfr(5e5) ** bfr(bfr(2 * i) / 128))) for i in range(64)], "f4")
npy2("bf16-ops-lin.npy", [bfr(bfr(1 / bfr(bfr(1e6) ** bfr(bfr(2 * i) / 128))) / 4)
                          for i in range(64)], "f4")
# 30 random settings each of llama3 and yarn in float32: "FILE ARGS" lines
import random
random.seed(7)
cases = open(out + "/f32cases", "w")
for k in range(30):
    d = random.choice([64, 80, 96, 120, 128, 256]); b = random.choice([1e4, 2.5e4, 3e5, 5e5, 1e6])
    s = random.choice([2, 4, 8, 10, 16, 32]); L = random.choice([2048, 4096, 5000, 8192])
    lf = random.choice([0.5, 0.8, 1, 2]); hf = lf + random.choice([1, 2, 3.7, 4])
    npy2("l%d.npy" % k, llama3_f32(d, b, s, L, lf, hf), "f4")
    cases.write("l%d.npy -d %d -b %r --rope-scaling llama3 --factor %r --original-max %d "
                "--low-freq-factor %r --high-freq-factor %r\n" % (k, d, b, s, L, lf, hf))
    npy2("y%d.npy" % k, yarn_f32(d, b, s, L), "f4")
    cases.write("y%d.npy -d %d -b %r --rope-scaling yarn --factor %r --original-max %d\n"
                % (k, d, b, s, L))
PY
python3 "$tmp/dumps.py" "$tmp"
# check_freqs "args" status "last stdout line" [matches lines, default 1
# when the last line is one, else 0]: no other combination is named
check_freqs() {
    local args=$1 want=$2 last=$3 got nm=0
    case $last in matches*) nm=1;; esac
    nm=${4:-$nm}
    eval "set -- $args"
    "$PEVIZ" "$@" >"$tmp/cf.out" 2>"$tmp/cf.err"
    got=$?
    if [ "$got" = "$want" ] && [ "$(tail -n 1 "$tmp/cf.out")" = "$last" ] &&
       [ "$(grep -c '^matches ' "$tmp/cf.out")" = "$nm" ] &&
       [ ! -s "$tmp/cf.err" ]; then ok
    else bad "peviz $args: exit $got (want $want), last line '$(tail -n 1 "$tmp/cf.out")' (want '$last') $(head -c 200 "$tmp/cf.err")"; fi
}
check_freqs "--check-freqs $tmp/qwen-ok.npy --model qwen2.5-7b-yarn" 0 \
    "match: 64 bands within 1e-12 (npy f64) of d 128, base 1000000, yarn s=4 L=32768"
check_freqs "--check-freqs $tmp/qwen-notrunc.npy --model qwen2.5-7b-yarn" 1 "matches yarn with truncate off (1 change, residual 0)"
check_freqs "--check-freqs $tmp/qwen-swapped.csv --model qwen2.5-7b-yarn" 1 \
    "matches yarn with beta_fast and beta_slow swapped (1 change, residual 0)"
check_freqs "--check-freqs $tmp/ds-top.npy -d 64 -b 10000 --rope-scaling yarn --factor 8 --original-max 131072" 1 \
    "matches yarn with the ramp clamped at d/2-1 = 31 instead of d-1 = 63 (1 change, residual 0)"
check_freqs "--check-freqs $tmp/top.safetensors --tensor layers.0.rotary_emb.inv_freq -d 64 -b 10000 --rope-scaling yarn --factor 8 --original-max 131072" 1 \
    "matches yarn with the ramp clamped at d/2-1 = 31 instead of d-1 = 63 (1 change, residual 0)"
check_freqs "--check-freqs $tmp/l31-linear.npy --model llama3.1-8b" 1 "matches llama3 applied as plain linear scaling by 8 (1 change, residual 5.12e-08)"
check_freqs "--check-freqs $tmp/l31-base.csv --model llama3.1-8b" 1 "matches base 10000 instead of 500000 (1 change, residual 0)"
check_freqs "--check-freqs $tmp/l31-ok.npy --model llama3.1-8b" 0 \
    "match: 64 bands within 2.38e-07 (npy f32) of d 128, base 500000, llama3 s=8 L=8192"
check_freqs "--check-freqs $tmp/f32pow.npy -d 96" 0 \
    "match: 48 bands within 9.54e-07 (npy f64) of d 96, base 10000, none, in float32 as transformers computes them; residual 0"
check_freqs "--check-freqs $tmp/llama31.gguf --model llama3.1-8b" 0 \
    "match: 64 bands within 2.38e-07 (gguf rope_freqs.weight F32) of d 128, base 500000, llama3 s=8 L=8192"
# the issue's cases: a confident wrong diagnosis, a correct f16 file, the
# framework's float32 arithmetic, a scaling swap, an old L, cat(inv, inv)
check_freqs "--check-freqs $tmp/neox.npy --model gpt-neox-20b" 1 \
    "matches rotary dims ignored in the exponent (head_dim 96), equivalently base 10 instead of 10000 (1 change, residual 1.63e-16)"
check_freqs "--check-freqs $tmp/l3-f16.npy --model llama3-8b" 0 \
    "match: 64 bands within 0.00195 (npy f16) of d 128, base 500000, none"
check_freqs "--check-freqs $tmp/l3f32.npy -d 120 -b 3e5 --rope-scaling llama3 --factor 10 --original-max 5000 --low-freq-factor 0.8 --high-freq-factor 4.5" 0 \
    "match: 60 bands within 9.54e-07 (npy f32) of d 120, base 300000, llama3 s=10 L=5000, in float32 as transformers computes them; residual 0"
check_freqs "--check-freqs $tmp/yarn-linear.npy --model qwen2.5-7b-yarn" 1 \
    "matches linear instead of yarn (factor 4) (1 change, residual 0)"
check_freqs "--check-freqs $tmp/yarn-maxpos.npy --model qwen2.5-7b-yarn" 1 \
    "matches yarn with L = max_position_embeddings 131072 instead of original_max_position_embeddings 32768 (1 change, residual 1.75e-16)"
check_freqs "--check-freqs $tmp/cat.npy --model llama3-8b" 0 \
    "match: 64 bands within 2.38e-07 (npy f32, read as cat(inv, inv)) of d 128, base 500000, none"
check_freqs "--check-freqs $tmp/twice.npy --model llama3-8b" 0 \
    "match: 64 bands within 2.38e-07 (npy f32, read as each value twice) of d 128, base 500000, none"
# two changes at once
check_freqs "--check-freqs $tmp/two.npy --model llama3.1-8b" 1 \
    "matches no scaling (llama3 not applied), and base 10000 instead of 500000 (2 changes, residual 0)"
# GLM's rotary fraction 0.5 missed: 64 values where the settings have 32
check_freqs "--check-freqs $tmp/glm.npy -d 64 -b 1e6" 1 \
    "matches the rotary fraction ignored (d = head_dim 128 instead of 64) (1 change, residual 0)"
check_freqs "--check-freqs $tmp/yarn-paper.npy --model qwen2.5-7b-yarn" 1 \
    "matches yarn with the paper's ramp (linear in rotations, 1 to 32) (1 change, residual 0)"
check_freqs "--check-freqs $tmp/prop.npy -d 64 -b 1e6" 1 \
    "matches proportional RoPE instead of partial rotary (head_dim 256: 32 bands over head_dim, 96 zero) (1 change, residual 5e-08)"
check_freqs "--check-freqs $tmp/bf16.safetensors --model llama3.1-8b" 0 \
    "match: 64 bands within 0.0156 (safetensors inv_freq bf16) of d 128, base 500000, llama3 s=8 L=8192"
check_freqs "--check-freqs $tmp/yarn-nt-f32.npy --model qwen2.5-7b-yarn" 1 \
    "matches yarn with truncate off, and inv_freq computed in float32 as transformers does (2 changes, residual 0)"
# proportional RoPE taken for partial rotary, and the reverse
check_freqs "--check-freqs $tmp/g4-prop.npy --model gemma4-full" 0 \
    "match: 256 bands within 2.38e-07 (npy f32) of d 512, base 1000000, proportional s=1 p=0.25"
check_freqs "--check-freqs $tmp/g4-partial.npy --model gemma4-full" 1 \
    "matches partial rotary instead of proportional RoPE (d = 128 instead of head_dim 512: 64 bands over the rotary dims) (1 change, residual 5.38e-08)"
check_freqs "--check-freqs $tmp/g4-partial.npy -d 512 -b 1e6 --rope-scaling proportional --proportion 0.25" 1 \
    "matches partial rotary instead of proportional RoPE (d = 128 instead of head_dim 512: 64 bands over the rotary dims) (1 change, residual 5.38e-08)"
check_freqs "--check-freqs $tmp/g4-partial-pad.npy --model gemma4-full" 1 \
    "matches partial rotary instead of proportional RoPE (d = 128: 64 bands over the rotary dims, 192 zero), equivalently base 1e+24 instead of 1000000 (1 change, residual 5.38e-08)"
check_freqs "--check-freqs $tmp/g4-all.npy --model gemma4-full" 1 \
    "matches the rotary fraction ignored (all 256 bands turn, proportion 0.25 dropped) (1 change, residual 5.58e-08)"
check_freqs "--check-freqs $tmp/prop256.npy --config $tmp/cfg-hd.json" 1 \
    "matches proportional RoPE instead of partial rotary (head_dim 256: 48 bands over head_dim, 80 zero) (1 change, residual 2.1e-16)"
# head_dim read from --config, given or as hidden_size / num_attention_heads
for c in cfg-hd cfg-hs; do
    check_freqs "--check-freqs $tmp/exp256.npy --config $tmp/$c.json" 1 \
        "matches rotary dims ignored in the exponent (head_dim 256) (1 change, residual 2.1e-16)"
done
# every operation in bf16
check_freqs "--check-freqs $tmp/bf16-ops.npy --model llama3-8b" 1 \
    "matches inv_freq computed in bf16 (1 change, residual 0)"
check_freqs "--check-freqs $tmp/bf16-ops-lin.npy -d 128 -b 1e6 --rope-scaling linear --factor 4" 1 \
    "matches inv_freq computed in bf16 (1 change, residual 0)"
# transformers' float32 llama3 and yarn at 30 random settings each: all accepted
n=0
while read -r f args; do
    eval "set -- $args"
    "$PEVIZ" --check-freqs "$tmp/$f" "$@" >"$tmp/cf.out" 2>&1 || { n=$((n + 1)); echo "  $f $args: $(tail -n 1 "$tmp/cf.out")"; }
done <"$tmp/f32cases"
if [ "$n" = 0 ] && [ "$(wc -l <"$tmp/f32cases")" = 60 ]; then ok
else bad "--check-freqs: $n float32 dumps of transformers' arithmetic rejected"; fi
# ---- --check-cache: cos/sin caches written here, each pairing, width,
# attention factor and offset ---------------------------------------------
cat >"$tmp/caches.py" <<'PY'
import math, struct, sys, json
out = sys.argv[1]
def theta(i, d, b): return 1.0 / b ** (2 * i / d)
def flat(m): return [x for r in m for x in r]
def npy3(name, cos, sin):
    n, w = len(cos), len(cos[0])
    h = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, %d, %d), }" % (n, w)
    h += " " * ((64 - (10 + len(h) + 1) % 64) % 64) + "\n"
    v = flat(cos) + flat(sin)
    open(out + "/" + name, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h))
        + h.encode() + struct.pack("<%df" % len(v), *v))
def st(name, cos, sin, names=("cos", "sin")):
    n, w = len(cos), len(cos[0]); k = 4 * n * w
    hdr = json.dumps({names[0]: {"dtype": "F32", "shape": [1, n, w], "data_offsets": [0, k]},
                      names[1]: {"dtype": "F32", "shape": [1, n, w], "data_offsets": [k, 2 * k]}}).encode()
    open(out + "/" + name, "wb").write(struct.pack("<Q", len(hdr)) + hdr
        + struct.pack("<%df" % (n * w), *flat(cos)) + struct.pack("<%df" % (n * w), *flat(sin)))
# layout: interleaved (2k, 2k+1), half (k, k+W/2), wide (k, k+W/2 with the
# bands past len(om) not rotated)
def cache(om, n, layout, a=1.0, off=0, width=None):
    W = width or 2 * len(om); C, S = [], []
    for p in range(n):
        c, s = [], []
        for j in range(W):
            b = j // 2 if layout == "interleaved" else j % (W // 2)
            if b >= len(om): c.append(1.0); s.append(0.0); continue
            c.append(a * math.cos((p + off) * om[b])); s.append(a * math.sin((p + off) * om[b]))
        C.append(c); S.append(s)
    return C, S
l2 = [theta(i, 128, 1e4) for i in range(64)]
npy3("c-half.npy", *cache(l2, 300, "half"))
npy3("c-inter.npy", *cache(l2, 300, "interleaved"))
npy3("c-off.npy", *cache(l2, 300, "half", off=1))
st("c-half.safetensors", *cache(l2, 300, "half"))
st("c-named.safetensors", *cache(l2, 300, "half"), names=("rc", "rs"))
# qwen2.5-7b-yarn: the attention factor 0.1 ln 4 + 1 folded in, or not
def yarn(d, b, s, L):
    c = lambda r: d * math.log(L / (r * 2 * math.pi)) / (2 * math.log(b))
    lo, hi = max(math.floor(c(32)), 0), min(math.ceil(c(1)), d - 1)
    return [theta(i, d, b) / s * min(max((i - lo) / (hi - lo), 0), 1)
            + theta(i, d, b) * (1 - min(max((i - lo) / (hi - lo), 0), 1)) for i in range(d // 2)]
qy = yarn(128, 1e6, 4, 32768)
npy3("c-yarn.npy", *cache(qy, 200, "half", a=0.1 * math.log(4) + 1))
npy3("c-yarn-noa.npy", *cache(qy, 200, "half"))
npy3("c-yarn-twice.npy", *cache(qy, 200, "half", a=(0.1 * math.log(4) + 1) ** 2))
# 16 rotary dims across a head of 64, paired (k, k+32)
npy3("c-wide.npy", *cache([theta(i, 16, 1e4) for i in range(8)], 100, "wide", width=64))
# M-RoPE, qwen3-vl (interleaved t, h, w 24, 20, 20): the ids of
# text:4, image:8x8 (merge 2: a 4 x 4 grid), text:4, written out here
ids = [(k, k, k) for k in range(4)] + [(4, 4 + b, 4 + c) for b in range(4) for c in range(4)]
ids += [(8 + k, 8 + k, 8 + k) for k in range(4)]
om3 = [5e6 ** (-2 * i / 128) for i in range(64)]
def inter(k): return 1 if k % 3 == 1 and k < 60 else 2 if k % 3 == 2 and k < 60 else 0
def chunk(k): return 0 if k < 24 else 1 if k < 44 else 2
def mcache(axis_of, flat=False):
    C, S = [], []
    for p, idv in enumerate(ids):
        pos = [p if flat else idv[axis_of(j % 64)] for j in range(128)]
        C.append([math.cos(pos[j] * om3[j % 64]) for j in range(128)])
        S.append([math.sin(pos[j] * om3[j % 64]) for j in range(128)])
    return C, S
npy3("m-inter.npy", *mcache(inter))
npy3("m-chunk.npy", *mcache(chunk))
npy3("m-flat.npy", *mcache(inter, flat=True))
npy3("m-odd.npy", *mcache(lambda k: 0 if k < 32 else 2 if k < 48 else 1))
# Gemma 4's proportional layers: 32 bands over head_dim 256, paired
# (k, k+128), the other 96 not rotated
g4 = [1e6 ** (-2 * i / 256) for i in range(32)]
npy3("c-g4.npy", *cache(g4, 64, "wide", width=256))
# malformed caches: sin of another shape; a (3, n, W) .npy
hdr = json.dumps({"cos": {"dtype": "F32", "shape": [2, 4], "data_offsets": [0, 32]},
                  "sin": {"dtype": "F32", "shape": [2, 2], "data_offsets": [32, 48]}}).encode()
open(out + "/c-shapes.safetensors", "wb").write(struct.pack("<Q", len(hdr)) + hdr + bytes(48))
h = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 2, 4), }"
h += " " * ((64 - (10 + len(h) + 1) % 64) % 64) + "\n"
open(out + "/c-three.npy", "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() + bytes(96))
# the frequencies wrong too: llama3.1's cache made by plain linear
# scaling, and a cache of base 10000 for a model of 500000, offset by 1
npy3("c-l31lin.npy", *cache([theta(i, 128, 5e5) / 8 for i in range(64)], 300, "half"))
npy3("c-base-off.npy", *cache([theta(i, 128, 1e4) for i in range(64)], 300, "half", off=1))
open(out + "/c-bad.npy", "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", 6) + b"{}    ")
# past the first 2048 rows (where the variants are sought, every row
# compared): paired (k, k+W/2), one cos and one sin a band and row
def hcache(om, n, off=0):
    C, S = [], []
    for p in range(n):
        c = [math.cos((p + off) * w) for w in om]; s = [math.sin((p + off) * w) for w in om]
        C.append(c + c); S.append(s + s)
    return C, S
far = hcache(l2, 2500)
npy3("c-far.npy", *far)
st("c-far.safetensors", *far)
far[0][2499][5] += 1e-3             # one value wrong, in the last row
npy3("c-far-row.npy", *far)
f32 = struct.unpack("<f", struct.pack("<f", far[0][2499][5]))[0]
open(out + "/c-far-row.want", "w").write("at position 2499, column 5 (expected %.10g, found %.10g)\n"
                                         % (math.cos(2499 * l2[5]), f32))
faroff = hcache(l2, 2500, off=1)
npy3("c-far-off.npy", *faroff)
faroff[1][2499][70] -= 1e-3
npy3("c-far-off-row.npy", *faroff)
# -d 16 -b 500000: the slowest band 26 x 2^-22 fast, a frequency error
# within the tolerance (2^-22 (1 + |angle|)) up to position 3800 or so
o16 = [theta(i, 16, 5e5) for i in range(8)]
o16[7] *= 1 + 26 * 2 ** -22
npy3("c-far-freq.npy", *hcache(o16, 6000))
# M-RoPE: text:2060, image:8x8, text:4, the image past the first 2048
mids = [(k, k, k) for k in range(2060)] + [(2060, 2060 + b, 2060 + c) for b in range(4) for c in range(4)]
mids += [(2064 + k, 2064 + k, 2064 + k) for k in range(4)]
def mfar(flat):
    C, S = [], []
    for p, idv in enumerate(mids):
        ang = [(p if flat else idv[inter(k)]) * om3[k] for k in range(64)]
        c = [math.cos(x) for x in ang]; s = [math.sin(x) for x in ang]
        C.append(c + c); S.append(s + s)
    return C, S
npy3("m-far.npy", *mfar(False))
npy3("m-far-flat.npy", *mfar(True))
PY
python3 "$tmp/caches.py" "$tmp"
check_freqs "--check-cache $tmp/c-half.npy --model llama2-7b" 0 \
    "match: 300 positions x 128 within their tolerance (npy (2, 300, 128) f32) of d 128, base 10000, none, (k, k+W/2) half pairing"
check_freqs "--check-cache $tmp/c-half.safetensors --model llama2-7b" 0 \
    "match: 300 positions x 128 within their tolerance (safetensors cos/sin (300, 128) f32) of d 128, base 10000, none, (k, k+W/2) half pairing"
check_freqs "--check-cache $tmp/c-named.safetensors --tensor rc,rs --model llama2-7b" 0 \
    "match: 300 positions x 128 within their tolerance (safetensors rc/rs (300, 128) f32) of d 128, base 10000, none, (k, k+W/2) half pairing"
check_freqs "--check-cache $tmp/c-inter.npy --model llama2-7b" 1 \
    "matches the (2k, 2k+1) interleaved pairing instead of (k, k+W/2) half (1 change, residual 2.98e-08)"
check_freqs "--check-cache $tmp/c-off.npy --model llama2-7b" 1 \
    "matches positions offset by 1 (1 change, residual 2.98e-08)"
check_freqs "--check-cache $tmp/c-yarn.npy --model qwen2.5-7b-yarn -n 32768" 0 \
    "match: 200 positions x 128 within their tolerance (npy (2, 200, 128) f32) of d 128, base 1000000, yarn s=4 L=32768, (k, k+W/2) half pairing"
check_freqs "--check-cache $tmp/c-yarn-noa.npy --model qwen2.5-7b-yarn -n 32768" 1 \
    "matches the attention factor 1.13863 not folded into cos and sin (1 change, residual 2.98e-08)"
check_freqs "--check-cache $tmp/c-yarn-twice.npy --model qwen2.5-7b-yarn" 1 \
    "matches the attention factor folded in twice (1.29648) (1 change, residual 5.96e-08)"
check_freqs "--check-cache $tmp/c-wide.npy -d 16 --rope-layout half" 1 \
    "matches the (k, k+32) pairing across a head of 64 (1 change, residual 2.97e-08)"
check_freqs "--check-cache $tmp/c-g4.npy -d 64 -b 1e6 --rope-layout half" 1 \
    "matches the (k, k+128) pairing across a head of 256, and proportional (the exponent over head_dim 256, not the 64 rotary dims) (2 changes, residual 2.98e-08)"
check_freqs "--check-cache $tmp/c-l31lin.npy --model llama3.1-8b" 1 \
    "matches frequencies: llama3 applied as plain linear scaling by 8 (1 change, residual 2.98e-08)"
check_freqs "--check-cache $tmp/c-base-off.npy --model llama3-8b" 1 \
    "matches frequencies: base 10000 instead of 500000, and positions offset by 1 (2 changes, residual 2.98e-08)"
seq="--model qwen3-vl --sequence text:4,image:8x8,text:4"
check_freqs "--check-cache $tmp/m-inter.npy $seq" 0 \
    "match: 24 positions x 128 within their tolerance (npy (2, 24, 128) f32) of d 128, base 5000000, none, (k, k+W/2) half pairing"
check_freqs "--check-cache $tmp/m-chunk.npy $seq" 1 \
    "matches the chunked slot map instead of interleaved (1 change, residual 2.98e-08)"
check_freqs "--check-cache $tmp/m-flat.npy $seq" 1 \
    "matches 1-D positions (every slot turning by the token's index, not its t, h, w ids) (1 change, residual 2.98e-08)"
check_freqs "--check-cache $tmp/m-odd.npy $seq" 1 \
    "matches slots t 0-31; h 48-63; w 32-47 (the settings: interleaved t, h, w 24, 20, 20) (1 change, residual 2.98e-08)"
# every row compared: an error past the first 2048 rows is found, and a
# variant is named only when it holds to the last row
check_freqs "--check-cache $tmp/c-far.npy --model llama2-7b" 0 \
    "match: 2500 positions x 128 within their tolerance (npy (2, 2500, 128) f32) of d 128, base 10000, none, (k, k+W/2) half pairing"
check_freqs "--check-cache $tmp/c-far.safetensors --model llama2-7b" 0 \
    "match: 2500 positions x 128 within their tolerance (safetensors cos/sin (2500, 128) f32) of d 128, base 10000, none, (k, k+W/2) half pairing"
check_freqs "--check-cache $tmp/c-far-row.npy --model llama2-7b" 1 \
    "no known variant reproduces it"
if [ "$(head -n 1 "$tmp/cf.out" | sed 's/.*worst difference [^ ]* //')" = "$(cat "$tmp/c-far-row.want")" ]; then ok
else bad "--check-cache c-far-row.npy: '$(head -n 1 "$tmp/cf.out")', want '... $(cat "$tmp/c-far-row.want")'"; fi
check_freqs "--check-cache $tmp/c-far-off.npy --model llama2-7b" 1 \
    "matches positions offset by 1 (1 change, residual 2.98e-08)"
check_freqs "--check-cache $tmp/c-far-off-row.npy --model llama2-7b" 1 \
    "no known variant reproduces it"
check_freqs "--check-cache $tmp/c-far-freq.npy -d 16 -b 500000 --rope-layout half" 1 \
    "no known variant reproduces it"
pos=$(head -n 1 "$tmp/cf.out" | sed -n 's/^differs: 6000 positions x 16 (npy (2, 6000, 16) f32) from d 16, base 500000, none, (k, k+W\/2) half pairing; worst difference [^ ]* at position \([0-9]*\), column [0-9]* .*/\1/p')
if [ -n "$pos" ] && [ "$pos" -ge 2048 ]; then ok
else bad "--check-cache c-far-freq.npy: '$(head -n 1 "$tmp/cf.out")', want a worst position past 2047"; fi
seq="--model qwen3-vl --sequence text:2060,image:8x8,text:4"
check_freqs "--check-cache $tmp/m-far.npy $seq" 0 \
    "match: 2080 positions x 128 within their tolerance (npy (2, 2080, 128) f32) of d 128, base 5000000, none, (k, k+W/2) half pairing"
check_freqs "--check-cache $tmp/m-far-flat.npy $seq" 1 \
    "matches 1-D positions (every slot turning by the token's index, not its t, h, w ids) (1 change, residual 2.98e-08)"
for f in c-bad.npy nope.npy qwen-ok.npy c-shapes.safetensors c-three.npy "c-half.safetensors --tensor cos" "c-half.npy --tensor cos,sin"; do
    eval "set -- $tmp/$f"
    "$PEVIZ" --check-cache "$@" --model llama2-7b >"$tmp/cf.out" 2>"$tmp/cf.err"
    r=$?
    if [ "$r" = 2 ] && [ ! -s "$tmp/cf.out" ] && [ "$(wc -l <"$tmp/cf.err")" = 1 ]; then ok
    else bad "--check-cache $f: exit $r, $(head -c 200 "$tmp/cf.err")"; fi
done
# one line per differing band: band, expected, found, relative error
"$PEVIZ" --check-freqs "$tmp/qwen-notrunc.npy" --model qwen2.5-7b-yarn >"$tmp/cf.out"
if grep -q '^band 39: expected 6.490394321e-05, found 6.187806812e-05, relative error 0.0466$' "$tmp/cf.out" &&
   [ "$(grep -c '^band ' "$tmp/cf.out")" = 16 ]; then ok
else bad "--check-freqs band lines: $(head -c 300 "$tmp/cf.out")"; fi
# malformed: exit 2, one line on stderr, nothing on stdout
for f in bad.csv nope.npy; do
    "$PEVIZ" --check-freqs "$tmp/$f" --model llama3.1-8b >"$tmp/cf.out" 2>"$tmp/cf.err"
    r=$?
    if [ "$r" = 2 ] && [ ! -s "$tmp/cf.out" ] && [ "$(wc -l <"$tmp/cf.err")" = 1 ]; then ok
    else bad "--check-freqs $f: exit $r, $(head -c 200 "$tmp/cf.err")"; fi
done
"$PEVIZ" --check-freqs "$tmp/qwen-ok.npy" --model llama3.1-8b -d 64 >"$tmp/cf.out" 2>"$tmp/cf.err"
if [ $? = 2 ] && grep -q "64 values; the settings have d/2 = 32 bands" "$tmp/cf.err"; then ok
else bad "--check-freqs with the wrong d: $(cat "$tmp/cf.err")"; fi

check_all
echo "rope: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
