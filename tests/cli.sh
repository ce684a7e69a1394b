#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The command-line contract: bad input exits 2 with one stderr line and
# an empty stdout; --help/--version exit 0; --export matches an
# independent evaluation of the formulas.
set -u
: "${PEVIZ:=./peviz}"
# Under a sanitizer build this suite starts the program hundreds of
# times, and LeakSanitizer's scan at each exit doubles what a start
# costs, so here the sanitizers look for memory errors alone; leaks on
# the same paths are valgrind.sh's (models, a config file, refusals)
# and the fuzzers' to find.
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
pass=0 fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# Each line: arguments that must be refused (exit 2, one stderr line, no stdout).
while IFS= read -r args; do
    [ -z "$args" ] && continue
    eval "set -- $args"
    "$PEVIZ" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; rc=$?
    mapfile err <"$tmp/err"     # one whole line, "peviz: ...", read in the shell
    if [ $rc -eq 2 ] && [ ${#err[@]} -eq 1 ] && [[ ${err[0]} == 'peviz: '*$'\n' ]] &&
       [ ! -s "$tmp/out" ]; then ok
    else bad "peviz $args: rc=$rc stderr=$(head -c 200 "$tmp/err") stdout=$(head -c 80 "$tmp/out")"; fi
done <<'TABLE'
-d 7 --export pe
-d 0 --export pe
-d -4 --export pe
-d 131072 --export pe
-d 99999999999999999999999 --export pe
-d 8.0 --export pe
-d 12abc --export pe
-d '' --export pe
-b 1 --export pe
-b 0 --export pe
-b -5 --export pe
-b nan --export pe
-b inf --export pe
-b 1e400 --export pe
-b 0x10 --export pe
-b 10000x --export pe
-b '' --export pe
-n 0 --export pe
-n 16777217 --export pe
-n -1 --export pe
-n 5x --export pe
--pos 8 -n 8 --export pe
--pos -1 --export pe
-d
--base
--export
--export nonsense
--view nowhere --snapshot
--scheme wrong --export scores
--color 17 --snapshot
--format bmp --snapshot
--format png --snapshot --scale 9
--format png --snapshot --scale 0
--format png --snapshot --scale 2x
--scale 2 --snapshot
--scale 2 --format svg --snapshot
--scale 2 --export pe
--format png --snapshot --size 1000x1000 --scale 8
--graphics sixels
--graphics ''
--graphics kitty --graphics bogus
--format svg --export pe
--size 80 --snapshot
--size 0x10 --snapshot
--size 80x24x3 --snapshot
--fps 0
--palette rainbow --snapshot
--no-such-option
stray-argument
-d 4096 -n 1048576 --export pe
--export pe --snapshot
--snapshot --export scores
--export pe --export softmax
--tour=/nonexistent --export pe
--tour /nonexistent --export scores
--heads 0 --export scores
--heads 129 --export scores
--head 0 --export scores
--head 9 --export scores
--heads 4 --head 5 --export scores
--head 5 --heads 4 --export scores
--q two --export scores
--seed -1 --export scores
--seed 4294967296 --export scores
--seed 1.5 --snapshot
--train 129 --export scores
--train 9 -n 8 --snapshot
--train -1 --export scores
--tensor inv_freq --export pe
--check-freqs /nonexistent/inv_freq.npy
--check-freqs /dev/null
--check-freqs a.npy --pe-file b.npy
--check-freqs a.npy --export freqs
--check-freqs a.npy --snapshot
--check-freqs
--check-cache /nonexistent/cache.npy
--check-cache /dev/null
--check-cache a.npy --pe-file b.npy
--check-cache a.npy --check-freqs b.npy
--check-cache
--rows 3..2 --export pe
--rows 8..8 -n 8 --export pe
--rows 0..16777216 --export pe
--rows -1..2 --export pe
--rows 1-2 --export pe
--rows 1.. --export pe
--rows ..2 --export pe
--rows 0..1 --export freqs
--rows 0..1 --export pca
--rows 0..1 --snapshot
--rows 0..1
--rows 0..1 --export scores --grid 2x2
--rows 0..100 --pe-file tests/data/small-table.csv --export pe
TABLE

# Exit 0 and output on stdout for --help and --version; help lists every key label.
"$PEVIZ" --help >"$tmp/help" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && grep -q -- '--d-model' "$tmp/help" && [ ! -s "$tmp/err" ] && ok || bad "--help rc=$rc"
"$PEVIZ" --version >"$tmp/ver" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^peviz [0-9]' "$tmp/ver" && ok || bad "--version rc=$rc"
# ... and exit 1 with one line when stdout cannot take it.
for opt in --help --version; do
    if [ -w /dev/full ]; then
        "$PEVIZ" $opt >/dev/full 2>"$tmp/err"; rc=$?
        [ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^peviz: $opt: .*write" "$tmp/err" &&
            ok || bad "$opt into /dev/full: rc=$rc $(cat "$tmp/err")"
    fi
    "$PEVIZ" $opt >&- 2>"$tmp/err"; rc=$?
    [ $rc -eq 1 ] && grep -q "^peviz: $opt: .*write" "$tmp/err" && ok || bad "$opt with stdout closed: rc=$rc"
done
# A file-size limit: the export reports the failed write (exit 2), it is
# not killed by SIGXFSZ (exit 153).
(ulimit -f 1; exec "$PEVIZ" --export pe -d 64 -n 1000 >"$tmp/big.csv" 2>"$tmp/err"); rc=$?
[ $rc -eq 2 ] && grep -q '^peviz: --export: write error' "$tmp/err" && ok || bad "export over ulimit -f: rc=$rc $(cat "$tmp/err")"
# --help wins over everything else, in either order.
"$PEVIZ" --export pe --help >"$tmp/help" 2>"$tmp/err" && grep -q -- '--d-model' "$tmp/help" && ok || bad "--export pe --help"

# The refusal message names the value and the range.
"$PEVIZ" -d 7 --export pe 2>"$tmp/err" >/dev/null
grep -q "^peviz: -d/--d-model 7: wants an even number 2\.\.65536$" "$tmp/err" && ok || bad "d_model message: $(cat "$tmp/err")"
"$PEVIZ" -b nan --export pe 2>"$tmp/err" >/dev/null
grep -q "^peviz: -b/--base nan: wants a finite number > 1$" "$tmp/err" && ok || bad "base message: $(cat "$tmp/err")"

# User text in a message never carries control characters to the terminal.
"$PEVIZ" --pe-file "$tmp/$(printf '\033]0;pwned\007').csv" --snapshot 2>"$tmp/err" >/dev/null
! grep -q "$(printf '\033')" "$tmp/err" && grep -q 'pwned' "$tmp/err" && ok || bad "escape in a file name reached stderr"
"$PEVIZ" -d "$(printf '8\033[2J')" --export pe 2>"$tmp/err" >/dev/null
! grep -q "$(printf '\033')" "$tmp/err" && ok || bad "escape in a value reached stderr"
# The 8-bit CSI 0x9B, raw and as UTF-8, in a UTF-8 and an 8-bit locale.
for loc in C.UTF-8 C; do
    LC_ALL=$loc "$PEVIZ" -d "$(printf '8\2332J\302\2331m')" --export pe 2>"$tmp/err" >/dev/null
    ! LC_ALL=C grep -q "$(printf '[\200-\237\033]')" "$tmp/err" && grep -q " 8?2J?*1m: " "$tmp/err" &&
        ok || bad "CSI 0x9B in a value reached stderr ($loc): $(od -c "$tmp/err" | head -3)"
done

# 1e4 is a valid base and gives the same export as 10000.
a=$("$PEVIZ" --export pe -d 6 -n 5 -b 1e4); b=$("$PEVIZ" --export pe -d 6 -n 5 -b 10000)
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "-b 1e4 differs from -b 10000"

# Shape: -d 8 -n 8 gives 8 rows of 8 values.
"$PEVIZ" --export pe -d 8 -n 8 >"$tmp/pe.csv"
[ "$(wc -l <"$tmp/pe.csv")" -eq 8 ] && [ "$(awk -F, '{print NF}' "$tmp/pe.csv" | sort -u)" = 8 ] && ok || bad "pe 8x8 shape"

# Values against an independent evaluation (Python's math module), 1e-9.
check_export() { # what python-expression args...
    local what=$1 expr=$2; shift 2
    "$PEVIZ" --export "$what" "$@" >"$tmp/x.csv" 2>"$tmp/err" || { bad "export $what $*: $(cat "$tmp/err")"; return; }
    if python3 - "$tmp/x.csv" "$expr" "$@" <<'PY'
import math, sys
path, expr, args = sys.argv[1], sys.argv[2], sys.argv[3:]
d, base, n, heads, head, seed = 64, 10000.0, 128, 8, 1, 0
for k, v in zip(args, args[1:]):
    if k == '-d': d = int(v)
    if k == '-b': base = float(v)
    if k == '-n': n = int(v)
    if k == '--heads': heads = int(v)
    if k == '--head': head = int(v)
    if k == '--seed': seed = int(v)
M = (1 << 64) - 1
def mix(x):     # splitmix64's finaliser: the seeded draws of q and k
    z = (x + 0x9e3779b97f4a7c15) & M
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
    return z ^ (z >> 31)
def gauss(s, i):
    z = mix(mix(s) ^ i)
    u1 = ((z >> 11) + 1) * 2.0 ** -53; u2 = (mix(z) >> 11) * 2.0 ** -53
    return math.sqrt(-2 * math.log(u1)) * math.cos(2 * math.pi * u2)
def rope(i, j):  # (R(i) q).(R(j) k), q and k seeded N(0,1)
    q = [gauss(0x5eed0001 ^ seed, x) for x in range(d)]
    k = [gauss(0x5eed0002 ^ seed, x) for x in range(d)]
    w = [base ** (-2.0 * t / d) for t in range(d // 2)]
    return sum((q[2*t]*k[2*t] + q[2*t+1]*k[2*t+1]) * math.cos((i - j) * w[t]) +
               (q[2*t]*k[2*t+1] - q[2*t+1]*k[2*t]) * math.sin((i - j) * w[t]) for t in range(d // 2))
def alibi(i, j): return -2.0 ** (-8.0 * head / heads) * abs(i - j)   # heads a power of 2
om = [base ** (-2.0 * i / d) for i in range(d // 2)]
def pe(p, j): return math.sin(p * om[j // 2]) if j % 2 == 0 else math.cos(p * om[j // 2])
def score(a, b): return sum(math.cos((a - b) * w) for w in om)
def softmax_row(i):
    s = [score(i, j) for j in range(n)]; m = max(s); e = [math.exp(x - m) for x in s]; t = sum(e)
    return [x / t for x in e]
rows = [list(map(float, l.split(','))) for l in open(path)]
worst = 0.0
for i, r in enumerate(rows):
    want = eval(expr)
    assert len(r) == len(want), (i, len(r), len(want))
    worst = max(worst, max(abs(x - y) for x, y in zip(r, want)))
assert len(rows) == n, (len(rows), n)
# %.9g keeps 9 significant digits: allow that rounding on top of 1e-9
sys.exit(0 if worst <= 5e-9 * max(1.0, max(abs(x) for r in rows for x in r)) else (print("worst", worst) or 1))
PY
    then ok; else bad "export $what $* differs from the formula"; fi
}
check_export pe '[pe(i, j) for j in range(d)]' -d 10 -b 777 -n 40
check_export pe '[pe(i, j) for j in range(d)]' -d 34 -b 250000 -n 33
check_export pe '[pe(i, j) for j in range(d)]' -d 2 -b 1.5 -n 17
check_export scores '[score(i, j) for j in range(n)]' -d 12 -b 3000 -n 20
check_export softmax '[x for x in softmax_row(i)]' -d 16 -b 900 -n 24
# --heads --head --q --seed choose what the screen can: ALiBi head 2 of 4,
# RoPE with seeded random q and k (the default draw and another)
check_export scores '[alibi(i, j) for j in range(n)]' --scheme alibi --heads 4 --head 2 -d 8 -n 7
check_export scores '[alibi(i, j) for j in range(n)]' --scheme alibi --head 8 -d 8 -n 5
check_export scores '[rope(i, j) for j in range(n)]' --scheme rope --q random -d 6 -b 100 -n 5
check_export scores '[rope(i, j) for j in range(n)]' --scheme rope --q random --seed 7 -d 6 -b 100 -n 5
# --causal: the masked entries (j > i) are -inf, the rest the scores
"$PEVIZ" --export scores --causal -d 8 -n 4 >"$tmp/causal.csv"
[ "$(awk -F, '{ for (j = 1; j <= NF; j++) if ((j > NR) != ($j == "-inf")) bad = 1 } END { print bad + 0 }' "$tmp/causal.csv")" = 0 ] &&
    ok || bad "--causal: masked entries are not exactly the -inf ones"
# --train sets the learned scheme's L, on the screen as in the export
"$PEVIZ" --snapshot --view attention --scheme learned --train 5 -n 16 --size 100x30 >"$tmp/snap" &&
    grep -q 'L = 5' "$tmp/snap" && ok || bad "--train 5 not shown as L = 5"
a=$("$PEVIZ" --export scores --scheme learned --train 2 -d 4 -n 6); b=$("$PEVIZ" --export scores --scheme learned --train 5 -d 4 -n 6)
[ -n "$a" ] && [ "$a" != "$b" ] && ok || bad "--train does not change the learned scores"

# Binary export: f64 equals CSV; f32 within 1e-5 of it; sizes exact.
"$PEVIZ" --export pe -d 16 -n 300 -b 5e5 --format f64 >"$tmp/pe.f64"
"$PEVIZ" --export pe -d 16 -n 300 -b 5e5 --format f32 >"$tmp/pe.f32"
"$PEVIZ" --export pe -d 16 -n 300 -b 5e5 >"$tmp/pe300.csv"
if python3 - "$tmp" <<'PY'
import struct, sys
t = sys.argv[1]
csv = [float(x) for l in open(t + '/pe300.csv') for x in l.split(',')]
b64 = open(t + '/pe.f64', 'rb').read(); b32 = open(t + '/pe.f32', 'rb').read()
assert len(b64) == 300 * 16 * 8 and len(b32) == 300 * 16 * 4
f64 = struct.unpack('<%dd' % (300 * 16), b64); f32 = struct.unpack('<%df' % (300 * 16), b32)
assert max(abs(a - b) for a, b in zip(csv, f64)) <= 1e-8
assert max(abs(a - b) for a, b in zip(csv, f32)) <= 1e-5
PY
then ok; else bad "binary export differs from csv"; fi

# f64 at the largest positions (n = 2^24) against a reference in exact
# decimal arithmetic (60 digits): omega = base^(-2i/d) from exp and ln,
# the angle reduced by a 60-digit pi, sin and cos by their series.  In
# double the angle pos * omega is ~1e-9 off there.
# --rows A..B prints those rows of the whole export, byte for byte: PE
# in each format (rows across a block of 64 and inside one), a model's
# cos/sin cache, a loaded table, scores and softmax.
rows_same() { # BYTES_PER_ROW A B ARGS...: --rows A..B = those rows of the whole
    local w=$1 a=$2 b=$3
    shift 3
    if [ "$w" = csv ]; then
        "$PEVIZ" "$@" | sed -n "$((a + 1)),$((b + 1))p" >"$tmp/whole"
    else
        "$PEVIZ" "$@" | tail -c +$((a * w + 1)) | head -c $(((b - a + 1) * w)) >"$tmp/whole"
    fi
    "$PEVIZ" "$@" --rows "$a..$b" >"$tmp/part" && [ -s "$tmp/part" ] &&
        cmp -s "$tmp/whole" "$tmp/part"
}
for r in '0 0' '5 70' '63 64' '250 299'; do
    set -- $r
    rows_same csv "$1" "$2" --export pe -d 8 -n 300 && ok || bad "--rows $1..$2: pe csv"
    rows_same 32 "$1" "$2" --export pe -d 8 -n 300 --format f32 && ok || bad "--rows $1..$2: pe f32"
    rows_same 64 "$1" "$2" --export pe -d 8 -n 300 --format f64 && ok || bad "--rows $1..$2: pe f64"
done
rows_same 1024 37 66 --export pe --model llama3.1-8b -n 100 --format f64 && ok ||
    bad "--rows 37..66: a model's cos/sin cache"
printf '0,1,0,1\n0.84,0.54,0.01,1\n0.9,-0.4,0.02,1\n' >"$tmp/t.csv"
rows_same csv 1 2 --export pe --pe-file "$tmp/t.csv" && ok || bad "--rows 1..2: a loaded table"
rows_same csv 9 12 --export scores --scheme alibi --causal -n 40 && ok || bad "--rows 9..12: scores"
rows_same 320 0 3 --export softmax --scheme rope --q random -n 40 --format f64 && ok ||
    bad "--rows 0..3: softmax f64"
"$PEVIZ" --export pe -n 8 --rows 3..9 2>"$tmp/err" >/dev/null
grep -q "^peviz: --rows: 3..9: n=8 has positions 0..7; want B <= 7$" "$tmp/err" && ok ||
    bad "--rows past n: $(cat "$tmp/err")"

far_f64() { # -d D -b BASE: the last 64 rows of -n 2^24
    "$PEVIZ" --export pe "$@" -n 16777216 --format f64 --rows 16777152..16777215 >"$tmp/far.f64"
    python3 - "$tmp/far.f64" "$2" "$4" <<'PY'
import struct, sys
from decimal import Decimal as D, getcontext
getcontext().prec = 60
path, d = sys.argv[1], int(sys.argv[2])
base = D(float(sys.argv[3]))             # the double the program parsed, exactly
raw = open(path, 'rb').read()
assert len(raw) == 64 * d * 8, len(raw)
vals = struct.unpack('<%dd' % (64 * d), raw)
PI = D('3.14159265358979323846264338327950288419716939937510582097494')
def sincos(x):
    x -= (x / (2 * PI)).to_integral_value() * 2 * PI
    s, c, t, n = D(0), D(0), D(1), 0
    while n < 80:                       # x^n / n!, |x| <= pi
        if n % 4 == 0: c += t
        if n % 4 == 1: s += t
        if n % 4 == 2: c -= t
        if n % 4 == 3: s -= t
        n += 1
        t = t * x / n
    return s, c
worst = 0
for i in range(d // 2):
    w = (base.ln() * D(-2 * i) / D(d)).exp()
    for r in range(64):
        s, c = sincos(D(16777216 - 64 + r) * w)
        worst = max(worst, abs(D(vals[r * d + 2 * i]) - s), abs(D(vals[r * d + 2 * i + 1]) - c))
sys.exit(0 if worst <= D('1e-9') else (print('worst', float(worst)) or 1))
PY
}
far_f64 -d 4 -b 1.875 && ok || bad "f64 export at 2^24 (-d 4 -b 1.875) differs from the formula by more than 1e-9"

# --snapshot --format png: a PNG of 8K x 16K pixels a cell (IHDR read here)
png_size() {
    python3 -c 'import sys, struct
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n" and b[12:16] == b"IHDR", "not a PNG"
print("%dx%d" % struct.unpack(">II", b[16:24]))' "$1"
}
"$PEVIZ" --snapshot --format png --size 100x30 -n 1024 >"$tmp/a.png" 2>"$tmp/err" &&
    [ "$(png_size "$tmp/a.png")" = 800x480 ] && [ ! -s "$tmp/err" ] && ok ||
    bad "--snapshot --format png at 100x30 is not an 800x480 PNG"
"$PEVIZ" --snapshot --format png --scale 2 --size 40x10 --view clocks >"$tmp/b.png" &&
    [ "$(png_size "$tmp/b.png")" = 640x320 ] && ok ||
    bad "--snapshot --format png --scale 2 at 40x10 is not a 640x320 PNG"
# A heatmap PNG gives each dimension pixel rows of its own where they fit:
# down the map's last pixel column (position n-1, where no two
# neighbouring dimensions share a colour) the runs of one colour are the
# dimensions, d of them; the map's rows are the ANSI frame's half-block
# rows.  The PNG is decoded here (zlib, the five scanline filters).
png_map_runs() {  # FILE.png FILE.ansi: colour runs down the map's right edge
    python3 - "$1" "$2" <<'PY'
import re, struct, sys, zlib
b = open(sys.argv[1], "rb").read()
w, h, depth, ctype = struct.unpack(">IIBB", b[16:26])
i, idat = 8, b""
while i < len(b):
    n, kind = struct.unpack(">I4s", b[i:i + 8])
    idat += b[i + 8:i + 8 + n] if kind == b"IDAT" else b""
    i += 12 + n
bpp = {2: 3, 6: 4}[ctype]
raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        u, c = prev[x], prev[x - bpp] if x >= bpp else 0
        p = a + u - c
        pred = [0, a, u, (a + u) // 2,
                a if abs(p - a) <= abs(p - u) and abs(p - a) <= abs(p - c)
                else u if abs(p - u) <= abs(p - c) else c][f]
        line[x] = (line[x] + pred) & 255
    rows.append(line)
    prev = line
text = [re.sub(r"\x1b\[[0-9;]*m", "", l) for l in open(sys.argv[2], encoding="utf-8").read().split("\n")]
half = [y for y, l in enumerate(text) if "\u2580" in l]
y0 = half[0]
y1 = next(y for y in range(y0, len(text)) if "\u2580" not in text[y])
x = (len(text[y0]) - 1) * 8 + 4                      # the last cell's middle
cols = [bytes(rows[y][x * bpp:x * bpp + 3]) for y in range(y0 * 16, y1 * 16)]
print(sum(1 for k in range(len(cols)) if k == 0 or cols[k] != cols[k - 1]))
PY
}
"$PEVIZ" --snapshot --format png --size 80x24 -d 40 -n 257 >"$tmp/d40.png" &&
    "$PEVIZ" --snapshot --format ansi --color truecolor --size 80x24 -d 40 -n 257 >"$tmp/d40.ansi" &&
    [ "$(png_map_runs "$tmp/d40.png" "$tmp/d40.ansi")" = 40 ] && ok ||
    bad "--snapshot --format png -d 40 at 80x24: not one run of pixel rows per dimension ($(png_map_runs "$tmp/d40.png" "$tmp/d40.ansi"))"

# --plain: no view at 80x24 or 160x48 draws a glyph a screen reader reads
# as noise (braille, blocks, box lines, shapes), each has a status line,
# and the heatmap opens on its inspected value and formula
for v in $("$PEVIZ" --help | sed -n 's/^ *--view NAME  *//p' |
          sed 's/^.*: //; s/ (default [^)]*)$//; s/,//g; s/ or / /'); do
    for size in 80x24 160x48; do
        "$PEVIZ" --snapshot --plain --view "$v" --size $size >"$tmp/plain" &&
            ! LC_ALL=C.UTF-8 grep -qP '[\x{2500}-\x{25FF}\x{2800}-\x{28FF}]' "$tmp/plain" &&
            [ "$(tail -n 1 "$tmp/plain" | tr -s ' ')" != "" ] && ok ||
            bad "--plain --view $v at $size draws glyphs or has no status line"
    done
done
[ "$("$PEVIZ" --snapshot --plain | head -n 1)" = "$("$PEVIZ" --snapshot | head -n 1)" ] &&
    "$PEVIZ" --snapshot --plain | head -n 1 | grep -q '^PE(0, 0) = sin(' && ok ||
    bad "--plain: the heatmap's first line is not its inspected value"
# The user settings file: its settings under the command line's, comments,
# flags, --no-user-settings, a model on the command line over its d and
# base, XDG_CONFIG_HOME or else ~/.config, and one line naming file and
# line for a bad line (exit 2, nothing printed to stdout)
conf() { mkdir -p "$tmp/xdg/peviz" && printf "$@" >"$tmp/xdg/peviz/peviz.conf"; }
status_of() { XDG_CONFIG_HOME=$tmp/xdg "$PEVIZ" --snapshot "$@" | tail -n 1; }
conf '# mine\nbase = 20000\nview = clocks   # the clocks\n\nno-braille = yes\nmouse = no\n'
case $(status_of) in "PE clocks  d_model=64 base=20000 "*) ok ;; *) bad "peviz.conf: base and view not taken" ;; esac
case $(status_of -b 30000 --view heatmap) in "PE heatmap  d_model=64 base=30000 "*) ok ;;
    *) bad "peviz.conf: the command line does not win" ;; esac
case $(status_of --no-user-settings) in "PE heatmap  d_model=64 base=10000 "*) ok ;;
    *) bad "--no-user-settings still reads peviz.conf" ;; esac
case $(status_of --model llama3-8b) in "PE clocks  d_model=128 base=500000 "*) ok ;;
    *) bad "peviz.conf: its base beats the command line's --model" ;; esac
XDG_CONFIG_HOME=$tmp/xdg "$PEVIZ" --snapshot --view clocks | LC_ALL=C.UTF-8 grep -qP '[\x{2800}-\x{28FF}]' &&
    bad "peviz.conf: no-braille = yes not taken" || ok
mkdir -p "$tmp/home/.config/peviz" && printf 'palette = mono\nd-model = 16\n' >"$tmp/home/.config/peviz/peviz.conf"
case $(env -u XDG_CONFIG_HOME HOME=$tmp/home "$PEVIZ" --snapshot | tail -n 1) in
    "PE heatmap  d_model=16 "*) ok ;; *) bad "peviz.conf: ~/.config/peviz/peviz.conf not read" ;; esac
conf_refused() {    # PATTERN: the file is refused with it, on stderr only
    XDG_CONFIG_HOME=$tmp/xdg "$PEVIZ" --snapshot >"$tmp/out" 2>"$tmp/err"
    [ $? = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
        grep -q "$1" "$tmp/err" && ok || bad "peviz.conf: not refused with '$1': $(cat "$tmp/err")"
}
conf 'fps = 30\n\nbase = 0.5\n'
conf_refused "peviz.conf:3: base 0.5: .*> 1"
conf 'bogus = 1\n'
conf_refused "peviz.conf:1: bogus: not a setting"
conf 'export = pe\n'
conf_refused "peviz.conf:1: export: .*command line only"
conf 'check-cache = cache.npy\n'
conf_refused "peviz.conf:1: check-cache: .*command line only"
conf 'mouse = maybe\n'
conf_refused "peviz.conf:1: mouse: 'maybe': want yes or no"
conf 'base\n'
conf_refused "peviz.conf:1: base: needs a value"
XDG_CONFIG_HOME=$tmp/xdg "$PEVIZ" --help >/dev/null && ok || bad "--help refused for a bad peviz.conf"
# --print-settings: each setting --help lists, its value and where it
# came from: the file, the command line (which wins) or the default
conf 'fps = 12\nheads = 4\nmouse\n'
XDG_CONFIG_HOME=$tmp/xdg "$PEVIZ" --print-settings --heads 5 >"$tmp/ps" 2>&1
from() { grep -qE "^$1 +$2 +$3\$" "$tmp/ps" && ok || bad "--print-settings: want '$1 $2 $3': $(grep "^$1 " "$tmp/ps")"; }
from fps 12 file
from d-model 64 default
from heads 5 'command line'
from mouse on file
from palette default default
# each setting it lists at its default is the default --help gives it
# (a flag: off, and no default in --help)
"$PEVIZ" --help >"$tmp/help"
"$PEVIZ" --no-user-settings --print-settings >"$tmp/ps0"
[ "$(wc -l <"$tmp/ps0")" -gt 1 ] && ok || bad "--print-settings lists no settings"
while read -r o v src; do
    if [ "$v" = off ]; then
        grep -qE -- "^ +--$o +[a-z]" "$tmp/help" && ok || bad "--help: --$o is no flag"
    else
        grep -qF -- "(default $v)" <(grep -E -- "^ +(-., )?--$o [A-Z]" "$tmp/help") && ok ||
            bad "--print-settings: $o starts at $v, --help says $(grep -E -- "^ +(-., )?--$o " "$tmp/help")"
    fi
done <"$tmp/ps0"
XDG_CONFIG_HOME=$tmp/xdg "$PEVIZ" --print-settings --export pe >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] && ok ||
    bad "--print-settings --export: not refused with one line"
rm -f "$tmp/xdg/peviz/peviz.conf" && mkfifo "$tmp/xdg/peviz/peviz.conf"
conf_refused "peviz.conf: not a regular file"
rm -f "$tmp/xdg/peviz/peviz.conf"

# TERM=dumb: frames as lines, one more after a key, and the end of input quits
printf 'j' | TERM=dumb "$PEVIZ" >"$tmp/dumb" 2>&1 &&
    grep -q '^PE(0, 0) = sin' "$tmp/dumb" && grep -q '^PE(0, 1) = cos' "$tmp/dumb" &&
    [ "$(grep -c '^PE heatmap' "$tmp/dumb")" = 2 ] && ok ||
    bad "TERM=dumb: not two frames of lines for one key"
# --no-braille: the clock faces in blocks, no braille left
"$PEVIZ" --snapshot --no-braille --view clocks >"$tmp/nb" &&
    ! LC_ALL=C.UTF-8 grep -qP '[\x{2800}-\x{28FF}]' "$tmp/nb" &&
    LC_ALL=C.UTF-8 grep -qP '[\x{2596}-\x{259F}]' "$tmp/nb" && ok ||
    bad "--no-braille --view clocks still draws braille, or no quadrant blocks"

echo "cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
