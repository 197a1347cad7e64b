#!/usr/bin/env bash
# Independent check of a .pkpass with tools that are not Passmint: unzip, Python's hashlib and the openssl CLI.
#   scripts/check-pkpass.sh <file.pkpass> <root-ca.pem>
# Checks: the zip tests clean; manifest.json lists every file except manifest.json and signature, with the right
# SHA-1; signature is a DER PKCS#7 detached signature over manifest.json that verifies to the given root; the
# signature carries the signing-time attribute and at least two certificates (signer + intermediate).
set -euo pipefail
pass="$1"
root="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

unzip -tq "$pass" >/dev/null || { echo "FAIL $pass: unzip -t found a damaged archive" >&2; exit 1; }
unzip -q "$pass" -d "$work/p"

python3 - "$work/p" "$pass" <<'PY'
import hashlib, json, os, sys
root, name = sys.argv[1], sys.argv[2]
with open(os.path.join(root, "manifest.json"), "rb") as f:
    manifest = json.load(f)
files = set()
for folder, _, names in os.walk(root):
    for n in names:
        rel = os.path.relpath(os.path.join(folder, n), root).replace(os.sep, "/")
        if rel not in ("manifest.json", "signature"):
            files.add(rel)
problems = []
if set(manifest) != files:
    problems.append(f"manifest keys {sorted(set(manifest) ^ files)} differ from the files")
for rel in files & set(manifest):
    with open(os.path.join(root, rel), "rb") as f:
        digest = hashlib.sha1(f.read()).hexdigest()
    if manifest[rel] != digest:
        problems.append(f"{rel}: manifest says {manifest[rel]}, file hashes to {digest}")
json.load(open(os.path.join(root, "pass.json"), "rb"))
if problems:
    print(f"FAIL {name}: " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
PY

openssl smime -verify -binary -inform DER -content "$work/p/manifest.json" -in "$work/p/signature" \
    -CAfile "$root" -purpose any -out /dev/null 2>"$work/verify.log" \
    || { echo "FAIL $pass: openssl smime -verify: $(cat "$work/verify.log")" >&2; exit 1; }

printed=$(openssl cms -cmsout -print -inform DER -in "$work/p/signature")
grep -q "signingTime" <<<"$printed" || { echo "FAIL $pass: the signature has no signing-time attribute" >&2; exit 1; }
certs=$(openssl pkcs7 -inform DER -in "$work/p/signature" -print_certs | grep -c "^subject=" || true)
[ "$certs" -ge 2 ] || { echo "FAIL $pass: the signature carries $certs certificate(s); the WWDR intermediate is missing" >&2; exit 1; }

echo "ok $pass (zip, manifest SHA-1s, signature to $(basename "$root"), signing time, $certs certificates)"
