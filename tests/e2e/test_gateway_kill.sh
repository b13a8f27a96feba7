#!/usr/bin/env bash
# test_gateway_kill.sh: a gateway dies (kill -9) in the middle of play. Its players lose
# their connections; they resume on the other gateway with their session token, resync,
# and play on. Every match finishes, no accepted command disappears, and every match
# replays to the hash its worker recorded. The killed gateway is then started again and
# takes new players.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

MATCHES=20
e2e_start_busy "$MATCHES" 29500 2 2
e2e_log "kill -9 gateway gw-1 with $(e2e_redis hlen matches:running) matches running"
dh_cluster_kill "$E2E_RUN" gateway KILL
e2e_bots_wait "$MATCHES"

summary=$(grep -E '^bots: retried=' "$E2E_RUN/bots.err" | tail -n 1)
[[ $summary =~ lost=0 ]] || e2e_fail "a bot saw an accepted command disappear: $summary"
e2e_summary_at_least "$summary" moved_gateway $((MATCHES / 2)) \
    "fewer than $((MATCHES / 2)) bots resumed on the other gateway"
e2e_log "$summary"
e2e_check_finished "$MATCHES"
e2e_check_replays

# Started again, it serves: a bot plays a match through it against one on gw-2.
e2e_gateway_restarts_and_serves "$DECKHAND_GATEWAYS_TCP"
