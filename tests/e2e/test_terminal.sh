#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The real program in a real terminal (tmux): keys, prompt, resizes,
# help, and every way out (q, signals, a crash, Ctrl-Z / fg, a terminal
# that hangs up) leaving the terminal as it found it; idle costs 0 bytes;
# unusable terminals are refused with exit 2 and a message.
. "$(dirname "$0")/lib.sh"
e2e_init test_terminal

# ---- no terminal at all (needs no tmux) ------------------------------------

refuse_without_tty() {
    local rc
    "$PEVIZ" </dev/null >"$TMPD/out" 2>"$TMPD/err"
    rc=$?
    check "no terminal: exit 2" [ "$rc" -eq 2 ]
    check "no terminal: says so on stderr" grep -q 'not a terminal' "$TMPD/err"
    check "no terminal: suggests --snapshot" grep -q -- '--snapshot' "$TMPD/err"
    check "no terminal: nothing on stdout" [ ! -s "$TMPD/out" ]
}

refuse_without_tty
e2e_need_tmux

# ---- the main session --------------------------------------------------------

exits_clean() {   # NAME STATUS: wrap.sh saw STATUS and restored modes
    local name=$1 want="EXIT=$2 TTY=restored"
    if wait_for 'EXIT=' && [ "$(exit_line)" = "$want" ]; then
        pass "$name: $want"
    else
        fail "$name: wanted '$want', got '$(exit_line)'"
    fi
    check "$name: alternate screen left, cursor shown" screen_restored
    check "$name: cursor keys, keypad and mouse modes off ($(modes))" \
        [ "$(modes)" = "0 0 0 0 0 0" ]
}

# What the pane has on: application cursor keys, keypad, the mouse
# reporting modes and SGR mouse.
modes() {
    pane_fmt '#{keypad_cursor_flag} #{keypad_flag} #{mouse_standard_flag} #{mouse_button_flag} #{mouse_any_flag} #{mouse_sgr_flag}'
}

