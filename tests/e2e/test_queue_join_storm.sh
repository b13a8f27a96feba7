#!/usr/bin/env bash
# A join storm through real gateways (issue 13): 14,000 players on two gateways log in,
# then all send their QueueJoin at the same moment (`deckhand load --join-once`), for
# 7,000 two-player matches on one worker. Every one must get Reply{ok} (never
# UNAVAILABLE while the matchmaker is merely busy) and MatchFound, no player may be told a
# refusal and then be matched, and no live worker may be declared dead. Before the
# matchmaker bounded the StartMatches a worker has in flight, this run sent the worker
# all 7,000 at once; those it could not start within the placement timeout were formed
# again elsewhere while it still started them, and more than half of the players never
# got MatchFound. The 20,000-player run of the same property is bench/join_storm.sh
# (docs/BENCHMARKS.md), through JOIN_STORM_PLAYERS, JOIN_STORM_WORKERS, JOIN_STORM_GATEWAYS
# (1 to 4) and JOIN_STORM_PORT.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

PLAYERS=${JOIN_STORM_PLAYERS:-14000}
GATEWAYS=${JOIN_STORM_GATEWAYS:-2}
# Each gateway holds its share of the players under its --max-conns default (the
# descriptor limit less a sixteenth and 64), inherited from this shell: raise the limit to
# the hard one, and on a machine where even that is too low, run fewer players.
hard=$(ulimit -Hn)
if [[ $hard != unlimited ]]; then
    ulimit -n "$hard"
    per_gateway=$((hard - 64 - hard / 16))
    if ((PLAYERS / GATEWAYS > per_gateway)); then
        PLAYERS=$((per_gateway * GATEWAYS / 1000 * 1000))
        e2e_log "descriptor limit $hard: $PLAYERS players only"
    fi
fi
# Workers (one unless told) that can seat everyone: the storm, not the capacity, is under test.
WORKERS=${JOIN_STORM_WORKERS:-1}
export DECKHAND_WORKER_CAPACITY=$((PLAYERS / 2))
e2e_start "${JOIN_STORM_PORT:-28300}" "$WORKERS" "$GATEWAYS"

out=$E2E_RUN/joins.out
rc=0
e2e_log "deckhand load --join-once --players $PLAYERS over $DECKHAND_GATEWAYS_TCP"
timeout 90 "$DECKHAND_BIN_DIR/deckhand" load --join-once --game dominion --size 2 \
    --players "$PLAYERS" --seconds 40 --gateway "$DECKHAND_GATEWAYS_TCP" \
    >"$out" 2>"$E2E_RUN/joins.err" </dev/null || rc=$?
tail -n 5 "$E2E_RUN/joins.err" >&2
last=$(grep '^joins ' "$out" | tail -n 1)
e2e_log "$last"
[[ -n $last ]] || e2e_fail "deckhand load --join-once printed no result (exit $rc)"
e2e_summary_at_least "$last" ok "$PLAYERS" "not every join was acknowledged ok"
e2e_summary_at_least "$last" found "$PLAYERS" "not every player got MatchFound"
[[ $last == *" unavailable=0 "* ]] || e2e_fail "players were told UNAVAILABLE: $last"
[[ $last == *" found_after_refusal=0 "* ]] ||
    e2e_fail "players were refused and then matched anyway: $last"
((rc == 0)) || e2e_fail "deckhand load --join-once exited with $rc: $last"

dead=$(curl -s "http://$DECKHAND_HTTP_MATCHMAKER/metrics" |
    awk '$1 == "deckhand_matchmaker_workers_dead_total" { print $2 }')
[[ $dead == 0 ]] || e2e_fail "the matchmaker declared $dead live worker(s) dead"
e2e_log "every join ok and matched, no worker declared dead"
