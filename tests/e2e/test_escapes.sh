#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Text safety: escape sequences and control characters typed into the
# ':' prompt (an OSC title change, a screen clear, CR, BS, C1 controls
# sent as UTF-8) never reach the terminal as controls.  The pane's raw
# output is logged with pipe-pane and searched; the pane title must stay
# as it was.  The program runs in a scratch directory: keys that stray
# out of a closed prompt may write frames (w).
. "$(dirname "$0")/lib.sh"
e2e_init test_escapes
e2e_need_tmux

LOG="$TMPD/pane.log"

# One key and its redraw; true once the log has seen output.
toggled() {
    keys D
    wait_for 'd_model=128' || return 1
    keys d
    wait_for 'd_model=64' || return 1
    [ "$(size_of "$LOG")" -gt 0 ]
}

# The log holds none of the bytes given (as a printf format).
log_lacks() { ! LC_ALL=C grep -qaF -- "$(printf "$1")" "$LOG"; }

: >"$LOG"
mkdir -p "$TMPD/cwd"
start 100 30 sh -c 'cd "$1" && exec "$2"' sh "$TMPD/cwd" "$PEVIZ"
expect "starts" 'd_model=64'
title=$(pane_fmt '#{pane_title}')
t pipe-pane -o -t t "cat >> $LOG"
check "the pipe sees the program's output" poll_until toggled

# In the prompt: C1 controls (CSI and OSC as UTF-8) are shown, not obeyed.
keys : 'pos '
keys -l $'\u009b2J\u009d0;pwned\u0007'
expect "C1 controls in the prompt are shown as U+FFFD, BEL dropped" \
    ':pos �2J�0;pwned'
keys Enter
expect "and refused with a message that shows them the same way" \
    ":pos �2J�0;pwned: wants a whole number 0..127"
# ESC closes the prompt; what follows it arrives as keys
keys : 'base '
keys -l $'\033]0;pwned\007'
keys Enter
keys : 'base '
keys -l $'\033[2J'
keys Enter
# CR ends the line, BS edits it
keys : 'd 32'
keys -l $'\r'
expect "CR in the prompt is Enter" 'd_model=32'
keys : 'd 6'
keys -l $'\b'
keys -l $'16\r'
expect "BS in the prompt deletes a character" 'd_model=16'
keys 1
expect "still answers keys" 'PE heatmap'

check "no OSC (ESC ]) reached the terminal" log_lacks '\033]'
check "no ESC ] 0 ; pwned reached the terminal" log_lacks '\033]0;pwned'
check "no ESC [ 2 J reached the terminal" log_lacks '\033[2J'
check "no C1 CSI (U+009B) reached the terminal" log_lacks '\302\233'
check "no C1 OSC (U+009D) reached the terminal" log_lacks '\302\235'
check "no BEL reached the terminal" log_lacks '\007'
check "the pane title is unchanged ('$title')" \
    [ "$(pane_fmt '#{pane_title}')" = "$title" ]
quit_clean "q"
stop
e2e_done
