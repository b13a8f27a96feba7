#!/usr/bin/env bash
# test_attach_burst.sh: every player of a start burst is attached (issue 26). When a match
# is placed, the gateway attaches each of its players with its own Resync (cmd_id 0) to the
# match's worker; nobody retries it. A worker whose bounded inbox was full refused it
# OVERLOADED like bulk work, so in a burst of matches some players were never attached:
# MatchFound, then nothing, until the worker counted the seat away (HOST_ATTACH_MS, 10 s)
# and a bot played it after the grace period. Here 120 bots join at once on two workers
# whose inbox holds one command (--inbox-max through its variable), so the burst of 120
# attaches overflows it many times over (before the fix, 88 players were never attached,
# and the bots finished only after the grace period): every player must still be attached
# (no "never attached" in the workers' logs) and every match played by its players to the
# end, while the bots' own commands beyond the bound are still refused OVERLOADED (and
# retried), as a bounded inbox promises.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

MATCHES=60
export DECKHAND_WORKER_INBOX_MAX=1
e2e_start 28600 2
e2e_log "deckhand bots: $((MATCHES * 2)) players joining at once, $MATCHES matches"
timeout 200 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players $((MATCHES * 2)) \
    --size 2 --matches "$MATCHES" --rate 20 --timeout 150 --gateway "$DECKHAND_GATEWAYS_TCP" \
    >"$E2E_RUN/bots.out" 2>"$E2E_RUN/bots.err" </dev/null &
E2E_BOTS_PID=$!
e2e_bots_wait "$MATCHES"

never=$(cat "$E2E_RUN"/logs/worker-*.log | grep -c 'never attached')
((never == 0)) || e2e_fail "$never players of placed matches were never attached"
e2e_check_finished "$MATCHES"

overloaded=0
for url in "$DECKHAND_HTTP_WORKER_1" "$DECKHAND_HTTP_WORKER_2"; do
    n=$(curl -fsS "http://$url/metrics" |
        sed -n 's/^deckhand_worker_replies_refused_total{code="OVERLOADED"} \([0-9]*\)$/\1/p')
    overloaded=$((overloaded + ${n:-0}))
done
e2e_log "OVERLOADED replies: $overloaded; every player attached"
((overloaded > 0)) || e2e_fail "no worker answered OVERLOADED: the inbox was never full"
