#!/usr/bin/env bash
# In-match social in a real browser (issue 29): two account players (rated) meet in a
# Dominion match in headless Chromium (puppeteer-core from client/web's lock file): chat
# lines and an emote go both ways, a muted player's lines are not shown, a flood of lines
# is refused by the gateway and the page says so, a move whose card script fails (a
# Dominion pushed with a rule broken for Ada) is explained with the way out, which the bot
# takes, an undo waits for the opponent's consent and is then taken back, and a resign
# ends the match for both with the reason in words;
# axe-core checks the chat and the consent dialog; no console error (web_social.mjs).
# Screenshots go to build-test/test-output/web_social/.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

web=$E2E_SRC/client/web
[[ -d $web/node_modules/puppeteer-core && -d $web/node_modules/axe-core ]] ||
    e2e_fail "no puppeteer-core or axe-core in client/web (npm ci)"
command -v chromium >/dev/null || e2e_fail "no chromium (./scripts/test installs it)"
out=$DECKHAND_BIN_DIR/../test-output/web_social
rm -rf "$out"
mkdir -p "$out"

# Spectator frames 2 s behind (the worker's default is 10 s): the watcher's screen comes soon.
export DECKHAND_SPECTATOR_DELAY_MS=2000
e2e_start 18400
# Dominion pushed with a broken rule: buying a Curse fails in its script for a player whose
# name starts "Ada" (the push's own rules tests and bots never meet it; test_script_words.c
# does the same for the protocol).
broken=$E2E_RUN/broken
mkdir -p "$broken"
cp -r "$E2E_SRC/scripts/deckbuilder" "$E2E_SRC/scripts/dominion" "$broken/"
head -n -1 "$broken/dominion/game.lua" >"$broken/game.lua"
cat >>"$broken/game.lua" <<'LUA'
local kernel = require("deckbuilder.kernel")
local buy = kernel.buy
function kernel.buy(self, g, p, name)
  if name == "Curse" and g:player_name(p):match("^Ada") then
    error("the new rules break on buying a Curse")
  end
  return buy(self, g, p, name)
end

return game
LUA
mv "$broken/game.lua" "$broken/dominion/game.lua"
"$DECKHAND_BIN_DIR/deckhand" scripts push "$broken" --game dominion --label broken-curse --by test \
    --reason "web script words" --wait 10 >"$E2E_RUN/push.out" 2>&1 || {
    cat "$E2E_RUN/push.out" >&2
    e2e_fail "the broken Dominion was not pushed"
}
page=${DECKHAND_GATEWAY_WS/#ws:/http:}
page=${page%/ws}/
e2e_log "two browsers chat, undo and resign through $page"
timeout 170 node "$E2E_SRC/tests/e2e/web_social.mjs" "$page" "$out" >"$E2E_RUN/web_social.out" 2>&1 || {
    cat "$E2E_RUN/web_social.out" >&2
    e2e_fail "web_social.mjs failed"
}
cat "$E2E_RUN/web_social.out" >&2
for shot in chat script-error undo-ask resigned; do
    [[ -s $out/$shot.png && -s $out/$shot-phone.png ]] || e2e_fail "no $shot.png or $shot-phone.png"
done
e2e_log "screenshots in $out"
