#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The compare view's diff mode with panes that have nothing to subtract:
# each pane's card, read off --snapshot at 80x24, 120x40 and 160x48 (and
# in ASCII), against what --export prints for the same settings.  T5:
# each listed bucket's distances hold its W in --export scores and the
# distances around them another value, its number is the count of
# distinct values below it, the exact buckets hold a value each, the
# count is --buckets; ALiBi: each head's slope is -S(1, 0) of --export
# scores --head H, S at the longest distance (S at distance delta read
# from the export's last row, as these schemes depend on i - j alone); KERPLE: r1 and r2 give
# --export scores through the published formula, each S row is the
# export's; NoPE: S = 0 and constant, the whole export 0; RoPE and xPos
# beside an A without bands: each band row is --export bands' wavelength
# and turns.  A number on a card equals the export's to the digits the
# card prints (4, or 3 where it shows no more); every card must show
# numbers, so none passes empty.
set -u
: "${PEVIZ:=./peviz}"
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
pass=0 fail=0
tmp=$(mktemp -d /tmp/peviz-cards.XXXXXX); trap 'rm -rf "$tmp"' EXIT

if ! command -v python3 >/dev/null; then
    echo "compare_cards: python3 is needed"
    echo "compare_cards: 0 passed, 1 failed"; exit 1
fi

# The default of option $1 from --help: "(default 32)".
help_default() {
    "$PEVIZ" --help |
        sed -n "s/^ *\(-[a-z], \)\{0,1\}--$1 .*(default \([^)]*\)).*/\2/p"
}
buckets=$(help_default buckets)
heads=$(help_default heads)
seq_len=$(help_default seq-len)
if [ -z "$buckets" ] || [ -z "$heads" ] || [ -z "$seq_len" ]; then
    echo "compare_cards: --help gives no default --buckets, --heads or -n"
    echo "compare_cards: 0 passed, 1 failed"; exit 1
fi

cat >"$tmp/cards.py" <<'PY'
"""cards.py SNAPSHOT SCHEMES DIR BUCKETS HEADS HEAD ARGS...: every number
on the cards of the snapshot against the exports in DIR
(scores-SCHEME.csv) and --export bands ARGS at each pane's base, as the
wide snapshot DIR/wide.txt's headers say it; prints one line per check,
"ok ..." or "FAIL ..."."""
import csv, io, math, os, re, subprocess, sys

snap, schemes, d, buckets, heads, shown = sys.argv[1:7]
args = sys.argv[7:]
schemes = schemes.split(",")
lines = open(snap, encoding="utf-8").read().split("\n")
sep = "\u2502" if "\u2502" in lines[0] else "|"

def matrix(s):
    """S(delta, 0) as m[delta][0], from the export's last row: the
    schemes read here depend on i - j alone, so S(n-1, n-1-delta) is
    S at distance delta."""
    row = [float(x) for x in next(csv.reader(open(f"{d}/scores-{s}.csv")))]
    return [[v] for v in reversed(row)]

def bands(k):
    """--export bands at pane k's base (its header in the wide snapshot)."""
    head = open(f"{d}/wide.txt", encoding="utf-8").read().split("\n")[0]
    base = re.search(r"base=(\S+)", head.split(sep)[k]).group(1)
    out = subprocess.run([os.environ["PEVIZ"], "--export", "bands", *args,
                          "-b", base], capture_output=True, text=True).stdout
    return {int(r["band"]): r for r in csv.DictReader(io.StringIO(out))}

def digits(card):
    """The significant digits card prints: 4 when it shows four, else 3
    (a card rounds to 4, or to 3 where that keeps a column; a number
    that ends sooner has its zeros left off)."""
    m = re.sub(r"e.*", "", card).lstrip("-").replace(".", "").lstrip("0")
    return 4 if len(m) >= 4 else 3

def same(card, want):
    """card (text) is want to the digits it prints."""
    p = digits(card)
    v = float(card)
    if want == 0:
        return v == 0
    tol = 0.5 * 10 ** (math.floor(math.log10(abs(want))) - p + 1) * 1.0001
    return abs(v - want) <= tol

def say(ok, what):
    print(("ok " if ok else "FAIL ") + what)

# the panes' bodies: rows between the headers and the first row without
# a separator (the legend)
rows = []
for ln in lines[3:]:
    if sep not in ln:
        break
    rows.append(ln.split(sep))
