#!/usr/bin/env bash
# test_rcluster_liveops.sh: `deckhand scripts` on a Redis Cluster (three masters, three
# replicas: scripts/lib/rcluster.sh), with the same code as on one Redis. A changed bundle
# is pushed and every worker serves it; bots play matches on it, each replays on it
# (`scripts show`); a canary of the next bundle is pushed and promoted; a rollback goes back
# to the first; `scripts list` and `scripts audit` show it all. The keys the CLI reads and
# writes (the game's pointers, the bundles, the workers' leases) live on more than one
# master, so a CLI talking to one node would meet MOVED (what it did before it was routed).
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

DECKHAND=$DECKHAND_BIN_DIR/deckhand
export DECKHAND_REDIS_CLUSTER=1 DH_RCLUSTER_BASE=21740
e2e_start 29400

bundle_copy() {
    mkdir -p "$1"
    cp -r "$E2E_SRC/scripts/deckbuilder" "$E2E_SRC/scripts/dominion" "$1/"
    echo "-- $2" >>"$1/dominion/cards.lua"
}
current() { e2e_redis get 'bundle:current:{dominion}'; }
# The node (1..6) of the master holding key $1.
master_of() {
    local i
    for i in 1 2 3 4 5 6; do
        [[ $(dh_rcluster_cli "$i" role | head -n 1) == master ]] || continue
        [[ $(dh_rcluster_cli "$i" exists "$1" 2>/dev/null) == 1 ]] && echo "$i" && return
    done
    echo none
}
# Every match id in Redis (on every master).
all_matches() {
    local i key
    for i in 1 2 3 4 5 6; do
        [[ $(dh_rcluster_cli "$i" role | head -n 1) == master ]] || continue
        for key in $(dh_rcluster_cli "$i" --scan --pattern 'match:{*}'); do
            [[ $key == *\} ]] || continue
            key=${key#match:\{}
            echo "${key%\}}"
        done
    done | sort -u
}
# N two-player Dominion matches, all at once.
bots_run() {
    local out
    out=$(timeout 60 "$DECKHAND" bots --game dominion --players $(($1 * 2)) --size 2 \
        --matches "$1" 2>"$E2E_RUN/bots.err" </dev/null | grep -v '^[[:space:]]*$' | tail -n 1)
    [[ $out == "matches_completed=$1 errors=0" ]] || e2e_fail "bots ended with '$out'"
}

FIRST=$E2E_RUN/bundle-first
NEXT=$E2E_RUN/bundle-next
bundle_copy "$FIRST" first
bundle_copy "$NEXT" next

# ---- push: stored, current, served by every worker --------------------------------------
out=$("$DECKHAND" scripts push "$FIRST" --game dominion --label first --by eve --wait 10 2>&1) ||
    e2e_fail "push failed: $out"
grep -qE '^serving on 2/2 workers' <<<"$out" || e2e_fail "not every worker loaded it: $out"
e2e_log "push: $(grep '^serving on' <<<"$out")"
FIRST_SHA=$(current)
[[ $FIRST_SHA =~ ^[0-9a-f]{64}$ ]] || e2e_fail "bundle:current:{dominion} is '$FIRST_SHA'"
grep -q "^bundle $FIRST_SHA " <<<"$out" || e2e_fail "the pointer is not the bundle pushed: $out"

"$DECKHAND" scripts list >"$E2E_RUN/list.out" 2>"$E2E_RUN/list.err" || e2e_fail "scripts list failed"
grep -q "^$FIRST_SHA  label=first  current=dominion$" "$E2E_RUN/list.out" ||
    e2e_fail "scripts list does not show it current: $(cat "$E2E_RUN/list.out" "$E2E_RUN/list.err")"
