#!/usr/bin/env bash
# The classic way to make passes, for comparison with `passmint bench`: per pass, write pass.json, hash every file
# into manifest.json (sha1sum), sign it with `openssl smime -sign`, and `zip` the folder. Same template, same
# development key, same number of passes.
#   scripts/bench-classic.sh [passes] [jobs]     (defaults: 500 passes, 1 job)
set -euo pipefail
cd "$(dirname "$0")/.."
passes=${1:-500}
jobs=${2:-1}
chain=Certificates/dev
[ -f "$chain/signer.pem" ] || Certificates/make-dev-chain.sh >/dev/null
bin=".build/release/passmint"
[ -x "$bin" ] || swift build -c release --product passmint >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One rendered pass.json to start from (the loyalty template with its sample data), made by Passmint once.
"$bin" create PassTemplates/Loyalty.pass --data PassTemplates/Loyalty.json --certificates "$chain" --output "$work/sample.pkpass" 2>/dev/null >/dev/null
unzip -q -p "$work/sample.pkpass" pass.json > "$work/pass.json"
serial=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["serialNumber"])' "$work/pass.json")

one_pass() {
    local i=$1 dir="$work/p$1"
    mkdir -p "$dir"
    cp PassTemplates/Loyalty.pass/*.png "$dir/"
    sed "s/$serial/CLASSIC-$i/" "$work/pass.json" > "$dir/pass.json"
    (
        cd "$dir"
        printf '{' > manifest.json
        first=1
        for file in *.png pass.json; do
            [ $first = 1 ] || printf ',' >> manifest.json
            first=0
            printf '"%s":"%s"' "$file" "$(sha1sum "$file" | cut -d' ' -f1)" >> manifest.json
        done
        printf '}' >> manifest.json
        openssl smime -binary -sign -certfile "$OLDPWD/$chain/wwdr.pem" -signer "$OLDPWD/$chain/signer.pem" \
            -inkey "$OLDPWD/$chain/signer.key" -in manifest.json -out signature -outform DER
        zip -q -r "../CLASSIC-$i.pkpass" .
    )
    rm -rf "$dir"
}
export -f one_pass
export work chain serial

start=$(date +%s.%N)
seq 1 "$passes" | xargs -P "$jobs" -I{} bash -c 'one_pass {}'
end=$(date +%s.%N)
made=$(ls "$work"/CLASSIC-*.pkpass | wc -l)
scripts/check-pkpass.sh "$work/CLASSIC-1.pkpass" "$chain/root.pem" >/dev/null
python3 - "$made" "$start" "$end" "$jobs" <<'PY'
import sys
made, start, end, jobs = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
print(f"classic openssl smime + zip: {made} passes in {end - start:.2f} s with {jobs} job(s): {made / (end - start):.1f} passes/s")
PY
