#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The config shapes of current models, read as transformers reads them:
# v5 rope_parameters with the keys inside, keyed by layer type (Gemma's
# sliding_attention / full_attention, DeepSeek V4's main / compress), a
# null entry (a layer without RoPE), the "type" alias, rope_theta null
# beside nested keys, and the older v4 shape; --export freqs against
# omega evaluated here, the status line naming the layer type in force.
set -u
: "${PEVIZ:=./peviz}"
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
pass=0 fail=0
tmp=$(mktemp -d /tmp/peviz-models.XXXXXX); trap 'rm -rf "$tmp"' EXIT
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

if ! command -v python3 >/dev/null; then
    echo "models: python3 is needed"; echo "models: 0 passed, 1 failed"; exit 1
fi

# freqs FILE D BASE DIV: the lines i,omega,wavelength of d rotary dims,
# omega_i = BASE^(-2i/D) / DIV, compared with the 9 digits printed
freqs() {
    python3 - "$@" <<'PY'
import math, sys
f, d, base, div = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
got = [l.split(",") for l in open(f).read().split()]
ok = len(got) == d // 2
for i, g in enumerate(got):
    w = base ** (-2 * i / d) / div
    ok = ok and int(g[0]) == i and abs(float(g[1]) - w) <= 6e-9 * w   # %.9g
sys.exit(0 if ok else 1)
PY
}

# check NAME CONFIG-TEXT LAYER D BASE DIV: --export freqs of the layer type
check() {
    local name=$1 text=$2 layer=$3; shift 3
    printf '%s' "$text" >"$tmp/$name.json"
    local lt=(); [ -n "$layer" ] && lt=(--layer-type "$layer")
    "$PEVIZ" --config "$tmp/$name.json" "${lt[@]}" --export freqs >"$tmp/f" 2>"$tmp/err"
    if freqs "$tmp/f" "$@"; then ok
    else bad "$name ${layer:-(first)}: $(head -c 200 "$tmp/err") $(head -c 100 "$tmp/f")"; fi
}

# v5, the keys inside rope_parameters, partial rotary 0.5 of head_dim 96
V5='{"head_dim": 96, "max_position_embeddings": 8192,
 "rope_parameters": {"rope_type": "default", "rope_theta": 31337.0, "partial_rotary_factor": 0.5}}'
check v5 "$V5" "" 48 31337 1

# keyed by layer type, a null entry, rope_theta null beside them, the
# "type" alias inside an entry
G='{"head_dim": 64, "max_position_embeddings": 65536, "rope_theta": null,
 "layer_types": ["sliding_attention", "sliding_attention", "full_attention", "nope_attention"],
 "rope_parameters": {"rope_theta": null,
   "sliding_attention": {"rope_type": "default", "rope_theta": 12345.0},
   "full_attention": {"type": "linear", "factor": 6.0, "rope_theta": 777777.0},
   "nope_attention": null}}'
check layers "$G" "" 64 12345 1
check layers "$G" sliding_attention 64 12345 1
check layers "$G" full_attention 64 777777 6

# DeepSeek V4's labels; an entry without partial_rotary_factor turns the
# whole head_dim (its rotary embedding's default 1.0, not the class's
# 64/512, which the class writes into the entries it makes)
V4='{"model_type": "deepseek_v4", "head_dim": 128, "max_position_embeddings": 4096,
 "rope_parameters": {"main": {"rope_type": "default", "rope_theta": 20000.0},
                     "compress": {"rope_type": "default", "rope_theta": 90000.0}}}'
check v4labels "$V4" main 128 20000 1
check v4labels "$V4" compress 128 90000 1
V4P=${V4//'"rope_type": "default",'/'"rope_type": "default", "partial_rotary_factor": 0.5,'}
check v4labels "$V4P" main 64 20000 1
check v4labels "$V4P" compress 64 90000 1

# the older shape reads as before: rope_theta + rope_scaling, "type"
OLD='{"hidden_size": 2048, "num_attention_heads": 16, "max_position_embeddings": 4096,
 "rope_theta": 5555.0, "rope_scaling": {"type": "linear", "factor": 3.0}}'
