#!/usr/bin/env bash
# mm_intake.sh: joins through ZeroMQ into one matchmaker process (docs/BENCHMARKS.md,
# "Matchmaker intake"). Starts redis-server and deckhand-matchmaker on ports from 31500
# (redis 31500, the ROUTER 31501, --http 31502), runs deckhand-mmintake with PLAYERS
# (default 38000) joins over GATEWAYS (default 2) fake gateways and one fake worker, then
# prints its line and the matchmaker's workers_dead_total. With churn as the third
# argument, one of three fake workers dies once everyone is matched and its matches are
# moved (deckhand-mmintake --churn). The links run CURVE, as the cluster runs them (keys
# from `deckhand keygen`); with plain as the third argument, without (--insecure-internal),
# for the ratio. Usage:
#   bench/mm_intake.sh [PLAYERS] [GATEWAYS] [churn|plain]
# binaries from DECKHAND_BIN_DIR (default build/bin).
set -euo pipefail
PLAYERS=${1:-38000}
GATEWAYS=${2:-2}
BIN=${DECKHAND_BIN_DIR:-build/bin}
P=${MM_INTAKE_PORT:-31500}
CHURN=()
[[ ${3:-} == churn ]] && CHURN=(--churn "redis://127.0.0.1:$P")
RUN=$(mktemp -d /tmp/deckhand-mm-intake.XXXXXX)
"$BIN/deckhand" keygen "$RUN/keys" >/dev/null
MM_CURVE=(--curve-dir "$RUN/keys")
CLIENT_CURVE=(--curve-dir "$RUN/keys")
if [[ ${3:-} == plain ]]; then
    MM_CURVE=(--insecure-internal)
    CLIENT_CURVE=()
fi
pids=()
# on exit, stop what this script started (by pid)
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT
redis-server --port "$P" --save "" --appendonly no --dir "$RUN" >"$RUN/redis.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do redis-cli -p "$P" ping >/dev/null 2>&1 && break; sleep 0.1; done
"$BIN/deckhand-matchmaker" --bind "tcp://127.0.0.1:$((P + 1))" --redis "redis://127.0.0.1:$P" \
    --id mm-bench --http "127.0.0.1:$((P + 2))" "${MM_CURVE[@]}" >"$RUN/mm.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$((P + 2))"/readyz >/dev/null 2>&1 && break; sleep 0.1; done
rc=0
"$BIN/deckhand-mmintake" --matchmaker "tcp://127.0.0.1:$((P + 1))" --players "$PLAYERS" \
    --gateways "$GATEWAYS" "${CHURN[@]}" "${CLIENT_CURVE[@]}" || rc=$?
curl -s "http://127.0.0.1:$((P + 2))"/metrics | grep -E '^deckhand_matchmaker_(workers_dead_total|matches_formed_total|matches_moved_total|match_wait_seconds_count)' || true
kill -0 "${pids[1]}" 2>/dev/null || echo "the matchmaker is gone (crashed?)"
echo "logs in $RUN (mmintake rc: $rc)"
exit "$rc"
