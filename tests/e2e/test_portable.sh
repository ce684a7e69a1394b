#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The program on terminals other than tmux, and in other locales:
# - the bytes of a tour and of a LANG=C session hold no REP (CSI n b),
#   no scrolling (CSI n S / T, DECSTBM, ESC M, insert/delete line);
# - a second emulator (pyte) rendering those bytes shows what tmux shows;
# - synchronized output (mode 2026) only where the terminal reports it;
# - a decimal-comma locale reads and prints numbers with a point;
# - exported COLUMNS/LINES do not override the terminal's size;
# - a missing UTF-8 locale falls back to C.UTF-8 and says so.
. "$(dirname "$0")/lib.sh"
e2e_init test_portable
e2e_need_tmux

# pyte: in the python3 on PATH, else the system one (Debian's python3-pyte)
PY=
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import pyte' 2>/dev/null; then
        PY=$p
        break
    fi
done
PTY="$E2E_DIR/ptyscreen.py"
cd "$E2E_DIR/../.." || exit 1   # the tours are found in ./assets

# ---- bytes on a bare pty, rendered by pyte --------------------------------

# pty NAME [ptyscreen options] -- ARGS: run, keep the screen in NAME.txt
# and the bytes in NAME.bin
pty() {
    local name=$1
    shift
    "$PY" "$PTY" --bytes "$TMPD/$name.bin" "$@" >"$TMPD/$name.txt" 2>&1
}

# No sequence outside what every xterm-like emulator implements.
bytes_portable() {
    ! LC_ALL=C grep -qaE $'\e\\[[0-9]*[bSTLM]|\e\\[[0-9;]*r|\eM' "$1"
}

# frames NAME: how many frames were wrapped in begin/end of mode 2026
sync_count() { LC_ALL=C grep -ao $'\e\\[?2026h' "$1" | wc -l; }
sync_ends() { LC_ALL=C grep -ao $'\e\\[?2026l' "$1" | wc -l; }

TOUR_KEYS=(--key T --key $'\r' --key $'\r' --key $'\r' --key $'\r'
           --key j --key j --key k --key $'\r' --key $'\r')
SCROLL_KEYS=(--key D --key Down --key Down --key Down --key j --key J
             --key PgDn)

portable_bytes() {
    local env=(--env TERM=xterm-256color --env HOME="$TMPD")
    pty tour "${env[@]}" --env LC_ALL=C.UTF-8 --wait d_model= \
        "${TOUR_KEYS[@]}" --key q --key q -- "$PEVIZ"
    check "tour: ran to the end on a bare pty (q asks once)" \
        grep -q '^EXIT=0$' "$TMPD/tour.txt"
    check "tour: wrote frames" [ "$(size_of "$TMPD/tour.bin")" -gt 20000 ]
    check "tour: no REP, scroll or scroll-region bytes" bytes_portable "$TMPD/tour.bin"
    for v in $(e2e_views); do
        pty "c-$v" "${env[@]}" --env LANG=C --wait d_model= \
            "${SCROLL_KEYS[@]}" --key q -- "$PEVIZ" --view "$v" --color none
        check "LANG=C $v: exits 0" grep -q '^EXIT=0$' "$TMPD/c-$v.txt"
        check "LANG=C $v: no REP, scroll or scroll-region bytes" \
            bytes_portable "$TMPD/c-$v.bin"
    done
}

# The same keys in tmux and on the bare pty: the same screen.
tmux_keys() {
    local k
    for k in "$@"; do
        case $k in
        --key) ;;
        $'\r') keys Enter; quiet_pane ;;
        *) keys "$k"; quiet_pane ;;
        esac
    done
}

# the pane has not changed for 0.3 s (at most 5 s)
quiet_pane() {
    local a b i=0
    a=$(capture)
    while [ $i -lt 16 ]; do
        nap 0.3
        b=$(capture)
        [ "$a" = "$b" ] && return 0
        a=$b
        i=$((i + 1))
    done
}

same_screen() {   # NAME VIEW KEYS...: pyte's screen equals tmux's
    local name=$1 view=$2
    shift 2
    pty "$name" --env TERM=xterm-256color --env LANG=C --wait d_model= \
        "$@" -- "$PEVIZ" --view "$view" --color none
    sed '$d' "$TMPD/$name.txt" >"$TMPD/$name.pyte"
    start_raw 80 24 env -u LC_ALL TERM=xterm-256color LANG=C "$PEVIZ" \
        --view "$view" --color none
    wait_for 'd_model=' >/dev/null
    quiet_pane
    tmux_keys "$@"
    capture | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$TMPD/$name.tmux"
    if cmp -s "$TMPD/$name.pyte" "$TMPD/$name.tmux"; then
        pass "$name: pyte and tmux show the same screen"
    else
        fail "$name: pyte and tmux differ"
        diff "$TMPD/$name.pyte" "$TMPD/$name.tmux" | head -20 | sed 's/^/     /'
    fi
    stop
}

second_emulator() {
    same_screen "heatmap" heatmap --key D --key Down --key Down --key j
    same_screen "tour" heatmap "${TOUR_KEYS[@]}"
    same_screen "compare" compare --key p --key Right
}

