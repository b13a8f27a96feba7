#!/usr/bin/env bash
# The players' client against the AI (issue 29): headless Chromium (Debian's chromium,
# puppeteer-core from client/web's lock file) opens the page the gateway serves, a guest
# presses "Play the AI" in each of the six games with the shipped settings (no bot fill)
# and plays each match to its end screen; the time from opening the page to the first
# decision is printed (first_decision_ms, under 3 s); the phone layout keeps the hand
# beside an open decision (element geometry), a card reads in full, a move is undone,
# Elemental is played on its board (an attack and a move by clicks), a player resigns; axe-core finds no serious or critical issue on the lobby, a
# match, a dialog and the end screen; no console error (web_ai.mjs says how). Screenshots
# of every screen at both sizes go to build-test/test-output/web_ai/.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

web=$E2E_SRC/client/web
[[ -d $web/node_modules/puppeteer-core && -d $web/node_modules/axe-core ]] ||
    e2e_fail "no puppeteer-core or axe-core in client/web (npm ci)"
command -v chromium >/dev/null || e2e_fail "no chromium (./scripts/test installs it)"
out=$DECKHAND_BIN_DIR/../test-output/web_ai
rm -rf "$out"
mkdir -p "$out"

e2e_start 16200
page=${DECKHAND_GATEWAY_WS/#ws:/http:}
page=${page%/ws}/
e2e_log "a guest plays the AI in every game through $page"
WEB_PLAY_MS=420000 timeout 450 node "$E2E_SRC/tests/e2e/web_ai.mjs" "$page" "$out" >"$E2E_RUN/web_ai.out" 2>&1 || {
    cat "$E2E_RUN/web_ai.out" >&2
    e2e_fail "web_ai.mjs failed"
}
cat "$E2E_RUN/web_ai.out" >&2
for shot in login lobby zoom resign board-pick \
    {dominion,accession,ascension,caveman,elemental,mlw}-{match,end}; do
    [[ -s $out/$shot.png && -s $out/$shot-phone.png ]] || e2e_fail "no $shot.png or $shot-phone.png"
done
e2e_log "screenshots in $out"
