#!/usr/bin/env bash
# test_gateway_fdlimit.sh: a gateway started with a low descriptor limit (ulimit -n 256)
# and flooded with more connections than it can hold. It refuses the extra ones cleanly
# (an OVERLOADED Reply, then the connection closed) and counts them in /metrics; while
# the flood is held its /healthz answers within 1 s, it burns no CPU and its log stays
# short; once the flood is gone it serves a normal client; it stops on SIGTERM within
# 2 s. Then the same with --max-conns above what the descriptors allow, so that accept
# itself fails (EMFILE): accepting pauses instead of spinning, and SIGTERM still works.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

FLOOD=400
e2e_start 32000 2
BASE=$DECKHAND_REDIS_PORT
GW_TCP=$((BASE + 40))
GW_WS=$((BASE + 41))
GW_HTTP=127.0.0.1:$((BASE + 42))
GW_PID=
FLOOD_PID=
trap 'rc=$?; [[ -n $FLOOD_PID ]] && kill "$FLOOD_PID" 2>/dev/null;
      [[ -n $GW_PID ]] && kill -9 "$GW_PID" 2>/dev/null; (exit $rc); _e2e_cleanup' EXIT

# start_gateway LOG [FLAGS...]: a gateway under ulimit -n 256 on the test's own ports.
start_gateway() {
    local log=$1 deadline=$((SECONDS + 20))
    shift
    (
        ulimit -n 256
        DECKHAND_TOKEN_KEY=$(cat "$E2E_RUN/token.key") exec "$DECKHAND_BIN_DIR/deckhand-gateway" \
            --redis "$DECKHAND_REDIS_URL" --matchmaker "$DECKHAND_MATCHMAKER" \
            --tcp "127.0.0.1:$GW_TCP" --ws "127.0.0.1:$GW_WS" --id gw-fd --http "$GW_HTTP" "$@"
    ) 2>"$log" &
    GW_PID=$!
    until [[ $(curl -s -m 1 -o /dev/null -w '%{http_code}' "http://$GW_HTTP/readyz") == 200 ]]; do
        ((SECONDS < deadline)) || e2e_fail "the gateway did not get ready: $(tail -n 5 "$log")"
        sleep 0.2
    done
}

# flood N: hold N connections to the gateway (tests/e2e/flood.py) in the background;
# sets FLOOD_STATUS once it reports.
flood() {
    local deadline=$((SECONDS + 30))
    rm -f "$E2E_RUN/flood.status" "$E2E_RUN/flood.stop"
    python3 "$E2E_SRC/tests/e2e/flood.py" "$GW_TCP" "$1" "$E2E_RUN/flood.status" \
        "$E2E_RUN/flood.stop" 60 &
    FLOOD_PID=$!
    until [[ -s $E2E_RUN/flood.status ]]; do
        ((SECONDS < deadline)) || e2e_fail "the flood did not report within 30 s"
        sleep 0.2
    done
    FLOOD_STATUS=$(cat "$E2E_RUN/flood.status")
    e2e_log "flood of $1: $FLOOD_STATUS"
}

release_flood() {
    touch "$E2E_RUN/flood.stop"
    wait "$FLOOD_PID" 2>/dev/null
    FLOOD_PID=
}

# CPU seconds (x100) the gateway used over 2 s: utime + stime from /proc/PID/stat.
cpu_ticks_over_2s() {
    local a b
    a=$(awk '{ print $14 + $15 }' "/proc/$GW_PID/stat")
    sleep 2
    b=$(awk '{ print $14 + $15 }' "/proc/$GW_PID/stat")
    echo $((b - a))
}

check_calm() {
    local log=$1 ticks lines
    ticks=$(cpu_ticks_over_2s)
    ((ticks < 50)) || e2e_fail "the gateway used $ticks/100 s of CPU in 2 s while flooded"
    lines=$(wc -l <"$log")
    ((lines < 300)) || e2e_fail "the gateway's log grew to $lines lines: $(tail -n 3 "$log")"
    e2e_log "gateway calm: $ticks/100 s of CPU in 2 s, $lines log lines"
}

stop_gateway() {
    local deadline=$((SECONDS + 2))
    kill -TERM "$GW_PID"
    while kill -0 "$GW_PID" 2>/dev/null; do
        ((SECONDS <= deadline)) || e2e_fail "the gateway did not stop within 2 s of SIGTERM"
        sleep 0.1
    done
    wait "$GW_PID" || e2e_fail "the gateway exited with $? after SIGTERM"
    GW_PID=
}

# 1. The default --max-conns (from the descriptor limit): extra connections refused.
LOG1=$E2E_RUN/logs/gateway-fd.log
start_gateway "$LOG1"
flood "$FLOOD"
[[ $FLOOD_STATUS =~ opened=([0-9]+)\ refused=([0-9]+)\ overloaded=([0-9]+) ]] ||
    e2e_fail "flood status '$FLOOD_STATUS'"
((BASH_REMATCH[1] == FLOOD)) || e2e_fail "only ${BASH_REMATCH[1]} of $FLOOD connections opened"
((BASH_REMATCH[2] > 0)) || e2e_fail "no connection past the limit was refused"
((BASH_REMATCH[3] == BASH_REMATCH[2])) ||
    e2e_fail "refused connections closed without an OVERLOADED Reply: $FLOOD_STATUS"
code=$(curl -s -m 1 -o /dev/null -w '%{http_code}' "http://$GW_HTTP/healthz")
[[ $code == 200 ]] || e2e_fail "/healthz answered '$code' within 1 s while flooded"
refused=$(curl -s -m 1 "http://$GW_HTTP/metrics" |
    awk '$1 == "deckhand_gateway_connections_refused_total" { print $2 }')
((${refused:-0} > 0)) || e2e_fail "/metrics counts no refused connection"
check_calm "$LOG1"
release_flood
out=$(timeout 60 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players 2 --size 2 \
    --matches 1 --timeout 30 --gateway "127.0.0.1:$GW_TCP" 2>/dev/null </dev/null | tail -n 1)
[[ $out == "matches_completed=1 errors=0" ]] || e2e_fail "after the flood: '$out'"
e2e_log "after the flood the gateway serves: $out"
stop_gateway

# 2. --max-conns above the descriptor limit: accept fails with EMFILE and pauses.
LOG2=$E2E_RUN/logs/gateway-fd-emfile.log
start_gateway "$LOG2" --max-conns 1000
flood "$FLOOD"
check_calm "$LOG2"
grep -q 'accept paused' "$LOG2" || e2e_fail "the gateway did not say it paused accepting"
release_flood
stop_gateway
