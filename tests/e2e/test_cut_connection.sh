#!/usr/bin/env bash
# test_cut_connection.sh: a live worker falsely taken for dead. Its connections to the
# matchmaker are cut (ss -K destroys both ends of each TCP connection, as a reset from a
# middlebox or a flapping link would) while the process runs on and its players keep
# playing through the gateway. The matchmaker sees the connections close, finds the
# worker's route gone and declares it dead at once ("connection closed"), and moves its
# matches; the worker reconnects within moments and says hello again, still holding those
# matches in memory, with their players' commands sent before the gateway heard of the
# move waiting for it. Every write it tries to them fails the epoch fence, so it drops
# each one and corrupts none: every match finishes once, and replays to the hash its
# worker recorded. test_partition.sh is the same false verdict by silence (SIGSTOP).
#
# Needs ss -K (the kernel's sock_destroy, as root): without it the test is skipped (77).
# shellcheck source=SCRIPTDIR/e2e_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/e2e_lib.sh"

MATCHES=30
MM_LOG=

# The local ports of PID's TCP connections to the matchmaker's port.
worker_ports() {
    ss -tnpH state established "( dport = :$1 )" |
        awk -v pid="pid=$2," 'index($0, pid) { n = split($3, a, ":"); print a[n] }'
}

# Cut every connection of PID to the matchmaker's port MM, both ends; how many.
cut_links() {
    local mm=$1 pid=$2 port n=0
    for port in $(worker_ports "$mm" "$pid"); do
        ss -K -tn "( sport = :$port and dport = :$mm ) or ( sport = :$mm and dport = :$port )" \
            >/dev/null 2>&1 || true
        n=$((n + 1))
    done
    echo "$n"
}

# Can this machine destroy a socket? A throwaway connection tells.
can_cut() {
    python3 - <<'PY'
import socket, subprocess, sys
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
port = s.getsockname()[1]
c = socket.create_connection(("127.0.0.1", port)); a, _ = s.accept()
subprocess.run(["ss", "-K", "-tn", f"( dport = :{port} )"], capture_output=True)
try:
    c.send(b"x"); c.recv(1)
except OSError:
    sys.exit(0)
sys.exit(1)
PY
}

if ! command -v ss >/dev/null || ! can_cut; then
    e2e_log "SKIPPED: ss -K cannot destroy sockets here (needs root and sock_destroy)"
    exit 77
fi

e2e_start_busy "$MATCHES" 28600 3
MM_LOG=$E2E_RUN/logs/matchmaker.log
mm_port=${DECKHAND_MATCHMAKER##*:}
pid=$(cut -d" " -f1 "$E2E_RUN/pids/worker-2.pid")
[[ -n $(e2e_matches_on wk-2) ]] || e2e_fail "no match runs on wk-2"

# The worker pauses for 0.6 s around the cut (a GC-like pause, shorter than the silence
# limit and than its own frozen check, so neither of those acts): its players' commands
# queue up at it meanwhile, and it runs them once it wakes, after its matches moved,
# so its writes meet the fence rather than its periodic ownership check. The pause also
# keeps it from reconnecting before the matchmaker's probes look.
kill -STOP "$pid"
sleep 0.3
n=$(cut_links "$mm_port" "$pid")
((n > 0)) || e2e_fail "wk-2 (pid $pid) has no connection to the matchmaker's port $mm_port"
e2e_log "wk-2 paused; cut its $n connections to the matchmaker"
sleep 0.3
kill -CONT "$pid"
sleep 1
grep -q 'worker wk-2 connection closed' "$MM_LOG" ||
    e2e_fail "the matchmaker never saw wk-2's connection close"
grep -q 'worker wk-2 silent' "$MM_LOG" && e2e_fail "wk-2 was declared dead by silence, not the cut"
kill -0 "$pid" 2>/dev/null || e2e_fail "wk-2 died: the test cuts its connections, not the process"
victims=$(awk '/worker wk-2 connection closed/ { cut = 1 }
    cut && / moved from wk-2 to / { sub(":", "", $5); print $5 }' "$MM_LOG" | sort -u)
nvictims=$(wc -w <<<"$victims")
((nvictims > 0)) || e2e_fail "no match moved off wk-2"
e2e_log "wk-2 declared dead by its closed connection; $nvictims of its matches moved"

e2e_bots_wait "$MATCHES"

awk '/worker wk-2 connection closed/ { cut = 1 } cut && /worker wk-2 (up|back)/ { seen = 1 }
    END { exit !seen }' "$MM_LOG" || e2e_fail "wk-2 was not registered again after the cut"
dropped=$(grep -c 'owned by another worker now' "$E2E_RUN/logs/worker-2.log" || true)
((dropped == nvictims)) || e2e_fail "wk-2 dropped $dropped of its $nvictims lost matches"
fenced=$(curl -fsS "http://$DECKHAND_HTTP_WORKER_2/metrics" |
    awk '$1 == "deckhand_worker_fenced_writes_total" { print $2 }')
((fenced > 0)) || e2e_fail "wk-2 wrote nothing that the fence refused (fenced writes: '$fenced')"
e2e_log "wk-2 dropped each of its $dropped lost matches; the fence refused $fenced of its writes"
# shellcheck disable=SC2086 # the victims, one word each
e2e_check_moved_off wk-2 $victims
e2e_log "all $nvictims moved matches belong to other workers at epoch >= 2"

e2e_check_finished_once "$MATCHES"
e2e_log "every match finished once and replays; wk-2 kept out of the moved matches"
