#!/usr/bin/env bash
# The main job: install what is missing, build passmint, make the development certificate chain, build a signed
# .pkpass from every template in PassTemplates/ into out/, check each one with independent tools, and draw every
# template as Wallet shows it into out/preview/ (open out/preview/index.html in a browser).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh
swift build -c release --product passmint
bin="$(swift build -c release --show-bin-path)/passmint"
Certificates/make-dev-chain.sh
mkdir -p out
count=0
for template in PassTemplates/*.pass; do
    name=$(basename "$template" .pass)
    data_args=()
    [ -f "PassTemplates/$name.json" ] && data_args=(--data "PassTemplates/$name.json")
    "$bin" create "$template" "${data_args[@]}" --certificates Certificates/dev --output "out/$name.pkpass"
    scripts/check-pkpass.sh "out/$name.pkpass" Certificates/dev/root.pem
    "$bin" verify "out/$name.pkpass" --ca Certificates/dev/root.pem | tail -n 1
    count=$((count + 1))
done
echo "built and verified $count passes in out/"
"$bin" preview PassTemplates --output out/preview
echo "previews of every template: out/preview/index.html"
