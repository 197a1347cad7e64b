#!/usr/bin/env bash
# Load benchmark of `passmint serve` with wrk on loopback, beside nginx serving a small static file as this
# machine's HTTP ceiling. Every run is bounded in time; the server and wrk share the machine's cores.
#   scripts/bench-service.sh [seconds per endpoint, default 10] [connections, default 64]
# PASSMINT_BENCH_BIN=<passmint binary> measures another build (e.g. an older commit's, for before/after figures).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh
seconds=${1:-10}
connections=${2:-64}
command -v wrk >/dev/null && command -v nginx >/dev/null || { sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo; $sudo apt-get install -y -qq wrk nginx-light >/dev/null; }
bin=${PASSMINT_BENCH_BIN:-.build/release/passmint}
[ -n "${PASSMINT_BENCH_BIN:-}" ] || swift build -c release --product passmint >/dev/null
[ -f Certificates/dev/signer.pem ] || Certificates/make-dev-chain.sh >/dev/null

work=$(mktemp -d)
chmod 755 "$work"   # nginx's workers (another user) read the static file
# Free ports only: each server binds port 0 and prints the port it took; nginx gets one the kernel just handed out.
nginx_port=$(free_port)
export PASSMINT_API_KEY="bench-api-key-0123456789"
cleanup() {
    [ -n "${busy_pid:-}" ] && kill "$busy_pid" 2>/dev/null || true
    [ -n "${server_pid:-}" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
    [ -n "${router_pid:-}" ] && kill "$router_pid" 2>/dev/null && wait "$router_pid" 2>/dev/null || true
    [ -n "${postgres_pid:-}" ] && kill "$postgres_pid" 2>/dev/null && wait "$postgres_pid" 2>/dev/null || true
    [ -n "${pg_dir:-}" ] && scripts/postgres-test-server.sh stop "$pg_dir/pg" && rm -rf "$pg_dir"
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
# The port a server started with --port 0 listens on ($1: its log).
listening_port() { local base; base=$(listening_base "$1") && echo "${base##*:}"; }

LOG_LEVEL=warning "$bin" serve --port 0 --public-url https://passes.example.test/wallet --database-url "$work/bench.sqlite" \
    --certificates Certificates/dev --apns-url https://127.0.0.1:9 >"$work/server.log" 2>&1 &
server_pid=$!
# The same service with --no-fast-path: every request through Hummingbird's router (for comparison).
LOG_LEVEL=warning "$bin" serve --port 0 --public-url https://passes.example.test/wallet --database-url "$work/router.sqlite" \
    --certificates Certificates/dev --apns-url https://127.0.0.1:9 --no-fast-path >"$work/router.log" 2>&1 &
router_pid=$!
port=$(listening_port "$work/server.log")
router_port=$(listening_port "$work/router.log")

# nginx serving a 1 KB file: the ceiling for this machine.
mkdir -p "$work/www" "$work/nginx"
head -c 1024 /dev/zero | tr '\0' 'x' > "$work/www/small.txt"
cat > "$work/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/nginx; proxy_temp_path $work/nginx; fastcgi_temp_path $work/nginx; uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
    server { listen 127.0.0.1:$nginx_port; root $work/www; }
}
CONF
nginx -c "$work/nginx.conf" -p "$work"

# Seed each server: one pass, one registered device (the same token on both, given in the data).
serial="BENCH-1"
token="bench-token-0123456789abcdef"
for p in $port $router_port; do
    curl -sf -X POST "http://127.0.0.1:$p/api/v1/passes" -H "Authorization: Bearer $PASSMINT_API_KEY" -H "Accept: application/json" \
        -H "Content-Type: application/json" -d "{\"template\":\"Loyalty\",\"data\":$(python3 -c 'import json, sys; d=json.load(open("PassTemplates/Loyalty.json")); d["serialNumber"]="BENCH-1"; d["authenticationToken"]=sys.argv[1]; print(json.dumps(d))' "$token")}" >/dev/null
    curl -sf -X POST "http://127.0.0.1:$p/wallet/v1/devices/benchdevice/registrations/pass.dev.passmint.example/$serial" \
        -H "Authorization: ApplePass $token" -H "Content-Type: application/json" -d '{"pushToken":"00ff"}' >/dev/null
done
last_modified=$(curl -sf -o /dev/null -D - "http://127.0.0.1:$port/wallet/v1/passes/pass.dev.passmint.example/$serial" -H "Authorization: ApplePass $token" | tr -d '\r' | sed -n 's/^[Ll]ast-[Mm]odified: //p')
router_last_modified=$(curl -sf -o /dev/null -D - "http://127.0.0.1:$router_port/wallet/v1/passes/pass.dev.passmint.example/$serial" -H "Authorization: ApplePass $token" | tr -d '\r' | sed -n 's/^[Ll]ast-[Mm]odified: //p')
export PASSMINT_BENCH_TOKEN=$token PASSMINT_BENCH_SERIAL=$serial

run() {
    local name=$1; shift
    local out
    local threads=2
    [ "$connections" -lt 2 ] && threads=1
    out=$(wrk -t"$threads" -c"$connections" -d"${seconds}s" --latency "$@")
    python3 - "$name" <<PY
import re, sys
text = """$out"""
rps = re.search(r"Requests/sec:\s+([\d.]+)", text).group(1)
def pct(p):
    m = re.search(r"^\s+%s%%\s+([\d.]+)(us|ms|s)\s*$" % p, text, re.M)
    value, unit = float(m.group(1)), m.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
print(f"| {sys.argv[1]} | {float(rps):,.0f} | {pct(50):.2f} | {pct(99):.2f} | {errors.group(1) if errors else 0} |")
requests = re.search(r"(\d+) requests in", text).group(1)
open("$work/last", "w").write(f"{float(rps)} {pct(50)} {requests} {pct(99)}\n")
PY
}
# Keeps a row's requests/s and p99 under a name, for the ratios printed at the end.
keep() { read -r rps _ _ p99 <"$work/last"; echo "$1 $rps $p99" >>"$work/figures"; }
# The raw signing rate of the service's key on every core, as `passmint bench` measures it (SigningSpeed: the same
# signing set-up as a pass's, one thread per core); the issuing rows are compared with it.
raw_signing() {
    "$bin" bench --passes 100 --json --certificates Certificates/dev --sign-seconds 4 --file-seconds 0.2 --openssl-seconds 1 |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["rawSignaturesPerSecond"])'
}
# One process keeping one core busy for the loaded rows (a machine shared with other work).
busy_pid=""
busy() { yes >/dev/null & busy_pid=$!; }
idle() { if [ -n "$busy_pid" ]; then kill "$busy_pid"; wait "$busy_pid" 2>/dev/null || true; fi; busy_pid=""; }

