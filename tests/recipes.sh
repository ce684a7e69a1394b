#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The recipes for extending the tables (each in the header comment of
# the table it extends), all tried in one copy of the sources: a view
# with settings of its own and one without (src/view.h, above
# VIEW_LIST), a view's setting and a global one (src/settings.h), a
# scheme (src/lib/schemes.c), a RoPE scaling method (src/lib/rope.c) and
# a compare pane mode (src/views/compare_modes.c).  The copy gets the
# new files and the lines each recipe names, nothing else; it builds
# once with -Werror, and then each addition is checked through the
# program it built:
#   - the views: --help names them in the list's order and numbers them
#     from 1 to their count, --view demo --snapshot draws demo with the
#     settings its reset hook chose, plain draws, the view after them
#     keeps working;
#   - the settings: with the range and default of their rows, in --help,
#     on the command line (the ends taken, one past them refused with
#     one line), in --print-settings, in the ':' row of --help (the
#     attention view's; every view's for the global one), at the ':'
#     prompt (typed in tmux, and in a tour's set lines, which --tour
#     --check runs; the global one from two views), on the follow-mode
#     wire (a teacher's body, applied by a follower, which refuses one
#     past the range);
#   - the scheme (S = -|i-j|/4, a BIASES row): in --help's --scheme
#     list, its --export scores equal the formula computed here, and
#     tests/lib/test_scores.c, whose direct_at names it, compiles;
#   - the method (every omega halved, an omega hook): taken by
#     --rope-scaling, in --help's list, its --export freqs equal the
#     formula computed here;
#   - the pane mode (its panes filled with one glyph, a readout):
#     --pane-mode takes it, --snapshot draws it at 80x24, --help names
#     it;
# and after one `make docs` the documentation checks hold and the man
# page, the README and the shell completions name what was added.
#
# Ends with "recipes: N passed, M failed"; exits non-zero on failure.
set -u
cd "$(dirname "$0")/.."
: "${CC:=cc}" "${LDFLAGS:=}"
# The copy is a build of its own: it takes only the variables given here,
# none of a calling make's (make asan's BIN and OPT among them).
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL

