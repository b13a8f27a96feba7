#!/usr/bin/env bash
# The web client plays a game other than Dominion against a bot (issue 16): with
# bot_fill_ms set for Caveman's queue, one headless Chromium player queues alone, gets a
# match whose other seat a server-side bot plays, and plays it to the end screen
# (web_solo.mjs; reloading once on the way). Screenshots go to
# build-test/test-output/web_solo/.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

GAME=caveman
[[ -d $E2E_SRC/client/web/node_modules/puppeteer-core ]] ||
    e2e_fail "no puppeteer-core in client/web (npm ci)"
command -v chromium >/dev/null || e2e_fail "no chromium (./scripts/test installs it)"
out=$DECKHAND_BIN_DIR/../test-output/web_solo
rm -rf "$out"
mkdir -p "$out"

queues=$(mktemp "${TMPDIR:-/tmp}/deckhand-e2e-websolo.XXXXXX")
echo "$GAME casual bot_fill_ms=500" >"$queues"
export DECKHAND_QUEUES=$queues
e2e_start 31400
rm -f "$queues"
page=${DECKHAND_GATEWAY_WS/#ws:/http:}
page=${page%/ws}/
e2e_log "one browser plays $GAME against a bot-filled seat through $page"
timeout 170 node "$E2E_SRC/tests/e2e/web_solo.mjs" "$page" "$out" "$GAME" \
    >"$E2E_RUN/web_solo.out" 2>&1 || {
    cat "$E2E_RUN/web_solo.out" >&2
    e2e_fail "web_solo.mjs failed"
}
cat "$E2E_RUN/web_solo.out" >&2
for shot in "$GAME-match" "$GAME-end"; do
    [[ -s $out/$shot.png ]] || e2e_fail "no $shot.png"
done
e2e_log "screenshots in $out"
