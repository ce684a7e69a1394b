#!/usr/bin/env bash
# Runs every test suite and prints one closing line "N passed, M failed".
# Each suite prints "<name>: N passed, M failed" as its last line.
# E2E=0 leaves out the terminal tests in tmux (tests/e2e).
set -u
cd "$(dirname "$0")/.."
: "${PEVIZ:=./peviz}" "${BUILD:=build}"
export PEVIZ BUILD

total_pass=0 total_fail=0
run_suite() {
    local name=$1; shift
    local out rc line p f t0=$SECONDS
    out=$("$@" 2>&1); rc=$?
    line=$(printf '%s\n' "$out" | grep -E '^[^ ]+: [0-9]+ passed, [0-9]+ failed' | tail -n 1)
    if [ -z "$line" ]; then
        printf '%s\n' "$out"
        echo "$name: no result line (exit $rc)"
        total_fail=$((total_fail + 1)); return
    fi
    p=$(printf '%s' "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
    f=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    if [ "$f" -ne 0 ] || [ "$rc" -ne 0 ]; then printf '%s\n' "$out"; fi
    [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    echo "$line  ($((SECONDS - t0)) s)"
    total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
}

for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] && run_suite "$(basename "$t")" "$t"
done
for s in tests/lib/check.sh tests/cli.sh tests/rope.sh tests/tables.sh tests/docs.sh tests/views_state.sh tests/tour_files.sh tests/golden/check.sh tests/valgrind.sh tests/e2e/*.sh; do
    [ -f "$s" ] || continue
    case "$s" in */lib.sh|*/wrap.sh) continue ;; esac
    case "$s" in tests/e2e/*) [ "${E2E:-1}" = 0 ] && continue ;; esac
    run_suite "$s" bash "$s"
done

echo "${total_pass} passed, ${total_fail} failed"
[ "$total_fail" -eq 0 ]
