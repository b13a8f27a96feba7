#!/usr/bin/env bash
# bench/mm_per_match.sh SECONDS [PLAYERS]: the matchmaker's CPU per match in a whole
# cluster at saturation (issue 27: its cost is per match, not per answer). Starts a fresh
# cluster from DECKHAND_BIN_DIR (default build-rel/bin; 1 gateway, 1 matchmaker, 2 workers,
# one Redis) on ports from 23900, runs `deckhand load` flat out with PLAYERS (default 1000)
# players of two-player Dominion (--bot local) for SECONDS (at least 15), and measures from
# 6 s in (after the logins) to 3 s before the end: the matchmaker's CPU (the sum of its
# threads' /proc/PID/task/TID/schedstat run time, in microseconds, finer than the clock
# ticks of /proc/PID/stat), the matches it started (deckhand_matchmaker_matches_started_total)
# and its Redis round trips (deckhand_matchmaker_redis_seconds_count). One line:
#   mm_cpu_ms=.. matches=.. us_per_match=.. redis_rt_per_match=.. main_us_per_match=..
#     io_us_per_match=.. | the load's own result and cpu_us_per_cmd lines
# main: the loop's thread; io: ZeroMQ's I/O thread (CURVE and the sockets). Compare
# builds by running this with each DECKHAND_BIN_DIR in turn, alternated (docs/BENCHMARKS.md,
# "The matchmaker's CPU per match").
set -uo pipefail

secs=${1:?seconds} players=${2:-1000}
((secs >= 15)) || {
    echo "SECONDS: at least 15" >&2
    exit 2
}
DH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export DH_ROOT
bin=${DECKHAND_BIN_DIR:-$DH_ROOT/build-rel/bin}
export DECKHAND_BIN_DIR=$bin
# shellcheck source=SCRIPTDIR/lib/mm_cluster.sh
source "$DH_ROOT/bench/lib/mm_cluster.sh"
mm_cluster_start mm-per-match 23900
run=$RUN

"$bin/deckhand" load --game dominion --players "$players" --seconds "$secs" \
    --gateway "$DECKHAND_GATEWAY_TCP" --bot local --cpu-pids "$run" >"$run/out" 2>"$run/err" </dev/null &
load=$!
sleep 6
read -r c0 m0 _ < <(mm_cpu)
n0=$(mm_metric deckhand_matchmaker_matches_started_total)
r0=$(mm_metric deckhand_matchmaker_redis_seconds_count)
sleep $((secs - 9))
read -r c1 m1 _ < <(mm_cpu)
n1=$(mm_metric deckhand_matchmaker_matches_started_total)
r1=$(mm_metric deckhand_matchmaker_redis_seconds_count)
wait "$load"
awk -v c=$((c1 - c0)) -v m=$((m1 - m0)) -v n=$((n1 - n0)) -v r=$((r1 - r0)) 'BEGIN {
    if (n <= 0) { print "no match started while measuring"; exit 1 }
    printf "mm_cpu_ms=%.0f matches=%d us_per_match=%.1f redis_rt_per_match=%.2f main_us_per_match=%.1f io_us_per_match=%.1f",
        c / 1000, n, c / n, r / n, m / n, (c - m) / n }'
echo " | $(tail -n 1 "$run/out") | $(grep '^cpu_us_per_cmd' "$run/out")"
