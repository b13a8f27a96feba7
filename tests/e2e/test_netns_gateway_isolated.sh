#!/usr/bin/env bash
# test_netns_gateway_isolated.sh: one of two gateways' hosts cut off from every worker for
# 10 s while it still reaches its players, the matchmaker and Redis (tests/e2e/netns_lib.sh).
# What it pins: the gateway finds its links to the workers dead (no output, no reply, not
# even ZeroMQ's heartbeat answered) and tells each player whose match routes there to
# Reconnect elsewhere (deckhand.proto), then closes those connections; the bots, which know
# both gateways, resume through the other one while the cut lasts, so no player waits for
# the heal. Then, after the heal, as every partition test: every match finishes once and
# replays, and every decision is in its match's history exactly once (the commands gw-1
# had queued for the workers reach them after the heal and are refused or answered from
# memory, never applied twice). Prints when the players were told to go and the longest
# wait any player saw.
# shellcheck source=SCRIPTDIR/netns_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/netns_lib.sh"

MATCHES=12
CUT_S=10
TOLD='worker link lost'

netns_up 44
netns_cluster 3 2
netns_bots_busy "$MATCHES"
gw1=$(netns_ip gw-1):7000
gw2=$(netns_ip gw-2):7000
e2e_log "cutting gw-1 off from the three workers for $CUT_S s"
cut_at=$(date +%s%3N)
for w in wk-1 wk-2 wk-3; do netns_cut gw-1 "$w"; done
told_ms=
while (($(date +%s%3N) - cut_at < CUT_S * 1000)); do
    if [[ -z $told_ms ]] && grep -q "$TOLD" "$E2E_RUN/logs/gateway.log"; then
        told_ms=$(($(date +%s%3N) - cut_at))
    fi
    sleep 0.1
done
resumed=$(grep -cF "resumed on $gw2 (was $gw1)" "$E2E_RUN/bots.err" || true)
for w in wk-1 wk-2 wk-3; do netns_heal gw-1 "$w"; done
e2e_log "gw-1 reaches the workers again"
[[ -n $told_ms ]] || e2e_fail "gw-1 never told its players to reconnect elsewhere during the $CUT_S s cut"
((resumed > 0)) || e2e_fail "no player of gw-1 resumed through gw-2 during the cut"
e2e_log "gw-1 told its players to reconnect elsewhere about $told_ms ms after the cut:" \
    "$(grep -m 1 "$TOLD" "$E2E_RUN/logs/gateway.log")"
e2e_log "$resumed players of gw-1 resumed through gw-2 during the cut"
netns_check_all "$MATCHES"
summary=$(grep -E '^bots: retried=' "$E2E_RUN/bots.err" | tail -n 1)
e2e_log "$summary"
e2e_summary_at_least "$summary" told_reconnect 1 "no bot was told to reconnect"
e2e_summary_at_least "$summary" moved_gateway 1 "no bot resumed on another gateway"
read -r max _ <<<"$(netns_waits)"
((max < CUT_S * 1000)) ||
    e2e_fail "a player waited $max ms for an answer's outcome: as long as the $CUT_S s cut (it waited for the heal)"
e2e_log "players waited at most $max ms (the cut lasted $((CUT_S * 1000)) ms)"
overtaken=$(cat "$E2E_RUN"/logs/worker-*.log | grep -c ' overtaken by command' || true)
e2e_log "workers refused $overtaken commands of gw-1's old connections, overtaken by the new ones"
