#!/usr/bin/env bash
# test_netns_matchmaker_isolated.sh: the acting matchmaker's host loses the network (its
# cable pulled: nothing in or out, nothing closes) while bots play in parties and queue
# again after each match (tests/e2e/netns_lib.sh). The standby, on its own host, takes
# mm:lease once it expires (3 s) and acts: it reloads the waiting tickets, the parties and
# the unanswered placements from Redis: a lone player queued before the cut is matched,
# by the new matchmaker, with one who queues after it. Workers and gateways dial the matchmaker at one
# Service address, which the test moves to the new lease holder as k8s/base's leader-label
# sidecar and Service do; their connections to the old host then meet a reset and
# reconnect. Matches in play go on meanwhile (commands go gateway -> worker). The old
# matchmaker, back on the network, finds the lease held by the other and stays a standby:
# exactly one acts. Every match finishes once and replays, and every accepted answer is in
# its match's history exactly once.
# shellcheck source=SCRIPTDIR/netns_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/netns_lib.sh"

# 8 bots in 4 parties play 12 matches: three rounds, so that parties queue again while
# the standby takes over, and after.
MATCHES=12

# One bot alone in the casual queue (a ticket that waits for an opponent), in the
# background; its answer log in RUNDIR/answers-solo-N.log (read by netns_check_all).
solo() {
    timeout 120 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players 1 --size 2 \
        --matches 1 --rate 5 --timeout 60 --gateway "$DECKHAND_GATEWAYS_TCP" \
        --answer-log "$E2E_RUN/answers-solo-$1.log" >"$E2E_RUN/solo-$1.out" 2>&1 </dev/null &
}

# deckhand_matchmaker_lease_held of the matchmaker on host HOST (empty when unreachable).
lease_held() {
    curl -fsS -m 1 "http://$(netns_ip "$1"):5561/metrics" 2>/dev/null |
        awk '$1 == "deckhand_matchmaker_lease_held" { print $2 }'
}

netns_up 43
netns_cluster 3 2 1
# shellcheck disable=SC2016 # evaluated by netns_wait
netns_wait "mm-1 acting" '[[ $(lease_held mm-1) == 1 ]]'
timeout 300 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players 8 --size 2 --party 2 \
    --matches "$MATCHES" --rate 5 --timeout 60 --gateway "$DECKHAND_GATEWAY_TCP" \
    --answer-log "$E2E_RUN/answers.log" >"$E2E_RUN/bots.out" 2>"$E2E_RUN/bots.err" </dev/null &
E2E_BOTS_PID=$!
e2e_wait_running 3
sleep 2
solo 1
solo_pid=$!
netns_wait "the lone ticket in Redis" "(( \$(e2e_redis hlen 'mm:{mm}:tickets') == 1 ))"
parties=$(e2e_redis hlen 'mm:{mm}:parties')
e2e_log "pulling mm-1's cable ($parties parties and 1 lone ticket in Redis, $(e2e_redis hlen matches:running) matches running)"
netns_isolate mm-1
cut_ms=$(date +%s%3N)
deadline=$((SECONDS + 15))
until [[ $(lease_held mm-2) == 1 ]]; do
    ((SECONDS < deadline)) || e2e_fail "mm-2 did not take the lease within 15 s"
    sleep 0.1
done
acting_ms=$(date +%s%3N)
netns_service_move mm-2
e2e_log "mm-2 acts $((acting_ms - cut_ms)) ms after the cut; the Service address moved to it"
solo 2
wait "$solo_pid" || e2e_fail "the lone bot queued before the cut: $(tail -n 3 "$E2E_RUN/solo-1.out")"
wait $! || e2e_fail "the lone bot queued after the cut: $(tail -n 3 "$E2E_RUN/solo-2.out")"
e2e_log "the ticket queued before the cut was matched by mm-2 with one queued after it"

netns_check_all "$MATCHES"
netns_rejoin mm-1
sleep 3
[[ $(lease_held mm-1) == 0 && $(lease_held mm-2) == 1 ]] ||
    e2e_fail "after mm-1 came back: lease_held mm-1 '$(lease_held mm-1)', mm-2 '$(lease_held mm-2)' (want 0 and 1)"
mm2_log=$E2E_RUN/logs/matchmaker-2.log
grep -q 'won by mm-2' "$mm2_log" || e2e_fail "mm-2 never logged winning the lease"
e2e_log "mm-2: $(grep -m1 -o 'acting: .*' "$mm2_log"); mm-1 back: $(grep -o 'lease .* lost.*' \
    "$E2E_RUN/logs/matchmaker.log" | tail -n 1)"
found=$(awk '$2 == "found" { print $1 }' "$E2E_RUN/answers.log" | awk -v c="$acting_ms" '$1 > c' | wc -l)
((found > 0)) || e2e_fail "no match formed after mm-2 took over"
requeue=$(awk '$2 == "over" { t[$4] = $1 } $2 == "found" && ($4 in t) { w = $1 - t[$4]
    if (w > max) max = w; delete t[$4] } END { print max + 0 }' "$E2E_RUN/answers.log")
e2e_log "$found players were placed in matches by mm-2; exactly one matchmaker acts;" \
    "between two matches a party waited at most $requeue ms for its next MatchFound"
