#!/usr/bin/env bash
# test_http.sh: every process's operator port (docs/OPERATIONS.md, "Health and metrics").
# /healthz and /readyz answer 200 on a healthy cluster, /metrics is Prometheus text whose
# counters move when bots play, bad requests get their 4xx; the gateway's /readyz goes
# 503 when the matchmaker is killed and back to 200 once it is restarted; the matchmaker
# counts a worker stopped with SIGTERM as dead.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

# http_get ADDR PATH [METHOD]: the response's status code on the first line, then its
# body (bash's /dev/tcp: nothing to install).
http_get() {
    local addr=$1 path=$2 method=${3:-GET} fd resp
    { exec {fd}<>"/dev/tcp/${addr%:*}/${addr##*:}"; } 2>/dev/null || return 1
    printf '%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n' "$method" "$path" \
        "$addr" >&"$fd"
    resp=$(timeout 5 cat <&"$fd")
    exec {fd}>&-
    resp=${resp//$'\r'/}
    awk 'NR == 1 { print $2 } body { print } /^$/ { body = 1 }' <<<"$resp"
}

http_status() { http_get "$@" | head -n 1; }

# metric ADDR SERIES: the value of one series (name{labels} as rendered), or nothing.
metric() {
    http_get "$1" /metrics | awk -v s="$2" '$1 == s { print $2 }'
}

# wait_status ADDR PATH WANT SECONDS: until PATH answers WANT.
wait_status() {
    local addr=$1 path=$2 want=$3 deadline=$((SECONDS + $4)) got
    while :; do
        got=$(http_status "$addr" "$path")
        [[ $got == "$want" ]] && return 0
        ((SECONDS < deadline)) || break
        sleep 0.2
    done
    e2e_fail "$addr$path answers '$got', want $want: $(http_get "$addr" "$path" | tail -n +2)"
}

e2e_start 31000 2
for var in DECKHAND_HTTP_MATCHMAKER DECKHAND_HTTP_GATEWAY DECKHAND_HTTP_WORKER_1 \
    DECKHAND_HTTP_WORKER_2; do
    [[ -n ${!var:-} ]] || e2e_fail "cluster.env has no $var"
done
MM=$DECKHAND_HTTP_MATCHMAKER
GW=$DECKHAND_HTTP_GATEWAY
W1=$DECKHAND_HTTP_WORKER_1
W2=$DECKHAND_HTTP_WORKER_2

for addr in "$MM" "$GW" "$W1" "$W2"; do
    wait_status "$addr" /healthz 200 5
    [[ $(http_get "$addr" /healthz | tail -n +2) == ok ]] || e2e_fail "$addr/healthz: not 'ok'"
    wait_status "$addr" /readyz 200 10
    [[ $(http_status "$addr" /metrics) == 200 ]] || e2e_fail "$addr/metrics: not 200"
    # read it whole first: grep -q would stop reading early, and under pipefail the writer's
    # SIGPIPE fails the pipeline once the page is longer than a pipe's buffer
    metrics=$(http_get "$addr" /metrics)
    grep -q '^# TYPE deckhand_' <<<"$metrics" || e2e_fail "$addr/metrics: no TYPE"
    [[ $(http_status "$addr" /nope) == 404 ]] || e2e_fail "$addr/nope: not 404"
    [[ $(http_status "$addr" /metrics POST) == 405 ]] || e2e_fail "$addr POST: not 405"
done
e2e_log "matchmaker, gateway and both workers: healthy, ready, metrics served"
[[ $(metric "$MM" deckhand_matchmaker_lease_held) == 1 ]] || e2e_fail "mm: lease_held is not 1"
[[ $(metric "$MM" deckhand_matchmaker_workers_alive) == 2 ]] ||
    e2e_fail "mm: workers_alive is not 2"

e2e_bots 4
formed=$(metric "$MM" deckhand_matchmaker_matches_formed_total)
started=$(metric "$MM" deckhand_matchmaker_matches_started_total)
logins=$(metric "$GW" deckhand_gateway_logins_total)
commands=$(metric "$GW" deckhand_gateway_commands_forwarded_total)
assigned=$(metric "$GW" deckhand_gateway_match_assignments_total)
frames_in=$(metric "$GW" deckhand_gateway_frames_in_total)
answers=$(($(metric "$W1" deckhand_worker_answers_accepted_total) +
    $(metric "$W2" deckhand_worker_answers_accepted_total)))
batches=$(($(metric "$W1" deckhand_worker_redis_batches_total) +
    $(metric "$W2" deckhand_worker_redis_batches_total)))
e2e_log "after 4 matches: formed=$formed started=$started logins=$logins commands=$commands" \
    "assigned=$assigned frames_in=$frames_in answers=$answers batches=$batches"
((formed >= 4 && started >= 4)) || e2e_fail "the matchmaker counted $formed/$started matches"
((logins >= 4)) || e2e_fail "the gateway counted $logins logins"
((assigned >= 16)) || e2e_fail "the gateway counted $assigned assignments, want 16"
((commands > 0 && frames_in > commands)) || e2e_fail "the gateway counted $commands commands"
((answers >= commands / 2 && answers > 0)) || e2e_fail "the workers accepted $answers answers"
((batches > 0)) || e2e_fail "the workers counted no Redis batch"
[[ $(metric "$GW" 'deckhand_gateway_connections{transport="tcp"}') =~ ^[0-9]+$ ]] ||
    e2e_fail "the gateway has no tcp connections gauge"
[[ -n $(metric "$GW" 'deckhand_gateway_replies_error_total{code="UNAVAILABLE"}') ]] ||
    e2e_fail "the gateway has no UNAVAILABLE replies counter"

e2e_log "kill -9 the matchmaker: the gateway is not ready"
dh_cluster_kill "$E2E_RUN" matchmaker
wait_status "$GW" /readyz 503 5
http_get "$GW" /readyz | grep -q matchmaker || e2e_fail "gateway /readyz does not say why"
wait_status "$GW" /healthz 200 1
wait_status "$W1" /readyz 200 1
dh_cluster_restart "$E2E_RUN" matchmaker
wait_status "$MM" /readyz 200 15
wait_status "$GW" /readyz 200 10
e2e_log "matchmaker restarted: matchmaker and gateway ready again"

e2e_log "SIGTERM to worker wk-2: the matchmaker counts it dead"
dh_cluster_kill "$E2E_RUN" worker-2 TERM
deadline=$((SECONDS + 10))
until [[ $(metric "$MM" deckhand_matchmaker_workers_alive) == 1 &&
    $(metric "$MM" deckhand_matchmaker_workers_dead_total) -ge 1 ]]; do
    ((SECONDS < deadline)) || e2e_fail "the matchmaker still counts wk-2 alive"
    sleep 0.2
done
e2e_bots 1
e2e_log "wk-1 alone: $(metric "$W1" deckhand_worker_active_matches) active matches," \
    "$(metric "$W1" deckhand_worker_answers_accepted_total) answers accepted"
