# Shell functions the bench scripts share: `. scripts/bench-lib.sh` (from the repository's root).

# The base URL (http://host:port) of a server started with `--port 0`, read from its "listening on" line in the file
# $1 once its /health answers; when it does not start, says so with the server's log ($2, by default $1) and fails.
listening_base() {
    local out=$1 log=${2:-$1} base
    for _ in $(seq 1 300); do
        base=$(sed -n 's|^listening on \(http://.*\)$|\1|p' "$out" 2>/dev/null | head -n 1)
        [ -n "$base" ] && curl -sf "$base/health" >/dev/null && { echo "$base"; return 0; }
        sleep 0.1
    done
    echo "$(basename "$0"): the server did not start; its log ($log):" >&2
    cat "$log" >&2
    return 1
}

# A port the kernel hands out as free, for a server that cannot bind port 0 itself (nginx).
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# CPU time in clock ticks (1/100 s) of the process $1; of $1 and its children together (nginx's master and
# workers, PostgreSQL's postmaster and its backends).
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
tree_ticks() {
    local total=0 pid
    for pid in "$1" $(pgrep -P "$1"); do total=$((total + $(ticks "$pid"))); done
    echo "$total"
}
