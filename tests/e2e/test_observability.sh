#!/usr/bin/env bash
# test_observability.sh: what an operator's Prometheus and log pipeline get from a live
# cluster (docs/OPERATIONS.md, "Health and metrics" and "Logs"). With
# DECKHAND_LOG_FORMAT=json every line every process writes is one JSON object with ts,
# level, process and msg. After bots play, /metrics shows: the process metrics (CPU,
# memory, descriptors, start time) on each process; the command latency histograms
# (worker: receipt to answer persisted; gateway: forwarded to Reply relayed), the Redis
# round trips, and per-game match counters and histograms (finished, duration, queue
# wait, rating spread) labelled game="dominion", each histogram with its buckets, _sum
# and _count. A second matchmaker started beside the first is a standby that reports
# ready (so a Kubernetes rollout of two replicas completes) and says it does not act
# (deckhand_matchmaker_lease_held 0, the first 1).
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

command -v python3 >/dev/null || e2e_fail "python3 is needed to check the JSON logs"
export DECKHAND_LOG_FORMAT=json
MATCHES=3
e2e_start 27400 1
MM=$DECKHAND_HTTP_MATCHMAKER
GW=$DECKHAND_HTTP_GATEWAY
WK=$DECKHAND_HTTP_WORKER_1

out=$(timeout 120 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players $((MATCHES * 2)) \
    --size 2 --matches "$MATCHES" --timeout 60 --gateway "$DECKHAND_GATEWAY_TCP" \
    2>"$E2E_RUN/bots.err" </dev/null | tail -n 1)
[[ $out == "matches_completed=$MATCHES errors=0" ]] || e2e_fail "bots: '$out'"
e2e_log "bots: $out"

# value ADDR SERIES: one series' value (name{labels} as rendered), 0 when absent.
value() {
    # printf, not print: awk prints numbers with %.6g, which turns a start time in
    # seconds into 1.79563e+09 (up to 10,000 s off)
    curl -s -m 2 "http://$1/metrics" | awk -v s="$2" '$1 == s { v = $2 } END { printf "%.17g\n", v + 0 }'
}
# at_least ADDR SERIES MIN
at_least() {
    local v
    v=$(value "$1" "$2")
    awk -v v="$v" -v m="$3" 'BEGIN { exit !(v >= m) }' ||
        e2e_fail "$1: $2 is $v, want at least $3"
}
# histogram ADDR NAME LABELS MIN: TYPE histogram, a +Inf bucket equal to _count >= MIN,
# and a _sum.
histogram() {
    local addr=$1 name=$2 labels=$3 min=$4 text inf count
    text=$(curl -s -m 2 "http://$addr/metrics")
    grep -qx "# TYPE $name histogram" <<<"$text" || e2e_fail "$addr: no histogram $name"
    local l=${labels:+$labels,}
    inf=$(awk -v s="${name}_bucket{${l}le=\"+Inf\"}" '$1 == s { print $2 }' <<<"$text")
    count=$(awk -v s="${name}_count${labels:+{$labels\}}" '$1 == s { print $2 }' <<<"$text")
    [[ -n $inf && $inf == "$count" ]] || e2e_fail "$addr: $name{$labels}: +Inf '$inf', _count '$count'"
    grep -q "^${name}_sum${labels:+{$labels\}} " <<<"$text" || e2e_fail "$addr: no ${name}_sum{$labels}"
    ((count >= min)) || e2e_fail "$addr: $name{$labels} counted $count, want at least $min"
}

# Process metrics on every process.
for addr in "$MM" "$GW" "$WK"; do
    at_least "$addr" process_cpu_seconds_total 0.001
    at_least "$addr" process_resident_memory_bytes 1000000
    at_least "$addr" process_open_fds 3
    at_least "$addr" process_max_fds 64
    at_least "$addr" process_start_time_seconds $(($(date +%s) - 600))
done
e2e_log "process metrics: cpu, rss, fds, max fds and start time on the three processes"

