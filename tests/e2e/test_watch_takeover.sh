#!/usr/bin/env bash
# test_watch_takeover.sh: the watch list after the acting matchmaker dies (ports from
# 29600). Bots play two slow Dominion matches; `deckhand watch --list` names both. The
# matchmaker is killed with SIGKILL and another one, under another id, starts on its
# address: it waits for mm:lease to lapse, takes it over and, having placed none of the
# running matches itself, rebuilds its watch list from matches:running and match:{ID}
# (matchmaker/failover/watch_load.h). Its `deckhand watch --list` must name the matches mm-1
# placed that still run (the bots play slowly, so that they do).
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

MATCHES=2

e2e_start 29600 2
export DECKHAND_REDIS_URL
timeout 150 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players $((MATCHES * 2)) \
    --size 2 --matches "$MATCHES" --rate 2 --timeout 120 --gateway "$DECKHAND_GATEWAY_TCP" \
    >"$E2E_RUN/bots.out" 2>"$E2E_RUN/bots.err" </dev/null &
E2E_BOTS_PID=$!
e2e_wait_running "$MATCHES"

# The ids `deckhand watch --list` names, one a line, sorted.
watch_ids() {
    timeout 20 "$DECKHAND_BIN_DIR/deckhand" watch --list --game dominion \
        --gateway "$DECKHAND_GATEWAY_TCP" 2>"$E2E_RUN/watch.err" | awk '$1 ~ /^m-/ { print $1 }' | sort
}
running_ids() { e2e_redis hkeys matches:running | sort; }

before=$(watch_ids)
(($(wc -l <<<"$before") == MATCHES)) || e2e_fail "the acting matchmaker lists '$before'"
e2e_log "acting matchmaker mm-1 lists: $(tr '\n' ' ' <<<"$before")"

dh_cluster_kill "$E2E_RUN" matchmaker KILL
sed -i 's/--id mm-1/--id mm-next/' "$E2E_RUN/cmds/matchmaker"
grep -q -- '--id mm-next' "$E2E_RUN/cmds/matchmaker" || e2e_fail "the matchmaker's id not changed"
dh_cluster_restart "$E2E_RUN" matchmaker
deadline=$((SECONDS + 15))
until [[ $(e2e_redis get 'mm:{mm}:lease') == mm-next ]]; do
    ((SECONDS < deadline)) || e2e_fail "mm-next did not take mm:lease over"
    sleep 0.1
done
e2e_log "mm-next took mm:lease over"

# The rebuild takes a step per loop turn; the gateway reconnects to the new process.
deadline=$((SECONDS + 15))
while :; do
    after=$(watch_ids)
    still=$(comm -12 <(printf '%s\n' "$before") <(running_ids))
    [[ -n $still ]] || e2e_fail "the matches of mm-1 ended before the check: play slower"
    missing=$(comm -23 <(printf '%s\n' "$still") <(printf '%s\n' "$after"))
    [[ -z $missing ]] && break
    ((SECONDS < deadline)) ||
        e2e_fail "mm-next lists '$after' while '$still' run ($(cat "$E2E_RUN/watch.err"))"
    sleep 0.5
done
e2e_log "mm-next lists the running matches mm-1 placed: $(tr '\n' ' ' <<<"$still")"
grep -qE 'watch list rebuilt: [1-9][0-9]* running matches restored' \
    "$E2E_RUN/logs/matchmaker.log" || e2e_fail "mm-next did not log its rebuild"

kill "$E2E_BOTS_PID" 2>/dev/null
wait "$E2E_BOTS_PID" 2>/dev/null
e2e_log "ok"
