#!/usr/bin/env bash
# bench/search_speed.sh's output, parsed (issue 30: the bench once read fields the sim no
# longer printed and reported nonsense). On the real sim: the table's header, a row per
# game whose four figures are positive numbers, and the two Big Money lines, exit 0. On
# a fake sim whose search line lacks a figure's words (as the old line did) and prints no
# `games=` line: no row made of wrong numbers, a line saying what is missing, exit 1.
set -uo pipefail
root=${DECKHAND_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
bin=${DECKHAND_BIN_DIR:-$root/build/bin}
fail() {
    echo "FAIL: $*"
    exit 1
}

out=$(DECKHAND_BIN_DIR=$bin BENCH_BIG_MONEY_GAMES=50 bash "$root/bench/search_speed.sh" 3 caveman) ||
    fail "the bench exited non-zero on the real sim: $out"
echo "$out"
mapfile -t lines <<<"$out"
((${#lines[@]} == 4)) || fail "${#lines[@]} lines, not 4"
[[ ${lines[0]} =~ ^game\ +play-outs/s\ +branches/s\ +branches/cpu-s\ +ms/decision$ ]] ||
    fail "header: ${lines[0]}"
read -r g r b c ms <<<"${lines[1]}"
[[ $g == caveman ]] || fail "row: ${lines[1]}"
for v in "$r" "$b" "$c" "$ms"; do
    if ! [[ $v =~ ^[0-9]+(\.[0-9]+)?$ ]] || ! awk -v v="$v" 'BEGIN { exit !(v > 0) }'; then
        fail "not a positive number: '$v' in ${lines[1]}"
    fi
done
awk -v r="$r" -v b="$b" 'BEGIN { exit !(b >= r) }' ||
    fail "fewer branches than play-outs per second: ${lines[1]}"
for i in 2 3; do
    [[ ${lines[i]} =~ ^Big\ Money\ mirror\ \((big_money_plain|big_money)\):\ [0-9.]+\ games/s,\ [1-9][0-9]*\ games\ per\ CPU\ second$ ]] ||
        fail "Big Money line: ${lines[i]}"
done

fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
cat >"$fake/deckhand" <<'SIM'
#!/usr/bin/env bash
# the sim's search line without its words: figures in the old places only
echo "search: 100 decisions, 5 play-outs and 7 nodes each, 900 1200 3.5"
echo "search branches: 4200"
SIM
chmod +x "$fake/deckhand"
rc=0
out=$(DECKHAND_BIN_DIR=$fake bash "$root/bench/search_speed.sh" 3 caveman) || rc=$?
((rc == 1)) || fail "the bench exited $rc on a sim whose line lacks its words: $out"
grep -q '^caveman: the sim.s search line lacks a figure' <<<"$out" || fail "no why: $out"
grep -q '^caveman  ' <<<"$out" && fail "a row of wrong figures: $out"
grep -q 'Big Money mirror (big_money): no games= line' <<<"$out" || fail "no why: $out"
echo "PASS: the real sim's output parses; a changed line fails the bench instead of lying"
