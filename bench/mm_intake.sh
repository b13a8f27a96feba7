#!/usr/bin/env bash
# mm_intake.sh: joins through ZeroMQ into one matchmaker process (docs/BENCHMARKS.md,
# "Matchmaker intake"). Starts redis-server and deckhand-matchmaker on ports from 31500
# (redis 31500, the ROUTER 31501, --http 31502), runs deckhand-mmintake with PLAYERS
# (default 38000) joins over GATEWAYS (default 2) fake gateways and one fake worker, then
# prints its line and the matchmaker's workers_dead_total. With churn as the third
# argument, one of three fake workers dies once everyone is matched and its matches are
# moved (deckhand-mmintake --churn). Usage:
#   bench/mm_intake.sh [PLAYERS] [GATEWAYS] [churn]
# binaries from DECKHAND_BIN_DIR (default build/bin).
set -euo pipefail
PLAYERS=${1:-38000}
GATEWAYS=${2:-2}
CHURN=()
[[ ${3:-} == churn ]] && CHURN=(--churn redis://127.0.0.1:31500)
BIN=${DECKHAND_BIN_DIR:-build/bin}
RUN=$(mktemp -d /tmp/deckhand-mm-intake.XXXXXX)
pids=()
# on exit, stop what this script started (by pid)
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
redis-server --port 31500 --save "" --appendonly no --dir "$RUN" >"$RUN/redis.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do redis-cli -p 31500 ping >/dev/null 2>&1 && break; sleep 0.1; done
"$BIN/deckhand-matchmaker" --bind tcp://127.0.0.1:31501 --redis redis://127.0.0.1:31500 \
    --id mm-bench --http 127.0.0.1:31502 >"$RUN/mm.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do curl -sf http://127.0.0.1:31502/readyz >/dev/null 2>&1 && break; sleep 0.1; done
rc=0
"$BIN/deckhand-mmintake" --matchmaker tcp://127.0.0.1:31501 --players "$PLAYERS" \
    --gateways "$GATEWAYS" "${CHURN[@]}" || rc=$?
curl -s http://127.0.0.1:31502/metrics | grep -E '^deckhand_matchmaker_(workers_dead_total|matches_formed_total|matches_moved_total|match_wait_seconds_count)' || true
kill -0 "${pids[1]}" 2>/dev/null || echo "the matchmaker is gone (crashed?)"
echo "logs in $RUN (mmintake rc: $rc)"
exit "$rc"
