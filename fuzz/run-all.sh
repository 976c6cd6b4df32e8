#!/bin/sh
# Usage: fuzz/run-all.sh TARGET...   (e.g. parse batch chain compose merge)
# Runs each target for SECONDS_PER_TARGET seconds (default 600), one after
# another, at the lowest priority, one process (the machine is shared); the
# corpus grows in fuzz/corpus/<target>, crashes land in
# fuzz/artifacts/<target>/, logs in fuzz/logs/<target>-<time>.log, and one
# line per run (exit status, last status line, executions, exec/s) in
# fuzz/logs/summary.txt. fuzz/dicts/<target>.dict
# is used when it exists; run fuzz/seed.sh first to seed batch and parse.
cd "$(dirname "$0")" || exit 1
mkdir -p logs
secs=${SECONDS_PER_TARGET:-600}
# Build every target first and run copies of the binaries, so that editing
# the sources during a long sequence changes nothing under it. SANITIZER
# (default address, cargo-fuzz's) may be none: the crate forbids unsafe code,
# and without ASan a target runs two to three times faster.
cargo +nightly fuzz build -O -s "${SANITIZER:-address}" > logs/build.log 2>&1 || { echo "build failed: logs/build.log"; exit 1; }
mkdir -p bin
for t in "$@"; do
    cp "target/x86_64-unknown-linux-gnu/release/$t" "bin/$t" || exit 1
done
for t in "$@"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    dict=""
    [ -f "dicts/$t.dict" ] && dict="-dict=dicts/$t.dict"
    log="logs/$t-$(date -u +%Y%m%dT%H%M%S).log"
    nice -n 19 "bin/$t" "corpus/$t" \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        $dict -artifact_prefix="artifacts/$t/" -print_final_stats=1 > "$log" 2>&1
    status=$?
    # The last status line (cov, ft, corp, exec/s) and the final counters.
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    runs=$(grep -E 'number_of_executed_units|average_exec_per_sec' "$log" | tr -s ' ' | tr '\n' ' ')
    echo "$t exit $status $(date -u +%FT%TZ) $log | $last | $runs" >> logs/summary.txt
done
