#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# libpeviz stands alone: every public header compiles on its own (C11,
# pedantic, warnings as errors), the library's sources include nothing
# but its own headers and the C library, and the whole archive links
# into a program with only libc and libm.
set -u
cd "$(dirname "$0")/../.."
: "${BUILD:=build}" "${CC:=cc}" "${LDFLAGS:=}"
LIB=$BUILD/libpeviz.a
TMP=$BUILD/libcheck
mkdir -p "$TMP"
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

for h in include/peviz/*.h; do
    name=${h##*/} name=${name%.h}
    # (a declaration after it: a header of constants alone, peviz/pi.h,
    # leaves no declaration, which ISO C does not allow in a file)
    printf '#include "peviz/%s.h"\ntypedef int check_unit;\n' "$name" > "$TMP/$name.c"
    if $CC -std=c11 -Wall -Wextra -Werror -pedantic -Iinclude -fsyntax-only \
        "$TMP/$name.c" 2> "$TMP/$name.err"; then
        ok
    else
        bad "$h does not compile on its own:"; cat "$TMP/$name.err" >&2
    fi
done

# Only <system> headers (C, the POSIX file calls the loaders need:
# open, fstat, pread, and madvise for the softmax stream's huge pages),
# "peviz/..." ones and the library's own internal headers in src/lib:
# no app code, no curses.
internal=$(cd src/lib && ls *.h 2>/dev/null | sed 's/\./\\./' | paste -sd '|')
files=(src/lib/*.c src/lib/*.h include/peviz/*.h)
# every file's includes at once, "FILE:LINE:..." for each one not allowed
grep -HnE '^[[:space:]]*#[[:space:]]*include' "${files[@]}" \
    | grep -vE '#[[:space:]]*include[[:space:]]*(<(assert|ctype|errno|float|inttypes|limits|locale|math|stdarg|stdbool|stddef|stdint|stdio|stdlib|string|fcntl|unistd|sys/mman|sys/stat|sys/types)\.h>|"peviz/[a-z_]+\.h")' \
    | grep -vE "#[[:space:]]*include[[:space:]]*\"($internal)\"" >"$TMP/inc.txt"
declare -A extra=()
while IFS= read -r line; do
    extra[${line%%:*}]+="$line"$'\n'
done <"$TMP/inc.txt"
for f in "${files[@]}"; do
    if [ -n "${extra[$f]:-}" ]; then
        bad "$f includes more than libc, libm and peviz/:"; printf '%s' "${extra[$f]}" >&2
    else
        ok
    fi
done

# Every object of the archive, linked with libc and libm alone.
cat > "$TMP/main.c" <<'C'
#include <stdio.h>
#include "peviz/layout.h"
#include "peviz/pe.h"
#include "peviz/scores.h"
int main(void)
{
    struct score_opts o;
    scores_defaults(&o);
    struct score_ctx *s = scores_new(8, 10000, 16, &o, NULL);
    double v = s ? scores_at(s, 3, 1) : 0;
    scores_free(s);
    printf("%.6f %.6f %s\n", v, layout_value(8, 10000, LAYOUT_HALF, PREC_F64,
           3, 1), scheme_name(SCHEME_ROPE));
    return s ? 0 : 1;
}
C
if [ ! -f "$LIB" ]; then
    bad "$LIB missing (make libpeviz)"
elif $CC -std=c11 -Iinclude $LDFLAGS -o "$TMP/main" "$TMP/main.c" \
        -Wl,--whole-archive "$LIB" -Wl,--no-whole-archive -lm 2> "$TMP/link.err"; then
    ok
    # PE(3).PE(1) over 4 bands, and dim 1 of the half layout at 3: cos(3 w_1)
    want=$(awk 'BEGIN { s = 0; for (k = 0; k < 4; k++) s += cos(2 * 10000 ^ (-2 * k / 8));
                        printf "%.6f %.6f rope\n", s, cos(3 * 10000 ^ (-2 / 8)) }')
    got=$("$TMP/main")
    if [ "$got" = "$want" ]; then ok; else bad "linked program printed '$got', want '$want'"; fi
else
    bad "the whole archive does not link with libc and libm alone:"; cat "$TMP/link.err" >&2
fi

echo "lib/check.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
