#!/usr/bin/env bash
# test_overload.sh: a cluster driven past saturation stays alive. 400 unpaced bots
# (--rate 0) play 200 two-player Dominion matches at once on two workers, as fast as the
# cluster answers (about 1,500 commands/s on this sanitized build). The workers keep beating between their
# time-bounded batches (docs/worker.md, "Liveness"), so the matchmaker never takes
# a live worker for dead and moves nothing; nothing crashes and every match finishes.
# Each bot has one command in flight, so about 200 can queue at a worker: the workers run
# with --inbox-max 24 (through its variable) to be driven past their bound, and must answer
# the excess OVERLOADED, which the bots retry, rather than queue it or fall over.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

MATCHES=200
export DECKHAND_WORKER_INBOX_MAX=24
e2e_start 22500 2
e2e_log "deckhand bots: $((MATCHES * 2)) unpaced players, $MATCHES matches"
started=$SECONDS
timeout 300 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players $((MATCHES * 2)) \
    --size 2 --matches "$MATCHES" --rate 0 --timeout 240 --gateway "$DECKHAND_GATEWAYS_TCP" \
    >"$E2E_RUN/bots.out" 2>"$E2E_RUN/bots.err" </dev/null &
E2E_BOTS_PID=$!
e2e_bots_wait "$MATCHES"
e2e_log "$MATCHES matches played in $((SECONDS - started)) s"

mm_log=$E2E_RUN/logs/matchmaker.log
# (the registry's line; a bare "dead" would also match match ids, which are hex)
! grep -E 'worker [^ ]+ silent for [0-9]+ ms' "$mm_log" >&2 ||
    e2e_fail "the matchmaker declared a live worker dead under load"
! grep -q 'adopted at epoch' "$E2E_RUN"/logs/worker-*.log ||
    e2e_fail "a match moved between live workers"
e2e_check_finished "$MATCHES"

# Past saturation is shown by the refusals: OVERLOADED answers counted by the workers, and
# retried by the bots (their summary line).
overloaded=0
for url in "$DECKHAND_HTTP_WORKER_1" "$DECKHAND_HTTP_WORKER_2"; do
    n=$(curl -fsS "http://$url/metrics" |
        sed -n 's/^deckhand_worker_replies_refused_total{code="OVERLOADED"} \([0-9]*\)$/\1/p')
    overloaded=$((overloaded + ${n:-0}))
done
e2e_log "OVERLOADED replies: $overloaded"
((overloaded > 0)) || e2e_fail "no worker answered OVERLOADED: the run never passed saturation"
e2e_summary_at_least "$(grep -E "^bots: retried=" "$E2E_RUN/bots.err" | tail -n 1)" retried 1 "no bot retried a refusal"
