#!/usr/bin/env bash
# Live-ops you can trust (issue 15): every push, rollback and apply-to-running is recorded
# in the game's audit trail (bundle:audit:{GAME}, a Redis stream never trimmed) with who
# (--by, else the admin token's NAME, else $USER; and the host), why (--reason: required
# for a rollback and a force),
# which bundle (id, label, games, rules tests) and what was current before; a rollback no
# longer erases the history entry but appends the bundle it returns to; `deckhand scripts
# audit [--game G]` prints the trail. A push whose bundle runs fewer rules tests for a game
# than the current bundle's is refused unless --force (with --reason), and the force is in
# the trail. One operator, one name (issue 30): with an admin token at hand, a script change
# is recorded under the token's NAME, the name the admin API's trail gives the same
# operator's actions, and `scripts audit --admin` lists both under it.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

DECKHAND=$DECKHAND_BIN_DIR/deckhand

e2e_start 25300 1

bundle_copy() {
    mkdir -p "$1"
    cp -r "$E2E_SRC/scripts/deckbuilder" "$E2E_SRC/scripts/dominion" "$1/"
    echo "-- $2" >>"$1/dominion/cards.lua"
}
current() { e2e_redis get 'bundle:current:{dominion}'; }
history() { e2e_redis lrange 'bundle:history:{dominion}' 0 -1; }

V1=$E2E_RUN/bundle-v1
V2=$E2E_RUN/bundle-v2
FEWER=$E2E_RUN/bundle-fewer
bundle_copy "$V1" v1
bundle_copy "$V2" v2
bundle_copy "$FEWER" fewer
# the rules tests an author might delete to get a failing push through
rm "$FEWER/dominion/tests/frozen.lua" "$FEWER/dominion/tests/g_calls.lua"

# ---- push, push, rollback: the history keeps every step ---------------------------------
out=$("$DECKHAND" scripts push "$V1" --game dominion --label v1 --by alice --reason "first cut" \
    --wait 5 2>&1) || e2e_fail "push v1 failed: $out"
V1_SHA=$(current)
# no admin token anywhere (none in the environment, no .run/cluster.env here): $USER
out=$(cd "$E2E_RUN" && env -u DECKHAND_ADMIN_TOKEN_FILE USER=bob "$DECKHAND" scripts push "$V2" \
    --game dominion --label v2 --wait 5 2>&1) || e2e_fail "push v2 failed: $out"
V2_SHA=$(current)
[[ -n $V1_SHA && -n $V2_SHA && $V1_SHA != "$V2_SHA" ]] || e2e_fail "the pointers did not move"

out=$("$DECKHAND" scripts rollback --game dominion --by carol 2>&1) &&
    e2e_fail "a rollback without --reason was accepted: $out"
grep -q -- '--reason' <<<"$out" || e2e_fail "refused without saying --reason is needed: $out"
[[ $(current) == "$V2_SHA" ]] || e2e_fail "a refused rollback moved the pointer"

out=$("$DECKHAND" scripts rollback --game dominion --by carol --reason "v2 breaks smithy" 2>&1) ||
    e2e_fail "rollback failed: $out"
