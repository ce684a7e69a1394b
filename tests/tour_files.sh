#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Tours outside the terminal:
# - --tour FILE --check validates a tour without a terminal: exit 0 and
#   the step count, or exit 2 and one "FILE:LINE: what" line;
# - --slides DIR writes every step of the shipped tours, in both
#   languages, as SVG (each one parses) and text, and an index.html that
#   shows them in order and pages with an inline script only; files are
#   written only inside DIR, through temporary files renamed into place.
set -u
cd "$(dirname "$0")/.." || exit 1
: "${PEVIZ:=./peviz}"
pass=0 fail=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
check() {
    local what=$1; shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $what"; fi
}
steps=$(grep -c '^title' assets/tours/en.tour)

# ---- --check ---------------------------------------------------------------

"$PEVIZ" --tour=assets/tours/en.tour --check >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
check "--check a good tour: exit 0" [ "$rc" -eq 0 ]
check "--check a good tour: says its $steps steps" \
    grep -q "assets/tours/en.tour: $steps steps" "$tmp/out"
check "--check a good tour: nothing on stderr" [ ! -s "$tmp/err" ]

# refused: exit 2, one stderr line naming file and line, nothing on stdout
refused() {
    local file=$1 want=$2
    "$PEVIZ" --tour "$file" --check >"$tmp/out" 2>"$tmp/err" </dev/null
    local rc=$?
    [ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
        grep -qF -- "$want" "$tmp/err" && return 0
    echo "  --check $file: rc=$rc stderr=$(head -c 300 "$tmp/err")" >&2
    return 1
}
printf 'title A\ntext fine\n\nset d 7\n' >"$tmp/value.tour"
check "--check: a refused command, by line" \
    refused "$tmp/value.tour" "$tmp/value.tour:4: set d 7: :d 7: wants an even number 2..65536"
printf 'title A\ntext fine\nkey Escape\n' >"$tmp/key.tour"
check "--check: an unknown key, by line" \
    refused "$tmp/key.tour" "$tmp/key.tour:3: key: unknown key 'Escape'"
printf '# only comments\n\n' >"$tmp/empty.tour"
check "--check: no steps" refused "$tmp/empty.tour" "$tmp/empty.tour: no steps"
printf 'set d 8\ntitle A\n' >"$tmp/early.tour"
check "--check: set before the first title" \
    refused "$tmp/early.tour" "$tmp/early.tour:1: set before the first title"
printf 'title A\nfrobnicate\n' >"$tmp/dir.tour"
check "--check: an unknown directive" \
    refused "$tmp/dir.tour" "$tmp/dir.tour:2: unknown directive 'frobnicate'"
"$PEVIZ" --check >"$tmp/out" 2>"$tmp/err" </dev/null
check "--check without --tour: exit 2 and why" \
    sh -c "[ $? -eq 2 ] && grep -q 'goes with --tour' '$tmp/err'"

# ---- check lines -------------------------------------------------------------

# The shipped tours' check lines hold at every size, with and without
# colour: each line is tried once per size and colour mode.
sizes=3
for lang in en zh; do
    n=$(grep -c '^check' "assets/tours/$lang.tour")
    "$PEVIZ" --tour --lang $lang --check >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    check "--check $lang: its checks hold (rc=$rc: $(head -c 300 "$tmp/out"))" \
        sh -c "[ $rc -eq 0 ] && [ $n -gt 0 ] && grep -q '; $((n * sizes * 2)) checks hold at $sizes sizes, with and without colour' '$tmp/out'"
done
# A teacher's tour whose claims fail: exit 1, a line per claim, size and
# colour mode, with the numbers the screen showed.  p.p on the diagonal
# is |PE|^2 = d/2 = 256 at d 512 on every screen.
cat >"$tmp/claims.tour" <<'TOUR'
title A
set view attention
set d 512
key e f
check p.p > e.e
check zz > 1
check key 9
check e.e > 1.5 * p.p

title B
set view grid
set d 128
set sequence text:4,image:16x24,text:3
set section 16,24,24
check set interleaved on
TOUR
"$PEVIZ" --tour="$tmp/claims.tour" --check >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
check "--check failing claims: exit 1" [ "$rc" -eq 1 ]
for z in 80x24 120x40 160x48; do
    for m in colour "no colour"; do
        check "--check: p.p > e.e fails at $z, $m, with p.p = 256" \
            grep -q "claims.tour:5: step 1 at $z, $m: p.p > e.e does not hold: p.p = 256, e.e = " "$tmp/out"
        check "--check: an unknown quantity at $z, $m" \
            grep -q "claims.tour:6: step 1 at $z, $m: the attention view shows no 'zz' here" "$tmp/out"
        check "--check: a refused key at $z, $m" \
            grep -q "claims.tour:7: step 1 at $z, $m: key 9 is refused" "$tmp/out"
        check "--check: a refused command says what to type at $z, $m" \
            grep -q "claims.tour:15: step 2 at $z, $m: set interleaved on is refused: .*type :section 22,21,21" "$tmp/out"
    done
done
check "--check: a claim that holds is not reported" \
    sh -c "! grep -q 'claims.tour:8:' '$tmp/out'"
check "--check: the count of failures" \
    grep -q "claims.tour: 24 of 30 checks fail" "$tmp/out"
# The e.e > 1.5 p.p claim read from the screen, against the formula:
# p.p = d/2 exactly, e.e near |e|^2 = d with e's entries N(0, 1) (N(0,
# 1/d) times sqrt(d)).
if python3 - "$tmp/out" <<'PY'; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
import re, sys
vals = [float(m.group(1)) for m in re.finditer(r"p\.p = 256, e\.e = ([0-9.e+-]+)", open(sys.argv[1]).read())]
ok = len(vals) == 6 and all(0.8 * 512 < v < 1.25 * 512 for v in vals)
print("" if ok else "FAIL: e.e on the diagonal near d = 512: %s" % vals)
sys.exit(0 if ok else 1)
PY
# The compare view's band facts by name, against the formula: the
# critical band is the first i with 2 pi base^(2i/d) > n.
crit() { python3 -c "import math,sys; b,d,n=map(float,sys.argv[1:]); print(next(i for i in range(int(d)//2) if 2*math.pi*b**(2*i/d) > n))" "$@"; }
ca=$(crit 10000 64 4096) cb=$(crit 500000 64 4096)
printf 'title A\nset view compare\nset n 4096\ncheck A.crit = %s\ncheck B.crit = %s\ncheck A.crit = %s\n' \
    "$ca" "$cb" "$((ca + 1))" >"$tmp/crit.tour"
"$PEVIZ" --tour="$tmp/crit.tour" --check >"$tmp/out" 2>"$tmp/err" </dev/null
check "--check: A.crit = $ca and B.crit = $cb hold, A.crit = $((ca + 1)) not" \
    sh -c "grep -q 'crit.tour: 6 of 18 checks fail' '$tmp/out' && grep -q 'crit.tour:6: step 1 at 80x24, colour: A.crit = $((ca + 1)) does not hold: A.crit = $ca$' '$tmp/out' && ! grep -q 'crit.tour:[45]:' '$tmp/out'"
printf 'title A\ncheck e.e ~ p.p\n' >"$tmp/syntax.tour"
check "--check: a check line that is no claim, by line" \
    refused "$tmp/syntax.tour" "$tmp/syntax.tour:2: check 'e.e ~ p.p': want"
printf 'title A\ncheck key Escape\n' >"$tmp/ckey.tour"
check "--check: a check key that a tour cannot press" \
    refused "$tmp/ckey.tour" "$tmp/ckey.tour:2: check key: 'Escape'"

# ---- --slides ----------------------------------------------------------------

# slides_ok DIR N LANG: N steps in DIR, each SVG parses, each text holds
# its step's title, index.html shows step-01..N in order, scripts inline.
slides_ok() {
    python3 - "$1" "$2" "$3" <<'PY'
import glob, html.parser, os, sys, xml.etree.ElementTree as ET
d, n, lang = sys.argv[1], int(sys.argv[2]), sys.argv[3]
bad = []
names = sorted(os.listdir(d))
want = ['index.html'] + ['step-%02d.%s' % (i, e) for i in range(1, n + 1)
                         for e in ('svg', 'txt')]
if names != sorted(want):
    bad.append('files: %s' % names)
for i in range(1, n + 1):
    root = ET.parse(os.path.join(d, 'step-%02d.svg' % i)).getroot()
    if not root.tag.endswith('svg'):
        bad.append('step %d: root %s' % (i, root.tag))
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.img, self.ids, self.ext, self.h1, self.inh1 = [], [], [], [], 0
    def handle_starttag(self, t, a):
        a = dict(a)
        if t == 'img': self.img.append(a.get('src'))
        if t == 'section': self.ids.append(a.get('id'))
        if t == 'script' and 'src' in a: self.ext.append(a['src'])
        if t in ('link', 'iframe') or (t == 'img' and '//' in a.get('src', '')):
            self.ext.append(a)
        if t == 'h1': self.inh1 = 1; self.h1.append('')
    def handle_endtag(self, t):
        if t == 'h1': self.inh1 = 0
    def handle_data(self, s):
        if self.inh1: self.h1[-1] += s
p = P()
page = open(os.path.join(d, 'index.html'), encoding='utf-8').read()
p.feed(page)
if p.img != ['step-%02d.svg' % i for i in range(1, n + 1)]:
    bad.append('index images: %s' % p.img)
if p.ids != ['s%d' % i for i in range(1, n + 1)]:
    bad.append('index sections: %s' % p.ids)
if p.ext:
    bad.append('external: %s' % p.ext)
if 'ArrowRight' not in page or 'ArrowLeft' not in page:
    bad.append('no arrow keys')
if ('lang="%s"' % lang) not in page:
    bad.append('lang')
for i in range(1, n + 1):
    txt = open(os.path.join(d, 'step-%02d.txt' % i), encoding='utf-8').read()
    title = p.h1[i - 1].split(' ', 1)[1]
    if ('\n%d/%d %s\n' % (i, n, title)) not in txt:
        bad.append('step %d text lacks its title %r' % (i, title))
    if ('%d/%d' % (i, n)) not in txt.split('\n%d/%d ' % (i, n))[0]:
        bad.append('step %d: the screen lacks the step count' % i)
for b in bad:
    print('  ' + b)
sys.exit(1 if bad else 0)
PY
}

for lang in en zh; do
    d="$tmp/slides-$lang"
    "$PEVIZ" --tour --lang "$lang" --slides "$d" --size 100x30 \
        >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    check "--slides $lang: exit 0 ($(head -c 200 "$tmp/err"))" [ "$rc" -eq 0 ]
    check "--slides $lang: says $steps steps" grep -q "$steps steps" "$tmp/out"
    check "--slides $lang: $steps steps, SVGs parse, index in order" \
        slides_ok "$d" "$steps" "$lang"
done
check "--slides: the screen size is --size" \
    grep -q 'width="800" height="480"' "$tmp/slides-en/step-01.svg"
check "--slides zh: Chinese captions" grep -q '注意力' "$tmp/slides-zh/index.html"

# only inside DIR: the parent holds DIR and nothing new
mkdir "$tmp/parent"
(cd "$tmp/parent" && "$OLDPWD/$PEVIZ" --tour="$OLDPWD/assets/tours/en.tour" \
     --slides out >/dev/null 2>&1)
check "--slides: writes only inside DIR" \
    [ "$(ls -A "$tmp/parent")" = "out" ]
# again into the same DIR: the files are replaced, no temporary is left
before=$(ls -A "$tmp/parent/out" | wc -l)
(cd "$tmp/parent" && "$OLDPWD/$PEVIZ" --tour="$OLDPWD/assets/tours/en.tour" \
     --slides out >/dev/null 2>&1)
check "--slides again: same files, no temporary left" \
    [ "$(ls -A "$tmp/parent/out" | wc -l)" -eq "$before" ]
# a file where DIR should be: refused
: >"$tmp/afile"
"$PEVIZ" --tour --slides "$tmp/afile" >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
check "--slides onto a file: exit 2, one line" \
    sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'not a directory' '$tmp/err'"
"$PEVIZ" --slides "$tmp/x" >"$tmp/out" 2>"$tmp/err" </dev/null
check "--slides without --tour: exit 2" sh -c "[ $? -eq 2 ] && [ ! -e '$tmp/x' ]"
# a bad tour: nothing is written
"$PEVIZ" --tour "$tmp/value.tour" --slides "$tmp/bad" >/dev/null 2>&1
check "--slides with a bad tour: no DIR" [ ! -e "$tmp/bad" ]

# a tour that loads or steps a tour (set tour N) is refused by line, in
# --check, in --slides and at an interactive start on a terminal
printf 'title one\nset tour 1\ntext hi\n' >"$tmp/self.tour"
check "--check: set tour is refused by line" \
    refused "$tmp/self.tour" "$tmp/self.tour:2: set tour: a tour cannot load or step a tour"
"$PEVIZ" --tour "$tmp/self.tour" --slides "$tmp/self" >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
check "--slides with set tour: exit 2, one line, no DIR (rc=$rc)" \
    sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q ':2: set tour' '$tmp/err' && [ ! -e '$tmp/self' ]"
# on a pseudo-terminal: the program's exit status and all it wrote
on_pty() {
    python3 - "$@" <<'PY'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.environ['TERM'] = 'xterm-256color'
    os.execv(sys.argv[1], sys.argv[1:])
out = b''
while True:
    try:
        b = os.read(fd, 4096)
    except OSError:
        break
    if not b:
        break
    out += b
_, st = os.waitpid(pid, 0)
sys.stdout.write('%d %s' % (os.waitstatus_to_exitcode(st), out.decode('utf-8', 'replace')))
PY
}
got=$(on_pty "$PEVIZ" --tour="$tmp/self.tour")
check "interactive --tour with set tour: exit 2 and the line ($(echo "$got" | head -c 160))" \
    sh -c 'case "$1" in "2 "*"set tour: a tour cannot load or step a tour"*) exit 0;; esac; exit 1' _ "$got"

# a signal that ends --slides mid-write leaves no temporary file: each of
# INT, TERM, HUP and QUIT is sent while a step's temporary file exists
# (polled for), early and late in the tour; the program still dies of it
interrupted() {
    python3 - "$PEVIZ" "$tmp/sig" <<'PY'
import os, signal, subprocess, sys, time
peviz, base = sys.argv[1], sys.argv[2]
bad = []
def dflt():
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(s, signal.SIG_DFL)
for name in ('INT', 'TERM', 'HUP', 'QUIT'):
    for nth in (1, 9):
        sig = getattr(signal, 'SIG' + name)
        d = '%s-%s-%d' % (base, name, nth)
        p = subprocess.Popen([peviz, '--tour', '--slides', d, '--size', '1000x400'],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, preexec_fn=dflt)
        seen, end = set(), time.time() + 60
        while p.poll() is None and time.time() < end:
            names = os.listdir(d) if os.path.isdir(d) else []
            seen.update(n for n in names if n.startswith('.'))
            if len(seen) >= nth and any(n.startswith('.') for n in names):
                break
            time.sleep(0.002)
        if p.poll() is not None:
            bad.append('%s %d: ended before a temporary file was seen' % (name, nth))
            continue
        p.send_signal(sig)
        rc = p.wait()
        left = [n for n in os.listdir(d) if n.startswith('.')]
        if left or rc != -sig:
            bad.append('%s %d: rc %d, left %s' % (name, nth, rc, left))
for b in bad:
    print('  ' + b)
sys.exit(1 if bad else 0)
PY
}
check "--slides ended by INT, TERM, HUP or QUIT: no temporary file left" interrupted
# the files honour the umask, as every new file does
(umask 077 && "$PEVIZ" --tour --slides "$tmp/um077" >/dev/null 2>&1)
(umask 022 && "$PEVIZ" --tour --slides "$tmp/um022" >/dev/null 2>&1)
check "--slides under umask 077: every file 0600" \
    sh -c '[ -z "$(find "$1" -type f ! -perm 0600)" ] && [ -n "$(ls "$1")" ]' _ "$tmp/um077"
check "--slides under umask 022: every file 0644" \
    sh -c '[ -z "$(find "$1" -type f ! -perm 0644)" ] && [ -n "$(ls "$1")" ]' _ "$tmp/um022"

# ---- refused combinations: exit 2, one line on stderr, nothing on stdout ----

while IFS= read -r args; do
    [ -z "$args" ] && continue
    eval "set -- $args"
    "$PEVIZ" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    check "peviz $args: refused (rc=$rc, $(head -c 120 "$tmp/err"))" \
        sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && [ ! -s '$tmp/out' ]"
done <<'TABLE'
--check
--check --export pe
--tour --check --snapshot
--slides
--slides ''
--tour --slides ''
--tour --slides x --check
--autoplay 2
--tour --autoplay 0
--tour --autoplay 5000
--tour --autoplay abc
--tour --autoplay 2 --snapshot
--record x.cast --export pe
--record ''
--record x.cast --follow /tmp/none.sock
--record x.cast
TABLE
check "no file was created by a refused --record (no terminal included)" [ ! -e x.cast ]

echo "tour_files: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