pass=0 fail=0
check() {
    local what=$1; shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $what"; fi
}
done_() { echo "recipes: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }

TMP=$(mktemp -d /tmp/peviz-recipes.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$TMP"' EXIT
cp -rp Makefile VERSION src include assets README.md "$TMP/"
mkdir -p "$TMP/tests" && cp -rp tests/docs.sh tests/lib tests/unit tests/multi.c \
    tests/multi_main.h "$TMP/tests/"
# The objects already built are reused with their dependency files (the
# copy builds in build/, so a BUILD of another name is renamed in them):
# make rebuilds those that include a changed header, and the new files;
# the modules that see none of the tables stay as they are.
B=${BUILD:-build}
if [ -f "$B/libpeviz.a" ]; then
    mkdir -p "$TMP/build"
    cp -rp "$B/src" "$B/libpeviz.a" "$TMP/build/"
    [ -d "$B/tests/lib" ] && mkdir -p "$TMP/build/tests" && cp -rp "$B/tests/lib" "$TMP/build/tests/"
    if [ "$B" != build ]; then
        find "$TMP/build" -name '*.d' -exec sed -i "s|$B/|build/|g" {} +
    fi
fi

# The lines a recipe changes in FILE: diff's lines of both sides.
lines() { diff "$1" "$TMP/$1" | grep -c '^[<>]'; }
# after FILE PATTERN LINE: LINE after the first line matching PATTERN.
after() {
    awk -v pat="$2" -v line="$3" '{ print } !done && $0 ~ pat { print line; done = 1 }' \
        "$1" >"$TMP/$1"
}
# edit FILE OLD NEW: the first line equal to OLD becomes NEW.
edit() {
    awk -v old="$2" -v new="$3" '!done && $0 == old { print new; done = 1; next } { print }' \
        "$1" >"$TMP/$1"
}

# ==== a view (src/view.h) ====================================================

cat >"$TMP/src/views/demo_state.h" <<'EOF'
#ifndef PEVIZ_VIEWS_DEMO_STATE_H
#define PEVIZ_VIEWS_DEMO_STATE_H
struct demo_state {
    int level;
    int shown;
};
#endif
EOF
cat >"$TMP/src/views/demo.c" <<'EOF'
#include "app.h"
#include "state_field.h"

static void demo_reset(struct app *a)
{
    a->demo.level = 7;
    a->demo.shown = 1;
}

static void demo_draw(const struct app *a, void *rt, canvas *c, char *hint,
                      size_t hintlen)
{
    (void)rt, (void)hint, (void)hintlen;
    canvas_printf(c, 0, 0, c->w, RGB_DEFAULT, RGB_DEFAULT, 0,
                  "demo level=%d d=%d", a->demo.level, a->p.d);
}

static const struct state_field DEMO_FIELDS[] = {
    SF_ROW_INT("demo.level", demo.level, 0, 9),
    { 0 }
};

const struct view VIEW_DEMO_DEF = {
    .name = "demo",
    .title = "demo view",
    .reset = demo_reset,
    .draw = demo_draw,
    .fields = DEMO_FIELDS,
};
EOF

cat >"$TMP/src/views/plain.c" <<'EOF'
#include "app.h"

static void plain_draw(const struct app *a, void *rt, canvas *c, char *hint,
                       size_t hintlen)
{
    (void)rt, (void)hint, (void)hintlen;
    canvas_printf(c, 0, 0, c->w, RGB_DEFAULT, RGB_DEFAULT, 0,
                  "plain n=%lld", (long long)a->p.n);
}

const struct view VIEW_PLAIN_DEF = {
    .name = "plain",
    .title = "plain view",
    .draw = plain_draw,
};
EOF

for line in 'DEMO, demo, struct demo_state, demo' \
            'PLAIN, plain, struct view_none, plain'; do
    sed -i "s/^\\( *\\)VIEW(GRID, /\\1VIEW($line) \\\\\\n&/" "$TMP/src/view.h"
done
diff src/view.h "$TMP/src/view.h" >"$TMP/list.diff"
check "the list gets one line per view ($(tr '\n' ' ' <"$TMP/list.diff"))" \
    test "$(grep -c '^>' "$TMP/list.diff") $(grep -c '^<' "$TMP/list.diff")" = "2 0"

# ==== a setting (src/settings.h) ===============================================

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
for f in src/views/attention_settings.c src/views/attention_state.h src/app_settings.c src/app.h; do
    check "one line more in $f ($(lines $f))" test "$(lines $f)" = 1
done

# ==== a scheme (src/lib/schemes.c) ==============================================

# S = -|i-j|/4, a bias of i - j alone: its struct dist_ops row in a file
# of its own, declared in schemes_impl.h, its BIASES row, its SCHEMES row
# and its enum value, the direct_at case of the test.
SCH=quarter
cat >"$TMP/src/lib/quarter.c" <<'EOC'
/* SPDX-License-Identifier: ISC */
/* quarter.c - a bias of a quarter per step of distance, -|i - j|/4. */
#include "peviz/scores.h"
#include "schemes_impl.h"

static double quarter_at(const struct score_ctx *s, int64_t delta)
{
    (void)s;
    return -0.25 * (double)(delta < 0 ? -delta : delta);
}

const struct dist_ops DIST_QUARTER = { .at = quarter_at };
EOC
after src/lib/schemes_impl.h '^void xpos_setup' \
    'extern const struct dist_ops DIST_QUARTER;  /* quarter.c */'
after src/lib/schemes.c '^    \[SCHEME_SANDWICH\] = \{ sandwich_setup' \
    '    [SCHEME_QUARTER] = { NULL, &DIST_QUARTER },'
cp "$TMP/src/lib/schemes.c" "$TMP/schemes.c"
# the row at the end: before the table's closing line
awk -v row='    [SCHEME_QUARTER] = { "quarter", "-|i-j|/4", "-|i-j|/4", EE "-|i-j|/4", "e_i.e_j - |i-j|/4", 1, 0, build_bias, SCHEME_HAS_NOTHING, 0 },' '
    index($0, "const struct scheme_info SCHEMES[] = {") == 1 { in_t = 1 }
    in_t && /^};$/ { print row; in_t = 0 }
    { print }' "$TMP/schemes.c" >"$TMP/src/lib/schemes.c"
rm -f "$TMP/schemes.c"
edit include/peviz/scores.h \
    '              SCHEME_KERPLE_POWER, SCHEME_SANDWICH, SCHEME_XPOS };' \
    '              SCHEME_KERPLE_POWER, SCHEME_SANDWICH, SCHEME_XPOS, SCHEME_QUARTER };'
after tests/lib/test_scores.c '^    case SCHEME_XPOS: return ref_xpos' \
    '    case SCHEME_QUARTER: return -0.25 * fabs(delta);'
check "two lines more in src/lib/schemes.c ($(lines src/lib/schemes.c))" \
    test "$(lines src/lib/schemes.c)" = 2
for f in src/lib/schemes_impl.h tests/lib/test_scores.c; do
    check "one line more in $f ($(lines $f))" test "$(lines $f)" = 1
done
check "one line changed in include/peviz/scores.h ($(lines include/peviz/scores.h))" \
    test "$(lines include/peviz/scores.h)" = 2

# ==== a RoPE scaling method (src/lib/rope.c) ====================================

# Every omega halved: an omega hook in a file of its own, declared in
# rope_impl.h, and the row at the end of ROPE_METHODS.
METH=halve
cat >"$TMP/src/lib/halve.c" <<'EOC'
/* SPDX-License-Identifier: ISC */
/* halve.c - RoPE scaling that halves every band's frequency. */
#include "rope_impl.h"

double halve_omega(const struct rope_bands *c, int i, double theta, int *rule)
{
    (void)c, (void)i;
    *rule = ROPE_RESCALED;
    return theta / 2;
}
EOC
after src/lib/rope_impl.h '^               double \*omega, unsigned char \*rule\);' \
    'double halve_omega(const struct rope_bands *c, int i, double theta, int *rule);  /* halve.c */'
awk -v row='    { .name = "halve", .title = "every band halved", .formula = "\xcf\x89\xe1\xb5\xa2 = \xce\xb8\xe1\xb5\xa2 / 2", .formula_ascii = "w_i = theta_i / 2", .omega = halve_omega },' '
    index($0, "const struct rope_method_info ROPE_METHODS[] = {") == 1 { in_t = 1 }
    in_t && /^};$/ { print row; in_t = 0 }
    { print }' src/lib/rope.c >"$TMP/src/lib/rope.c"
