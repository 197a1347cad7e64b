#!/usr/bin/env bash
# The Google Wallet benchmark, in one run against the Google stand-in on loopback (the tests' GoogleWalletStandIn,
# multi-threaded; the driver is PassmintGoogleBench, sources in Benchmarks/): first the stand-in's ceiling, object updates (GET + PATCH, as Passmint's
# client makes them) per second from a bare HTTP/1.1 client at the service's concurrency (8 connections); then a
# `passmint serve` on SQLite with a Google service account made at run time (PASSMINT_GOOGLE_* pointing at the
# stand-in) issues PASSES passes with their Google objects, one bulk update touches every pass, and the Google
# object updates per second are measured until the Google outbox is empty (GET /metrics), every object patched
# once and nothing owed. Figures are printed beside the ceiling, with the ratio.
#   scripts/bench-google.sh [PASSES, default 5000]
# BENCH_CONFIGURATION=debug builds both in debug (say so beside the figures). PASSMINT_BENCH_BIN=<passmint binary>
# measures another build (e.g. an older commit's, for before/after figures) with this checkout's driver and stand-in;
# PASSMINT_GOOGLE_BENCH_BIN=<PassmintGoogleBench binary> takes a driver built elsewhere, with the passmint beside it
# unless PASSMINT_BENCH_BIN says otherwise (nothing is built then).
# Extra options go in GOOGLE_BENCH_OPTIONS, e.g. "--stand-in-threads 8".
set -euo pipefail
cd "$(dirname "$0")/.."
passes=${1:-5000}
config=${BENCH_CONFIGURATION:-release}
if [ -n "${PASSMINT_GOOGLE_BENCH_BIN:-}" ]; then
    driver=$PASSMINT_GOOGLE_BENCH_BIN
else
    swift build -c "$config" --product PassmintGoogleBench >/dev/null
    driver=$(swift build -c "$config" --show-bin-path)/PassmintGoogleBench
fi
bin=${PASSMINT_BENCH_BIN:-$(dirname "$driver")/passmint}
[ -n "${PASSMINT_BENCH_BIN:-}${PASSMINT_GOOGLE_BENCH_BIN:-}" ] || swift build -c "$config" --product passmint >/dev/null
read -r -a extra <<<"${GOOGLE_BENCH_OPTIONS:-}"
echo "== machine: $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ), bench $config build, passmint $bin"
"$driver" --binary "$bin" --passes "$passes" "${extra[@]}"
