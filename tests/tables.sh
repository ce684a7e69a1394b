#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# --pe-file end to end: files built here byte by byte (Python's struct,
# never downloaded) in each format load and export exactly; --export pca
# and pca-variance match a Jacobi eigen-decomposition of the covariance
# written in the test (and numpy's SVD where it is); hostile files
# (FIFO, device, directory, sparse giants, NaN, huge values) are refused
# with one line and exit 2, without hanging or reading them; the peak
# memory of loading one table from a 2 GiB sparse checkpoint stays within
# the table's size plus a few MiB; -n past a table's rows refuses exports.
set -u
: "${PEVIZ:=./peviz}"
pass=0 fail=0 skip=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# A Python with numpy (Debian's python3-numpy may not be the first python3).
PY=
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import numpy.linalg' 2>/dev/null; then PY=$p; break; fi
done

# refused FILE NEEDLE [ARGS...]: exit 2, one stderr line naming FILE, no
# stdout; ARGS end with --export pe unless they choose an export.
refused() {
    local f=$1 needle=$2 exp=(--export pe); shift 2
    case " $* " in *" --export "*) exp=() ;; esac
    # AS: a command to run peviz under (unquoted: its words), or none
    timeout 10 ${AS:-} "$PEVIZ" --pe-file "$f" "$@" "${exp[@]}" >"$tmp/out" 2>"$tmp/err" </dev/null
    local rc=$? lines
    lines=$(wc -l <"$tmp/err")
    if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$tmp/out" ] &&
        grep -qF "peviz: $f: " "$tmp/err" && grep -qF -- "$needle" "$tmp/err"; then ok
    else bad "--pe-file $f $*: rc=$rc stderr=$(head -c 300 "$tmp/err")"; fi
}

# ---- files written byte by byte -------------------------------------------
python3 - "$tmp" <<'PYEOF'
import json, struct, sys
tmp = sys.argv[1]
rows, cols = 5, 4
vals = [[(r * 10 + c) / 8.0 - 1.5 for c in range(cols)] for r in range(rows)]
flat = [v for row in vals for v in row]
def st(path, tensors, pad=True):
    hdr, data, off = {}, b"", 0
    for name, dtype, shape, raw in tensors:
        hdr[name] = {"dtype": dtype, "shape": shape,
                     "data_offsets": [off, off + len(raw)]}
        data += raw
        off += len(raw)
    h = json.dumps(hdr).encode()
    while pad and (8 + len(h)) % 8:
        h += b" "
    open(path, "wb").write(struct.pack("<Q", len(h)) + h + data)
f32 = struct.pack("<%df" % len(flat), *flat)
f16 = struct.pack("<%de" % len(flat), *flat)
bf16 = b"".join(struct.pack("<f", v)[2:] for v in flat)   # exact: k/8 values
f64 = struct.pack("<%dd" % len(flat), *flat)
wte = struct.pack("<8f", *range(8))
st(tmp + "/gpt2.safetensors", [("wte.weight", "F32", [2, 4], wte),
                               ("wpe.weight", "F32", [rows, cols], f32)])
st(tmp + "/f16.safetensors", [("transformer.wpe.weight", "F16", [rows, cols], f16)])
st(tmp + "/bf16.safetensors", [("wpe.weight", "BF16", [rows, cols], bf16)])
st(tmp + "/f64.safetensors", [("wpe.weight", "F64", [rows, cols], f64)])
st(tmp + "/opt.safetensors", [("model.decoder.embed_positions.weight", "F32",
                               [rows, cols], f32)])
st(tmp + "/two.safetensors", [("wpe.weight", "F32", [rows, cols], f32),
                              ("pos_bias", "F32", [1, 2], struct.pack("<2f", 1, 2))])
