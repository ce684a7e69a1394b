#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Follow mode in real terminals: a teacher (100x30) and two followers of
# other sizes and capabilities (80x24 UTF-8 colour; 60x20 NO_COLOR,
# LANG=C), started before the teacher.  Keys on the teacher show on both
# within 1 s; a follower's own keys are refused, except the look-only
# ones; F detaches and rejoins; a stopped follower does not hold the
# teacher up; the teacher restarts and both rejoin within 2 s.  Then
# hostile peers written here (garbage, an oversized message, a trickle,
# silence, a regular file at the path): the follower says so, keeps its
# screen, and q still works.  Last, what --serve refuses at PATH.
. "$(dirname "$0")/lib.sh"
e2e_init test_follow
e2e_need_tmux

cd "$TMPD" || exit 1
SOCKP=l.sock                     # relative: short status lines

# ---- several terminals in one tmux server ---------------------------------

# open NAME W H ENV... -- ARGS: a session NAME running peviz under wrap.sh
open_pane() {
    local name=$1 w=$2 h=$3
    shift 3
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    t new-session -d -s "$name" -x "$w" -y "$h" \
        env -u LC_ALL -u NO_COLOR TERM=tmux-256color "${envs[@]}" \
        "$E2E_DIR/wrap.sh" "$PEVIZ" "$@"
}
cap() { FOCUS=$1; t capture-pane -p -t "$1"; }
# a failure shows the screen last looked at
capture() { t capture-pane -p -t "${FOCUS:-tc}"; }
send() { local s=$1; shift; t send-keys -t "$s" "$@"; }
has() { FOCUS=$1; tq capture-pane -p -t "$1" && [[ $CTL_OUT == *"$2"* ]]; }
lacks() { ! has "$1" "$2"; }
# within TENTHS NAME TEXT: TEXT on NAME's screen within TENTHS/10 s
within() { poll_for "$1" has "$2" "$3"; }
# the status line (last line) of NAME
status_of() { cap "$1" | tail -n 1; }
pid_in() { pgrep -P "$(t display-message -p -t "$1" '#{pane_pid}')" | head -n 1; }
exited_clean() {
    poll_until has "$1" 'EXIT=' &&
        [ "$(cap "$1" | grep -o 'EXIT=[0-9]* TTY=[a-z]*' | tail -n 1)" = "EXIT=0 TTY=restored" ]
}

SOCK=$(mktemp -u "$TMPD/tmux.XXXXXX")
t new-session -d -s idle -x 20 -y 5 'sleep 600' && ctl_open idle

# One process serves every kind of bad peer, each at its own path, and
# leaves stale.sock behind (bound, then closed without removing it).
# Started first: starting python can take seconds on a loaded machine.
cat > hostile.py <<'EOF'
import socket, threading, time

def garbage(c):
    c.sendall(b'\x1b[2J\x1b]0;owned\x07\x9b31m hello \r\n' * 50)

def oversize(c):
    c.sendall(b'PEVIZ-FOLLOW 1 1073741824\n')
    for _ in range(64):
        c.sendall(b'd 64\n' * 4096)

def badfield(c):
    body = b'view clocks\nd 64\nfont blink\n'
    c.sendall(b'PEVIZ-FOLLOW 1 %d\n' % len(body) + body)
    time.sleep(5)

def trickle(c):
    c.sendall(b'PEVIZ-FOLLOW 1 200\n')
    for _ in range(30):
        c.sendall(b'd')
        time.sleep(1)

def silent(c):
    time.sleep(30)

def notable(c):
    body = b'view heatmap\nd 16\ntable /nonexistent/lecture/pe.csv\n'
    c.sendall(b'PEVIZ-FOLLOW 1 %d\n' % len(body) + body)
    time.sleep(30)

def serve(srv, fn):
    while True:
        c, _ = srv.accept()
        def one(c=c):
            try:
                fn(c)
            except OSError:
                pass
            c.close()
        threading.Thread(target=one, daemon=True).start()

s = socket.socket(socket.AF_UNIX)
s.bind('stale.sock')
s.close()
for fn in (garbage, oversize, badfield, trickle, silent, notable):
    srv = socket.socket(socket.AF_UNIX)
    srv.bind(fn.__name__ + '.sock')
    srv.listen(8)
    threading.Thread(target=serve, args=(srv, fn), daemon=True).start()
open('hostile.ready', 'w').close()
time.sleep(600)
EOF
python3 hostile.py &
HOSTILE=$!
trap 'kill "$HOSTILE" 2>/dev/null; e2e_cleanup' EXIT


# ---- followers first: they wait ---------------------------------------------