# CPU ticks of PostgreSQL (the postmaster and its children).
postgres_ticks() { tree_ticks "$(head -n 1 "$pg_dir/pg/data/postmaster.pid")"; }
# A PostgreSQL row, then what each 1,000 of its requests cost in CPU: the node's and PostgreSQL's (steadier than the
# rate on a machine whose speed drifts, and the rate is bound by commit latency when fsyncs are slow).
costed() {
    local before_node before_postgres requests
    before_node=$(ticks "$postgres_pid")
    before_postgres=$(postgres_ticks)
    run "$@"
    read -r _ _ requests _ <"$work/last"
    echo "|   (CPU per 1,000 requests: passmint $((($(ticks "$postgres_pid") - before_node) * 10000 / requests)) ms, PostgreSQL $((($(postgres_ticks) - before_postgres) * 10000 / requests)) ms) | | | | |"
}

echo "wrk -t2 -c$connections -d${seconds}s on $(nproc) cores ($(date -u +%Y-%m-%dT%H:%MZ))"
echo
echo "| endpoint | requests/s | p50 ms | p99 ms | non-2xx/3xx |"
echo "|---|---|---|---|---|"
# The device rows, quiet and then loaded (one core busy with another process), each beside nginx in the same state.
device_rows() {
    local label=$1
    run "nginx, 1 KB static file (ceiling)$label" "http://127.0.0.1:$nginx_port/small.txt"
    keep "nginx$label"
    run "passmint GET /health (its HTTP stack alone)$label" "http://127.0.0.1:$port/health"
    run "serial-number poll (200)$label" "http://127.0.0.1:$port/wallet/v1/devices/benchdevice/registrations/pass.dev.passmint.example"
    keep "poll$label"
    run "latest pass, 304$label" -H "Authorization: ApplePass $token" -H "If-Modified-Since: $last_modified" \
        "http://127.0.0.1:$port/wallet/v1/passes/pass.dev.passmint.example/$serial"
    keep "304$label"
}
device_rows ""
busy
device_rows ", loaded"
idle
# Many devices and passes, each answered from its own cache entry.
since=$(scripts/bench-seed.py $port 2000 "$token")
export PASSMINT_BENCH_SINCE=$since
PASSMINT_BENCH_SPREAD=poll run "serial-number poll, 2,000 devices at random" -s scripts/wrk/spread.lua "http://127.0.0.1:$port"
PASSMINT_BENCH_SPREAD=pass run "latest pass 304, 2,000 passes at random" -s scripts/wrk/spread.lua "http://127.0.0.1:$port"
# The same poll while devices keep registering (one connection, 1 ms pause): every commit makes the cached answers
# stale, so most polls read the store. The registrations' own rate is the next row.
PASSMINT_BENCH_SERIAL=SPREAD-0 PASSMINT_BENCH_DELAY_MS=1 wrk -t1 -c1 -d"$((seconds + 1))s" --latency -s scripts/wrk/register.lua \
    "http://127.0.0.1:$port" > "$work/side.txt" &
