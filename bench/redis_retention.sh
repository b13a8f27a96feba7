#!/usr/bin/env bash
# bench/redis_retention.sh [WAVES] [MATCHES]: Redis stays flat when matches are played past
# their retention (issue 14; docs/BENCHMARKS.md, "Redis: bounded storage"). A fresh
# cluster (one Redis; binaries from DECKHAND_BIN_DIR, default build/bin; ports from
# 23900) with DECKHAND_RETENTION_S=10, DECKHAND_RESULT_RETENTION_S=30 and
# DECKHAND_FINISHED_MAX=100; WAVES (default 5) waves of MATCHES (default 40) two-player
# Dominion matches played by fast bots, one wave after another. After each wave: the
# matches finished so far, the keys, used_memory. Also the bytes one finished match
# holds within its retention (its keys' MEMORY USAGE) and after it (its compact result).
set -uo pipefail

waves=${1:-5} matches=${2:-40}
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
total=0 first=
for ((w = 1; w <= waves; w++)); do
    "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players $((matches * 2)) --size 2 \
        --matches "$matches" --rate 50 --timeout 60 --gateway "$DECKHAND_GATEWAYS_TCP" \
        >/dev/null 2>&1
    total=$((total + matches))
    sleep 2
    if [[ -z $first ]]; then
        first=$(r lindex matches:finished 0)
        echo "finished match $first within its retention: $(usage "$first") bytes in its keys"
    fi
    echo "wave $w: played=$total finished_listed=$(r llen matches:finished)" \
        "keys=$(r dbsize) used_memory=$(used)"
    sleep 12 # past the retention of this wave's matches
done
echo "finished match $first after its retention: $(usage "$first") bytes (its compact result)"
sleep 20
echo "after every result's retention too: keys=$(r dbsize) used_memory=$(used)"
dh_cluster_stop "$run" >/dev/null 2>&1
rm -rf "$run"
