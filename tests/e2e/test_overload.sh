#!/usr/bin/env bash
# test_overload.sh: a cluster driven past saturation stays alive. 400 unpaced bots
# (--rate 0) play 200 two-player Dominion matches at once on two workers, as fast as the
# cluster answers (about 1,500 commands/s on this sanitized build). The workers keep beating between their
# time-bounded batches (docs/ARCHITECTURE.md, "Liveness"), so the matchmaker never takes
# a live worker for dead and moves nothing; nothing crashes and every match finishes.
# (Each bot has one command in flight, so the workers' inboxes stay under their bound
# here; tests/unit/test_worker_loop.c drives one past it, into OVERLOADED replies.)
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

MATCHES=200
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
