#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The clocks view in a real terminal (tmux): band keys, the ghost hand
# and its ':k' command, the counter, zoom; Space animates the sweep (pos
# advances) and stops it again, and once paused nothing at all is written;
# a sweep at 16 pos/s holds its numbers and, paused, shows exactly the
# still frame of its position.
. "$(dirname "$0")/lib.sh"
e2e_init test_clocks
e2e_need_tmux


# The position in the status line.
status_pos() { capture | grep -o 'pos=[0-9]*' | tail -n 1 | cut -d= -f2; }

# True once the status line shows a position other than $1.
pos_moved() { local p; p=$(status_pos); [ -n "$p" ] && [ "$p" != "$1" ]; }

# True when the status position is still $1 (for the paused check).
pos_is() { [ "$(status_pos)" = "$1" ]; }

# One visible change and its redraw; true once the log has seen output.
toggled() {
    keys o
    wait_for 'ghost k=' || return 1
    keys o
    wait_for 'o: ghost' || return 1
    [ "$(size_of "$1")" -gt 0 ]
}

view_keys() {
    start_peviz 80 24 --view clocks -d 8
    expect "starts in the clocks view" 'PE clocks'
    expect "big face with its cos axis label" 'cos'
    expect "readout of band 0" 'band i=0 of 0..3'
    expect "pos 0: sin 0 on the big face" 'sin =  0.0000'
    expect "pos 0: cos 1 on the big face" 'cos =  1.0000'
    keys l
    expect "l picks the next band" 'band i=1 of 0..3'
    keys Right
    expect "Right picks the next band" 'band i=2 of 0..3'
    keys h
    expect "h goes back" 'band i=1 of 0..3'
    keys o
    expect "o shows the ghost hand" 'ghost k=1:'
    keys : 'k 3' Enter
    expect ":k 3 sets the ghost offset" 'ghost k=3:'
    keys : 'k 12abc' Enter
    expect ":k 12abc is refused with the range it takes" ':k 12abc: wants a whole number -16777216..16777216'
    check ":k 12abc leaves k at 3" screen_has 'ghost k=3:'
    keys c
    expect "c shows the binary counter" 'lowest bit first'
    keys D D D
    expect "D D D: d_model=64" 'd_model=64'
    expect "overview of 32 bands" 'of 32 bands, evenly spread'
    keys +
    expect "+ zooms in to consecutive bands" 'consecutive bands around band 1'
    check "+ shows bands 0..7 in a row" \
        poll_until screen_has 'i       0        1        2        3'
    resize_through 10x4 1x1 30x6 160x48 80x24
    expect "still drawing after the resizes" 'PE clocks'
    quit_clean "q leaves a restored terminal"
}

sweep() {
    local log="$TMPD/pane.log" p0 p1 s0 s1
    : >"$log"
    start_peviz 80 24 --view clocks -d 8
    if ! wait_for 'PE clocks'; then
        fail "sweep: did not start"
        return
    fi
    p0=$(status_pos)
    check "sweep: starts at pos=0" [ "$p0" = 0 ]
    keys Space
    check "Space animates: pos advances" poll_until pos_moved "$p0"
    p1=$(status_pos)
    check "Space animates: pos keeps advancing" poll_until pos_moved "$p1"
    expect "status says the speed while playing" 'pos/s'
    keys Space
    expect "Space again pauses" 'sweep paused'
    t pipe-pane -o -t t "cat >> $log"
    # the pipe may start a moment late: toggle the ghost until bytes arrive
    check "paused: redraws after keys reach the pipe" poll_until toggled "$log"
    poll_until quiet "$log"
    p1=$(status_pos)
    s0=$(size_of "$log")
    sleep 2      # the observation window, not a wait for a state
    s1=$(size_of "$log")
    check "paused: 0 bytes written in 2 s ($((s1 - s0)) seen)" [ "$s1" -eq "$s0" ]
    check "paused: pos stays at $p1" pos_is "$p1"
    keys q
    check "sweep, then q" wait_for 'EXIT=0'
}

# Every word of the table's rule row is a whole rule name (none clipped).
rule_words_ok() {
    local row w
    row=$(capture | grep -m 1 '^rule ') || return 1
    for w in ${row#rule }; do
        case $w in kept | blend | interp | rebase | rescale) ;; *) return 1 ;; esac
    done
}