serving=$(awk -v s="$FIRST_SHA" '$1 == s { on = 1; next } /^[^ ]/ { on = 0 }
    on && /^    wk-[12]: / { n++ } END { print n + 0 }' "$E2E_RUN/list.out")
((serving == 2)) || e2e_fail "scripts list shows $serving workers with it loaded: $(cat "$E2E_RUN/list.out")"

# ---- bots play on it; a match replays on it ---------------------------------------------
# The match the CLI shows is one held by another master than the game's pointer (a few
# more matches are played until one is: where a key lands follows its hash), so the keys
# the CLI reads and writes are on more than one master whatever the bundle's hash.
POINTER_ON=$(master_of 'bundle:current:{dominion}')
all_matches >"$E2E_RUN/before"
LAST=""
for ((round = 0; round < 4 && ${#LAST} == 0; round++)); do
    bots_run 4
    played=0
    for id in $(comm -13 "$E2E_RUN/before" <(all_matches)); do
        [[ $(e2e_redis hget "match:{$id}" bundle) == "$FIRST_SHA" ]] || e2e_fail "match $id not on it"
        played=$((played + 1))
        [[ $(master_of "match:{$id}") != "$POINTER_ON" ]] && LAST=$id
    done
    ((played >= 4 * (round + 1))) || e2e_fail "$played new matches, want at least $((4 * (round + 1)))"
done
[[ -n $LAST ]] || e2e_fail "every match played is on master $POINTER_ON, the pointer's"
declare -A on
on[$POINTER_ON]=1
on[$(master_of "bundle:{$FIRST_SHA}")]=1
on[$(master_of "match:{$LAST}")]=1
for key in $(e2e_redis --scan --pattern 'worker:{*}'); do
    [[ $key == *\} ]] && on[$(master_of "$key")]=1
done
unset 'on[none]'
e2e_log "the game's pointer, its bundle, the workers' leases and the match shown are on masters ${!on[*]}"
((${#on[@]} >= 2)) || e2e_fail "the CLI's keys are all on one master (${!on[*]}): nothing routed"
out=$("$DECKHAND" scripts show --match "$LAST" 2>&1) || e2e_fail "scripts show failed: $out"
grep -q "^match $LAST game=dominion bundle=$FIRST_SHA replayed=ok" <<<"$out" ||
    e2e_fail "scripts show: $out"
e2e_log "$played matches started on ${FIRST_SHA:0:12}; $LAST replays on it"

# ---- a canary of the next bundle, promoted ------------------------------------------------
out=$("$DECKHAND" scripts push "$NEXT" --game dominion --label next --canary 30 --by eve \
    --reason "next text" --wait 10 2>&1) || e2e_fail "canary push failed: $out"
grep -qE '^serving on 2/2 workers' <<<"$out" || e2e_fail "not every worker loaded the canary: $out"
NEXT_SHA=$(e2e_redis get 'bundle:canary:{dominion}' | cut -d' ' -f2)
[[ $(e2e_redis get 'bundle:canary:{dominion}') == "30 $NEXT_SHA" && $NEXT_SHA != "$FIRST_SHA" ]] ||
    e2e_fail "canary key: $(e2e_redis get 'bundle:canary:{dominion}')"
[[ $(current) == "$FIRST_SHA" ]] || e2e_fail "a canary push moved the pointer"
out=$("$DECKHAND" scripts promote --game dominion --by eve 2>&1) || e2e_fail "promote failed: $out"
[[ $(current) == "$NEXT_SHA" ]] || e2e_fail "promote did not make the canary current"
(($(e2e_redis exists 'bundle:canary:{dominion}') == 0)) || e2e_fail "the canary is still set"
sleep 1 # the workers poll the pointer every 200 ms
all_matches >"$E2E_RUN/before-promote"
bots_run 2
for id in $(comm -13 "$E2E_RUN/before-promote" <(all_matches)); do
    [[ $(e2e_redis hget "match:{$id}" bundle) == "$NEXT_SHA" ]] || e2e_fail "after promote, $id"
done
e2e_log "canary ${NEXT_SHA:0:12} promoted; new matches start on it"

# ---- rollback: back to the first --------------------------------------------------------
out=$("$DECKHAND" scripts rollback --game dominion --by eve --reason "next breaks" 2>&1) ||
    e2e_fail "rollback failed: $out"
[[ $(current) == "$FIRST_SHA" ]] || e2e_fail "rollback went to $(current), not $FIRST_SHA"
sleep 1
all_matches >"$E2E_RUN/before-rollback"
bots_run 2
for id in $(comm -13 "$E2E_RUN/before-rollback" <(all_matches)); do
    [[ $(e2e_redis hget "match:{$id}" bundle) == "$FIRST_SHA" ]] || e2e_fail "after rollback, $id"
done
e2e_log "rolled back to ${FIRST_SHA:0:12}; new matches start on it"

# ---- the trail ------------------------------------------------------------------------
"$DECKHAND" scripts audit --game dominion >"$E2E_RUN/audit.out" 2>&1 || e2e_fail "audit failed"
cat "$E2E_RUN/audit.out" >&2
mapfile -t A < <(awk '{ print $2 }' "$E2E_RUN/audit.out")
[[ ${A[*]} == "push canary promote rollback" ]] || e2e_fail "the trail holds: ${A[*]}"
grep -q "rollback game=dominion bundle=${FIRST_SHA:0:12} label=first .*from=${NEXT_SHA:0:12} by=eve@.* reason=\"next breaks\"" \
    "$E2E_RUN/audit.out" || e2e_fail "the rollback's entry"
e2e_log "push, canary, promote, rollback: all in the trail"