check old "$OLD" "" 128 5555 3

# a null entry: a layer without RoPE, whose scores with ones are 0, and
# with a real q and k are q.k (no rotation)
"$PEVIZ" --config "$tmp/layers.json" --layer-type nope_attention --export scores -n 5 >"$tmp/s" 2>"$tmp/err"
if [ -s "$tmp/s" ] && ! grep -q '[1-9]' "$tmp/s"; then ok
else bad "null layer type: scores not 0: $(head -c 200 "$tmp/err") $(head -c 80 "$tmp/s")"; fi

# the status line names the layer type in force, the first with RoPE
# without --layer-type
for lt in "" full_attention nope_attention; do
    want=${lt:-sliding_attention}
    args=(); [ -n "$lt" ] && args=(--layer-type "$lt")
    "$PEVIZ" --config "$tmp/layers.json" "${args[@]}" --snapshot --size 120x6 --view clocks \
        >"$tmp/snap" 2>"$tmp/err"
    if tail -1 "$tmp/snap" | grep -q "layers.json $want"; then ok
    else bad "status line without layer type $want: $(tail -1 "$tmp/snap") $(cat "$tmp/err")"; fi
done

# refusals: a layer type the file does not have names the ones it has
"$PEVIZ" --config "$tmp/layers.json" --layer-type rope_theta --export freqs >"$tmp/o" 2>"$tmp/err"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$tmp/o" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
   grep -q "sliding_attention, full_attention, nope_attention" "$tmp/err"; then ok
else bad "--layer-type rope_theta: rc=$rc $(cat "$tmp/err")"; fi

# ---- proportional RoPE (Gemma 4), as transformers' proportional type:
# live = int(p * head_dim // 2) bands at theta^(-2i/head_dim) over the
# whole head dim, the rest 0, all divided by the factor; a Gemma 4
# full_attention layer takes global_head_dim
prop() {    # FREQS-FILE HEAD-DIM P THETA FACTOR
    python3 - "$@" <<'PY'
import sys
f, hd, p, th, s = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
live = int(p * hd // 2)
got = [l.split(",") for l in open(f).read().split()]
ok = len(got) == hd // 2
for i, g in enumerate(got):
    w = th ** (-2 * i / hd) / s if i < live else 0.0
    ok = ok and abs(float(g[1]) - w) <= 6e-9 * w if w else ok and float(g[1]) == 0.0
sys.exit(0 if ok else 1)
PY
}
P4='{"model_type": "gemma4_text", "head_dim": 96, "global_head_dim": 160, "max_position_embeddings": 32768,
 "rope_parameters": {"sliding_attention": {"rope_type": "default", "rope_theta": 4321.0},
   "full_attention": {"rope_type": "proportional", "partial_rotary_factor": 0.3, "rope_theta": 54321.0, "factor": 3.0}}}'
printf '%s' "$P4" >"$tmp/p4.json"
"$PEVIZ" --config "$tmp/p4.json" --layer-type full_attention --export freqs >"$tmp/f" 2>"$tmp/err"
if prop "$tmp/f" 160 0.3 54321 3; then ok; else bad "proportional full_attention: $(cat "$tmp/err") $(head -c 100 "$tmp/f")"; fi
check p4 "$P4" sliding_attention 96 4321 1
# the same on the command line, and without a factor
"$PEVIZ" -d 96 -b 777 --rope-scaling proportional --proportion 0.41 --export freqs >"$tmp/f" 2>"$tmp/err"
if prop "$tmp/f" 96 0.41 777 1; then ok; else bad "--rope-scaling proportional: $(cat "$tmp/err")"; fi
# scores: each still band adds 2 (q = k = ones) to every score
"$PEVIZ" -d 32 -b 999 --rope-scaling proportional --proportion 0.5 --factor 2 --scheme rope --export scores -n 9 \
    >"$tmp/s" 2>"$tmp/err"
