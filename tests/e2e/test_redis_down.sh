#!/usr/bin/env bash
# test_redis_down.sh: Redis stops for 5 s in the middle of play. No process may crash;
# players get a clear UNAVAILABLE error while it is gone; play resumes by itself when it
# returns, and nothing accepted is lost (every match finishes and replays to the hash the
# worker recorded). Redis runs with an append-only file, as a durable store should, so
# what it acknowledged before the stop is there after the restart.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

# 20 bots play 30 two-player matches, paced at 10 messages a second each so that a match
# lasts several seconds and the outage lands in the middle of ten of them.
MATCHES=30
e2e_start 25000 2
out=$E2E_RUN/bots.out
err=$E2E_RUN/bots.err

timeout 300 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players 20 --size 2 \
    --matches "$MATCHES" --rate 10 --timeout 60 --gateway "$DECKHAND_GATEWAY_TCP" \
    >"$out" 2>"$err" </dev/null &
bots_pid=$!

deadline=$((SECONDS + 60))
while (($(e2e_redis hlen matches:running) < 8)); do
    ((SECONDS < deadline)) || e2e_fail "the matches did not start"
    sleep 0.2
done
sleep 1
e2e_log "stopping redis for 5 s"
e2e_redis shutdown >/dev/null 2>&1 || true
dh_cluster_kill "$E2E_RUN" redis TERM
sleep 5
dh_cluster_alive "$E2E_RUN" || e2e_fail "a process died while redis was down"
e2e_log "starting redis again"
dh_cluster_restart "$E2E_RUN" redis
deadline=$((SECONDS + 10))
until e2e_redis ping >/dev/null 2>&1; do
    ((SECONDS < deadline)) || e2e_fail "redis did not come back"
    sleep 0.1
done

rc=0
wait "$bots_pid" || rc=$?
last=$(grep -v '^[[:space:]]*$' "$out" | tail -n 1)
e2e_log "bots: $last; $(grep -E '^bots: retried=' "$err" | tail -n 1)"
((rc == 0)) || { tail -n 20 "$err" >&2; e2e_fail "deckhand bots exited with $rc"; }
[[ $last == "matches_completed=$MATCHES errors=0" ]] || e2e_fail "bots ended with '$last'"
grep -q 'store unavailable\|UNAVAILABLE\|unavailable' "$err" ||
    e2e_fail "no player was told that the store was unavailable"
e2e_log "players were told: $(grep -m1 -o 'failed: [^(]*unavailable[^(]*' "$err" || grep -m1 unavailable "$err")"
e2e_check_finished "$MATCHES"
e2e_check_replays
e2e_log "every process survived and every match finished and replays"
