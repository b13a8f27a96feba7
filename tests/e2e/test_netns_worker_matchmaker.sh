#!/usr/bin/env bash
# test_netns_worker_matchmaker.sh: a worker's host cut off from the matchmaker for 4 s
# while it still reaches Redis and the gateways, and with it both gateways (the
# matchmaker's zone cut off from the others; tests/e2e/netns_lib.sh). Nothing closes: the
# worker's beats just stop arriving, so the matchmaker declares it dead by silence (1.5 s
# after its last beat) and moves its matches, bumping each one's epoch. The worker runs
# on meanwhile, and the gateways, which do not hear of the moves (MatchMoved), still send
# it the players' answers: every write it tries to a moved match fails the epoch fence,
# so it answers UNKNOWN_MATCH and drops the match, and the player's resync finds the new
# worker through Redis. What it still says about a moved match never reaches a player as
# news (the bots fail on a decision offered again after its answer was accepted, or on a
# View older than one seen). Once healed, it is registered again. Every match finishes
# once and replays, and every decision answered is in its match's history exactly once.
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
e2e_log "cutting wk-2 ($nvictims matches) and the gateways off from the matchmaker for $CUT_S s"
for h in wk-2 gw-1 gw-2; do netns_cut "$h" mm-1; done
cut_ms=$(date +%s%3N)
sleep "$CUT_S"
for h in wk-2 gw-1 gw-2; do netns_heal "$h" mm-1; done
e2e_log "wk-2 and the gateways reach the matchmaker again"

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
