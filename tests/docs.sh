#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The man page, the README and the guides against the program: the lists
# `make docs` writes (build/docgen from the program's tables) are what
# the committed files hold, and so are the shell completions (the diff is
# printed when not); groff finds no problems in assets/peviz.1; every
# key label that `peviz --help` lists is a key entry in the man page and
# in README.md; every long option is in the man page; README.md is short
# and names every build dependency; the shipped tours are named in the
# man page; a bad tour file is refused with FILE:LINE: and exit 2.
#
# Ends with "docs: N passed, M failed"; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.."
: "${PEVIZ:=./peviz}"
: "${DOCGEN:=${BUILD:-build}/docgen}"
MAN=assets/peviz.1
README=README.md
export LC_ALL=C.UTF-8

pass=0 fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }

TMP=$(mktemp -d /tmp/peviz-docs.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

if ! "$PEVIZ" --help >"$TMP/help" 2>"$TMP/help.err"; then
    bad "$PEVIZ --help failed"
    echo "docs: $pass passed, $fail failed"
    exit 1
fi

# "KEY<TAB>label<TAB>help" for every key line of --help, "SECTION<TAB>
# title" for each "keys ...:" heading.  A label and its help are
# separated by two or more blanks.
key_lines() {
    awk '
        /^keys[^:]*:$/ { inkeys = 1; print "SECTION\t" $0; next }
        /^$/ { inkeys = 0; next }
        inkeys && /^  [^ ]/ {
            line = substr($0, 3)
            at = index(line, "  ")
            if (at == 0) { print "UNPARSED\t" line; next }
            label = substr(line, 1, at - 1)
            help = substr(line, at); sub(/^ +/, "", help)
            print "KEY\t" label "\t" help
        }' "$TMP/help"
}
key_lines >"$TMP/keys"

# ---- the generated lists ---------------------------------------------------

# What make docs would write, against what is committed.
generated_same() {     # FILE COMMAND...: the command's output is FILE
    local file=$1; shift
    if "$@" >"$TMP/gen" 2>"$TMP/gen.err" && diff -u "$file" "$TMP/gen" >"$TMP/gen.diff"; then
        return 0
    fi
    echo "  $file differs from what make docs writes (run make docs):" >&2
    head -n 40 "$TMP/gen.diff" "$TMP/gen.err" >&2
    return 1
}
if [ -x "$DOCGEN" ]; then
    for f in README.md assets/peviz.1 assets/doc/*.md; do
        check "$f holds the lists make docs writes" generated_same "$f" "$DOCGEN" fill "$f"
    done
    for s in bash:peviz.bash zsh:_peviz fish:peviz.fish; do
        f=assets/completions/${s#*:}
        check "$f is what make docs writes" generated_same "$f" "$DOCGEN" completion "${s%%:*}"
    done
    "$PEVIZ" --no-user-settings --snapshot --size 80x24 --color none >"$TMP/screen"
    sed -n '/^<!-- BEGIN peviz-screen -->$/,/^<!-- END peviz-screen -->$/p' "$README" |
        sed '1,2d;$d' | sed '$d' >"$TMP/readme-screen"
    check "README.md's first screen is what --snapshot --size 80x24 --color none prints (make docs)" \
        cmp -s "$TMP/screen" "$TMP/readme-screen"
    check "README.md has the generated views table" \
        grep -q '^<!-- BEGIN peviz-docs views -->$' "$README"
    check "README.md has the generated keys" \
        grep -q '^<!-- BEGIN peviz-docs keys-brief -->$' "$README"
    check "the man page's KEYS are generated" \
        grep -q '^\.\\" BEGIN peviz-docs keys$' "$MAN"
    check "--version says the version in VERSION ($(cat VERSION))" \
        test "$("$PEVIZ" --version)" = "peviz $(cat VERSION)"
    check "the man page's title line has the version $(cat VERSION)" \
        grep -qF "\"peviz $(cat VERSION)\"" "$MAN"
else
    bad "$DOCGEN is not built (make $DOCGEN)"
fi

# The README: short, and every build dependency with its Debian package
# and pkg-config name.
check "README.md has $(wc -l <"$README") lines, at most 400" \
    test "$(wc -l <"$README")" -le 400
for dep in 'libncurses-dev.*ncursesw' 'libpng-dev.*libpng' 'zlib1g-dev.*zlib' \
           tmux python3 groff-base valgrind python3-pyte python3-numpy clang; do
    check "README.md's set-up does not name $dep" grep -qE -- "$dep" "$README"
done
pkg_names_in_readme() {  # every name the Makefile asks pkg-config for
    local p names
    names=$(sed -n 's/.*(PKG_CONFIG) --cflags \([a-z0-9 ]*[a-z0-9]\) .*/\1/p' Makefile)
    [ -n "$names" ] || return 1
    for p in $names; do
        grep -qF "\`$p\`" "$README" || { echo "  README.md lacks \`$p\`" >&2; return 1; }
    done
}
check "the Makefile's pkg-config names are in README.md" pkg_names_in_readme

