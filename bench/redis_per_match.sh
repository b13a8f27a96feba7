#!/usr/bin/env bash
# bench/redis_per_match.sh [MATCHES]: Redis memory per running match. A fresh cluster of
# 2 workers (binaries from DECKHAND_BIN_DIR, default build/bin; ports from 23800) and
# MATCHES (default 200) two-player Dominion matches played by slow bots (2 answers/s
# each), so that they all run at once for a while; every 5 s for 15 s: the matches
# running and finished, and used_memory above the empty cluster's divided by the running
# matches; then MEMORY USAGE of one running match's keys. Results in docs/BENCHMARKS.md
# ("Redis: memory per running match").
set -uo pipefail

matches=${1:-200}
DH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export DH_ROOT
export DECKHAND_BIN_DIR=${DECKHAND_BIN_DIR:-$DH_ROOT/build/bin}
# shellcheck source=SCRIPTDIR/../scripts/lib/cluster.sh
source "$DH_ROOT/scripts/lib/cluster.sh"

run=$(mktemp -d /tmp/deckhand-redis-mem.XXXXXX)
dh_cluster_start_near "$run" 23800 2 >/dev/null 2>&1 || { echo "the cluster did not start"; exit 1; }
# shellcheck source=/dev/null
source "$run/cluster.env"
r() { _dh_redis_cli "$@"; } # as the operators' user (cluster.env: REDISCLI_AUTH)
used() { r info memory | awk -F: '/^used_memory:/ { print $2 + 0 }'; }
base=$(used)
# --bot local: the generic client bot, whose matches docs/BENCHMARKS.md measured (the
# game's default bot on the server plays matches of another length)
"$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players $((matches * 2)) --size 2 \
    --matches "$matches" --rate 2 --timeout 60 --gateway "$DECKHAND_GATEWAYS_TCP" --bot local \
    >/dev/null 2>&1 &
bots=$!
for t in 5 10 15; do
    sleep 5
    u=$(used) running=$(r hlen matches:running) finished=$(r llen matches:finished)
    echo "t=${t}s running=$running finished=$finished used_above_empty=$((u - base))" \
        "per_running_match=$((running > 0 ? (u - base) / running : 0))"
done
id=$(r hkeys matches:running | head -n 1)
for k in "match:{$id}" "match:{$id}:snap" "match:{$id}:log" "match:{$id}:history"; do
    echo "$k $(r memory usage "$k")"
done
kill "$bots" 2>/dev/null
wait "$bots" 2>/dev/null
dh_cluster_stop "$run" >/dev/null 2>&1
rm -rf "$run"
