#!/usr/bin/env bash
# Checks that a program built with the Passmint product alone (default: the passmint-example-sign example, built
# first with `swift build --product passmint-example-sign`) links none of the libraries of the preview (libzint,
# libqrencode) or of the service's store (libsqlite3). Exits 1 naming each one it links.
#   scripts/check-example-links.sh [path of the program]
set -euo pipefail
cd "$(dirname "$0")/.."
program=${1:-$(swift build --show-bin-path)/passmint-example-sign}
[ -x "$program" ] || { echo "check-example-links: $program does not exist (swift build --product passmint-example-sign)" >&2; exit 1; }
linked=$(ldd "$program")
failed=0
for library in libzint libqrencode libsqlite3; do
    if grep -q "$library" <<<"$linked"; then
        echo "check-example-links: $program links $library ($(grep "$library" <<<"$linked" | awk '{print $1}' | head -1))" >&2
        failed=1
    fi
done
[ $failed -eq 0 ] && echo "check-example-links: $(basename "$program") links none of libzint, libqrencode, libsqlite3"
exit $failed