python3 - "$tmp/s" <<'PY' && ok || bad "proportional scores: $(cat "$tmp/err")"
import math, sys
rows = [list(map(float, l.split(","))) for l in open(sys.argv[1]).read().split()]
w = [999 ** (-2 * k / 32) / 2 if k < 8 else 0.0 for k in range(16)]
ok = len(rows) == 9
for i, r in enumerate(rows):
    for j, v in enumerate(r):
        want = sum(2 * math.cos((i - j) * x) for x in w)
        ok = ok and abs(v - want) <= 1e-8 * abs(want)
sys.exit(0 if ok else 1)
PY
# the still bands are named so in the plan
"$PEVIZ" --config "$tmp/p4.json" --layer-type full_attention --export bands >"$tmp/b" 2>&1
if [ "$(grep -c ',still,[^,]*,0,inf,0$' "$tmp/b")" -eq $((80 - 24)) ]; then ok
else bad "proportional bands: $(grep -c still "$tmp/b") still bands"; fi

# ---- model-class defaults: glm4_moe's class sets partial_rotary_factor
# 0.5 when config.json is silent (Glm4MoeConfig), and the screen says so;
# a value in the file wins
GLM='{"model_type": "glm4_moe", "hidden_size": 5120, "num_attention_heads": 40, "head_dim": 112,
 "rope_theta": 876543.0, "max_position_embeddings": 65536}'
check glm "$GLM" "" 56 876543 1
"$PEVIZ" --config "$tmp/glm.json" --snapshot --view clocks --size 160x5 >"$tmp/snap" 2>&1
if tail -1 "$tmp/snap" | grep -q "rotary 0.5 (glm4_moe class default)"; then ok
else bad "class default not named: $(tail -1 "$tmp/snap")"; fi
check glm1 '{"model_type": "glm4_moe", "head_dim": 112, "partial_rotary_factor": 0.75, "rope_theta": 5000.0}' "" 84 5000 1
"$PEVIZ" --config "$tmp/glm1.json" --snapshot --view clocks --size 160x5 >"$tmp/snap" 2>&1
if ! tail -1 "$tmp/snap" | grep -q "class default"; then ok
else bad "a file's own factor named as a class default"; fi

# DeepSeek V4 without per-label entries, as its published config.json
# (transformers' DeepseekV4Config builds the labels): main is default
# RoPE at rope_theta, compress the file's scaling at compress_rope_theta;
# the class's head_dim 512 x 64/512 and compress_rope_theta 160000 when
# the file is silent, each named on the status line
V4L='{"model_type": "deepseek_v4", "qk_rope_head_dim": 48, "head_dim": 384,
 "rope_theta": 23456.0, "compress_rope_theta": 345678.0,
 "rope_scaling": {"type": "linear", "factor": 3.0}}'
check v4legacy "$V4L" "" 48 23456 1
check v4legacy "$V4L" main 48 23456 1
check v4legacy "$V4L" compress 48 345678 3
V4D='{"model_type": "deepseek_v4", "hidden_size": 4096, "num_attention_heads": 64,
 "rope_parameters": {"rope_theta": 31000.0}}'
check v4class "$V4D" main 64 31000 1
check v4class "$V4D" compress 64 160000 1
"$PEVIZ" --config "$tmp/v4class.json" --layer-type compress --snapshot --view clocks --size 300x5 >"$tmp/snap" 2>&1
for want in "compress, compress_rope_theta 160000, head_dim 512, rotary 0.125 (deepseek_v4 class defaults)"; do
    if tail -1 "$tmp/snap" | grep -qF "$want"; then ok; else bad "V4 status line lacks '$want': $(tail -1 "$tmp/snap")"; fi
done
if "$PEVIZ" --config "$tmp/v4class.json" --layer-type full_attention --export freqs >/dev/null 2>"$tmp/err"; then
    bad "V4: an unknown layer type accepted"