st(tmp + "/nan.safetensors", [("wpe.weight", "F32", [1, 2], struct.pack("<2f", 1, float("nan")))])
st(tmp + "/huge.safetensors", [("wpe.weight", "F64", [1, 2], struct.pack("<2d", 1, 1.7e308))])
# GGUF v3: ne = [cols, rows] innermost first
def s64(s): return struct.pack("<Q", len(s)) + s.encode()
g = b"GGUF" + struct.pack("<IQQ", 3, 1, 1)
g += s64("general.architecture") + struct.pack("<I", 8) + s64("gpt2")
g += s64("pos_embd.weight") + struct.pack("<IQQIQ", 2, cols, rows, 0, 0)
g += b"\0" * (-len(g) % 32) + f32
open(tmp + "/gpt2.gguf", "wb").write(g)
# .npy v1, big-endian float64, Fortran order
h = "{'descr': '>f8', 'fortran_order': True, 'shape': (%d, %d), }" % (rows, cols)
h += " " * (-(10 + len(h) + 1) % 64) + "\n"
colmajor = [vals[r][c] for c in range(cols) for r in range(rows)]
open(tmp + "/t.npy", "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h))
                                 + h.encode() + struct.pack(">%dd" % len(flat), *colmajor))
with open(tmp + "/want.csv", "w") as f:
    for row in vals:
        f.write(",".join("%.9g" % v for v in row) + "\n")
with open(tmp + "/t.csv", "w") as f:
    f.write("\ufeffd0;d1;d2;d3\n")
    for row in vals:
        f.write(";".join(repr(v) for v in row) + "\n")
PYEOF

# --export pe prints the table itself, whatever the format
for f in gpt2.safetensors f16.safetensors bf16.safetensors f64.safetensors gpt2.gguf t.npy t.csv; do
    if "$PEVIZ" --pe-file "$tmp/$f" --export pe >"$tmp/out" 2>"$tmp/err" &&
        cmp -s "$tmp/out" "$tmp/want.csv"; then ok
    else bad "--export pe --pe-file $f differs: $(head -c 200 "$tmp/err") $(head -n 2 "$tmp/out")"; fi
done
# the CSV's header, byte-order mark and separator are said on stderr
"$PEVIZ" --pe-file "$tmp/t.csv" --export pe 2>"$tmp/err" >/dev/null
grep -q "note: skipped a UTF-8 byte-order mark; skipped the header line 1 ('d0;d1;d2;d3'); values separated by semicolons" "$tmp/err" && ok ||
    bad "csv note: $(cat "$tmp/err")"
# OPT: the offset of 2 applied and said; --row-offset 0 keeps every row
"$PEVIZ" --pe-file "$tmp/opt.safetensors" --export pe >"$tmp/out" 2>"$tmp/err"
if tail -n 3 "$tmp/want.csv" | cmp -s - "$tmp/out" && grep -q "starts at row 2" "$tmp/err"; then ok
else bad "OPT offset: $(cat "$tmp/err")"; fi
"$PEVIZ" --pe-file "$tmp/opt.safetensors" --row-offset 0 --export pe 2>"$tmp/err" | cmp -s - "$tmp/want.csv" &&
    [ ! -s "$tmp/err" ] && ok || bad "--row-offset 0"
# --tensor picks; f64 output is the stored bits
"$PEVIZ" --pe-file "$tmp/gpt2.safetensors" --tensor wte.weight --export pe >"$tmp/out" &&
    [ "$(cat "$tmp/out")" = "$(printf '0,1,2,3\n4,5,6,7')" ] && ok || bad "--tensor wte.weight"
"$PEVIZ" --pe-file "$tmp/f64.safetensors" --export pe --format f64 >"$tmp/out" &&
    [ "$(od -An -tx1 -v "$tmp/out" | tr -d ' \n')" = "$(tail -c 160 "$tmp/f64.safetensors" | od -An -tx1 -v | tr -d ' \n')" ] &&
    ok || bad "--format f64 is not the stored bits"
