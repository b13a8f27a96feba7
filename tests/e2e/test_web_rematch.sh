#!/usr/bin/env bash
# The end screen's rematch in a real browser (issue 29): against the AI a rematch starts at
# once; between two guests it starts when both offered, and is shown declined when the
# other leaves the end screen (web_rematch.mjs). No console error. Screenshots go to
# build-test/test-output/web_rematch/.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

web=$E2E_SRC/client/web
[[ -d $web/node_modules/puppeteer-core && -d $web/node_modules/axe-core ]] ||
    e2e_fail "no puppeteer-core or axe-core in client/web (npm ci)"
command -v chromium >/dev/null || e2e_fail "no chromium (./scripts/test installs it)"
out=$DECKHAND_BIN_DIR/../test-output/web_rematch
rm -rf "$out"
mkdir -p "$out"

e2e_start 19400
page=${DECKHAND_GATEWAY_WS/#ws:/http:}
page=${page%/ws}/
e2e_log "rematches through $page"
timeout 170 node "$E2E_SRC/tests/e2e/web_rematch.mjs" "$page" "$out" >"$E2E_RUN/web_rematch.out" 2>&1 || {
    cat "$E2E_RUN/web_rematch.out" >&2
    e2e_fail "web_rematch.mjs failed"
}
cat "$E2E_RUN/web_rematch.out" >&2
[[ -s $out/rematch-offered.png && -s $out/rematch-offered-phone.png ]] || e2e_fail "no rematch-offered screenshots"
e2e_log "screenshots in $out"
