#!/usr/bin/env bash
# bench/mm_syscalls.sh [BINDIR]: the matchmaker's system calls per match flat out (issue 27).
# Starts a fresh cluster from BINDIR (default DECKHAND_BIN_DIR, else build-rel/bin; 1
# gateway, 1 matchmaker, 2 workers, one Redis, ports from 26300), runs `deckhand load`
# flat out with 1,000 players of two-player Dominion (--bot local) for 14 s, and from 5 s
# in counts for 5 s, per thread of the matchmaker (`perf stat --per-thread`: needs perf and
# the syscalls tracepoints), every system call, context switches, CPU time and the calls by
# kind, each divided by the matches started in that window. Lines:
#   matches=.. load=LOADAVG | the load's last line
#   THREAD-TID: ALL=.. context-switches=.. cpu_us=.. poll=.. getpid=.. read=.. ...
# The loop's thread is deckhand-matchm, ZeroMQ's I/O thread ZMQbg/IO/0; threads that made
# no call in the window are left out. Compare builds alternated (docs/BENCHMARKS.md).
set -uo pipefail
DH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export DH_ROOT
B=${1:-${DECKHAND_BIN_DIR:-$DH_ROOT/build-rel/bin}}
export DECKHAND_BIN_DIR=$B
command -v perf >/dev/null || {
    echo "perf is not installed" >&2
    exit 1
}
# shellcheck source=SCRIPTDIR/lib/mm_cluster.sh
source "$DH_ROOT/bench/lib/mm_cluster.sh"
mm_cluster_start mm-syscalls 26300
run=$RUN
"$B/deckhand" load --game dominion --players 1000 --seconds 14 --gateway "$DECKHAND_GATEWAY_TCP" \
    --bot local >"$run/out" 2>&1 </dev/null &
load=$!
sleep 5
m0=$(mm_metric deckhand_matchmaker_matches_started_total)
ev=raw_syscalls:sys_enter,context-switches,task-clock
for s in poll getpid read write sendto recvfrom epoll_wait getrandom; do
    ev=$ev,syscalls:sys_enter_$s
done
perf stat --per-thread -x, -p "$MM_PID" -e "$ev" -- sleep 5 2>"$run/perf" >/dev/null
m1=$(mm_metric deckhand_matchmaker_matches_started_total)
wait "$load"
n=$((m1 - m0))
((n > 0)) || {
    echo "no match started in the window" >&2
    exit 1
}
echo "matches=$n load=$(cut -d' ' -f1-3 /proc/loadavg) | $(tail -n 1 "$run/out")"
awk -F, -v n="$n" '$2 ~ /^[0-9.]+$/ && $2 > 0 {
    e = $4; sub(/syscalls:sys_enter_/, "", e); sub(/raw_syscalls:sys_enter/, "ALL", e)
    x = $2 / n; if (e == "task-clock") { e = "cpu_us"; x *= 1000 }
    v[$1] = v[$1] sprintf(" %s=%.2f", e, x) }
    END { for (t in v) print t ":" v[t] }' "$run/perf"
