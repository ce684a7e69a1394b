#!/usr/bin/env bash
# The compare view's scaling keys in a real terminal (tmux): m, s, x X
# and t change the active pane's model and scaling, and its header says
# so while the other pane's stays as it was; a refused key leaves the
# header as it was and says why in the status line; the ratio mode reads
# the change band by band.  With colour, then NO_COLOR and LANG=C.
. "$(dirname "$0")/lib.sh"
e2e_init test_compare_keys
e2e_need_tmux

# The first header row of pane $1 (1 = A, 2 = B), without the active mark.
ident() { capture | head -n 1 | awk -F"$2" -v k="$1" '{ print $k }' | sed 's/[▶>]/ /'; }

scaling_keys() {
    local sep=$1 a0 b0 b1
    expect "A names its model" 'A llama3.1-8b llama3 x8'
    expect "B names its model" 'B llama3-8b'
    a0=$(ident 1 "$sep")
    keys -l ']'
    keys m
    expect "m: B takes the next preset" 'B llama3.1-8b llama3 x8'
    expect "m: the status line names it" 'model llama3.1-8b (3 of'
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
    b1=$(ident 2 "$sep")
    keys s
    expect "s: yarn to llama3, which B's settings allow" 'B llama3 x4'
    check "s changed B's header" [ "$(ident 2 "$sep")" != "$b1" ]
    keys s
    expect "s: longrope is skipped, saying why" 'skipped longrope: '
    expect "s: none, B's header plain again" 'B base=1000000 d'
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
