#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The recipe for a view (the comment above VIEW_LIST in src/view.h),
# tried: a copy of the sources gets a view with settings of its own
# (src/views/demo_state.h and demo.c, written here) and a view without
# (src/views/plain.c), one line each in VIEW_LIST, nothing else; the copy
# builds with -Werror, --help names the views in the list's order and
# numbers them from 1 to their count, --view demo --snapshot draws demo
# with the settings its reset hook chose, plain draws, the view after
# them keeps working, and after `make docs` the documentation checks
# hold.
#
# Ends with "view_recipe: N passed, M failed"; exits non-zero on failure.
set -u
cd "$(dirname "$0")/.."
: "${CC:=cc}"

pass=0 fail=0
check() {
    local what=$1; shift
    if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $what"; fi
}
done_() { echo "view_recipe: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }

TMP=$(mktemp -d /tmp/peviz-view.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$TMP"' EXIT
cp -rp Makefile VERSION src include assets README.md "$TMP/"
mkdir -p "$TMP/tests" && cp -p tests/docs.sh "$TMP/tests/"
# The objects already built are reused with their dependency files (the
# copy builds in build/, so a BUILD of another name is renamed in them):
# make rebuilds those that include the view list, and the new views; the
# library and the modules that never see the list stay as they are.
B=${BUILD:-build}
if [ -f "$B/libpeviz.a" ]; then
    mkdir -p "$TMP/build"
    cp -rp "$B/src" "$B/libpeviz.a" "$TMP/build/"
    if [ "$B" != build ]; then
        find "$TMP/build/src" -name '*.d' -exec sed -i "s|$B/|build/|g" {} +
    fi
fi

# ---- the view's own files -------------------------------------------------

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

# ---- one line each in the list ------------------------------------------------

for line in 'DEMO, demo, struct demo_state, demo' \
            'PLAIN, plain, struct view_none, plain'; do
    sed -i "s/^\\( *\\)VIEW(GRID, /\\1VIEW($line) \\\\\\n&/" "$TMP/src/view.h"
done
diff src/view.h "$TMP/src/view.h" >"$TMP/list.diff"
check "the list gets one line per view ($(tr '\n' ' ' <"$TMP/list.diff"))" \
    test "$(grep -c '^>' "$TMP/list.diff") $(grep -c '^<' "$TMP/list.diff")" = "2 0"
others() {
    diff -rq src "$TMP/src" | grep -v -e '^Files src/view.h and .* differ$' \
        -e "^Only in $TMP/src/views: demo\(_state\.h\|\.c\)\$" \
        -e "^Only in $TMP/src/views: plain\.c\$"
}
check "and nothing else changes ($(others | head -c 200))" test -z "$(others)"

# ---- it builds and runs ---------------------------------------------------------

if ! make -s -C "$TMP" -j"$(nproc 2>/dev/null || echo 2)" CC="$CC" OPT=-O0 \
        BUILD=build BIN=peviz >"$TMP/build.log" 2>&1; then
    check "the copy with the new views builds: $(grep -m3 error "$TMP/build.log")" false
    done_
fi
P=$TMP/peviz
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
check "make docs, then tests/docs.sh holds with the new views" \
    sh -c "make -s -C '$TMP' CC='$CC' OPT=-O0 BUILD=build docs >'$TMP/docs.log' 2>&1 &&
           cd '$TMP' && PEVIZ='$P' DOCGEN=build/docgen bash tests/docs.sh >>'$TMP/docs.log' 2>&1"
check "the copy's README lists the new views" grep -q '`demo`' "$TMP/README.md"
done_