for f in src/lib/rope.c src/lib/rope_impl.h; do
    check "one line more in $f ($(lines $f))" test "$(lines $f)" = 1
done

# ==== a compare pane mode (src/views/compare_modes.c) ============================

# Its panes filled with one glyph, a readout naming the mode.
MODE=dots
cat >"$TMP/src/views/compare_dots.c" <<'EOC'
/* SPDX-License-Identifier: ISC */
/* compare_dots.c - a compare pane mode that fills every pane with dots. */
#include "compare_view.h"

static void dots_layout(const struct app *a, struct cmp_frame *f)
{
    (void)a;
    cmp_geom_make(f, 0);
}

static int dots_draw(const struct app *a, canvas *c, const struct cmp_frame *f,
                     const struct cmp_values *v, char *hint, size_t hintlen)
{
    (void)a, (void)v, (void)hint, (void)hintlen;
    for (int k = 0; k < f->g.np; k++)
        canvas_fill(c, f->g.px[k], f->g.body_y, f->g.pw, f->g.body_h, '*',
                    RGB_DEFAULT, RGB_DEFAULT);
    return 0;
}

static void dots_readout(const struct app *a, canvas *c,
                         const struct cmp_frame *f)
{
    canvas_printf(c, 0, f->g.read_y, c->w, RGB_DEFAULT, RGB_DEFAULT, 0,
                  "dots: %d panes, d=%d", f->np, a->p.d);
}

