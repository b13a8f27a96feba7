#!/usr/bin/env bash
# Canary (issue 15): `deckhand scripts push DIR --canary PCT` puts the new bundle on PCT%
# of the game's new matches, chosen by a hash of the match id (FNV-1a mod 100, the same on
# every worker: checked here against each match's own id), while the current bundle keeps
# the rest and the pointer does not move; `scripts list` and each worker's /metrics show
# the canary's share; a plain push is refused while it runs; `scripts promote` makes it
# current for every new match; `scripts abort` drops another one while a match runs on it,
# and that match finishes on it. Every step is in the audit trail.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

DECKHAND=$DECKHAND_BIN_DIR/deckhand

e2e_start 25400

bundle_copy() {
    mkdir -p "$1"
    cp -r "$E2E_SRC/scripts/deckbuilder" "$E2E_SRC/scripts/dominion" "$1/"
    echo "-- $2" >>"$1/dominion/cards.lua"
}
current() { e2e_redis get 'bundle:current:{dominion}'; }
# Whether match id $1 falls in a canary of $2 percent: FNV-1a 64 of the id, unsigned,
# modulo 100 (bash's integers are signed 64-bit: 2^64 mod 100 = 16 corrects the sign).
canary_takes() {
    local id=$1 pct=$2 h=-3750763034362895579 i c r
    for ((i = 0; i < ${#id}; i++)); do
        printf -v c '%d' "'${id:i:1}"
        h=$(((h ^ c) * 1099511628211))
    done
    r=$((h % 100))
    ((r < 0)) && r=$(((r + 16 + 100) % 100))
    ((r < pct))
}
# Every match id in Redis, running or finished (each one started on some bundle).
all_matches() {
    local key
    for key in $(e2e_redis --scan --pattern 'match:{*}'); do
        [[ $key == *\} ]] || continue
        key=${key#match:\{}
        echo "${key%\}}"
    done | sort
}
# The matches started since the list in file $1 was taken.
new_matches() { comm -13 "$1" <(all_matches); }
# N two-player Dominion matches, all at once.
bots_run() {
    local out
    out=$(timeout 120 "$DECKHAND" bots --game dominion --players $(($1 * 2)) --size 2 \
        --matches "$1" 2>"$E2E_RUN/bots.err" </dev/null | grep -v '^[[:space:]]*$' | tail -n 1)
    [[ $out == "matches_completed=$1 errors=0" ]] || e2e_fail "bots ended with '$out'"
}

CANARY=$E2E_RUN/bundle-canary
NEXT=$E2E_RUN/bundle-next
bundle_copy "$CANARY" canary
bundle_copy "$NEXT" next

# ---- a 50% canary: the pointer stays, new matches split by their id ---------------------
out=$("$DECKHAND" scripts push "$CANARY" --game dominion --label canary --canary 50 \
    --by eve --reason "new smithy text" --wait 10 2>&1) || e2e_fail "canary push failed: $out"
grep -qE '^serving on 2/2 workers' <<<"$out" || e2e_fail "not every worker loaded the canary: $out"
[[ -z $(current) ]] || e2e_fail "a canary push moved the pointer to $(current)"
CANARY_SHA=$(e2e_redis get 'bundle:canary:{dominion}' | cut -d' ' -f2)
[[ $(e2e_redis get 'bundle:canary:{dominion}') == "50 $CANARY_SHA" ]] || e2e_fail "canary key"
out=$("$DECKHAND" scripts push "$NEXT" --game dominion --wait 0 2>&1) &&
    e2e_fail "a push while a canary runs was accepted: $out"
grep -q '^refused: dominion has a canary running' <<<"$out" || e2e_fail "refused without why: $out"

bots_run 12
on_canary=0 on_default=0
while read -r id; do
    [[ -n $id ]] || continue
    bundle=$(e2e_redis hget "match:{$id}" bundle)
    if canary_takes "$id" 50; then
        [[ $bundle == "$CANARY_SHA" ]] || e2e_fail "match $id should be on the canary, runs $bundle"
        on_canary=$((on_canary + 1))
    else
        [[ $bundle != "$CANARY_SHA" ]] || e2e_fail "match $id should not be on the canary"
        on_default=$((on_default + 1))
    fi
done < <(all_matches)
((on_canary > 0 && on_default > 0)) || e2e_fail "$on_canary on the canary, $on_default not"
e2e_log "$((on_canary + on_default)) matches: $on_canary on the canary, $on_default on the current bundle, each as its id says"

# A worker reports its bundles' counts up to BUNDLES_POLL_MS (200 ms) after a match starts
# (worker/bundles): the list is read again for up to 3 s until the last start shows.
for ((try = 0; try < 30; try++)); do
    "$DECKHAND" scripts list >"$E2E_RUN/list.out" 2>/dev/null || e2e_fail "scripts list failed"
    started=$(awk -v s="$CANARY_SHA" '$1 == s { on = 1; next } /^[^ ]/ { on = 0 }
        on && /started/ { sub(/.*, /, ""); n += $1 } END { print n + 0 }' "$E2E_RUN/list.out")
    ((started == on_canary)) && break
    sleep 0.1
done
cat "$E2E_RUN/list.out" >&2
grep -q "^$CANARY_SHA  label=canary  current=-  canary=dominion:50%$" "$E2E_RUN/list.out" ||
    e2e_fail "scripts list does not show the canary"
((started == on_canary)) || e2e_fail "scripts list counts $started started on the canary, not $on_canary"
metric=0
for port in "$DECKHAND_HTTP_WORKER_1" "$DECKHAND_HTTP_WORKER_2"; do
    v=$(curl -sf "http://$port/metrics" | awk '/^deckhand_worker_bundle_matches_started_total\{bundle="canary"\}/ { print $2 }')
    metric=$((metric + ${v:-0}))
done
((metric == on_canary)) || e2e_fail "the workers' metrics count $metric on the canary, not $on_canary"

# ---- promote: every new match on it ------------------------------------------------------
all_matches >"$E2E_RUN/before-promote"
out=$("$DECKHAND" scripts promote --game dominion --by eve 2>&1) || e2e_fail "promote failed: $out"
[[ $(current) == "$CANARY_SHA" ]] || e2e_fail "promote did not make the canary current"
(($(e2e_redis exists 'bundle:canary:{dominion}') == 0)) || e2e_fail "the canary is still set"
sleep 1 # the workers' poll interval is 200 ms
bots_run 4
for id in $(new_matches "$E2E_RUN/before-promote"); do
    [[ $(e2e_redis hget "match:{$id}" bundle) == "$CANARY_SHA" ]] || e2e_fail "after promote, $id"
done
e2e_log "promoted: new matches all start on it"

# ---- abort: a match running on the canary finishes on it ------------------------------------
out=$("$DECKHAND" scripts push "$NEXT" --game dominion --label next --canary 99 --by eve \
    --wait 10 2>&1) || e2e_fail "second canary push failed: $out"
NEXT_SHA=$(e2e_redis get 'bundle:canary:{dominion}' | cut -d' ' -f2)
e2e_bots_start 6
deadline=$((SECONDS + 30))
until [[ -n ${ON_NEXT:-} ]]; do
    ((SECONDS < deadline)) || e2e_fail "no match started on the second canary"
    for id in $(e2e_redis hkeys matches:running); do
        [[ $(e2e_redis hget "match:{$id}" bundle) == "$NEXT_SHA" ]] && ON_NEXT=$id && break
    done
    sleep 0.1
done
out=$("$DECKHAND" scripts abort --game dominion --by eve --reason "crashes on Witch" 2>&1) ||
    e2e_fail "abort failed: $out"
[[ $(current) == "$CANARY_SHA" ]] || e2e_fail "abort moved the pointer"
e2e_bots_wait 6
[[ $(e2e_redis hget "match:{$ON_NEXT}" status) == finished ]] || e2e_fail "$ON_NEXT did not finish"
[[ $(e2e_redis hget "match:{$ON_NEXT}" bundle) == "$NEXT_SHA" ]] || e2e_fail "$ON_NEXT changed bundle"
sleep 1
all_matches >"$E2E_RUN/before-after-abort"
bots_run 4
for id in $(new_matches "$E2E_RUN/before-after-abort"); do
    [[ $(e2e_redis hget "match:{$id}" bundle) == "$CANARY_SHA" ]] || e2e_fail "after abort, $id"
done
e2e_log "aborted: match $ON_NEXT finished on it, new matches are back on the current bundle"

# ---- the trail -----------------------------------------------------------------------------
"$DECKHAND" scripts audit --game dominion >"$E2E_RUN/audit.out" 2>/dev/null || e2e_fail "audit failed"
cat "$E2E_RUN/audit.out" >&2
mapfile -t A < <(awk '{ print $2 }' "$E2E_RUN/audit.out")
[[ ${A[*]} == "canary promote canary abort" ]] || e2e_fail "the trail holds: ${A[*]}"
grep -q "canary game=dominion bundle=${CANARY_SHA:0:12} label=canary tests=[0-9]* pct=50 from=default by=eve@.* reason=\"new smithy text\"" \
    "$E2E_RUN/audit.out" || e2e_fail "the canary's entry"
grep -q "abort game=dominion bundle=${NEXT_SHA:0:12} label=next .*pct=99 from=${CANARY_SHA:0:12} by=eve@.* reason=\"crashes on Witch\"" \
    "$E2E_RUN/audit.out" || e2e_fail "the abort's entry"
e2e_log "canary, promote, canary, abort: all in the trail"
