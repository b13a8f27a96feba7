#!/usr/bin/env bash
# Ratings across a worker failover: eight account players (deckhand bots --account) play
# four two-player matches at once; a few seconds in, the worker hosting the most of them
# is killed with SIGKILL, the other worker adopts them and play goes on. Every finished
# match between the accounts then moved both players' ratings exactly once: each account's
# rating count and history length equal the finished matches it sat in, every one of them
# is marked rated, and no rating job is left behind.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"
# shellcheck source=SCRIPTDIR/e2e_ratings.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_ratings.sh"

MATCHES=4

e2e_start 30600 2
export DECKHAND_PASSWORD='failover password'
e2e_log "deckhand bots --account fo: $((MATCHES * 2)) account players, $MATCHES matches at once"
timeout 150 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players $((MATCHES * 2)) \
    --size 2 --matches "$MATCHES" --rate 5 --timeout 20 --account fo --register \
    --gateway "$DECKHAND_GATEWAY_TCP" >"$E2E_RUN/bots.out" 2>"$E2E_RUN/bots.err" </dev/null &
E2E_BOTS_PID=$!

e2e_wait_running 3
sleep 1
worker=$(e2e_redis hvals matches:running | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
[[ $worker == wk-[0-9]* ]] || e2e_fail "no match in flight to kill the worker of ('$worker')"
moved=$(e2e_matches_on "$worker" | wc -l)
e2e_log "kill -9 $worker, which hosts $moved matches"
dh_cluster_kill "$E2E_RUN" "worker-${worker#wk-}" KILL

e2e_bots_wait "$MATCHES"
grep -q "adopted at epoch" "$E2E_RUN"/logs/worker-*.log ||
    e2e_fail "no match was adopted by the surviving worker"
(($(e2e_redis hlen accounts:names) == MATCHES * 2)) || e2e_fail "not every bot is an account"
e2e_wait_ratings_consistent
(($(e2e_redis zcard 'leaderboard:{dominion}:casual') == MATCHES * 2)) ||
    e2e_fail "the leaderboard holds $(e2e_redis zcard 'leaderboard:{dominion}:casual') accounts"