const struct cmp_mode CMP_DOTS = {
    .name = "dots", .layout = dots_layout, .draw = dots_draw,
    .readout = dots_readout,
};
EOC
edit src/views/compare_view.h '                             CMP_MATRIX;' \
    '                             CMP_MATRIX, CMP_DOTS;'
edit src/views/compare_state.h '                 PANE_RATIO, PANE_DRIFT, PANE_MATRIX,' \
    '                 PANE_RATIO, PANE_DRIFT, PANE_MATRIX, PANE_DOTS,'
edit src/views/compare_modes.c '    [PANE_MATRIX] = &CMP_MATRIX' \
    '    [PANE_MATRIX] = &CMP_MATRIX, [PANE_DOTS] = &CMP_DOTS'
for f in src/views/compare_view.h src/views/compare_state.h src/views/compare_modes.c; do
    check "one line changed in $f ($(lines $f))" test "$(lines $f)" = 2
done

# ==== nothing else changes ========================================================

others() {
    { diff -rq src "$TMP/src"; diff -rq include "$TMP/include"; } | grep -v \
        -e '^Files src/view\.h and .* differ$' \
        -e "^Only in $TMP/src/views: demo\\(_state\\.h\\|\\.c\\)\$" \
        -e "^Only in $TMP/src/views: plain\\.c\$" \
        -e '^Files src/views/attention_settings\.c and .* differ$' \
        -e '^Files src/views/attention_state\.h and .* differ$' \
        -e '^Files src/app_settings\.c and .* differ$' \
        -e '^Files src/app\.h and .* differ$' \
        -e "^Only in $TMP/src/lib: quarter\\.c\$" \
        -e '^Files src/lib/schemes\(_impl\.h\|\.c\) and .* differ$' \
        -e '^Files include/peviz/scores\.h and .* differ$' \
        -e "^Only in $TMP/src/lib: halve\\.c\$" \
        -e '^Files src/lib/rope\(_impl\.h\|\.c\) and .* differ$' \
        -e "^Only in $TMP/src/views: compare_dots\\.c\$" \
        -e '^Files src/views/compare\(_view\.h\|_state\.h\|_modes\.c\) and .* differ$'
}
check "and nothing else changes ($(others | head -c 200))" test -z "$(others)"

# ==== it builds, once ===============================================================

# LDFLAGS as the build under test links (a sanitizer build's runtime for
# the objects it reuses; the copy compiles what it rebuilds at -O0).
if ! make -s -C "$TMP" -j"$(nproc 2>/dev/null || echo 2)" CC="$CC" OPT=-O0 \
        LDFLAGS="$LDFLAGS" BUILD=build BIN=peviz >"$TMP/build.log" 2>&1; then
    check "the copy with every recipe applied builds: $(grep -m3 error "$TMP/build.log")" false
    done_
fi
P=$TMP/peviz
check "tests/lib/test_scores.c compiles with the scheme in direct_at" \
    sh -c "make -s -C '$TMP' CC='$CC' OPT=-O0 BUILD=build build/tests/lib/test_scores.o \
           >'$TMP/test_scores.log' 2>&1"

# ==== the views ======================================================================

"$P" --help >"$TMP/help" 2>&1
# The views as the copy's list has them: the names of its VIEW lines.
names=$(sed -n 's/^ *VIEW([A-Z0-9_]*, *\([a-z0-9_]*\),.*/\1/p' "$TMP/src/view.h")
count=$(printf '%s\n' "$names" | wc -l)
commas=$(printf '%s\n' "$names" | paste -sd, | sed 's/,/, /g')
want_view=$(printf '%s' "$commas" | sed 's/\(.*\), /\1 or /')
check "--help: --view names the list's views, demo and plain in their places ($want_view)" \
    grep -qE -- "^ +--view NAME +.*: $want_view \(default [a-z]+\)\$" "$TMP/help"
check "--help: the views' keys are 1..$count ($commas)" \
    grep -qE "^  1\.\.$count +$commas\$" "$TMP/help"
