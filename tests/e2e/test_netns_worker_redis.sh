#!/usr/bin/env bash
# test_netns_worker_redis.sh: a worker's host cut off from Redis for 4 s while it still
# reaches the matchmaker and the gateways (tests/e2e/netns_lib.sh: each process on its own
# network host). Its Redis calls time out; its beats, from their own thread, still reach
# the matchmaker and say redis_ok=false, so it is not taken for dead; the answers its
# players send meanwhile are refused UNAVAILABLE and change nothing, the bots retry, and
# once the link is back its matches go on where they were. Every match finishes once and
# replays, and every answer the bots were told was accepted is in its match's history
# exactly once.
# shellcheck source=SCRIPTDIR/netns_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/netns_lib.sh"

MATCHES=12
CUT_S=4

netns_up 41
netns_cluster 3 2
netns_bots_busy "$MATCHES"
victims=$(e2e_matches_on wk-2)
nvictims=$(wc -w <<<"$victims")
((nvictims > 0)) || e2e_fail "no match runs on wk-2"
e2e_log "cutting wk-2 ($nvictims matches) off from Redis for $CUT_S s"
netns_cut wk-2 redis
sleep "$CUT_S"
netns_heal wk-2 redis
e2e_log "wk-2 reaches Redis again"

netns_check_all "$MATCHES"
mm_log=$E2E_RUN/logs/matchmaker.log
if grep -q 'worker wk-2 .*dead' "$mm_log"; then
    e2e_log "the matchmaker declared wk-2 dead: $(grep -m1 'worker wk-2 .*dead' "$mm_log")"
fi