# scores of the learned scheme are P.P^T of the table
"$PEVIZ" --pe-file "$tmp/gpt2.safetensors" --scheme learned --export scores >"$tmp/out"
python3 - "$tmp/out" <<'PYEOF' && ok || bad "scores are not P.P^T"
import sys
rows = [[(r * 10 + c) / 8.0 - 1.5 for c in range(4)] for r in range(5)]
got = [[float(x) for x in l.split(",")] for l in open(sys.argv[1])]
want = [[sum(a * b for a, b in zip(ri, rj)) for rj in rows] for ri in rows]
sys.exit(0 if all(abs(g - w) <= 1e-9 * max(1, abs(w)) for gr, wr in zip(got, want)
                  for g, w in zip(gr, wr)) and len(got) == 5 else 1)
PYEOF

# values at the bound (1e150): every view and export stays finite on screen
printf '1e150,-1e150\n-1e150,1e150\n1e150,1e150\n1e149,3\n' >"$tmp/bound.csv"
for v in heatmap clocks attention compare; do
    "$PEVIZ" --pe-file "$tmp/bound.csv" --view $v --scheme learned --snapshot --size 120x40 >"$tmp/out" 2>&1
    grep -qiE 'nan|inf' "$tmp/out" && bad "--view $v shows nan or inf" || ok
done
"$PEVIZ" --pe-file "$tmp/bound.csv" --export scores --scheme learned >"$tmp/out" &&
    [ "$(head -n 1 "$tmp/out")" = "2e+300,-2e+300,0,1e+299" ] && ok || bad "scores at the bound: $(head -n 1 "$tmp/out")"

# ---- -n against the table's rows ---------------------------------------------
# -n below the rows: the first n rows; past them an export refuses, one
# line, rather than invent rows the table does not have
"$PEVIZ" --pe-file "$tmp/gpt2.safetensors" -n 3 --export pe 2>"$tmp/err" | cmp -s - <(head -n 3 "$tmp/want.csv") &&
    [ ! -s "$tmp/err" ] && ok || bad "-n 3 --export pe: not the first 3 rows"
for what in "--scheme learned --export scores" "--scheme learned --export softmax" "--export pe" "--export pca"; do
    refused "$tmp/gpt2.safetensors" "table has 5 rows, n=8: positions from 5 have no row" -n 8 $what
done
"$PEVIZ" --pe-file "$tmp/gpt2.safetensors" -n 8 --scheme sinusoidal --export scores >"$tmp/out" 2>"$tmp/err" &&
    [ "$(wc -l <"$tmp/out")" -eq 8 ] && ok || bad "-n 8 sinusoidal scores (table unread): $(cat "$tmp/err")"

# every view draws with n past the table's rows, without nan or inf on screen
for v in heatmap clocks attention compare; do
    "$PEVIZ" --pe-file "$tmp/gpt2.safetensors" -n 8 --view $v --scheme learned --snapshot --size 80x24 >"$tmp/out" 2>&1 &&
        ! grep -qiE 'nan|inf' "$tmp/out" && ok || bad "--view $v -n 8 past the table: $(head -c 200 "$tmp/out")"
done

# ---- hostile files of every kind, each built here ------------------------------
python3 - "$tmp" <<'PYEOF'
import json, struct, sys, os
tmp = sys.argv[1]
flat = [(r * 10 + c) / 8.0 - 1.5 for r in range(5) for c in range(4)]
f32 = struct.pack("<20f", *flat)
def st(path, hdr, data, extra=0):
    h = json.dumps(hdr).encode()
    h += b" " * (-(8 + len(h)) % 8)
    open(path, "wb").write(struct.pack("<Q", len(h) + extra) + h + data)
