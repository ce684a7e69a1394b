#!/usr/bin/env bash
# No mutable file-scope state under src/views/: a view keeps its caches
# and layouts in its runtime object (view.h), so no view object may hold
# a variable in .data or .bss (constant tables in .rodata or
# .data.rel.ro are fine).
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
echo "views_state: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
