#!/usr/bin/env bash
# The whole test suite: install what is missing, start a throw-away PostgreSQL server, build with warnings as
# errors, run every test (both store backends), stop the server.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-dependencies.sh
# Every temporary file of the run (the tests' folders, the PostgreSQL server's) in one folder, removed at the end: a
# run leaves nothing behind in /tmp. Readable by others: the server runs as the 'postgres' user when this is root.
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/passmint-test-run.XXXXXX")
chmod 755 "$run_tmp"
export TMPDIR=$run_tmp
pg_dir="$run_tmp/passmint-postgres"
trap 'scripts/postgres-test-server.sh stop "$pg_dir"; rm -rf "$run_tmp"' EXIT
pg_port=${PASSMINT_TEST_POSTGRES_PORT:-0}  # 0: the server takes a free port, and the URL printed names it
# connect_timeout=180: with a few hundred connections opening at once under the whole suite's load, a connection can
# wait longer than the default 10 s (seen in CI: every PostgreSQL test of one moment failed to connect; 30 s was once
# not enough, with a second whole suite running on the same two cores, and 60 s once on an idle machine, when the
# suite's own peak held its push rounds for 13-40 s and its log silent for 22 s).
PASSMINT_TEST_POSTGRES_URL="$(scripts/postgres-test-server.sh start "$pg_dir" "$pg_port")&connect_timeout=180"
export PASSMINT_TEST_POSTGRES_URL
# Every suite runs here: one needing PostgreSQL or Chromium, which a plain `swift test` skips when they are missing,
# fails instead (TestEnvironment.requiresAll).
export PASSMINT_TEST_REQUIRE_ALL=1
# One build graph: the tests and the benchmarks' drivers (PassmintCampaign, PassmintGoogleBench: executable targets of
# this package) are built together, every module once.
swift build --build-tests
# The campaign driver for CampaignTests, from the same build.
PASSMINT_TEST_CAMPAIGN_DRIVER="$(swift build --show-bin-path)/PassmintCampaign"
export PASSMINT_TEST_CAMPAIGN_DRIVER
# A program that only signs passes links none of the preview's or the service's C libraries.
swift build --product passmint-example-sign
scripts/check-example-links.sh
# The container files: hadolint, the Kubernetes schemas, compose's structure, and the image's runtime packages
# against what the built passmint links (docs/deploy.md).
scripts/check-deploy.sh
# The issuing API's OpenAPI document is valid (and the checker's PyPI packages are there before the suite needs them);
# every /api/v1 answer the server tests receive is recorded and, after the run, checked against it (docs/testing.md).
scripts/check-openapi.sh document Sources/PassmintServer/Resources/openapi.json
export PASSMINT_TEST_API_EXCHANGES="$run_tmp/api-exchanges.jsonl"
# A failed run shows what the PostgreSQL server refused (a connection limit, a lock), which the tests only see as waiting.
# A hang fails the run after 12 minutes without a test finishing, naming the tests that never finished.
scripts/watch-tests.sh 12 swift test || {
    echo "the PostgreSQL server's complaints during the run:" >&2
    grep -E "FATAL|PANIC" "$pg_dir/server.log" | sed -E 's/^[^ ]+ [^ ]+ [^ ]+ [^ ]+ //' | sort | uniq -c | sort -rn | head -20 >&2 || true
    exit 1
}
scripts/check-openapi.sh answers Sources/PassmintServer/Resources/openapi.json "$PASSMINT_TEST_API_EXCHANGES"
# Each fuzz target briefly (a longer run: scripts/fuzz.sh 600); a crash fails the suite.
scripts/fuzz.sh "${PASSMINT_FUZZ_SECONDS:-15}"
