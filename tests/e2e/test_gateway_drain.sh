#!/usr/bin/env bash
# test_gateway_drain.sh: a gateway stopped with SIGTERM drains (gateway/drain.c). Bots
# play on two gateways; gw-1 gets SIGTERM mid-game. Its /readyz fails at once, it stops
# accepting, every bot on it is told to Reconnect and resumes on gw-2 (no accepted
# command lost), gw-1 exits within its drain grace period (--drain-ms, 3 s by default)
# having seen every connection go rather than closing them itself, and every match
# finishes and replays. A `deckhand play` waiting in a queue on gw-1 follows the
# Reconnect to gw-2 and queues again there. Then the drained gateway starts again and
# serves.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

MATCHES=16
DRAIN_MS=3000
e2e_start_busy "$MATCHES" 27300 2 2
GW1_HTTP=$DECKHAND_HTTP_GATEWAY
[[ $(curl -s -m 1 -o /dev/null -w '%{http_code}' "http://$GW1_HTTP/readyz") == 200 ]] ||
    e2e_fail "gw-1 is not ready before the drain"
connected=$(curl -s -m 1 "http://$GW1_HTTP/metrics" |
    awk '$1 ~ /^deckhand_gateway_connections/ { n += $2 } END { print n + 0 }')
((connected > 0)) || e2e_fail "no bot is connected to gw-1 before the drain"

# A player of `deckhand play` waits in a 3-player queue (the bots play 2-player matches)
# on gw-1, knowing both gateways; its stdin (a fifo this shell holds open) stays silent.
mkfifo "$E2E_RUN/play.in"
"$DECKHAND_BIN_DIR/deckhand" play --game dominion --size 3 --name drained \
    --gateway "$DECKHAND_GATEWAYS_TCP" <"$E2E_RUN/play.in" >"$E2E_RUN/play.out" 2>&1 &
PLAY_PID=$!
exec {PLAY_IN}>"$E2E_RUN/play.in"
deadline=$((SECONDS + 10))
until grep -q 'Waiting for 3-player' "$E2E_RUN/play.out"; do
    ((SECONDS < deadline)) || e2e_fail "deckhand play did not queue: $(cat "$E2E_RUN/play.out")"
    sleep 0.1
done

read -r pid prog <"$E2E_RUN/pids/gateway.pid"
e2e_log "SIGTERM gateway gw-1 (pid $pid) with $connected connections and $(e2e_redis hlen matches:running) matches running"
start=$(date +%s%N)
kill -TERM "$pid"

# Not ready at once (the operator port keeps answering while the loop drains).
code=$(curl -s -m 1 -o /dev/null -w '%{http_code}' "http://$GW1_HTTP/readyz")
ready_ms=$((($(date +%s%N) - start) / 1000000))
[[ $code == 503 ]] || e2e_fail "gw-1 /readyz answered $code ${ready_ms} ms after SIGTERM, want 503"
curl -s -m 1 "http://$GW1_HTTP/readyz" | grep -q draining ||
    e2e_fail "gw-1 /readyz does not say it is draining"
e2e_log "gw-1 /readyz: 503 draining, ${ready_ms} ms after SIGTERM"

# No longer accepting.
if dh_port_open "${DECKHAND_GATEWAY_TCP##*:}"; then
    e2e_fail "gw-1 still accepts TCP connections while draining"
fi

while _dh_pid_is "$pid" "$prog"; do
    (($(date +%s%N) - start < (DRAIN_MS + 1500) * 1000000)) ||
        e2e_fail "gw-1 still runs $((DRAIN_MS + 1500)) ms after SIGTERM (--drain-ms $DRAIN_MS)"
    sleep 0.05
done
exit_ms=$((($(date +%s%N) - start) / 1000000))
rm -f "$E2E_RUN/pids/gateway.pid" # stopped on purpose: not a death for the cleanup
log=$E2E_RUN/logs/gateway.log
grep -q 'drained: every connection has gone' "$log" ||
    e2e_fail "gw-1 did not see every player leave: $(grep -E 'drain' "$log" | tail -n 3)"
told=$(grep -oE 'draining: not accepting; [0-9]+ of' "$log" | grep -oE '[0-9]+' | head -n 1)
e2e_log "gw-1 exited ${exit_ms} ms after SIGTERM, every connection gone; it told ${told:-0}"
deadline=$((SECONDS + 10))
until [[ $(grep -c 'Waiting for 3-player' "$E2E_RUN/play.out") -ge 2 ]]; do
    ((SECONDS < deadline)) || e2e_fail "deckhand play did not queue again: $(cat "$E2E_RUN/play.out")"
    sleep 0.1
done
grep -q 'The gateway is shutting down: moving to another' "$E2E_RUN/play.out" ||
    e2e_fail "deckhand play did not act on the Reconnect: $(cat "$E2E_RUN/play.out")"
exec {PLAY_IN}>&- # end of input: play leaves
wait "$PLAY_PID" || e2e_fail "deckhand play exited with $?: $(tail -n 5 "$E2E_RUN/play.out")"
e2e_log "deckhand play followed the Reconnect to gw-2 and queued again"

e2e_bots_wait "$MATCHES"
summary=$(grep -E '^bots: retried=' "$E2E_RUN/bots.err" | tail -n 1)
[[ $summary =~ lost=0 ]] || e2e_fail "a bot saw an accepted command disappear: $summary"
e2e_summary_at_least "$summary" told_reconnect "$connected" \
    "fewer bots were told to reconnect than were connected to gw-1 ($connected)"
e2e_summary_at_least "$summary" moved_gateway "$connected" \
    "fewer bots resumed on gw-2 than were connected to gw-1 ($connected)"
e2e_log "$summary"
e2e_check_finished "$MATCHES"
e2e_check_replays

# The drained gateway starts again and serves.
e2e_gateway_restarts_and_serves "$DECKHAND_GATEWAY_TCP"
