#!/usr/bin/env bash
# test_netns_rcluster_master.sh: a Redis Cluster (six nodes, each on its own host) whose
# master rc-2 is cut off from its replica and from every other Redis node for 5 s while
# the workers, gateways and the matchmaker still reach it (tests/e2e/netns_lib.sh): the
# majority declares it failed after the node timeout (2 s) and promotes its replica; the
# old master, alone, takes writes until it sees itself in the minority. What a worker
# wrote to it after the cut never reached a replica (WAIT 1 answers 0), and is gone once
# it rejoins as a replica of the new master: such a write must not be acknowledged to a
# player. Every match finishes once and replays, and every decision the bots answered is
# in its match's history exactly once (an acknowledged answer that vanished would show as
# a decision offered again, or a history one short).
# shellcheck source=SCRIPTDIR/netns_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/netns_lib.sh"

MATCHES=12
CUT_S=5

# The host (rc-N) of the replica of the master on host rc-M.
replica_of() {
    local id ip
    id=$(redis-cli -h "$(netns_ip "$1")" cluster myid)
    ip=$(redis-cli -h "$(netns_ip "$1")" cluster nodes | awk -v m="$id" '$4 == m { split($2, a, ":"); print a[1] }')
    for h in rc-1 rc-2 rc-3 rc-4 rc-5 rc-6; do [[ $(netns_ip "$h") == "$ip" ]] && echo "$h"; done
}

# The role (master, slave) of the node on host H, as it says itself.
role_of() { redis-cli -h "$(netns_ip "$1")" role 2>/dev/null | head -n 1; }

NETNS_RCLUSTER=1
netns_up 46
netns_cluster 3 2
[[ $(role_of rc-2) == master ]] || e2e_fail "rc-2 is not a master"
replica=$(replica_of rc-2)
[[ -n $replica ]] || e2e_fail "rc-2 has no replica"
netns_bots_busy "$MATCHES"
e2e_log "cutting master rc-2 off from its replica $replica and the other Redis nodes for $CUT_S s"
for h in rc-1 rc-3 rc-4 rc-5 rc-6; do netns_cut rc-2 "$h"; done
cut_ms=$(date +%s%3N)
deadline=$((SECONDS + 10))
until [[ $(role_of "$replica") == master ]]; do
    ((SECONDS < deadline)) || e2e_fail "$replica was not promoted within 10 s"
    sleep 0.1
done
e2e_log "$replica promoted $(($(date +%s%3N) - cut_ms)) ms after the cut"
sleep "$CUT_S"
for h in rc-1 rc-3 rc-4 rc-5 rc-6; do netns_heal rc-2 "$h"; done
# shellcheck disable=SC2016 # evaluated by netns_wait
netns_wait "rc-2 back as a replica" '[[ $(role_of rc-2) == slave ]]'
e2e_log "rc-2 rejoined as a replica"
netns_check_all "$MATCHES"
short=$(cat "$E2E_RUN"/logs/worker-*.log | grep -c 'writes reached 0 of' || true)
e2e_log "the workers' warnings of batches that reached no replica in time (WAIT short): $short"
