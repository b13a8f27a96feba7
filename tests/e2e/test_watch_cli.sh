#!/usr/bin/env bash
# test_watch_cli.sh: `deckhand watch` on a real cluster (ports from 28200). Two bots play
# one Dominion match slowly; `deckhand watch --list` names it, and `deckhand watch ID`
# prints its frames (public zones only: no hand or deck lists a card) and its public log
# (never a seat's "You draw ...") down to the game over, then exits 0. An unknown match
# exits 1 with the gateway's reason.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

export DECKHAND_SPECTATOR_DELAY_MS=1000
e2e_start 28200 2
export DECKHAND_REDIS_URL
timeout 150 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players 2 --size 2 \
    --matches 1 --rate 8 --timeout 30 --gateway "$DECKHAND_GATEWAY_TCP" \
    >"$E2E_RUN/bots.out" 2>"$E2E_RUN/bots.err" </dev/null &
E2E_BOTS_PID=$!
e2e_wait_running 1

list=$(timeout 20 "$DECKHAND_BIN_DIR/deckhand" watch --list --game dominion \
    --gateway "$DECKHAND_GATEWAY_TCP") || e2e_fail "deckhand watch --list failed"
e2e_log "watch list: $list"
match=$(awk '$2 == "dominion" { print $1; exit }' <<<"$list")
[[ $match == m-* ]] || e2e_fail "no dominion match in the watch list: $list"

out=$E2E_RUN/watch.out
timeout 120 "$DECKHAND_BIN_DIR/deckhand" watch "$match" --gateway "$DECKHAND_GATEWAY_TCP" \
    >"$out" 2>"$E2E_RUN/watch.err" || e2e_fail "deckhand watch exited with $?: $(cat "$E2E_RUN/watch.err")"
e2e_bots_wait 1
frames=$(grep -c '^frame ' "$out")
e2e_log "deckhand watch printed $frames frames, $(grep -c '^  | ' "$out") log lines"
((frames >= 5)) || e2e_fail "only $frames frames: $(head -n 20 "$out")"
grep -q '^game over' "$out" || e2e_fail "no game over: $(tail -n 5 "$out")"
[[ $(tail -n 1 "$out") == "game over"* ]] || e2e_fail "something after the game over"
grep -q ' ms behind' "$out" || e2e_fail "frames do not say how far behind they are"
grep -qE '^  (hand|deck)\[[^]]*\] \([0-9]+\): ' "$out" &&
    e2e_fail "a hand or deck listed cards: $(grep -E '^  (hand|deck)\[' "$out" | head -n 3)"
grep -qE '^  hand\[[^]]*\] \([0-9]+\)$' "$out" || e2e_fail "no hand shown as a count only"
grep -q '^  | You ' "$out" && e2e_fail "a private log line: $(grep '^  | You ' "$out" | head -n 1)"
grep -q '^  | ' "$out" || e2e_fail "no public log line"

if timeout 20 "$DECKHAND_BIN_DIR/deckhand" watch m-0000000000000000 \
    --gateway "$DECKHAND_GATEWAY_TCP" >/dev/null 2>"$E2E_RUN/unknown.err"; then
    e2e_fail "watching an unknown match succeeded"
fi
grep -q 'no such match' "$E2E_RUN/unknown.err" || e2e_fail "unknown match: $(cat "$E2E_RUN/unknown.err")"
e2e_log "ok"
