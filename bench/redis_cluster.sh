#!/usr/bin/env bash
# bench/redis_cluster.sh [BATCHES]: the cost of WAIT 1 on a local Redis Cluster (three
# masters, three replicas: scripts/lib/rcluster.sh, nodes from 21740) and on one Redis
# with one replica, for the figures in docs/BENCHMARKS.md ("Redis Cluster"). Binaries from
# DECKHAND_BIN_DIR (default build/bin).
set -uo pipefail

batches=${1:-2000}
DH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export DH_ROOT
bin=${DECKHAND_BIN_DIR:-$DH_ROOT/build/bin}
# shellcheck source=SCRIPTDIR/../scripts/lib/cluster.sh
source "$DH_ROOT/scripts/lib/cluster.sh"

run=$(mktemp -d /tmp/deckhand-redis-cluster.XXXXXX)
mkdir -p "$run/pids" "$run/logs" "$run/redis"
"$bin/deckhand" keygen "$run/keys" >/dev/null || exit 1
DH_REDIS_OPS_PASSWORD=$(<"$run/keys/redis-default.password")
export DH_RCLUSTER_BASE=21740
dh_rcluster_start "$run" || { echo "the cluster did not start"; exit 1; }
echo "redis cluster (3 masters, 3 replicas, loopback):"
DECKHAND_REDIS_USER=worker DECKHAND_REDIS_PASSWORD_FILE=$run/keys/redis-worker.password \
    "$bin/bench_redis_wait" "redis+cluster://$(dh_rcluster_seeds)" "$batches"
for i in 1 2 3 4 5 6; do # the WAITs each master served (replicas serve none)
    echo "node $i: $(dh_rcluster_cli "$i" role | head -n 1)" \
        "$(dh_rcluster_cli "$i" info commandstats | grep -E '^cmdstat_wait:' | cut -d, -f1)"
done
dh_cluster_stop "$run" >/dev/null 2>&1
rm -rf "$run"
