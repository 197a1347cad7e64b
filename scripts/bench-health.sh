#!/usr/bin/env bash
# `/health` while the service is under the heavy loads of issue 32, in one run: /health alone, then /health while a
# template publish job runs over every pass, a storm of previews renders (each with a long back text full of links),
# and a slow-body attack holds connections (each sends a request head and a body byte every 2 s). Release build,
# SQLite, loopback; the figures to compare are the two /health rows of the same run.
#   scripts/bench-health.sh [passes, default 3000] [seconds, default 15]
# PASSMINT_BENCH_BIN=<passmint binary> measures another build (e.g. an older commit's, for before/after figures).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh
passes=${1:-3000}
seconds=${2:-15}
command -v wrk >/dev/null || { sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo; $sudo apt-get install -y -qq wrk >/dev/null; }
bin=${PASSMINT_BENCH_BIN:-.build/release/passmint}
[ -n "${PASSMINT_BENCH_BIN:-}" ] || swift build -c release --product passmint >/dev/null
[ -f Certificates/dev/signer.pem ] || Certificates/make-dev-chain.sh >/dev/null

work=$(mktemp -d)
export PASSMINT_API_KEY="bench-api-key-0123456789"
cleanup() {
    for pid in ${side_pids:-} ${server_pid:-}; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

LOG_LEVEL=warning "$bin" serve --port 0 --public-url https://passes.example.test/wallet --database-url "$work/health.sqlite" \
    --certificates Certificates/dev --apns-url https://127.0.0.1:9 >"$work/server.out" 2>"$work/server.log" &
server_pid=$!
base=$(listening_base "$work/server.out" "$work/server.log")
port=${base##*:}
token="bench-token-0123456789abcdef"
scripts/bench-seed.py "$port" "$passes" "$token" >/dev/null

health() {  # prints "p50 p99 requests/s" of GET /health on 4 connections
    wrk -t1 -c4 -d"${seconds}s" --latency "$base/health" | python3 -c '
import re, sys
text = sys.stdin.read()
def pct(p):
    value, unit = re.search(r"^\s+%s%%\s+([\d.]+)(us|ms|s)\s*$" % p, text, re.M).groups()
    return float(value) / 1000 if unit == "us" else float(value) * 1000 if unit == "s" else float(value)
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
print(f"{pct(50):.2f} {pct(99):.2f} {rps:.0f}")'
}

read -r alone50 alone99 alone_rps < <(health)

# Beside it: publish jobs over every pass, one after another.
(
    for i in $(seq 1 20); do
        curl -sf -X POST "$base/api/v1/templates/Loyalty/publish" -H "Authorization: Bearer $PASSMINT_API_KEY" \
            -H "Content-Type: application/json" -d "{\"data\":{\"tier\":\"Round $i\"}}" >/dev/null
    done
) &
side_pids="$!"
# A preview storm: 8 clients, each a template preview with 8 KB of text full of links.
python3 - "$base" "$work/previews" <<'PY' &
import http.client, json, os, sys, threading, time, urllib.parse
base, out = sys.argv[1], sys.argv[2]
url = urllib.parse.urlparse(base)
body = json.dumps({"memberName": "see https://example.com/offers and mail@example.com " * 160})
count = [0]
def storm():
    connection = http.client.HTTPConnection(url.hostname, url.port)
    while True:
        connection.request("POST", "/api/v1/templates/Loyalty/preview", body=body,
                           headers={"Authorization": "Bearer " + os.environ["PASSMINT_API_KEY"], "Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        count[0] += 1
        open(out, "w").write(str(count[0]))
for _ in range(8): threading.Thread(target=storm, daemon=True).start()
time.sleep(10**6)
PY
side_pids="$side_pids $!"
# A slow-body attack: 150 connections, each a device registration's head and then a body byte every 2 s.
python3 - "$port" "$work/slow" "$token" <<'PY' &
import socket, sys, time
port, out, token = int(sys.argv[1]), sys.argv[2], sys.argv[3]
open_now = []
for _ in range(150):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(("POST /wallet/v1/devices/slow/registrations/pass.dev.passmint.example/SPREAD-0 HTTP/1.1\r\nHost: x\r\n"
               f"Content-Length: 60000\r\nAuthorization: ApplePass {token}\r\n\r\n").encode())
    open_now.append(s)
closed = 0
while True:
    for s in list(open_now):
        try:
            s.sendall(b"{")
        except OSError:
            open_now.remove(s)
            closed += 1
    open(out, "w").write(f"{len(open_now)} {closed}")
    time.sleep(2)
PY
side_pids="$side_pids $!"
sleep 2  # the side loads under way
read -r busy50 busy99 busy_rps < <(health)
previews=$(cat "$work/previews" 2>/dev/null || echo 0)
read -r slow_open slow_closed < "$work/slow" || true
jobs=$(curl -sf "$base/api/v1/jobs" -H "Authorization: Bearer $PASSMINT_API_KEY" | python3 -c '
import json, sys
jobs = json.load(sys.stdin)
jobs = jobs if isinstance(jobs, list) else jobs.get("jobs", [])
print(len(jobs), sum(j.get("done", 0) for j in jobs))')
read -r job_count job_done <<<"$jobs"

echo "GET /health, wrk -t1 -c4 -d${seconds}s, $passes passes, $(nproc) cores ($(date -u +%Y-%m-%dT%H:%MZ))"
echo
echo "| /health | p50 ms | p99 ms | requests/s |"
echo "|---|---|---|---|"
echo "| alone | $alone50 | $alone99 | $alone_rps |"
echo "| beside a publish job, a preview storm and a slow-body attack | $busy50 | $busy99 | $busy_rps |"
echo
echo "beside it: $job_count publish jobs queued, $job_done passes done; $previews previews rendered (8 clients);"
echo "slow-body attack: ${slow_open:-?} of 150 connections still open, ${slow_closed:-?} closed by the service"
