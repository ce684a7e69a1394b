#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# make deb: peviz_VERSION_ARCH.deb in the top directory.  peviz is built
# for PREFIX=/usr in BUILD/deb/obj (it looks for its tours under
# /usr/share/peviz), installed into BUILD/deb/root with make install,
# stripped, given its gzipped man page, docs, copyright and changelog,
# its depends from dpkg-shlibdeps, and packed by dpkg-deb.
#
#   VERSION=0.4.0 BUILD=build bash assets/packaging/deb.sh
set -eu
cd "$(dirname "$0")/../.."
: "${MAKE:=make}" "${BUILD:=build}" "${VERSION:=$(cat VERSION)}"
die() { echo "deb: $*" >&2; exit 2; }
for tool in dpkg-deb dpkg-shlibdeps dpkg-architecture; do
    command -v "$tool" >/dev/null 2>&1 ||
        die "$tool is missing (Debian: apt-get install dpkg-dev)"
done
ARCH=$(dpkg-architecture -qDEB_HOST_ARCH)
OUT=peviz_${VERSION}_${ARCH}.deb
D=$BUILD/deb
ROOT=$D/root
DOC=$ROOT/usr/share/doc/peviz
rm -rf "$ROOT" "$D/shlibs"
$MAKE --no-print-directory -j2 BUILD="$D/obj" BIN="$D/obj/peviz" PREFIX=/usr \
    DESTDIR="$PWD/$ROOT" install >/dev/null
strip --strip-unneeded --remove-section=.comment --remove-section=.note \
    "$ROOT/usr/bin/peviz"
gzip -9n "$ROOT/usr/share/man/man1/peviz.1"
install -d "$DOC/guides"
install -m 644 README.md "$DOC/"
install -m 644 assets/packaging/copyright "$DOC/copyright"
install -m 644 assets/doc/*.md "$DOC/guides/"
install -m 644 assets/tours/README.tour-format.txt "$ROOT/usr/share/peviz/tours/"
# A native package's changelog, in Debian's format, from the version.
{
    printf 'peviz (%s) unstable; urgency=medium\n\n' "$VERSION"
    printf '  * Release %s; the changes for users are in guides/CHANGES.md.\n\n' "$VERSION"
    printf ' -- The peviz authors <peviz@example.org>  %s\n' \
        "$(date -R -u -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")"
} | gzip -9n >"$DOC/changelog.gz"
chmod 644 "$DOC/changelog.gz"

# dpkg-shlibdeps reads a debian/control of its own.
mkdir -p "$D/shlibs/debian"
printf 'Source: peviz\n\nPackage: peviz\nArchitecture: any\n' >"$D/shlibs/debian/control"
deps=$(cd "$D/shlibs" && dpkg-shlibdeps -O "$OLDPWD/$ROOT/usr/bin/peviz" 2>/dev/null |
       sed -n 's/^shlibs:Depends=//p')
[ -n "$deps" ] || die "dpkg-shlibdeps found no dependencies"

install -d "$ROOT/DEBIAN"
size=$(du -k -s --exclude=DEBIAN "$ROOT" | cut -f1)
sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$ARCH/" -e "s/@SIZE@/$size/" \
    -e "s/@DEPENDS@/$deps/" assets/packaging/control.in >"$ROOT/DEBIAN/control"
(cd "$ROOT" && find usr -type f -exec md5sum {} + | sort -k2) >"$ROOT/DEBIAN/md5sums"
find "$ROOT" -type d -exec chmod 755 {} +
dpkg-deb --root-owner-group -Zxz --build "$ROOT" "$OUT" >/dev/null
echo "  DEB   $OUT"
