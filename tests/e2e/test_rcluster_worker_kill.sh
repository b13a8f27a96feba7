#!/usr/bin/env bash
# test_rcluster_worker_kill.sh: issue 14, a worker killed on a Redis Cluster. Bots play 8
# two-player matches on the local cluster of three masters and three replicas; with most
# of them in flight the worker hosting the most is killed with SIGKILL. The matchmaker's
# takeover (its move script on each match's own slot, the indexes after) moves them to
# the other worker: every match finishes, 0 bot errors, each replays to its hash.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

MATCHES=8
export DECKHAND_REDIS_CLUSTER=1 DH_RCLUSTER_BASE=21710
e2e_start_busy "$MATCHES" 29700 2
worker=$(e2e_redis hvals matches:running | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
[[ $worker == wk-[0-9]* ]] || e2e_fail "no worker hosts a running match"
moved=$(e2e_matches_on "$worker" | wc -l)
e2e_log "kill -9 $worker, which hosts $moved running matches"
dh_cluster_kill "$E2E_RUN" "worker-${worker#wk-}" KILL

e2e_bots_wait "$MATCHES"
adopted=$(cat "$E2E_RUN"/logs/worker-*.log | grep -c 'adopted at epoch')
((adopted >= 1)) || e2e_fail "no match was adopted by the surviving worker"
e2e_log "$adopted matches adopted"
e2e_check_finished "$MATCHES"
e2e_check_replays
left=$(e2e_matches_on "$worker" | wc -l)
((left == 0)) || e2e_fail "matches:running still names the dead $worker for $left matches"