[[ $(current) == "$V1_SHA" ]] || e2e_fail "rollback went to $(current), not v1"
mapfile -t HIST < <(history)
((${#HIST[@]} == 3)) || e2e_fail "after push, push, rollback the history holds ${#HIST[@]}: ${HIST[*]}"
[[ ${HIST[0]} == "$V1_SHA"* && ${HIST[1]} == "$V2_SHA"* && ${HIST[2]} == "$V1_SHA"* ]] ||
    e2e_fail "history is not v1(rollback), v2, v1: ${HIST[*]}"
e2e_log "rollback appended to the history instead of erasing v2's entry"

# a second rollback goes behind v1 (the embedded default), not back to v2
out=$("$DECKHAND" scripts rollback --game dominion --by carol --reason "back to stock" 2>&1) ||
    e2e_fail "second rollback failed: $out"
[[ -z $(current) ]] || e2e_fail "second rollback went to $(current), not the default"
(($(e2e_redis llen 'bundle:history:{dominion}') == 4)) || e2e_fail "history: $(history)"

# ---- the audit trail ---------------------------------------------------------------------
AUDIT=$E2E_RUN/audit.out
"$DECKHAND" scripts audit --game dominion >"$AUDIT" 2>"$AUDIT.err" || e2e_fail "scripts audit failed: $(cat "$AUDIT.err")"
cat "$AUDIT" >&2
(($(grep -c 'game=dominion' "$AUDIT") == 4)) || e2e_fail "the trail does not hold 4 entries"
host=$(hostname)
line() { sed -n "${1}p" "$AUDIT"; }
[[ $(line 1) =~ ^[0-9-]+T[0-9:]+Z\ push\ game=dominion\ bundle=${V1_SHA:0:12}\ label=v1\ tests=[0-9]+\ from=default\ by=alice@$host\ reason=\"first\ cut\"$ ]] ||
    e2e_fail "entry 1: $(line 1)"
[[ $(line 2) =~ ^[^\ ]+\ push\ game=dominion\ bundle=${V2_SHA:0:12}\ label=v2\ tests=[0-9]+\ from=${V1_SHA:0:12}\ by=bob@ ]] ||
    e2e_fail "entry 2 (by \$USER): $(line 2)"
[[ $(line 3) =~ ^[^\ ]+\ rollback\ game=dominion\ bundle=${V1_SHA:0:12}\ label=v1\ .*from=${V2_SHA:0:12}\ by=carol@$host\ reason=\"v2\ breaks\ smithy\"$ ]] ||
    e2e_fail "entry 3: $(line 3)"
[[ $(line 4) =~ ^[^\ ]+\ rollback\ game=dominion\ bundle=default\ .*from=${V1_SHA:0:12}\  ]] ||
    e2e_fail "entry 4: $(line 4)"
(($(e2e_redis xlen 'bundle:audit:{dominion}') == 4)) || e2e_fail "the stream does not hold 4 entries"
e2e_log "audit: who, when, why and which bundle for each step"

# ---- the test-count guard --------------------------------------------------------------------
out=$("$DECKHAND" scripts push "$V1" --game dominion --by alice --reason again --wait 0 2>&1) ||
    e2e_fail "push v1 again failed: $out"
out=$("$DECKHAND" scripts push "$FEWER" --game dominion --by mallory --wait 0 2>&1) &&
    e2e_fail "a push with fewer rules tests was accepted: $out"
grep -qE '^refused: dominion runs [0-9]+ rules tests, the current bundle [0-9a-f]{12} runs [0-9]+' <<<"$out" ||
    e2e_fail "refused without the counts: $out"
[[ $(current) == "$V1_SHA" ]] || e2e_fail "a refused push moved the pointer"
out=$("$DECKHAND" scripts push "$FEWER" --game dominion --by mallory --force --wait 0 2>&1) &&
    e2e_fail "--force without --reason was accepted: $out"
grep -q -- '--reason' <<<"$out" || e2e_fail "--force refused without saying --reason is needed: $out"
out=$("$DECKHAND" scripts push "$FEWER" --game dominion --by mallory --force \
    --reason "tests moved to the kernel" --wait 0 2>&1) || e2e_fail "forced push failed: $out"
FEWER_SHA=$(current)
[[ $FEWER_SHA != "$V1_SHA" ]] || e2e_fail "the forced push did not move the pointer"
last=$("$DECKHAND" scripts audit --game dominion 2>/dev/null | tail -n 1)
[[ $last =~ \ push\ game=dominion\ bundle=${FEWER_SHA:0:12}\ .*\ forced\ by=mallory@$host\ reason=\"tests\ moved\ to\ the\ kernel\"$ ]] ||
    e2e_fail "the forced push's entry: $last"
e2e_log "fewer tests: refused, then forced with a reason and audited"

# ---- apply-to-running is audited as an apply; the trail of every game ----------------------
COMPAT=$E2E_RUN/bundle-compat
bundle_copy "$COMPAT" compat
echo 'return { label = "compat", compatible = true }' >"$COMPAT/manifest.lua"
out=$("$DECKHAND" scripts push "$COMPAT" --game dominion --apply-to-running --by dave --wait 0 \
    2>&1) || e2e_fail "apply-to-running push failed: $out"
last=$("$DECKHAND" scripts audit 2>/dev/null | tail -n 1)
[[ $last =~ \ apply\ game=dominion\ bundle=$(current | cut -c1-12)\ label=compat\  ]] ||
    e2e_fail "the apply's entry (trail of every game): $last"
e2e_log "apply-to-running audited"

# ---- one operator, one name: a script change and an admin action by the same token ---------
# The cluster's token file says "local:...": the operator holding it is "local" in both
# trails, whatever $USER says; --by still overrides (alice, carol above, with the token at
# hand).
[[ $(head -n 1 "$DECKHAND_ADMIN_TOKEN_FILE") == local:* ]] || e2e_fail "the token is not named local"
out=$(USER=bob "$DECKHAND" scripts rollback --game dominion --reason "undo compat" 2>&1) ||
    e2e_fail "rollback by the token's holder failed: $out"
"$DECKHAND" admin --url "$DECKHAND_HTTP_MATCHMAKER" end m-no-such-match --reason "same hand" \
    >"$E2E_RUN/admin.out" 2>&1 && e2e_fail "an end of no match succeeded: $(cat "$E2E_RUN/admin.out")"
for _ in 1 2 3 4 5 6 7 8 9 10; do # the matchmaker appends its entry after it answers
    "$DECKHAND" scripts audit --game dominion --admin >"$AUDIT" 2>"$AUDIT.err" ||
        e2e_fail "audit --admin failed: $(cat "$AUDIT.err")"
    grep -q ' admin:end ' "$AUDIT" && break
    sleep 0.2
done
cat "$AUDIT" >&2
script_by=$(grep ' rollback game=dominion .*reason="undo compat"' "$AUDIT" | grep -oE ' by=[^@ ]+' | cut -c5-)
admin_by=$(grep ' admin:end target=m-no-such-match ' "$AUDIT" | grep -oE ' by=[^ ]+' | cut -c5-)
[[ $script_by == local && $admin_by == local ]] ||
    e2e_fail "one operator, two names: script change by '$script_by', admin action by '$admin_by'"
[[ $(tail -n 1 "$AUDIT") == *' admin:end target=m-no-such-match by=local status=404 reason="same hand"'* ]] ||
    e2e_fail "the admin action is not last in the merged listing: $(tail -n 1 "$AUDIT")"
e2e_log "the token's holder is 'local' in both trails of the merged listing (not \$USER=bob)"
