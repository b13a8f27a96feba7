#!/usr/bin/env bash
# Players who persist, on a real cluster: two account players (deckhand bots --account)
# finish a match; each finished match between them moved both ratings exactly once (the
# rating's match count, the history and the finished matches agree, and a first match from
# the default ratings moved mu by the hand-computed 2.635), the leaderboard holds both, and
# a rating job put back for a match already rated changes nothing (nor the workers' count of
# rated matches, one per finished match). A wrong password is
# refused, and so is an unknown name, alike. A device account or a guest asking for a
# registered name is shown marked (issue 24, item 5), and a NUL in a name is refused.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"
# shellcheck source=SCRIPTDIR/e2e_ratings.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_ratings.sh"

DECKHAND=$DECKHAND_BIN_DIR/deckhand

e2e_start 30400

# ---- a wrong password is refused ------------------------------------------------------
out=$(DECKHAND_PASSWORD='right password' "$DECKHAND" leaderboard --game dominion \
    --account e2e-1 --register 2>&1) || e2e_fail "registering e2e-1 failed: $out"
rc=0
out=$(DECKHAND_PASSWORD='wrong password' "$DECKHAND" leaderboard --game dominion \
    --account e2e-1 2>&1) || rc=$?
((rc == 1)) || e2e_fail "a wrong password exited $rc: $out"
[[ $out == *"wrong name or password"* ]] || e2e_fail "a wrong password said: $out"
rc=0
out=$(DECKHAND_PASSWORD='right password' "$DECKHAND" leaderboard --game dominion \
    --account nobody-here 2>&1) || rc=$?
if ((rc != 1)) || [[ $out != *"wrong name or password"* ]]; then
    e2e_fail "an unknown name exited $rc: $out"
fi
e2e_log "a wrong password and an unknown name are refused alike"

# ---- two accounts play ----------------------------------------------------------------
e2e_log "deckhand bots --account e2e: two account players, one 2-player match"
DECKHAND_PASSWORD='right password' timeout 120 "$DECKHAND" bots --game dominion --players 2 \
    --size 2 --matches 1 --account e2e --register >"$E2E_RUN/bots.out" \
    2>"$E2E_RUN/bots.err" </dev/null || e2e_fail "bots exited $? ($(tail -n 5 "$E2E_RUN/bots.err"))"
last=$(grep -v '^[[:space:]]*$' "$E2E_RUN/bots.out" | tail -n 1)
[[ $last == "matches_completed=1 errors=0" ]] || e2e_fail "bots ended with '$last'"

mapfile -t IDS < <(e2e_redis hkeys accounts:names)
((${#IDS[@]} == 2)) || e2e_fail "accounts:names holds ${#IDS[@]} accounts, want 2"

e2e_wait_ratings_consistent

# The first match (oldest history entry) moved both from the default ratings as
# test_rating computed by hand: ordinal 0 -> 3.44 for the winner, -1.83 for the loser, and
# 0.80 each for a draw (mu stays 25, sigma shrinks).
declare -A PLACE
for id in "${IDS[@]}"; do PLACE[$id]=$(e2e_redis lindex "history:{$id}" -1 | cut -f6); done
draw=0
[[ ${PLACE[${IDS[0]}]} == "${PLACE[${IDS[1]}]}" ]] && draw=1
for id in "${IDS[@]}"; do
    after=$(e2e_redis lindex "history:{$id}" -1 | cut -f9)
    if ((draw)); then want=0.80; elif ((PLACE[$id] == 1)); then want=3.44; else want=-1.83; fi
    [[ $after == "$want" ]] ||
        e2e_fail "account $id placed ${PLACE[$id]} (draw=$draw): ordinal $after, want $want"
done

(($(e2e_redis zcard 'leaderboard:{dominion}:casual') == 2)) || e2e_fail "leaderboard size"


board=$("$DECKHAND" leaderboard --game dominion 2>&1) || e2e_fail "leaderboard: $board"
[[ $board == *"e2e-1"* && $board == *"e2e-2"* ]] || e2e_fail "leaderboard shows: $board"
hist=$(DECKHAND_PASSWORD='right password' "$DECKHAND" leaderboard --history \
    --account e2e-1 2>&1) || e2e_fail "history: $hist"
[[ $hist == *"vs e2e-2"* ]] || e2e_fail "history shows: $hist"

# ---- a rating job put back for a rated match changes nothing ---------------------------
match=$(e2e_redis lindex "history:{${IDS[0]}}" -1 | cut -f1)
before=$(e2e_redis hgetall 'rating:{dominion}:casual' | sort | tr '\n' ' ')
players=$(e2e_redis hget "match:{$match}" player_ids)
job=$(printf 'dominion\ncasual\nx\n1\n%s 1\n%s 2' "${players%%,*}" "${players##*,}")
e2e_redis hset matches:unrated "$match" "$job" >/dev/null
deadline=$((SECONDS + 10))
while (($(e2e_redis hlen matches:unrated) > 0)); do
    ((SECONDS < deadline)) || e2e_fail "the put-back job was never swept"
    sleep 0.2
done
after=$(e2e_redis hgetall 'rating:{dominion}:casual' | sort | tr '\n' ' ')
[[ $before == "$after" ]] || e2e_fail "a rated match was rated again: $before -> $after"
e2e_log "a rating job put back for a rated match changed nothing"

# The workers counted each rated match once between them (the put-back job not at all).
rated=0
for addr in "$DECKHAND_HTTP_WORKER_1" "$DECKHAND_HTTP_WORKER_2"; do
    n=$(curl -s -m 2 "http://$addr/metrics" |
        awk '$1 == "deckhand_worker_matches_rated_total" { print $2 }')
    rated=$((rated + ${n:-0}))
done
finished=$(e2e_finished_with "${IDS[0]}") || e2e_fail "a finished match is not rated"
((rated == finished)) || e2e_fail "the workers count $rated rated matches, $finished finished"

# ---- no device account or guest shows a registered name --------------------------------
login_name() { python3 "$E2E_SRC/tests/e2e/login_name.py" "$DECKHAND_GATEWAY_TCP" "$@"; }
shown=$(login_name device e2e-1 device-secret-e2e-000001) || e2e_fail "device login: $shown"
[[ $shown =~ ^e2e-1#[0-9a-f]{4}$ ]] || e2e_fail "a device asking for e2e-1 is shown as '$shown'"
shown=$(login_name device E2E-1 device-secret-e2e-000002) || e2e_fail "device login: $shown"
[[ $shown =~ ^E2E-1#[0-9a-f]{4}$ ]] || e2e_fail "a device asking for E2E-1 is shown as '$shown'"
shown=$(login_name hello e2e-1) || e2e_fail "guest login: $shown"
[[ $shown == "e2e-1 (guest)" ]] || e2e_fail "a guest asking for e2e-1 is shown as '$shown'"
shown=$(login_name hello 'e2e-1\x00admin') || e2e_fail "guest login: $shown"
[[ $shown == "error 9 Hello.name must not hold control characters" ]] ||
    e2e_fail "a guest name with a NUL got '$shown'"
e2e_redis hvals accounts:names | grep -qx 'e2e-1#[0-9a-f]\{4\}' ||
    e2e_fail "accounts:names does not show the device account marked"
e2e_log "a device account and a guest asking for a registered name are shown marked"
