#!/usr/bin/env bash
# Runs a test command (`scripts/watch-tests.sh <minutes> swift test ...`) and ends it when no test has finished for
# <minutes>: a test that hangs then fails the run within minutes, naming the tests that started and never finished
# (and, when gdb is there, with every thread's stack), instead of holding CI until its time limit.
set -uo pipefail
limit=$(( $1 * 60 ))
shift
log=$(mktemp "${TMPDIR:-/tmp}/passmint-test-log.XXXXXX")
rc_file="$log.rc"
( echo "$BASHPID" > "$log.pid"; "$@" 2>&1; echo $? > "$rc_file" ) | tee "$log" &
runner=$!
sleep 1
# The test processes this run started (not another run's on the same machine).
test_processes() {
    for pid in $(pgrep -f 'PackageTests.xctest' || true); do
        local up=$pid
        while [ "$up" -gt 1 ]; do
            [ "$up" = "$(cat "$log.pid")" ] && { echo "$pid"; break; }
            up=$(awk '/^PPid:/ {print $2}' "/proc/$up/status" 2>/dev/null || echo 1)
        done
    done
}
finished=0
quiet=0
while kill -0 "$runner" 2>/dev/null; do
    sleep 15
    now=$(grep -cE '^[✔✘] (Test|Suite) ' "$log" || true)
    if [ "$now" != "$finished" ]; then finished=$now; quiet=0; continue; fi
    quiet=$(( quiet + 15 ))
    [ "$quiet" -lt "$limit" ] && continue
    {
        echo "watch-tests: no test finished for $(( limit / 60 )) minutes; ending the run. Started and not finished:"
        started=$(sed -nE 's/^◇ (Test|Suite) (.*) started\.$/\1 \2/p' "$log" | sort -u)
        ended=$(sed -nE 's/^[✔✘] (Test|Suite) ([^ ]+(\(.*\))?) .*$/\1 \2/p' "$log" | sort -u)
        unfinished=$(comm -23 <(echo "$started") <(echo "$ended") | sed 's/^/  /')
        echo "$unfinished"
        pids=$(test_processes)
        for pid in $pids; do
            if command -v gdb > /dev/null; then
                echo "watch-tests: the threads of test process $pid:"
                gdb -p "$pid" -batch -ex 'thread apply all bt 12' 2>/dev/null | grep -E '^(Thread|#)' | head -400
            fi
            kill -TERM "$pid" 2>/dev/null
        done
        sleep 10
        for pid in $pids; do kill -KILL "$pid" 2>/dev/null; done
        # Again at the end, after the stacks: a CI log cut to its last lines still names them.
        echo "watch-tests: ended the run after $(( limit / 60 )) quiet minutes; these tests started and never finished:"
        echo "$unfinished"
    } >&2
    break
done
wait "$runner"
rc=$(cat "$rc_file" 2>/dev/null || echo 1)
rm -f "$log" "$log.pid" "$rc_file"
[ "$quiet" -ge "$limit" ] && exit 1
exit "$rc"
