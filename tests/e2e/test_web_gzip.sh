#!/usr/bin/env bash
# test_web_gzip.sh: the gateway serves the built web client compressed (issue 29: "the
# JavaScript is served uncompressed"). With curl, as a browser asks: the bundle's JS with
# Accept-Encoding: gzip comes gzip-encoded (Content-Encoding, Vary, a Content-Length that
# is the bytes sent, a year's caching for an /assets/ file), under a third of its size,
# and decompresses to exactly the bytes served without it (and built on disk); without
# the header it comes plain; gzip;q=0 is honoured; index.html, revalidated on each load,
# is compressed too.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

web=$DECKHAND_BIN_DIR/../web
[[ -s $web/index.html ]] || e2e_fail "the web client is not built in $web (node and npm)"
command -v curl >/dev/null || e2e_fail "no curl"
e2e_start 13600 1
page=${DECKHAND_GATEWAY_WS/#ws:/http:}
page=${page%/ws}

# fetch PATH OUT [CURL ARGS...]: the body into OUT, the headers (lower-cased names) on stdout.
fetch() {
    local path=$1 out=$2
    shift 2
    curl -sS --max-time 5 -D - -o "$out" "$@" "$page$path" | tr -d '\r' |
        awk -F': ' 'NR > 1 && NF > 1 { print tolower($1) ": " $2 }'
}
header() { awk -F': ' -v h="$1" '$1 == h { print $2 }'; }

js=$(grep -oE '/assets/[A-Za-z0-9._-]+\.js' "$web/index.html" | head -n 1)
[[ -n $js ]] || e2e_fail "index.html names no /assets/*.js"
dir=$E2E_RUN/gzip
mkdir -p "$dir"

plain_h=$(fetch "$js" "$dir/plain.js")
gz_h=$(fetch "$js" "$dir/js.gz" -H 'Accept-Encoding: gzip, deflate, br')
plain=$(stat -c %s "$dir/plain.js")
gz=$(stat -c %s "$dir/js.gz")
e2e_log "$js: $plain bytes plain, $gz gzip-encoded"

cmp -s "$dir/plain.js" "$web$js" || e2e_fail "the plain JS is not the built file"
[[ -z $(header content-encoding <<<"$plain_h") ]] || e2e_fail "plain answer is encoded: $plain_h"
[[ $(header content-length <<<"$plain_h") == "$plain" ]] || e2e_fail "plain Content-Length wrong"
[[ $(header content-encoding <<<"$gz_h") == gzip ]] || e2e_fail "no Content-Encoding: gzip: $gz_h"
[[ $(header vary <<<"$gz_h") == Accept-Encoding ]] || e2e_fail "no Vary: Accept-Encoding"
[[ $(header vary <<<"$plain_h") == Accept-Encoding ]] || e2e_fail "plain answer lacks Vary"
[[ $(header content-length <<<"$gz_h") == "$gz" ]] || e2e_fail "gzip Content-Length is not $gz"
[[ $(header cache-control <<<"$gz_h") == *immutable* ]] || e2e_fail "asset not cached: $gz_h"
[[ $(header etag <<<"$gz_h") != "$(header etag <<<"$plain_h")" ]] ||
    e2e_fail "the gzip and plain copies share an ETag"
((gz * 3 < plain)) || e2e_fail "gzip $gz bytes is not under a third of $plain"
gunzip -c "$dir/js.gz" | cmp -s - "$dir/plain.js" || e2e_fail "the gzip copy does not decompress to the JS"

refused_h=$(fetch "$js" "$dir/refused.js" -H 'Accept-Encoding: gzip;q=0, identity')
[[ -z $(header content-encoding <<<"$refused_h") ]] || e2e_fail "gzip;q=0 got gzip"
cmp -s "$dir/refused.js" "$dir/plain.js" || e2e_fail "gzip;q=0 did not get the plain JS"

index_h=$(fetch / "$dir/index.gz" --compressed)
[[ $(header content-encoding <<<"$index_h") == gzip ]] || e2e_fail "index.html not compressed"
[[ $(header cache-control <<<"$index_h") == no-cache ]] || e2e_fail "index.html cached"
cmp -s "$dir/index.gz" "$web/index.html" || e2e_fail "index.html decompressed is not the built one"
e2e_log "gzip: $js $plain -> $gz bytes ($((gz * 100 / plain))%)"
