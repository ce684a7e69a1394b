#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The recipe for a setting (the comment at the top of src/settings.h),
# tried: a copy of the sources gets one member in the attention view's
# state and one row in its settings table, and one member in struct app
# and one row in the global table, nothing else; the copy builds with
# -Werror, and each setting is then, with the range and default of its
# row, in --help, on the command line (the ends taken, one past them
# refused with one line), in --print-settings, in the ':' row of --help
# (the attention view's; every view's for the global one), at the ':'
# prompt (typed in tmux, and in a tour's set lines, which --tour --check
# runs; the global one from two views), on the follow-mode wire (a
# teacher's body, applied by a follower, which refuses one past the
# range), and after `make docs` in the man page, the README's settings
# table and the shell completions, with the documentation checks
# holding.
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

# ---- the members and the rows -----------------------------------------------

# Two made-up settings, a view's and a global one; their ranges and
# defaults are their rows' alone.
NAME=demo-level LO=3 HI=11 DEF=5 WIRE=att.demo_level
GNAME=demo-depth GLO=2 GHI=9 GDEF=4 GWIRE=demo.depth
sed -i "s/^\\( *\\)int zoom;/\\1int demo_level;\\n&/" "$TMP/src/views/attention_state.h"
sed -i "s/^\\( *\\)int fps;/\\1int demo_depth;\\n&/" "$TMP/src/app.h"
ROW="    { .name = \"$NAME\", .type = SET_INT, .off = SET_OFF(att.demo_level), .lo = $LO, .hi = $HI, .def = \"$DEF\", .arg = \"L\", .help = \"demo: a level\", .where = SET_EVERYWHERE, .wire = \"$WIRE\" },"
GROW="    { .name = \"$GNAME\", .type = SET_INT, .off = SET_OFF(demo_depth), .lo = $GLO, .hi = $GHI, .def = \"$GDEF\", .arg = \"D\", .help = \"demo: a depth\", .where = SET_EVERYWHERE, .wire = \"$GWIRE\" },"
add_row() {   # file, table, row: the row before the table's end
    awk -v row="$3" -v t="$2" '
        index($0, "const struct setting " t "[] = {") == 1 { in_t = 1 }
        in_t && /^    \{ 0 \}$/ { print row; in_t = 0 }
        { print }' "src/$1" >"$TMP/src/$1"
}
add_row views/attention_settings.c ATTENTION_SETTINGS "$ROW"
add_row app_settings.c APP_SETTINGS "$GROW"
others() {
    diff -rq src "$TMP/src" | grep -v \
        -e '^Files src/views/attention_settings\.c and .* differ$' \
        -e '^Files src/views/attention_state\.h and .* differ$' \
        -e '^Files src/app_settings\.c and .* differ$' \
        -e '^Files src/app\.h and .* differ$'
}
lines() { diff "src/$1" "$TMP/src/$1" | grep -c '^[<>]'; }
for f in views/attention_settings.c views/attention_state.h app_settings.c app.h; do
    check "one line more in src/$f ($(lines $f))" test "$(lines $f)" = 1
done
check "and nothing else changes ($(others | head -c 200))" test -z "$(others)"

# ---- it builds ------------------------------------------------------------

if ! make -s -C "$TMP" -j2 CC="$CC" OPT=-O0 BUILD=build BIN=peviz \
        >"$TMP/build.log" 2>&1; then
    check "the copy with the new settings builds: $(grep -m3 error "$TMP/build.log")" false
    done_
fi
P=$TMP/peviz

# ---- --help and the command line --------------------------------------------

"$P" --help >"$TMP/help" 2>&1
check "--help: --$NAME with its range and default" \
    grep -qE -- "^ +--$NAME L +demo: a level, $LO\.\.$HI \(default $DEF\)\$" "$TMP/help"
check "--help: --$GNAME with its range and default" \
    grep -qE -- "^ +--$GNAME D +demo: a depth, $GLO\.\.$GHI \(default $GDEF\)\$" "$TMP/help"
check "--help: the attention view's ':' row offers :$NAME L" \
    grep -qE -- "^  : .*  :$NAME L( |\$)" "$TMP/help"
check "--help: the ':' row of every view offers :$GNAME D" \
    grep -qE -- "^  : .*:$GNAME D( |;|\$)" "$TMP/help"
