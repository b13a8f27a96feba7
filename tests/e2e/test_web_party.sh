#!/usr/bin/env bash
# The web client's party and lobby screens against the real servers (issue 16), in
# headless Chromium (web_party.mjs): a party created by one browser and joined by code
# from another queues as one and both land in one match; a private lobby with a game
# option (Dominion's kingdom) is joined by code, both mark ready, the host starts, and
# both land in a match with that option applied; a spectator watches the party's match and
# leaves it with Escape. No console error. Screenshots go to
# build-test/test-output/web_party/.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

[[ -d $E2E_SRC/client/web/node_modules/puppeteer-core ]] ||
    e2e_fail "no puppeteer-core in client/web (npm ci)"
command -v chromium >/dev/null || e2e_fail "no chromium (./scripts/test installs it)"
out=$DECKHAND_BIN_DIR/../test-output/web_party
rm -rf "$out"
mkdir -p "$out"

e2e_start 31600
page=${DECKHAND_GATEWAY_WS/#ws:/http:}
page=${page%/ws}/
e2e_log "parties and lobbies in four browsers through $page"
timeout 170 node "$E2E_SRC/tests/e2e/web_party.mjs" "$page" "$out" >"$E2E_RUN/web_party.out" 2>&1 || {
    cat "$E2E_RUN/web_party.out" >&2
    e2e_fail "web_party.mjs failed"
}
cat "$E2E_RUN/web_party.out" >&2
for shot in party lobby-ready lobby-phone lobby-match; do
    [[ -s $out/$shot.png ]] || e2e_fail "no $shot.png"
done
e2e_log "screenshots in $out"
