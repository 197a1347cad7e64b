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
#   scripts/bench-campaign.sh [--stores sqlite|postgres|both] [--kill yes|no|both] [SINGLE, default 100000] [SHARED, default 20000]
# --stores and --kill pick the runs (default both and both: all four); e.g. `--stores postgres --kill no 20000 4000` is
# the PostgreSQL run alone at a fifth of the size, for iterating.
# Extra options for every run go in CAMPAIGN_OPTIONS, e.g. CAMPAIGN_OPTIONS="--stand-in-threads 8 --apns-auth token".
# BENCH_CONFIGURATION=debug builds both in debug (a quick check that the driver works; say so beside any figures).
# PASSMINT_BENCH_BIN=<passmint binary> measures another build (e.g. an older commit's, for before/after figures) with
# the driver built beside it, or PASSMINT_CAMPAIGN_BIN=<PassmintCampaign binary>; nothing is built then.
set -euo pipefail
cd "$(dirname "$0")/.."
stores=both
kills=both
while [[ ${1:-} == --* ]]; do
    case "$1" in
    --stores) stores=${2:-} ;;
    --kill) kills=${2:-} ;;
    *) echo "unknown option $1 (give --stores sqlite|postgres|both, --kill yes|no|both)" >&2 && exit 2 ;;
    esac
    shift 2
done
[[ $stores =~ ^(sqlite|postgres|both)$ ]] || { echo "--stores $stores: give sqlite, postgres or both" >&2 && exit 2; }
[[ $kills =~ ^(yes|no|both)$ ]] || { echo "--kill $kills: give yes, no or both" >&2 && exit 2; }
single=${1:-100000}
shared=${2:-20000}
[ -f Certificates/dev/signer.pem ] || Certificates/make-dev-chain.sh >/dev/null
config=${BENCH_CONFIGURATION:-release}
if [ -n "${PASSMINT_BENCH_BIN:-}" ]; then
    bin=$PASSMINT_BENCH_BIN
    campaign=${PASSMINT_CAMPAIGN_BIN:-$(dirname "$bin")/PassmintCampaign}
    config="given ($bin)"
else
    swift build -c "$config" --product passmint >/dev/null
    swift build -c "$config" --product PassmintCampaign >/dev/null
    bin_path=$(swift build -c "$config" --show-bin-path)
    bin=$bin_path/passmint
    campaign=${PASSMINT_CAMPAIGN_BIN:-$bin_path/PassmintCampaign}
fi
[ -x "$bin" ] || { echo "no passmint binary at $bin" >&2 && exit 2; }
[ -x "$campaign" ] || { echo "no PassmintCampaign binary at $campaign: give PASSMINT_CAMPAIGN_BIN" >&2 && exit 2; }
read -r -a extra <<<"${CAMPAIGN_OPTIONS:-}"
pg=$(mktemp -d /tmp/passmint-campaign-pg.XXXXXX)
chmod o+rx "$pg"
trap 'scripts/postgres-test-server.sh stop "$pg" >/dev/null 2>&1 || true; rm -rf "$pg"' EXIT
# Any free port: two helpers benchmarking at once never share a server.
base=$(scripts/postgres-test-server.sh start "$pg" 0)
fresh() {
    local name="campaign_$RANDOM$RANDOM"
    psql "$base" -q -c "CREATE DATABASE $name" >/dev/null
    # The server's URL ends in ?sslmode=…&sslrootcert=<path>: the database's name is replaced before the query.
    local address=${base%%\?*} query=""
    [[ $base == *\?* ]] && query="?${base#*\?}"
    echo "${address%/*}/$name$query"
}
echo "== machine: $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), $config build"
run() { "$campaign" --binary "$bin" --single "$single" --shared "$shared" "${extra[@]}" "$@"; }
if [ "$stores" != postgres ]; then
    [ "$kills" = yes ] || run
    [ "$kills" = no ] || run --kill 1
fi
if [ "$stores" != sqlite ]; then
    [ "$kills" = yes ] || run --database "$(fresh)" --nodes 2
    [ "$kills" = no ] || run --database "$(fresh)" --nodes 2 --kill 1
fi