# ---- the man page -------------------------------------------------------

if command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -ww -z "$MAN" >"$TMP/warn" 2>&1
    check "groff -man -ww reports: $(head -c 300 "$TMP/warn")" test ! -s "$TMP/warn"
    # rendered, with groff's hyphen and minus glyphs made ASCII again
    groff -man -Tutf8 -P-cbou "$MAN" 2>/dev/null |
        sed -e 's/‐/-/g' -e 's/−/-/g' -e 's/’/'"'"'/g' -e 's/‘/`/g' >"$TMP/man.txt"
    check "the man page renders" test -s "$TMP/man.txt"
else
    echo "SKIP docs: groff is not installed; checking the man page source only (Debian: apt-get install groff-base)"
    sed -e 's/\\-/-/g' -e 's/\\e/\\/g' "$MAN" >"$TMP/man.txt"
fi

# The pages as text, and the heads of their lines (what comes before the
# first two blanks, and before the first " |"), looked up without
# starting a process: the checks below ask hundreds of times.
MANTXT=$(<"$TMP/man.txt")
READMETXT=$(<"$README")
declare -A MAN_HEADS=() README_HEADS=()
while IFS= read -r line; do
    line=${line#"${line%%[! ]*}"}
    MAN_HEADS[x${line%%  *}]=1
done <"$TMP/man.txt"
while IFS= read -r line; do
    line=${line#"${line%%[! |]*}"}
    README_HEADS[x${line%%  *}]=1 README_HEADS[x${line%% |*}]=1
done <"$README"
in_man() { [[ $MANTXT == *"$1"* ]]; }
in_readme() { [[ $READMETXT == *"$1"* ]]; }

# A key entry: the label starts a line of the rendered page (a .TP tag),
# followed by two blanks or the end of the line.
man_has_key() {
    [ -n "${MAN_HEADS[x$1]:-}" ] && return 0
    awk -v k="$1" '
        { sub(/^ +/, "") }
        index($0, k) == 1 && (length($0) == length(k) ||
                              substr($0, length(k) + 1, 2) == "  ") { f = 1 }
        END { exit !f }' "$TMP/man.txt"
}

# In the README: `label`, or a line of a key list that starts with it.
readme_has_key() {
    in_readme "\`$1\`" && return 0
    [ -n "${README_HEADS[x$1]:-}" ] && return 0
    awk -v k="$1" '
        { sub(/^[ |]+/, "") }
        index($0, k) == 1 && substr($0, length(k) + 1, 2) ~ /^(  | \||$)/ { f = 1 }
        END { exit !f }' "$README"
}

nkeys=0
while IFS=$'\t' read -r kind label help; do
    case $kind in
    SECTION) continue ;;
    UNPARSED) bad "--help key line without two blanks after its label: $label"; continue ;;
    esac
    nkeys=$((nkeys + 1))
    check "key '$label' is not a key entry of $MAN" man_has_key "$label"
    check "key '$label' is not in $README's key list" readme_has_key "$label"
