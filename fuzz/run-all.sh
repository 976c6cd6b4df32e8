#!/bin/sh
# Runs each target for SECONDS seconds (default 600), one after another, at
# the lowest priority; logs go to fuzz/logs/<target>.log.
cd "$(dirname "$0")" || exit 1
mkdir -p logs
secs=${SECONDS_PER_TARGET:-600}
for t in "$@"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    nice -n 19 cargo +nightly fuzz run -O "$t" "corpus/$t" -- \
        -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -artifact_prefix="artifacts/$t/" -print_final_stats=1 > "logs/$t.log" 2>&1
    echo "$t exit $?" >> logs/summary.txt
done
