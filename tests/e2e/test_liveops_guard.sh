#!/usr/bin/env bash
# A canary that stops itself (issue 30): a canary whose rules fail in its script for
# some players (from the third turn of a match with a player named bot-N-M, M even: the
# rules tests and the push's bot games do not meet it; a guest's name goes on " (guest)") is pushed to 50% of new matches with a guard of 4
# matches and 20 points. Bots play; the workers count each canary and current match and
# those that meet a script error in the canary's trial; `scripts list` shows the trial
# live; once the canary's script-error rate is more than 20 points over the current
# bundle's, a worker aborts the canary itself, and the audit trail says who (the guard,
# from which worker) and why (the figures). The failing players are told in words, and
# the workers' metric counts the canary's script errors.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

DECKHAND=$DECKHAND_BIN_DIR/deckhand

e2e_start 17100

BROKEN=$E2E_RUN/bundle-broken
mkdir -p "$BROKEN"
cp -r "$E2E_SRC/scripts/deckbuilder" "$E2E_SRC/scripts/dominion" "$BROKEN/"
# From its third turn, a match with a player named bot-N-M (M even) fails in its script.
head -n -1 "$BROKEN/dominion/game.lua" >"$E2E_RUN/game.lua"
cat >>"$E2E_RUN/game.lua" <<'LUA'
local played = game.turn
function game.turn(g)
  if g:add_counter("_broken", 0, 1) > 2 then
    for p = 1, g:nplayers() do
      if g:player_name(p):match("^bot%-%d+%-%d*[02468]%f[%D]") then
        error("the new rules break for " .. g:player_name(p))
      end
    end
  end
  played(g)
end

return game
LUA
[[ $(tail -n 1 "$BROKEN/dominion/game.lua") == "return game" ]] || e2e_fail "game.lua's end moved"
mv "$E2E_RUN/game.lua" "$BROKEN/dominion/game.lua"

out=$("$DECKHAND" scripts push "$BROKEN" --game dominion --label broken --canary 50 \
    --guard-min 4 --guard-margin 20 --by eve --reason "new rules" --wait 10 2>&1) ||
    e2e_fail "the canary push failed: $out"
SHA=$(e2e_redis get 'bundle:canary:{dominion}' | cut -d' ' -f2)
[[ -n $SHA ]] || e2e_fail "no canary: $out"
e2e_log "canary ${SHA:0:12} takes 50% of new matches, guard: 4 matches, 20 points"

e2e_bots_start 12 --rate 20 --timeout 40
deadline=$((SECONDS + 60)) seen_trial=0
while [[ -n $(e2e_redis get 'bundle:canary:{dominion}') ]]; do
    ((SECONDS < deadline)) || e2e_fail "the canary was not aborted within 60 s: $(e2e_redis hgetall "bundle:{$SHA}:trial" | paste -sd' ')"
    if ((!seen_trial)); then
        "$DECKHAND" scripts list >"$E2E_RUN/list.out" 2>&1 || e2e_fail "scripts list failed"
        grep -qE '^    dominion trial: canary [1-9][0-9]* matches, [0-9]+ with script errors' \
            "$E2E_RUN/list.out" && seen_trial=1 && e2e_log "$(grep trial: "$E2E_RUN/list.out")"
    fi
    sleep 0.2
done
((seen_trial)) || e2e_log "(the guard aborted the canary before a scripts list saw it run)"
# After the abort, the list still shows the trial that ended it.
"$DECKHAND" scripts list >"$E2E_RUN/list.out" 2>&1 || e2e_fail "scripts list failed"
grep -qE "^    dominion trial: canary [1-9][0-9]* matches, [1-9][0-9]* with script errors .*\(canary ended\)$" \
    "$E2E_RUN/list.out" || e2e_fail "scripts list does not show the ended trial: $(cat "$E2E_RUN/list.out")"
e2e_log "$(grep 'canary ended' "$E2E_RUN/list.out")"

"$DECKHAND" scripts audit --game dominion >"$E2E_RUN/audit.out" 2>&1 || e2e_fail "audit failed"
cat "$E2E_RUN/audit.out" >&2
last=$(tail -n 1 "$E2E_RUN/audit.out")
[[ $last =~ abort\ game=dominion\ bundle=${SHA:0:12}\ label=broken\ .*pct=50\ from=default\ by=canary-guard@wk-[12]\ reason=\"canary\ guard:\ script\ errors\ in\ [0-9]+\ of\ [0-9]+\ canary\ matches ]] ||
    e2e_fail "the abort's audit entry: $last"
e2e_log "aborted by its guard: ${last#*reason=}"

metric=0
for port in "$DECKHAND_HTTP_WORKER_1" "$DECKHAND_HTTP_WORKER_2"; do
    v=$(curl -sf "http://$port/metrics" |
        awk '/^deckhand_worker_script_errors_total\{bundle="canary"\}/ { print $2 }')
    metric=$((metric + ${v:-0}))
done
((metric > 0)) || e2e_fail "no worker counts a script error on the canary"
grep -qE "(Your move could not be played|The bot could not answer): the game's rules failed( on it)? \(error E[0-9a-f]{8}\)" \
    "$E2E_RUN/bots.err" || e2e_fail "no player was told in words: $(tail -n 3 "$E2E_RUN/bots.err")"
e2e_log "$metric script errors on the canary in the workers' metrics; the players were told"

# New matches are back on the current bundle: each one started now runs on it.
kill "$E2E_BOTS_PID" 2>/dev/null
wait "$E2E_BOTS_PID" 2>/dev/null
matches() { e2e_redis --scan --pattern 'match:{*}' | grep -E '^match:\{[^}]*\}$' | sort; }
matches >"$E2E_RUN/before"
timeout 60 "$DECKHAND" bots --game dominion --players 4 --size 2 --matches 2 --timeout 50 \
    >"$E2E_RUN/after.out" 2>"$E2E_RUN/after.err" </dev/null || e2e_fail "$(tail -n 3 "$E2E_RUN/after.err")"
n=0
for key in $(comm -13 "$E2E_RUN/before" <(matches)); do
    [[ $(e2e_redis hget "$key" bundle) != "$SHA" ]] || e2e_fail "$key started on the aborted canary"
    n=$((n + 1))
done
# (the stopped bots' last tickets may form one more match meanwhile: after the abort too)
((n >= 2)) || e2e_fail "$n new matches, not 2"
e2e_log "after the abort, new matches start on the current bundle"
