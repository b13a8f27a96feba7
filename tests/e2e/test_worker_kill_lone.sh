#!/usr/bin/env bash
# test_worker_kill_lone.sh: issue 12 case 1. Two bots play a run of two-player matches
# one after another, so only one match is in flight; a few seconds in, the worker hosting
# it is killed with SIGKILL. The other worker adopts the match, the gateway re-attaches
# both players, and play must go on: every match of the run finishes with a valid result
# and replays to the hash its worker recorded (the bots give up after 20 s without
# progress, which is how the stall showed).
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

MATCHES=${LONE_MATCHES:-8}

e2e_start 23000 2
export DECKHAND_REDIS_URL
timeout 150 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players 2 --size 2 \
    --matches "$MATCHES" --rate 20 --timeout 20 --gateway "$DECKHAND_GATEWAY_TCP" \
    >"$E2E_RUN/bots.out" 2>"$E2E_RUN/bots.err" </dev/null &
E2E_BOTS_PID=$!

# The lone match in flight, and the worker hosting it, about four seconds into the run.
e2e_wait_running 1
sleep 4
victim=
deadline=$((SECONDS + 20))
until [[ -n $victim ]]; do
    ((SECONDS < deadline)) || e2e_fail "no match in flight to kill the worker of"
    victim=$(e2e_redis hgetall matches:running | paste - - | awk 'NR == 1 { print $1, $2 }')
    [[ -n $victim ]] || sleep 0.1
done
read -r match worker <<<"$victim"
[[ $worker == wk-[0-9]* ]] || e2e_fail "match $match runs on '$worker', not a wk-N worker"
e2e_log "kill -9 $worker, which hosts the lone match $match"
dh_cluster_kill "$E2E_RUN" "worker-${worker#wk-}" KILL

e2e_bots_wait "$MATCHES"
grep -q "match $match: adopted at epoch" "$E2E_RUN"/logs/worker-*.log ||
    e2e_fail "match $match was not adopted by the surviving worker"
e2e_check_finished "$MATCHES"
e2e_check_replays