sync_output() {
    local env=(--env TERM=xterm-256color --env LC_ALL=C.UTF-8)
    pty sync "${env[@]}" --sync --wait d_model= --key D --key d --key q \
        -- "$PEVIZ"
    check "mode 2026 reported: frames wrapped" [ "$(sync_count "$TMPD/sync.bin")" -ge 3 ]
    check "mode 2026 reported: every begin has its end" \
        [ "$(sync_count "$TMPD/sync.bin")" = "$(sync_ends "$TMPD/sync.bin")" ]
    check "mode 2026 reported: the first frame is inside begin and end" \
        grep -qazP '(?s)\e\[\?2026h(?:(?!\e\[\?2026l).)*d_model=64' "$TMPD/sync.bin"
    pty nosync "${env[@]}" --wait d_model= --key D --key q -- "$PEVIZ"
    check "mode 2026 not reported: none sent" \
        [ "$(sync_count "$TMPD/nosync.bin")" -eq 0 ]
    check "mode 2026 not reported: runs" grep -q 'd_model=128' "$TMPD/nosync.txt"
    pty nothing "${env[@]}" --no-da --wait d_model= --key D --key q -- "$PEVIZ"
    check "no answers at all: none sent" \
        [ "$(sync_count "$TMPD/nothing.bin")" -eq 0 ]
    check "no answers at all: runs" grep -q 'd_model=128' "$TMPD/nothing.txt"
}

# ---- locales (in tmux) -------------------------------------------------------

# The locale is built once per checkout (build/locales), not once per run:
# localedef takes seconds of CPU, and make asan runs this suite again.
decimal_comma() {
    LOC=$E2E_DIR/../../build/locales
    mkdir -p "$LOC" "$TMPD/loc"
    if [ -f "$LOC/de_DE.UTF-8/LC_NUMERIC" ] ||
        { localedef -i de_DE -f UTF-8 "$TMPD/loc/de_DE.UTF-8" >/dev/null 2>&1 &&
          { mv -T "$TMPD/loc/de_DE.UTF-8" "$LOC/de_DE.UTF-8" 2>/dev/null ||
            [ -f "$LOC/de_DE.UTF-8/LC_NUMERIC" ]; }; }; then
        decimal_comma_checks
    else
        e2e_skip "decimal comma: localedef cannot build de_DE.UTF-8 here" \
            locales decimal_comma_checks
    fi
}

decimal_comma_checks() {
    start 80 24 env LOCPATH="$LOC" LC_ALL=de_DE.UTF-8 "$PEVIZ"
    expect "de_DE: starts" 'd_model=64'
    keys : 'base 1.5' Enter
    expect "de_DE: :base 1.5 accepted, shown with a point" 'base=1.5 '
    check "de_DE: no decimal comma on screen" screen_lacks '1,5'
    keys : 'base 2,5' Enter
    expect "de_DE: a comma is refused with the range" 'base'
    check "de_DE: the base stayed 1.5" screen_has 'base=1.5 '
    quit_clean "de_DE"
}

columns_lines() {
    start 80 24 env COLUMNS=40 LINES=10 "$PEVIZ"
    expect "COLUMNS=40 LINES=10: starts" 'd_model=64'
    check "COLUMNS/LINES ignored: the status line is on row 24" \
        poll_until sh -c "tmux -S '$SOCK' capture-pane -p -t t | sed -n 24p | grep -q d_model="
    check "COLUMNS/LINES ignored: rows 80 columns wide" \
        [ "$(capture | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -ge 76 ]
    t resize-window -t t -x 100 -y 30
    check "COLUMNS/LINES ignored: follows a resize" \
        poll_until sh -c "tmux -S '$SOCK' capture-pane -p -t t | sed -n 30p | grep -q d_model="
    quit_clean "COLUMNS/LINES"
}

missing_locale() {
    start 80 24 env -u LC_ALL LANG=zh_CN.UTF-8 "$PEVIZ" --tour
    expect "zh_CN missing: says so once" 'zh_CN.UTF-8 is not installed'
    expect "zh_CN missing: the Chinese tour in Chinese characters" '位置'
    check "zh_CN missing: no ? ? ? for the characters" screen_lacks '? ? ?'
    local last
    last=$(grep -c '^title' assets/tours/zh.tour)
    check "zh_CN missing: the status line in Chinese" screen_has "导览 1/$last"
    keys : "tour $last" Enter
    expect "zh_CN missing: :tour $last, the last step's hint in Chinese" \
        '最后一步 · Backspace 上一步'
    keys q
    expect "q in a tour asks once (in Chinese)" '再按 q 退出'
    quit_clean "zh_CN missing"
    start 80 24 env -u LC_ALL LANG=en_US.UTF-8 "$PEVIZ"
    expect "en_US missing: says so" 'en_US.UTF-8 is not installed'
    expect "en_US missing: UTF-8 glyphs, not ASCII" '▀'
    quit_clean "en_US missing"
    start 80 24 env -u LC_ALL LANG=C "$PEVIZ"
    expect "LANG=C: starts" 'd_model=64'
    check "LANG=C: no locale note" screen_lacks 'not installed'
    quit_clean "LANG=C"
}

if [ -n "$PY" ]; then
    portable_bytes
    second_emulator
    sync_output
else
    e2e_skip "the pty checks need a second emulator, and no python3 has pyte" \
        python3-pyte portable_bytes second_emulator sync_output
fi
decimal_comma
columns_lines
missing_locale
e2e_done
