#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# A third emulator: xterm.js (the terminal of VS Code, JupyterLab and web
# terminals) in a headless browser, live on a pty so that it answers the
# probes itself, against tmux for every view, help, the prompt and tour
# steps, at 80x24 and 160x48, in English, Chinese and LANG=C
# (tests/e2e/xtermjs.py). `make xtermjs` fetches the two npm packages.
set -u
cd "$(dirname "$0")/../.." || exit 1
: "${PEVIZ:=./peviz}" "${BUILD:=build}"
# The packages live beside the default build, also for make asan's.
NM=${XTERMJS_DIR:-build/xtermjs/node_modules/@xterm}
BROWSER=$(command -v chromium || command -v chromium-browser || true)
skip() {
    echo "SKIP test_xtermjs: $1"
    echo "test_xtermjs: 0 passed, 0 failed, 1 skipped"
    exit 0
}
[ -n "$BROWSER" ] || skip "no browser (Debian: apt-get install chromium)"
command -v tmux >/dev/null || skip "no tmux (Debian: apt-get install tmux)"
[ -f "$NM/xterm/lib/xterm.js" ] && [ -f "$NM/addon-image/lib/addon-image.js" ] ||
    skip "no xterm.js: run make xtermjs (Debian: apt-get install nodejs npm)"
exec python3 tests/e2e/xtermjs.py "$PEVIZ" "$NM/xterm" "$NM/addon-image" "$BROWSER"
