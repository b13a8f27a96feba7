#!/usr/bin/env bash
# The web client in a real browser (issue 16): headless Chromium (Debian's chromium,
# driven by puppeteer-core from client/web's lock file) opens the page the gateway serves
# on its WebSocket port; two players log in as guests, queue for Dominion and play a whole
# match to the end screen, answering by clicks, keys and the "let the bot answer" button;
# one of them reloads mid-match and resumes it with the token the page kept. A third
# browser watches the match from the lobby's watch list and is checked for hidden
# information; the finished match is replayed and stepped through by keyboard. No console
# error on any page. Screenshots of the lobby, the match, the spectator, the replay and the
# end screen (some phone-sized) go to build-test/test-output/web_play/ (web_play.mjs says
# what it checks). One try: the page keeps its buttons across redraws, so a click racing
# a redraw is not lost.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

web=$E2E_SRC/client/web
[[ -d $web/node_modules/puppeteer-core ]] || e2e_fail "no puppeteer-core in client/web (npm ci)"
command -v chromium >/dev/null || e2e_fail "no chromium (./scripts/test installs it)"
out=$DECKHAND_BIN_DIR/../test-output/web_play
rm -rf "$out"
mkdir -p "$out"

# Spectator frames 2 s behind (the worker's default is 10 s), so the watcher's end
# screen follows the players' soon.
export DECKHAND_SPECTATOR_DELAY_MS=2000
e2e_start 31200
page=${DECKHAND_GATEWAY_WS/#ws:/http:}
page=${page%/ws}/
e2e_log "two browsers play dominion through $page"
timeout 170 node "$E2E_SRC/tests/e2e/web_play.mjs" "$page" "$out" >"$E2E_RUN/web_play.out" 2>&1 || {
    cat "$E2E_RUN/web_play.out" >&2
    e2e_fail "web_play.mjs failed"
}
cat "$E2E_RUN/web_play.out" >&2
for shot in lobby match spectator replay end match-phone spectator-phone replay-phone end-phone; do
    [[ -s $out/$shot.png ]] || e2e_fail "no $shot.png"
done
e2e_log "screenshots in $out"
