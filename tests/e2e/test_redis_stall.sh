#!/usr/bin/env bash
# test_redis_stall.sh: Redis stalls for 5 s (SIGSTOP: it holds its connections but answers
# nothing, as a Redis stuck in a long fork or a saturated disk does) in the middle of play.
# Every process waits out its Redis timeouts meanwhile. The issue's finding: the
# matchmaker then judged the workers' silence against a clock that had run on while its
# own writes waited, with their beats unread in its socket, and declared both live workers
# dead ("silent for 2137 ms"), moving 200 matches needlessly. Here no worker may be
# declared dead and no match may move; every match finishes once and replays.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

MATCHES=30
e2e_start_busy "$MATCHES" 28700 2
read -r redis_pid _ <"$E2E_RUN/pids/redis.pid"
e2e_log "SIGSTOP to redis for 5 s, $(e2e_redis hlen matches:running) matches running"
kill -STOP "$redis_pid"
# Players joining meanwhile: the matchmaker holds their joins and each of its drains then
# waits out its write of them, as under the issue's 1,000 matches with players queueing.
sleep 0.5
timeout 120 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players 8 --size 2 --matches 4 \
    --rate 5 --timeout 60 --gateway "$DECKHAND_GATEWAYS_TCP" \
    >"$E2E_RUN/late.out" 2>"$E2E_RUN/late.err" </dev/null &
late=$!
sleep 4.5
kill -CONT "$redis_pid"
e2e_log "SIGCONT to redis"

e2e_bots_wait "$MATCHES"
wait "$late" || e2e_fail "the players who joined during the stall did not play: $(tail -n 3 "$E2E_RUN/late.err")"
e2e_log "the players who joined during the stall: $(tail -n 1 "$E2E_RUN/late.out")"
mm_log=$E2E_RUN/logs/matchmaker.log
verdicts=$(grep -E 'worker wk-[0-9]+ (silent|connection closed|stuck)' "$mm_log" || true)
[[ -z $verdicts ]] || e2e_fail "a live worker was declared dead: $verdicts"
moved=$(grep -c ' moved from ' "$mm_log" || true)
((moved == 0)) || e2e_fail "$moved matches moved although no worker died"
e2e_log "no worker declared dead, no match moved"
e2e_check_finished_once $((MATCHES + 4))
e2e_log "every match finished once and replays"
