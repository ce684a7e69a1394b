#!/usr/bin/env bash
# SPDX-License-Identifier: ISC
# The slide deck (--slides) in a headless browser: paged by its links,
# Back and the keys, captions once, no key hints in the images, the zh
# deck's words in Chinese, no seams when scaled (tests/e2e/slides.py).
set -u
cd "$(dirname "$0")/../.." || exit 1
: "${PEVIZ:=./peviz}"
BROWSER=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$BROWSER" ]; then
    echo "SKIP test_slides: no browser (Debian: apt-get install chromium)"
    echo "test_slides: 0 passed, 0 failed, 1 skipped"
    exit 0
fi
exec python3 tests/e2e/slides.py "$PEVIZ" "$BROWSER"
