#!/usr/bin/env bash
# The traps a live-ops engineer met on the way (issue 30), each refused or fixed:
# - a rollback while a canary runs is refused, non-zero, naming `scripts abort`, and the
#   canary keeps its share (it printed "nothing to roll back" and exited 0);
# - without --by or $USER the actor is the admin token's name (it was "unknown"), and
#   `scripts audit --admin` lists script changes and admin actions together;
# - a push of a game no worker serves is refused before anything is stored, saying how a
#   new game reaches the workers (it stored the bundle and a pointer nobody follows);
# - a kingdom list requested by a client is checked against the bundle's cards and played
#   (the network took only presets), a list naming an unknown card refused with its name;
# - a pushed bundle's options reach the matchmaker: a card the push adds can be asked for
#   by name at once, and the match plays on the pushed bundle (joins were checked against
#   the embedded default's options);
# and the balance check before a push: `push --simulate N` reports a card made cheaper
# bought more, with an interval that excludes 0, and puts it in the audit entry.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

DECKHAND=$DECKHAND_BIN_DIR/deckhand

e2e_start 17000

bundle_copy() {
    mkdir -p "$1"
    cp -r "$E2E_SRC/scripts/deckbuilder" "$E2E_SRC/scripts/dominion" "$1/"
    echo "-- $2" >>"$1/dominion/cards.lua"
}
# A two-player Dominion match of bots asking for option $1, given $3 seconds (a refused
# join waits them out); its output in $2.out/.err.
bots_with() {
    timeout $(($3 + 10)) "$DECKHAND" bots --game dominion --players 2 --size 2 --matches 1 \
        --timeout "$3" --option "$1" >"$2.out" 2>"$2.err" </dev/null
}

# ---- a rollback during a canary ----------------------------------------------------------
CANARY=$E2E_RUN/bundle-canary
bundle_copy "$CANARY" canary
out=$("$DECKHAND" scripts push "$CANARY" --game dominion --canary 50 --by eve \
    --reason "try it" --wait 10 2>&1) || e2e_fail "canary push failed: $out"
canary=$(e2e_redis get 'bundle:canary:{dominion}')
rc=0
out=$("$DECKHAND" scripts rollback --game dominion --by eve --reason "oops" 2>&1) || rc=$?
((rc != 0)) || e2e_fail "a rollback during a canary exited 0: $out"
grep -q '^refused: dominion has a canary running' <<<"$out" || e2e_fail "refused without why: $out"
grep -q 'deckhand scripts abort --game dominion' <<<"$out" || e2e_fail "abort is not named: $out"
[[ $(e2e_redis get 'bundle:canary:{dominion}') == "$canary" ]] || e2e_fail "the canary moved"
[[ $("$DECKHAND" scripts audit --game dominion | awk '{ print $2 }' | tr '\n' ' ') == "canary " ]] ||
    e2e_fail "the refused rollback reached the audit trail"
e2e_log "a rollback during a canary: refused (exit $rc), pointing at abort"

# ---- one identity, one command for both trails ---------------------------------------------
# Without --by, the name is the admin token's (the cluster's token file says "local:..."),
# as in the admin API's trail, with no $USER or $LOGNAME too (a job, a container): never
# "unknown" (test_liveops_audit pins that the token's name wins over $USER).
out=$(env -u USER -u LOGNAME "$DECKHAND" scripts abort --game dominion --reason "done" 2>&1) ||
    e2e_fail "abort failed: $out"
"$DECKHAND" admin --url "$DECKHAND_HTTP_MATCHMAKER" end m-no-such-match --reason "a test" \
    >"$E2E_RUN/admin.out" 2>&1 && e2e_fail "an end of no match succeeded: $(cat "$E2E_RUN/admin.out")"
for _ in 1 2 3 4 5 6 7 8 9 10; do # the matchmaker appends its entry after it answers
    "$DECKHAND" scripts audit --game dominion --admin >"$E2E_RUN/both.out" 2>&1 || e2e_fail "audit --admin"
    grep -q ' admin:end ' "$E2E_RUN/both.out" && break
    sleep 0.2
