#!/usr/bin/env bash
# join_storm.sh: the join storm of issue 13 at population scale (docs/BENCHMARKS.md,
# "End to end: 20,000 players queued at once"). A local cluster (redis, the matchmaker,
# WORKERS workers, two gateways; ports from 21200), PLAYERS players of `deckhand load
# --join-once` (spread over two processes past the descriptor limit) log in over both
# gateways, then all join at once; each must get Reply{ok} and MatchFound, and no worker
# may be declared dead. This is tests/e2e/test_queue_join_storm.sh at another size, run
# ROUNDS times (a fresh cluster each); it prints each round's result line. Descriptors:
# `deckhand load` raises its limit to the hard one and forks a process per that many
# players (two at 20,000 here); each gateway holds half the players, under its
# --max-conns default (the limit less a sixteenth and 64); the clients' ports come from
# the ephemeral range (32768-60999 here) per gateway address, all listening ports stay
# below it. Usage:
#   bench/join_storm.sh [PLAYERS] [WORKERS] [ROUNDS]     (default 20000 2 1)
# binaries from DECKHAND_BIN_DIR (default build/bin).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export JOIN_STORM_PLAYERS=${1:-20000}
export JOIN_STORM_WORKERS=${2:-2}
export JOIN_STORM_PORT=${JOIN_STORM_PORT:-21200}
export DECKHAND_BIN_DIR=${DECKHAND_BIN_DIR:-$ROOT/build/bin}
ROUNDS=${3:-1}
rc=0
for ((round = 1; round <= ROUNDS; round++)); do
    log=$(mktemp /tmp/deckhand-join-storm.XXXXXX)
    start=$SECONDS
    bash "$ROOT/tests/e2e/test_queue_join_storm.sh" >"$log" 2>&1 || rc=1
    line=$(grep -o 'joins players=.*' "$log" | tail -n 1)
    echo "round $round ($((SECONDS - start)) s with the cluster's start and stop): ${line:-no result}"
    grep -E '^FAIL|PASS' "$log" | tail -n 1
    echo "log: $log"
done
exit "$rc"
