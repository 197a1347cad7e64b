#!/usr/bin/env bash
# Independent check of a Wallet order package (.order) with tools that are not Passmint: Python's zipfile and
# hashlib, and the openssl CLI.
#   scripts/check-order.sh <file.order> <root-ca.pem>
# Checks: Python's zipfile reads the archive (CRCs tested); manifest.json lists every file except manifest.json and
# signature, each with the SHA-256 of its bytes (64 hex digits); order.json is JSON; signature is a DER CMS detached
# signature over manifest.json, with a SHA-256 digest, that `openssl cms -verify` accepts to the given root; it
# carries the signing time and at least two certificates (signer + intermediate), and the signer's UID starts with
# "order.".
set -euo pipefail
order="$1"
root="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$order" "$work/o" <<'PY'
import hashlib, json, re, sys, zipfile
name, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(name) as archive:
    bad = archive.testzip()
    if bad is not None:
        sys.exit(f"FAIL {name}: zipfile found a damaged entry {bad}")
    archive.extractall(out)
    names = set(archive.namelist())
    manifest = json.loads(archive.read("manifest.json"))
    json.loads(archive.read("order.json"))
    problems = []
    files = names - {"manifest.json", "signature"}
    if set(manifest) != files:
        problems.append(f"manifest keys {sorted(set(manifest) ^ files)} differ from the files")
    for rel in sorted(files & set(manifest)):
        digest = hashlib.sha256(archive.read(rel)).hexdigest()
        if not re.fullmatch(r"[0-9a-f]{64}", manifest[rel]):
            problems.append(f"{rel}: {manifest[rel]!r} is not a SHA-256 in lowercase hex")
        elif manifest[rel] != digest:
            problems.append(f"{rel}: manifest says {manifest[rel]}, file hashes to {digest}")
if problems:
    sys.exit(f"FAIL {name}: " + "; ".join(problems))
PY

openssl cms -verify -binary -inform DER -content "$work/o/manifest.json" -in "$work/o/signature" \
    -CAfile "$root" -purpose any -out /dev/null 2>"$work/verify.log" \
    || { echo "FAIL $order: openssl cms -verify: $(cat "$work/verify.log")" >&2; exit 1; }

printed=$(openssl cms -cmsout -print -inform DER -in "$work/o/signature")
grep -q "signingTime" <<<"$printed" || { echo "FAIL $order: the signature has no signing-time attribute" >&2; exit 1; }
grep -q "algorithm: sha256 " <<<"$printed" || { echo "FAIL $order: the signature's digest is not SHA-256" >&2; exit 1; }
subjects=$(openssl pkcs7 -inform DER -in "$work/o/signature" -print_certs | grep "^subject=" || true)
certs=$(grep -c . <<<"$subjects" || true)
[ "$certs" -ge 2 ] || { echo "FAIL $order: the signature carries $certs certificate(s); the WWDR intermediate is missing" >&2; exit 1; }
grep -qi "UID *= *order\." <<<"$subjects" || { echo "FAIL $order: no certificate in the signature has a UID starting with order." >&2; exit 1; }

echo "ok $order (zipfile, manifest SHA-256s, CMS signature to $(basename "$root"), SHA-256 digest, signing time, $certs certificates)"
