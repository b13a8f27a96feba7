#!/usr/bin/env bash
# test_netns_worker_matchmaker.sh: a worker's host cut off from the matchmaker for 4 s
# while it still reaches Redis and the gateways (tests/e2e/netns_lib.sh), and with it one
# of the two gateways (a zone that lost the matchmaker's zone). Nothing closes:
# its beats just stop arriving, so the matchmaker declares it dead by silence (1.5 s) and
# moves its matches, bumping each one's epoch. The worker runs on meanwhile; the gateway
# that hears the matchmaker re-routes its players on MatchMoved, but the one cut off with
# the worker does not, so their answers still reach the old worker: every write it tries
# to a moved match fails the epoch fence, so it answers UNKNOWN_MATCH and drops the match,
# and the player's resync finds the new worker through Redis; what it still says about a moved match never reaches a player as
# news (the bots fail on a decision offered again after its answer was accepted, or on a
# View older than one seen). Once healed, it is registered again. Every match finishes
# once and replays, and every accepted answer is in its match's history exactly once.
# shellcheck source=SCRIPTDIR/netns_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/netns_lib.sh"

MATCHES=12
CUT_S=4

netns_up 42
netns_cluster 3 2
netns_bots_busy "$MATCHES"
victims=$(e2e_matches_on wk-2)
nvictims=$(wc -w <<<"$victims")
((nvictims > 0)) || e2e_fail "no match runs on wk-2"
e2e_log "cutting wk-2 ($nvictims matches) and gw-2 off from the matchmaker for $CUT_S s"
netns_cut wk-2 mm-1
netns_cut gw-2 mm-1
cut_ms=$(date +%s%3N)
sleep "$CUT_S"
netns_heal wk-2 mm-1
netns_heal gw-2 mm-1
e2e_log "wk-2 and gw-2 reach the matchmaker again"

netns_check_all "$MATCHES"
mm_log=$E2E_RUN/logs/matchmaker.log
grep -q 'worker wk-2 silent' "$mm_log" || e2e_fail "the matchmaker never declared wk-2 dead by silence"
grep -q 'worker wk-2 connection closed' "$mm_log" && e2e_fail "wk-2's connection closed: the cut was not silent"
awk '/worker wk-2 silent/ { dead = 1 } dead && /worker wk-2 (up|back)/ { seen = 1 }
    END { exit !seen }' "$mm_log" || e2e_fail "wk-2 was not registered again after the heal"
moved=$(awk '/worker wk-2 silent/ { d = 1 } d && / moved from wk-2 to / { n++ } END { print n + 0 }' "$mm_log")
((moved > 0)) || e2e_fail "no match moved off wk-2"
fenced=$(curl -fsS "http://$(netns_ip wk-2):5580/metrics" |
    awk '$1 == "deckhand_worker_fenced_writes_total" { print $2 }')
dropped=$(grep -c 'owned by another worker now' "$E2E_RUN/logs/worker-2.log" || true)
dead_ms=$(date -d "$(awk '/worker wk-2 silent/ { print $1; exit }' "$mm_log")" +%s%3N)
e2e_log "wk-2 declared dead by silence $((dead_ms - cut_ms)) ms after the cut; $moved matches moved;" \
    "the fence refused $fenced of its writes; it dropped $dropped matches it no longer owned"
((fenced > 0)) || e2e_fail "no write of wk-2 met the fence (fenced writes: '$fenced')"
((dropped == moved)) || e2e_fail "wk-2 dropped $dropped of its $moved moved matches"
# shellcheck disable=SC2086 # the victims, one word each
e2e_check_moved_off wk-2 $victims