side_pid=$!
PASSMINT_BENCH_SPREAD=poll run "serial-number poll, 2,000 devices, registrations arriving beside it" -s scripts/wrk/spread.lua "http://127.0.0.1:$port"
wait "$side_pid"
python3 - "$work/side.txt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
print(f"|   (registrations beside it, 1 connection: {rps:,.0f}/s) | | | | |")
PY
run "serial-number poll, --no-fast-path (router)" "http://127.0.0.1:$router_port/wallet/v1/devices/benchdevice/registrations/pass.dev.passmint.example"
run "latest pass 304, --no-fast-path (router)" -H "Authorization: ApplePass $token" -H "If-Modified-Since: $router_last_modified" "http://127.0.0.1:$router_port/wallet/v1/passes/pass.dev.passmint.example/$serial"
run "registration (durable write), every device on one pass" -s scripts/wrk/register.lua "http://127.0.0.1:$port"
PASSMINT_BENCH_SPREAD_COUNT=2000 run "registration (durable write), 2,000 passes at random" -s scripts/wrk/register.lua "http://127.0.0.1:$port"
raw_before=$(raw_signing)
run "on-demand issuing, POST /api/v1/passes" -s scripts/wrk/issue.lua "http://127.0.0.1:$port"
read -r peak _ < "$work/last"
raw_after=$(raw_signing)
echo "|   (raw signing, same key, $(nproc) threads, before and after: $(python3 -c "print(f'{$raw_before:,.0f} and {$raw_after:,.0f}/s')")) | | | | |"
# The peak run leaves tens of MB of written pages for the kernel to flush: let that finish before measuring latency.
sync
sleep 3
connections_saved=$connections
connections=1
run "on-demand issuing, 1 connection" -s scripts/wrk/issue.lua "http://127.0.0.1:$port"
read -r _ single_p50 _ < "$work/last"
# Half the peak rate: 16 paced connections, each waiting so that 16 x 1000 / (delay + latency) = peak / 2 (wrk's pause
# is whole milliseconds: with 16 connections one millisecond moves the rate by about 7 %, with 4 by about 25 %).
connections=16
delay=$(python3 -c "print(max(0, round(16 * 1000 / ($peak / 2) - $single_p50)))")
# Calibrate once (a short run not reported): under load the latency is longer than alone, so the rate falls short of
# half the peak; take the delay that gives half the peak at the latency measured in that run.
seconds_saved=$seconds
seconds=3
PASSMINT_BENCH_DELAY_MS=$delay run "calibration" -s scripts/wrk/issue.lua "http://127.0.0.1:$port" >/dev/null
read -r calibration_rate _ < "$work/last"
delay=$(python3 -c "latency = 16 * 1000 / $calibration_rate - $delay; print(max(0, round(16 * 1000 / ($peak / 2) - latency)))")
seconds=$seconds_saved
# Three runs: on this shared VM one run's p99 can be several times another's. Each row says the rate it reached.
for attempt in 1 2 3; do
    PASSMINT_BENCH_DELAY_MS=$delay run "on-demand issuing, paced (16 connections, ${delay} ms pause), run $attempt" -s scripts/wrk/issue.lua "http://127.0.0.1:$port"
    read -r rate _ < "$work/last"
    echo "|   (reached $(python3 -c "print(f'{$rate / $peak:.0%}')") of the peak) | | | | |"