# A model with RoPE scaling: its rule under every face, with a legend,
# whole words at every size.
rope_rules() {
    start_peviz 80 24 --model llama3.1-8b --view clocks
    expect "llama3.1-8b: the rule under each face" \
        'rule    kept     kept     kept     kept     interp   interp   interp   interp'
    expect "the legend names the rules" \
        'rule: kept = θ, blend = θ..θ/s, interp = θ/s'
    check "80x24: rule words whole" rule_words_ok
    keys : 'band 31' Enter
    keys +
    expect "bands around 31 are blended" 'blend    blend    blend    blend'
    check "zoomed: rule words whole" rule_words_ok
    resize_through 160x48
    check "160x48: rule words whole" poll_until rule_words_ok
    expect "160x48: the long legend" 'rule: kept = θ (unchanged); blend = between θ and θ/s'
    resize_through 97x31 123x27 80x24
    check "after resizes: rule words whole" poll_until rule_words_ok
    quit_clean "rope rules"
    start_peviz 80 24 --model llama3.1-8b --view clocks --ascii
    expect "ascii: the legend" 'kept=theta blend=theta..theta/s interp=theta/s'
    check "ascii: rule words whole" rule_words_ok
    quit_clean "rope rules, ascii"
}

# :check FILE on a dump written here (theta_i = 500^(-2i/8) by Python):
# the verdict, a '!' by each differing band, Esc clears it.
port_check() {
    python3 -c 'import sys
print("inv_freq")
for i in range(4): print("%.17g" % 500 ** (-2 * i / 8))' >"$TMPD/b500.csv"
    start_peviz 100 30 --view clocks -d 8
    expect "port check: starts" 'PE clocks'
    keys : "check $TMPD/b500.csv" Enter
    expect ":check names the variant" 'differs, 3 of 4 bands (!); matches base 500 instead of 10000'
    expect ":check marks the differing bands" 'i       0        1!       2!       3!'
    keys Escape
    expect "Esc clears the check" 'check off'
    check "Esc: no mark left" poll_until screen_lacks '1!'
    keys : 'check /nonexistent/x.npy' Enter
    expect ":check on a missing file says why" ':check: '
    quit_clean "port check"
}

# The readout's position, from its "= PE(P,0)" (the band under the cursor).
readout_pos() { capture | grep -o 'PE([0-9]*,0)' | head -n 1 | tr -dc 0-9; }

# True once the status position is past $1.
pos_past() { local p; p=$(status_pos); [ -n "$p" ] && [ "$p" -gt "$1" ]; }

# While the sweep holds its numbers: the readout shows a multiple of 16
# that is not the status line's position.
readout_held() {
    local r p
    r=$(readout_pos)
    p=$(status_pos)
    [ -n "$r" ] && [ -n "$p" ] && [ $((r % 16)) -eq 0 ] && [ "$r" != "$p" ]
}

# rows_are FILE [-e]: the pane's rows 1-23 are FILE's (the status row,
# which says "sweep paused", apart); -e compares colours too.
rows_are() {
    t capture-pane -p $2 -t t | head -n 23 >"$TMPD/rows"
    cmp -s "$1" "$TMPD/rows"
}

# A sweep at 16 pos/s sends the hands and holds the numbers; paused, the
# screen is the still frame of its position: the text --snapshot draws
# there (every number pos's own again) and, colours included, the
# screen of a program started at that position.
fast_sweep() {
    local p
    start_peviz 80 24 --color 256 --view clocks --fps 10
    expect "fast sweep: starts" 'PE clocks'
    keys '>' '>'
    expect "fast sweep: 16 pos/s" 'sweep speed 16 pos/s'
    keys Space
    expect "16 pos/s: the table's sin row waits" \
        'sin      ...      ...      ...      ...      ...      ...      ...      ...'
    check "16 pos/s: the sweep reaches pos 20" poll_until pos_past 20
    check "16 pos/s: the readout holds a multiple of 16, not pos" \
        poll_until readout_held
    keys Space
    expect "fast sweep: Space pauses" 'sweep paused'
    p=$(status_pos)
    "$PEVIZ" --snapshot --color 256 --format text --size 80x24 --view clocks \
        --fps 10 --pos "$p" | head -n 23 | sed 's/ *$//' >"$TMPD/still"
    check "paused at pos=$p: no row waits any more" \
        grep -q '^sin   *-\{0,1\}[0-9]' "$TMPD/still"
    if poll_until rows_are "$TMPD/still"; then
        pass "paused at pos=$p: rows 1-23 are --snapshot's at pos $p"
    else
        fail "paused at pos=$p: rows 1-23 are --snapshot's at pos $p"
        diff "$TMPD/still" "$TMPD/rows" | head -n 20 | sed 's/^/     > /'
    fi
    t capture-pane -p -e -t t | head -n 23 >"$TMPD/swept"
    quit_clean "fast sweep, then q"
    start_peviz 80 24 --color 256 --view clocks --fps 10 --pos "$p"
    expect "started at pos=$p" "pos=$p "
    check "in colour too: the swept screen is the one started at pos=$p" \
        poll_until rows_are "$TMPD/swept" -e
    quit_clean "started at pos=$p, then q"
}

view_keys
sweep
fast_sweep
rope_rules
port_check
stop
e2e_done