"$P" --snapshot --view demo --size 80x6 -d 32 >"$TMP/demo" 2>&1
check "--view demo --snapshot: its settings as reset chose them" \
    grep -q '^demo level=7 d=32' "$TMP/demo"
check "--view demo --snapshot: its title in the status line" \
    grep -q 'demo view' "$TMP/demo"
: "${PEVIZ:=./peviz}"
same_grid() {
    cmp -s <("$P" --snapshot --view grid --size 80x24 2>&1) \
        <("$PEVIZ" --snapshot --view grid --size 80x24 2>&1)
}
"$P" --snapshot --view plain --size 80x6 -n 99 >"$TMP/plain" 2>&1
check "--view plain --snapshot: a view without settings draws" \
    grep -q '^plain n=99' "$TMP/plain"
check "the view after them draws as before (grid, 80x24)" same_grid

# ==== the settings ==================================================================

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
    SOCK=$(mktemp -u /tmp/peviz-recipes-tmux.XXXXXX)
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
    echo "SKIP recipes: tmux is not installed, the prompt in a terminal is unchecked (Debian: apt-get install tmux)"
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
if "$CC" $LDFLAGS -std=c11 -D_XOPEN_SOURCE_EXTENDED -D_POSIX_C_SOURCE=200809L -I"$TMP/src" -I"$TMP/include" -I"$TMP/build/gen" \
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


# ==== the scheme =====================================================================

check "--help: --scheme lists $SCH" \
    grep -qE -- "^ +--scheme NAME +.*[ ,]$SCH( or |, | \\(default)" "$TMP/help"
check "--help: --scheme-a lists $SCH" \
    grep -qE -- "^ +--scheme-a NAME +.*[ ,]$SCH( or |, | \\(default)" "$TMP/help"
# within TOL of -|i-j|/4 at every cell (and n x n cells)
near_quarter() {   # file n
    awk -F, -v n="$2" '{ for (j = 1; j <= NF; j++) { d = NR - j; if (d < 0) d = -d
                         w = -d / 4; e = $j - w; if (e < 0) e = -e
                         if (e > 1e-9) bad++; cells++ } }
                       END { exit !(NR == n && cells == n * n && !bad) }' "$1"
}
"$P" --export scores --scheme $SCH -n 40 -d 8 >"$TMP/scores" 2>&1
check "--export scores --scheme $SCH: -|i-j|/4 at every cell (n 40)" near_quarter "$TMP/scores" 40
"$P" --export scores --scheme $SCH --rows 100..103 -n 300 -d 8 >"$TMP/rows" 2>&1
check "--export scores --scheme $SCH --rows 100..103: -|i-j|/4 (n 300)" \
    awk -F, '{ i = 99 + NR; for (j = 1; j <= NF; j++) { d = i - (j - 1); if (d < 0) d = -d
               e = $j + d / 4; if (e < 0) e = -e; if (e > 1e-9) bad++ } }
             END { exit !(NR == 4 && NF == 300 && !bad) }' "$TMP/rows"

# ==== the method =====================================================================

check "--help: --rope-scaling lists $METH" \
    grep -qE -- "^ +--rope-scaling METHOD +.*[ ,]$METH( or |, | \\(default)" "$TMP/help"
# omega_i = base^(-2i/d) / 2 at every band, i from 0 to d/2 - 1
freqs_halved() {   # d base
    "$P" --export freqs --rope-scaling $METH -d "$1" -b "$2" 2>&1 |
        awk -F, -v d="$1" -v b="$2" '{ w = exp(-2 * $1 / d * log(b)) / 2; e = $2 - w
            if (e < 0) e = -e; if (e > 1e-9 * (w > 1 ? w : 1) || $1 != NR - 1) bad++ }
            END { exit !(NR == d / 2 && !bad) }'
}
check "--export freqs --rope-scaling $METH: theta_i/2 at every band (d 64, base 10000)" \
    freqs_halved 64 10000
check "--export freqs --rope-scaling $METH: theta_i/2 at every band (d 16, base 500)" \
    freqs_halved 16 500