# The terminal's cursor stands on the heatmap's cursor dot.
cursor_on_dot() {
    local at
    at=$(capture | python3 -c 'import sys
for y, l in enumerate(sys.stdin.read().split("\n")):
    if "\u25cf" in l:
        print(l.index("\u25cf"), y)')
    [ -n "$at" ] && [ "$(pane_fmt '#{cursor_x} #{cursor_y}')" = "$at" ]
}

session() {
    start_peviz 100 30
    expect "starts with the status line" 'd_model=64'
    check "uses the alternate screen" \
        [ "$(pane_fmt '#{alternate_on}')" = 1 ]
    keys D
    expect "D doubles d_model" 'd_model=128'
    keys : 'base 5e5' Enter
    expect ":base 5e5 sets the base" 'base=500000'
    keys C-s D
    expect "Ctrl-S does not freeze output" 'd_model=256'
    keys C-q
    resize_through 10x4 1x1 2x2 100x30
    check "survives the resizes" [ -n "$(child_pid)" ]
    keys d
    expect "still answers keys after resizing" 'd_model=128'
    keys C-l
    expect "Ctrl-L redraws" 'd_model=128'
    keys l l l j
    check "the cursor is left on the inspected cell (the heatmap's dot)" \
        poll_until cursor_on_dot
    check "help not shown before ?" screen_lacks 'any key closes this card'
    keys '?'
    expect "? shows the help card" 'any key closes this card'
    keys Escape
    check "any key closes the help card" wait_gone 'any key closes this card'
    keys q
    exits_clean "q" 0
}

# ---- signals -------------------------------------------------------------------

# signal_run NAME STATUS HOW...: start, send the signal by HOW, check.
signal_run() {
    local name=$1 status=$2 pid
    shift 2
    start_peviz 80 24 --mouse
    if ! wait_for 'd_model='; then
        fail "$name: did not start"
        return
    fi
    pid=$(child_pid)
    if [ "$1" = keys ]; then keys "$2"; else kill "-$1" "$pid"; fi
    exits_clean "$name" "$status"
}

signals() {
    signal_run "Ctrl-C" 130 keys C-c
    signal_run "kill -TERM" 143 TERM
    signal_run "kill -HUP" 129 HUP
    signal_run "kill -QUIT" 131 QUIT
    signal_run "kill -SEGV (crash path)" 139 SEGV
    signal_run "kill -ABRT (crash path)" 134 ABRT
    # every other signal whose default action ends the process
    local sig
    for sig in USR1 ALRM IO RTMAX; do
        signal_run "kill -$sig" $((128 + $(kill -l "$sig"))) "$sig"
    done
    for sig in ILL SYS XCPU; do
        signal_run "kill -$sig (crash path)" $((128 + $(kill -l "$sig"))) "$sig"
    done
}

# start_in LABEL DIR W H SETUP: peviz at W x H working in DIR (made here),
# after the shell words SETUP; fails LABEL and returns 1 if it did not start.
start_in() {
    local label=$1 d=$2 w=$3 h=$4 setup=$5
    mkdir -p "$d"
    start "$w" "$h" sh -c "cd \"\$1\" && $setup exec \"\$0\"" "$PEVIZ" "$d"
    wait_for 'd_model=' && return 0
    fail "$label: did not start"
    return 1
}

# ---- pasting into the prompt ------------------------------------------------

# Text pasted into the ':' prompt stays text: a newline does not submit,
# ESC does not close, w does not export and q does not quit.  tmux
# brackets a paste only once the program has asked for bracketed paste,
# which peviz does before it draws the open prompt: each paste waits for
# the prompt on the screen (on a loaded machine ':' can take a while to
# be read and drawn, and a paste before it is plain keys).
paste() {
    local d="$TMPD/paste"
    start_in "paste" "$d" 100 24 "" || return
    t set-buffer -b p "$(printf 'base 5e5\nw\033q')"
    keys :
    check "paste: : opens the prompt" poll_until prompt_is ':'
    t paste-buffer -p -b p -t t
    expect "paste: the text stays in the prompt" ':base 5e5 wq'
    check "paste: w did not export" [ -z "$(ls -A "$d")" ]
    check "paste: the base is not set yet" screen_lacks 'base=500000'
    keys BSpace BSpace BSpace Enter
    expect "paste: Enter after it runs the command" 'base=500000'
    keys :
    check "paste: : opens the prompt again" poll_until prompt_is ':'
    t paste-buffer -p -b p -t t
    check "paste: the second paste stays in the prompt" \
        poll_until prompt_is ':base 5e5 wq'
    keys Escape
    check "paste: Escape typed after it closes the prompt" \
        wait_gone ':base 5e5 wq'
    quit_clean "paste"
}
# The bottom line, the prompt's, is TEXT.
prompt_is() { tq capture-pane -p -t t && [[ ${CTL_OUT%$'\n'} == *$'\n'"$1" ]]; }

# ---- a file-size limit (SIGXFSZ) while writing a frame ----------------------

file_limit() {
    local d="$TMPD/flimit"
    start_in "ulimit -f" "$d" 200 24 "ulimit -f 16 &&" || return
    keys w
    expect "ulimit -f 16, w: the failure is reported" 'failed: File too large'
    check "ulimit -f 16, w: no file and no temporary file left" \
        [ -z "$(ls -A "$d")" ]
    keys D
    expect "ulimit -f 16, w: still answers keys" 'd_model=128'
    keys q
    exits_clean "ulimit -f 16, w, q" 0
}

# ---- Ctrl-Z and fg, under an interactive shell (job control) ---------------

suspend_resume() {
    local pid
    start_raw 100 30 env PS1='READY$ ' bash --norc --noprofile -i
    if ! wait_for 'READY$'; then
        fail "Ctrl-Z: the shell did not start"
        return
    fi
    keys "stty -g > $TMPD/tty.before" Enter
    poll_until [ -s "$TMPD/tty.before" ]
    keys "$PEVIZ" Enter
    expect "Ctrl-Z: started from the shell" 'd_model=64'
    pid=$(pgrep -P "$(pane_fmt '#{pane_pid}')" | head -n 1)
    keys C-z
    expect "Ctrl-Z: the shell reports the job stopped" 'Stopped'
    check "Ctrl-Z: the process is stopped" \
        poll_until [ "$(ps -o stat= -p "$pid" | cut -c1)" = T ]
    check "Ctrl-Z: alternate screen left, cursor shown" screen_restored
    keys fg Enter
    expect "fg: the frame is back" 'd_model=64'
    check "fg: back on the alternate screen" \
        poll_until [ "$(pane_fmt '#{alternate_on}')" = 1 ]
    keys D
    expect "fg: keys work again (no Enter needed)" 'd_model=128'
    keys q
    check "fg, q: back to the shell" wait_for 'READY$'
    check "fg, q: alternate screen left, cursor shown" poll_until screen_restored
    keys "stty -g > $TMPD/tty.after" Enter
    poll_until [ -s "$TMPD/tty.after" ]
    check "fg, q: stty -g as before" cmp -s "$TMPD/tty.before" "$TMPD/tty.after"
}

# ---- idle costs nothing ------------------------------------------------------

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null; }
# Times the process blocked and was woken: one poll() per wake-up.
wakeups() { awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$1/status" 2>/dev/null; }

# One key and its redraw; true once the log has seen output.
toggled() {
    keys D
    wait_for 'd_model=128' || return 1
    keys d
    wait_for 'd_model=64' || return 1
    [ "$(size_of "$1")" -gt 0 ]
}

idle() {
    local log="$TMPD/pane.log" s0 s1 pid c0 c1 w0 w1
    : >"$log"
    start_peviz 80 24
    if ! wait_for 'd_model='; then
        fail "idle: did not start"
        return
    fi
    pid=$(child_pid)
    t pipe-pane -o -t t "cat >> $log"
    # the pipe may start a moment late: toggle d_model until bytes arrive
    check "idle: redraws after keys reach the pipe" poll_until toggled "$log"
    poll_until quiet "$log"
    s0=$(size_of "$log")
    c0=$(cpu_ticks "$pid")
    w0=$(wakeups "$pid")
    sleep 2      # the observation window, not a wait for a state
    s1=$(size_of "$log")
    c1=$(cpu_ticks "$pid")
    w1=$(wakeups "$pid")
    check "idle: 0 bytes written in 2 s ($((s1 - s0)) seen)" [ "$s1" -eq "$s0" ]
    check "idle: no CPU in 2 s ($((c1 - c0)) ticks)" [ $((c1 - c0)) -le 1 ]
    check "idle: asleep in poll, not woken ($((w1 - w0)) wake-ups)" \
        [ "${w0:-x}" = "$w1" ]
    keys q
    exits_clean "idle, then q" 0
}

# ---- the terminal goes away under it ----------------------------------------

hangup() {
    local pid
    # SIGHUP ignored (as under nohup): only the hang-up itself can end it
    start_raw 80 24 sh -c 'trap "" HUP; exec "$0"' "$PEVIZ"
    if ! wait_for 'd_model='; then
        fail "hang-up: did not start"
        return
    fi
    pid=$(pane_fmt '#{pane_pid}')
    t kill-pane -t t >/dev/null 2>&1
    check "hang-up with SIGHUP ignored: exits instead of spinning" \
        poll_until gone "$pid"
    kill -KILL "$pid" 2>/dev/null   # a failing build would spin on
    stop
}

gone() { ! kill -0 "$1" 2>/dev/null || [ "$(ps -o stat= -p "$1" | cut -c1)" = Z ]; }

# ---- unusable terminals ------------------------------------------------------

# refuse NAME PATTERN COMMAND...: exit 2, a message, terminal untouched.
refuse() {
    local name=$1 pattern=$2
    shift 2
    start 80 24 "$@"
    if wait_for 'EXIT=' && [ "$(exit_line)" = "EXIT=2 TTY=restored" ]; then
        pass "$name: refused with exit 2"
    else
        fail "$name: wanted 'EXIT=2 TTY=restored', got '$(exit_line)'"
    fi
    check "$name: says why" screen_has "$pattern"
    check "$name: alternate screen never entered" screen_restored
}

# TERM=dumb: frames as lines (--plain), each printed again after a key
# that changes it; q quits with exit 0 and the tty's modes restored.
dumb_lines() {
    start 80 24 env TERM=dumb "$PEVIZ"
    check "TERM=dumb: the first frame as lines" wait_for 'PE(0, 0) = sin'
    keys j
    check "TERM=dumb: a key prints the next frame" wait_for 'PE(0, 1) = cos'
    check "TERM=dumb: no drawing glyphs" screen_lacks '▀'
    keys q q
    if wait_for 'EXIT=' && [ "$(exit_line)" = "EXIT=0 TTY=restored" ]; then
        pass "TERM=dumb: q quits, tty restored"
    else
        fail "TERM=dumb: wanted 'EXIT=0 TTY=restored', got '$(exit_line)'"
    fi
}

refusals() {
    local ti="$TMPD/terminfo"
    refuse "stdin from /dev/null" 'not a terminal' \
        sh -c 'exec "$0" </dev/null' "$PEVIZ"
    refuse "stdout to a file" 'not a terminal' \
        sh -c 'exec "$0" >"$1"' "$PEVIZ" "$TMPD/stdout"
    check "stdout to a file: nothing written to it" [ ! -s "$TMPD/stdout" ]
    dumb_lines
    refuse "TERM unset" 'TERM is not set' env -u TERM "$PEVIZ"
    refuse "unknown TERM" 'unknown terminal' env TERM=peviz-no-such-term "$PEVIZ"
    # TERM itself is quoted: its escapes (7-bit and 8-bit CSI) must not
    # reach the terminal
    refuse "TERM with escapes" 'unknown terminal' sh -c \
        'TERM=$(printf "x\\033]2;pwned\\007\\2332J") "$0" 2>"$1"; r=$?; cat -v "$1"; exit $r' \
        "$PEVIZ" "$TMPD/term.err"
    check "TERM with escapes: quoted without them" \
        grep -q "TERM=x?]2;pwned??2J" "$TMPD/term.err"
    mkdir -p "$ti"
    printf 'pvnocup|a terminal without cursor addressing,\n\tcols#80, lines#24, bel=^G, cr=\\r,\n' |
        tic -o "$ti" - 2>/dev/null
    refuse "no cursor addressing" 'cursor addressing' \
        env TERMINFO="$ti" TERM=pvnocup "$PEVIZ"
}

session
signals
paste
file_limit
suspend_resume
idle
hangup
refusals
stop
e2e_done