# f1 reads the teacher's files from its own directory; f2 has none
mkdir files
cp "$E2E_DIR/../data/small-table.csv" files/
open_pane f1 80 24 LC_ALL=C.UTF-8 -- --follow "$SOCKP" --files files
open_pane f2 60 20 LANG=C NO_COLOR=1 -- --follow "$SOCKP"
check "f1 waits for a teacher" within 50 f1 "no teacher at $SOCKP yet, waiting"
check "f2 waits for a teacher" within 50 f2 "no teacher at $SOCKP"

open_pane tc 100 30 LC_ALL=C.UTF-8 -- --serve "$SOCKP" --view heatmap
check "teacher runs" within 50 tc 'd_model=64'
check "socket made with mode 0600" [ "$(stat -c %a "$SOCKP")" = 600 ]
check "f1 follows (within 2 s of the teacher)" within 20 f1 "following $SOCKP"
check "f2 follows (within 2 s of the teacher)" within 20 f2 "following $SOCKP"

# ---- teacher keys reach both within 1 s -----------------------------------

send tc 2
check "teacher: clocks view" within 50 tc 'PE clocks'
check "f1 shows clocks within 1 s" within 10 f1 'PE clocks'
check "f2 shows clocks within 1 s" within 10 f2 'band i=0 of 0..31'
send tc D
check "teacher: d_model=128" within 50 tc 'd_model=128'
check "f1 d_model=128 within 1 s" within 10 f1 'd_model=128'
check "f2 d_model=128 within 1 s" within 10 f2 'd_model=128'
send tc : 'pos 37' Enter
check "teacher: pos=37" within 50 tc 'pos=37'
check "f1 pos=37 within 1 s" within 10 f1 'pos=37'
check "f2 pos=37 within 1 s" within 10 f2 'pos=37'

# each drawn for its own terminal: sizes, glyphs, colours
# drawn for its own height: the status line is on each one's last row
check "f1 drawn for 24 rows" eval "cap f1 | sed -n 24p | grep -q d_model=128"
check "f2 drawn for 20 rows" eval "cap f2 | sed -n 20p | grep -q d_model=128"
check "f2 (LANG=C) draws ASCII only" eval "! cap f2 | LC_ALL=C grep -q '[^ -~]'"
check "f1 (UTF-8) draws Unicode" eval "cap f1 | LC_ALL=C grep -q '[^ -~]'"
check "f2 (NO_COLOR) has no colours" eval "! t capture-pane -p -e -t f2 | grep -q '\[[0-9;]*3[0-9];'"
check "f1 has colours" eval "t capture-pane -p -e -t f1 | grep -q '38;5;'"

# ---- a follower's keys -------------------------------------------------------

send f1 D
check "f1: D refused with the hint" within 50 f1 "following $SOCKP: F to explore on your own"
check "f1: d_model still 128" has f1 'd_model=128'
check "teacher unchanged by f1" has tc 'd_model=128'
send f2 '?'
check "f2: ? shows the help card locally" within 50 f2 'in this view'
check "teacher has no help card" lacks tc 'in this view'
send f2 Escape
check "f2: the help card closes" poll_until lacks f2 'in this view'
send f1 P
check "f1: P changes only its palette" within 50 f1 'palette'
send f1 F
check "f1: F detaches" within 50 f1 'exploring on your own'
send f1 d
check "f1 detached: d works (64)" within 50 f1 'd_model=64'
check "teacher still 128" has tc 'd_model=128'
check "f2 still 128" has f2 'd_model=128'
send tc D
check "teacher: 256" within 50 tc 'd_model=256'
check "f2 follows to 256 within 1 s" within 10 f2 'd_model=256'
check "f1 detached stays at 64" has f1 'd_model=64'
send f1 F
check "f1: F rejoins at the teacher's state (256)" within 10 f1 'd_model=256'
check "f1: says following again" has f1 "following $SOCKP"

# ---- the compare panes' own scalings reach the followers ----------------------

send tc 4
check "teacher: compare view" within 50 tc 'B base='
send tc v ']'
send tc : 'model qwen2.5-7b-yarn' Enter
check "teacher: pane B takes yarn" within 50 tc 'blend 24'
check "f1 draws pane B's yarn within 1 s" within 10 f1 'blend 24'
check "f2 draws pane B's yarn within 1 s" within 10 f2 'blend 24'
check "f1 names pane B's model" has f1 'B qwen2.5-7b-yarn yarn x4'
check "f2 names pane B's model" has f2 'B qwen2.5-7b-yarn yarn x4'
# longrope with its factor lists, on pane B alone
send tc : 'd 8' Enter
send tc : 'short-factor 1,1.5,2,3' Enter
send tc : 'long-factor 2,4,8,16' Enter
send tc : 'original-max 64' Enter
send tc : 'scaling longrope' Enter
check "teacher: pane B takes longrope" within 50 tc 'rescale 2'
check "f1 draws pane B's longrope factors within 1 s" within 10 f1 'rescale 2'
check "f2 draws pane B's longrope within 1 s" within 10 f2 'B longrope x4'
check "f1: no bad message" eval "! cap f1 | grep -q 'bad message'"
send tc 2
check "teacher: back to clocks" within 50 tc 'PE clocks'
check "f1 back to clocks" within 10 f1 'PE clocks'