# ==== the pane mode ==================================================================

check "--help: --pane-mode lists $MODE" \
    grep -qE -- "^ +--pane-mode MODE +.*[ ,]$MODE( or |, | \\(default)" "$TMP/help"
check "--help: the compare view's v key names $MODE, from the table" \
    grep -qE -- "^  v +mode: .*, $MODE\$" "$TMP/help"
check "--help: and c leaves it out, as it draws no scores" \
    grep -qE -- "^  c +active pane: next attention scheme \([a-z, ]+\)\$" "$TMP/help"
check "--help: c's modes are not $MODE" \
    sh -c "! grep -E -- '^  c +active pane: .*$MODE' '$TMP/help'"
"$P" --snapshot --view compare --pane-mode $MODE --size 80x24 >"$TMP/mode" 2>&1
check "--pane-mode $MODE --snapshot (80x24): the panes' bodies are dots" \
    test "$(grep -cE '^\*{39} \*{39}' "$TMP/mode")" -ge 10
check "--pane-mode $MODE --snapshot (80x24): its readout" \
    grep -q '^dots: 2 panes, d=64' "$TMP/mode"
check "--pane-mode $MODE --snapshot (80x24): the panes' headers above them" \
    grep -q 'base' "$TMP/mode"
"$P" --pane-mode nosuch --export pe -n 2 -d 2 >/dev/null 2>"$TMP/err"
check "--pane-mode nosuch is refused with the list, $MODE in it" \
    grep -qE "^peviz: --pane-mode nosuch: .*$MODE" "$TMP/err"

# ==== make docs, once ================================================================

check "make docs, then tests/docs.sh holds with every addition" \
    sh -c "make -s -C '$TMP' CC='$CC' OPT=-O0 LDFLAGS='$LDFLAGS' BUILD=build BIN=peviz docs >'$TMP/docs.log' 2>&1 &&
           cd '$TMP' && PEVIZ='$P' DOCGEN=build/docgen bash tests/docs.sh >>'$TMP/docs.log' 2>&1"
check "the copy's README lists the new views" grep -q '`demo`' "$TMP/README.md"
check "the man page's SETTINGS has it with its range and default" \
    grep -q "^\\\\fBdemo\\\\-level\\\\fR $LO\\.\\.$HI (default $DEF)" "$TMP/assets/peviz.1"
check "the README's settings table has it with its range and default" \
    grep -qF "| \`$NAME\` | $LO..$HI (default $DEF) | demo: a level |" "$TMP/README.md"
check "the bash completion offers --$NAME" grep -q -- "--$NAME" "$TMP/assets/completions/peviz.bash"
check "the man page's SETTINGS has $GNAME with its range and default" \
    grep -q "^\\\\fBdemo\\\\-depth\\\\fR $GLO\\.\\.$GHI (default $GDEF)" "$TMP/assets/peviz.1"
check "the README's settings table has $GNAME, offered everywhere" \
    grep -qF "| \`$GNAME\` | $GLO..$GHI (default $GDEF) | demo: a depth | --$GNAME, :$GNAME, tour set, follow $GWIRE, peviz.conf |" "$TMP/README.md"
check "the README's scheme table has $SCH with its formula" \
    grep -qF "| \`$SCH\` | -\\|i-j\\|/4 | nothing |" "$TMP/README.md"
check "the man page names $SCH" grep -q "\\\\fB$SCH\\\\fR" "$TMP/assets/peviz.1"
check "the README's method table has $METH with its title" \
    grep -qF "| \`$METH\` | every band halved |" "$TMP/README.md"
check "the man page names $METH" grep -q "\\\\fB$METH\\\\fR" "$TMP/assets/peviz.1"
check "the README's pane-mode setting lists $MODE" \
    grep -qE "^\\| \`pane-mode\` \\| .*[ ,]$MODE \\(default" "$TMP/README.md"
check "the man page's pane modes name $MODE" grep -q "\\\\fB$MODE\\\\fR" "$TMP/assets/peviz.1"
done_
