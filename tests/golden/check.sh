#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Golden snapshots: render every case of cases.txt with `peviz --snapshot`
# and compare it byte for byte with the stored frame NAME.txt.  A
# difference prints a diff (escapes made visible) and fails.  Regenerate
# on purpose with `make golden` (tests/golden/regen.sh), never from here.
set -u
cd "$(dirname "$0")/../.."
: "${PEVIZ:=./peviz}"
# Under a sanitizer build this starts the program for each of a hundred
# cases, and LeakSanitizer's scan at each exit doubles what a start
# costs, so here the sanitizers look for memory errors alone; leaks on
# the same paths (every view, scheme and mode, at 100x30, 10x3 and 1x1)
# are valgrind.sh's to find.
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
dir=tests/golden
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

while IFS='|' read -r name args; do
    case $name in '' | '#'*) continue ;; esac
    want=$dir/$name.txt
    if [ ! -f "$want" ]; then
        echo "golden $name: no $want (run: make golden)"
        fail=$((fail + 1)); continue
    fi
    # the arguments are separate words: unquoted on purpose
    if ! "$PEVIZ" --snapshot $args >"$tmp/got" 2>"$tmp/err"; then
        echo "golden $name: peviz --snapshot $args failed:"; cat "$tmp/err"
        fail=$((fail + 1)); continue
    fi
    if cmp -s "$want" "$tmp/got"; then
        pass=$((pass + 1))
    else
        echo "golden $name: differs from $want (peviz --snapshot $args)"
        diff -u "$want" "$tmp/got" | head -n 60 | sed 's/\x1b/^[/g'
        fail=$((fail + 1))
    fi
done <"$dir/cases.txt"

if [ $((pass + fail)) -eq 0 ]; then
    echo "golden: no cases in $dir/cases.txt"; fail=1
fi
echo "golden: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
