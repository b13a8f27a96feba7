#!/usr/bin/env bash
# The search bot as a difficulty where a bot plays (issue 17), on a real cluster:
# - bot fill: a queue with `bot=search` (the queues file) seats the search bot in the
#   seat a lone player lacks; the worker answers that seat itself, each decision within
#   its 50 ms budget, and the match plays to its end by the game's rules (unrated, the bot
#   seat recorded as "search", the worker's search_answers metric counting its answers);
# - `deckhand bots --bot search`: both players answer every decision with
#   Choose{bot: "search"} and their match plays to its end;
# - a queues file naming a bot no worker plays stops the matchmaker at start, naming it.
# Caveman: the shortest game; one match each, bounded in time.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

GAME=caveman

bad=$(mktemp "${TMPDIR:-/tmp}/deckhand-e2e-search-bad.XXXXXX")
echo "$GAME casual bot=cheater" >"$bad"
rc=0
out=$(timeout 10 "$DECKHAND_BIN_DIR/deckhand-matchmaker" --queues "$bad" --insecure-internal \
    --redis redis://127.0.0.1:1 2>&1) || rc=$?
rm -f "$bad"
((rc != 0)) || e2e_fail "the matchmaker started with an unknown queue bot"
[[ $out == *":1: unknown bot 'cheater'"*"(default|search|easy|normal|hard)"* ]] ||
    e2e_fail "the matchmaker's refusal does not name the bot and the choices: $out"
e2e_log "an unknown queue bot stops the matchmaker: $(grep -o "unknown bot.*" <<<"$out" | head -n 1)"

queues=$(mktemp "${TMPDIR:-/tmp}/deckhand-e2e-search.XXXXXX")
echo "$GAME casual bot_fill_ms=500 bot=search" >"$queues"
export DECKHAND_QUEUES=$queues
e2e_start 29000 1
rm -f "$queues"

# The worker's count of answers the search bot made (its /metrics).
search_answers() {
    curl -sf "http://$DECKHAND_HTTP_WORKER_1/metrics" |
        awk '$1 == "deckhand_worker_search_answers_total" { printf "%d\n", $2 }'
}

before=$(search_answers)
[[ $before == 0 ]] || e2e_fail "the worker counts $before search answers before any match"

e2e_log "deckhand bots --game $GAME --players 1 --size 2 (alone: the search bot fills the other seat)"
rc=0
timeout 240 "$DECKHAND_BIN_DIR/deckhand" bots --game "$GAME" --players 1 --size 2 --matches 1 \
    --timeout 200 >"$E2E_RUN/fill.out" 2>"$E2E_RUN/fill.err" </dev/null || rc=$?
last=$(grep -v '^[[:space:]]*$' "$E2E_RUN/fill.out" | tail -n 1)
if ((rc != 0)) || [[ $last != "matches_completed=1 errors=0" ]]; then
    tail -n 20 "$E2E_RUN/fill.err" >&2
    e2e_fail "the bot-filled match ended with '$last' (exit $rc)"
fi
e2e_check_finished 1
id=$(e2e_redis lrange matches:finished 0 0)
key=$(_e2e_match_key "$id")
bots=$(e2e_redis hget "$key" bots)
[[ $bots == ,search || $bots == search, ]] || e2e_fail "$key: bot seats '$bots', want the search bot"
[[ $(e2e_redis hget "$key" queue_bot) == search ]] || e2e_fail "$key: the queue's bot is not kept"
[[ $(e2e_redis hget "$key" unrated) == 1 ]] || e2e_fail "$key: not marked unrated"
[[ -z $(e2e_redis hget "$key" end_reason) ]] || e2e_fail "$key: not ended by its rules"
filled=$(search_answers)
((filled > 0)) || e2e_fail "the worker counts no search answers after the bot-filled match"
e2e_log "bot fill: $id finished by its rules, the search bot answered $filled decisions"

e2e_log "deckhand bots --game $GAME --players 2 --size 2 --bot search"
rc=0
timeout 240 "$DECKHAND_BIN_DIR/deckhand" bots --game "$GAME" --players 2 --size 2 --matches 1 \
    --bot search --timeout 200 >"$E2E_RUN/bots.out" 2>"$E2E_RUN/bots.err" </dev/null || rc=$?
last=$(grep -v '^[[:space:]]*$' "$E2E_RUN/bots.out" | tail -n 1)
if ((rc != 0)) || [[ $last != "matches_completed=1 errors=0" ]]; then
    tail -n 20 "$E2E_RUN/bots.err" >&2
    e2e_fail "the --bot search match ended with '$last' (exit $rc)"
fi
e2e_check_finished 2
id=$(e2e_redis lrange matches:finished 0 0)
key=$(_e2e_match_key "$id")
[[ -z $(e2e_redis hget "$key" bots) || $(e2e_redis hget "$key" bots) == , ]] ||
    e2e_fail "$key: players' match has bot seats '$(e2e_redis hget "$key" bots)'"
[[ -z $(e2e_redis hget "$key" end_reason) ]] || e2e_fail "$key: not ended by its rules"
e2e_check_replays
e2e_log "every search answer came from the worker, each match ended by its rules"
