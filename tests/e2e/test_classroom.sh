#!/usr/bin/env bash
# What a classroom sees at 80x24 in a real terminal (tmux), under the
# conditions of a lecture hall: LANG=C, NO_COLOR=1, TERM=vt100.
# - the Chinese tour on an ASCII-only terminal: one message why, and the
#   English tour instead of rows of '?';
# - with a UTF-8 locale the Chinese tour runs.
. "$(dirname "$0")/lib.sh"
e2e_init test_classroom
e2e_need_tmux
cd "$E2E_DIR/../.." || exit 1   # the tours are found in ./assets

# Runs of '?' that a Chinese caption turns into on an ASCII terminal.
no_question_runs() { ! capture | grep -q '? ? ?\|???'; }

zh_on_ascii() {
    start 80 24 env -u LC_ALL -u LC_CTYPE LANG=C "$PEVIZ" --tour --lang zh
    expect "LANG=C --lang zh: says why once" \
        'the Chinese tour needs a UTF-8 terminal; LANG=C is ASCII'
    expect "LANG=C --lang zh: the English tour runs" \
        '1/17 Why attention needs positions'
    check "LANG=C --lang zh: no rows of '?'" no_question_runs
    keys Enter
    expect "LANG=C --lang zh: Enter goes on in English" '2/17 The PE matrix'
    check "LANG=C --lang zh: the message was said once" \
        poll_until screen_lacks 'the Chinese tour needs'
    keys q
    expect "LANG=C --lang zh: q asks once" "q again quits"
    quit_clean "LANG=C --lang zh"
    start_peviz 80 24 --tour --lang zh
    expect "C.UTF-8 --lang zh: the Chinese tour runs" '注意力为什么需要位置'
    check "C.UTF-8 --lang zh: no message about ASCII" \
        screen_lacks 'needs a UTF-8 terminal'
    stop
}

zh_on_ascii
e2e_done
