#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Memory: valgrind memcheck on --snapshot runs of every view (several
# schemes, modes and sizes), on the exports, a loaded --pe-file (CSV and
# .npy), a tour, --help and refused command lines.  Any memcheck error or
# a definite/indirect leak fails.  Sizes and parameters stay small so it
# runs in seconds.  Skipped when valgrind is not installed or $PEVIZ is a
# sanitizer build (the two cannot run together).
set -u
cd "$(dirname "$0")/.."
: "${PEVIZ:=./peviz}"
NAME=valgrind
pass=0 fail=0

skip=0
done_line() { echo "$NAME: $pass passed, $fail failed, $skip skipped"; [ "$fail" -eq 0 ]; }

if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP $NAME: valgrind is not installed (Debian: apt-get install valgrind)"
    skip=1
    done_line
    exit $?
fi
if grep -qa -e __asan_init -e __ubsan_handle "$PEVIZ"; then
    echo "SKIP $NAME: $PEVIZ is a sanitizer build, and memcheck cannot run beside a sanitizer (make test runs it)"
    skip=1
    done_line
    exit $?
fi

TMPD=$(mktemp -d /tmp/peviz-vg.XXXXXX)
trap 'rm -rf "$TMPD"' EXIT

# vg STATUS ARGS...: peviz ARGS under memcheck must exit STATUS with no
# error.  Runs go in the background, as many at once as there are CPUs;
# finish() collects the verdicts in order.  Inlined frames are left out
# of the reports' stacks: reading them is a fifth of each run's start-up.
JOBS=$(nproc 2>/dev/null || echo 2)
N=0
vg() {
    local want=$1 id=$N
    shift
    N=$((N + 1))
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    (
        valgrind -q --error-exitcode=99 --leak-check=full --read-inline-info=no \
            --errors-for-leak-kinds=definite,indirect \
            --log-file="$TMPD/vg.$id" "$PEVIZ" "$@" >/dev/null 2>&1
        rc=$?
        if [ "$rc" -eq "$want" ] && [ ! -s "$TMPD/vg.$id" ]; then
            echo "ok   peviz $*" >"$TMPD/res.$id"
        else
            { echo "FAIL peviz $* (exit $rc, wanted $want)"
              head -n 40 "$TMPD/vg.$id" | sed 's/^/     | /'; } >"$TMPD/res.$id"
        fi
    ) &
}

finish() {
    local i
    wait
    for ((i = 0; i < N; i++)); do
        cat "$TMPD/res.$i"
        if grep -q '^ok' "$TMPD/res.$i"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
    done
    done_line
}

