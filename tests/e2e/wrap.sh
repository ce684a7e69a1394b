#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Runs "$@" in a tmux pane and then reports how it left the terminal:
#   EXIT=<status> TTY=restored|CHANGED
# (TTY compares `stty -g` before and after), then keeps the pane alive so
# the test can still ask tmux about the alternate screen and the cursor.
# INT and QUIT are caught, not ignored: an ignored signal would be
# inherited by the program, a caught one is reset to the default.
trap ':' INT QUIT
ulimit -c 0
before=$(stty -g)
"$@"
rc=$?
after=$(stty -g)
if [ "$before" = "$after" ]; then tty=restored; else tty=CHANGED; fi
echo "EXIT=$rc TTY=$tty"
exec sleep 600
