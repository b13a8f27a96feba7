#!/usr/bin/env bash
# test_play_vs_ai_cli.sh: `deckhand play --vs-ai DIFFICULTY` plays the AI at once in a
# terminal, with the shipped settings (no bot_fill_ms): the player's screen shows its first
# decision within 5 s of starting, against "Bot 1"; a difficulty the game does not offer is
# refused with the matchmaker's words.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

e2e_start 18700 1

mkfifo "$E2E_RUN/ann.in"
timeout 60 "$DECKHAND_BIN_DIR/deckhand" play --game caveman --vs-ai normal --name ann \
    --gateway "$DECKHAND_GATEWAY_TCP" <"$E2E_RUN/ann.in" >"$E2E_RUN/ann.out" 2>&1 &
pid=$!
exec 3>"$E2E_RUN/ann.in"
for _ in $(seq 50); do
    grep -Eq '^>> ' "$E2E_RUN/ann.out" && break
    sleep 0.1
done
grep -Eq '^>> ' "$E2E_RUN/ann.out" ||
    e2e_fail "no decision within 5 s against the AI: $(cat "$E2E_RUN/ann.out")"
grep -q 'Bot 1' "$E2E_RUN/ann.out" || e2e_fail "no Bot 1 at the table: $(cat "$E2E_RUN/ann.out")"
e2e_log "caveman against the normal AI: the first decision on the screen"
echo quit >&3
exec 3>&-
wait "$pid" || true

out=$( (sleep 2 && echo quit) | timeout 20 "$DECKHAND_BIN_DIR/deckhand" play --game caveman \
    --vs-ai brutal --name bob --gateway "$DECKHAND_GATEWAY_TCP" 2>&1 || true)
grep -q "no difficulty 'brutal'" <<<"$out" || e2e_fail "a bad difficulty was not refused: $out"
e2e_log "a difficulty the game does not offer is refused"
