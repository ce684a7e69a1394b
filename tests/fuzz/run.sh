#!/usr/bin/env bash
# Runs each libFuzzer harness given as an argument for FUZZ_SECONDS
# (make fuzz).  Each starts from its seed corpus tests/fuzz/corpus/NAME/
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

pass=0 fail=0 runs=0
scratch=$(mktemp -d /tmp/peviz-fuzz.XXXXXX)
trap 'rm -rf "$scratch"' EXIT

for bin in "$@"; do
    name=${bin##*/fuzz_}
    seeds=tests/fuzz/corpus/$name
    art=$BUILD/artifacts/$name
    mkdir -p "$scratch/$name" "$art" "$seeds"
    dict=() seed=()
    [ -n "${FUZZ_SEED:-}" ] && seed=(-seed="$FUZZ_SEED")
    [ -f "tests/fuzz/$name.dict" ] && dict=(-dict="tests/fuzz/$name.dict")
    log=$BUILD/fuzz-$name.log
    # -close_fd_mask=3: the parsers' own messages go nowhere; libFuzzer
    # and the sanitizers keep a copy of stderr for their reports.
    TMPDIR="$scratch" "$bin" -max_total_time="$FUZZ_SECONDS" -timeout=20 \
        -rss_limit_mb=2048 -print_final_stats=1 \
        -close_fd_mask=3 -artifact_prefix="$art/" "${dict[@]}" "${seed[@]}" \
        "$scratch/$name" "$seeds" >"$log" 2>&1
    rc=$?
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    n=${n:-0}
    runs=$((runs + n))
    if [ "$rc" -eq 0 ] && [ -n "${FUZZ_MERGE:-}" ]; then
        rm -rf "$scratch/merged"
        mkdir -p "$scratch/merged"
        "$bin" -merge=1 -use_counters=0 -close_fd_mask=3 "$scratch/merged" \
            "$seeds" "$scratch/$name" >>"$log" 2>&1 &&
            rm -rf "$seeds" && mv "$scratch/merged" "$seeds"
    fi
    if [ "$rc" -eq 0 ] && [ "$n" -gt 0 ]; then
        pass=$((pass + 1))
        echo "ok   fuzz_$name: $n executions in ${FUZZ_SECONDS}s, no failure"
    else
        fail=$((fail + 1))
        echo "FAIL fuzz_$name: exit $rc after $n executions (log: $log)"
        grep -E 'ERROR|SUMMARY|Test unit written|runtime error' "$log" | head -n 20 | sed 's/^/     | /'
    fi
done
echo "fuzz: $runs executions in all"
echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
