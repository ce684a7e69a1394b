#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# run.sh - make bench: frame compute, keypress latency, bytes, CPU, memory,
# the binary export against the write floor and --check-cache of a long
# cache.  Prints a table; a figure over its target is marked MISSED, a row
# that measured nothing NO DATA, and either makes the script exit 1 (after
# the whole table).
# BENCH_QUICK=1 takes fewer samples; BENCH_ONLY="frame pty follow graphics export cache"
# and PTY_ONLY="latency bandwidth slow rss" pick sections, PTY_VIEWS="clocks"
# the views of pty.py's tables.
set -u
PEVIZ=${PEVIZ:-./peviz}
BUILD=${BUILD:-build}
RUNS=${BENCH_RUNS:-7}
OUT="$BUILD/bench/results.txt"

now_ns() { date +%s%N; }

# BENCH_ONLY="frame pty export" picks sections (default: all)
want() { [ -z "${BENCH_ONLY:-}" ] || [[ " $BENCH_ONLY " == *" $1 "* ]]; }

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Time "$@" with stdout to the destination: "file" (a file in /tmp) or
# "pipe" (a pipe into cat, which reads it all).  Prints milliseconds.
time_to() {
    local dest=$1 t0 t1
    shift
    t0=$(now_ns)
    if [ "$dest" = file ]; then
        "$@" > "$TMPF"
    else
        "$@" | cat > /dev/null
    fi
    t1=$(now_ns)
    echo $(( (t1 - t0) / 1000 ))e-3
}

export_bench() {
    local rows=16384 d=4096 fmt size dest bytes i e w re rw verdict
    echo
    echo "Binary PE export, -d $d -n $rows, against the write floor (the same"
    echo "number of bytes written from a filled buffer to the same destination),"
    echo "ms, median of $RUNS runs, export and floor alternating in one run"
    printf '  %-4s %-5s %11s %10s %10s %7s  %s\n' fmt dest bytes export floor ratio "target <= 2"
    for fmt in f32 f64; do
        size=4; [ $fmt = f64 ] && size=8
        bytes=$((rows * d * size))
        for dest in file pipe; do
            : > "$TMPF.e"; : > "$TMPF.w"
            # one unmeasured run of each first: page cache and pipe warm
            time_to $dest "$PEVIZ" --export pe -d $d -n $rows --format $fmt > /dev/null
            time_to $dest "$BUILD/bench/write_floor" $bytes > /dev/null
            for ((i = 0; i < RUNS; i++)); do
                time_to $dest "$PEVIZ" --export pe -d $d -n $rows --format $fmt >> "$TMPF.e"
                [ $dest = file ] && [ "$(stat -c %s "$TMPF")" != "$bytes" ] &&
                    echo "  (export wrote $(stat -c %s "$TMPF") bytes, expected $bytes)"
                time_to $dest "$BUILD/bench/write_floor" $bytes >> "$TMPF.w"
            done
            e=$(median < "$TMPF.e"); w=$(median < "$TMPF.w")
            re=$(awk -v e="$e" -v w="$w" 'BEGIN { printf "%.2f", e / w }')
            verdict=$(awk -v r="$re" 'BEGIN { print (r <= 2) ? "ok" : "MISSED" }')
            [ $dest = pipe ] && verdict="(for information)"
            printf '  %-4s %-5s %11d %10.1f %10.1f %7s  %s\n' $fmt $dest $bytes "$e" "$w" "$re" "$verdict"
        done
    done
    rm -f "$TMPF" "$TMPF.e" "$TMPF.w"
    echo "  (file: a file in /tmp, truncated before each run and removed at the end;"
    echo "   the target is read on it.  pipe: into cat on the other core, whose"
    echo "   scheduling makes these figures vary a lot from run to run; there the"
    echo "   one-thread export pays its compute and the copy into the pipe one after"
    echo "   the other, while the floor pays only the copy.)"
}

