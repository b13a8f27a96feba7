#!/usr/bin/env bash
# Bot fill, for every game: with bot_fill_ms set for its queue (the queues file), a lone
# player (an account) who waits past it gets a match whose other seat a server-side bot
# plays; the match finishes by the game's rules, is marked unrated with its bot seat in
# Redis (match:{ID}.unrated, .bots), and the player's rating and history stay unchanged
# (no rating job: docs/PROTOCOL.md, "Game options and bot fill"). Then a bot-filled match
# survives its worker's SIGKILL: the other worker adopts it and plays its bot seat on.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

GAMES=(dominion accession ascension caveman)

queues=$(mktemp "${TMPDIR:-/tmp}/deckhand-e2e-botfill.XXXXXX")
for game in "${GAMES[@]}"; do
    echo "$game casual bot_fill_ms=1000" >>"$queues"
done
export DECKHAND_QUEUES=$queues
e2e_start 26700 2
export DECKHAND_PASSWORD=bot-fill-e2e-password
rm -f "$queues"

for game in "${GAMES[@]}"; do
    out=$E2E_RUN/solo-$game.out rc=0
    e2e_log "deckhand bots --game $game --players 1 --size 2 (alone: a bot fills the other seat)"
    timeout 60 "$DECKHAND_BIN_DIR/deckhand" bots --game "$game" --players 1 --size 2 \
        --matches 1 --timeout 45 --account "solo-$game" --register >"$out" \
        2>"$E2E_RUN/solo-$game.err" </dev/null || rc=$?
    last=$(grep -v '^[[:space:]]*$' "$out" | tail -n 1)
    if ((rc != 0)) || [[ $last != "matches_completed=1 errors=0" ]]; then
        tail -n 20 "$E2E_RUN/solo-$game.err" >&2
        e2e_fail "$game: the lone player's match ended with '$last' (exit $rc)"
    fi
done

# A slow lone player (10 answers a second) in a bot-filled match; its worker is killed.
e2e_log "a bot-filled dominion match whose worker is killed mid-game"
# Paced at 4 answers/s so that the kill lands mid-game: at 10 (and since the bots spend
# their pace on answers alone) a loaded run once saw the match end before the kill.
timeout 90 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players 1 --size 2 --matches 1 \
    --rate 4 --timeout 30 --account solo-kill --register >"$E2E_RUN/bots.out" \
    2>"$E2E_RUN/bots.err" </dev/null &
E2E_BOTS_PID=$!
e2e_wait_running 1
sleep 1
read -r match worker <<<"$(e2e_redis hgetall matches:running | paste - - | awk 'NR == 1 { print $1, $2 }')"
[[ $worker == wk-[0-9]* ]] || e2e_fail "match '$match' runs on '$worker', not a wk-N worker"
e2e_log "kill -9 $worker, which hosts the bot-filled match $match"
dh_cluster_kill "$E2E_RUN" "worker-${worker#wk-}" KILL
e2e_bots_wait 1
grep -q "match $match: adopted at epoch" "$E2E_RUN"/logs/worker-*.log ||
    e2e_fail "match $match was not adopted by the surviving worker"
GAMES+=(dominion)

e2e_check_finished ${#GAMES[@]}

declare -A seen=()
while read -r id; do
    [[ -n $id ]] || continue
    key=$(_e2e_match_key "$id")
    game=$(e2e_redis hget "$key" game)
    [[ -z $(e2e_redis hget "$key" end_reason) ]] || e2e_fail "$key ($game): not ended by its rules"
    [[ $(e2e_redis hget "$key" unrated) == 1 ]] || e2e_fail "$key ($game): not marked unrated"
    bots=$(e2e_redis hget "$key" bots)
    [[ $bots == ,default || $bots == default, ]] || e2e_fail "$key ($game): bot seats '$bots'"
    IFS=, read -r -a ids <<<"$(e2e_redis hget "$key" player_ids)"
    IFS=, read -r -a seatbots <<<"$bots,"
    for i in 0 1; do
        [[ -z ${seatbots[i]:-} ]] || continue
        pid=${ids[i]}
        [[ -z $(e2e_redis hget "rating:{$game}:casual" "$pid") ]] ||
            e2e_fail "$game: the bot-filled match moved $pid's rating"
        (($(e2e_redis llen "history:{$pid}") == 0)) ||
            e2e_fail "$game: the bot-filled match is in $pid's history"
    done
    seen[$game]=1
done < <(e2e_redis lrange matches:finished 0 -1)
for game in "${GAMES[@]}"; do
    [[ -n ${seen[$game]:-} ]] || e2e_fail "$game: no bot-filled match finished"
done
(($(e2e_redis hlen matches:unrated) == 0)) || e2e_fail "a rating job was left for a bot-filled match"
e2e_check_replays
e2e_log "every game: a lone player's bot-filled match finished unrated, ratings unchanged"