# ---- a stopped follower does not hold the teacher up -------------------------

F2PID=$(pid_in f2)
kill -STOP "$F2PID"
for i in 1 2 3 4 5 6 7 8; do
    send tc l l l l l l l l l l l l l l l l l l l l l l l l l l l l l l l l l l l l l l l l
    send tc h h h h h h h h h h h h h h h h h h h h h h h h h h h h h h h h h h h h h h h h
done
send tc : 'pos 99' Enter
check "teacher answers with f2 stopped" within 50 tc 'pos=99'
check "f1 keeps following with f2 stopped" within 10 f1 'pos=99'
kill -CONT "$F2PID"
check "f2, continued, catches up within 2 s" within 20 f2 'pos=99'

# ---- the teacher restarts ------------------------------------------------------

send tc q
check "teacher quits clean" exited_clean tc
check "socket removed on quit" [ ! -e "$SOCKP" ]
check "f1: teacher left, waiting" within 20 f1 'teacher left, waiting'
check "f2: teacher left, waiting" within 20 f2 'teacher left, waiting'
t kill-session -t tc
open_pane tc 100 30 LC_ALL=C.UTF-8 -- --serve "$SOCKP" -d 32 --view attention
check "teacher again" within 50 tc 'd_model=32'
check "f1 rejoins within 2 s" within 20 f1 'd_model=32'
check "f2 rejoins within 2 s" within 20 f2 'd_model=32'
check "f1 shows the attention view" within 10 f1 'attention'
# a table goes by its path: followers on this machine read it themselves
send tc q
check "teacher quits clean again" exited_clean tc
t kill-session -t tc
open_pane tc 100 30 LC_ALL=C.UTF-8 -- --serve "$SOCKP" --view heatmap --pe-file "$E2E_DIR/../data/small-table.csv"
check "teacher shows its table" within 50 tc 'table[0, 0] = 0'
check "f1 reads the teacher's table from --files" within 20 f1 "read the teacher's table small-table.csv"
check "f1 draws the table" within 10 f1 'table[0, 0] = 0'
check "f1 shows its value legend" has f1 'small-table.csv'
check "f2 (no --files) says so and opens nothing" within 20 f2 'the teacher loaded small-table.csv: not shown'
check "f2 draws the lecture without it" has f2 'PE(0, 0) = sin(0'
# a tour file goes by its base name too: f1 loads its copy, f2 says so
printf '%s\n' 'title Opening' 'set d 32' 'text Caption one of the lecture.' \
    'title Closing' 'set d 48' 'text Caption two of the lecture.' > lecture.tour
cp lecture.tour files/
send tc q
check "teacher quits clean (table)" exited_clean tc
t kill-session -t tc
open_pane tc 100 30 LC_ALL=C.UTF-8 -- --serve "$SOCKP" --tour "$TMPD/lecture.tour"
check "teacher runs its tour" within 50 tc 'Caption one of the lecture'
check "f1 shows the teacher's tour step" within 20 f1 'Caption one of the lecture'
check "f2 (no --files): the tour not shown, said" within 20 f2 'the teacher loaded lecture.tour'
send tc Enter
check "teacher: step 2" within 50 tc 'Caption two of the lecture'
check "f1 shows step 2 within 1 s" within 10 f1 'Caption two of the lecture'
check "f2 follows the step's settings" within 10 f2 'd_model=48'
send f1 Enter
check "f1: Enter in the tour refused" within 50 f1 "following $SOCKP: F to explore on your own"
check "f1 still at step 2" has f1 'Caption two of the lecture'
send tc Escape
check "teacher leaves its tour" poll_until lacks tc 'Caption two of the lecture'
check "f1 leaves the tour with it" poll_until lacks f1 'Caption two of the lecture'

# ---- what --serve refuses ----------------------------------------------------

