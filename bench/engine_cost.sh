#!/usr/bin/env bash
# bench/engine_cost.sh [games|search]: the rules engine's cost table of issue 25 (docs/BENCHMARKS.md),
# measured with callgrind so that a change can be compared before and after on a busy
# machine (instructions do not depend on the load; seconds do).
#
# Instructions per game: I(N) is callgrind's instruction count of `deckhand sim --seed 1
# --players 2 --games N` for a workload; per game = (I(N2) - I(N1)) / (N2 - N1), which
# drops what every run pays once (loading the bundle). time() is pinned by an LD_PRELOAD
# shim built here from bench/timeshim.c (Lua seeds its string hashes from the clock).
#
# The search bot: callgrind's instructions of one searched game (`--games 1 --seed 5 --bots
# search,default --search-iterations SEARCH_CG_ITERS`, default 10), less those of the same
# sim with `--bots default,default` (the bundle's load and about the game itself), divided
# by the branches it played (g:choose calls in the search's copies: sim's `search branches:`
# line, or, for an older binary without it, branches/s x decisions x ms per decision); and
# branches per CPU second of `--games 2 --seed 5 --search-iterations 50` from /usr/bin/time,
# as in bench/search_speed.sh.
#
# Branches are counted on BRANCH_SCRIPTS when set (see branches() below): to compare with
# a tree before bots named their choice, give that tree's scripts. Binary from
# DECKHAND_BIN_DIR (default build-rel/bin: a Release build), scripts from
# DECKHAND_SCRIPTS (default the tree's scripts/). About 10 to 15 minutes on one core.
set -uo pipefail

DH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${DECKHAND_BIN_DIR:-$DH_ROOT/build-rel/bin}/deckhand
scripts=${DECKHAND_SCRIPTS:-$DH_ROOT/scripts}
cg_iters=${SEARCH_CG_ITERS:-10}
part=${1:-all} # games: only the instructions per game; search: only the search bot's rows
tmp=$(mktemp -d /tmp/deckhand-engine-cost.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

cc -O2 -shared -fPIC -o "$tmp/timeshim.so" "$DH_ROOT/bench/timeshim.c" || exit 1

# instr ARGS...: callgrind's instruction count of `deckhand sim ARGS` (empty on failure).
instr() {
    LD_PRELOAD="$tmp/timeshim.so" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$bin" sim --scripts "$scripts" "$@" >"$tmp/out" 2>&1
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/out"
}

# per_game LABEL N1 N2 ARGS...: one row of the table.
per_game() {
    local label=$1 n1=$2 n2=$3
    shift 3
    local i1 i2
    i1=$(instr --seed 1 --players 2 --games "$n1" "$@")
    i2=$(instr --seed 1 --players 2 --games "$n2" "$@")
    if [ -z "$i1" ] || [ -z "$i2" ]; then
        printf '%-34s %s\n' "$label" "failed"
        return
    fi
    awk -v l="$label" -v a="$i1" -v b="$i2" -v n1="$n1" -v n2="$n2" \
        'BEGIN { printf "%-34s %9.2f M  (N1=%d, N2=%d)\n", l, (b - a) / (n2 - n1) / 1e6, n1, n2 }'
}

# The branches of a sim's `search:` line (D decisions, ..., B branches/s (...), M ms per
# decision): B x D x M / 1000, the fields found by the words after them (awk's $, not the shell's).
# shellcheck disable=SC2016
branches_awk='{ d = $2; for (k = 3; k <= NF; k++) { if ($k == "branches/s") b = $(k - 1)
    if ($k == "ms") ms = $(k - 1) }; printf "%.0f", b * d * ms / 1000 }'

# A search line's play-outs: D decisions x P play-outs each.
# shellcheck disable=SC2016
playouts_awk='{ printf "%.0f", $2 * $4 }'

# branches OUT ARGS...: the branches of the search sim `deckhand sim ARGS` whose output is
# in OUT. A branch is a decision a bot took in a search's copy; with BRANCH_SCRIPTS set,
# it is counted by playing the same sim on those scripts instead, whose bots answer every
# decision through g:choose: a bot that names its choice (docs/SCRIPTING.md) takes no
# g:choose, so the count of the scripts measured would shrink with the work it saves.
# The same games are played either way (the same seeds end in the same states).
branches() {
    local out=$1
    shift
    if [ -n "${BRANCH_SCRIPTS:-}" ]; then
        "$bin" sim --scripts "$BRANCH_SCRIPTS" "$@" >"$tmp/ref" 2>&1
        out=$tmp/ref
    fi
    local n
    n=$(sed -n 's/^search branches: \([0-9]*\)/\1/p' "$out")
    [ -n "$n" ] || n=$(grep '^search:' "$out" | awk "$branches_awk")
    echo "${n:-0}"
}

# search GAME: instructions per branch and per play-out, branches and play-outs per CPU
# second of the search bot.
search() {
    local g=$1 i i0 br po cpu br2 po2
    local args=(--game "$g" --games 1 --seed 5 --bots "search,default" --search-iterations "$cg_iters")
    local args2=(--game "$g" --games 2 --seed 5 --bots "search,default" --search-iterations 50)
    i0=$(instr --game "$g" --games 1 --seed 5 --bots default,default)
    i=$(instr "${args[@]}")
    [ -n "$i" ] && [ -n "$i0" ] && i=$((i - i0))
    cp "$tmp/out" "$tmp/cg"
    po=$(grep '^search:' "$tmp/cg" | awk "$playouts_awk")
    br=$(branches "$tmp/cg" "${args[@]}")
    timeout 900 /usr/bin/time -f '%U %S' -o "$tmp/time" "$bin" sim --scripts "$scripts" \
        "${args2[@]}" >"$tmp/out2" 2>&1
    cpu=$(awk '{ printf "%.3f", $1 + $2 }' "$tmp/time" 2>/dev/null)
    po2=$(grep '^search:' "$tmp/out2" | awk "$playouts_awk")
    br2=$(branches "$tmp/out2" "${args2[@]}")
    awk -v g="$g" -v i="${i:-0}" -v br="${br:-0}" -v po="${po:-0}" -v cpu="${cpu:-0}" \
        -v b2="${br2:-0}" -v p2="${po2:-0}" '
        BEGIN {
            printf "search bot, %-10s %6.0f k per branch %8.0f branches/CPU s %8.0f k per play-out %7.0f play-outs/CPU s\n",
                g, (br > 0 ? i / br / 1e3 : 0), (cpu > 0 ? b2 / cpu : 0),
                (po > 0 ? i / po / 1e3 : 0), (cpu > 0 ? p2 / cpu : 0) }'
}

games_table() {
    echo "instructions per game (callgrind, Release): $bin"
    per_game "Dominion, big_money_plain mirror" 20 220 --game dominion \
        --bots big_money_plain,big_money_plain
    per_game "Dominion, default, 2 players" 20 120 --game dominion
    per_game "Accession, default" 20 120 --game accession
    per_game "Caveman, default" 10 60 --game caveman
    per_game "Ascension, default" 5 30 --game ascension
    per_game "Elemental Command, default" 5 25 --game elemental
    per_game "Major League Wizardry, default" 3 18 --game mlw
}

[ "$part" = search ] || games_table
[ "$part" = games ] && exit 0
for g in dominion accession caveman ascension elemental mlw; do
    search "$g"
done
