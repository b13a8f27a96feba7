#!/usr/bin/env bash
# Game options over the network: two players who join Dominion with --option
# kingdom=random meet, and their match is set up with a random kingdom (the table
# `deckhand play` prints shows kingdom piles that are not the First Game's); a join with
# an option value Dominion does not declare is refused with BAD_REQUEST and its message;
# so is a mode the queues file does not name, while `ranked` (named) plays.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

e2e_start 26900 1

e2e_log "deckhand play and deckhand bots, both --option kingdom=random"
timeout 60 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players 1 --size 2 --matches 1 \
    --timeout 50 --option kingdom=random >"$E2E_RUN/bots.out" 2>"$E2E_RUN/bots.err" </dev/null &
bots_pid=$!
rc=0
timeout 60 "$DECKHAND_BIN_DIR/deckhand" play --game dominion --size 2 --name typist \
    --option kingdom=random >"$E2E_RUN/play.out" 2>"$E2E_RUN/play.err" \
    < <(while sleep 0.05; do echo b; done) || rc=$?
wait "$bots_pid" || e2e_fail "the bot opposite deckhand play exited with $?: $(tail -n 3 "$E2E_RUN/bots.err")"
((rc == 0)) || e2e_fail "deckhand play exited with $rc: $(tail -n 5 "$E2E_RUN/play.out")"
grep -q '==== Game over ====' "$E2E_RUN/play.out" || e2e_fail "deckhand play saw no GameOver"

id=$(e2e_redis lindex matches:finished 0)
key=$(_e2e_match_key "$id")
[[ $(e2e_redis hget "$key" options) == kingdom=random ]] ||
    e2e_fail "$key: options '$(e2e_redis hget "$key" options)', want kingdom=random"
# Kingdom cards outside the First Game preset (Cellar, Market, Militia, Mine, Moat,
# Remodel, Smithy, Village, Woodcutter, Workshop): 10 drawn at random from the whole set
# are all First Game cards once in C(32,10) (about 1 in 65 million).
others='Chapel|Chancellor|Feast|Gardens|Moneylender|Spy|Thief|Throne Room|Council Room|'
others+='Festival|Laboratory|Library|Witch|Adventurer|Bureaucrat|Artisan|Bandit|Harbinger|'
others+='Merchant|Poacher|Sentry|Vassal'
grep -Eq "$others" "$E2E_RUN/play.out" ||
    e2e_fail "the table shows only First Game kingdom cards: $(grep -m 3 'left' "$E2E_RUN/play.out")"
e2e_check_replays
e2e_log "kingdom=random: the match's kingdom is not the First Game's"

e2e_log "deckhand bots --option kingdom=no_such_kingdom: refused"
rc=0
timeout 20 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players 1 --size 2 --matches 1 \
    --timeout 3 --option kingdom=no_such_kingdom >"$E2E_RUN/bad.out" 2>"$E2E_RUN/bad.err" \
    </dev/null || rc=$?
grep -q "option 'kingdom' takes no value 'no_such_kingdom' (code 9)" "$E2E_RUN/bad.err" ||
    e2e_fail "no BAD_REQUEST (code 9) for an unknown value: $(tail -n 3 "$E2E_RUN/bad.err")"
grep -q 'errors=[1-9]' "$E2E_RUN/bad.out" || e2e_fail "the refused join is not an error"
(($(e2e_redis hlen 'mm:{mm}:tickets') == 0)) || e2e_fail "the refused join left a ticket"
e2e_log "an unknown option value: BAD_REQUEST, nothing queued"

# Modes come from the configured list: casual, or one the queues file names (the local
# cluster ships scripts/lib/queues.conf with `ranked` for every game).
e2e_log "deckhand bots --mode made-up: refused; --mode ranked: a ranked match"
rc=0
timeout 20 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players 1 --size 2 --matches 1 \
    --timeout 3 --mode made-up >"$E2E_RUN/mode.out" 2>"$E2E_RUN/mode.err" </dev/null || rc=$?
grep -q "dominion has no mode 'made-up' (casual, or one the queues file names) (code 9)" \
    "$E2E_RUN/mode.err" ||
    e2e_fail "no BAD_REQUEST (code 9) for a made-up mode: $(tail -n 3 "$E2E_RUN/mode.err")"
(($(e2e_redis hlen 'mm:{mm}:tickets') == 0)) || e2e_fail "the refused join left a ticket"
timeout 60 "$DECKHAND_BIN_DIR/deckhand" bots --game caveman --players 2 --size 2 --matches 1 \
    --timeout 50 --mode ranked >"$E2E_RUN/ranked.out" 2>"$E2E_RUN/ranked.err" </dev/null ||
    e2e_fail "the ranked match failed: $(tail -n 3 "$E2E_RUN/ranked.err")"
id=$(e2e_redis lindex matches:finished 0)
[[ $(e2e_redis hget "$(_e2e_match_key "$id")" mode) == ranked ]] ||
    e2e_fail "the last finished match is not ranked"
e2e_log "a made-up mode: BAD_REQUEST, nothing queued; ranked: played"