def T(dtype, shape, a, b): return {"dtype": dtype, "shape": shape, "data_offsets": [a, b]}
st(tmp + "/overlap.safetensors", {"wte": T("F32", [2, 4], 0, 32), "wpe.weight": T("F32", [5, 4], 16, 96)}, f32 + f32[:16])
st(tmp + "/gap.safetensors", {"wte": T("F32", [2, 4], 0, 32), "wpe.weight": T("F32", [5, 4], 40, 120)}, b"\0" * 40 + f32)
st(tmp + "/mismatch.safetensors", {"wpe.weight": T("F32", [5, 4], 0, 40)}, f32[:40])
st(tmp + "/hugeshape.safetensors", {"wpe.weight": T("F32", [2**40, 2**40], 0, 8)}, f32[:8])
st(tmp + "/hdrpast.safetensors", {"wpe.weight": T("F32", [5, 4], 0, 80)}, f32, extra=1000)
st(tmp + "/f16nan.safetensors", {"wpe.weight": T("F16", [1, 2], 0, 4)}, struct.pack("<2H", 0x3c00, 0x7e00))
st(tmp + "/bf16inf.safetensors", {"wpe.weight": T("BF16", [1, 2], 0, 4)}, struct.pack("<2H", 0x3f80, 0x7f80))
os.mkdir(tmp + "/shard")           # a sharded checkpoint and its index
st(tmp + "/shard/model-00001-of-00002.safetensors", {"wte.weight": T("F32", [2, 4], 0, 32)}, f32[:32])
st(tmp + "/shard/model-00002-of-00002.safetensors", {"wpe.weight": T("F32", [5, 4], 0, 80)}, f32)
json.dump({"metadata": {"total_size": 112}, "weight_map": {
    "wte.weight": "model-00001-of-00002.safetensors", "wpe.weight": "model-00002-of-00002.safetensors"}},
    open(tmp + "/shard/model.safetensors.index.json", "w"))
os.mkdir(tmp + "/badshard")
json.dump({"weight_map": {"wpe.weight": "model-00009-of-00009.safetensors"}},
          open(tmp + "/badshard/model.safetensors.index.json", "w"))
def s64(s): return struct.pack("<Q", len(s)) + s.encode()
def gguf(dims, off=0, data=f32, order="<", ver=3):
    g = b"GGUF" + struct.pack(order + "IQQ", ver, 1, 0)
    g += s64("pos_embd.weight") + struct.pack("<I", len(dims))
    g += b"".join(struct.pack("<Q", d) for d in dims) + struct.pack("<IQ", 0, off)
    return g + b"\0" * (-len(g) % 32) + data
open(tmp + "/be.gguf", "wb").write(gguf([4, 5], order=">"))
open(tmp + "/v1.gguf", "wb").write(b"GGUF" + struct.pack("<III", 1, 1, 0) + b"\0" * 40)
open(tmp + "/short.gguf", "wb").write(gguf([4, 5], data=f32[:40]))
open(tmp + "/huge.gguf", "wb").write(gguf([2**40, 2**40]))
open(tmp + "/past.gguf", "wb").write(gguf([4, 5], off=1 << 40))
def npy(path, descr, shape, data):
    h = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    h += " " * (-(10 + len(h) + 1) % 64) + "\n"
    open(path, "wb").write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode() + data)
npy(tmp + "/huge.npy", "<f4", "(1099511627776, 768)", f32)
npy(tmp + "/short.npy", "<f4", "(5, 4)", f32[:40])
npy(tmp + "/inf.npy", "<f8", "(1, 2)", struct.pack("<2d", 1, float("inf")))
PYEOF
refused "$tmp/overlap.safetensors" "begins at 16, where the previous one ends at 32: an overlap"
refused "$tmp/gap.safetensors" "begins at 40, where the previous one ends at 32: a gap"
refused "$tmp/mismatch.safetensors" "40 bytes of data, its shape and F32 need 80"
refused "$tmp/hugeshape.safetensors" "'shape' too large"
refused "$tmp/hdrpast.safetensors" "truncated: the header needs 1088 bytes, the file has 168"
refused "$tmp/f16nan.safetensors" "row 0, column 1 is not a finite number"
refused "$tmp/bf16inf.safetensors" "row 0, column 1 is not a finite number"
refused "$tmp/be.gguf" "a big-endian GGUF file (version 3 byte-swapped): not supported"
refused "$tmp/v1.gguf" "GGUF version 1: want 2 or 3"
refused "$tmp/short.gguf" "truncated: tensor 'pos_embd.weight' needs bytes 0..80 of the data, which has 40"
refused "$tmp/huge.gguf" "dimensions too large"
refused "$tmp/past.gguf" "needs bytes 1099511627776..1099511627856"
refused "$tmp/huge.npy" "1099511627776 rows: at most 16777216 positions"
refused "$tmp/short.npy" "truncated: the data needs 80 bytes, the file has 40"
refused "$tmp/inf.npy" "row 0, column 1 is not a finite number"
# the index is followed to the shard that holds the table, and said
"$PEVIZ" --pe-file "$tmp/shard/model.safetensors.index.json" --export pe >"$tmp/out" 2>"$tmp/err" &&
    cmp -s "$tmp/out" "$tmp/want.csv" && grep -q "'wpe.weight' is in .*model-00002-of-00002.safetensors" "$tmp/err" &&
    ok || bad "sharded index: $(cat "$tmp/err")"
