#!/usr/bin/env bash
# liveops.sh: push -> serving time of `deckhand scripts push` (docs/BENCHMARKS.md,
# "Live-ops: push to serving"). Starts a 2-worker cluster (ports from 30600), keeps bot
# load on it, pushes two variants of the Dominion bundle alternately PUSHES times (default
# 10) and prints each push's "serving on N/N workers T ms after the push" and the spread.
# The time runs from the pointer move in Redis until every live worker reports the bundle
# loaded in worker:{ID}:bundles. Usage: bench/liveops.sh [PUSHES]; binaries from
# DECKHAND_BIN_DIR (default build/bin).
# shellcheck source=SCRIPTDIR/../tests/e2e/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../tests/e2e/e2e_lib.sh"

PUSHES=${1:-10}
e2e_start 30600
for v in 3 5; do
    mkdir -p "$E2E_RUN/b$v"
    cp -r "$E2E_SRC/scripts/deckbuilder" "$E2E_SRC/scripts/dominion" "$E2E_RUN/b$v/"
    sed -i -E "/^cards\\.Smithy = /s/text = \"([^\"]*)\"/text = \"\\1 (variant $v)\"/" \
        "$E2E_RUN/b$v/dominion/cards.lua"
done
timeout 600 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players 40 --size 2 \
    --matches 100000 >/dev/null 2>&1 </dev/null &
BOTS=$!
sleep 5
times=()
for ((i = 0; i < PUSHES; i++)); do
    v=$((i % 2 ? 5 : 3))
    line=$("$DECKHAND_BIN_DIR/deckhand" scripts push "$E2E_RUN/b$v" --game dominion \
        --label "variant-$v" --wait 10 2>/dev/null | grep '^serving on') || e2e_fail "push $i failed"
    echo "push $i: $line"
    times+=("$(grep -oE '[0-9]+ ms' <<<"$line" | cut -d' ' -f1)")
    sleep 1
done
kill "$BOTS" 2>/dev/null
wait "$BOTS" 2>/dev/null
sorted=$(printf '%s\n' "${times[@]}" | sort -n)
echo "push -> serving over $PUSHES pushes: min $(head -n1 <<<"$sorted") ms," \
    "median $(sed -n "$(((PUSHES + 1) / 2))p" <<<"$sorted") ms, max $(tail -n1 <<<"$sorted") ms"
