#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The Debian package, checked (for CI; not a suite of make test, since it
# builds peviz once more): make deb, the package's contents, lintian
# without errors (when installed), then the package unpacked into a
# scratch root with dpkg -x, whose peviz --version names VERSION and
# whose --snapshot draws a frame and finds the installed tour.
#
# Ends with "deb: N passed, M failed"; exits non-zero on any failure.
set -u
cd "$(dirname "$0")/../.."
if ! command -v dpkg-deb >/dev/null 2>&1; then
    echo "SKIP deb: dpkg-deb is not installed (Debian: apt-get install dpkg-dev)"
    exit 0
fi
pass=0 fail=0
check() { local what=$1; shift; if "$@"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $what"; fi; }
TMP=$(mktemp -d /tmp/peviz-deb.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
VERSION=$(cat VERSION)
ARCH=$(dpkg-architecture -qDEB_HOST_ARCH 2>/dev/null || dpkg --print-architecture)
DEB=peviz_${VERSION}_${ARCH}.deb
check "make deb" make --no-print-directory deb
dpkg-deb -c "$DEB" | awk '{ print $6 }' | sed 's|^\./|/|' >"$TMP/files"
for f in /usr/bin/peviz /usr/share/man/man1/peviz.1.gz \
         /usr/share/bash-completion/completions/peviz \
         /usr/share/zsh/site-functions/_peviz \
         /usr/share/fish/vendor_completions.d/peviz.fish \
         /usr/share/doc/peviz/copyright /usr/share/doc/peviz/README.md; do
    check "$DEB holds $f" grep -qx -- "$f" "$TMP/files"
done
for t in assets/tours/*.tour; do
    check "$DEB holds the tour $t" grep -qx -- "/usr/share/peviz/tours/${t##*/}" "$TMP/files"
done
check "Depends from dpkg-shlibdeps names libncursesw and libpng" \
    sh -c "dpkg-deb -f '$DEB' Depends | grep -q 'libncursesw.*libpng'"
if command -v lintian >/dev/null 2>&1; then
    lintian "$DEB" >"$TMP/lintian" 2>&1
    check "lintian reports no errors: $(grep '^E:' "$TMP/lintian" | head -3)" \
        sh -c "! grep -q '^E:' '$TMP/lintian'"
else
    echo "SKIP deb: lintian is not installed (Debian: apt-get install lintian)"
fi
dpkg -x "$DEB" "$TMP/root"
P=$TMP/root/usr/bin/peviz
check "the installed peviz --version says $VERSION" \
    test "$("$P" --version 2>&1)" = "peviz $VERSION"
(cd "$TMP" && "$P" --snapshot --size 80x24 --tour >"$TMP/snap" 2>&1)
check "the installed --snapshot --tour draws the installed tour's first step" \
    grep -q '^tour 1/' "$TMP/snap"
echo "deb: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
