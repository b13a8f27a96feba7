#!/usr/bin/env bash
# test_drain.sh: a worker stopped with SIGTERM in the middle of play (a rolling update, a
# scale-down) hands its matches over at once. Its last beat tells the matchmaker it
# stops, so its matches move without waiting for the 1.5 s of silence that declares a
# killed worker dead; the players resync and every match finishes, replaying to the hash
# the workers recorded.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

MATCHES=30
e2e_start 28000 3
out=$E2E_RUN/bots.out
err=$E2E_RUN/bots.err
timeout 300 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players $((MATCHES * 2)) \
    --size 2 --matches "$MATCHES" --rate 5 --timeout 60 --gateway "$DECKHAND_GATEWAY_TCP" \
    >"$out" 2>"$err" </dev/null &
bots_pid=$!

deadline=$((SECONDS + 60))
while (($(e2e_redis hlen matches:running) < MATCHES * 3 / 4)); do
    ((SECONDS < deadline)) || e2e_fail "the matches did not start"
    kill -0 "$bots_pid" 2>/dev/null || e2e_fail "the bots exited early: $(tail -n 5 "$err")"
    sleep 0.2
done
sleep 1
victims=$(e2e_redis hgetall matches:running | paste - - | awk '$2 == "wk-2" { print $1 }')
nvictims=$(wc -w <<<"$victims")
((nvictims > 0)) || e2e_fail "no match runs on wk-2"
e2e_log "SIGTERM to worker wk-2, which hosts $nvictims matches"
dh_cluster_kill "$E2E_RUN" worker-2 TERM

rc=0
wait "$bots_pid" || rc=$?
last=$(grep -v '^[[:space:]]*$' "$out" | tail -n 1)
e2e_log "bots: $last; $(grep -E '^bots: retried=' "$err" | tail -n 1)"
((rc == 0)) || { tail -n 20 "$err" >&2; e2e_fail "deckhand bots exited with $rc"; }
[[ $last == "matches_completed=$MATCHES errors=0" ]] || e2e_fail "bots ended with '$last'"

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