np_ = len(rows[0]) if rows else 0

def body(k):
    return [r[k].strip() for r in rows if k < len(r) and r[k].strip()]

NUM = r"(-?[0-9][0-9.e+-]*)"

def table(text, heads_):
    """The rows after the column header whose first word is in heads_."""
    out, on = [], False
    for t in text:
        w = t.split()
        if not on:
            on = bool(w) and w[0] in heads_
            continue
        if not re.fullmatch(r"[0-9].*", t):
            break
        out.append([x for x in w if x not in ("\u25c0", "<")])  # the mark
    return out

def t5(text, m, name):
    n = len(m)
    s = [m[i][0] for i in range(n)]
    got = 0
    cnt = [t for t in text if re.fullmatch(r"\d+ buckets.*", t)]
    say(bool(cnt) and cnt[0].split()[0] == buckets, f"{name}: {buckets} buckets")
    ex = [t for t in text if re.fullmatch(r"(distance )?0-\d+(:| exact).*", t)]
    if ex:
        e = int(re.match(r"(?:distance )?0-(\d+)", ex[0]).group(1))
        say(len(set(s[:e + 1])) == e + 1, f"{name}: 0-{e} one value each")
        got += 1
    for w in table(text, ("b", "bucket")):
        b, rng = int(w[0]), w[1]
        lo, hi = (int(rng[:-1]), n - 1) if rng.endswith("+") else \
            (int(rng.split("-")[0]), int(rng.split("-")[-1]))
        vals = set(s[lo:hi + 1])
        ok = len(vals) == 1 and (lo == 0 or s[lo - 1] != s[lo]) and \
            (hi + 1 >= n or s[hi + 1] != s[hi])
        ok = ok and len(set(s[:lo])) == b
        if len(w) > 2:
            ok = ok and same(w[2], s[lo])
        say(ok, f"{name}: bucket {b} = distances {rng}" +
            (f", W = {w[2]}" if len(w) > 2 else ""))
        got += 1
    return got

def alibi(text, ms, name):
    got = 0
    cnt = [t for t in text if re.search(r"\b\d+ heads", t)]
    say(bool(cnt) and re.search(r"(\d+) heads", cnt[0]).group(1) == heads,
        f"{name}: {heads} heads")
    for w in table(text, ("h", "head")):
        h = int(w[0])
        say(same(w[1], -ms[h][1][0]), f"{name}: head {h} slope {w[1]}")
        got += 1
    m = ms.get(int(shown))      # S of the head the pane shows
    joined = " ".join(text)
    far = re.search(r"(?:at distance |S\(|i-j = )(\d+)\)?:? ?(?:S )?= ?" + NUM, joined)
    if far and m:
        dd = int(far.group(1))
        say(same(far.group(2), m[dd][0]), f"{name}: S({dd}) = {far.group(2)}")
        got += 1
    return got

def kerple(text, m, name, power):
    got = 0
    r = {}
    for t in text:
        g = re.fullmatch(r"(r[12]) = " + NUM, t)
        if g:
            r[g.group(1)] = float(g.group(2))
    if len(r) == 2:
        f = (lambda x: -r["r1"] * x ** r["r2"]) if power else \
            (lambda x: -r["r1"] * math.log1p(r["r2"] * x))
        ok = all(abs(f(x) - m[x][0]) <= 1e-3 * max(1, abs(m[x][0]))
                 for x in range(1, len(m)))
        say(ok, f"{name}: r1 = {r['r1']:g}, r2 = {r['r2']:g} give the export")
        got += 1
    for w in table(text, ("i-j", "distance")):
        x = int(w[0])
        say(same(w[1], m[x][0]), f"{name}: S({x}) = {w[1]}")
        got += 1
    return got

def nope(text, m, name):
    joined = " ".join(text)
    ok = re.search(r"S = 0\b", joined) and "constant" in joined
    say(bool(ok) and all(v == 0 for r in m for v in r),
        f"{name}: S = 0, constant, and the export all 0")
    return 1 if ok else 0

