#!/usr/bin/env bash
# `deckhand replay` (docs/OPERATIONS.md, "Replaying a match"): bot matches played through
# the cluster rebuild from Redis, answer by answer, to the final_hash their worker
# recorded, also when a compatible hotfix (--apply-to-running) moved them onto another
# bundle in the middle; a match replayed while it runs agrees with the state its worker
# holds. A corrupted history, a swapped pair of answers and a wrong recorded hash each
# fail with exit 1, a missing match with exit 1 and a reason, bad usage with exit 2.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

DECKHAND=$DECKHAND_BIN_DIR/deckhand

e2e_start 26400
REDIS_URL=$DECKHAND_REDIS_URL # with the operators' password (cluster.env)
OUT=$E2E_RUN/replay.out
ERR=$E2E_RUN/replay.err

# replay ID [ARGS...]: its exit status in RC, stdout in $OUT, stderr in $ERR
replay() {
    RC=0
    "$DECKHAND" replay "$1" --redis "$REDIS_URL" "${@:2}" >"$OUT" 2>"$ERR" || RC=$?
}
last_line() { grep -v '^[[:space:]]*$' "$OUT" | tail -n 1; }
field() { sed -nE "s/.* $1=([^ ]*).*/\\1/p" <<<"$2"; }

# ---- usage and missing matches -------------------------------------------------------
"$DECKHAND" replay >/dev/null 2>&1
(($? == 2)) || e2e_fail "replay without a match id did not exit 2"
replay some-id --bogus
((RC == 2)) || e2e_fail "replay with an unknown flag exited $RC, not 2"
replay no-such-match
((RC == 1)) || e2e_fail "a missing match exited $RC, not 1"
grep -q 'no match no-such-match in Redis' "$ERR" || e2e_fail "a missing match said: $(cat "$ERR")"

# ---- play: live replays, and a compatible hotfix moving running matches -----------------
COMPAT=$E2E_RUN/bundle-compat
mkdir -p "$COMPAT"
cp -r "$E2E_SRC/scripts/deckbuilder" "$E2E_SRC/scripts/dominion" "$COMPAT/"
sed -i -E '/^cards\.Smithy = /s/text = "([^"]*)"/text = "\1 (replayed)"/' \
    "$COMPAT/dominion/cards.lua"
echo 'return { label = "replay-compat", compatible = true }' >"$COMPAT/manifest.lua"

# paced bots, so that matches run for a few seconds each
e2e_log "bots: 4 players in 2-player matches, 8 matches, 10 messages/s each"
timeout 120 "$DECKHAND" bots --game dominion --players 4 --size 2 --matches 8 --rate 10 \
    >"$E2E_RUN/bots.out" 2>"$E2E_RUN/bots.err" </dev/null &
BOTS_PID=$!
live=0
deadline=$((SECONDS + 20))
while ((live < 2 && SECONDS < deadline)); do
    for id in $(e2e_redis hkeys matches:running); do
        replay "$id" --quiet
        line=$(last_line)
        [[ $line == *" live="* ]] || continue # it finished in between: checked below
        ((RC == 0)) || e2e_fail "running match $id: exit $RC: $line $(cat "$ERR")"
        [[ $line == "match $id game=dominion "*" recorded=none "*" result=ok" ]] ||
            e2e_fail "running match $id: $line"
        [[ $(field hash "$line") == "$(field live "$line")" ]] ||
            e2e_fail "running match $id: the replay and its worker disagree: $line"
        live=$((live + 1))
    done
    sleep 0.2
done
((live == 2)) || e2e_fail "only $live replays of a running match in 20 s"
e2e_log "two replays of running matches agree with their workers' state"

out=$("$DECKHAND" scripts push "$COMPAT" --game dominion --apply-to-running --redis "$REDIS_URL" \
    2>&1) || e2e_fail "the compatible push failed: $out"
wait "$BOTS_PID" || e2e_fail "deckhand bots exited with $? ($(tail -n 5 "$E2E_RUN/bots.err"))"
last=$(grep -v '^[[:space:]]*$' "$E2E_RUN/bots.out" | tail -n 1)
[[ $last == "matches_completed=8 errors=0" ]] || e2e_fail "bots ended with '$last'"

# ---- every finished match replays to its recorded hash --------------------------------
mapfile -t FINISHED < <(e2e_redis lrange matches:finished 0 -1)
((${#FINISHED[@]} == 8)) || e2e_fail "matches:finished holds ${#FINISHED[@]} ids, want 8"
moved=0
for id in "${FINISHED[@]}"; do
    replay "$id"
    line=$(last_line)
    ((RC == 0)) || e2e_fail "match $id: exit $RC: $line $(cat "$ERR")"
    [[ $line == "match $id game=dominion answers="*" result=ok" ]] || e2e_fail "match $id: $line"
    want=$(e2e_redis hget "match:{$id}" final_hash)
    [[ $want =~ ^[0-9a-f]{16}$ ]] || e2e_fail "match $id: final_hash '$want'"
    [[ $(field hash "$line") == "$want" && $(field recorded "$line") == "$want" ]] ||
        e2e_fail "match $id: replayed '$line', final_hash $want"
    n=$(e2e_redis llen "match:{$id}:history")
    [[ $(field answers "$line") == "$n" ]] || e2e_fail "match $id: $line, history holds $n"
    (($(grep -c '^step ' "$OUT") == n)) || e2e_fail "match $id: not one step line per answer"
    if (($(e2e_redis llen "match:{$id}:bundles") > 0)); then
        grep -q '^move after [0-9]* answers bundle ' "$OUT" ||
            e2e_fail "moved match $id: the replay did not move: $(head -n 3 "$OUT")"
        moved=$((moved + 1))
    fi
done
((moved > 0)) || e2e_fail "no match moved onto the compatible bundle"
e2e_log "${#FINISHED[@]} finished matches replay to their final_hash, $moved across a move"

# ---- a replay that can fail ------------------------------------------------------------
A=${FINISHED[0]} B=${FINISHED[1]} C=${FINISHED[2]}
swap() {
    e2e_redis eval "local a = redis.call('LINDEX', KEYS[1], 0)
        redis.call('LSET', KEYS[1], 0, redis.call('LINDEX', KEYS[1], 1))
        redis.call('LSET', KEYS[1], 1, a)" 1 "match:{$1}:history" >/dev/null
}

e2e_redis lset "match:{$A}:history" 0 garbage >/dev/null
replay "$A" --quiet
((RC == 1)) || e2e_fail "a garbage history entry exited $RC: $(last_line)"
grep -q "history entry 0 does not decode" "$ERR" || e2e_fail "garbage entry: $(cat "$ERR")"

swap "$B"
replay "$B" --quiet
((RC == 1)) || e2e_fail "swapped answers exited $RC: $(last_line)"
grep -q '^step 1 seat [0-9]* decision [0-9]* refused: ' "$OUT" ||
    e2e_fail "swapped answers: $(cat "$OUT")"
[[ $(last_line) == *" result=REFUSED" ]] || e2e_fail "swapped answers: $(last_line)"
swap "$B"
replay "$B" --quiet
((RC == 0)) || e2e_fail "swapped back, match $B still fails: $(last_line)"

e2e_redis hset "match:{$C}" final_hash 0123456789abcdef >/dev/null
replay "$C" --quiet
((RC == 1)) || e2e_fail "a wrong final_hash exited $RC: $(last_line)"
[[ $(last_line) == *" recorded=0123456789abcdef result=MISMATCH" ]] ||
    e2e_fail "a wrong final_hash: $(last_line)"
e2e_log "a garbage entry, swapped answers and a wrong final_hash each fail the replay"