# Softmax at n = 2^24 (the streamed cells): the whole program's peak
# memory for the finished map, a --snapshot at 200x60 through peak_rss.
soft_rss() {
    local d kb secs st
    for d in 64 4096; do
        read -r kb secs st < <("$BUILD/bench/peak_rss" "$PEVIZ" --snapshot \
            --view attention --size 200x60 -d $d -n 16777216 --softmax)
        if [ -z "${kb:-}" ] || [ "${st:-1}" != 0 ]; then
            echo "  attention  softmax d $d n 2^24 snapshot: NO DATA (status ${st:-?})"
            continue
        fi
        awk -v d=$d -v kb="$kb" -v s="$secs" 'BEGIN {
            printf "  attention  softmax d %d n 2^24 snapshot 200x60: peak RSS %.1f MB " \
                   "(%.1f s wall)  target <= 64 MB: %s\n", d, kb / 1024, s,
                   (kb <= 65536) ? "ok" : "MISSED" }'
    done
}

# --check-cache over a whole 131072 x 128 f32 cache (128 MB, written by
# cache_npy, matching llama2-7b): every row compared, a block at a time.
# Wall time and peak memory, the median of RUNS runs.
cache_bench() {
    local f="$TMPF.npy" i kb secs st out="$TMPF.c"
    echo
    echo "--check-cache of a 131072 x 128 f32 cache (npy, 128 MB), every position, median of $RUNS runs"
    if ! "$BUILD/bench/cache_npy" 131072 128 10000 >"$f"; then
        echo "  check-cache  131072 x 128: NO DATA (cache_npy failed)"
        rm -f "$f"
        return
    fi
    : >"$out"
    for ((i = 0; i < RUNS; i++)); do
        read -r kb secs st < <("$BUILD/bench/peak_rss" "$PEVIZ" --check-cache "$f" --model llama2-7b)
        [ "${st:-1}" = 0 ] && echo "$kb $secs" >>"$out"
    done
    rm -f "$f"
    if [ "$(wc -l <"$out")" != "$RUNS" ]; then
        echo "  check-cache  131072 x 128: NO DATA (a run did not match, status ${st:-?})"
        return
    fi
    kb=$(cut -d' ' -f1 "$out" | median); secs=$(cut -d' ' -f2 "$out" | median)
    rm -f "$out"
    awk -v kb="$kb" -v s="$secs" 'BEGIN {
        printf "  check-cache  131072 x 128 f32: %.2f s wall  target <= 2 s: %s;  " \
               "peak RSS %.1f MB  target <= 32 MB: %s\n", s,
               (s <= 2) ? "ok" : "MISSED", kb / 1024, (kb <= 32768) ? "ok" : "MISSED" }'
}

main() {
    echo "peviz make bench, $(date '+%Y-%m-%d %H:%M %Z')"
    echo "machine: $(nproc) cores,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), $(. /etc/os-release && echo "$PRETTY_NAME"), $(${CC:-cc} --version | head -n 1)"
    echo "binary: $PEVIZ (one thread; the default build, no -march=native unless NATIVE=1)"
    echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine slows the pty rows)"
    echo
    if want frame; then
        local runs=9
        [ -n "${BENCH_QUICK:-}" ] && runs=5
        "$BUILD/bench/bench_frame" $runs ||
            echo "  (bench_frame stopped with status $?: NO DATA)"
        soft_rss
        echo
    fi
    if want pty; then
        BUILD="$BUILD" python3 tests/bench/pty.py "$PEVIZ" ${BENCH_QUICK:+quick} ||
            echo "  (pty.py stopped with status $?: NO DATA)"
    fi
    if want follow; then
        echo
        BUILD="$BUILD" python3 tests/bench/follow.py "$PEVIZ" ${BENCH_QUICK:+quick} ||
            echo "  (follow.py stopped with status $?: NO DATA)"
    fi
    if want graphics; then
        echo
        python3 tests/bench/graphics.py "$PEVIZ" ${BENCH_QUICK:+quick} ||
            echo "  (graphics.py stopped with status $?)"
    fi
    if want export; then
        TMPF=$(mktemp /tmp/peviz-bench.XXXXXX)
        export_bench
    fi
    if want cache; then
        TMPF=$(mktemp /tmp/peviz-bench.XXXXXX)
        cache_bench
        rm -f "$TMPF"
    fi
}

mkdir -p "$BUILD/bench"
main 2>&1 | tee "$OUT"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT"
missed=$(grep -c 'MISSED' "$OUT")
nodata=$(grep -c 'NO DATA' "$OUT")
echo
echo "(saved in $OUT)"
if [ "$missed" -gt 0 ] || [ "$nodata" -gt 0 ]; then
    echo "bench: FAILED: $missed row(s) with MISSED, $nodata with NO DATA"
    exit 1
fi
echo "bench: every row measured and within its target"
exit 0
