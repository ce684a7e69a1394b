#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The recipe for a setting (the comment at the top of src/settings.h),
# tried: a copy of the sources gets one member in the attention view's
# state and one row in its settings table, nothing else; the copy builds
# with -Werror, and the setting is then, with the range and default of
# its row, in --help, on the command line (the ends taken, one past them
# refused with one line), in --print-settings, in the attention view's
# ':' row of --help, at the ':' prompt (typed in tmux, and in a tour's set
# lines, which --tour --check runs), on the follow-mode wire (a
# teacher's body, applied by a follower), and after `make docs` in the
# man page, the README's settings table and
# the shell completions, with the documentation checks holding.
#
# Ends with "setting_recipe: N passed, M failed"; exits non-zero on failure.
set -u
cd "$(dirname "$0")/.."
: "${CC:=cc}"

pass=0 fail=0
check() {
    local what=$1; shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $what"; fi
}
done_() { echo "setting_recipe: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }

TMP=$(mktemp -d /tmp/peviz-setting.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$TMP"' EXIT
cp -rp Makefile VERSION src include assets README.md "$TMP/"
mkdir -p "$TMP/tests" && cp -p tests/docs.sh "$TMP/tests/"
B=${BUILD:-build}
if [ -f "$B/libpeviz.a" ]; then
    mkdir -p "$TMP/build"
    cp -rp "$B/src" "$B/libpeviz.a" "$TMP/build/"
    if [ "$B" != build ]; then
        find "$TMP/build/src" -name '*.d' -exec sed -i "s|$B/|build/|g" {} +
    fi
fi

# ---- the member and the row -----------------------------------------------

# A made-up setting; its range and default are the row's alone.
NAME=demo-level LO=3 HI=11 DEF=5 WIRE=att.demo_level
sed -i "s/^\\( *\\)int zoom;/\\1int demo_level;\\n&/" "$TMP/src/views/attention_state.h"
ROW="    { .name = \"$NAME\", .type = SET_INT, .off = SET_OFF(att.demo_level), .lo = $LO, .hi = $HI, .def = \"$DEF\", .arg = \"L\", .help = \"demo: a level\", .where = SET_EVERYWHERE, .wire = \"$WIRE\" },"
awk -v row="$ROW" '
    /^const struct setting ATTENTION_SETTINGS\[\] = \{/ { in_t = 1 }
    in_t && /^    \{ 0 \}$/ { print row; in_t = 0 }
    { print }' src/views/attention_settings.c >"$TMP/src/views/attention_settings.c"
others() {
    diff -rq src "$TMP/src" | grep -v \
        -e '^Files src/views/attention_settings\.c and .* differ$' \
        -e '^Files src/views/attention_state\.h and .* differ$'
}
check "one row in the table ($(diff src/views/attention_settings.c "$TMP/src/views/attention_settings.c" | grep -c '^>') line)" \
    test "$(diff src/views/attention_settings.c "$TMP/src/views/attention_settings.c" | grep -c '^[<>]')" = 1
check "and nothing else changes ($(others | head -c 200))" test -z "$(others)"

# ---- it builds ------------------------------------------------------------

if ! make -s -C "$TMP" -j2 CC="$CC" OPT=-O0 BUILD=build BIN=peviz \
        >"$TMP/build.log" 2>&1; then
    check "the copy with the new setting builds: $(grep -m3 error "$TMP/build.log")" false
    done_
fi
P=$TMP/peviz

# ---- --help and the command line --------------------------------------------

"$P" --help >"$TMP/help" 2>&1
check "--help: --$NAME with its range and default" \
    grep -qE -- "^ +--$NAME L +demo: a level, $LO\.\.$HI \(default $DEF\)\$" "$TMP/help"
check "--help: the attention view's ':' row offers :$NAME L" \
    grep -qE -- "^  : .*  :$NAME L( |\$)" "$TMP/help"
refused() {   # exit 2, one line on stderr naming the option, nothing on stdout
    "$P" "$@" --export pe -n 2 -d 2 >"$TMP/out" 2>"$TMP/err"
    [ $? -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ] &&
        grep -q -- "^peviz: --$NAME" "$TMP/err"
}
taken() { "$P" "$@" --print-settings 2>&1 | grep -qE "^$NAME +$2 +command line\$"; }
check "--$NAME $LO is taken" taken --$NAME $LO
check "--$NAME $HI is taken" taken --$NAME $HI
check "--$NAME $((LO - 1)) is refused with one line" refused --$NAME $((LO - 1))
check "--$NAME $((HI + 1)) is refused with one line" refused --$NAME $((HI + 1))
check "--print-settings: $NAME starts at its default" \
    sh -c "'$P' --no-user-settings --print-settings | grep -qE '^$NAME +$DEF +default\$'"

# ---- the prompt (a tour's set lines run prompt commands) ---------------------

tour() {
    printf 'title demo\nset view attention\nset %s %s\ntext x\n' "$NAME" "$1" >"$TMP/t.tour"
    "$P" --tour="$TMP/t.tour" --check >"$TMP/tour.out" 2>&1
}
check ":$NAME $HI at the prompt is taken" tour $HI
tour $((HI + 1))
check ":$NAME $((HI + 1)) at the prompt is refused with the row's range" \
    grep -q ":$NAME $((HI + 1)): wants a whole number $LO..$HI" "$TMP/tour.out"

# ---- the prompt in a terminal (tmux, a private server) ---------------------------

if command -v tmux >/dev/null 2>&1; then
    SOCK=$(mktemp -u /tmp/peviz-setting-tmux.XXXXXX)
    T="tmux -S $SOCK -f tests/e2e/tmux.conf"
    screen_has() {   # bounded wait (10 s) for an extended regex on the screen
        local i=0
        until $T capture-pane -p -t t 2>/dev/null | grep -qE -- "$1"; do
            i=$((i + 1)); [ $i -ge 100 ] && return 1; sleep 0.1
        done
    }
    prompt() { $T send-keys -t t :; $T send-keys -t t -l "$1"; $T send-keys -t t Enter; }
    env -u TMUX $T new-session -d -s t -x 100 -y 30 \
        "env LC_ALL=C.UTF-8 TERM=tmux-256color HOME=$TMP XDG_CONFIG_HOME=$TMP '$P' --view attention"
    if screen_has 'd_model='; then
        prompt "$NAME $HI"
        check "typed at the ':' prompt, $NAME $HI is taken" screen_has "(^|[^:])$NAME $HI( |\$)"
        prompt "$NAME $((HI + 1))"
        check "typed at the ':' prompt, $NAME $((HI + 1)) is refused with the row's range" \
            screen_has ":$NAME $((HI + 1)): wants a whole number $LO\.\.$HI"
    else
        check "the copy starts in tmux" false
    fi
    $T kill-server 2>/dev/null; rm -f "$SOCK"
else
    echo "SKIP setting_recipe: tmux is not installed, the prompt in a terminal is unchecked (Debian: apt-get install tmux)"
fi

# ---- follow mode: the teacher's body carries it, a follower takes it ---------

cat >"$TMP/wire.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include "app.h"
#include "follow_proto.h"
int main(void)
{
    static struct app t, s;
    static char body[1 << 16];
    char err[256];
    app_init(&t);
    app_init(&s);
    t.att.demo_level = 9;
    fp_body(&t, body, sizeof body);
    fputs(body, stdout);
    if (fp_apply(&s, body, strlen(body), err, sizeof err))
        printf("refused: %s\n", err);
    printf("follower %d\n", s.att.demo_level);
    return 0;
}
EOF
LIBS=$(pkg-config --libs ncursesw libpng zlib 2>/dev/null)
if "$CC" -std=c11 -D_XOPEN_SOURCE_EXTENDED -D_POSIX_C_SOURCE=200809L -I"$TMP/src" -I"$TMP/include" -I"$TMP/build/gen" \
        $(pkg-config --cflags ncursesw 2>/dev/null) \
        -o "$TMP/wire" "$TMP/wire.c" "$TMP/build/libpevizapp.a" "$TMP/build/libpeviz.a" \
        $LIBS -lm -pthread 2>"$TMP/wire.log"; then
    "$TMP/wire" >"$TMP/wire.out" 2>&1
    check "follow: the teacher's body has the row ($WIRE 9)" grep -qx "$WIRE 9" "$TMP/wire.out"
    check "follow: the follower takes it" grep -qx "follower 9" "$TMP/wire.out"
else
    check "the follow-mode probe builds: $(head -c 300 "$TMP/wire.log")" false
fi

# ---- make docs -----------------------------------------------------------------

check "make docs, then tests/docs.sh holds with the new setting" \
    sh -c "make -s -C '$TMP' CC='$CC' OPT=-O0 BUILD=build docs >'$TMP/docs.log' 2>&1 &&
           cd '$TMP' && PEVIZ='$P' DOCGEN=build/docgen bash tests/docs.sh >>'$TMP/docs.log' 2>&1"
check "the man page's SETTINGS has it with its range and default" \
    grep -q "^\\\\fBdemo\\\\-level\\\\fR $LO\\.\\.$HI (default $DEF)" "$TMP/assets/peviz.1"
check "the README's settings table has it with its range and default" \
    grep -qF "| \`$NAME\` | $LO..$HI (default $DEF) | demo: a level |" "$TMP/README.md"
check "the bash completion offers --$NAME" grep -q -- "--$NAME" "$TMP/assets/completions/peviz.bash"
done_
