#!/usr/bin/env bash
# liveops.sh: push -> serving on every worker (docs/BENCHMARKS.md, "Live-ops: push to
# serving"). Starts a 2-worker cluster (ports from 30600), keeps MATCHES two-player
# Dominion bot matches running (default 1,000: 2,000 bots at RATE messages/s each, default
# 0.5, queueing again after each match), then pushes PUSHES (default 10) distinct variants
# of the Dominion bundle, one a second, each with `deckhand scripts push --wait 10`. Per
# push it reports two figures:
# - the workers' own: from the pointer move (the push's entry in bundle:audit:{dominion},
#   written in the same transaction, its stream id the Redis clock's ms) to the line each
#   worker logs when its new matches start on the bundle ("new matches start on bundle"),
#   the slowest worker's;
# - the push command's: "serving on N/M workers T ms after the push" (its 10 ms poll of
#   worker:{ID}:bundles).
# The last line is the summary to quote:
#   push -> serving on every worker: p50 P ms p99 Q ms max M ms over N pushes (...)
# Usage: bench/liveops.sh [PUSHES] (env MATCHES, RATE, RAMP: logins over RAMP s, default
# 20); binaries from DECKHAND_BIN_DIR (a
# Release build: build-rel/bin).
# shellcheck source=SCRIPTDIR/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

PUSHES=${1:-10}
MATCHES=${MATCHES:-1000}
RATE=${RATE:-0.5}
RAMP=${RAMP:-20} # s over which the bots log in: many matches start, but no start burst
e2e_start 30600
for ((v = 0; v < PUSHES; v++)); do
    mkdir -p "$E2E_RUN/b$v"
    cp -r "$E2E_SRC/scripts/deckbuilder" "$E2E_SRC/scripts/dominion" "$E2E_RUN/b$v/"
    sed -i -E "/^cards\\.Smithy = /s/text = \"([^\"]*)\"/text = \"\\1 (variant $v)\"/" \
        "$E2E_RUN/b$v/dominion/cards.lua"
done
# Matches finish and the bots queue again: the run never reaches its target on its own.
BENCH_TARGET=100000000 bench_bots "$MATCHES" "$RATE" 3600 --ramp "$RAMP"
bench_wait_running $((MATCHES * 9 / 10)) 300

# The slowest worker's ms from the pointer move (ms) to its log line for sha12, reading
# each worker log from the line numbers in marks.
liveops_workers_ms() {
    local ms=$1 sha12=$2 slowest=-1 i at stamp
    shift 2
    for ((i = 1; i <= 2; i++)); do
        stamp=$(tail -n +"$1" "$E2E_RUN/logs/worker-$i.log" |
            grep -m1 "new matches start on bundle $sha12" | cut -d' ' -f1)
        shift
        [[ -n $stamp ]] || {
            echo -
            return
        }
        at=$(($(date -d "$stamp" +%s%3N) - ms))
        ((at > slowest)) && slowest=$at
    done
    echo "$slowest"
}

workers=() cli=()
for ((i = 0; i < PUSHES; i++)); do
    bench_bots_alive
    marks=()
    for w in 1 2; do marks+=($(($(wc -l <"$E2E_RUN/logs/worker-$w.log") + 1))); done
    out=$("$DECKHAND_BIN_DIR/deckhand" scripts push "$E2E_RUN/b$i" --game dominion \
        --label "variant-$i" --wait 10 2>&1) || e2e_fail "push $i failed: $out"
    line=$(grep '^serving on' <<<"$out")
    sha12=$(sed -nE 's/^dominion: current is now ([0-9a-f]+).*/\1/p' <<<"$out")
    id=$(e2e_redis xrevrange 'bundle:audit:{dominion}' + - count 1 | head -n 1)
    w_ms=$(liveops_workers_ms "${id%%-*}" "$sha12" "${marks[@]}")
    c_ms=$(grep -oE '[0-9]+ ms' <<<"$line" | cut -d' ' -f1)
    echo "push $i ($sha12): every worker serving after $w_ms ms (workers' logs); $line;" \
        "$(e2e_redis hlen matches:running) matches running"
    [[ $w_ms == - ]] || workers+=("$w_ms")
    cli+=("$c_ms")
    sleep 1
done
kill "$BENCH_BOTS" 2>/dev/null
wait "$BENCH_BOTS" 2>/dev/null
w_all=$(printf '%s\n' "${workers[@]}")
c_all=$(printf '%s\n' "${cli[@]}")
echo "push -> serving on every worker: p50 $(bench_pct 50 <<<"$w_all") ms" \
    "p99 $(bench_pct 99 <<<"$w_all") ms max $(bench_pct 100 <<<"$w_all") ms over" \
    "${#workers[@]} pushes (workers' logs; the push command saw p50 $(bench_pct 50 <<<"$c_all")" \
    "p99 $(bench_pct 99 <<<"$c_all") max $(bench_pct 100 <<<"$c_all") ms), $MATCHES matches running"
