#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# What a classroom sees at 80x24 in a real terminal (tmux), under the
# conditions of a lecture hall: LANG=C, NO_COLOR=1, TERM=vt100.
# - the Chinese tour under LANG=C: on a terminal that takes UTF-8 (it
#   answers the probe) in a UTF-8 locale that is installed, with a note;
#   on an ASCII-only one (--ascii, or no answer) one message why, and the
#   English tour instead of rows of '?';
# - with a UTF-8 locale the Chinese tour runs;
# - --record writes a valid asciicast v3 file: a marker per tour step
#   (--autoplay runs the tour unattended), nothing while the screen is at
#   rest, an exit event, and the terminal restored on every exit; past a
#   file size limit and on a full disk (a tmpfs of 8 KB) it says so at
#   once and keeps whole events only; /dev/full is refused before start;
# - what the captions suggest, typed at 80x24, 120x40 and 160x48, with
#   colour and without, in English and Chinese.
. "$(dirname "$0")/lib.sh"
e2e_init test_classroom
e2e_need_tmux
cd "$E2E_DIR/../.." || exit 1   # the tours are found in ./assets

exit_is() { [ "$(exit_line)" = "$1" ]; }
bigger_than() { [ "$(size_of "$1")" -gt "$2" ]; }

# Runs of '?' that a Chinese caption turns into on an ASCII terminal.
no_question_runs() { local s; s=$(capture); [[ $s != *'? ? ?'* && $s != *'???'* ]]; }

zh_on_ascii() {
    # tmux takes UTF-8 whatever LANG says: the probe finds it
    start 80 24 env -u LC_ALL -u LC_CTYPE LANG=C "$PEVIZ" --tour --lang zh
    expect "LANG=C --lang zh on a UTF-8 terminal: says which locale" \
        'LANG=C is ASCII, but the terminal takes UTF-8: the Chinese tour uses'
    expect "LANG=C --lang zh on a UTF-8 terminal: the Chinese tour" \
        '注意力为什么需要位置'
    keys q q
    check "LANG=C --lang zh: q q quits, tty restored" \
        poll_until exit_is "EXIT=0 TTY=restored"
    # --ascii: ASCII only, whatever the locale
    local steps
    steps=$(grep -c '^title' "$E2E_DIR/../../assets/tours/en.tour")
    start_peviz 80 24 --tour --lang zh --ascii
    steps=$(grep -c '^title' assets/tours/en.tour)
    expect "--ascii --lang zh: says why once" \
        'the Chinese tour needs a UTF-8 terminal; --ascii draws ASCII only'
    expect "--ascii --lang zh: the English tour runs" \
        "1/$steps Why attention needs positions"
    check "--ascii --lang zh: no rows of '?'" no_question_runs
    keys Enter
    expect "--ascii --lang zh: Enter goes on in English" "2/$steps The PE matrix"
    check "--ascii --lang zh: the message was said once" \
        poll_until screen_lacks 'the Chinese tour needs'
    keys q
    expect "--ascii --lang zh: q asks once" "q again quits"
    quit_clean "--ascii --lang zh"
    start_peviz 80 24 --tour --lang zh
    expect "C.UTF-8 --lang zh: the Chinese tour runs" '注意力为什么需要位置'
    check "C.UTF-8 --lang zh: no message about ASCII" \
        screen_lacks 'needs a UTF-8 terminal'
    expect "C.UTF-8 --lang zh: the view's hint is Chinese at 80x24" \
        '1 像素 = '
    check "C.UTF-8 --lang zh: its unit in Chinese too" screen_has ' 个位置'
    check "C.UTF-8 --lang zh: no English hint" screen_lacks '1 px = '
    stop
}

# A terminal that does not answer the probe (script(1)'s bare pty): LANG=C
# means ASCII, and the English tour runs with one message why.
zh_no_answer() {
    local out="$TMPD/script.out" fifo="$TMPD/script.in"
    mkfifo "$fifo"
    env -u LC_ALL -u LC_CTYPE LANG=C TERM=xterm \
        script -qfc "$PEVIZ --tour --lang zh" /dev/null <"$fifo" >"$out" 2>&1 &
    local pid=$!
    exec 3>"$fifo"
    check "no answer, LANG=C --lang zh: says why" \
        poll_until grep -qa 'the Chinese tour needs a UTF-8 terminal; LANG=C is ASCII' "$out"
    check "no answer, LANG=C --lang zh: the English tour" \
        grep -qa 'Why attention needs positions' "$out"
    printf 'qq' >&3
    exec 3>&-
    poll_until sh -c "! kill -0 $pid 2>/dev/null"
    wait "$pid"
    check "no answer: q q quits with 0" [ $? -eq 0 ]
}

