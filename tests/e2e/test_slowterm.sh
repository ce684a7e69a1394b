#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Start-up on slow and silent terminals (tests/e2e/slowterm.py): answers
# late by several delays or a byte at a time, no answers at all, and
# keys typed at moments during start-up.  A bare pty, no tmux.
set -u
cd "$(dirname "$0")/../.." || exit 1
: "${PEVIZ:=./peviz}"
PEVIZ="$PEVIZ" exec python3 tests/e2e/slowterm.py
