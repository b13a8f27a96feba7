#!/usr/bin/env bash
# failover.sh: worker failover time (docs/BENCHMARKS.md, "Failover"). Starts a 3-worker
# cluster (ports from 30700), plays MATCHES (default 60) two-player bot matches, kills
# the worker wk-2 with SIGKILL mid-game, and prints, over the matches it hosted, the time
# from the kill to the first View or decision a player of the match received from its
# new worker (the bots' --reroute-log lines), as min / median / max. Repeat ROUNDS times
# (default 3), a fresh cluster each. Usage: bench/failover.sh [MATCHES] [ROUNDS];
# binaries from DECKHAND_BIN_DIR (default build/bin).
# shellcheck source=SCRIPTDIR/../tests/e2e/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../tests/e2e/e2e_lib.sh"

MATCHES=${1:-60}
ROUNDS=${2:-3}
all=()
for ((round = 1; round <= ROUNDS; round++)); do
    e2e_start 30700 3
    err=$E2E_RUN/bots.err
    timeout 300 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players $((MATCHES * 2)) \
        --size 2 --matches "$MATCHES" --rate 5 --reroute-log --timeout 60 \
        --gateway "$DECKHAND_GATEWAY_TCP" >/dev/null 2>"$err" </dev/null &
    bots=$!
    while (($(e2e_redis hlen matches:running) < MATCHES * 3 / 4)); do sleep 0.2; done
    sleep 2
    victims=$(e2e_matches_on wk-2)
    kill_ms=$(date +%s%3N)
    dh_cluster_kill "$E2E_RUN" worker-2 KILL
    wait "$bots" || e2e_fail "bots failed in round $round"
    firsts=$(for id in $victims; do
        grep -E "first_after_move match=$id " "$err" | sed -E 's/.*at_ms=([0-9]+).*/\1/' |
            sort -n | head -n 1
    done | sort -n)
    n=$(wc -l <<<"$firsts")
    # The matchmaker's verdict and the last adoption, from the logs' UTC timestamps.
    dead=$(grep -m1 'worker wk-2 silent' "$E2E_RUN/logs/matchmaker.log" | cut -d' ' -f1)
    adopted=$(cat "$E2E_RUN"/logs/worker-*.log | grep ': adopted at epoch' | cut -d' ' -f1 |
        sort | tail -n 1)
    dead_ms=$(($(date -d "$dead" +%s%3N) - kill_ms))
    adopted_ms=$(($(date -d "$adopted" +%s%3N) - kill_ms))
    times=$(while read -r t; do echo $((t - kill_ms)); done <<<"$firsts")
    echo "round $round: $n moved matches, kill -> first event: min $(head -n1 <<<"$times") ms," \
        "median $(sed -n "$(((n + 1) / 2))p" <<<"$times") ms, max $(tail -n1 <<<"$times") ms" \
        "(declared dead at $dead_ms ms, last adopted at $adopted_ms ms)"
    mapfile -t -O "${#all[@]}" all <<<"$times"
    dh_cluster_stop "$E2E_RUN"
    rm -rf "$E2E_RUN"
    E2E_RUN=
done
sorted=$(printf '%s\n' "${all[@]}" | sort -n)
n=${#all[@]}
echo "failover over $n moved matches in $ROUNDS rounds: min $(head -n1 <<<"$sorted") ms," \
    "median $(sed -n "$(((n + 1) / 2))p" <<<"$sorted") ms, max $(tail -n1 <<<"$sorted") ms"