"$PEVIZ" --pe-file "$tmp/badshard/model.safetensors.index.json" --export pe >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
    grep -q "model-00009-of-00009.safetensors: cannot open" "$tmp/err" && ok || bad "missing shard: $(cat "$tmp/err")"
# unreadable: root reads anything, so as root peviz runs without the
# capabilities that let it (setpriv drops them, as for any other user)
cp "$tmp/gpt2.safetensors" "$tmp/locked.safetensors"; chmod 000 "$tmp/locked.safetensors"
if [ "$(id -u)" -ne 0 ]; then
    refused "$tmp/locked.safetensors" "cannot open: Permission denied"
elif command -v setpriv >/dev/null; then
    AS="setpriv --bounding-set=-all --inh-caps=-all" \
        refused "$tmp/locked.safetensors" "cannot open: Permission denied"
fi

# ---- refusals ----------------------------------------------------------------
refused "$tmp/two.safetensors" "2 position tables: wpe.weight, pos_bias; choose one with --tensor NAME"
refused "$tmp/gpt2.safetensors" "no tensor 'nope'; 2-D tensors: wte.weight, wpe.weight" --tensor nope
refused "$tmp/nan.safetensors" "row 0, column 1 is not a finite number"
refused "$tmp/huge.safetensors" "row 0, column 1 is 1.7e+308: beyond"
refused /dev/zero "a character device, not a regular file"
refused /dev/urandom "a character device, not a regular file"
refused "$tmp" "a directory, not a regular file"
refused "$tmp/missing.npy" "cannot open: No such file or directory"
mkfifo "$tmp/fifo"
refused "$tmp/fifo" "a FIFO (pipe), not a regular file"
timeout 10 "$PEVIZ" --tour "$tmp/fifo" --snapshot >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "fifo: a FIFO (pipe), not a regular file" "$tmp/err" && ok ||
    bad "--tour on a FIFO: rc=$rc $(cat "$tmp/err")"
head -c 100 "$tmp/gpt2.safetensors" >"$tmp/cut.safetensors"
refused "$tmp/cut.safetensors" "truncated"
truncate -s 1G "$tmp/zero.bin"
refused "$tmp/zero.bin" "header: byte 0"
printf '0.5,1.5\n2,3\n' >"$tmp/big.csv"; truncate -s 300M "$tmp/big.csv"
refused "$tmp/big.csv" "a CSV table is at most 256 MiB"
printf '0x1p3,2\n' >"$tmp/hex.csv"
refused "$tmp/hex.csv" "line 1, column 0: '0x1p3' is a hex float"
printf '0,5;1,5\n' >"$tmp/comma.csv"
refused "$tmp/comma.csv" "'0,5' is a decimal comma"
for args in "--tensor wpe.weight --export pe" "--row-offset 2 --export pe" "--components 2 --export pe" \
            "--pe-file $tmp/gpt2.safetensors --row-offset 5 --export pe" \
            "--export pca --components 0" "--export pca -d 8 -n 5 --components 5"; do
    "$PEVIZ" $args >"$tmp/out" 2>"$tmp/err"; rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] && ok ||
        bad "peviz $args: rc=$rc $(cat "$tmp/err")"
