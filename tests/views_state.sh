#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# No mutable file-scope state under src/views/: a view keeps its caches
# and layouts in its runtime object (view.h), so no view object may hold
# a variable in .data or .bss (constant tables in .rodata or
# .data.rel.ro are fine).  And src/app.h declares no view's settings
# type, src/follow_proto.c reaches no view's settings.
#
# Ends with "views_state: N passed, M failed".
set -u
cd "$(dirname "$0")/.."
: "${BUILD:=build}"

pass=0 fail=0
objs=$(ls "$BUILD"/src/views/*.o 2>/dev/null)
if [ -z "$objs" ]; then
    echo "FAIL: no view objects under $BUILD/src/views (build first)"
    echo "views_state: 0 passed, 1 failed"
    exit 1
fi
for o in $objs; do
    # objects (O) in .data or .bss sections, but not .data.rel.ro, nor
    # what a sanitizer adds (__odr_asan.*, __ubsan_*, .L* data)
    found=$(objdump -t "$o" | awk '$3 == "O" && $4 ~ /^\.(data|bss)/ &&
                                   $4 !~ /^\.data\.rel\.ro/ &&
                                   $NF !~ /^(__|\.L)/ { print $NF }')
    if [ -n "$found" ]; then
        echo "FAIL: $o holds mutable state:" $found
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
done

# What a view owns stays with it: src/app.h declares no view's settings
# type, and src/follow_proto.c reaches no view's settings member (their
# rows come from the views), for each VIEW_LIST line of src/view.h.
lines=$(sed -n 's/^ *VIEW([A-Z0-9_]*, *[a-z0-9_]*, *struct \([a-z0-9_]*\), *\([a-z0-9_]*\)).*/\1 \2/p' src/view.h)
if [ -z "$lines" ]; then
    echo "FAIL: no VIEW(ID, name, struct TYPE, member) lines in src/view.h"
    fail=$((fail + 1))
fi
while read -r type member; do
    [ -n "$type" ] || continue
    if grep -qE "struct $type *\{" src/app.h; then
        echo "FAIL: src/app.h declares struct $type (it belongs in the view's header)"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
    if grep -qE "(->|[^a-z_])$member\.|->$member\b" src/follow_proto.c; then
        echo "FAIL: src/follow_proto.c reaches the view's settings ($member)"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
done <<<"$lines"
echo "views_state: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
