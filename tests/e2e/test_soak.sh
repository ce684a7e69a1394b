#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# Random-key soak (tests/soak.py): peviz on a pseudo-terminal takes
# thousands of random keys, escape sequences, ':' commands and resizes
# per seed; it must never exit, crash or stop answering, must still
# obey ':d 8' at the end, quit clean on q with the terminal restored,
# and leave no sanitizer report (make asan runs it on the ASan+UBSan
# build).  SOAK_KEYS keys per seed (default 1500), SOAK_SEEDS the seeds.
. "$(dirname "$0")/lib.sh"
e2e_init test_soak

: "${SOAK_KEYS:=1500}" "${SOAK_SEEDS:=1 2 3}"
if ! command -v python3 >/dev/null 2>&1; then
    FAIL=$((FAIL + 1))
    echo "FAIL test_soak: python3 is not installed; the soak needs it (Debian: apt-get install python3)"
    e2e_done
    exit $?
fi
keys=0
for seed in $SOAK_SEEDS; do
    out=$(python3 "$E2E_DIR/../soak.py" "$PEVIZ" "$seed" "$SOAK_KEYS" 2>&1)
    rc=$?
    line=$(printf '%s\n' "$out" | head -n 1)
    if [ "$rc" -eq 0 ]; then
        pass "${line#ok   }"
        n=$(printf '%s' "$line" | sed -n 's/.*: \([0-9]*\) keys.*/\1/p')
        keys=$((keys + ${n:-0}))
    else
        fail "${line#FAIL }"
        printf '%s\n' "$out" | tail -n +2 | head -n 60
    fi
done
echo "keys typed: $keys"
e2e_done
