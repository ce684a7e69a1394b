#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Images on a live terminal: peviz on a pty whose far end answers the
# probes as kitty, as xterm with sixel, or not at all (graphics_pty.py).
set -u
: "${PEVIZ:=./peviz}"
PEVIZ="$PEVIZ" exec python3 "$(dirname "$0")/graphics_pty.py"
