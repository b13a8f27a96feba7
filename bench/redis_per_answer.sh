#!/usr/bin/env bash
# bench/redis_per_answer.sh BINDIR SECONDS [RATE]: what Redis receives per answer. A fresh
# cluster of 2 workers from BINDIR (scripts/lib/cluster.sh, ports from 23700), `deckhand
# load` over TCP with 1,000 players of two-player Dominion (`--bot local`) for SECONDS
# seconds (RATE answers per second; default flat out). Redis's statistics are reset at the
# load's first progress line, where its CPU count (`--cpu-pids`) starts too; at the end it
# prints the load's CPU line and, per accepted answer, the bytes Redis read and each
# command's calls and microseconds (`INFO commandstats`; a script's time includes the
# calls inside it, which are counted under their own names as well).
# Run it under flock /tmp/dh-bench.lock like every cluster benchmark. Results in
# docs/BENCHMARKS.md ("Redis per answer, fifth step").
set -uo pipefail
bin=${1:?bindir} secs=${2:?seconds} rate=${3:-0}
DH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export DH_ROOT DECKHAND_BIN_DIR=$bin
# shellcheck source=SCRIPTDIR/../scripts/lib/cluster.sh
source "$DH_ROOT/scripts/lib/cluster.sh"
run=$(mktemp -d /tmp/deckhand-redis-per-answer.XXXXXX)
dh_cluster_start_near "$run" 23700 2 >/dev/null 2>&1 || { echo "the cluster did not start"; exit 1; }
set -a
# shellcheck source=/dev/null
source "$run/cluster.env"
set +a
rc() { redis-cli -p "$DECKHAND_REDIS_PORT" "$@"; }
args=(--game dominion --players 1000 --seconds "$secs" --gateway "$DECKHAND_GATEWAY_TCP"
    --bot local --cpu-pids "$run")
((rate > 0)) && args+=(--rate "$rate")
(
    until grep -q '^load: 1 s' "$run/err" 2>/dev/null; do sleep 0.05; done
    rc CONFIG RESETSTAT >/dev/null
    rc INFO stats | tr -d '\r' | awk -F: '/^total_net_input_bytes/ {print $2}' >"$run/in0"
) &
reset=$!
"$bin/deckhand" load "${args[@]}" >"$run/out" 2>"$run/err" </dev/null
kill "$reset" 2>/dev/null # a load that never printed its first second
wait "$reset" 2>/dev/null
rc INFO stats | tr -d '\r' | awk -F: '/^total_net_input_bytes/ {print $2}' >"$run/in1"
cpu=$(grep '^cpu_us_per_cmd' "$run/out")
answers=$(sed -n 's/.*answers=\([0-9]*\).*/\1/p' <<<"$cpu")
echo "$cpu"
echo "bytes_in_per_answer=$((($(cat "$run/in1") - $(cat "$run/in0")) / (answers > 0 ? answers : 1)))"
rc INFO commandstats | tr -d '\r' | awk -F'[:=,]' -v n="$answers" \
    '/^cmdstat_/ && n > 0 {printf "%s calls_per_answer=%.3f us_per_answer=%.2f\n", substr($1, 9), $3 / n, $5 / n}'
dh_cluster_stop "$run" >/dev/null 2>&1
rm -rf "$run"
