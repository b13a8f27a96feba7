#!/usr/bin/env bash
# test_replay_recorded.sh: matches recorded by an earlier release (tests/fixtures/recorded:
# one bot match of each game, with the bundle it ran on) replay with today's engine to the
# final hash their worker recorded. A restructuring that changes no behaviour must keep
# them all at result=ok; a change that moves any game's state fails here. No cluster: a
# redis-server loaded from the fixture's dump.rdb, and `deckhand replay`.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

PORT=20700
DIR=$(mktemp -d /tmp/deckhand-e2e-recorded.XXXXXX)
cp "$E2E_SRC/tests/fixtures/recorded/dump.rdb" "$DIR/dump.rdb"
redis-server --port "$PORT" --bind 127.0.0.1 --dir "$DIR" --dbfilename dump.rdb --save '' \
    --appendonly no --daemonize yes --logfile "$DIR/redis.log" --pidfile "$DIR/redis.pid" ||
    e2e_fail "redis-server did not start"
trap 'kill "$(cat "$DIR/redis.pid" 2>/dev/null)" 2>/dev/null; rm -rf "$DIR"' EXIT
for _ in $(seq 50); do
    redis-cli -p "$PORT" ping >/dev/null 2>&1 && break
    sleep 0.1
done

mapfile -t IDS < <(redis-cli -p "$PORT" lrange matches:finished 0 -1)
((${#IDS[@]} == 6)) || e2e_fail "the fixture lists ${#IDS[@]} finished matches, not 6"
games=()
for id in "${IDS[@]}"; do
    line=$("$DECKHAND_BIN_DIR/deckhand" replay "$id" --redis "redis://127.0.0.1:$PORT" --quiet |
        grep -v '^[[:space:]]*$' | tail -n 1) || e2e_fail "replay of $id exited $?: $line"
    [[ $line == "match $id game="*" result=ok" ]] || e2e_fail "recorded match $id: $line"
    hash=$(sed -nE 's/.* hash=([0-9a-f]{16}) .*/\1/p' <<<"$line")
    recorded=$(sed -nE 's/.* recorded=([0-9a-f]{16}) .*/\1/p' <<<"$line")
    [[ -n $hash && $hash == "$recorded" ]] || e2e_fail "recorded match $id: $line"
    games+=("$(sed -nE 's/.* game=([a-z]+) .*/\1/p' <<<"$line")")
done
sorted=$(printf '%s\n' "${games[@]}" | sort | tr '\n' ' ')
[[ $sorted == "accession ascension caveman dominion elemental mlw " ]] ||
    e2e_fail "the recorded games are: $sorted"
echo "ok: ${#IDS[@]} matches recorded by an earlier release replay to their hashes ($sorted)"