refused() {   # option value: exit 2, one line on stderr naming it, nothing on stdout
    "$P" --$1 "$2" --export pe -n 2 -d 2 >"$TMP/out" 2>"$TMP/err"
    [ $? -eq 2 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && [ ! -s "$TMP/out" ] &&
        grep -q -- "^peviz: --$1 $2: wants a whole number" "$TMP/err"
}
taken() { "$P" --$1 $2 --print-settings 2>&1 | grep -qE "^$1 +$2 +command line\$"; }
ends() {   # name lo hi def
    check "--$1 $2 is taken" taken $1 $2
    check "--$1 $3 is taken" taken $1 $3
    check "--$1 $(($2 - 1)) is refused with one line" refused $1 $(($2 - 1))
    check "--$1 $(($3 + 1)) is refused with one line" refused $1 $(($3 + 1))
    check "--print-settings: $1 starts at its default" \
        sh -c "'$P' --no-user-settings --print-settings | grep -qE '^$1 +$4 +default\$'"
}
ends $NAME $LO $HI $DEF
ends $GNAME $GLO $GHI $GDEF

# ---- the prompt (a tour's set lines run prompt commands) ---------------------

tour() {   # view name value
    printf 'title demo\nset view %s\nset %s %s\ntext x\n' "$1" "$2" "$3" >"$TMP/t.tour"
    "$P" --tour="$TMP/t.tour" --check >"$TMP/tour.out" 2>&1
}
tour_ends() {   # view name lo hi
    check "set $2 $4 in a tour ($1 view) is taken" tour $1 $2 $4
    tour $1 $2 $(($4 + 1))
    check "set $2 $(($4 + 1)) in a tour ($1 view) is refused with the row's range" \
        grep -q ":$2 $(($4 + 1)): wants a whole number $3..$4" "$TMP/tour.out"
}
tour_ends attention $NAME $LO $HI
tour_ends heatmap $GNAME $GLO $GHI
tour_ends attention $GNAME $GLO $GHI

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
    typed() {   # name lo hi: the top end taken, one past it refused
        prompt "$1 $3"
        check "typed at the ':' prompt, $1 $3 is taken" screen_has "(^|[^:])$1 $3( |\$)"
        prompt "$1 $(($3 + 1))"
        check "typed at the ':' prompt, $1 $(($3 + 1)) is refused with the row's range" \
            screen_has ":$1 $(($3 + 1)): wants a whole number $2\.\.$3"
    }
    env -u TMUX $T new-session -d -s t -x 100 -y 30 \
        "env LC_ALL=C.UTF-8 TERM=tmux-256color HOME=$TMP XDG_CONFIG_HOME=$TMP '$P' --view attention"
    if screen_has 'd_model='; then
        typed $NAME $LO $HI
        typed $GNAME $GLO $GHI
    else
        check "the copy starts in tmux" false
    fi
    $T kill-server 2>/dev/null; rm -f "$SOCK"
else
    echo "SKIP setting_recipe: tmux is not installed, the prompt in a terminal is unchecked (Debian: apt-get install tmux)"
fi

# ---- follow mode: the teacher's body carries them, a follower takes them -------

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
    t.demo_depth = 7;
    fp_body(&t, body, sizeof body);
    fputs(body, stdout);
    if (fp_apply(&s, body, strlen(body), err, sizeof err))
        printf("refused: %s\n", err);
    printf("follower %d %d\n", s.att.demo_level, s.demo_depth);
    if (fp_apply(&s, "demo.depth 10\n", 14, err, sizeof err))
        printf("refused: %s\n", err);
    return 0;
}
EOF
LIBS=$(pkg-config --libs ncursesw libpng zlib 2>/dev/null)
if "$CC" -std=c11 -D_XOPEN_SOURCE_EXTENDED -D_POSIX_C_SOURCE=200809L -I"$TMP/src" -I"$TMP/include" -I"$TMP/build/gen" \
        $(pkg-config --cflags ncursesw 2>/dev/null) \
        -o "$TMP/wire" "$TMP/wire.c" "$TMP/build/libpevizapp.a" "$TMP/build/libpeviz.a" \
        $LIBS -lm -pthread 2>"$TMP/wire.log"; then
    "$TMP/wire" >"$TMP/wire.out" 2>&1
    check "follow: the teacher's body has the view's row ($WIRE 9)" grep -qx "$WIRE 9" "$TMP/wire.out"
    check "follow: the teacher's body has the global row ($GWIRE 7)" grep -qx "$GWIRE 7" "$TMP/wire.out"
    check "follow: the follower takes both" grep -qx "follower 9 7" "$TMP/wire.out"
    check "follow: a follower refuses $GWIRE $((GHI + 1)) with the row's range" \
        grep -qx "refused: line 1: $GWIRE: wants a whole number $GLO..$GHI" "$TMP/wire.out"
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
check "the man page's SETTINGS has $GNAME with its range and default" \
    grep -q "^\\\\fBdemo\\\\-depth\\\\fR $GLO\\.\\.$GHI (default $GDEF)" "$TMP/assets/peviz.1"
check "the README's settings table has $GNAME, offered everywhere" \
    grep -qF "| \`$GNAME\` | $GLO..$GHI (default $GDEF) | demo: a depth | --$GNAME, :$GNAME, tour set, follow $GWIRE, peviz.conf |" "$TMP/README.md"
check "the bash completion offers --$GNAME" grep -q -- "--$GNAME" "$TMP/assets/completions/peviz.bash"
done_
