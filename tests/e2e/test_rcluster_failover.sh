#!/usr/bin/env bash
# test_rcluster_failover.sh: issue 14, a Redis Cluster master killed mid-play. Bots play
# 8 two-player matches on the local cluster (three masters, three replicas,
# cluster-node-timeout 2 s); with most of them in flight the master holding the most
# match keys is killed with SIGKILL. Its replica takes over; the processes find the new
# master (a lost connection refreshes the slot map) and play goes on. Every match
# finishes with 0 bot errors and replays to the hash its worker recorded: no accepted
# answer was lost, because the worker acknowledges a batch only after WAIT 1 (a replica
# has it), so the replica that takes over holds every answer a player was told of.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

MATCHES=8
export DECKHAND_REDIS_CLUSTER=1 DH_RCLUSTER_BASE=21720
e2e_start_busy "$MATCHES" 29900 2

# The master serving the most running matches.
victim=$(for id in $(e2e_redis hkeys matches:running); do
    dh_rcluster_master_of "match:{$id}"
done | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
[[ $victim =~ ^[1-6]$ ]] || e2e_fail "no master holds a running match"
replica_of=$(dh_rcluster_cli "$victim" cluster myid)
e2e_log "kill -9 Redis master node $victim ($(dh_rcluster_port "$victim")) mid-play"
dh_cluster_kill "$E2E_RUN" "redis-$victim" KILL

# Its replica is promoted: the cluster says ok again from another node.
other=$((victim % 6 + 1))
deadline=$((SECONDS + 30))
until dh_rcluster_cli "$other" cluster info 2>/dev/null | grep -q '^cluster_state:ok' &&
    ! dh_rcluster_cli "$other" cluster nodes | grep "^$replica_of" | grep -qv fail; do
    ((SECONDS < deadline)) || e2e_fail "no replica took over from node $victim in 30 s"
    sleep 0.2
done
e2e_log "a replica took over node $victim's slots after $((SECONDS - deadline + 30)) s"
# e2e_redis talks to node 1: when node 1 is the victim, talk to a live node.
if ((victim == 1)); then DECKHAND_REDIS_PORT=$(dh_rcluster_port 2); fi

e2e_bots_wait "$MATCHES"
e2e_check_finished "$MATCHES"
e2e_check_replays