elif grep -q "main, compress" "$tmp/err"; then ok; else bad "V4 unknown layer: $(cat "$tmp/err")"; fi
# compress with yarn: attention_factor 1.0 (the class sets it), so
# S(0,0) = d with ones; the same file under another model_type is a^2 d
V4Y='{"model_type": "deepseek_v4", "qk_rope_head_dim": 64, "rope_theta": 10000.0,
 "compress_rope_theta": 160000.0, "rope_scaling": {"type": "yarn", "factor": 16.0,
 "original_max_position_embeddings": 65536, "beta_fast": 32, "beta_slow": 1}}'
printf '%s' "$V4Y" >"$tmp/v4y.json"
printf '%s' "${V4Y/deepseek_v4/other}" >"$tmp/v4o.json"
a=$("$PEVIZ" --config "$tmp/v4y.json" --layer-type compress --export scores --scheme rope -n 1 2>&1)
o=$("$PEVIZ" --config "$tmp/v4o.json" --export scores --scheme rope -n 1 2>&1)
if [ "$a" = 64 ] && awk -v o="$o" 'BEGIN { m = 0.1 * log(16) + 1; exit !(o + 0 > 64 * m * m - 1e-4 && o + 0 < 64 * m * m + 1e-4) }'
then ok; else bad "V4 compress yarn S(0,0) $a (want 64), other $o"; fi
# V4 pairs consecutive channels (its interleaved RoPE): q = e0, k = e1 at
# d 4, base 1e4, make S(1,0) = sin(omega_0 * 1) = sin 1; half pairs (0, 2)
# and (1, 3), where the same q and k give 0
printf '1,0,0,0\n0,1,0,0\n' >"$tmp/qk4.csv"
printf '%s' '{"model_type": "deepseek_v4", "qk_rope_head_dim": 4, "rope_theta": 10000.0}' >"$tmp/v4q.json"
"$PEVIZ" --config "$tmp/v4q.json" --qk "$tmp/qk4.csv" --export scores -n 2 >"$tmp/s" 2>&1
if awk -F, 'NR == 2 { v = $1 } END { exit !(v != "" && v - sin(1) < 1e-8 && sin(1) - v < 1e-8) }' "$tmp/s"
then ok; else bad "V4 pairs not interleaved: $(tr '\n' ' ' <"$tmp/s")"; fi

# ---- presets against their published configs ----------------------------
# each preset's --export freqs equals that of the config.json it names
# (numbers of the published file, the model card's YaRN block for Qwen3)
preset() {  # NAME CONFIG-TEXT
    printf '%s' "$2" >"$tmp/pre.json"
    "$PEVIZ" --model "$1" --export freqs >"$tmp/a" 2>&1
    "$PEVIZ" --config "$tmp/pre.json" --export freqs >"$tmp/b" 2>&1
    if [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; then ok
    else bad "preset $1 differs from its config: $(head -c 120 "$tmp/a") / $(head -c 120 "$tmp/b")"; fi
}
preset qwen3-8b-yarn '{"model_type": "qwen3", "head_dim": 128, "hidden_size": 4096,
 "num_attention_heads": 32, "rope_theta": 1000000, "max_position_embeddings": 40960,
 "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}'
preset glm-4.5-air '{"model_type": "glm4_moe", "head_dim": 128, "hidden_size": 4096,
 "num_attention_heads": 96, "partial_rotary_factor": 0.5, "rope_theta": 1000000,
 "rope_scaling": null, "max_position_embeddings": 131072}'
# Gemma 4's text config as transformers 5 writes it: settings left beside
# the per-layer entries ("rope_theta": null, "rope_type": "default")
G4='{"model_type": "gemma4_text", "head_dim": 256, "global_head_dim": 512,
 "max_position_embeddings": 131072, "sliding_window": 1024,
 "rope_parameters": {
   "full_attention": {"partial_rotary_factor": 0.25, "rope_type": "proportional", "rope_theta": 1000000},
   "sliding_attention": {"rope_type": "default", "rope_theta": 10000},
   "rope_theta": null, "rope_type": "default"}}'
