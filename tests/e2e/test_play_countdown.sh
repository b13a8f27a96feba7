#!/usr/bin/env bash
# test_play_countdown.sh: `deckhand play` shows the time left to answer a decision
# (DecisionRequest.time_left_ms). A queue with a decision timer (decision_ms=30000) and
# bot fill seats a lone player against a bot; the player's screen shows the prompt with
# "[N s left to answer]", N at most 30; the redraw a moment later (`view`) tells less.
# Without a decision timer the idle cap (5 minutes) is what is left.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

queues=$(mktemp "${TMPDIR:-/tmp}/deckhand-e2e-countdown.XXXXXX")
{
    echo "dominion casual decision_ms=30000 bot_fill_ms=300"
    echo "accession casual bot_fill_ms=300"
} >"$queues"
export DECKHAND_QUEUES=$queues
e2e_start 29200 1
rm -f "$queues"

players=()

# play NAME GAME: `deckhand play` of GAME as NAME in the background, reading what is typed
# from the FIFO $E2E_RUN/NAME.in, its screen in $E2E_RUN/NAME.out.
play() {
    mkfifo "$E2E_RUN/$1.in"
    timeout 60 "$DECKHAND_BIN_DIR/deckhand" play --game "$2" --size 2 --name "$1" \
        --gateway "$DECKHAND_GATEWAY_TCP" <"$E2E_RUN/$1.in" >"$E2E_RUN/$1.out" 2>&1 &
    players+=("$!")
}

# Wait (up to 15 s) until NAME's screen has a line matching the regex PATTERN.
await() {
    for _ in $(seq 150); do
        grep -Eq "$2" "$E2E_RUN/$1.out" && return 0
        sleep 0.1
    done
    e2e_fail "$1's screen never showed /$2/: $(cat "$E2E_RUN/$1.out")"
}

# The seconds of the last countdown on NAME's screen.
left_of() { grep -Eo '\[[0-9]+ s left to answer\]' "$E2E_RUN/$1.out" | tail -n 1 | tr -dc 0-9; }

play ann dominion
exec 3>"$E2E_RUN/ann.in"
await ann '^>> .*\[[0-9]+ s left to answer\]$'
first=$(left_of ann)
((first >= 1 && first <= 30)) || e2e_fail "ann was told $first s left of a 30 s decision timer"
count() { grep -Ec '\[[0-9]+ s left to answer\]' "$E2E_RUN/$1.out"; }
n=$(count ann)
sleep 2
echo view >&3
for _ in $(seq 100); do
    (($(count ann) > n)) && break
    sleep 0.1
done
(($(count ann) > n)) || e2e_fail "the redraw showed no countdown: $(cat "$E2E_RUN/ann.out")"
again=$(left_of ann)
((again < first && again >= first - 10)) ||
    e2e_fail "the redraw told $again s left after $first s two seconds before"
e2e_log "dominion, decision_ms=30000: told ${first} s, then ${again} s on the redraw"

play bob accession
exec 4>"$E2E_RUN/bob.in"
await bob '^>> .*\[[0-9]+ min [0-9]{2} s left to answer\]$'
grep -Eq '\[(4 min [0-9]{2}|5 min 00) s left to answer\]' "$E2E_RUN/bob.out" ||
    e2e_fail "without a timer bob was not told the idle cap: $(grep -E 'left to answer' "$E2E_RUN/bob.out")"
e2e_log "accession, no timers: the idle cap's 5 minutes are what is left"
echo quit >&3
echo quit >&4
exec 3>&- 4>&-
for pid in "${players[@]}"; do
    wait "$pid" || true
done
