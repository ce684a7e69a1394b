#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Rewrite the golden frames from the current program (`make golden`).
# Run this only after a deliberate change to what peviz draws, then read
# `git diff tests/golden` before committing: the diff is the review.
# An argument limits it to the cases whose name contains it:
#   bash tests/golden/regen.sh heatmap
set -eu
cd "$(dirname "$0")/../.."
: "${PEVIZ:=./peviz}"
dir=tests/golden
n=0 changed=0
while IFS='|' read -r name args; do
    case $name in '' | '#'*) continue ;; esac
    case $name in *"${1:-}"*) ;; *) continue ;; esac
    out=$dir/$name.txt
    # the arguments are separate words: unquoted on purpose
    "$PEVIZ" --snapshot $args >"$out.new"
    if cmp -s "$out.new" "$out" 2>/dev/null; then
        rm -f "$out.new"
    else
        mv "$out.new" "$out"
        echo "golden: wrote $out"
        changed=$((changed + 1))
    fi
    n=$((n + 1))
done <"$dir/cases.txt"
echo "golden: $n cases, $changed rewritten"
