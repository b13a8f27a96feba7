#!/usr/bin/env bash
# start_burst.sh: MATCHES two-player matches starting at once (default 2,000: 4,000 bots log
# in, then all queue together: `deckhand bots --burst --once`) on a 2-worker cluster with the
# workers' default inbox (ports from 31700), as tests/e2e/test_start_burst.sh at full size
# (docs/BENCHMARKS.md, "Start burst"). Reports how many matches had every player attached
# (its first View or decision) within ATTACH_S seconds of its MatchFound (default 5),
# how many were played to their end, and the attach times. Each worker's capacity is
# raised to MATCHES (DECKHAND_WORKER_CAPACITY) so that placement, not capacity, is tested.
# The last line is the summary to quote:
#   start burst: M matches at once: attached A (P%), played D (Q%), attach p50/p99/max ...
# Usage: bench/start_burst.sh [MATCHES] (env ATTACH_S, RATE default 5); binaries from
# DECKHAND_BIN_DIR (Release).
# shellcheck source=SCRIPTDIR/bench_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench_lib.sh"

MATCHES=${1:-2000}
ATTACH_S=${ATTACH_S:-5}
export DECKHAND_WORKER_CAPACITY=${DECKHAND_WORKER_CAPACITY:-$MATCHES}
e2e_start 31700 2
e2e_log "$((MATCHES * 2)) bots log in, then all queue at once"
# A player never attached makes no progress (its seat is played by the server's bot after
# 60 s): the bots stop 30 s after the last progress.
BENCH_STALL=30 bench_bots "$MATCHES" "${RATE:-5}" 900 --once --burst
bench_bots_wait 900
e2e_log "bots: $BENCH_LAST (exit $BENCH_BOTS_RC); $BENCH_SUMMARY"
log=$E2E_RUN/answers.log
read -r started attached <<<"$(awk -v limit=$((ATTACH_S * 1000)) '
    $2 == "found" { found[$3 " " $4] = $1; matches[$3] = 1 }
    $2 == "attached" { at[$3 " " $4] = $1 }
    END {
        for (k in found) if (!(k in at) || at[k] - found[k] > limit) { split(k, p, " "); bad[p[1]] = 1 }
        nm = 0; for (m in matches) nm++; nb = 0; for (m in bad) nb++
        print nm, nm - nb
    }' "$log")"
played=$(awk '$2 == "over" { o[$3] = 1 } END { n = 0; for (m in o) n++; print n }' "$log")
waits=$(awk '$2 == "found" { f[$3 " " $4] = $1 } $2 == "attached" && ($3 " " $4) in f {
    print $1 - f[$3 " " $4] }' "$log")
echo "start burst: $MATCHES matches at once ($started started): attached $attached" \
    "($((attached * 100 / MATCHES))%), played $played ($((played * 100 / MATCHES))%);" \
    "MatchFound -> attached p50 $(bench_pct 50 <<<"$waits") ms p99 $(bench_pct 99 <<<"$waits") ms" \
    "max $(bench_pct 100 <<<"$waits") ms"
