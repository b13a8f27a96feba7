#!/usr/bin/env bash
# test_rcluster_bots.sh: issue 14, ordinary play on a Redis Cluster. The local cluster
# runs on three masters and three replicas (DECKHAND_REDIS_CLUSTER=1, scripts/lib/
# rcluster.sh); bots play 24 four-player matches: every one completes without an error,
# is recorded finished with its result, and replays to the hash its worker recorded. The
# matches' keys are spread over the masters (each holds some), which is what makes it a
# cluster run and not one node doing everything. A match's keys share its hash tag, so
# each match lands on one master at random: with 12 matches one master held none in about
# 1 run of 40 (3 x (2/3)^12); with 24, about 1 run in 5,000.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

export DECKHAND_REDIS_CLUSTER=1 DH_RCLUSTER_BASE=21700
e2e_start 29700
e2e_bots 24
e2e_check_finished 24
e2e_check_replays

masters=0
for i in 1 2 3 4 5 6; do
    [[ $(dh_rcluster_cli "$i" role | head -n 1) == master ]] || continue
    n=$(dh_rcluster_cli "$i" --scan --pattern 'match:{*}' | wc -l)
    e2e_log "master node $i holds $n match keys"
    ((n > 0)) && masters=$((masters + 1))
done
((masters == 3)) || e2e_fail "the matches' keys are on $masters masters, want all 3"