done <"$TMP/keys"
check "--help lists keys (found $nkeys)" test "$nkeys" -ge 20
for k in Enter Backspace Esc; do
    check "tour key $k is not in $MAN" man_has_key "$k"
done

grep -oE -- '--[a-z][a-z-]+' "$TMP/help" | sort -u >"$TMP/opts"
nopts=$(wc -l <"$TMP/opts")
check "--help lists options (found $nopts)" test "$nopts" -ge 20
while IFS= read -r o; do
    check "option $o is not in $MAN" in_man "$o"
done <"$TMP/opts"

# Every name an option takes from a table is in the man page.
help_names() {      # "what: a, b or c (default a)" after the option -> "a, b, c"
    grep -E -- "^ +--$1 [A-Z]+ " "$TMP/help" | sed -E 's/^ +--[a-z-]+ [A-Z]+ +//;
        s/^[^:]*: //; s/ \(default [^)]*\)$//; s/ or /, /'
}
for o in scheme color palette rope-scaling pane-mode lang graphics; do
    want=$(help_names "$o")
    check "--help lists no names for --$o" test -n "$want"
    for name in $(printf '%s' "$want" | tr -d ','); do
        check "--$o $name is not in $MAN" grep -qwF -- "$name" "$TMP/man.txt"
    done
done

for section in NAME SYNOPSIS DESCRIPTION OPTIONS KEYS COMMANDS "THE MATH" \
               "TOUR FILES" FILES ENVIRONMENT "EXIT STATUS"; do
    check "$MAN has no $section section" grep -q "^$section\$" "$TMP/man.txt"
done
for v in NO_COLOR COLORTERM TERM LANG LC_ALL LC_MESSAGES; do
    check "$MAN does not mention $v" grep -qw "$v" "$TMP/man.txt"
done
for d in title set key text line hint; do
    check "$MAN does not document the tour directive '$d'" \
        grep -qE "^ +$d [A-Z]+\$" "$TMP/man.txt"
done

# The presets table of the RoPE guide names the presets of --model list,
# in its order.
"$PEVIZ" --model list | awk 'NR > 1 { print $1 }' >"$TMP/presets"
sed -n '/^| name | d (rotary) |/,/^$/p' assets/doc/rope-scaling.md |
    sed -n 's/^| `\([^`]*\)` |.*/\1/p' >"$TMP/guide-presets"
check "assets/doc/rope-scaling.md's preset table is --model list's ($(diff "$TMP/presets" "$TMP/guide-presets" | tr '\n' ' '))" \
    cmp -s "$TMP/presets" "$TMP/guide-presets"

# ---- the shell completions ------------------------------------------------

# bash: the completion sourced in a plain bash, asked for partial words;
# what it offers must be the words --help and --model list name.
complete_bash() {   # WORD...: the completions of the last word, sorted
    bash --norc --noprofile -c '
        source assets/completions/peviz.bash
        COMP_WORDS=(peviz "$@"); COMP_CWORD=$#
        _peviz
        printf "%s\n" "${COMPREPLY[@]}"' peviz "$@" | sed '/^$/d' | sort
}
same_words() {      # WHAT WANT GOT
    [ "$2" = "$3" ] && [ -n "$2" ] && return 0
    echo "  $1: want '$(echo $2)', got '$(echo $3)'" >&2
    return 1
}
opts_from_help() { grep -oE -- "--$1[a-z-]*" "$TMP/help" | sort -u; }
names_from_help() { help_names "$1" | tr -d , | tr ' ' '\n' | grep -- "^${2:-}" | sort; }
if ! command -v bash >/dev/null 2>&1; then
    echo "SKIP docs: bash is not installed (Debian: apt-get install bash)"
