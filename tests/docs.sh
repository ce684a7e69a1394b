#!/usr/bin/env bash
# The man page and the README against the program: groff finds no
# problems in assets/peviz.1; every key label that `peviz --help` lists
# (the key tables) is a key entry in the man page and in README.md;
# every long option is in both; the shipped tours are named in the man
# page; a bad tour file is refused with FILE:LINE: and exit 2.
#
#   bash tests/docs.sh               check
#   bash tests/docs.sh --update-man  rewrite the KEYS section of the man
#                                    page from the key tables, on purpose
#
# Ends with "docs: N passed, M failed"; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/.."
: "${PEVIZ:=./peviz}"
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
# The row of the views' number keys ("1..5  heatmap, clocks, ...") is
# documented as "1..N": its label and names come from the view list, so
# that a new view is its files and one line of that list.
VIEW_NAMES=$(sed -n 's/^ *--view NAME  *//p' "$TMP/help" | sed 's/ or /, /')
VIEWS_LABEL=1..N
VIEWS_HELP="the views, numbered in the order --view lists them"
views_row() {
    awk -F '\t' -v names="$VIEW_NAMES" -v l="$VIEWS_LABEL" -v h="$VIEWS_HELP" '
        $1 == "KEY" && $3 == names { print "KEY\t" l "\t" h; found = 1; next }
        { print }
        END { if (!found) print "UNPARSED\tno key row for the views (" names ")" }'
}
key_lines | views_row >"$TMP/keys"

# roff for one piece of text: escapes, and the arrows as groff glyphs.
roff_escape() {
    sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e 's/"/\\(dq/g' \
        -e 's/←/\\(<-/g' -e 's/→/\\(->/g' -e 's/↑/\\(ua/g' -e 's/↓/\\(da/g' \
        -e 's/·/\\(md/g' -e 's/√/\\(sr/g' -e 's/×/\\(mu/g' \
        -e "s/^\\([.']\\)/\\\\\\&\\1/"
}

# The KEYS section as roff, from the key lines.
keys_roff() {
    while IFS=$'\t' read -r kind label help; do
        case $kind/$label in
        'SECTION/keys in every view:') echo '.SS "In every view"' ;;
        'SECTION/keys in the '*)
            v=${label#keys in the }; v=${v% view:}
            echo ".SS \"In the $v view\"" ;;
        'SECTION/keys in '*)
            v=${label#keys in }; v=${v%:}
            echo ".SS \"In $v\"" ;;
        UNPARSED/*) echo "cannot read the key line '$label'" >&2; return 1 ;;
        *)
            echo '.TP 16'
            printf '.B "%s"\n' "$(printf '%s' "$label" | roff_escape)"
            printf '%s\n' "$help" | roff_escape ;;
        esac
    done <"$TMP/keys"
}

if [ "${1:-}" = --update-man ]; then
    keys_roff >"$TMP/keys.roff" || exit 1
    awk -v gen="$TMP/keys.roff" '
        /^\.\\" BEGIN KEYS/ { print; while ((getline l < gen) > 0) print l; skip = 1; next }
        /^\.\\" END KEYS/ { skip = 0 }
        !skip { print }' "$MAN" >"$TMP/man.new" && mv "$TMP/man.new" "$MAN"
    echo "rewrote the KEYS section of $MAN from $PEVIZ --help"
    exit 0
fi

# ---- the man page -------------------------------------------------------

if command -v groff >/dev/null 2>&1; then
    groff -man -ww -z "$MAN" >"$TMP/warn" 2>&1
    check "groff -man -ww reports: $(head -c 300 "$TMP/warn")" test ! -s "$TMP/warn"
    # rendered, with groff's hyphen and minus glyphs made ASCII again
    groff -man -Tutf8 -P-cbou "$MAN" 2>/dev/null |
        sed -e 's/‐/-/g' -e 's/−/-/g' -e 's/’/'"'"'/g' -e 's/‘/`/g' >"$TMP/man.txt"
    check "the man page renders" test -s "$TMP/man.txt"
else
    echo "SKIP docs: groff is not installed; checking the man page source only (Debian: apt-get install groff-base)"
    sed -e 's/\\-/-/g' -e 's/\\e/\\/g' "$MAN" >"$TMP/man.txt"
fi
check "the KEYS section is marked for regeneration" \
    grep -q '^\.\\" BEGIN KEYS' "$MAN"

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
    check "option $o is not in $README" in_readme "$o"
done <"$TMP/opts"

# Lists of names the README types by hand: each must be the list --help
# prints from the program's tables (the option's table row, and the
# synopsis "[--opt a|b|c]" where it has one).
help_names() {      # "a, b or c" after the option in --help -> "a, b, c"
    grep -E -- "^ +--$1 [A-Z]+ " "$TMP/help" | sed -E 's/^ +--[a-z-]+ [A-Z]+ +//;
        s/^[^:]*: //; s/ or /, /'
}
readme_row() {      # the valid values of the option's README table row
    grep -E -- "^\| \`--$1\` \|" "$README" | head -n 1 | awk -F' [|] ' '{print $3}' |
        sed -E 's/ \([a-z0-9]+\) \|$//; s/ \|$//'
}
for o in scheme color palette rope-scaling pane-mode lang graphics; do
    want=$(help_names "$o")
    check "--help lists no names for --$o" test -n "$want"
    got=$(readme_row "$o")
    check "README's --$o row lists '$got', --help '$want'" test "$got" = "$want"
    for name in $(printf '%s' "$want" | tr -d ','); do
        check "--$o $name is not in $MAN" grep -qwF -- "$name" "$TMP/man.txt"
    done
    syn=$(grep -oE -- "\[--$o [a-z0-9|-]+\|[a-z0-9|-]+\]" "$README" | head -n 1)
    if [ -n "$syn" ]; then
        syn=$(printf '%s' "$syn" | sed -E "s/^\[--$o //; s/\]\$//; s/\|/, /g")
        check "README's synopsis lists --$o '$syn', --help '$want'" test "$syn" = "$want"
    fi
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

# The README counts the tour's steps as the shipped tours have them.
steps=$(grep -c '^title' assets/tours/en.tour)
check "README does not say the tour has $steps steps" \
    sh -c "tr '\n' ' ' <README.md | tr -s ' ' | grep -q 'ideas in $steps steps'"
check "zh.tour has as many steps as en.tour" \
    test "$(grep -c '^title' assets/tours/zh.tour)" = "$steps"

echo "docs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
