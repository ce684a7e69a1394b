#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The compare view in a real terminal (tmux): switching the active pane
# and changing its base or d_model rewrites that pane's header and no
# other; presets, the third pane, pane modes and the ':' commands of the
# view; resizes; q leaves a restored terminal.
. "$(dirname "$0")/lib.sh"
e2e_init test_compare
e2e_need_tmux

SEP='│'

# Header rows (the first three lines) of pane $1 (1 = A, 2 = B, ...).
pane_head() { capture | head -n 3 | awk -F"$SEP" -v k="$1" '{ print $k }'; }

# The header of pane $1 without the active-pane mark.
pane_head_plain() { pane_head "$1" | sed 's/▶/ /'; }

# True once pane $1's header differs from the text $2.
head_changed() { [ "$(pane_head_plain "$1")" != "$2" ]; }

# check_same NAME PANE BEFORE: pane's header is still BEFORE.
check_same() {
    local now
    now=$(pane_head_plain "$2")
    if [ "$now" = "$3" ]; then
        pass "$1"
    else
        fail "$1"
        printf 'before:\n%s\nnow:\n%s\n' "$3" "$now" | sed 's/^/     > /'
    fi
}

active_is() { pane_head "$1" | head -n 1 | grep -q "▶"; }

headers() {
    local a0 b0 a1 b1 c0
    start_peviz 80 24 --view compare -n 4096
    expect "starts in the compare view" 'compare bases'
    expect "pane A header" 'A base=10000 d_model=64 n=4096'
    expect "pane B header" 'B base=500000 d_model=64 n=4096'
    expect "A's critical band at n=4096" 'critical band 23: 23-31'
    expect "B's critical band at n=4096" 'critical band 16: 16-31'
    check "A is the active pane" active_is 1
    a0=$(pane_head_plain 1)
    b0=$(pane_head_plain 2)

    keys -l ']'
    check "] makes B active" poll_until active_is 2
    check "] leaves A's header as it was" [ "$(pane_head_plain 1)" = "$a0" ]
    check "] leaves B's numbers as they were" [ "$(pane_head_plain 2)" = "$b0" ]

    keys B
    expect "B multiplies B's base by 10" 'B base=5000000'
    check "B's header changed" poll_until head_changed 2 "$b0"
    expect "B's critical band moved to 14" 'critical band 14: 14-31'
    check_same "B leaves A's header alone" 1 "$a0"
    expect "the status line keeps A's base" 'base=10000 n=4096'
    b1=$(pane_head_plain 2)

    keys -l '['
    check "[ makes A active" poll_until active_is 1
    keys b
    expect "b divides A's base by 10" 'A base=1000 '
    check "A's header changed" poll_until head_changed 1 "$a0"
    check_same "b on A leaves B's header alone" 2 "$b1"
    expect "pane A is the global base" 'base=1000 n=4096'
    a1=$(pane_head_plain 1)

    keys ']' d
    expect "d halves B's d_model" 'B base=5000000 d_model=32'
    check_same "d on B leaves A's header alone" 1 "$a1"

    keys : 'base 2e5' Enter
    if wait_for 'B base=200000'; then
        pass ":base sets the active pane's base"
        check_same ":base on B leaves A's header alone" 1 "$a1"
    else
        fail ":base 2e5 did not reach pane B (the global parser took it?)"
    fi
    keys : 'layout diagonal' Enter
    expect ":layout with a bad name is refused" 'layout: want interleaved, concat or half'
    keys : 'precision bf16' Enter
    expect ":precision bf16 tags pane B" 'bf16'

    keys +
    expect "+ adds pane C" 'C b'
    c0=$(pane_head_plain 3)
    check "pane C has its own header" [ -n "$c0" ]
    keys _
    check "_ removes pane C" wait_gone 'C b'

    keys p
    expect "p: first preset" 'preset 2 of 4'
    keys v
    expect "v: spectrum mode" 'bands turn'
    keys v
    expect "v: profile mode" 'distance'
    keys v
    expect "v: difference mode" 'A is the reference'
    keys v
    expect "v: ratio mode refuses B (another d)" 'B: d=32, A d=64: not compared'
    keys v
    expect "v: drift mode" 'score minus pane A'
    keys v
    expect "v: matrix mode" 'S(i, j)'
    keys v
    expect "v: back to the heatmap" 'PE value, one scale'

    resize_through 10x4 1x1 30x8 160x48 80x24
    expect "still drawing after the resizes" 'compare bases'
    quit_clean "q leaves a restored terminal"
}

# The dimension cursor on dim 63 at d_model 64; d d in the heatmap; back
# in compare the cursor is on a dimension that exists (15 of 16), and
# the readout shows its values instead of "A -" for a dim no pane has.
cursor_clamped() {
    start_peviz 80 24 --view compare
    expect "compare at d_model 64" 'compare bases'
    # 70 separate j keys: unquoted on purpose
    keys $(printf 'j %.0s' $(seq 70))
    expect "j reaches the last dim" 'dim 63 '
    keys 1
    expect "1: the heatmap" 'PE heatmap'
    keys d d
    expect "d d: d_model 16" 'd_model=16'
    keys 4
    expect "4: back in compare" 'compare bases'
    expect "the cursor is on dim 15, the last there is" 'dim 15 '
    check "the readout no longer says dim 63" screen_lacks 'dim 63'
    check "both panes show a value there" screen_lacks 'A -'
    quit_clean "q leaves a restored terminal (cursor)"
}

# The matrix mode at d_model 65536 computes its cells in slices between
# frames: the panes' headers and the status line show at once with the
# share done, b starts over without a freeze, and q quits mid-way.
matrix_sliced() {
    start_peviz 120 40 --view compare --pane-mode matrix -n 128 -d 65536
    expect "matrix at d 65536: the screen shows while cells are computed" \
        'computing the matrix: '
    check "matrix at d 65536: the panes' headers are drawn meanwhile" \
        screen_has 'A base=10000'
    keys b
    expect "matrix at d 65536: b answers at once, and computing starts over" \
        'base=1000 '
    check "matrix at d 65536: still computing after b" \
        screen_has 'computing the matrix: '
    quit_clean "matrix at d 65536: q quits while computing"
}

headers
cursor_clamped
matrix_sliced
stop
e2e_done