else
    check "bash: --sch completes to the options --help lists" \
        same_words "--sch" "$(opts_from_help sch)" "$(complete_bash --sch)"
    check "bash: --view completes to --help's views" \
        same_words "--view" "$(names_from_help view)" "$(complete_bash --view '')"
    check "bash: --scheme k completes to --help's schemes with k" \
        same_words "--scheme k" "$(names_from_help scheme k)" "$(complete_bash --scheme k)"
    check "bash: --pane-mode=d (as --pane-mode = d) completes to --help's modes with d" \
        same_words "--pane-mode=d" "$(names_from_help pane-mode d)" \
        "$(complete_bash --pane-mode = d)"
    "$PEVIZ" --model list | awk 'NR > 1 && $1 ~ /^qwen/ { print $1 }' | sort >"$TMP/qwen"
    check "bash: --model-b qwen completes to --model list's qwen presets" \
        same_words "--model-b qwen" "$(cat "$TMP/qwen")" "$(complete_bash --model-b qwen)"
    : >"$TMP/table.npy"; mkdir -p "$TMP/slides.d"
    check "bash: --pe-file completes file names" \
        same_words "--pe-file" "$TMP/table.npy" "$(complete_bash --pe-file "$TMP/tab")"
    check "bash: --slides completes directories" \
        same_words "--slides" "$TMP/slides.d" "$(complete_bash --slides "$TMP/sl")"
    check "bash: -d (a number) completes nothing" test -z "$(complete_bash -d '')"
fi
# zsh and fish: the scripts parse; fish offers --help's views.
if command -v zsh >/dev/null 2>&1; then
    check "zsh -n assets/completions/_peviz" zsh -n assets/completions/_peviz
else
    echo "SKIP docs: zsh is not installed, its completion is unchecked (Debian: apt-get install zsh)"
fi
if command -v fish >/dev/null 2>&1; then
    check "fish -n assets/completions/peviz.fish" fish -n assets/completions/peviz.fish
    got=$(fish --no-config -c 'source assets/completions/peviz.fish; complete -C "peviz --view "' |
          cut -f1 | sort)
    check "fish: --view completes to --help's views" \
        same_words "fish --view" "$(names_from_help view)" "$got"
else
    echo "SKIP docs: fish is not installed, its completion is unchecked (Debian: apt-get install fish)"
fi

# ---- tour files through the program -------------------------------------

for t in assets/tours/*.tour; do
    check "$t is not named in $MAN" grep -qF "$(basename "$t" .tour)" "$TMP/man.txt"
done
check "assets/tours/README.tour-format.txt is missing" \
    test -s assets/tours/README.tour-format.txt

# A bad tour: exit 2, "FILE:LINE: message" on stderr, nothing on stdout.
tour_refused() {
    local file=$1 want=$2 rc
    "$PEVIZ" --snapshot --size 80x24 --tour="$file" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    if [ "$rc" -eq 2 ] && [ ! -s "$TMP/out" ] && grep -qF -- "$want" "$TMP/err"; then
        return 0
    fi
    echo "  --tour=$file: exit $rc, stderr: $(head -c 200 "$TMP/err")" >&2
    return 1
}
printf 'title A\ntext fine\nfrobnicate 3\n' >"$TMP/unknown.tour"
check "unknown directive" tour_refused "$TMP/unknown.tour" "$TMP/unknown.tour:3: unknown directive"
printf 'title A\nset d 7\ntext odd\n' >"$TMP/value.tour"
check "bad value" tour_refused "$TMP/value.tour" "$TMP/value.tour:2: set d 7"
check "missing file" tour_refused "$TMP/none.tour" "$TMP/none.tour: cannot open"
for t in assets/tours/*.tour; do
    "$PEVIZ" --snapshot --size 80x24 --tour="$t" >"$TMP/out" 2>"$TMP/err"
    check "--snapshot --tour=$t exits $? ($(head -c 200 "$TMP/err"))" \
        grep -q "tour 1/" "$TMP/out"
done

steps=$(grep -c '^title' assets/tours/en.tour)
check "zh.tour has as many steps as en.tour" \
    test "$(grep -c '^title' assets/tours/zh.tour)" = "$steps"

echo "docs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
