#!/usr/bin/env bash
# The web client plays games other than Dominion against a bot (issue 16): with
# bot_fill_ms set for their queues, one headless Chromium player queues alone for Caveman
# (a deck-builder with health), then for Elemental (a board of "board:ROW:COL" spaces),
# gets a match whose other seat a server-side bot plays, and plays it to the end screen
# (web_solo.mjs; reloading once on the way). Screenshots go to
# build-test/test-output/web_solo/. One try per game.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

GAMES=(caveman elemental)
[[ -d $E2E_SRC/client/web/node_modules/puppeteer-core ]] ||
    e2e_fail "no puppeteer-core in client/web (npm ci)"
command -v chromium >/dev/null || e2e_fail "no chromium (./scripts/test installs it)"
out=$DECKHAND_BIN_DIR/../test-output/web_solo
rm -rf "$out"
mkdir -p "$out"

queues=$(mktemp "${TMPDIR:-/tmp}/deckhand-e2e-websolo.XXXXXX")
for game in "${GAMES[@]}"; do
    echo "$game casual bot_fill_ms=500" >>"$queues"
done
export DECKHAND_QUEUES=$queues
e2e_start 31400
rm -f "$queues"
page=${DECKHAND_GATEWAY_WS/#ws:/http:}
page=${page%/ws}/
for game in "${GAMES[@]}"; do
    e2e_log "one browser plays $game against a bot-filled seat through $page"
    timeout 170 node "$E2E_SRC/tests/e2e/web_solo.mjs" "$page" "$out" "$game" \
        >"$E2E_RUN/web_solo-$game.out" 2>&1 || {
        cat "$E2E_RUN/web_solo-$game.out" >&2
        e2e_fail "web_solo.mjs $game failed"
    }
    cat "$E2E_RUN/web_solo-$game.out" >&2
    for shot in "$game-match" "$game-match-phone" "$game-end"; do
        [[ -s $out/$shot.png ]] || e2e_fail "no $shot.png"
    done
done
e2e_log "screenshots in $out"