# The whole tour at 80x24 as a lecture hall may run it: LANG=C, NO_COLOR=1,
# TERM=vt100.  Every step's title shows, no caption turns into '?', the
# term maps' maxima are whole, and the last step says what T does.
hall_tour() {
    local titles n i
    mapfile -t titles < <(sed -n 's/^title  *//p' assets/tours/en.tour)
    n=${#titles[@]}
    start_raw 80 24 env -u LC_ALL -u LC_CTYPE LANG=C NO_COLOR=1 TERM=vt100 \
        "$E2E_DIR/wrap.sh" "$PEVIZ" --tour
    local bad=0
    for ((i = 1; i <= n; i++)); do
        local t=${titles[i - 1]}
        if ! wait_for "$i/$n ${t:0:40}"; then
            bad=1
            fail "LANG=C NO_COLOR vt100: step $i/$n '$t' shown"
            break
        fi
        if ! no_question_runs || screen_has 'max|.'; then
            bad=1
            fail "LANG=C NO_COLOR vt100: step $i reads whole"
        fi
        [ "$i" -lt "$n" ] && keys Enter
    done
    [ "$bad" -eq 0 ] && pass "LANG=C NO_COLOR vt100: all $n steps shown whole"
    expect "LANG=C NO_COLOR vt100: the last step says T comes back" \
        'T comes back to this step'
    keys q q
    # vt100 has no alternate screen: the wrapper's line lands on the last
    # frame's status row, so look for it inside the row
    check "LANG=C NO_COLOR vt100: q q quits, tty restored" \
        wait_for "EXIT=0 TTY=restored"
    stop
}

# cast_ok FILE STEPS STATUS: the header, every event well formed, STEPS
# markers "1/N ..".."N/N .." in order each after the output of its step,
# and the last event the exit status.
cast_ok() {
    python3 - "$@" <<'PY'
import json, sys
path, steps, status = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = open(path, encoding='utf-8').read().splitlines()
bad = []
h = json.loads(lines[0])
if h.get('version') != 3 or h['term'].get('cols') != 80 or h['term'].get('rows') != 24:
    bad.append('header %r' % h)
ev = [json.loads(l) for l in lines[1:] if not l.startswith('#')]
for e in ev:
    if not (isinstance(e, list) and len(e) == 3 and isinstance(e[0], (int, float))
            and e[0] >= 0 and e[1] in ('o', 'm', 'r', 'x') and isinstance(e[2], str)):
        bad.append('event %r' % (e,))
marks = [e[2] for e in ev if e[1] == 'm']
want = ['%d/%d ' % (i, steps) for i in range(1, steps + 1)]
if len(marks) != steps or any(not m.startswith(w) for m, w in zip(marks, want)):
    bad.append('markers %r' % marks)
for i, e in enumerate(ev):
    if e[1] == 'm' and (i == 0 or ev[i - 1][1] not in ('o', 'm')):
        bad.append('marker %r before any frame' % e[2])
if not ev or ev[-1][1] != 'x' or ev[-1][2] != status:
    bad.append('last event %r' % (ev[-1] if ev else None,))
for b in bad:
    print('  ' + b)
sys.exit(1 if bad else 0)
PY
}

record_tour() {
    local cast="$TMPD/tour.cast" steps
    steps=$(grep -c '^title' assets/tours/en.tour)
    start_peviz 80 24 --tour --record "$cast" --autoplay 0.2
    if poll_for 200 screen_has 'EXIT='; then
        check "--record --autoplay: the tour ran to its end, tty restored" \
            [ "$(exit_line)" = "EXIT=0 TTY=restored" ]
    else
        fail "--record --autoplay: did not end within 20 s"
    fi
    check "--record --autoplay: a valid cast, $steps markers in order" \
        cast_ok "$cast" "$steps" 0
    stop
}

record_idle() {
    local cast="$TMPD/idle.cast" a
    start_peviz 80 24 --record "$cast"
    expect "--record: the program runs" 'd_model='
    poll_until bigger_than "$cast" 1000
    check "--record: nothing is written while the screen is at rest" \
        quiet "$cast"
    a=$(size_of "$cast")
    keys D
    expect "--record: D doubles d_model" 'd_model=128'
    check "--record: a change is recorded" \
        poll_until bigger_than "$cast" "$a"
    t resize-window -t t -x 100 -y 30
    check "--record: a new size is a resize event" \
        poll_until grep -q '"r", "100x30"' "$cast"
    kill -TERM "$(child_pid)"
    check "--record: SIGTERM ends it, tty restored" \
        poll_until exit_is "EXIT=143 TTY=restored"
    check "--record: the cast ends with the exit status" \
        sh -c "tail -n 1 '$cast' | grep -q '\"x\", \"143\"'"
    stop
    : >"$TMPD/taken.cast"
    "$PEVIZ" --record "$TMPD/taken.cast" >"$TMPD/out" 2>"$TMPD/err" </dev/null
    a=$?
    check "--record onto an existing file: exit 2, the file untouched" \
        sh -c "[ $a -eq 2 ] && grep -q 'exists' '$TMPD/err' && [ ! -s '$TMPD/taken.cast' ]"
}

# Past the file size limit (ulimit -f, as a full disk would) the status
# line says so while the program runs, and the file keeps the events
# written before, each a whole line of JSON, the header first.
record_full() {
    local cast="$TMPD/full.cast"
    start_raw 80 24 bash -c 'ulimit -f 8 && exec "$0" "$@"' \
        "$E2E_DIR/wrap.sh" "$PEVIZ" --record "$cast"
    expect "--record past ulimit -f: the status line says so at once" \
        '--record stopped: File too large'
    keys D
    expect "--record past ulimit -f: the program goes on" 'd_model=128'
    keys q
    # the recording is not all the session: exit 2, and stderr says why
    check "--record past ulimit -f: q quits with 2, tty restored" \
        poll_until exit_is "EXIT=2 TTY=restored"
    check "--record past ulimit -f: stderr names the file and the error" \
        screen_has "--record: $cast: File too large"
    check "--record past ulimit -f: every line of the file is whole JSON" \
        cast_whole "$cast" 8192
    stop
}

# FILE holds whole events only: the header first, each line whole JSON,
# at most MAX bytes.
cast_whole() {
    python3 -c '
import json, sys
data = open(sys.argv[1], encoding="utf-8").read()
lines = data.split("\n")
assert data.endswith("\n") and lines[-1] == "", "cut mid-line"
assert json.loads(lines[0])["version"] == 3
for l in lines[1:-1]:
    e = json.loads(l)
    assert isinstance(e, list) and len(e) == 3, l[:80]
assert len(data) <= int(sys.argv[2])
' "$1" "$2"
}

# A real full disk: a tmpfs of 8 KB that only this test sees (unshare -rm
# mounts it in a mount namespace of its own).  The file is copied out
# when peviz has exited, since the mount goes with the namespace.
record_enospc() {
    local mnt="$TMPD/small" copy="$TMPD/enospc.cast"
    mkdir -p "$mnt"
    start_raw 80 24 unshare -rm bash -c \
        'mount -t tmpfs -o size=8k tmpfs "$0" && exec "$@"' "$mnt" \
        "$E2E_DIR/wrap.sh" bash -c \
        '"$0" --record "$1/full.cast"; r=$?; cp "$1/full.cast" "$2"; exit $r' \
        "$PEVIZ" "$mnt" "$copy"
    expect "--record on a full disk: the status line says so at once" \
        '--record stopped: No space left on device'
    keys D
    expect "--record on a full disk: the program goes on" 'd_model=128'
    keys q
    check "--record on a full disk: q quits with 2, tty restored" \
        poll_until exit_is "EXIT=2 TTY=restored"
    check "--record on a full disk: stderr names the file and the error" \
        screen_has "--record: $mnt/full.cast: No space left on device"
    check "--record on a full disk: every line of the file is whole JSON" \
        cast_whole "$copy" 8192
    stop
}

# /dev/full is there and is not a file: refused before the terminal
# starts, in one line that names it, exit 2 (a pane wide enough for the
# line whole).
record_device() {
    start_peviz 160 24 --record /dev/full
    check "--record /dev/full: exit 2 at once, tty restored" \
        poll_until exit_is "EXIT=2 TTY=restored"
    check "--record /dev/full: one line naming the file and what it is" \
        only_line 'peviz: --record: /dev/full: a character device; name a new file (a recording is a file of its own)'
    check "--record /dev/full: the screen was never taken" screen_restored
    stop
}
# The pane shows LINE and the EXIT= line, nothing else.
only_line() {
    local s
    s=$(capture)
    [ "$(grep -c . <<<"$s")" = 2 ] && grep -qxF "$1" <<<"$s"
}

# What zh_no_answer checks, for the count when it cannot run.
zh_no_answer_checks() {
    check "no answer, LANG=C --lang zh: says why" true
    check "no answer, LANG=C --lang zh: the English tour" true
    check "no answer: q q quits with 0" true
}

# The step (1-based) of tour file $1 whose lines hold $2.
step_of() { awk -v w="$2" '/^title/ { n++ } index($0, w) { print n; exit }' "$1"; }

# p.p's number over its map: "p·p 256" or "p·p max|mean|=256".
pp_is_256() { screen_has 'p·p 256' || screen_has 'p·p max|mean|=256'; }

# What the tour's captions say, typed in a real terminal at each
# classroom size, with colour and without, in both languages: the
# M-RoPE step's :interleaved on is accepted, and step 8's maps give p.p
# its diagonal value |PE|^2 = d/2 = 256, against which e.e is read.
captions_typed() {
    local lang size col mrope emb
    for lang in en zh; do
        mrope=$(step_of "assets/tours/$lang.tour" 'sequence text:4,image:16x24')
        emb=$(step_of "assets/tours/$lang.tour" 'set    d 512')
        for size in 80x24 120x40 160x48; do
            for col in "" 1; do
                local what="$lang $size${col:+ NO_COLOR}"
                if [ -n "$col" ]; then
                    start "${size%x*}" "${size#*x}" env NO_COLOR=1 "$PEVIZ" --tour --lang $lang
                else
                    start_peviz "${size%x*}" "${size#*x}" --tour --lang $lang
                fi
                keys : "tour $mrope" Enter
                keys : "interleaved on" Enter
                expect "$what: the M-RoPE step's :interleaved on is accepted" \
                    ':interleaved on: '
                check "$what: and not refused" screen_lacks 'do not interleave'
                keys : "tour $emb" Enter
                check "$what: step $emb's p.p map reads 256" poll_until pp_is_256
                keys q
                quit_clean "$what"
            done
        done
    done
}

captions_typed

# A first run at 80x24: the opening screen says how to get help (the
# status line's help word, as a wide screen shows it), the view's hint
# returns with the first key; view 5 without positions names the ':'
# commands that make them, and :grid typed in view 1 opens it.
first_run() {
    local helpw title
    helpw=$("$PEVIZ" --snapshot --size 200x24 | tail -n 1 | sed 's/.*   *//')
    title=$("$PEVIZ" --snapshot --size 200x24 --view grid --grid 4x4 |
            tail -n 1 | sed 's/  .*//')
    start_peviz 80 24
    check "first run: the help word ('$helpw') is on the opening screen" \
        poll_until last_line_has "$helpw"
    keys l
    check "first run: the first key brings the view's hint back" \
        poll_until hint_back "$helpw"
    keys 5
    expect "first run: view 5 names :grid" ':grid 16x16'
    expect "first run: view 5 names :sequence" ':sequence text:4,image:16x24,text:3'
    keys 1 : 'grid 16x16' Enter
    check "first run: :grid in view 1 opens '$title'" \
        poll_until last_line_has "$title  "
    stop
}
last_line_has() { [[ $(capture | tail -n 1) == *"$1"* ]]; }
# the position moved on and a hint follows it where the help word was
hint_back() { local l; l=$(capture | tail -n 1); [[ $l == *'pos=1  '?* && $l != *"$1"* ]]; }

first_run
zh_on_ascii
if command -v script >/dev/null 2>&1; then
    zh_no_answer
else
    e2e_skip "a terminal that does not answer needs script(1)" bsdutils \
        zh_no_answer_checks
fi
hall_tour
record_tour
record_idle
record_full
record_device
if unshare -rm true 2>/dev/null; then
    record_enospc
else
    e2e_skip "a full disk needs unshare -rm (a user namespace) for its tmpfs" \
        util-linux record_enospc
fi
e2e_done