printf '%s' "$G4" >"$tmp/g4.json"
# Gemma 3's config.json (v4: rope_local_base_freq for its sliding layers)
printf '%s' '{"model_type": "gemma3_text", "head_dim": 256, "rope_theta": 1000000.0,
 "rope_local_base_freq": 10000.0, "max_position_embeddings": 131072,
 "rope_scaling": {"rope_type": "linear", "factor": 8.0}}' >"$tmp/g3.json"
# --model list's layers column: the preset's layer type first, then the
# model's others; the first read from the model's config equals the
# preset, and every other one is a layer type the config has
"$PEVIZ" --model list | awk 'NR == 1 { c = index($0, " layers ") + 1; next }
    c > 1 { split(substr($0, c), w, " "); if (w[1] != "-") print $1, w[1] }' >"$tmp/layers"
n=0
while read -r m types; do
    case $m in gemma4-*) cf=$tmp/g4.json ;; gemma3-*) cf=$tmp/g3.json ;; *) continue ;; esac
    n=$((n + 1)); first=${types%%,*}
    "$PEVIZ" --model "$m" --export freqs >"$tmp/a" 2>&1
    "$PEVIZ" --config "$cf" --layer-type "$first" --export freqs >"$tmp/b" 2>&1
    if [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; then ok
    else bad "preset $m differs from its config's $first: $(head -c 120 "$tmp/b")"; fi
    for lt in ${types//,/ }; do
        if "$PEVIZ" --config "$cf" --layer-type "$lt" --export freqs >/dev/null 2>"$tmp/err"
        then ok; else bad "$m names layer type $lt its config lacks: $(cat "$tmp/err")"; fi
    done
done <"$tmp/layers"
g=$("$PEVIZ" --model list | grep -c '^gemma')
[ "$n" -gt 0 ] && [ "$n" -eq "$g" ] && ok || bad "--model list names layer types for $n of $g Gemma presets"
if grep -q "^llama4-scout rope,nope$" "$tmp/layers"; then ok
else bad "llama4-scout's layers not rope,nope: $(grep llama4 "$tmp/layers")"; fi
"$PEVIZ" --config "$tmp/g4.json" --layer-type full_attention --export freqs >"$tmp/f" 2>&1
if prop "$tmp/f" 512 0.25 1000000 1; then ok; else bad "Gemma 4 full_attention: $(head -c 100 "$tmp/f")"; fi
K25='{"model_type": "kimi_k25", "text_config": {"architectures": ["DeepseekV3ForCausalLM"],
 "model_type": "deepseek_v3", "max_position_embeddings": 262144, "qk_rope_head_dim": 64,
 "hidden_size": 7168, "num_attention_heads": 64,
 "rope_parameters": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 64.0, "mscale": 1.0,
   "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096, "rope_theta": 50000.0,
   "rope_type": "yarn", "type": "yarn"}, "rope_theta": 50000.0}}'
