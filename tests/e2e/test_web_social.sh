#!/usr/bin/env bash
# In-match social in a real browser (issue 29): two account players (rated) meet in a
# Dominion match in headless Chromium (puppeteer-core from client/web's lock file): chat
# lines and an emote go both ways, a muted player's lines are not shown, a flood of lines
# is refused by the gateway and the page says so, an undo waits for the opponent's consent
# and is then taken back, and a resign ends the match for both with the reason in words;
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

e2e_start 16400
page=${DECKHAND_GATEWAY_WS/#ws:/http:}
page=${page%/ws}/
e2e_log "two browsers chat, undo and resign through $page"
timeout 170 node "$E2E_SRC/tests/e2e/web_social.mjs" "$page" "$out" >"$E2E_RUN/web_social.out" 2>&1 || {
    cat "$E2E_RUN/web_social.out" >&2
    e2e_fail "web_social.mjs failed"
}
cat "$E2E_RUN/web_social.out" >&2
for shot in chat undo-ask resigned; do
    [[ -s $out/$shot.png && -s $out/$shot-phone.png ]] || e2e_fail "no $shot.png or $shot-phone.png"
done
e2e_log "screenshots in $out"
