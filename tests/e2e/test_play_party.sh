#!/usr/bin/env bash
# test_play_party.sh: parties and lobbies as a person types them into `deckhand play`.
# Two players start with --no-queue; one types `party`, the other `party join CODE` with
# the code the first one's screen shows, the leader types `queue`, and both screens show
# the same match. Then two more gather in a lobby: `lobby create`, `lobby join CODE`,
# `ready` on both, `start` by the host, and both screens show the started match.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

e2e_start 24700 2

players=()

# play NAME: `deckhand play --no-queue` as NAME in the background, reading what is typed
# from the FIFO $E2E_RUN/NAME.in (the caller opens it for writing), its screen in
# $E2E_RUN/NAME.out.
play() {
    local name=$1
    mkfifo "$E2E_RUN/$name.in"
    timeout 60 "$DECKHAND_BIN_DIR/deckhand" play --no-queue --size 2 --name "$name" \
        --gateway "$DECKHAND_GATEWAY_TCP" <"$E2E_RUN/$name.in" >"$E2E_RUN/$name.out" 2>&1 &
    players+=("$!")
}

# Wait (up to 10 s) until NAME's screen has a line matching the regex PATTERN.
await() {
    local name=$1 pattern=$2
    for _ in $(seq 100); do
        grep -Eq "$pattern" "$E2E_RUN/$name.out" && return 0
        sleep 0.1
    done
    e2e_fail "$name's screen never showed /$pattern/: $(cat "$E2E_RUN/$name.out")"
}

code_of() { grep -Eo "$2 [A-Z0-9]{10}" "$E2E_RUN/$1.out" | head -n 1 | cut -d' ' -f2; }

play ann
exec 3>"$E2E_RUN/ann.in"
play bob
exec 4>"$E2E_RUN/bob.in"
await ann 'Logged in'
await bob 'Logged in'
echo party >&3
await ann '^Party [A-Z0-9]{10} \(1\)'
code=$(code_of ann Party)
echo "party join $code" >&4
await ann "^Party $code \(2\)"
await bob "^Party $code \(2\)"
echo queue >&4 # not the leader
await bob 'only the party'"'"'s leader queues the party'
echo queue >&3
await ann '^Match found: '
await bob '^Match found: '
m_ann=$(grep -Eo 'Match found: [^,]+' "$E2E_RUN/ann.out" | head -n 1)
m_bob=$(grep -Eo 'Match found: [^,]+' "$E2E_RUN/bob.out" | head -n 1)
[[ $m_ann == "$m_bob" ]] || e2e_fail "the party landed in two matches: $m_ann / $m_bob"
e2e_log "the party plays together: $m_ann"
echo quit >&3
echo quit >&4
exec 3>&- 4>&-

play cat
exec 5>"$E2E_RUN/cat.in"
play dan
exec 6>"$E2E_RUN/dan.in"
await cat 'Logged in'
await dan 'Logged in'
echo 'lobby create 2' >&5
await cat '^Lobby [A-Z0-9]{10}: dominion/casual, 1 of 2 seats, private'
code=$(code_of cat Lobby)
echo "lobby join $code" >&6
await cat "^Lobby $code: .*2 of 2 seats"
echo start >&5
await cat 'not every member is ready'
echo ready >&5
echo ready >&6
await cat '^    dan \(guest\) ready'
echo start >&5
await cat "^Lobby $code started: match "
await dan '^Match found: '
await cat '^Match found: '
e2e_log "the lobby's match started: $(grep -Eo 'Match found: [^,]+' "$E2E_RUN/cat.out")"
echo quit >&5
echo quit >&6
exec 5>&- 6>&-
for pid in "${players[@]}"; do
    wait "$pid" || e2e_fail "a deckhand play exited with status $?"
done