done

# ---- peak memory: one table out of a 2 GiB sparse checkpoint ----------------
python3 - "$tmp/sparse.safetensors" <<'PYEOF'
import json, struct, sys
tok = 1 << 31
h = json.dumps({"wte.weight": {"dtype": "F32", "shape": [524288, 1024], "data_offsets": [0, tok]},
                "wpe.weight": {"dtype": "F32", "shape": [1024, 768],
                               "data_offsets": [tok, tok + 1024 * 768 * 4]}}).encode()
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<Q", len(h)) + h)
    f.truncate(8 + len(h) + tok + 1024 * 768 * 4)
PYEOF
# Peak resident set (VmHWM) of peviz itself, read from /proc while it
# waits on a full stdout pipe, after the table is loaded (the export is
# 3 MiB, the pipe holds 64 KiB): no /usr/bin/time needed (Debian installs
# it only on request), and unlike a child's ru_maxrss it does not count
# the launcher's own pages from before exec.
peak() {
    python3 - "$PEVIZ" "$@" <<'PYEOF'
import re, select, subprocess, sys, time
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
select.select([p.stdout], [], [], 60)           # the export has begun
hwm, same, t0 = 0, 0, time.monotonic()
while same < 5 and time.monotonic() - t0 < 60:  # until it settles, blocked
    try:
        m = re.search(r"VmHWM:\s+(\d+)", open("/proc/%d/status" % p.pid).read())
    except OSError:
        m = None
    if not m:
        break
    same = same + 1 if int(m.group(1)) == hwm else 0
    hwm = int(m.group(1))
    time.sleep(0.05)
p.communicate()
print(hwm if p.returncode == 0 and hwm else "")
PYEOF
}
base=$(peak -d 768 -n 1024 --export pe --format f32)
big=$(peak --pe-file "$tmp/sparse.safetensors" --export pe --format f32)
echo "peak RSS: ${base} KiB for the sinusoid 1024 x 768 (no file), ${big} KiB for wpe (6144 KiB as doubles) of a 2 GiB sparse safetensors"
# over the same export without a file (the program, its libraries and, in
# sanitizer builds, their shadow memory): the table as doubles plus 8 MiB
[ -n "$base" ] && [ -n "$big" ] && [ $((big - base)) -le $((6144 + 8192)) ] && ok ||
    bad "peak memory $big KiB (sinusoid $base KiB)"

[ -n "$PY" ] || echo "SKIP tables: numpy's SVD as a second PCA reference: no python3 with numpy (Debian: apt-get install python3-numpy)"
# ---- PCA against an independent eigen-decomposition ----------------------
# The reference is written here with Python's standard library alone: the
# covariance matrix of the centred table, summed with math.fsum, then the
# cyclic Jacobi method (plane rotations until every off-diagonal entry is
# negligible), which is not the library's algorithm. numpy's SVD, where a
# python3 has it, checks the same cases once more.
python3 - "$tmp" <<'PYEOF'
import math, random, sys
rng = random.Random(7)
basis = []
while len(basis) < 3:                   # three orthonormal directions in R^24
    v = [rng.gauss(0, 1) for _ in range(24)]
    for b in basis:
        dot = math.fsum(x * y for x, y in zip(v, b))
        v = [x - dot * y for x, y in zip(v, b)]
    norm = math.sqrt(math.fsum(x * x for x in v))
    basis.append([x / norm for x in v])
a, b, c = basis
with open(sys.argv[1] + "/helix.csv", "w") as f:
    for p in range(300):
        row = [2.0 * math.cos(p * 0.11) * a[i] + 1.5 * math.sin(p * 0.11) * b[i]
               + 0.01 * p * c[i] + 0.3 for i in range(24)]
        f.write(",".join("%.17g" % v for v in row) + "\n")
