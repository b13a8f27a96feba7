#!/usr/bin/env bash
# bench/search_speed.sh [ITERATIONS] [GAME...]: the search bot's speed per game, and the
# Big Money sim rate, on one core (docs/BENCHMARKS.md, "Search speed, board games" and
# "Big Money sim rate").
#
# Per game (default: all six): `deckhand sim --game G --games 2 --seed 5 --bots
# search,default --search-iterations ITERATIONS` (default 50), each run bounded by a
# 600 s timeout. Prints what the sim reports (play-outs/s and branches/s, by the wall
# clock of the searched decisions) and the same branches per second of CPU time (user +
# system of the whole process, from /usr/bin/time), which a loaded machine moves less.
# Then the Big Money mirror, 2,000 games (`big_money_plain`, the baseline of the older
# figures, and `big_money`; BENCH_BIG_MONEY_GAMES sets how many), as games/s by the wall
# clock and per CPU second. Every figure is found by the words next to it, not by its
# place in the line (the sim's lines gained words before), and the branches per CPU
# second divide the sim's own total (`search branches: N`); a figure the sim did not
# print fails the run (exit 1) instead of printing a wrong number.
# tests/bench/test_search_speed.sh parses this output.
# Binaries from DECKHAND_BIN_DIR (default build-rel/bin: measure a Release or
# RelWithDebInfo build), scripts from DECKHAND_SCRIPTS (default the tree's scripts/).
set -uo pipefail

iters=${1:-50}
shift $(($# > 0 ? 1 : 0))
games=("$@")
[ ${#games[@]} -gt 0 ] || games=(dominion accession ascension caveman elemental mlw)
DH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${DECKHAND_BIN_DIR:-$DH_ROOT/build-rel/bin}/deckhand
scripts=${DECKHAND_SCRIPTS:-$DH_ROOT/scripts}
out=$(mktemp /tmp/deckhand-search-speed.XXXXXX)
trap 'rm -f "$out" "$out.time"' EXIT

# run CMD...: the command's output in $out, its CPU seconds (user + system) in $cpu.
run() {
    timeout 600 /usr/bin/time -f '%U %S' -o "$out.time" "$@" >"$out" 2>&1
    cpu=$(awk '{ printf "%.3f", $1 + $2 }' "$out.time" 2>/dev/null)
}

status=0
printf '%-10s %10s %12s %16s %10s\n' game play-outs/s branches/s branches/cpu-s ms/decision
for g in "${games[@]}"; do
    run "$bin" sim --game "$g" --games 2 --seed 5 --bots search,default \
        --search-iterations "$iters" --scripts "$scripts"
    line=$(grep '^search:' "$out")
    if [ -z "$line" ]; then
        echo "$g: no search line (timeout or error)"
        status=1
        continue
    fi
    # search: D decisions, P play-outs (...) and N nodes each, R play-outs/s, B branches/s
    # (...), M ms per decision; then search branches: T. Each figure found by the words
    # after it.
    total=$(awk '/^search branches: / { print $3 }' "$out")
    if ! echo "$line" | awk -v g="$g" -v cpu="$cpu" -v total="$total" '{
        for (k = 3; k <= NF; k++) {
            if ($k == "play-outs/s,") r = $(k - 1)
            if ($k == "branches/s") b = $(k - 1)
            if ($k == "ms" && $(k + 1) == "per") ms = $(k - 1)
        }
        if (r == "" || b == "" || ms == "" || total == "" || cpu <= 0) exit 1
        printf "%-10s %10s %12s %16.0f %10s\n", g, r, b, total / cpu, ms }'; then
        echo "$g: the sim's search line lacks a figure: $line (search branches: ${total:-none})"
        status=1
    fi
done

for bot in big_money_plain big_money; do
    run "$bin" sim --game dominion --games "${BENCH_BIG_MONEY_GAMES:-2000}" --seed 1 --players 2 \
        --bots "$bot,$bot" --scripts "$scripts"
    # games=N seconds=X games_per_sec=Y: each by its key
    if ! awk -v bot="$bot" -v cpu="$cpu" '/^games=/ {
        for (k = 1; k <= NF; k++) { split($k, kv, "="); v[kv[1]] = kv[2] }
        if (v["games"] == "" || v["games_per_sec"] == "" || cpu <= 0) exit 1
        printf "Big Money mirror (%s): %s games/s, %.0f games per CPU second\n", bot,
            v["games_per_sec"], v["games"] / cpu; found = 1 }
        END { exit !found }' "$out"; then
        echo "Big Money mirror ($bot): no games= line: $(tail -n 1 "$out")"
        status=1
    fi
done
exit "$status"
