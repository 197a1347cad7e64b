#!/usr/bin/env bash
# Webhook deliveries per second against a local receiver, beside the receiver's own ceiling, in one run. A backlog of
# ROWS `issued` events is owed to one webhook (lazy issuing into the service's SQLite file, after the webhook was
# registered), then `passmint serve` starts and delivers it to nginx answering 204 and logging each request's time.
# The ceiling: wrk POSTing bodies of the same size to the same nginx, with as many connections as a delivery round.
#   scripts/bench-webhooks.sh [rows, default 20000]
# PASSMINT_BENCH_BIN=<passmint binary> measures another build (e.g. an older commit's, for before/after figures).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bench-lib.sh
rows=${1:-20000}
command -v wrk >/dev/null && command -v nginx >/dev/null || { sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo; $sudo apt-get install -y -qq wrk nginx-light >/dev/null; }
bin=${PASSMINT_BENCH_BIN:-.build/release/passmint}
[ -n "${PASSMINT_BENCH_BIN:-}" ] || swift build -c release --product passmint >/dev/null
chain=Certificates/dev
[ -f "$chain/signer.pem" ] || Certificates/make-dev-chain.sh >/dev/null

work=$(mktemp -d)
chmod 755 "$work"
export PASSMINT_API_KEY="bench-api-key-0123456789"
cleanup() {
    [ -n "${server_pid:-}" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# The receiver: nginx answering 204 to every POST, each delivery's arrival logged with milliseconds.
mkdir -p "$work/nginx"
cat > "$work/nginx.conf" <<CONF
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections 4096; }
http {
    log_format stamp '\$msec';
    access_log off;
    client_body_temp_path $work/nginx; proxy_temp_path $work/nginx; fastcgi_temp_path $work/nginx; uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
    server {
        listen 127.0.0.1:0;
        location /hooks { access_log $work/hooks.log stamp; return 204; }
        location /ceiling { return 204; }
    }
}
CONF
# nginx cannot listen on port 0: take a free port from the kernel and hand it over.
receiver_port=$(free_port)
sed -i "s/127.0.0.1:0/127.0.0.1:$receiver_port/" "$work/nginx.conf"
nginx -c "$work/nginx.conf" -p "$work"
# CPU time in clock ticks of nginx (its master and workers).
nginx_ticks() { tree_ticks "$(cat "$work/nginx.pid")"; }

serve() {
    LOG_LEVEL=warning "$bin" serve --port 0 --public-url https://passes.example.test/wallet --database-url "$work/hooks.sqlite" \
        --certificates "$chain" --apns-url https://127.0.0.1:9 --webhooks-allow-http --webhooks-allow-private \
        >"$work/server.out" 2>>"$work/server.log" &
    server_pid=$!
    base=$(listening_base "$work/server.out" "$work/server.log")
}

# 1. The webhook, registered through the API; then the service stops.
serve
curl -sf -X POST "$base/api/v1/webhooks" -H "Authorization: Bearer $PASSMINT_API_KEY" -H "Content-Type: application/json" \
    -d "{\"url\":\"http://127.0.0.1:$receiver_port/hooks\",\"events\":[\"issued\"]}" >/dev/null
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""

# 2. The backlog: ROWS passes issued lazily into the same file, each owing the webhook its `issued` event.
python3 - "$work/members.csv" "$rows" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("serialNumber,memberId,memberName,tier,nfcMessage,points,pointsToNextReward,memberSince\n")
    for i in range(1, int(sys.argv[2]) + 1):
        f.write(f"W-{i:07d},{100000 + i},Member {i},Gold,mlc:{i},{i % 5000},250,2024-03-01T00:00:00+01:00\n")
PY
"$bin" batch PassTemplates/Loyalty.pass --data "$work/members.csv" --out-dir "$work/import" --certificates "$chain" \
    --register "$work/hooks.sqlite" --public-url https://passes.example.test/wallet --no-files --quiet
owed=$(python3 -c "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM webhook_deliveries WHERE delivered_at IS NULL').fetchone()[0])" "$work/hooks.sqlite")

# 3. The receiver's ceiling, same body size, 100 connections (a delivery round sends up to 100 at once).
body=$(python3 -c 'print("x" * 330)')
cat > "$work/post.lua" <<LUA
wrk.method = "POST"
wrk.body = "$body"
wrk.headers["Content-Type"] = "application/json"
LUA
nginx_before=$(nginx_ticks)
ceiling_out=$(wrk -t2 -c100 -d5s -s "$work/post.lua" "http://127.0.0.1:$receiver_port/ceiling")
ceiling_ticks=$(( $(nginx_ticks) - nginx_before ))
ceiling=$(sed -n 's/^Requests\/sec:[[:space:]]*//p' <<<"$ceiling_out")
ceiling_requests=$(sed -n 's/^[[:space:]]*\([0-9]*\) requests in.*/\1/p' <<<"$ceiling_out")

# 4. Deliveries: the service starts and drains the backlog. The CPU both sides spend on it is counted from the moment
# the service listens (its start-up before that is not counted) to the last arrival.
serve
serve_before=$(ticks "$server_pid")
nginx_before=$(nginx_ticks)
for _ in $(seq 1 1200); do
    [ "$(wc -l < "$work/hooks.log" 2>/dev/null || echo 0)" -ge "$owed" ] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log"; exit 1; }
    sleep 0.25
done
serve_ticks=$(( $(ticks "$server_pid") - serve_before ))
delivery_ticks=$(( $(nginx_ticks) - nginx_before ))
rss=$(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$server_pid/status")
python3 - "$work/hooks.log" "$owed" "$ceiling" "$rss" "$serve_ticks" "$delivery_ticks" "$ceiling_ticks" "$ceiling_requests" \
    "$(getconf CLK_TCK)" "$(nproc)" <<'PY'
import sys
stamps = sorted(float(line) for line in open(sys.argv[1]))
owed, ceiling, rss = int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
serve_ticks, nginx_ticks, ceiling_ticks, ceiling_requests = (int(value) for value in sys.argv[5:9])
tick, cores = 1e6 / int(sys.argv[9]), int(sys.argv[10])
span = stamps[-1] - stamps[0]
rate = (len(stamps) - 1) / span if span > 0 else float("nan")
print(f"{'backlog owed':<44} {owed:>10} deliveries")
print(f"{'delivered (nginx log lines)':<44} {len(stamps):>10} in {span:.2f} s")
print(f"{'webhook deliveries':<44} {rate:>10.0f} /s   ({rate / ceiling:.2f} of the receiver's ceiling; serve peak RSS {rss} MB)")
print(f"{'receiver ceiling (wrk, 100 connections)':<44} {ceiling:>10.0f} requests/s")
# What bounds the rate: the CPU a delivery costs the service and the receiver, against the machine's cores. At that
# cost the cores allow at most `bound` deliveries a second, whatever the waiting.
serve_us, nginx_us = serve_ticks * tick / owed, nginx_ticks * tick / owed
ceiling_us = ceiling_ticks * tick / max(ceiling_requests, 1)
bound = cores * 1e6 / (serve_us + nginx_us)
print(f"{'CPU a delivery: serve / nginx':<44} {serve_us:>7.1f} / {nginx_us:.1f} µs   (nginx alone, ceiling run: {ceiling_us:.1f} µs a request)")
print(f"{'the cores allow at that cost':<44} {bound:>10.0f} /s   ({bound / ceiling:.2f} of the ceiling; the rate is {rate / bound:.2f} of it)")
PY
