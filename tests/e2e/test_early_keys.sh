#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Input on a terminal that never answers the start-up probes (DECRQM,
# DA1), as over a slow link or with scripted input: keys typed while the
# probes wait are kept and handled in order, not lost; and a bracketed
# paste whose end marker never comes does not leave the ':' prompt deaf.
# A bare pty (tests/e2e/rawpty.py, standard library only), no tmux.
. "$(dirname "$0")/lib.sh"
e2e_init test_early_keys
cd "$TMPD" || exit 1

RAW="$E2E_DIR/rawpty.py"
# raw [--at MS BYTES]...: EXIT=N, or RUNNING 3 s after the last bytes
raw() { python3 "$RAW" --timeout 3 "$@" -- env TERM=xterm-256color "$PEVIZ"; }
exits() { local want=$1; shift; [ "$(raw "$@")" = "$want" ]; }

check "q at 50 ms quits" exits EXIT=0 --at 50 q
check "q at 200 ms quits" exits EXIT=0 --at 200 q
check "q at 500 ms quits" exits EXIT=0 --at 500 q
# in order: ':' opens the prompt, 'w' after Enter saves a frame showing
# the d typed at 50 ms, then q
check "keys at 50 ms are taken in order (:d 32, w, q)" \
    exits EXIT=0 --at 50 ':d 32\rwq'
check "... the saved frame shows d_model=32" \
    eval "grep -q 'd_model=32' peviz-heatmap-*.txt"
# escape sequences typed early are keys, as later: an arrow, a paste
rm -f peviz-heatmap-*
# (one step: 128 positions over the 66 map columns of 80x24, the first
# column holds position 0 alone, the second starts at 1)
check "an arrow at 50 ms is the arrow (w then shows pos=1, one step)" \
    exits EXIT=0 --at 50 '\x1bOCwq'
check "... the saved frame shows pos=1" eval "grep -q 'pos=1 ' peviz-heatmap-*.txt"
check "a whole paste at 50 ms stays text (its q is typed)" \
    exits RUNNING --at 50 ':\x1b[200~q\x1b[201~q'
rm -f peviz-heatmap-*
# a paste start with no end: Esc typed by hand a second later closes the
# prompt (q then quits); Enter and Backspace work again as well
check "paste without end: Esc closes the prompt" \
    exits EXIT=0 --at 600 ':' --at 700 '\x1b[200~d 16' --at 1700 '\x1b' --at 2000 q
check "paste without end: Enter runs the line" \
    exits EXIT=0 --at 600 ':' --at 700 '\x1b[200~d 16' --at 1700 '\r' \
    --at 1900 w --at 2100 q
check "... the pasted d 16 was run" eval "grep -q 'd_model=16' peviz-heatmap-*.txt"
check "paste without end: Backspace edits again" \
    exits EXIT=0 --at 600 ':' --at 700 '\x1b[200~x' --at 1700 '\x7f\x7f' --at 2000 q
# a paste that ends keeps its text as text: Esc inside it does not close
check "a whole paste stays text (its q is typed)" \
    exits RUNNING --at 600 ':' --at 700 '\x1b[200~q\x1b[201~' --at 900 q
e2e_done
