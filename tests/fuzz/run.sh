#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Runs each libFuzzer harness given as an argument for FUZZ_RUNS inputs
# (a number, or "budget": each harness's count in tests/fuzz/budget.txt;
# a fixed amount of work, as CI wants) or, without it, for FUZZ_SECONDS
# (make fuzz), FUZZ_JOBS harnesses at a time (default: the cores).  Each starts from its seed corpus tests/fuzz/corpus/NAME/
# and writes what it finds to a scratch directory, so a run never
# changes the tree; a crash, a leak, a sanitizer report or a timeout is
# saved under $BUILD/artifacts/NAME/ and fails the run.
# Prints "fuzz: N passed, M failed" last.
#
# FUZZ_SEED=N fixes libFuzzer's random seed, so runs start with the same
# mutations (CI uses one; without it each run explores new ground).  An
# input that failed belongs in the seed corpus, so every run replays it.
#
# FUZZ_MERGE=1 refreshes the seed corpus on purpose: the seeds and what
# the run found are merged into the smallest set that keeps every edge
# reached (-use_counters=0: edges, not hit counts), which keeps the
# corpus to a few hundred small files.
set -u
cd "$(dirname "$0")/../.."
: "${FUZZ_SECONDS:=60}" "${BUILD:=build/fuzz}"

: "${FUZZ_RUNS:=}" "${FUZZ_JOBS:=$(nproc 2>/dev/null || echo 1)}"
pass=0 fail=0 runs=0
scratch=$(mktemp -d /tmp/peviz-fuzz.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

# budget NAME: libFuzzer's limit for one harness, in $budget and $what
budget() {
    local runs=$FUZZ_RUNS
    if [ "$runs" = budget ]; then
        runs=$(awk -v n="$1" '$1 == n { print $2 }' tests/fuzz/budget.txt)
        runs=${runs:-10000}
    fi
    if [ -n "$runs" ]; then
        budget=(-runs="$runs" -max_total_time=600) what="$runs runs"
    else
        budget=(-max_total_time="$FUZZ_SECONDS") what="${FUZZ_SECONDS}s"
    fi
}

# fuzz_one BIN: run one harness; its verdict goes to $scratch/NAME.verdict
# as "pass|fail EXECUTIONS" and its report lines to NAME.report
fuzz_one() {
    local bin=$1 name=${1##*/fuzz_} budget what
    budget "$name"
    seeds=tests/fuzz/corpus/$name
    art=$BUILD/artifacts/$name
    mkdir -p "$scratch/$name" "$art" "$seeds"
    dict=() seed=()
    [ -n "${FUZZ_SEED:-}" ] && seed=(-seed="$FUZZ_SEED")
    [ -f "tests/fuzz/$name.dict" ] && dict=(-dict="tests/fuzz/$name.dict")
    log=$BUILD/fuzz-$name.log
    # -close_fd_mask=3: the parsers' own messages go nowhere; libFuzzer
    # and the sanitizers keep a copy of stderr for their reports.
    TMPDIR="$scratch" "$bin" "${budget[@]}" -timeout=20 \
        -rss_limit_mb=2048 -print_final_stats=1 \
        -close_fd_mask=3 -artifact_prefix="$art/" "${dict[@]}" "${seed[@]}" \
        "$scratch/$name" "$seeds" >"$log" 2>&1
    rc=$?
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    n=${n:-0}
    if [ "$rc" -eq 0 ] && [ -n "${FUZZ_MERGE:-}" ]; then
        rm -rf "$scratch/merged"
        mkdir -p "$scratch/merged"
        "$bin" -merge=1 -use_counters=0 -close_fd_mask=3 "$scratch/merged" \
            "$seeds" "$scratch/$name" >>"$log" 2>&1 &&
            rm -rf "$seeds" && mv "$scratch/merged" "$seeds"
    fi
    if [ "$rc" -eq 0 ] && [ "$n" -gt 0 ]; then
        echo "ok   fuzz_$name: $n executions ($what), no failure" >"$scratch/$name.report"
        echo "pass $n" >"$scratch/$name.verdict"
    else
        { echo "FAIL fuzz_$name: exit $rc after $n executions (log: $log)"
          grep -E 'ERROR|SUMMARY|Test unit written|runtime error' "$log" | head -n 20 | sed 's/^/     | /'
        } >"$scratch/$name.report"
        echo "fail $n" >"$scratch/$name.verdict"
    fi
}

active=0
for bin in "$@"; do
    if [ "$active" -ge "$FUZZ_JOBS" ]; then wait -n; active=$((active - 1)); fi
    fuzz_one "$bin" &
    active=$((active + 1))
done
wait
for bin in "$@"; do
    name=${bin##*/fuzz_}
    cat "$scratch/$name.report" 2>/dev/null
    read -r v n <"$scratch/$name.verdict" 2>/dev/null || { v=fail n=0; }
    runs=$((runs + n))
    if [ "$v" = pass ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "fuzz: $runs executions in all"
echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