G='game="dominion"'
histogram "$WK" deckhand_worker_command_seconds "" 10
histogram "$WK" deckhand_worker_redis_seconds "" 10
histogram "$WK" deckhand_worker_match_duration_seconds "$G" "$MATCHES"
at_least "$WK" "deckhand_worker_matches_finished_total{$G}" "$MATCHES"
at_least "$WK" deckhand_worker_capacity 1
histogram "$GW" deckhand_gateway_command_seconds "" 10
histogram "$GW" deckhand_gateway_redis_seconds "" 0
histogram "$MM" deckhand_matchmaker_redis_seconds "" 1
histogram "$MM" deckhand_matchmaker_game_queue_wait_seconds "$G" $((MATCHES * 2))
histogram "$MM" deckhand_matchmaker_game_match_rating_spread "$G" "$MATCHES"
at_least "$MM" "deckhand_matchmaker_game_matches_formed_total{$G}" "$MATCHES"
e2e_log "histograms: command latency, Redis round trips, match duration, queue wait, spread"

# Every log line of every process is one JSON object with the four keys.
python3 - "$E2E_RUN"/logs/matchmaker.log "$E2E_RUN"/logs/gateway.log \
    "$E2E_RUN"/logs/worker-1.log <<'PY' || e2e_fail "a log line is not a JSON object"
import json, sys
n = 0
for path in sys.argv[1:]:
    for line in open(path, encoding="utf-8"):
        o = json.loads(line)
        for k in ("ts", "level", "process", "msg"):
            assert k in o, (path, line)
        n += 1
assert n > 10, n
print(f"{n} JSON log lines", file=sys.stderr)
PY
grep -q '"fields":{' "$E2E_RUN"/logs/gateway.log || e2e_fail "no log line has fields"
e2e_log "every log line is a JSON object with ts, level, process and msg"

# One match's story across the processes (issue 30): the lines that speak of it carry
# fields.match, and the worker's carry fields.worker too (docs/OPERATIONS.md, "Logs").
id=$(e2e_redis lindex matches:finished 0)
python3 - "$id" "$E2E_RUN"/logs/matchmaker.log "$E2E_RUN"/logs/worker-*.log <<'PY' ||
import json, sys
mid, seen = sys.argv[1], {}
for path in sys.argv[2:]:
    for line in open(path, encoding="utf-8"):
        f = json.loads(line).get("fields", {})
        if f.get("match") == mid:
            role = json.loads(line)["process"].split()[0]
            seen[role] = seen.get(role, 0) + 1
            assert role != "worker" or f.get("worker"), line
assert "matchmaker" in seen and "worker" in seen, seen
print(f"match {mid}: {seen}", file=sys.stderr)
PY
    e2e_fail "match $id's lines do not all carry fields.match (and fields.worker)"
e2e_log "one match's lines in every process carry fields.match"

# A standby matchmaker: ready, not acting; the first one acts.
MM_PORT=${DECKHAND_MATCHMAKER##*:}
STANDBY_HTTP=127.0.0.1:$((MM_PORT + 40))
curve=(--curve-dir "$E2E_RUN/keys")
[[ -z ${DH_INSECURE_INTERNAL:-} ]] || curve=(--insecure-internal)
DECKHAND_REDIS_USER=matchmaker DECKHAND_REDIS_PASSWORD_FILE=$E2E_RUN/keys/redis-matchmaker.password \
    _dh_spawn "$E2E_RUN" matchmaker-2 "$DECKHAND_BIN_DIR/deckhand-matchmaker" \
    --redis "redis://127.0.0.1:$DECKHAND_REDIS_PORT" --bind "tcp://127.0.0.1:$((MM_PORT + 39))" \
    --id mm-standby \
    --http "$STANDBY_HTTP" "${curve[@]}"
deadline=$((SECONDS + 15))
until [[ $(curl -s -m 1 "http://$STANDBY_HTTP/readyz") == ready ]]; do
    ((SECONDS < deadline)) ||
        e2e_fail "the standby matchmaker is not ready: $(curl -s -m 1 "http://$STANDBY_HTTP/readyz")"
    sleep 0.2
done
[[ $(value "$STANDBY_HTTP" deckhand_matchmaker_lease_held) == 0 ]] ||
    e2e_fail "the standby says it holds the lease"
[[ $(value "$MM" deckhand_matchmaker_lease_held) == 1 ]] || e2e_fail "the first matchmaker does not act"
grep -q '"msg":"' "$E2E_RUN"/logs/matchmaker-2.log || e2e_fail "the standby does not log JSON"
e2e_log "a standby matchmaker is ready and not acting (lease_held 0; the acting one 1)"
