#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The compare view's scaling keys in a real terminal (tmux): m, s, x X
# and t change the active pane's model and scaling, and its header says
# so while the other pane's stays as it was; a refused key leaves the
# header as it was and says why in the status line; the ratio mode reads
# the change band by band.  With colour, then NO_COLOR and LANG=C.  The
# presets' and the methods' order comes from --model list and --help.
. "$(dirname "$0")/lib.sh"
e2e_init test_compare_keys
e2e_need_tmux

# The first header row of pane $1 (1 = A, 2 = B), without the active mark.
ident() { capture | head -n 1 | awk -F"$2" -v k="$1" '{ print $k }' | sed 's/[▶>]/ /'; }

# The presets in --model list's order, the scaling methods in --help's.
PRESETS=($("$PEVIZ" --model list | awk 'NR > 1 { print $1 }'))
METHODS=($("$PEVIZ" --help | sed -n 's/^ *--rope-scaling METHOD  *[^:]*: //p' |
           sed 's/ (default [^)]*)$//; s/,//g; s/ or / /'))
index_of() {        # NAME WORD...: the 0-based place of NAME among the words
    local want=$1 i=0; shift
    for w in "$@"; do [ "$w" = "$want" ] && { echo "$i"; return; }; i=$((i + 1)); done
    echo -1
}
header_changed() { [ "$(ident 2 "$1")" != "$2" ]; }
# Where the s just pressed landed: the first of METHODS[$2..] whose
# header B shows (none: the plain header); ${#METHODS[@]} when none is.
landed() {
    local j m
    for ((j = $2; j < ${#METHODS[@]}; j++)); do
        m=${METHODS[j]}
        if [ "$m" = none ]; then screen_has 'B base=1000000 d' && break
        else screen_has "B $m x4" && break; fi
    done
    echo "$j"
}
# s from yarn: B goes through the methods after it in --help's order and
# wraps to none; each is taken (its header) or named as skipped, with
# why, in the status line.
s_through_methods() {
    local sep=$1 i j k before n=${#METHODS[@]}
    local -a order=("${METHODS[@]:1}" "${METHODS[0]}")
    check "--help's methods start with none (found ${METHODS[*]})" [ "${METHODS[0]}" = none ]
    i=$(( $(index_of yarn "${order[@]}") + 1 ))
    METHODS=("${order[@]}")
    while ((i < n)); do
        before=$(ident 2 "$sep")
        keys s
        if ! poll_until header_changed "$sep" "$before"; then
            fail "s after ${METHODS[i - 1]} changes B's header"; break
        fi
        j=$(landed "$sep" "$i")
        check "s after ${METHODS[i - 1]} lands on a later method" [ "$j" -lt "$n" ]
        for ((k = i; k < j; k++)); do
            check "s names ${METHODS[k]} as skipped, with why" \
                sh -c "printf '%s' \"\$1\" | grep -qE 'skipped[a-z0-9 .-]* ${METHODS[k]}[ :].*: '" _ "$(capture)"
        done
        ((j < n)) && pass "s: B takes ${METHODS[j]}"
        i=$((j + 1))
    done
    METHODS=("${order[n - 1]}" "${order[@]:0:n-1}")
}

scaling_keys() {
    local sep=$1 a0 b0
    expect "A names its model" 'A llama3.1-8b llama3 x8'
    expect "B names its model" 'B llama3-8b'
    a0=$(ident 1 "$sep")
    local at=$(index_of llama3-8b "${PRESETS[@]}")
    local next=${PRESETS[at + 1]}
    check "--model list has llama3.1-8b after llama3-8b (found $next)" [ "$next" = llama3.1-8b ]
    keys -l ']'
    keys m
    expect "m: B takes the next preset" "B $next llama3 x8"
    expect "m: the status line names it" "model $next ($((at + 2)) of ${#PRESETS[@]}"
    check "m on B leaves A's header alone" [ "$(ident 1 "$sep")" = "$a0" ]
    keys X
    expect "X doubles B's factor: no longer the preset" 'B llama3 x16'
    keys x
    expect "x halves it: the preset again" 'B llama3.1-8b llama3 x8'
    keys x x x
    expect "x x x: factor 1" 'B llama3 x1'
    b0=$(ident 2 "$sep")
    keys x
    expect "x below 1 is refused, naming the range" 'want a number >= 1'
    check "the refused x leaves B's header as it was" [ "$(ident 2 "$sep")" = "$b0" ]
    keys t
    expect "t on a llama3 pane is refused" "truncate is YaRN's"
    check "the refused t leaves B's header as it was" [ "$(ident 2 "$sep")" = "$b0" ]
    keys : 'model qwen2.5-7b-yarn' Enter
    expect ":model in B" 'B qwen2.5-7b-yarn yarn x4'
    keys -l '['
    keys : 'model qwen2.5-7b-yarn' Enter
    expect ":model in A" 'A qwen2.5-7b-yarn yarn x4'
    keys : 'mode ratio' Enter
    expect ":mode ratio: same settings, ratio 1" 'B/A = 1 in all 64 bands'
    keys -l ']'
    keys t
    expect "t: B untruncated" 'B yarn x4 untruncated'
    expect "t: the ratios move in 16 bands" 'B/A: 48'
    s_through_methods "$sep"
    expect "s: none at last, B's header plain again" 'B base=1000000 d'
}

start_peviz 80 24 --view compare --model llama3.1-8b --model-b llama3-8b -n 131072
expect "starts in the compare view" 'compare bases'
scaling_keys '│'
quit_clean "q leaves a restored terminal"

start_raw 80 24 env NO_COLOR=1 LANG=C LC_ALL=C "$E2E_DIR/wrap.sh" "$PEVIZ" \
    --view compare --model llama3.1-8b --model-b llama3-8b -n 131072
expect "starts without colour or UTF-8" 'compare bases'
scaling_keys '|'
quit_clean "q leaves a restored terminal (NO_COLOR, LANG=C)"

stop
e2e_done