PYEOF
cat >"$tmp/pcaref.py" <<'PYEOF'
import math, sys

def table(tmp, kind, args):
    if kind == "helix":
        return [[float(v) for v in l.split(",")] for l in open(tmp + "/helix.csv")]
    d, n, base = int(args[1]), int(args[3]), float(args[5])
    w = [base ** (-2.0 * i / d) for i in range(d // 2)]
    return [[f(p * wi) for wi in w for f in (math.sin, math.cos)] for p in range(n)]

def jacobi(a):
    """Eigenvalues and eigenvectors (columns of v) of the symmetric a."""
    m = len(a)
    a = [row[:] for row in a]
    v = [[float(i == j) for j in range(m)] for i in range(m)]
    for sweep in range(100):
        off = math.fsum(a[i][j] ** 2 for i in range(m) for j in range(m) if i != j)
        scale = math.fsum(a[i][i] ** 2 for i in range(m))
        if off <= (m * 1e-15) ** 2 * scale:     # at the rounding floor
            break
        for p in range(m - 1):
            for q in range(p + 1, m):
                if a[p][q] == 0.0:
                    continue
                theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q])
                t = math.copysign(1.0, theta) / (abs(theta) + math.sqrt(theta * theta + 1.0))
                cs = 1.0 / math.sqrt(t * t + 1.0)
                sn = t * cs
                for k in range(m):      # columns p, q
                    akp, akq = a[k][p], a[k][q]
                    a[k][p], a[k][q] = cs * akp - sn * akq, sn * akp + cs * akq
                for k in range(m):      # rows p, q
                    apk, aqk = a[p][k], a[q][k]
                    a[p][k], a[q][k] = cs * apk - sn * aqk, sn * apk + cs * aqk
                for k in range(m):
                    vkp, vkq = v[k][p], v[k][q]
                    v[k][p], v[k][q] = cs * vkp - sn * vkq, sn * vkp + cs * vkq
    else:
        raise SystemExit("jacobi did not converge")
    return [a[i][i] for i in range(m)], v

def main():
    tmp, kind, k, args = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    x = table(tmp, kind, args)
    n, d = len(x), len(x[0])
    mean = [math.fsum(r[j] for r in x) / n for j in range(d)]
    xc = [[r[j] - mean[j] for j in range(d)] for r in x]
    cov = [[math.fsum(r[i] * r[j] for r in xc) for j in range(d)] for i in range(d)]
    lam, v = jacobi(cov)
    order = sorted(range(d), key=lambda i: -lam[i])
    lam = [max(lam[i], 0.0) for i in order]
    vecs = [[v[r][i] for r in range(d)] for i in order]
    top = lam[:k + 1] if kind == "sin" else lam[:k]
    gaps = [abs(top[i + 1] - top[i]) / lam[0] for i in range(len(top) - 1)]
    assert min(gaps) > 1e-6, "components too close to compare: %r" % gaps
    for vec in vecs[:k]:                # sign rule: largest entry positive
        j = max(range(d), key=lambda i: abs(vec[i]))
        if vec[j] < 0:
            vec[:] = [-e for e in vec]
    proj = [[math.fsum(r[j] * vec[j] for j in range(d)) for vec in vecs[:k]] for r in xc]
    ratio = [l / math.fsum(lam) for l in lam]
    got = [[float(s) for s in l.split(",")] for l in open(tmp + "/pca.csv")]
    var = [float(l) for l in open(tmp + "/var.csv")]
    assert len(got) == n and all(len(r) == k for r in got), (len(got), len(got[0]))
    big = max(1.0, max(abs(e) for r in proj for e in r))
    err = max(abs(g - p) for gr, pr in zip(got, proj) for g, p in zip(gr, pr))
    assert err <= 1e-8 * big, err
    assert len(var) == k and max(abs(a - b) for a, b in zip(var, ratio)) <= 1e-9, (var, ratio[:k])
    if kind == "helix":
        assert abs(sum(ratio[:3]) - 1) < 1e-12 and abs(sum(var[:3]) - 1) < 1e-8