refuse() {       # refuse NAME PATH WANT: exit 2, one line naming WANT
    local out rc
    out=$("$PEVIZ" --serve "$2" 2>&1 </dev/null)
    rc=$?
    if [ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
        printf '%s' "$out" | grep -qF -- "$3"; then
        pass "$1"
    else
        fail "$1 (rc=$rc, '$out')"
    fi
}
echo data > plain.txt
mkdir adir
refuse "--serve on a regular file: refused" plain.txt 'not a socket'
refuse "--serve on a directory: refused" adir 'directory'
refuse "--serve on a socket in use: refused" "$SOCKP" 'in use'
check "the regular file is untouched" [ "$(cat plain.txt)" = data ]
# bad_args NAME WANT ARGS...: exit 2, one line on stderr naming WANT,
# nothing on stdout, nothing created
bad_args() {
    local name=$1 want=$2 out err rc
    shift 2
    out=$("$PEVIZ" "$@" 2>err.txt </dev/null)
    rc=$?
    err=$(cat err.txt)
    if [ $rc -eq 2 ] && [ -z "$out" ] && [ "$(wc -l <err.txt)" -eq 1 ] &&
        printf '%s' "$err" | grep -qF -- "$want" && [ ! -e new.sock ]; then
        pass "$name"
    else
        fail "$name (rc=$rc, '$err')"
    fi
}
bad_args "--serve-mode without --serve" 'goes with --serve' --serve-mode 0660
bad_args "--serve-mode 0444 (owner cannot write)" 'owner read and write' --serve new.sock --serve-mode 0444
bad_args "--serve-mode 0x1ff" 'octal' --serve new.sock --serve-mode 0x1ff
bad_args "--serve-mode 01777" 'octal' --serve new.sock --serve-mode 01777
bad_args "--serve and --follow together" 'not both' --serve new.sock --follow l.sock
bad_args "--files without --follow" 'goes with --follow' --files files
bad_args "--files on a regular file" 'plain.txt: not a directory' --follow new.sock --files plain.txt
bad_args "--files on a missing directory" 'No such file' --follow new.sock --files nowhere
bad_args "--serve with --snapshot" 'interactive' --serve new.sock --snapshot
bad_args "--follow with --export" 'interactive' --follow l.sock --export pe
bad_args "--serve ''" 'needs a socket path' --serve ''
bad_args "--follow on a path of 200 bytes" 'longer than 107' --follow "$(printf 'x%.0s' $(seq 200))"
bad_args "--serve on a path of 200 bytes" 'longer than 107' --serve "$(printf 'x%.0s' $(seq 200))"

poll_until [ -e hostile.ready ]
check "a stale socket exists" [ -S stale.sock ]
open_pane st 80 24 LC_ALL=C.UTF-8 -- --serve stale.sock --serve-mode 0660
check "--serve replaces a stale socket" within 50 st 'd_model=64'
check "--serve-mode 0660 applied" poll_until [ "$(stat -c %a stale.sock 2>/dev/null)" = 660 ]
send st q
check "stale-socket teacher quits clean" exited_clean st

# ---- hostile peers: a follower of each, all at once ---------------------------

poll_until [ -e hostile.ready ]
for m in garbage oversize badfield trickle silent; do
    open_pane "h$m" 120 24 LC_ALL=C.UTF-8 -- --follow "$m.sock" -d 16
done
hp() {       # hp MODE WANT: says WANT, keeps its screen, q quits clean
    check "$1 peer: says '$2'" within 80 "h$1" "$2"
    check "$1 peer: screen still drawn (d_model=16)" has "h$1" 'd_model=16'
    check "$1 peer: nothing from the peer on screen" eval "! cap h$1 | grep -qE 'owned|hello|blink'"
    check "$1 peer: status line still on row 24" eval "cap h$1 | sed -n 24p | grep -q 'bad message'"
    send "h$1" q
    check "$1 peer: q quits clean" exited_clean "h$1"
}
hp garbage 'bad message from garbage.sock: not a peviz teacher'
hp oversize 'bad message from oversize.sock: message of 1073741824 bytes'
hp badfield 'bad message from badfield.sock: line 3: unknown field'
hp trickle 'bad message from trickle.sock: no whole message in 3 s'
hp silent 'bad message from silent.sock: no whole message in 3 s'
# a teacher's table this machine does not have: said, the lecture goes on
open_pane hn 80 24 LC_ALL=C.UTF-8 -- --follow notable.sock -d 16 --files files
check "a teacher's path: not opened, said" within 50 hn "teacher's table: /nonexistent/lecture/pe.csv: not a plain file name"
check "missing table: the lecture is drawn" has hn 'PE(0, 0) = sin(0'
send hn F
check "missing table: F still works" within 50 hn 'exploring on your own'
send hn q
check "missing table: q quits clean" exited_clean hn
echo not a socket > file.sock
open_pane hf 80 24 LC_ALL=C.UTF-8 -- --follow file.sock
check "regular file at the path: said" within 50 hf 'file.sock is not a socket'
send hf q
check "regular file: q quits clean" exited_clean hf

# ---- everyone quits clean --------------------------------------------------------

send f1 q
check "f1 quits clean" exited_clean f1
send f2 q
check "f2 quits clean" exited_clean f2
send tc q
check "teacher quits clean" exited_clean tc

e2e_done