done
grep -q ' abort game=dominion .* by=local@' "$E2E_RUN/both.out" ||
    e2e_fail "the abort's actor is not the token's name: $(cat "$E2E_RUN/both.out")"
grep -q ' admin:end target=m-no-such-match by=local status=404 reason="a test"' "$E2E_RUN/both.out" ||
    e2e_fail "audit --admin does not show the admin API's entry: $(cat "$E2E_RUN/both.out")"
e2e_log "both trails in one listing, under one name: $(grep -c . "$E2E_RUN/both.out") entries"

# ---- a push of a game no worker serves -----------------------------------------------------
HOARD=$E2E_RUN/bundle-hoard
mkdir -p "$HOARD/hoard"
sed 's/name = "tiny"/name = "hoard"/' "$E2E_SRC/tests/fixtures/failing/tiny/game.lua" \
    >"$HOARD/hoard/game.lua"
stored=$(e2e_redis scard bundles)
rc=0
out=$("$DECKHAND" scripts push "$HOARD" --game hoard --by eve --wait 2 2>&1) || rc=$?
((rc != 0)) || e2e_fail "a push of a game no worker serves exited 0: $out"
grep -q '^refused: no worker serves hoard (2 live workers, serving .*dominion' <<<"$out" ||
    e2e_fail "refused without why: $out"
grep -q 'a new game reaches the workers in their embedded bundle' <<<"$out" ||
    e2e_fail "the refusal does not say how a new game reaches the workers: $out"
grep -q 'current is now' <<<"$out" && e2e_fail "the refused push says it moved a pointer: $out"
[[ $(e2e_redis scard bundles) == "$stored" ]] || e2e_fail "the refused push stored its bundle"
[[ -z $(e2e_redis get 'bundle:current:{hoard}') ]] || e2e_fail "a pointer for hoard was written"
(($(e2e_redis xlen 'bundle:audit:{hoard}') == 0)) || e2e_fail "hoard has an audit entry"
e2e_log "a push of a game no worker serves: refused (exit $rc), nothing stored"

# ---- a kingdom list asked for by a client ---------------------------------------------------
TEN="Cellar,Chapel,Moat,Village,Smithy,Market,Militia,Witch,Throne Room,Laboratory"
bots_with "kingdom=$TEN" "$E2E_RUN/ten" 80 ||
    e2e_fail "the kingdom list was not played: $(tail -n 3 "$E2E_RUN/ten.err")"
grep -q '^matches_completed=1 errors=0' "$E2E_RUN/ten.out" || e2e_fail "$(cat "$E2E_RUN/ten.out")"
id=$(e2e_redis lindex matches:finished 0)
key=$(_e2e_match_key "$id")
[[ $(e2e_redis hget "$key" options) == "kingdom=$TEN" ]] ||
    e2e_fail "$key: options '$(e2e_redis hget "$key" options)', want kingdom=$TEN"
e2e_check_replays
# `scripts show` of the finished match: the whole match's answers, and those since its last
# snapshot (its end: 0), each labelled (it printed answers=0 alone)
out=$("$DECKHAND" scripts show --match "$id" 2>&1) || e2e_fail "show: $out"
if ! [[ $out =~ replayed=ok\ answers=([0-9]+)\ answers_since_snapshot=0\  ]] ||
    ((BASH_REMATCH[1] == 0)); then
    e2e_fail "show does not label what it counts: $out"
fi
bots_with "kingdom=${TEN/Witch/Wizard}" "$E2E_RUN/wizard" 3 || true
grep -q "option 'kingdom': 'Wizard' is not one of its items (code 9)" "$E2E_RUN/wizard.err" ||
    e2e_fail "an unknown card was not refused by name: $(tail -n 3 "$E2E_RUN/wizard.err")"
(($(e2e_redis hlen 'mm:{mm}:tickets') == 0)) || e2e_fail "the refused join left a ticket"
e2e_log "kingdom=$TEN: played (match $id); an unknown card: refused by name"