# The views, schemes and modes are steps of one tour written as slides
# (SVG and text per step): one memcheck start, about 0.6 s of CPU, for
# fourteen pictures instead of one each.  At 10x3 and 1x1 every view is
# the "too small" notice, so the same tour covers those sizes too.
cat >"$TMPD/views.tour" <<'EOF'
title  heatmap
title  clocks
set    view clocks
title  attention
set    view attention
title  compare
set    view compare
title  heatmap, d 512 n 4096 base 5e5 at pos 1000
set    d 512
set    n 4096
set    base 5e5
set    pos 1000
title  clocks, the same
set    view clocks
set    d 512
set    n 4096
set    base 5e5
set    pos 1000
title  rope, softmax, causal
set    view attention
set    scheme rope
key    m a
title  alibi, softmax, causal
set    view attention
set    scheme alibi
key    m a
title  learned, softmax, causal
set    view attention
set    scheme learned
key    m a
title  nope, softmax, causal
set    view attention
set    scheme nope
key    m a
title  scores over sqrt(d), n 1024
set    view attention
set    n 1024
key    t
title  compare with pane C, spectrum
set    view compare
key    + v
title  profile
set    view compare
key    + v v
title  diff
set    view compare
key    + v v v
EOF
vg 0 --tour="$TMPD/views.tour" --slides "$TMPD/s100" --size 100x30 --color truecolor
vg 0 --tour="$TMPD/views.tour" --slides "$TMPD/s10" --size 10x3 --ascii --color 256
vg 0 --tour="$TMPD/views.tour" --slides "$TMPD/s1" --size 1x1
vg 0 --snapshot --view compare --size 60x20 --format svg -d 16 -n 32
vg 0 --snapshot --palette mono --color none --size 60x20
vg 0 --export pe -d 8 -n 8
vg 0 --export scores --scheme rope -d 8 -n 16
vg 0 --export softmax --causal -d 8 -n 16 --format f32
# the paths rope.sh, plan.sh and cli.sh take hundreds of times with
# LeakSanitizer off (see there): models, a config file, the refusals
vg 0 --export freqs --model deepseek-v3
vg 0 --export bound --model gpt-neox-20b -n 64
vg 0 --export bound -d 16 -n 100 --rope-scaling linear --factor 2
vg 0 --snapshot --view compare --pane-mode spectrum --model llama2-7b --size 60x20
vg 0 --model list
printf '{"hidden_size": 64, "num_attention_heads": 4, "rope_theta": 10000, "max_position_embeddings": 256, "rope_scaling": {"rope_type": "yarn", "factor": 4, "original_max_position_embeddings": 64}}\n' >"$TMPD/c.json"
vg 0 --export freqs --config "$TMPD/c.json"
printf '{"rope_scaling": {"rope_type": "yarn", "factor": -1}}\n' >"$TMPD/bad.json"
vg 2 --export freqs --config "$TMPD/bad.json"
# and mpos.sh's and schemes.sh's
vg 0 --export position-ids --sequence text:3,image:2x2,video:2x2x2
vg 0 --export scores --grid 3x2 -d 16
vg 0 --export scores --scheme t5 --content -n 40
vg 0 --export softmax --scheme kerple-log --causal -n 24
vg 0 --export scores --scheme xpos --rotary-dims 8 -d 16 -n 12

printf '0,1,0,1\n0.84,0.54,0.01,1\n0.9,-0.4,0.02,1\n' >"$TMPD/t.csv"
vg 0 --snapshot --view attention --scheme learned --pe-file "$TMPD/t.csv" --size 60x20
vg 0 --snapshot --view heatmap --pe-file "$TMPD/t.csv" --size 60x20
if command -v python3 >/dev/null 2>&1; then
    python3 - "$TMPD/t.npy" <<'PY'
import struct, sys
hdr = "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }"
hdr += ' ' * (64 - (10 + len(hdr) + 1) % 64) + '\n'
body = struct.pack('<12d', *[0, 1, 0, 1, .84, .54, .01, 1, .9, -.4, .02, 1])
open(sys.argv[1], 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(hdr)) + hdr.encode() + body)
PY
    vg 0 --snapshot --view attention --scheme learned --pe-file "$TMPD/t.npy" --size 60x20
fi
printf 'not,a,table\n' >"$TMPD/bad.csv"
vg 2 --snapshot --pe-file "$TMPD/bad.csv"
vg 2 --snapshot --pe-file "$TMPD/missing.csv"
for f in assets/tours/*.tour; do
    [ -f "$f" ] && vg 0 --snapshot --tour="$f" --size 80x24
done
printf 'title  Broken\nset    d 7\n' >"$TMPD/bad.tour"
vg 2 --snapshot --tour="$TMPD/bad.tour"
# set tour in a tour is refused when it loads, leaving nothing behind
printf 'title  Loads a tour\nset    tour x\n' >"$TMPD/tour-x.tour"
vg 2 --tour="$TMPD/tour-x.tour" --check
vg 0 --help
vg 2 -d 7 --base nan --size 0x0
vg 2 --no-such-option
# check lines, holding and failing, at every classroom size
printf 'title  A\nset    view attention\nset    d 64\nkey    e f\ncheck  p.p > e.e\ncheck  key 9\ncheck  set n 64\n\ntitle  B\nset    view compare\ncheck  A.crit = 11\n' >"$TMPD/checks.tour"
vg 1 --tour="$TMPD/checks.tour" --check
finish