done
connections=$connections_saved

# The same service on PostgreSQL (one node of a fleet, its change feed listening): the cached poll and a durable
# registration. Skipped when PostgreSQL cannot start here.
pg_dir=$(mktemp -d /tmp/passmint-bench-pg.XXXXXX)
chmod 755 "$pg_dir"
pg_port=0  # the server binds a free port itself; the URL it prints names it
if pg_url=$(scripts/postgres-test-server.sh start "$pg_dir/pg" "$pg_port" 2>"$work/postgres.log"); then
    LOG_LEVEL=warning "$bin" serve --port 0 --public-url https://passes.example.test/wallet --database-url "$pg_url" \
        --certificates Certificates/dev --apns-url https://127.0.0.1:9 >"$work/postgres-server.log" 2>&1 &
    postgres_pid=$!
    postgres_port=$(listening_port "$work/postgres-server.log")
    curl -sf -X POST "http://127.0.0.1:$postgres_port/api/v1/passes" -H "Authorization: Bearer $PASSMINT_API_KEY" -H "Accept: application/json" \
        -H "Content-Type: application/json" -d "{\"template\":\"Loyalty\",\"data\":$(python3 -c 'import json, sys; d=json.load(open("PassTemplates/Loyalty.json")); d["serialNumber"]="BENCH-1"; d["authenticationToken"]=sys.argv[1]; print(json.dumps(d))' "$token")}" >/dev/null
    curl -sf -X POST "http://127.0.0.1:$postgres_port/wallet/v1/devices/benchdevice/registrations/pass.dev.passmint.example/$serial" \
        -H "Authorization: ApplePass $token" -H "Content-Type: application/json" -d '{"pushToken":"00ff"}' >/dev/null
    run "serial-number poll, PostgreSQL (cached)" "http://127.0.0.1:$postgres_port/wallet/v1/devices/benchdevice/registrations/pass.dev.passmint.example"
    costed "registration, PostgreSQL (durable write), every device on one pass" -s scripts/wrk/register.lua "http://127.0.0.1:$postgres_port"
    scripts/bench-seed.py $postgres_port 2000 "$token" >/dev/null
    PASSMINT_BENCH_SPREAD_COUNT=2000 costed "registration, PostgreSQL (durable write), 2,000 passes at random" -s scripts/wrk/register.lua \
        "http://127.0.0.1:$postgres_port"
else
    echo "(PostgreSQL rows skipped: $(tail -n 1 "$work/postgres.log"))"
fi

# The targets' ratios, each against its ceiling measured in the same run.
echo
echo "| ratio, same run | quiet | loaded (one core busy) |"
echo "|---|---|---|"
python3 - "$work/figures" "$peak" "$raw_before" "$raw_after" <<'PY'
import sys
figures = {name: (float(rps), float(p99)) for name, rps, p99 in (line.rsplit(" ", 2) for line in open(sys.argv[1]).read().splitlines())}
def cell(row, suffix):
    rps, p99 = figures[row + suffix]
    nginx_rps, nginx_p99 = figures["nginx" + suffix]
    return f"{rps / nginx_rps:.2f} × nginx, p99 {p99 / nginx_p99:.2f} × nginx's"
for row, name in (("poll", "serial-number poll"), ("304", "latest pass, 304")):
    print(f"| {name} | {cell(row, '')} | {cell(row, ', loaded')} |")
peak, raw = float(sys.argv[2]), (float(sys.argv[3]) + float(sys.argv[4])) / 2
print(f"| on-demand issuing (peak) | {peak / raw:.2f} × the raw signing rate ({peak:,.0f} / {raw:,.0f}) | |")
PY

# Memory of each server process after its runs: resident now and at its peak (the kernel's VmRSS and VmHWM).
echo
echo "| server process | resident MB | peak resident MB |"
echo "|---|---|---|"
memory() {
    [ -r "/proc/$2/status" ] || return 0
    awk -v name="$1" '/^VmRSS:/ { rss = $2 } /^VmHWM:/ { hwm = $2 } END { printf "| %s | %.0f | %.0f |\n", name, rss / 1024, hwm / 1024 }' "/proc/$2/status"
}
memory "passmint serve, SQLite (every row above but the router and PostgreSQL ones)" "$server_pid"
memory "passmint serve --no-fast-path, SQLite" "$router_pid"
memory "passmint serve, PostgreSQL" "${postgres_pid:-0}"
