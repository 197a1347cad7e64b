#!/usr/bin/env bash
# Installs the system packages Passmint needs when they are missing (Debian/Ubuntu). Safe to run again.
set -euo pipefail
needed=(libssl-dev libzip-dev libspng-dev libsqlite3-dev libqrencode-dev libzint-dev pkg-config openssl zip unzip python3 python3-pip postgresql chromium)
missing=()
for package in "${needed[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || { echo "need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
        sudo="sudo"
    fi
    echo "installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# The browser checks drive Chromium over its DevTools protocol and decode barcodes in screenshots (PyPI packages).
if ! python3 -c 'import zxingcpp, PIL' 2>/dev/null; then
    echo "installing (pip): zxing-cpp pillow"
    python3 -m pip install --quiet --disable-pip-version-check zxing-cpp pillow \
        || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages zxing-cpp pillow
fi
# Google Wallet save links are checked by an independent JWT library (PyJWT, with cryptography for RS256); the Apple
# Pay test vectors (Tests/ApplePay/make_tokens.py) are made with cryptography too.
if ! python3 -c 'import jwt, cryptography' 2>/dev/null; then
    echo "installing (pip): pyjwt cryptography"
    python3 -m pip install --quiet --disable-pip-version-check pyjwt cryptography \
        || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages pyjwt cryptography
fi