main()
PYEOF
cat >"$tmp/pcanp.py" <<'PYEOF'
import numpy as np, sys
tmp, kind, k, args = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
if kind == "sin":
    d, n, base = int(args[1]), int(args[3]), float(args[5])
    p = np.arange(n)[:, None]
    w = base ** (-2.0 * np.arange(d // 2) / d)
    x = np.empty((n, d)); x[:, 0::2] = np.sin(p * w); x[:, 1::2] = np.cos(p * w)
else:
    x = np.loadtxt(tmp + "/helix.csv", delimiter=",")
xc = x - x.mean(axis=0)
u, s, vt = np.linalg.svd(xc, full_matrices=False)
for i in range(k):
    j = np.argmax(np.abs(vt[i]))
    if vt[i, j] < 0:
        vt[i] = -vt[i]
proj = xc @ vt[:k].T
got = np.loadtxt(tmp + "/pca.csv", delimiter=",", ndmin=2)
var = np.loadtxt(tmp + "/var.csv", ndmin=1)
assert got.shape == proj.shape, (got.shape, proj.shape)
assert np.max(np.abs(got - proj)) <= 1e-8 * max(1, np.abs(proj).max())
assert np.max(np.abs(var - (s ** 2 / np.sum(s ** 2))[:k])) <= 1e-9
PYEOF
for spec in "-d 16 -n 400 -b 10000|sin|4" "-d 32 -n 700 -b 500|sin|4" "--pe-file $tmp/helix.csv|helix|3"; do
    args=${spec%%|*} kind=${spec#*|} k=${spec##*|}
    kind=${kind%|*}
    "$PEVIZ" $args --export pca --components "$k" >"$tmp/pca.csv" 2>"$tmp/err" &&
    "$PEVIZ" $args --export pca-variance --components "$k" >"$tmp/var.csv" 2>>"$tmp/err"
    python3 "$tmp/pcaref.py" "$tmp" "$kind" "$k" $args 2>>"$tmp/err" && ok ||
        bad "pca $spec differs from the Jacobi reference: $(cat "$tmp/err")"
    if [ -z "$PY" ]; then skip=$((skip + 1)); continue; fi
    "$PY" "$tmp/pcanp.py" "$tmp" "$kind" "$k" $args 2>>"$tmp/err" && ok ||
        bad "pca $spec differs from numpy's SVD: $(cat "$tmp/err")"
done

# a 5 x 6 table of rank 1 (rows c_p u): components past the rank have
# variance 0, project to exactly 0 and are named on stderr
printf '1,2,3,4,5,6\n2,4,6,8,10,12\n-1,-2,-3,-4,-5,-6\n0.5,1,1.5,2,2.5,3\n3,6,9,12,15,18\n' >"$tmp/rank1.csv"
if "$PEVIZ" --pe-file "$tmp/rank1.csv" -n 5 --export pca --components 3 >"$tmp/r1" 2>"$tmp/r1err" &&
   awk -F, 'BEGIN { m = (1 + 2 - 1 + 0.5 + 3) / 5; u = sqrt(1 + 4 + 9 + 16 + 25 + 36) }
        { c = (NR == 1 ? 1 : NR == 2 ? 2 : NR == 3 ? -1 : NR == 4 ? 0.5 : 3) - m;
          w = c * u; if (w < 0) w = -w; a = $1 < 0 ? -$1 : $1
          if ($2 != 0 || $3 != 0 || a - w > 1e-7 * u || w - a > 1e-7 * u) bad = 1 }
        END { exit bad || NR != 5 }' "$tmp/r1" &&
   grep -q "rank 1: components 2..3 have variance 0 and project to 0" "$tmp/r1err"; then ok
else bad "rank-1 table: $(head -c 300 "$tmp/r1") / $(cat "$tmp/r1err")"; fi

echo "tables: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
