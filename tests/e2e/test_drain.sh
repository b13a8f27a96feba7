#!/usr/bin/env bash
# test_drain.sh: a worker stopped with SIGTERM in the middle of play (a rolling update, a
# scale-down) hands its matches over at once. Its last beat tells the matchmaker it
# stops, so its matches move without waiting for the 1.5 s of silence that declares a
# killed worker dead; the players resync and every match finishes, replaying to the hash
# the workers recorded.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

MATCHES=30
e2e_start_busy "$MATCHES" 28000 3
victims=$(e2e_matches_on wk-2)
nvictims=$(wc -w <<<"$victims")
((nvictims > 0)) || e2e_fail "no match runs on wk-2"
e2e_log "SIGTERM to worker wk-2, which hosts $nvictims matches"
dh_cluster_kill "$E2E_RUN" worker-2 TERM

e2e_bots_wait "$MATCHES"

mm_log=$E2E_RUN/logs/matchmaker.log
grep -q 'worker wk-2 stopping' "$mm_log" || e2e_fail "the matchmaker did not hear wk-2 stop"
! grep -q 'worker wk-2 silent' "$mm_log" ||
    e2e_fail "wk-2's matches waited for its silence instead of moving at its last beat"
grep -q 'stopping with' "$E2E_RUN/logs/worker-2.log" || e2e_fail "wk-2 did not stop cleanly"
adopted=$(cat "$E2E_RUN"/logs/worker-[13].log | grep -c ': adopted at epoch' || true)
((adopted >= nvictims)) || e2e_fail "only $adopted of $nvictims matches of wk-2 were adopted"
e2e_log "$adopted matches of wk-2 adopted by the other workers"

e2e_check_finished "$MATCHES"
e2e_check_replays
e2e_log "every match finished and replays"