def band_rows(text, name, k):
    got = 0
    bb = bands(k)
    hdr = [t for t in text if t.split() and t.split()[0] in ("k", "band")]
    wl = bool(hdr) and bool(re.search(r"wavelength|\u03bb|wl", hdr[0]))
    for w in table(text, ("k", "band")):
        k = int(w[0])
        ok = same(w[-1], float(bb[k]["turns_in_n"]))
        if wl:
            ok = ok and same(w[1], float(bb[k]["wavelength"]))
        say(ok, f"{name}: band {k} {' '.join(w[1:])}")
        got += 1
    return got

ms = {}
for k, s in enumerate(schemes[:np_]):
    text = body(k)
    name = f"pane {'ABCDEF'[k]} {s}"
    if s == "t5":
        got = t5(text, matrix(s), name)
    elif s == "alibi":
        for h in range(1, int(heads) + 1):
            ms[h] = matrix(f"alibi-{h}")
        got = alibi(text, ms, name)
    elif s.startswith("kerple"):
        got = kerple(text, matrix(s), name, s == "kerple-power")
    elif s == "nope":
        got = nope(text, matrix(s), name)
    elif s in ("rope", "xpos") and k > 0 and schemes[0] not in ("rope", "xpos"):
        got = band_rows(text, name, k)
    else:
        continue
    say(got > 0, f"{name}: the card has numbers")
PY

# case NAME SIZE SCHEMES ARGS...: the snapshot's cards against the
# exports with ARGS.
case_() {
    local name=$1 size=$2 schemes=$3 s h out
    shift 3
    local dir="$tmp/$name"
    mkdir -p "$dir"
    if ! "$PEVIZ" --snapshot --view compare --pane-mode diff --size "$size" \
         --schemes "$schemes" "$@" >"$dir/snap.txt" 2>"$dir/err"; then
        fail=$((fail + 1)); echo "FAIL: $name: snapshot failed: $(cat "$dir/err")"
        return
    fi
    local n=$seq_len last a prev=
    for a in "$@"; do
        case $prev in -n | --seq-len) n=$a ;; esac
        prev=$a
    done
    last="$((n - 1))..$((n - 1))"
    for s in ${schemes//,/ }; do
        "$PEVIZ" --export scores --scheme "$s" "$@" --rows "$last" \
            >"$dir/scores-$s.csv"
    done
    case ",$schemes," in *,alibi,*)
        for h in $(seq 1 "${heads_now:-$heads}"); do
            "$PEVIZ" --export scores --scheme alibi "$@" --head "$h" \
                --rows "$last" \
                >"$dir/scores-alibi-$h.csv"
        done ;;
    esac
    "$PEVIZ" --snapshot --view compare --pane-mode diff --size 240x50 \
        --schemes "$schemes" "$@" >"$dir/wide.txt"
    out=$(PEVIZ=$PEVIZ /usr/bin/python3 "$tmp/cards.py" "$dir/snap.txt" \
          "$schemes" "$dir" "${buckets_now:-$buckets}" "${heads_now:-$heads}" \
          "${head_now:-1}" "$@")
    pass=$((pass + $(grep -c '^ok' <<<"$out")))
    if grep -q '^FAIL' <<<"$out" || [ -z "$out" ]; then
        fail=$((fail + 1))
        echo "FAIL: $name (peviz --snapshot --size $size --schemes $schemes $*):"
        grep '^FAIL' <<<"$out" | sed 's/^/    /'
        [ -n "$out" ] || echo "    no checks"
    fi
}

six=t5,alibi,kerple-log,xpos,rope,nope
for size in 80x24 120x40 160x48; do
    case_ "six-$size" "$size" "$six"
done
case_ six-ascii 120x40 "$six" --ascii
buckets_now=64 heads_now=16 head_now=3 \
    case_ options-120x40 120x40 t5,alibi,kerple-power,nope,rope \
    --buckets 64 --bidirectional --heads 16 --head 3 --r1 2 --r2 0.25 \
    -n 300 -d 32
buckets_now=64 heads_now=16 head_now=3 \
    case_ options-80x24 80x24 t5,alibi,kerple-power,nope,rope \
    --buckets 64 --bidirectional --heads 16 --head 3 --r1 2 --r2 0.25 \
    -n 300 -d 32
heads_now=4 case_ marks-160x48 160x48 t5,alibi,xpos --heads 4
case_ long-120x40 120x40 t5,alibi,kerple-log,learned,nope,rope -n 65536
case_ bands-a-160x48 160x48 rope,t5,alibi,kerple-log

echo "compare_cards: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
