#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Sizes: every view drawn by --snapshot at 1x1, 2x2, 10x3, 80x24 and
# 300x100 (exactly H lines, none wider than W, no stray control
# characters); then, live in tmux, a resize storm per view (hundreds of
# random sizes from 1x1 to 300x100 in a few seconds) after which the
# program still runs, shows exactly the frame --snapshot draws for the
# final size, still does so at each of the five sizes, and quits clean.
# RESIZE_SEED picks the sizes (default 1); RESIZES the storm length.
. "$(dirname "$0")/lib.sh"
e2e_init test_resize

: "${RESIZE_SEED:=1}" "${RESIZES:=200}"
VIEWS=$(e2e_views)
SIZES="1x1 2x2 10x3 80x24 300x100"

# ---- snapshots: every view at every size (no tmux needed) -----------------

# The output as text: SGR colour escapes dropped (other escapes stay).
plain() { sed 's/\x1b\[[0-9;]*m//g' "$1"; }

# shape_ok FILE W H: H lines, none wider than W cells (one a character:
# the views draw no double-width glyph in English), no control
# characters; read without starting a process, since it runs 75 times.
shape_ok() {
    local f=$1 w=$2 h=$3 rows row
    mapfile rows <"$f"
    [ "${#rows[@]}" -eq "$h" ] && [[ ${rows[h-1]} == *$'\n' ]] || return 1
    for row in "${rows[@]}"; do
        row=${row%$'\n'}
        [ "${#row}" -le "$w" ] && [[ $row != *[[:cntrl:]]* ]] || return 1
    done
}

# 75 starts: under a sanitizer build without LeakSanitizer's scan at each
# exit (it doubles what a start costs); leaks in these frames, every view
# at 100x30, 10x3 and 1x1, are valgrind.sh's to find.
snapshots() {
    local v s w h mode out rc
    local -x ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
    for v in $VIEWS; do
        for s in $SIZES; do
            w=${s%x*} h=${s#*x}
            for mode in text ascii 256; do
                out="$TMPD/snap-$v-$s-$mode"
                case $mode in
                text) "$PEVIZ" --snapshot --view "$v" --size "$s" >"$out" ;;
                ascii) "$PEVIZ" --snapshot --view "$v" --size "$s" --ascii >"$out" ;;
                256) "$PEVIZ" --snapshot --view "$v" --size "$s" --color 256 >"$out.sgr" ;;
                esac
                rc=$?
                [ "$mode" = 256 ] && plain "$out.sgr" >"$out"
                check "snapshot $v $s $mode: exit 0, $h lines of at most $w cells" \
                    eval '[ "$rc" -eq 0 ] && shape_ok "$out" "$w" "$h"'
            done
        done
    done
}

# ---- live ------------------------------------------------------------------

# The frame peviz --snapshot draws for the view at W x H, as tmux shows
# it: the glyphs of a 256-colour terminal, without the colours.
snap_of() { "$PEVIZ" --snapshot --color 256 --format text --size "$1x$2" "${ARGS[@]}"; }

# The pane is W x H and shows the snapshot's frame, row for row (tmux
# trims each row's trailing blanks).  One column wide, the last row is
# left out: its only cell is the bottom-right corner, which curses cannot
# write without scrolling the screen (it writes that corner by inserting
# a character before it, which needs a cell to its left).  One tmux
# call asks for both the size and the rows: this runs at every poll.
# (frame_check sets WANT once: the snapshot does not change while the
# pane catches up.)
frame_is() {
    t display-message -p -t t '#{pane_width}x#{pane_height}' \; \
        capture-pane -p -t t >"$TMPD/live" || return 1
    mapfile -t LIVE <"$TMPD/live"
    [ "${LIVE[0]}" = "$1x$2" ] || return 1
    LIVE=("${LIVE[@]:1}")
    [ "$1" -eq 1 ] && unset 'LIVE[-1]'
    local IFS=$'\n'
    [ "${#LIVE[@]}" -eq "${#WANT[@]}" ] && [ "${LIVE[*]}" = "${WANT[*]}" ]
}

# want W H: the snapshot's rows frame_is compares with, in WANT
want() {
    snap_of "$1" "$2" >"$TMPD/want"
    mapfile -t WANT <"$TMPD/want"
    [ "$1" -eq 1 ] && unset 'WANT[-1]'
}

# Up to 20 s under a slow (sanitized) build; returns as soon as it holds.
poll_long() { poll_for 200 "$@"; }

# frame_check NAME W H: the live frame equals the snapshot.
frame_check() {
    want "$2" "$3"
    if poll_long frame_is "$2" "$3"; then
        pass "$1"
    else
        fail "$1"
        diff <(printf '%s\n' "${WANT[@]}") <(printf '%s\n' "${LIVE[@]}") |
            head -n 20 | sed 's/^/     > /'
    fi
}

# storm N: N random sizes (1..300 x 1..100), 10 per tmux call so they
# come faster than a frame; the first two are the extremes.
storm() {
    local n=$1 i cmd=()
    W=1 H=1
    for ((i = 0; i < n; i++)); do
        if [ "$i" -eq 0 ]; then W=1 H=1
        elif [ "$i" -eq 1 ]; then W=300 H=100
        else W=$((RANDOM % 300 + 1)) H=$((RANDOM % 100 + 1)); fi
        [ ${#cmd[@]} -gt 0 ] && cmd+=(';')
        cmd+=(resize-window -t t -x "$W" -y "$H")
        if [ $((i % 10)) -eq 9 ] || [ "$i" -eq $((n - 1)) ]; then
            t "${cmd[@]}"
            cmd=()
        fi
    done
}

storm_view() {
    local v=$1 pid s
    ARGS=(--view "$v")
    start_peviz 80 24 --color 256 "${ARGS[@]}"
    # ^L (a redraw) first: until the first key the status line keeps its
    # help word before the view's hint; --snapshot draws what follows
    keys C-l
    frame_check "$v: starts with the frame of 80x24" 80 24
    pid=$(child_pid)
    storm "$RESIZES"
    check "$v: still running after $RESIZES resizes" \
        [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
    frame_check "$v: after the storm, the frame of the last size ${W}x$H" "$W" "$H"
    for s in $SIZES; do
        t resize-window -t t -x "${s%x*}" -y "${s#*x}"
        frame_check "$v: live at $s, the frame of $s" "${s%x*}" "${s#*x}"
    done
    STORMED=$((STORMED + RESIZES))
    quit_clean "$v: q after the storm"
    check "$v: alternate screen left, cursor shown" screen_restored
}

snapshots
e2e_need_tmux
RANDOM=$RESIZE_SEED
STORMED=0
for v in $VIEWS; do
    storm_view "$v"
done
echo "resizes survived: $STORMED (seed $RESIZE_SEED)"
stop
e2e_done
