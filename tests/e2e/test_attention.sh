#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The attention view in a real terminal (tmux): the scheme key and the
# toggles change the header, the cursor moves the inspector, ':' commands
# of the view work or say why not, a large softmax finishes while keys
# keep working, resizes, and q leaves a restored terminal.
. "$(dirname "$0")/lib.sh"
e2e_init test_attention
e2e_need_tmux

# How many schemes the s key steps through: the names --help lists for
# --scheme ("what it is: a, b or c (default a)").
scheme_count() {
    "$PEVIZ" --help | sed -n 's/^ *--scheme NAME *//p' |
        sed 's/^.*: //; s/ (default [^)]*)$//; s/ or /, /' | tr ',' '\n' | grep -c .
}

keys_and_toggles() {
    start_peviz 80 24 --view attention -d 8 -n 16
    expect "starts in the attention view" 'S = PE(i)·PE(j)'
    expect "the rebound minimum is labelled" '1.965 (3)'
    keys s
    expect "s: rope" 'S = (R(i)q)·(R(j)k)'
    keys s
    expect "s: alibi" 'S = -m|i-j|'
    keys '}'
    expect "}: next ALiBi head" 'head 2 of 8: m = 0.25'
    # the rest of the schemes --help lists, then sinusoidal again
    local rest=() k
    for ((k = 2; k < $(scheme_count); k++)); do rest+=(s); done
    keys "${rest[@]}"
    expect "s cycles back to sinusoidal" 'S = PE(i)·PE(j)'
    keys m
    expect "m: softmax on" '[softmax]'
    expect "m: softmax weight in the inspector" 'P(j|i) = softmax of row i'
    keys a
    expect "a: causal mask on" '[mask]'
    keys t
    expect "t: temperature on" 'S/√d = 4 / 2.828 = 1.414'
    keys m a t
    expect "toggles off again" ' softmax  mask  1/√d '
    keys j j j l
    expect "cursor moves: i = 3, j = 1" 'i = 3  j = 1  i-j = 2'
    keys e
    expect "e: content on" 'x = e + p'
    keys f
    expect "f: four terms" 'e·p max|·|='
    keys f e
    expect "content off again" 'S = PE(i)·PE(j)'
}

commands() {
    keys : h e a d s ' ' 1 2 Enter
    expect ":heads 12" 'of 12: slope m'
    keys : t r a i n ' ' 4 Enter
    expect ":train 4" 'trained length L = 4'
    keys : t r a i n ' ' 9 9 Enter
    expect ":train 99 is refused" ':train 99: wants a whole number 0..16'
    keys : s c h e m e ' ' l e a r n e d Enter
    expect ":scheme learned" 'stand-in table, L = 4'
    keys : i ' ' 1 2 Enter
    expect ":i 12" 'i = 12  j = 1'
    keys : q ' ' r a n d o m Enter
    expect ":q random" 'RoPE q and k: seeded'
}

# A softmax whose offset table takes many frames: the view computes it in
# slices between frames (progress in the status line) and keys keep
# working meanwhile.
large_softmax() {
    start_peviz 100 30 --view attention -d 256 -n 1048576 --softmax
    expect "a large softmax finishes" 'P(j|i) = softmax of row i'
    keys l
    if poll_until screen_lacks 'i = 0  j = 0  i-j = 0'; then
        pass "keys still work after it"
    else
        fail "keys still work after it"
    fi
}

has_text() { [ -n "$(capture)" ]; }

resizes_and_quit() {
    local s
    for s in "10 4" "1 1" "30 8" "160 48" "80 24"; do
        t resize-window -t t -x "${s% *}" -y "${s#* }"
        # A 1x1 pane's only cell is its lower-right corner, which curses
        # may leave unwritten; there the check is that the pane followed.
        if [ "$s" = "1 1" ]; then
            check "resize to 1x1" poll_until pane_is 1x1
        else
            check "resize to ${s/ /x}" poll_until has_text
        fi
    done
    expect "still drawing after the resizes" 'S = PE(i)·PE(j)'
    keys q
    expect "q exits with status 0" 'EXIT=0'
    expect "the terminal is restored" 'TTY=restored'
}

keys_and_toggles
commands
start_peviz 80 24 --view attention -d 8 -n 16
wait_for 'S = PE(i)·PE(j)'
resizes_and_quit
large_softmax
stop
e2e_done
