#!/usr/bin/env bash
# deckhand load, the load generator: 40 players over TCP at 200 answers/s for 5 s, then a
# short run over WebSocket with its players spread over two worker processes (a low
# descriptor limit). Each ends with "cmds_per_sec=X p50_ms=Y p99_ms=Z max_ms=W rx_p50_ms=A
# rx_p99_ms=B errors=0", X above 0, B at most Z (a Reply reaches the socket before it is
# handled), and printed a progress line per second; the line before it, "steady answers=N
# p50_ms=.. p99_ms=.. max_ms=..", counts the answers of the whole seconds after the first
# with answers (when every match starts at once): no more than all, and some in 5 s. The TCP run also reports the CPU per
# answer of every process of the cluster (--cpu-pids: by pid) and of the gateway once more
# through its /metrics (--cpu NAME=HOST:PORT), and of the load generator itself.
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

e2e_start 23500

# run_load NAME ARGS...: deckhand load with ARGS, bounded in time; checks its last line.
run_load() {
    local name=$1 out err rc=0 last
    shift
    out=$E2E_RUN/$name.out
    err=$E2E_RUN/$name.err
    e2e_log "deckhand load --game dominion $*"
    timeout 60 "$DECKHAND_BIN_DIR/deckhand" load --game dominion "$@" >"$out" 2>"$err" \
        </dev/null || rc=$?
    grep '^load: ' "$err" | tail -n 3 >&2
    last=$(grep -v '^[[:space:]]*$' "$out" | tail -n 1)
    e2e_log "$name: $last"
    if ((rc != 0)); then
        tail -n 30 "$err" >&2
        e2e_fail "deckhand load ($name) exited with $rc"
    fi
    local re='^cmds_per_sec=([0-9]+)\.[0-9] p50_ms=[0-9]+\.[0-9]{3} p99_ms=([0-9]+\.[0-9]{3}) max_ms=[0-9]+\.[0-9]{3} rx_p50_ms=[0-9]+\.[0-9]{3} rx_p99_ms=([0-9]+\.[0-9]{3}) errors=0$'
    [[ $last =~ $re ]] || e2e_fail "deckhand load ($name) ended with '$last'"
    ((BASH_REMATCH[1] > 0)) || e2e_fail "deckhand load ($name) answered nothing: $last"
    awk -v rx="${BASH_REMATCH[3]}" -v p="${BASH_REMATCH[2]}" 'BEGIN { exit !(rx <= p) }' ||
        e2e_fail "deckhand load ($name): the Replies' arrival p99 above their handling's: $last"
    # the steady state: the whole seconds after the first with answers, within all of them
    local steady
    steady=$(grep '^steady ' "$out") || e2e_fail "deckhand load ($name) printed no steady line"
    [[ $steady =~ ^steady\ answers=([0-9]+)\ p50_ms=[0-9]+\.[0-9]{3}\ p99_ms=([0-9]+\.[0-9]{3})\ max_ms=([0-9]+\.[0-9]{3})$ ]] ||
        e2e_fail "deckhand load ($name): a malformed steady line '$steady'"
    local n=${BASH_REMATCH[1]} smax=${BASH_REMATCH[3]} all
    all=$(sed -nE 's/^load: [0-9]+ players in [0-9]+ processes, ([0-9]+) answers in .*/\1/p' "$err")
    [[ -n $all ]] || e2e_fail "deckhand load ($name) printed no answer count"
    ((n <= all)) || e2e_fail "deckhand load ($name): $n steady answers of $all in all"
    [[ $last =~ \ max_ms=([0-9.]+) ]] || e2e_fail "deckhand load ($name): no max in '$last'"
    awk -v s="$smax" -v m="${BASH_REMATCH[1]}" 'BEGIN { exit !(s <= m) }' ||
        e2e_fail "deckhand load ($name): the steady max above the run's: $steady / $last"
    grep -Eq '^load: 2 s: [0-9]+ cmds/s p50_ms=[0-9.]+ p99_ms=[0-9.]+ rx_p99_ms=[0-9.]+ errors=0$' "$err" ||
        e2e_fail "deckhand load ($name) printed no progress line for its second second"
}

run_load tcp --players 40 --seconds 5 --rate 200 --cpu-pids "$E2E_RUN" \
    --cpu "gw-metrics=$DECKHAND_HTTP_GATEWAY"
# 5 s at 200/s: the start's second is followed by whole seconds of answers
steady=$(grep '^steady ' "$E2E_RUN/tcp.out")
[[ $steady =~ answers=([1-9][0-9]*) ]] || e2e_fail "no steady answers in 5 s: $steady"
cpu=$(grep '^cpu_us_per_cmd ' "$E2E_RUN/tcp.out") || e2e_fail "no cpu_us_per_cmd line: $(cat "$E2E_RUN/tcp.out")"
e2e_log "tcp: $cpu"
for k in gateway gw-metrics matchmaker redis worker-1 worker-2 workers load total; do
    [[ $cpu =~ \ $k=([0-9]+\.[0-9])( |$) ]] || e2e_fail "no CPU per answer for $k in '$cpu'"
done
[[ $cpu =~ \ total=([0-9]+) ]] || e2e_fail "no total in '$cpu'"
((BASH_REMATCH[1] > 0)) || e2e_fail "no CPU counted at all: $cpu"
# 40 players with 64 + 30 descriptors: two worker processes, their counts merged.
(
    ulimit -n 94
    run_load ws --ws --players 40 --seconds 3 --rate 100
) || exit 1
grep -q '^load: 40 players in 2 processes' "$E2E_RUN/ws.err" ||
    e2e_fail "the WebSocket run did not spread over two processes"
