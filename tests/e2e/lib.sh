# SPDX-License-Identifier: ISC
# Helpers for the end-to-end tests: a private tmux server per scenario
# (its own socket, fixed size, pinned TERM and locale), bounded waits,
# and pass/fail counters.  Source it, then call e2e_init NAME.
#
# Waits poll for the expected state (20 s, 0.1 s steps); nothing sleeps a
# fixed time and then checks.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${PEVIZ:=./peviz}"
case $PEVIZ in /*) ;; *) PEVIZ="$PWD/$PEVIZ" ;; esac
export LC_ALL=C.UTF-8
unset TMUX

E2E_NAME=e2e
PASS=0
FAIL=0
SKIPPED=0
SOCK=
TMPD=

e2e_init() {
    E2E_NAME=$1
    TMPD=$(mktemp -d /tmp/peviz-e2e.XXXXXX)
    trap e2e_cleanup EXIT
    mkfifo "$TMPD/nap" && exec {E2E_NAP}<>"$TMPD/nap"
    trap 'exit 1' INT TERM HUP
}

e2e_cleanup() {
    stop
    rm -rf "$TMPD"
}

# The closing line; the exit status says whether anything failed.
e2e_done() {
    echo "$E2E_NAME: $PASS passed, $FAIL failed, $SKIPPED skipped"
    [ "$FAIL" -eq 0 ]
}

# tmux is required, not optional: without it the suite fails, saying why.
e2e_need_tmux() {
    if ! command -v tmux >/dev/null 2>&1; then
        FAIL=$((FAIL + 1))
        echo "FAIL $E2E_NAME: tmux is not installed; the terminal tests need it (Debian: apt-get install tmux)"
        e2e_done
        exit $?
    fi
}

# e2e_skip WHY PACKAGE FUNCTION...: an optional tool is missing, so the
# FUNCTIONs cannot run. Say so in one line and count as skipped every
# check they make: they run once in a subshell where each check only
# counts, and nothing starts a program.
e2e_skip() {
    local why=$1 pkg=$2 n
    shift 2
    n=$(
        exec >/dev/null 2>&1
        : >"$TMPD/skip.count"
        pass() { echo >>"$TMPD/skip.count"; }
        fail() { echo >>"$TMPD/skip.count"; }
        check() { echo >>"$TMPD/skip.count"; }
        expect() { echo >>"$TMPD/skip.count"; }
        pty() { :; }
        start_raw() { :; }
        start() { :; }
        keys() { :; }
        capture() { :; }
        wait_for() { :; }
        quiet_pane() { :; }
        tmux_keys() { :; }
        stop() { :; }
        for f in "$@"; do "$f"; done
        wc -l <"$TMPD/skip.count" >"$TMPD/skip.n"
    )
    n=$(cat "$TMPD/skip.n" 2>/dev/null || echo 1)
    SKIPPED=$((SKIPPED + n))
    echo "SKIP $E2E_NAME: $why (Debian: apt-get install $pkg)"
}

pass() {
    PASS=$((PASS + 1))
    echo "ok   $1"
}

# A failure shows the screen as it was, to see why.
fail() {
    FAIL=$((FAIL + 1))
    echo "FAIL $1"
    if [ -n "$SOCK" ]; then
        capture 2>/dev/null | sed 's/^/     | /'
    fi
}

# check NAME COMMAND...: pass if the command succeeds.
check() {
    local name=$1
    shift
    if "$@"; then pass "$name"; else fail "$name"; fi
}

# ---- tmux ---------------------------------------------------------------

# t ARGS...: a tmux command to the scenario's server.  Once ctl_open has
# attached the helper (tests/e2e/ctl.c, built by make test), the command
# is a line on its FIFO and the answer a file, not a new tmux process:
# a suite sends hundreds, and each process costs ~16 ms of CPU here.  An
# argument that cannot go on one line (a newline in it) takes a process.
t() {
    if [ -n "$CTL_W" ] && ctl_send "$@"; then
        if [ "$CTL_ST" = 0 ]; then printf '%s' "$CTL_OUT"; return 0; fi
        printf '%s' "$CTL_OUT" >&2
        return 1
    fi
    tmux -S "$SOCK" -f "$E2E_DIR/tmux.conf" "$@"
}

# tq ARGS...: t, its output in CTL_OUT instead of on stdout (no subshell
# for the polls that read the screen ten times a second).
tq() {
    if [ -n "$CTL_W" ] && ctl_send "$@"; then
        [ "$CTL_ST" = 0 ]
        return
    fi
    CTL_OUT=$(tmux -S "$SOCK" -f "$E2E_DIR/tmux.conf" "$@")
}

CTL_W= CTL_R= CTL_PID= CTL_ST= CTL_OUT=
: "${E2E_CTL:=${BUILD:-build}/e2e/ctl}"
case $E2E_CTL in /*) ;; *) E2E_CTL="$PWD/$E2E_CTL" ;; esac

# ctl_open SESSION: attach the helper to SESSION of $SOCK (a session
# that lives as long as the server).  Without the helper, t runs tmux.
ctl_open() {
    local fifo=$TMPD/ctl
    ctl_close
    [ -x "$E2E_CTL" ] || return 0
    rm -f "$fifo.in" "$fifo.out"
    mkfifo "$fifo.in" "$fifo.out" || return 0
    "$E2E_CTL" "$SOCK" "$E2E_DIR/tmux.conf" "$1" "$fifo.reply" \
        <"$fifo.in" >"$fifo.out" 2>/dev/null &
    CTL_PID=$!
    exec {CTL_W}<>"$fifo.in" {CTL_R}<"$fifo.out"
    if ! read -r -t 20 -u "$CTL_R" CTL_ST || [ "$CTL_ST" != 0 ]; then ctl_close kill; fi
}

# ctl_close [kill]: let the helper go (kill: it is stuck, end it).
ctl_close() {
    [ -n "$CTL_W" ] || return 0
    exec {CTL_W}>&- {CTL_R}<&-
    [ "${1:-}" = kill ] && kill "$CTL_PID" 2>/dev/null
    wait "$CTL_PID" 2>/dev/null
    CTL_W= CTL_R= CTL_PID=
}

# ctl_send ARGS...: one round trip; CTL_ST is 0 or 1 (tmux's status),
# CTL_OUT the output.  Fails, having sent nothing, for an argument with a
# newline, or when the helper has gone or has not answered in 20 s (then
# t runs tmux itself).
ctl_send() {
    local a q line=
    for a in "$@"; do
        case $a in
            *$'\n'*) return 1 ;;
            ';') q=';' ;;                       # a separator, as on tmux's line
            *) q=${a//"'"/"'\\''"}; q="'$q'" ;;  # one word, nothing expanded
        esac
        line+="$q "
    done
    printf '%s\n' "$line" >&"$CTL_W"
    if ! read -r -t 20 -u "$CTL_R" CTL_ST; then
        ctl_close kill
        return 1
    fi
    CTL_OUT=$(<"$TMPD/ctl.reply")
    CTL_OUT=${CTL_OUT%.}
    if [ "$CTL_ST" = 2 ]; then      # sent, and then the client ended
        CTL_ST=0
        ctl_close
    fi
}

# start W H COMMAND...: a fresh server whose one pane runs COMMAND as is.
start_raw() {
    local w=$1 h=$2
    shift 2
    stop
    SOCK=$(mktemp -u "$TMPD/tmux.XXXXXX")
    t new-session -d -s t -x "$w" -y "$h" \
        env TERM=tmux-256color LC_ALL=C.UTF-8 "$@" && ctl_open t
}

# start W H COMMAND...: the same, under wrap.sh (prints EXIT= TTY= after).
start() {
    local w=$1 h=$2
    shift 2
    start_raw "$w" "$h" "$E2E_DIR/wrap.sh" "$@"
}

# start_peviz W H [ARGS...]
start_peviz() {
    local w=$1 h=$2
    shift 2
    start "$w" "$h" "$PEVIZ" "$@"
}

stop() {
    if [ -n "$SOCK" ]; then
        t kill-server >/dev/null 2>&1
        ctl_close
        rm -f "$SOCK"
        SOCK=
    fi
}

capture() { t capture-pane -p -t t; }
keys() { t send-keys -t t "$@"; }
pane_fmt() { t display-message -p -t t "$1"; }

# nap SECONDS: sleep without starting a process (a read that times out
# on a pipe nobody writes to; the timeout is its purpose, so it returns
# 0); polls nap thousands of times a run.
nap() { read -rt "$1" -u "$E2E_NAP" _ || :; }

# Poll until COMMAND succeeds, at most TENTHS tenths of a second by the
# clock (not a count of tries: on a loaded machine each try takes longer).
poll_for() {
    local end=$(( ${EPOCHREALTIME/./} + $1 * 100000 ))
    shift
    until "$@"; do
        [ "${EPOCHREALTIME/./}" -ge "$end" ] && return 1
        nap 0.1
    done
}

# Poll until COMMAND succeeds, at most 20 s (a sanitizer build on a
# loaded machine can take seconds to draw or to end; a passing check
# waits only as long as it must).
poll_until() { poll_for 200 "$@"; }

# (pane t, as capture reads it; a suite with panes of other names, like
# test_follow, matches its own)
screen_has() { tq capture-pane -p -t t && [[ $CTL_OUT == *"$1"* ]]; }
screen_lacks() { ! screen_has "$1"; }
wait_for() { poll_until screen_has "$1"; }
wait_gone() { poll_until screen_lacks "$1"; }

# expect NAME TEXT: pass once TEXT is on the screen (within 20 s).
expect() {
    if wait_for "$2"; then pass "$1"; else fail "$1 (wanted '$2')"; fi
}

# The pid of the program that wrap.sh (the pane's process) runs.
child_pid() {
    local pp
    pp=$(pane_fmt '#{pane_pid}')
    pgrep -P "$pp" | head -n 1
}

# Alternate screen left and cursor visible (ask while the pane lives).
screen_restored() { [ "$(pane_fmt '#{alternate_on} #{cursor_flag}')" = "0 1" ]; }

# After the program ends: wrap.sh's verdict line.
exit_line() { capture | grep -o 'EXIT=[0-9]* TTY=[a-zA-Z]*' | tail -n 1; }

# Size of a file in bytes (0 if missing): for logs of raw output.
size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }

# The views in the order of their number keys, as --help names them
# ("--view NAME  what it is: heatmap, clocks, ... or grid (default
# heatmap)"): one word each.
e2e_views() {
    "$PEVIZ" --help | sed -n 's/^ *--view NAME  *//p' |
        sed 's/^.*: //; s/ (default [^)]*)$//; s/,//g; s/ or / /'
}

# Output has stopped: the log did not grow for half a second.
quiet() {
    local a b
    a=$(size_of "$1")
    nap 0.5
    b=$(size_of "$1")
    [ "$a" = "$b" ]
}

# The pane is WxH.
pane_is() { tq display-message -p -t t '#{pane_width}x#{pane_height}' && [ "${CTL_OUT%$'\n'}" = "$1" ]; }

# Resize the window through each WxH and check the pane follows.
resize_through() {
    local size
    for size in "$@"; do
        t resize-window -t t -x "${size%x*}" -y "${size#*x}"
        check "resize to $size: pane is $size" poll_until pane_is "$size"
    done
}

# Press q and check the wrapper saw exit 0 and a restored tty; $1 names it.
quit_clean() {
    keys q
    if wait_for 'EXIT=' && [ "$(exit_line)" = "EXIT=0 TTY=restored" ]; then
        pass "$1: EXIT=0 TTY=restored"
    else
        fail "$1: wanted 'EXIT=0 TTY=restored', got '$(exit_line)'"
    fi
}