# ---- a pushed card, asked for by name -------------------------------------------------------
HAMLET=$E2E_RUN/bundle-hamlet
bundle_copy "$HAMLET" hamlet
cards=$HAMLET/dominion/cards.lua
sed -i 's/^local order = { "Copper"/cards.Hamlet = { cost = 2, types = { "Action" }, text = "+1 Card, +2 Actions.",\n                 cards = 1, actions = 2 }\n\n&/' "$cards"
sed -i 's/^  "Adventurer", "Artisan" }/  "Adventurer", "Artisan", "Hamlet" }/' "$cards"
sed -i 's/^  "Artisan",$/  "Artisan", "Hamlet",/' "$HAMLET/dominion/kingdom.lua"
sed -i 's/32 - (i - 1)/33 - (i - 1)/' "$HAMLET/dominion/tests/kingdom.lua"
WITH_HAMLET=${TEN/Chapel/Hamlet}
bots_with "kingdom=$WITH_HAMLET" "$E2E_RUN/early" 3 || true
grep -q "option 'kingdom': 'Hamlet' is not one of its items (code 9)" "$E2E_RUN/early.err" ||
    e2e_fail "Hamlet was taken before its push: $(tail -n 3 "$E2E_RUN/early.err")"
out=$("$DECKHAND" scripts push "$HAMLET" --game dominion --label hamlet --by eve --wait 10 2>&1) ||
    e2e_fail "the Hamlet push failed: $out"
sha=$(e2e_redis get 'bundle:current:{dominion}')
sleep 1 # the workers' hello, every 500 ms, carries the current bundle's options
bots_with "kingdom=$WITH_HAMLET" "$E2E_RUN/hamlet" 80 ||
    e2e_fail "Hamlet was not played after its push: $(tail -n 3 "$E2E_RUN/hamlet.err")"
id=$(e2e_redis lindex matches:finished 0)
key=$(_e2e_match_key "$id")
[[ $(e2e_redis hget "$key" bundle) == "$sha" ]] || e2e_fail "$id is not on the pushed bundle"
[[ $(e2e_redis hget "$key" options) == "kingdom=$WITH_HAMLET" ]] || e2e_fail "$key: options"
out=$("$DECKHAND" scripts show --match "$id" --card Hamlet 2>&1) || e2e_fail "show: $out"
grep -q '^card Hamlet cost=2 ' <<<"$out" || e2e_fail "Hamlet is not in the match: $out"
e2e_log "a card added by a push: refused before it, played by name after it (match $id)"

# ---- a balance check before a push -----------------------------------------------------------
# Council Room from $5 to $3: on the Interaction kingdom the default bots buy it more, and
# the simulated push says so with an interval that excludes 0, in its output and its audit
# entry (400 games per bundle: about a second).
CHEAP=$E2E_RUN/bundle-cheap
bundle_copy "$CHEAP" cheap
sed -i '/^cards\["Council Room"\] = {$/{n;s/cost = 5,/cost = 3,/}' "$CHEAP/dominion/cards.lua"
grep -A1 '^cards\["Council Room"\]' "$CHEAP/dominion/cards.lua" | grep -q 'cost = 3,' ||
    e2e_fail "Council Room's cost did not change"
out=$("$DECKHAND" scripts push "$CHEAP" --game dominion --label cheap --by eve --reason "cheaper" \
    --simulate 400 --options kingdom=interaction --wait 10 2>&1) || e2e_fail "the simulated push: $out"
echo "$out" >&2
grep -q '^  card Council Room (cost 5 -> 3)$' <<<"$out" || e2e_fail "the change is not named: $out"
line=$(grep -A1 '^  card Council Room' <<<"$out" | tail -n 1)
[[ $line =~ ^\ +bought\ per\ game\ +[0-9.]+\ +[0-9.]+\ +\+[0-9.]+\ +\[\+[0-9.]+,\ \+[0-9.]+\]\ \*$ ]] ||
    e2e_fail "Council Room is not bought more with an interval above 0: '$line'"
"$DECKHAND" scripts audit --game dominion | tail -n 1 >"$E2E_RUN/sim.out"
grep -q '^.* push game=dominion .*label=cheap .*simulate=".*Council Room.bought=+[0-9.]*\[+[0-9.]*,+[0-9.]*\].* games=400 seed=1"$' \
    "$E2E_RUN/sim.out" || e2e_fail "the push's audit entry lacks the simulation: $(cat "$E2E_RUN/sim.out")"
e2e_log "simulated push: ${line## }; audited"