preset kimi-k2.5 "$K25"
"$PEVIZ" --model kimi-k2.5 --export scores -n 6 >"$tmp/a" 2>&1
"$PEVIZ" --config "$tmp/pre.json" --export scores -n 6 >"$tmp/b" 2>&1
if [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; then ok; else bad "kimi-k2.5 scores differ from its config's"; fi
V32='{"architectures": ["DeepseekV32ForCausalLM"], "model_type": "deepseek_v32",
 "qk_rope_head_dim": 64, "rope_theta": 10000.0, "max_position_embeddings": 163840,
 "rope_scaling": {"rope_type": "yarn", "factor": 40, "original_max_position_embeddings": 4096,
   "beta_fast": 32, "beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 1.0}}'
preset deepseek-v3.2 "$V32"
"$PEVIZ" --model deepseek-v3.2 --export scores -n 6 >"$tmp/a" 2>&1
"$PEVIZ" --config "$tmp/pre.json" --export scores -n 6 >"$tmp/b" 2>&1
if [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; then ok; else bad "deepseek-v3.2 scores differ from its config's"; fi
Q35='{"model_type": "qwen3_5", "text_config": {"head_dim": 256, "hidden_size": 1024,
 "num_attention_heads": 8, "full_attention_interval": 4, "max_position_embeddings": 262144,
 "rope_parameters": {"mrope_interleaved": true, "mrope_section": [11, 11, 10],
   "partial_rotary_factor": 0.25, "rope_theta": 10000000, "rope_type": "default"}},
 "vision_config": {"spatial_merge_size": 2}}'
preset qwen3.5 "$Q35"
"$PEVIZ" --model qwen3.5 --sequence text:3,image:4x4,text:2 --export scores >"$tmp/a" 2>&1
"$PEVIZ" --config "$tmp/pre.json" --sequence text:3,image:4x4,text:2 --export scores >"$tmp/b" 2>&1
if [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; then ok; else bad "qwen3.5 M-RoPE scores differ from its config's: $(head -c 150 "$tmp/a")"; fi
"$PEVIZ" --model glm-4.5-air --export freqs >"$tmp/f" 2>&1
if freqs "$tmp/f" 64 1000000 1; then ok; else bad "glm-4.5-air: not 1e6^(-2i/64)"; fi

# ---- LongRoPE presets (Phi-3.5-mini, Phi-4-mini) -------------------------
# their published config.json files (the rope fields), the preset's
# frequencies and scores against LongRoPE evaluated here from the same
# lists: omega_i = theta^(-2i/d) / f_i, f = long_factor when n > L, else
# short_factor; a^2 = 1 + ln(s) / ln(L), s = max_position / L
PHI35='{"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32,
 "max_position_embeddings": 131072, "original_max_position_embeddings": 4096,
 "rope_theta": 10000.0, "rope_scaling": {"type": "longrope", "long_factor": [
 1.0800000429153442, 1.1100000143051147, 1.1399999856948853, 1.340000033378601,
 1.5899999141693115, 1.600000023841858, 1.6200000047683716, 2.620000123977661,
 3.2300000190734863, 3.2300000190734863, 4.789999961853027, 7.400000095367432,
 7.700000286102295, 9.09000015258789, 12.199999809265137, 17.670000076293945,
 24.46000099182129, 28.57000160217285, 30.420001983642578, 30.840002059936523,
 32.590003967285156, 32.93000411987305, 42.320003509521484, 44.96000289916992,
 50.340003967285156, 50.45000457763672, 57.55000305175781, 57.93000411987305,
 58.21000289916992, 60.1400032043457, 62.61000442504883, 62.62000274658203,
 62.71000289916992, 63.1400032043457, 63.1400032043457, 63.77000427246094,
 63.93000411987305, 63.96000289916992, 63.970001220703125, 64.02999877929688,
 64.06999969482422, 64.08000183105469, 64.12000274658203, 64.41000366210938,
 64.4800033569336, 64.51000213623047, 64.52999877929688, 64.83999633789062],
 "short_factor": [
 1.0, 1.0199999809265137, 1.0299999713897705, 1.0299999713897705,
 1.0499999523162842, 1.0499999523162842, 1.0499999523162842, 1.0499999523162842,
 1.0499999523162842, 1.0699999332427979, 1.0999999046325684, 1.1099998950958252,
 1.1599998474121094, 1.1599998474121094, 1.1699998378753662, 1.2899998426437378,
 1.339999794960022, 1.679999828338623, 1.7899998426437378, 1.8199998140335083,
 1.8499997854232788, 1.8799997568130493, 1.9099997282028198, 1.9399996995925903,
 1.9899996519088745, 2.0199997425079346, 2.0199997425079346, 2.0199997425079346,
 2.0199997425079346, 2.0199997425079346, 2.0199997425079346, 2.0299997329711914,
 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
 2.0299997329711914, 2.0299997329711914, 2.0299997329711914, 2.0299997329711914,
 2.0799996852874756, 2.0899996757507324, 2.189999580383301, 2.2199995517730713,
 2.5899994373321533, 2.729999542236328, 2.749999523162842, 2.8399994373321533]}}'
PHI4='{"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 24,
 "partial_rotary_factor": 0.75, "max_position_embeddings": 131072,
 "original_max_position_embeddings": 4096, "rope_theta": 10000.0,
 "rope_scaling": {"type": "longrope", "long_factor": [
 1, 1.118320672, 1.250641126, 1.398617824, 1.564103225, 1.74916897, 1.956131817,
 2.187582649, 2.446418898, 2.735880826, 3.059592084, 3.421605075, 3.826451687,
 4.279200023, 4.785517845, 5.351743533, 5.984965424, 6.693110555, 7.485043894,
 8.370679318, 9.36110372, 10.4687158, 11.70738129, 13.09260651, 14.64173252,
 16.37415215, 18.31155283, 20.47818807, 22.90118105, 25.61086418, 28.64115884,
 32.03, 32.1, 32.13, 32.23, 32.6, 32.61, 32.64, 32.66, 32.7, 32.71, 32.93, 32.97,
 33.28, 33.49, 33.5, 44.16, 47.77],
 "short_factor": [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
 1.0, 1.0, 1.0, 1.0]}}'
