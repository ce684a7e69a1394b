#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Runs the test suites and prints one closing line
# "N passed, M failed, K skipped", then the five slowest suites.
#
# Each suite prints "<name>: N passed, M failed" as its last result line,
# optionally followed by ", K skipped", and one line
# "SKIP <suite>: <why> (Debian: apt-get install <package>)" for each part
# it could not run because an optional tool is missing. A skip never
# counts as a pass.
#
# T=GLOB runs the suites whose name matches (T=test_pe, T=cli,
# T='e2e/*', several: T='lib/* unit/* cli'); the names are those
# `T=list` prints. X=GLOB leaves out the suites it matches (the same
# way). E2E=0 leaves out the
# terminal tests in tmux (tests/e2e). JOBS=N runs N suites at once
# (default: the cores plus one; the terminal suites use private tmux
# servers and temporary files, so they do not meet), and beside them up
# to WAITERS=N (default 2) of the suites that mostly wait.
set -u
cd "$(dirname "$0")/.."
: "${PEVIZ:=./peviz}" "${BUILD:=build}" "${T:=}" "${X:=}" "${JOBS:=}"
export PEVIZ BUILD
[ -n "$JOBS" ] || JOBS=$(( $(nproc 2>/dev/null || echo 1) + 1 ))
# Suites that spend most of their time waiting (for a terminal to go
# quiet, a peer to time out) rather than computing: up to WAITERS of
# them run beside the JOBS others, so that they hold no core idle.
WAITING='e2e/test_portable e2e/test_early_keys e2e/test_slowterm e2e/test_xtermjs unit/test_follow graphics'
: "${WAITERS:=2}"

sname() { local s=${1#tests/}; printf '%s' "${s%.sh}"; }

# name<TAB>command: the costliest first (valgrind, graphics, then the
# terminal suites, test_resize first of them), so that the many short
# ones fill in around them instead of one long suite ending last.
suites() {
    local s t listed=" tests/valgrind.sh tests/graphics.sh "
    [ -f tests/valgrind.sh ] && printf 'valgrind\tbash tests/valgrind.sh\n'
    [ -f tests/graphics.sh ] && printf 'graphics\tbash tests/graphics.sh\n'
    if [ "${E2E:-1}" != 0 ]; then
        for s in tests/e2e/test_resize.sh tests/e2e/test_*.sh; do
            case " $listed " in *" $s "*) continue ;; esac
            listed="$listed $s"
            [ -f "$s" ] && printf '%s\tbash %s\n' "$(sname "$s")" "$s"
        done
    fi
    # every other tests/*.sh but this one
    for s in tests/*.sh tests/golden/check.sh tests/lib/check.sh; do
        case $s in tests/run.sh) continue ;; esac
        case " $listed " in *" $s "*) continue ;; esac
        listed="$listed $s"
        [ -f "$s" ] && printf '%s\tbash %s\n' "$(sname "$s")" "$s"
    done
    for t in "$BUILD"/tests/test_*; do
        [ -x "$t" ] || continue
        s=unit
        [ -f "tests/lib/$(basename "$t").c" ] && s=lib
        printf '%s/%s\t%s\n' "$s" "$(basename "$t")" "$t"
    done | sort
}

# matches NAME PATTERNS: the suite's name (its path without tests/ and
# .sh) matches a word of PATTERNS, whole or after its last slash
# (test_pe finds lib/test_pe, cli cli).
matches() {
    local name=$1 glob
    set -f                      # the words are patterns, not file names
    for glob in $2; do
        case $name in $glob) set +f; return 0 ;; esac
        case ${name##*/} in $glob) set +f; return 0 ;; esac
    done
    set +f
    return 1
}

# In T (or T empty), and not in X.
wanted() {
    { [ -z "$T" ] || matches "$1" "$T"; } && ! { [ -n "$X" ] && matches "$1" "$X"; }
}

if [ "$T" = list ]; then
    suites | cut -f1
    exit 0
fi

OUT=$(mktemp -d /tmp/peviz-run.XXXXXX)
trap 'rm -rf "$OUT"' EXIT

# The suites start python3 hundreds of times. Debian's own interpreter
# comes first on PATH where it exists: the optional modules the suites
# use are Debian packages (python3-pyte, python3-numpy), which only it
# sees, and it starts in half the time of a version manager's build.
# Elsewhere, where python3 is a version manager's shim (a shell script
# that looks the version up on every start, about ten times the
# interpreter's own start-up), the interpreter it resolves to goes first.
mkdir -p "$OUT/bin"
if [ -x /usr/bin/python3 ]; then
    ln -s /usr/bin/python3 "$OUT/bin/python3"
elif py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) &&
    [ -x "$py" ] && [ "$(command -v python3)" != "$py" ]; then
    ln -s "$py" "$OUT/bin/python3"
fi
PATH="$OUT/bin:$PATH"
# No suite reads the user's own settings file (peviz.conf): each sees an
# empty configuration directory unless it makes its own.
mkdir -p "$OUT/config"
export XDG_CONFIG_HOME="$OUT/config"
total_pass=0 total_fail=0 total_skip=0

