#!/usr/bin/env bash
# Live-ops (docs/OPERATIONS.md): under bot load on two workers, `deckhand scripts push`
# makes Smithy cost 3 with a new text; matches created after the push show the new card,
# matches running at the push keep the old one to their end and replay on it, no command
# fails and no process restarts. Bundles with a syntax error or failing rules tests are
# refused with the reason and change nothing. Rollback returns new matches to the old card.
# A bundle's VM is freed when its last match ends and it is no longer current; a bundle
# the workers cannot load is reported by each and play continues on the previous one.
# With --apply-to-running (compatible manifests only) running matches move onto the new
# bundle at a turn boundary, recorded in match:{ID}:bundles, and still replay.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

DECKHAND=$DECKHAND_BIN_DIR/deckhand

e2e_start 30500

# ---- the bundles ----------------------------------------------------------------------
bundle_copy() {
    mkdir -p "$1"
    cp -r "$E2E_SRC/scripts/deckbuilder" "$E2E_SRC/scripts/dominion" "$1/"
}
smithy_costs_3() {
    sed -i -E '/^cards\.Smithy = /{s/cost = 4/cost = 3/;s/text = "\+3 Cards\."/text = "+3 Cards. (hotfix: costs 3)"/}' \
        "$1/dominion/cards.lua"
    grep -q '^cards.Smithy = .*cost = 3.*hotfix' "$1/dominion/cards.lua" ||
        e2e_fail "could not patch Smithy in $1/dominion/cards.lua"
}
GOOD=$E2E_RUN/bundle-good
TESTFAIL=$E2E_RUN/bundle-testfail
SYNTAX=$E2E_RUN/bundle-syntax
bundle_copy "$GOOD"
smithy_costs_3 "$GOOD"
# the hotfix ships its tests updated to the new price
# shellcheck disable=SC2016
sed -i 's/Smithy (\$4)/Smithy ($3)/g' "$GOOD"/dominion/tests/*.lua
bundle_copy "$TESTFAIL"
smithy_costs_3 "$TESTFAIL"
# shellcheck disable=SC2016
grep -q 'Smithy (\$4)' "$TESTFAIL"/dominion/tests/*.lua ||
    e2e_fail "no rules test pins Smithy's price: the failing-tests bundle would pass"
bundle_copy "$SYNTAX"
echo 'local oops = (' >>"$SYNTAX/dominion/cards.lua"

current() { e2e_redis get 'bundle:current:{dominion}'; }
default_sha() {
    local sha
    for sha in $(e2e_redis smembers bundles); do
        [[ $(e2e_redis hget "bundle:{$sha}" label) == default ]] && echo "$sha"
    done
}
# "ID" of every match whose hash says field=value
matches_where() {
    local key
    for key in $(e2e_redis --scan --pattern 'match:{*}'); do
        [[ $key == *: || $key == *:snap || $key == *:log ]] && continue
        [[ $(e2e_redis hget "$key" "$1") == "$2" ]] && { key=${key#match:\{}; echo "${key%\}}"; }
    done
}
smithy_of() { "$DECKHAND" scripts show --match "$1" --card Smithy; }

# ---- load ----------------------------------------------------------------------------
BOTS_OUT=$E2E_RUN/bots.out
# paced (10 answers a second a bot, about 14 s in all), so that matches still start after
# the push, which runs its rules tests and bot games first: unpaced, a fast machine
# finished all 80 before a slow push was serving
e2e_log "bot load: 40 bots in 2-player matches, 80 matches, 10 answers/s each"
timeout 300 "$DECKHAND" bots --game dominion --players 40 --size 2 --matches 80 --rate 10 \
    >"$BOTS_OUT" 2>"$E2E_RUN/bots.err" </dev/null &
BOTS_PID=$!
deadline=$((SECONDS + 30))
while (($(matches_where status running | wc -l) < 12)); do
    ((SECONDS < deadline)) || e2e_fail "fewer than 12 matches running after 30 s"
    sleep 0.2
done
OLD_SHA=$(default_sha)
[[ -n $OLD_SHA ]] || e2e_fail "the workers did not store their default bundle in Redis"
mapfile -t RUNNING < <(matches_where status running)
e2e_log "${#RUNNING[@]} matches running on ${OLD_SHA:0:12} before the push"

# ---- acceptance 3: refused bundles change nothing --------------------------------------
out=$("$DECKHAND" scripts push "$SYNTAX" --game dominion 2>&1) && e2e_fail "a syntax error was accepted: $out"
grep -q '^refused: the bundle does not load: .*cards.lua' <<<"$out" ||
    e2e_fail "syntax error refused without its reason: $out"
out=$("$DECKHAND" scripts push "$TESTFAIL" --game dominion 2>&1) && e2e_fail "failing tests were accepted: $out"
grep -q '^refused: rules tests failed: dominion/' <<<"$out" ||
    e2e_fail "failing tests refused without the test's name: $out"
[[ -z $(current) ]] || e2e_fail "a refused push moved the pointer to $(current)"
e2e_log "syntax error and failing tests refused with their reason; pointer untouched"

# ---- acceptance 1 and 5: push under load ----------------------------------------------
out=$("$DECKHAND" scripts push "$GOOD" --game dominion --label smithy-3 --wait 10 2>&1) ||
    e2e_fail "push failed: $out"
printf '%s\n' "$out" >&2
NEW_SHA=$(current)
[[ -n $NEW_SHA && $NEW_SHA != "$OLD_SHA" ]] || e2e_fail "the pointer did not move"
grep -qE '^serving on 2/2 workers [0-9]+ ms after the push$' <<<"$out" ||
    e2e_fail "not every worker serves the new bundle: $out"
e2e_log "push -> serving: $(grep -oE '[0-9]+ ms' <<<"$out")"

# acceptance 4: a match that started on the old bundle replays on it after the push
out=$(smithy_of "${RUNNING[0]}") || e2e_fail "match ${RUNNING[0]} does not replay: $out"
grep -q "bundle=$OLD_SHA replayed=ok" <<<"$out" || e2e_fail "replay of ${RUNNING[0]}: $out"

"$DECKHAND" scripts list >"$E2E_RUN/list.out" || e2e_fail "scripts list failed"
cat "$E2E_RUN/list.out" >&2
grep -q "^$NEW_SHA  label=smithy-3  current=dominion$" "$E2E_RUN/list.out" ||
    e2e_fail "scripts list does not show the new bundle as current"

wait "$BOTS_PID" || e2e_fail "deckhand bots exited with $? ($(tail -n 5 "$E2E_RUN/bots.err"))"
last=$(grep -v '^[[:space:]]*$' "$BOTS_OUT" | tail -n 1)
[[ $last == "matches_completed=80 errors=0" ]] || e2e_fail "bots ended with '$last'"

for id in "${RUNNING[@]}"; do
    [[ $(e2e_redis hget "match:{$id}" bundle) == "$OLD_SHA" ]] || e2e_fail "$id changed bundle"
    [[ $(e2e_redis hget "match:{$id}" status) == finished ]] || e2e_fail "$id did not finish"
done
out=$(smithy_of "${RUNNING[0]}") || e2e_fail "$out"
grep -q '^card Smithy cost=4 .*text=+3 Cards\.$' <<<"$out" || e2e_fail "old match's Smithy: $out"
# replayed on its bundle after the push, it ends exactly as it ended live
want=$(e2e_redis hget "match:{${RUNNING[0]}}" result | grep -oE '"score":-?[0-9]+' | cut -d: -f2 |
    paste -sd,)
grep -qx "scores=$want" <<<"$out" || e2e_fail "replay of ${RUNNING[0]} ends '$out', live: $want"
mapfile -t NEWER < <(matches_where bundle "$NEW_SHA")
((${#NEWER[@]} > 0)) || e2e_fail "no match started on the new bundle"
for id in "${NEWER[@]:0:3}"; do
    out=$(smithy_of "$id") || e2e_fail "$out"
    grep -q '^card Smithy cost=3 .*hotfix: costs 3' <<<"$out" || e2e_fail "new match $id: $out"
done
e2e_log "${#RUNNING[@]} matches finished on the old Smithy, ${#NEWER[@]} started on the new one"

# ---- acceptance 2: rollback -------------------------------------------------------------
out=$("$DECKHAND" scripts rollback --game dominion --reason "back to Smithy at 4" 2>&1) || e2e_fail "rollback failed: $out"
[[ -z $(current) ]] || e2e_fail "rollback left the pointer at $(current)"
sleep 1 # the workers' poll interval is 200 ms
e2e_bots 4
for id in $(e2e_redis lrange matches:finished 0 3); do
    [[ $(e2e_redis hget "match:{$id}" bundle) == "$OLD_SHA" ]] ||
        e2e_fail "after the rollback, match $id started on $(e2e_redis hget "match:{$id}" bundle)"
done
out=$(smithy_of "$(e2e_redis lindex matches:finished 0)") || e2e_fail "$out"
grep -q '^card Smithy cost=4 ' <<<"$out" || e2e_fail "after the rollback: $out"
e2e_log "rollback: new matches are back on Smithy at 4"
# A VM is freed when its last match ends and it is not current: push a third bundle, play
# two matches on it to their end (two bots, one match at a time), roll back.
V2=$E2E_RUN/bundle-v2
bundle_copy "$V2"
sed -i -E '/^cards\.Smithy = /s/text = "([^"]*)"/text = "\1 (v2)"/' "$V2/dominion/cards.lua"
"$DECKHAND" scripts push "$V2" --game dominion --label v2 >/dev/null 2>&1 || e2e_fail "push v2 failed"
V2_SHA=$(current)
timeout 120 "$DECKHAND" bots --game dominion --players 2 --matches 2 >/dev/null 2>&1 </dev/null ||
    e2e_fail "bots on v2 failed"
"$DECKHAND" scripts rollback --game dominion --reason "v2 done" >/dev/null 2>&1 || e2e_fail "rollback of v2 failed"
deadline=$((SECONDS + 5))
while (($(e2e_redis hexists 'worker:{wk-1}:bundles' "$V2_SHA") + \
    $(e2e_redis hexists 'worker:{wk-2}:bundles' "$V2_SHA") > 0)); do
    ((SECONDS < deadline)) || e2e_fail "a worker still holds ${V2_SHA:0:12} after its last match"
    sleep 0.1
done
[[ $(e2e_redis hget "bundle:{$V2_SHA}" label) == v2 ]] || e2e_fail "the bundle left Redis"
e2e_log "its VMs are freed on both workers; the bundle stays in Redis for replays"

# ---- a bundle the workers cannot load (written past push's checks): they keep serving
# ---- on what they had and say why in bundle:{SHA}:errors
BAD=$(printf '0%.0s' {1..64})
e2e_redis hset "bundle:{$BAD}" dominion/game.lua 'return {' >/dev/null
e2e_redis set 'bundle:current:{dominion}' "$BAD" >/dev/null
deadline=$((SECONDS + 10))
while (($(e2e_redis hlen "bundle:{$BAD}:errors") < 2)); do
    ((SECONDS < deadline)) || e2e_fail "the workers did not report the broken bundle"
    sleep 0.1
done
for wk in wk-1 wk-2; do
    why=$(e2e_redis hget "bundle:{$BAD}:errors" "$wk")
    [[ $why == "load failed: "*game.lua* ]] || e2e_fail "$wk reported '$why'"
done
e2e_bots 4
for id in $(e2e_redis lrange matches:finished 0 3); do
    [[ $(e2e_redis hget "match:{$id}" bundle) == "$OLD_SHA" ]] ||
        e2e_fail "with a broken current bundle, match $id started on $(e2e_redis hget "match:{$id}" bundle)"
done
e2e_log "a bundle no worker can load: reported by both, play continued on the old one"

# ---- --apply-to-running: a compatible hotfix reaches running matches at a turn boundary
COMPAT=$E2E_RUN/bundle-compat
bundle_copy "$COMPAT"
sed -i -E '/^cards\.Smithy = /s/text = "([^"]*)"/text = "\1 (compatible)"/' \
    "$COMPAT/dominion/cards.lua"
out=$("$DECKHAND" scripts push "$COMPAT" --game dominion --apply-to-running 2>&1) &&
    e2e_fail "--apply-to-running without a compatible manifest was accepted: $out"
grep -q '^refused: --apply-to-running needs compatible = true' <<<"$out" ||
    e2e_fail "refused without the reason: $out"
echo 'return { label = "compat", compatible = true }' >"$COMPAT/manifest.lua"
timeout 300 "$DECKHAND" bots --game dominion --players 20 --size 2 --matches 30 --rate 10 \
    >"$BOTS_OUT" 2>"$E2E_RUN/bots.err" </dev/null &
BOTS_PID=$!
deadline=$((SECONDS + 30))
until mapfile -t RUNNING < <(matches_where status running) && ((${#RUNNING[@]} >= 6)); do
    ((SECONDS < deadline)) || e2e_fail "fewer than 6 matches running after 30 s"
    sleep 0.2
done
out=$("$DECKHAND" scripts push "$COMPAT" --game dominion --apply-to-running 2>&1) ||
    e2e_fail "compatible push failed: $out"
COMPAT_SHA=$(current)
wait "$BOTS_PID" || e2e_fail "deckhand bots exited with $? ($(tail -n 5 "$E2E_RUN/bots.err"))"
last=$(grep -v '^[[:space:]]*$' "$BOTS_OUT" | tail -n 1)
[[ $last == "matches_completed=30 errors=0" ]] || e2e_fail "bots ended with '$last'"
# A match moved onto the hotfix is one whose match:{ID}:bundles records the move (which
# matches those are depends on timing: those running when the workers loaded it). Each
# must name its old bundle, run on the new one and replay with the new Smithy.
moved=0
for key in $(e2e_redis --scan --pattern 'match:{*}:bundles'); do
    id=${key#match:\{}
    id=${id%\}:bundles}
    note=$(e2e_redis lindex "$key" -1)
    read -r from to _ <<<"$note"
    [[ $to == "$COMPAT_SHA" ]] || continue
    [[ -n $from && $from != "$COMPAT_SHA" ]] || e2e_fail "match $id moved without a record: '$note'"
    [[ $(e2e_redis hget "match:{$id}" bundle) == "$COMPAT_SHA" ]] ||
        e2e_fail "match $id recorded a move to $COMPAT_SHA but runs on another bundle"
    out=$(smithy_of "$id") || e2e_fail "moved match $id does not replay: $out"
    grep -q '^card Smithy cost=4 .*(compatible)$' <<<"$out" || e2e_fail "moved match $id: $out"
    moved=$((moved + 1))
done
((moved > 0)) || e2e_fail "no running match moved onto the compatible bundle"
e2e_log "--apply-to-running: $moved running matches moved, recorded, replay"