# longrope CONFIG-FILE N KIND FILE: KIND freqs (i,omega,wavelength lines)
# or score (the row --rows R..R at n = N, R = N - 1 ... given as N:R)
longrope() {
    python3 - "$@" <<'PY'
import json, math, sys
cf, n, kind, out = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
c = json.load(open(cf)); rs = c["rope_scaling"]
n, row = (int(x) for x in n.split(":")) if ":" in n else (int(n), None)
hd = c["hidden_size"] // c["num_attention_heads"]
d = int(hd * c.get("partial_rotary_factor", 1.0))
L = c["original_max_position_embeddings"]; th = c["rope_theta"]
f = rs["long_factor"] if n > L else rs["short_factor"]
w = [th ** (-2 * i / d) / f[i] for i in range(d // 2)]
a2 = 1 + math.log(c["max_position_embeddings"] / L) / math.log(L)
got = open(out).read().split()
if kind == "freqs":
    got = [g.split(",") for g in got]
    ok = len(got) == d // 2 and all(int(g[0]) == i and
         abs(float(g[1]) - w[i]) <= 6e-9 * w[i] for i, g in enumerate(got))
else:
    s = [float(x) for x in got[0].split(",")][:6000]
    want = [a2 * sum(2 * math.cos((row - j) * x) for x in w) for j in range(len(s))]
    ok = len(s) == min(n, 6000) and all(abs(g - v) <= 1e-6 for g, v in zip(s, want))
sys.exit(0 if ok else 1)
PY
}
for m in phi-3.5-mini:PHI35 phi-4-mini:PHI4; do
    name=${m%%:*} v=${m##*:}; text=${!v}
    preset "$name" "$text"
    printf '%s' "$text" >"$tmp/$name.json"
    for n in 131072 4096; do
        "$PEVIZ" --model "$name" -n $n --export freqs >"$tmp/f" 2>&1
        if longrope "$tmp/$name.json" $n freqs "$tmp/f"; then ok
        else bad "$name -n $n: not LongRoPE of its lists: $(head -c 100 "$tmp/f")"; fi
    done
    for nr in 131072:5000 4096:4095; do
        "$PEVIZ" --model "$name" -n ${nr%:*} --export scores --rows ${nr#*:}..${nr#*:} >"$tmp/s" 2>&1
        if longrope "$tmp/$name.json" $nr score "$tmp/s"; then ok
        else bad "$name scores row ${nr#*:} at n ${nr%:*}: $(head -c 100 "$tmp/s")"; fi
    done
done

echo "models: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
