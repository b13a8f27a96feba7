# shellcheck shell=bash
#
# e2e_lib.sh: what the end-to-end shell tests share. A test sources it, calls
# e2e_start BASE [WORKERS] [GATEWAYS] (a fresh cluster with WORKERS workers, default 2,
# and GATEWAYS gateways, default 1, in a temporary run directory, on ports BASE..BASE+31,
# or BASE+100.. when another run on this machine holds them),
# runs its checks with e2e_fail on a broken promise, and exits; the EXIT trap always
# stops the cluster, fails the test when a process died or left a sanitizer report in
# its log, and keeps the logs when the test failed.
#
# ctest sets DECKHAND_SOURCE_DIR and DECKHAND_BIN_DIR; run by hand, they default to this
# checkout and its build/bin.

set -uo pipefail

E2E_SRC=${DECKHAND_SOURCE_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
export DECKHAND_BIN_DIR=${DECKHAND_BIN_DIR:-$E2E_SRC/build/bin}
export DH_ROOT=$E2E_SRC
# Sanitized processes start more slowly than release ones.
DH_READY_TIMEOUT=${DH_READY_TIMEOUT:-30}
# shellcheck source=SCRIPTDIR/../../scripts/lib/cluster.sh
source "$E2E_SRC/scripts/lib/cluster.sh"

E2E_RUN=

e2e_log() { printf '[%s] %s\n' "$(date +%T)" "$*" >&2; }

e2e_fail() {
    printf 'FAIL: %s\n' "$*" >&2
    exit 1
}

# e2e_verdict RC: the run directory removed on a pass (kept with E2E_KEEP), its logs shown
# on a failure, and PASS or FAILED said; the exit traps end with it.
e2e_verdict() {
    if (($1 == 0)); then
        [[ -n ${E2E_KEEP:-} ]] || rm -rf "$E2E_RUN"
        e2e_log "PASS"
    else
        dh_cluster_tail_logs "$E2E_RUN"
        e2e_log "FAILED; logs kept in $E2E_RUN/logs"
    fi
}

_e2e_cleanup() {
    local rc=$?
    [[ -n $E2E_RUN ]] || exit "$rc"
    dh_cluster_alive "$E2E_RUN" || rc=1
    dh_cluster_stop "$E2E_RUN"
    dh_cluster_check_logs "$E2E_RUN" || rc=1
    e2e_verdict "$rc"
    exit "$rc"
}

# Start a cluster with WORKERS workers (default 2) and GATEWAYS gateways (default 1) on
# ports from BASE and export its addresses (DECKHAND_GATEWAY_TCP, DECKHAND_GATEWAY_WS,
# DECKHAND_GATEWAYS_TCP, DECKHAND_REDIS_PORT...).
e2e_start() {
    E2E_RUN=$(mktemp -d "/tmp/deckhand-e2e-$(basename "$0" .sh).XXXXXX")
    trap _e2e_cleanup EXIT
    trap 'exit 130' INT TERM
    e2e_log "starting a cluster in $E2E_RUN (ports from $1)"
    dh_cluster_start_near "$E2E_RUN" "$1" "${2:-2}" "${3:-}" || e2e_fail "the cluster did not start"
    dh_cluster_watch "$E2E_RUN" $$
    set -a
    # shellcheck source=/dev/null
    source "$E2E_RUN/cluster.env"
    set +a
    e2e_log "cluster ready: gateways $DECKHAND_GATEWAYS_TCP and $DECKHAND_GATEWAYS_WS"
}

# redis-cli on the cluster's Redis (-c: following a Redis Cluster's redirects).
e2e_redis() {
    if [[ ${DECKHAND_REDIS_CLUSTER:-0} == 1 ]]; then
        redis-cli -c -p "$DECKHAND_REDIS_PORT" "$@"
    else
        redis-cli -p "$DECKHAND_REDIS_PORT" "$@"
    fi
}

# Fail with MESSAGE unless the bots' summary line counts at least MIN for KEY
# ("... reconnects=3 ..."): e2e_summary_at_least "$summary" reconnects 1 "no bot reconnected".
e2e_summary_at_least() {
    local summary=$1 key=$2 min=$3 message=$4
    if [[ $summary =~ $key=([0-9]+) ]] && ((BASH_REMATCH[1] >= min)); then
        return 0
    fi
    e2e_fail "$message: $summary"
}

# `deckhand bots` for MATCHES 4-player dominion matches (extra arguments: --ws), bounded
# in time; its last line must be "matches_completed=MATCHES errors=0".
e2e_bots() {
    local matches=$1
    shift
    local out=$E2E_RUN/bots.out rc=0 last
    e2e_log "deckhand bots --game dominion --players 4 --matches $matches $*"
    timeout 300 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players 4 \
        --matches "$matches" "$@" >"$out" 2>"$E2E_RUN/bots.err" </dev/null || rc=$?
    tail -n 5 "$out" >&2
    last=$(grep -v '^[[:space:]]*$' "$out" | tail -n 1)
    if ((rc != 0)); then
        tail -n 30 "$E2E_RUN/bots.err" >&2
        ((rc == 124)) && e2e_fail "deckhand bots did not finish within 300 s"
        e2e_fail "deckhand bots exited with $rc"
    fi
    [[ $last == "matches_completed=$matches errors=0" ]] ||
        e2e_fail "deckhand bots ended with '$last', not 'matches_completed=$matches errors=0'"
}

# The hash of match ID: match:{ID} (hash-tagged) or match:ID.
_e2e_match_key() {
    if (($(e2e_redis exists "match:{$1}") == 1)); then
        printf 'match:{%s}' "$1"
    else
        printf 'match:%s' "$1"
    fi
}

# matches:finished holds at least N ids (waiting a little for the last writes), and each
# one's hash says status=finished with a non-empty result.
e2e_check_finished() {
    local want=$1 n=0 deadline=$((SECONDS + 10)) id key status result
    while ((SECONDS < deadline)); do
        n=$(e2e_redis llen matches:finished)
        ((n >= want)) && break
        sleep 0.2
    done
    ((n >= want)) || e2e_fail "matches:finished holds $n ids, want at least $want"
    while read -r id; do
        [[ -n $id ]] || continue
        key=$(_e2e_match_key "$id")
        status=$(e2e_redis hget "$key" status)
        result=$(e2e_redis hget "$key" result)
        [[ $status == finished ]] || e2e_fail "$key: status '$status', want finished"
        [[ -n $result ]] || e2e_fail "$key: empty result"
    done < <(e2e_redis lrange matches:finished 0 -1)
    e2e_log "redis: $n finished matches, each with status=finished and a result"
}

# Every id in matches:finished replays (`deckhand replay`) to the final state hash its
# worker recorded.
e2e_check_replays() {
    local id out rc bad=0 n=0
    while read -r id; do
        [[ -n $id ]] || continue
        n=$((n + 1))
        rc=0
        out=$("$DECKHAND_BIN_DIR/deckhand" replay "$id" --quiet --redis "$DECKHAND_REDIS_URL" 2>&1) ||
            rc=$?
        if ((rc != 0)) || [[ $out != *"result=ok"* ]]; then
            printf 'replay of %s failed:\n%s\n' "$id" "$out" >&2
            bad=$((bad + 1))
        fi
    done < <(e2e_redis lrange matches:finished 0 -1)
    ((bad == 0)) || e2e_fail "$bad of $n finished matches do not replay to their recorded hash"
    e2e_log "all $n finished matches replay to their recorded final hash"
}

# At least N matches finished, each exactly once, and every one replays to its recorded
# hash: what a fault must leave behind.
e2e_check_finished_once() {
    local dups
    e2e_check_finished "$1"
    e2e_check_replays
    dups=$(e2e_redis lrange matches:finished 0 -1 | sort | uniq -d | wc -l)
    ((dups == 0)) || e2e_fail "$dups matches finished twice"
}

# Every match id after WORKER belongs to another worker at epoch 2 or more: it moved, and
# the move's fence shut WORKER out of it.
e2e_check_moved_off() {
    local worker=$1 id owner epoch
    shift
    for id in "$@"; do
        owner=$(e2e_redis hget "match:{$id}" worker)
        epoch=$(e2e_redis hget "match:{$id}" epoch)
        [[ $owner != "$worker" && $epoch -ge 2 ]] ||
            e2e_fail "$id: owner $owner at epoch $epoch after the move"
    done
}

# Start `deckhand bots` in the background: 2 bots per match for MATCHES two-player
# Dominion matches, paced at 5 messages/s each so that a match lasts several seconds and
# a fault lands mid-game, spread over every gateway of the cluster (extra arguments go to
# bots). Output in $E2E_RUN/bots.out and bots.err; the pid in E2E_BOTS_PID.
e2e_bots_start() {
    local matches=$1
    shift
    timeout 300 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players $((matches * 2)) \
        --size 2 --matches "$matches" --rate 5 --timeout 60 --gateway "$DECKHAND_GATEWAYS_TCP" \
        "$@" >"$E2E_RUN/bots.out" 2>"$E2E_RUN/bots.err" </dev/null &
    E2E_BOTS_PID=$!
}

# Wait up to 60 s until at least N matches run at once (the bots must still be playing).
e2e_wait_running() {
    local want=$1 deadline=$((SECONDS + 60))
    while (($(e2e_redis hlen matches:running) < want)); do
        ((SECONDS < deadline)) || e2e_fail "fewer than $want matches running after 60 s"
        kill -0 "$E2E_BOTS_PID" 2>/dev/null ||
            e2e_fail "the bots exited early: $(tail -n 5 "$E2E_RUN/bots.err")"
        sleep 0.2
    done
}

# The start of every fault test: a cluster (e2e_start BASE WORKERS [GATEWAYS]) with bots
# playing MATCHES two-player matches, of which three quarters run at once, a second into
# their play, so that the fault lands mid-game.
e2e_start_busy() {
    local matches=$1
    shift
    e2e_start "$@"
    e2e_bots_start "$matches"
    e2e_wait_running $((matches * 3 / 4))
    sleep 1
}

# The ids of the matches the worker with id WORKER (wk-N) runs now, per matches:running.
e2e_matches_on() {
    e2e_redis hgetall matches:running | paste - - | awk -v w="$1" '$2 == w { print $1 }'
}

# Wait for the bots of e2e_bots_start: they must exit 0 with the last line
# "matches_completed=MATCHES errors=0".
e2e_bots_wait() {
    local matches=$1 rc=0 last
    wait "$E2E_BOTS_PID" || rc=$?
    last=$(grep -v '^[[:space:]]*$' "$E2E_RUN/bots.out" | tail -n 1)
    e2e_log "bots: $last; $(grep -E '^bots: retried=' "$E2E_RUN/bots.err" | tail -n 1)"
    ((rc == 0)) || {
        tail -n 20 "$E2E_RUN/bots.err" >&2
        e2e_fail "deckhand bots exited with $rc"
    }
    [[ $last == "matches_completed=$matches errors=0" ]] || e2e_fail "bots ended with '$last'"
}

# The cluster's first gateway, stopped by a fault, starts again (dh_cluster_restart) and
# serves: within 10 s it listens, and a match of two bots through GATEWAYS (its own
# address, or every gateway's) plays to its end.
e2e_gateway_restarts_and_serves() {
    local gateways=$1 deadline=$((SECONDS + 10)) out
    dh_cluster_restart "$E2E_RUN" gateway
    until dh_port_open "${DECKHAND_GATEWAY_TCP##*:}"; do
        ((SECONDS < deadline)) || e2e_fail "the restarted gateway does not listen"
        sleep 0.1
    done
    out=$(timeout 60 "$DECKHAND_BIN_DIR/deckhand" bots --game dominion --players 2 --size 2 \
        --matches 1 --timeout 30 --gateway "$gateways" 2>/dev/null </dev/null | tail -n 1)
    [[ $out == "matches_completed=1 errors=0" ]] || e2e_fail "after the restart: '$out'"
    e2e_log "the restarted gateway serves again: $out"
}
