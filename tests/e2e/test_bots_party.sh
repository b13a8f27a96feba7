#!/usr/bin/env bash
# `deckhand bots --party N`: bots that play in parties, as friends who queue together
# would. Four bots in parties of two, in two-player matches: each party's leader makes the
# party, the other joins it by its code, the leader queues it, and the two sit in one
# match together, every time (a party is one ticket): every finished match's players are
# one party. Then `--lobby`: every two bots meet in a private lobby (the first makes it,
# the other joins by its code, both mark ready, the first starts it), matches that come
# from lobbies, never from the queue.
# Last, the matchmaker down when the parties are asked for: the gateway answers the party
# requests UNAVAILABLE ("retry later"), the bots retry them after a backoff, and once the
# matchmaker is back the parties are made and play (a run under load saw this refusal).
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

e2e_start 22800 1

e2e_log "deckhand bots --players 4 --size 2 --party 2 --matches 4"
timeout 90 "$DECKHAND_BIN_DIR/deckhand" bots --game caveman --players 4 --size 2 --party 2 \
    --matches 4 --timeout 80 >"$E2E_RUN/bots.out" 2>"$E2E_RUN/bots.err" </dev/null ||
    e2e_fail "deckhand bots --party exited $?: $(tail -n 5 "$E2E_RUN/bots.err")"
last=$(grep -v '^[[:space:]]*$' "$E2E_RUN/bots.out" | tail -n 1)
[[ $last == "matches_completed=4 errors=0" ]] || e2e_fail "bots --party ended with '$last'"
grep -q 'party request' "$E2E_RUN/bots.err" && e2e_fail "a party request was refused"
made=$(grep -c 'party .* of 2 complete: queueing it' "$E2E_RUN/bots.err")
((made == 2)) || e2e_fail "$made parties completed, want 2: $(grep party "$E2E_RUN/bots.err" | head -3)"
(($(e2e_redis hlen 'mm:{mm}:parties') == 2)) || e2e_fail "the matchmaker holds $(e2e_redis hlen 'mm:{mm}:parties') parties, want 2"

# Bots are named bot-PID-1..4: parties are {1,2} and {3,4}, so each match seats 1 and 2
# or 3 and 4, never a mix.
n=0
while read -r id; do
    players=$(e2e_redis hget "$(_e2e_match_key "$id")" players)
    nums=$(tr ',' '\n' <<<"$players" | sed -E 's/.*-([0-9]+)( \(guest\))?$/\1/' | sort -n | tr '\n' ' ')
    [[ $nums == "1 2 " || $nums == "3 4 " ]] || e2e_fail "match $id seats '$players': not one party"
    n=$((n + 1))
done < <(e2e_redis lrange matches:finished 0 -1)
((n >= 4)) || e2e_fail "$n finished matches, want 4"
e2e_check_replays
e2e_log "every match seated one party"

e2e_log "deckhand bots --players 4 --size 2 --lobby --matches 4 --option kingdom=random"
before=$(e2e_redis llen matches:finished)
timeout 90 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players 4 --size 2 --lobby \
    --matches 4 --timeout 80 --option kingdom=random >"$E2E_RUN/lobby.out" \
    2>"$E2E_RUN/lobby.err" </dev/null ||
    e2e_fail "deckhand bots --lobby exited $?: $(tail -n 5 "$E2E_RUN/lobby.err")"
last=$(grep -v '^[[:space:]]*$' "$E2E_RUN/lobby.out" | tail -n 1)
[[ $last == "matches_completed=4 errors=0" ]] || e2e_fail "bots --lobby ended with '$last'"
grep -q 'lobby request' "$E2E_RUN/lobby.err" && e2e_fail "a lobby request was refused"
started=$(grep -c 'lobby .* started: match' "$E2E_RUN/logs/matchmaker.log")
((started >= 4)) || e2e_fail "the matchmaker started $started lobbies, want 4"
(($(e2e_redis llen matches:finished) - before >= 4)) || e2e_fail "fewer than 4 lobby matches finished"
id=$(e2e_redis lindex matches:finished 0)
[[ $(e2e_redis hget "$(_e2e_match_key "$id")" options) == kingdom=random ]] ||
    e2e_fail "a lobby match lost its options"
(($(e2e_redis hlen 'mm:{mm}:tickets') == 0)) || e2e_fail "lobby players left tickets in the queue"
e2e_check_replays
e2e_log "every lobby match started by its host, with its options"

e2e_log "kill -9 the matchmaker, then deckhand bots --party 2: the refused requests are retried"
dh_cluster_kill "$E2E_RUN" matchmaker
timeout 90 "$DECKHAND_BIN_DIR/deckhand" bots --game caveman --players 2 --size 2 --party 2 \
    --matches 2 --timeout 80 >"$E2E_RUN/down.out" 2>"$E2E_RUN/down.err" </dev/null &
bots=$!
deadline=$((SECONDS + 20))
until grep -q 'command .* (code [0-9]*), retrying the party request' "$E2E_RUN/down.err"; do
    ((SECONDS < deadline)) || e2e_fail "no party request refused while the matchmaker was down: $(tail -n 3 "$E2E_RUN/down.err")"
    sleep 0.2
done
dh_cluster_restart "$E2E_RUN" matchmaker
wait "$bots" || e2e_fail "deckhand bots --party with the matchmaker down exited $?: $(tail -n 5 "$E2E_RUN/down.err")"
last=$(grep -v '^[[:space:]]*$' "$E2E_RUN/down.out" | tail -n 1)
[[ $last == "matches_completed=2 errors=0" ]] || e2e_fail "bots --party after the outage ended with '$last'"
e2e_log "party requests refused while the matchmaker was down were retried: $(grep -c 'retrying' "$E2E_RUN/down.err") retries"
