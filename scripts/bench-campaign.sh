#!/usr/bin/env bash
# The campaign benchmark: passes with registered devices (SINGLE passes with a device each, SHARED devices holding 5
# passes each), one bulk update (POST /api/v1/updates) touching every pass, pushes drained over HTTP/2 + TLS with
# client certificates to the APNs stand-in on loopback (the tests' MockAPNsServer, multi-threaded; the driver is
# PassmintCampaign, sources in Benchmarks/).
# Four runs: SQLite with one node, the same with a kill -9 of the node in the middle of the job (restarted at once),
# PostgreSQL with two nodes draining one queue, and the same with a kill -9. Each prints rows/s committed, pushes/s,
# pushes against distinct (device, pass type) pairs, time to drain and pushes lost, beside the same run's limits: the
# lazy import of the same rows, what the stand-in takes from a bare HTTP/2 client, and what the APNs client pushes to
# the same stand-in on its own. The driver is an executable target of the root package, so passmint and the driver
# share one release build.
#   scripts/bench-campaign.sh [SINGLE, default 100000] [SHARED, default 20000]
# Extra options for every run go in CAMPAIGN_OPTIONS, e.g. CAMPAIGN_OPTIONS="--stand-in-threads 8 --apns-auth token".
# BENCH_CONFIGURATION=debug builds both in debug (a quick check that the driver works; say so beside any figures).
set -euo pipefail
cd "$(dirname "$0")/.."
single=${1:-100000}
shared=${2:-20000}
[ -f Certificates/dev/signer.pem ] || Certificates/make-dev-chain.sh >/dev/null
config=${BENCH_CONFIGURATION:-release}
swift build -c "$config" --product passmint >/dev/null
swift build -c "$config" --product PassmintCampaign >/dev/null
bin_path=$(swift build -c "$config" --show-bin-path)
bin=$bin_path/passmint
campaign=$bin_path/PassmintCampaign
read -r -a extra <<<"${CAMPAIGN_OPTIONS:-}"
pg=$(mktemp -d /tmp/passmint-campaign-pg.XXXXXX)
chmod o+rx "$pg"
trap 'scripts/postgres-test-server.sh stop "$pg" >/dev/null 2>&1 || true; rm -rf "$pg"' EXIT
base=$(scripts/postgres-test-server.sh start "$pg" 55498)
fresh() {
    local name="campaign_$RANDOM$RANDOM"
    psql "$base" -q -c "CREATE DATABASE $name" >/dev/null
    # The server's URL ends in ?sslmode=…&sslrootcert=<path>: the database's name is replaced before the query.
    local address=${base%%\?*} query=""
    [[ $base == *\?* ]] && query="?${base#*\?}"
    echo "${address%/*}/$name$query"
}
echo "== machine: $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), $config build"
"$campaign" --binary "$bin" --single "$single" --shared "$shared" "${extra[@]}"
"$campaign" --binary "$bin" --single "$single" --shared "$shared" "${extra[@]}" --kill 1
"$campaign" --binary "$bin" --single "$single" --shared "$shared" "${extra[@]}" --database "$(fresh)" --nodes 2
"$campaign" --binary "$bin" --single "$single" --shared "$shared" "${extra[@]}" --database "$(fresh)" --nodes 2 --kill 1
