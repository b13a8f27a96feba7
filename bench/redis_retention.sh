#!/usr/bin/env bash
# bench/redis_retention.sh [SECONDS] [BOTS]: Redis stays flat when matches are played past
# their retention (issue 14; docs/BENCHMARKS.md, "Redis: bounded storage"). A fresh
# cluster (one Redis; binaries from DECKHAND_BIN_DIR, default build/bin; ports from
# 23900) with DECKHAND_RETENTION_S=10, DECKHAND_RESULT_RETENTION_S=30 and
# DECKHAND_FINISHED_MAX=100; BOTS (default 40) bots play two-player Dominion matches
# without a pause for SECONDS (default 120); every 10 s: the matches finished so far
# (the bots' count), the matches running, Redis' keys and used_memory. Also the bytes one
# finished match holds within its retention (its keys' MEMORY USAGE) and after it (its
# compact result).
set -uo pipefail

seconds=${1:-120} nbots=${2:-40}
DH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export DH_ROOT
export DECKHAND_BIN_DIR=${DECKHAND_BIN_DIR:-$DH_ROOT/build/bin}
export DECKHAND_RETENTION_S=10 DECKHAND_RESULT_RETENTION_S=30 DECKHAND_FINISHED_MAX=100
# shellcheck source=SCRIPTDIR/../scripts/lib/cluster.sh
source "$DH_ROOT/scripts/lib/cluster.sh"

run=$(mktemp -d /tmp/deckhand-redis-retention.XXXXXX)
dh_cluster_start_near "$run" 23900 2 >/dev/null 2>&1 || { echo "the cluster did not start"; exit 1; }
# shellcheck source=/dev/null
source "$run/cluster.env"
r() { _dh_redis_cli "$@"; }
used() { r info memory | awk -F: '/^used_memory:/ { print $2 + 0 }'; }
usage() { # the MEMORY USAGE of every key of match $1 that exists, summed
    local k sum=0 u
    for k in "match:{$1}" "match:{$1}:snap" "match:{$1}:log" "match:{$1}:history" \
        "match:{$1}:bundles" "match:{$1}:result"; do
        u=$(r memory usage "$k")
        sum=$((sum + ${u:-0}))
    done
    echo "$sum"
}
echo "empty: used_memory=$(used) keys=$(r dbsize)"
"$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players "$nbots" --size 2 \
    --matches 100000 --rate 50 --timeout 60 --gateway "$DECKHAND_GATEWAYS_TCP" \
    >/dev/null 2>"$run/bots.err" &
bots=$!
first='' seen=''
for ((t = 10; t <= seconds; t += 10)); do
    sleep 10
    done_n=$(grep -c ' finished (' "$run/bots.err")
    if [[ -z $first ]]; then
        first=$(r lindex matches:finished 0)
        seen=$t
        echo "finished match $first within its retention: $(usage "$first") bytes in its keys"
    elif ((t == seen + 20)); then
        echo "finished match $first after its retention: $(usage "$first") bytes (its result)"
    fi
    echo "t=${t}s finished=$done_n running=$(r hlen matches:running) keys=$(r dbsize)" \
        "used_memory=$(used)"
done
kill "$bots" 2>/dev/null
wait "$bots" 2>/dev/null
dh_cluster_stop "$run" >/dev/null 2>&1
rm -rf "$run"
