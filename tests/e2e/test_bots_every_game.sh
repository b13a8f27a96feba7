#!/usr/bin/env bash
# `deckhand bots --game G` plays every game the cluster serves to the end: for each of
# dominion, accession, ascension, caveman, elemental and mlw, 4 two-player matches complete
# with errors=0, each bounded in time, and Redis records each one as finished by the game's rules (no
# end_reason: not stopped by the turn cap). The bots answer with the game's own bot on
# the server (Choose.bot, docs/PROTOCOL.md); the generic local bot knows only Dominion's
# conventions, and Ascension matches played by it reached the turn cap (issue 15).
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

GAMES=(dominion accession ascension caveman elemental mlw)
MATCHES=4

e2e_start 30800

for game in "${GAMES[@]}"; do
    out=$E2E_RUN/bots-$game.out rc=0
    e2e_log "deckhand bots --game $game --players 8 --size 2 --matches $MATCHES"
    timeout 40 "$DECKHAND_BIN_DIR/deckhand" bots --game "$game" --players 8 --size 2 \
        --matches "$MATCHES" --timeout 20 >"$out" 2>"$E2E_RUN/bots-$game.err" </dev/null || rc=$?
    last=$(grep -v '^[[:space:]]*$' "$out" | tail -n 1)
    e2e_log "$game: $last (exit $rc)"
    if ((rc != 0)) || [[ $last != "matches_completed=$MATCHES errors=0" ]]; then
        tail -n 20 "$E2E_RUN/bots-$game.err" >&2
        ((rc == 124)) && e2e_fail "$game: deckhand bots did not finish within 40 s"
        e2e_fail "$game: deckhand bots ended with '$last' (exit $rc)"
    fi
done

e2e_check_finished $((MATCHES * ${#GAMES[@]}))

# Every finished match: which game it was, and that its rules ended it.
declare -A per_game=()
while read -r id; do
    [[ -n $id ]] || continue
    key=$(_e2e_match_key "$id")
    game=$(e2e_redis hget "$key" game)
    reason=$(e2e_redis hget "$key" end_reason)
    [[ -z $reason ]] || e2e_fail "$key ($game): end_reason '$reason', want none (the rules' end)"
    per_game[$game]=$((${per_game[$game]:-0} + 1))
done < <(e2e_redis lrange matches:finished 0 -1)
for game in "${GAMES[@]}"; do
    ((${per_game[$game]:-0} >= MATCHES)) ||
        e2e_fail "$game: ${per_game[$game]:-0} finished matches in Redis, want $MATCHES"
done
e2e_log "every game: $MATCHES matches finished by their rules"

# The client's generic bot (--bot local) knows only Dominion's conventions: in Ascension it
# never gains Honour, so the match runs to the game's turn cap (max_turns 400) and ends
# there with a recorded result, end_reason turn_cap (it ran to 2000 turns, then for good).
e2e_log "deckhand bots --game ascension --bot local: a match only the turn cap ends"
rc=0
timeout 60 "$DECKHAND_BIN_DIR/deckhand" bots --game ascension --bot local --players 2 \
    --matches 1 --rate 45 --timeout 20 >"$E2E_RUN/bots-capped.out" \
    2>"$E2E_RUN/bots-capped.err" </dev/null || rc=$?
last=$(grep -v '^[[:space:]]*$' "$E2E_RUN/bots-capped.out" | tail -n 1)
if ((rc != 0)) || [[ $last != "matches_completed=1 errors=0" ]]; then
    tail -n 5 "$E2E_RUN/bots-capped.err" >&2
    e2e_fail "the capped ascension match ended with '$last' (exit $rc)"
fi
capped=0
while read -r id; do
    key=$(_e2e_match_key "$id")
    [[ $(e2e_redis hget "$key" end_reason) == turn_cap ]] || continue
    [[ $(e2e_redis hget "$key" game) == ascension ]] || e2e_fail "$key: capped, but not ascension"
    [[ $(e2e_redis hget "$key" status) == finished && -n $(e2e_redis hget "$key" result) ]] ||
        e2e_fail "$key: capped without a recorded result"
    capped=$((capped + 1))
done < <(e2e_redis lrange matches:finished 0 -1)
((capped == 1)) || e2e_fail "$capped matches ended at the turn cap, want 1"
e2e_log "the ascension match of the generic client bot ended at the turn cap, result recorded"

# A player in the terminal (`deckhand play`) who types `b` at every decision lets the
# game's bot play for them to the end of a caveman match against one `deckhand bots` bot.
e2e_log "deckhand play --game caveman, typing b, against deckhand bots --players 1"
timeout 40 "$DECKHAND_BIN_DIR/deckhand" bots --game caveman --players 1 --size 2 --matches 1 \
    --timeout 30 >"$E2E_RUN/bots-play.out" 2>"$E2E_RUN/bots-play.err" </dev/null &
bots_pid=$!
rc=0
timeout 40 "$DECKHAND_BIN_DIR/deckhand" play --game caveman --size 2 --name typist \
    >"$E2E_RUN/play.out" 2>"$E2E_RUN/play.err" < <(while sleep 0.05; do echo b; done) || rc=$?
wait "$bots_pid" || e2e_fail "the bot opposite deckhand play exited with $?: $(tail -n 3 "$E2E_RUN/bots-play.err")"
((rc == 0)) || e2e_fail "deckhand play exited with $rc: $(tail -n 5 "$E2E_RUN/play.out")"
grep -q '==== Game over ====' "$E2E_RUN/play.out" || e2e_fail "deckhand play saw no GameOver"
e2e_log "deckhand play: the bot key played a caveman match to its end"
