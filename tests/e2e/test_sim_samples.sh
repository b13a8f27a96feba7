#!/usr/bin/env bash
# test_sim_samples.sh: `deckhand sim` runs are honest samples (issue 17). Runs with
# different --seed values share no game (each game's seed is mixed from the run's seed
# and the game's number, not S, S+1, ...); the bots rotate through the seats from one game
# to the next, so each strategy sits in each seat equally often; and the last line is
# `winrate BOT=F BOT=F`, the shared wins split, summing to 1. The engine's `random`
# strategy plays in sim like a game's own, and each bot's "won in N of its own turns"
# is the average over its wins of the winner's turns the --each lines show. --departures
# prints a line per searched answer that is not the play-out bot's (issue 28). No cluster.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

bin=$DECKHAND_BIN_DIR
out=$(mktemp -d /tmp/deckhand-e2e-sim.XXXXXX)
trap 'rm -rf "$out"' EXIT

sim() { "$bin/deckhand" sim --game dominion --scripts "$E2E_SRC/scripts" "$@"; }

for s in 1 2; do
    sim --games 40 --seed "$s" --bots big_money,big_money_plain --each >"$out/run$s" ||
        e2e_fail "deckhand sim --seed $s exited $?: $(tail -n 3 "$out/run$s")"
    awk '$1 == "game" { print $4 }' "$out/run$s" | sort >"$out/seeds$s"
    (($(wc -l <"$out/seeds$s") == 40)) || e2e_fail "--each printed $(wc -l <"$out/seeds$s") games, not 40"
    (($(sort -u "$out/seeds$s" | wc -l) == 40)) || e2e_fail "--seed $s repeats a game's seed"
done
shared=$(comm -12 "$out/seeds1" "$out/seeds2" | wc -l)
((shared == 0)) || e2e_fail "runs with --seed 1 and --seed 2 share $shared of 40 games"

# Seat rotation: big_money sits first in games 0, 2, 4, ... and second in the others.
first=$(awk '$1 == "game" && $6 ~ /^big_money,/ { n++ } END { print n + 0 }' "$out/run1")
((first == 20)) || e2e_fail "big_money sat first in $first of 40 games, not 20"
awk '$1 == "game" { split($6, b, ","); if ((($2 % 2) == 0) != (b[1] == "big_money")) bad++ }
     END { exit bad > 0 }' "$out/run1" || e2e_fail "the seats do not alternate game by game"

# The last line: each strategy's win rate, summing to 1 (ties split).
last=$(tail -n 1 "$out/run1")
[[ $last =~ ^winrate\ big_money=([0-9.]+)\ big_money_plain=([0-9.]+)$ ]] ||
    e2e_fail "the last line is not 'winrate big_money=F big_money_plain=F': $last"
awk -v a="${BASH_REMATCH[1]}" -v b="${BASH_REMATCH[2]}" 'BEGIN { exit !(a + b > 0.999 && a + b < 1.001) }' ||
    e2e_fail "the win rates do not sum to 1: $last"
# The same run again prints the same games: samples are reproducible from their seed.
sim --games 40 --seed 1 --bots big_money,big_money_plain --each >"$out/again"
cmp -s <(grep '^game ' "$out/run1") <(grep '^game ' "$out/again") ||
    e2e_fail "the same --seed played different games"

# The random bot (every game has it) and how fast the winner won: the report's average
# is the one the --each lines give (the winner's own turns; a strategy counted once per
# game it won).
sim --games 30 --seed 3 --bots big_money,random --each >"$out/random" ||
    e2e_fail "deckhand sim --bots big_money,random exited $?: $(tail -n 3 "$out/random")"
want=$(awk '$1 == "game" { split($6, b, ","); split($8, r, ","); split($10, t, ",")
                           for (i = 1; i <= 2; i++) if (b[i] == "big_money" && r[i] == 1) { n++; s += t[i] } }
            END { printf "%.2f", n ? s / n : 0 }' "$out/random")
got=$(sed -n 's/^bot big_money: .* won in \([0-9.]*\) of its own turns.*/\1/p' "$out/random")
[[ $got == "$want" ]] || e2e_fail "big_money won in $got turns on average, the games say $want"
awk '$1 == "game" { split($10, t, ","); if (t[1] < 1 || t[2] < 1) bad++ } END { exit bad > 0 }' \
    "$out/random" || e2e_fail "a game's line has no turns"
rate=$(tail -n 1 "$out/random")
[[ $rate =~ ^winrate\ big_money=(1\.0000|0\.9[0-9]*)\ random=0\.[0-9]+$ ]] ||
    e2e_fail "big_money against the random bot: $rate"
# --departures: a line for each searched answer that is not the play-out bot's, as many as
# the report's share says, each naming two different answers, and nothing else changed.
asim() { "$bin/deckhand" sim --game accession --scripts "$E2E_SRC/scripts" --games 6 --seed 11 \
    --bots search,default --search-iterations 60 --each "$@"; }
asim --departures >"$out/dep" || e2e_fail "deckhand sim --departures exited $?: $(tail -n 3 "$out/dep")"
asim >"$out/nodep" || e2e_fail "deckhand sim (search) exited $?"
cmp -s <(grep '^game ' "$out/dep") <(grep '^game ' "$out/nodep") ||
    e2e_fail "--departures changed the games played"
! grep -q '^departure ' "$out/nodep" || e2e_fail "departure lines without --departures"
ndep=$(grep -c '^departure ' "$out/dep")
((ndep > 0)) || e2e_fail "no departure in 6 searched games: $(grep '^search:' "$out/dep")"
[[ $(grep '^search:' "$out/dep") =~ ^search:\ ([0-9]+)\ decisions.*\ ([0-9.]+)%\ not\ the\ play-out ]] ||
    e2e_fail "no search report: $(grep '^search' "$out/dep")"
awk -v d="${BASH_REMATCH[1]}" -v p="${BASH_REMATCH[2]}" -v n="$ndep" \
    'BEGIN { e = d * p / 100; exit !(n > e - 0.5 - d / 2000 && n < e + 0.5 + d / 2000) }' ||
    e2e_fail "$ndep departure lines, the report says ${BASH_REMATCH[2]}% of ${BASH_REMATCH[1]}"
awk '$1 == "departure" { c = $0; sub(/.* chose /, "", c); sub(/ policy .*/, "", c)
                          q = $0; sub(/.* policy /, "", q); sub(/ \| .*/, "", q)
                          if (c == q || q == "" || $0 !~ / \| P0 .* \| P1 /) bad++ }
     END { exit bad > 0 }' "$out/dep" || e2e_fail "a departure line without two answers or decks: $(grep -m1 '^departure' "$out/dep")"
echo "ok: independent seeds, rotated seats, $last; against random: $rate, won in $got turns; $ndep departures"
