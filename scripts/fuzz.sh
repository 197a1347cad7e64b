#!/usr/bin/env bash
# Runs each fuzz target (Fuzz/, libFuzzer with AddressSanitizer) for a while, from the seed corpus in Fuzz/Corpus,
# and prints per target: executions, executions/s, coverage (edges), features, corpus size, and crashes.
#   scripts/fuzz.sh [seconds per target, default 30] [target ...]   (targets: json strings csv png zip zipwrite cms personalization order preview links service pay)
# A crash stops the run with exit status 1 and leaves the input in .build-fuzz/artifacts/<target>/ to reproduce:
#   .build-fuzz/debug/fuzz-<target> <that file>
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(json strings csv png zip zipwrite cms personalization order preview links service pay)
root=$PWD
build="$root/.build-fuzz"

mkdir -p "$build"
(cd Fuzz && swift build -c debug --build-path "$build" -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld -Xswiftc -g >"$build/build.log" 2>&1) || {
    tail -40 "$build/build.log"
    echo "fuzz: the fuzz targets did not build (log: $build/build.log)" >&2
    exit 2
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
printf '%-16s %12s %10s %8s %8s %8s %8s\n' target executions exec/s edges features corpus crashes
for target in "${targets[@]}"; do
    rm -rf "$build/artifacts/$target"
    mkdir -p "$work/$target" "$build/artifacts/$target"
    cp Fuzz/Corpus/"$target"/* "$work/$target/"
    log="$work/$target.log"
    set +e
    # SWIFT_BACKTRACE=enable=no: a Swift trap reaches libFuzzer (which names it and keeps the input) instead of Swift's
    # own crash handler, which AddressSanitizer reports as a bug of its own (stack-buffer-underflow in memserver_read).
    SWIFT_BACKTRACE=enable=no TMPDIR="$work" ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 "$build/debug/fuzz-$target" "$work/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$build/artifacts/$target/" >"$log" 2>&1
    code=$?
    set -e
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    edges=$(echo "$last" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*' || echo 0)
    features=$(echo "$last" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*' || echo 0)
    corpus=$(echo "$last" | grep -o 'corp: [0-9]*' | grep -o '[0-9]*' || echo 0)
    crashes=$(find "$build/artifacts/$target" -type f | wc -l)
    printf '%-16s %12s %10s %8s %8s %8s %8s\n' "$target" "$runs" "$speed" "$edges" "$features" "$corpus" "$crashes"
    if [ "$code" -ne 0 ]; then
        echo "fuzz: $target stopped with status $code; what it found:" >&2
        grep -E 'ERROR|Fatal|SUMMARY|panic|crash-|timeout-|oom-|leak-|#[0-9]+ 0x' "$log" | head -40 >&2
        # The input itself, so that a failure seen only in CI (its folder is gone) can be reproduced anywhere:
        #   base64 -d > input && .build-fuzz/debug/fuzz-<target> input
        for found in "$build/artifacts/$target"/*; do
            [ -f "$found" ] && [ "$(stat -c %s "$found")" -le 65536 ] && { echo "fuzz: $(basename "$found"), base64:" >&2; base64 -w 0 "$found" >&2; echo >&2; }
        done
        status=1
    fi
done
exit $status