# run_one N NAME CMD: the suite's output in N.out, its status and
# seconds in N.rc
run_one() {
    local n=$1 cmd=$3 t0=${EPOCHREALTIME/./} rc us ms=0 t
    $cmd >"$OUT/$n.out" 2>&1 </dev/null   # words: "bash tests/x.sh" or a binary
    rc=$?
    us=$(( ${EPOCHREALTIME/./} - t0 ))
    # `times`, second line: this subshell's children (the suite), user and
    # system time as "XmY.ZZZs"; added up in milliseconds
    times >"$OUT/$n.cpu"
    { read -r _; read -r -a t; } <"$OUT/$n.cpu"
    for t in "${t[@]}"; do
        [[ $t =~ ^([0-9]+)m([0-9]+)\.([0-9]{3})s$ ]] &&
            ms=$(( ms + (BASH_REMATCH[1] * 60 + 10#${BASH_REMATCH[2]}) * 1000 + 10#${BASH_REMATCH[3]} ))
    done
    printf '%d %d.%03d %d.%d\n' "$rc" $((us / 1000000)) $((us / 1000 % 1000)) \
        $((ms / 1000)) $((ms / 100 % 10)) >"$OUT/$n.rc.tmp"
    mv "$OUT/$n.rc.tmp" "$OUT/$n.rc"
}

# collect N NAME: add up what suite N said, print its line (all of its
# output when it failed) and its SKIP lines
collect() {
    local n=$1 name=$2 rc secs cpu line= p f k said l skips=
    read -r rc secs cpu <"$OUT/$n.rc"
    # its result line (the last) and SKIP lines, read in one grep
    said=$(grep -E '^(SKIP |[^ ]+: [0-9]+ passed, [0-9]+ failed)' "$OUT/$n.out")
    while IFS= read -r l; do
        case $l in 'SKIP '*) skips+=$l$'\n' ;; *) line=$l ;; esac
    done <<<"$said"
    if [ -z "$line" ]; then
        cat "$OUT/$n.out"
        echo "$name: no result line (exit $rc)"
        total_fail=$((total_fail + 1))
        printf '%s %s %s\n' "$secs" "$name" "$cpu" >>"$OUT/times"
        return
    fi
    [[ $line =~ :\ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]
    p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]} k=0
    [[ $line =~ \ ([0-9]+)\ skipped ]] && k=${BASH_REMATCH[1]}
    if [ "$f" -ne 0 ] || [ "$rc" -ne 0 ]; then cat "$OUT/$n.out"; fi
    [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    printf '%s' "$skips"
    printf '%s  (%.1f s)\n' "$line" "$secs"
    printf '%s %s %s\n' "$secs" "$name" "$cpu" >>"$OUT/times"
    total_pass=$((total_pass + p)) total_fail=$((total_fail + f)) total_skip=$((total_skip + k))
}

# What each suite took when it last ran here (build/test-times, "SECONDS
# NAME" lines, kept across runs and builds): the suites start longest
# first, those never timed before all, so that no long one starts last
# and ends alone while the other cores idle (make asan and its clang
# form run after make test, and inherit its times). Without a record the
# order is the list's.
TIMES=build/test-times
by_times() {
    awk -F '\t' -v f="$TIMES" '
        BEGIN { while ((getline l < f) > 0) { split(l, w, " "); t[w[2]] = w[1] } }
        { printf "%s\t%d\t%s\n", ($1 in t) ? t[$1] : 1e9, NR, $0 }' |
        sort -t "$(printf '\t')" -k1,1gr -k2,2n | cut -f3-
}

# The suites wanted, numbered in order: names[N], cmds[N], and class[N]:
# w for the WAITING ones, c for the rest; each class has its own lane
# (JOBS, WAITERS), and a full lane holds back only its own class.
declare -A names=() cmds=() class=() running=()
n=0
while IFS=$'\t' read -r name cmd; do
    wanted "$name" || continue
    n=$((n + 1)); names[$n]=$name cmds[$n]=$cmd class[$n]=c
    matches "$name" "$WAITING" && class[$n]=w
done < <(suites | by_times)
ran=$n

# busy[CLASS]: how many suites of that class run now (kept as they start
# and end: a subshell per question would cost thousands of forks)
declare -A busy=([c]=0 [w]=0)

# start the next suites, in order, that their lanes have room for
start_more() {
    local i lim
    for ((i = 1; i <= n; i++)); do
        [ -n "${cmds[$i]:-}" ] || continue
        lim=$JOBS
        [ "${class[$i]}" = w ] && lim=$WAITERS
        [ "${busy[${class[$i]}]}" -lt "$lim" ] || continue
        run_one "$i" "${names[$i]}" "${cmds[$i]}" &
        running[$i]=1
        busy[${class[$i]}]=$((busy[${class[$i]}] + 1))
        unset "cmds[$i]"
    done
}

start_more
while [ "${#running[@]}" -gt 0 ]; do
    wait -n 2>/dev/null
    for i in "${!running[@]}"; do
        [ -f "$OUT/$i.rc" ] || continue
        collect "$i" "${names[$i]}"
        unset "running[$i]"
        busy[${class[$i]}]=$((busy[${class[$i]}] - 1))
    done
    start_more
done

if [ "$ran" -eq 0 ]; then
    echo "no suite matches T='$T' (T=list names them)"
    exit 2
fi
if [ -s "$OUT/times" ] && mkdir -p build && touch "$TIMES"; then
    awk 'NR == FNR { t[$2] = $0; next } !($2 in t) { t[$2] = $0 }
         END { for (k in t) print t[k] }' "$OUT/times" "$TIMES" \
        >"$OUT/times.all" && mv "$OUT/times.all" "$TIMES"
fi
echo "${total_pass} passed, ${total_fail} failed, ${total_skip} skipped"
if [ "$ran" -gt 1 ]; then
    echo "slowest suites:"
    sort -rn "$OUT/times" | head -n 5 |
        awk '{ printf "  %6.1f s  %s  (CPU %.1f s)\n", $1, $2, $3 }'
    awk '{ c += $3 } END { printf "CPU time in the suites: %.0f s\n", c }' "$OUT/times"
fi
[ "$total_fail" -eq 0 ]
